/*
 * servconf_persource.c: the listener's per-source keywords.
 *
 * PerSourcePenalties takes "yes", "no" or any number of NAME:VALUE
 * words (durations with fractions of a second, source-table sizes,
 * overflow modes); each value is first-value-wins on its own, and
 * setting one turns penalties on, as in OpenSSH 9.8+.
 * PerSourcePenaltyExemptList is an address/CIDR/wildcard list checked
 * when read. PerSourceNetBlockSize is "V4" or "V4:V6" prefix lengths;
 * PerSourceMaxStartups a count or "none". sshd -T prints them in
 * OpenSSH's spelling (durations as %f seconds).
 *
 * "Already set" is recorded per field in the servconf bitmap, keyed by
 * the field's offset, like every other keyword.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "servconf_int.h"

#define OFF(m)	offsetof(struct servconf, m)
#define PEN(m)	offsetof(struct servconf, penalties.m)

/* The NAME: words that take a duration. */
static const struct {
	const char *name;
	size_t off;
} pen_times[] = {
	{ "crash:", PEN(crash) },
	{ "authfail:", PEN(authfail) },
	{ "invaliduser:", PEN(invaliduser) },
	{ "noauth:", PEN(noauth) },
	{ "grace-exceeded:", PEN(grace_exceeded) },
	{ "refuseconnection:", PEN(refuseconnection) },
	{ "max:", PEN(max) },
	{ "min:", PEN(min) },
};

/* The words that take a count or a mode. */
static const struct {
	const char *word;	/* whole word, or prefix when value < 0 */
	size_t off;
	int value;		/* -1: a count follows the prefix */
} pen_ints[] = {
	{ "max-sources4:", PEN(max_sources4), -1 },
	{ "max-sources6:", PEN(max_sources6), -1 },
	{ "overflow:deny-all", PEN(overflow_deny_all4), 1 },
	{ "overflow:permissive", PEN(overflow_deny_all4), 0 },
	{ "overflow6:deny-all", PEN(overflow_deny_all6), 1 },
	{ "overflow6:permissive", PEN(overflow_deny_all6), 0 },
};

#define FIELD(sc, off, T) ((T *)(void *)((char *)(sc) + (off)))

/*
 * A duration: runs of digits (a decimal fraction allowed for seconds
 * only) each followed by s, m, h, d or w (none: seconds; seconds at most
 * once). 0 and *dp, or ERR_CONFIG if malformed.
 */
static int
parse_duration(const char *s, double *dp)
{
	double total = 0, v, mult;
	int seen_seconds = 0, dot;
	const char *start;
	char num[64];
	size_t n;

	if (*s == '\0')
		return ERR_CONFIG;
	while (*s != '\0') {
		start = s;
		dot = 0;
		for (; isdigit((unsigned char)*s) || *s == '.'; s++)
			if (*s == '.' && dot++)
				return ERR_CONFIG;
		n = (size_t)(s - start);
		if (n == 0 || n >= sizeof(num) || (n == 1 && dot))
			return ERR_CONFIG;
		memcpy(num, start, n);
		num[n] = '\0';
		errno = 0;
		v = strtod(num, NULL);
		if (errno != 0)
			return ERR_CONFIG;
		switch (*s) {
		case '\0': case 's': case 'S':
			if (seen_seconds++)
				return ERR_CONFIG;
			mult = 1;
			break;
		case 'm': case 'M': mult = 60; break;
		case 'h': case 'H': mult = 3600; break;
		case 'd': case 'D': mult = 86400; break;
		case 'w': case 'W': mult = 604800; break;
		default:
			return ERR_CONFIG;
		}
		/* A fraction: seconds only, and a digit must end it. */
		if (dot && (mult > 1 || !isdigit((unsigned char)s[-1])))
			return ERR_CONFIG;
		total += v * mult;
		if (*s != '\0')
			s++;
	}
	*dp = total;
	return 0;
}

/* A non-negative int, as OpenSSH's atoi_err(); NULL or why not. */
static const char *
parse_count(const char *s, int *vp)
{
	const char *why = NULL;

	if (*s == '\0')
		return "missing";
	return conf_parse_int_why(s, vp, &why) == 0 ? NULL : why;
}

/*
 * A value given turns penalties on, even after "no" (and a later "no"
 * is then ignored): OpenSSH's behaviour.
 */
static void
enable(struct servconf *sc)
{
	sc->penalties.enabled = 1;
	sc_mark_set(sc, PEN(enabled));
}

