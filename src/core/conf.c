/*
 * conf.c: the tokenizer and value parsers both configuration readers
 * use (conf.h).
 *
 * A line is a keyword and its arguments. Blanks separate words; a word
 * may hold "double" or 'single' quoted stretches, which group blanks
 * and lose their quotes; a word that starts with '#' ends the line. The
 * keyword ends at a blank or '=', and one '=' between keyword and value
 * is a separator, so "Port=22" and "Port = 22" are "Port 22". The raw
 * text after that separator is kept too, for values taken whole
 * (ProxyCommand, ForceCommand, Subsystem's command line).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "err.h"
#include "mem.h"

#define BLANKS	" \t\r\n"

const struct conf_enum conf_yesno[] = {
	{ "yes", 1 }, { "no", 0 }, { NULL, 0 } };
const struct conf_enum conf_truefalse[] = {
	{ "yes", 1 }, { "true", 1 }, { "no", 0 }, { "false", 0 },
	{ NULL, 0 } };

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/*
 * One word from *sp into *dp (unquoting in place: the write pointer
 * never passes the read pointer). stop_eq: '=' ends it too. 0, or
 * ERR_CONFIG on an unbalanced quote.
 */
static int
read_word(char **sp, char **dp, int stop_eq, int quotes, int escapes)
{
	char *s = *sp, *d = *dp, q;

	while (*s != '\0' && !is_blank(*s) && !(stop_eq && *s == '=')) {
		if (!quotes || (*s != '"' && *s != '\'')) {
			*d++ = *s++;
			continue;
		}
		q = *s++;
		while (*s != '\0' && *s != q) {
			if (escapes && *s == '\\' &&
			    (s[1] == q || s[1] == '\\'))
				s++;
			*d++ = *s++;
		}
		if (*s != q)
			return ERR_CONFIG;
		s++;
	}
	*sp = s;
	*dp = d;
	return 0;
}

/* After the keyword: the separator, blanks with at most one '='. */
static char *
skip_separator(char *s, int ended_by_eq, int many)
{
	if (many) {
		while (is_blank(*s) || *s == '=')
			s++;
		return s;
	}
	s += strspn(s, BLANKS);
	if (!ended_by_eq && *s == '=') {
		s++;
		s += strspn(s, BLANKS);
	}
	return s;
}

static char *
cut_rest(const char *text, size_t off)
{
	size_t n = strlen(text + off);

	while (n > 0 && isspace((unsigned char)text[off + n - 1]))
		n--;
	return x_strndup(text + off, n);
}

int
conf_split(const char *text, char *buf, int flags, struct conf_line *l)
{
	char *s = buf, *d;
	int eq, r;

	memset(l, 0, sizeof(*l));
	s += strspn(s, BLANKS);
	if (*s == '\0' || *s == '#')
		return 0;
	d = l->argv[l->argc++] = s;
	if ((r = read_word(&s, &d, 1, flags & CONF_LEX_KW_QUOTES, 0)) != 0)
		return r;
	eq = *s == '=';
	if (*s != '\0')
		s++;
	*d = '\0';
	s = skip_separator(s, eq, flags & CONF_LEX_MANY_EQ);
	l->rest = cut_rest(text, (size_t)(s - buf));
	while (*s != '\0') {
		if (*s == '#' &&
		    !(l->argc == 1 && (flags & CONF_LEX_HASH_ARG1)))
			break;
		if (l->argc >= CONF_MAX_ARGS - 1) {
			if (flags & CONF_LEX_TRUNCATE)
				break;
			return ERR_CONFIG;
		}
		d = l->argv[l->argc++] = s;
		if ((r = read_word(&s, &d, 0, 1,
		    flags & CONF_LEX_ESCAPES)) != 0)
			return r;
		if (*s != '\0')
			s++;
		*d = '\0';
		s += strspn(s, BLANKS);
	}
	l->argv[l->argc] = NULL;
	return 0;
}

void
conf_line_clear(struct conf_line *l)
{
	x_free(l->rest);
	l->rest = NULL;
	l->argc = 0;
}

int
conf_enum_lookup(const struct conf_enum *tab, const char *s, int *vp)
{
	for (; tab->name != NULL; tab++)
		if (strcasecmp(tab->name, s) == 0) {
			*vp = tab->value;
			return 0;
		}
	return ERR_CONFIG;
}

const char *
conf_enum_name(const struct conf_enum *tab, int value)
{
	for (; tab->name != NULL; tab++)
		if (tab->value == value)
			return tab->name;
	return "unknown";
}

int
conf_parse_int(const char *s, int *vp)
{
	char *ep;
	long v;

	errno = 0;
	v = strtol(s, &ep, 10);
	if (*s == '\0' || *ep != '\0' || errno != 0 || v < 0 || v > INT_MAX)
		return ERR_CONFIG;
	*vp = (int)v;
	return 0;
}

