/*
 * auth_chains.c: AuthenticationMethods progress.
 *
 * The setting is a space-separated set of chains, each a comma-separated
 * list of methods that must all succeed, in order. We keep a copy of
 * every chain as an array of method names and an index of the next one
 * due. A method may be tried when it is due in some chain; when it
 * succeeds, every chain where it was due moves on by one; the user is in
 * when some chain reaches its end. An element may name a device
 * ("keyboard-interactive:pam"); the method's handler then reports the
 * device it used ("keyboard-interactive:pam") when it succeeds.
 */
#include <string.h>
#include <strings.h>

#include "auth.h"
#include "err.h"
#include "mem.h"

#define CHAIN_MAX	64	/* chains, and methods in a chain */

/*
 * Whether chain element e ("method" or "method:sub") is satisfied by q
 * ("method", or "method:sub" for a method used through a device): equal
 * names, an element without a device taking any device, and a query
 * without a device (may the method be tried at all?) taking any device.
 */
static int
step_matches(const char *e, const char *q)
{
	const char *ec = strchr(e, ':'), *qc = strchr(q, ':');
	size_t el = ec ? (size_t)(ec - e) : strlen(e);
	size_t ql = qc ? (size_t)(qc - q) : strlen(q);

	if (el != ql || strncmp(e, q, el) != 0)
		return 0;
	if (ec == NULL || qc == NULL)
		return 1;
	return strcmp(ec, qc) == 0;
}

struct auth_chain {
	char *names[CHAIN_MAX];
	size_t n;
	size_t next;
};

struct auth_chains {
	struct auth_chain c[CHAIN_MAX];
	size_t n;
};

void
auth_chains_free(struct auth_chains *ac)
{
	size_t i, j;

	if (ac == NULL)
		return;
	for (i = 0; i < ac->n; i++)
		for (j = 0; j < ac->c[i].n; j++)
			x_free(ac->c[i].names[j]);
	x_free(ac);
}

int
auth_chains_new(const char *spec, struct auth_chains **outp)
{
	struct auth_chains *ac;
	struct auth_chain *ch;
	char *copy, *sp, *chain, *cp, *name;
	int r = 0;

	*outp = NULL;
	if (spec == NULL || strcasecmp(spec, "any") == 0)
		return 0;
	ac = x_calloc(1, sizeof(*ac));
	copy = x_strdup(spec);
	for (sp = copy; r == 0 && (chain = strsep(&sp, " \t")) != NULL;) {
		if (*chain == '\0')
			continue;
		if (ac->n >= CHAIN_MAX) {
			r = ERR_CONFIG;
			break;
		}
		ch = &ac->c[ac->n++];
		for (cp = chain; (name = strsep(&cp, ",")) != NULL;) {
			if (*name == '\0' || ch->n >= CHAIN_MAX) {
				r = ERR_CONFIG;
				break;
			}
			ch->names[ch->n++] = x_strdup(name);
		}
	}
	x_free(copy);
	if (r == 0 && ac->n == 0)
		r = ERR_CONFIG;
	if (r != 0) {
		auth_chains_free(ac);
		return r;
	}
	*outp = ac;
	return 0;
}

int
auth_chains_allowed(const struct auth_chains *ac, const char *method)
{
	size_t i;

	if (ac == NULL)
		return 1;
	for (i = 0; i < ac->n; i++)
		if (ac->c[i].next < ac->c[i].n &&
		    step_matches(ac->c[i].names[ac->c[i].next], method))
			return 1;
	return 0;
}

int
auth_chains_complete(struct auth_chains *ac, const char *method)
{
	size_t i;
	int done = 0;

	if (ac == NULL)
		return 1;
	for (i = 0; i < ac->n; i++) {
		if (ac->c[i].next < ac->c[i].n &&
		    step_matches(ac->c[i].names[ac->c[i].next], method))
			ac->c[i].next++;
		if (ac->c[i].next == ac->c[i].n)
			done = 1;
	}
	return done;
}
