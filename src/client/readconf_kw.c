/*
 * readconf_kw.c: the ssh_config keyword table and its value parsers.
 *
 * Each keyword is one row: its name, a value type and the offset of its
 * field in struct client_opts. One parser per type turns the line's
 * arguments into the field. "First value wins": scalar fields start at
 * -1 or NULL and a parser leaves an already set field alone; lists that
 * OpenSSH accumulates (IdentityFile, SendEnv, LocalForward...) grow with
 * every line. Keywords OpenSSH knows but we do not implement (GSSAPI*,
 * X11 and the like) are accepted with a debug note, so stock
 * configuration files parse.
 */
#include <sys/socket.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include "cert.h"
#include "cipher.h"
#include "err.h"
#include "kexalg.h"
#include "key.h"
#include "log.h"
#include "mac.h"
#include "match.h"
#include "mem.h"
#include "readconf_int.h"

const struct conf_enum rc_enum_shk[] = {
	{ "yes", SHK_YES }, { "true", SHK_YES }, { "no", SHK_NO },
	{ "false", SHK_NO }, { "off", SHK_NO }, { "ask", SHK_ASK },
	{ "accept-new", SHK_ACCEPT_NEW }, { NULL, 0 } };
const struct conf_enum rc_enum_tty[] = {
	{ "no", RTTY_NO }, { "false", RTTY_NO }, { "yes", RTTY_YES },
	{ "true", RTTY_YES }, { "force", RTTY_FORCE }, { "auto", RTTY_AUTO },
	{ NULL, 0 } };
const struct conf_enum rc_enum_af[] = {
	{ "any", AF_UNSPEC }, { "inet", AF_INET }, { "inet6", AF_INET6 },
	{ NULL, 0 } };
const struct conf_enum rc_enum_ctlm[] = {
	{ "no", 0 }, { "false", 0 }, { "yes", 1 }, { "true", 1 },
	{ "ask", 2 }, { "auto", 3 }, { "autoask", 4 }, { NULL, 0 } };
const struct conf_enum rc_enum_uhk[] = {
	{ "no", 0 }, { "false", 0 }, { "yes", 1 }, { "true", 1 },
	{ "ask", 2 }, { NULL, 0 } };
/* OpenSSH 10.1+: no-pq-kex turns off the one warning there is, so "no". */
static const struct conf_enum enum_weak[] = {
	{ "yes", 1 }, { "true", 1 }, { "no", 0 }, { "false", 0 },
	{ "no-pq-kex", 0 }, { NULL, 0 } };
static const struct conf_enum enum_comp[] = {
	{ "no", 0 }, { "yes", 1 }, { NULL, 0 } };
/* -G shows the first name of a value: true, false, always. */
const struct conf_enum rc_enum_canon[] = {
	{ "true", 1 }, { "false", 0 }, { "yes", 1 }, { "no", 0 },
	{ "always", 2 }, { NULL, 0 } };
const struct conf_enum rc_enum_session[] = {
	{ "none", ST_NONE }, { "subsystem", ST_SUBSYSTEM },
	{ "default", ST_DEFAULT }, { NULL, 0 } };

#define F(m)  offsetof(struct client_opts, m)
#define A(m)  offsetof(struct client_opts, m), offsetof(struct client_opts, n##m)

