/*
 * penalty.c: the listener's PerSourcePenalties table (see penalty.h for
 * the rules and the data structure).
 *
 * Log lines are worded as OpenSSH 9.8+'s, function-name prefixes
 * included, since that is the text administrators' filters look for.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <openssl/rand.h>

#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "penalty.h"

/* Durations past this (about 73,000 years) are held at it. */
#define PENALTY_US_CAP	((int64_t)1 << 61)

struct pentry {
	struct penalty_addr addr;	/* the block */
	int64_t expiry;			/* microseconds, caller's clock */
	const char *reason;
	int active;
	size_t heap_pos;
};

struct ptable {
	const char *name;		/* "ipv4", "ipv6" */
	struct pentry *e;		/* dense: e[0..n-1] */
	size_t n, cap;
	size_t *heap;			/* indexes into e, min expiry first */
	size_t *slots;			/* index + 1 into e; 0: empty */
	size_t nslots;			/* power of two, >= 2 * cap */
	size_t max;			/* max-sources */
	int deny_all;			/* overflow mode */
	int bits;			/* PerSourceNetBlockSize */
	uint64_t key[2];		/* hash key */
};

struct penalties {
	int enabled;
	int64_t dur[PENALTY_NKINDS];	/* microseconds */
	int64_t max_us, min_us;
	char *exempt;			/* NULL: none */
	struct ptable t4, t6;
};

static const char *const reasons[PENALTY_NKINDS] = {
	[PENALTY_CRASH] = "penalty: caused crash",
	[PENALTY_AUTHFAIL] = "penalty: failed authentication",
	[PENALTY_NOAUTH] =
	    "penalty: connections without attempting authentication",
	[PENALTY_INVALIDUSER] =
	    "penalty: attempted authentication by invalid user",
	[PENALTY_REFUSECONNECTION] =
	    "penalty: connection prohibited by RefuseConnection",
	[PENALTY_GRACE] = "penalty: exceeded LoginGraceTime",
};

int
penalty_signal_is_crash(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGTRAP ||
	    sig == SIGSYS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
}

enum penalty_kind
penalty_for_status(int wstatus)
{
	if (WIFSIGNALED(wstatus))
		return penalty_signal_is_crash(WTERMSIG(wstatus)) ?
		    PENALTY_CRASH : PENALTY_NONE;
	if (!WIFEXITED(wstatus))
		return PENALTY_CRASH;
	switch (WEXITSTATUS(wstatus)) {
	case 0: return PENALTY_NONE;
	case SSHD_EXIT_LOGIN_GRACE: return PENALTY_GRACE;
	case SSHD_EXIT_CHILD_CRASH: return PENALTY_CRASH;
	case SSHD_EXIT_AUTH_ATTEMPTED: return PENALTY_AUTHFAIL;
	case SSHD_EXIT_CONFIG_REFUSED: return PENALTY_REFUSECONNECTION;
	case SSHD_EXIT_INVALID_USER: return PENALTY_INVALIDUSER;
	default: return PENALTY_NOAUTH;
	}
}

const char *
penalty_reason(enum penalty_kind kind)
{
	return kind > PENALTY_NONE && kind < PENALTY_NKINDS ?
	    reasons[kind] : NULL;
}

int
penalty_addr_block(const struct sockaddr *sa, socklen_t salen, int bits4,
    int bits6, struct penalty_addr *out)
{
	int bits, i;

	memset(out, 0, sizeof(*out));
	if (sa->sa_family == AF_INET &&
	    salen >= (socklen_t)sizeof(struct sockaddr_in)) {
		memcpy(out->b, &((const struct sockaddr_in *)(const void *)sa)->
		    sin_addr, 4);
		bits = bits4;
	} else if (sa->sa_family == AF_INET6 &&
	    salen >= (socklen_t)sizeof(struct sockaddr_in6)) {
		memcpy(out->b, &((const struct sockaddr_in6 *)(const void *)
		    sa)->sin6_addr, 16);
		bits = bits6;
	} else
		return ERR_INVALID_ARGUMENT;
	out->af = sa->sa_family;
	for (i = 0; i < 16; i++, bits -= 8) {
		if (bits >= 8)
			continue;
		out->b[i] &= bits > 0 ? (unsigned char)(0xff << (8 - bits)) : 0;
	}
	return 0;
}

