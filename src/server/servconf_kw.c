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

struct sc_alg {
	const char *(*defaults)(void);
	const char *(*all)(void);
	int patterns_ok;	/* OpenSSH allows wildcards for key types */
	const char *what;	/* for "Bad SSH2 <what> '...'" */
};

static const char *
sigalg_defaults(void)
{
	/*
	 * OpenSSH 10.5's default (9.2's plus the webauthn names), filtered
	 * later against what we support.
	 */
	return "ssh-ed25519-cert-v01@openssh.com,"
	    "ecdsa-sha2-nistp256-cert-v01@openssh.com,"
	    "ecdsa-sha2-nistp384-cert-v01@openssh.com,"
	    "ecdsa-sha2-nistp521-cert-v01@openssh.com,"
	    "sk-ssh-ed25519-cert-v01@openssh.com,"
	    "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256-cert-v01@openssh.com,"
	    "rsa-sha2-512-cert-v01@openssh.com,"
	    "rsa-sha2-256-cert-v01@openssh.com,"
	    "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,"
	    "ecdsa-sha2-nistp521,sk-ssh-ed25519@openssh.com,"
	    "sk-ecdsa-sha2-nistp256@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com,"
	    "rsa-sha2-512,rsa-sha2-256";
}

static const struct sc_alg alg_cipher = {
	cipher_default_names, cipher_all_names, 0, "SSH2 cipher spec" };
static const struct sc_alg alg_mac = {
	mac_default_names, mac_all_names, 0, "SSH2 mac spec" };
static const struct sc_alg alg_kex = {
	kexalg_server_default_names, kexalg_all_names, 0,
	"SSH2 KexAlgorithms" };
static const struct sc_alg alg_sig = {
	sigalg_defaults, cert_sigalg_all_names, 1, "key types" };

static const char *
ca_sigalg_defaults(void)
{
	/* OpenSSH 10.5's CASignatureAlgorithms default. */
	return "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,"
	    "ecdsa-sha2-nistp521,sk-ssh-ed25519@openssh.com,"
	    "sk-ecdsa-sha2-nistp256@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com,"
	    "rsa-sha2-512,rsa-sha2-256";
}

static const struct sc_alg alg_ca = {
	ca_sigalg_defaults, key_sigalg_all_names, 1, "key types" };

static const int unsupp_flag = SC_UNSUPP_FLAG;
static const int unsupp_int = SC_UNSUPP_INT;
static const int unsupp_str = SC_UNSUPP_STR;

static const struct sc_enum enum_root[] = {
	{ "yes", PERMIT_ROOT_YES }, { "no", PERMIT_ROOT_NO },
	{ "without-password", PERMIT_ROOT_NO_PASSWORD },
	{ "prohibit-password", PERMIT_ROOT_NO_PASSWORD },
	{ "forced-commands-only", PERMIT_ROOT_FORCED_ONLY }, { NULL, 0 } };
static const struct sc_enum enum_af[] = {
	{ "any", AF_UNSPEC }, { "inet", AF_INET }, { "inet6", AF_INET6 },
	{ NULL, 0 } };
static const struct sc_enum enum_comp[] = {
	{ "yes", 1 }, { "delayed", 1 }, { "no", 0 }, { NULL, 0 } };
static const struct sc_enum enum_gw[] = {
	{ "no", 0 }, { "yes", 1 }, { "clientspecified", 2 }, { NULL, 0 } };
static const struct sc_enum enum_fwd[] = {
	{ "yes", 3 }, { "all", 3 }, { "no", 0 }, { "local", 2 },
	{ "remote", 1 }, { NULL, 0 } };
static const struct sc_enum enum_tun[] = {
	{ "no", 0 }, { "point-to-point", 1 }, { "ethernet", 2 },
	{ "yes", 3 }, { NULL, 0 } };
