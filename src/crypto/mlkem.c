/*
 * mlkem.c: ML-KEM-768 (FIPS 203): the K-PKE scheme of section 5 and the
 * ML-KEM algorithms of sections 6 and 7 built on it; the polynomial
 * arithmetic is in mlkem_poly.c.
 *
 * Hashes come from libcrypto: H = SHA3-256, G = SHA3-512, J and PRF =
 * SHAKE256, XOF = SHAKE128. libcrypto 3.0 cannot squeeze a SHAKE context
 * piece by piece (EVP_DigestSqueeze is 3.3), which SampleNTT would like
 * to do; see mlkem_sample_ntt() for how it does without.
 *
 * Constant time: secrets only go through arithmetic, never into a branch
 * condition or a table index. The one decision on secret data, whether
 * the re-encrypted ciphertext matches the one received, is taken by
 * CRYPTO_memcmp (libcrypto's assembly) and turned into a byte mask that
 * selects the shared secret with AND and XOR; an empty asm statement hides
 * the mask's value from the compiler so that it cannot turn the selection
 * into a branch (checked in the generated code with gcc and clang -O2:
 * the selection is straight-line and/xor). Rejection sampling in SampleNTT
 * branches on public data only (the matrix seed rho).
 *
 * Secrets (seeds, the noise and secret polynomials, the message and the
 * keys derived from it) are wiped before the functions return.
 */
#include <stdint.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "err.h"
#include "mem.h"
#include "mlkem.h"
#include "mlkem_int.h"

#define K		MLKEM_K
#define PKE_DK_BYTES	(K * MLKEM_POLY_BYTES)		/* 1152 */
#define PKE_EK_BYTES	(PKE_DK_BYTES + 32)		/* 1184 */
#define CT_U_BYTES	(K * 32 * MLKEM_DU)		/* 960 */
#define DK_EK_OFF	PKE_DK_BYTES			/* ek within dk */
#define DK_H_OFF	(DK_EK_OFF + PKE_EK_BYTES)	/* H(ek) within dk */
#define DK_Z_OFF	(DK_H_OFF + 32)			/* z within dk */
#define XOF_LIMIT	(1U << 20)	/* give up SampleNTT past this */

int
mlkem_hash_init(struct mlkem_hash *h)
{
	memset(h, 0, sizeof(*h));
	if ((h->sha3_256 = EVP_MD_fetch(NULL, "SHA3-256", NULL)) == NULL ||
	    (h->sha3_512 = EVP_MD_fetch(NULL, "SHA3-512", NULL)) == NULL ||
	    (h->shake128 = EVP_MD_fetch(NULL, "SHAKE128", NULL)) == NULL ||
	    (h->shake256 = EVP_MD_fetch(NULL, "SHAKE256", NULL)) == NULL ||
	    (h->ctx = EVP_MD_CTX_new()) == NULL) {
		mlkem_hash_free(h);
		return ERR_LIBCRYPTO;
	}
	return 0;
}

/* Freeing the context makes libcrypto wipe the sponge state. */
void
mlkem_hash_free(struct mlkem_hash *h)
{
	EVP_MD_CTX_free(h->ctx);
	EVP_MD_free(h->sha3_256);
	EVP_MD_free(h->sha3_512);
	EVP_MD_free(h->shake128);
	EVP_MD_free(h->shake256);
	memset(h, 0, sizeof(*h));
}

/* out = md(a || b), outlen bytes: the digest's size, or any for SHAKE. */
static int
hash2(struct mlkem_hash *h, const EVP_MD *md, const uint8_t *a, size_t alen,
    const uint8_t *b, size_t blen, uint8_t *out, size_t outlen)
{
	unsigned int n = 0;

	if (EVP_DigestInit_ex2(h->ctx, md, NULL) != 1 ||
	    EVP_DigestUpdate(h->ctx, a, alen) != 1 ||
	    (blen > 0 && EVP_DigestUpdate(h->ctx, b, blen) != 1))
		return ERR_LIBCRYPTO;
	if (md == h->shake128 || md == h->shake256) {
		if (EVP_DigestFinalXOF(h->ctx, out, outlen) != 1)
			return ERR_LIBCRYPTO;
	} else if (EVP_DigestFinal_ex(h->ctx, out, &n) != 1 || n != outlen)
		return ERR_LIBCRYPTO;
	return 0;
}

