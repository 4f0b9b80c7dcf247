/*
 * test_moduli.c: moduli and candidate lines (moduli.c), the sieve
 * (moduli_sieve.c) and the screening tests.
 *
 * The parser gets well-formed lines in the spellings OpenSSH writes and
 * reads, and hostile ones: wrong field counts, signs, hex in decimal
 * fields, 32-bit overflow, a NUL inside, a number of the wrong size and
 * a line over the length bound. The sieve's answer is checked against
 * trial division of every number in its window. Primality is checked on
 * RFC 2409's 768-bit safe prime and on Carmichael numbers; the generator
 * rule against a brute-force order count on small safe primes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "err.h"
#include "mem.h"
#include "moduli.h"
#include "testlib.h"

/* A 511-bit q with p = 2q + 1 prime, from an OpenSSH candidates file. */
#define Q512 "6697FF8AE4540EA65A19B35B3586B9970ED5481BF69414E83EFF7A9B3AAD" \
	"EA1A91E5EF69505A206C65413638061506B4C0414F0626BA5ED951F77509EA55FBE9"

static int
parse(const char *line, struct moduli_entry *e)
{
	return moduli_parse_line(line, strlen(line), e);
}

/* The parse answer alone, the entry freed. */
static int
parse_why(const char *line)
{
	struct moduli_entry e;
	int r = parse(line, &e);

	moduli_entry_clear(&e);
	return r;
}

static void
test_parse_good(void)
{
	struct moduli_entry e;
	BIGNUM *want = NULL;
	char *hex;

	CHECK(BN_hex2bn(&want, Q512) > 0);
	CHECK_OK(parse("20261204140513 4 2 203277289 510 0 " Q512 "\n", &e));
	CHECK(e.type == 4 && e.tests == 2 && e.tries == 203277289);
	CHECK(e.size == 510 && e.generator == 0);
	CHECK(e.number != NULL && BN_cmp(e.number, want) == 0);
	moduli_entry_clear(&e);
	CHECK(e.number == NULL);

	/* CRLF, tabs, runs of blanks, lower case, leading zeros. */
	CHECK_OK(parse("20261204140513\t4  2 0 510\t5 000" Q512 "\r\n", &e));
	CHECK(e.generator == 5 && BN_cmp(e.number, want) == 0);
	moduli_entry_clear(&e);
	hex = x_strdup("1 2 6 100 510 a " Q512);
	for (char *cp = hex; *cp; cp++)
		if (*cp >= 'A' && *cp <= 'F')
			*cp = (char)(*cp - 'A' + 'a');
	CHECK_OK(parse(hex, &e));
	CHECK(e.type == 2 && e.generator == 10 &&
	    BN_cmp(e.number, want) == 0);
	moduli_entry_clear(&e);
	x_free(hex);
	/* Decimal fields may carry leading zeros; 2^32 - 1 fits. */
	CHECK_OK(parse("0 04 0 4294967295 510 0 " Q512, &e));
	CHECK(e.type == 4 && e.tries == UINT32_MAX);
	moduli_entry_clear(&e);
	BN_free(want);
}

/* A line of exactly len bytes: "2026 4 2 0 0 0 " and the number 1. */
static char *
line_of_length(size_t len)
{
	char *s = x_malloc(len + 1);

	memset(s, '0', len);
	memcpy(s, "2026 4 2 0 0 0 ", 15);
	s[len - 1] = '1';
	s[len] = '\0';
	return s;
}

