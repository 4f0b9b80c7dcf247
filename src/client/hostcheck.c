/*
 * hostcheck.c: is the server's host key the one we know?
 *
 * The name looked up is HostKeyAlias if set, else the host name, written
 * "[host]:port" for ports other than 22. The user's known_hosts files
 * come first, then the global ones; hostfile_lookup() says NEW, OK,
 * CHANGED or REVOKED. Policy (StrictHostKeyChecking):
 *
 *   yes         NEW and CHANGED are refused
 *   accept-new  NEW is added and trusted; CHANGED is refused
 *   ask         NEW prompts on the terminal (yes/no/fingerprint);
 *               CHANGED is refused
 *   no (off)    NEW is added; CHANGED connects after the warning, with
 *               password and keyboard-interactive authentication off so
 *               a man in the middle learns no password
 *
 * A revoked key is always refused. New keys go to the first user file,
 * hashed if HashKnownHosts is set.
 *
 * A host certificate (hostcheck_verify_cert) is trusted when its CA is
 * an @cert-authority key for the host and the certificate is a host
 * certificate, valid now, naming the host (or HostKeyAlias) among its
 * principals; the CA or the plain key marked @revoked refuses it. With
 * no @cert-authority line for its CA, the certificate's plain key is
 * checked as an ordinary host key, as OpenSSH does.
 */
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cert.h"
#include "err.h"
#include "hostcheck.h"
#include "conf.h"
#include "hostfile.h"
#include "krl.h"
#include "log.h"
#include "match.h"
#include "mem.h"

