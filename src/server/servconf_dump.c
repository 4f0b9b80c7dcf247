/*
 * servconf_dump.c: the settings in sshd -T form.
 *
 * One "keyword value" line per setting, keywords lower-case, in the
 * order OpenSSH prints them; list keywords give one line per entry,
 * unset strings print "none", and values use OpenSSH's spelling (e.g.
 * prohibit-password shows as without-password), so scripts that read
 * OpenSSH's output read ours.
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "installdirs.h"
#include "log.h"
#include "servconf_int.h"

static const struct conf_enum dump_root[] = {
	{ "yes", PERMIT_ROOT_YES }, { "no", PERMIT_ROOT_NO },
	{ "without-password", PERMIT_ROOT_NO_PASSWORD },
	{ "forced-commands-only", PERMIT_ROOT_FORCED_ONLY }, { NULL, 0 } };
static const struct conf_enum dump_af[] = {
	{ "any", AF_UNSPEC }, { "inet", AF_INET }, { "inet6", AF_INET6 },
	{ NULL, 0 } };
static const struct conf_enum dump_gw[] = {
	{ "no", 0 }, { "yes", 1 }, { "clientspecified", 2 }, { NULL, 0 } };
static const struct conf_enum dump_fwd[] = {
	{ "yes", 3 }, { "no", 0 }, { "local", 2 }, { "remote", 1 },
	{ NULL, 0 } };
static const struct conf_enum dump_rhosts[] = {
	{ "yes", IGNORE_RHOSTS_YES }, { "no", IGNORE_RHOSTS_NO },
	{ "shosts-only", IGNORE_RHOSTS_SHOSTS }, { NULL, 0 } };
static const struct conf_enum dump_tun[] = {
	{ "no", 0 }, { "point-to-point", 1 }, { "ethernet", 2 },
	{ "yes", 3 }, { NULL, 0 } };

static void
put_yn(FILE *f, const char *kw, int v)
{
	fprintf(f, "%s %s\n", kw, v ? "yes" : "no");
}

static void
put_str(FILE *f, const char *kw, const char *v)
{
	fprintf(f, "%s %s\n", kw, v != NULL ? v : "none");
}

static void
put_arr(FILE *f, const char *kw, char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s %s\n", kw, v[i]);
}

static void
listen_line(FILE *f, const char *addr, int port)
{
	if (strchr(addr, ':') != NULL)
		fprintf(f, "listenaddress [%s]:%d\n", addr, port);
	else
		fprintf(f, "listenaddress %s:%d\n", addr, port);
}

static void
dump_listen(const struct servconf *sc, FILE *f)
{
	size_t i, j;

	if (sc->nlisten == 0) {
		for (j = 0; j < sc->nports; j++) {
			if (sc->address_family != AF_INET)
				listen_line(f, "::", sc->ports[j]);
			if (sc->address_family != AF_INET6)
				listen_line(f, "0.0.0.0", sc->ports[j]);
		}
		return;
	}
	for (i = 0; i < sc->nlisten; i++) {
		const char *a = sc->listen[i].addr ? sc->listen[i].addr :
		    "0.0.0.0";

		if (sc->listen[i].port != 0) {
			listen_line(f, a, sc->listen[i].port);
			continue;
		}
		for (j = 0; j < sc->nports; j++)
			listen_line(f, a, sc->ports[j]);
	}
}

/* A list on one line, or "kw none"/"kw any" when it is empty. */
static void
put_line(FILE *f, const char *kw, char *const *v, size_t n, const char *empty)
{
	size_t i;

	fprintf(f, "%s", kw);
	for (i = 0; i < n; i++)
		fprintf(f, " %s", v[i]);
	fprintf(f, "%s\n", n ? "" : empty);
}

static void
dump_ports(const struct servconf *sc, FILE *f)
{
	size_t i;

	for (i = 0; i < sc->nports; i++)
		fprintf(f, "port %d\n", sc->ports[i]);
}

static void
dump_mask(const struct servconf *sc, FILE *f)
{
	fprintf(f, "streamlocalbindmask 0%o\n",
	    (unsigned int)sc->streamlocal_bind_mask);
}

static void
dump_unused(const struct servconf *sc, FILE *f)
{
	if (sc->unused_connection_timeout == 0)
		put_str(f, "unusedconnectiontimeout", NULL);
	else
		fprintf(f, "unusedconnectiontimeout %d\n",
		    sc->unused_connection_timeout);
}

