/*
 * mlkem_poly.c: arithmetic on the polynomials of ML-KEM (FIPS 203): the
 * NTT and its inverse, multiplication in NTT form, the centered binomial
 * sampler, and the byte encodings with compression.
 *
 * Reductions mod q = 3329 are Montgomery (after a product, R = 2^16) and
 * Barrett (after sums); both are a few multiplications and shifts, with no
 * branch or table index that depends on the coefficients, and so is
 * everything else here: these functions run on secret polynomials. Right
 * shifts of negative values are arithmetic (as gcc and clang do them).
 * That the compiler kept it so was checked in the generated code (gcc 12,
 * -O3 as the build uses for this file, x86-64): every conditional jump in
 * these functions compares a loop counter or bound, none a coefficient.
 * Range bounds are stated in mlkem_int.h and at each step below. The
 * scratch arrays of the encoders are wiped, as they may hold secrets.
 */
#include <stdint.h>

#include "mem.h"
#include "mlkem_int.h"

#define QINV		62209	/* q^-1 mod 2^16 */
#define BARRETT_V	20159	/* round(2^26 / q) */
#define R2_MOD_Q	1353	/* 2^32 mod q: fqmul by it multiplies by R */
#define INVNTT_F	1441	/* R^2 / 128 mod q: 128^-1, and leaves R */
#define COMPRESS_M	330282857ULL	/* ceil(2^40 / q) */

/*
 * zetas[i] = 17^BitRev7(i) * R mod q, and gammas[i] =
 * 17^(2 BitRev7(i) + 1) * R mod q (FIPS 203 Appendix A, times R),
 * as representatives in [-(q-1)/2, (q-1)/2].
 */
static const int16_t zetas[128] = {
	-1044, -758, -359, -1517, 1493, 1422, 287, 202,
	-171, 622, 1577, 182, 962, -1202, -1474, 1468,
	573, -1325, 264, 383, -829, 1458, -1602, -130,
	-681, 1017, 732, 608, -1542, 411, -205, -1571,
	1223, 652, -552, 1015, -1293, 1491, -282, -1544,
	516, -8, -320, -666, -1618, -1162, 126, 1469,
	-853, -90, -271, 830, 107, -1421, -247, -951,
	-398, 961, -1508, -725, 448, -1065, 677, -1275,
	-1103, 430, 555, 843, -1251, 871, 1550, 105,
	422, 587, 177, -235, -291, -460, 1574, 1653,
	-246, 778, 1159, -147, -777, 1483, -602, 1119,
	-1590, 644, -872, 349, 418, 329, -156, -75,
	817, 1097, 603, 610, 1322, -1285, -1465, 384,
	-1215, -136, 1218, -1335, -874, 220, -1187, -1659,
	-1185, -1530, -1278, 794, -1510, -854, -870, 478,
	-108, -308, 996, 991, 958, -1460, 1522, 1628,
};

static const int16_t gammas[128] = {
	-1103, 1103, 430, -430, 555, -555, 843, -843,
	-1251, 1251, 871, -871, 1550, -1550, 105, -105,
	422, -422, 587, -587, 177, -177, -235, 235,
	-291, 291, -460, 460, 1574, -1574, 1653, -1653,
	-246, 246, 778, -778, 1159, -1159, -147, 147,
	-777, 777, 1483, -1483, -602, 602, 1119, -1119,
	-1590, 1590, 644, -644, -872, 872, 349, -349,
	418, -418, 329, -329, -156, 156, -75, 75,
	817, -817, 1097, -1097, 603, -603, 610, -610,
	1322, -1322, -1285, 1285, -1465, 1465, 384, -384,
	-1215, 1215, -136, 136, 1218, -1218, -1335, 1335,
	-874, 874, 220, -220, -1187, 1187, -1659, 1659,
	-1185, 1185, -1530, 1530, -1278, 1278, 794, -794,
	-1510, 1510, -854, 854, -870, 870, 478, -478,
	-108, 108, -308, 308, 996, -996, 991, -991,
	958, -958, -1460, 1460, 1522, -1522, 1628, -1628,
};

/* a * R^-1 mod q in (-q, q), for |a| < q * 2^15. */
static int16_t
mont_reduce(int32_t a)
{
	int16_t t = (int16_t)(uint16_t)((uint32_t)a * QINV);

	return (int16_t)((a - (int32_t)t * MLKEM_Q) >> 16);
}

