/*
 * readconf_finish.c: the last step of reading ssh_config: defaults for
 * everything left unset (OpenSSH 9.2's), ~ and %-token expansion of file
 * names, the default identity list filtered to the files that exist, and
 * the algorithm lists resolved against what we implement.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "err.h"
#include "installdirs.h"
#include "log.h"
#include "mem.h"
#include "readconf_int.h"

static const char *const default_identities[] = {
	"~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ecdsa_sk",
	"~/.ssh/id_ed25519", "~/.ssh/id_ed25519_sk", "~/.ssh/id_xmss",
	"~/.ssh/id_dsa", NULL,
};

enum key_fp_hash
client_fp_hash(const struct client_opts *o)
{
	return o->fingerprint_hash < 0 ? KEY_FP_SHA256 :
	    (enum key_fp_hash)o->fingerprint_hash;
}

const char *
readconf_local_user(const struct client_opts *o)
{
	const struct rc_priv *p = o->priv;

	return p->local_user;
}

int
readconf_tilde(const struct client_opts *o, const char *s, char **outp)
{
	const struct rc_priv *p = o->priv;
	const char *slash;
	struct passwd *pw;
	char *name;

	*outp = NULL;
	if (s[0] != '~') {
		*outp = x_strdup(s);
		return 0;
	}
	slash = strchr(s, '/');
	if (s[1] == '/' || s[1] == '\0') {
		*outp = x_asprintf("%s%s", p->home, s + 1);
		return 0;
	}
	name = slash != NULL ? x_strndup(s + 1, (size_t)(slash - s - 1)) :
	    x_strdup(s + 1);
	pw = getpwnam(name);
	x_free(name);
	if (pw == NULL) {
		log_error("No such user for tilde expansion in \"%s\"", s);
		return ERR_CONFIG;
	}
	*outp = x_asprintf("%s%s", pw->pw_dir, slash != NULL ? slash : "");
	return 0;
}

/* %j: the host of ProxyJump's last hop, "" without one. */
static void
jump_host(const struct client_opts *o, char *buf, size_t len)
{
	const char *j = o->proxy_jump, *c;
	char *e;

	buf[0] = '\0';
	if (j == NULL || strcmp(j, "none") == 0)
		return;
	if ((c = strrchr(j, ',')) != NULL)
		j = c + 1;
	if (strncmp(j, "ssh://", 6) == 0)
		j += 6;
	if ((c = strrchr(j, '@')) != NULL)
		j = c + 1;
	snprintf(buf, len, "%s", j[0] == '[' ? j + 1 : j);
	if ((e = strchr(buf, j[0] == '[' ? ']' : ':')) != NULL)
		*e = '\0';
	if ((e = strchr(buf, '/')) != NULL)
		*e = '\0';
}

/* %C: SHA-1 in hex of local host, remote host, port and user. */
static void
conn_hash(const char *l, const char *h, const char *port, const char *r,
    char out[41])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;
	char *cat = x_asprintf("%s%s%s%s", l, h, port, r);

	out[0] = '\0';
	if (EVP_Digest(cat, strlen(cat), md, &n, EVP_sha1(), NULL) == 1)
		for (i = 0; i < n && i < 20; i++)
			snprintf(out + 2 * i, 3, "%02x", md[i]);
	x_free(cat);
}

int
readconf_expand(const struct client_opts *o, const char *s, char **outp)
{
	const struct rc_priv *p = o->priv;
	char host[256], portbuf[16], uidbuf[32], jbuf[256], hash[41];
	char *out, *dot;
	const char *v;
	size_t len = 0, cap = strlen(s) + 1, n;

	*outp = NULL;
	if (gethostname(host, sizeof(host)) != 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(portbuf, sizeof(portbuf), "%d", o->port > 0 ? o->port : 22);
	snprintf(uidbuf, sizeof(uidbuf), "%lu", (unsigned long)getuid());
	out = x_malloc(cap);
	for (; *s != '\0'; s++) {
		char shorth[256];

		if (*s != '%') {
			v = NULL;
			n = 1;
		} else {
			switch (*++s) {
			case '%': v = "%"; break;
			case 'h': v = o->hostname != NULL ? o->hostname :
			    (o->host_arg != NULL ? o->host_arg : ""); break;
			case 'n': v = o->host_arg != NULL ? o->host_arg : "";
				break;
			case 'p': v = portbuf; break;
			case 'r': v = o->user != NULL ? o->user :
			    p->local_user; break;
			case 'u': v = p->local_user; break;
			case 'l': v = host; break;
			case 'L':
				snprintf(shorth, sizeof(shorth), "%s", host);
				if ((dot = strchr(shorth, '.')) != NULL)
					*dot = '\0';
				v = shorth;
				break;
			case 'd': v = p->home; break;
			case 'i': v = uidbuf; break;
			case 'k': v = o->host_key_alias != NULL ?
			    o->host_key_alias : (o->host_arg != NULL ?
			    o->host_arg : ""); break;
			case 'j':
				jump_host(o, jbuf, sizeof(jbuf));
				v = jbuf;
				break;
			case 'C':
				conn_hash(host, o->hostname != NULL ?
				    o->hostname : (o->host_arg != NULL ?
				    o->host_arg : ""), portbuf, o->user !=
				    NULL ? o->user : p->local_user, hash);
				v = hash;
				break;
			default:
				log_error("percent_expand: unknown key %%%c",
				    *s != '\0' ? *s : ' ');
				x_free(out);
				return ERR_CONFIG;
			}
			n = strlen(v);
		}
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			out = x_reallocarray(out, cap, 1);
		}
		memcpy(out + len, v != NULL ? v : s, n);
		len += n;
	}
	out[len] = '\0';
	*outp = out;
	return 0;
}

