/*
 * readconf_kw.c: the ssh_config keyword table and its value parsers.
 *
 * Each keyword is one row of the type both configuration files share
 * (struct conf_kw, conf_kw.h: the row format is described there): its
 * name, a value type, the offset of its field in struct client_opts, its
 * default and how ssh -G prints it. The shared types are checked in
 * conf_kw.c, the rest here; the messages are ssh's own. "First value wins": scalar fields start at
 * -1 or NULL and a parser leaves an already set field alone; lists that
 * OpenSSH accumulates (IdentityFile, SendEnv, LocalForward...) grow with
 * every line. Keywords OpenSSH knows but we do not implement (GSSAPI*,
 * Tunnel and the like) are rows too, accepted with a debug note, so
 * stock configuration files parse.
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
#include "tun_client.h"

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
/* -G shows the first name of a value. */
const struct conf_enum rc_enum_tunnel[] = {
	{ "ethernet", 2 }, { "point-to-point", 1 }, { "true", 1 },
	{ "yes", 1 }, { "false", 0 }, { "no", 0 }, { NULL, 0 } };
/* OpenSSH prints PubkeyAuthentication as true/false (it has more values). */
/* OpenSSH 8.9+: "unbound" never signs the host-bound form. */
static const struct conf_enum rc_enum_pubkey[] = {
	{ "false", 0 }, { "true", PUBKEY_AUTH_YES }, { "no", 0 },
	{ "yes", PUBKEY_AUTH_YES }, { "unbound", PUBKEY_AUTH_UNBOUND },
	{ "host-bound", PUBKEY_AUTH_HOSTBOUND }, { NULL, 0 } };
const struct conf_enum rc_enum_session[] = {
	{ "none", ST_NONE }, { "subsystem", ST_SUBSYSTEM },
	{ "default", ST_DEFAULT }, { NULL, 0 } };

/* ObscureKeystrokeTiming's interval:MS. */
static const struct conf_range obscure_ms = { 1, 1000 };

#define F(m)  offsetof(struct client_opts, m)
#define A(m)  offsetof(struct client_opts, m), offsetof(struct client_opts, n##m)

