/*
 * clientp11.c: publickey identities from a PKCS#11 token
 * (PKCS11Provider, ssh -I). The module runs in ssh-pkcs11-helper
 * (p11_client.h); ssh only holds the public keys and asks the helper
 * for each signature.
 *
 * The token's keys come before the IdentityFile keys. With
 * IdentitiesOnly, only the token keys whose public key some
 * IdentityFile names are kept (that file's own identity then gives way
 * to the token's): the others are never offered.
 *
 * A token that wants a PIN gets it when the server has accepted one of
 * its keys: "Enter PIN for 'LABEL': " on the terminal or through
 * SSH_ASKPASS, not in BatchMode. A refused PIN, a dead helper or a
 * signature that does not verify skips the key.
 */
#include <string.h>

#include "clientauth_int.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "p11_client.h"

/* The public key of a file identity, loaded when still unknown. */
static const struct key *
file_pub(struct ca_identity *id)
{
	if (id->pub == NULL && !id->lone_cert &&
	    key_load_public(id->path, &id->pub, NULL) != 0 &&
	    key_load_private_public(id->path, &id->pub) != 0)
		id->pub = NULL;
	return id->pub;
}

/*
 * The index of the file identity (not a certificate) holding k, or -1
 * when none does (an index, not an error code).
 */
static long
named_by_file(struct ca_ctx *c, const struct key *k)
{
	size_t i;

	for (i = 0; i < c->nids; i++)
		if (c->ids[i].cert == NULL && file_pub(&c->ids[i]) != NULL &&
		    key_equal_public(c->ids[i].pub, k))
			return (long)i;
	return -1;
}

static void
identity_free(struct ca_identity *id)
{
	x_free(id->path);
	key_free(id->pub);
	key_free(id->priv);
	x_free(id->comment);
}

void
ca_p11_load(struct ca_ctx *c)
{
	const struct client_opts *o = c->o;
	struct ca_identity *out;
	struct p11_key *keys = NULL;
	char *provider = NULL, *why = NULL, *drop;
	size_t i, n = 0, m = 0;
	long f;

	if (o->pkcs11_provider == NULL ||
	    strcmp(o->pkcs11_provider, "none") == 0)
		return;
	if (readconf_tilde(o, o->pkcs11_provider, &provider) != 0)
		return;
	if (p11_helper_start(provider, &c->p11) != 0 ||
	    p11_helper_open(c->p11, NULL, &keys, &n, &why) != 0) {
		log_debug("PKCS#11 provider %s: %s", provider,
		    why != NULL ? why : "no keys");
		goto out;
	}
	out = x_calloc(n + c->nids + 1, sizeof(*out));
	drop = x_calloc(c->nids + 1, 1);
	for (i = 0; i < n; i++) {
		f = named_by_file(c, keys[i].key);
		if (f < 0 && o->identities_only > 0) {
			log_debug2("Skipping PKCS#11 key %s: IdentitiesOnly",
			    keys[i].label);
			continue;
		}
		if (f >= 0)
			drop[f] = 1;
		out[m].path = x_strdup(provider);
		out[m].pub = keys[i].key;
		out[m].comment = keys[i].label;
		out[m].explicit = 1;
		out[m++].p11 = 1;
		keys[i].key = NULL;
		keys[i].label = NULL;
	}
	for (i = 0; i < c->nids; i++) {
		if (drop[i])
			identity_free(&c->ids[i]);
		else
			out[m++] = c->ids[i];
	}
	x_free(drop);
	x_free(c->ids);
	c->ids = out;
	c->nids = m;
 out:
	p11_keys_free(keys, n);
	x_free(why);
	x_free(provider);
}

void
ca_p11_free(struct ca_ctx *c)
{
	p11_helper_stop(c->p11);
	c->p11 = NULL;
}

int
ca_p11_sign(struct ca_ctx *c, const struct ca_identity *id, const char *alg,
    const unsigned char *data, size_t dlen, struct sbuf *sig)
{
	char *label = NULL, *prompt, *pin = NULL;
	int r;

	if (c->p11 == NULL)
		return ERR_NOT_FOUND;
	r = p11_helper_sign(c->p11, id->pub, alg, data, dlen, NULL, sig,
	    &label);
	if (r != ERR_PERMISSION_DENIED || label == NULL)
		goto out;
	if (c->o->batch_mode) {
		log_error("need PIN for token '%s' in batch mode", label);
		goto out;
	}
	prompt = x_asprintf("Enter PIN for '%s': ", label);
	r = ca_ask(c, prompt, 0, &pin);
	x_free(prompt);
	if (r != 0 || *pin == '\0') {
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	x_free(label);
	label = NULL;
	r = p11_helper_sign(c->p11, id->pub, alg, data, dlen, pin, sig,
	    &label);
	if (r == ERR_KEY_WRONG_PASSPHRASE)
		log_error("PKCS#11 login failed: wrong PIN");
 out:
	if (pin != NULL)
		x_freezero(pin, strlen(pin));
	x_free(label);
	return r;
}
