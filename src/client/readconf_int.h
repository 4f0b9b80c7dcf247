/*
 * readconf_int.h: what the readconf_*.c files share and nothing else
 * includes: the keyword table, the private part of struct client_opts
 * and the value parsers.
 */
#ifndef MOAT_READCONF_INT_H
#define MOAT_READCONF_INT_H

#include <stddef.h>

#include "client.h"
#include "conf.h"
#include "conf_alg.h"

enum rc_type {
	RT_FLAG, RT_INT, RT_TIME, RT_PORT, RT_STR, RT_REST, RT_ACCUM,
	RT_FILES, RT_ALGS, RT_ENUM, RT_LOGLEVEL, RT_REKEY, RT_ESCAPE,
	RT_IDENTITY, RT_SETENV, RT_AGENT, RT_MASK, RT_FWDAGENT, RT_ADDKEYS,
	RT_CANON, RT_FPHASH, RT_FACILITY, RT_IPQOS, RT_PERMITOPEN,
	RT_IGNORE,
};

struct rc_kw {
	const char *name;
	enum rc_type type;
	size_t off;		/* field in struct client_opts */
	size_t cnt_off;		/* its count, for arrays */
	const void *arg;	/* enum table; algorithm row */
	int def;		/* an int field's default (readconf_finish) */
};

struct rc_priv {
	char *local_user;
	char *home;
	int active;		/* lines of the current Host/Match apply */
	int depth;		/* Include nesting */
	int errors;
	/* IdentityFile and CertificateFile as written, for -G. */
	char *ident_written[CO_MAX_LIST];
	size_t nident_written;
	int finished;
	char *match_host;	/* the canonical name, on the second pass */
	int canonical_pass;
};

extern const struct rc_kw rc_keywords[];

const struct rc_kw *rc_kw_find(const char *name);
/* 1 if name is an OpenSSH keyword we accept and ignore. */
int rc_kw_ignored(const char *name);
/*
 * The value (argv[1..]) of ignored keyword name (lower case) checked as
 * Debian's ssh checks it (the GSSAPI ones): 0, or ERR_CONFIG (logged).
 */
int rc_kw_ignored_check(const char *name, char *const *argv, int argc,
    const char *src, int line);
/*
 * Apply argv[1..argc-1] (rest: the raw text after the keyword) for kw.
 * First value wins: a set field is left alone. Returns 0 or ERR_CONFIG
 * after logging "source line N: ...".
 */
int rc_kw_apply(struct client_opts *o, const struct rc_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line);
/* An IPQoS value as -G shows it: a name, "none" or 0xNN (in buf). */
/* Algorithm list resolution for keyword name; caller frees *outp. */
int rc_algs_resolve(const char *kwname, const char *spec, char **outp);

extern const struct conf_enum rc_enum_shk[], rc_enum_tty[], rc_enum_af[],
    rc_enum_ctlm[], rc_enum_uhk[], rc_enum_session[], rc_enum_canon[];

#endif