const char *
hostcheck_key_label(const struct key *k)
{
	static const struct { enum key_type t; const char *label; } tab[] = {
		{ KEY_ED25519, "ED25519" }, { KEY_ECDSA, "ECDSA" },
		{ KEY_RSA, "RSA" }, { KEY_ED25519_SK, "ED25519-SK" },
		{ KEY_ECDSA_SK, "ECDSA-SK" },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (tab[i].t == k->type)
			return tab[i].label;
	return "unknown";
}

static void
log_block(int level, const char *const *lines)
{
	for (; *lines != NULL; lines++)
		log_msg(level, "%s", *lines);
}

static void
warn_changed(const struct hostcheck_ctx *c, const struct key *k,
    const struct hostfile_result *res, const char *fp)
{
	static const char *const banner[] = {
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
		"@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @",
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
		"IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!",
		"The server presented a host key that differs from the one "
		    "recorded for it.",
		"Someone may be intercepting this connection "
		    "(man-in-the-middle attack),",
		"or the host's key may simply have been replaced.",
		NULL,
	};
	const char *label = hostcheck_key_label(k);

	log_block(LOG_LEVEL_ERROR, banner);
	log_error("The fingerprint for the %s key sent by the remote host is",
	    label);
	log_error("%s.", fp);
	log_error("Please contact your system administrator.");
	log_error("Add correct host key in %s to get rid of this message.",
	    c->o->nuser_known_hosts_files > 0 ?
	    c->o->user_known_hosts_files[0] : "known_hosts");
	log_error("Offending %s key in %s:%lu",
	    res->match.key != NULL ? hostcheck_key_label(res->match.key) :
	    label, res->match.path ? res->match.path : "?",
	    res->match.line);
}

static void
warn_revoked(const char *name, const struct key *k,
    const struct hostfile_result *res)
{
	log_error("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	log_error("@       WARNING: REVOKED HOST KEY DETECTED!               @");
	log_error("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	log_error("The %s host key for %s is marked as revoked in %s:%lu.",
	    hostcheck_key_label(k), name,
	    res->match.path ? res->match.path : "?", res->match.line);
	log_error("A revoked key may be stolen and used to impersonate "
	    "this host.");
}

/*
 * Ask on the terminal. 1 yes, 0 no. A typed fingerprint equal to fp
 * counts as yes.
 */
static int
ask_user(const struct hostcheck_ctx *c, const char *name, const char *label,
    const char *fp)
{
	char line[512];
	FILE *tty;
	size_t n;
	int ok = 0;

	if ((tty = fopen(c->tty_path ? c->tty_path : "/dev/tty", "r+")) ==
	    NULL) {
		log_error("Cannot ask about the host key: no terminal (%s)",
		    strerror(errno));
		return 0;
	}
	fprintf(tty, "The authenticity of host '%s (%s)' can't be "
	    "established.\r\n%s key fingerprint is %s.\r\n"
	    "This key is not known by any other names.\r\n"
	    "Are you sure you want to continue connecting "
	    "(yes/no/[fingerprint])? ", name, c->hostname, label, fp);
	for (;;) {
		fflush(tty);
		if (fgets(line, sizeof(line), tty) == NULL)
			break;
		n = strcspn(line, "\r\n");
		line[n] = '\0';
		if (strcasecmp(line, "yes") == 0 || strcmp(line, fp) == 0) {
			ok = 1;
			break;
		}
		if (strcasecmp(line, "no") == 0)
			break;
		fprintf(tty, "Please type 'yes', 'no' or the fingerprint: ");
	}
	fclose(tty);
	return ok;
}

static void
add_key(const struct hostcheck_ctx *c, const char *host, int port,
    const char *name, const struct key *k)
{
	const struct client_opts *o = c->o;
	int r;

	if (o->nuser_known_hosts_files == 0 ||
	    strcmp(o->user_known_hosts_files[0], "none") == 0)
		return;
	r = hostfile_add(o->user_known_hosts_files[0], host, port, k,
	    o->hash_known_hosts > 0);
	if (r != 0)
		log_error("Failed to add the host to the list of known hosts "
		    "(%s).", o->user_known_hosts_files[0]);
	else
		log_info("Warning: Permanently added '%s' (%s) to the list "
		    "of known hosts.", name, hostcheck_key_label(k));
}

/*
 * known_hosts files to read: the user's, then the global ones, then what
 * KnownHostsCommand printed.
 */
static size_t
known_paths(const struct hostcheck_ctx *c, const char **paths)
{
	const struct client_opts *o = c->o;
	size_t n = 0, i;

	for (i = 0; i < o->nuser_known_hosts_files; i++)
		if (strcmp(o->user_known_hosts_files[i], "none") != 0)
			paths[n++] = o->user_known_hosts_files[i];
	for (i = 0; i < o->nglobal_known_hosts_files; i++)
		if (strcmp(o->global_known_hosts_files[i], "none") != 0)
			paths[n++] = o->global_known_hosts_files[i];
	if (c->cmd_path != NULL)
		paths[n++] = c->cmd_path;
	return n;
}

/*
 * RevokedHostKeys: the file (a KRL or public keys, ~ and %-tokens
 * expanded) read at each check. One that cannot be read or parsed
 * refuses the key, as OpenSSH's does. 1 if refused (logged).
 */
static int
revoked_by_file(const struct client_opts *o, const struct key *k,
    const struct key_cert *cert)
{
	struct krl *krl = NULL;
	char *t = NULL, *path = NULL, *fp, *type;
	int r, revoked = 1;

	if (o->revoked_host_keys == NULL ||
	    strcmp(o->revoked_host_keys, "none") == 0)
		return 0;
	if (readconf_tilde(o, o->revoked_host_keys, &t) != 0 ||
	    readconf_expand(o, t, &path) != 0) {
		x_free(t);
		return 1;
	}
	x_free(t);
	fp = key_fingerprint(k, client_fp_hash(o));
	type = x_asprintf("%s%s", hostcheck_key_label(k),
	    cert != NULL ? "-CERT" : "");
	if ((r = krl_load_file(path, &krl)) != 0)
		log_error("Error checking host key %s %s in revoked keys file "
		    "%s: %s", type, fp ? fp : "?", path, err_str(r));
	else if ((r = krl_check_key(krl, k, cert)) == ERR_KEY_REVOKED)
		log_error("Host key %s %s revoked by file %s", type,
		    fp ? fp : "?", path);
	else if (r != 0)
		log_error("Error checking host key %s %s in revoked keys file "
		    "%s: %s", type, fp ? fp : "?", path, err_str(r));
	else
		revoked = 0;
	krl_free(krl);
	x_free(fp);
	x_free(type);
	x_free(path);
	return revoked;
}

/*
 * KnownHostsCommand: its words (%-tokens expanded, %H the name looked
 * up, %I "HOSTNAME", %K the key in base64, %f its fingerprint, %t its
 * type) run without a shell, its output kept in an anonymous file that
 * is read as one more known_hosts file. A command that fails ends the
 * check (OpenSSH: "KnownHostsCommand failed").
 */
static int
known_hosts_command(struct hostcheck_ctx *c, const char *name,
    const struct key *k)
{
	const struct client_opts *o = c->o;
	char *text = key_public_text(k), *fp = key_fingerprint(k,
	    client_fp_hash(o)), *buf = NULL, *sp, *av[CONF_MAX_ARGS + 1];
	const char *vals[5];
	struct conf_line l;
	int i, fd = -1, st, r = ERR_CONFIG;
	pid_t pid;

	memset(&l, 0, sizeof(l));
	memset(av, 0, sizeof(av));
	if (text == NULL || fp == NULL || (sp = strchr(text, ' ')) == NULL)
		goto out;
	*sp = '\0';
	vals[0] = name; vals[1] = "HOSTNAME"; vals[2] = sp + 1;
	vals[3] = fp; vals[4] = text;
	buf = x_strdup(o->known_hosts_command);
	if (conf_split(o->known_hosts_command, buf, CONF_LEX_ESCAPES,
	    &l) != 0 || l.argc == 0) {
		log_error("KnownHostsCommand \"%s\" contains invalid quotes",
		    o->known_hosts_command);
		goto out;
	}
	for (i = 0; i < l.argc; i++)
		if (readconf_expand_more(o, l.argv[i], "HIKft", vals,
		    &av[i]) != 0)
			goto out;
	if (av[0][0] != '/') {
		log_error("KnownHostsCommand-HOSTNAME path is not absolute");
		r = 0;
		goto out;
	}
	if ((fd = memfd_create("known_hosts_command", MFD_CLOEXEC)) == -1) {
		log_error("KnownHostsCommand: memfd_create: %s",
		    strerror(errno));
		goto out;
	}
	log_debug("Executing KnownHostsCommand: %s", av[0]);
	if ((pid = fork()) == -1)
		goto out;
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);

		if (devnull == -1 || dup2(devnull, STDIN_FILENO) == -1 ||
		    dup2(fd, STDOUT_FILENO) == -1)
			_exit(1);
		execv(av[0], av);
		fprintf(stderr, "KnownHostsCommand %s: %s\n", av[0],
		    strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			goto out;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (WIFEXITED(st))
			log_error("KnownHostsCommand-HOSTNAME %s failed, "
			    "status %d", av[0], WEXITSTATUS(st));
		else
			log_error("KnownHostsCommand-HOSTNAME %s exited on "
			    "signal %d", av[0], WTERMSIG(st));
		log_error("KnownHostsCommand failed");
		goto out;
	}
	c->cmd_path = x_asprintf("/proc/self/fd/%d", fd);
	fd = -1;	/* closed with cmd_path, by command_done() */
	r = 0;
 out:
	if (fd != -1)
		close(fd);
	for (i = 0; av[i] != NULL; i++)
		x_free(av[i]);
	conf_line_clear(&l);
	x_free(buf);
	x_free(text);
	x_free(fp);
	if (r != 0)
		c->refused = 2;
	return r;
}

static void
command_done(struct hostcheck_ctx *c)
{
	int fd;

	if (c->cmd_path == NULL)
		return;
	fd = atoi(c->cmd_path + strlen("/proc/self/fd/"));
	close(fd);
	x_free(c->cmd_path);
	c->cmd_path = NULL;
}

/* Before the known_hosts files: RevokedHostKeys, KnownHostsCommand. */
static int
pre_check(struct hostcheck_ctx *c, const char *host, int port,
    const struct key *k, const struct key_cert *cert)
{
	char *name;
	int r;

	/* RequiredRSASize: OpenSSH ends the connection at such a key. */
	if (k->type == KEY_RSA && key_bits(k) <
	    (unsigned int)c->o->required_rsa_size) {
		log_error("Bad server host key: Invalid key length");
		c->refused = 1;
		return ERR_KEY_LENGTH;
	}
	if (revoked_by_file(c->o, k, cert)) {
		c->refused = 1;
		return ERR_KEY_REVOKED;
	}
	if (c->o->known_hosts_command == NULL ||
	    strcmp(c->o->known_hosts_command, "none") == 0 ||
	    c->cmd_path != NULL)
		return 0;
	name = hostfile_host_name(host, port);
	r = known_hosts_command(c, name != NULL ? name : host, k);
	x_free(name);
	return r;
}

/* 1 if path is one of the global (system) known_hosts files. */
static int
is_global_file(const struct client_opts *o, const char *path)
{
	size_t i;

	for (i = 0; path != NULL && i < o->nglobal_known_hosts_files; i++)
		if (strcmp(o->global_known_hosts_files[i], path) == 0)
			return 1;
	return 0;
}

/*
 * UpdateHostKeys only acts when the key was trusted through the user's
 * own known_hosts (or the user said yes to it), and was a plain key: as
 * OpenSSH, switch it off here otherwise.
 */
static void
no_update(struct client_opts *o, int level, const char *why)
{
	if (o->update_host_keys == 0)
		return;
	o->update_host_keys = 0;
	log_msg(level, "%s", why);
}

/* 1 if k is marked @revoked for host in the files (logged). */
static int
key_revoked(const char *const *paths, size_t n, const char *host, int port,
    const struct key *k, const char *what, enum key_fp_hash fph)
{
	struct hostfile_result res;
	char *fp;
	int revoked;

	memset(&res, 0, sizeof(res));
	revoked = hostfile_lookup(paths, n, host, port, k, &res) == 0 &&
	    res.status == HOST_REVOKED;
	if (revoked) {
		fp = key_fingerprint(k, fph);
		log_error("%s %s %s revoked in %s:%lu", what,
		    hostcheck_key_label(k), fp ? fp : "?",
		    res.match.path ? res.match.path : "?", res.match.line);
		x_free(fp);
	}
	hostfile_result_clear(&res);
	return revoked;
}

int
hostcheck_verify_cert(void *arg, const struct key_cert *cert)
{
	struct hostcheck_ctx *c = arg;
	const struct client_opts *o = c->o;
	const char *paths[2 * CO_MAX_LIST + 1], *reason;
	const char *host = o->host_key_alias ? o->host_key_alias : c->hostname;
	int port = o->host_key_alias ? 22 : c->port, r, found = 0;
	struct key **cas = NULL;
	size_t n, ncas = 0, i;
	char *fp = key_fingerprint(cert->ca_key, client_fp_hash(o));

	log_debug("Server host certificate: %s, serial %llu ID \"%s\" CA %s "
	    "%s", cert_type_name(cert->key), (unsigned long long)cert->serial,
	    cert->key_id, key_type_name(cert->ca_key), fp ? fp : "?");
	x_free(fp);
	if ((r = pre_check(c, host, port, cert->key, cert)) != 0) {
		command_done(c);
		return r;
	}
	n = known_paths(c, paths);
	if (key_revoked(paths, n, host, port, cert->ca_key,
	    "Host certificate authority", client_fp_hash(o)) ||
	    key_revoked(paths, n, host, port, cert->key, "Host key",
	    client_fp_hash(o))) {
		r = ERR_KEY_REVOKED;
		goto out;
	}
	if ((r = hostfile_lookup_ca(paths, n, host, port, &cas,
	    &ncas)) != 0) {
		log_error("known_hosts lookup failed: %s", err_str(r));
		goto out;
	}
	for (i = 0; i < ncas && !found; i++)
		found = key_equal_public(cas[i], cert->ca_key);
	if (!found) {
		log_debug("No matching CA found. Retry with plain key");
		hostfile_keys_free(cas, ncas);
		r = hostcheck_verify(arg, cert->key);
		command_done(c);
		return r;
	}
	if (cert_check_reason(cert, (uint64_t)time(NULL), host, 1,
	    &reason) != 0) {
		log_error("%s", reason);
		r = ERR_HOSTKEY_MISMATCH;
		goto out;
	}
	/* CASignatureAlgorithms: what the CA may have signed with. */
	if (cert->sig_alg == NULL || o->ca_signature_algorithms == NULL ||
	    match_pattern_list(cert->sig_alg, o->ca_signature_algorithms,
	    0) != 1) {
		log_error("Certificate signed with disallowed algorithm");
		r = ERR_HOSTKEY_MISMATCH;
		goto out;
	}
	log_debug("Host certificate authority for %s is known", host);
	no_update(c->o, LOG_LEVEL_DEBUG3, "check_host_key: certificate host "
	    "key in use; disabling UpdateHostkeys");
	r = 0;
 out:
	if (r != 0 && c->refused == 0)
		c->refused = 1;
	command_done(c);
	hostfile_keys_free(cas, ncas);
	return r;
}

/* NoHostAuthenticationForLocalhost: 1 to accept any key (logged). */
static int
localhost_ok(const struct hostcheck_ctx *c)
{
	struct client_opts *o = c->o;

	if (o->no_host_auth_localhost <= 0 || !c->peer_local ||
	    o->host_key_alias != NULL)
		return 0;
	log_debug("Forcing accepting of host key for loopback/localhost.");
	o->update_host_keys = 0;
	return 1;
}

int
hostcheck_verify(void *arg, const struct key *k)
{
	struct hostcheck_ctx *c = arg;
	struct client_opts *o = c->o;
	const char *paths[2 * CO_MAX_LIST + 1];
	struct hostfile_result res;
	const char *host = c->hostname;
	char *name = NULL, *fp = NULL, *art;
	size_t n;
	int port = c->port, r, strict = o->strict_host_key_checking;
	int trusted = 0;	/* known, or accepted by the user */
	int had_cmd = c->cmd_path != NULL;

	memset(&res, 0, sizeof(res));
	if (o->host_key_alias != NULL) {
		host = o->host_key_alias;
		port = 22;
	}
	if ((r = pre_check(c, host, port, k, NULL)) != 0 || localhost_ok(c))
		goto out;
	n = known_paths(c, paths);
	if ((name = hostfile_host_name(host, port)) == NULL ||
	    (fp = key_fingerprint(k, client_fp_hash(o))) == NULL) {
		r = ERR_ALLOC;
		goto out;
	}
	log_debug("Server host key: %s %s", key_type_name(k), fp);
	if (o->visual_host_key > 0 &&
	    (art = key_randomart(k, client_fp_hash(o))) != NULL) {
		log_info("Host key fingerprint is %s", fp);
		fprintf(stderr, "%s\n", art);
		x_free(art);
	}
	if ((r = hostfile_lookup(paths, n, host, port, k, &res)) != 0) {
		log_error("known_hosts lookup failed: %s", err_str(r));
		goto out;
	}
	switch (res.status) {
	case HOST_OK:
		log_debug("Host '%s' is known and matches the %s host key.",
		    name, hostcheck_key_label(k));
		if (res.match.path != NULL)
			log_debug("Found key in %s:%lu", res.match.path,
			    res.match.line);
		if (is_global_file(o, res.match.path))
			no_update(o, LOG_LEVEL_DEBUG3, "check_host_key: host "
			    "key found in GlobalKnownHostsFile; disabling "
			    "UpdateHostkeys");
		trusted = 1;
		r = 0;
		break;
	case HOST_REVOKED:
		warn_revoked(name, k, &res);
		r = ERR_KEY_REVOKED;
		break;
	case HOST_NEW:
		if (strict == SHK_YES) {
			log_error("No %s host key is known for %s and you "
			    "have requested strict checking.",
			    hostcheck_key_label(k), name);
			r = ERR_HOSTKEY_MISMATCH;
			break;
		}
		if (strict == SHK_ASK &&
		    (o->batch_mode > 0 || !ask_user(c, name,
		    hostcheck_key_label(k), fp))) {
			if (o->batch_mode > 0)
				log_error("No %s host key is known for %s and "
				    "BatchMode forbids asking.",
				    hostcheck_key_label(k), name);
			r = ERR_HOSTKEY_MISMATCH;
			break;
		}
		trusted = strict == SHK_ASK;	/* the user said yes */
		add_key(c, host, port, name, k);
		r = 0;
		break;
	case HOST_CHANGED:
		warn_changed(c, k, &res, fp);
		if (strict != SHK_NO) {
			log_error("Host key for %s has changed and you have "
			    "requested strict checking.", name);
			r = ERR_HOSTKEY_MISMATCH;
			break;
		}
		if (o->password_authentication != 0) {
			log_error("Password authentication is disabled to "
			    "avoid man-in-the-middle attacks.");
			o->password_authentication = 0;
		}
		if (o->kbd_interactive_authentication != 0) {
			log_error("Keyboard-interactive authentication is "
			    "disabled to avoid man-in-the-middle attacks.");
			o->kbd_interactive_authentication = 0;
		}
		no_update(o, LOG_LEVEL_ERROR, "UpdateHostkeys is disabled "
		    "because the host key is not trusted.");
		r = 0;
		break;
	}
	if (r == 0 && !trusted)
		no_update(o, LOG_LEVEL_DEBUG1, "check_host_key: hostkey not "
		    "known or explicitly trusted: disabling UpdateHostkeys");
 out:
	if (r != 0 && c->refused == 0)
		c->refused = 1;
	/* (a certificate's check, which called this, closes it) */
	if (!had_cmd)
		command_done(c);
	hostfile_result_clear(&res);
	x_free(name);
	x_free(fp);
	return r;
}