static const struct sc_enum enum_rhosts[] = {
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
	{ "ciphers", T_ALGS, 0, F(ciphers), 0, &alg_cipher },
	{ "macs", T_ALGS, 0, F(macs), 0, &alg_mac },
	{ "kexalgorithms", T_ALGS, 0, F(kex_algorithms), 0, &alg_kex },
	{ "hostkeyalgorithms", T_ALGS, 0, F(hostkey_algorithms), 0, &alg_sig },
	{ "pubkeyacceptedalgorithms", T_ALGS, M,
	    F(pubkey_accepted_algorithms), 0, &alg_sig },
	{ "pubkeyacceptedkeytypes", T_ALGS, M,
	    F(pubkey_accepted_algorithms), 0, &alg_sig },
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
	    F(hostbased_accepted_algorithms), 0, &alg_sig },
	{ "hostbasedacceptedkeytypes", T_ALGS, M,
	    F(hostbased_accepted_algorithms), 0, &alg_sig },
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
	{ "exposeauthinfo", T_FLAG, M | KWF_NOTYET, F(expose_auth_info), 0,
	    NULL },
	{ "logverbose", T_REST, M | KWF_NOTYET, F(log_verbose), 0, NULL },
	{ "casignaturealgorithms", T_ALGS, M, F(ca_signature_algorithms), 0,
	    &alg_ca },
	{ "pubkeyauthoptions", T_PKOPTS, M, F(pubkey_auth_options), 0, NULL },
	{ "unusedconnectiontimeout", T_TIMENONE, M | KWF_NOTYET,
	    F(unused_connection_timeout), 0, NULL },
	{ "channeltimeout", T_CHANTIMEOUT, M | KWF_NOTYET, F(channel_timeouts),
	    0, NULL },
	{ "ipqos", T_IPQOS, M, F(ipqos_interactive), 0, NULL },
	{ "debianbanner", T_FLAG, 0, F(debian_banner), 0, NULL },
	/* Features we do not have: the value is checked, then logged. */
	{ "gssapiauthentication", T_UNSUPP, M, 0, 0, &unsupp_flag },
	{ "gssapicleanupcredentials", T_UNSUPP, 0, 0, 0, &unsupp_flag },
	{ "gssapikeyexchange", T_UNSUPP, 0, 0, 0, &unsupp_flag },
	{ "gssapistorecredentialsonrekey", T_UNSUPP, 0, 0, 0, &unsupp_flag },
	{ "gssapistrictacceptorcheck", T_UNSUPP, 0, 0, 0, &unsupp_flag },
	{ "kerberosauthentication", T_UNSUPP, M, 0, 0, &unsupp_flag },
	{ "kerberosorlocalpasswd", T_UNSUPP, 0, 0, 0, &unsupp_flag },
	{ "kerberosticketcleanup", T_UNSUPP, 0, 0, 0, &unsupp_flag },
	{ "hostkeyagent", T_UNSUPP, 0, 0, 0, &unsupp_str },
	{ "securitykeyprovider", T_UNSUPP, 0, 0, 0, &unsupp_str },
	{ "x11displayoffset", T_UNSUPP, M, 0, 0, &unsupp_int },
	{ "x11uselocalhost", T_UNSUPP, M, 0, 0, &unsupp_flag },
	{ "xauthlocation", T_UNSUPP, 0, 0, 0, &unsupp_str },
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

const char *
sc_enum_name(const struct sc_enum *tab, int value)
{
	for (; tab->name != NULL; tab++)
		if (tab->value == value)
			return tab->name;
	return "unknown";
}

int
sc_parse_mode(const char *s)
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

long
sc_parse_time(const char *s)
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

static int
parse_int(const char *s, int *vp)
{
	char *ep;
	long v;

	errno = 0;
	v = strtol(s, &ep, 10);
	if (*s == '\0' || *ep != '\0' || errno != 0 || v < 0 || v > INT_MAX)
		return -1;
	*vp = (int)v;
	return 0;
}

/* "1G", "512K", "100": bytes; -1 if malformed. */
static int
parse_size(const char *s, uint64_t *vp)
{
	char *ep;
	unsigned long long v;
	uint64_t mult = 1;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &ep, 10);
	if (errno != 0)
		return -1;
	switch (tolower((unsigned char)*ep)) {
	case '\0': break;
	case 'k': mult = 1ULL << 10; ep++; break;
	case 'm': mult = 1ULL << 20; ep++; break;
	case 'g': mult = 1ULL << 30; ep++; break;
	default: return -1;
	}
	if (*ep != '\0' || (v != 0 && UINT64_MAX / mult < v))
		return -1;
	*vp = (uint64_t)v * mult;
	return 0;
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
			return -1;
		host = arg + 1;
		hl = (size_t)(colon - host);
		if (colon[1] == ':')
			port = colon + 2;
		else if (colon[1] != '\0')
			return -1;
	} else if ((colon = strchr(arg, ':')) != NULL &&
	    strchr(colon + 1, ':') == NULL) {
		hl = (size_t)(colon - arg);
		port = colon + 1;
	} else
		hl = strlen(arg);
	if (hl == 0)
		return -1;
	if (port != NULL && (parse_int(port, &p) != 0 || p < 1 || p > 65535))
		return -1;
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
	const struct sc_alg *alg = kw->arg;

	*outp = NULL;
	return match_assemble_list(alg->defaults(), alg->all(), NULL, outp);
}