/* SamplePolyCBD_2(PRF_2(s, n)) (Algorithm 8, section 4.1). */
static int
sample_cbd(struct mlkem_hash *h, struct mlkem_poly *p, const uint8_t s[32],
    uint8_t n)
{
	uint8_t buf[MLKEM_CBD_BYTES];
	int r;

	if ((r = hash2(h, h->shake256, s, 32, &n, 1, buf, sizeof(buf))) == 0)
		mlkem_poly_cbd2(p, buf);
	x_wipe(buf, sizeof(buf));
	return r;
}

/*
 * Parse 12-bit candidates from buf[*pos..len) into a from coefficient
 * *n on, keeping those below q (Algorithm 7, steps 4-15).
 */
static void
sample_parse(struct mlkem_poly *a, size_t *n, const uint8_t *buf,
    size_t *pos, size_t len)
{
	while (*n < MLKEM_N && *pos + 3 <= len) {
		const uint8_t *c = buf + *pos;
		uint16_t d1 = (uint16_t)(c[0] | (c[1] & 0x0f) << 8);
		uint16_t d2 = (uint16_t)(c[1] >> 4 | c[2] << 4);

		*pos += 3;
		if (d1 < MLKEM_Q)
			a->c[(*n)++] = (int16_t)d1;
		if (d2 < MLKEM_Q && *n < MLKEM_N)
			a->c[(*n)++] = (int16_t)d2;
	}
}

/*
 * SampleNTT (Algorithm 7) reads SHAKE128(rho || b0 || b1) three bytes at
 * a time until it has 256 coefficients; each 3 bytes give 2 candidates,
 * each kept with probability q / 4096. How many bytes that takes has no
 * bound, so with no incremental squeeze we ask for a fixed length at once
 * (first bytes: the real code takes 504, three blocks of the sponge,
 * which give 336 candidates against the 256 needed). When that runs out
 * (for about one call in 120: a key generation or an encapsulation makes
 * 9 calls, so about 7 per cent of them see it), the hash is run again for
 * twice the length and parsing goes on where it stopped: SHAKE's output
 * for a longer length starts with the output for the shorter one, so this
 * reads the very stream the standard reads. It depends on rho only, which
 * is public. The unit test drives that path with small first lengths.
 */
int
mlkem_sample_ntt(struct mlkem_hash *h, struct mlkem_poly *a,
    const uint8_t rho[32], uint8_t b0, uint8_t b1, size_t first)
{
	uint8_t stackbuf[MLKEM_XOF_FIRST], *buf = stackbuf, tail[2];
	size_t len = first, pos = 0, n = 0;
	int r = 0;

	if (len == 0 || len > sizeof(stackbuf))
		return ERR_INVALID_ARGUMENT;
	tail[0] = b0;
	tail[1] = b1;
	for (;;) {
		if ((r = hash2(h, h->shake128, rho, 32, tail, 2, buf,
		    len)) != 0)
			break;
		sample_parse(a, &n, buf, &pos, len);
		if (n == MLKEM_N)
			break;
		if (len > XOF_LIMIT / 2) {
			r = ERR_INTERNAL;
			break;
		}
		len *= 2;
		if (buf != stackbuf)
			x_free(buf);
		buf = x_malloc(len);
	}
	if (buf != stackbuf)
		x_free(buf);
	return r;
}

/*
 * The matrix A-hat of Algorithm 13, entry [i][j] = SampleNTT(rho || j ||
 * i), or its transpose (Algorithm 14) when transposed is set; row-major.
 */
static int
gen_matrix(struct mlkem_hash *h, struct mlkem_poly a[K * K],
    const uint8_t rho[32], int transposed)
{
	int r;

	for (uint8_t i = 0; i < K; i++) {
		for (uint8_t j = 0; j < K; j++) {
			r = transposed ?
			    mlkem_sample_ntt(h, &a[i * K + j], rho, i, j,
			    MLKEM_XOF_FIRST) :
			    mlkem_sample_ntt(h, &a[i * K + j], rho, j, i,
			    MLKEM_XOF_FIRST);
			if (r != 0)
				return r;
		}
	}
	return 0;
}

