/*
 * moduli.c: lines of moduli and candidate files, and the screening of a
 * candidate into a safe-prime group (see moduli.h).
 *
 * A candidates file comes from anywhere, so a line is read strictly and
 * within bounds: seven fields split by spaces or tabs, decimal fields of
 * digits only that fit 32 bits, a hex generator, and a hex number whose
 * significant digits give exactly size + 1 bits before any big number
 * is made of it. Anything else is refused with a reason, never guessed
 * at; the caller skips the line.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <openssl/bn.h>

#include "err.h"
#include "mem.h"
#include "moduli.h"

#define MODULI_FIELDS	7
#define TIME_DIGITS_MAX	20

struct field {
	const char *p;
	size_t len;
};

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Split into exactly MODULI_FIELDS fields; an error for more or fewer. */
static int
split_fields(const char *s, size_t len, struct field *f)
{
	size_t i = 0, start;
	int n = 0;

	for (;;) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i == len)
			break;
		if (n == MODULI_FIELDS)
			return ERR_INVALID_FORMAT;
		start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		f[n].p = s + start;
		f[n].len = i - start;
		n++;
	}
	return n == MODULI_FIELDS ? 0 : ERR_INVALID_FORMAT;
}

/* Digits only, at most 32 bits (leading zeros are fine). */
static int
parse_u32(const struct field *f, int base, uint32_t *vp)
{
	uint64_t v = 0;
	size_t i;
	int d;

	if (f->len == 0)
		return ERR_INVALID_FORMAT;
	for (i = 0; i < f->len; i++) {
		d = hex_value(f->p[i]);
		if (d < 0 || d >= base)
			return ERR_INVALID_FORMAT;
		v = v * (uint64_t)base + (uint64_t)d;
		if (v > UINT32_MAX)
			return ERR_INVALID_FORMAT;
	}
	*vp = (uint32_t)v;
	return 0;
}

static int
is_decimal(const struct field *f, size_t max)
{
	size_t i;

	if (f->len == 0 || f->len > max)
		return 0;
	for (i = 0; i < f->len; i++)
		if (f->p[i] < '0' || f->p[i] > '9')
			return 0;
	return 1;
}

/*
 * The bits of the hex number in f, from its text alone: its significant
 * digits are left in *sig. -1 when a character is not a hex digit.
 */
static int64_t
hex_bits(const struct field *f, struct field *sig)
{
	size_t i = 0;
	int top;

	while (i < f->len && f->p[i] == '0')
		i++;
	sig->p = f->p + i;
	sig->len = f->len - i;
	for (; i < f->len; i++)
		if (hex_value(f->p[i]) < 0)
			return -1;
	if (sig->len == 0)
		return 0;
	/* 4 bits a digit, less the leading zero bits of the first. */
	top = hex_value(sig->p[0]);
	return (int64_t)sig->len * 4 - (top >= 8 ? 0 : top >= 4 ? 1 :
	    top >= 2 ? 2 : 3);
}

static int
hex_to_bn(const struct field *sig, BIGNUM **bnp)
{
	char *s = x_strndup(sig->p, sig->len);
	int n;

	*bnp = NULL;
	n = BN_hex2bn(bnp, s);
	x_free(s);
	if (n != (int)sig->len) {
		BN_free(*bnp);
		*bnp = NULL;
		return ERR_LIBCRYPTO;
	}
	return 0;
}

int
moduli_parse_line(const char *line, size_t len, struct moduli_entry *e)
{
	struct field f[MODULI_FIELDS], sig;
	int64_t bits;

	memset(e, 0, sizeof(*e));
	if (len > MODULI_LINE_MAX)
		return MODULI_SKIP_TOO_LONG;
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	/* OpenSSH's rule: a line not starting with a digit is a comment. */
	if (len == 0 || line[0] < '0' || line[0] > '9')
		return MODULI_SKIP_COMMENT;
	if (split_fields(line, len, f) != 0 ||
	    !is_decimal(&f[0], TIME_DIGITS_MAX) ||
	    parse_u32(&f[1], 10, &e->type) != 0 ||
	    parse_u32(&f[2], 10, &e->tests) != 0 ||
	    parse_u32(&f[3], 10, &e->tries) != 0 ||
	    parse_u32(&f[4], 10, &e->size) != 0 ||
	    parse_u32(&f[5], 16, &e->generator) != 0 ||
	    (bits = hex_bits(&f[6], &sig)) < 0)
		return MODULI_SKIP_MALFORMED;
	if (e->type != MODULI_TYPE_UNKNOWN && e->type != MODULI_TYPE_SAFE &&
	    e->type != MODULI_TYPE_SOPHIE_GERMAIN)
		return MODULI_SKIP_TYPE;
	if (e->tests & MODULI_TESTS_COMPOSITE)
		return MODULI_SKIP_COMPOSITE;
	if (bits != (int64_t)e->size + 1)
		return MODULI_SKIP_SIZE;
	return hex_to_bn(&sig, &e->number);
}

