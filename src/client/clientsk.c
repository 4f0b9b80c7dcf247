/*
 * clientsk.c: a user authentication signature by a FIDO security key
 * (an IdentityFile whose private half is a key handle). The middleware
 * is SecurityKeyProvider's: a path, or "$VAR" for the one the
 * environment names; it runs in ssh-sk-helper (sk_client.h). As in
 * OpenSSH, the user is told to touch the key when the key needs it,
 * and asked for a PIN when the authenticator wants one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clientauth_int.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sk_api.h"
#include "sk_client.h"

/* The library SecurityKeyProvider names, or NULL when it names none. */
static const char *
provider(const struct client_opts *o)
{
	const char *p = o->security_key_provider;

	if (p != NULL && p[0] == '$' && p[1] != '\0') {
		if ((p = getenv(p + 1)) == NULL || *p == '\0') {
			log_debug("Authenticator provider %s did not resolve; "
			    "disabling", o->security_key_provider);
			return NULL;
		}
	}
	if (p == NULL || strcmp(p, "none") == 0)
		return NULL;
	return p;
}

const char *
ca_sk_provider(const struct client_opts *o)
{
	return provider(o);
}

int
ca_sk_sign(struct ca_ctx *c, const struct key *k, const unsigned char *data,
    size_t dlen, struct sbuf *sig)
{
	struct sk_where w = { provider(c->o), NULL, NULL };
	char *fp, *pin = NULL, *prompt;
	int r, skerr = 0;

	if (w.provider == NULL) {
		log_error("No FIDO SecurityKeyProvider specified");
		return ERR_FEATURE_UNSUPPORTED;
	}
	if ((k->sk_flags & SSH_SK_USER_PRESENCE_REQD) && !c->o->batch_mode) {
		fp = key_fingerprint(k, KEY_FP_SHA256);
		fprintf(stderr, "Confirm user presence for key %s %s\n",
		    key_short_name(k), fp);
		x_free(fp);
	}
	r = skc_sign(&w, k, data, dlen, sig, &skerr);
	if (r != 0 && skerr == SSH_SK_ERR_PIN_REQUIRED) {
		prompt = x_asprintf("Enter PIN for %s key: ",
		    key_short_name(k));
		if (ca_ask(c, prompt, 0, &pin) == 0 && *pin != '\0') {
			w.pin = pin;
			r = skc_sign(&w, k, data, dlen, sig, &skerr);
		}
		if (pin != NULL)
			x_freezero(pin, strlen(pin));
		x_free(prompt);
	}
	if (r != 0)
		log_debug("security key signature failed: %s", skerr != 0 ?
		    skc_strerror(skerr) : err_str(r));
	return r;
}