static void
test_parse_skipped(void)
{
	static const char nul_line[] = "2026 4 2 0 0 0 1\0001";
	char *long_line;
	struct moduli_entry e;

	CHECK(parse_why("") == MODULI_SKIP_COMMENT);
	CHECK(parse_why("\n") == MODULI_SKIP_COMMENT);
	CHECK(parse_why("# 2026 4 2 0 510 0 " Q512) == MODULI_SKIP_COMMENT);
	CHECK(parse_why(" 2026 4 2 0 510 0 " Q512) == MODULI_SKIP_COMMENT);
	CHECK(parse_why("x 4 2 0 510 0 " Q512) == MODULI_SKIP_COMMENT);

	CHECK(parse_why("2026 4 2 0 510 " Q512) == MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 4 2 0 510 0 " Q512 " x") ==
	    MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 -4 2 0 510 0 " Q512) == MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 +4 2 0 510 0 " Q512) == MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 0x4 2 0 510 0 " Q512) ==
	    MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 4 a 0 510 0 " Q512) == MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 4 2 4294967296 510 0 " Q512) ==
	    MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 4 2 0 510 100000000 " Q512) ==
	    MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 4 2 0 510 g " Q512) == MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 4 2 0 510 0 0x" Q512) ==
	    MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026 4 2 0 510 0 " Q512 "G") ==
	    MODULI_SKIP_MALFORMED);
	CHECK(parse_why("2026x 4 2 0 510 0 " Q512) == MODULI_SKIP_MALFORMED);
	CHECK(parse_why("123456789012345678901 4 2 0 510 0 " Q512) ==
	    MODULI_SKIP_MALFORMED);
	/* A NUL inside is a character like any other: not a digit. */
	CHECK(moduli_parse_line(nul_line, sizeof(nul_line) - 1, &e) ==
	    MODULI_SKIP_MALFORMED);
	moduli_entry_clear(&e);
	CHECK(moduli_parse_line(nul_line, 16, &e) == 0);
	moduli_entry_clear(&e);

	CHECK(parse_why("2026 1 2 0 510 0 " Q512) == MODULI_SKIP_TYPE);
	CHECK(parse_why("2026 3 2 0 510 0 " Q512) == MODULI_SKIP_TYPE);
	CHECK(parse_why("2026 4 3 0 510 0 " Q512) == MODULI_SKIP_COMPOSITE);
	CHECK(parse_why("2026 4 2 0 509 0 " Q512) == MODULI_SKIP_SIZE);
	CHECK(parse_why("2026 4 2 0 511 0 " Q512) == MODULI_SKIP_SIZE);
	CHECK(parse_why("2026 4 2 0 4294967295 0 " Q512) == MODULI_SKIP_SIZE);
	CHECK(parse_why("2026 4 2 0 0 0 0") == MODULI_SKIP_SIZE);
	CHECK(parse_why("2026 4 2 0 0 0 1") == 0);

	/* Over the bound: refused before any field is looked at. */
	long_line = line_of_length(MODULI_LINE_MAX + 1);
	CHECK(parse_why(long_line) == MODULI_SKIP_TOO_LONG);
	x_free(long_line);
	/* At the bound (leading zeros are fine) it still parses. */
	long_line = line_of_length(MODULI_LINE_MAX);
	CHECK(parse_why(long_line) == 0);
	x_free(long_line);
}

static void
test_format(void)
{
	struct moduli_entry e;
	BIGNUM *n = NULL;
	char *line = NULL;

	CHECK(BN_hex2bn(&n, Q512) > 0);
	/* 2026-12-04 14:05:13 UTC. */
	CHECK_OK(moduli_format_line(1796393113, 4, 2, 7, 0, n, &line));
	CHECK_STR(line, "20261204140513 4 2 7 510 0 " Q512 "\n");
	CHECK_OK(parse(line, &e));
	CHECK(BN_cmp(e.number, n) == 0 && e.size == 510);
	moduli_entry_clear(&e);
	x_free(line);
	BN_zero(n);
	CHECK_ERR(moduli_format_line(0, 4, 2, 7, 0, n, &line),
	    ERR_INVALID_ARGUMENT);
	BN_free(n);
}

static void
test_pq(void)
{
	struct moduli_entry e;
	BIGNUM *p, *q, *p2, *q2;
	char *hex, *line;

	CHECK_OK(parse("2026 4 2 0 510 0 " Q512, &e));
	CHECK_OK(moduli_entry_pq(&e, &p, &q));
	CHECK(BN_cmp(q, e.number) == 0 && BN_num_bits(p) == 512);
	moduli_entry_clear(&e);
	/* The same group written as p (type 2) gives the same p and q. */
	hex = BN_bn2hex(p);
	line = x_asprintf("2026 2 6 100 511 2 %s", hex);
	CHECK_OK(parse(line, &e));
	x_free(line);
	CHECK_OK(moduli_entry_pq(&e, &p2, &q2));
	CHECK(BN_cmp(p, p2) == 0 && BN_cmp(q, q2) == 0);
	moduli_entry_clear(&e);
	OPENSSL_free(hex);
	BN_free(p);
	BN_free(q);
	BN_free(p2);
	BN_free(q2);
}

