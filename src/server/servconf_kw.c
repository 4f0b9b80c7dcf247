/*
 * servconf_kw.c: the sshd_config keyword table and its value parsers.
 *
 * Each keyword is one row: its name, a value type, flags (allowed in
 * Match, accumulating list, "none" clears) and the offset of its field in
 * struct servconf. One parser per type turns the line's arguments into
 * the field; a bitmap keyed by field offset records which fields a line
 * has set, which gives "first value wins" and lets a Match overlay copy
 * exactly the fields its lines set.
 */
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "cert.h"
#include "cipher.h"
#include "err.h"
#include "kexalg.h"
#include "key.h"
#include "log.h"
#include "mac.h"
#include "match.h"
#include "mem.h"
#include "servconf_int.h"

static const int unsupp_flag = SC_UNSUPP_FLAG;
static const int unsupp_str = SC_UNSUPP_STR;
static const int gss_on = SC_UNSUPP_GSS_ON;
static const int gss_tune = SC_UNSUPP_GSS_TUNE;
static const int gss_kex = SC_UNSUPP_GSS_KEX;

static const struct conf_enum enum_root[] = {
	{ "yes", PERMIT_ROOT_YES }, { "no", PERMIT_ROOT_NO },
	{ "without-password", PERMIT_ROOT_NO_PASSWORD },
	{ "prohibit-password", PERMIT_ROOT_NO_PASSWORD },
	{ "forced-commands-only", PERMIT_ROOT_FORCED_ONLY }, { NULL, 0 } };
static const struct conf_enum enum_af[] = {
	{ "any", AF_UNSPEC }, { "inet", AF_INET }, { "inet6", AF_INET6 },
	{ NULL, 0 } };
static const struct conf_enum enum_comp[] = {
	{ "yes", 1 }, { "delayed", 1 }, { "no", 0 }, { NULL, 0 } };
static const struct conf_enum enum_gw[] = {
	{ "no", 0 }, { "yes", 1 }, { "clientspecified", 2 }, { NULL, 0 } };
static const struct conf_enum enum_fwd[] = {
	{ "yes", 3 }, { "all", 3 }, { "no", 0 }, { "local", 2 },
	{ "remote", 1 }, { NULL, 0 } };
static const struct conf_enum enum_tun[] = {
	{ "no", 0 }, { "point-to-point", 1 }, { "ethernet", 2 },
	{ "yes", 3 }, { NULL, 0 } };
static const struct conf_enum enum_rhosts[] = {
	{ "yes", IGNORE_RHOSTS_YES }, { "no", IGNORE_RHOSTS_NO },
	{ "shosts-only", IGNORE_RHOSTS_SHOSTS }, { NULL, 0 } };

#define F(m)  offsetof(struct servconf, m)
#define A(m)  offsetof(struct servconf, m), offsetof(struct servconf, n##m)
#define M KWF_MATCH