/* One NAME:VALUE word of PerSourcePenalties; 0 or ERR_CONFIG (logged). */
static int
penalty_word(struct servconf *sc, const char *arg, const char *kw,
    const char *src, int line)
{
	const char *why;
	size_t i, n;
	double d;
	int v;

	for (i = 0; i < sizeof(pen_times) / sizeof(pen_times[0]); i++) {
		n = strlen(pen_times[i].name);
		if (strncmp(arg, pen_times[i].name, n) != 0)
			continue;
		if (parse_duration(arg + n, &d) != 0) {
			log_error("%s line %d: invalid %s time value.", src,
			    line, kw);
			return ERR_CONFIG;
		}
		if (!sc_is_set(sc, pen_times[i].off)) {
			*FIELD(sc, pen_times[i].off, double) = d;
			sc_mark_set(sc, pen_times[i].off);
			enable(sc);
		}
		return 0;
	}
	for (i = 0; i < sizeof(pen_ints) / sizeof(pen_ints[0]); i++) {
		n = strlen(pen_ints[i].word);
		if (pen_ints[i].value >= 0 ? strcmp(arg, pen_ints[i].word) != 0 :
		    strncmp(arg, pen_ints[i].word, n) != 0)
			continue;
		v = pen_ints[i].value;
		if (v < 0 && (why = parse_count(arg + n, &v)) != NULL) {
			log_error("%s line %d: %s value %s.", src, line, kw,
			    why);
			return ERR_CONFIG;
		}
		if (!sc_is_set(sc, pen_ints[i].off)) {
			*FIELD(sc, pen_ints[i].off, int) = v;
			sc_mark_set(sc, pen_ints[i].off);
			enable(sc);
		}
		return 0;
	}
	log_error("%s line %d: unsupported %s keyword %s", src, line, kw, arg);
	return ERR_CONFIG;
}

static int
penalties_line(struct servconf *sc, char **argv, int argc, const char *src,
    int line)
{
	int i, yes;

	for (i = 1; i < argc; i++) {
		yes = strcasecmp(argv[i], "yes") == 0;
		if (yes || strcasecmp(argv[i], "no") == 0) {
			/* Alone, or at least last, as OpenSSH checks it. */
			if (i < argc - 1) {
				log_error("%s line %d: keyword %s \"%s\" "
				    "argument must appear alone.", src, line,
				    argv[0], argv[i]);
				return ERR_CONFIG;
			}
			if (!sc_is_set(sc, PEN(enabled))) {
				sc->penalties.enabled = yes;
				sc_mark_set(sc, PEN(enabled));
			}
			continue;
		}
		if (penalty_word(sc, argv[i], argv[0], src, line) != 0)
			return ERR_CONFIG;
	}
	return 0;
}

/* "V4" or "V4:V6" (text after them ignored, as OpenSSH's sscanf). */
static int
netblock_line(struct servconf *sc, char **argv, const char *src, int line)
{
	int v4, v6, n;

	n = sscanf(argv[1], "%d:%d", &v4, &v6);
	if (n < 1 || v4 < 0 || v4 > 32 || (n == 2 && (v6 < 0 || v6 > 128))) {
		log_error("%s line %d: Invalid %s spec.", src, line, argv[0]);
		return ERR_CONFIG;
	}
	if (!sc_is_set(sc, OFF(per_source_masklen4))) {
		sc->per_source_masklen4 = v4;
		sc_mark_set(sc, OFF(per_source_masklen4));
		if (n == 2) {
			sc->per_source_masklen6 = v6;
			sc_mark_set(sc, OFF(per_source_masklen6));
		}
	}
	return 0;
}

int
sc_persource_apply(struct servconf *sc, const struct conf_kw *kw, char **argv,
    int argc, const char *src, int line)
{
	struct conf_at at;
	const char *why;
	int v;

	if (kw->off == PEN(enabled))
		return penalties_line(sc, argv, argc, src, line);
	if (argc > 2) {
		at = (struct conf_at){ argv, argc, NULL, src, line };
		return conf_kw_extra_args(kw, &at, CONF_SSHD);
	}
	if (kw->off == OFF(per_source_masklen4))
		return netblock_line(sc, argv, src, line);
	if (kw->off == OFF(per_source_max_startups)) {
		if (strcmp(argv[1], "none") == 0)
			v = INT_MAX;
		else if ((why = parse_count(argv[1], &v)) != NULL) {
			log_error("%s line %d: %s integer value %s.", src,
			    line, argv[0], why);
			return ERR_CONFIG;
		}
		if (!sc_is_set(sc, kw->off)) {
			sc->per_source_max_startups = v;
			sc_mark_set(sc, kw->off);
		}
		return 0;
	}
	/* PerSourcePenaltyExemptList */
	if (match_addr_list(NULL, argv[1]) == -2) {
		log_error("%s line %d: keyword %s invalid address argument.",
		    src, line, argv[0]);
		return ERR_CONFIG;
	}
	if (!sc_is_set(sc, kw->off)) {
		sc->penalty_exempt = strcasecmp(argv[1], "none") == 0 ? NULL :
		    x_strdup(argv[1]);
		sc_mark_set(sc, kw->off);
	}
	return 0;
}