const struct conf_kw rc_keywords[] = {
	{ "hostname", CK_STR, 0, F(hostname), 0, NULL, 0, CKD_NO },
	{ "port", CK_PORT, 0, F(port), 0, &conf_range_port, 22, CKD_INT },
	{ "user", CK_STR, 0, F(user), 0, NULL, 0, CKD_NO },
	{ "identityfile", RT_IDENTITY, CKF_ACCUM, A(identity_files), NULL, 0,
	    CKD_NO },
	{ "certificatefile", CK_LIST, CKF_ACCUM, A(certificate_files), NULL, 0,
	    CKD_NO },
	{ "identitiesonly", CK_FLAG, 0, F(identities_only), 0, conf_truefalse,
	    0, CKD_YN },
	{ "identityagent", RT_AGENT, 0, F(identity_agent), 0, NULL, 0, CKD_NO },
	{ "ciphers", CK_ALGS, 0, F(ciphers), 0, &conf_alg_cipher, 0,
	    CKD_STROPT },
	{ "macs", CK_ALGS, 0, F(macs), 0, &conf_alg_mac, 0, CKD_STROPT },
	{ "kexalgorithms", CK_ALGS, 0, F(kex_algorithms), 0, &conf_alg_kex, 0,
	    CKD_STROPT },
	{ "hostkeyalgorithms", CK_ALGS, 0, F(hostkey_algorithms), 0,
	    &conf_alg_sig, 0, CKD_STROPT },
	{ "pubkeyacceptedalgorithms", CK_ALGS, 0, F(pubkey_accepted_algorithms),
	    0, &conf_alg_sig, 0, CKD_STROPT },
	{ "pubkeyacceptedkeytypes", CK_ALGS, 0, F(pubkey_accepted_algorithms),
	    0, &conf_alg_sig, 0, CKD_NO },
	{ "stricthostkeychecking", CK_ENUM, 0, F(strict_host_key_checking), 0,
	    rc_enum_shk, SHK_ASK, CKD_NO },
	{ "userknownhostsfile", RT_FILES, 0, A(user_known_hosts_files), NULL, 0,
	    CKD_LINE },
	{ "globalknownhostsfile", RT_FILES, 0, A(global_known_hosts_files),
	    NULL, 0, CKD_LINE },
	{ "hashknownhosts", CK_FLAG, 0, F(hash_known_hosts), 0, conf_truefalse,
	    0, CKD_YN },
	{ "checkhostip", CK_FLAG, 0, F(check_host_ip), 0, conf_truefalse, 0,
	    CKD_YN },
	{ "proxycommand", CK_REST, 0, F(proxy_command), 0, NULL, 0,
	    CKD_STROPT },
	{ "proxyjump", CK_STR, 0, F(proxy_jump), 0, NULL, 0, CKD_STROPT },
	{ "connecttimeout", CK_TIME, 0, F(connect_timeout), 0, NULL, 0,
	    CKD_NO },
	{ "serveraliveinterval", CK_TIME, 0, F(server_alive_interval), 0, NULL,
	    0, CKD_INT },
	{ "serveralivecountmax", CK_INT, 0, F(server_alive_count_max), 0, NULL,
	    3, CKD_INT },
	{ "sendenv", CK_LIST, CKF_ACCUM, A(send_env), NULL, 0, CKD_LINES },
	{ "setenv", RT_SETENV, CKF_ACCUM, A(set_env), NULL, 0, CKD_LINES },
	{ "requesttty", CK_ENUM, 0, F(request_tty), 0, rc_enum_tty, RTTY_AUTO,
	    CKD_NO },
	{ "loglevel", CK_LOGLEVEL, 0, F(log_level), 0, NULL, LOG_LEVEL_INFO,
	    CKD_LOGLEVEL },
	{ "batchmode", CK_FLAG, 0, F(batch_mode), 0, conf_truefalse, 0,
	    CKD_YN },
	{ "preferredauthentications", CK_STR, 0, F(preferred_authentications),
	    0, NULL, 0, CKD_NO },
	{ "pubkeyauthentication", CK_FLAG, 0, F(pubkey_authentication), 0,
	    rc_enum_pubkey, 1, CKD_ENUM },
	{ "passwordauthentication", CK_FLAG, 0, F(password_authentication), 0,
	    conf_truefalse, 1, CKD_YN },
	{ "kbdinteractiveauthentication", CK_FLAG, 0,
	    F(kbd_interactive_authentication), 0, conf_truefalse, 1, CKD_YN },
	{ "challengeresponseauthentication", CK_FLAG, 0,
	    F(kbd_interactive_authentication), 0, conf_truefalse, 1, CKD_NO },
	{ "numberofpasswordprompts", CK_INT, 0, F(number_of_password_prompts),
	    0, NULL, 3, CKD_INT },
	{ "escapechar", RT_ESCAPE, 0, F(escape_char), 0, NULL, '~', CKD_NO },
	{ "rekeylimit", RT_REKEY, 0, F(rekey_bytes), F(rekey_seconds), NULL, 0,
	    CKD_NO },
	{ "compression", CK_ENUM, 0, F(compression), 0, enum_comp, 0, CKD_YN },
	{ "addressfamily", CK_ENUM, 0, F(address_family), 0, rc_enum_af,
	    AF_UNSPEC, CKD_ENUM },
	{ "forwardagent", RT_FWDAGENT, 0, F(forward_agent), 0, NULL, 0,
	    CKD_NO },
	{ "forwardx11", CK_FLAG, 0, F(forward_x11), 0, conf_truefalse, 0,
	    CKD_YN },
	/* Debian's ssh trusts forwarded X11 clients unless told not to. */
	{ "forwardx11trusted", CK_FLAG, 0, F(forward_x11_trusted), 0,
	    conf_truefalse, 1, CKD_YN },
	{ "forwardx11timeout", CK_TIME, 0, F(forward_x11_timeout), 0, NULL,
	    1200, CKD_INT },
	{ "xauthlocation", CK_STR, 0, F(xauth_location), 0, NULL, 0,
	    CKD_STROPT },
	{ "addkeystoagent", RT_ADDKEYS, 0, F(add_keys_to_agent), 0, NULL, 0,
	    CKD_NO },
	{ "tcpkeepalive", CK_FLAG, 0, F(tcp_keep_alive), 0, conf_truefalse, 1,
	    CKD_YN },
	{ "remotecommand", CK_REST, 0, F(remote_command), 0, NULL, 0,
	    CKD_STROPT },
	{ "exitonforwardfailure", CK_FLAG, 0, F(exit_on_forward_failure), 0,
	    conf_truefalse, 0, CKD_YN },
	{ "tunnel", CK_ENUM, 0, F(tunnel), 0, rc_enum_tunnel, 0, CKD_NO },
	{ "tunneldevice", RT_TUNDEV, 0, F(tun_local), 0, NULL, 0, CKD_NO },
	{ "clearallforwardings", CK_FLAG, 0, F(clear_all_forwardings), 0,
	    conf_truefalse, 0, CKD_YN },
	{ "warnweakcrypto", CK_ENUM, 0, F(warn_weak_crypto), 0, enum_weak, 1,
	    CKD_YN },
	{ "enableescapecommandline", CK_FLAG, 0, F(enable_escape_commandline),
	    0, conf_truefalse, 0, CKD_YN },
	{ "localforward", CK_REST, CKF_ACCUM, A(local_forwards), NULL, 0,
	    CKD_NO },
	{ "remoteforward", CK_REST, CKF_ACCUM, A(remote_forwards), NULL, 0,
	    CKD_NO },
	{ "dynamicforward", CK_REST, CKF_ACCUM, A(dynamic_forwards), NULL, 0,
	    CKD_NO },
	{ "controlpath", CK_STR, 0, F(control_path), 0, NULL, 0, CKD_STROPT },
	{ "controlpersist", CK_STR, 0, F(control_persist), 0, NULL, 0, CKD_NO },
	{ "controlmaster", CK_ENUM, 0, F(control_master), 0, rc_enum_ctlm, 0,
	    CKD_NO },
	{ "bindaddress", CK_STR, 0, F(bind_address), 0, NULL, 0, CKD_STROPT },
	{ "gatewayports", CK_FLAG, 0, F(gateway_ports), 0, conf_truefalse, 0,
	    CKD_YN },
	{ "streamlocalbindmask", CK_MODE, 0, F(streamlocal_bind_mask), 0, NULL,
	    0177, CKD_OCTAL },
	{ "streamlocalbindunlink", CK_FLAG, 0, F(streamlocal_bind_unlink), 0,
	    conf_truefalse, 0, CKD_YN },
	{ "visualhostkey", CK_FLAG, 0, F(visual_host_key), 0, conf_truefalse, 0,
	    CKD_YN },
	{ "updatehostkeys", CK_ENUM, 0, F(update_host_keys), 0, rc_enum_uhk, 1,
	    CKD_NO },
	/* Kept only for UpdateHostKeys' default: no DNS lookups are made. */
	{ "verifyhostkeydns", CK_ENUM, 0, F(verify_host_key_dns), 0,
	    rc_enum_uhk, 0, CKD_NO },
	{ "kbdinteractivedevices", CK_STR, 0, F(kbd_interactive_devices), 0,
	    NULL, 0, CKD_STROPT },
	{ "hostkeyalias", CK_STR, 0, F(host_key_alias), 0, NULL, 0,
	    CKD_STROPT },
	{ "hostbasedauthentication", CK_FLAG, 0, F(hostbased_authentication), 0,
	    conf_truefalse, 0, CKD_YN },
	{ "enablesshkeysign", CK_FLAG, 0, F(enable_ssh_keysign), 0,
	    conf_truefalse, 0, CKD_YN },
	{ "hostbasedacceptedalgorithms", CK_ALGS, 0,
	    F(hostbased_accepted_algorithms), 0, &conf_alg_sig, 0, CKD_STROPT },
	{ "hostbasedkeytypes", CK_ALGS, 0, F(hostbased_accepted_algorithms), 0,
	    &conf_alg_sig, 0, CKD_NO },
	{ "ignoreunknown", CK_STR, 0, F(ignore_unknown), 0, NULL, 0,
	    CKD_STROPT },
	{ "connectionattempts", CK_INT, 0, F(connection_attempts), 0, NULL, 1,
	    CKD_INT },
	{ "stdinnull", CK_FLAG, 0, F(stdin_null), 0, conf_truefalse, 0,
	    CKD_YN },
	{ "forkafterauthentication", CK_FLAG, 0, F(fork_after_auth), 0,
	    conf_truefalse, 0, CKD_YN },
	{ "sessiontype", CK_ENUM, 0, F(session_type), 0, rc_enum_session,
	    ST_DEFAULT, CKD_ENUM },
	{ "localcommand", CK_REST, 0, F(local_command), 0, NULL, 0,
	    CKD_STROPT },
	{ "permitlocalcommand", CK_FLAG, 0, F(permit_local_command), 0,
	    conf_truefalse, 0, CKD_YN },
	{ "knownhostscommand", CK_REST, 0, F(known_hosts_command), 0, NULL, 0,
	    CKD_STROPT },
	{ "revokedhostkeys", CK_STR, 0, F(revoked_host_keys), 0, NULL, 0,
	    CKD_STROPT },
	{ "pkcs11provider", CK_STR, 0, F(pkcs11_provider), 0, NULL, 0,
	    CKD_STROPT },
	{ "nohostauthenticationforlocalhost", CK_FLAG, 0,
	    F(no_host_auth_localhost), 0, conf_truefalse, 0, CKD_YN },
	{ "canonicalizehostname", CK_ENUM, 0, F(canonicalize_hostname), 0,
	    rc_enum_canon, 0, CKD_ENUM },
	{ "canonicaldomains", RT_CANON, 0, A(canonical_domains), NULL, 0,
	    CKD_NO },
	{ "canonicalizepermittedcnames", RT_CANON, 0, A(canonical_cnames),
	    "cnames", 0, CKD_NO },
	{ "canonicalizefallbacklocal", CK_FLAG, 0,
	    F(canonicalize_fallback_local), 0, conf_truefalse, 1, CKD_YN },
	{ "canonicalizemaxdots", CK_INT, 0, F(canonicalize_max_dots), 0, NULL,
	    1, CKD_INT },
	{ "fingerprinthash", RT_FPHASH, 0, F(fingerprint_hash), 0, NULL,
	    KEY_FP_SHA256, CKD_NO },
	{ "syslogfacility", CK_FACILITY, 0, F(syslog_facility), 0, NULL,
	    LOG_USER, CKD_FACILITY },
	{ "requiredrsasize", CK_INT, 0, F(required_rsa_size), 0, NULL, 1024,
	    CKD_INT },
	{ "permitremoteopen", RT_PERMITOPEN, 0, A(permit_remote_open), NULL, 0,
	    CKD_NO },
	{ "ipqos", RT_IPQOS, 0, F(ipqos_interactive), F(ipqos_bulk), NULL, 0,
	    CKD_NO },
	{ "casignaturealgorithms", CK_ALGS, 0, F(ca_signature_algorithms), 0,
	    &conf_alg_ca, 0, CKD_STROPT },
	{ "securitykeyprovider", CK_STR, 0, F(security_key_provider), 0, NULL,
	    0, CKD_STROPT },
	/*
	 * OpenSSH keywords we accept and do not act on, noted by readconf.c
	 * as OpenSSH 9.2 (Debian's) notes them: gone from OpenSSH
	 * (Deprecated, a debug line), compiled out there too (Unsupported,
	 * an error line that still exits 0), or quiet. The GSSAPI ones are
	 * quiet because Debian's ssh has GSSAPI and its own ssh_config sets
	 * GSSAPIAuthentication: an error on every run would be noise.
	 */
	{ "logverbose", CK_REST, 0, F(log_verbose), 0, NULL, 0, CKD_NO },
	{ "tag", CK_STR, 0, F(tag), 0, NULL, 0, CKD_NO },
	{ "bindinterface", CK_STR, 0, F(bind_interface), 0, NULL, 0, CKD_NO },
	{ "smartcarddevice", CK_STR, 0, F(pkcs11_provider), 0, NULL, 0,
	    CKD_NO },
	{ "channeltimeout", RT_CHANTO, 0, A(channel_timeouts), NULL, 0,
	    CKD_NO },
	{ "proxyusefdpass", CK_FLAG, 0, F(proxy_use_fdpass), 0, conf_truefalse,
	    0, CKD_NO },
	{ "obscurekeystroketiming", RT_OBSCURE, 0, F(obscure_keystroke_timing),
	    0, &obscure_ms, -2, CKD_NO },
	{ "gssapiauthentication", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "gssapidelegatecredentials", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "gssapikeyexchange", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "gssapitrustdns", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "gssapiclientidentity", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "gssapiserveridentity", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "gssapirenewalforcesrekey", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "gssapikexalgorithms", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "rhostsrsaauthentication", CK_UNSUPPORTED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "rsaauthentication", CK_UNSUPPORTED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "compressionlevel", CK_UNSUPPORTED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "useprivilegedport", CK_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "useroaming", CK_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "usersh", CK_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "cipher", CK_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "protocol", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ NULL, CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
};

const struct conf_kw_table rc_table = { rc_keywords,
    sizeof(rc_keywords) / sizeof(rc_keywords[0]) };

const struct conf_kw *
rc_kw_find(const char *name)
{
	return conf_kw_find(&rc_table, name);
}

int
rc_algs_resolve(const char *kwname, const char *spec, char **outp)
{
	const struct conf_kw *kw = rc_kw_find(kwname);

	*outp = NULL;
	if (kw == NULL || kw->type != CK_ALGS)
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

int
rc_arr_add(char **arr, size_t *n, const char *v)
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
int_value(const struct conf_kw *kw, const struct conf_at *at, int *vp)
{
	char **argv = at->argv;
	const char *src = at->src;
	int argc = at->argc, line = at->line, c, r;
	enum key_fp_hash h;

	switch (kw->type) {
	case CK_FLAG: case CK_INT: case CK_TIME: case CK_MODE: case CK_PORT:
	case CK_ENUM: case CK_LOGLEVEL: case CK_FACILITY:
		/* The value, then any word after it, as OpenSSH 9.2 checks. */
		if (kw->type == CK_TIME && strcasecmp(argv[1], "none") == 0)
			*vp = 0;
		else if ((r = conf_kw_value(kw, at, CONF_SSH, argv[1],
		    vp)) != 0)
			return r;
		return argc != 2 ? conf_kw_extra_args(kw, at, CONF_SSH) : 0;
	case RT_ESCAPE:
		if (argc != 2 || (c = parse_escape(argv[1])) == -3)
			BAD("Bad escape character.", src, line);
		*vp = c;
		return 0;
	case RT_FPHASH:
		if (key_fp_hash_from_name(argv[1], &h) != 0)
			BAD("Invalid hash algorithm \"%s\".", src, line,
			    argv[1]);
		if (argc != 2)
			return conf_kw_extra_args(kw, at, CONF_SSH);
		*vp = (int)h;
		return 0;
	default:
		return ERR_INTERNAL;
	}
}

/* A keyword kept in one string field; the first value wins. */
static int
str_value(struct client_opts *o, const struct conf_kw *kw,
    const struct conf_at *at)
{
	char **sp = (char **)(void *)((char *)o + kw->off), *list;
	char **argv = at->argv;
	const char *src = at->src;
	int argc = at->argc, line = at->line;

	switch (kw->type) {
	case CK_STR:
		if (argc != 2)
			return conf_kw_extra_args(kw, at, CONF_SSH);
		break;
	case CK_ALGS:
		if (rc_algs_resolve(kw->name, argv[1], &list) != 0) {
			const struct conf_alg *alg = kw->arg;

			BAD("Bad %s '%s'.", src, line, alg->what, argv[1]);
		}
		x_free(list);
		if (argc != 2)
			return conf_kw_extra_args(kw, at, CONF_SSH);
		break;
	case RT_AGENT:
		/* A path, "none", "SSH_AUTH_SOCK" or "$VARIABLE". */
		if (argc != 2)
			return conf_kw_extra_args(kw, at, CONF_SSH);
		if (argv[1][0] == '$' && argv[1][1] != '{' &&
		    !env_name_ok(argv[1] + 1))
			BAD("Invalid environment name %s.", src, line,
			    argv[1]);
		break;
	default:
		break;
	}
	if (*sp == NULL)
		*sp = x_strdup(kw->type == CK_REST ? at->rest : argv[1]);
	return 0;
}

/* A keyword kept in an array and its count: every line adds to it. */
static int
list_value(struct client_opts *o, const struct conf_kw *kw,
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
		if (kw->type == CK_REST && arr_has(sp, *np, at->rest))
			return 0;
		if (kw->type != CK_REST && argc == 2 &&
		    arr_has(sp, *np, argv[1]))
			return 0;
	}
	switch (kw->type) {
	case CK_REST:
		return rc_arr_add(sp, np, at->rest);
	case RT_SETENV:
		for (i = 1; i < argc; i++)
			if (strchr(argv[i], '=') == NULL)
				BAD("Invalid environment \"%s\".", src, line,
				    argv[i]);
		if (*np != 0)	/* the first SetEnv line wins, as OpenSSH */
			return 0;
		/* FALLTHROUGH */
	case CK_LIST:
		for (i = 1; i < argc; i++) {
			if (p->canonical_pass && arr_has(sp, *np, argv[i]))
				continue;
			if (rc_arr_add(sp, np, argv[i]) != 0)
				BAD("too many %s entries.", src, line,
				    kw->type == RT_SETENV ? "SetEnv" :
				    argv[0]);
			/* -G shows CertificateFile unexpanded, as OpenSSH. */
			if (sp == o->certificate_files &&
			    p->ncert_written < CO_MAX_LIST)
				p->cert_written[p->ncert_written++] =
				    x_strdup(argv[i]);
		}
		return 0;
	case RT_IDENTITY:
		if (argc != 2)
			return conf_kw_extra_args(kw, at, CONF_SSH);
		if (rc_arr_add(sp, np, argv[1]) != 0)
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
			rc_arr_add(sp, np, argv[i]);
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
fwdagent_value(struct client_opts *o, const struct conf_kw *kw,
    const struct conf_at *at)
{
	char **argv = at->argv;
	const char *src = at->src;
	int line = at->line, v;

	if (at->argc != 2)
		return conf_kw_extra_args(kw, at, CONF_SSH);
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
addkeys_value(struct client_opts *o, const struct conf_kw *kw,
    const struct conf_at *at)
{
	char **argv = at->argv;
	const char *src = at->src;
	int line = at->line, v;
	long t = 0;

	if (at->argc > 3)
		return conf_kw_extra_args(kw, at, CONF_SSH);
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
canon_value(struct client_opts *o, const struct conf_kw *kw,
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
		if (rc_arr_add(sp, np, argv[i]) != 0)
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
ipqos_value(struct client_opts *o, const struct conf_kw *kw,
    const struct conf_at *at)
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
		return conf_kw_extra_args(kw, at, CONF_SSH);
	if (o->ipqos_interactive == -2) {
		o->ipqos_interactive = v;
		o->ipqos_bulk = w;
	}
	return 0;
}

int
rc_kw_apply(struct client_opts *o, const struct conf_kw *kw, char **argv,
    int argc, const char *rest, const char *src, int line)
{
	int *ip = (int *)(void *)((char *)o + kw->off);
	const struct conf_at at = { argv, argc, rest, src, line };
	int c, r;

	if (argc < 2)
		BAD("no argument after keyword \"%s\"", src, line,
		    kw->name);
	if (argv[1][0] == '\0' && kw->type != CK_REST)
		BAD("Missing argument.", src, line);
	switch (kw->type) {
	case CK_STR: case CK_ALGS: case RT_AGENT:
		return str_value(o, kw, &at);
	case CK_REST:
		if (kw->cnt_off == 0)
			return str_value(o, kw, &at);
		/* FALLTHROUGH */
	case CK_LIST: case RT_SETENV: case RT_IDENTITY: case RT_FILES:
		return list_value(o, kw, &at);
	case RT_REKEY:
		return rekey_value(o, &at);
	case RT_FWDAGENT:
		return fwdagent_value(o, kw, &at);
	case RT_ADDKEYS:
		return addkeys_value(o, kw, &at);
	case RT_CANON:
		return canon_value(o, kw, &at);
	case RT_IPQOS:
		return ipqos_value(o, kw, &at);
	case RT_PERMITOPEN:
		return rc_permitopen_value(o, &at);
	case RT_TUNDEV:
		if (argc != 2)
			return conf_kw_extra_args(kw, &at, CONF_SSH);
		return tun_config_device(o, argv[1], src, line);
	case RT_CHANTO:
		return rc_chanto_value(o, kw, &at);
	case RT_OBSCURE:
		if ((r = rc_obscure_value(kw, &at, &c)) != 0)
			return r;
		if (*ip == -1)
			*ip = c;
		return 0;
	case CK_IGNORE: case CK_DEPRECATED: case CK_UNSUPPORTED:
		return 0;	/* readconf.c notes them before this */
	default:
		if ((r = int_value(kw, &at, &c)) != 0)
			return r;
		if (*ip == -1)
			*ip = c;
		return 0;
	}
}
