/*
 * keygen_basic.c: the key modes of ssh-keygen: generate (-t -b -N -C
 * -a -m), print the public key (-y) and fingerprints (-l -E -v, -B);
 * keygen_pass.c changes passphrases and comments. Messages are
 * OpenSSH's, on the same streams.
 *
 * -B is -l with the bubble babble of the key's SHA-1 in place of the
 * fingerprint. -m PEM or PKCS8 writes new RSA and ECDSA keys in that
 * format.
 *
 * -l reads private keys (via their .pub when present) or any text file
 * of public keys: .pub, authorized_keys (options skipped) and
 * known_hosts (host field skipped, marker lines ignored). The text
 * after the key is the comment; failing that, the skipped first field;
 * failing that, "no comment". (OpenSSH 9.2 instead prints stale bytes
 * of its line buffer there; we do not imitate that.)
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cert.h"
#include "err.h"
#include "keygen.h"
#include "mem.h"
#include "sbuf.h"

static const struct {
	const char *name;
	enum key_type type;
	const char *lower;
} gentypes[] = {
	{ "ed25519", KEY_ED25519, "ed25519" },
	{ "ecdsa", KEY_ECDSA, "ecdsa" },
	{ "rsa", KEY_RSA, "rsa" },
};

int
kg_generate(struct kg_opts *o)
{
	enum key_type type = KEY_RSA;
	const char *lower = "rsa";
	char *path = NULL, *pub = NULL, *comment = NULL, *pass = NULL;
	char *fp = NULL, *art = NULL;
	struct key *k = NULL;
	int nid, r, ret = 1;
	size_t i;

	if (o->type != NULL && kg_sk_type(o->type, &type) == 0)
		return kg_generate_sk(o, type);
	if (o->type != NULL) {
		for (i = 0; i < sizeof(gentypes) / sizeof(gentypes[0]); i++)
			if (strcasecmp(o->type, gentypes[i].name) == 0)
				break;
		if (i < sizeof(gentypes) / sizeof(gentypes[0])) {
			type = gentypes[i].type;
			lower = gentypes[i].lower;
		} else if (key_type_from_name(o->type, &type, &nid) != 0) {
			kg_error("unknown key type %s", o->type);
			return 255;
		} else {
			for (i = 0; i < 3 && gentypes[i].type != type; i++)
				;
			lower = gentypes[i < 3 ? i : 0].lower;
		}
	}
	if (type == KEY_RSA && o->bits != 0 && o->bits < 1024) {
		kg_error("Invalid RSA key length: minimum is 1024 bits");
		return 255;
	}
	if (type == KEY_RSA && o->bits > 16384) {
		kg_error("Invalid RSA key length: maximum is 16384 bits");
		return 255;
	}
	if (type == KEY_ECDSA && o->bits != 0 && o->bits != 256 &&
	    o->bits != 384 && o->bits != 521) {
		kg_error("Invalid ECDSA key length: valid lengths are "
		    "256, 384 or 521 bits");
		return 255;
	}
	if (!o->quiet)
		printf("Generating public/private %s key pair.\n", lower);
	fflush(stdout);
	if ((r = key_generate(type, type == KEY_ED25519 ? 0 : o->bits,
	    &k)) != 0) {
		kg_error("sshkey_generate failed: %s", err_str(r));
		return 255;
	}
	path = x_strdup(kg_need_file(o, "Enter file in which to save the key"));
	kg_make_ssh_dir(path, !o->quiet);
	if (!kg_confirm_overwrite(path))
		goto out;
	pass = kg_new_passphrase(o);
	comment = o->comment != NULL ? x_strdup(o->comment) :
	    kg_default_comment();
	if ((r = key_save_private_as(k, path, pass, comment, o->rounds,
	    kg_private_format(o))) != 0) {
		kg_error("Saving key \"%s\" failed: %s", path,
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		goto out;
	}
	if (!o->quiet)
		printf("Your identification has been saved in %s\n", path);
	pub = x_asprintf("%s.pub", path);
	if ((r = key_save_public(k, pub, comment)) != 0) {
		kg_error("Unable to save public key to %s: %s", pub,
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		ret = 255;
		goto out;
	}
	if (!o->quiet) {
		fp = key_fingerprint(k, o->fp_hash);
		art = key_randomart(k, o->fp_hash);
		printf("Your public key has been saved in %s\n", pub);
		printf("The key fingerprint is:\n%s %s\n", fp, comment);
		printf("The key's randomart image is:\n%s\n", art);
	}
	ret = 0;
 out:
	kg_free_passphrase(pass);
	x_free(path);
	x_free(pub);
	x_free(comment);
	x_free(fp);
	x_free(art);
	key_free(k);
	return ret;
}

int
kg_print_public(struct kg_opts *o)
{
	struct key *k = NULL;
	char *comment = NULL, *text;
	const char *path = kg_need_file(o, "Enter file in which the key is");
	struct stat st;

	if (stat(path, &st) != 0) {
		kg_error("%s: %s", path, strerror(errno));
		return 255;
	}
	if (kg_load_private(path, o->old_pass, &k, &comment, 1) != 0)
		return 255;
	text = key_public_text(k);
	if (comment != NULL && *comment != '\0')
		printf("%s %s\n", text, comment);
	else
		printf("%s\n", text);
	x_free(text);
	x_free(comment);
	key_free(k);
	return 0;
}

/* Skip one whitespace-delimited field honouring double quotes. */
static char *
skip_field(char *cp)
{
	int quoted = 0;

	for (; *cp != '\0'; cp++) {
		if (*cp == '\\' && cp[1] == '"')
			cp++;
		else if (*cp == '"')
			quoted = !quoted;
		else if (!quoted && (*cp == ' ' || *cp == '\t'))
			break;
	}
	return cp;
}