const struct rc_kw rc_keywords[] = {
	{ "hostname", RT_STR, F(hostname), 0, NULL, 0 },
	{ "port", RT_PORT, F(port), 0, NULL, 22 },
	{ "user", RT_STR, F(user), 0, NULL, 0 },
	{ "identityfile", RT_IDENTITY, A(identity_files), NULL, 0 },
	{ "certificatefile", RT_ACCUM, A(certificate_files), NULL, 0 },
	{ "identitiesonly", RT_FLAG, F(identities_only), 0, NULL, 0 },
	{ "identityagent", RT_AGENT, F(identity_agent), 0, NULL, 0 },
	{ "ciphers", RT_ALGS, F(ciphers), 0, &conf_alg_cipher, 0 },
	{ "macs", RT_ALGS, F(macs), 0, &conf_alg_mac, 0 },
	{ "kexalgorithms", RT_ALGS, F(kex_algorithms), 0, &conf_alg_kex, 0 },
	{ "hostkeyalgorithms", RT_ALGS, F(hostkey_algorithms), 0, &conf_alg_sig,
	    0 },
	{ "pubkeyacceptedalgorithms", RT_ALGS, F(pubkey_accepted_algorithms),
	    0, &conf_alg_sig, 0 },
	{ "pubkeyacceptedkeytypes", RT_ALGS, F(pubkey_accepted_algorithms),
	    0, &conf_alg_sig, 0 },
	{ "stricthostkeychecking", RT_ENUM, F(strict_host_key_checking), 0,
	    rc_enum_shk, SHK_ASK },
	{ "userknownhostsfile", RT_FILES, A(user_known_hosts_files), NULL, 0 },
	{ "globalknownhostsfile", RT_FILES, A(global_known_hosts_files),
	    NULL, 0 },
	{ "hashknownhosts", RT_FLAG, F(hash_known_hosts), 0, NULL, 0 },
	{ "checkhostip", RT_FLAG, F(check_host_ip), 0, NULL, 0 },
	{ "proxycommand", RT_REST, F(proxy_command), 0, NULL, 0 },
	{ "proxyjump", RT_STR, F(proxy_jump), 0, NULL, 0 },
	{ "connecttimeout", RT_TIME, F(connect_timeout), 0, NULL, 0 },
	{ "serveraliveinterval", RT_TIME, F(server_alive_interval), 0, NULL,
	    0 },
	{ "serveralivecountmax", RT_INT, F(server_alive_count_max), 0, NULL,
	    3 },
	{ "sendenv", RT_ACCUM, A(send_env), NULL, 0 },
	{ "setenv", RT_SETENV, A(set_env), NULL, 0 },
	{ "requesttty", RT_ENUM, F(request_tty), 0, rc_enum_tty, RTTY_AUTO },
	{ "loglevel", RT_LOGLEVEL, F(log_level), 0, NULL, LOG_LEVEL_INFO },
	{ "batchmode", RT_FLAG, F(batch_mode), 0, NULL, 0 },
	{ "preferredauthentications", RT_STR, F(preferred_authentications),
	    0, NULL, 0 },
	{ "pubkeyauthentication", RT_FLAG, F(pubkey_authentication), 0,
	    NULL, 1 },
	{ "passwordauthentication", RT_FLAG, F(password_authentication), 0,
	    NULL, 1 },
	{ "kbdinteractiveauthentication", RT_FLAG,
	    F(kbd_interactive_authentication), 0, NULL, 1 },
	{ "challengeresponseauthentication", RT_FLAG,
	    F(kbd_interactive_authentication), 0, NULL, 1 },
	{ "numberofpasswordprompts", RT_INT, F(number_of_password_prompts), 0,
	    NULL, 3 },
	{ "escapechar", RT_ESCAPE, F(escape_char), 0, NULL, '~' },
	{ "rekeylimit", RT_REKEY, F(rekey_bytes), F(rekey_seconds), NULL, 0 },
	{ "compression", RT_ENUM, F(compression), 0, enum_comp, 0 },
	{ "addressfamily", RT_ENUM, F(address_family), 0, rc_enum_af,
	    AF_UNSPEC },
	{ "forwardagent", RT_FWDAGENT, F(forward_agent), 0, NULL, 0 },
	{ "forwardx11", RT_FLAG, F(forward_x11), 0, NULL, 0 },
	/* Debian's ssh trusts forwarded X11 clients unless told not to. */
	{ "forwardx11trusted", RT_FLAG, F(forward_x11_trusted), 0, NULL, 1 },
	{ "forwardx11timeout", RT_TIME, F(forward_x11_timeout), 0, NULL,
	    1200 },
	{ "xauthlocation", RT_STR, F(xauth_location), 0, NULL, 0 },
	{ "addkeystoagent", RT_ADDKEYS, F(add_keys_to_agent), 0, NULL, 0 },
	{ "tcpkeepalive", RT_FLAG, F(tcp_keep_alive), 0, NULL, 1 },
	{ "remotecommand", RT_REST, F(remote_command), 0, NULL, 0 },
	{ "exitonforwardfailure", RT_FLAG, F(exit_on_forward_failure), 0,
	    NULL, 0 },
	{ "clearallforwardings", RT_FLAG, F(clear_all_forwardings), 0, NULL,
	    0 },
	{ "warnweakcrypto", RT_ENUM, F(warn_weak_crypto), 0, enum_weak, 1 },
	{ "enableescapecommandline", RT_FLAG, F(enable_escape_commandline), 0,
	    NULL, 0 },
	{ "localforward", RT_REST, A(local_forwards), NULL, 0 },
	{ "remoteforward", RT_REST, A(remote_forwards), NULL, 0 },
	{ "dynamicforward", RT_REST, A(dynamic_forwards), NULL, 0 },
	{ "controlpath", RT_STR, F(control_path), 0, NULL, 0 },
	{ "controlpersist", RT_STR, F(control_persist), 0, NULL, 0 },
	{ "controlmaster", RT_ENUM, F(control_master), 0, rc_enum_ctlm, 0 },
	{ "bindaddress", RT_STR, F(bind_address), 0, NULL, 0 },
	{ "gatewayports", RT_FLAG, F(gateway_ports), 0, NULL, 0 },
	{ "streamlocalbindmask", RT_MASK, F(streamlocal_bind_mask), 0, NULL,
	    0177 },
	{ "streamlocalbindunlink", RT_FLAG, F(streamlocal_bind_unlink), 0,
	    NULL, 0 },
	{ "visualhostkey", RT_FLAG, F(visual_host_key), 0, NULL, 0 },
	{ "updatehostkeys", RT_ENUM, F(update_host_keys), 0, rc_enum_uhk, 1 },
	/* Kept only for UpdateHostKeys' default: no DNS lookups are made. */
	{ "verifyhostkeydns", RT_ENUM, F(verify_host_key_dns), 0,
	    rc_enum_uhk, 0 },
	{ "hostkeyalias", RT_STR, F(host_key_alias), 0, NULL, 0 },
	{ "hostbasedauthentication", RT_FLAG, F(hostbased_authentication), 0,
	    NULL, 0 },
	{ "enablesshkeysign", RT_FLAG, F(enable_ssh_keysign), 0, NULL, 0 },
	{ "hostbasedacceptedalgorithms", RT_ALGS,
	    F(hostbased_accepted_algorithms), 0, &conf_alg_sig, 0 },
	{ "hostbasedkeytypes", RT_ALGS, F(hostbased_accepted_algorithms), 0,
	    &conf_alg_sig, 0 },
	{ "ignoreunknown", RT_STR, F(ignore_unknown), 0, NULL, 0 },
	{ "connectionattempts", RT_INT, F(connection_attempts), 0, NULL, 1 },
	{ "stdinnull", RT_FLAG, F(stdin_null), 0, NULL, 0 },
	{ "forkafterauthentication", RT_FLAG, F(fork_after_auth), 0, NULL,
	    0 },
	{ "sessiontype", RT_ENUM, F(session_type), 0, rc_enum_session,
	    ST_DEFAULT },
	{ "localcommand", RT_REST, F(local_command), 0, NULL, 0 },
	{ "permitlocalcommand", RT_FLAG, F(permit_local_command), 0, NULL,
	    0 },
	{ "knownhostscommand", RT_REST, F(known_hosts_command), 0, NULL, 0 },
	{ "revokedhostkeys", RT_STR, F(revoked_host_keys), 0, NULL, 0 },
	{ "pkcs11provider", RT_STR, F(pkcs11_provider), 0, NULL, 0 },
	{ "nohostauthenticationforlocalhost", RT_FLAG,
	    F(no_host_auth_localhost), 0, NULL, 0 },
	{ "canonicalizehostname", RT_ENUM, F(canonicalize_hostname), 0,
	    rc_enum_canon, 0 },
	{ "canonicaldomains", RT_CANON, A(canonical_domains), NULL, 0 },
	{ "canonicalizepermittedcnames", RT_CANON, A(canonical_cnames),
	    "cnames", 0 },
	{ "canonicalizefallbacklocal", RT_FLAG,
	    F(canonicalize_fallback_local), 0, NULL, 1 },
	{ "canonicalizemaxdots", RT_INT, F(canonicalize_max_dots), 0, NULL,
	    1 },
	{ "fingerprinthash", RT_FPHASH, F(fingerprint_hash), 0, NULL,
	    KEY_FP_SHA256 },
	{ "syslogfacility", RT_FACILITY, F(syslog_facility), 0, NULL,
	    LOG_USER },
	{ "requiredrsasize", RT_INT, F(required_rsa_size), 0, NULL, 1024 },
	{ "permitremoteopen", RT_PERMITOPEN, A(permit_remote_open), NULL, 0 },
	{ "ipqos", RT_IPQOS, F(ipqos_interactive), F(ipqos_bulk), NULL, 0 },
	{ "casignaturealgorithms", RT_ALGS, F(ca_signature_algorithms), 0,
	    &conf_alg_ca, 0 },
	{ "securitykeyprovider", RT_STR, F(security_key_provider), 0, NULL,
	    0 },
	{ NULL, RT_IGNORE, 0, 0, NULL, 0 },
};

