/*
 * conf.h: what sshd_config and ssh_config have in common: the line
 * tokenizer with OpenSSH's quoting rules, the value parsers (yes/no and
 * other word tables, integers, sizes, times, file modes) and Include's
 * depth limit.
 *
 * The two readers (src/server/servconf*.c, src/client/readconf*.c) keep
 * their own keyword tables and apply hooks (their fields differ); what
 * they parse, they parse here, so a time or a quoted word means the same
 * in both files.
 */
#ifndef MOAT_CONF_H
#define MOAT_CONF_H

#include <stddef.h>
#include <stdint.h>

#define CONF_MAX_ARGS	256	/* words on a line, keyword included */
#define CONF_MAX_DEPTH	16	/* Include nesting */

/*
 * Whose wording a message follows. OpenSSH's sshd and ssh word the same
 * refusal differently ("Include nested too deeply" against "too deep");
 * the shared code says each the way its program does.
 */
enum conf_dialect { CONF_SSHD, CONF_SSH };

/*
 * Dialect of a line. sshd_config and ssh_config have always split lines
 * a little differently; each reader names its own rules.
 */
#define CONF_LEX_ESCAPES	0x01	/* \" and \\ inside quotes */
#define CONF_LEX_HASH_ARG1	0x02	/* argument 1 may start with # */
#define CONF_LEX_MANY_EQ	0x04	/* any run of '=' separates */
#define CONF_LEX_TRUNCATE	0x08	/* too many words: drop the rest */
#define CONF_LEX_KW_QUOTES	0x10	/* quotes in the keyword too */

#define CONF_LEX_SSHD	(CONF_LEX_ESCAPES | CONF_LEX_TRUNCATE)
#define CONF_LEX_SSH	(CONF_LEX_HASH_ARG1 | CONF_LEX_MANY_EQ | \
			 CONF_LEX_KW_QUOTES)

/* One split line: words point into the caller's copy of the text. */
struct conf_line {
	char *argv[CONF_MAX_ARGS];
	int argc;
	char *rest;	/* raw text after the keyword, trailing blanks cut;
			   allocated, NULL when there is no keyword */
};

/*
 * Split text into l->argv (keyword first), unquoting into buf (a copy
 * of text the caller owns for as long as l is used). 0, or ERR_CONFIG
 * for an unbalanced quote (or too many words without TRUNCATE). Free
 * l->rest with conf_line_clear().
 */
int conf_split(const char *text, char *buf, int flags, struct conf_line *l);
void conf_line_clear(struct conf_line *l);

/* A line being applied: its words, raw rest and where it was read. */
struct conf_at {
	char **argv;
	int argc;
	const char *rest;
	const char *src;
	int line;
};

/* A word of a value table: yes/no, enum names... */
struct conf_enum {
	const char *name;
	int value;
};

extern const struct conf_enum conf_yesno[];		/* yes, no */
extern const struct conf_enum conf_truefalse[];	/* and true, false */

/* Case-insensitive lookup; 0 and *vp, or ERR_CONFIG. */
int conf_enum_lookup(const struct conf_enum *tab, const char *s, int *vp);
/* The first name of value, or "unknown". */
const char *conf_enum_name(const struct conf_enum *tab, int value);

/* Decimal 0..INT_MAX, nothing else; 0 or ERR_CONFIG. */
int conf_parse_int(const char *s, int *vp);
/*
 * Decimal as OpenSSH's integer keywords read it; on failure *whatp says
 * "invalid", "too small" or "too large". 0 or ERR_CONFIG.
 */
int conf_parse_int_why(const char *s, int *vp, const char **whatp);
/* "1h30m", "90", "2w": seconds 0..INT_MAX, or -1. */
long conf_parse_time(const char *s);
/* "1G", "512K", "100": bytes; 0 or ERR_CONFIG. */
int conf_parse_size(const char *s, uint64_t *vp);
/* An octal file mode mask 0..0777 (text after the digits ignored); -1. */
int conf_parse_mode(const char *s);
/*
 * One word of IPQoS: a DSCP/ToS name, "none" (-1) or a number 0..255 in
 * C base; 0 or ERR_CONFIG. conf_ipqos_name() prints a value back as
 * sshd -T and ssh -G do: its first name, "none", or 0xNN in buf.
 */
int conf_parse_ipqos(const char *s, int *vp);
const char *conf_ipqos_name(int v, char buf[8]);

#endif
