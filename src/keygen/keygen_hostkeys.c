/*
 * keygen_hostkeys.c: ssh-keygen -A, which makes every default host key
 * (RSA, ECDSA, Ed25519, in that order) that does not exist yet in the
 * build's ssh directory (installdirs.h: MOAT_SSHDIR, /etc/ssh as Debian's), or
 * that path under DIR with -f DIR (DIR/etc/ssh). A key file that
 * exists and is not empty is left alone, even when its .pub is missing;
 * an empty one is made again. The keys have no passphrase, the default
 * size of their type and "user@host" as comment; -m PEM or PKCS8 and -a
 * apply as when generating one key.
 *
 * Each key is written to a temporary file beside its final name and
 * renamed into place, the .pub first, so that a half-written key never
 * takes the place of a good one. The .pub is made 0644 whatever the
 * umask, since sshd and other users read it.
 *
 * The output is OpenSSH's: "ssh-keygen: generating new host keys: "
 * once, then each type's name and a space as its key is made, and a
 * newline at the end; a failure is reported on stderr and starts the
 * line over for the next type. The exit status is 0 even then, as in
 * OpenSSH. (Unlike OpenSSH, a key whose files could not be put in
 * place leaves no temporary files behind.)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "err.h"
#include "installdirs.h"
#include "keygen.h"
#include "mem.h"

#define TMP_SUFFIX_LEN	10

static const struct {
	enum key_type type;
	const char *name;	/* as printed */
	const char *path;
} hostkeys[] = {
	{ KEY_RSA, "RSA", MOAT_SSHDIR "/ssh_host_rsa_key" },
	{ KEY_ECDSA, "ECDSA", MOAT_SSHDIR "/ssh_host_ecdsa_key" },
	{ KEY_ED25519, "ED25519", MOAT_SSHDIR "/ssh_host_ed25519_key" },
};

/* path + "." + random letters and digits: a name nobody else uses. */
static char *
tmp_name(const char *path)
{
	static const char chars[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char rnd[TMP_SUFFIX_LEN];
	char *name = x_asprintf("%s.%0*d", path, TMP_SUFFIX_LEN, 0);
	char *p = name + strlen(name) - TMP_SUFFIX_LEN;
	size_t i;

	if (RAND_bytes(rnd, sizeof(rnd)) != 1)
		return name;	/* zeros: the O_EXCL open still guards */
	for (i = 0; i < TMP_SUFFIX_LEN; i++)
		p[i] = chars[rnd[i] % (sizeof(chars) - 1)];
	return name;
}

static const char *
err_text(int r)
{
	return r == ERR_SYSTEM ? strerror(errno) : err_str(r);
}

/* Write the key's two files under temporary names: 0, or -1 (reported). */
static int
write_tmp(const struct kg_opts *o, const struct key *k, const char *prv_tmp,
    const char *pub_tmp, const char *comment)
{
	int r;

	if ((r = key_save_private_as(k, prv_tmp, "", comment, o->rounds,
	    kg_private_format(o))) != 0) {
		kg_error("Could not save your private key in %s: %s",
		    prv_tmp, err_text(r));
		return -1;
	}
	if ((r = key_save_public(k, pub_tmp, comment)) != 0 ||
	    chmod(pub_tmp, 0644) != 0) {
		kg_error("Unable to save public key to %s: %s",
		    pub_tmp, err_text(r != 0 ? r : ERR_SYSTEM));
		unlink(prv_tmp);
		unlink(pub_tmp);
		return -1;
	}
	return 0;
}

/* Make one key as prv (and prv.pub): 0, or -1 (reported). */
static int
make_key(const struct kg_opts *o, enum key_type type, const char *prv)
{
	char *pub = x_asprintf("%s.pub", prv), *prv_tmp = tmp_name(prv);
	char *pub_tmp = tmp_name(pub), *comment = kg_default_comment();
	struct key *k = NULL;
	int r, ret = -1;

	if ((r = key_generate(type, 0, &k)) != 0) {
		kg_error("sshkey_generate failed: %s", err_str(r));
		goto out;
	}
	if (write_tmp(o, k, prv_tmp, pub_tmp, comment) != 0)
		goto out;
	if (rename(pub_tmp, pub) != 0) {
		kg_error("Unable to move %s into position: %s", pub,
		    strerror(errno));
		goto out_unlink;
	}
	if (rename(prv_tmp, prv) != 0) {
		kg_error("Unable to move %s into position: %s", prv,
		    strerror(errno));
		goto out_unlink;
	}
	ret = 0;
	goto out;
 out_unlink:
	unlink(prv_tmp);
	unlink(pub_tmp);
 out:
	key_free(k);
	x_free(pub);
	x_free(prv_tmp);
	x_free(pub_tmp);
	x_free(comment);
	return ret;
}

int
kg_gen_host_keys(struct kg_opts *o)
{
	const char *prefix = o->file != NULL ? o->file : "";
	struct stat st;
	int started = 0;
	size_t i;
	char *prv;

	for (i = 0; i < sizeof(hostkeys) / sizeof(hostkeys[0]); i++) {
		prv = x_asprintf("%s%s", prefix, hostkeys[i].path);
		if (stat(prv, &st) == 0) {
			if (st.st_size != 0) {	/* there already */
				x_free(prv);
				continue;
			}
		} else if (errno != ENOENT) {
			/* OpenSSH names the path without the prefix here. */
			kg_error("Could not stat %s: %s",
			    hostkeys[i].path, strerror(errno));
			started = 0;
			x_free(prv);
			continue;
		}
		if (!started)
			printf("%s: generating new host keys: ", o->prog);
		printf("%s ", hostkeys[i].name);
		fflush(stdout);
		started = make_key(o, hostkeys[i].type, prv) == 0;
		x_free(prv);
	}
	if (started)
		printf("\n");
	return 0;
}
