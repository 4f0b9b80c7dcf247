/*
 * match.c: OpenSSH-style pattern matching and algorithm-list assembly.
 *
 * A pattern is matched by a small backtracking matcher ('*' any run,
 * '?' any one character). Lists are comma-separated and walked in place
 * with a bounded copy of each entry, so nothing is written into the
 * caller's strings. Addresses are parsed with inet_pton() into a common
 * 16-byte form, so CIDR masks for IPv4 and IPv6 share one comparison.
 *
 * match_assemble_list() builds its result as an array of names: the
 * starting list (defaults or empty), then the spec's entries appended,
 * prepended or removed, each pattern expanded against the supported
 * list in that list's order, with duplicates dropped (first one kept).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "match.h"
#include "mem.h"

#define ENTRY_MAX 1024		/* longest list entry considered */

int
match_pattern(const char *s, const char *pattern)
{
	const char *star = NULL, *retry = NULL;

	for (;;) {
		if (*pattern == '*') {
			/* Collapse runs of '*'; remember where to resume. */
			while (*pattern == '*')
				pattern++;
			if (*pattern == '\0')
				return 1;
			star = pattern;
			retry = s;
			continue;
		}
		if (*s == '\0')
			return *pattern == '\0';
		if (*pattern == '?' || *pattern == *s) {
			s++;
			pattern++;
			continue;
		}
		if (star == NULL)
			return 0;
		/* Let the last '*' swallow one more character. */
		pattern = star;
		s = ++retry;
	}
}

/*
 * Copy the next comma-separated entry of *listp into buf (truncated
 * entries are reported as too long through *toolong) and advance *listp.
 * Returns 0 at the end of the list.
 */
static int
next_entry(const char **listp, char *buf, size_t bufsz, int *toolong)
{
	const char *p = *listp, *e;
	size_t n;

	if (p == NULL || *p == '\0')
		return 0;
	if ((e = strchr(p, ',')) == NULL)
		e = p + strlen(p);
	n = (size_t)(e - p);
	*toolong = n >= bufsz;
	if (n >= bufsz)
		n = bufsz - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	*listp = *e == ',' ? e + 1 : e;
	return 1;
}

static void
lower_in_place(char *s)
{
	for (; *s != '\0'; s++)
		*s = (char)tolower((unsigned char)*s);
}

int
match_pattern_list(const char *s, const char *list, int dolower)
{
	char ent[ENTRY_MAX], *str = NULL;
	const char *p = list, *pat;
	int toolong, got = 0, negated;

	if (s == NULL || list == NULL)
		return 0;
	if (dolower) {
		str = x_strdup(s);
		lower_in_place(str);
		s = str;
	}
	while (next_entry(&p, ent, sizeof(ent), &toolong)) {
		if (toolong)
			continue;
		negated = ent[0] == '!';
		pat = ent + negated;
		if (dolower)
			lower_in_place(ent);
		if (*pat == '\0' || !match_pattern(s, pat))
			continue;
		if (negated) {
			got = -1;
			break;
		}
		got = 1;
	}
	x_free(str);
	return got;
}

/* An address in a family-tagged 16-byte form. */
struct net_addr {
	int af;
	unsigned char b[16];
};

static int
addr_parse(const char *s, struct net_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->b) == 1) {
		a->af = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->b) == 1) {
		a->af = AF_INET6;
		return 0;
	}
	return ERR_INVALID_FORMAT;
}

static int
addr_bits(const struct net_addr *a)
{
	return a->af == AF_INET ? 32 : 128;
}

/* 1 if the first `bits` bits of a and b agree (same family only). */
static int
addr_prefix_eq(const struct net_addr *a, const struct net_addr *b, int bits)
{
	int i;
	unsigned char m;

	if (a->af != b->af)
		return 0;
	for (i = 0; bits > 0; i++, bits -= 8) {
		m = bits >= 8 ? 0xff : (unsigned char)(0xff << (8 - bits));
		if ((a->b[i] & m) != (b->b[i] & m))
			return 0;
	}
	return 1;
}

/*
 * Parse "addr" or "addr/len". Returns 0 and fills net/bits, -1 if the
 * entry is not an address (possibly a pattern), -2 if it is a malformed
 * CIDR block (bad length, or host bits set).
 */
