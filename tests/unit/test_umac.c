/*
 * test_umac.c: UMAC (RFC 4418) against the RFC's appendix vectors.
 *
 * Key "abcdefghijklmnop", nonce "bcdefghi", tags of 32, 64 and 96 bits as
 * printed in the appendix; the 'a' * 2^25 row uses the corrected values of
 * the RFC's verified erratum 3507 (the printed ones are wrong), and it is
 * the only row that reaches the 128-bit polynomial. The appendix has no
 * 128-bit column: a 128-bit tag runs the same first three iterations with
 * the same pad block as the 96-bit one, so its first 12 bytes must equal
 * the 96-bit tag; the full 128-bit tags below are those other published
 * UMAC-128 implementations give (the "" one is also in Nettle's tests).
 *
 * Also: the PDF cache across nonces and lengths around the block edges.
 * (Speed is measured by bench/mac_speed.c.)
 */
#include <stdint.h>

#include "mac.h"
#include "mem.h"
#include "testlib.h"
#include "umac.h"

static const unsigned char rfc_key[16] = "abcdefghijklmnop";
static const unsigned char rfc_nonce[8] = "bcdefghi";

struct vec {
	const char *unit;
	size_t reps;
	const char *t32, *t64, *t96, *t128;	/* t128 NULL: prefix only */
};

static const struct vec vecs[] = {
	{ "", 0, "113145FB", "6E155FAD26900BE1", "32FEDB100C79AD58F07FF764",
	  "32FEDB100C79AD58F07FF7643CC60465" },
	{ "a", 3, "3B91D102", "44B5CB542F220104", "185E4FE905CBA7BD85E4C2DC",
	  "185E4FE905CBA7BD85E4C2DC3D117D8D" },
	{ "a", 1 << 10, "599B350B", "26BF2F5D60118BD9",
	  "7A54ABE04AF82D60FB298C3C", "7A54ABE04AF82D60FB298C3CBD195BCB" },
	{ "a", 1 << 15, "58DCF532", "27F8EF643B0D118D",
	  "7B136BD911E4B734286EF2BE", "7B136BD911E4B734286EF2BE501F2C3C" },
	{ "a", 1 << 20, "DB6364D1", "A4477E87E9F55853",
	  "F8ACFA3AC31CFEEA047F7B11", "F8ACFA3AC31CFEEA047F7B115B03BEF5" },
	{ "a", 1 << 25, "85EE5CAE", "FACA46F856E9B45F",
	  "A621C2457C0012E64F3FDAE9", NULL },
	{ "abc", 1, "ABF3A3A0", "D4D7B9F6BD4FBFCF",
	  "883C3D4B97A61976FFCF2323", "883C3D4B97A61976FFCF232308CBA5A5" },
	{ "abc", 500, "ABEB3C8B", "D4CF26DDEFD5C01A",
	  "8824A260C53C66A36C9260A6", "8824A260C53C66A36C9260A62CB83AA1" },
};

static unsigned char *
repeat(const char *unit, size_t reps, size_t *lenp)
{
	size_t ul = strlen(unit), i;
	unsigned char *m;

	*lenp = ul * reps;
	m = x_malloc(*lenp + 1);
	for (i = 0; i < reps; i++)
		memcpy(m + i * ul, unit, ul);
	return m;
}

static void
check_tag(struct umac_ctx *ctx, const unsigned char *m, size_t len,
    const char *hex, size_t taglen)
{
	unsigned char want[16], got[16];

	CHECK(test_unhex(hex, want, sizeof(want)) >= taglen);
	memset(got, 0, sizeof(got));
	CHECK_OK(umac_tag(ctx, m, len, rfc_nonce, sizeof(rfc_nonce), got));
	CHECK_MEM(got, want, taglen);
	if (memcmp(got, want, taglen) != 0)
		fprintf(stderr, "  len %zu taglen %zu wants %s\n", len,
		    taglen, hex);
}