/* K-PKE.KeyGen (Algorithm 13): the 1184-byte ek and 1152-byte dk. */
static int
pke_keygen(struct mlkem_hash *h, uint8_t ek[PKE_EK_BYTES],
    uint8_t dk[PKE_DK_BYTES], const uint8_t d[32])
{
	struct mlkem_poly a[K * K], s[K], e[K], t;
	uint8_t seed[33], g[64];	/* g = rho || sigma */
	uint8_t n = 0;
	int r;

	memcpy(seed, d, 32);
	seed[32] = K;
	if ((r = hash2(h, h->sha3_512, seed, sizeof(seed), NULL, 0, g,
	    sizeof(g))) != 0 || (r = gen_matrix(h, a, g, 0)) != 0)
		goto out;
	for (size_t i = 0; i < K; i++)
		if ((r = sample_cbd(h, &s[i], g + 32, n++)) != 0)
			goto out;
	for (size_t i = 0; i < K; i++)
		if ((r = sample_cbd(h, &e[i], g + 32, n++)) != 0)
			goto out;
	for (size_t i = 0; i < K; i++) {
		mlkem_poly_ntt(&s[i]);
		mlkem_poly_ntt(&e[i]);
	}
	for (size_t i = 0; i < K; i++) {
		mlkem_polyvec_dot(&t, &a[i * K], s, K);
		mlkem_poly_tomont(&t);
		mlkem_poly_add(&t, &e[i]);
		mlkem_poly_encode12(ek + i * MLKEM_POLY_BYTES, &t);
		mlkem_poly_encode12(dk + i * MLKEM_POLY_BYTES, &s[i]);
	}
	memcpy(ek + PKE_DK_BYTES, g, 32);
 out:
	x_wipe(seed, sizeof(seed));
	x_wipe(g, sizeof(g));
	x_wipe(s, sizeof(s));
	x_wipe(e, sizeof(e));
	x_wipe(&t, sizeof(t));
	return r;
}

/* K-PKE.Encrypt (Algorithm 14) of m with randomness rnd. */
static int
pke_encrypt(struct mlkem_hash *h, uint8_t ct[MLKEM768_CT_LEN],
    const uint8_t ek[PKE_EK_BYTES], const uint8_t m[32],
    const uint8_t rnd[32])
{
	struct mlkem_poly at[K * K], t[K], y[K], e1[K], e2, u, v;
	uint8_t n = 0;
	int r;

	for (size_t i = 0; i < K; i++)
		mlkem_poly_decode12(&t[i], ek + i * MLKEM_POLY_BYTES);
	if ((r = gen_matrix(h, at, ek + PKE_DK_BYTES, 1)) != 0)
		goto out;
	for (size_t i = 0; i < K; i++)
		if ((r = sample_cbd(h, &y[i], rnd, n++)) != 0)
			goto out;
	for (size_t i = 0; i < K; i++)
		if ((r = sample_cbd(h, &e1[i], rnd, n++)) != 0)
			goto out;
	if ((r = sample_cbd(h, &e2, rnd, n++)) != 0)
		goto out;
	for (size_t i = 0; i < K; i++)
		mlkem_poly_ntt(&y[i]);
	for (size_t i = 0; i < K; i++) {
		mlkem_polyvec_dot(&u, &at[i * K], y, K);
		mlkem_poly_invntt(&u);
		mlkem_poly_add(&u, &e1[i]);
		mlkem_poly_compress(ct + i * 32 * MLKEM_DU, &u, MLKEM_DU);
	}
	mlkem_polyvec_dot(&v, t, y, K);
	mlkem_poly_invntt(&v);
	mlkem_poly_add(&v, &e2);
	mlkem_poly_decompress(&u, m, 1);	/* mu */
	mlkem_poly_add(&v, &u);
	mlkem_poly_compress(ct + CT_U_BYTES, &v, MLKEM_DV);
 out:
	x_wipe(y, sizeof(y));
	x_wipe(e1, sizeof(e1));
	x_wipe(&e2, sizeof(e2));
	x_wipe(&u, sizeof(u));
	x_wipe(&v, sizeof(v));
	return r;
}