const struct sc_kw sc_keywords[] = {
	{ "port", T_PORT, KWF_ACCUM, F(ports), F(nports), NULL },
	{ "listenaddress", T_LISTEN, KWF_ACCUM, F(listen), F(nlisten), NULL },
	{ "addressfamily", T_ENUM, 0, F(address_family), 0, enum_af },
	{ "hostkey", T_STRARR, KWF_ACCUM, A(hostkeys), NULL },
	{ "hostcertificate", T_STRARR, KWF_ACCUM, A(host_certificates), NULL },
	{ "pidfile", T_STR, KWF_NONE, F(pid_file), 0, NULL },
	{ "loglevel", T_LOGLEVEL, M, F(log_level), 0, NULL },
	{ "syslogfacility", T_FACILITY, 0, F(log_facility), 0, NULL },
	{ "ciphers", T_ALGS, 0, F(ciphers), 0, &conf_alg_cipher },
	{ "macs", T_ALGS, 0, F(macs), 0, &conf_alg_mac },
	{ "kexalgorithms", T_ALGS, 0, F(kex_algorithms), 0,
	    &conf_alg_kex_server },
	{ "hostkeyalgorithms", T_ALGS, 0, F(hostkey_algorithms), 0,
	    &conf_alg_sig },
	{ "pubkeyacceptedalgorithms", T_ALGS, M,
	    F(pubkey_accepted_algorithms), 0, &conf_alg_sig },
	{ "pubkeyacceptedkeytypes", T_ALGS, M,
	    F(pubkey_accepted_algorithms), 0, &conf_alg_sig },
	{ "rekeylimit", T_REKEY, M, F(rekey_bytes), F(rekey_seconds), NULL },
	{ "logingracetime", T_TIME, 0, F(login_grace_time), 0, NULL },
	{ "maxauthtries", T_INT, M, F(max_auth_tries), 0, NULL },
	{ "maxsessions", T_INT, M, F(max_sessions), 0, NULL },
	{ "maxstartups", T_STARTUPS, 0, F(max_startups_begin), 0, NULL },
	{ "permitrootlogin", T_ENUM, M, F(permit_root_login), 0, enum_root },
	{ "pubkeyauthentication", T_FLAG, M, F(pubkey_authentication), 0,
	    NULL },
	{ "passwordauthentication", T_FLAG, M, F(password_authentication), 0,
	    NULL },
	{ "kbdinteractiveauthentication", T_FLAG, M,
	    F(kbd_interactive_authentication), 0, NULL },
	{ "challengeresponseauthentication", T_FLAG, M,
	    F(kbd_interactive_authentication), 0, NULL },
	{ "permitemptypasswords", T_FLAG, M, F(permit_empty_passwords), 0,
	    NULL },
	{ "permituserenvironment", T_USERENV, 0, F(permit_user_environment),
	    F(permit_user_env_allowlist), NULL },
	{ "authorizedkeysfile", T_STRARR, M, A(authorized_keys_files), NULL },
	{ "strictmodes", T_FLAG, 0, F(strict_modes), 0, NULL },
	{ "allowusers", T_STRARR, M | KWF_ACCUM, A(allow_users), NULL },
	{ "denyusers", T_STRARR, M | KWF_ACCUM, A(deny_users), NULL },
	{ "allowgroups", T_STRARR, M | KWF_ACCUM, A(allow_groups), NULL },
	{ "denygroups", T_STRARR, M | KWF_ACCUM, A(deny_groups), NULL },
	{ "subsystem", T_SUBSYS, KWF_ACCUM, F(subsystems), F(nsubsystems),
	    NULL },
	{ "forcecommand", T_REST, M | KWF_NONE, F(force_command), 0, NULL },
	{ "permittty", T_FLAG, M, F(permit_tty), 0, NULL },
	{ "printmotd", T_FLAG, 0, F(print_motd), 0, NULL },
	{ "printlastlog", T_FLAG, 0, F(print_last_log), 0, NULL },
	{ "banner", T_STR, M | KWF_NONE, F(banner), 0, NULL },
	{ "clientaliveinterval", T_TIME, M, F(client_alive_interval), 0,
	    NULL },
	{ "clientalivecountmax", T_INT, M, F(client_alive_count_max), 0,
	    NULL },
	{ "tcpkeepalive", T_FLAG, 0, F(tcp_keep_alive), 0, NULL },
	{ "setenv", T_SETENV, M | KWF_ACCUM, A(set_env), NULL },
	{ "acceptenv", T_STRARR, M | KWF_ACCUM, A(accept_env), NULL },
	{ "chrootdirectory", T_STR, M | KWF_NONE, F(chroot_directory), 0,
	    NULL },
	{ "usepam", T_FLAG, 0, F(use_pam), 0, NULL },
	{ "pamservicename", T_STR, M, F(pam_service_name), 0, NULL },
	{ "modulifile", T_STR, 0, F(moduli_file), 0, NULL },
	{ "versionaddendum", T_REST, KWF_NONE, F(version_addendum), 0, NULL },
	{ "usedns", T_FLAG, 0, F(use_dns), 0, NULL },
	{ "allowtcpforwarding", T_ENUM, M, F(allow_tcp_forwarding), 0,
	    enum_fwd },
	{ "x11forwarding", T_FLAG, M, F(x11_forwarding), 0, NULL },
	{ "x11displayoffset", T_INT, M, F(x11_display_offset), 0, NULL },
	{ "x11uselocalhost", T_FLAG, M, F(x11_use_localhost), 0, NULL },
	{ "xauthlocation", T_STR, 0, F(xauth_location), 0, NULL },
	{ "allowagentforwarding", T_FLAG, M, F(allow_agent_forwarding), 0,
	    NULL },
	{ "gatewayports", T_ENUM, M, F(gateway_ports), 0, enum_gw },
	{ "permittunnel", T_ENUM, M, F(permit_tunnel), 0, enum_tun },
	{ "compression", T_ENUM, 0, F(compression), 0, enum_comp },
	{ "authorizedkeyscommand", T_REST, M | KWF_NONE,
	    F(authorized_keys_command), 0, NULL },
	{ "authorizedkeyscommanduser", T_STR, M | KWF_NONE,
	    F(authorized_keys_command_user), 0, NULL },
	{ "authorizedkeyscommandtimeout", T_TIME, M,
	    F(authorized_keys_command_timeout), 0, NULL },
	{ "trustedusercakeys", T_STR, M | KWF_NONE, F(trusted_user_ca_keys), 0,
	    NULL },
	{ "revokedkeys", T_STR, M | KWF_NONE, F(revoked_keys), 0, NULL },
	{ "authorizedprincipalsfile", T_STR, M | KWF_NONE,
	    F(authorized_principals_file), 0, NULL },
	{ "authorizedprincipalscommand", T_REST, M | KWF_NONE,
	    F(authorized_principals_command), 0, NULL },
	{ "authorizedprincipalscommanduser", T_STR, M | KWF_NONE,
	    F(authorized_principals_command_user), 0, NULL },
	{ "authenticationmethods", T_AUTHMETHODS, M,
	    F(authentication_methods), 0, NULL },
	{ "permitopen", T_STRARR, M, A(permit_open), NULL },
	{ "permitlisten", T_STRARR, M, A(permit_listen), NULL },
	{ "disableforwarding", T_FLAG, M, F(disable_forwarding), 0, NULL },
	{ "allowstreamlocalforwarding", T_ENUM, M,
	    F(allow_streamlocal_forwarding), 0, enum_fwd },
	{ "streamlocalbindmask", T_MODE, M, F(streamlocal_bind_mask), 0,
	    NULL },
	{ "streamlocalbindunlink", T_FLAG, M, F(streamlocal_bind_unlink), 0,
	    NULL },
	{ "hostbasedauthentication", T_FLAG, M, F(hostbased_authentication), 0,
	    NULL },
	{ "hostbasedacceptedalgorithms", T_ALGS, M,
	    F(hostbased_accepted_algorithms), 0, &conf_alg_sig },
	{ "hostbasedacceptedkeytypes", T_ALGS, M,
	    F(hostbased_accepted_algorithms), 0, &conf_alg_sig },
	{ "hostbasedusesnamefrompacketonly", T_FLAG, M,
	    F(hostbased_uses_name_from_packet_only), 0, NULL },
	{ "ignorerhosts", T_ENUM, M, F(ignore_rhosts), 0, enum_rhosts },
	{ "ignoreuserknownhosts", T_FLAG, 0, F(ignore_user_known_hosts), 0,
	    NULL },
	{ "persourcemaxstartups", T_PERSOURCE, 0, F(per_source_max_startups),
	    0, NULL },
	{ "persourcenetblocksize", T_PERSOURCE, 0, F(per_source_masklen4), 0,
	    NULL },
	{ "persourcepenalties", T_PERSOURCE, 0, F(penalties.enabled), 0, NULL },
	{ "persourcepenaltyexemptlist", T_PERSOURCE, 0, F(penalty_exempt), 0,
	    NULL },
	{ "include", T_INCLUDE, M, 0, 0, NULL },
	{ "match", T_MATCH, M, 0, 0, NULL },
	{ "requiredrsasize", T_INT, M, F(required_rsa_size), 0, NULL },
	{ "fingerprinthash", T_FPHASH, 0, F(fingerprint_hash), 0, NULL },
	{ "permituserrc", T_FLAG, M, F(permit_user_rc), 0, NULL },
	{ "exposeauthinfo", T_FLAG, M, F(expose_auth_info), 0, NULL },
	{ "logverbose", T_REST, M | KWF_NOTYET, F(log_verbose), 0, NULL },
	{ "casignaturealgorithms", T_ALGS, M, F(ca_signature_algorithms), 0,
	    &conf_alg_ca },
	{ "pubkeyauthoptions", T_PKOPTS, M, F(pubkey_auth_options), 0, NULL },
	{ "unusedconnectiontimeout", T_TIMENONE, M,
	    F(unused_connection_timeout), 0, NULL },
	{ "channeltimeout", T_CHANTIMEOUT, M, F(channel_timeouts), 0, NULL },
	{ "ipqos", T_IPQOS, M, F(ipqos_interactive), 0, NULL },
	{ "debianbanner", T_FLAG, 0, F(debian_banner), 0, NULL },
	/* Features we do not have: the value is checked, then logged. */
	/* GSSAPI: "no" is what we do; "yes" stops sshd (servconf_extra.c). */
	{ "gssapiauthentication", T_UNSUPP, M, 0, 0, &gss_on },
	{ "gssapicleanupcredentials", T_UNSUPP, 0, 0, 0, &gss_tune },
	{ "gssapikeyexchange", T_UNSUPP, 0, 0, 0, &gss_on },
	{ "gssapistorecredentialsonrekey", T_UNSUPP, 0, 0, 0, &gss_tune },
	{ "gssapistrictacceptorcheck", T_UNSUPP, 0, 0, 0, &gss_tune },
	{ "gssapikexalgorithms", T_UNSUPP, 0, 0, 0, &gss_kex },
	{ "kerberosauthentication", T_UNSUPP, M, 0, 0, &unsupp_flag },
	{ "kerberosorlocalpasswd", T_UNSUPP, 0, 0, 0, &unsupp_flag },
	{ "kerberosticketcleanup", T_UNSUPP, 0, 0, 0, &unsupp_flag },
	{ "hostkeyagent", T_UNSUPP, 0, 0, 0, &unsupp_str },
	{ "securitykeyprovider", T_UNSUPP, 0, 0, 0, &unsupp_str },
	/*
	 * Gone from OpenSSH long ago; its sshd still starts with them in
	 * the file (old Debian configurations name several) and says so.
	 */
	{ "afstokenpassing", T_DEPRECATED, 0, 0, 0, NULL },
	{ "authorizedkeysfile2", T_DEPRECATED, M, 0, 0, NULL },
	{ "checkmail", T_DEPRECATED, 0, 0, 0, NULL },
	{ "kerberostgtpassing", T_DEPRECATED, 0, 0, 0, NULL },
	{ "keyregenerationinterval", T_DEPRECATED, 0, 0, 0, NULL },
	{ "protocol", T_IGNORE, 0, 0, 0, NULL },
	{ "reversemappingcheck", T_DEPRECATED, 0, 0, 0, NULL },
	{ "rhostsauthentication", T_DEPRECATED, 0, 0, 0, NULL },
	{ "rhostsrsaauthentication", T_DEPRECATED, M, 0, 0, NULL },
	{ "rsaauthentication", T_DEPRECATED, M, 0, 0, NULL },
	{ "serverkeybits", T_DEPRECATED, 0, 0, 0, NULL },
	{ "uselogin", T_DEPRECATED, 0, 0, 0, NULL },
	{ "useprivilegeseparation", T_DEPRECATED, 0, 0, 0, NULL },
	{ "verifyreversemapping", T_DEPRECATED, 0, 0, 0, NULL },
};
const size_t sc_nkeywords = sizeof(sc_keywords) / sizeof(sc_keywords[0]);

