/*
 * authopts.c: the options field of an authorized_keys line.
 *
 * The options are a comma-separated list at the front of the line, ended
 * by the first blank outside double quotes. Each keyword is looked up in
 * one table: a flag row sets an int field of struct authopts, a value row
 * takes a double-quoted string and hands it to its own setter, which
 * checks the value's syntax. Unknown keywords and malformed values fail
 * the whole line: a line we do not fully understand must not grant
 * access with some of its restrictions lost.
 */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "authopts.h"
#include "cert.h"
#include "err.h"
#include "mem.h"
#include "tun.h"

#define OPT_MAX_ARRAY	4096	/* cap on permitopen/environment entries */

struct authopts *
authopts_new(void)
{
	struct authopts *o = x_calloc(1, sizeof(*o));

	o->permit_port_forwarding = 1;
	o->permit_agent_forwarding = 1;
	o->permit_x11_forwarding = 1;
	o->permit_pty = 1;
	o->permit_user_rc = 1;
	o->force_tun_device = -1;
	return o;
}

static void
free_array(char **a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x_free(a[i]);
	x_free(a);
}

void
authopts_free(struct authopts *o)
{
	if (o == NULL)
		return;
	x_free(o->force_command);
	free_array(o->env, o->nenv);
	free_array(o->permitopen, o->npermitopen);
	free_array(o->permitlisten, o->npermitlisten);
	x_free(o->required_from_host_keys);
	x_free(o->cert_principals);
	x_freezero(o, sizeof(*o));
}

static char **
dup_array(char **a, size_t n)
{
	char **r;
	size_t i;

	if (n == 0)
		return NULL;
	r = x_calloc(n, sizeof(*r));
	for (i = 0; i < n; i++)
		r[i] = x_strdup(a[i]);
	return r;
}

static char *
dup_or_null(const char *s)
{
	return s == NULL ? NULL : x_strdup(s);
}

int
authopts_dup(const struct authopts *o, struct authopts **outp)
{
	struct authopts *r;

	*outp = NULL;
	if (o == NULL)
		return ERR_INVALID_ARGUMENT;
	r = x_malloc(sizeof(*r));
	*r = *o;
	r->force_command = dup_or_null(o->force_command);
	r->env = dup_array(o->env, o->nenv);
	r->permitopen = dup_array(o->permitopen, o->npermitopen);
	r->permitlisten = dup_array(o->permitlisten, o->npermitlisten);
	r->required_from_host_keys = dup_or_null(o->required_from_host_keys);
	r->cert_principals = dup_or_null(o->cert_principals);
	*outp = r;
	return 0;
}

/* An array of b's where r has none. */
static void
array_fill(char ***ap, size_t *np, char **b, size_t nb)
{
	if (*np > 0)
		return;
	*ap = dup_array(b, nb);
	*np = nb;
}

int
authopts_merge(const struct authopts *a, const struct authopts *b,
    struct authopts **outp)
{
	struct authopts *r;
	int e;

	*outp = NULL;
	if (a->force_command != NULL && b->force_command != NULL &&
	    strcmp(a->force_command, b->force_command) != 0)
		return ERR_PERMISSION_DENIED;
	if ((e = authopts_dup(a, &r)) != 0)
		return e;
	r->permit_port_forwarding &= b->permit_port_forwarding != 0;
	r->permit_agent_forwarding &= b->permit_agent_forwarding != 0;
	r->permit_x11_forwarding &= b->permit_x11_forwarding != 0;
	r->permit_pty &= b->permit_pty != 0;
	r->permit_user_rc &= b->permit_user_rc != 0;
	r->no_touch_required &= b->no_touch_required != 0;
	r->restricted |= b->restricted;
	r->verify_required |= b->verify_required;
	if (b->valid_before != 0 && (r->valid_before == 0 ||
	    b->valid_before < r->valid_before))
		r->valid_before = b->valid_before;
	if (r->force_command == NULL)
		r->force_command = dup_or_null(b->force_command);
	if (r->required_from_host_keys == NULL)
		r->required_from_host_keys =
		    dup_or_null(b->required_from_host_keys);
	if (r->force_tun_device == -1)
		r->force_tun_device = b->force_tun_device;
	array_fill(&r->env, &r->nenv, b->env, b->nenv);
	array_fill(&r->permitopen, &r->npermitopen, b->permitopen,
	    b->npermitopen);
	array_fill(&r->permitlisten, &r->npermitlisten, b->permitlisten,
	    b->npermitlisten);
	/* What says which key may log in is no restriction of the login. */
	r->cert_authority = 0;
	x_free(r->cert_principals);
	r->cert_principals = NULL;
	*outp = r;
	return 0;
}