/* K-PKE.Decrypt (Algorithm 15). */
static void
pke_decrypt(uint8_t m[32], const uint8_t dk[PKE_DK_BYTES],
    const uint8_t ct[MLKEM768_CT_LEN])
{
	struct mlkem_poly s[K], u[K], v, w;

	for (size_t i = 0; i < K; i++) {
		mlkem_poly_decompress(&u[i], ct + i * 32 * MLKEM_DU, MLKEM_DU);
		mlkem_poly_ntt(&u[i]);
		mlkem_poly_decode12(&s[i], dk + i * MLKEM_POLY_BYTES);
	}
	mlkem_polyvec_dot(&w, s, u, K);
	mlkem_poly_invntt(&w);
	mlkem_poly_decompress(&v, ct + CT_U_BYTES, MLKEM_DV);
	mlkem_poly_sub(&v, &w);
	mlkem_poly_compress(m, &v, 1);
	x_wipe(s, sizeof(s));
	x_wipe(&v, sizeof(v));
	x_wipe(&w, sizeof(w));
}

int
mlkem768_keypair_derand(uint8_t ek[MLKEM768_EK_LEN],
    uint8_t dk[MLKEM768_DK_LEN], const uint8_t d[MLKEM_SEED_LEN],
    const uint8_t z[MLKEM_SEED_LEN])
{
	struct mlkem_hash h;
	int r;

	if ((r = mlkem_hash_init(&h)) != 0)
		return r;
	if ((r = pke_keygen(&h, ek, dk, d)) == 0 &&
	    (r = hash2(&h, h.sha3_256, ek, PKE_EK_BYTES, NULL, 0,
	    dk + DK_H_OFF, 32)) == 0) {
		memcpy(dk + DK_EK_OFF, ek, PKE_EK_BYTES);
		memcpy(dk + DK_Z_OFF, z, 32);
	}
	mlkem_hash_free(&h);
	if (r != 0)
		x_wipe(dk, MLKEM768_DK_LEN);
	return r;
}

int
mlkem768_keypair(uint8_t ek[MLKEM768_EK_LEN], uint8_t dk[MLKEM768_DK_LEN])
{
	uint8_t dz[2 * MLKEM_SEED_LEN];
	int r;

	if (RAND_bytes(dz, sizeof(dz)) != 1)
		r = ERR_LIBCRYPTO;
	else
		r = mlkem768_keypair_derand(ek, dk, dz, dz + MLKEM_SEED_LEN);
	x_wipe(dz, sizeof(dz));
	return r;
}

/*
 * Section 7.2: the length, and the modulus check: every 12-bit value in
 * the encoded vector is below q, which is what ByteEncode12(ByteDecode12
 * (ek)) == ek asks. ek is public: plain comparisons will do.
 */
int
mlkem768_check_ek(const uint8_t *ek, size_t eklen)
{
	struct mlkem_poly p;
	uint8_t again[MLKEM_POLY_BYTES];

	if (ek == NULL || eklen != MLKEM768_EK_LEN)
		return ERR_INVALID_FORMAT;
	for (size_t i = 0; i < K; i++) {
		mlkem_poly_decode12(&p, ek + i * MLKEM_POLY_BYTES);
		mlkem_poly_encode12(again, &p);
		if (memcmp(again, ek + i * MLKEM_POLY_BYTES,
		    MLKEM_POLY_BYTES) != 0)
			return ERR_KEY_INVALID;
	}
	return 0;
}

int
mlkem768_encaps_derand(uint8_t ct[MLKEM768_CT_LEN],
    uint8_t ss[MLKEM768_SS_LEN], const uint8_t *ek, size_t eklen,
    const uint8_t m[MLKEM_SEED_LEN])
{
	struct mlkem_hash h;
	uint8_t hek[32], kr[64];	/* kr = K || r */
	int r;

	if ((r = mlkem768_check_ek(ek, eklen)) != 0 ||
	    (r = mlkem_hash_init(&h)) != 0) {
		x_wipe(ss, MLKEM768_SS_LEN);
		return r;
	}
	if ((r = hash2(&h, h.sha3_256, ek, eklen, NULL, 0, hek,
	    sizeof(hek))) == 0 &&
	    (r = hash2(&h, h.sha3_512, m, MLKEM_SEED_LEN, hek, sizeof(hek),
	    kr, sizeof(kr))) == 0 &&
	    (r = pke_encrypt(&h, ct, ek, m, kr + 32)) == 0)
		memcpy(ss, kr, MLKEM768_SS_LEN);
	else
		x_wipe(ss, MLKEM768_SS_LEN);
	mlkem_hash_free(&h);
	x_wipe(kr, sizeof(kr));
	return r;
}

