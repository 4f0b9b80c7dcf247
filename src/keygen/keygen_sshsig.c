/*
 * keygen_sshsig.c: ssh-keygen -Y: which operation, its arguments and
 * -O options, and "-Y sign" (the checking side is keygen_sshsig_check.c).
 *
 * Signing reads each file (or standard input) once, digesting it, and
 * writes FILE.sig (or the signature to standard output). The key is
 * found as OpenSSH finds it: -f may name the private key, its .pub, or a
 * certificate (-cert.pub), whose private key is the file without that
 * suffix; when an agent holds the key (or certificate), the agent signs.
 * Messages and exit statuses are OpenSSH's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "allowed_signers.h"
#include "cert.h"
#include "err.h"
#include "fdio.h"
#include "keygen.h"
#include "mem.h"
#include "sshsig.h"

/* Who signs: a private key, or the agent holding the public one. */
struct signer {
	struct key *pub;	/* plain public key; NULL if not yet known */
	struct key_cert *cert;	/* when signing with a certificate */
	struct key *priv;	/* NULL when the agent signs */
	int agent_fd;		/* -1: no agent */
	const struct kg_opts *opts;	/* -w, for a security key */
	struct sbuf *blob;	/* the key or certificate blob signed with */
};

static int
too_few(const char *op, const char *what)
{
	kg_error("Too few arguments for %s%s", op, what);
	return 1;
}

int
kg_sig_opts(const struct kg_opts *o, const char **hashalgp,
    uint64_t *verify_timep, int *print_pubkeyp)
{
	const char *opt;
	size_t i;
	time_t now;

	if (hashalgp != NULL)
		*hashalgp = SSHSIG_DEFAULT_HASH;
	if (verify_timep != NULL)
		*verify_timep = 0;
	if (print_pubkeyp != NULL)
		*print_pubkeyp = 0;
	for (i = 0; i < o->ncertopts; i++) {
		opt = o->certopts[i];
		if (hashalgp != NULL && strncasecmp(opt, "hashalg=", 8) == 0)
			*hashalgp = opt + 8;
		else if (verify_timep != NULL &&
		    strncasecmp(opt, "verify-time=", 12) == 0) {
			if (allowed_signer_parse_time(opt + 12,
			    verify_timep) != 0 || *verify_timep == 0) {
				kg_error("Invalid \"verify-time\" "
				    "option");
				return -1;
			}
		} else if (print_pubkeyp != NULL &&
		    strcasecmp(opt, "print-pubkey") == 0)
			*print_pubkeyp = 1;
		else {
			kg_error("Invalid option \"%s\"", opt);
			return -1;
		}
	}
	if (verify_timep != NULL && *verify_timep == 0) {
		if ((now = time(NULL)) < 0) {
			kg_error("Time is before epoch");
			return -1;
		}
		*verify_timep = (uint64_t)now;
	}
	return 0;
}

int
kg_sig_hash(const char *hashalg, int fd, const char *who, struct sbuf *h)
{
	int r, saved;

	if ((r = sshsig_hash_fd(hashalg, fd, h)) != 0) {
		saved = errno;
		if (r == ERR_SYSTEM)
			kg_error("hash_file: read: %s", strerror(saved));
		kg_error("%s: hash_file: %s", who,
		    r == ERR_SYSTEM ? strerror(saved) : err_str(r));
		errno = saved;
	}
	return r;
}

/* A public key or certificate text file: 0 when path is one. */
static int
load_public_text(const char *path, struct signer *s)
{
	if (key_load_public(path, &s->pub, NULL) == 0)
		return 0;
	if (cert_load_public(path, &s->cert, NULL) != 0)
		return -1;
	if (key_demote(s->cert->key, &s->pub) != 0) {
		cert_free(s->cert);
		s->cert = NULL;
		return -1;
	}
	return 0;
}

/*
 * An openssh-key-v1 private key file, whose public half OpenSSH reads
 * without the passphrase (of other formats it reads none).
 */