static int
parse_algs(const struct sc_kw *kw, const char *arg, char **outp)
{
	const struct sc_alg *alg = kw->arg;
	const char *body = arg;

	*outp = NULL;
	if (*body == '+' || *body == '-' || *body == '^')
		body++;
	if (*body == '\0' || strchr(arg, '!') != NULL ||
	    (!alg->patterns_ok && *arg != '-' && strpbrk(body, "*?") != NULL))
		return -1;
	return match_assemble_list(alg->defaults(), alg->all(), arg, outp) ==
	    0 ? 0 : -1;
}

/* Append each argument to a string array; 0 or -1 when it is full. */
static int
strarr_add(char **arr, size_t *n, char **argv, int argc)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (*n >= SC_MAX_LIST)
			return -1;
		arr[(*n)++] = x_strdup(argv[i]);
	}
	return 0;
}

int
sc_kw_apply(struct servconf *sc, const struct sc_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line)
{
	int set = sc_is_set(sc, kw->off), v, i, maxargs = 2;
	const struct sc_enum *e;
	const char *what;
	char **sp, *s = NULL;
	size_t *np;

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
		return -1;
	}
	if (kw->type == T_PERSOURCE)
		return sc_persource_apply(sc, kw, argv, argc, src, line);
	switch (kw->type) {
	case T_STRARR: case T_SETENV: case T_PORT: case T_LISTEN:
	case T_SUBSYS: case T_AUTHMETHODS: case T_REST:
		maxargs = INT_MAX;
		break;
	case T_REKEY:
		maxargs = 3;
		break;
	case T_UNSUPP: case T_FPHASH: case T_IPQOS: case T_CHANTIMEOUT:
	case T_TIMENONE: case T_PKOPTS:
		maxargs = sc_extra_maxargs(kw->type);
		break;
	default:
		break;
	}
	if (argc > maxargs) {
		log_error("%s line %d: keyword %s extra arguments at end of "
		    "line", src, line, argv[0]);
		return -1;
	}
	if (kw->type == T_UNSUPP)	/* checked, logged, kept nowhere */
		return sc_extra_apply(sc, kw, argv, argc, src, line);
	/*
	 * First value wins: a set single-value keyword ignores later lines,
	 * after checking them on a scratch config.
	 */
	if (set && !(kw->flags & KWF_ACCUM) && kw->type != T_SUBSYS) {
		struct servconf *scratch = servconf_new();

		v = sc_kw_apply(scratch, kw, argv, argc, rest, src, line);
		servconf_free(scratch);
		return v;
	}
	switch (kw->type) {
	case T_FLAG:
		if (strcasecmp(argv[1], "yes") == 0)
			v = 1;
		else if (strcasecmp(argv[1], "no") == 0)
			v = 0;
		else {
			log_error("%s line %d: unsupported option \"%s\".",
			    src, line, argv[1]);
			return -1;
		}
		*FIELD(sc, kw->off, int) = v;
		break;
	case T_INT:
		if (sc_parse_int_checked(argv[1], &v, &what) != 0) {
			log_error("%s line %d: %s integer value %s.", src,
			    line, argv[0], what);
			return -1;
		}
		*FIELD(sc, kw->off, int) = v;
		break;
	case T_FPHASH: case T_IPQOS: case T_CHANTIMEOUT: case T_TIMENONE:
	case T_PKOPTS:
		if (sc_extra_apply(sc, kw, argv, argc, src, line) != 0)
			return -1;
		break;
	case T_TIME:
		if ((v = (int)sc_parse_time(argv[1])) < 0)
			goto bad;
		*FIELD(sc, kw->off, int) = v;
		break;
	case T_MODE:
		if ((v = sc_parse_mode(argv[1])) < 0) {
			log_error("%s line %d: Invalid %s.", src, line,
			    argv[0]);
			return -1;
		}
		*FIELD(sc, kw->off, int) = v;
		break;
	case T_ENUM:
		for (e = kw->arg; e->name != NULL; e++)
			if (strcasecmp(e->name, argv[1]) == 0)
				break;
		if (e->name == NULL)
			goto bad;
		*FIELD(sc, kw->off, int) = e->value;
		break;
	case T_LOGLEVEL:
		if ((v = log_level_from_name(argv[1])) < 0)
			goto bad;
		*FIELD(sc, kw->off, int) = v;
		break;
	case T_FACILITY:
		if ((v = log_facility_from_name(argv[1])) < 0)
			goto bad;
		*FIELD(sc, kw->off, int) = v;
		break;
	case T_STR:
	case T_REST:
		s = kw->type == T_STR ? argv[1] : (char *)rest;
		sp = FIELD(sc, kw->off, char *);
		*sp = (kw->flags & KWF_NONE) && strcasecmp(s, "none") == 0 ?
		    NULL : x_strdup(s);
		break;
	case T_AUTHMETHODS:
		if (argc == 2 && strcmp(argv[1], "any") == 0)
			break;	/* NULL: any */
		for (i = 1; i < argc; i++)
			if (!valid_auth_list(argv[i]))
				goto bad;
		*FIELD(sc, kw->off, char *) = x_strdup(rest);
		{
			struct sc_priv *pp = sc->priv;

			x_free(pp->am_source);
			pp->am_source = x_strdup(src);
			pp->am_line = line;
		}
		break;
	case T_ALGS:
		if (parse_algs(kw, argv[1], &s) != 0) {
			log_error("%s line %d: Bad %s '%s'.", src, line,
			    ((const struct sc_alg *)kw->arg)->what, argv[1]);
			return -1;
		}
		*FIELD(sc, kw->off, char *) = s;
		break;
	case T_STRARR:
	case T_SETENV:
		if (kw->type == T_SETENV)
			for (i = 1; i < argc; i++)
				if (strchr(argv[i], '=') == NULL ||
				    argv[i][0] == '=')
					goto bad;
		np = FIELD(sc, kw->cnt_off, size_t);
		if (strarr_add(FIELD(sc, kw->off, char *), np, argv, argc) != 0)
			goto full;
		break;
	case T_PORT:
		for (i = 1; i < argc; i++) {
			if (parse_int(argv[i], &v) != 0 || v < 1 || v > 65535) {
				log_error("%s line %d: Badly formatted port "
				    "number.", src, line);
				return -1;
			}
			if (sc->nports >= SC_MAX_LIST)
				goto full;
			sc->ports[sc->nports++] = v;
		}
		break;
	case T_LISTEN:
		/* An optional "rdomain NAME" may follow; accepted, unused. */
		if (argc != 2 && !(argc == 4 &&
		    strcasecmp(argv[2], "rdomain") == 0))
			goto bad;
		if (sc->nlisten >= SC_MAX_LIST)
			goto full;
		if (parse_listen(argv[1], &sc->listen[sc->nlisten]) != 0)
			goto bad;
		sc->nlisten++;
		break;
	case T_SUBSYS:
		if (argc < 3)
			goto bad;
		for (i = 0; i < (int)sc->nsubsystems; i++)
			if (strcmp(sc->subsystems[i].name, argv[1]) == 0) {
				log_error("%s line %d: Subsystem '%s' already "
				    "defined.", src, line, argv[1]);
				return -1;
			}
		if (sc->nsubsystems >= SC_MAX_LIST)
			goto full;
		sc->subsystems[sc->nsubsystems].name = x_strdup(argv[1]);
		s = (char *)rest + strcspn(rest, " \t");
		s += strspn(s, " \t");
		sc->subsystems[sc->nsubsystems++].command = x_strdup(s);
		break;
	case T_REKEY:
		if (strcmp(argv[1], "default") == 0 ||
		    strcmp(argv[1], "none") == 0)
			sc->rekey_bytes = 0;
		else if (parse_size(argv[1], &sc->rekey_bytes) != 0 ||
		    (sc->rekey_bytes != 0 && sc->rekey_bytes < 16))
			goto bad;
		sc->rekey_seconds = 0;
		if (argc == 3 && strcmp(argv[2], "default") != 0 &&
		    strcmp(argv[2], "none") != 0) {
			long t = sc_parse_time(argv[2]);

			if (t < 0)
				goto bad;
			sc->rekey_seconds = (uint32_t)t;
		}
		break;
	case T_USERENV:
		/* As OpenSSH: exactly "yes" or "no", else a pattern list. */
		v = strcmp(argv[1], "no") != 0;
		sp = FIELD(sc, kw->cnt_off, char *);
		*FIELD(sc, kw->off, int) = v;
		*sp = v && strcmp(argv[1], "yes") != 0 ? x_strdup(argv[1]) :
		    NULL;
		break;
	case T_STARTUPS: {
		int b, r = 30, m;

		if (sscanf(argv[1], "%d:%d:%d", &b, &r, &m) == 3) {
			if (b <= 0 || m <= 0 || r <= 0 || r > 100 || b > m)
				goto bad;
		} else if (parse_int(argv[1], &b) == 0 && b > 0) {
			m = b;
		} else
			goto bad;
		sc->max_startups_begin = b;
		sc->max_startups_rate = r;
		sc->max_startups_max = m;
		break;
	}
	default:
		return -1;	/* Include/Match are handled by the loader */
	}
	if ((kw->flags & KWF_NOTYET) && sc_extra_is_on(sc, kw))
		log_info("%s line %d: Unsupported option %s", src, line,
		    argv[0]);
	sc_mark_set(sc, kw->off);
	return 0;
 bad:
	log_error("%s line %d: Bad %s value '%s'.", src, line, argv[0],
	    argv[1]);
	return -1;
 full:
	log_error("%s line %d: too many %s entries.", src, line, argv[0]);
	return -1;
}