void
moduli_entry_clear(struct moduli_entry *e)
{
	BN_free(e->number);
	memset(e, 0, sizeof(*e));
}

const char *
moduli_skip_str(int why)
{
	switch (why) {
	case MODULI_SKIP_COMMENT:	return "comment or short line";
	case MODULI_SKIP_MALFORMED:	return "malformed line";
	case MODULI_SKIP_TOO_LONG:	return "line too long";
	case MODULI_SKIP_TYPE:		return "unknown type";
	case MODULI_SKIP_COMPOSITE:	return "known composite";
	case MODULI_SKIP_SIZE:		return "bit size mismatch";
	default:			return "unknown reason";
	}
}

int
moduli_format_line(time_t when, uint32_t type, uint32_t tests,
    uint32_t tries, uint32_t generator, const BIGNUM *number, char **linep)
{
	struct tm tm;
	char stamp[32], *hex;
	int bits = BN_num_bits(number);

	*linep = NULL;
	if (bits < 1 || BN_is_negative(number))
		return ERR_INVALID_ARGUMENT;
	if (gmtime_r(&when, &tm) == NULL ||
	    strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm) == 0)
		return ERR_INVALID_ARGUMENT;
	if ((hex = BN_bn2hex(number)) == NULL)
		return ERR_LIBCRYPTO;
	*linep = x_asprintf("%s %u %u %u %d %x %s\n", stamp, type, tests,
	    tries, bits - 1, generator, hex);
	OPENSSL_free(hex);
	return 0;
}

