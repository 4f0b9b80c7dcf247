/*
 * conf_include.c: Include for both configuration files (conf_include.h).
 *
 * A pattern is resolved (a '~' name by the caller's rule, a relative one
 * under the base directory), globbed (or looked up on the caller's
 * record), and each file it names is handed to the caller's reader one
 * level deeper. The messages are OpenSSH's, worded per program.
 */
#include <stdlib.h>
#include <string.h>

#include "conf_include.h"
#include "err.h"
#include "log.h"
#include "mem.h"

/* The pattern of word as it is globbed, or NULL (logged by the hook). */
static char *
resolve(const struct conf_include *inc, const char *word)
{
	char *out;

	if (word[0] == '~' && inc->tilde != NULL)
		return inc->tilde(inc->ctx, word, &out) == 0 ? out : NULL;
	if (word[0] == '/' || word[0] == '~')
		return x_strdup(word);
	return x_asprintf("%s/%s", inc->base, word);
}

static int
files_of(const struct conf_include *inc, const char *pat, glob_t *g,
    char ***pathsp, size_t *np)
{
	int r;

	if (inc->glob != NULL)
		return inc->glob(inc->ctx, pat, g, pathsp, np);
	*pathsp = NULL;
	*np = 0;
	r = glob(pat, inc->tilde == NULL ? GLOB_TILDE : 0, NULL, g);
	if (r == 0) {
		*pathsp = g->gl_pathv;
		*np = g->gl_pathc;
	}
	return r;
}

/*
 * The files of one pattern, read in order. 0, ERR_CONFIG, or 1 when the
 * nesting is too deep (the whole line ends there, in both programs).
 */
static int
include_pattern(const struct conf_include *inc, const struct conf_at *at,
    const char *pat)
{
	int ssh = inc->dialect == CONF_SSH, r, bad = 0;
	char **paths;
	glob_t g;
	size_t i, n;

	memset(&g, 0, sizeof(g));
	r = files_of(inc, pat, &g, &paths, &n);
	if (r == GLOB_NOMATCH) {
		log_debug("%s line %d: include %s matched no files", at->src,
		    at->line, pat);
		globfree(&g);
		return 0;
	}
	if (r != 0) {
		if (ssh)
			log_error("%s line %d: include %s: glob failed",
			    at->src, at->line, pat);
		else
			log_error("%s line %d: include \"%s\" glob failed",
			    at->src, at->line, pat);
		globfree(&g);
		return ERR_CONFIG;
	}
	for (i = 0; i < n && !(ssh && bad); i++) {
		if (ssh)
			log_debug("%s line %d: Including file %s", at->src,
			    at->line, paths[i]);
		(*inc->depth)++;
		if (inc->read(inc->ctx, paths[i]) != 0)
			bad = 1;
		(*inc->depth)--;
	}
	globfree(&g);
	return bad ? ERR_CONFIG : 0;
}

int
conf_include(const struct conf_include *inc, const struct conf_at *at)
{
	int ssh = inc->dialect == CONF_SSH, i, bad = 0;
	char *pat;

	if (at->argc < 2) {
		if (ssh)
			log_error("%s line %d: Include: Missing argument",
			    at->src, at->line);
		else
			log_error("%s line %d: Include missing argument.",
			    at->src, at->line);
		return ERR_CONFIG;
	}
	for (i = 1; i < at->argc && !(ssh && bad); i++) {
		if ((pat = resolve(inc, at->argv[i])) == NULL)
			return ERR_CONFIG;
		if (*inc->depth >= CONF_MAX_DEPTH) {
			if (ssh)
				log_error("%s line %d: Include nested too "
				    "deep", at->src, at->line);
			else
				log_error("%s line %d: Include nested too "
				    "deeply", at->src, at->line);
			x_free(pat);
			return ERR_CONFIG;
		}
		if (include_pattern(inc, at, pat) != 0)
			bad = 1;
		x_free(pat);
	}
	return bad ? ERR_CONFIG : 0;
}