/* A plain key or a certificate (whose plain key is returned). */
static int
read_key_or_cert(const char **cpp, struct key **kp, int *is_cert)
{
	struct key_cert *c = NULL;
	int r;

	*is_cert = 0;
	if ((r = key_read_public_text(cpp, kp)) == 0)
		return 0;
	if (cert_read_public_text(cpp, &c) != 0)
		return r;
	*kp = c->key;
	c->key = NULL;
	cert_free(c);
	*is_cert = 1;
	return 0;
}

static void
print_fingerprint(const struct kg_opts *o, const struct key *k,
    const char *comment, int is_cert)
{
	char *fp = o->bubble ? key_bubblebabble(k) :
	    key_fingerprint(k, o->fp_hash), *art;
	const char *shortn = key_short_name(k);

	printf("%u %s %s (%s%s)\n", key_bits(k), fp,
	    comment != NULL ? comment : "no comment", shortn,
	    is_cert ? "-CERT" : "");
	x_free(fp);
	if (o->verbose && (art = is_cert ? key_randomart_cert(k,
	    o->fp_hash) : key_randomart(k, o->fp_hash)) != NULL) {
		printf("%s\n", art);
		x_free(art);
	}
}

static void
debug_load(const struct kg_opts *o, const char *what, const char *path,
    int r)
{
	if (o->verbose)
		fprintf(stderr, "debug1: load %s \"%s\": %s\r\n", what, path,
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
}

/*
 * A private key's fingerprint, as OpenSSH finds it: its .pub (a missing
 * comment there is the .pub's name), else the public half an
 * openssh-key-v1 file carries in the clear; then, for a comment, the key
 * itself when it opens without a passphrase. Nothing is asked for.
 */
static int
fingerprint_private(struct kg_opts *o, const char *path)
{
	struct key *k = NULL, *priv = NULL;
	char *comment = NULL, *pub = x_asprintf("%s.pub", path);
	int r;

	if (key_load_public(pub, &k, &comment) == 0) {
		if (comment == NULL || *comment == '\0') {
			x_free(comment);
			comment = x_strdup(pub);
		}
	} else if (key_load_private_public(path, &k) != 0) {
		errno = ENOENT;		/* what OpenSSH reports */
		debug_load(o, "public", path, ERR_SYSTEM);
	}
	if (comment == NULL) {
		if ((r = key_load_private(path, "", 0, &priv, &comment)) != 0)
			debug_load(o, "private", path, r);
		else {
			key_free(k);
			k = priv;
		}
	}
	x_free(pub);
	if (k == NULL) {
		kg_error("%s is not a key file.", path);
		return 255;
	}
	print_fingerprint(o, k, comment, 0);
	x_free(comment);
	key_free(k);
	return 0;
}

static void
not_key(const struct kg_opts *o, const char *path, unsigned long n)
{
	if (o->verbose)
		fprintf(stderr, "debug1: %s:%lu: not a public key\r\n", path, n);
}

int
kg_fingerprint(struct kg_opts *o)
{
	const char *path = kg_need_file(o, "Enter file in which the key is");
	char *text = NULL, *line, *next, *cp, *ep, *comment;
	const char *rp;
	unsigned long lineno = 0;
	int found = 0, r, is_cert;
	struct key *k;

	if (kg_stat_file(o, path) != 0)
		return 255;
	/* A directory reads as an empty file, as through OpenSSH's stdio. */
	if ((r = kg_read_file(path, &text, NULL)) != 0 && errno != EISDIR) {
		kg_error("%s: %s: %s", o->prog, path, strerror(errno));
		return 255;
	}
	next = text != NULL ? strchr(text, '\n') : NULL;
	if (text != NULL && strstr(text, "PRIVATE KEY") != NULL &&
	    (next == NULL || strstr(text, "PRIVATE KEY") < next)) {
		x_free(text);
		return fingerprint_private(o, path);
	}
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		lineno++;
		line[strcspn(line, "\r")] = '\0';
		cp = line + strspn(line, " \t");
		if (*cp == '#' || *cp == '\0')
			continue;
		if (*cp == '@') {
			not_key(o, path, lineno);
			continue;
		}
		comment = NULL;
		rp = cp;
		if (read_key_or_cert(&rp, &k, &is_cert) != 0) {
			/*
			 * authorized_keys options or known_hosts hosts, then
			 * exactly one blank: OpenSSH takes no more.
			 */
			ep = skip_field(cp);
			if (*ep == '\0')
				continue;	/* one word: no message */
			if (ep[1] == ' ' || ep[1] == '\t') {
				not_key(o, path, lineno);
				continue;
			}
			*ep++ = '\0';
			comment = cp;
			rp = ep;
			if (read_key_or_cert(&rp, &k, &is_cert) != 0) {
				not_key(o, path, lineno);
				continue;
			}
		}
		if (*rp != '\0')
			comment = (char *)rp;
		print_fingerprint(o, k, comment, is_cert);
		key_free(k);
		found = 1;
	}
	x_free(text);
	if (!found) {
		kg_error("%s is not a public key file.", path);
		return 255;
	}
	return 0;
}
