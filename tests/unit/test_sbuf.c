/* test_sbuf.c: the wire buffer's bounds checks and encodings. */
#include <string.h>

#include "mem.h"
#include "sbuf.h"
#include "sbuf_int.h"
#include "testlib.h"

static void
test_ints(void)
{
	struct sbuf *b = sbuf_new();
	uint8_t u8;
	uint32_t u32;
	uint64_t u64;

	CHECK_OK(sbuf_put_u8(b, 0xab));
	CHECK_OK(sbuf_put_u32(b, 0x01020304));
	CHECK_OK(sbuf_put_u64(b, 0x1122334455667788ull));
	CHECK(sbuf_len(b) == 13);
	CHECK(sbuf_ptr(b)[1] == 1 && sbuf_ptr(b)[4] == 4);
	CHECK_OK(sbuf_get_u8(b, &u8));
	CHECK(u8 == 0xab);
	CHECK_OK(sbuf_get_u32(b, &u32));
	CHECK(u32 == 0x01020304);
	CHECK_OK(sbuf_get_u64(b, &u64));
	CHECK(u64 == 0x1122334455667788ull);
	CHECK_ERR(sbuf_get_u8(b, &u8), ERR_MESSAGE_INCOMPLETE);
	sbuf_free(b);
}

static void
test_strings(void)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *p;
	unsigned char *s;
	char *cs;
	size_t len;
	static const unsigned char trunc[] = { 0, 0, 0, 9, 'a', 'b' };
	static const unsigned char huge[] = { 0xff, 0xff, 0xff, 0xff, 'a' };
	static const unsigned char nul[] = { 0, 0, 0, 3, 'a', 0, 'b' };
	struct sbuf *v;

	CHECK_OK(sbuf_put_cstring(b, "hello"));
	CHECK_OK(sbuf_put_string(b, "", 0));
	CHECK_OK(sbuf_get_string_direct(b, &p, &len));
	CHECK(len == 5 && memcmp(p, "hello", 5) == 0);
	CHECK_OK(sbuf_get_string(b, &s, &len));
	CHECK(len == 0 && s[0] == '\0');
	x_free(s);
	CHECK(sbuf_len(b) == 0);

	/* A length that runs past the end is refused and nothing consumed. */
	v = sbuf_from(trunc, sizeof(trunc));
	CHECK_ERR(sbuf_get_string(v, &s, &len), ERR_MESSAGE_INCOMPLETE);
	CHECK(s == NULL && sbuf_len(v) == sizeof(trunc));
	sbuf_free(v);
	v = sbuf_from(huge, sizeof(huge));
	CHECK_ERR(sbuf_get_string_direct(v, &p, &len), ERR_STRING_TOO_LARGE);
	sbuf_free(v);
	v = sbuf_from(nul, sizeof(nul));
	CHECK_ERR(sbuf_get_cstring(v, &cs, &len), ERR_INVALID_FORMAT);
	CHECK_OK(sbuf_get_string(v, &s, &len));
	CHECK(len == 3);
	x_free(s);
	/* A read-only view cannot be written. */
	CHECK_ERR(sbuf_put_u8(v, 1), ERR_INVALID_ARGUMENT);
	sbuf_free(v);
	sbuf_free(b);
}

static void
test_mpint(void)
{
	/* RFC 4251 section 5 examples. */
	static const unsigned char v1[] = { 0x09, 0xa3, 0x78, 0xf9, 0xb2,
	    0xe3, 0x32, 0xa7 };
	static const unsigned char e1[] = { 0, 0, 0, 8, 0x09, 0xa3, 0x78,
	    0xf9, 0xb2, 0xe3, 0x32, 0xa7 };
	static const unsigned char v2[] = { 0x80 };
	static const unsigned char e2[] = { 0, 0, 0, 2, 0, 0x80 };
	static const unsigned char zero[] = { 0, 0 };
	static const unsigned char neg[] = { 0, 0, 0, 1, 0x80 };
	static const unsigned char pad[] = { 0, 0, 0, 2, 0, 0x10 };
	struct sbuf *b = sbuf_new(), *v;
	const unsigned char *p;
	size_t len;
	BIGNUM *bn;

	CHECK_OK(sbuf_put_mpint_bytes(b, v1, sizeof(v1)));
	CHECK(sbuf_len(b) == sizeof(e1) && memcmp(sbuf_ptr(b), e1, sizeof(e1)) == 0);
	sbuf_reset(b);
	CHECK_OK(sbuf_put_mpint_bytes(b, v2, sizeof(v2)));
	CHECK(sbuf_len(b) == sizeof(e2) && memcmp(sbuf_ptr(b), e2, sizeof(e2)) == 0);
	CHECK_OK(sbuf_get_mpint_direct(b, &p, &len));
	CHECK(len == 1 && p[0] == 0x80);
	sbuf_reset(b);
	CHECK_OK(sbuf_put_mpint_bytes(b, zero, sizeof(zero)));
	CHECK(sbuf_len(b) == 4);
	CHECK_OK(sbuf_get_bignum(b, &bn));
	CHECK(BN_is_zero(bn));
	CHECK_OK(sbuf_put_bignum(b, bn));
	CHECK(sbuf_len(b) == 4);
	BN_free(bn);

	v = sbuf_from(neg, sizeof(neg));
	CHECK_ERR(sbuf_get_mpint_direct(v, &p, &len), ERR_BIGNUM_NEGATIVE);
	sbuf_free(v);
	v = sbuf_from(pad, sizeof(pad));
	CHECK_ERR(sbuf_get_mpint_direct(v, &p, &len), ERR_INVALID_FORMAT);
	sbuf_free(v);
	sbuf_free(b);
}

