/*
 * test_krl.c: key revocation lists: lookups of every kind, the serial
 * encodings surviving a write/parse round trip (dense, sparse, mixed and
 * large sets), the parser refusing truncated, malformed and garbage input,
 * and loading a KRL or a text key list from a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cert.h"
#include "key.h"
#include "krl.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

static struct key_cert *
make_cert(const struct key *subj, const struct key *ca, uint64_t serial,
    const char *id)
{
	struct key_cert *c = NULL;

	CHECK_OK(cert_new(subj, CERT_TYPE_USER, &c));
	c->serial = serial;
	x_free(c->key_id);
	c->key_id = x_strdup(id);
	CHECK_OK(cert_sign(c, ca, NULL));
	return c;
}

/* Serialize and parse back; returns the parsed KRL. */
static struct krl *
roundtrip(struct krl *krl, size_t *sizep)
{
	struct sbuf *b = sbuf_new();
	struct krl *out = NULL;

	CHECK_OK(krl_serialize(krl, b));
	if (sizep != NULL)
		*sizep = sbuf_len(b);
	CHECK_OK(krl_parse(b, &out));
	sbuf_free(b);
	return out;
}

static int
dump_equal(const struct krl *a, const struct krl *b)
{
	struct sbuf *x = sbuf_new(), *y = sbuf_new();
	int eq;

	CHECK_OK(krl_dump(a, x));
	CHECK_OK(krl_dump(b, y));
	eq = sbuf_equal(x, y);
	sbuf_free(x);
	sbuf_free(y);
	return eq;
}

static void
test_keys_and_certs(void)
{
	struct key *ca = NULL, *ca2 = NULL, *k[6];
	struct key_cert *c1, *c2, *c3, *c4;
	struct krl *krl = krl_new(), *p = NULL;
	size_t i;

	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	CHECK_OK(key_generate(KEY_ECDSA, 0, &ca2));
	for (i = 0; i < 6; i++)
		CHECK_OK(key_generate(KEY_ED25519, 0, &k[i]));
	c1 = make_cert(k[3], ca, 7, "alice");
	c2 = make_cert(k[4], ca, 9, "bob");
	c3 = make_cert(k[4], ca2, 7, "carol");
	c4 = make_cert(k[5], ca2, 0, "dave");

	CHECK_OK(krl_revoke_key(krl, k[0]));
	CHECK_OK(krl_revoke_key_sha1(krl, k[1]));
	CHECK_OK(krl_revoke_key_sha256(krl, k[2]));
	CHECK_OK(krl_revoke_cert_serial(krl, ca, 5, 8));
	CHECK_OK(krl_revoke_cert_keyid(krl, NULL, "dave"));
	CHECK_ERR(krl_revoke_cert_serial(krl, ca, 0, 3), ERR_INVALID_ARGUMENT);
	CHECK_ERR(krl_revoke_cert_serial(krl, ca, 9, 3), ERR_INVALID_ARGUMENT);

	for (i = 0; i < 2; i++) {
		const struct krl *q = krl;

		if (i == 1)
			q = p = roundtrip(krl, NULL);
		CHECK_ERR(krl_check_key(q, k[0], NULL), ERR_KEY_REVOKED);
		CHECK_ERR(krl_check_key(q, k[1], NULL), ERR_KEY_REVOKED);
		CHECK_ERR(krl_check_key(q, k[2], NULL), ERR_KEY_REVOKED);
		CHECK_OK(krl_check_key(q, k[3], NULL));
		CHECK_OK(krl_check_key(q, ca, NULL));
		CHECK_ERR(krl_check_key(q, c1->key, c1), ERR_KEY_REVOKED);
		CHECK_OK(krl_check_key(q, c2->key, c2));
		/* Same serial under another CA is not revoked. */
		CHECK_OK(krl_check_key(q, c3->key, c3));
		/* Key ID under "any CA". */
		CHECK_ERR(krl_check_key(q, c4->key, c4), ERR_KEY_REVOKED);
		if (i == 1) {
			CHECK(dump_equal(krl, p));
			krl_free(p);
		}
	}
	/* Revoking the CA key revokes everything it signed. */
	CHECK_OK(krl_revoke_key(krl, ca2));
	CHECK_ERR(krl_check_key(krl, c3->key, c3), ERR_KEY_REVOKED);
	/* The plain key of a cert revoked by hash. */
	CHECK_OK(krl_revoke_key_sha256(krl, k[4]));
	CHECK_ERR(krl_check_key(krl, c2->key, c2), ERR_KEY_REVOKED);
	/* Key ID under a specific CA. */
	krl_free(krl);
	krl = krl_new();
	CHECK_OK(krl_revoke_cert_keyid(krl, ca, "bob"));
	CHECK_ERR(krl_check_key(krl, c2->key, c2), ERR_KEY_REVOKED);
	CHECK_OK(krl_check_key(krl, c3->key, c3));
	cert_free(c1);
	cert_free(c2);
	cert_free(c3);
	cert_free(c4);
	for (i = 0; i < 6; i++)
		key_free(k[i]);
	key_free(ca);
	key_free(ca2);
	krl_free(krl);
}

