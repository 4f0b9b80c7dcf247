/*
 * conf_kw.c: keyword rows (conf_kw.h): lookup, the values kept in one
 * int, and the generic sshd -T / ssh -G printer.
 *
 * What a bad value says differs between sshd_config and ssh_config (each
 * follows its OpenSSH program word for word): the checks and both
 * wordings are here, picked by the caller's dialect.
 */
#include <string.h>
#include <strings.h>

#include "conf_kw.h"
#include "err.h"
#include "log.h"

const struct conf_kw *
conf_kw_find(const struct conf_kw_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->rows[i].name != NULL &&
		    strcasecmp(t->rows[i].name, name) == 0)
			return &t->rows[i];
	return NULL;
}

const struct conf_range conf_range_port = { 1, 65535 };

/* A decimal in the row's range (arg; NULL: 0..INT_MAX). */
static int
int_in_range(const struct conf_kw *kw, const char *word, int *vp,
    const char **whyp)
{
	const struct conf_range *range = kw->arg;
	int v, r;

	if ((r = conf_parse_int_why(word, &v, whyp)) != 0)
		return r;
	if (range != NULL && v < range->min) {
		*whyp = "too small";
		return ERR_CONFIG;
	}
	if (range != NULL && v > range->max) {
		*whyp = "too large";
		return ERR_CONFIG;
	}
	*vp = v;
	return 0;
}

int
conf_kw_int(const struct conf_kw *kw, const char *word, int *vp,
    const char **whyp)
{
	const struct conf_enum *tab;

	*whyp = "invalid";
	switch (kw->type) {
	case CK_FLAG:
	case CK_ENUM:
		tab = kw->arg != NULL ? kw->arg : conf_yesno;
		return conf_enum_lookup(tab, word, vp);
	case CK_INT:
	case CK_PORT:
		return int_in_range(kw, word, vp, whyp);
	case CK_TIME:
		*vp = (int)conf_parse_time(word);
		break;
	case CK_MODE:
		*vp = conf_parse_mode(word);
		break;
	case CK_LOGLEVEL:
		*vp = log_level_from_name(word);
		break;
	case CK_FACILITY:
		*vp = log_facility_from_name(word);
		break;
	default:
		return ERR_INTERNAL;
	}
	return *vp < 0 ? ERR_CONFIG : 0;
}

/*
 * The refusals of OpenSSH 9.2 (Debian's): the same words in both
 * programs but for a number (sshd names the keyword), a mask and a port.
 */
int
conf_kw_bad_value(const struct conf_kw *kw, const struct conf_at *at,
    int dialect, const char *word, const char *why)
{
	const char *src = at->src, *kwd = at->argv[0];
	int line = at->line, ssh = dialect == CONF_SSH;

	switch (kw->type) {
	case CK_INT:
		if (ssh)
			log_error("%s line %d: integer value %s.", src, line,
			    why);
		else
			log_error("%s line %d: %s integer value %s.", src, line,
			    kwd, why);
		break;
	case CK_PORT:
		if (ssh)
			log_error("%s line %d: Bad port '%s'.", src, line, word);
		else
			log_error("%s line %d: Badly formatted port number.",
			    src, line);
		break;
	case CK_MODE:
		if (ssh)
			log_error("%s line %d: Bad mask.", src, line);
		else
			log_error("%s line %d: Invalid %s.", src, line, kwd);
		break;
	case CK_TIME:
		log_error("%s line %d: invalid time value.", src, line);
		break;
	case CK_LOGLEVEL:
		log_error("%s line %d: unsupported log level '%s'", src, line,
		    word);
		break;
	case CK_FACILITY:
		log_error("%s line %d: unsupported log facility '%s'", src,
		    line, word);
		break;
	default:	/* CK_FLAG, CK_ENUM */
		log_error("%s line %d: unsupported option \"%s\".", src, line,
		    word);
		break;
	}
	return ERR_CONFIG;
}

int
conf_kw_value(const struct conf_kw *kw, const struct conf_at *at,
    int dialect, const char *word, int *vp)
{
	const char *why;
	int r;

	if ((r = conf_kw_int(kw, word, vp, &why)) != ERR_CONFIG)
		return r;
	return conf_kw_bad_value(kw, at, dialect, word, why);
}

int
conf_kw_extra_args(const struct conf_kw *kw, const struct conf_at *at,
    int dialect)
{
	log_error("%s line %d: keyword %s extra arguments at end of line",
	    at->src, at->line, dialect == CONF_SSH ? kw->name : at->argv[0]);
	return ERR_CONFIG;
}

int
conf_kw_is_noted(const struct conf_kw *kw)
{
	return kw->type == CK_DEPRECATED || kw->type == CK_UNSUPPORTED ||
	    kw->type == CK_IGNORE;
}

typedef char *conf_str;	/* so that CONF_CFIELD gives char *const * */

static void
dump_list(const struct conf_kw *kw, const void *opts, FILE *f)
{
	char *const *v = CONF_CFIELD(opts, kw->off, conf_str);
	size_t i, n = *CONF_CFIELD(opts, kw->cnt_off, size_t);

	if (kw->dump == CKD_LINES) {
		for (i = 0; i < n; i++)
			fprintf(f, "%s %s\n", kw->name, v[i]);
		return;
	}
	if (n == 0)
		return;
	fprintf(f, "%s", kw->name);
	for (i = 0; i < n; i++)
		fprintf(f, " %s", v[i]);
	fprintf(f, "\n");
}

void
conf_kw_dump_row(const struct conf_kw *kw, const void *opts, FILE *f)
{
	const char *s = NULL;
	int v = 0;

	switch (kw->dump) {
	case CKD_INT: case CKD_YN: case CKD_ENUM: case CKD_LOGLEVEL:
	case CKD_FACILITY: case CKD_OCTAL:
		v = *CONF_CFIELD(opts, kw->off, int);
		break;
	case CKD_STR: case CKD_STROPT:
		s = *CONF_CFIELD(opts, kw->off, char *);
		break;
	default:
		break;
	}
	switch (kw->dump) {
	case CKD_INT:
		fprintf(f, "%s %d\n", kw->name, v);
		return;
	case CKD_OCTAL:
		fprintf(f, "%s 0%o\n", kw->name, (unsigned int)v);
		return;
	case CKD_YN:
		s = v > 0 ? "yes" : "no";
		break;
	case CKD_ENUM:
		s = conf_enum_name(kw->arg, v);
		break;
	case CKD_LOGLEVEL:
		/* OpenSSH prints DEBUG1 by its first name, DEBUG. */
		s = v == LOG_LEVEL_DEBUG1 ? "DEBUG" : log_level_name(v);
		break;
	case CKD_FACILITY:
		s = log_facility_name(v);
		break;
	case CKD_STR:
		if (s == NULL)
			s = "none";
		break;
	case CKD_STROPT:
		if (s == NULL || strcmp(s, "none") == 0)
			return;
		break;
	case CKD_LINES:
	case CKD_LINE:
		dump_list(kw, opts, f);
		return;
	default:
		return;
	}
	fprintf(f, "%s %s\n", kw->name, s);
}

void
conf_kw_dump(const struct conf_kw_table *t,
    const struct conf_dump_step *steps, size_t nsteps, const void *opts,
    FILE *f)
{
	const struct conf_kw *kw;
	size_t i;

	for (i = 0; i < nsteps; i++) {
		if (steps[i].fn != NULL)
			steps[i].fn(opts, f);
		else if ((kw = conf_kw_find(t, steps[i].name)) != NULL)
			conf_kw_dump_row(kw, opts, f);
	}
}