/* The multiplicative order of g mod a small prime p. */
static unsigned long
order_mod(unsigned long g, unsigned long p)
{
	unsigned long x = g % p, k = 1;

	while (x != 1) {
		x = x * g % p;
		k++;
	}
	return k;
}

static void
test_generator_rule(void)
{
	/* Safe primes p = 2q + 1 with q prime. */
	static const unsigned long safe[] = {
		11, 23, 47, 59, 83, 107, 167, 179, 227, 263, 347, 359, 383,
		467, 479, 503, 563, 587, 719, 839, 863, 887, 983, 1019, 1187,
	};
	BIGNUM *p = BN_new();
	size_t i;
	uint32_t g;
	int picked = 0, none = 0;

	for (i = 0; i < sizeof(safe) / sizeof(safe[0]); i++) {
		CHECK(BN_set_word(p, safe[i]));
		g = moduli_pick_generator(p);
		if (g == 0) {
			none++;
			/* Neither rule holds, so neither 2 nor 5 is sure. */
			CHECK(safe[i] % 24 != 11 && safe[i] % 10 != 3 &&
			    safe[i] % 10 != 7);
			continue;
		}
		picked++;
		/* A generator of the whole group: order p - 1. */
		CHECK(order_mod(g, safe[i]) == safe[i] - 1);
	}
	CHECK(picked > 0 && none > 0);
	BN_free(p);
}

static void
test_primality(void)
{
	/* Carmichael numbers fool Fermat's test, not Miller-Rabin's. */
	static const unsigned long carmichael[] = {
		561, 1105, 1729, 41041, 825265, 321197185, 5394826801UL,
	};
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *p = BN_get_rfc2409_prime_768(NULL), *q = BN_new(),
	    *n = BN_new();
	size_t i;

	CHECK(BN_rshift1(q, p));
	CHECK(moduli_miller_rabin(p, 20, ctx) == 1);
	CHECK(moduli_miller_rabin(q, 20, ctx) == 1);
	CHECK(moduli_miller_rabin(p, 0, ctx) == ERR_INVALID_ARGUMENT);
	for (i = 0; i < sizeof(carmichael) / sizeof(carmichael[0]); i++) {
		CHECK(BN_set_word(n, carmichael[i]));
		CHECK(moduli_miller_rabin(n, 30, ctx) == 0);
	}
	CHECK(BN_mul(n, p, p, ctx));
	CHECK(moduli_miller_rabin(n, 5, ctx) == 0);
	CHECK(BN_set_word(n, 4));
	CHECK(moduli_miller_rabin(n, 5, ctx) == 0);

	/*
	 * p = 23 mod 24 and 9 mod 10: OpenSSH's rule picks no generator.
	 * 2 is a square mod p (p = -1 mod 8), of order q only; 7 is not
	 * (computed with Python's pow), so it generates the whole group.
	 */
	CHECK(moduli_pick_generator(p) == 0);
	CHECK(moduli_screen(p, q, 2, 4, ctx) == MODULI_G_BAD);
	CHECK(moduli_screen(p, q, 7, 4, ctx) == MODULI_SAFE);
	CHECK(moduli_screen(p, p, 7, 4, ctx) == ERR_INVALID_ARGUMENT);
	/* 3q is composite: caught by the quick test. */
	CHECK(BN_mul_word(q, 3) && BN_lshift1(p, q) && BN_add_word(p, 1));
	CHECK(moduli_screen(p, q, 5, 4, ctx) == MODULI_Q_FIRST);
	/* 1187 is prime, 2375 is not. */
	CHECK(BN_set_word(q, 1187) && BN_set_word(p, 2375));
	CHECK(moduli_screen(p, q, 5, 4, ctx) == MODULI_P_COMPOSITE);
	/*
	 * 357761 = 131 * 2731 is a strong pseudoprime to base 2, so it
	 * passes the quick test, and 715523 is prime: only the full test
	 * of q finds it out.
	 */
	CHECK(BN_set_word(q, 357761) && BN_set_word(p, 715523));
	CHECK(moduli_screen(p, q, 5, 4, ctx) == MODULI_Q_COMPOSITE);
	BN_free(p);
	BN_free(q);
	BN_free(n);
	BN_CTX_free(ctx);
}

