/*
 * test_mlkem.c: ML-KEM-768 (mlkem.c, mlkem_poly.c).
 *
 * Known answers from NIST's ACVP vectors (data/mlkem768_*.txt, see the
 * notes there): key generation from (d, z), encapsulation from (ek, m),
 * decapsulation including the modified ciphertexts whose answer is the
 * implicit-rejection key. Then behaviour: random round trips, a tampered
 * ciphertext decapsulating to J(z || c') (computed here with libcrypto),
 * the input checks of FIPS 203 section 7 (ek coefficient >= q, lengths,
 * the H(ek) held in dk), and the internals against plain definitions:
 * Barrett reduction and Compress_d on every input, NTT multiplication
 * against schoolbook multiplication in Z_q[X]/(X^256 + 1), and SampleNTT's
 * retry with a longer SHAKE128 output against one long squeeze.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "mlkem.h"
#include "mlkem_int.h"
#include "testlib.h"

#define EK	MLKEM768_EK_LEN
#define DK	MLKEM768_DK_LEN
#define CT	MLKEM768_CT_LEN
#define SS	MLKEM768_SS_LEN
#define Q	MLKEM_Q

/* Exactly n bytes of hex in s, or -1. */
static int
unhex(const char *s, uint8_t *out, size_t n)
{
	if (s == NULL || strlen(s) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned int v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return 0;
}

/* The next data line of f split into up to max fields; 0 at the end. */
static int
next_record(FILE *f, char *line, size_t len, char **fields, int max)
{
	while (fgets(line, (int)len, f) != NULL) {
		int n = 0;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		for (char *t = strtok(line, " \n"); t != NULL && n < max;
		    t = strtok(NULL, " \n"))
			fields[n++] = t;
		return n;
	}
	return 0;
}

/* J(z || c) = SHAKE256(z || c, 32), the implicit-rejection key. */
static void
reject_key(uint8_t out[SS], const uint8_t *dk, const uint8_t *ct)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (ctx == NULL ||
	    EVP_DigestInit_ex(ctx, EVP_shake256(), NULL) != 1 ||
	    EVP_DigestUpdate(ctx, dk + DK - 32, 32) != 1 ||
	    EVP_DigestUpdate(ctx, ct, CT) != 1 ||
	    EVP_DigestFinalXOF(ctx, out, SS) != 1)
		memset(out, 0, SS);
	EVP_MD_CTX_free(ctx);
}

static void
test_keygen_kat(void)
{
	static char line[8192];
	FILE *f = fopen("data/mlkem768_keygen.txt", "r");
	char *fl[4];
	uint8_t d[32], z[32], want[DK], ek[EK], dk[DK];
	int cases = 0;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	while (next_record(f, line, sizeof(line), fl, 4) == 4) {
		CHECK(unhex(fl[1], d, 32) == 0 && unhex(fl[2], z, 32) == 0 &&
		    unhex(fl[3], want, DK) == 0);
		CHECK_OK(mlkem768_check_dk(want, DK));
		CHECK_OK(mlkem768_keypair_derand(ek, dk, d, z));
		CHECK_MEM(dk, want, DK);
		CHECK_MEM(ek, want + 1152, EK);
		if (memcmp(dk, want, DK) != 0)
			fprintf(stderr, "keyGen tcId %s differs\n", fl[0]);
		cases++;
	}
	fclose(f);
	CHECK(cases == 3);
}

static void
test_encaps_kat(void)
{
	static char line[8192];
	FILE *f = fopen("data/mlkem768_encaps.txt", "r");
	char *fl[5];
	uint8_t ek[EK], m[32], wct[CT], wk[SS], ct[CT], k[SS];
	int cases = 0;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	while (next_record(f, line, sizeof(line), fl, 5) == 5) {
		CHECK(unhex(fl[1], ek, EK) == 0 && unhex(fl[2], m, 32) == 0 &&
		    unhex(fl[3], wct, CT) == 0 && unhex(fl[4], wk, SS) == 0);
		CHECK_OK(mlkem768_encaps_derand(ct, k, ek, EK, m));
		CHECK_MEM(ct, wct, CT);
		CHECK_MEM(k, wk, SS);
		if (memcmp(ct, wct, CT) != 0 || memcmp(k, wk, SS) != 0)
			fprintf(stderr, "encapsulation tcId %s differs\n",
			    fl[0]);
		cases++;
	}
	fclose(f);
	CHECK(cases == 12);
}

