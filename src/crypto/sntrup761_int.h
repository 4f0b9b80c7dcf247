/*
 * sntrup761_int.h: private to sntrup761.c, sntrup761_poly.c and their
 * unit test.
 *
 * The ring arithmetic of Streamlined NTRU Prime 761 lives in
 * sntrup761_poly.c: R = Z[x]/(x^p - x - 1) with p = 761, reduced mod 3
 * (R3, coefficients int8_t in {-1,0,1}) or mod q = 4591 (Rq, int16_t in
 * -(q-1)/2..(q-1)/2). A "small" element has every coefficient in
 * {-1,0,1}; a "short" one is small with exactly w = 286 nonzero ones.
 * Everything here runs in time independent of the coefficient values.
 */
#ifndef MOAT_SNTRUP761_INT_H
#define MOAT_SNTRUP761_INT_H

#include <stdint.h>

#define SNTRUP_P	761
#define SNTRUP_Q	4591
#define SNTRUP_W	286
#define SNTRUP_Q12	((SNTRUP_Q - 1) / 2)

/* The representative of x mod q in -(q-1)/2..(q-1)/2; |x| < 2^26. */
int16_t sntrup_fq_freeze(int32_t x);
/* The representative of x mod 3 in {-1,0,1}; |x| <= 2^14. */
int8_t sntrup_f3_freeze(int16_t x);

/* h = a * b in Rq, b small. h may not alias a. */
void sntrup_rq_mult_small(int16_t *h, const int16_t *a, const int8_t *b);
/* h = a * b in R3. */
void sntrup_r3_mult(int8_t *h, const int8_t *a, const int8_t *b);
/*
 * out = 1/in in R3 (in small): 0 when in is invertible, -1 when not (out
 * then holds garbage that must not be used).
 */
int sntrup_r3_recip(int8_t *out, const int8_t *in);
/* out = 1/in in Rq: 0 when in is invertible, -1 when not. */
int sntrup_rq_recip(int16_t *out, const int16_t *in);

/* Sorts x[0..SNTRUP_P) ascending with a fixed network of compares. */
void sntrup_sort_uint32(uint32_t *x);

#endif