/* OpenSSH keywords we parse and ignore (debug note), lower case. */
static const char *const ignored_keywords[] = {
	"gssapiauthentication", "gssapidelegatecredentials",
	"gssapikeyexchange", "gssapitrustdns", "gssapiclientidentity",
	"gssapiserveridentity", "gssapirenewalforcesrekey",
	"gssapikexalgorithms",
	"proxyusefdpass",
	"tunnel", "tunneldevice",
	"logverbose",
	"smartcarddevice",
	"bindinterface", "useroaming",
	"protocol", "usersh", "cipher", "rhostsrsaauthentication",
	"rsaauthentication", "compressionlevel", "useprivilegedport",
	"tag", "obscurekeystroketiming",
	"channeltimeout",
	NULL,
};

const struct rc_kw *
rc_kw_find(const char *name)
{
	size_t i;

	for (i = 0; rc_keywords[i].name != NULL; i++)
		if (strcasecmp(rc_keywords[i].name, name) == 0)
			return &rc_keywords[i];
	return NULL;
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

int
rc_kw_ignored(const char *name)
{
	size_t i;

	for (i = 0; ignored_keywords[i] != NULL; i++)
		if (strcasecmp(ignored_keywords[i], name) == 0)
			return 1;
	return 0;
}

int
rc_algs_resolve(const char *kwname, const char *spec, char **outp)
{
	const struct rc_kw *kw = rc_kw_find(kwname);

	*outp = NULL;
	if (kw == NULL || kw->type != RT_ALGS)
		return ERR_INTERNAL;
	return conf_alg_resolve(kw->arg, spec, outp);
}

static int
parse_escape(const char *s)
{
	if (strcmp(s, "none") == 0)
		return -2;
	if (s[0] == '^' && s[1] != '\0' && s[2] == '\0')
		return (unsigned char)s[1] & 31;
	if (s[0] != '\0' && s[1] == '\0')
		return (unsigned char)s[0];
	return -3;
}

static int
arr_add(char **arr, size_t *n, const char *v)
{
	if (*n >= CO_MAX_LIST)
		return ERR_CONFIG;
	arr[(*n)++] = x_strdup(v);
	return 0;
}

/* 1 if v is in arr already: the canonical pass adds nothing twice. */
static int
arr_has(char *const *arr, size_t n, const char *v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(arr[i], v) == 0)
			return 1;
	return 0;
}