static void
dump_names(const struct servconf *sc, FILE *f)
{
	put_str(f, "fingerprinthash",
	    sc_fingerprint_hash_name(sc->fingerprint_hash));
	put_yn(f, "exposeauthinfo", sc->expose_auth_info);
	put_str(f, "pidfile", sc->pid_file);
	put_str(f, "modulifile", sc->moduli_file ? sc->moduli_file :
	    MOAT_SSHDIR "/moduli");
	put_str(f, "xauthlocation", sc->xauth_location);
}

static void
dump_logging(const struct servconf *sc, FILE *f)
{
	put_str(f, "loglevel", log_level_name(sc->log_level));
	put_str(f, "syslogfacility", log_facility_name(sc->log_facility));
	put_line(f, "authorizedkeysfile", sc->authorized_keys_files,
	    sc->nauthorized_keys_files, " none");
	put_arr(f, "hostkey", sc->hostkeys, sc->nhostkeys);
	put_arr(f, "hostcertificate", sc->host_certificates,
	    sc->nhost_certificates);
	put_str(f, "authenticationmethods", sc->authentication_methods ?
	    sc->authentication_methods : "any");
	if (sc->log_verbose != NULL)
		put_str(f, "logverbose", sc->log_verbose);
	sc_extra_dump_channel_timeouts(sc, f);
	fprintf(f, "maxstartups %d:%d:%d\n", sc->max_startups_begin,
	    sc->max_startups_rate, sc->max_startups_max);
	sc_persource_dump(sc, f);
}

static void
dump_session(const struct servconf *sc, FILE *f)
{
	sc_extra_dump_ipqos(sc, f);
	fprintf(f, "rekeylimit %llu %u\n",
	    (unsigned long long)sc->rekey_bytes, sc->rekey_seconds);
	if (sc->permit_user_env_allowlist != NULL)
		put_str(f, "permituserenvironment",
		    sc->permit_user_env_allowlist);
	else
		put_yn(f, "permituserenvironment", sc->permit_user_environment);
}

static void
dump_forwarding(const struct servconf *sc, FILE *f)
{
	size_t i;

	put_line(f, "permitopen", sc->permit_open, sc->npermit_open, " any");
	put_line(f, "permitlisten", sc->permit_listen, sc->npermit_listen,
	    " any");
	for (i = 0; i < sc->nsubsystems; i++)
		fprintf(f, "subsystem %s %s\n", sc->subsystems[i].name,
		    sc->subsystems[i].command);
	sc_extra_dump_pkopts(sc, f);
}

/*
 * sshd -T's lines in OpenSSH's order: a row prints one field as a
 * number, yes/no, a string (NULL: none), a table's word or a list, or
 * calls a function for the lines that follow rules of their own.
 */
enum dump_kind { D_INT, D_YN, D_STR, D_ENUM, D_ARR, D_FN };

struct dump_row {
	const char *name;
	enum dump_kind kind;
	size_t off;		/* D_ARR: the array; its count at cnt */
	size_t cnt;
	const struct conf_enum *tab;
	void (*fn)(const struct servconf *, FILE *);
};

#define O(m)		offsetof(struct servconf, m)
#define INT(k, m)	{ k, D_INT, O(m), 0, NULL, NULL }
#define YN(k, m)	{ k, D_YN, O(m), 0, NULL, NULL }
#define STR(k, m)	{ k, D_STR, O(m), 0, NULL, NULL }
#define ENUM(k, m, t)	{ k, D_ENUM, O(m), 0, t, NULL }
#define ARR(k, m)	{ k, D_ARR, O(m), O(n##m), NULL, NULL }
#define FN(fn)		{ NULL, D_FN, 0, 0, NULL, fn }

