/*
 * readconf_dump.c: ssh -G, the effective client configuration as
 * "keyword value" lines with lower-case keywords, in OpenSSH's format,
 * so scripts that read `ssh -G host` keep working.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "fwd.h"
#include "fwd_client.h"
#include "log.h"
#include "readconf_int.h"
#include "tun_client.h"

static const char *
yesno(int v)
{
	return v > 0 ? "yes" : "no";
}

/* AddKeysToAgent as OpenSSH prints it: a word, or "[confirm ]SECONDS". */
static void
dump_addkeys(FILE *f, const struct client_opts *o)
{
	static const char *const words[] = { "false", "true", "ask",
	    "confirm" };
	int v = o->add_keys_to_agent;

	if (o->add_keys_to_agent_lifespan > 0)
		fprintf(f, "addkeystoagent%s %d\n", v == 3 ? " confirm" : "",
		    o->add_keys_to_agent_lifespan);
	else if (v >= 0 && v <= 3)
		fprintf(f, "addkeystoagent %s\n", words[v]);
}

static void
dump_list(FILE *f, const char *kw, char *const *arr, size_t n, int oneline)
{
	size_t i;

	if (n == 0)
		return;
	if (oneline) {
		fprintf(f, "%s", kw);
		for (i = 0; i < n; i++)
			fprintf(f, " %s", arr[i]);
		fprintf(f, "\n");
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s\n", kw, arr[i]);
}

/* One end of a forwarding with a socket path, as ssh -G prints it. */
static void
put_end(FILE *f, const char *path, const char *host, int port)
{
	if (path != NULL)
		fprintf(f, " %s", path);
	else if (host == NULL)
		fprintf(f, " %d", port);
	else
		fprintf(f, " [%s]:%d", host, port);
}

/*
 * The forwardings of one kind, printed parsed as OpenSSH 9.2 prints
 * them: "listen target", a path bare, a
 * port alone, a host as [host]:port, no target as [socks]:0 for -R. A
 * LocalForward to a path also shows as a DynamicForward there (its
 * target host is empty, which its -G takes for SOCKS), and a -D with a
 * path target as a LocalForward too; scripts see the same lines here.
 * One that does not parse (refused when used) is printed as written.
 */
static void
dump_fwds(FILE *f, const struct client_opts *o, int kind)
{
	char *const *lists[3] = { o->local_forwards, o->remote_forwards,
	    o->dynamic_forwards };
	const size_t counts[3] = { o->nlocal_forwards, o->nremote_forwards,
	    o->ndynamic_forwards };
	const char *const kws[3] = { "localforward", "remoteforward",
	    "dynamicforward" };
	const int kinds[3] = { 'L', 'R', 'D' };
	struct fwd_spec s;
	size_t k, i;

	for (k = 0; k < 3; k++) {
		for (i = 0; i < counts[k]; i++) {
			if (fwd_client_parse(lists[k][i], kinds[k], &s) != 0) {
				if (kinds[k] == kind)
					fprintf(f, "%s %s\n", kws[k],
					    lists[k][i]);
				fwd_spec_clear(&s);
				continue;
			}
			/* Shown under kind: its own, or the cross-listing. */
			if (kinds[k] == kind || (kind == 'D' &&
			    kinds[k] == 'L' && s.connect_path != NULL) ||
			    (kind == 'L' && kinds[k] == 'D' &&
			    s.connect_path != NULL)) {
				fprintf(f, "%s", kind == 'L' ? kws[0] :
				    kind == 'R' ? kws[1] : kws[2]);
				put_end(f, s.listen_path, s.listen_host,
				    s.listen_port);
				if (kind == 'R' && s.connect_path == NULL &&
				    s.connect_host == NULL)
					fprintf(f, " [socks]:0");
				else if (kind != 'D')
					put_end(f, s.connect_path,
					    s.connect_host, s.connect_port);
				fprintf(f, "\n");
			}
			fwd_spec_clear(&s);
		}
	}
}

/* ControlPersist as ssh -G shows it: no, yes, or seconds. */
static void
dump_persist(FILE *f, const char *v)
{
	long t;

	if (v == NULL || strcasecmp(v, "no") == 0 ||
	    strcasecmp(v, "false") == 0)
		fprintf(f, "controlpersist no\n");
	else if (strcasecmp(v, "yes") == 0 || strcasecmp(v, "true") == 0 ||
	    (t = conf_parse_time(v)) <= 0)
		fprintf(f, "controlpersist yes\n");
	else
		fprintf(f, "controlpersist %ld\n", t);
}

static void
dump_fphash(const void *opts, FILE *f)
{
	fprintf(f, "fingerprinthash %s\n", key_fp_hash_name(client_fp_hash(
	    opts)));
}

static void
dump_canon(const void *opts, FILE *f)
{
	const struct client_opts *o = opts;

	if (o->ncanonical_domains == 0)
		fprintf(f, "canonicaldomains none\n");
	dump_list(f, "canonicaldomains", o->canonical_domains,
	    o->ncanonical_domains, 1);
	/* (sic: OpenSSH 9.2 prints the keyword so) */
	if (o->ncanonical_cnames == 0)
		fprintf(f, "canonicalizePermittedcnames none\n");
	dump_list(f, "canonicalizePermittedcnames", o->canonical_cnames,
	    o->ncanonical_cnames, 1);
}

static void
dump_remoteopen(const void *opts, FILE *f)
{
	const struct client_opts *o = opts;
	char a[8], b[8];

	if (o->npermit_remote_open == 0)
		fprintf(f, "permitremoteopen any\n");
	dump_list(f, "permitremoteopen", o->permit_remote_open,
	    o->npermit_remote_open, 1);
	fprintf(f, "ipqos %s %s\n", conf_ipqos_name(o->ipqos_interactive, a),
	    conf_ipqos_name(o->ipqos_bulk, b));
	if (o->tag != NULL)
		fprintf(f, "tag %s\n", o->tag);
	if (o->bind_interface != NULL)
		fprintf(f, "bindinterface %s\n", o->bind_interface);
	if (o->nchannel_timeouts == 0)
		fprintf(f, "channeltimeout none\n");
	dump_list(f, "channeltimeout", o->channel_timeouts,
	    o->nchannel_timeouts, 1);
	fprintf(f, "proxyusefdpass %s\n", yesno(o->proxy_use_fdpass));
	if (o->obscure_keystroke_timing > 0)
		fprintf(f, "obscurekeystroketiming %d\n",
		    o->obscure_keystroke_timing);
	else
		fprintf(f, "obscurekeystroketiming %s\n",
		    o->obscure_keystroke_timing == 0 ? "no" : "yes");
}

/* OpenSSH's -G shows the first of several LogVerbose patterns only. */
static void
dump_logverbose(const void *opts, FILE *f)
{
	const struct client_opts *o = opts;

	fprintf(f, "logverbose %.*s\n", o->log_verbose != NULL ?
	    (int)strcspn(o->log_verbose, " \t") : 4,
	    o->log_verbose != NULL ? o->log_verbose : "none");
}

/* CertificateFile as written: OpenSSH expands it only when loading. */
static void
dump_certs(const void *opts, FILE *f)
{
	const struct rc_priv *p = ((const struct client_opts *)opts)->priv;

	dump_list(f, "certificatefile", p->cert_written, p->ncert_written, 0);
}

/* PreferredAuthentications only when set, as OpenSSH prints it. */
static void
dump_prefauth(const void *opts, FILE *f)
{
	const struct client_opts *o = opts;
	const struct rc_priv *p = o->priv;

	if (!p->pref_auth_default && o->preferred_authentications != NULL)
		fprintf(f, "preferredauthentications %s\n",
		    o->preferred_authentications);
}

/* IdentityFile as written, or the files tried when none is. */
static void
dump_identity(const void *opts, FILE *f)
{
	const struct rc_priv *p = ((const struct client_opts *)opts)->priv;
	static const char *const defids[] = {
		"~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ecdsa_sk",
		"~/.ssh/id_ed25519", "~/.ssh/id_ed25519_sk",
		"~/.ssh/id_xmss", "~/.ssh/id_dsa",
	};

	if (p->nident_written != 0)
		dump_list(f, "identityfile", p->ident_written,
		    p->nident_written, 0);
	else
		dump_list(f, "identityfile", (char *const *)defids,
		    sizeof(defids) / sizeof(defids[0]), 0);
}

static void
dump_all_fwds(const void *opts, FILE *f)
{
	dump_fwds(f, opts, 'L');
	dump_fwds(f, opts, 'R');
	dump_fwds(f, opts, 'D');
}

/* The header, and the keywords -G prints as words of their own. */
static void
dump_head(const void *opts, FILE *f)
{
	const struct client_opts *o = opts;

	fprintf(f, "host %s\n", o->host_arg ? o->host_arg : "");
	fprintf(f, "user %s\n", o->user ? o->user : "");
	fprintf(f, "hostname %s\n", o->hostname ? o->hostname : "");
}

static void
dump_words(const void *opts, FILE *f)
{
	const struct client_opts *o = opts;

	fprintf(f, "controlmaster %s\n", o->control_master == 0 ? "false" :
	    conf_enum_name(rc_enum_ctlm, o->control_master));
	fprintf(f, "requesttty %s\n", o->request_tty == RTTY_NO ? "false" :
	    o->request_tty == RTTY_YES ? "true" :
	    conf_enum_name(rc_enum_tty, o->request_tty));
	fprintf(f, "stricthostkeychecking %s\n",
	    o->strict_host_key_checking == SHK_NO ? "false" :
	    o->strict_host_key_checking == SHK_YES ? "true" :
	    conf_enum_name(rc_enum_shk, o->strict_host_key_checking));
	fprintf(f, "updatehostkeys %s\n", o->update_host_keys == 0 ?
	    "false" : o->update_host_keys == 2 ? "ask" : "true");
	fprintf(f, "tunnel %s\n", o->tunnel == 0 ? "false" :
	    conf_enum_name(rc_enum_tunnel, o->tunnel));
	fprintf(f, "verifyhostkeydns %s\n", o->verify_host_key_dns == 0 ?
	    "false" : o->verify_host_key_dns == 2 ? "ask" : "true");
}

/* From IdentityAgent to RekeyLimit: values with spellings of their own. */
static void
dump_tail(const void *opts, FILE *f)
{
	const struct client_opts *o = opts;

	if (o->identity_agent != NULL)
		fprintf(f, "identityagent %s\n", o->identity_agent);
	dump_addkeys(f, o);
	if (o->forward_agent_sock != NULL)
		fprintf(f, "forwardagent %s\n", o->forward_agent_sock);
	else
		fprintf(f, "forwardagent %s\n", yesno(o->forward_agent));
	if (o->connect_timeout > 0)
		fprintf(f, "connecttimeout %d\n", o->connect_timeout);
	else
		fprintf(f, "connecttimeout none\n");
	tun_dump_device(o, f);
	dump_persist(f, o->control_persist);
	if (o->escape_char == -2)
		fprintf(f, "escapechar none\n");
	else if (o->escape_char < 32)
		fprintf(f, "escapechar ^%c\n", o->escape_char + 64);
	else
		fprintf(f, "escapechar %c\n", o->escape_char);
	fprintf(f, "rekeylimit %" PRIu64 " %" PRIu32 "\n", o->rekey_bytes,
	    o->rekey_seconds);
}

/*
 * ssh -G's lines in OpenSSH's order: a keyword printed as its row in
 * rc_keywords says (conf_kw.h's CKD_*), or a function for the lines
 * that follow rules of their own.
 */
#define FN(fn)	{ NULL, fn }
#define K(k)	{ k, NULL }

static const struct conf_dump_step dump_steps[] = {
	FN(dump_head), K("port"), K("addressfamily"), K("batchmode"),
	K("checkhostip"), K("compression"), K("enablesshkeysign"),
	K("hostbasedauthentication"), K("clearallforwardings"),
	K("exitonforwardfailure"), K("gatewayports"),
	K("streamlocalbindunlink"), K("hashknownhosts"), K("identitiesonly"),
	K("kbdinteractiveauthentication"), K("passwordauthentication"),
	K("pubkeyauthentication"), K("tcpkeepalive"), K("visualhostkey"),
	K("enableescapecommandline"), K("warnweakcrypto"),
	K("permitlocalcommand"), K("stdinnull"), K("forkafterauthentication"),
	K("nohostauthenticationforlocalhost"),
	K("canonicalizefallbacklocal"), FN(dump_words), K("forwardx11"),
	K("forwardx11trusted"), K("forwardx11timeout"), K("sessiontype"),
	K("connectionattempts"), FN(dump_fphash), K("syslogfacility"),
	K("canonicalizehostname"), K("canonicalizemaxdots"), FN(dump_canon),
	K("localcommand"), K("ignoreunknown"), K("knownhostscommand"),
	K("revokedhostkeys"), K("securitykeyprovider"), K("requiredrsasize"),
	K("casignaturealgorithms"), FN(dump_remoteopen),
	K("numberofpasswordprompts"), K("serveralivecountmax"),
	K("serveraliveinterval"), K("ciphers"), K("hostkeyalgorithms"),
	K("hostkeyalias"), K("kbdinteractivedevices"), K("kexalgorithms"),
	K("loglevel"),
	FN(dump_logverbose),
	K("macs"),
	K("pkcs11provider"), K("pubkeyacceptedalgorithms"),
	K("hostbasedacceptedalgorithms"), FN(dump_prefauth),
	K("bindaddress"), K("xauthlocation"), FN(dump_identity),
	FN(dump_certs), K("globalknownhostsfile"),
	K("userknownhostsfile"), K("sendenv"), K("setenv"),
	FN(dump_all_fwds), K("streamlocalbindmask"), K("controlpath"),
	FN(dump_tail), K("proxycommand"), K("proxyjump"), K("remotecommand"),
};

void
readconf_dump(const struct client_opts *o, FILE *f)
{
	conf_kw_dump(&rc_table, dump_steps,
	    sizeof(dump_steps) / sizeof(dump_steps[0]), o, f);
}