struct collect {
	BIGNUM **q;
	size_t n, cap;
	size_t stop_at;		/* 0: never */
};

static int
collect_fn(const BIGNUM *q, void *arg)
{
	struct collect *c = arg;

	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->q = x_reallocarray(c->q, c->cap, sizeof(*c->q));
	}
	c->q[c->n++] = BN_dup(q);
	return c->stop_at != 0 && c->n == c->stop_at ? 42 : 0;
}

static void
collect_free(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		BN_free(c->q[i]);
	x_free(c->q);
	memset(c, 0, sizeof(*c));
}

/* Has q or 2q + 1 a prime factor below limit? (trial division) */
static int
has_small_factor(const BIGNUM *q, unsigned long limit)
{
	BIGNUM *p = BN_new();
	unsigned long r, d;
	int found = 0;

	BN_lshift1(p, q);
	BN_add_word(p, 1);
	for (r = 2; r < limit && !found; r++) {
		for (d = 2; d * d <= r; d++)
			if (r % d == 0)
				break;
		if (d * d <= r)
			continue;
		found = BN_mod_word(q, r) == 0 || BN_mod_word(p, r) == 0;
	}
	BN_free(p);
	return found;
}

static void
test_sieve(void)
{
	struct collect c = { NULL, 0, 0, 0 };
	BIGNUM *start = BN_new(), *q = BN_new();
	uint32_t nprimes;
	uint64_t i, window = 3000;
	size_t k = 0;
	int complete = 1;

	/* 80-bit numbers from 2^79 + 12347 (= 1 mod 6: q0 is 4 more). */
	CHECK(BN_set_bit(start, 79) && BN_add_word(start, 12347));
	CHECK(BN_mod_word(start, 6) == 1);
	CHECK_OK(moduli_sieve(80, start, window, 1000, collect_fn, &c,
	    &nprimes));
	CHECK(nprimes == 168);
	CHECK(c.n > 10 && c.n < window / 4);
	/* Exactly the numbers of the window that trial division keeps. */
	CHECK(BN_copy(q, start) && BN_add_word(q, 4));
	for (i = 0; i < window; i++) {
		int keep = !has_small_factor(q, 1000);

		if (keep && (k >= c.n || BN_cmp(c.q[k], q) != 0))
			complete = 0;
		k += keep && k < c.n && BN_cmp(c.q[k], q) == 0;
		BN_add_word(q, 6);
	}
	CHECK(complete && k == c.n);
	collect_free(&c);

	/* fn's non-zero answer stops the sieve and is returned. */
	c.stop_at = 3;
	CHECK(moduli_sieve(80, start, window, 1000, collect_fn, &c,
	    &nprimes) == 42);
	CHECK(c.n == 3);
	collect_free(&c);

	/* Numbers past 80 bits are not handed over. */
	BN_zero(start);
	CHECK(BN_set_bit(start, 80) && BN_sub_word(start, 600));
	CHECK_OK(moduli_sieve(80, start, window, 1000, collect_fn, &c,
	    &nprimes));
	CHECK(c.n < 100);
	for (i = 0; i < c.n; i++)
		CHECK(BN_num_bits(c.q[i]) == 80);
	collect_free(&c);

	CHECK_ERR(moduli_sieve(80, start, 0, 1000, collect_fn, &c, &nprimes),
	    ERR_INVALID_ARGUMENT);
	BN_free(start);
	BN_free(q);
}

int
main(void)
{
	test_parse_good();
	test_parse_skipped();
	test_format();
	test_pq();
	test_generator_rule();
	test_primality();
	test_sieve();
	return TEST_DONE();
}