int
mlkem768_encaps(uint8_t ct[MLKEM768_CT_LEN], uint8_t ss[MLKEM768_SS_LEN],
    const uint8_t *ek, size_t eklen)
{
	uint8_t m[MLKEM_SEED_LEN];
	int r;

	if (RAND_bytes(m, sizeof(m)) != 1) {
		x_wipe(ss, MLKEM768_SS_LEN);
		r = ERR_LIBCRYPTO;
	} else
		r = mlkem768_encaps_derand(ct, ss, ek, eklen, m);
	x_wipe(m, sizeof(m));
	return r;
}

/* Section 7.3, steps 2 and 3, with a hash context already set up. */
static int
check_dk(struct mlkem_hash *h, const uint8_t *dk, size_t dklen)
{
	uint8_t hek[32];
	int r;

	if (dk == NULL || dklen != MLKEM768_DK_LEN)
		return ERR_INVALID_ARGUMENT;
	if ((r = hash2(h, h->sha3_256, dk + DK_EK_OFF, PKE_EK_BYTES, NULL, 0,
	    hek, sizeof(hek))) != 0)
		return r;
	return CRYPTO_memcmp(hek, dk + DK_H_OFF, 32) == 0 ? 0 :
	    ERR_KEY_INVALID;
}

int
mlkem768_check_dk(const uint8_t *dk, size_t dklen)
{
	struct mlkem_hash h;
	int r;

	if ((r = mlkem_hash_init(&h)) != 0)
		return r;
	r = check_dk(&h, dk, dklen);
	mlkem_hash_free(&h);
	return r;
}

/*
 * 0xff when the n bytes at a and b are equal, else 0, in constant time.
 * CRYPTO_memcmp answers 0 or a nonzero value below 256; minus one, that
 * has bit 8 set only when it was 0. The asm keeps the compiler from
 * knowing the mask is all-or-nothing (and branching on it).
 */
static uint8_t
ct_eq_mask(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint32_t d = (uint32_t)CRYPTO_memcmp(a, b, n) & 0xff;
	uint32_t mask = 0U - (((d - 1) >> 8) & 1);

	__asm__("" : "+r"(mask));
	return (uint8_t)mask;
}

/* out = mask ? a : b, byte by byte, for a mask of 0 or 0xff. */
static void
ct_select(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n,
    uint8_t mask)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)(b[i] ^ (mask & (a[i] ^ b[i])));
}

int
mlkem768_decaps(uint8_t ss[MLKEM768_SS_LEN], const uint8_t *ct,
    size_t ctlen, const uint8_t *dk, size_t dklen)
{
	struct mlkem_hash h;
	uint8_t m[32], kr[64], kbar[32], ct2[MLKEM768_CT_LEN];
	int r;

	x_wipe(ss, MLKEM768_SS_LEN);
	if (ct == NULL || ctlen != MLKEM768_CT_LEN)
		return ERR_INVALID_FORMAT;
	if (dk == NULL || dklen != MLKEM768_DK_LEN)
		return ERR_INVALID_ARGUMENT;
	if ((r = mlkem_hash_init(&h)) != 0)
		return r;
	if ((r = check_dk(&h, dk, dklen)) != 0)
		goto out;
	pke_decrypt(m, dk, ct);
	if ((r = hash2(&h, h.sha3_512, m, sizeof(m), dk + DK_H_OFF, 32, kr,
	    sizeof(kr))) != 0 ||
	    (r = hash2(&h, h.shake256, dk + DK_Z_OFF, 32, ct, ctlen, kbar,
	    sizeof(kbar))) != 0 ||
	    (r = pke_encrypt(&h, ct2, dk + DK_EK_OFF, m, kr + 32)) != 0)
		goto out;
	ct_select(ss, kr, kbar, MLKEM768_SS_LEN,
	    ct_eq_mask(ct, ct2, MLKEM768_CT_LEN));
 out:
	mlkem_hash_free(&h);
	x_wipe(m, sizeof(m));
	x_wipe(kr, sizeof(kr));
	x_wipe(kbar, sizeof(kbar));
	x_wipe(ct2, sizeof(ct2));
	return r;
}
