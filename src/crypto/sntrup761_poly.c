/*
 * sntrup761_poly.c: the ring arithmetic of Streamlined NTRU Prime 761
 * (see sntrup761_int.h): reduction mod q and mod 3, products in Rq and
 * R3, reciprocals in both, and the sorting network Short_random needs.
 *
 * Constant time. No branch and no memory index depends on a coefficient:
 * comparisons become all-ones/all-zero masks built from sign bits, swaps
 * are masked xors, loops run a fixed number of times. Two things are
 * taken from the compiler: that >> of a negative signed integer is an
 * arithmetic shift and that narrowing to a signed type wraps (both
 * implementation-defined in C, both documented so by GCC and Clang), and
 * that it keeps the masked code free of branches (it may use conditional
 * moves, which are constant time). Multiplication is assumed to take the
 * same time for all operands, as on current x86-64 and AArch64 cores.
 *
 * Reciprocals use the divstep iteration of Bernstein and Yang, as the
 * NTRU Prime specification does: f starts as x^p - x - 1 and g as the
 * input, both with their coefficients reversed, so that each step looks
 * only at the constant terms f0, g0. A step (delta, f, g) becomes
 * (1 - delta, g, (g0 f - f0 g)/x) when delta > 0 and g0 != 0, otherwise
 * (1 + delta, f, (f0 g - g0 f)/x); the pair (v, r) follows (f, g) so that
 * at the end v/f0 is the reciprocal (reversed back). After 2p - 1 steps
 * delta is 0 exactly when the input was invertible. Scaling g and r by
 * the same unit changes nothing, so the Rq version reduces with
 * Montgomery's method (a factor 2^-16 on every new g and r) and keeps
 * coefficients below 2q in size instead of fully reduced.
 */
#include <stdint.h>
#include <string.h>

#include "mem.h"
#include "sntrup761_int.h"

#define P	SNTRUP_P
#define Q	SNTRUP_Q
#define Q12	SNTRUP_Q12
#define QINV	15631		/* q^-1 mod 2^16 */
#define SORT_N	1024		/* the power of two the sort pads P to */

/* -1 when x != 0, else 0. */
static inline int32_t
mask_nonzero(int32_t x)
{
	return -(int32_t)(((uint32_t)x | (0U - (uint32_t)x)) >> 31);
}

/* -1 when x < 0, else 0. */
static inline int32_t
mask_negative(int32_t x)
{
	return -(int32_t)((uint32_t)x >> 31);
}

int16_t
sntrup_fq_freeze(int32_t x)
{
	/* t = round(x/q), from a 31-bit fixed-point reciprocal of q */
	int32_t t = (int32_t)(((int64_t)x * 467760 + ((int64_t)1 << 30)) >> 31);
	int32_t r = x - t * Q;

	/* r is now within a few units of -q12..q12; pull it inside. */
	r -= Q & ((Q12 - r) >> 31);
	r += Q & ((r + Q12) >> 31);
	return (int16_t)r;
}

int8_t
sntrup_f3_freeze(int16_t x)
{
	/* round(x/3) is exact this way for |x| <= 2^13 */
	int32_t t = ((int32_t)x * 10923 + 16384) >> 15;

	return (int8_t)(x - 3 * t);
}

/*
 * Working length of the padded arrays: P + 1 rounded up to a multiple of
 * 32, so that every inner loop has a trip count the compiler can split
 * into whole vectors. Coefficients past P are zero in f and g, and in v
 * and r only ever move upwards, away from the ones that matter.
 */
#define N	768

/* -1 in every bit when x < 0, else 0, for the byte loops below. */
static inline int8_t
sign8(int8_t x)
{
	return (int8_t)-(x < 0);
}

/* x in -2..2 to {-1,0,1}. */
static inline int8_t
f3_small(int8_t x)
{
	x = (int8_t)(x + (3 & -(x < -1)));
	return (int8_t)(x - (3 & -(x > 1)));
}

/* s*x for s = -1 or +1 given as its sign mask m (-1 or 0). */
static inline int8_t
negate_if(int8_t x, int8_t m)
{
	return (int8_t)((x ^ m) - m);
}

/* The high and low 16 bits of the 32-bit product a*b. */
static inline int16_t
mulhi(int16_t a, int16_t b)
{
	return (int16_t)(((int32_t)a * b) >> 16);
}

static inline int16_t
mullo(int16_t a, int16_t b)
{
	return (int16_t)(uint16_t)((uint32_t)(uint16_t)a * (uint16_t)b);
}

/*
 * a*b/2^16 mod q (Montgomery's product), bq being b/q mod 2^16: with
 * u = a*bq mod 2^16, a*b - u*q has zero low half, so the result is the
 * difference of the high halves. Its size is below |a*b|/2^16 + q/2 + 1:
 * below 3600 when |a|, |b| < 2q.
 */
static inline int16_t
montmul(int16_t a, int16_t b, int16_t bq)
{
	return (int16_t)(mulhi(a, b) - mulhi(mullo(a, bq), Q));
}

