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

void
servconf_dump(const struct servconf *sc, FILE *f)
{
	size_t i;

	for (i = 0; i < sc->nports; i++)
		fprintf(f, "port %d\n", sc->ports[i]);
	put_str(f, "addressfamily", conf_enum_name(dump_af, sc->address_family));
	dump_listen(sc, f);
	put_yn(f, "usepam", sc->use_pam);
	put_str(f, "pamservicename", sc->pam_service_name);
	fprintf(f, "logingracetime %d\n", sc->login_grace_time);
	fprintf(f, "maxauthtries %d\n", sc->max_auth_tries);
	fprintf(f, "maxsessions %d\n", sc->max_sessions);
	fprintf(f, "clientaliveinterval %d\n", sc->client_alive_interval);
	fprintf(f, "clientalivecountmax %d\n", sc->client_alive_count_max);
	fprintf(f, "requiredrsasize %d\n", sc->required_rsa_size);
	fprintf(f, "streamlocalbindmask 0%o\n",
	    (unsigned int)sc->streamlocal_bind_mask);
	if (sc->unused_connection_timeout == 0)
		put_str(f, "unusedconnectiontimeout", NULL);
	else
		fprintf(f, "unusedconnectiontimeout %d\n",
		    sc->unused_connection_timeout);
	put_str(f, "permitrootlogin",
	    conf_enum_name(dump_root, sc->permit_root_login));
	put_str(f, "ignorerhosts", conf_enum_name(dump_rhosts, sc->ignore_rhosts));
	put_yn(f, "ignoreuserknownhosts", sc->ignore_user_known_hosts);
	put_yn(f, "hostbasedauthentication", sc->hostbased_authentication);
	put_yn(f, "hostbasedusesnamefrompacketonly",
	    sc->hostbased_uses_name_from_packet_only);
	put_yn(f, "pubkeyauthentication", sc->pubkey_authentication);
	put_yn(f, "passwordauthentication", sc->password_authentication);
	put_yn(f, "kbdinteractiveauthentication",
	    sc->kbd_interactive_authentication);
	put_yn(f, "printmotd", sc->print_motd);
	put_yn(f, "printlastlog", sc->print_last_log);
	put_yn(f, "x11forwarding", sc->x11_forwarding);
	put_yn(f, "permittty", sc->permit_tty);
	put_yn(f, "permituserrc", sc->permit_user_rc);
	put_yn(f, "strictmodes", sc->strict_modes);
	put_yn(f, "tcpkeepalive", sc->tcp_keep_alive);
	put_yn(f, "permitemptypasswords", sc->permit_empty_passwords);
	put_yn(f, "compression", sc->compression);
	put_str(f, "gatewayports", conf_enum_name(dump_gw, sc->gateway_ports));
	put_yn(f, "usedns", sc->use_dns);
	put_str(f, "allowtcpforwarding",
	    conf_enum_name(dump_fwd, sc->allow_tcp_forwarding));
	put_yn(f, "allowagentforwarding", sc->allow_agent_forwarding);
	put_yn(f, "disableforwarding", sc->disable_forwarding);
	put_str(f, "allowstreamlocalforwarding",
	    conf_enum_name(dump_fwd, sc->allow_streamlocal_forwarding));
	put_yn(f, "streamlocalbindunlink", sc->streamlocal_bind_unlink);
	put_str(f, "fingerprinthash",
	    sc_fingerprint_hash_name(sc->fingerprint_hash));
	put_yn(f, "exposeauthinfo", sc->expose_auth_info);
	put_str(f, "pidfile", sc->pid_file);
	put_str(f, "modulifile", sc->moduli_file ? sc->moduli_file :
	    MOAT_SSHDIR "/moduli");
	put_str(f, "ciphers", sc->ciphers);
	put_str(f, "macs", sc->macs);
	put_str(f, "banner", sc->banner);
	put_str(f, "forcecommand", sc->force_command);
	put_str(f, "chrootdirectory", sc->chroot_directory);
	put_str(f, "trustedusercakeys", sc->trusted_user_ca_keys);
	put_str(f, "revokedkeys", sc->revoked_keys);
	put_str(f, "authorizedprincipalsfile", sc->authorized_principals_file);
	put_str(f, "versionaddendum", sc->version_addendum);
	put_str(f, "authorizedkeyscommand", sc->authorized_keys_command);
	put_str(f, "authorizedkeyscommanduser", sc->authorized_keys_command_user);
	put_str(f, "authorizedprincipalscommand",
	    sc->authorized_principals_command);
	put_str(f, "authorizedprincipalscommanduser",
	    sc->authorized_principals_command_user);
	fprintf(f, "authorizedkeyscommandtimeout %d\n",
	    sc->authorized_keys_command_timeout);
	put_str(f, "kexalgorithms", sc->kex_algorithms);
	put_str(f, "casignaturealgorithms", sc->ca_signature_algorithms);
	put_str(f, "hostkeyalgorithms", sc->hostkey_algorithms);
	put_str(f, "hostbasedacceptedalgorithms",
	    sc->hostbased_accepted_algorithms);
	put_str(f, "pubkeyacceptedalgorithms", sc->pubkey_accepted_algorithms);
	put_str(f, "loglevel", log_level_name(sc->log_level));
	put_str(f, "syslogfacility", log_facility_name(sc->log_facility));
	fprintf(f, "authorizedkeysfile");
	for (i = 0; i < sc->nauthorized_keys_files; i++)
		fprintf(f, " %s", sc->authorized_keys_files[i]);
	fprintf(f, "%s\n", sc->nauthorized_keys_files ? "" : " none");
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
	put_str(f, "permittunnel", conf_enum_name(dump_tun, sc->permit_tunnel));
	sc_extra_dump_ipqos(sc, f);
	fprintf(f, "rekeylimit %llu %u\n",
	    (unsigned long long)sc->rekey_bytes, sc->rekey_seconds);
	if (sc->permit_user_env_allowlist != NULL)
		put_str(f, "permituserenvironment",
		    sc->permit_user_env_allowlist);
	else
		put_yn(f, "permituserenvironment", sc->permit_user_environment);
	put_arr(f, "allowusers", sc->allow_users, sc->nallow_users);
	put_arr(f, "denyusers", sc->deny_users, sc->ndeny_users);
	put_arr(f, "allowgroups", sc->allow_groups, sc->nallow_groups);
	put_arr(f, "denygroups", sc->deny_groups, sc->ndeny_groups);
	put_arr(f, "acceptenv", sc->accept_env, sc->naccept_env);
	put_arr(f, "setenv", sc->set_env, sc->nset_env);
	fprintf(f, "permitopen");
	for (i = 0; i < sc->npermit_open; i++)
		fprintf(f, " %s", sc->permit_open[i]);
	fprintf(f, "%s\n", sc->npermit_open ? "" : " any");
	fprintf(f, "permitlisten");
	for (i = 0; i < sc->npermit_listen; i++)
		fprintf(f, " %s", sc->permit_listen[i]);
	fprintf(f, "%s\n", sc->npermit_listen ? "" : " any");
	for (i = 0; i < sc->nsubsystems; i++)
		fprintf(f, "subsystem %s %s\n", sc->subsystems[i].name,
		    sc->subsystems[i].command);
	sc_extra_dump_pkopts(sc, f);
}
