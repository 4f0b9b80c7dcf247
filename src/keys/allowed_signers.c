/*
 * allowed_signers.c: one line of an allowed signers file, parsed and
 * checked against a signer (see allowed_signers.h).
 *
 * Parsing goes as OpenSSH's does, which decides what odd lines mean:
 * the principals field ends at the first whitespace, or at the quote
 * that closes a quote opened anywhere in it; then comes either the key
 * or an options field (up to unquoted whitespace) and then the key.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "allowed_signers.h"
#include "err.h"
#include "match.h"
#include "mem.h"
#include "sbuf.h"

#define FIELD_END	" \t\r\n"

/*
 * The principals field at line into *fieldp; *restp after it and the
 * whitespace that follows. ERR_INVALID_FORMAT when nothing ends it or
 * a quote is not closed.
 */
static int
principals_field(const char *line, char **fieldp, const char **restp)
{
	const char *p = line + strcspn(line, FIELD_END "\""), *q;

	if (*p == '\0')
		return ERR_INVALID_FORMAT;
	if (*p != '"') {
		*fieldp = x_strndup(line, (size_t)(p - line));
		*restp = p + 1 + strspn(p + 1, FIELD_END);
		return 0;
	}
	if ((q = strchr(p + 1, '"')) == NULL)
		return ERR_INVALID_FORMAT;
	*fieldp = x_asprintf("%.*s%.*s", (int)(p - line), line,
	    (int)(q - p - 1), p + 1);
	*restp = q + 1 + strspn(q + 1, FIELD_END);
	return 0;
}

/* A plain key or a certificate in text form at *cpp. */
static int
read_key(const char **cpp, struct allowed_signer *as)
{
	const char *cp = *cpp;

	if (key_read_public_text(&cp, &as->key) != 0) {
		cp = *cpp;
		if (cert_read_public_text(&cp, &as->cert) != 0)
			return ERR_INVALID_FORMAT;
	}
	*cpp = cp;
	return 0;
}

/* Past the options field: to unquoted whitespace. -1: open quote. */
static int
skip_options(const char **cpp)
{
	const char *cp = *cpp;
	int quoted = 0;

	for (; *cp != '\0' && (quoted || (*cp != ' ' && *cp != '\t')); cp++) {
		if (cp[0] == '\\' && cp[1] == '"')
			cp++;
		else if (*cp == '"')
			quoted = !quoted;
	}
	*cpp = cp;
	return *cp == '\0' && quoted ? -1 : 0;
}

/* name=, in any case, at *op: skip it. */
static int
opt_named(const char **op, const char *name)
{
	size_t n = strlen(name);

	if (strncasecmp(*op, name, n) != 0 || (*op)[n] != '=')
		return 0;
	*op += n + 1;
	return 1;
}

/* "value" at *op, with \" for a quote inside; NULL and *whyp on error. */
static char *
opt_value(const char **op, const char **whyp)
{
	const char *s = *op;
	char *v, *d;

	if (*s != '"') {
		*whyp = "bad options: missing start quote";
		return NULL;
	}
	d = v = x_malloc(strlen(s));
	for (s++; *s != '\0' && *s != '"'; s++) {
		if (s[0] == '\\' && s[1] == '"')
			s++;
		*d++ = *s;
	}
	if (*s == '\0') {
		*whyp = "bad options: missing end quote";
		x_free(v);
		return NULL;
	}
	*d = '\0';
	*op = s + 1;
	return v;
}

static int
opt_time(const char **op, uint64_t *tp, const char *dup, const char *bad,
    const char **whyp)
{
	char *v;
	int r;

	if (*tp != 0) {
		*whyp = dup;
		return ERR_INVALID_FORMAT;
	}
	if ((v = opt_value(op, whyp)) == NULL)
		return ERR_INVALID_FORMAT;
	r = allowed_signer_parse_time(v, tp);
	x_free(v);
	if (r != 0 || *tp == 0) {
		*whyp = bad;
		return ERR_INVALID_FORMAT;
	}
	return 0;
}

