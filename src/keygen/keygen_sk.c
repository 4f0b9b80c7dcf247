/*
 * keygen_sk.c: ssh-keygen and FIDO security keys: -t ed25519-sk |
 * ecdsa-sk makes a key on the authenticator (through the middleware of
 * -w or $SSH_SK_PROVIDER, run by ssh-sk-helper), -K saves the resident
 * keys it holds, and kg_sk_sign() signs for -Y sign. Messages and file
 * names are OpenSSH's.
 *
 * Enrollment -O options: no-touch-required, verify-required,
 * resident, application=ssh:..., device=, user=, challenge=FILE,
 * write-attestation=FILE.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "keygen.h"
#include "mem.h"
#include "sbuf.h"
#include "sk_api.h"
#include "sk_client.h"

#define SK_MAX_PIN_TRIES	3

/* The enrollment's parameters from -O. */
struct sk_gen {
	uint8_t flags;
	const char *application;
	const char *device;
	const char *user;
	const char *attest_path;
	char *challenge;		/* file contents, or NULL */
	size_t chlen;
};

int
kg_sk_type(const char *name, enum key_type *typep)
{
	if (strcasecmp(name, "ed25519-sk") == 0 ||
	    strcmp(name, "sk-ssh-ed25519@openssh.com") == 0)
		*typep = KEY_ED25519_SK;
	else if (strcasecmp(name, "ecdsa-sk") == 0 ||
	    strcmp(name, "sk-ecdsa-sha2-nistp256@openssh.com") == 0)
		*typep = KEY_ECDSA_SK;
	else
		return ERR_NOT_FOUND;
	return 0;
}

static const char *
provider(const struct kg_opts *o)
{
	const char *p = o->sk_provider;

	if (p == NULL)
		p = getenv("SSH_SK_PROVIDER");
	return p != NULL && *p != '\0' ? p : "internal";
}

/* The -O options of an enrollment into g; -1 after OpenSSH's message. */
static int
parse_opts(const struct kg_opts *o, struct sk_gen *g)
{
	const char *opt;
	size_t i;

	g->flags = SSH_SK_USER_PRESENCE_REQD;
	for (i = 0; i < o->ncertopts; i++) {
		opt = o->certopts[i];
		if (strcasecmp(opt, "no-touch-required") == 0)
			g->flags &= ~SSH_SK_USER_PRESENCE_REQD;
		else if (strcasecmp(opt, "verify-required") == 0)
			g->flags |= SSH_SK_USER_VERIFICATION_REQD;
		else if (strcasecmp(opt, "resident") == 0)
			g->flags |= SSH_SK_RESIDENT_KEY;
		else if (strncasecmp(opt, "device=", 7) == 0)
			g->device = opt + 7;
		else if (strncasecmp(opt, "user=", 5) == 0)
			g->user = opt + 5;
		else if (strncasecmp(opt, "write-attestation=", 18) == 0)
			g->attest_path = opt + 18;
		else if (strncasecmp(opt, "challenge=", 10) == 0) {
			x_free(g->challenge);
			if (kg_read_file(opt + 10, &g->challenge,
			    &g->chlen) != 0) {
				kg_error("Unable to load FIDO enrollment "
				    "challenge \"%s\"", opt + 10);
				return -1;
			}
		} else if (strncasecmp(opt, "application=", 12) == 0) {
			g->application = opt + 12;
			if (strncmp(g->application, "ssh:", 4) != 0) {
				kg_error("FIDO application string must begin "
				    "with \"ssh:\"");
				return -1;
			}
		} else {
			kg_error("Option \"%s\" is unsupported for FIDO "
			    "authenticator enrollment", opt);
			return -1;
		}
	}
	return 0;
}

/*
 * The enrollment, with a PIN asked for when the authenticator wants
 * one (up to three tries); -1 after the message.
 */
static int
enroll(const struct kg_opts *o, enum key_type type, const struct sk_gen *g,
    struct key **kp, struct sbuf *attest)
{
	struct sk_where w = { provider(o), g->device, NULL };
	char *pin = NULL;
	int r, skerr = 0, tries = 0;