/* Check a KRL revokes exactly the serials in want[0..n) among 1..max. */
static void
check_serials(const struct krl *krl, const struct key *ca,
    const struct key *subj, const unsigned char *want, uint64_t max)
{
	struct key_cert *c = make_cert(subj, ca, 1, "x");
	uint64_t s;
	int bad = 0, r;

	for (s = 1; s <= max; s++) {
		c->serial = s;
		r = krl_check_key(krl, c->key, c);
		if ((r == ERR_KEY_REVOKED) != (want[s] != 0))
			bad++;
	}
	CHECK(bad == 0);
	cert_free(c);
}

static void
test_serial_sets(void)
{
	struct key *ca = NULL, *subj = NULL;
	struct krl *krl, *p;
	unsigned char *want;
	uint64_t max = 60000, s, lo;
	size_t size, pattern;

	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	CHECK_OK(key_generate(KEY_ED25519, 0, &subj));
	want = x_calloc(max + 2, 1);
	srand(1);
	for (pattern = 0; pattern < 5; pattern++) {
		memset(want, 0, max + 2);
		krl = krl_new();
		for (s = 1; s <= max; s++) {
			switch (pattern) {
			case 0:	/* dense runs */
				want[s] = (s / 1000) % 3 != 0;
				break;
			case 1:	/* sparse */
				want[s] = s % 997 == 0;
				break;
			case 2:	/* random half */
				want[s] = rand() & 1;
				break;
			case 3:	/* mixed: clusters and isolated serials */
				want[s] = (s % 5000) < 40 ||
				    ((s % 5000) < 400 && s % 3 == 0) ||
				    s % 4111 == 0;
				break;
			default: /* everything */
				want[s] = 1;
				break;
			}
		}
		/* Insert runs in reverse order to exercise sorting. */
		for (s = max; s >= 1; s--) {
			if (!want[s])
				continue;
			lo = s;
			while (lo > 1 && want[lo - 1])
				lo--;
			CHECK_OK(krl_revoke_cert_serial(krl, ca, lo, s));
			s = lo;
		}
		check_serials(krl, ca, subj, want, max);
		p = roundtrip(krl, &size);
		CHECK(p != NULL);
		if (p != NULL) {
			check_serials(p, ca, subj, want, max);
			CHECK(dump_equal(krl, p));
		}
		if (pattern == 4)
			CHECK(size < 200);
		if (pattern == 2)	/* bitmap: about a bit a serial */
			CHECK(size < max / 8 + 2000);
		krl_free(p);
		krl_free(krl);
	}
	/* One million serials in dense runs: the KRL stays small. */
	krl = krl_new();
	for (s = 1; s < 2000000; s += 2000)
		CHECK_OK(krl_revoke_cert_serial(krl, ca, s, s + 1999 - 1000));
	p = roundtrip(krl, &size);
	CHECK(size < 40000);
	CHECK(p != NULL && dump_equal(krl, p));
	krl_free(p);
	krl_free(krl);
	/* Serials near the top of the range. */
	krl = krl_new();
	CHECK_OK(krl_revoke_cert_serial(krl, ca, UINT64_MAX - 3, UINT64_MAX));
	CHECK_OK(krl_revoke_cert_serial(krl, ca, UINT64_MAX - 10,
	    UINT64_MAX - 10));
	p = roundtrip(krl, NULL);
	CHECK(p != NULL && dump_equal(krl, p));
	krl_free(p);
	krl_free(krl);
	x_free(want);
	key_free(ca);
	key_free(subj);
}

