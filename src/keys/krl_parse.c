/*
 * krl_parse.c: reading a KRL (PROTOCOL.krl) from bytes, and loading a KRL
 * or a text file of public keys from disk.
 *
 * The parser reads untrusted bytes only through the sbuf getters, checks
 * every section and subsection is consumed exactly, and relies on the
 * sets' caps (krl.c) for what it will hold. Any failure frees everything:
 * no partly parsed KRL ever reaches a caller.
 */
#include <stdlib.h>
#include <string.h>

#include "cert.h"
#include "err.h"
#include "key.h"
#include "krl.h"
#include "krl_int.h"
#include "mem.h"
#include "sbuf.h"

#define KRL_FILE_MAX	(64u * 1024 * 1024)

static int
parse_bitmap(struct krl_ca *c, struct sbuf *s)
{
	const unsigned char *bm;
	size_t len, i, top;
	uint64_t base, lo = 0, pos;
	int r, bit, inrun = 0;

	/* An mpint, read as a string: bitmaps may exceed bignum caps. */
	if ((r = sbuf_get_u64(s, &base)) != 0 ||
	    (r = sbuf_get_string_direct(s, &bm, &len)) != 0)
		return r;
	if (len > 0 && (bm[0] & 0x80) != 0)
		return ERR_INVALID_FORMAT;
	while (len > 0 && bm[0] == 0) {
		bm++;
		len--;
	}
	if (len == 0)
		return 0;
	/* The highest set bit (the mpint has no leading zero byte). */
	for (top = len * 8 - 1; ((bm[0] >> (top % 8)) & 1) == 0; top--)
		;
	if (base + top < base)
		return ERR_INVALID_FORMAT;
	/* Bit i (from the least significant end) is serial base + i. */
	for (i = 0; i <= top; i++) {
		bit = (bm[len - 1 - i / 8] >> (i % 8)) & 1;
		pos = base + i;
		if (bit && !inrun) {
			lo = pos;
			inrun = 1;
		} else if (!bit && inrun) {
			if ((r = krl_ranges_add(c, lo, pos - 1)) != 0)
				return r;
			inrun = 0;
		}
	}
	return krl_ranges_add(c, lo, base + top);
}

static int
parse_cert_section(struct krl *krl, struct sbuf *s)
{
	const unsigned char *blob, *p;
	struct sbuf *sub = NULL;
	struct krl_ca *c;
	size_t len, plen;
	uint64_t lo, hi;
	uint8_t type;
	int r;

	if ((r = sbuf_get_string_direct(s, &blob, &len)) != 0 ||
	    (r = sbuf_get_string_direct(s, NULL, NULL)) != 0)
		return r;
	if ((r = krl_ca_find(krl, blob, len, 1, &c)) != 0)
		return r == ERR_NO_BUFFER_SPACE ? r : ERR_INVALID_FORMAT;
	while (sbuf_len(s) > 0) {
		if ((r = sbuf_get_u8(s, &type)) != 0 ||
		    (r = sbuf_get_string_direct(s, &p, &plen)) != 0)
			return r;
		if ((sub = sbuf_from(p, plen)) == NULL)
			return ERR_ALLOC;
		switch (type) {
		case KRL_SECTION_CERT_SERIAL_LIST:
			while (r == 0 && sbuf_len(sub) > 0)
				if ((r = sbuf_get_u64(sub, &lo)) == 0)
					r = krl_ranges_add(c, lo, lo);
			break;
		case KRL_SECTION_CERT_SERIAL_RANGE:
			if ((r = sbuf_get_u64(sub, &lo)) == 0 &&
			    (r = sbuf_get_u64(sub, &hi)) == 0)
				r = krl_ranges_add(c, lo, hi);
			break;
		case KRL_SECTION_CERT_SERIAL_BITMAP:
			r = parse_bitmap(c, sub);
			break;
		case KRL_SECTION_CERT_KEY_ID:
			while (r == 0 && sbuf_len(sub) > 0) {
				char *id;

				if ((r = sbuf_get_cstring(sub, &id, &len))
				    != 0)
					break;
				r = krl_blobset_add(&c->ids,
				    (unsigned char *)id, len);
				x_free(id);
			}
			break;
		default:
			r = ERR_INVALID_FORMAT;
			break;
		}
		if (r == 0 && sbuf_len(sub) != 0)
			r = ERR_INVALID_FORMAT;
		sbuf_free(sub);
		if (r != 0)
			return r;
	}
	return 0;
}

static int
parse_blobs(struct krl_blobset *set, struct sbuf *s, size_t want,
    int is_key)
{
	const unsigned char *p;
	struct key *k;
	size_t len;
	int r;

	while (sbuf_len(s) > 0) {
		if ((r = sbuf_get_string_direct(s, &p, &len)) != 0)
			return r;
		if (want != 0 && len != want)
			return ERR_INVALID_FORMAT;
		if (is_key) {
			if (key_from_blob(p, len, &k) != 0)
				return ERR_INVALID_FORMAT;
			key_free(k);
		}
		if ((r = krl_blobset_add(set, p, len)) != 0)
			return r;
	}
	return 0;
}

static int
parse_signature(struct sbuf *s)
{
	const unsigned char *p;
	struct key *k;
	size_t len;
	int r;

	if ((r = sbuf_get_string_direct(s, &p, &len)) != 0)
		return r;
	if (key_from_blob(p, len, &k) != 0)
		return ERR_INVALID_FORMAT;
	key_free(k);
	return sbuf_get_string_direct(s, NULL, NULL);
}