static void
test_rfc_vectors(void)
{
	struct umac_ctx *c4 = NULL, *c8 = NULL, *c12 = NULL, *c16 = NULL;
	unsigned char *m;
	size_t i, len;

	CHECK_OK(umac_new(&c4, rfc_key, 4));
	CHECK_OK(umac_new(&c8, rfc_key, 8));
	CHECK_OK(umac_new(&c12, rfc_key, 12));
	CHECK_OK(umac_new(&c16, rfc_key, 16));
	if (c4 == NULL || c8 == NULL || c12 == NULL || c16 == NULL)
		goto out;
	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		m = repeat(vecs[i].unit, vecs[i].reps, &len);
		check_tag(c4, m, len, vecs[i].t32, 4);
		check_tag(c8, m, len, vecs[i].t64, 8);
		check_tag(c12, m, len, vecs[i].t96, 12);
		check_tag(c16, m, len, vecs[i].t96, 12);
		if (vecs[i].t128 != NULL)
			check_tag(c16, m, len, vecs[i].t128, 16);
		x_free(m);
	}
 out:
	umac_free(c4);
	umac_free(c8);
	umac_free(c12);
	umac_free(c16);
}

/*
 * Nonces that differ only in the low bit share one AES block for
 * UMAC-64 (low two bits for UMAC-32); the cached block must still give
 * the right slice whichever order the nonces come in.
 */
static void
test_pdf_cache(void)
{
	static const unsigned int lens[] = { 4, 8, 12, 16 };
	unsigned char n[8], msg[100], a[16], b[16];
	struct umac_ctx *c1, *c2;
	unsigned int i, s, t;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (unsigned char)(i * 7 + 3);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		c1 = c2 = NULL;
		CHECK_OK(umac_new(&c1, rfc_key, lens[i]));
		CHECK_OK(umac_new(&c2, rfc_key, lens[i]));
		if (c1 == NULL || c2 == NULL)
			goto next;
		for (s = 0; s < 9; s++) {
			memset(n, 0, sizeof(n));
			n[7] = (unsigned char)s;
			/* c1 in order; c2 fresh each time (no cache) */
			CHECK_OK(umac_tag(c1, msg, sizeof(msg), n, 8, a));
			umac_free(c2);
			c2 = NULL;
			CHECK_OK(umac_new(&c2, rfc_key, lens[i]));
			if (c2 == NULL)
				break;
			CHECK_OK(umac_tag(c2, msg, sizeof(msg), n, 8, b));
			CHECK_MEM(a, b, lens[i]);
			/* a different nonce gives a different tag */
			n[7] ^= 1;
			CHECK_OK(umac_tag(c1, msg, sizeof(msg), n, 8, b));
			CHECK(memcmp(a, b, lens[i]) != 0);
			n[7] ^= 1;
			CHECK_OK(umac_tag(c1, msg, sizeof(msg), n, 8, b));
			CHECK_MEM(a, b, lens[i]);
		}
		/* every length around the 32-byte and 1024-byte edges */
		for (t = 0; t < sizeof(msg); t++) {
			CHECK_OK(umac_tag(c1, msg, t, n, 8, a));
			CHECK_OK(umac_tag(c1, msg, t + 1, n, 8, b));
			CHECK(memcmp(a, b, lens[i]) != 0);
		}
 next:
		umac_free(c1);
		umac_free(c2);
	}
}

static void
test_args(void)
{
	struct umac_ctx *c = NULL;
	unsigned char tag[16];

	CHECK_ERR(umac_new(&c, rfc_key, 6), ERR_INVALID_ARGUMENT);
	CHECK(c == NULL);
	CHECK_ERR(umac_new(&c, NULL, 8), ERR_INVALID_ARGUMENT);
	CHECK_OK(umac_new(&c, rfc_key, 8));
	CHECK_ERR(umac_tag(c, NULL, 1, rfc_nonce, 8, tag),
	    ERR_INVALID_ARGUMENT);
	CHECK_ERR(umac_tag(c, NULL, 0, rfc_nonce, 0, tag),
	    ERR_INVALID_ARGUMENT);
	CHECK_ERR(umac_tag(c, NULL, 0, rfc_nonce, 17, tag),
	    ERR_INVALID_ARGUMENT);
	CHECK_OK(umac_tag(c, NULL, 0, rfc_nonce, 8, tag));
	umac_free(c);
	umac_free(NULL);
}

int
main(void)
{
	test_rfc_vectors();
	test_pdf_cache();
	test_args();
	return TEST_DONE();
}