#undef M

const struct sc_kw *
sc_kw_find(const char *name)
{
	size_t i;

	for (i = 0; i < sc_nkeywords; i++)
		if (strcasecmp(sc_keywords[i].name, name) == 0)
			return &sc_keywords[i];
	return NULL;
}

int
sc_is_set(const struct servconf *sc, size_t off)
{
	const struct sc_priv *p = sc->priv;
	size_t slot = off / sizeof(int);

	return (p->set[slot / 8] >> (slot % 8)) & 1;
}

void
sc_mark_set(struct servconf *sc, size_t off)
{
	struct sc_priv *p = sc->priv;
	size_t slot = off / sizeof(int);

	p->set[slot / 8] |= (unsigned char)(1 << (slot % 8));
}

#define FIELD(sc, off, T) ((T *)(void *)((char *)(sc) + (off)))

/* "host", "host:port", "[v6]:port", "v6" into a listen entry. */
static int
parse_listen(const char *arg, struct sc_listen *l)
{
	const char *colon, *host = arg, *port = NULL;
	char *h;
	size_t hl;
	int p = 0;

	if (*arg == '[') {
		if ((colon = strchr(arg, ']')) == NULL)
			return ERR_CONFIG;
		host = arg + 1;
		hl = (size_t)(colon - host);
		if (colon[1] == ':')
			port = colon + 2;
		else if (colon[1] != '\0')
			return ERR_CONFIG;
	} else if ((colon = strchr(arg, ':')) != NULL &&
	    strchr(colon + 1, ':') == NULL) {
		hl = (size_t)(colon - arg);
		port = colon + 1;
	} else
		hl = strlen(arg);
	if (hl == 0)
		return ERR_CONFIG;
	if (port != NULL &&
	    (conf_parse_int(port, &p) != 0 || p < 1 || p > 65535))
		return ERR_CONFIG;
	h = x_strndup(host, hl);
	l->addr = h;
	l->port = p;
	return 0;
}