int
conf_parse_int_why(const char *s, int *vp, const char **whatp)
{
	char *ep;
	long long v;

	errno = 0;
	v = strtoll(s, &ep, 10);
	if (*s == '\0' || *ep != '\0') {
		*whatp = "invalid";
		return ERR_CONFIG;
	}
	if ((errno == ERANGE && v == LLONG_MIN) || v < 0) {
		*whatp = "too small";
		return ERR_CONFIG;
	}
	if (errno == ERANGE || v > INT_MAX) {
		*whatp = "too large";
		return ERR_CONFIG;
	}
	*vp = (int)v;
	return 0;
}

long
conf_parse_time(const char *s)
{
	long total = 0, v, mult;
	char *ep;

	if (*s == '\0')
		return -1;
	while (*s != '\0') {
		if (!isdigit((unsigned char)*s))
			return -1;
		errno = 0;
		v = strtol(s, &ep, 10);
		if (errno != 0 || v < 0)
			return -1;
		switch (tolower((unsigned char)*ep)) {
		case '\0': mult = 1; ep--; break;
		case 's': mult = 1; break;
		case 'm': mult = 60; break;
		case 'h': mult = 3600; break;
		case 'd': mult = 86400; break;
		case 'w': mult = 604800; break;
		default: return -1;
		}
		if (v > (INT_MAX - total) / mult)
			return -1;
		total += v * mult;
		s = ep + 1;
	}
	return total;
}

int
conf_parse_size(const char *s, uint64_t *vp)
{
	char *ep;
	unsigned long long v;
	uint64_t mult = 1;

	if (!isdigit((unsigned char)*s))
		return ERR_CONFIG;
	errno = 0;
	v = strtoull(s, &ep, 10);
	if (errno != 0)
		return ERR_CONFIG;
	switch (tolower((unsigned char)*ep)) {
	case '\0': break;
	case 'k': mult = 1ULL << 10; ep++; break;
	case 'm': mult = 1ULL << 20; ep++; break;
	case 'g': mult = 1ULL << 30; ep++; break;
	default: return ERR_CONFIG;
	}
	if (*ep != '\0' || (v != 0 && UINT64_MAX / mult < v))
		return ERR_CONFIG;
	*vp = (uint64_t)v * mult;
	return 0;
}

int
conf_parse_mode(const char *s)
{
	int v = 0;

	if (*s < '0' || *s > '7')
		return -1;
	/* As OpenSSH (strtol base 8): text after the digits is ignored. */
	for (; *s >= '0' && *s <= '7'; s++) {
		v = v * 8 + (*s - '0');
		if (v > 0777)
			return -1;
	}
	return v;
}

/*
 * IP_TOS values by name (RFC 2474 class selectors, RFC 2597 assured
 * forwarding, RFC 3246 expedited forwarding, RFC 8622 lower effort,
 * RFC 1349 ToS bits). A value prints as its first name, so the order
 * decides how 0x04 prints ("le", not "reliability").
 */
static const struct conf_enum ipqos_names[] = {
	{ "af11", 0x28 }, { "af12", 0x30 }, { "af13", 0x38 },
	{ "af21", 0x48 }, { "af22", 0x50 }, { "af23", 0x58 },
	{ "af31", 0x68 }, { "af32", 0x70 }, { "af33", 0x78 },
	{ "af41", 0x88 }, { "af42", 0x90 }, { "af43", 0x98 },
	{ "cs0", 0x00 }, { "cs1", 0x20 }, { "cs2", 0x40 }, { "cs3", 0x60 },
	{ "cs4", 0x80 }, { "cs5", 0xa0 }, { "cs6", 0xc0 }, { "cs7", 0xe0 },
	{ "ef", 0xb8 }, { "le", 0x04 }, { "lowdelay", 0x10 },
	{ "throughput", 0x08 }, { "reliability", 0x04 }, { NULL, 0 } };

int
conf_parse_ipqos(const char *s, int *vp)
{
	char *ep;
	long v;

	if (strcasecmp(s, "none") == 0) {
		*vp = -1;
		return 0;
	}
	if (conf_enum_lookup(ipqos_names, s, vp) == 0)
		return 0;
	errno = 0;
	v = strtol(s, &ep, 0);
	if (*s == '\0' || *ep != '\0' || errno != 0 || v < 0 || v > 255)
		return ERR_CONFIG;
	*vp = (int)v;
	return 0;
}

const char *
conf_ipqos_name(int v, char buf[8])
{
	const struct conf_enum *e;

	if (v < 0)
		return "none";
	for (e = ipqos_names; e->name != NULL; e++)
		if (e->value == v)
			return e->name;
	snprintf(buf, 8, "0x%02x", (unsigned int)v & 0xff);
	return buf;
}
