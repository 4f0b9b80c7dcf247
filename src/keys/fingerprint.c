/*
 * fingerprint.c: key fingerprints and the randomart picture, as
 * ssh-keygen -l and -lv print them.
 *
 * A fingerprint is a hash of the public key blob: "SHA256:" and the
 * base64 of the digest without '=' padding, or "MD5:" and the digest in
 * lower-case hex pairs joined by ':'.
 *
 * The randomart ("drunken bishop") walks a 17x9 field from its centre:
 * each digest byte, low bits first, gives four moves of two bits (bit 0
 * right/left, bit 1 down/up), clamped at the walls; every square visited
 * counts up. Counts become the characters of " .o+=*BOX@%&#/^", the start
 * is 'S' and the end 'E'. The frame carries "[TYPE BITS]" on top and
 * "[HASH]" below, both centred.
 */
#include <string.h>

#include <openssl/evp.h>

#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

#define ART_W	17
#define ART_H	9

static const char art_chars[] = " .o+=*BOX@%&#/^SE";

static int
fp_digest(const struct key *k, enum key_fp_hash hash,
    unsigned char *dgst, unsigned int *dlenp)
{
	struct sbuf *b = sbuf_new();
	const EVP_MD *md = hash == KEY_FP_MD5 ? EVP_md5() : EVP_sha256();
	int r;

	if ((r = key_to_blob(k, b)) == 0 &&
	    EVP_Digest(sbuf_ptr(b), sbuf_len(b), dgst, dlenp, md, NULL) != 1)
		r = ERR_LIBCRYPTO;
	sbuf_free(b);
	return r;
}

char *
key_fingerprint(const struct key *k, enum key_fp_hash hash)
{
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen, i;
	struct sbuf *b;
	char *s, *ret;
	size_t n;

	if (fp_digest(k, hash, dgst, &dlen) != 0)
		return NULL;
	if (hash == KEY_FP_MD5) {
		ret = x_malloc(4 + 3 * dlen + 1);
		memcpy(ret, "MD5:", 4);
		for (i = 0; i < dlen; i++)
			snprintf(ret + 4 + 3 * i, 4, "%02x%s", dgst[i],
			    i + 1 < dlen ? ":" : "");
		return ret;
	}
	if ((b = sbuf_from(dgst, dlen)) == NULL)
		return NULL;
	s = sbuf_to_b64(b, 0);
	sbuf_free(b);
	if (s == NULL)
		return NULL;
	n = strlen(s);
	while (n > 0 && s[n - 1] == '=')
		s[--n] = '\0';
	ret = x_asprintf("SHA256:%s", s);
	x_free(s);
	return ret;
}

/* One frame line: '+', title centred in dashes, '+', newline. */
static void
art_frame(char *p, const char *title)
{
	size_t tlen = strlen(title), off;

	if (tlen > ART_W)
		tlen = ART_W;
	off = (ART_W - tlen) / 2;
	p[0] = '+';
	memset(p + 1, '-', ART_W);
	memcpy(p + 1 + off, title, tlen);
	p[ART_W + 1] = '+';
}

char *
key_randomart(const struct key *k, enum key_fp_hash hash)
{
	unsigned char dgst[EVP_MAX_MD_SIZE], field[ART_W][ART_H];
	const unsigned char top = (unsigned char)(sizeof(art_chars) - 4);
	unsigned int dlen, i, j, x = ART_W / 2, y = ART_H / 2;
	char title[ART_W + 8], *out, *p;
	unsigned char c;

	if (fp_digest(k, hash, dgst, &dlen) != 0)
		return NULL;
	memset(field, 0, sizeof(field));
	for (i = 0; i < dlen; i++) {
		c = dgst[i];
		for (j = 0; j < 4; j++, c >>= 2) {
			if (c & 1)
				x += x < ART_W - 1;
			else
				x -= x > 0;
			if (c & 2)
				y += y < ART_H - 1;
			else
				y -= y > 0;
			if (field[x][y] < top)
				field[x][y]++;
		}
	}
	field[ART_W / 2][ART_H / 2] = top + 1;	/* 'S' */
	field[x][y] = top + 2;			/* 'E' */

	/* (ART_W + 3) per line: 2 frame lines and ART_H rows. */
	out = p = x_malloc((ART_W + 3) * (ART_H + 2) + 1);
	snprintf(title, sizeof(title), "[%s %u]", keytype_of(k)->shortname,
	    key_bits(k));
	art_frame(p, title);
	p += ART_W + 2;
	*p++ = '\n';
	for (y = 0; y < ART_H; y++) {
		*p++ = '|';
		for (x = 0; x < ART_W; x++)
			*p++ = art_chars[field[x][y]];
		*p++ = '|';
		*p++ = '\n';
	}
	art_frame(p, hash == KEY_FP_MD5 ? "[MD5]" : "[SHA256]");
	p += ART_W + 2;
	*p = '\0';
	return out;
}
