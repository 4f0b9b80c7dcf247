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
listen_line(FILE *f, const char *addr, int port)
{
	if (strchr(addr, ':') != NULL)
		fprintf(f, "listenaddress [%s]:%d\n", addr, port);
	else
		fprintf(f, "listenaddress %s:%d\n", addr, port);
}

static void
dump_listen(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;
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
dump_ports(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;
	size_t i;

	for (i = 0; i < sc->nports; i++)
		fprintf(f, "port %d\n", sc->ports[i]);
}

static void
dump_unused(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;

	if (sc->unused_connection_timeout == 0)
		put_str(f, "unusedconnectiontimeout", NULL);
	else
		fprintf(f, "unusedconnectiontimeout %d\n",
		    sc->unused_connection_timeout);
}

static void
dump_fphash(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;

	put_str(f, "fingerprinthash",
	    sc_fingerprint_hash_name(sc->fingerprint_hash));
}

static void
dump_moduli(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;

	put_str(f, "modulifile", sc->moduli_file ? sc->moduli_file :
	    MOAT_SSHDIR "/moduli");
}

static void
dump_keysfile(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;

	put_line(f, "authorizedkeysfile", sc->authorized_keys_files,
	    sc->nauthorized_keys_files, " none");
}

static void
dump_logging(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;

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
dump_session(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;

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
dump_forwarding(const void *opts, FILE *f)
{
	const struct servconf *sc = opts;
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
 * sshd -T's lines in OpenSSH's order: a keyword printed as its row in
 * sc_keywords says (conf_kw.h's CKD_*), or a function for the lines that
 * follow rules of their own.
 */
#define FN(fn)	{ NULL, fn }
#define K(k)	{ k, NULL }

static const struct conf_dump_step dump_steps[] = {
	FN(dump_ports), K("addressfamily"), FN(dump_listen), K("usepam"),
	K("pamservicename"), K("logingracetime"), K("x11displayoffset"),
	K("maxauthtries"), K("maxsessions"), K("clientaliveinterval"),
	K("clientalivecountmax"), K("requiredrsasize"),
	K("streamlocalbindmask"), FN(dump_unused), K("permitrootlogin"),
	K("ignorerhosts"), K("ignoreuserknownhosts"),
	K("hostbasedauthentication"), K("hostbasedusesnamefrompacketonly"),
	K("pubkeyauthentication"), K("passwordauthentication"),
	K("kbdinteractiveauthentication"), K("printmotd"), K("printlastlog"),
	K("x11forwarding"), K("x11uselocalhost"), K("permittty"),
	K("permituserrc"), K("strictmodes"), K("tcpkeepalive"),
	K("permitemptypasswords"), K("compression"), K("gatewayports"),
	K("usedns"), K("allowtcpforwarding"), K("allowagentforwarding"),
	K("disableforwarding"), K("allowstreamlocalforwarding"),
	K("streamlocalbindunlink"), FN(dump_fphash), K("exposeauthinfo"),
	K("refuseconnection"),
	K("pidfile"), FN(dump_moduli), K("xauthlocation"), K("ciphers"),
	K("macs"), K("banner"), K("forcecommand"), K("chrootdirectory"),
	K("trustedusercakeys"), K("revokedkeys"),
	K("authorizedprincipalsfile"), K("versionaddendum"),
	K("authorizedkeyscommand"), K("authorizedkeyscommanduser"),
	K("authorizedprincipalscommand"),
	K("authorizedprincipalscommanduser"),
	K("authorizedkeyscommandtimeout"), K("kexalgorithms"),
	K("casignaturealgorithms"), K("hostkeyalgorithms"),
	K("hostbasedacceptedalgorithms"), K("pubkeyacceptedalgorithms"),
	K("loglevel"), K("syslogfacility"), FN(dump_keysfile), K("hostkey"),
	K("hostcertificate"), FN(dump_logging), K("permittunnel"),
	FN(dump_session), K("allowusers"), K("denyusers"), K("allowgroups"),
	K("denygroups"), K("acceptenv"), K("setenv"), FN(dump_forwarding),
};

void
servconf_dump(const struct servconf *sc, FILE *f)
{
	conf_kw_dump(&sc_table, dump_steps,
	    sizeof(dump_steps) / sizeof(dump_steps[0]), sc, f);
}
