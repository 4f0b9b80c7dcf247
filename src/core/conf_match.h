/*
 * conf_match.h: the criteria of a Match line, walked the same way for
 * sshd_config and ssh_config.
 *
 * A Match line is a list of criteria, each a name from the program's
 * table and, for most, an argument (a pattern list, an address list, a
 * command). The line matches when every criterion does. The walk here
 * does what both programs share: "all" (alone, or for ssh last), "!" in
 * front of a name (ssh only), a missing argument, an unknown name, and
 * the messages for those in each program's wording. What a criterion
 * means is the program's test function.
 */
#ifndef MOAT_CONF_MATCH_H
#define MOAT_CONF_MATCH_H

#include "conf.h"

/* One criterion a program knows. */
struct conf_crit {
	const char *name;	/* looked up in any case */
	int id;			/* the program's own number */
	int arg;		/* 1: takes an argument */
};

/*
 * A test function's answer for an argument that is not well-formed: the
 * walk logs "Bad Match condition" (sshd's wording) and fails.
 */
#define CONF_MATCH_BAD_ARG	2

struct conf_match {
	int dialect;			/* CONF_SSHD or CONF_SSH */
	const struct conf_crit *crits;	/* ends with a NULL name */
	/*
	 * Whether criterion c holds for arg (NULL for one without an
	 * argument): 1, 0, CONF_MATCH_BAD_ARG or another error (logged).
	 * so_far: every criterion before it held (ssh runs "exec" only
	 * then). at: where the line was read (src NULL when not known).
	 */
	int (*test)(void *ctx, const struct conf_crit *c, const char *arg,
	    int so_far, const struct conf_at *at);
	void *ctx;
};

/*
 * Walk the criteria at->argv[0..argc-1] (the words after "Match"): 1 if
 * every one holds, 0 if not, or an error (ERR_CONFIG when the line is
 * malformed, logged with at's file and line).
 */
int conf_match(const struct conf_match *m, const struct conf_at *at);

#endif