static int
cidr_parse(const char *s, struct net_addr *net, int *bitsp)
{
	char buf[INET6_ADDRSTRLEN + 8];
	const char *slash;
	char *ep;
	long len;
	size_t n;
	int i, bits;
	unsigned char m;

	if ((slash = strchr(s, '/')) == NULL) {
		if (addr_parse(s, net) != 0)
			return -1;
		*bitsp = addr_bits(net);
		return 0;
	}
	n = (size_t)(slash - s);
	if (n >= sizeof(buf))
		return -2;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (addr_parse(buf, net) != 0)
		return -2;
	if (!isdigit((unsigned char)slash[1]))
		return -2;
	len = strtol(slash + 1, &ep, 10);
	if (*ep != '\0' || len < 0 || len > addr_bits(net))
		return -2;
	/* Host bits (those past the prefix) must be zero. */
	for (i = 0, bits = (int)len; i < 16; i++, bits -= 8) {
		m = bits >= 8 ? 0xff : bits > 0 ?
		    (unsigned char)(0xff << (8 - bits)) : 0;
		if ((net->b[i] & (unsigned char)~m) != 0)
			return -2;
	}
	*bitsp = (int)len;
	return 0;
}

/* 1 if s looks like a (possibly wildcarded) address, not a hostname. */
static int
is_addr_pattern(const char *s)
{
	return *s != '\0' && strspn(s, "0123456789abcdefABCDEF.:*?") ==
	    strlen(s);
}

int
match_addr_list(const char *addr, const char *list)
{
	char ent[ENTRY_MAX];
	const char *p = list, *e;
	struct net_addr a, net;
	int toolong, negated, bits, r, got = 0, have_addr;

	if (list == NULL)
		return 0;
	have_addr = addr != NULL && addr_parse(addr, &a) == 0;
	while (next_entry(&p, ent, sizeof(ent), &toolong)) {
		if (toolong)
			return -2;
		negated = ent[0] == '!';
		e = ent + negated;
		if (*e == '\0')
			return -2;
		r = cidr_parse(e, &net, &bits);
		if (r == -2)
			return -2;
		if (!have_addr)
			continue;
		if (r == 0)
			r = addr_prefix_eq(&a, &net, bits);
		else if (is_addr_pattern(e))
			r = match_pattern(addr, e);
		else
			r = 0;
		if (!r)
			continue;
		if (negated)
			return -1;
		got = 1;
	}
	return got;
}

int
match_host_and_ip(const char *host, const char *ipaddr, const char *patterns)
{
	int mhost, mip;

	if ((mip = match_addr_list(ipaddr, patterns)) == -2)
		return -1;	/* a malformed list never grants access */
	if (mip == -1)
		return -1;
	mhost = host == NULL ? 0 : match_pattern_list(host, patterns, 1);
	if (mhost == -1)
		return -1;
	return mhost == 1 || mip == 1;
}

int
match_user(const char *user, const char *host, const char *ipaddr,
    const char *pattern)
{
	const char *at;
	char *upat;
	int r;

	if (user == NULL || pattern == NULL)
		return 0;
	if ((at = strrchr(pattern, '@')) == NULL)
		return match_pattern(user, pattern);
	upat = x_strndup(pattern, (size_t)(at - pattern));
	r = match_pattern(user, upat);
	x_free(upat);
	if (!r)
		return 0;
	return match_host_and_ip(host, ipaddr, at + 1) == 1;
}

int
match_list_contains(const char *list, const char *name)
{
	const char *p = list, *e;
	size_t n;

	if (list == NULL || name == NULL)
		return 0;
	n = strlen(name);
	while (*p != '\0') {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		if ((size_t)(e - p) == n && memcmp(p, name, n) == 0)
			return 1;
		p = *e == ',' ? e + 1 : e;
	}
	return 0;
}

char *
match_first_common(const char *client, const char *server)
{
	char ent[ENTRY_MAX];
	const char *p = client;
	int toolong;

	if (client == NULL || server == NULL)
		return NULL;
	while (next_entry(&p, ent, sizeof(ent), &toolong)) {
		if (!toolong && ent[0] != '\0' &&
		    match_list_contains(server, ent))
			return x_strdup(ent);
	}
	return NULL;
}

/* A growable list of names; names point into their own allocations. */
struct namelist {
	char **v;
	size_t n, cap;
};