static int
is_openssh_private(const char *path)
{
	static const char mark[] = "-----BEGIN OPENSSH PRIVATE KEY-----";
	char *text = NULL;
	int yes;

	if (kg_read_file(path, &text, NULL) != 0)
		return 0;
	yes = strncmp(text + strspn(text, " \t\r\n"), mark,
	    sizeof(mark) - 1) == 0;
	x_free(text);
	return yes;
}

/*
 * The public half: the file itself, FILE.pub, or the private key's own
 * (when it opens without a passphrase; otherwise it is learnt later).
 */
static int
load_public(const char *path, struct signer *s)
{
	struct key *k = NULL;
	char *pub;
	int r;

	if (load_public_text(path, s) == 0)
		return 0;
	pub = x_asprintf("%s.pub", path);
	r = load_public_text(pub, s);
	x_free(pub);
	if (r == 0)
		return 0;
	r = ERR_INVALID_FORMAT;
	if (is_openssh_private(path) &&
	    (r = key_load_private(path, "", 0, &k, NULL)) == 0) {
		r = key_demote(k, &s->pub);
		key_free(k);
	}
	if (r == 0 || r == ERR_KEY_WRONG_PASSPHRASE)
		return 0;
	kg_error("Couldn't load public key %s: %s", path,
	    strerror(ENOENT));
	return -1;
}

/* An encrypted private key: -P's passphrase, or one asked for. */
static int
load_encrypted(const char *path, const char *pass, struct key **kp)
{
	char *typed = pass != NULL ? x_strdup(pass) :
	    kg_read_passphrase("Enter passphrase: ");
	int r;

	r = key_load_private(path, typed, 1, kp, NULL);
	kg_free_passphrase(typed);
	if (r != 0)
		kg_error("Load key \"%s\": %s", path, err_str(r));
	return r;
}

/* The private key for -f: the file, or a .pub's or -cert.pub's own. */
static int
load_private(const struct kg_opts *o, struct signer *s)
{
	static const char *const suffixes[] = { "-cert.pub", ".pub" };
	const char *path = o->file;
	size_t i, len = strlen(path), slen;
	char *priv = x_strdup(path);
	struct stat st;
	int r, ret = -1;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		slen = strlen(suffixes[i]);
		if (len > slen && strcmp(path + len - slen, suffixes[i]) == 0) {
			priv[len - slen] = '\0';
			break;
		}
	}
	if (i < sizeof(suffixes) / sizeof(suffixes[0]) &&
	    stat(priv, &st) != 0 && errno == ENOENT) {
		kg_error("No private key found for public key \"%s\"",
		    path);
		goto out;
	}
	r = key_load_private(priv, "", 1, &s->priv, NULL);
	if (r == ERR_KEY_BAD_PERMISSIONS)
		kg_warn_perms(priv);
	if (r == ERR_KEY_WRONG_PASSPHRASE)
		r = load_encrypted(priv, o->old_pass, &s->priv);
	else if (r != 0)
		kg_error("No private key found for \"%s\"", priv);
	if (r != 0)
		goto out;
	if (s->pub == NULL && (r = key_demote(s->priv, &s->pub)) != 0)
		goto out;
	if (!key_equal_public(s->pub, s->priv)) {
		kg_error("Public key %s doesn't match private %s",
		    path, priv);
		goto out;
	}
	ret = 0;
 out:
	x_free(priv);
	return ret;
}

/* The agent, when it holds the key: 0; -1 when -U wants it and cannot. */
static int
find_agent(const struct kg_opts *o, struct signer *s)
{
	char *sock = NULL;
	int fd = -1;

	if (agent_socket_path(NULL, &sock) != 0 || sock == NULL ||
	    agent_connect(sock, &fd) != 0) {
		x_free(sock);
		if (o->require_agent) {
			kg_error("Couldn't get agent socket");
			return -1;
		}
		return 0;
	}
	x_free(sock);
	if (s->blob != NULL && kg_agent_holds(fd, s->blob)) {
		s->agent_fd = fd;
		return 0;
	}
	agent_close(fd);
	if (o->require_agent) {
		kg_error("Couldn't find key in agent");
		return -1;
	}
	return 0;
}

