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
 * The forwardings of one kind. Those with a socket path are printed
 * parsed, as OpenSSH 9.2 prints them: "listen target", a path bare, a
 * port alone, a host as [host]:port, no target as [socks]:0 for -R. A
 * LocalForward to a path also shows as a DynamicForward there (its
 * target host is empty, which its -G takes for SOCKS), and a -D with a
 * path target as a LocalForward too; scripts see the same lines here.
 * Forwardings without a path are printed as written.
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
			if (fwd_client_parse(lists[k][i], kinds[k], &s) != 0 ||
			    (s.listen_path == NULL && s.connect_path == NULL)) {
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
dump_str(FILE *f, const char *kw, const char *v)
{
	if (v != NULL && strcmp(v, "none") != 0)
		fprintf(f, "%s %s\n", kw, v);
}

/* The session's, canonicalisation's and the host key's settings. */
static void
dump_more(const struct client_opts *o, FILE *f)
{
	char a[8], b[8];

	fprintf(f, "sessiontype %s\n",
	    conf_enum_name(rc_enum_session, o->session_type));
	fprintf(f, "connectionattempts %d\n", o->connection_attempts);
	fprintf(f, "fingerprinthash %s\n", key_fp_hash_name(client_fp_hash(o)));
	fprintf(f, "syslogfacility %s\n",
	    log_facility_name(o->syslog_facility));
	fprintf(f, "canonicalizehostname %s\n",
	    conf_enum_name(rc_enum_canon, o->canonicalize_hostname));
	fprintf(f, "canonicalizemaxdots %d\n", o->canonicalize_max_dots);
	if (o->ncanonical_domains == 0)
		fprintf(f, "canonicaldomains none\n");
	dump_list(f, "canonicaldomains", o->canonical_domains,
	    o->ncanonical_domains, 1);
	/* (sic: OpenSSH 9.2 prints the keyword so) */
	if (o->ncanonical_cnames == 0)
		fprintf(f, "canonicalizePermittedcnames none\n");
	dump_list(f, "canonicalizePermittedcnames", o->canonical_cnames,
	    o->ncanonical_cnames, 1);
	dump_str(f, "localcommand", o->local_command);
	dump_str(f, "ignoreunknown", o->ignore_unknown);
	dump_str(f, "knownhostscommand", o->known_hosts_command);
	dump_str(f, "revokedhostkeys", o->revoked_host_keys);
	dump_str(f, "securitykeyprovider", o->security_key_provider);
	fprintf(f, "requiredrsasize %d\n", o->required_rsa_size);
	dump_str(f, "casignaturealgorithms", o->ca_signature_algorithms);
	if (o->npermit_remote_open == 0)
		fprintf(f, "permitremoteopen any\n");
	dump_list(f, "permitremoteopen", o->permit_remote_open,
	    o->npermit_remote_open, 1);
	fprintf(f, "ipqos %s %s\n", conf_ipqos_name(o->ipqos_interactive, a),
	    conf_ipqos_name(o->ipqos_bulk, b));
}

/* The keywords that take a list: files, environment. */
static void
dump_lists(const struct client_opts *o, FILE *f)
{
	const struct rc_priv *p = o->priv;
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
	dump_list(f, "certificatefile", o->certificate_files,
	    o->ncertificate_files, 0);
	dump_list(f, "globalknownhostsfile", o->global_known_hosts_files,
	    o->nglobal_known_hosts_files, 1);
	dump_list(f, "userknownhostsfile", o->user_known_hosts_files,
	    o->nuser_known_hosts_files, 1);
	dump_list(f, "sendenv", o->send_env, o->nsend_env, 0);
	dump_list(f, "setenv", o->set_env, o->nset_env, 1);
}

void
readconf_dump(const struct client_opts *o, FILE *f)
{
	const struct { const char *kw; int v; } flags[] = {
		{ "batchmode", o->batch_mode },
		{ "checkhostip", o->check_host_ip },
		{ "compression", o->compression },
		{ "enablesshkeysign", o->enable_ssh_keysign },
		{ "hostbasedauthentication", o->hostbased_authentication },
		{ "clearallforwardings", o->clear_all_forwardings },
		{ "exitonforwardfailure", o->exit_on_forward_failure },
		{ "gatewayports", o->gateway_ports },
		{ "streamlocalbindunlink", o->streamlocal_bind_unlink },
		{ "hashknownhosts", o->hash_known_hosts },
		{ "identitiesonly", o->identities_only },
		{ "kbdinteractiveauthentication",
		    o->kbd_interactive_authentication },
		{ "passwordauthentication", o->password_authentication },
		{ "pubkeyauthentication", o->pubkey_authentication },
		{ "tcpkeepalive", o->tcp_keep_alive },
		{ "visualhostkey", o->visual_host_key },
		{ "enableescapecommandline", o->enable_escape_commandline },
		{ "warnweakcrypto", o->warn_weak_crypto },
		{ "permitlocalcommand", o->permit_local_command },
		{ "stdinnull", o->stdin_null },
		{ "forkafterauthentication", o->fork_after_auth },
		{ "nohostauthenticationforlocalhost",
		    o->no_host_auth_localhost },
		{ "canonicalizefallbacklocal", o->canonicalize_fallback_local },
	};
	size_t i;

	fprintf(f, "host %s\n", o->host_arg ? o->host_arg : "");
	fprintf(f, "user %s\n", o->user ? o->user : "");
	fprintf(f, "hostname %s\n", o->hostname ? o->hostname : "");
	fprintf(f, "port %d\n", o->port);
	fprintf(f, "addressfamily %s\n",
	    conf_enum_name(rc_enum_af, o->address_family));
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		fprintf(f, "%s %s\n", flags[i].kw, yesno(flags[i].v));
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
	fprintf(f, "forwardx11 %s\n", yesno(o->forward_x11));
	fprintf(f, "forwardx11trusted %s\n", yesno(o->forward_x11_trusted));
	fprintf(f, "forwardx11timeout %d\n", o->forward_x11_timeout);
	dump_more(o, f);
	fprintf(f, "numberofpasswordprompts %d\n",
	    o->number_of_password_prompts);
	fprintf(f, "serveralivecountmax %d\n", o->server_alive_count_max);
	fprintf(f, "serveraliveinterval %d\n", o->server_alive_interval);
	dump_str(f, "ciphers", o->ciphers);
	dump_str(f, "hostkeyalgorithms", o->hostkey_algorithms);
	dump_str(f, "hostkeyalias", o->host_key_alias);
	dump_str(f, "kexalgorithms", o->kex_algorithms);
	fprintf(f, "loglevel %s\n", log_level_name(o->log_level));
	dump_str(f, "macs", o->macs);
	dump_str(f, "pkcs11provider", o->pkcs11_provider);
	dump_str(f, "pubkeyacceptedalgorithms", o->pubkey_accepted_algorithms);
	dump_str(f, "hostbasedacceptedalgorithms",
	    o->hostbased_accepted_algorithms);
	dump_str(f, "preferredauthentications", o->preferred_authentications);
	dump_str(f, "bindaddress", o->bind_address);
	dump_str(f, "xauthlocation", o->xauth_location);
	dump_lists(o, f);
	dump_fwds(f, o, 'L');
	dump_fwds(f, o, 'R');
	dump_fwds(f, o, 'D');
	fprintf(f, "streamlocalbindmask 0%o\n",
	    (unsigned int)o->streamlocal_bind_mask);
	dump_str(f, "controlpath", o->control_path);
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
	dump_str(f, "proxycommand", o->proxy_command);
	dump_str(f, "proxyjump", o->proxy_jump);
	dump_str(f, "remotecommand", o->remote_command);
}