/* Append a copy of s to the array (*ap, *np). */
static int
array_add(char ***ap, size_t *np, const char *s)
{
	if (*np >= OPT_MAX_ARRAY)
		return ERR_INVALID_FORMAT;
	*ap = x_reallocarray(*ap, *np + 1, sizeof(**ap));
	(*ap)[(*np)++] = x_strdup(s);
	return 0;
}

/* Parse exactly n decimal digits: 0, or ERR_INVALID_FORMAT. */
static int
get_digits(const char *s, int n, int *vp)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return ERR_INVALID_FORMAT;
		v = v * 10 + (s[i] - '0');
	}
	*vp = v;
	return 0;
}

static int
days_in_month(int year, int month)
{
	static const int days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return days[month - 1] + (month == 2 && leap);
}

int
authopts_parse_time(const char *s, uint64_t *tp)
{
	struct tm tm;
	size_t len = strlen(s);
	int utc = 0, year, mon, day, hour = 0, min = 0, sec = 0;
	time_t t;

	*tp = 0;
	if (len > 0 && (s[len - 1] == 'Z' || s[len - 1] == 'z')) {
		utc = 1;
		len--;
	}
	if (len != 8 && len != 12 && len != 14)
		return ERR_INVALID_FORMAT;
	if (get_digits(s, 4, &year) != 0 || get_digits(s + 4, 2, &mon) != 0 ||
	    get_digits(s + 6, 2, &day) != 0)
		return ERR_INVALID_FORMAT;
	if (len >= 12 && (get_digits(s + 8, 2, &hour) != 0 ||
	    get_digits(s + 10, 2, &min) != 0))
		return ERR_INVALID_FORMAT;
	if (len == 14 && get_digits(s + 12, 2, &sec) != 0)
		return ERR_INVALID_FORMAT;
	if (year < 1970 || mon < 1 || mon > 12 || day < 1 ||
	    day > days_in_month(year, mon) || hour > 23 || min > 59 ||
	    sec > 59)
		return ERR_INVALID_FORMAT;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	t = utc ? timegm(&tm) : mktime(&tm);
	if (t < 0)
		return ERR_INVALID_FORMAT;
	*tp = (uint64_t)t;
	return 0;
}

/* A port: "*" (when allowed) or 1..65535. */
static int
valid_port(const char *s, int allow_any)
{
	char *ep;
	long v;

	if (allow_any && strcmp(s, "*") == 0)
		return 1;
	if (!isdigit((unsigned char)*s))
		return 0;
	v = strtol(s, &ep, 10);
	return *ep == '\0' && v >= 1 && v <= 65535;
}

/*
 * Split "host:port" or "[v6addr]:port". Returns the port part, or NULL
 * when malformed; *hostlenp is the host's length (0 when need_host is
 * false and there is no host).
 */
static const char *
split_hostport(const char *s, int need_host, size_t *hostlenp)
{
	const char *c;

	if (*s == '[') {
		if ((c = strchr(s, ']')) == NULL || c == s + 1 || c[1] != ':')
			return NULL;
		*hostlenp = (size_t)(c - s + 1);
		return c + 2;
	}
	if ((c = strrchr(s, ':')) == NULL) {
		if (need_host)
			return NULL;
		*hostlenp = 0;
		return s;
	}
	/* A bare IPv6 address needs brackets: one colon only. */
	if (strchr(s, ':') != c || c == s)
		return NULL;
	*hostlenp = (size_t)(c - s);
	return c + 1;
}