static void
test_growth_and_b64(void)
{
	struct sbuf *b = sbuf_new(), *c = sbuf_new();
	unsigned char blk[1000];
	char *s;
	int i;

	for (i = 0; i < 1000; i++)
		blk[i] = (unsigned char)i;
	for (i = 0; i < 100; i++) {
		CHECK_OK(sbuf_put(b, blk, sizeof(blk)));
		CHECK_OK(sbuf_consume(b, 500));
	}
	CHECK(sbuf_len(b) == 50000);
	CHECK(b->alloc <= 131072);
	CHECK_OK(sbuf_set_max_size(b, 50001));
	CHECK_ERR(sbuf_put(b, blk, 2), ERR_NO_BUFFER_SPACE);
	sbuf_reset(b);

	CHECK_OK(sbuf_put(b, "foobar", 6));
	s = sbuf_to_b64(b, 0);
	CHECK_STR(s, "Zm9vYmFy");
	CHECK_OK(sbuf_b64_decode(c, "Zm9v\nYmE="));
	CHECK(sbuf_len(c) == 5 && memcmp(sbuf_ptr(c), "fooba", 5) == 0);
	CHECK_ERR(sbuf_b64_decode(c, "Zm9"), ERR_INVALID_FORMAT);
	x_free(s);
	s = sbuf_to_hex(c);
	CHECK_STR(s, "666f6f6261");
	x_free(s);
	sbuf_free(b);
	sbuf_free(c);
}

/* A buffer read to its end: sbuf_reset() leaves the bytes, sbuf_wipe()
 * clears them (the monitor's frames, holding passwords and keys). */
static void
test_wipe(void)
{
	struct sbuf *b = sbuf_new();
	static const char secret[] = "correct horse battery staple";
	const unsigned char *p;
	size_t len, i, left;

	CHECK_OK(sbuf_put_cstring(b, secret));
	CHECK_OK(sbuf_get_string_direct(b, &p, &len));
	CHECK(sbuf_len(b) == 0);
	sbuf_reset(b);
	CHECK(memcmp(b->d + 4, secret, sizeof(secret) - 1) == 0);
	sbuf_wipe(b);
	for (i = left = 0; i < b->alloc; i++)
		left |= b->d[i];
	CHECK(left == 0 && b->alloc >= sizeof(secret) + 4);
	CHECK(sbuf_len(b) == 0);
	CHECK_OK(sbuf_put_u8(b, 7));	/* still usable */
	CHECK(sbuf_len(b) == 1 && sbuf_ptr(b)[0] == 7);
	sbuf_free(b);
}

/* The bulk paths' operations: slide without growing, in-place frames,
 * re-pointed views. */
static void
test_bulk_ops(void)
{
	struct sbuf *b = sbuf_new(), *v = sbuf_from("abc", 3);
	unsigned char blk[200], *f;
	const unsigned char *before;
	size_t alloc;

	memset(blk, 'x', sizeof(blk));
	CHECK_OK(sbuf_put(b, blk, sizeof(blk)));
	alloc = b->alloc;
	CHECK(sbuf_tailroom(b) == alloc - 200);
	CHECK_OK(sbuf_consume(b, 150));
	/* 50 unread + 150 more fits after a slide: no growth, no wipe. */
	CHECK_OK(sbuf_make_room(b, alloc - 50));
	CHECK(b->alloc == alloc && b->off == 0 && sbuf_len(b) == 50);
	CHECK(sbuf_tailroom(b) == alloc - 50);
	CHECK(b->d[50] == 'x');	/* consumed bytes left as they were */
	/* More than fits grows, keeping the unread bytes. */
	CHECK_OK(sbuf_make_room(b, alloc));
	CHECK(b->alloc > alloc && sbuf_len(b) == 50 && sbuf_ptr(b)[49] == 'x');
	CHECK_OK(sbuf_set_max_size(b, 60));
	CHECK_ERR(sbuf_make_room(b, b->alloc), ERR_NO_BUFFER_SPACE);

	/* Headroom: only on an empty buffer; the frame spans head + data. */
	CHECK_ERR(sbuf_set_headroom(b, 8, 4), ERR_INVALID_ARGUMENT);
	sbuf_reset(b);
	CHECK_OK(sbuf_set_max_size(b, SBUF_MAX_SIZE));
	CHECK_OK(sbuf_set_headroom(b, 8, 4));
	CHECK(sbuf_len(b) == 0);
	CHECK_OK(sbuf_put(b, "data", 4));
	f = sbuf_frame(b, 8, 0);
	CHECK(f != NULL && f + 8 == sbuf_ptr(b));
	CHECK(sbuf_frame(b, 9, 0) == NULL);
	CHECK(sbuf_frame(b, 8, b->alloc) == NULL);

	/* A view: no frame, no room, re-pointed without allocation. */
	CHECK(sbuf_frame(v, 0, 0) == NULL && sbuf_tailroom(v) == 0);
	CHECK_ERR(sbuf_make_room(v, 1), ERR_INVALID_ARGUMENT);
	before = sbuf_ptr(b);
	CHECK_OK(sbuf_view_reset(v, before + 1, 3));
	CHECK(sbuf_len(v) == 3 && memcmp(sbuf_ptr(v), "ata", 3) == 0);
	CHECK_ERR(sbuf_view_reset(b, "x", 1), ERR_INVALID_ARGUMENT);
	sbuf_free(v);
	sbuf_free(b);
}

int
main(void)
{
	test_ints();
	test_strings();
	test_mpint();
	test_growth_and_b64();
	test_wipe();
	test_bulk_ops();
	return TEST_DONE();
}