/* "NAME" of "$NAME": letters, digits and '_', not starting with a digit. */
static int
env_name_ok(const char *s)
{
	if (*s == '\0' || isdigit((unsigned char)*s))
		return 0;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

#define BAD(...) do { \
	log_error("%s line %d: " __VA_ARGS__); \
	return ERR_CONFIG; \
} while (0)

/*
 * The value of a keyword kept in an int field: a flag, a number, a
 * time, a mask, a port, a word of a table, a log level or an escape
 * character. 0 and *vp, or ERR_CONFIG (logged).
 */
static int
int_value(const struct rc_kw *kw, const struct conf_at *at, int *vp)
{
	char **argv = at->argv;
	const char *src = at->src;
	int argc = at->argc, line = at->line;
	const char *why;
	long t;
	int c;

	switch (kw->type) {
	case RT_FLAG:
		if (argc != 2 || conf_enum_lookup(conf_truefalse, argv[1],
		    vp) != 0)
			BAD("unsupported option \"%s\".", src, line, argv[1]);
		return 0;
	case RT_INT:
		if (conf_parse_int_why(argv[1], vp, &why) != 0)
			BAD("integer value %s.", src, line, why);
		if (argc != 2)
			BAD("keyword %s extra arguments at end of line", src,
			    line, kw->name);
		return 0;
	case RT_TIME:
		if (strcasecmp(argv[1], "none") == 0)
			t = 0;
		else if ((t = conf_parse_time(argv[1])) < 0 || argc != 2)
			BAD("invalid time value.", src, line);
		*vp = (int)t;
		return 0;
	case RT_MASK:
		/* Octal, as ssh(1) reads it: digits up to the first that is
		 * not octal, at most 0777. */
		if ((*vp = conf_parse_mode(argv[1])) < 0)
			BAD("Bad mask.", src, line);
		return 0;
	case RT_PORT:
		if (argc != 2 || conf_parse_int(argv[1], vp) != 0 ||
		    *vp <= 0 || *vp > 65535)
			BAD("Badly formatted port number.", src, line);
		return 0;
	case RT_ENUM:
		if (argc != 2 || conf_enum_lookup(kw->arg, argv[1], vp) != 0)
			BAD("unsupported option \"%s\".", src, line, argv[1]);
		return 0;
	case RT_LOGLEVEL:
		if (argc != 2 || (c = log_level_from_name(argv[1])) < 0)
			BAD("unsupported log level '%s'", src, line, argv[1]);
		*vp = c;
		return 0;
	case RT_ESCAPE:
		if (argc != 2 || (c = parse_escape(argv[1])) == -3)
			BAD("Bad escape character.", src, line);
		*vp = c;
		return 0;
	case RT_FPHASH: {
		enum key_fp_hash h;

		if (key_fp_hash_from_name(argv[1], &h) != 0)
			BAD("Invalid hash algorithm \"%s\".", src, line,
			    argv[1]);
		if (argc != 2)
			BAD("keyword %s extra arguments at end of line", src,
			    line, kw->name);
		*vp = (int)h;
		return 0;
	}
	case RT_FACILITY:
		if ((c = log_facility_from_name(argv[1])) < 0)
			BAD("unsupported log facility '%s'", src, line,
			    argv[1]);
		if (argc != 2)
			BAD("keyword %s extra arguments at end of line", src,
			    line, kw->name);
		*vp = c;
		return 0;
	default:
		return ERR_INTERNAL;
	}
}

