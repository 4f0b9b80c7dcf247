/*
 * add_keys.c: ssh-add's work on the agent, in OpenSSH's words: add a
 * private key file (asking for its passphrase) and the certificate
 * "<file>-cert.pub" beside it, remove the key and that certificate,
 * check that the agent signs with a key (-T), list what it holds
 * (-l, -L), remove everything (-D), lock and unlock it (-x, -X).
 *
 * A public key is found as OpenSSH's ssh-add looks for one: the file
 * itself as a public key or certificate line, then "<file>.pub", then
 * the public key an openssh-key-v1 private key carries in the clear;
 * when none works the file counts as missing.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "add.h"
#include "agent.h"
#include "cert.h"
#include "err.h"
#include "mem.h"
#include "sbuf.h"

#define KEYFILE_MAX	(1024 * 1024)

/* A public key or a certificate, and its file's comment. */
struct pub {
	struct key *key;		/* the plain key, always set */
	struct key_cert *cert;		/* when it is a certificate */
	char *comment;
};

static void
pub_clear(struct pub *p)
{
	key_free(p->key);
	cert_free(p->cert);
	x_free(p->comment);
	memset(p, 0, sizeof(*p));
}

/* One public key or certificate line file. */
static int
load_pub_text(const char *path, struct pub *p)
{
	if (key_load_public(path, &p->key, &p->comment) == 0)
		return 0;
	if (cert_load_public(path, &p->cert, &p->comment) == 0)
		return key_demote(p->cert->key, &p->key);
	return ERR_INVALID_FORMAT;
}

static int
load_pub(const char *path, struct pub *p)
{
	char *pubpath;
	int r;

	memset(p, 0, sizeof(*p));
	if (load_pub_text(path, p) == 0)
		return 0;
	pub_clear(p);
	pubpath = x_asprintf("%s.pub", path);
	r = load_pub_text(pubpath, p);
	x_free(pubpath);
	if (r == 0)
		return 0;
	pub_clear(p);
	if (key_load_private_public(path, &p->key) == 0)
		return 0;
	pub_clear(p);
	errno = ENOENT;
	return ERR_SYSTEM;
}

static int
pub_blob(const struct pub *p, struct sbuf *b)
{
	return p->cert != NULL ? cert_to_blob(p->cert, b) :
	    key_to_blob(p->key, b);
}

/* "ED25519", "ECDSA-CERT"... as OpenSSH names a key type to users. */
static const char *
short_type(const struct key *k, int is_cert)
{
	switch (k->type) {
	case KEY_ED25519:
		return is_cert ? "ED25519-CERT" : "ED25519";
	case KEY_ECDSA:
		return is_cert ? "ECDSA-CERT" : "ECDSA";
	case KEY_RSA:
		return is_cert ? "RSA-CERT" : "RSA";
	case KEY_ED25519_SK:
		return is_cert ? "ED25519-SK-CERT" : "ED25519-SK";
	case KEY_ECDSA_SK:
		return is_cert ? "ECDSA-SK-CERT" : "ECDSA-SK";
	default:
		return "unknown";
	}
}