int
penalty_addr_eq(const struct penalty_addr *a, const struct penalty_addr *b)
{
	return a->af == b->af && memcmp(a->b, b->b, sizeof(a->b)) == 0;
}

/* The numeric text of sa's (unmasked) address; "UNKNOWN" if none. */
static void
sa_ntop(const struct sockaddr *sa, char *buf, size_t len)
{
	const void *a = sa->sa_family == AF_INET ?
	    (const void *)&((const struct sockaddr_in *)(const void *)sa)->
	    sin_addr : (const void *)&((const struct sockaddr_in6 *)
	    (const void *)sa)->sin6_addr;

	if (inet_ntop(sa->sa_family, a, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "UNKNOWN");
}

/* --- the hash of blocks --- */

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static size_t
home_slot(const struct ptable *t, const struct penalty_addr *a)
{
	uint64_t w0, w1;

	memcpy(&w0, a->b, 8);
	memcpy(&w1, a->b + 8, 8);
	return (size_t)mix64(mix64(t->key[0] ^ w0) ^ w1 ^ t->key[1]) &
	    (t->nslots - 1);
}

/* The slot holding a's entry, or the empty slot where it would go. */
static size_t
find_slot(const struct ptable *t, const struct penalty_addr *a)
{
	size_t i = home_slot(t, a);

	while (t->slots[i] != 0 && !penalty_addr_eq(&t->e[t->slots[i] - 1].addr,
	    a))
		i = (i + 1) & (t->nslots - 1);
	return i;
}

/* Empty slot i, moving later entries of its run back (no tombstones). */
static void
slot_delete(struct ptable *t, size_t i)
{
	size_t mask = t->nslots - 1, j = i, k;

	t->slots[i] = 0;
	for (;;) {
		j = (j + 1) & mask;
		if (t->slots[j] == 0)
			return;
		k = home_slot(t, &t->e[t->slots[j] - 1].addr);
		/* Stays if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		t->slots[i] = t->slots[j];
		t->slots[j] = 0;
		i = j;
	}
}

/* --- the heap by expiry --- */

static int
heap_less(const struct ptable *t, size_t a, size_t b)
{
	return t->e[t->heap[a]].expiry < t->e[t->heap[b]].expiry;
}

static void
heap_swap(struct ptable *t, size_t a, size_t b)
{
	size_t x = t->heap[a];

	t->heap[a] = t->heap[b];
	t->heap[b] = x;
	t->e[t->heap[a]].heap_pos = a;
	t->e[t->heap[b]].heap_pos = b;
}

static void
heap_up(struct ptable *t, size_t pos)
{
	while (pos > 0 && heap_less(t, pos, (pos - 1) / 2)) {
		heap_swap(t, pos, (pos - 1) / 2);
		pos = (pos - 1) / 2;
	}
}

static void
heap_down(struct ptable *t, size_t pos, size_t hn)
{
	size_t m;

	while ((m = 2 * pos + 1) < hn) {
		if (m + 1 < hn && heap_less(t, m + 1, m))
			m++;
		if (!heap_less(t, m, pos))
			break;
		heap_swap(t, m, pos);
		pos = m;
	}
}

/* --- entries --- */

static void
entry_remove(struct ptable *t, size_t x)
{
	size_t last = t->n - 1, pos = t->e[x].heap_pos;

	slot_delete(t, find_slot(t, &t->e[x].addr));
	if (pos != last) {
		heap_swap(t, pos, last);
		heap_down(t, pos, last);
		heap_up(t, pos);
	}
	if (x != last) {
		t->e[x] = t->e[last];
		t->slots[find_slot(t, &t->e[x].addr)] = x + 1;
		t->heap[t->e[x].heap_pos] = x;
	}
	t->n--;
}

/* Room for one more entry: grow the arrays, rehash at half full. */
static void
table_reserve(struct ptable *t)
{
	size_t i, ncap, nslots;

	if (t->n < t->cap)
		return;
	ncap = t->cap < 16 ? 16 : t->cap * 2;
	t->e = x_reallocarray(t->e, ncap, sizeof(*t->e));
	t->heap = x_reallocarray(t->heap, ncap, sizeof(*t->heap));
	t->cap = ncap;
	for (nslots = 32; nslots < 2 * ncap; nslots *= 2)
		;
	if (nslots == t->nslots)
		return;
	x_free(t->slots);
	t->slots = x_calloc(nslots, sizeof(*t->slots));
	t->nslots = nslots;
	for (i = 0; i < t->n; i++)
		t->slots[find_slot(t, &t->e[i].addr)] = i + 1;
}

static void
entry_insert(struct ptable *t, const struct penalty_addr *a, int64_t expiry,
    int active, const char *reason)
{
	struct pentry *e;

	table_reserve(t);
	e = &t->e[t->n];
	memset(e, 0, sizeof(*e));
	e->addr = *a;
	e->expiry = expiry;
	e->active = active;
	e->reason = reason;
	e->heap_pos = t->n;
	t->heap[t->n] = t->n;
	t->slots[find_slot(t, a)] = t->n + 1;
	t->n++;
	heap_up(t, t->n - 1);
}

/* Index of a's entry, or (size_t)-1. */
static size_t
entry_find(const struct ptable *t, const struct penalty_addr *a)
{
	size_t s;

	if (t->n == 0)
		return (size_t)-1;
	s = find_slot(t, a);
	return t->slots[s] == 0 ? (size_t)-1 : t->slots[s] - 1;
}

static void
table_expire(struct ptable *t, int64_t now)
{
	while (t->n > 0 && t->e[t->heap[0]].expiry < now)
		entry_remove(t, t->heap[0]);
}

static void
table_init(struct ptable *t, const char *name, int max, int deny_all,
    int bits)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->max = max < 0 ? 0 : (size_t)max;
	t->deny_all = deny_all;
	t->bits = bits;
	if (RAND_bytes((unsigned char *)t->key, sizeof(t->key)) != 1)
		memset(t->key, 0x5a, sizeof(t->key));	/* still correct */
}

static void
table_free(struct ptable *t)
{
	x_free(t->e);
	x_free(t->heap);
	x_free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* --- the interface --- */

static int64_t
to_us(double secs)
{
	if (secs <= 0)
		return 0;
	if (secs * 1e6 >= (double)PENALTY_US_CAP)
		return PENALTY_US_CAP;
	return (int64_t)(secs * 1e6 + 0.5);
}

struct penalties *
penalties_new(const struct servconf *sc)
{
	const struct sc_penalties *c = &sc->penalties;
	struct penalties *p = x_calloc(1, sizeof(*p));

	p->enabled = c->enabled;
	p->dur[PENALTY_CRASH] = to_us(c->crash);
	p->dur[PENALTY_AUTHFAIL] = to_us(c->authfail);
	p->dur[PENALTY_NOAUTH] = to_us(c->noauth);
	p->dur[PENALTY_INVALIDUSER] = to_us(c->invaliduser);
	p->dur[PENALTY_REFUSECONNECTION] = to_us(c->refuseconnection);
	p->dur[PENALTY_GRACE] = to_us(c->grace_exceeded);
	p->max_us = to_us(c->max);
	p->min_us = to_us(c->min);
	p->exempt = sc->penalty_exempt ? x_strdup(sc->penalty_exempt) : NULL;
	table_init(&p->t4, "ipv4", c->max_sources4, c->overflow_deny_all4,
	    sc->per_source_masklen4);
	table_init(&p->t6, "ipv6", c->max_sources6, c->overflow_deny_all6,
	    sc->per_source_masklen6);
	return p;
}

void
penalties_free(struct penalties *p)
{
	if (p == NULL)
		return;
	table_free(&p->t4);
	table_free(&p->t6);
	x_free(p->exempt);
	x_free(p);
}

size_t
penalties_count(const struct penalties *p, int af)
{
	return af == AF_INET ? p->t4.n : af == AF_INET6 ? p->t6.n : 0;
}

/* The block of sa and its table; NULL when sa is no IP address. */
static struct ptable *
lookup_table(struct penalties *p, const struct sockaddr *sa, socklen_t salen,
    struct penalty_addr *blk)
{
	if (penalty_addr_block(sa, salen, p->t4.bits, p->t6.bits, blk) != 0)
		return NULL;
	return blk->af == AF_INET ? &p->t4 : &p->t6;
}

static int
exempt(const struct penalties *p, const char *addr)
{
	return p->exempt != NULL && match_addr_list(addr, p->exempt) == 1;
}

int
penalties_allow(struct penalties *p, const struct sockaddr *sa,
    socklen_t salen, int64_t now_us, const char **reasonp)
{
	struct penalty_addr blk;
	struct ptable *t;
	char addr[INET6_ADDRSTRLEN];
	size_t x;

	if (!p->enabled || (t = lookup_table(p, sa, salen, &blk)) == NULL)
		return 1;
	sa_ntop(sa, addr, sizeof(addr));
	if (exempt(p, addr))
		return 1;
	table_expire(&p->t4, now_us);
	table_expire(&p->t6, now_us);
	if (t->n >= t->max && t->deny_all) {
		*reasonp = "too many penalised addresses";
		return 0;
	}
	if ((x = entry_find(t, &blk)) == (size_t)-1 || !t->e[x].active)
		return 1;
	*reasonp = t->e[x].reason;
	return 0;
}

/* permissive overflow: drop the entries closest to expiry. */
static void
table_trim(struct ptable *t)
{
	char s[INET6_ADDRSTRLEN];
	const struct pentry *e;

	while (t->n > t->max) {
		e = &t->e[t->heap[0]];
		if (inet_ntop(e->addr.af, e->addr.b, s, sizeof(s)) == NULL)
			snprintf(s, sizeof(s), "UNKNOWN");
		log_debug3("srclimit_early_expire_penalties_from_tree: %s "
		    "overflow, remove %s/%d", t->name, s, t->bits);
		entry_remove(t, t->heap[0]);
	}
}

void
penalties_add(struct penalties *p, const struct sockaddr *sa,
    socklen_t salen, int64_t now_us, enum penalty_kind kind)
{
	struct penalty_addr blk;
	struct ptable *t;
	struct pentry *e;
	char addr[INET6_ADDRSTRLEN], net[INET6_ADDRSTRLEN + 8];
	const char *why = penalty_reason(kind);
	int64_t secs;
	size_t x;
	int active;

	if (!p->enabled || why == NULL ||
	    (t = lookup_table(p, sa, salen, &blk)) == NULL)
		return;
	sa_ntop(sa, addr, sizeof(addr));
	if (exempt(p, addr)) {
		log_debug3("srclimit_penalise: address %s is exempt", addr);
		return;
	}
	if ((secs = p->dur[kind]) <= 0)
		return;
	/* OpenSSH names the source address with the block's length. */
	snprintf(net, sizeof(net), "%s/%d", addr, t->bits);
	table_expire(&p->t4, now_us);
	table_expire(&p->t6, now_us);
	if (t->n >= t->max && t->deny_all) {
		log_verbose("srclimit_penalise: %s penalty table full, cannot "
		    "penalise %s for %s", t->name, net, why);
		return;
	}
	if ((x = entry_find(t, &blk)) == (size_t)-1) {
		active = secs > p->min_us;
		entry_insert(t, &blk, now_us + secs, active, why);
		log_msg(active ? LOG_LEVEL_INFO : LOG_LEVEL_VERBOSE,
		    "srclimit_penalise: %s: new %s %s penalty of %.3f seconds "
		    "for %s", t->name, net, active ? "active" : "deferred",
		    (double)secs / 1e6, why);
		table_trim(t);
		return;
	}
	e = &t->e[x];
	log_debug("srclimit_penalise: %s penalty for %s %s already exists, "
	    "%lld seconds remaining", e->active ? "active" : "inactive",
	    t->name, net, (long long)((e->expiry - now_us) / 1000000));
	e->expiry += secs;
	if (e->expiry - now_us > p->max_us)
		e->expiry = now_us + p->max_us;
	if (e->expiry - now_us > p->min_us && !e->active) {
		log_info("srclimit_penalise: %s: activating %s penalty of "
		    "%.3f seconds for %s", net, t->name,
		    (double)(e->expiry - now_us) / 1e6, why);
		e->active = 1;
	}
	e->reason = why;
	heap_down(t, e->heap_pos, t->n);
	heap_up(t, e->heap_pos);
}
