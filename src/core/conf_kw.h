/*
 * conf_kw.h: the keyword row type of sshd_config and ssh_config.
 *
 * Both files are a table of struct conf_kw, one row per keyword:
 *
 *	{ "maxauthtries", CK_INT, CKF_MATCH, F(max_auth_tries), 0, NULL,
 *	    6, CKD_INT },
 *
 *	name	 the keyword in lower case (looked up case-insensitively)
 *	type	 how its value is read:
 *		 CK_FLAG	yes/no into an int (arg: another word table,
 *				e.g. conf_truefalse; NULL: conf_yesno)
 *		 CK_ENUM	a word of the table arg into an int
 *		 CK_INT		a decimal into an int, in the range arg
 *				points to (struct conf_range; NULL:
 *				0..INT_MAX)
 *		 CK_PORT	the same, refused in each program's port
 *				words ("Bad port '0'.")
 *		 CK_TIME	"1h30m" into an int of seconds
 *		 CK_MODE	an octal mask 0..0777 into an int
 *		 CK_LOGLEVEL, CK_FACILITY  a log level / syslog facility
 *		 CK_STR		one word into a char * (a path, a name)
 *		 CK_REST	the rest of the line as written into a char *
 *		 CK_LIST	words into a char *[] with its count at cnt_off
 *		 CK_ALGS	an algorithm list (arg: struct conf_alg) into
 *				a char *
 *		 CK_DEPRECATED	gone from OpenSSH: accepted, said so
 *		 CK_UNSUPPORTED	OpenSSH has it, we do not: accepted, said so
 *		 CK_IGNORE	accepted without a word (a debug note)
 *		 CK_CUSTOM + n	the file's own handler n, for keywords with
 *				rules of their own (each file numbers them)
 *	flags	 CKF_MATCH	may appear in a Match (sshd) block
 *		 CKF_ACCUM	every line appends; without it the first
 *				value wins and later lines are only checked
 *		 CKF_NONE	"none" stores NULL
 *		 CKF_NOTYET	stored, not acted on (the file says so)
 *	off	 offsetof the field in the file's options struct
 *	cnt_off	 offsetof the count of a list, or of a pair's second field;
 *		 0 when there is none
 *	arg	 the type's datum: word table, algorithm row, an integer's
 *		 range, handler datum
 *	def	 an int field's default (0 when the file sets it elsewhere)
 *	dump	 how sshd -T / ssh -G print it, when the generic printer
 *		 does (conf_kw_dump()):
 *		 CKD_NO		not by the generic printer (a function of
 *				the file prints it, or nothing does)
 *		 CKD_INT	"name %d"
 *		 CKD_YN		"name yes" if the int is > 0, else "name no"
 *		 CKD_ENUM	the first word of arg for the int
 *		 CKD_STR	the string, "none" when NULL
 *		 CKD_STROPT	the string; no line when NULL or "none"
 *		 CKD_LOGLEVEL, CKD_FACILITY  the level's / facility's name
 *		 CKD_LINES	one "name entry" line per list entry
 *		 CKD_LINE	"name e1 e2 ..." (no line when empty)
 *		 CKD_OCTAL	"name 0%o"
 *
 * Aliases (PubkeyAcceptedKeyTypes...) are rows of their own naming the
 * same field; the printer looks names up, so it finds the first row.
 */
#ifndef MOAT_CONF_KW_H
#define MOAT_CONF_KW_H

#include <stddef.h>
#include <stdio.h>

#include "conf.h"

enum conf_kw_type {
	CK_FLAG, CK_ENUM, CK_INT, CK_TIME, CK_MODE, CK_LOGLEVEL,
	CK_FACILITY, CK_STR, CK_REST, CK_LIST, CK_ALGS, CK_PORT,
	CK_DEPRECATED, CK_UNSUPPORTED, CK_IGNORE,
	CK_CUSTOM = 32		/* + the file's handler number */
};

#define CKF_MATCH	0x01
#define CKF_ACCUM	0x02
#define CKF_NONE	0x04
#define CKF_NOTYET	0x08

enum conf_kw_dump {
	CKD_NO, CKD_INT, CKD_YN, CKD_ENUM, CKD_STR, CKD_STROPT,
	CKD_LOGLEVEL, CKD_FACILITY, CKD_LINES, CKD_LINE, CKD_OCTAL
};

struct conf_kw {
	const char *name;
	int type;		/* enum conf_kw_type, or CK_CUSTOM + n */
	int flags;		/* CKF_* */
	size_t off;
	size_t cnt_off;
	const void *arg;
	int def;
	int dump;		/* enum conf_kw_dump */
};

/* The values a CK_INT or CK_PORT row takes (its arg). */
struct conf_range {
	int min, max;
};

extern const struct conf_range conf_range_port;	/* 1..65535 */

/* A keyword table and its length. */
struct conf_kw_table {
	const struct conf_kw *rows;
	size_t n;
};

/*
 * One step of a -T/-G listing, in the order it prints: a keyword, printed
 * as its row says, or a function for the lines of its own.
 */
struct conf_dump_step {
	const char *name;
	void (*fn)(const void *opts, FILE *f);
};

#define CONF_FIELD(opts, off, T) ((T *)(void *)((char *)(opts) + (off)))
#define CONF_CFIELD(opts, off, T) \
	((const T *)(const void *)((const char *)(opts) + (off)))

/* The row named name (any case), or NULL. */
const struct conf_kw *conf_kw_find(const struct conf_kw_table *t,
    const char *name);

/*
 * The value of word for a row kept in one int (CK_FLAG ... CK_FACILITY,
 * CK_PORT). 0 and *vp, or ERR_CONFIG; for CK_INT and CK_PORT, *whyp
 * says "invalid", "too small" or "too large" (against the row's range).
 * ERR_INTERNAL for any other type.
 */
int conf_kw_int(const struct conf_kw *kw, const char *word, int *vp,
    const char **whyp);

/*
 * The refusal of word as the value of row kw on line at, logged in the
 * dialect's (OpenSSH's sshd or ssh) wording for the row's type; why is
 * conf_kw_int()'s word for an integer. Returns ERR_CONFIG.
 */
int conf_kw_bad_value(const struct conf_kw *kw, const struct conf_at *at,
    int dialect, const char *word, const char *why);
/* conf_kw_int(), and conf_kw_bad_value() when it refuses word. */
int conf_kw_value(const struct conf_kw *kw, const struct conf_at *at,
    int dialect, const char *word, int *vp);
/*
 * "keyword NAME extra arguments at end of line" for kw on line at (sshd
 * names the keyword as written, ssh in lower case). Returns ERR_CONFIG.
 */
int conf_kw_extra_args(const struct conf_kw *kw, const struct conf_at *at,
    int dialect);

/* Whether a row's type is one of the accepted-and-noted kinds. */
int conf_kw_is_noted(const struct conf_kw *kw);

/* Print one row's value as its dump kind says (nothing for CKD_NO). */
void conf_kw_dump_row(const struct conf_kw *kw, const void *opts, FILE *f);
/*
 * Print a listing: each step's function, or the row it names printed as
 * the row says. A name not in t is a programming error: nothing printed.
 */
void conf_kw_dump(const struct conf_kw_table *t,
    const struct conf_dump_step *steps, size_t nsteps, const void *opts,
    FILE *f);

#endif