typedef int (*opt_setter)(struct authopts *, const char *, const char **);

static int
set_command(struct authopts *o, const char *v, const char **errp)
{
	if (o->force_command != NULL) {
		*errp = "multiple \"command\" clauses";
		return ERR_INVALID_FORMAT;
	}
	o->force_command = x_strdup(v);
	return 0;
}

static int
set_environment(struct authopts *o, const char *v, const char **errp)
{
	const char *eq = strchr(v, '=');
	size_t i, nlen;

	if (eq == NULL || eq == v) {
		*errp = "invalid environment string";
		return ERR_INVALID_FORMAT;
	}
	nlen = (size_t)(eq - v);
	for (i = 0; i < nlen; i++) {
		if (!isalnum((unsigned char)v[i]) && v[i] != '_') {
			*errp = "invalid environment string";
			return ERR_INVALID_FORMAT;
		}
	}
	/* The first setting of a name wins. */
	for (i = 0; i < o->nenv; i++)
		if (strncmp(o->env[i], v, nlen + 1) == 0)
			return 0;
	if (array_add(&o->env, &o->nenv, v) != 0) {
		*errp = "too many environment options";
		return ERR_INVALID_FORMAT;
	}
	return 0;
}

static int
set_expiry(struct authopts *o, const char *v, const char **errp)
{
	uint64_t t;

	if (authopts_parse_time(v, &t) != 0) {
		*errp = "invalid expires time";
		return ERR_INVALID_FORMAT;
	}
	if (o->valid_before == 0 || t < o->valid_before)
		o->valid_before = t;
	return 0;
}

static int
set_from(struct authopts *o, const char *v, const char **errp)
{
	if (o->required_from_host_keys != NULL) {
		*errp = "multiple \"from\" clauses";
		return ERR_INVALID_FORMAT;
	}
	if (*v == '\0') {
		*errp = "empty \"from\" pattern list";
		return ERR_INVALID_FORMAT;
	}
	o->required_from_host_keys = x_strdup(v);
	return 0;
}

static int
set_permitopen(struct authopts *o, const char *v, const char **errp)
{
	const char *port;
	size_t hlen;

	if ((port = split_hostport(v, 1, &hlen)) == NULL || hlen == 0 ||
	    !valid_port(port, 1)) {
		*errp = "invalid permission hostname or port";
		return ERR_INVALID_FORMAT;
	}
	if (array_add(&o->permitopen, &o->npermitopen, v) != 0) {
		*errp = "too many permitopen options";
		return ERR_INVALID_FORMAT;
	}
	return 0;
}

static int
set_permitlisten(struct authopts *o, const char *v, const char **errp)
{
	const char *port;
	size_t hlen;

	if ((port = split_hostport(v, 0, &hlen)) == NULL ||
	    !valid_port(port, 1)) {
		*errp = "invalid permission hostname or port";
		return ERR_INVALID_FORMAT;
	}
	if (array_add(&o->permitlisten, &o->npermitlisten, v) != 0) {
		*errp = "too many permitlisten options";
		return ERR_INVALID_FORMAT;
	}
	return 0;
}

static int
set_principals(struct authopts *o, const char *v, const char **errp)
{
	if (o->cert_principals != NULL) {
		*errp = "multiple \"principals\" clauses";
		return ERR_INVALID_FORMAT;
	}
	o->cert_principals = x_strdup(v);
	return 0;
}

/* A unit as -w names it: up to TUN_UNIT_MAX, or "any" (OpenSSH's a2tun). */
static int
set_tunnel(struct authopts *o, const char *v, const char **errp)
{
	uint32_t unit;

	if (o->force_tun_device != -1) {
		*errp = "multiple \"tunnel\" clauses";
		return ERR_INVALID_FORMAT;
	}
	if (tun_parse_unit(v, &unit) != 0) {
		*errp = "invalid tun device";
		return ERR_INVALID_FORMAT;
	}
	o->force_tun_device = (int)unit;
	return 0;
}