static const struct dump_row dump_rows[] = {
	FN(dump_ports), ENUM("addressfamily", address_family, dump_af),
	FN(dump_listen), YN("usepam", use_pam),
	STR("pamservicename", pam_service_name),
	INT("logingracetime", login_grace_time),
	INT("x11displayoffset", x11_display_offset),
	INT("maxauthtries", max_auth_tries), INT("maxsessions", max_sessions),
	INT("clientaliveinterval", client_alive_interval),
	INT("clientalivecountmax", client_alive_count_max),
	INT("requiredrsasize", required_rsa_size), FN(dump_mask),
	FN(dump_unused),
	ENUM("permitrootlogin", permit_root_login, dump_root),
	ENUM("ignorerhosts", ignore_rhosts, dump_rhosts),
	YN("ignoreuserknownhosts", ignore_user_known_hosts),
	YN("hostbasedauthentication", hostbased_authentication),
	YN("hostbasedusesnamefrompacketonly",
	    hostbased_uses_name_from_packet_only),
	YN("pubkeyauthentication", pubkey_authentication),
	YN("passwordauthentication", password_authentication),
	YN("kbdinteractiveauthentication", kbd_interactive_authentication),
	YN("printmotd", print_motd), YN("printlastlog", print_last_log),
	YN("x11forwarding", x11_forwarding),
	YN("x11uselocalhost", x11_use_localhost), YN("permittty", permit_tty),
	YN("permituserrc", permit_user_rc), YN("strictmodes", strict_modes),
	YN("tcpkeepalive", tcp_keep_alive),
	YN("permitemptypasswords", permit_empty_passwords),
	YN("compression", compression),
	ENUM("gatewayports", gateway_ports, dump_gw), YN("usedns", use_dns),
	ENUM("allowtcpforwarding", allow_tcp_forwarding, dump_fwd),
	YN("allowagentforwarding", allow_agent_forwarding),
	YN("disableforwarding", disable_forwarding),
	ENUM("allowstreamlocalforwarding", allow_streamlocal_forwarding,
	    dump_fwd),
	YN("streamlocalbindunlink", streamlocal_bind_unlink), FN(dump_names),
	STR("ciphers", ciphers), STR("macs", macs), STR("banner", banner),
	STR("forcecommand", force_command),
	STR("chrootdirectory", chroot_directory),
	STR("trustedusercakeys", trusted_user_ca_keys),
	STR("revokedkeys", revoked_keys),
	STR("authorizedprincipalsfile", authorized_principals_file),
	STR("versionaddendum", version_addendum),
	STR("authorizedkeyscommand", authorized_keys_command),
	STR("authorizedkeyscommanduser", authorized_keys_command_user),
	STR("authorizedprincipalscommand", authorized_principals_command),
	STR("authorizedprincipalscommanduser",
	    authorized_principals_command_user),
	INT("authorizedkeyscommandtimeout", authorized_keys_command_timeout),
	STR("kexalgorithms", kex_algorithms),
	STR("casignaturealgorithms", ca_signature_algorithms),
	STR("hostkeyalgorithms", hostkey_algorithms),
	STR("hostbasedacceptedalgorithms", hostbased_accepted_algorithms),
	STR("pubkeyacceptedalgorithms", pubkey_accepted_algorithms),
	FN(dump_logging), ENUM("permittunnel", permit_tunnel, dump_tun),
	FN(dump_session), ARR("allowusers", allow_users),
	ARR("denyusers", deny_users), ARR("allowgroups", allow_groups),
	ARR("denygroups", deny_groups), ARR("acceptenv", accept_env),
	ARR("setenv", set_env), FN(dump_forwarding),
};

void
servconf_dump(const struct servconf *sc, FILE *f)
{
	const struct dump_row *d;
	const char *base = (const char *)sc;
	int v;

	for (d = dump_rows; d < dump_rows + sizeof(dump_rows) /
	    sizeof(dump_rows[0]); d++) {
		v = d->kind == D_INT || d->kind == D_YN || d->kind == D_ENUM ?
		    *(const int *)(const void *)(base + d->off) : 0;
		switch (d->kind) {
		case D_INT:
			fprintf(f, "%s %d\n", d->name, v);
			break;
		case D_YN:
			put_yn(f, d->name, v);
			break;
		case D_STR:
			put_str(f, d->name,
			    *(char *const *)(const void *)(base + d->off));
			break;
		case D_ENUM:
			put_str(f, d->name, conf_enum_name(d->tab, v));
			break;
		case D_ARR:
			put_arr(f, d->name,
			    (char *const *)(const void *)(base + d->off),
			    *(const size_t *)(const void *)(base + d->cnt));
			break;
		case D_FN:
			d->fn(sc, f);
			break;
		}
	}
}
