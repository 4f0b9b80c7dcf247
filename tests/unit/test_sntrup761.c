/*
 * test_sntrup761.c: Streamlined NTRU Prime 761 against the submission's
 * known answers, and its properties.
 *
 * data/sntrup761_kat.rsp holds records 0 and 1 of the round-3
 * kat_kem.rsp: a seed for NIST's AES-256 CTR_DRBG (the submission
 * harness's randombytes), then the pk, sk, ct and ss that keypair and
 * enc produce drawing from it. The DRBG is written here over libcrypto's
 * AES-256-ECB (SP 800-90A CTR_DRBG, no derivation function, as the NIST
 * harness has it) and checked first against the harness's own fact that
 * entropy 00 01 .. 2f gives record 0's seed. The reference code draws
 * its random words with one randombytes() call of 4 bytes each, so the
 * generator handed to keypair/enc serves every 4*761-byte request as 761
 * calls of 4 bytes (and rho's 191 bytes as one).
 *
 * Then: round trips with real randomness; implicit rejection (a changed
 * ciphertext gives the secret the spec derives from rho, the same every
 * time); wrong lengths refused; a non-invertible g thrown away; any
 * bytes accepted as a public key or ciphertext; a secret key with the
 * other code for -1 still works; and the ring arithmetic on its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "err.h"
#include "sntrup761.h"
#include "sntrup761_int.h"
#include "testlib.h"

#define KAT_FILE	"data/sntrup761_kat.rsp"
#define PK_SIZE		SNTRUP761_PUBLICKEY_SIZE
#define SK_SIZE		SNTRUP761_SECRETKEY_SIZE
#define CT_SIZE		SNTRUP761_CIPHERTEXT_SIZE
#define SS_SIZE		SNTRUP761_SHARED_SIZE
#define P		SNTRUP_P
#define Q		SNTRUP_Q
#define SK_RHO		(382 + PK_SIZE)

/* NIST's AES-256 CTR_DRBG, as the KAT harness's randombytes. */
struct drbg {
	unsigned char key[32], v[16];
};

static void
aes256_block(const unsigned char key[32], const unsigned char in[16],
    unsigned char out[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0;

	if (c == NULL || EVP_EncryptInit_ex(c, EVP_aes_256_ecb(), NULL, key,
	    NULL) != 1 || EVP_CIPHER_CTX_set_padding(c, 0) != 1 ||
	    EVP_EncryptUpdate(c, out, &n, in, 16) != 1 || n != 16) {
		fprintf(stderr, "AES-256-ECB failed\n");
		exit(1);
	}
	EVP_CIPHER_CTX_free(c);
}

static void
drbg_increment(unsigned char v[16])
{
	int i;

	for (i = 15; i >= 0; i--)
		if (++v[i] != 0)
			break;
}

static void
drbg_update(struct drbg *d, const unsigned char *provided)
{
	unsigned char t[48];
	int i;

	for (i = 0; i < 3; i++) {
		drbg_increment(d->v);
		aes256_block(d->key, d->v, t + 16 * i);
	}
	if (provided != NULL)
		for (i = 0; i < 48; i++)
			t[i] ^= provided[i];
	memcpy(d->key, t, 32);
	memcpy(d->v, t + 32, 16);
}

static void
drbg_init(struct drbg *d, const unsigned char seed[48])
{
	memset(d, 0, sizeof(*d));
	drbg_update(d, seed);
}

static void
drbg_bytes(struct drbg *d, unsigned char *out, size_t len)
{
	unsigned char block[16];
	size_t n;

	while (len > 0) {
		drbg_increment(d->v);
		aes256_block(d->key, d->v, block);
		n = len < 16 ? len : 16;
		memcpy(out, block, n);
		out += n;
		len -= n;
	}
	drbg_update(d, NULL);
}

/* The reference harness's call pattern: urandom32 asks for 4 bytes. */
static int
rng_kat(void *arg, unsigned char *buf, size_t len)
{
	struct drbg *d = arg;
	size_t i;

	if (len == 4 * P)
		for (i = 0; i < len; i += 4)
			drbg_bytes(d, buf + i, 4);
	else
		drbg_bytes(d, buf, len);
	return 0;
}

struct kat {
	unsigned char seed[48], pk[PK_SIZE], sk[SK_SIZE], ct[CT_SIZE];
	unsigned char ss[SS_SIZE];
	int fields;
};

/* Reads the next "count = " record; 1 when one was read whole. */
static int
kat_next(FILE *fp, struct kat *k)
{
	static char line[8192];
	char *val;
	size_t n;

	memset(k, 0, sizeof(*k));
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == '#' || (val = strstr(line, " = ")) == NULL) {
			if (k->fields == 5)
				return 1;
			continue;
		}
		val += 3;
		val[strcspn(val, "\r\n")] = '\0';
		n = strlen(val) / 2;
#define KFIELD(name, buf) \
		if (strncmp(line, name " ", sizeof(name)) == 0) { \
			CHECK(n == sizeof(buf)); \
			if (test_unhex(val, buf, sizeof(buf)) == sizeof(buf)) \
				k->fields++; \
		}
		KFIELD("seed", k->seed)
		KFIELD("pk", k->pk)
		KFIELD("sk", k->sk)
		KFIELD("ct", k->ct)
		KFIELD("ss", k->ss)
#undef KFIELD
	}
	return k->fields == 5;
}