static void
default_double(struct servconf *sc, size_t off, double v)
{
	if (!sc_is_set(sc, off))
		*FIELD(sc, off, double) = v;
}

static void
default_int(struct servconf *sc, size_t off, int v)
{
	if (!sc_is_set(sc, off))
		*FIELD(sc, off, int) = v;
}

/* OpenSSH 9.8+'s defaults (invaliduser and refuseconnection: 10.0+). */
void
sc_persource_finish(struct servconf *sc)
{
	default_int(sc, OFF(per_source_max_startups), INT_MAX);
	default_int(sc, OFF(per_source_masklen4), 32);
	default_int(sc, OFF(per_source_masklen6), 128);
	default_int(sc, PEN(enabled), 1);
	default_double(sc, PEN(crash), 90);
	default_double(sc, PEN(authfail), 5);
	default_double(sc, PEN(noauth), 1);
	default_double(sc, PEN(invaliduser), 5);
	default_double(sc, PEN(grace_exceeded), 10);
	default_double(sc, PEN(refuseconnection), 10);
	default_double(sc, PEN(max), 600);
	default_double(sc, PEN(min), 15);
	default_int(sc, PEN(max_sources4), 65536);
	default_int(sc, PEN(max_sources6), 65536);
	default_int(sc, PEN(overflow_deny_all4), 0);
	default_int(sc, PEN(overflow_deny_all6),
	    sc->penalties.overflow_deny_all4);
}

void
sc_persource_copy(struct servconf *dst, const struct servconf *src,
    const struct conf_kw *kw)
{
	if (kw->off == PEN(enabled))
		dst->penalties = src->penalties;
	else if (kw->off == OFF(per_source_masklen4)) {
		dst->per_source_masklen4 = src->per_source_masklen4;
		dst->per_source_masklen6 = src->per_source_masklen6;
	} else if (kw->off == OFF(per_source_max_startups))
		dst->per_source_max_startups = src->per_source_max_startups;
	else {
		sc_persource_free(dst, kw);
		dst->penalty_exempt = src->penalty_exempt != NULL ?
		    x_strdup(src->penalty_exempt) : NULL;
	}
}

void
sc_persource_free(struct servconf *sc, const struct conf_kw *kw)
{
	if (kw->off == OFF(penalty_exempt)) {
		x_free(sc->penalty_exempt);
		sc->penalty_exempt = NULL;
	}
}

void
sc_persource_dump(const struct servconf *sc, FILE *f)
{
	const struct sc_penalties *p = &sc->penalties;

	fprintf(f, "persourcepenaltyexemptlist %s\n",
	    sc->penalty_exempt != NULL ? sc->penalty_exempt : "none");
	if (sc->per_source_max_startups == INT_MAX)
		fprintf(f, "persourcemaxstartups none\n");
	else
		fprintf(f, "persourcemaxstartups %d\n",
		    sc->per_source_max_startups);
	fprintf(f, "persourcenetblocksize %d:%d\n", sc->per_source_masklen4,
	    sc->per_source_masklen6);
	if (!p->enabled) {
		fprintf(f, "persourcepenalties no\n");
		return;
	}
	fprintf(f, "persourcepenalties crash:%f authfail:%f noauth:%f "
	    "invaliduser:%f grace-exceeded:%f refuseconnection:%f max:%f "
	    "min:%f max-sources4:%d max-sources6:%d overflow:%s "
	    "overflow6:%s\n", p->crash, p->authfail, p->noauth,
	    p->invaliduser, p->grace_exceeded, p->refuseconnection, p->max,
	    p->min, p->max_sources4, p->max_sources6,
	    p->overflow_deny_all4 ? "deny-all" : "permissive",
	    p->overflow_deny_all6 ? "deny-all" : "permissive");
}