static const char *auth_methods[] = { "publickey", "password",
	"keyboard-interactive", "hostbased", "gssapi-with-mic", NULL };

/* Each comma-separated method must be known (kbd-int may have :sub). */
static int
valid_auth_list(const char *list)
{
	char *dup = x_strdup(list), *cp = dup, *m, *colon;
	int i, ok = 1;

	while (ok && (m = strsep(&cp, ",")) != NULL) {
		if ((colon = strchr(m, ':')) != NULL)
			*colon = '\0';
		for (i = 0; auth_methods[i] != NULL; i++)
			if (strcmp(m, auth_methods[i]) == 0)
				break;
		if (auth_methods[i] == NULL ||
		    (colon != NULL && strcmp(m, "keyboard-interactive") != 0))
			ok = 0;
	}
	x_free(dup);
	return ok;
}

int
sc_algs_default(const struct sc_kw *kw, char **outp)
{
	return conf_alg_resolve(kw->arg, NULL, outp);
}

static int
parse_algs(const struct sc_kw *kw, const char *arg, char **outp)
{
	const struct conf_alg *alg = kw->arg;
	const char *body = arg;

	*outp = NULL;
	if (*body == '+' || *body == '-' || *body == '^')
		body++;
	if (*body == '\0' || strchr(arg, '!') != NULL ||
	    (!alg->patterns_ok && *arg != '-' && strpbrk(body, "*?") != NULL))
		return ERR_CONFIG;
	return conf_alg_resolve(alg, arg, outp) == 0 ? 0 : ERR_CONFIG;
}