static void
test_drbg(void)
{
	static const char *want =
	    "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479"
	    "D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1";
	unsigned char entropy[48], seed[48], expect[48];
	struct drbg d;
	int i;

	for (i = 0; i < 48; i++)
		entropy[i] = (unsigned char)i;
	drbg_init(&d, entropy);
	drbg_bytes(&d, seed, sizeof(seed));
	CHECK(test_unhex(want, expect, sizeof(expect)) == 48);
	CHECK_MEM(seed, expect, 48);
}

static void
test_kat(void)
{
	unsigned char pk[PK_SIZE], sk[SK_SIZE], ct[CT_SIZE], ss[SS_SIZE];
	struct kat *k = malloc(sizeof(*k));
	struct drbg d;
	FILE *fp = fopen(KAT_FILE, "r");
	int records = 0;

	CHECK(fp != NULL && k != NULL);
	if (fp == NULL || k == NULL) {
		free(k);
		return;
	}
	while (kat_next(fp, k)) {
		records++;
		drbg_init(&d, k->seed);
		CHECK_OK(sntrup761_keypair_rng(pk, sk, rng_kat, &d));
		CHECK_MEM(pk, k->pk, PK_SIZE);
		CHECK_MEM(sk, k->sk, SK_SIZE);
		CHECK_OK(sntrup761_enc_rng(ct, ss, pk, PK_SIZE, rng_kat, &d));
		CHECK_MEM(ct, k->ct, CT_SIZE);
		CHECK_MEM(ss, k->ss, SS_SIZE);
		memset(ss, 0, sizeof(ss));
		CHECK_OK(sntrup761_dec(ss, k->ct, CT_SIZE, k->sk));
		CHECK_MEM(ss, k->ss, SS_SIZE);
	}
	CHECK(records == 2);
	fclose(fp);
	free(k);
}

/* Hash_prefix(b, Hash_prefix(3, y) | z) computed here, for rejection. */
static void
session_hash(unsigned char out[32], int b, const unsigned char *y,
    const unsigned char *z, size_t zlen)
{
	unsigned char buf[1 + 32 + CT_SIZE], md[64];
	unsigned int n;

	buf[0] = 3;
	memcpy(buf + 1, y, 191);
	CHECK(EVP_Digest(buf, 1 + 191, md, &n, EVP_sha512(), NULL) == 1);
	buf[0] = (unsigned char)b;
	memcpy(buf + 1, md, 32);
	memcpy(buf + 33, z, zlen);
	CHECK(EVP_Digest(buf, 33 + zlen, md, &n, EVP_sha512(), NULL) == 1);
	memcpy(out, md, 32);
}