int
readconf_expand_more(const struct client_opts *o, const char *s,
    const char *keys, const char *const *vals, char **outp)
{
	const char *c, *k, *v;
	size_t cap = strlen(s) + 1, n = 0, need;
	char *pre = x_malloc(cap);
	int r;

	for (c = s; *c != '\0'; c++) {
		v = NULL;
		if (c[0] == '%' && c[1] != '\0' && c[1] != '%' &&
		    (k = strchr(keys, c[1])) != NULL)
			v = vals[k - keys];
		/* A value's own '%' is doubled, so it stays as it is. */
		need = v != NULL ? 2 * strlen(v) : 2;
		if (n + need + 1 > cap) {
			cap = (n + need + 1) * 2;
			pre = x_reallocarray(pre, cap, 1);
		}
		if (v == NULL) {
			if (c[0] == '%' && c[1] == '%')
				pre[n++] = *c++;
			pre[n++] = *c;
			continue;
		}
		for (; *v != '\0'; v++) {
			if (*v == '%')
				pre[n++] = '%';
			pre[n++] = *v;
		}
		c++;
	}
	pre[n] = '\0';
	r = readconf_expand(o, pre, outp);
	x_free(pre);
	return r;
}

/* Tilde, then tokens, in place. */
/* "${NAME}" in *sp replaced by the variable's value; unset: an error. */
static int
env_expand(char **sp)
{
	const char *s = *sp, *end, *v;
	char *name, *out = x_strdup(""), *n;

	while (*s != '\0') {
		if (s[0] != '$' || s[1] != '{') {
			n = x_asprintf("%s%c", out, *s++);
			x_free(out);
			out = n;
			continue;
		}
		if ((end = strchr(s, '}')) == NULL) {
			log_error("Invalid environment expansion %s.", *sp);
			x_free(out);
			return ERR_CONFIG;
		}
		name = x_strndup(s + 2, (size_t)(end - s - 2));
		if ((v = getenv(name)) == NULL) {
			log_error("env var ${%s} has no value", name);
			x_free(name);
			x_free(out);
			return ERR_CONFIG;
		}
		n = x_asprintf("%s%s", out, v);
		x_free(name);
		x_free(out);
		out = n;
		s = end + 1;
	}
	x_free(*sp);
	*sp = out;
	return 0;
}

static int
expand_path(const struct client_opts *o, char **pathp)
{
	char *t = NULL, *e = NULL;
	int r;

	if ((r = readconf_tilde(o, *pathp, &t)) != 0)
		return r;
	if ((r = readconf_expand(o, t, &e)) != 0) {
		x_free(t);
		return r;
	}
	x_free(t);
	x_free(*pathp);
	*pathp = e;
	return 0;
}

static void
set_files(char **arr, size_t *n, const char *a, const char *b)
{
	if (*n != 0)
		return;
	arr[(*n)++] = x_strdup(a);
	arr[(*n)++] = x_strdup(b);
}

static int
resolve_algs(const char *kw, char **specp)
{
	char *out = NULL;
	int r;

	if ((r = rc_algs_resolve(kw, *specp, &out)) != 0) {
		log_error("Bad %s list '%s'", kw, *specp ? *specp : "");
		return ERR_CONFIG;
	}
	x_free(*specp);
	*specp = out;
	return 0;
}

/* The host, user, port and HostName (%h in it is the host as given). */
static int
finish_host(struct client_opts *o)
{
	struct rc_priv *p = o->priv;
	char *h, *e;
	int r;

	if (o->host_arg == NULL)
		o->host_arg = x_strdup("");
	if (o->user == NULL)
		o->user = x_strdup(p->local_user);
	if (o->port == -1)
		o->port = 22;
	if (o->hostname == NULL) {
		o->hostname = x_strdup(o->host_arg);
		return 0;
	}
	h = o->hostname;
	o->hostname = NULL;
	r = readconf_expand(o, h, &e);
	x_free(h);
	if (r != 0)
		return r;
	o->hostname = e;
	return 0;
}