static int
nl_find(const struct namelist *nl, const char *s)
{
	size_t i;

	for (i = 0; i < nl->n; i++)
		if (strcmp(nl->v[i], s) == 0)
			return (int)i;
	return -1;
}

/* Append s unless already present. */
static void
nl_add(struct namelist *nl, const char *s)
{
	if (nl_find(nl, s) >= 0)
		return;
	if (nl->n == nl->cap) {
		nl->cap = nl->cap ? nl->cap * 2 : 16;
		nl->v = x_reallocarray(nl->v, nl->cap, sizeof(*nl->v));
	}
	nl->v[nl->n++] = x_strdup(s);
}

static void
nl_free(struct namelist *nl)
{
	size_t i;

	for (i = 0; i < nl->n; i++)
		x_free(nl->v[i]);
	x_free(nl->v);
	memset(nl, 0, sizeof(*nl));
}

static void
nl_add_list(struct namelist *nl, const char *list)
{
	char ent[ENTRY_MAX];
	const char *p = list;
	int toolong;

	while (next_entry(&p, ent, sizeof(ent), &toolong))
		if (!toolong && ent[0] != '\0')
			nl_add(nl, ent);
}

/*
 * Add to nl every supported name the entry stands for: itself if it is
 * in all, or, for a pattern, each name of all it matches (in all's
 * order). Returns the number of supported names it stood for.
 */
static int
nl_add_expanded(struct namelist *nl, const char *entry, const char *all)
{
	char ent[ENTRY_MAX];
	const char *p = all;
	int toolong, found = 0;

	if (strpbrk(entry, "*?") == NULL) {
		if (!match_list_contains(all, entry))
			return 0;
		nl_add(nl, entry);
		return 1;
	}
	while (next_entry(&p, ent, sizeof(ent), &toolong)) {
		if (toolong || !match_pattern(ent, entry))
			continue;
		nl_add(nl, ent);
		found++;
	}
	return found;
}

/* Expand every entry of spec against all; an error if one names nothing. */
static int
expand_spec(struct namelist *nl, const char *spec, const char *all)
{
	char ent[ENTRY_MAX];
	const char *p = spec;
	int toolong;

	while (next_entry(&p, ent, sizeof(ent), &toolong)) {
		if (ent[0] == '\0')
			continue;
		if (toolong || nl_add_expanded(nl, ent, all) == 0)
			return ERR_INVALID_ARGUMENT;
	}
	return 0;
}

static char *
nl_join(const struct namelist *nl)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < nl->n; i++)
		len += strlen(nl->v[i]) + 1;
	s = x_malloc(len);
	s[0] = '\0';
	for (i = 0; i < nl->n; i++) {
		if (i > 0)
			strcat(s, ",");
		strcat(s, nl->v[i]);
	}
	return s;
}

int
match_assemble_list(const char *defaults, const char *all, const char *spec,
    char **outp)
{
	struct namelist work = { 0 }, res = { 0 };
	size_t i;
	int r = ERR_INVALID_ARGUMENT;

	*outp = NULL;
	if (defaults == NULL || all == NULL)
		return ERR_INVALID_ARGUMENT;
	if (spec == NULL || *spec == '\0')
		spec = defaults;
	switch (*spec) {
	case '+':
		nl_add_list(&work, defaults);
		if (expand_spec(&work, spec + 1, all) != 0)
			goto out;
		break;
	case '^':
		if (expand_spec(&work, spec + 1, all) != 0)
			goto out;
		nl_add_list(&work, defaults);
		break;
	case '-':
		nl_add_list(&res, defaults);
		for (i = 0; i < res.n; i++)
			if (match_pattern_list(res.v[i], spec + 1, 0) != 1)
				nl_add(&work, res.v[i]);
		nl_free(&res);
		break;
	default:
		if (spec == defaults)
			nl_add_list(&work, defaults);
		else if (expand_spec(&work, spec, all) != 0)
			goto out;
		break;
	}
	/* Keep only what is supported; an empty list is never valid. */
	for (i = 0; i < work.n; i++)
		if (match_list_contains(all, work.v[i]))
			nl_add(&res, work.v[i]);
	if (res.n == 0)
		goto out;
	*outp = nl_join(&res);
	r = 0;
 out:
	nl_free(&work);
	nl_free(&res);
	return r;
}
