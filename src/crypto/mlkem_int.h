/*
 * mlkem_int.h: the insides of ML-KEM (FIPS 203) shared by mlkem.c and
 * mlkem_poly.c, and reached by the unit test; nothing else should use it.
 *
 * A polynomial of R_q = Z_q[X]/(X^256 + 1), q = 3329, is 256 int16_t
 * coefficients. They are kept as small signed representatives (not
 * always in [0, q)); each function below states the range it takes and
 * gives. Multiplication uses Montgomery reduction with R = 2^16, and the
 * one place where the factor R shows is said where it does:
 *  - mlkem_poly_ntt() maps a polynomial to its NTT form (FIPS 203
 *    Algorithm 9) with no extra factor;
 *  - mlkem_polyvec_dot() multiplies in NTT form (Algorithm 11) and its
 *    result carries a factor R^-1;
 *  - mlkem_poly_invntt() (Algorithm 10) multiplies its result by R, so
 *    invntt(dot(a, b)) is the plain product, and mlkem_poly_tomont()
 *    (times R) undoes the R^-1 of a product kept in NTT form.
 */
#ifndef MOAT_MLKEM_INT_H
#define MOAT_MLKEM_INT_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#define MLKEM_N		256
#define MLKEM_Q		3329
#define MLKEM_K		3	/* ML-KEM-768 */
#define MLKEM_DU	10
#define MLKEM_DV	4
#define MLKEM_POLY_BYTES	384	/* ByteEncode12 of one polynomial */
#define MLKEM_CBD_BYTES		128	/* PRF output for eta = 2: 64 * eta */

struct mlkem_poly {
	int16_t c[MLKEM_N];
};

/* Coefficients to [-(q-1)/2, (q-1)/2] (Barrett). Any int16_t input. */
void mlkem_poly_reduce(struct mlkem_poly *p);
/* Forward NTT in place. Input |c| < q; output reduced as above. */
void mlkem_poly_ntt(struct mlkem_poly *p);
/* Inverse NTT in place, result times R. Any input; output |c| < q. */
void mlkem_poly_invntt(struct mlkem_poly *p);
/* r = sum over i < n of a[i] * b[i] in NTT form, times R^-1, reduced.
 * Inputs |c| < 2^12. */
void mlkem_polyvec_dot(struct mlkem_poly *r, const struct mlkem_poly *a,
    const struct mlkem_poly *b, size_t n);
/* p = p * R mod q, reduced. */
void mlkem_poly_tomont(struct mlkem_poly *p);
/* r = r + a and r = r - a, no reduction: keep the sums within int16_t. */
void mlkem_poly_add(struct mlkem_poly *r, const struct mlkem_poly *a);
void mlkem_poly_sub(struct mlkem_poly *r, const struct mlkem_poly *a);

/* SamplePolyCBD_2 (Algorithm 8) from 128 bytes of PRF output. */
void mlkem_poly_cbd2(struct mlkem_poly *p, const uint8_t buf[MLKEM_CBD_BYTES]);

/* ByteEncode_12 of the canonical representatives (any int16_t input). */
void mlkem_poly_encode12(uint8_t out[MLKEM_POLY_BYTES],
    const struct mlkem_poly *p);
/* ByteDecode_12: coefficients in [0, 4095], not reduced mod q. */
void mlkem_poly_decode12(struct mlkem_poly *p,
    const uint8_t in[MLKEM_POLY_BYTES]);
/* ByteEncode_d(Compress_d(p)) for d in 1..11 (32 * d bytes out); any
 * int16_t input. Constant time: no division, no branch on the values. */
void mlkem_poly_compress(uint8_t *out, const struct mlkem_poly *p,
    unsigned int d);
/* Decompress_d(ByteDecode_d(in)): coefficients in [0, q). */
void mlkem_poly_decompress(struct mlkem_poly *p, const uint8_t *in,
    unsigned int d);

/*
 * The hash functions of FIPS 203 section 4.1, fetched once per operation
 * and sharing one digest context.
 */
struct mlkem_hash {
	EVP_MD *sha3_256, *sha3_512, *shake128, *shake256;
	EVP_MD_CTX *ctx;
};

int mlkem_hash_init(struct mlkem_hash *h);
void mlkem_hash_free(struct mlkem_hash *h);

/*
 * SampleNTT (Algorithm 7) of rho || b0 || b1. first is how many bytes of
 * SHAKE128 output to take at the first try (see mlkem.c); the real code
 * passes MLKEM_XOF_FIRST, the unit test other lengths.
 */
#define MLKEM_XOF_FIRST	504	/* 3 SHAKE128 blocks */
int mlkem_sample_ntt(struct mlkem_hash *h, struct mlkem_poly *a,
    const uint8_t rho[32], uint8_t b0, uint8_t b1, size_t first);

#endif