	for (;;) {
		if (!o->quiet)
			printf("You may need to touch your authenticator%s to "
			    "authorize key generation.\n",
			    tries == 0 ? "" : " again");
		fflush(stdout);
		sbuf_reset(attest);
		r = skc_enroll(&w, type, g->application != NULL ?
		    g->application : "ssh:", g->flags, g->user,
		    (const unsigned char *)g->challenge, g->chlen, kp, attest,
		    &skerr);
		if (r == 0 || skerr != SSH_SK_ERR_PIN_REQUIRED)
			break;
		if (pin != NULL)
			kg_error("PIN incorrect");
		kg_free_passphrase(pin);
		if (++tries >= SK_MAX_PIN_TRIES) {
			kg_error("Too many incorrect PINs");
			return -1;
		}
		pin = kg_read_passphrase("Enter PIN for authenticator: ");
		w.pin = *pin != '\0' ? pin : NULL;
	}
	kg_free_passphrase(pin);
	if (r != 0) {
		kg_error("Key enrollment failed: %s", skerr != 0 ?
		    skc_strerror(skerr) : err_str(r));
		return -1;
	}
	return 0;
}

static int
save_attestation(const struct kg_opts *o, const char *path,
    const struct sbuf *attest)
{
	if (path == NULL)
		return 0;
	if (sbuf_len(attest) == 0) {
		kg_error("Enrollment did not return attestation data");
		return -1;
	}
	if (kg_write_file(path, sbuf_ptr(attest), sbuf_len(attest),
	    0600) != 0) {
		kg_error("Unable to write attestation data \"%s\": %s", path,
		    strerror(errno));
		return -1;
	}
	if (!o->quiet)
		printf("Your FIDO attestation certificate has been saved in "
		    "%s\n", path);
	return 0;
}