/* Append each argument to a string array; 0 or ERR_CONFIG when it is full. */
static int
strarr_add(char **arr, size_t *n, char **argv, int argc)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (*n >= SC_MAX_LIST)
			return ERR_CONFIG;
		arr[(*n)++] = x_strdup(argv[i]);
	}
	return 0;
}

static int
bad_value(char **argv, const char *src, int line)
{
	log_error("%s line %d: Bad %s value '%s'.", src, line, argv[0],
	    argv[1]);
	return ERR_CONFIG;
}

static int
too_many(char **argv, const char *src, int line)
{
	log_error("%s line %d: too many %s entries.", src, line, argv[0]);
	return ERR_CONFIG;
}

/* The most words a line of type may have, the keyword included. */
static int
max_args(enum sc_type type)
{
	switch (type) {
	case T_STRARR: case T_SETENV: case T_PORT: case T_LISTEN:
	case T_SUBSYS: case T_AUTHMETHODS: case T_REST:
		return INT_MAX;
	case T_REKEY:
		return 3;
	case T_UNSUPP: case T_FPHASH: case T_IPQOS: case T_CHANTIMEOUT:
	case T_TIMENONE: case T_PKOPTS:
		return sc_extra_maxargs(type);
	default:
		return 2;
	}
}

/*
 * The value of a keyword kept in one int field: a flag, a number, a
 * time, a mode, a word of a table, a log level or facility.
 */
