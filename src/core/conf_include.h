/*
 * conf_include.h: the Include keyword of sshd_config and ssh_config.
 *
 * Each argument is a glob(3) pattern; a relative one is taken under the
 * caller's base directory (sshd: /etc/ssh; ssh: ~/.ssh for the user's
 * file, /etc/ssh for the system one). The files a pattern names are read
 * in glob order, in place, one nesting level deeper; past CONF_MAX_DEPTH
 * levels Include is an error. What differs between the two programs is
 * passed in: how a file is read, a replacement for glob(3) (sshd's
 * configuration tape), how '~' is expanded, and whose wording the
 * messages follow (OpenSSH's sshd and ssh word them differently).
 */
#ifndef MOAT_CONF_INCLUDE_H
#define MOAT_CONF_INCLUDE_H

#include <glob.h>
#include <stddef.h>

#include "conf.h"

struct conf_include {
	/*
	 * CONF_SSHD: every pattern and file is tried and a failure reported
	 * at the end (sshd -t names every bad line); CONF_SSH: the first
	 * failure ends the Include.
	 */
	int dialect;
	const char *base;	/* directory of relative patterns */
	int *depth;		/* the caller's nesting count */
	/*
	 * A name starting with '~' into an allocated path: 0, or an error
	 * (logged). NULL: glob(3) expands it (GLOB_TILDE).
	 */
	int (*tilde)(void *ctx, const char *name, char **outp);
	/*
	 * The files of pattern in *pathsp and *np, in place of glob(3)
	 * (g: a glob_t to fill and later globfree, zeroed by the caller).
	 * Returns what glob(3) does: 0, GLOB_NOMATCH or another error.
	 * NULL: glob(3).
	 */
	int (*glob)(void *ctx, const char *pat, glob_t *g, char ***pathsp,
	    size_t *np);
	/* Read one file in place: 0, or an error (logged). */
	int (*read)(void *ctx, const char *path);
	void *ctx;
};

/*
 * The Include line at (argv[0] "Include"): its patterns, their files.
 * 0, or ERR_CONFIG (logged with at's file and line, in inc's dialect).
 */
int conf_include(const struct conf_include *inc, const struct conf_at *at);

#endif