/* A keyword kept in one string field; the first value wins. */
static int
str_value(struct client_opts *o, const struct rc_kw *kw,
    const struct conf_at *at)
{
	char **sp = (char **)(void *)((char *)o + kw->off), *list;
	char **argv = at->argv;
	const char *src = at->src;
	int argc = at->argc, line = at->line;

	switch (kw->type) {
	case RT_STR:
		if (argc != 2)
			BAD("keyword %s extra arguments at end of line", src,
			    line, kw->name);
		break;
	case RT_ALGS:
		if (rc_algs_resolve(kw->name, argv[1], &list) != 0) {
			const struct conf_alg *alg = kw->arg;

			BAD("Bad %s '%s'.", src, line, alg->what, argv[1]);
		}
		x_free(list);
		if (argc != 2)
			BAD("keyword %s extra arguments at end of line", src,
			    line, kw->name);
		break;
	case RT_AGENT:
		/* A path, "none", "SSH_AUTH_SOCK" or "$VARIABLE". */
		if (argc != 2)
			BAD("keyword %s extra arguments at end of line", src,
			    line, kw->name);
		if (argv[1][0] == '$' && argv[1][1] != '{' &&
		    !env_name_ok(argv[1] + 1))
			BAD("Invalid environment name %s.", src, line,
			    argv[1]);
		break;
	default:
		break;
	}
	if (*sp == NULL)
		*sp = x_strdup(kw->type == RT_REST ? at->rest : argv[1]);
	return 0;
}