static void
test_decaps_kat(void)
{
	static char line[8192];
	FILE *f = fopen("data/mlkem768_decaps.txt", "r");
	char *fl[3];
	uint8_t dk[DK], ct[CT], wk[SS], k[SS], jk[SS];
	int cases = 0, rejected = 0, n;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	n = next_record(f, line, sizeof(line), fl, 3);
	CHECK(n == 2 && strcmp(fl[0], "dk") == 0 && unhex(fl[1], dk, DK) == 0);
	CHECK_OK(mlkem768_check_dk(dk, DK));
	while (next_record(f, line, sizeof(line), fl, 3) == 3) {
		CHECK(unhex(fl[1], ct, CT) == 0 && unhex(fl[2], wk, SS) == 0);
		CHECK_OK(mlkem768_decaps(k, ct, CT, dk, DK));
		CHECK_MEM(k, wk, SS);
		if (memcmp(k, wk, SS) != 0)
			fprintf(stderr, "decapsulation tcId %s differs\n",
			    fl[0]);
		/* Which answers are the rejection key, per NIST's data. */
		reject_key(jk, dk, ct);
		if (memcmp(wk, jk, SS) == 0)
			rejected++;
		cases++;
	}
	fclose(f);
	CHECK(cases == 10);
	/* The set holds both kinds: 5 modified ciphertexts, 5 intact. */
	CHECK(rejected == 5);
}

static void
test_round_trip(void)
{
	uint8_t ek[EK], dk[DK], ct[CT], k1[SS], k2[SS];

	for (int i = 0; i < 20; i++) {
		CHECK_OK(mlkem768_keypair(ek, dk));
		CHECK_OK(mlkem768_check_ek(ek, EK));
		CHECK_OK(mlkem768_check_dk(dk, DK));
		CHECK_MEM(dk + 1152, ek, EK);
		CHECK_OK(mlkem768_encaps(ct, k1, ek, EK));
		CHECK_OK(mlkem768_decaps(k2, ct, CT, dk, DK));
		CHECK_MEM(k1, k2, SS);
	}
}

/*
 * A ciphertext changed anywhere (in the u part or the v part) must not
 * fail: it decapsulates to J(z || c'), not to the real key.
 */
static void
test_tampered(void)
{
	uint8_t ek[EK], dk[DK], ct[CT], k1[SS], k2[SS], jk[SS];
	static const size_t where[] = { 0, 500, 959, 960, CT - 1 };

	CHECK_OK(mlkem768_keypair(ek, dk));
	CHECK_OK(mlkem768_encaps(ct, k1, ek, EK));
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		ct[where[i]] ^= 0x01;
		CHECK_OK(mlkem768_decaps(k2, ct, CT, dk, DK));
		reject_key(jk, dk, ct);
		CHECK(memcmp(k2, k1, SS) != 0);
		CHECK_MEM(k2, jk, SS);
		ct[where[i]] ^= 0x01;
	}
	CHECK_OK(mlkem768_decaps(k2, ct, CT, dk, DK));
	CHECK_MEM(k2, k1, SS);
	/* A different key pair's dk: rejection too, not an error. */
	{
		uint8_t ek2[EK], dk2[DK];

		CHECK_OK(mlkem768_keypair(ek2, dk2));
		CHECK_OK(mlkem768_decaps(k2, ct, CT, dk2, DK));
		reject_key(jk, dk2, ct);
		CHECK_MEM(k2, jk, SS);
	}
}

/* Put 12-bit value v at coefficient i of the encoded vector in ek. */
static void
set_coeff(uint8_t *ek, size_t i, unsigned int v)
{
	uint8_t *p = ek + 3 * (i / 2);

	if (i % 2 == 0) {
		p[0] = (uint8_t)v;
		p[1] = (uint8_t)((p[1] & 0xf0) | (v >> 8));
	} else {
		p[1] = (uint8_t)((p[1] & 0x0f) | ((v & 0x0f) << 4));
		p[2] = (uint8_t)(v >> 4);
	}
}

static void
test_bad_ek(void)
{
	uint8_t ek[EK], dk[DK], bad[EK + 1], ct[CT], k[SS];
	static const size_t where[] = { 0, 1, 255, 256, 511, 767 };

	CHECK_OK(mlkem768_keypair(ek, dk));
	for (size_t w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
		memcpy(bad, ek, EK);
		set_coeff(bad, where[w], Q - 1);	/* the largest allowed */
		CHECK_OK(mlkem768_check_ek(bad, EK));
		CHECK_OK(mlkem768_encaps(ct, k, bad, EK));
		set_coeff(bad, where[w], Q);
		CHECK_ERR(mlkem768_check_ek(bad, EK), ERR_KEY_INVALID);
		memset(k, 0xaa, SS);
		CHECK_ERR(mlkem768_encaps(ct, k, bad, EK), ERR_KEY_INVALID);
		CHECK(k[0] == 0 && memcmp(k, k + 1, SS - 1) == 0);
		set_coeff(bad, where[w], 4095);
		CHECK_ERR(mlkem768_encaps(ct, k, bad, EK), ERR_KEY_INVALID);
	}
	/* rho (the last 32 bytes) may be anything. */
	memcpy(bad, ek, EK);
	memset(bad + 1152, 0xff, 32);
	CHECK_OK(mlkem768_encaps(ct, k, bad, EK));
	CHECK_ERR(mlkem768_encaps(ct, k, ek, EK - 1), ERR_INVALID_FORMAT);
	memcpy(bad, ek, EK);
	CHECK_ERR(mlkem768_encaps(ct, k, bad, EK + 1), ERR_INVALID_FORMAT);
	CHECK_ERR(mlkem768_encaps(ct, k, NULL, EK), ERR_INVALID_FORMAT);
}