/* A header, then the given raw sections. */
static struct sbuf *
hdr(uint32_t fmt)
{
	struct sbuf *b = sbuf_new();

	sbuf_put(b, KRL_MAGIC, KRL_MAGIC_LEN);
	sbuf_put_u32(b, fmt);
	sbuf_put_u64(b, 1);
	sbuf_put_u64(b, 0);
	sbuf_put_u64(b, 0);
	sbuf_put_string(b, NULL, 0);
	sbuf_put_cstring(b, "");
	return b;
}

static int
parse_raw(struct sbuf *b)
{
	struct krl *k = NULL;
	int r = krl_parse(b, &k);

	CHECK((r == 0) == (k != NULL));
	krl_free(k);
	sbuf_free(b);
	return r;
}

/* A certificate section for an any-CA with one subsection. */
static struct sbuf *
cert_sect(uint8_t type, const struct sbuf *sub)
{
	struct sbuf *b = hdr(1), *s = sbuf_new();

	sbuf_put_string(s, NULL, 0);
	sbuf_put_string(s, NULL, 0);
	sbuf_put_u8(s, type);
	sbuf_put_stringb(s, sub);
	sbuf_put_u8(b, KRL_SECTION_CERTIFICATES);
	sbuf_put_stringb(b, s);
	sbuf_free(s);
	return b;
}

