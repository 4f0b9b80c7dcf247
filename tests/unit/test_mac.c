/*
 * test_mac.c: the MAC table and HMAC over uint32(seqnr) || data.
 *
 * The published HMAC vectors (RFC 4231 for SHA-256/512, RFC 2202 for
 * SHA-1 and MD5, with its -96 truncation cases) go through mac_compute by taking the first four bytes of each
 * message as the sequence number. Their keys are shorter than our fixed
 * key lengths; HMAC pads short keys with zeros to the block size, so the
 * key zero-extended to key_len gives the same tag.
 */
#include <stdint.h>

#include "mac.h"
#include "mem.h"
#include "testlib.h"
#include "umac.h"

struct vec {
	const char *mac;
	const unsigned char *key;	/* zero-extended to key_len */
	size_t keylen;
	const char *data;		/* first 4 bytes become the seqnr */
	const char *tag;
};

static const unsigned char key_0b[20] = {
	0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
	0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
};
static const unsigned char key_jefe[4] = { 'J', 'e', 'f', 'e' };
static const unsigned char key_0c[20] = {
	0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c,
	0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c, 0x0c,
};

static const struct vec vecs[] = {
	/* RFC 4231 test case 1 */
	{ "hmac-sha2-256", key_0b, 20, "Hi There",
	  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
	{ "hmac-sha2-512", key_0b, 20, "Hi There",
	  "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
	  "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854" },
	/* RFC 4231 test case 2 */
	{ "hmac-sha2-256-etm@openssh.com", key_jefe, 4,
	  "what do ya want for nothing?",
	  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
	{ "hmac-sha2-512-etm@openssh.com", key_jefe, 4,
	  "what do ya want for nothing?",
	  "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
	  "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737" },
	/* RFC 2202 test cases 1 and 2 */
	{ "hmac-sha1", key_0b, 20, "Hi There",
	  "b617318655057264e28bc0b6fb378c8ef146be00" },
	{ "hmac-sha1-etm@openssh.com", key_jefe, 4,
	  "what do ya want for nothing?",
	  "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79" },
	/* RFC 2202: HMAC-MD5 test cases 1 and 2 */
	{ "hmac-md5", key_0b, 16, "Hi There",
	  "9294727a3638bb1c13f48ef8158bfc9d" },
	{ "hmac-md5-etm@openssh.com", key_jefe, 4,
	  "what do ya want for nothing?",
	  "750c783e6ab0b503eaa86e310a5db738" },
	/* RFC 2202 test case 5 (truncation): the -96 forms */
	{ "hmac-md5-96", key_0c, 16, "Test With Truncation",
	  "56461ef2342edc00f9bab995" },
	{ "hmac-md5-96-etm@openssh.com", key_0c, 16, "Test With Truncation",
	  "56461ef2342edc00f9bab995" },
	{ "hmac-sha1-96", key_0c, 20, "Test With Truncation",
	  "4c1a03424b55e07fe7f27be1" },
	{ "hmac-sha1-96-etm@openssh.com", key_0c, 20, "Test With Truncation",
	  "4c1a03424b55e07fe7f27be1" },
};

static void
test_table(void)
{
	static const struct {
		const char *name;
		unsigned int len;
		int etm;
		unsigned int keylen;
	} rows[] = {
		{ "hmac-sha1", 20, 0, 20 },
		{ "hmac-sha1-96", 12, 0, 20 },
		{ "hmac-sha2-256", 32, 0, 32 },
		{ "hmac-sha2-512", 64, 0, 64 },
		{ "hmac-md5", 16, 0, 16 },
		{ "hmac-md5-96", 12, 0, 16 },
		{ "umac-64@openssh.com", 8, 0, 16 },
		{ "umac-128@openssh.com", 16, 0, 16 },
		{ "hmac-sha1-etm@openssh.com", 20, 1, 20 },
		{ "hmac-sha1-96-etm@openssh.com", 12, 1, 20 },
		{ "hmac-sha2-256-etm@openssh.com", 32, 1, 32 },
		{ "hmac-sha2-512-etm@openssh.com", 64, 1, 64 },
		{ "hmac-md5-etm@openssh.com", 16, 1, 16 },
		{ "hmac-md5-96-etm@openssh.com", 12, 1, 16 },
		{ "umac-64-etm@openssh.com", 8, 1, 16 },
		{ "umac-128-etm@openssh.com", 16, 1, 16 },
	};
	char *names = x_strdup(mac_all_names()), *cp, *name;
	const struct mac_alg *alg;
	size_t i = 0;

	/* OpenSSH 9.2's default MACs, in its order */
	CHECK_STR(mac_default_names(), "umac-64-etm@openssh.com,"
	    "umac-128-etm@openssh.com,hmac-sha2-256-etm@openssh.com,"
	    "hmac-sha2-512-etm@openssh.com,hmac-sha1-etm@openssh.com,"
	    "umac-64@openssh.com,umac-128@openssh.com,"
	    "hmac-sha2-256,hmac-sha2-512,hmac-sha1");
	for (cp = names; (name = strsep(&cp, ",")) != NULL; i++) {
		CHECK(i < sizeof(rows) / sizeof(rows[0]));
		if (i >= sizeof(rows) / sizeof(rows[0]))
			break;
		CHECK_STR(name, rows[i].name);
		alg = mac_by_name(name);
		CHECK(alg != NULL);
		if (alg == NULL)
			continue;
		CHECK(alg->key_len == rows[i].keylen &&
		    alg->mac_len == rows[i].len && alg->etm == rows[i].etm);
	}
	CHECK(i == sizeof(rows) / sizeof(rows[0]));
	x_free(names);
	CHECK(mac_by_name("hmac-ripemd160") == NULL);
	CHECK(mac_by_name("umac-32@openssh.com") == NULL);
	CHECK(mac_by_name(NULL) == NULL);
}

static void
test_vectors(void)
{
	unsigned char key[64], want[64], out[64];
	const struct mac_alg *alg;
	struct mac_ctx *ctx;
	const unsigned char *d;
	uint32_t seqnr;
	size_t i, n, dlen;

	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		alg = mac_by_name(vecs[i].mac);
		CHECK(alg != NULL);
		if (alg == NULL)
			continue;
		memset(key, 0, sizeof(key));
		memcpy(key, vecs[i].key, vecs[i].keylen);
		n = test_unhex(vecs[i].tag, want, sizeof(want));
		CHECK(n == alg->mac_len);
		d = (const unsigned char *)vecs[i].data;
		dlen = strlen(vecs[i].data);
		seqnr = (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 |
		    (uint32_t)d[2] << 8 | d[3];
		ctx = NULL;
		CHECK_OK(mac_init(&ctx, alg, key, alg->key_len));
		CHECK(mac_ctx_alg(ctx) == alg);
		memset(out, 0, sizeof(out));
		CHECK_OK(mac_compute(ctx, seqnr, d + 4, dlen - 4, out));
		CHECK_MEM(out, want, n);
		/* Again on the same context: the key survives re-init. */
		CHECK_OK(mac_compute(ctx, seqnr, d + 4, dlen - 4, out));
		CHECK_MEM(out, want, n);
		CHECK_OK(mac_check(ctx, seqnr, d + 4, dlen - 4, want));
		/* Wrong tag, wrong seqnr, wrong data: all refused. */
		want[n - 1] ^= 0x80;
		CHECK_ERR(mac_check(ctx, seqnr, d + 4, dlen - 4, want),
		    ERR_MAC_INVALID);
		want[n - 1] ^= 0x80;
		want[0] ^= 0x01;
		CHECK_ERR(mac_check(ctx, seqnr, d + 4, dlen - 4, want),
		    ERR_MAC_INVALID);
		want[0] ^= 0x01;
		CHECK_ERR(mac_check(ctx, seqnr + 1, d + 4, dlen - 4, want),
		    ERR_MAC_INVALID);
		CHECK_ERR(mac_check(ctx, seqnr, d + 4, dlen - 5, want),
		    ERR_MAC_INVALID);
		CHECK_OK(mac_check(ctx, seqnr, d + 4, dlen - 4, want));
		mac_free(ctx);
	}
}

static void
test_misc(void)
{
	const struct mac_alg *alg = mac_by_name("hmac-sha2-256");
	unsigned char key[64], a[64], b[64];
	struct mac_ctx *c1 = NULL, *c2 = NULL;

	memset(key, 0x11, sizeof(key));
	CHECK_ERR(mac_init(&c1, alg, key, 20), ERR_INVALID_ARGUMENT);
	CHECK(c1 == NULL);
	CHECK_OK(mac_init(&c1, alg, key, 32));
	key[31] ^= 1;
	CHECK_OK(mac_init(&c2, alg, key, 32));
	/* Empty data is fine; different keys give different tags. */
	CHECK_OK(mac_compute(c1, 0, NULL, 0, a));
	CHECK_OK(mac_compute(c2, 0, NULL, 0, b));
	CHECK(memcmp(a, b, 32) != 0);
	CHECK_OK(mac_check(c1, 0, NULL, 0, a));
	CHECK_ERR(mac_check(c2, 0, NULL, 0, a), ERR_MAC_INVALID);
	mac_free(c1);
	mac_free(c2);
	mac_free(NULL);
}

/*
 * The UMAC rows: the tag is UMAC of the data alone with uint64(seqnr)
 * big-endian as the nonce (checked against umac_tag directly; the RFC
 * vectors themselves are in test_umac.c), round-trips through mac_check,
 * and is refused with a wrong tag, seqnr or data. The -etm rows compute
 * the same function: only what the packet layer feeds in differs.
 */
#define NSEQ	(sizeof(seqs) / sizeof(seqs[0]))
#define NLEN	(sizeof(lens) / sizeof(lens[0]))

static void
test_umac_rows(void)
{
	static const char *names[] = {
		"umac-64@openssh.com", "umac-128@openssh.com",
		"umac-64-etm@openssh.com", "umac-128-etm@openssh.com",
	};
	static const uint32_t seqs[] = { 0, 1, 2, 3, 0x7fffffff, 0xfffffffe,
	    0xffffffff };
	const unsigned char key[16] = "abcdefghijklmnop";
	unsigned char data[1500], nonce[8], want[16], got[16], etm[16];
	struct umac_ctx *u;
	struct mac_ctx *ctx, *ctx2;
	const struct mac_alg *alg, *alg2;
	static const size_t lens[] = { 0, 5, 32, 1024, 1025, 1500 };
	size_t i, k;
	unsigned int s, n, t;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + 3);
	for (i = 0; i < 2; i++) {
		alg = mac_by_name(names[i]);
		alg2 = mac_by_name(names[i + 2]);
		CHECK(alg != NULL && alg2 != NULL);
		if (alg == NULL || alg2 == NULL)
			continue;
		n = alg->mac_len;
		ctx = ctx2 = NULL;
		u = NULL;
		CHECK_ERR(mac_init(&ctx, alg, key, 15), ERR_INVALID_ARGUMENT);
		CHECK_OK(mac_init(&ctx, alg, key, 16));
		CHECK_OK(mac_init(&ctx2, alg2, key, 16));
		CHECK_OK(umac_new(&u, key, n));
		if (ctx == NULL || ctx2 == NULL || u == NULL)
			goto next;
		for (t = 0; t < NSEQ * NLEN; t++) {
			s = t / NLEN;
			k = t % NLEN;
			memset(nonce, 0, 4);
			nonce[4] = (unsigned char)(seqs[s] >> 24);
			nonce[5] = (unsigned char)(seqs[s] >> 16);
			nonce[6] = (unsigned char)(seqs[s] >> 8);
			nonce[7] = (unsigned char)seqs[s];
			CHECK_OK(umac_tag(u, data, lens[k], nonce, 8, want));
			CHECK_OK(mac_compute(ctx, seqs[s], data, lens[k], got));
			CHECK_MEM(got, want, n);
			CHECK_OK(mac_compute(ctx2, seqs[s], data, lens[k],
			    etm));
			CHECK_MEM(etm, want, n);
			CHECK_OK(mac_check(ctx, seqs[s], data, lens[k], got));
			CHECK_OK(mac_check(ctx2, seqs[s], data, lens[k], got));
			/* neighbouring seqnrs share a pad block for UMAC-64 */
			CHECK_ERR(mac_check(ctx, seqs[s] ^ 1, data, lens[k],
			    got), ERR_MAC_INVALID);
			CHECK_ERR(mac_check(ctx, seqs[s] + 2, data, lens[k],
			    got), ERR_MAC_INVALID);
			got[n - 1] ^= 0x01;
			CHECK_ERR(mac_check(ctx, seqs[s], data, lens[k], got),
			    ERR_MAC_INVALID);
			got[n - 1] ^= 0x01;
			got[0] ^= 0x80;
			CHECK_ERR(mac_check(ctx2, seqs[s], data, lens[k], got),
			    ERR_MAC_INVALID);
			got[0] ^= 0x80;
			if (lens[k] > 0) {
				data[lens[k] - 1] ^= 0x40;
				CHECK_ERR(mac_check(ctx, seqs[s], data,
				    lens[k], got), ERR_MAC_INVALID);
				data[lens[k] - 1] ^= 0x40;
			}
			CHECK_OK(mac_check(ctx, seqs[s], data, lens[k], got));
		}
		/* UMAC-128's first 8 bytes are not UMAC-64's */
		if (n == 16) {
			struct mac_ctx *c64 = NULL;

			CHECK_OK(mac_init(&c64, mac_by_name(names[0]), key,
			    16));
			CHECK_OK(mac_compute(c64, 9, data, 100, etm));
			CHECK_OK(mac_compute(ctx, 9, data, 100, got));
			CHECK(memcmp(etm, got, 8) != 0);
			mac_free(c64);
		}
 next:
		umac_free(u);
		mac_free(ctx);
		mac_free(ctx2);
	}
}

/* mac_export(): the exported key makes a MAC that agrees with the first. */
static void
test_export(void)
{
	char *names = x_strdup(mac_all_names()), *cp = names, *name;
	unsigned char key[64], k2[64], data[100], t1[64], t2[64];
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)(0x40 + i);
	memset(data, 0x5a, sizeof(data));
	while ((name = strsep(&cp, ",")) != NULL) {
		const struct mac_alg *alg = mac_by_name(name);
		struct mac_ctx *m = NULL, *m2 = NULL;

		CHECK(alg != NULL);
		if (alg == NULL)
			continue;
		CHECK_OK(mac_init(&m, alg, key, alg->key_len));
		CHECK_OK(mac_compute(m, 7, data, sizeof(data), t1));
		memset(k2, 0, sizeof(k2));
		CHECK_OK(mac_export(m, k2));
		CHECK_MEM(k2, key, alg->key_len);
		CHECK_OK(mac_init(&m2, alg, k2, alg->key_len));
		CHECK_OK(mac_compute(m, 8, data, sizeof(data), t1));
		CHECK_OK(mac_compute(m2, 8, data, sizeof(data), t2));
		CHECK_MEM(t1, t2, alg->mac_len);
		mac_free(m);
		mac_free(m2);
	}
	CHECK_ERR(mac_export(NULL, k2), ERR_INVALID_ARGUMENT);
	x_free(names);
}

int
main(void)
{
	test_table();
	test_vectors();
	test_misc();
	test_umac_rows();
	test_export();
	return TEST_DONE();
}