static void
test_decaps_checks(void)
{
	uint8_t ek[EK], dk[DK], ct[CT + 1], k[SS], k1[SS];

	CHECK_OK(mlkem768_keypair(ek, dk));
	CHECK_OK(mlkem768_encaps(ct, k1, ek, EK));
	memset(k, 0xaa, SS);
	CHECK_ERR(mlkem768_decaps(k, ct, CT - 1, dk, DK), ERR_INVALID_FORMAT);
	CHECK(k[0] == 0 && memcmp(k, k + 1, SS - 1) == 0);
	CHECK_ERR(mlkem768_decaps(k, ct, CT + 1, dk, DK), ERR_INVALID_FORMAT);
	CHECK_ERR(mlkem768_decaps(k, NULL, CT, dk, DK), ERR_INVALID_FORMAT);
	CHECK_ERR(mlkem768_decaps(k, ct, CT, dk, DK - 1),
	    ERR_INVALID_ARGUMENT);
	CHECK_ERR(mlkem768_check_dk(dk, DK + 1), ERR_INVALID_ARGUMENT);
	/* The stored H(ek), or ek itself, changed: refused. */
	dk[2336] ^= 0x80;
	CHECK_ERR(mlkem768_check_dk(dk, DK), ERR_KEY_INVALID);
	CHECK_ERR(mlkem768_decaps(k, ct, CT, dk, DK), ERR_KEY_INVALID);
	dk[2336] ^= 0x80;
	dk[1152 + 7] ^= 0x01;
	CHECK_ERR(mlkem768_decaps(k, ct, CT, dk, DK), ERR_KEY_INVALID);
	dk[1152 + 7] ^= 0x01;
	/* z and dk_PKE are not covered by the hash. */
	CHECK_OK(mlkem768_decaps(k, ct, CT, dk, DK));
	CHECK_MEM(k, k1, SS);
}

static int
mod_q(long v)
{
	long r = v % Q;

	return (int)(r < 0 ? r + Q : r);
}

static void
test_reduce(void)
{
	struct mlkem_poly p;
	int bad = 0;

	for (long base = -32768; base < 32768; base += MLKEM_N) {
		for (int i = 0; i < MLKEM_N; i++)
			p.c[i] = (int16_t)(base + i);
		mlkem_poly_reduce(&p);
		for (int i = 0; i < MLKEM_N; i++)
			if (p.c[i] < -(Q - 1) / 2 || p.c[i] > (Q - 1) / 2 ||
			    mod_q(p.c[i]) != mod_q(base + i))
				bad++;
	}
	CHECK(bad == 0);
}

/* Compress_d of every x in [0, q) against the exact rounding. */
static void
test_compress(void)
{
	static const unsigned int ds[] = { 1, 4, 10, 11 };
	struct mlkem_poly p;
	uint8_t out[32 * 11];
	int bad = 0;

	for (size_t di = 0; di < sizeof(ds) / sizeof(ds[0]); di++) {
		unsigned int d = ds[di];

		for (int base = 0; base < Q; base += MLKEM_N) {
			for (int i = 0; i < MLKEM_N; i++)
				p.c[i] = (int16_t)((base + i) % Q);
			mlkem_poly_compress(out, &p, d);
			for (int i = 0; i < MLKEM_N; i++) {
				unsigned int bit = (unsigned int)i * d, got = 0;
				long x = p.c[i];
				/* round(2^d x / q) mod 2^d, ties up */
				long want = ((x << (d + 1)) + Q) / (2 * Q) %
				    (1L << d);

				for (unsigned int b = 0; b < d; b++, bit++)
					got |= (unsigned int)((out[bit / 8] >>
					    (bit % 8)) & 1) << b;
				if ((long)got != want)
					bad++;
			}
		}
	}
	CHECK(bad == 0);
}