static int
signer_blob(struct signer *s)
{
	s->blob = sbuf_new();
	return s->cert != NULL ? cert_to_blob(s->cert, s->blob) :
	    key_to_blob(s->pub, s->blob);
}

static void
signer_free(struct signer *s)
{
	if (s->agent_fd >= 0)
		agent_close(s->agent_fd);
	key_free(s->pub);
	key_free(s->priv);
	cert_free(s->cert);
	sbuf_free(s->blob);
}

/* The key's signature over data: RSA always with SHA-512. */
static int
make_signature(const struct signer *s, const struct sbuf *data,
    struct sbuf *sig)
{
	const char *alg = s->pub->type == KEY_RSA ? "rsa-sha2-512" :
	    key_type_name(s->pub);

	if (s->agent_fd >= 0)
		return agent_sign(s->agent_fd, sbuf_ptr(s->blob),
		    sbuf_len(s->blob), sbuf_ptr(data), sbuf_len(data), alg,
		    sig);
	if (key_is_sk(s->priv))
		return kg_sk_sign(s->opts, s->priv, sbuf_ptr(data),
		    sbuf_len(data), sig);
	return key_sign(s->priv, alg, sbuf_ptr(data), sbuf_len(data), sig);
}

/* The armored signature of what fd holds, for namespace ns. */
static int
sign_fd(const struct signer *s, const char *ns, const char *hashalg, int fd,
    struct sbuf *armored)
{
	struct sbuf *h = sbuf_new(), *data = sbuf_new(), *sig = sbuf_new();
	struct sbuf *blob = sbuf_new();
	int r;

	if ((r = kg_sig_hash(hashalg, fd, "sshsig_sign_fd", h)) != 0 ||
	    (r = sshsig_signed_data(ns, hashalg, sbuf_ptr(h), sbuf_len(h),
	    data)) != 0 ||
	    (r = make_signature(s, data, sig)) != 0 ||
	    (r = sshsig_encode(sbuf_ptr(s->blob), sbuf_len(s->blob), ns,
	    hashalg, sbuf_ptr(sig), sbuf_len(sig), blob)) != 0 ||
	    (r = sshsig_armor(blob, armored)) != 0)
		goto out;
 out:
	sbuf_free(h);
	sbuf_free(data);
	sbuf_free(sig);
	sbuf_free(blob);
	return r;
}

static int
write_sig(const char *name, const struct sbuf *armored, int quiet)
{
	char *path = x_asprintf("%s.sig", name);
	int fd, r = 0;

	if (!kg_confirm_overwrite(path))
		goto out;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) < 0) {
		kg_error("Cannot open %s: %s", path, strerror(errno));
		r = ERR_SYSTEM;
		goto out;
	}
	if ((r = fd_write_full(fd, sbuf_ptr(armored), sbuf_len(armored))) != 0)
		kg_error("Cannot write to %s: %s", path,
		    strerror(errno));
	close(fd);
	if (r == 0 && !quiet)
		fprintf(stderr, "Write signature to %s\n", path);
 out:
	x_free(path);
	return r;
}

static int
sign_one(const struct kg_opts *o, const struct signer *s,
    const char *hashalg, const char *name, int fd)
{
	struct sbuf *armored = sbuf_new();
	int r;

	if (!o->quiet && fd == STDIN_FILENO)
		fprintf(stderr, "Signing data on standard input\n");
	else if (!o->quiet)
		fprintf(stderr, "Signing file %s\n", name);
	if (!sshsig_hashalg_ok(hashalg)) {
		kg_error("sshsig_check_hashalg: unsupported hash "
		    "algorithm \"%.100s\"", hashalg);
		kg_error("sshsig_sign_fd: hash_file: signature "
		    "algorithm not supported");
		kg_error("Signing %s failed: signature algorithm not "
		    "supported", name);
		r = ERR_INVALID_ARGUMENT;
	} else if ((r = sign_fd(s, o->principals, hashalg, fd, armored)) != 0)
		kg_error("Signing %s failed: %s", name, err_str(r));
	else if (fd == STDIN_FILENO) {
		if (fwrite(sbuf_ptr(armored), 1, sbuf_len(armored), stdout) !=
		    sbuf_len(armored) || fflush(stdout) != 0)
			r = ERR_SYSTEM;
	} else
		r = write_sig(name, armored, o->quiet);
	sbuf_free(armored);
	return r;
}