/* Identities: explicit ones kept (auth warns if missing), else the
 * default files that exist. */
static int
finish_identities(struct client_opts *o)
{
	struct stat st;
	char *path;
	size_t i;
	int r;

	if (o->nidentity_files != 0) {
		for (i = 0; i < o->nidentity_files; i++)
			if ((r = expand_path(o, &o->identity_files[i])) != 0)
				return r;
		return 0;
	}
	for (i = 0; default_identities[i] != NULL; i++) {
		if (readconf_tilde(o, default_identities[i], &path) != 0)
			continue;
		if (stat(path, &st) == 0 && o->nidentity_files < CO_MAX_LIST) {
			o->identity_files_explicit[o->nidentity_files] = 0;
			o->identity_files[o->nidentity_files++] = path;
		} else
			x_free(path);
	}
	return 0;
}

static int
expand_all(struct client_opts *o, char **arr, size_t n)
{
	size_t i;
	int r;

	for (i = 0; i < n; i++)
		if ((r = expand_path(o, &arr[i])) != 0)
			return r;
	return 0;
}

/*
 * ForwardAgent's socket path: ~, ${VAR} and %-tokens expanded (a
 * "$VAR" is looked up when forwarding starts). As ssh(1) does, a path
 * that is not there is reported at once, fatal only with
 * ExitOnForwardFailure; "$VAR" is reported too, being no file.
 */
static int
finish_fwdagent(struct client_opts *o)
{
	struct stat st;
	int r;

	if (o->forward_agent_sock == NULL)
		return 0;
	if ((o->forward_agent_sock[0] != '$' ||
	    o->forward_agent_sock[1] == '{') &&
	    ((r = env_expand(&o->forward_agent_sock)) != 0 ||
	    (r = expand_path(o, &o->forward_agent_sock)) != 0))
		return r;
	if (stat(o->forward_agent_sock, &st) != 0) {
		log_error("Cannot forward agent socket path \"%s\": %s",
		    o->forward_agent_sock, strerror(errno));
		if (o->exit_on_forward_failure > 0)
			return ERR_CONFIG;
	}
	return 0;
}

/* Known-hosts files, certificates, ControlPath and IdentityAgent. */
static int
finish_files(struct client_opts *o)
{
	int r;

	if ((r = finish_identities(o)) != 0 ||
	    (r = expand_all(o, o->certificate_files,
	    o->ncertificate_files)) != 0)
		return r;
	/*
	 * UpdateHostKeys: on by default unless UserKnownHostsFile names
	 * anything but the default file, or VerifyHostKeyDNS is on.
	 */
	if (o->verify_host_key_dns == -1)
		o->verify_host_key_dns = 0;
	if (o->update_host_keys == -1)
		o->update_host_keys = o->verify_host_key_dns <= 0 &&
		    (o->nuser_known_hosts_files == 0 ||
		    (o->nuser_known_hosts_files == 1 &&
		    strcmp(o->user_known_hosts_files[0],
		    "~/.ssh/known_hosts") == 0));
	set_files(o->user_known_hosts_files, &o->nuser_known_hosts_files,
	    "~/.ssh/known_hosts", "~/.ssh/known_hosts2");
	set_files(o->global_known_hosts_files, &o->nglobal_known_hosts_files,
	    MOAT_SSHDIR "/ssh_known_hosts", MOAT_SSHDIR "/ssh_known_hosts2");
	if ((r = expand_all(o, o->user_known_hosts_files,
	    o->nuser_known_hosts_files)) != 0 ||
	    (r = expand_all(o, o->global_known_hosts_files,
	    o->nglobal_known_hosts_files)) != 0)
		return r;
	if (o->control_path != NULL && strcmp(o->control_path, "none") != 0 &&
	    (r = expand_path(o, &o->control_path)) != 0)
		return r;
	/*
	 * The built-in authenticator support (libfido2 in ssh-sk-helper),
	 * as an OpenSSH built with it.
	 */
	if (o->security_key_provider == NULL)
		o->security_key_provider = x_strdup("internal");
	/* IdentityAgent: a path is expanded; its other forms are kept. */
	if (o->identity_agent != NULL &&
	    strcmp(o->identity_agent, "none") != 0 &&
	    strcmp(o->identity_agent, "SSH_AUTH_SOCK") != 0 &&
	    (o->identity_agent[0] != '$' || o->identity_agent[1] == '{') &&
	    ((r = env_expand(&o->identity_agent)) != 0 ||
	    (r = expand_path(o, &o->identity_agent)) != 0))
		return r;
	return finish_fwdagent(o);
}