void
sntrup_rq_mult_small(int16_t *h, const int16_t *a, const int8_t *b)
{
	int32_t fg[2 * N];
	int16_t bb[N];
	int i, j;

	memset(fg, 0, sizeof(fg));
	memset(bb, 0, sizeof(bb));
	for (i = 0; i < P; i++)
		bb[i] = b[i];
	for (i = 0; i < P; i++) {
		int16_t ai = a[i];

		/* |a[i] b[j]| <= 2295: the product fits 16 bits */
		for (j = 0; j < N; j++)
			fg[i + j] += (int16_t)(ai * bb[j]);
	}
	/* x^p = x + 1; the top term 2p-2 lands at p-1, so one pass */
	for (i = 2 * P - 2; i >= P; i--) {
		fg[i - P] += fg[i];
		fg[i - P + 1] += fg[i];
	}
	for (i = 0; i < P; i++)
		h[i] = sntrup_fq_freeze(fg[i]);
	x_wipe(fg, sizeof(fg));
	x_wipe(bb, sizeof(bb));
}

void
sntrup_r3_mult(int8_t *h, const int8_t *a, const int8_t *b)
{
	int16_t fg[2 * N];
	int8_t bb[N];
	int i, j;

	memset(fg, 0, sizeof(fg));
	memset(bb, 0, sizeof(bb));
	memcpy(bb, b, P);
	for (i = 0; i < P; i++) {
		int8_t ai = a[i];

		for (j = 0; j < N; j++)
			fg[i + j] += (int8_t)(ai * bb[j]);
	}
	for (i = 2 * P - 2; i >= P; i--) {
		fg[i - P] += fg[i];
		fg[i - P + 1] += fg[i];
	}
	for (i = 0; i < P; i++)
		h[i] = sntrup_f3_freeze(fg[i]);
	x_wipe(fg, sizeof(fg));
	x_wipe(bb, sizeof(bb));
}

/*
 * One divstep in R3 on the padded arrays: returns the new delta. f0 is
 * +-1 throughout, so multiplying by it or by g0 is a masked negation.
 * v is addressed through *vp, which moves down one place per step:
 * that is the multiplication of v by x.
 */
static int32_t
r3_divstep(int32_t delta, int8_t *f, int8_t *g, int8_t **vp, int8_t *r)
{
	int32_t sw = mask_negative(-delta) & mask_nonzero(g[0]);
	int8_t s8 = (int8_t)sw, f0, g0, fm, gm, gz, t, fi, gi, vi, ri;
	int8_t *v = --*vp;
	int i;

	v[0] = 0;
	delta ^= sw & (delta ^ -delta);
	f0 = (int8_t)(f[0] ^ (s8 & (f[0] ^ g[0])));
	g0 = (int8_t)(g[0] ^ (s8 & (f[0] ^ g[0])));
	fm = sign8(f0);
	gm = sign8(g0);
	gz = (int8_t)mask_nonzero(g0);
	f[0] = f0;
	/* swap f and g, then g = (f0 g - g0 f)/x */
	for (i = 0; i < N; i++) {
		t = (int8_t)(s8 & (f[i + 1] ^ g[i + 1]));
		fi = (int8_t)(f[i + 1] ^ t);
		gi = (int8_t)(g[i + 1] ^ t);
		f[i + 1] = fi;
		g[i] = f3_small((int8_t)(negate_if(gi, fm) -
		    (negate_if(fi, gm) & gz)));
	}
	/* swap v and r, then r = f0 r - g0 v */
	for (i = 0; i < N; i++) {
		t = (int8_t)(s8 & (v[i] ^ r[i]));
		vi = (int8_t)(v[i] ^ t);
		ri = (int8_t)(r[i] ^ t);
		v[i] = vi;
		r[i] = f3_small((int8_t)(negate_if(ri, fm) -
		    (negate_if(vi, gm) & gz)));
	}
	return delta + 1;
}

int
sntrup_r3_recip(int8_t *out, const int8_t *in)
{
	int8_t f[N + 1], g[N + 1], r[N], vbuf[N + 2 * P], *v;
	int32_t delta = 1;
	int i, loop;

	memset(f, 0, sizeof(f));
	memset(g, 0, sizeof(g));
	memset(r, 0, sizeof(r));
	memset(vbuf, 0, sizeof(vbuf));
	f[0] = 1;
	f[P - 1] = f[P] = -1;
	for (i = 0; i < P; i++)
		g[P - 1 - i] = in[i];
	r[0] = 1;
	v = vbuf + 2 * P - 1;

	for (loop = 0; loop < 2 * P - 1; loop++)
		delta = r3_divstep(delta, f, g, &v, r);
	/* f is now the constant f[0] = +-1, its own reciprocal */
	for (i = 0; i < P; i++)
		out[i] = (int8_t)(f[0] * v[P - 1 - i]);
	x_wipe(f, sizeof(f));
	x_wipe(g, sizeof(g));
	x_wipe(r, sizeof(r));
	x_wipe(vbuf, sizeof(vbuf));
	return (int)mask_nonzero(delta);
}

