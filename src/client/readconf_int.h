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
#include "conf_kw.h"

/*
 * The value types of ssh_config rows (struct conf_kw, conf_kw.h) beyond
 * the shared CK_* ones: keywords with rules of their own.
 */
enum rc_type {
	RT_FILES = CK_CUSTOM, RT_REKEY, RT_ESCAPE, RT_IDENTITY, RT_SETENV,
	RT_AGENT, RT_FWDAGENT, RT_ADDKEYS, RT_CANON, RT_FPHASH, RT_IPQOS,
	RT_PERMITOPEN, RT_CHANTO, RT_OBSCURE, RT_TUNDEV,
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
	char *cert_written[CO_MAX_LIST];
	size_t ncert_written;
	int pref_auth_default;	/* not set: ssh -G leaves it out */
	int finished;
	char *match_host;	/* the canonical name, on the second pass */
	int canonical_pass;
	int want_final;		/* a "Match final" was read */
};

extern const struct conf_kw rc_keywords[];	/* ends with a NULL name */
extern const struct conf_kw_table rc_table;

/* The row of name, the keywords we accept and ignore included. */
const struct conf_kw *rc_kw_find(const char *name);
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
int rc_arr_add(char **arr, size_t *n, const char *v);
int rc_chanto_value(struct client_opts *o, const struct conf_kw *kw,
    const struct conf_at *at);
int rc_obscure_value(const struct conf_kw *kw, const struct conf_at *at,
    int *vp);
int rc_permitopen_value(struct client_opts *o, const struct conf_at *at);
int rc_kw_apply(struct client_opts *o, const struct conf_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line);
/* Algorithm list resolution for keyword name; caller frees *outp. */
int rc_algs_resolve(const char *kwname, const char *spec, char **outp);

extern const struct conf_enum rc_enum_shk[], rc_enum_tty[], rc_enum_af[],
    rc_enum_ctlm[], rc_enum_uhk[], rc_enum_session[], rc_enum_canon[],
    rc_enum_tunnel[];

#endif