#define FIELD(f) offsetof(struct authopts, f)
#define NOFIELD ((size_t)-1)

static const struct opt_row {
	const char *name;
	size_t field;		/* int to set, for a flag; NOFIELD otherwise */
	int value;
	opt_setter set;		/* value option; NULL for a flag */
} opt_table[] = {
	{ "restrict",		NOFIELD, 0, NULL },
	{ "cert-authority",	FIELD(cert_authority), 1, NULL },
	{ "no-touch-required",	FIELD(no_touch_required), 1, NULL },
	{ "verify-required",	FIELD(verify_required), 1, NULL },
	{ "port-forwarding",	FIELD(permit_port_forwarding), 1, NULL },
	{ "no-port-forwarding",	FIELD(permit_port_forwarding), 0, NULL },
	{ "agent-forwarding",	FIELD(permit_agent_forwarding), 1, NULL },
	{ "no-agent-forwarding", FIELD(permit_agent_forwarding), 0, NULL },
	{ "x11-forwarding",	FIELD(permit_x11_forwarding), 1, NULL },
	{ "no-x11-forwarding",	FIELD(permit_x11_forwarding), 0, NULL },
	{ "pty",		FIELD(permit_pty), 1, NULL },
	{ "no-pty",		FIELD(permit_pty), 0, NULL },
	{ "user-rc",		FIELD(permit_user_rc), 1, NULL },
	{ "no-user-rc",		FIELD(permit_user_rc), 0, NULL },
	{ "command",		NOFIELD, 0, set_command },
	{ "environment",	NOFIELD, 0, set_environment },
	{ "expiry-time",	NOFIELD, 0, set_expiry },
	{ "from",		NOFIELD, 0, set_from },
	{ "permitopen",		NOFIELD, 0, set_permitopen },
	{ "permitlisten",	NOFIELD, 0, set_permitlisten },
	{ "principals",		NOFIELD, 0, set_principals },
	{ "tunnel",		NOFIELD, 0, set_tunnel },
};

static void
apply_restrict(struct authopts *o)
{
	o->restricted = 1;
	o->permit_port_forwarding = 0;
	o->permit_agent_forwarding = 0;
	o->permit_x11_forwarding = 0;
	o->permit_pty = 0;
	o->permit_user_rc = 0;
}

static const struct opt_row *
find_option(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++) {
		if (strlen(opt_table[i].name) == len &&
		    strncasecmp(opt_table[i].name, name, len) == 0)
			return &opt_table[i];
	}
	return NULL;
}

/*
 * A double-quoted value at *cpp: a fresh string with \" turned into ",
 * *cpp moved past the closing quote.
 */
static int
get_quoted(const char **cpp, char **valp, const char **errp)
{
	const char *p = *cpp;
	char *v, *o;

	*valp = NULL;
	if (*p != '"') {
		*errp = "missing start quote";
		return ERR_INVALID_FORMAT;
	}
	p++;
	o = v = x_malloc(strlen(p) + 1);
	while (*p != '\0' && *p != '"') {
		if (p[0] == '\\' && p[1] == '"') {
			*o++ = '"';
			p += 2;
		} else
			*o++ = *p++;
	}
	*o = '\0';
	if (*p != '"') {
		x_free(v);
		*errp = "missing end quote";
		return ERR_INVALID_FORMAT;
	}
	*cpp = p + 1;
	*valp = v;
	return 0;
}