int
krl_parse(const struct sbuf *b, struct krl **krlp)
{
	struct sbuf *in = NULL, *sec = NULL;
	struct krl *krl = NULL;
	unsigned char magic[KRL_MAGIC_LEN];
	const unsigned char *p;
	size_t len;
	uint32_t fmt;
	uint64_t flags;
	uint8_t type;
	int r, seen_sig = 0;

	*krlp = NULL;
	if ((in = sbuf_from(sbuf_ptr(b), sbuf_len(b))) == NULL)
		return ERR_ALLOC;
	krl = krl_new();
	if ((r = sbuf_get(in, magic, sizeof(magic))) != 0)
		goto out;
	if (memcmp(magic, KRL_MAGIC, KRL_MAGIC_LEN) != 0) {
		r = ERR_KRL_BAD_MAGIC;
		goto out;
	}
	if ((r = sbuf_get_u32(in, &fmt)) != 0)
		goto out;
	if (fmt != KRL_FORMAT_VERSION) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if ((r = sbuf_get_u64(in, &krl->version)) != 0 ||
	    (r = sbuf_get_u64(in, &krl->date)) != 0 ||
	    (r = sbuf_get_u64(in, &flags)) != 0 ||
	    (r = sbuf_get_string_direct(in, NULL, NULL)) != 0 ||
	    (r = sbuf_get_cstring(in, &krl->comment, NULL)) != 0)
		goto out;
	while (sbuf_len(in) > 0) {
		if ((r = sbuf_get_u8(in, &type)) != 0 ||
		    (r = sbuf_get_string_direct(in, &p, &len)) != 0)
			goto out;
		if (seen_sig && type != KRL_SECTION_SIGNATURE) {
			r = ERR_INVALID_FORMAT;
			goto out;
		}
		if ((sec = sbuf_from(p, len)) == NULL) {
			r = ERR_ALLOC;
			goto out;
		}
		switch (type) {
		case KRL_SECTION_CERTIFICATES:
			r = parse_cert_section(krl, sec);
			break;
		case KRL_SECTION_EXPLICIT_KEY:
			r = parse_blobs(&krl->keys, sec, 0, 1);
			break;
		case KRL_SECTION_FINGERPRINT_SHA1:
			r = parse_blobs(&krl->sha1, sec, 20, 0);
			break;
		case KRL_SECTION_FINGERPRINT_SHA256:
			r = parse_blobs(&krl->sha256, sec, 32, 0);
			break;
		case KRL_SECTION_SIGNATURE:
			seen_sig = 1;
			r = parse_signature(sec);
			break;
		default:
			r = ERR_INVALID_FORMAT;
			break;
		}
		if (r == 0 && sbuf_len(sec) != 0)
			r = ERR_INVALID_FORMAT;
		sbuf_free(sec);
		sec = NULL;
		if (r != 0)
			goto out;
	}
	krl_normalize(krl);
	*krlp = krl;
	krl = NULL;
	r = 0;
 out:
	if (r == ERR_MESSAGE_INCOMPLETE || r == ERR_BIGNUM_NEGATIVE ||
	    r == ERR_BIGNUM_TOO_LARGE || r == ERR_STRING_TOO_LARGE)
		r = ERR_INVALID_FORMAT;
	sbuf_free(in);
	krl_free(krl);
	return r;
}

/* A text file of public keys (or certificates: their plain keys). */
static int
parse_text(const unsigned char *d, size_t n, struct krl *krl)
{
	struct key_cert *cert;
	struct key *k;
	const char *cp;
	char *line;
	size_t i, start;
	int r = 0;

	for (start = 0; start < n && r == 0; start = i + 1) {
		for (i = start; i < n && d[i] != '\n'; i++)
			if (d[i] == '\0')
				return ERR_INVALID_FORMAT;
		line = x_strndup((const char *)d + start, i - start);
		cp = line + strspn(line, " \t\r");
		if (*cp == '\0' || *cp == '#') {
			x_free(line);
			continue;
		}
		if (key_read_public_text(&cp, &k) == 0) {
			r = krl_revoke_key(krl, k);
			key_free(k);
		} else if (cp = line + strspn(line, " \t\r"),
		    cert_read_public_text(&cp, &cert) == 0) {
			r = krl_revoke_key(krl, cert->key);
			cert_free(cert);
		} else
			r = ERR_INVALID_FORMAT;
		x_free(line);
	}
	return r;
}

int
krl_load_file(const char *path, struct krl **krlp)
{
	struct sbuf *b = NULL;
	struct krl *krl = NULL;
	unsigned char *dp;
	FILE *f;
	size_t n;
	int r;

	*krlp = NULL;
	if ((f = fopen(path, "rb")) == NULL)
		return ERR_SYSTEM;
	b = sbuf_new();
	for (;;) {
		if (sbuf_len(b) >= KRL_FILE_MAX) {
			r = ERR_NO_BUFFER_SPACE;
			goto out;
		}
		if ((r = sbuf_reserve(b, 65536, &dp)) != 0)
			goto out;
		n = fread(dp, 1, 65536, f);
		if ((r = sbuf_consume_end(b, 65536 - n)) != 0)
			goto out;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		r = ERR_SYSTEM;
		goto out;
	}
	if (sbuf_len(b) >= KRL_MAGIC_LEN &&
	    memcmp(sbuf_ptr(b), KRL_MAGIC, KRL_MAGIC_LEN) == 0) {
		r = krl_parse(b, krlp);
		goto out;
	}
	krl = krl_new();
	if ((r = parse_text(sbuf_ptr(b), sbuf_len(b), krl)) != 0)
		goto out;
	krl_normalize(krl);
	*krlp = krl;
	krl = NULL;
 out:
	fclose(f);
	sbuf_free(b);
	krl_free(krl);
	return r;
}