static void
test_roundtrip_and_rejection(void)
{
	unsigned char pk[PK_SIZE], sk[SK_SIZE], ct[CT_SIZE], bad[CT_SIZE];
	unsigned char ss1[SS_SIZE], ss2[SS_SIZE], ss3[SS_SIZE], want[SS_SIZE];
	static const size_t flips[] = { 0, 500, 1006, 1007, 1038 };
	size_t i;
	int n;

	for (n = 0; n < 8; n++) {
		CHECK_OK(sntrup761_keypair(pk, sk));
		CHECK_MEM(sk + 382, pk, PK_SIZE);
		CHECK_OK(sntrup761_enc(ct, ss1, pk, PK_SIZE));
		CHECK_OK(sntrup761_dec(ss2, ct, CT_SIZE, sk));
		CHECK_MEM(ss1, ss2, SS_SIZE);
		/* the honest secret is the spec's success hash of ct */
		for (i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
			memcpy(bad, ct, CT_SIZE);
			bad[flips[i]] ^= (unsigned char)(1 << (n % 8));
			CHECK_OK(sntrup761_dec(ss2, bad, CT_SIZE, sk));
			CHECK_OK(sntrup761_dec(ss3, bad, CT_SIZE, sk));
			CHECK(memcmp(ss1, ss2, SS_SIZE) != 0);
			CHECK_MEM(ss2, ss3, SS_SIZE);
			session_hash(want, 0, sk + SK_RHO, bad, CT_SIZE);
			CHECK_MEM(ss2, want, SS_SIZE);
		}
	}
}