int
authopts_parse(const char *opts, struct authopts **outp, const char **endp,
    const char **errstrp)
{
	struct authopts *o = authopts_new();
	const struct opt_row *row;
	const char *p = opts, *name, *err = NULL;
	char *val = NULL;
	size_t nlen;
	int r = ERR_INVALID_FORMAT;

	*outp = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	for (;;) {
		name = p;
		while (*p != '\0' && *p != ',' && *p != '=' && *p != ' ' &&
		    *p != '\t' && *p != '"')
			p++;
		nlen = (size_t)(p - name);
		if (nlen == 0) {
			err = "empty option";
			goto out;
		}
		if ((row = find_option(name, nlen)) == NULL) {
			err = "unknown key option";
			goto out;
		}
		if (row->set != NULL) {
			if (*p != '=') {
				err = "option needs a value";
				goto out;
			}
			p++;
			if ((r = get_quoted(&p, &val, &err)) != 0 ||
			    (r = row->set(o, val, &err)) != 0)
				goto out;
			r = ERR_INVALID_FORMAT;
			x_free(val);
			val = NULL;
		} else if (row->field == NOFIELD)
			apply_restrict(o);
		else
			*(int *)(void *)((char *)o + row->field) = row->value;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == ' ' || *p == '\t')
			break;
		err = *p == '\0' ? "missing key after options" :
		    "unexpected character after option";
		goto out;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n' || *p == '\r') {
		err = "missing key after options";
		goto out;
	}
	if (endp != NULL)
		*endp = p;
	*outp = o;
	o = NULL;
	r = 0;
 out:
	x_free(val);
	authopts_free(o);
	if (errstrp != NULL)
		*errstrp = err;
	return r;
}

/* A certificate option's data as one string, nothing after it. */
static int
option_string(const struct cert_option *opt, char **sp)
{
	struct sbuf *b = sbuf_from(opt->data, opt->len);
	int r;

	*sp = NULL;
	if (b == NULL)
		return ERR_ALLOC;
	if ((r = sbuf_get_cstring(b, sp, NULL)) == 0 && sbuf_len(b) != 0)
		r = ERR_INVALID_FORMAT;
	if (r != 0) {
		x_free(*sp);
		*sp = NULL;
	}
	sbuf_free(b);
	return r;
}

/* Certificate extensions: each turns on one permission. */
static const struct {
	const char *name;
	size_t off;
} cert_exts[] = {
	{ "permit-X11-forwarding", offsetof(struct authopts,
	    permit_x11_forwarding) },
	{ "permit-agent-forwarding", offsetof(struct authopts,
	    permit_agent_forwarding) },
	{ "permit-port-forwarding", offsetof(struct authopts,
	    permit_port_forwarding) },
	{ "permit-pty", offsetof(struct authopts, permit_pty) },
	{ "permit-user-rc", offsetof(struct authopts, permit_user_rc) },
};

int
authopts_apply_cert(struct authopts *o, const struct key_cert *c,
    char **source_addrp, const char **errstrp)
{
	const struct cert_option *opt;
	char *s = NULL;
	size_t i;
	int *flag;

	*source_addrp = NULL;
	*errstrp = NULL;
	for (i = 0; i < sizeof(cert_exts) / sizeof(cert_exts[0]); i++) {
		flag = (int *)(void *)((char *)o + cert_exts[i].off);
		if (cert_option(c, 0, cert_exts[i].name) == NULL)
			*flag = 0;
	}
	/*
	 * Touch may be skipped only when both the certificate and o allow
	 * it; verification is needed when either asks (OpenSSH's merge).
	 */
	if (cert_option(c, 0, "no-touch-required") == NULL)
		o->no_touch_required = 0;
	for (i = 0; i < c->ncritical; i++) {
		opt = &c->critical[i];
		if (strcmp(opt->name, "verify-required") == 0) {
			o->verify_required = 1;
			continue;
		}
		if (strcmp(opt->name, "force-command") != 0 &&
		    strcmp(opt->name, "source-address") != 0) {
			*errstrp = "unsupported critical option";
			goto fail;
		}
		if (option_string(opt, &s) != 0) {
			*errstrp = "invalid critical option data";
			goto fail;
		}
		if (strcmp(opt->name, "source-address") == 0) {
			*source_addrp = s;
			s = NULL;
			continue;
		}
		if (o->force_command != NULL &&
		    strcmp(o->force_command, s) != 0) {
			*errstrp = "forced command in certificate and key "
			    "options differ";
			goto fail;
		}
		x_free(o->force_command);
		o->force_command = s;
		s = NULL;
	}
	return 0;
 fail:
	x_free(s);
	x_free(*source_addrp);
	*source_addrp = NULL;
	return ERR_KEY_CERT_INVALID;
}