/* Save k (and its .pub) as a new key is saved; -1 after the message. */
static int
save_key(const struct kg_opts *o, const struct key *k, const char *path,
    const char *pass, const char *comment)
{
	char *pub = x_asprintf("%s.pub", path);
	int r, ret = -1;

	if ((r = key_save_private(k, path, pass, comment, o->rounds)) != 0) {
		kg_error("Saving key \"%s\" failed: %s", path,
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		goto out;
	}
	if ((r = key_save_public(k, pub, comment)) != 0) {
		kg_error("Unable to save public key to %s: %s", pub,
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		goto out;
	}
	ret = 0;
 out:
	x_free(pub);
	return ret;
}

int
kg_generate_sk(struct kg_opts *o, enum key_type type)
{
	struct sk_gen g;
	struct sbuf *attest = sbuf_new();
	struct key *k = NULL;
	char *path = NULL, *comment = NULL, *pass = NULL, *fp, *art;
	int ret = 255;

	memset(&g, 0, sizeof(g));
	if (parse_opts(o, &g) != 0)
		goto out;
	if (!o->quiet)
		printf("Generating public/private %s key pair.\n",
		    type == KEY_ECDSA_SK ? "ecdsa-sk" : "ed25519-sk");
	if (enroll(o, type, &g, &k, attest) != 0)
		goto out;
	path = x_strdup(kg_need_file(o, "Enter file in which to save the key"));
	kg_make_ssh_dir(path, !o->quiet);
	if (!kg_confirm_overwrite(path)) {
		ret = 1;
		goto out;
	}
	pass = kg_new_passphrase(o);
	comment = o->comment != NULL ? x_strdup(o->comment) :
	    kg_default_comment();
	if (save_key(o, k, path, pass, comment) != 0)
		goto out;
	if (!o->quiet) {
		printf("Your identification has been saved in %s\n", path);
		fp = key_fingerprint(k, o->fp_hash);
		art = key_randomart(k, o->fp_hash);
		printf("Your public key has been saved in %s.pub\n", path);
		printf("The key fingerprint is:\n%s %s\n", fp, comment);
		printf("The key's randomart image is:\n%s\n", art);
		x_free(fp);
		x_free(art);
	}
	if (save_attestation(o, g.attest_path, attest) != 0)
		goto out;
	ret = 0;
 out:
	kg_free_passphrase(pass);
	x_free(path);
	x_free(comment);
	x_free(g.challenge);
	sbuf_free(attest);
	key_free(k);
	return ret;
}

/*
 * What -K appends to "id_TYPE_rk" for a key: its application without
 * "ssh:" (or "ssh://"), then "_" and the user id when that is not all
 * zeros -- in hex when it is not plain printable text or could make a
 * path.
 */
static char *
rk_suffix(const char *app, const unsigned char *uid, size_t uidlen)
{
	struct sbuf *hex;
	char *ret, *u;
	size_t i, n;
	int plain = 1;

	if (strncmp(app, "ssh://", 6) == 0)
		app += 6;
	else if (strncmp(app, "ssh:", 4) == 0)
		app += 4;
	for (n = uidlen; n > 0 && uid[n - 1] == 0; n--)
		;
	if (n == 0)
		return x_strdup(app);
	for (i = 0; i < n; i++)
		if (!isprint(uid[i]) || uid[i] == '/' || uid[i] == '\\' ||
		    (uid[i] == '.' && i + 1 < n && uid[i + 1] == '.'))
			plain = 0;
	if (plain) {
		u = x_malloc(n + 1);
		memcpy(u, uid, n);
		u[n] = '\0';
	} else {
		hex = sbuf_from(uid, n);
		u = sbuf_to_hex(hex);
		sbuf_free(hex);
	}
	ret = x_asprintf("%s%s%s", app, *app != '\0' ? "_" : "", u);
	x_free(u);
	return ret;
}

/* Save one downloaded key; -1 to stop. *passp: asked for once. */
static int
save_resident(const struct kg_opts *o, const struct skh_resident *rk,
    char **passp)
{
	const struct key *k = rk->key;
	char *ext = rk_suffix(k->sk_application, rk->user_id,
	    rk->user_id_len);
	char *path = x_asprintf("id_%s_rk%s%s", k->type == KEY_ECDSA_SK ?
	    "ecdsa_sk" : "ed25519_sk", *ext != '\0' ? "_" : "", ext);
	int ret = -1;

	if (!kg_confirm_overwrite(path))
		goto out;
	if (*passp == NULL)
		*passp = kg_new_passphrase(o);
	if (save_key(o, k, path, *passp, k->sk_application) != 0)
		goto out;
	if (!o->quiet)
		printf("Saved %s key%s%s to %s\n", key_short_name(k),
		    *ext != '\0' ? " " : "", *ext != '\0' ?
		    k->sk_application : "", path);
	ret = 0;
 out:
	x_free(ext);
	x_free(path);
	return ret;
}

int
kg_download_sk(struct kg_opts *o)
{
	struct sk_where w = { provider(o), NULL, NULL };
	struct skh_resident *keys = NULL;
	char *pin, *pass = NULL;
	size_t n = 0, i;
	int r, skerr = 0, ret = 255;

	pin = kg_read_passphrase("Enter PIN for authenticator: ");
	w.pin = *pin != '\0' ? pin : NULL;
	if (!o->quiet)
		printf("You may need to touch your authenticator to authorize "
		    "key download.\n");
	fflush(stdout);
	r = skc_load_resident(&w, &keys, &n, &skerr);
	kg_free_passphrase(pin);
	if (r != 0) {
		kg_error("Unable to load resident keys: %s", skerr != 0 ?
		    skc_strerror(skerr) : err_str(r));
		return 255;
	}
	if (n == 0)
		kg_error("No keys to download");
	for (i = 0; i < n; i++)
		if (save_resident(o, &keys[i], &pass) != 0)
			break;
	if (i >= n)
		ret = 0;
	kg_free_passphrase(pass);
	skh_resident_free(keys, n);
	return ret;
}

int
kg_sk_sign(const struct kg_opts *o, const struct key *k,
    const unsigned char *data, size_t dlen, struct sbuf *sig)
{
	struct sk_where w = { provider(o), NULL, NULL };
	char *fp, *pin = NULL;
	int r, skerr = 0;

	if (k->sk_flags & SSH_SK_USER_PRESENCE_REQD) {
		fp = key_fingerprint(k, o->fp_hash);
		fprintf(stderr, "Confirm user presence for key %s %s\n",
		    key_short_name(k), fp);
		x_free(fp);
	}
	r = skc_sign(&w, k, data, dlen, sig, &skerr);
	if (r != 0 && skerr == SSH_SK_ERR_PIN_REQUIRED) {
		pin = kg_read_passphrase("Enter PIN for authenticator: ");
		w.pin = *pin != '\0' ? pin : NULL;
		r = skc_sign(&w, k, data, dlen, sig, &skerr);
		kg_free_passphrase(pin);
	}
	return r;
}
