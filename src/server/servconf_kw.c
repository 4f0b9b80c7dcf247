/*
 * servconf_kw.c: the sshd_config keyword table and its value parsers.
 *
 * Each keyword is one row of the type both configuration files share
 * (struct conf_kw, conf_kw.h: the row format is described there): its
 * name, a value type, flags (allowed in Match, accumulating list, "none"
 * clears), the offset of its field in struct servconf and how sshd -T
 * prints it. The shared types are checked in conf_kw.c, the rest here;
 * the messages are sshd's own. A bitmap keyed by field offset records
 * which fields a line has set, which gives "first value wins" and lets a
 * Match overlay copy exactly the fields its lines set.
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

/*
 * sshd -T prints a value's first word in its table (conf_kw_dump_row), as
 * OpenSSH does: without-password before prohibit-password, yes before
 * all. Keep that order when adding words.
 */
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

const struct conf_kw sc_keywords[] = {
	{ "port", T_PORT, KWF_ACCUM, F(ports), F(nports), &conf_range_port,
	    0, CKD_NO },
	{ "listenaddress", T_LISTEN, KWF_ACCUM, F(listen), F(nlisten), NULL,
	    0, CKD_NO },
	{ "addressfamily", T_ENUM, 0, F(address_family), 0, enum_af,
	    0, CKD_ENUM },
	{ "hostkey", T_STRARR, KWF_ACCUM, A(hostkeys), NULL, 0, CKD_LINES },
	{ "hostcertificate", T_STRARR, KWF_ACCUM, A(host_certificates), NULL,
	    0, CKD_LINES },
	{ "pidfile", T_STR, KWF_NONE, F(pid_file), 0, NULL, 0, CKD_STR },
	{ "loglevel", T_LOGLEVEL, M, F(log_level), 0, NULL, 0, CKD_LOGLEVEL },
	{ "syslogfacility", T_FACILITY, 0, F(log_facility), 0, NULL,
	    0, CKD_FACILITY },
	{ "ciphers", T_ALGS, 0, F(ciphers), 0, &conf_alg_cipher, 0, CKD_STR },
	{ "macs", T_ALGS, 0, F(macs), 0, &conf_alg_mac, 0, CKD_STR },
	{ "kexalgorithms", T_ALGS, 0, F(kex_algorithms), 0,
	    &conf_alg_kex_server, 0, CKD_STR },
	{ "hostkeyalgorithms", T_ALGS, 0, F(hostkey_algorithms), 0,
	    &conf_alg_sig, 0, CKD_STR },
	{ "pubkeyacceptedalgorithms", T_ALGS, M,
	    F(pubkey_accepted_algorithms), 0, &conf_alg_sig, 0, CKD_STR },
	{ "pubkeyacceptedkeytypes", T_ALGS, M,
	    F(pubkey_accepted_algorithms), 0, &conf_alg_sig, 0, CKD_NO },
	{ "rekeylimit", T_REKEY, M, F(rekey_bytes), F(rekey_seconds), NULL,
	    0, CKD_NO },
	{ "logingracetime", T_TIME, 0, F(login_grace_time), 0, NULL,
	    0, CKD_INT },
	{ "maxauthtries", T_INT, M, F(max_auth_tries), 0, NULL, 0, CKD_INT },
	{ "maxsessions", T_INT, M, F(max_sessions), 0, NULL, 0, CKD_INT },
	{ "maxstartups", T_STARTUPS, 0, F(max_startups_begin), 0, NULL,
	    0, CKD_NO },
	{ "permitrootlogin", T_ENUM, M, F(permit_root_login), 0, enum_root,
	    0, CKD_ENUM },
	{ "pubkeyauthentication", T_FLAG, M, F(pubkey_authentication), 0,
	    NULL, 0, CKD_YN },
	{ "passwordauthentication", T_FLAG, M, F(password_authentication), 0,
	    NULL, 0, CKD_YN },
	{ "kbdinteractiveauthentication", T_FLAG, M,
	    F(kbd_interactive_authentication), 0, NULL, 0, CKD_YN },
	{ "challengeresponseauthentication", T_FLAG, M,
	    F(kbd_interactive_authentication), 0, NULL, 0, CKD_NO },
	{ "permitemptypasswords", T_FLAG, M, F(permit_empty_passwords), 0,
	    NULL, 0, CKD_YN },
	{ "permituserenvironment", T_USERENV, 0, F(permit_user_environment),
	    F(permit_user_env_allowlist), NULL, 0, CKD_NO },
	{ "authorizedkeysfile", T_STRARR, M, A(authorized_keys_files), NULL,
	    0, CKD_NO },
	{ "strictmodes", T_FLAG, 0, F(strict_modes), 0, NULL, 0, CKD_YN },
	{ "allowusers", T_STRARR, M | KWF_ACCUM, A(allow_users), NULL,
	    0, CKD_LINES },
	{ "denyusers", T_STRARR, M | KWF_ACCUM, A(deny_users), NULL,
	    0, CKD_LINES },
	{ "allowgroups", T_STRARR, M | KWF_ACCUM, A(allow_groups), NULL,
	    0, CKD_LINES },
	{ "denygroups", T_STRARR, M | KWF_ACCUM, A(deny_groups), NULL,
	    0, CKD_LINES },
	{ "subsystem", T_SUBSYS, KWF_ACCUM, F(subsystems), F(nsubsystems),
	    NULL, 0, CKD_NO },
	{ "forcecommand", T_REST, M | KWF_NONE, F(force_command), 0, NULL,
	    0, CKD_STR },
	{ "permittty", T_FLAG, M, F(permit_tty), 0, NULL, 0, CKD_YN },
	{ "printmotd", T_FLAG, 0, F(print_motd), 0, NULL, 0, CKD_YN },
	{ "printlastlog", T_FLAG, 0, F(print_last_log), 0, NULL, 0, CKD_YN },
	{ "banner", T_STR, M | KWF_NONE, F(banner), 0, NULL, 0, CKD_STR },
	{ "clientaliveinterval", T_TIME, M, F(client_alive_interval), 0,
	    NULL, 0, CKD_INT },
	{ "clientalivecountmax", T_INT, M, F(client_alive_count_max), 0,
	    NULL, 0, CKD_INT },
	{ "tcpkeepalive", T_FLAG, 0, F(tcp_keep_alive), 0, NULL, 0, CKD_YN },
	{ "setenv", T_SETENV, M | KWF_ACCUM, A(set_env), NULL, 0, CKD_LINES },
	{ "acceptenv", T_STRARR, M | KWF_ACCUM, A(accept_env), NULL,
	    0, CKD_LINES },
	{ "chrootdirectory", T_STR, M | KWF_NONE, F(chroot_directory), 0,
	    NULL, 0, CKD_STR },
	{ "usepam", T_FLAG, 0, F(use_pam), 0, NULL, 0, CKD_YN },
	{ "pamservicename", T_STR, M, F(pam_service_name), 0, NULL,
	    0, CKD_STR },
	{ "modulifile", T_STR, 0, F(moduli_file), 0, NULL, 0, CKD_NO },
	{ "versionaddendum", T_REST, KWF_NONE, F(version_addendum), 0, NULL,
	    0, CKD_STR },
	{ "usedns", T_FLAG, 0, F(use_dns), 0, NULL, 0, CKD_YN },
	{ "allowtcpforwarding", T_ENUM, M, F(allow_tcp_forwarding), 0,
	    enum_fwd, 0, CKD_ENUM },
	{ "x11forwarding", T_FLAG, M, F(x11_forwarding), 0, NULL, 0, CKD_YN },
	{ "x11displayoffset", T_INT, M, F(x11_display_offset), 0, NULL,
	    0, CKD_INT },
	{ "x11uselocalhost", T_FLAG, M, F(x11_use_localhost), 0, NULL,
	    0, CKD_YN },
	{ "xauthlocation", T_STR, 0, F(xauth_location), 0, NULL, 0, CKD_STR },
	{ "allowagentforwarding", T_FLAG, M, F(allow_agent_forwarding), 0,
	    NULL, 0, CKD_YN },
	{ "gatewayports", T_ENUM, M, F(gateway_ports), 0, enum_gw,
	    0, CKD_ENUM },
	{ "permittunnel", T_ENUM, M, F(permit_tunnel), 0, enum_tun,
	    0, CKD_ENUM },
	{ "compression", T_ENUM, 0, F(compression), 0, enum_comp, 0, CKD_YN },
	{ "authorizedkeyscommand", T_REST, M | KWF_NONE,
	    F(authorized_keys_command), 0, NULL, 0, CKD_STR },
	{ "authorizedkeyscommanduser", T_STR, M | KWF_NONE,
	    F(authorized_keys_command_user), 0, NULL, 0, CKD_STR },
	{ "authorizedkeyscommandtimeout", T_TIME, M,
	    F(authorized_keys_command_timeout), 0, NULL, 0, CKD_INT },
	{ "trustedusercakeys", T_STR, M | KWF_NONE, F(trusted_user_ca_keys), 0,
	    NULL, 0, CKD_STR },
	{ "revokedkeys", T_STR, M | KWF_NONE, F(revoked_keys), 0, NULL,
	    0, CKD_STR },
	{ "authorizedprincipalsfile", T_STR, M | KWF_NONE,
	    F(authorized_principals_file), 0, NULL, 0, CKD_STR },
	{ "authorizedprincipalscommand", T_REST, M | KWF_NONE,
	    F(authorized_principals_command), 0, NULL, 0, CKD_STR },
	{ "authorizedprincipalscommanduser", T_STR, M | KWF_NONE,
	    F(authorized_principals_command_user), 0, NULL, 0, CKD_STR },
	{ "authenticationmethods", T_AUTHMETHODS, M,
	    F(authentication_methods), 0, NULL, 0, CKD_NO },
	{ "permitopen", T_STRARR, M, A(permit_open), NULL, 0, CKD_NO },
	{ "permitlisten", T_STRARR, M, A(permit_listen), NULL, 0, CKD_NO },
	{ "disableforwarding", T_FLAG, M, F(disable_forwarding), 0, NULL,
	    0, CKD_YN },
	{ "allowstreamlocalforwarding", T_ENUM, M,
	    F(allow_streamlocal_forwarding), 0, enum_fwd, 0, CKD_ENUM },
	{ "streamlocalbindmask", T_MODE, M, F(streamlocal_bind_mask), 0,
	    NULL, 0, CKD_OCTAL },
	{ "streamlocalbindunlink", T_FLAG, M, F(streamlocal_bind_unlink), 0,
	    NULL, 0, CKD_YN },
	{ "hostbasedauthentication", T_FLAG, M, F(hostbased_authentication), 0,
	    NULL, 0, CKD_YN },
	{ "hostbasedacceptedalgorithms", T_ALGS, M,
	    F(hostbased_accepted_algorithms), 0, &conf_alg_sig, 0, CKD_STR },
	{ "hostbasedacceptedkeytypes", T_ALGS, M,
	    F(hostbased_accepted_algorithms), 0, &conf_alg_sig, 0, CKD_NO },
	{ "hostbasedusesnamefrompacketonly", T_FLAG, M,
	    F(hostbased_uses_name_from_packet_only), 0, NULL, 0, CKD_YN },
	{ "ignorerhosts", T_ENUM, M, F(ignore_rhosts), 0, enum_rhosts,
	    0, CKD_ENUM },
	{ "ignoreuserknownhosts", T_FLAG, 0, F(ignore_user_known_hosts), 0,
	    NULL, 0, CKD_YN },
	{ "persourcemaxstartups", T_PERSOURCE, 0, F(per_source_max_startups),
	    0, NULL, 0, CKD_NO },
	{ "persourcenetblocksize", T_PERSOURCE, 0, F(per_source_masklen4), 0,
	    NULL, 0, CKD_NO },
	{ "persourcepenalties", T_PERSOURCE, 0, F(penalties.enabled), 0, NULL,
	    0, CKD_NO },
	{ "persourcepenaltyexemptlist", T_PERSOURCE, 0, F(penalty_exempt), 0,
	    NULL, 0, CKD_NO },
	{ "include", T_INCLUDE, M, 0, 0, NULL, 0, CKD_NO },
	{ "match", T_MATCH, M, 0, 0, NULL, 0, CKD_NO },
	{ "requiredrsasize", T_INT, M, F(required_rsa_size), 0, NULL,
	    0, CKD_INT },
	{ "fingerprinthash", T_FPHASH, 0, F(fingerprint_hash), 0, NULL,
	    0, CKD_NO },
	{ "permituserrc", T_FLAG, M, F(permit_user_rc), 0, NULL, 0, CKD_YN },
	{ "exposeauthinfo", T_FLAG, M, F(expose_auth_info), 0, NULL,
	    0, CKD_YN },
	{ "refuseconnection", T_FLAG, M, F(refuse_connection), 0, NULL,
	    0, CKD_YN },
	{ "logverbose", T_REST, M, F(log_verbose), 0, NULL,
	    0, CKD_NO },
	{ "casignaturealgorithms", T_ALGS, M, F(ca_signature_algorithms), 0,
	    &conf_alg_ca, 0, CKD_STR },
	{ "pubkeyauthoptions", T_PKOPTS, M, F(pubkey_auth_options), 0, NULL,
	    0, CKD_NO },
	{ "unusedconnectiontimeout", T_TIMENONE, M,
	    F(unused_connection_timeout), 0, NULL, 0, CKD_NO },
	{ "channeltimeout", T_CHANTIMEOUT, M, F(channel_timeouts), 0, NULL,
	    0, CKD_NO },
	{ "ipqos", T_IPQOS, M, F(ipqos_interactive), 0, NULL, 0, CKD_NO },
	{ "debianbanner", T_FLAG, 0, F(debian_banner), 0, NULL, 0, CKD_NO },
	/* Features we do not have: the value is checked, then logged. */
	/* GSSAPI: "no" is what we do; "yes" stops sshd (servconf_extra.c). */
	{ "gssapiauthentication", T_UNSUPP, M, 0, 0, &gss_on, 0, CKD_NO },
	{ "gssapicleanupcredentials", T_UNSUPP, 0, 0, 0, &gss_tune, 0, CKD_NO },
	{ "gssapikeyexchange", T_UNSUPP, 0, 0, 0, &gss_on, 0, CKD_NO },
	{ "gssapistorecredentialsonrekey", T_UNSUPP, 0, 0, 0, &gss_tune,
	    0, CKD_NO },
	{ "gssapistrictacceptorcheck", T_UNSUPP, 0, 0, 0, &gss_tune,
	    0, CKD_NO },
	{ "gssapikexalgorithms", T_UNSUPP, 0, 0, 0, &gss_kex, 0, CKD_NO },
	{ "kerberosauthentication", T_UNSUPP, M, 0, 0, &unsupp_flag,
	    0, CKD_NO },
	{ "kerberosorlocalpasswd", T_UNSUPP, 0, 0, 0, &unsupp_flag, 0, CKD_NO },
	{ "kerberosticketcleanup", T_UNSUPP, 0, 0, 0, &unsupp_flag, 0, CKD_NO },
	{ "hostkeyagent", T_UNSUPP, 0, 0, 0, &unsupp_str, 0, CKD_NO },
	/* OpenSSH 10's helper programs: ours is sshd itself (sshd -R). */
	{ "sshdsessionpath", T_UNSUPP, 0, 0, 0, &unsupp_str, 0, CKD_NO },
	{ "sshdauthpath", T_UNSUPP, 0, 0, 0, &unsupp_str, 0, CKD_NO },
	{ "securitykeyprovider", T_UNSUPP, 0, 0, 0, &unsupp_str, 0, CKD_NO },
	/*
	 * Gone from OpenSSH long ago; its sshd still starts with them in
	 * the file (old Debian configurations name several) and says so.
	 */
	{ "afstokenpassing", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "authorizedkeysfile2", T_DEPRECATED, M, 0, 0, NULL, 0, CKD_NO },
	{ "checkmail", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "kerberostgtpassing", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "keyregenerationinterval", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "protocol", T_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "reversemappingcheck", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "rhostsauthentication", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "rhostsrsaauthentication", T_DEPRECATED, M, 0, 0, NULL, 0, CKD_NO },
	{ "rsaauthentication", T_DEPRECATED, M, 0, 0, NULL, 0, CKD_NO },
	{ "serverkeybits", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "uselogin", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "useprivilegeseparation", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "verifyreversemapping", T_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
};
const size_t sc_nkeywords = sizeof(sc_keywords) / sizeof(sc_keywords[0]);

#undef M

const struct conf_kw_table sc_table = { sc_keywords,
    sizeof(sc_keywords) / sizeof(sc_keywords[0]) };

const struct conf_kw *
sc_kw_find(const char *name)
{
	return conf_kw_find(&sc_table, name);
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
sc_algs_default(const struct conf_kw *kw, char **outp)
{
	return conf_alg_resolve(kw->arg, NULL, outp);
}

static int
parse_algs(const struct conf_kw *kw, const char *arg, char **outp)
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

/* A keyword kept in one string field (PermitUserEnvironment: two). */
static int
str_value(struct servconf *sc, const struct conf_kw *kw, char **argv,
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
list_value(struct servconf *sc, const struct conf_kw *kw, char **argv,
    int argc, const char *src, int line)
{
	const struct conf_at at = { argv, argc, NULL, src, line };
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
			if (conf_kw_value(kw, &at, CONF_SSHD, argv[i], &v) != 0)
				return ERR_CONFIG;
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
pair_value(struct servconf *sc, const struct conf_kw *kw, char **argv,
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
apply_value(struct servconf *sc, const struct conf_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line)
{
	const struct conf_at at = { argv, argc, rest, src, line };
	int v, r;

	switch (kw->type) {
	case T_FLAG: case T_INT: case T_TIME: case T_MODE: case T_ENUM:
	case T_LOGLEVEL: case T_FACILITY:
		if ((r = conf_kw_value(kw, &at, CONF_SSHD, argv[1], &v)) != 0)
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
sc_kw_apply(struct servconf *sc, const struct conf_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line)
{
	struct servconf *scratch;
	struct conf_at at;
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
		at = (struct conf_at){ argv, argc, rest, src, line };
		return conf_kw_extra_args(kw, &at, CONF_SSHD);
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