static int16_t
fqmul(int16_t a, int16_t b)
{
	return mont_reduce((int32_t)a * b);
}

/* a mod q in [-(q-1)/2, (q-1)/2], for any int16_t a. */
static int16_t
barrett(int16_t a)
{
	int16_t t = (int16_t)(((int32_t)BARRETT_V * a + (1 << 25)) >> 26);

	return (int16_t)(a - t * MLKEM_Q);
}

/* The representative of a mod q in [0, q), for any int16_t a. */
static uint16_t
canonical(int16_t a)
{
	int16_t r = barrett(a);

	r = (int16_t)(r + ((r >> 15) & MLKEM_Q));
	return (uint16_t)r;
}

void
mlkem_poly_reduce(struct mlkem_poly *p)
{
	for (size_t i = 0; i < MLKEM_N; i++)
		p->c[i] = barrett(p->c[i]);
}

/*
 * Each of the 7 layers adds at most |fqmul| < q to a coefficient, so
 * inputs below q stay below 8q < 2^15.
 */
void
mlkem_poly_ntt(struct mlkem_poly *p)
{
	size_t k = 1;

	for (size_t len = 128; len >= 2; len >>= 1) {
		for (size_t start = 0; start < MLKEM_N; start += 2 * len) {
			int16_t z = zetas[k++];

			for (size_t j = start; j < start + len; j++) {
				int16_t t = fqmul(z, p->c[j + len]);

				p->c[j + len] = (int16_t)(p->c[j] - t);
				p->c[j] = (int16_t)(p->c[j] + t);
			}
		}
	}
	mlkem_poly_reduce(p);
}

/* Every layer reduces its sums, so nothing grows past q. */
void
mlkem_poly_invntt(struct mlkem_poly *p)
{
	size_t k = 127;

	mlkem_poly_reduce(p);
	for (size_t len = 2; len <= 128; len <<= 1) {
		for (size_t start = 0; start < MLKEM_N; start += 2 * len) {
			int16_t z = zetas[k--];

			for (size_t j = start; j < start + len; j++) {
				int16_t t = p->c[j];

				p->c[j] = barrett((int16_t)(t + p->c[j + len]));
				p->c[j + len] = fqmul(z,
				    (int16_t)(p->c[j + len] - t));
			}
		}
	}
	for (size_t i = 0; i < MLKEM_N; i++)
		p->c[i] = fqmul(p->c[i], INVNTT_F);
}

/*
 * BaseCaseMultiply (Algorithm 12) of pair i, summed over the vector:
 * each term is below 2q, so a sum of up to 3 (k) fits easily; n is at
 * most MLKEM_K.
 */
void
mlkem_polyvec_dot(struct mlkem_poly *r, const struct mlkem_poly *a,
    const struct mlkem_poly *b, size_t n)
{
	for (size_t i = 0; i < MLKEM_N / 2; i++) {
		int16_t c0 = 0, c1 = 0, g = gammas[i];

		for (size_t v = 0; v < n; v++) {
			int16_t a0 = a[v].c[2 * i], a1 = a[v].c[2 * i + 1];
			int16_t b0 = b[v].c[2 * i], b1 = b[v].c[2 * i + 1];

			c0 = (int16_t)(c0 + fqmul(a0, b0) +
			    fqmul(fqmul(a1, b1), g));
			c1 = (int16_t)(c1 + fqmul(a0, b1) + fqmul(a1, b0));
		}
		r->c[2 * i] = barrett(c0);
		r->c[2 * i + 1] = barrett(c1);
	}
}

void
mlkem_poly_tomont(struct mlkem_poly *p)
{
	for (size_t i = 0; i < MLKEM_N; i++)
		p->c[i] = barrett(fqmul(p->c[i], R2_MOD_Q));
}

void
mlkem_poly_add(struct mlkem_poly *r, const struct mlkem_poly *a)
{
	for (size_t i = 0; i < MLKEM_N; i++)
		r->c[i] = (int16_t)(r->c[i] + a->c[i]);
}

void
mlkem_poly_sub(struct mlkem_poly *r, const struct mlkem_poly *a)
{
	for (size_t i = 0; i < MLKEM_N; i++)
		r->c[i] = (int16_t)(r->c[i] - a->c[i]);
}

