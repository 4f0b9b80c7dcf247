/*
 * kexalg_gex.c: the server's choice of group for DH group exchange
 * (RFC 4419), from an OpenSSH moduli file.
 *
 * The file has one group per line, "time type tests tries size generator
 * modulus", where size is the modulus bit count minus one and generator
 * and modulus are hex; '#' starts a comment line. A line is used only when
 * it is well formed, names a safe prime (type 2), records a Miller-Rabin
 * test (bit 0x04) and no compositeness finding (bit 0x01) with a non-zero
 * number of tries, and its modulus really has size+1 bits. Anything else
 * is skipped, as OpenSSH's reader does.
 *
 * The request is first clamped to [2048, 8192] bits as OpenSSH's server
 * does; min > max or want outside [min, max] is refused. Among the groups
 * with size in [min, max], the best size is the smallest one >= want, or
 * failing that the largest below want; one group of that size is picked
 * uniformly at random (reservoir sampling in a single pass). With no file,
 * or nothing fitting in it, the RFC 3526 groups 14/16/18 (2048/4096/8192
 * bits, g = 2) are judged by the same rule; when none of them fits either
 * the request is refused rather than answered with a group the client
 * must reject.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/rand.h>

#include "err.h"
#include "kexalg.h"
#include "kexalg_priv.h"
#include "log.h"
#include "mem.h"
#include "moduli.h"

/* The group picked so far. */
struct gex_pick {
	uint32_t best;		/* bits of the best size seen; 0 = none */
	uint32_t count;		/* groups of that size seen */
	BIGNUM *p, *g;
};

/* Uniform in [0, n), n > 0. */
static int
rand_below(uint32_t n, uint32_t *v)
{
	uint32_t x, lim = UINT32_MAX - (UINT32_MAX % n);

	do {
		if (RAND_bytes((unsigned char *)&x, sizeof(x)) != 1)
			return ERR_LIBCRYPTO;
	} while (x >= lim);
	*v = x % n;
	return 0;
}

/* Is a group of `bits` better than the best so far? */
static int
gex_better(uint32_t bits, uint32_t best, uint32_t want)
{
	if (best == 0)
		return 1;
	if (best < want)
		return bits > best;
	return bits >= want && bits < best;
}

/*
 * Offer a group of `bits` bits to the pick; takes ownership of *pp and
 * *gp (they are NULLed when kept).
 */
static int
gex_offer(struct gex_pick *pk, uint32_t bits, uint32_t want, BIGNUM **pp,
    BIGNUM **gp)
{
	uint32_t n;
	int r;

	if (gex_better(bits, pk->best, want)) {
		pk->best = bits;
		pk->count = 0;
	}
	if (bits != pk->best)
		return 0;
	pk->count++;
	if ((r = rand_below(pk->count, &n)) != 0)
		return r;
	if (n != 0)
		return 0;
	BN_free(pk->p);
	BN_free(pk->g);
	pk->p = *pp;
	pk->g = *gp;
	*pp = *gp = NULL;
	return 0;
}

/*
 * What the exchange makes of one parsed moduli line: 0 and the group when
 * it is usable here (a safe prime that passed Miller-Rabin, an odd
 * modulus, 1 < g < p - 1) and its size lies in [min, max] and could beat
 * the current pick; 1 when not; ERR_LIBCRYPTO.
 */
static int
gex_take_entry(struct moduli_entry *e, uint32_t min, uint32_t max,
    uint32_t want, const struct gex_pick *pk, uint32_t *bitsp, BIGNUM **pp,
    BIGNUM **gp)
{
	BIGNUM *g = NULL, *pm1 = NULL;
	uint32_t bits;
	int r = 1;

	*pp = *gp = NULL;
	if (e->type != MODULI_TYPE_SAFE ||
	    !(e->tests & MODULI_TESTS_MILLER_RABIN) || e->tries == 0 ||
	    e->size >= UINT32_MAX - 1)
		return 1;
	bits = e->size + 1;
	if (bits < min || bits > max)
		return 1;
	if (bits != pk->best && !gex_better(bits, pk->best, want))
		return 1;
	if (!BN_is_odd(e->number))
		return 1;
	if ((g = BN_new()) == NULL || !BN_set_word(g, e->generator) ||
	    (pm1 = BN_dup(e->number)) == NULL || !BN_sub_word(pm1, 1)) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	if (BN_cmp(g, BN_value_one()) <= 0 || BN_cmp(g, pm1) >= 0)
		goto out;
	*bitsp = bits;
	*pp = e->number;
	e->number = NULL;
	*gp = g;
	g = NULL;
	r = 0;
 out:
	BN_free(pm1);
	BN_free(g);
	return r;
}

