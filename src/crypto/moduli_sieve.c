/*
 * moduli_sieve.c: candidates for safe primes by sieving (see moduli.h).
 *
 * A safe prime p = 2q + 1 needs q and p both prime. Every number in the
 * window is q = q0 + 6i with q0 = 5 mod 6, which already keeps 2 and 3
 * out of both q and p; the window is a bit array, one bit per i, so a
 * MiB of it covers 8M numbers spaced 6 apart. For each prime r from 5 up
 * to the limit, q0 mod r (one pass over q0's words) gives the first i
 * with r | q and the first with r | 2q + 1 (that is, q = (r - 1) / 2 mod
 * r), and every r-th bit after each is struck. What is left has no
 * factor below the limit in q or p: about one number in a hundred for a
 * limit of 2^24, and of those about one in 2,300 is a safe prime at 2048
 * bits, against one in 4 million numbers taken at random.
 *
 * The small primes come from a plain sieve of Eratosthenes over the odd
 * numbers below the limit (limit / 16 bytes).
 */
#include <stdint.h>
#include <string.h>

#include <openssl/bn.h>

#include "err.h"
#include "mem.h"
#include "moduli.h"

/* A window of more than 2^33 numbers (1 GiB of bits) is a mistake. */
#define WINDOW_MAX	((uint64_t)1 << 33)

#define BIT_SET(a, i)	((a)[(i) >> 3] |= (uint8_t)(1u << ((i) & 7)))
#define BIT_GET(a, i)	(((a)[(i) >> 3] >> ((i) & 7)) & 1)

/* Odd composites below limit: bit k stands for 2k + 1. */
static uint8_t *
odd_composites(uint32_t limit)
{
	uint64_t n = (uint64_t)limit / 2 + 1, i, j;
	uint8_t *c = x_calloc(n / 8 + 1, 1);

	for (i = 3; i * i < limit; i += 2) {
		if (BIT_GET(c, i / 2))
			continue;
		for (j = i * i; j < limit; j += 2 * i)
			BIT_SET(c, j / 2);
	}
	return c;
}

/* 6^-1 mod r for a prime r > 3. */
static uint64_t
inverse_of_6(uint64_t r)
{
	/* r = 1 mod 6: 6(r - (r-1)/6) = 5r + 1; r = 5 mod 6: 6(r+1)/6. */
	return r % 6 == 1 ? r - (r - 1) / 6 : (r + 1) / 6;
}

static void
strike_from(uint8_t *win, uint64_t window, uint64_t first, uint64_t step)
{
	uint64_t i;

	for (i = first; i < window; i += step)
		BIT_SET(win, i);
}

/* Strike the i where the prime r divides q0 + 6i or 2(q0 + 6i) + 1. */
static int
strike_prime(uint8_t *win, uint64_t window, const BIGNUM *q0, uint64_t r)
{
	BN_ULONG m = BN_mod_word(q0, (BN_ULONG)r);
	uint64_t inv = inverse_of_6(r), half = (r - 1) / 2;

	if (m == (BN_ULONG)-1)
		return ERR_LIBCRYPTO;
	/* q = 0 mod r: i = -q0 / 6; p = 0 mod r: i = ((r-1)/2 - q0) / 6. */
	strike_from(win, window, ((r - m) % r) * inv % r, r);
	strike_from(win, window, ((half + r - m) % r) * inv % r, r);
	return 0;
}

static int
strike_all(uint8_t *win, uint64_t window, const BIGNUM *q0, uint32_t limit,
    uint32_t *nprimesp)
{
	uint8_t *comp = odd_composites(limit);
	uint64_t r;
	uint32_t n = limit > 2 ? 1 : 0;		/* 2 */
	int ret = 0;

	if (limit > 3)
		n++;				/* 3 */
	for (r = 5; r < limit; r += 2) {
		if (BIT_GET(comp, r / 2))
			continue;
		n++;
		if ((ret = strike_prime(win, window, q0, r)) != 0)
			break;
	}
	x_free(comp);
	*nprimesp = n;
	return ret;
}

/* q += v, in steps that fit a BN_ULONG of 32 bits too. */
static int
add_u64(BIGNUM *q, uint64_t v)
{
	BN_ULONG part;

	while (v > 0) {
		part = v > 0x7fffffff ? 0x7fffffff : (BN_ULONG)v;
		if (!BN_add_word(q, part))
			return 0;
		v -= part;
	}
	return 1;
}

/* Hand each number left in the window to fn, in order. */
static int
walk_window(const uint8_t *win, uint64_t window, const BIGNUM *q0,
    uint32_t qbits, moduli_candidate_fn fn, void *arg)
{
	BIGNUM *q;
	uint64_t i, at = 0;
	int r = 0;

	if ((q = BN_dup(q0)) == NULL)
		return ERR_ALLOC;
	for (i = 0; i < window && r == 0; i++) {
		if (BIT_GET(win, i))
			continue;
		if (!add_u64(q, (i - at) * 6)) {
			r = ERR_LIBCRYPTO;
			break;
		}
		at = i;
		if ((uint32_t)BN_num_bits(q) > qbits)
			break;
		if ((uint32_t)BN_num_bits(q) == qbits)
			r = fn(q, arg);
	}
	BN_free(q);
	return r;
}

int
moduli_sieve(uint32_t qbits, const BIGNUM *start, uint64_t window,
    uint32_t limit, moduli_candidate_fn fn, void *arg, uint32_t *nprimesp)
{
	BIGNUM *q0;
	BN_ULONG m6;
	uint8_t *win;
	int r;

	*nprimesp = 0;
	if (qbits < 2 || window == 0 || window > WINDOW_MAX || limit < 5 ||
	    BN_is_negative(start))
		return ERR_INVALID_ARGUMENT;
	if ((q0 = BN_dup(start)) == NULL)
		return ERR_ALLOC;
	m6 = BN_mod_word(q0, 6);
	if (m6 == (BN_ULONG)-1 || !BN_add_word(q0, (5 + 6 - m6) % 6)) {
		BN_free(q0);
		return ERR_LIBCRYPTO;
	}
	win = x_calloc((size_t)(window / 8 + 1), 1);
	if ((r = strike_all(win, window, q0, limit, nprimesp)) == 0)
		r = walk_window(win, window, q0, qbits, fn, arg);
	x_free(win);
	BN_free(q0);
	return r;
}