static int
parse_options(const char *opts, struct allowed_signer *as, const char **whyp)
{
	const char *o = opts;

	while (*o != '\0') {
		if (strncasecmp(o, "cert-authority", 14) == 0) {
			as->cert_authority = 1;
			o += 14;
		} else if (opt_named(&o, "namespaces")) {
			if (as->namespaces != NULL) {
				*whyp = "bad options: multiple \"namespaces\" "
				    "clauses";
				return ERR_INVALID_FORMAT;
			}
			if ((as->namespaces = opt_value(&o, whyp)) == NULL)
				return ERR_INVALID_FORMAT;
		} else if (opt_named(&o, "valid-after")) {
			if (opt_time(&o, &as->valid_after, "bad options: "
			    "multiple \"valid-after\" clauses", "bad options: "
			    "invalid \"valid-after\" time", whyp) != 0)
				return ERR_INVALID_FORMAT;
		} else if (opt_named(&o, "valid-before")) {
			if (opt_time(&o, &as->valid_before, "bad options: "
			    "multiple \"valid-before\" clauses", "bad options: "
			    "invalid \"valid-before\" time", whyp) != 0)
				return ERR_INVALID_FORMAT;
		}
		if (*o == '\0')
			break;
		if (*o != ',') {
			*whyp = "bad options: unknown key option";
			return ERR_INVALID_FORMAT;
		}
		if (*++o == '\0') {
			*whyp = "bad options: unexpected end-of-options";
			return ERR_INVALID_FORMAT;
		}
	}
	if (as->valid_after != 0 && as->valid_before != 0 &&
	    as->valid_before <= as->valid_after) {
		*whyp = "bad options: \"valid-before\" time is before "
		    "\"valid-after\"";
		return ERR_INVALID_FORMAT;
	}
	return 0;
}

/* The options field (if any) and the key after the principals. */
static int
parse_rest(const char *cp, struct allowed_signer *as, const char **whyp)
{
	const char *opts;
	char *copy;
	int r;

	if (read_key(&cp, as) == 0)
		return 0;
	opts = cp;
	if (skip_options(&cp) != 0) {
		*whyp = "invalid options";
		return ERR_INVALID_FORMAT;
	}
	if (*cp == '\0') {
		*whyp = "missing key";
		return ERR_INVALID_FORMAT;
	}
	copy = x_strndup(opts, (size_t)(cp - opts));
	cp += strspn(cp, " \t");
	if (read_key(&cp, as) != 0) {
		*whyp = "invalid key";
		r = ERR_INVALID_FORMAT;
	} else
		r = parse_options(copy, as, whyp);
	x_free(copy);
	return r;
}

int
allowed_signer_parse(const char *line, const char *principal,
    struct allowed_signer *as, const char **whyp)
{
	const char *cp = line + strspn(line, " \t");
	int r;

	memset(as, 0, sizeof(*as));
	*whyp = NULL;
	if (*cp == '\0' || *cp == '#')
		return ERR_NOT_FOUND;
	if (principals_field(cp, &as->principals, &cp) != 0) {
		*whyp = "invalid line";
		return ERR_INVALID_FORMAT;
	}
	if (principal != NULL &&
	    match_pattern_list(principal, as->principals, 0) != 1) {
		allowed_signer_clear(as);
		return ERR_NOT_FOUND;
	}
	if ((r = parse_rest(cp, as, whyp)) != 0)
		allowed_signer_clear(as);
	return r;
}

void
allowed_signer_clear(struct allowed_signer *as)
{
	if (as == NULL)
		return;
	x_free(as->principals);
	x_free(as->namespaces);
	key_free(as->key);
	cert_free(as->cert);
	memset(as, 0, sizeof(*as));
}

/* The line's key is the very key (or certificate) that signed. */
static int
same_signer(const struct allowed_signer *as, const struct key *key,
    const struct key_cert *cert)
{
	if (as->cert != NULL)
		return cert != NULL && sbuf_equal(as->cert->blob, cert->blob);
	return cert == NULL && key_equal_public(as->key, key);
}

/*
 * Those of the certificate's principals the line's patterns match, in
 * the patterns' order, comma-separated; NULL when none (or when the
 * certificate is not valid now). The list ends at an empty entry.
 */
static char *
granted_by_cert(const char *patterns, const struct key_cert *c,
    uint64_t now)
{
	struct sbuf *b = sbuf_new();
	const char *reason;
	char *list = x_strdup(patterns), *p, *next, *out = NULL;
	size_t i;

	if (cert_check_reason(c, now, NULL, 0, &reason) != 0)
		goto done;
	for (p = list; p != NULL && *p != '\0'; p = next) {
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		for (i = 0; i < c->nprincipals; i++)
			if (match_pattern(c->principals[i], p))
				sbuf_putf(b, "%s%s", sbuf_len(b) ? "," : "",
				    c->principals[i]);
	}
	if (sbuf_len(b) != 0)
		out = x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
 done:
	x_free(list);
	sbuf_free(b);
	return out;
}