/* The algorithm lists, each resolved through its keyword's row. */
static int
finish_algs(struct client_opts *o)
{
#define L(m) offsetof(struct client_opts, m)
	static const struct {
		const char *kw;
		size_t off;
	} lists[] = {
		{ "ciphers", L(ciphers) }, { "macs", L(macs) },
		{ "kexalgorithms", L(kex_algorithms) },
		{ "hostkeyalgorithms", L(hostkey_algorithms) },
		{ "pubkeyacceptedalgorithms", L(pubkey_accepted_algorithms) },
		{ "hostbasedacceptedalgorithms",
		    L(hostbased_accepted_algorithms) },
		{ "casignaturealgorithms", L(ca_signature_algorithms) },
	};
#undef L
	size_t i;
	int r;

	o->kex_algorithms_given = o->kex_algorithms != NULL;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if ((r = resolve_algs(lists[i].kw, (char **)(void *)
		    ((char *)o + lists[i].off))) != 0)
			return r;
	return 0;
}

/* SendEnv "-pattern" removes earlier patterns (OpenSSH 7.8+). */
static void
finish_sendenv(struct client_opts *o)
{
	size_t i, j;

	for (i = 0; i < o->nsend_env; i++) {
		if (o->send_env[i][0] != '-')
			continue;
		for (j = 0; j < i; j++)
			if (o->send_env[j][0] != '\0' && o->send_env[j][0] !=
			    '-' && strcmp(o->send_env[j],
			    o->send_env[i] + 1) == 0)
				o->send_env[j][0] = '\0';
	}
	for (i = j = 0; i < o->nsend_env; i++) {
		if (o->send_env[i][0] == '\0' || o->send_env[i][0] == '-')
			x_free(o->send_env[i]);
		else
			o->send_env[j++] = o->send_env[i];
	}
	o->nsend_env = j;
}

/* Every int keyword still unset takes its row's default. */
static void
finish_defaults(struct client_opts *o)
{
	const struct conf_kw *kw;
	int *ip;

	for (kw = rc_keywords; kw->name != NULL; kw++) {
		switch (kw->type) {
		case CK_FLAG: case CK_INT: case CK_TIME: case CK_PORT:
		case CK_ENUM: case CK_LOGLEVEL: case RT_ESCAPE: case CK_MODE:
		case RT_FWDAGENT: case RT_ADDKEYS:
		case RT_FPHASH: case CK_FACILITY: case RT_OBSCURE:
			ip = (int *)(void *)((char *)o + kw->off);
			if (*ip == -1)
				*ip = kw->def;
			break;
		default:
			break;
		}
	}
	if (o->add_keys_to_agent_lifespan == -1)
		o->add_keys_to_agent_lifespan = 0;
	if (o->connect_timeout <= 0)
		o->connect_timeout = -1;
	if (o->xauth_location == NULL)
		o->xauth_location = x_strdup(CLIENT_XAUTH_PATH);
	/* OpenSSH 9.2's IPQoS default: lowdelay, throughput. */
	if (o->ipqos_interactive == -2) {
		o->ipqos_interactive = 0x10;
		o->ipqos_bulk = 0x08;
	}
	if (o->rekey_bytes == UINT64_MAX) {
		o->rekey_bytes = 0;
		o->rekey_seconds = 0;
	}
	if (o->preferred_authentications == NULL) {
		((struct rc_priv *)o->priv)->pref_auth_default = 1;
		o->preferred_authentications =
		    x_strdup("publickey,keyboard-interactive,password");
	}
	if (o->proxy_command == NULL)
		o->proxy_command = x_strdup("none");
	if (o->proxy_jump == NULL)
		o->proxy_jump = x_strdup("none");
}

int
readconf_finish(struct client_opts *o, const char *local_user)
{
	struct rc_priv *p = o->priv;
	int r;

	if (p->finished)
		return ERR_INTERNAL;
	p->finished = 1;
	if (local_user != NULL) {
		x_free(p->local_user);
		p->local_user = x_strdup(local_user);
	}
	if ((r = finish_host(o)) != 0 || (r = finish_files(o)) != 0 ||
	    (r = finish_algs(o)) != 0)
		return r;
	finish_sendenv(o);
	finish_defaults(o);
	/* RemoteCommand takes the %-tokens too; ssh -G shows it expanded. */
	if (o->remote_command != NULL) {
		char *e = NULL;

		if ((r = readconf_expand(o, o->remote_command, &e)) != 0)
			return r;
		x_free(o->remote_command);
		o->remote_command = e;
	}
	return 0;
}