/* Walk the moduli file; ERR_SYSTEM when it cannot be opened. */
static int
gex_read_file(const char *path, uint32_t min, uint32_t want, uint32_t max,
    struct gex_pick *pk)
{
	FILE *f;
	char *line = NULL;
	struct moduli_entry e;
	size_t cap = 0;
	ssize_t len;
	uint32_t bits;
	BIGNUM *p, *g;
	int r = 0, pr;

	if ((f = fopen(path, "r")) == NULL)
		return ERR_SYSTEM;
	while ((len = getline(&line, &cap, f)) != -1) {
		pr = moduli_parse_line(line, (size_t)len, &e);
		if (pr == 0)
			pr = gex_take_entry(&e, min, max, want, pk, &bits, &p,
			    &g);
		moduli_entry_clear(&e);
		if (pr < 0) {
			r = pr;
			break;
		}
		if (pr != 0)
			continue;
		r = gex_offer(pk, bits, want, &p, &g);
		BN_free(p);
		BN_free(g);
		if (r != 0)
			break;
	}
	free(line);
	fclose(f);
	return r;
}

static int
gex_fallback(uint32_t min, uint32_t want, uint32_t max, struct gex_pick *pk)
{
	static const struct {
		uint32_t bits;
		BIGNUM *(*prime)(BIGNUM *);
	} groups[] = {
		{ 2048, BN_get_rfc3526_prime_2048 },
		{ 4096, BN_get_rfc3526_prime_4096 },
		{ 8192, BN_get_rfc3526_prime_8192 },
	};
	BIGNUM *p = NULL, *g = NULL;
	size_t i;
	int r = 0;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (groups[i].bits < min || groups[i].bits > max)
			continue;
		if ((p = groups[i].prime(NULL)) == NULL ||
		    (g = BN_new()) == NULL || !BN_set_word(g, 2)) {
			r = ERR_LIBCRYPTO;
			break;
		}
		if ((r = gex_offer(pk, groups[i].bits, want, &p, &g)) != 0)
			break;
		BN_free(p);
		BN_free(g);
		p = g = NULL;
	}
	BN_free(p);
	BN_free(g);
	return r;
}

int
kexalg_gex_choose(const char *moduli_path, uint32_t min, uint32_t want,
    uint32_t max, BIGNUM **pp, BIGNUM **gp)
{
	struct gex_pick pk;
	int r;

	if (pp != NULL)
		*pp = NULL;
	if (gp != NULL)
		*gp = NULL;
	if (pp == NULL || gp == NULL)
		return ERR_INVALID_ARGUMENT;
	memset(&pk, 0, sizeof(pk));
	if (min < KEX_DH_GRP_MIN)
		min = KEX_DH_GRP_MIN;
	if (max > KEX_DH_GRP_MAX)
		max = KEX_DH_GRP_MAX;
	if (want < KEX_DH_GRP_MIN)
		want = KEX_DH_GRP_MIN;
	if (want > KEX_DH_GRP_MAX)
		want = KEX_DH_GRP_MAX;
	if (max < min || want < min || want > max)
		return ERR_INVALID_ARGUMENT;

	if (moduli_path != NULL) {
		r = gex_read_file(moduli_path, min, want, max, &pk);
		if (r == ERR_SYSTEM) {
			log_error("WARNING: could not open %s (%s), "
			    "using fixed modulus", moduli_path,
			    strerror(errno));
		} else if (r != 0) {
			goto out;
		} else if (pk.best == 0) {
			log_error("WARNING: no suitable primes in %s",
			    moduli_path);
		}
	}
	if (pk.best == 0 && (r = gex_fallback(min, want, max, &pk)) != 0)
		goto out;
	if (pk.best == 0) {
		r = ERR_NOT_FOUND;
		goto out;
	}
	*pp = pk.p;
	*gp = pk.g;
	pk.p = pk.g = NULL;
	r = 0;
 out:
	BN_free(pk.p);
	BN_free(pk.g);
	return r;
}