static void
test_lengths(void)
{
	unsigned char pk[PK_SIZE], sk[SK_SIZE], ct[CT_SIZE + 1];
	unsigned char ss[SS_SIZE];

	CHECK_OK(sntrup761_keypair(pk, sk));
	CHECK_OK(sntrup761_enc(ct, ss, pk, PK_SIZE));
	ct[CT_SIZE] = 0;
	memset(ss, 0xaa, sizeof(ss));
	CHECK_ERR(sntrup761_dec(ss, ct, CT_SIZE - 1, sk), ERR_INVALID_FORMAT);
	CHECK(ss[0] == 0 && ss[SS_SIZE - 1] == 0);
	CHECK_ERR(sntrup761_dec(ss, ct, CT_SIZE + 1, sk), ERR_INVALID_FORMAT);
	CHECK_ERR(sntrup761_dec(ss, ct, 0, sk), ERR_INVALID_FORMAT);
	CHECK_ERR(sntrup761_enc(ct, ss, pk, PK_SIZE - 1), ERR_INVALID_FORMAT);
	CHECK_ERR(sntrup761_enc(ct, ss, pk, PK_SIZE + 1),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(sntrup761_enc(ct, ss, pk, 0), ERR_INVALID_FORMAT);
}

/* Any bytes are a public key and a ciphertext; the results agree. */
static void
test_any_bytes(void)
{
	unsigned char pk[PK_SIZE], sk[SK_SIZE], ct[CT_SIZE];
	unsigned char ss1[SS_SIZE], ss2[SS_SIZE], want[SS_SIZE];

	memset(pk, 0xff, sizeof(pk));
	CHECK_OK(sntrup761_enc(ct, ss1, pk, PK_SIZE));
	CHECK_OK(sntrup761_keypair(pk, sk));
	memset(ct, 0xff, sizeof(ct));
	CHECK_OK(sntrup761_dec(ss1, ct, CT_SIZE, sk));
	CHECK_OK(sntrup761_dec(ss2, ct, CT_SIZE, sk));
	CHECK_MEM(ss1, ss2, SS_SIZE);
	session_hash(want, 0, sk + SK_RHO, ct, CT_SIZE);
	CHECK_MEM(ss1, want, SS_SIZE);
}

/* Small codes 00 (-1) rewritten as 11: decapsulation must not change. */
static void
test_noncanonical_sk(void)
{
	unsigned char pk[PK_SIZE], sk[SK_SIZE], ct[CT_SIZE];
	unsigned char ss1[SS_SIZE], ss2[SS_SIZE];
	unsigned int mask;
	int i;

	CHECK_OK(sntrup761_keypair(pk, sk));
	CHECK_OK(sntrup761_enc(ct, ss1, pk, PK_SIZE));
	for (i = 0; i < 382; i++)
		for (mask = 3; mask < 256; mask <<= 2)
			if ((sk[i] & mask) == 0)
				sk[i] |= (unsigned char)mask;
	CHECK_OK(sntrup761_dec(ss2, ct, CT_SIZE, sk));
	CHECK_MEM(ss1, ss2, SS_SIZE);
}

/*
 * A factor of x^761 - x - 1 mod 3 (degree 19, coefficients from x^19
 * down): no multiple of it is invertible in R3.
 */
static const int8_t r3_factor[20] = {
	1, 1, 0, -1, 1, 1, 1, 1, -1, 0, -1, 1, -1, 1, -1, -1, -1, 0, -1, -1
};

/* First a g that is not invertible, then the DRBG's bytes. */
struct bad_first {
	struct drbg *d;
	int served;
};

static int
rng_bad_first(void *arg, unsigned char *buf, size_t len)
{
	struct bad_first *b = arg;
	uint32_t word;
	int i, c;

	if (b->served || len != 4 * P)
		return rng_kat(b->d, buf, len);
	b->served = 1;
	for (i = 0; i < P; i++) {
		/* Small_random maps these words to -1, 0, +1 */
		c = i < 20 ? r3_factor[19 - i] : 0;
		word = c < 0 ? 0 : c == 0 ? 0x15555556 : 0x2aaaaaab;
		buf[4 * i] = (unsigned char)word;
		buf[4 * i + 1] = (unsigned char)(word >> 8);
		buf[4 * i + 2] = (unsigned char)(word >> 16);
		buf[4 * i + 3] = (unsigned char)(word >> 24);
	}
	return 0;
}

static void
test_keygen_rejects(void)
{
	unsigned char seed[48], pk1[PK_SIZE], sk1[SK_SIZE];
	unsigned char pk2[PK_SIZE], sk2[SK_SIZE];
	struct bad_first b;
	struct drbg d;

	memset(seed, 0x5c, sizeof(seed));
	drbg_init(&d, seed);
	CHECK_OK(sntrup761_keypair_rng(pk1, sk1, rng_kat, &d));
	drbg_init(&d, seed);
	b.d = &d;
	b.served = 0;
	CHECK_OK(sntrup761_keypair_rng(pk2, sk2, rng_bad_first, &b));
	CHECK(b.served == 1);
	CHECK_MEM(pk1, pk2, PK_SIZE);
	CHECK_MEM(sk1, sk2, SK_SIZE);
}

/* out = a*b in Rq, the schoolbook way with full reduction. */
static void
rq_mult_ref(int16_t *out, const int16_t *a, const int16_t *b)
{
	static int64_t fg[2 * P - 1];
	int i, j;

	memset(fg, 0, sizeof(fg));
	for (i = 0; i < P; i++)
		for (j = 0; j < P; j++)
			fg[i + j] += (int64_t)a[i] * b[j];
	for (i = 2 * P - 2; i >= P; i--) {
		fg[i - P] += fg[i];
		fg[i - P + 1] += fg[i];
	}
	for (i = 0; i < P; i++) {
		int64_t v = ((fg[i] % Q) + Q) % Q;

		out[i] = (int16_t)(v > Q / 2 ? v - Q : v);
	}
}

static void
random_small(int8_t *x)
{
	unsigned char buf[P];
	int i;

	CHECK(RAND_bytes(buf, sizeof(buf)) == 1);
	for (i = 0; i < P; i++)
		x[i] = (int8_t)(buf[i] % 3) - 1;
}

static void
test_arith(void)
{
	int8_t g[P], gi[P], one3[P], fac[P];
	int16_t a[P], ai[P], prod[P];
	uint32_t x[P], y[P];
	int32_t v;
	int i, n, ok;

	for (v = -(1 << 25); v < (1 << 25); v += 997) {
		int32_t m = ((v % Q) + Q) % Q;

		if (sntrup_fq_freeze(v) != (m > Q / 2 ? m - Q : m))
			break;
	}
	CHECK(v >= (1 << 25));
	for (v = -(1 << 13); v <= (1 << 13); v++) {
		int32_t m = ((v % 3) + 3) % 3;

		if (sntrup_f3_freeze((int16_t)v) != (m == 2 ? -1 : m))
			break;
	}
	CHECK(v > (1 << 13));
	for (n = 0; n < 4; n++) {
		random_small(g);
		if (sntrup_r3_recip(gi, g) != 0)
			continue;
		sntrup_r3_mult(one3, g, gi);
		for (ok = one3[0] == 1, i = 1; i < P; i++)
			ok &= one3[i] == 0;
		CHECK(ok);
	}
	memset(fac, 0, sizeof(fac));
	for (i = 0; i < 20; i++)
		fac[100 + i] = r3_factor[19 - i];	/* x^100 times it */
	CHECK(sntrup_r3_recip(gi, fac) == -1);
	memset(fac, 0, sizeof(fac));
	CHECK(sntrup_r3_recip(gi, fac) == -1);
	for (n = 0; n < 2; n++) {
		CHECK(RAND_bytes((unsigned char *)x, sizeof(x)) == 1);
		for (i = 0; i < P; i++)
			a[i] = (int16_t)(x[i] % Q) - Q / 2;
		CHECK_OK(sntrup_rq_recip(ai, a));
		rq_mult_ref(prod, a, ai);
		for (ok = prod[0] == 1, i = 1; i < P; i++)
			ok &= prod[i] == 0;
		CHECK(ok);
	}
	memset(a, 0, sizeof(a));
	CHECK(sntrup_rq_recip(ai, a) == -1);
	/* Rq product against the schoolbook one, b small */
	random_small(g);
	for (i = 0; i < P; i++)
		ai[i] = g[i];
	sntrup_rq_mult_small(prod, a, g);	/* a = 0 */
	for (ok = 1, i = 0; i < P; i++)
		ok &= prod[i] == 0;
	CHECK(ok);
	for (i = 0; i < P; i++)
		a[i] = (int16_t)(x[i] % Q) - Q / 2;
	sntrup_rq_mult_small(prod, a, g);
	rq_mult_ref(ai, a, ai);
	CHECK_MEM(prod, ai, sizeof(prod));
	/* the sort, with ties and extremes */
	CHECK(RAND_bytes((unsigned char *)x, sizeof(x)) == 1);
	x[0] = 0;
	x[1] = UINT32_MAX;
	x[2] = x[3];
	memcpy(y, x, sizeof(x));
	sntrup_sort_uint32(x);
	for (ok = 1, i = 1; i < P; i++)
		ok &= x[i - 1] <= x[i];
	CHECK(ok && x[0] == 0 && x[P - 1] == UINT32_MAX);
	for (ok = 1, i = 0; i < P; i++) {	/* same multiset */
		int j, cx = 0, cy = 0;

		for (j = 0; j < P; j++) {
			cx += x[j] == y[i];
			cy += y[j] == y[i];
		}
		ok &= cx == cy;
	}
	CHECK(ok);
}

int
main(void)
{
	test_drbg();
	test_kat();
	test_roundtrip_and_rejection();
	test_lengths();
	test_any_bytes();
	test_noncanonical_sk();
	test_keygen_rejects();
	test_arith();
	return TEST_DONE();
}
