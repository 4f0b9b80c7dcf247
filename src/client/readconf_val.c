/*
 * readconf_val.c: ssh_config value parsers with rules of their own that
 * did not fit readconf_kw.c: ChannelTimeout, ObscureKeystrokeTiming,
 * PermitRemoteOpen, and the checks of the GSSAPI keywords we ignore.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "readconf_int.h"

#define BAD(...) do { \
	log_error("%s line %d: " __VA_ARGS__); \
	return ERR_CONFIG; \
} while (0)

/*
 * ChannelTimeout: "type=interval" words (or "none" alone); the first
 * line sets the list. A bad word ends ssh at once, as it ends OpenSSH's.
 */
int
rc_chanto_value(struct client_opts *o, const struct conf_kw *kw,
    const struct conf_at *at)
{
	char **argv = at->argv;
	const char *src = at->src, *eq;
	int i, argc = at->argc, line = at->line;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "none") == 0) {
			if (argc > 2)
				BAD("keyword %s \"none\" argument must appear "
				    "alone.", src, line, kw->name);
			continue;
		}
		if ((eq = strchr(argv[i], '=')) == NULL || eq == argv[i] ||
		    conf_parse_time(eq + 1) < 0)
			BAD("invalid channel timeout %s", src, line, argv[i]);
	}
	if (o->nchannel_timeouts != 0)
		return 0;
	if (strcmp(argv[1], "none") == 0) {
		/* Set, and empty: later lines are not read. */
		o->channel_timeouts[o->nchannel_timeouts++] = x_strdup("none");
		return 0;
	}
	for (i = 1; i < argc; i++)
		if (rc_arr_add(o->channel_timeouts, &o->nchannel_timeouts,
		    argv[i]) != 0)
			BAD("too many %s entries.", src, line, kw->name);
	return 0;
}

/*
 * ObscureKeystrokeTiming: yes (-2), no (0) or interval:MS, MS in the
 * row's range.
 */
int
rc_obscure_value(const struct conf_kw *kw, const struct conf_at *at,
    int *vp)
{
	char **argv = at->argv;
	const struct conf_range *range;
	const char *src = at->src, *why;
	int c, line = at->line;

	if (at->argc != 2)
		return conf_kw_extra_args(kw, at, CONF_SSH);
	if (conf_enum_lookup(conf_truefalse, argv[1], &c) == 0) {
		*vp = c ? -2 : 0;
		return 0;
	}
	if (strncmp(argv[1], "interval:", 9) != 0)
		BAD("unsupported argument \"%s\"", src, line, argv[1]);
	if (conf_parse_int_why(argv[1] + 9, &c, &why) != 0)
		BAD("integer value %s.", src, line, why);
	range = kw->arg;	/* the row's: 1..1000 */
	if (c < range->min || c > range->max)
		BAD("value out of range.", src, line);
	*vp = c;
	return 0;
}

/*
 * "host:port" or "[host]:port", port a number or "*": 0, or -1 for no
 * host (an unclosed '[', '/' for the colon), -2 for a bad port.
 */
static int
permitopen_ok(const char *s)
{
	const char *p;
	int port;

	if (*s == '[') {
		if ((p = strchr(s, ']')) == NULL)
			return -1;
		if (p[1] == '\0')
			return -2;
		if (p[1] != ':')
			return -1;
		p++;
	} else if ((p = strpbrk(s, ":/")) == NULL)
		return -2;
	else if (*p == '/')
		return -1;
	p++;
	if (strcmp(p, "*") == 0)
		return 0;
	if (conf_parse_int(p, &port) != 0 || port <= 0 || port > 65535)
		return -2;
	return 0;
}

/* PermitRemoteOpen: the first line sets the list; any/none alone. */
int
rc_permitopen_value(struct client_opts *o, const struct conf_at *at)
{
	char **argv = at->argv;
	const char *src = at->src;
	int i, r, line = at->line;

	for (i = 1; i < at->argc; i++) {
		if (strcasecmp(argv[i], "any") == 0 ||
		    strcasecmp(argv[i], "none") == 0) {
			if (at->argc > 2)
				BAD("keyword %s \"%s\" argument must appear "
				    "alone.", src, line, "permitremoteopen",
				    argv[i]);
		} else if ((r = permitopen_ok(argv[i])) == -1)
			BAD("missing host in %s", src, line,
			    "permitremoteopen");
		else if (r != 0)
			BAD("bad port number in %s", src, line,
			    "permitremoteopen");
	}
	if (o->npermit_remote_open != 0)
		return 0;
	for (i = 1; i < at->argc; i++)
		if (rc_arr_add(o->permit_remote_open, &o->npermit_remote_open,
		    argv[i]) != 0)
			BAD("too many %s entries.", src, line,
			    "permitremoteopen");
	return 0;
}

/* GSSAPI's yes/no keywords: the value is checked as Debian's ssh does. */
static const char *const gss_flags[] = {
	"gssapiauthentication", "gssapidelegatecredentials",
	"gssapikeyexchange", "gssapitrustdns", "gssapirenewalforcesrekey",
	NULL,
};

int
rc_kw_ignored_check(const char *name, char *const *argv, int argc,
    const char *src, int line)
{
	size_t i;
	int v;

	if (strncmp(name, "gssapi", 6) != 0)
		return 0;
	if (argc < 2 || argv[1][0] == '\0') {
		log_error("%s line %d: no argument after keyword \"%s\"", src,
		    line, name);
		return ERR_CONFIG;
	}
	for (i = 0; gss_flags[i] != NULL; i++)
		if (strcmp(gss_flags[i], name) == 0)
			break;
	if (argc > 2) {
		log_error("%s line %d: keyword %s extra arguments at end of "
		    "line", src, line, name);
		return ERR_CONFIG;
	}
	if (gss_flags[i] == NULL)
		return 0;
	if (conf_enum_lookup(conf_yesno, argv[1], &v) != 0) {
		log_error("%s line %d: unsupported option \"%s\".", src, line,
		    argv[1]);
		return ERR_CONFIG;
	}
	/* Debian's own ssh_config asks for GSSAPI: never an error. */
	if (v)
		log_debug("%s line %d: %s yes: this ssh has no GSSAPI "
		    "support; not used", src, line, name);
	return 0;
}