static int
sig_sign(struct kg_opts *o)
{
	struct signer s = { .agent_fd = -1, .opts = o };
	const char *hashalg;
	int i, fd, r, ret = 255;

	for (i = 0; i < o->nargs; i++)
		if (strcmp(o->args[i], "-") == 0 && o->nargs > 1) {
			kg_error("Cannot sign mix of paths and standard "
			    "input");
			return 255;
		}
	if (kg_sig_opts(o, &hashalg, NULL, NULL) != 0 ||
	    load_public(o->file, &s) != 0 ||
	    (s.pub != NULL && signer_blob(&s) != 0) ||
	    find_agent(o, &s) != 0)
		goto out;
	if (s.agent_fd < 0 && (load_private(o, &s) != 0 ||
	    (s.blob == NULL && signer_blob(&s) != 0)))
		goto out;
	if (o->nargs == 0 && sign_one(o, &s, hashalg, "(stdin)",
	    STDIN_FILENO) != 0)
		goto out;
	for (i = 0; i < o->nargs; i++) {
		if (strcmp(o->args[i], "-") == 0)
			fd = STDIN_FILENO;
		else if ((fd = open(o->args[i], O_RDONLY | O_CLOEXEC)) < 0) {
			kg_error("Cannot open %s for signing: %s",
			    o->args[i], strerror(errno));
			goto out;
		}
		r = sign_one(o, &s, hashalg, o->args[i], fd);
		if (fd != STDIN_FILENO)
			close(fd);
		if (r != 0)
			goto out;
	}
	ret = 0;
 out:
	signer_free(&s);
	return ret;
}

int
kg_sshsig(struct kg_opts *o)
{
	const char *op = o->sign_op, *ns = o->principals;
	int have_ns = ns != NULL && *ns != '\0';

	/* OpenSSH compares only the operation's length: "signx" signs. */
	if (strncmp(op, "find-principals", 15) == 0) {
		if (o->ca_key == NULL)
			return too_few("find-principals:",
			    "missing signature file");
		if (o->file == NULL)
			return too_few("find-principals:",
			    "missing allowed keys file");
		return kg_sig_find_principals(o);
	}
	if (strncmp(op, "match-principals", 16) == 0) {
		if (o->file == NULL)
			return too_few("match-principals:",
			    "missing allowed keys file");
		if (o->key_id == NULL)
			return too_few("match-principals: ",
			    "missing principal ID");
		return kg_sig_match_principals(o);
	}
	if (strncmp(op, "sign", 4) == 0) {
		if (!have_ns)
			return too_few("sign: ", "missing namespace");
		if (o->file == NULL)
			return too_few("sign: ", "missing key");
		return sig_sign(o);
	}
	if (strncmp(op, "check-novalidate", 16) == 0) {
		if (!have_ns)
			return too_few("check-novalidate: ",
			    "missing namespace");
		if (o->ca_key == NULL)
			return too_few("check-novalidate: ",
			    "missing signature file");
		return kg_sig_verify(o, 1);
	}
	if (strncmp(op, "verify", 6) == 0) {
		if (!have_ns)
			return too_few("verify: ", "missing namespace");
		if (o->ca_key == NULL)
			return too_few("verify: ", "missing signature file");
		if (o->file == NULL)	/* sic: OpenSSH says "sign" here */
			return too_few("sign: ", "missing allowed keys file");
		if (o->key_id == NULL)
			return too_few("verify: ",
			    "missing principal identity");
		return kg_sig_verify(o, 0);
	}
	kg_error("Unsupported operation for -Y: \"%s\"", op);
	return -1;	/* main() prints the usage */
}