static int
int_value(const struct sc_kw *kw, char **argv, int *vp, const char *src,
    int line)
{
	const char *what;

	switch (kw->type) {
	case T_FLAG:
		if (conf_enum_lookup(conf_yesno, argv[1], vp) != 0) {
			log_error("%s line %d: unsupported option \"%s\".",
			    src, line, argv[1]);
			return ERR_CONFIG;
		}
		return 0;
	case T_INT:
		if (conf_parse_int_why(argv[1], vp, &what) != 0) {
			log_error("%s line %d: %s integer value %s.", src,
			    line, argv[0], what);
			return ERR_CONFIG;
		}
		return 0;
	case T_TIME:
		if ((*vp = (int)conf_parse_time(argv[1])) < 0)
			return bad_value(argv, src, line);
		return 0;
	case T_MODE:
		if ((*vp = conf_parse_mode(argv[1])) < 0) {
			log_error("%s line %d: Invalid %s.", src, line,
			    argv[0]);
			return ERR_CONFIG;
		}
		return 0;
	case T_ENUM:
		if (conf_enum_lookup(kw->arg, argv[1], vp) != 0)
			return bad_value(argv, src, line);
		return 0;
	case T_LOGLEVEL:
		if ((*vp = log_level_from_name(argv[1])) < 0)
			return bad_value(argv, src, line);
		return 0;
	case T_FACILITY:
		if ((*vp = log_facility_from_name(argv[1])) < 0)
			return bad_value(argv, src, line);
		return 0;
	default:
		return ERR_INTERNAL;
	}
}

/* A keyword kept in one string field (PermitUserEnvironment: two). */
static int
str_value(struct servconf *sc, const struct sc_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line)
{
	char **sp = FIELD(sc, kw->off, char *), *s = NULL;
	struct sc_priv *p = sc->priv;
	int i, v;

	switch (kw->type) {
	case T_STR:
	case T_REST:
		s = kw->type == T_STR ? argv[1] : (char *)rest;
		*sp = (kw->flags & KWF_NONE) && strcasecmp(s, "none") == 0 ?
		    NULL : x_strdup(s);
		return 0;
	case T_AUTHMETHODS:
		if (argc == 2 && strcmp(argv[1], "any") == 0)
			return 0;	/* NULL: any */
		for (i = 1; i < argc; i++)
			if (!valid_auth_list(argv[i]))
				return bad_value(argv, src, line);
		*sp = x_strdup(rest);
		x_free(p->am_source);
		p->am_source = x_strdup(src);
		p->am_line = line;
		return 0;
	case T_ALGS:
		if (parse_algs(kw, argv[1], &s) != 0) {
			log_error("%s line %d: Bad %s '%s'.", src, line,
			    ((const struct conf_alg *)kw->arg)->what, argv[1]);
			return ERR_CONFIG;
		}
		*sp = s;
		return 0;
	case T_USERENV:
		/* As OpenSSH: exactly "yes" or "no", else a pattern list. */
		v = strcmp(argv[1], "no") != 0;
		*FIELD(sc, kw->off, int) = v;
		*FIELD(sc, kw->cnt_off, char *) = v &&
		    strcmp(argv[1], "yes") != 0 ? x_strdup(argv[1]) : NULL;
		return 0;
	default:
		return ERR_INTERNAL;
	}
}

