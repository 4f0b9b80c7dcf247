/*
 * moduli.h: the Diffie-Hellman group files of ssh-keygen -M (moduli(5)):
 * their lines, the sieve that proposes candidates, and the tests that
 * screen candidates into safe-prime groups.
 *
 * A line is "time type tests tries size generator number": a UTC time
 * stamp (YYYYMMDDHHMMSS), the type of the number (4: a candidate q for a
 * safe prime p = 2q + 1; 2: a safe prime p; 0: unknown, read as p), a
 * bit mask of the tests it went through, the Miller-Rabin rounds done,
 * its bit count minus one, a generator (hex, 0 for none yet) and the
 * number itself in hex.
 */
#ifndef MOAT_MODULI_H
#define MOAT_MODULI_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <openssl/bn.h>

#define MODULI_TYPE_UNKNOWN		0
#define MODULI_TYPE_SAFE		2
#define MODULI_TYPE_SOPHIE_GERMAIN	4

#define MODULI_TESTS_COMPOSITE		0x01
#define MODULI_TESTS_SIEVE		0x02
#define MODULI_TESTS_MILLER_RABIN	0x04

/* Sizes of a modulus p that generation takes, as OpenSSH's. */
#define MODULI_BITS_MIN			512
#define MODULI_BITS_MAX			65536
/*
 * The longest line read: the hex of a MODULI_BITS_MAX-bit number and
 * room for the other fields (and leading zeros). Longer lines are
 * skipped whole.
 */
#define MODULI_LINE_MAX			(MODULI_BITS_MAX / 4 + 256)

/* What moduli_parse_line makes of a line that is not refused. */
struct moduli_entry {
	uint32_t type;
	uint32_t tests;
	uint32_t tries;
	uint32_t size;		/* bits of number, minus one */
	uint32_t generator;
	BIGNUM *number;		/* owned; q for type 4, else p */
};

/* Why a line was skipped (moduli_parse_line's positive answers). */
enum moduli_skip {
	MODULI_SKIP_COMMENT = 1,	/* empty, '#', not starting with a digit */
	MODULI_SKIP_MALFORMED,		/* fields missing, extra or not numbers */
	MODULI_SKIP_TOO_LONG,		/* over MODULI_LINE_MAX */
	MODULI_SKIP_TYPE,		/* not type 0, 2 or 4 */
	MODULI_SKIP_COMPOSITE,		/* tests has MODULI_TESTS_COMPOSITE */
	MODULI_SKIP_SIZE,		/* the number is not size + 1 bits */
};

/*
 * Parse one line of len bytes (a trailing "\n" or "\r\n" allowed, no NUL
 * needed). 0 fills *e (free e->number with moduli_entry_clear); a
 * positive enum moduli_skip refuses the line; negative is an error of
 * libcrypto or memory.
 */
int moduli_parse_line(const char *line, size_t len, struct moduli_entry *e);
void moduli_entry_clear(struct moduli_entry *e);
/* A text for each enum moduli_skip. */
const char *moduli_skip_str(int why);

/*
 * The line for a number as OpenSSH writes it, newline included, with the
 * time stamp of when (UTC) and size the number's bits minus one; the
 * caller frees it.
 */
int moduli_format_line(time_t when, uint32_t type, uint32_t tests,
    uint32_t tries, uint32_t generator, const BIGNUM *number, char **linep);

/*
 * p and q of an entry: type 4 holds q (p = 2q + 1), types 0 and 2 hold p
 * (q = (p - 1) / 2). The caller frees both.
 */
int moduli_entry_pq(const struct moduli_entry *e, BIGNUM **pp, BIGNUM **qp);

/*
 * The generator OpenSSH's screening assigns to a safe prime p: 2 when
 * p mod 24 is 11, else 5 when p mod 10 is 3 or 7 (each a quadratic
 * non-residue mod p, so a generator of the whole group); 0 when neither
 * (the candidate is skipped).
 */
uint32_t moduli_pick_generator(const BIGNUM *p);

/* What moduli_screen found. */
enum moduli_verdict {
	MODULI_SAFE = 0,	/* p and q prime, g generates Z_p^* */
	MODULI_Q_FIRST,		/* q failed a first quick test */
	MODULI_P_COMPOSITE,
	MODULI_Q_COMPOSITE,
	MODULI_G_BAD,		/* g^q mod p is not p - 1 */
};

/*
 * Screen p = 2q + 1 with generator g: a quick base-2 Miller-Rabin round
 * on q and then on p rejects nearly every composite for the price of
 * one exponentiation; survivors go through libcrypto's BN_check_prime
 * and rounds more Miller-Rabin rounds with random bases, p first, then q;
 * last, g must have order 2q. Returns an enum moduli_verdict, or
 * negative on error.
 */
int moduli_screen(const BIGNUM *p, const BIGNUM *q, uint32_t g,
    uint32_t rounds, BN_CTX *ctx);

/*
 * Miller-Rabin with rounds random bases: 1 probably prime, 0 composite
 * (also for n even or below 5), negative on error.
 */
int moduli_miller_rabin(const BIGNUM *n, uint32_t rounds, BN_CTX *ctx);

/*
 * The sieve (moduli_sieve.c). It looks at the window of numbers
 * q = q0 + 6i, 0 <= i < window, where q0 is the first number >= start
 * that is 5 mod 6 (so that neither q nor 2q + 1 is a multiple of 2 or
 * 3), and strikes out every q for which q or 2q + 1 has a prime factor
 * below limit. fn is called with each q left that has qbits bits, in
 * increasing order; a non-zero answer from fn stops the sieve and is
 * returned. *nprimesp: how many primes are below limit, set before fn
 * is first called (so fn may read it).
 */
typedef int (*moduli_candidate_fn)(const BIGNUM *q, void *arg);
int moduli_sieve(uint32_t qbits, const BIGNUM *start, uint64_t window,
    uint32_t limit, moduli_candidate_fn fn, void *arg, uint32_t *nprimesp);

#endif