int
moduli_entry_pq(const struct moduli_entry *e, BIGNUM **pp, BIGNUM **qp)
{
	BIGNUM *p = NULL, *q = NULL;
	int ok;

	*pp = *qp = NULL;
	if (e->number == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((p = BN_new()) == NULL || (q = BN_new()) == NULL) {
		BN_free(p);
		return ERR_ALLOC;
	}
	if (e->type == MODULI_TYPE_SOPHIE_GERMAIN)
		ok = BN_copy(q, e->number) != NULL &&
		    BN_lshift1(p, q) && BN_add_word(p, 1);
	else
		ok = BN_copy(p, e->number) != NULL && BN_rshift1(q, p);
	if (!ok) {
		BN_free(p);
		BN_free(q);
		return ERR_LIBCRYPTO;
	}
	*pp = p;
	*qp = q;
	return 0;
}

uint32_t
moduli_pick_generator(const BIGNUM *p)
{
	BN_ULONG r10;

	if (BN_mod_word(p, 24) == 11)
		return 2;
	r10 = BN_mod_word(p, 10);
	if (r10 == 3 || r10 == 7)
		return 5;
	return 0;
}

/* One Miller-Rabin round with base a; n - 1 = d * 2^s. 1, 0 or error. */
static int
mr_round(const BIGNUM *n, const BIGNUM *nm1, const BIGNUM *d, int s,
    const BIGNUM *a, BN_MONT_CTX *mont, BN_CTX *ctx)
{
	BIGNUM *x;
	int i, r = ERR_LIBCRYPTO;

	BN_CTX_start(ctx);
	if ((x = BN_CTX_get(ctx)) == NULL ||
	    !BN_mod_exp_mont(x, a, d, n, ctx, mont))
		goto out;
	r = 1;
	if (BN_is_one(x) || BN_cmp(x, nm1) == 0)
		goto out;
	for (i = 1; i < s; i++) {
		if (!BN_mod_sqr(x, x, n, ctx)) {
			r = ERR_LIBCRYPTO;
			goto out;
		}
		if (BN_cmp(x, nm1) == 0)
			goto out;
		if (BN_is_one(x))
			break;
	}
	r = 0;
 out:
	BN_CTX_end(ctx);
	return r;
}

/* The next base: 2 for the quick test, else random in [2, n - 2]. */
static int
mr_base(BIGNUM *a, const BIGNUM *range, int random, BN_CTX *ctx)
{
	if (!random)
		return BN_set_word(a, 2);
	return BN_rand_range_ex(a, range, 0, ctx) && BN_add_word(a, 2);
}

/* Miller-Rabin with base 2 alone (random 0) or that many random bases. */
static int
mr_test(const BIGNUM *n, uint32_t random, BN_CTX *ctx)
{
	BN_MONT_CTX *mont = NULL;
	BIGNUM *nm1, *d, *a, *range;
	uint32_t i;
	int s, r = ERR_LIBCRYPTO;

	if (!BN_is_odd(n) || BN_num_bits(n) < 3)
		return 0;
	BN_CTX_start(ctx);
	if ((nm1 = BN_CTX_get(ctx)) == NULL || (d = BN_CTX_get(ctx)) == NULL ||
	    (a = BN_CTX_get(ctx)) == NULL ||
	    (range = BN_CTX_get(ctx)) == NULL ||
	    BN_copy(nm1, n) == NULL || !BN_sub_word(nm1, 1) ||
	    BN_copy(range, n) == NULL || !BN_sub_word(range, 3) ||
	    (mont = BN_MONT_CTX_new()) == NULL ||
	    !BN_MONT_CTX_set(mont, n, ctx))
		goto out;
	for (s = 0; !BN_is_bit_set(nm1, s); s++)
		;
	if (!BN_rshift(d, nm1, s))
		goto out;
	r = 1;
	for (i = 0; i < (random ? random : 1) && r == 1; i++) {
		if (!mr_base(a, range, random != 0, ctx)) {
			r = ERR_LIBCRYPTO;
			break;
		}
		r = mr_round(n, nm1, d, s, a, mont, ctx);
	}
 out:
	BN_MONT_CTX_free(mont);
	BN_CTX_end(ctx);
	return r;
}

int
moduli_miller_rabin(const BIGNUM *n, uint32_t rounds, BN_CTX *ctx)
{
	if (rounds == 0)
		return ERR_INVALID_ARGUMENT;
	return mr_test(n, rounds, ctx);
}

/* libcrypto's verdict and then rounds of ours: 1, 0 or error. */
static int
full_test(const BIGNUM *n, uint32_t rounds, BN_CTX *ctx)
{
	int r;

	if ((r = BN_check_prime(n, ctx, NULL)) != 1)
		return r == 0 ? 0 : ERR_LIBCRYPTO;
	return rounds == 0 ? 1 : mr_test(n, rounds, ctx);
}

/* Does g have order 2q mod p = 2q + 1, i.e. is g^q = p - 1? */
static int
generator_ok(const BIGNUM *p, const BIGNUM *q, uint32_t g, BN_CTX *ctx)
{
	BIGNUM *x, *pm1;
	int r = ERR_LIBCRYPTO;

	BN_CTX_start(ctx);
	if ((x = BN_CTX_get(ctx)) == NULL || (pm1 = BN_CTX_get(ctx)) == NULL ||
	    BN_copy(pm1, p) == NULL || !BN_sub_word(pm1, 1) ||
	    !BN_set_word(x, g) || !BN_mod_exp(x, x, q, p, ctx))
		goto out;
	r = g > 1 && BN_cmp(x, pm1) == 0;
 out:
	BN_CTX_end(ctx);
	return r;
}

int
moduli_screen(const BIGNUM *p, const BIGNUM *q, uint32_t g,
    uint32_t rounds, BN_CTX *ctx)
{
	BIGNUM *chk;
	int r;

	/* p must be 2q + 1: the tests below prove nothing otherwise. */
	if ((chk = BN_new()) == NULL)
		return ERR_ALLOC;
	r = BN_lshift1(chk, q) && BN_add_word(chk, 1) ?
	    (BN_cmp(chk, p) == 0 ? 0 : ERR_INVALID_ARGUMENT) : ERR_LIBCRYPTO;
	BN_free(chk);
	if (r != 0)
		return r;
	if ((r = mr_test(q, 0, ctx)) <= 0)
		return r < 0 ? r : MODULI_Q_FIRST;
	if ((r = mr_test(p, 0, ctx)) <= 0 ||
	    (r = full_test(p, rounds, ctx)) <= 0)
		return r < 0 ? r : MODULI_P_COMPOSITE;
	if ((r = full_test(q, rounds, ctx)) <= 0)
		return r < 0 ? r : MODULI_Q_COMPOSITE;
	if ((r = generator_ok(p, q, g, ctx)) <= 0)
		return r < 0 ? r : MODULI_G_BAD;
	return MODULI_SAFE;
}