/* Subsystem NAME COMMAND...: a name defined once, the command whole. */
static int
subsystem(struct servconf *sc, char **argv, int argc, const char *rest,
    const char *src, int line)
{
	const char *s;
	size_t i;

	if (argc < 3)
		return bad_value(argv, src, line);
	for (i = 0; i < sc->nsubsystems; i++)
		if (strcmp(sc->subsystems[i].name, argv[1]) == 0) {
			log_error("%s line %d: Subsystem '%s' already "
			    "defined.", src, line, argv[1]);
			return ERR_CONFIG;
		}
	if (sc->nsubsystems >= SC_MAX_LIST)
		return too_many(argv, src, line);
	sc->subsystems[sc->nsubsystems].name = x_strdup(argv[1]);
	s = rest + strcspn(rest, " \t");
	s += strspn(s, " \t");
	sc->subsystems[sc->nsubsystems++].command = x_strdup(s);
	return 0;
}

/* A keyword kept in an array: ports, listen addresses, words. */
static int
list_value(struct servconf *sc, const struct sc_kw *kw, char **argv,
    int argc, const char *src, int line)
{
	int i, v;

	switch (kw->type) {
	case T_SETENV:
		for (i = 1; i < argc; i++)
			if (strchr(argv[i], '=') == NULL || argv[i][0] == '=')
				return bad_value(argv, src, line);
		/* FALLTHROUGH */
	case T_STRARR:
		if (strarr_add(FIELD(sc, kw->off, char *),
		    FIELD(sc, kw->cnt_off, size_t), argv, argc) != 0)
			return too_many(argv, src, line);
		return 0;
	case T_PORT:
		for (i = 1; i < argc; i++) {
			if (conf_parse_int(argv[i], &v) != 0 || v < 1 ||
			    v > 65535) {
				log_error("%s line %d: Badly formatted port "
				    "number.", src, line);
				return ERR_CONFIG;
			}
			if (sc->nports >= SC_MAX_LIST)
				return too_many(argv, src, line);
			sc->ports[sc->nports++] = v;
		}
		return 0;
	case T_LISTEN:
		/* An optional "rdomain NAME" may follow; accepted, unused. */
		if (argc != 2 && !(argc == 4 &&
		    strcasecmp(argv[2], "rdomain") == 0))
			return bad_value(argv, src, line);
		if (sc->nlisten >= SC_MAX_LIST)
			return too_many(argv, src, line);
		if (parse_listen(argv[1], &sc->listen[sc->nlisten]) != 0)
			return bad_value(argv, src, line);
		sc->nlisten++;
		return 0;
	default:
		return ERR_INTERNAL;
	}
}