/* The options' namespace and time limits. */
static int
options_allow(const struct allowed_signer *as, const char *ns, uint64_t now,
    char *why, size_t whylen)
{
	char tnow[64], tlim[64];

	if (as->namespaces != NULL && ns != NULL &&
	    match_pattern_list(ns, as->namespaces, 0) != 1) {
		err_why(why, whylen, "key is not permitted for use in "
		    "signature namespace \"%s\"", ns);
		return ERR_PERMISSION_DENIED;
	}
	allowed_signer_format_time(now, tnow, sizeof(tnow));
	if (as->valid_after != 0 && now < as->valid_after) {
		allowed_signer_format_time(as->valid_after, tlim, sizeof(tlim));
		err_why(why, whylen, "key is not yet valid: verify time %s < "
		    "valid-after %s", tnow, tlim);
		return ERR_PERMISSION_DENIED;
	}
	if (as->valid_before != 0 && now > as->valid_before) {
		allowed_signer_format_time(as->valid_before, tlim,
		    sizeof(tlim));
		err_why(why, whylen, "key has expired: verify time %s > "
		    "valid-before %s", tnow, tlim);
		return ERR_PERMISSION_DENIED;
	}
	return 0;
}

int
allowed_signer_check(const struct allowed_signer *as,
    const struct key *key, const struct key_cert *cert,
    const char *principal, const char *ns, uint64_t now,
    char **principalsp, char *why, size_t whylen)
{
	const struct key *lk = as->cert != NULL ? as->cert->key : as->key;
	const char *reason;
	char *granted = NULL;
	int r;

	if (principalsp != NULL)
		*principalsp = NULL;
	err_why(why, whylen, "%s", "");
	if (!as->cert_authority && same_signer(as, key, cert))
		granted = x_strdup(as->principals);
	else if (as->cert_authority && cert != NULL &&
	    key_equal_public(cert->ca_key, lk)) {
		if (principal != NULL) {
			if (cert_check_reason(cert, now, principal, 0,
			    &reason) != 0) {
				err_why(why, whylen, "certificate not "
				    "authorized: %s", reason);
				return ERR_PERMISSION_DENIED;
			}
			granted = x_strdup(as->principals);
		} else if ((granted = granted_by_cert(as->principals, cert,
		    now)) == NULL) {
			err_why(why, whylen, "no valid principals found");
			return ERR_PERMISSION_DENIED;
		}
	} else
		return ERR_NOT_FOUND;
	if ((r = options_allow(as, ns, now, why, whylen)) != 0) {
		x_free(granted);
		return r;
	}
	if (principalsp != NULL)
		*principalsp = granted;
	else
		x_free(granted);
	return 0;
}

/* n decimal digits at s. */
static int
digits(const char *s, size_t n)
{
	int v = 0;

	while (n-- > 0)
		v = v * 10 + (*s++ - '0');
	return v;
}

int
allowed_signer_parse_time(const char *s, uint64_t *tp)
{
	size_t len = strlen(s);
	struct tm tm;
	time_t t;
	int utc = 0;

	*tp = 0;
	if (len > 1 && (s[len - 1] == 'Z' || s[len - 1] == 'z')) {
		utc = 1;
		len--;
	} else if (len > 3 && strncasecmp(s + len - 3, "UTC", 3) == 0) {
		utc = 1;
		len -= 3;
	}
	if ((len != 8 && len != 12 && len != 14) ||
	    strspn(s, "0123456789") < len)
		return ERR_INVALID_FORMAT;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = digits(s, 4) - 1900;
	tm.tm_mon = digits(s + 4, 2) - 1;
	tm.tm_mday = digits(s + 6, 2);
	if (len >= 12) {
		tm.tm_hour = digits(s + 8, 2);
		tm.tm_min = digits(s + 10, 2);
	}
	if (len == 14)
		tm.tm_sec = digits(s + 12, 2);
	if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 61)
		return ERR_INVALID_FORMAT;
	/* tm_isdst stays 0, as strptime() leaves it for OpenSSH. */
	t = utc ? timegm(&tm) : mktime(&tm);
	if (t < 0)
		return ERR_INVALID_FORMAT;
	*tp = (uint64_t)t;
	return 0;
}

void
allowed_signer_format_time(uint64_t t, char *buf, size_t len)
{
	time_t tt = t > (uint64_t)INT64_MAX ? (time_t)INT64_MAX : (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(buf, len, "%llu", (unsigned long long)t);
}