/* NTT, multiplication in NTT form and the inverse against schoolbook. */
static void
test_ntt_multiply(void)
{
	struct mlkem_poly a, b, r;
	long want[MLKEM_N];
	uint16_t rnd[2 * MLKEM_N];
	int bad = 0;

	for (int round = 0; round < 10; round++) {
		CHECK(RAND_bytes((uint8_t *)rnd, sizeof(rnd)) == 1);
		for (int i = 0; i < MLKEM_N; i++) {
			a.c[i] = (int16_t)(rnd[i] % Q);
			b.c[i] = (int16_t)((rnd[MLKEM_N + i] % Q) - Q / 2);
		}
		memset(want, 0, sizeof(want));
		for (int i = 0; i < MLKEM_N; i++)
			for (int j = 0; j < MLKEM_N; j++) {
				long t = (long)a.c[i] * b.c[j];

				if (i + j < MLKEM_N)
					want[i + j] += t;
				else
					want[i + j - MLKEM_N] -= t;
			}
		mlkem_poly_ntt(&a);
		mlkem_poly_ntt(&b);
		mlkem_polyvec_dot(&r, &a, &b, 1);
		mlkem_poly_invntt(&r);
		for (int i = 0; i < MLKEM_N; i++)
			if (mod_q(r.c[i]) != mod_q(want[i]) ||
			    r.c[i] <= -Q || r.c[i] >= Q)
				bad++;
	}
	CHECK(bad == 0);
}

/*
 * SampleNTT asking for too short an output first must run SHAKE128 again
 * for more and give the polynomial one long squeeze gives.
 */
static void
test_sample_ntt(void)
{
	struct mlkem_hash h;
	struct mlkem_poly want, got;
	uint8_t rho[32];
	static const size_t firsts[] = { 1, 3, 6, 200, 480, MLKEM_XOF_FIRST - 1 };

	CHECK_OK(mlkem_hash_init(&h));
	for (int round = 0; round < 4; round++) {
		CHECK(RAND_bytes(rho, sizeof(rho)) == 1);
		CHECK_OK(mlkem_sample_ntt(&h, &want, rho, (uint8_t)round, 2,
		    MLKEM_XOF_FIRST));
		for (size_t f = 0; f < sizeof(firsts) / sizeof(firsts[0]);
		    f++) {
			memset(&got, 0x55, sizeof(got));
			CHECK_OK(mlkem_sample_ntt(&h, &got, rho,
			    (uint8_t)round, 2, firsts[f]));
			CHECK_MEM(&got, &want, sizeof(got));
		}
		for (int i = 0; i < MLKEM_N; i++)
			CHECK(want.c[i] >= 0 && want.c[i] < Q);
	}
	/* Against an independent parse of one 2000-byte squeeze. */
	{
		EVP_MD_CTX *ctx = EVP_MD_CTX_new();
		uint8_t seed[34], buf[2016];
		int n = 0;

		memcpy(seed, rho, 32);
		seed[32] = 1;
		seed[33] = 0;
		CHECK(ctx != NULL &&
		    EVP_DigestInit_ex(ctx, EVP_shake128(), NULL) == 1 &&
		    EVP_DigestUpdate(ctx, seed, sizeof(seed)) == 1 &&
		    EVP_DigestFinalXOF(ctx, buf, sizeof(buf)) == 1);
		EVP_MD_CTX_free(ctx);
		for (size_t j = 0; j + 3 <= sizeof(buf) && n < MLKEM_N;
		    j += 3) {
			int d1 = buf[j] | (buf[j + 1] & 0x0f) << 8;
			int d2 = buf[j + 1] >> 4 | buf[j + 2] << 4;

			if (d1 < Q)
				want.c[n++] = (int16_t)d1;
			if (d2 < Q && n < MLKEM_N)
				want.c[n++] = (int16_t)d2;
		}
		CHECK(n == MLKEM_N);
		CHECK_OK(mlkem_sample_ntt(&h, &got, rho, 1, 0, 5));
		CHECK_MEM(&got, &want, sizeof(got));
	}
	CHECK_ERR(mlkem_sample_ntt(&h, &got, rho, 0, 0, 0),
	    ERR_INVALID_ARGUMENT);
	CHECK_ERR(mlkem_sample_ntt(&h, &got, rho, 0, 0, MLKEM_XOF_FIRST + 1),
	    ERR_INVALID_ARGUMENT);
	mlkem_hash_free(&h);
}

int
main(void)
{
	test_keygen_kat();
	test_encaps_kat();
	test_decaps_kat();
	test_round_trip();
	test_tampered();
	test_bad_ek();
	test_decaps_checks();
	test_reduce();
	test_compress();
	test_ntt_multiply();
	test_sample_ntt();
	return TEST_DONE();
}