/* RekeyLimit SIZE [TIME] and MaxStartups N or START:RATE:FULL. */
static int
pair_value(struct servconf *sc, const struct sc_kw *kw, char **argv,
    int argc, const char *src, int line)
{
	int b, r = 30, m;
	long t;

	if (kw->type == T_REKEY) {
		if (strcmp(argv[1], "default") == 0 ||
		    strcmp(argv[1], "none") == 0)
			sc->rekey_bytes = 0;
		else if (conf_parse_size(argv[1], &sc->rekey_bytes) != 0 ||
		    (sc->rekey_bytes != 0 && sc->rekey_bytes < 16))
			return bad_value(argv, src, line);
		sc->rekey_seconds = 0;
		if (argc == 3 && strcmp(argv[2], "default") != 0 &&
		    strcmp(argv[2], "none") != 0) {
			if ((t = conf_parse_time(argv[2])) < 0)
				return bad_value(argv, src, line);
			sc->rekey_seconds = (uint32_t)t;
		}
		return 0;
	}
	if (sscanf(argv[1], "%d:%d:%d", &b, &r, &m) == 3) {
		if (b <= 0 || m <= 0 || r <= 0 || r > 100 || b > m)
			return bad_value(argv, src, line);
	} else if (conf_parse_int(argv[1], &b) == 0 && b > 0) {
		m = b;
	} else
		return bad_value(argv, src, line);
	sc->max_startups_begin = b;
	sc->max_startups_rate = r;
	sc->max_startups_max = m;
	return 0;
}

/* The value of kw from argv into sc, by its type. */
static int
apply_value(struct servconf *sc, const struct sc_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line)
{
	int v, r;

	switch (kw->type) {
	case T_FLAG: case T_INT: case T_TIME: case T_MODE: case T_ENUM:
	case T_LOGLEVEL: case T_FACILITY:
		if ((r = int_value(kw, argv, &v, src, line)) != 0)
			return r;
		*FIELD(sc, kw->off, int) = v;
		return 0;
	case T_STR: case T_REST: case T_AUTHMETHODS: case T_ALGS:
	case T_USERENV:
		return str_value(sc, kw, argv, argc, rest, src, line);
	case T_STRARR: case T_SETENV: case T_PORT: case T_LISTEN:
		return list_value(sc, kw, argv, argc, src, line);
	case T_SUBSYS:
		return subsystem(sc, argv, argc, rest, src, line);
	case T_REKEY: case T_STARTUPS:
		return pair_value(sc, kw, argv, argc, src, line);
	case T_FPHASH: case T_IPQOS: case T_CHANTIMEOUT: case T_TIMENONE:
	case T_PKOPTS:
		return sc_extra_apply(sc, kw, argv, argc, src, line);
	default:
		return ERR_CONFIG;	/* Include/Match: the loader's */
	}
}

int
sc_kw_apply(struct servconf *sc, const struct sc_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line)
{
	struct servconf *scratch;
	int r;

	if (kw->type == T_IGNORE) {
		log_debug("%s line %d: %s is not supported, ignored", src, line,
		    argv[0]);
		return 0;
	}
	if (kw->type == T_DEPRECATED) {
		log_info("%s line %d: Deprecated option %s", src, line,
		    argv[0]);
		return 0;
	}
	if (argc < 2 || (argc == 2 && argv[1][0] == '\0')) {
		log_error("%s line %d: %s missing argument.", src, line,
		    argv[0]);
		return ERR_CONFIG;
	}
	if (kw->type == T_PERSOURCE)
		return sc_persource_apply(sc, kw, argv, argc, src, line);
	if (argc > max_args(kw->type)) {
		log_error("%s line %d: keyword %s extra arguments at end of "
		    "line", src, line, argv[0]);
		return ERR_CONFIG;
	}
	if (kw->type == T_UNSUPP)	/* checked, logged, kept nowhere */
		return sc_extra_apply(sc, kw, argv, argc, src, line);
	/*
	 * First value wins: a set single-value keyword ignores later lines,
	 * after checking them on a scratch config.
	 */
	if (sc_is_set(sc, kw->off) && !(kw->flags & KWF_ACCUM) &&
	    kw->type != T_SUBSYS) {
		scratch = servconf_new();
		r = sc_kw_apply(scratch, kw, argv, argc, rest, src, line);
		servconf_free(scratch);
		return r;
	}
	if ((r = apply_value(sc, kw, argv, argc, rest, src, line)) != 0)
		return r;
	if ((kw->flags & KWF_NOTYET) && sc_extra_is_on(sc, kw))
		log_info("%s line %d: Unsupported option %s", src, line,
		    argv[0]);
	sc_mark_set(sc, kw->off);
	return 0;
}