static void
warn_perms(const char *path, unsigned int mode)
{
	add_log("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	add_log("@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @");
	add_log("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	add_log("Permissions 0%3.3o for '%s' are too open.", mode, path);
	add_log("It is required that your private key files are NOT "
	    "accessible by others.");
	add_log("This private key will be ignored.");
}

/* All of fd into *filep (at most KEYFILE_MAX bytes). */
static int
read_all(int fd, struct sbuf **filep)
{
	struct sbuf *b = sbuf_new();
	unsigned char *d;
	ssize_t n;
	int r;

	for (;;) {
		if ((r = sbuf_reserve(b, 4096, &d)) != 0)
			break;
		n = read(fd, d, 4096);
		if (n == -1 && errno == EINTR)
			n = 0;
		else if (n == -1) {
			r = ERR_SYSTEM;
			break;
		}
		if ((r = sbuf_consume_end(b, 4096 - (size_t)n)) != 0 ||
		    n == 0)
			break;
		if (sbuf_len(b) > KEYFILE_MAX) {
			r = ERR_INVALID_FORMAT;
			break;
		}
	}
	if (r != 0) {
		sbuf_free(b);
		return r;
	}
	*filep = b;
	return 0;
}

/*
 * The private key file's bytes ("-": standard input); -1 when it cannot
 * be opened or others may read it, having said so.
 */
static int
read_private(const char *path, struct sbuf **filep)
{
	struct stat st;
	int fd, r;

	*filep = NULL;
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		perror(path);
		return -1;
	}
	if (fd != STDIN_FILENO && fstat(fd, &st) == 0 &&
	    st.st_uid == getuid() && (st.st_mode & 077) != 0) {
		warn_perms(path, (unsigned int)st.st_mode & 0777);
		close(fd);
		return -1;
	}
	r = read_all(fd, filep);
	if (fd != STDIN_FILENO)
		close(fd);
	if (r != 0) {
		fprintf(stderr, "Error loading key \"%s\": %s\n", path,
		    add_file_err(r));
		return -1;
	}
	return 0;
}

/* The key from file, asking for its passphrase; -1 when not had. */
static int
open_private(struct add_opts *o, const struct sbuf *file, const char *name,
    struct key **kp, char **commentp)
{
	char *prompt;
	int r;

	r = key_parse_private(file, "", kp, commentp);
	if (r == ERR_KEY_WRONG_PASSPHRASE && o->pass != NULL)
		r = key_parse_private(file, o->pass, kp, commentp);
	prompt = x_asprintf("Enter passphrase for %s%s: ", name,
	    o->confirm ? " (will confirm each use)" : "");
	while (r == ERR_KEY_WRONG_PASSPHRASE) {
		add_pass_free(o->pass);
		o->pass = add_read_pass(prompt);
		if (*o->pass == '\0')
			break;
		r = key_parse_private(file, o->pass, kp, commentp);
		x_free(prompt);
		prompt = x_asprintf("Bad passphrase, try again for %s%s: ",
		    name, o->confirm ? " (will confirm each use)" : "");
	}
	x_free(prompt);
	if (r != 0 && r != ERR_KEY_WRONG_PASSPHRASE)
		fprintf(stderr, "Error loading key \"%s\": %s\n", name,
		    add_file_err(r));
	if (r != 0) {
		add_pass_free(o->pass);
		o->pass = NULL;
		return -1;
	}
	return 0;
}

static void
say_constraints(const struct add_opts *o)
{
	if (o->lifetime != 0)
		fprintf(stderr, "Lifetime set to %d seconds\n",
		    (int)o->lifetime);
	if (o->confirm)
		fprintf(stderr, "The user must confirm each use of the key\n");
}

/*
 * The certificate "<name>-cert.pub" for k, when there is one; a
 * security key's goes with the middleware the agent signs through.
 */
static void
add_cert(struct add_opts *o, const char *name, const struct key *k,
    const char *comment)
{
	struct agent_constraints cons = { o->lifetime, o->confirm,
	    o->maxsign, o->dest, key_is_sk(k) ? o->sk_provider : NULL };
	struct pub p;
	char *certpath = x_asprintf("%s-cert.pub", name);
	int r;

	if (load_pub(certpath, &p) != 0 || p.cert == NULL)
		goto out;
	if (!key_equal_public(p.key, k)) {
		add_log("Certificate %s does not match private key %s",
		    certpath, name);
		goto out;
	}
	if ((r = agent_add(o->fd, k, p.cert, comment, &cons)) != 0) {
		add_log("Certificate %s (%s) add failed: %s", certpath,
		    p.cert->key_id, add_agent_err(r));
		goto out;
	}
	if (!o->quiet) {
		fprintf(stderr, "Certificate added: %s (%s)\n", certpath,
		    p.cert->key_id);
		say_constraints(o);
	}
 out:
	pub_clear(&p);
	x_free(certpath);
}

int
add_file(struct add_opts *o, const char *path)
{
	struct agent_constraints cons = { o->lifetime, o->confirm,
	    o->maxsign, o->dest, NULL };
	const char *name = strcmp(path, "-") == 0 ? "(stdin)" : path;
	struct sbuf *file = NULL;
	struct key *k = NULL;
	char *comment = NULL;
	int r, ret = -1;

	if (read_private(path, &file) != 0)
		return -1;
	if (open_private(o, file, name, &k, &comment) != 0)
		goto out;
	if (comment == NULL || *comment == '\0') {
		x_free(comment);
		comment = x_strdup(name);
	}
	if (key_is_sk(k)) {
		/* The agent signs through the middleware named here. */
		if ((cons.sk_provider = o->sk_provider) == NULL) {
			fprintf(stderr, "Cannot load FIDO key %s without "
			    "provider\n", name);
			goto out;
		}
	}
	if ((r = agent_add(o->fd, k, NULL, comment, &cons)) == 0) {
		ret = 0;
		if (!o->quiet) {
			fprintf(stderr, "Identity added: %s (%s)\n", name,
			    comment);
			say_constraints(o);
		}
	} else
		fprintf(stderr, "Could not add identity \"%s\": %s\n", name,
		    add_agent_err(r));
	if (!o->key_only)
		add_cert(o, name, k, comment);
 out:
	sbuf_free(file);
	key_free(k);
	x_free(comment);
	return ret;
}

static int
delete_one(struct add_opts *o, const struct pub *p, const char *path)
{
	struct sbuf *b = sbuf_new();
	int r;

	if ((r = pub_blob(p, b)) == 0)
		r = agent_remove(o->fd, sbuf_ptr(b), sbuf_len(b));
	sbuf_free(b);
	if (r != 0) {
		fprintf(stderr, "Could not remove identity \"%s\": %s\n",
		    path, add_agent_err(r));
		return -1;
	}
	if (!o->quiet)
		fprintf(stderr, "Identity removed: %s %s (%s)\n", path,
		    short_type(p->key, p->cert != NULL),
		    p->comment != NULL ? p->comment : "no comment");
	return 0;
}

/* One key or certificate line, "type base64 [comment]". */
static int
parse_pub_line(const char *line, struct pub *p)
{
	const char *cp = line;
	int r;

	memset(p, 0, sizeof(*p));
	if ((r = key_read_public_text(&cp, &p->key)) != 0) {
		cp = line;
		if ((r = cert_read_public_text(&cp, &p->cert)) != 0 ||
		    (r = key_demote(p->cert->key, &p->key)) != 0) {
			pub_clear(p);
			return r;
		}
	}
	cp += strspn(cp, " \t");
	if (*cp != '\0')
		p->comment = x_strdup(cp);
	return 0;
}

static int
delete_stdin(struct add_opts *o)
{
	char *line = NULL, *cp;
	size_t cap = 0;
	struct pub p;
	int lnum = 0, ret = -1;

	while (getline(&line, &cap, stdin) != -1) {
		lnum++;
		line[strcspn(line, "\n")] = '\0';
		cp = line + strspn(line, " \t");
		if (*cp == '#' || *cp == '\0')
			continue;
		if (parse_pub_line(cp, &p) != 0) {
			add_log("(stdin):%d: invalid key: %s", lnum,
			    err_str(ERR_INVALID_FORMAT));
			continue;
		}
		if (delete_one(o, &p, "(stdin)") == 0)
			ret = 0;
		pub_clear(&p);
	}
	free(line);
	return ret;
}

int
add_delete_file(struct add_opts *o, const char *path)
{
	struct pub p, c;
	char *certpath;
	int r, ret = -1;

	if (strcmp(path, "-") == 0)
		return delete_stdin(o);
	if ((r = load_pub(path, &p)) != 0) {
		printf("Bad key file %s: %s\n", path, err_str(r));
		return -1;
	}
	if (delete_one(o, &p, path) == 0)
		ret = 0;
	if (o->key_only) {
		pub_clear(&p);
		return ret;
	}
	certpath = x_asprintf("%s-cert.pub", path);
	if (load_pub(certpath, &c) == 0) {
		if (!key_equal_public(c.key, p.key)) {
			add_fatal("Certificate %s does not match private "
			    "key %s", certpath, path);
		}
		if (delete_one(o, &c, certpath) == 0)
			ret = 0;
		pub_clear(&c);
	}
	x_free(certpath);
	pub_clear(&p);
	return ret;
}

int
add_test_key(struct add_opts *o, const char *path)
{
	struct sbuf *blob = sbuf_new(), *sig = sbuf_new();
	unsigned char data[1024];
	const char *alg;
	struct pub p;
	int r, ret = -1;

	if ((r = load_pub(path, &p)) != 0) {
		add_log("Couldn't read public key %s: %s", path,
		    err_str(r));
		goto out;
	}
	alg = p.key->type == KEY_RSA ? "rsa-sha2-256" : key_type_name(p.key);
	if (RAND_bytes(data, sizeof(data)) != 1 ||
	    (r = pub_blob(&p, blob)) != 0) {
		add_log("Couldn't read public key %s: %s", path,
		    err_str(ERR_LIBCRYPTO));
		goto out;
	}
	if ((r = agent_sign(o->fd, sbuf_ptr(blob), sbuf_len(blob), data,
	    sizeof(data), alg, sig)) != 0) {
		add_log("Agent signature failed for %s: %s", path,
		    add_agent_err(r));
		goto out;
	}
	if ((r = key_verify(p.key, sbuf_ptr(sig), sbuf_len(sig), data,
	    sizeof(data), alg)) != 0) {
		add_log("Signature verification failed for %s: %s", path,
		    err_str(r));
		goto out;
	}
	ret = 0;
 out:
	pub_clear(&p);
	sbuf_free(blob);
	sbuf_free(sig);
	return ret;
}

static void
print_identity(const struct add_opts *o, const struct agent_identity *id,
    int fingerprints)
{
	char *s;

	if (fingerprints) {
		s = key_fingerprint(id->key, o->fp_hash);
		printf("%u %s %s (%s)\n", key_bits(id->key),
		    s != NULL ? s : "(null)", id->comment,
		    short_type(id->key, id->cert != NULL));
	} else {
		s = id->cert != NULL ? cert_public_text(id->cert) :
		    key_public_text(id->key);
		if (s != NULL)
			printf("%s %s\n", s, id->comment);
	}
	x_free(s);
}

int
add_list(struct add_opts *o, int fingerprints)
{
	struct agent_identity *ids;
	size_t n, i;
	int r;

	if ((r = agent_list(o->fd, &ids, &n)) != 0) {
		fprintf(stderr, "error fetching identities: %s\n",
		    add_agent_err(r));
		return -1;
	}
	if (n == 0)
		printf("The agent has no identities.\n");
	for (i = 0; i < n; i++)
		print_identity(o, &ids[i], fingerprints);
	agent_identities_free(ids, n);
	return n == 0 ? -1 : 0;
}

int
add_delete_all(struct add_opts *o)
{
	if (agent_remove_all(o->fd) != 0) {
		fprintf(stderr, "Failed to remove all identities.\n");
		return -1;
	}
	if (!o->quiet)
		fprintf(stderr, "All identities removed.\n");
	return 0;
}

int
add_lock(struct add_opts *o, int lock)
{
	char *p1, *p2;
	int r, ok = 1, ret = -1;

	p1 = add_read_pass("Enter lock password: ");
	if (lock) {
		p2 = add_read_pass("Again: ");
		if (strcmp(p1, p2) != 0) {
			fprintf(stderr, "Passwords do not match.\n");
			ok = 0;
		}
		add_pass_free(p2);
	}
	if (ok) {
		if ((r = agent_lock(o->fd, lock, p1)) == 0) {
			fprintf(stderr, "Agent %slocked.\n", lock ? "" : "un");
			ret = 0;
		} else
			fprintf(stderr, "Failed to %slock agent: %s\n",
			    lock ? "" : "un", add_agent_err(r));
	}
	add_pass_free(p1);
	return ret;
}