/* A keyword kept in an array and its count: every line adds to it. */
static int
list_value(struct client_opts *o, const struct rc_kw *kw,
    const struct conf_at *at)
{
	struct rc_priv *p = o->priv;
	char **sp = (char **)(void *)((char *)o + kw->off);
	size_t *np = (size_t *)(void *)((char *)o + kw->cnt_off);
	char **argv = at->argv;
	const char *src = at->src;
	int i, argc = at->argc, line = at->line;

	/* The canonical pass reads the same lines again. */
	if (p->canonical_pass && kw->type != RT_FILES) {
		if (kw->type == RT_REST && arr_has(sp, *np, at->rest))
			return 0;
		if (kw->type != RT_REST && argc == 2 &&
		    arr_has(sp, *np, argv[1]))
			return 0;
	}
	switch (kw->type) {
	case RT_REST:
		return arr_add(sp, np, at->rest);
	case RT_SETENV:
		for (i = 1; i < argc; i++)
			if (strchr(argv[i], '=') == NULL)
				BAD("Invalid environment \"%s\".", src, line,
				    argv[i]);
		/* FALLTHROUGH */
	case RT_ACCUM:
		for (i = 1; i < argc; i++)
			if (!(p->canonical_pass && arr_has(sp, *np,
			    argv[i])) && arr_add(sp, np, argv[i]) != 0)
				BAD("too many %s entries.", src, line,
				    kw->type == RT_SETENV ? "SetEnv" :
				    argv[0]);
		return 0;
	case RT_IDENTITY:
		if (argc != 2)
			BAD("keyword %s extra arguments at end of line", src,
			    line, kw->name);
		if (arr_add(sp, np, argv[1]) != 0)
			BAD("Too many identity files specified.", src, line);
		o->identity_files_explicit[*np - 1] = 1;
		if (p->nident_written < CO_MAX_LIST)
			p->ident_written[p->nident_written++] =
			    x_strdup(argv[1]);
		return 0;
	case RT_FILES:
		if (*np != 0)
			return 0;
		for (i = 1; i < argc && *np < CO_MAX_LIST; i++)
			arr_add(sp, np, argv[i]);
		return 0;
	default:
		return ERR_INTERNAL;
	}
}

/*
 * ForwardAgent: yes or no, else a socket path or "$VAR", which turns
 * forwarding on as well (each of the two fields first value wins, so
 * "no" then a path leaves forwarding off and the path shown by -G).
 */
static int
fwdagent_value(struct client_opts *o, const struct conf_at *at)
{
	char **argv = at->argv;
	const char *src = at->src;
	int line = at->line, v;

	if (at->argc != 2)
		BAD("keyword %s extra arguments at end of line", src, line,
		    "forwardagent");
	if (conf_enum_lookup(conf_truefalse, argv[1], &v) == 0) {
		if (o->forward_agent == -1)
			o->forward_agent = v;
		return 0;
	}
	if (argv[1][0] == '$' && argv[1][1] != '{' &&
	    !env_name_ok(argv[1] + 1))
		BAD("Invalid environment name %s.", src, line, argv[1]);
	if (o->forward_agent == -1)
		o->forward_agent = 1;
	if (o->forward_agent_sock == NULL)
		o->forward_agent_sock = x_strdup(argv[1]);
	return 0;
}

static const struct conf_enum enum_addkeys[] = {
	{ "true", 1 }, { "false", 0 }, { "yes", 1 }, { "no", 0 },
	{ "ask", 2 }, { "confirm", 3 }, { NULL, 0 } };

/*
 * AddKeysToAgent yes|no|ask|confirm, a lifetime alone (meaning yes for
 * that long) or "confirm TIME".
 */
static int
addkeys_value(struct client_opts *o, const struct conf_at *at)
{
	char **argv = at->argv;
	const char *src = at->src;
	int line = at->line, v;
	long t = 0;

	if (at->argc > 3)
		BAD("keyword %s extra arguments at end of line", src, line,
		    "addkeystoagent");
	if (conf_enum_lookup(enum_addkeys, argv[1], &v) != 0)
		v = -1;
	if (v == 3 && at->argc == 3) {
		if ((t = conf_parse_time(argv[2])) < 0)
			BAD("invalid time value.", src, line);
	} else if (v == -1 && at->argc == 2) {
		if ((t = conf_parse_time(argv[1])) < 0)
			BAD("unsupported option", src, line);
		v = 1;
	} else if (v == -1 || at->argc == 3)
		BAD("unsupported option", src, line);
	if (t > INT_MAX)
		BAD("invalid time value.", src, line);
	if (o->add_keys_to_agent == -1) {
		o->add_keys_to_agent = v;
		o->add_keys_to_agent_lifespan = (int)t;
	}
	return 0;
}

/*
 * CanonicalDomains and CanonicalizePermittedCNAMEs: a list the first
 * line sets whole; "none" alone empties it; a CNAME rule is
 * "sources:targets".
 */