/* a^(q-2) = 1/a mod q, a fully reduced. */
static int16_t
fq_recip(int16_t a)
{
	int32_t e = Q - 2, x = 1;
	int i;

	for (i = 12; i >= 0; i--) {	/* q - 2 < 2^13; public bits */
		x = sntrup_fq_freeze(x * x);
		if ((e >> i) & 1)
			x = sntrup_fq_freeze(x * a);
	}
	return (int16_t)x;
}

/*
 * One divstep in Rq, as r3_divstep. Coefficients are not reduced but
 * stay below 2q in size: the products are Montgomery products, every
 * new g and r carrying a factor 2^-16, which is harmless (see top).
 */
static int32_t
rq_divstep(int32_t delta, int16_t *f, int16_t *g, int16_t **vp, int16_t *r)
{
	int32_t sw = mask_negative(-delta) &
	    mask_nonzero(sntrup_fq_freeze(g[0]));
	int16_t s16 = (int16_t)sw, f0, g0, f0q, g0q, t, fi, gi, vi, ri;
	int16_t *v = --*vp;
	int i;

	v[0] = 0;
	delta ^= sw & (delta ^ -delta);
	f0 = (int16_t)(f[0] ^ (s16 & (f[0] ^ g[0])));
	g0 = (int16_t)(g[0] ^ (s16 & (f[0] ^ g[0])));
	f0q = mullo(f0, QINV);
	g0q = mullo(g0, QINV);
	f[0] = f0;
	for (i = 0; i < N; i++) {
		t = (int16_t)(s16 & (f[i + 1] ^ g[i + 1]));
		fi = (int16_t)(f[i + 1] ^ t);
		gi = (int16_t)(g[i + 1] ^ t);
		f[i + 1] = fi;
		g[i] = (int16_t)(montmul(gi, f0, f0q) - montmul(fi, g0, g0q));
	}
	for (i = 0; i < N; i++) {
		t = (int16_t)(s16 & (v[i] ^ r[i]));
		vi = (int16_t)(v[i] ^ t);
		ri = (int16_t)(r[i] ^ t);
		v[i] = vi;
		r[i] = (int16_t)(montmul(ri, f0, f0q) - montmul(vi, g0, g0q));
	}
	return delta + 1;
}

int
sntrup_rq_recip(int16_t *out, const int16_t *in)
{
	int16_t f[N + 1], g[N + 1], r[N], vbuf[N + 2 * P], *v, scale;
	int32_t delta = 1;
	int i, loop;

	memset(f, 0, sizeof(f));
	memset(g, 0, sizeof(g));
	memset(r, 0, sizeof(r));
	memset(vbuf, 0, sizeof(vbuf));
	f[0] = 1;
	f[P - 1] = f[P] = -1;
	for (i = 0; i < P; i++)
		g[P - 1 - i] = in[i];
	r[0] = 1;
	v = vbuf + 2 * P - 1;

	for (loop = 0; loop < 2 * P - 1; loop++)
		delta = rq_divstep(delta, f, g, &v, r);
	/* f is the constant f[0]; v carries the same scale as f */
	scale = fq_recip(sntrup_fq_freeze(f[0]));
	for (i = 0; i < P; i++)
		out[i] = sntrup_fq_freeze((int32_t)scale * v[P - 1 - i]);
	x_wipe(f, sizeof(f));
	x_wipe(g, sizeof(g));
	x_wipe(r, sizeof(r));
	x_wipe(vbuf, sizeof(vbuf));
	return (int)mask_nonzero(delta);
}

/* Puts the smaller of *a, *b in *a, without a branch. */
static inline void
minmax(uint32_t *a, uint32_t *b)
{
	uint32_t x = *a, y = *b;
	uint32_t m = 0U - (uint32_t)(((uint64_t)y - x) >> 63);	/* y < x */
	uint32_t t = (x ^ y) & m;

	*a = x ^ t;
	*b = y ^ t;
}

void
sntrup_sort_uint32(uint32_t *x)
{
	uint32_t a[SORT_N];
	int i, j, k, t;

	/* Padding with the largest value leaves the P inputs in front. */
	memcpy(a, x, P * sizeof(*x));
	for (i = P; i < SORT_N; i++)
		a[i] = UINT32_MAX;
	/*
	 * Bitonic sort: merges of size k, compare-exchanges at distance j,
	 * ascending where bit k of the index is clear. Every index is
	 * public; each inner loop runs over j consecutive pairs.
	 */
	for (k = 2; k <= SORT_N; k <<= 1)
		for (j = k >> 1; j > 0; j >>= 1)
			for (i = 0; i < SORT_N; i += 2 * j) {
				if ((i & k) == 0)
					for (t = i; t < i + j; t++)
						minmax(&a[t], &a[t + j]);
				else
					for (t = i; t < i + j; t++)
						minmax(&a[t + j], &a[t]);
			}
	memcpy(x, a, P * sizeof(*x));
	x_wipe(a, sizeof(a));
}