/* Sections that do not parse, and the few odd ones that do. */
static void
test_parser_sections(void)
{
	struct sbuf *b, *s;
	struct krl *p = NULL;
	struct key *ca = NULL;
	unsigned char h[32] = { 1 };
	int r;

	CHECK_OK(parse_raw(hdr(1)));
	CHECK_ERR(parse_raw(hdr(2)), ERR_INVALID_FORMAT);
	b = hdr(1);
	sbuf_mutable_ptr(b)[0] = 'X';
	CHECK_ERR(parse_raw(b), ERR_KRL_BAD_MAGIC);
	/* Unknown section; trailing bytes inside a section. */
	b = hdr(1);
	sbuf_put_u8(b, 9);
	sbuf_put_string(b, NULL, 0);
	CHECK_ERR(parse_raw(b), ERR_INVALID_FORMAT);
	b = hdr(1);
	sbuf_put_u8(b, KRL_SECTION_FINGERPRINT_SHA1);
	sbuf_put_u32(b, 4 + 20 + 1);
	sbuf_put_string(b, h, 20);
	sbuf_put_u8(b, 0);
	CHECK_ERR(parse_raw(b), ERR_INVALID_FORMAT);
	/* Hash of the wrong length. */
	b = hdr(1);
	sbuf_put_u8(b, KRL_SECTION_FINGERPRINT_SHA256);
	sbuf_put_u32(b, 4 + 20);
	sbuf_put_string(b, h, 20);
	CHECK_ERR(parse_raw(b), ERR_INVALID_FORMAT);
	/* An explicit key that is not a key. */
	b = hdr(1);
	sbuf_put_u8(b, KRL_SECTION_EXPLICIT_KEY);
	sbuf_put_u32(b, 4 + 20);
	sbuf_put_string(b, h, 20);
	CHECK_ERR(parse_raw(b), ERR_INVALID_FORMAT);
	/* Serial zero, inverted range, bitmap reaching zero, odd list. */
	s = sbuf_new();
	sbuf_put_u64(s, 0);
	CHECK_ERR(parse_raw(cert_sect(KRL_SECTION_CERT_SERIAL_LIST, s)),
	    ERR_INVALID_FORMAT);
	sbuf_reset(s);
	sbuf_put_u64(s, 9);
	sbuf_put_u64(s, 3);
	CHECK_ERR(parse_raw(cert_sect(KRL_SECTION_CERT_SERIAL_RANGE, s)),
	    ERR_INVALID_FORMAT);
	sbuf_reset(s);
	sbuf_put_u64(s, 0);
	sbuf_put_mpint_bytes(s, "\x03", 1);
	CHECK_ERR(parse_raw(cert_sect(KRL_SECTION_CERT_SERIAL_BITMAP, s)),
	    ERR_INVALID_FORMAT);
	sbuf_reset(s);
	sbuf_put_u64(s, UINT64_MAX - 2);
	sbuf_put_mpint_bytes(s, "\x01\x00", 2);
	CHECK_ERR(parse_raw(cert_sect(KRL_SECTION_CERT_SERIAL_BITMAP, s)),
	    ERR_INVALID_FORMAT);
	sbuf_reset(s);
	sbuf_put_u64(s, 5);
	sbuf_put_u32(s, 7);
	CHECK_ERR(parse_raw(cert_sect(KRL_SECTION_CERT_SERIAL_LIST, s)),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(parse_raw(cert_sect(0x29, s)), ERR_INVALID_FORMAT);
	/* Unsorted, overlapping lists are merged as OpenSSH does. */
	sbuf_reset(s);
	sbuf_put_u64(s, 9);
	sbuf_put_u64(s, 3);
	sbuf_put_u64(s, 4);
	sbuf_put_u64(s, 9);
	b = cert_sect(KRL_SECTION_CERT_SERIAL_LIST, s);
	CHECK_OK(krl_parse(b, &p));
	if (p != NULL) {
		struct sbuf *d = sbuf_new();

		krl_dump(p, d);
		sbuf_put_u8(d, 0);
		CHECK(strstr((const char *)sbuf_ptr(d),
		    "# Wildcard CA\nserial: 3-4\nserial: 9\n") != NULL);
		sbuf_free(d);
		krl_free(p);
	}
	sbuf_free(b);
	/* A section after a signature. */
	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	b = hdr(1);
	sbuf_reset(s);
	sbuf_put_u8(b, KRL_SECTION_SIGNATURE);
	key_to_blob(ca, s);
	sbuf_put_u32(b, 4 + sbuf_len(s) + 4 + 3);
	sbuf_put_stringb(b, s);
	sbuf_put_string(b, "sig", 3);
	r = krl_parse(b, &p);
	CHECK_OK(r);
	krl_free(p);
	sbuf_put_u8(b, KRL_SECTION_FINGERPRINT_SHA1);
	sbuf_put_u32(b, 0);
	CHECK_ERR(parse_raw(b), ERR_INVALID_FORMAT);
	sbuf_free(s);
	key_free(ca);
}

static void
test_parser_truncations(void)
{
	struct sbuf *b, *s;
	struct krl *krl = krl_new(), *p = NULL;
	struct key *ca = NULL, *k = NULL;
	size_t len, i, nbound = 0, bounds[16];
	int r, bad;

	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	/* Every truncation fails unless it ends on a section boundary. */
	CHECK_OK(key_generate(KEY_ECDSA, 0, &k));
	CHECK_OK(krl_revoke_key(krl, k));
	CHECK_OK(krl_revoke_key_sha1(krl, k));
	CHECK_OK(krl_revoke_key_sha256(krl, ca));
	CHECK_OK(krl_revoke_cert_serial(krl, ca, 3, 100));
	CHECK_OK(krl_revoke_cert_serial(krl, ca, 200, 200));
	CHECK_OK(krl_revoke_cert_keyid(krl, ca, "id"));
	b = sbuf_new();
	CHECK_OK(krl_serialize(krl, b));
	s = sbuf_dup(b);
	/* Walk the outer sections to know the boundaries. */
	sbuf_consume(s, 8 + 4 + 8 + 8 + 8);
	sbuf_get_string_direct(s, NULL, NULL);
	sbuf_get_string_direct(s, NULL, NULL);
	bounds[nbound++] = sbuf_len(b) - sbuf_len(s);
	while (sbuf_len(s) > 0 && nbound < 16) {
		uint8_t t;

		if (sbuf_get_u8(s, &t) != 0 ||
		    sbuf_get_string_direct(s, NULL, NULL) != 0)
			break;
		bounds[nbound++] = sbuf_len(b) - sbuf_len(s);
	}
	CHECK(nbound == 5);
	bad = 0;
	for (len = 0; len < sbuf_len(b); len++) {
		struct sbuf *t = sbuf_from(sbuf_ptr(b), len);
		int at_bound = 0;

		for (i = 0; i < nbound; i++)
			at_bound |= bounds[i] == len;
		r = krl_parse(t, &p);
		if ((r == 0) != at_bound)
			bad++;
		krl_free(p);
		p = NULL;
		sbuf_free(t);
	}
	CHECK(bad == 0);
	/* Random corruption never crashes and never half-succeeds. */
	srand(7);
	for (i = 0; i < 20000; i++) {
		struct sbuf *t = sbuf_dup(b);
		unsigned char *m = sbuf_mutable_ptr(t);

		m[8 + rand() % (sbuf_len(t) - 8)] ^= (unsigned char)(1 +
		    rand() % 255);
		r = krl_parse(t, &p);
		CHECK((r == 0) == (p != NULL));
		krl_free(p);
		p = NULL;
		sbuf_free(t);
	}
	sbuf_free(s);
	sbuf_free(b);
	key_free(k);
	key_free(ca);
	krl_free(krl);
}

static void
test_parser_rejects(void)
{
	test_parser_sections();
	test_parser_truncations();
}

static void
test_load_file(void)
{
	char path[] = "/tmp/test_krl.XXXXXX";
	struct key *k1 = NULL, *k2 = NULL;
	struct krl *krl = krl_new(), *p = NULL;
	struct sbuf *b = sbuf_new();
	char *t1, *t2;
	FILE *f;
	int fd;

	CHECK_OK(key_generate(KEY_ED25519, 0, &k1));
	CHECK_OK(key_generate(KEY_ED25519, 0, &k2));
	t1 = key_public_text(k1);
	t2 = key_public_text(k2);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	f = fopen(path, "w");
	fprintf(f, "# revoked\n\n%s comment here\n", t1);
	fclose(f);
	CHECK_OK(krl_load_file(path, &p));
	CHECK_ERR(krl_check_key(p, k1, NULL), ERR_KEY_REVOKED);
	CHECK_OK(krl_check_key(p, k2, NULL));
	krl_free(p);
	p = NULL;
	f = fopen(path, "w");
	fprintf(f, "%s\nnot a key\n", t2);
	fclose(f);
	CHECK_ERR(krl_load_file(path, &p), ERR_INVALID_FORMAT);
	CHECK(p == NULL);
	CHECK_OK(krl_revoke_key_sha256(krl, k2));
	CHECK_OK(krl_serialize(krl, b));
	f = fopen(path, "w");
	fwrite(sbuf_ptr(b), 1, sbuf_len(b), f);
	fclose(f);
	CHECK_OK(krl_load_file(path, &p));
	CHECK_OK(krl_check_key(p, k1, NULL));
	CHECK_ERR(krl_check_key(p, k2, NULL), ERR_KEY_REVOKED);
	krl_free(p);
	p = NULL;
	/* A truncated binary KRL is an error, not a text file. */
	f = fopen(path, "w");
	fwrite(sbuf_ptr(b), 1, sbuf_len(b) - 1, f);
	fclose(f);
	CHECK(krl_load_file(path, &p) != 0);
	unlink(path);
	CHECK_ERR(krl_load_file(path, &p), ERR_SYSTEM);
	x_free(t1);
	x_free(t2);
	sbuf_free(b);
	key_free(k1);
	key_free(k2);
	krl_free(krl);
}

int
main(void)
{
	test_keys_and_certs();
	test_serial_sets();
	test_parser_rejects();
	test_load_file();
	return TEST_DONE();
}
