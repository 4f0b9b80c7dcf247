/*
 * fuzz_sbuf.c: the wire buffer's getters, in sequences the input picks.
 *
 * Input: byte 0 gives the number of operations n (1..32), bytes 1..n are
 * the operations, the rest is the data. Each operation byte's low four
 * bits pick a getter, bit 4 picks the buffer (a read-only view of the
 * data or a writable copy of it), the top three bits are a small
 * argument. Whatever a getter returns must be self-consistent: a cstring
 * has no NUL, an mpint has no leading zero and encodes back to the same
 * bytes, a bignum survives a round trip, base64 decodes back to what it
 * encoded, a peek consumes nothing, and the buffer never claims more
 * than it holds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "err.h"
#include "mem.h"
#include "sbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

static void
check_mpint(const unsigned char *v, size_t len)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *v2;
	size_t len2;

	REQUIRE(len == 0 || v[0] != 0);
	REQUIRE(sbuf_put_mpint_bytes(b, v, len) == 0);
	REQUIRE(sbuf_get_mpint_direct(b, &v2, &len2) == 0);
	REQUIRE(len2 == len && (len == 0 || memcmp(v, v2, len) == 0));
	REQUIRE(sbuf_len(b) == 0);
	sbuf_free(b);
}

static void
check_bignum(const BIGNUM *bn)
{
	struct sbuf *b = sbuf_new();
	BIGNUM *bn2 = NULL;

	REQUIRE(!BN_is_negative(bn));
	REQUIRE(sbuf_put_bignum(b, bn) == 0);
	REQUIRE(sbuf_get_bignum(b, &bn2) == 0);
	REQUIRE(BN_cmp(bn, bn2) == 0 && sbuf_len(b) == 0);
	BN_free(bn2);
	sbuf_free(b);
}

/* Decode the text; what decodes must encode and decode back the same. */
static void
check_b64(const char *text)
{
	struct sbuf *a = sbuf_new(), *b = sbuf_new();
	char *enc;
	int wrap;

	if (sbuf_b64_decode(a, text) == 0) {
		for (wrap = 0; wrap < 2; wrap++) {
			REQUIRE((enc = sbuf_to_b64(a, wrap)) != NULL);
			sbuf_reset(b);
			REQUIRE(sbuf_b64_decode(b, enc) == 0);
			REQUIRE(sbuf_equal(a, b));
			x_free(enc);
		}
	}
	sbuf_free(a);
	sbuf_free(b);
}

static void
one_op(struct sbuf *b, uint8_t op)
{
	unsigned int arg = op >> 5;
	const unsigned char *v;
	unsigned char tmp[8], *s;
	char *cs, *hex;
	size_t len, before = sbuf_len(b);
	uint8_t u8;
	uint32_t u32;
	uint64_t u64;
	struct sbuf *t;
	BIGNUM *bn = NULL;
	int flag;

	switch (op & 0x0f) {
	case 0:
		(void)sbuf_get_u8(b, &u8);
		break;
	case 1:
		(void)sbuf_get_u32(b, &u32);
		break;
	case 2:
		(void)sbuf_get_u64(b, &u64);
		break;
	case 3:
		(void)sbuf_get_bool(b, &flag);
		break;
	case 4:
		if (sbuf_get_string(b, &s, &len) == 0) {
			REQUIRE(len <= SBUF_MAX_STRING && s[len] == '\0');
			x_free(s);
		}
		break;
	case 5:
		if (sbuf_get_cstring(b, &cs, &len) == 0) {
			REQUIRE(strlen(cs) == len);
			x_free(cs);
		}
		break;
	case 6:
		if (sbuf_get_string_direct(b, &v, &len) == 0)
			REQUIRE(len + 4 <= before);
		break;
	case 7:
		if (sbuf_peek_string_direct(b, &v, &len) == 0)
			REQUIRE(len + 4 <= before);
		REQUIRE(sbuf_len(b) == before);
		break;
	case 8:
		t = sbuf_new();
		if (sbuf_get_stringb(b, t) == 0)
			REQUIRE(sbuf_len(t) + 4 <= before);
		sbuf_free(t);
		break;
	case 9:
		if (sbuf_get_mpint_direct(b, &v, &len) == 0)
			check_mpint(v, len);
		break;
	case 10:
		if (sbuf_get_bignum(b, &bn) == 0) {
			check_bignum(bn);
			BN_free(bn);
		}
		break;
	case 11:
		if (sbuf_get(b, tmp, arg + 1) == 0)
			REQUIRE(sbuf_len(b) == before - arg - 1);
		break;
	case 12:
		if (sbuf_consume(b, arg * 3) == 0)
			REQUIRE(sbuf_len(b) == before - arg * 3);
		else
			REQUIRE(sbuf_len(b) == before);
		break;
	case 13:
		if (sbuf_consume_end(b, arg) == 0)
			REQUIRE(sbuf_len(b) == before - arg);
		break;
	case 14:
		cs = x_strndup(sbuf_len(b) ? (const char *)sbuf_ptr(b) : "",
		    sbuf_len(b));
		check_b64(cs);
		x_free(cs);
		break;
	default:
		t = sbuf_dup(b);
		REQUIRE(t != NULL && sbuf_equal(t, b));
		hex = sbuf_to_hex(t);
		REQUIRE(hex != NULL && strlen(hex) == 2 * sbuf_len(t));
		x_free(hex);
		(void)sbuf_set_max_size(t, arg * 16);
		(void)sbuf_put_u32(t, 0x01020304);
		REQUIRE(sbuf_len(t) <= SBUF_MAX_SIZE);
		sbuf_free(t);
		break;
	}
	REQUIRE(sbuf_len(b) <= before);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf *view, *copy;
	size_t nops, i;

	if (size == 0)
		return 0;
	nops = (size_t)(data[0] % 32) + 1;
	if (nops > size - 1)
		nops = size - 1;
	view = sbuf_from(data + 1 + nops, size - 1 - nops);
	copy = sbuf_new();
	REQUIRE(view != NULL && copy != NULL);
	REQUIRE(sbuf_put(copy, data + 1 + nops, size - 1 - nops) == 0);
	for (i = 0; i < nops; i++)
		one_op((data[1 + i] & 0x10) ? copy : view, data[1 + i]);
	sbuf_free(view);
	sbuf_free(copy);
	return 0;
}
