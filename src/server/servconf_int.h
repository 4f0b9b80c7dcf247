/*
 * servconf_int.h: what the servconf_*.c files share and nothing else
 * includes: the keyword table, the "already set" bitmap and the Match
 * blocks kept for servconf_apply_match().
 */
#ifndef MOAT_SERVCONF_INT_H
#define MOAT_SERVCONF_INT_H

#include <stddef.h>
#include <stdio.h>

#include "conf.h"
#include "conf_alg.h"
#include "conf_kw.h"
#include "servconf.h"

/*
 * The value types of sshd_config rows (struct conf_kw, conf_kw.h): the
 * shared ones under the names this file has always used, then the
 * keywords with rules of their own (CK_CUSTOM + n).
 */
enum sc_type {
	T_FLAG = CK_FLAG, T_INT = CK_INT, T_TIME = CK_TIME, T_STR = CK_STR,
	T_REST = CK_REST, T_STRARR = CK_LIST, T_ENUM = CK_ENUM,
	T_LOGLEVEL = CK_LOGLEVEL, T_FACILITY = CK_FACILITY, T_ALGS = CK_ALGS,
	T_MODE = CK_MODE, T_IGNORE = CK_IGNORE, T_DEPRECATED = CK_DEPRECATED,
	/* servconf_extra.c: checked, logged, kept nowhere */
	T_UNSUPP = CK_UNSUPPORTED,
	T_PORT = CK_PORT,
	T_LISTEN = CK_CUSTOM, T_REKEY, T_STARTUPS, T_SUBSYS, T_SETENV,
	T_AUTHMETHODS, T_USERENV, T_INCLUDE, T_MATCH, T_PERSOURCE,
	/* servconf_extra.c */
	T_FPHASH, T_IPQOS, T_CHANTIMEOUT, T_TIMENONE, T_PKOPTS,
};

/*
 * What a T_UNSUPP keyword's value must look like (its kw->arg). The
 * GSSAPI ones: GSS_ON a flag whose "yes" asks for GSSAPI (refused at
 * start-up), GSS_TUNE a flag that only tunes it (checked, quiet),
 * GSS_KEX the GSSAPI key exchange list (checked, quiet).
 */
enum { SC_UNSUPP_FLAG, SC_UNSUPP_INT, SC_UNSUPP_STR, SC_UNSUPP_GSS_ON,
	SC_UNSUPP_GSS_TUNE, SC_UNSUPP_GSS_KEX };

#define KWF_MATCH	CKF_MATCH	/* allowed inside a Match block */
#define KWF_ACCUM	CKF_ACCUM	/* every line adds to the list */
#define KWF_NONE	CKF_NONE	/* "none" means unset (NULL) */
#define KWF_NOTYET	CKF_NOTYET	/* kept, not acted on: a value that
					   asks for something says
					   "Unsupported option" */

struct sc_line {
	char *text;
	char *source;
	int lineno;
};

struct sc_block {
	char **criteria;	/* argv of the Match line, after "Match" */
	size_t ncriteria;
	struct sc_line *lines;
	size_t nlines;
};

#define SC_SLOTS (sizeof(struct servconf) / sizeof(int) + 1)

struct sc_priv {
	unsigned char set[SC_SLOTS / 8 + 1];	/* by field offset */
	struct sc_block *blocks;
	size_t nblocks;
	int cur_block;		/* index while loading; -1: global */
	int match_mode;		/* parsing a Match block's lines */
	int errors;
	int depth;		/* Include nesting */
	struct conftape *tape;	/* files read, or to read (conftape.h) */
	char *am_source;	/* where AuthenticationMethods was set */
	int am_line;
};

extern const struct conf_kw sc_keywords[];
extern const size_t sc_nkeywords;
extern const struct conf_kw_table sc_table;

const struct conf_kw *sc_kw_find(const char *name);
/* Parse argv[1..] for kw into sc; logs errors itself; returns 0 or ERR_CONFIG. */
int sc_kw_apply(struct servconf *sc, const struct conf_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line);
int sc_is_set(const struct servconf *sc, size_t off);
void sc_mark_set(struct servconf *sc, size_t off);
/* Free or copy the value of one keyword's field(s). */
void sc_kw_free_value(struct servconf *sc, const struct conf_kw *kw);
void sc_kw_copy_value(struct servconf *dst, const struct servconf *src,
    const struct conf_kw *kw);
/* The final algorithm list for a keyword, or NULL if unresolvable. */
int sc_algs_default(const struct conf_kw *kw, char **outp);

/*
 * servconf_persource.c: PerSourcePenalties, PerSourcePenaltyExemptList,
 * PerSourceNetBlockSize and PerSourceMaxStartups (type T_PERSOURCE):
 * parse one line (0 or ERR_CONFIG, logged), defaults, copy, free, sshd -T lines.
 */
int sc_persource_apply(struct servconf *sc, const struct conf_kw *kw,
    char **argv, int argc, const char *src, int line);
void sc_persource_finish(struct servconf *sc);
void sc_persource_copy(struct servconf *dst, const struct servconf *src,
    const struct conf_kw *kw);
void sc_persource_free(struct servconf *sc, const struct conf_kw *kw);
void sc_persource_dump(const struct servconf *sc, FILE *f);

/*
 * servconf_extra.c: the T_UNSUPP ... T_PKOPTS keywords: most arguments
 * a line may have, parse one line (0 or ERR_CONFIG, logged; T_UNSUPP sets
 * nothing), copy, free, defaults, sshd -T lines.
 */
int sc_extra_maxargs(enum sc_type type);
int sc_extra_apply(struct servconf *sc, const struct conf_kw *kw, char **argv,
    int argc, const char *src, int line);
void sc_extra_copy(struct servconf *dst, const struct servconf *src,
    const struct conf_kw *kw);
void sc_extra_free(struct servconf *sc, const struct conf_kw *kw);
void sc_extra_defaults(struct servconf *sc);
/* Whether kw's value in sc asks for something (not no, none, 0). */
int sc_extra_is_on(const struct servconf *sc, const struct conf_kw *kw);
const char *sc_fingerprint_hash_name(int v);
void sc_extra_dump_pkopts(const struct servconf *sc, FILE *f);
void sc_extra_dump_ipqos(const struct servconf *sc, FILE *f);
void sc_extra_dump_channel_timeouts(const struct servconf *sc, FILE *f);

#endif
