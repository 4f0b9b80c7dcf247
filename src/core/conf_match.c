/*
 * conf_match.c: the walk over a Match line's criteria (conf_match.h).
 *
 * sshd and ssh have always read the line a little differently: sshd
 * takes name/argument pairs and "all" only as the one word, with no
 * negation; ssh lets "!" negate a criterion, has criteria without an
 * argument (canonical, final) and accepts "all" as the last word. Both
 * rules are kept, each with its program's messages.
 */
#include <strings.h>

#include "conf_match.h"
#include "err.h"
#include "log.h"

static const struct conf_crit *
find_crit(const struct conf_crit *t, const char *name)
{
	for (; t->name != NULL; t++)
		if (strcasecmp(t->name, name) == 0)
			return t;
	return NULL;
}

static int
bad_condition(const struct conf_at *at)
{
	log_error("%s line %d: Bad Match condition", at->src, at->line);
	return ERR_CONFIG;
}

/* One criterion at argv[*ip] (and its argument): 1, 0 or an error. */
static int
criterion(const struct conf_match *m, const struct conf_at *at, int *ip,
    int so_far)
{
	int ssh = m->dialect == CONF_SSH, i = *ip, r;
	const char *word = at->argv[i], *name, *arg = NULL;
	const struct conf_crit *c;

	name = ssh && *word == '!' ? word + 1 : word;
	if (ssh && strcasecmp(name, "all") == 0) {
		if (at->argc != 1 && i != at->argc - 1) {
			log_error("%s line %d: '%s' cannot be combined with "
			    "other Match attributes", at->src, at->line, word);
			return ERR_CONFIG;
		}
		return 1;
	}
	c = find_crit(m->crits, name);
	if (c == NULL || c->arg) {
		if (i + 1 >= at->argc) {
			if (!ssh)
				return bad_condition(at);
			log_error("%s line %d: Missing Match criteria for %s",
			    at->src, at->line, name);
			return ERR_CONFIG;
		}
		arg = at->argv[++i];
		*ip = i;
	}
	if (c == NULL) {
		log_error("%s line %d: Unsupported Match attribute %s",
		    at->src, at->line, name);
		return ERR_CONFIG;
	}
	r = m->test(m->ctx, c, arg, so_far, at);
	return r == CONF_MATCH_BAD_ARG ? bad_condition(at) : r;
}

int
conf_match(const struct conf_match *m, const struct conf_at *at)
{
	int ssh = m->dialect == CONF_SSH, i, start, r, result = 1;

	if (at->argc < 1) {
		if (!ssh)
			return bad_condition(at);
		log_error("%s line %d: Missing Match criteria", at->src,
		    at->line);
		return ERR_CONFIG;
	}
	if (!ssh && strcasecmp(at->argv[0], "all") == 0)
		return at->argc == 1 ? 1 : ERR_CONFIG;
	if (!ssh && at->argc % 2 != 0)
		return bad_condition(at);
	for (i = 0; i < at->argc; i++) {
		start = i;
		if ((r = criterion(m, at, &i, result)) < 0)
			return r;
		if (ssh && at->argv[start][0] == '!')
			r = !r;
		if (!r)
			result = 0;
	}
	return result;
}