static int
canon_value(struct client_opts *o, const struct rc_kw *kw,
    const struct conf_at *at)
{
	char **sp = (char **)(void *)((char *)o + kw->off);
	size_t *np = (size_t *)(void *)((char *)o + kw->cnt_off);
	char **argv = at->argv;
	const char *src = at->src, *colon;
	int i, argc = at->argc, line = at->line;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "none") == 0 && argc > 2)
			BAD("keyword %s \"none\" argument must appear alone.",
			    src, line, kw->name);
		if (kw->arg != NULL && strcmp(argv[i], "none") != 0 &&
		    ((colon = strchr(argv[i], ':')) == NULL ||
		    colon == argv[i] || colon[1] == '\0'))
			BAD("Invalid permitted CNAME \"%s\"", src, line,
			    argv[i]);
	}
	if (*np != 0 || strcmp(argv[1], "none") == 0)
		return 0;
	for (i = 1; i < argc; i++)
		if (arr_add(sp, np, argv[i]) != 0)
			BAD("too many %s entries.", src, line, kw->name);
	return 0;
}

/* RekeyLimit: a size ("default" or 0: none) and an optional time. */
static int
rekey_value(struct client_opts *o, const struct conf_at *at)
{
	char **argv = at->argv;
	const char *src = at->src;
	int argc = at->argc, line = at->line;
	uint64_t bytes = 0;
	long t = 0;

	if (argc > 3)
		BAD("RekeyLimit takes one or two arguments.", src, line);
	if (strcmp(argv[1], "default") != 0 &&
	    (conf_parse_size(argv[1], &bytes) != 0 ||
	    (bytes != 0 && bytes < 16)))
		BAD("Bad RekeyLimit value.", src, line);
	if (argc == 3 && strcmp(argv[2], "none") != 0 &&
	    (t = conf_parse_time(argv[2])) < 0)
		BAD("Bad RekeyLimit time value.", src, line);
	if (o->rekey_bytes == UINT64_MAX) {
		o->rekey_bytes = bytes;
		o->rekey_seconds = (uint32_t)t;
	}
	return 0;
}

/* IPQoS interactive [bulk]: one value stands for both. */
static int
ipqos_value(struct client_opts *o, const struct conf_at *at)
{
	char **argv = at->argv;
	const char *src = at->src;
	int line = at->line, v, w;

	if (conf_parse_ipqos(argv[1], &v) != 0)
		BAD("Bad IPQoS value: %s", src, line, argv[1]);
	w = v;
	if (at->argc > 2 && conf_parse_ipqos(argv[2], &w) != 0)
		BAD("Bad IPQoS value: %s", src, line, argv[2]);
	if (at->argc > 3)
		BAD("keyword %s extra arguments at end of line", src, line,
		    "ipqos");
	if (o->ipqos_interactive == -2) {
		o->ipqos_interactive = v;
		o->ipqos_bulk = w;
	}
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
static int
permitopen_value(struct client_opts *o, const struct conf_at *at)
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
		if (arr_add(o->permit_remote_open, &o->npermit_remote_open,
		    argv[i]) != 0)
			BAD("too many %s entries.", src, line,
			    "permitremoteopen");
	return 0;
}

int
rc_kw_apply(struct client_opts *o, const struct rc_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line)
{
	int *ip = (int *)(void *)((char *)o + kw->off);
	const struct conf_at at = { argv, argc, rest, src, line };
	int c, r;

	if (argc < 2)
		BAD("no argument after keyword \"%s\"", src, line,
		    kw->name);
	if (argv[1][0] == '\0' && kw->type != RT_REST)
		BAD("Missing argument.", src, line);
	switch (kw->type) {
	case RT_STR: case RT_ALGS: case RT_AGENT:
		return str_value(o, kw, &at);
	case RT_REST:
		if (kw->cnt_off == 0)
			return str_value(o, kw, &at);
		/* FALLTHROUGH */
	case RT_ACCUM: case RT_SETENV: case RT_IDENTITY: case RT_FILES:
		return list_value(o, kw, &at);
	case RT_REKEY:
		return rekey_value(o, &at);
	case RT_FWDAGENT:
		return fwdagent_value(o, &at);
	case RT_ADDKEYS:
		return addkeys_value(o, &at);
	case RT_CANON:
		return canon_value(o, kw, &at);
	case RT_IPQOS:
		return ipqos_value(o, &at);
	case RT_PERMITOPEN:
		return permitopen_value(o, &at);
	case RT_IGNORE:
		return 0;
	default:
		if ((r = int_value(kw, &at, &c)) != 0)
			return r;
		if (*ip == -1)
			*ip = c;
		return 0;
	}
}