/*
 * Coefficient i is (b[4i] + b[4i+1]) - (b[4i+2] + b[4i+3]) over the
 * little-endian bits b of buf. Adding the odd bits of a word to its even
 * bits gives every such pair sum at once, 2 bits per pair.
 */
void
mlkem_poly_cbd2(struct mlkem_poly *p, const uint8_t buf[MLKEM_CBD_BYTES])
{
	for (size_t w = 0; w < MLKEM_CBD_BYTES / 4; w++) {
		uint32_t t = (uint32_t)buf[4 * w] |
		    (uint32_t)buf[4 * w + 1] << 8 |
		    (uint32_t)buf[4 * w + 2] << 16 |
		    (uint32_t)buf[4 * w + 3] << 24;
		uint32_t s = (t & 0x55555555) + ((t >> 1) & 0x55555555);

		for (size_t j = 0; j < 8; j++) {
			int16_t x = (int16_t)((s >> (4 * j)) & 3);
			int16_t y = (int16_t)((s >> (4 * j + 2)) & 3);

			p->c[8 * w + j] = (int16_t)(x - y);
		}
	}
}

/* ByteEncode_d of 256 values below 2^d (d <= 12), little-endian bits. */
static void
pack(uint8_t *out, const uint16_t *v, unsigned int d)
{
	uint32_t acc = 0;
	unsigned int bits = 0;
	size_t o = 0;

	for (size_t i = 0; i < MLKEM_N; i++) {
		acc |= (uint32_t)v[i] << bits;
		bits += d;
		while (bits >= 8) {
			out[o++] = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
}

/* ByteDecode_d without the reduction mod q (d <= 12). */
static void
unpack(uint16_t *v, const uint8_t *in, unsigned int d)
{
	uint32_t acc = 0, mask = (1U << d) - 1;
	unsigned int bits = 0;
	size_t o = 0;

	for (size_t i = 0; i < MLKEM_N; i++) {
		while (bits < d) {
			acc |= (uint32_t)in[o++] << bits;
			bits += 8;
		}
		v[i] = (uint16_t)(acc & mask);
		acc >>= d;
		bits -= d;
	}
}

void
mlkem_poly_encode12(uint8_t out[MLKEM_POLY_BYTES], const struct mlkem_poly *p)
{
	uint16_t v[MLKEM_N];

	for (size_t i = 0; i < MLKEM_N; i++)
		v[i] = canonical(p->c[i]);
	pack(out, v, 12);
	x_wipe(v, sizeof(v));
}

void
mlkem_poly_decode12(struct mlkem_poly *p, const uint8_t in[MLKEM_POLY_BYTES])
{
	uint16_t v[MLKEM_N];

	unpack(v, in, 12);
	for (size_t i = 0; i < MLKEM_N; i++)
		p->c[i] = (int16_t)v[i];
	x_wipe(v, sizeof(v));
}

/*
 * Compress_d(x) = round(2^d x / q) mod 2^d = floor((2^d x + (q-1)/2) / q)
 * for x in [0, q) (q is odd, so there is no tie). The division is a
 * multiplication by ceil(2^40 / q) and a shift: the numerator is below
 * 2^23, so the error it adds is below 2^23 / 2^40 < 1 / q and the floor
 * is exact (the unit test checks every x and d).
 */
void
mlkem_poly_compress(uint8_t *out, const struct mlkem_poly *p, unsigned int d)
{
	uint16_t v[MLKEM_N];
	uint32_t mask = (1U << d) - 1;

	for (size_t i = 0; i < MLKEM_N; i++) {
		uint64_t num = ((uint64_t)canonical(p->c[i]) << d) +
		    (MLKEM_Q - 1) / 2;

		v[i] = (uint16_t)((uint32_t)((num * COMPRESS_M) >> 40) & mask);
	}
	pack(out, v, d);
	x_wipe(v, sizeof(v));
}

/* Decompress_d(y) = round(q y / 2^d) = floor((q y + 2^(d-1)) / 2^d). */
void
mlkem_poly_decompress(struct mlkem_poly *p, const uint8_t *in, unsigned int d)
{
	uint16_t v[MLKEM_N];

	unpack(v, in, d);
	for (size_t i = 0; i < MLKEM_N; i++)
		p->c[i] = (int16_t)(((uint32_t)v[i] * MLKEM_Q +
		    (1U << (d - 1))) >> d);
	x_wipe(v, sizeof(v));
}
