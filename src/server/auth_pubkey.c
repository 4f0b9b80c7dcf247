/*
 * auth_pubkey.c: publickey authentication (RFC 4252 section 7), with
 * OpenSSH certificates (PROTOCOL.certkeys).
 *
 * The offered key or certificate is decoded and checked against
 * PubkeyAcceptedAlgorithms, the RSA size floor and RevokedKeys, then
 * against authorized_keys (or, for a certificate, TrustedUserCAKeys and
 * the principals rules). A request without a signature is a query and
 * gets PK_OK; one with a signature must verify over the session id and
 * the request. Under AuthenticationMethods a key that completed an
 * earlier step is not accepted again.
 */
#include <string.h>

#include "auth_int.h"
#include "authkeys.h"
#include "cert.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"

#define RSA_MIN_BITS	1024

static char *
key_log_info(const struct key *k)
{
	char *d = auth_key_desc(k), *s;

	s = x_asprintf(": %s", d);
	x_free(d);
	return s;
}

/* Append the bytes signed for publickey authentication. */
static int
pubkey_signed_data(struct authctxt *ac, const char *alg,
    const unsigned char *blob, size_t blen, struct sbuf *d)
{
	const unsigned char *sid;
	size_t sidlen;
	int r;

	if ((sid = tr_session_id(ac->t, &sidlen)) == NULL)
		return ERR_INTERNAL;
	if ((r = sbuf_put_string(d, sid, sidlen)) != 0 ||
	    (r = sbuf_put_u8(d, SSH2_MSG_USERAUTH_REQUEST)) != 0 ||
	    (r = sbuf_put_cstring(d, ac->user)) != 0 ||
	    (r = sbuf_put_cstring(d, ac->service)) != 0 ||
	    (r = sbuf_put_cstring(d, "publickey")) != 0 ||
	    (r = sbuf_put_u8(d, 1)) != 0 ||
	    (r = sbuf_put_cstring(d, alg)) != 0 ||
	    (r = sbuf_put_string(d, blob, blen)) != 0)
		return r;
	return 0;
}

/* Whether an earlier AuthenticationMethods step used this key. */
static int
key_used(const struct authctxt *ac, const struct key *k)
{
	size_t i;

	for (i = 0; i < ac->nused_keys; i++)
		if (key_equal_public(ac->used_keys[i], k))
			return 1;
	return 0;
}

/*
 * The offered key: a plain key, or a certificate when alg is a
 * certificate algorithm. *subjp is the key that signs, *sigalgp the
 * signature algorithm it signs with. 0 on a key we can use; nonzero
 * (logged) otherwise.
 */
static int
pubkey_decode(const char *alg, const unsigned char *blob, size_t blen,
    struct key **keyp, struct key_cert **certp, const char **sigalgp,
    char **infop)
{
	enum key_type kt;
	int r, nid;

	if ((*sigalgp = cert_sigalg_base(alg)) != NULL) {
		if ((r = cert_from_blob(blob, blen, certp)) != 0) {
			log_error("userauth_pubkey: cannot decode key: %s: %s",
			    alg, err_str(r));
			return r;
		}
		*infop = auth_cert_info(*certp);
		if (!cert_sigalg_matches(*certp, alg)) {
			log_error("userauth_pubkey: type mismatch for decoded "
			    "key (received %s, expected %s)", alg,
			    cert_type_name((*certp)->key));
			return ERR_KEY_TYPE_MISMATCH;
		}
		return 0;
	}
	*sigalgp = alg;
	if ((r = key_from_blob(blob, blen, keyp)) != 0) {
		log_error("userauth_pubkey: cannot decode key: %s: %s", alg,
		    err_str(r));
		return r;
	}
	*infop = key_log_info(*keyp);
	if (key_type_from_name(alg, &kt, &nid) != 0) {
		log_verbose("userauth_pubkey: unsupported public key "
		    "algorithm: %s", alg);
		return ERR_KEY_TYPE_UNKNOWN;
	}
	if (key_sigalg_matches(*keyp, alg) != 1) {
		log_error("userauth_pubkey: type mismatch for decoded key "
		    "(received %s, expected %s)", alg, key_type_name(*keyp));
		return ERR_KEY_TYPE_MISMATCH;
	}
	return 0;
}

int
auth_m_publickey(struct authctxt *ac, struct sbuf *req, enum auth_outcome *outp,
    char **infop)
{
	const unsigned char *blob, *sig = NULL;
	size_t blen, siglen = 0;
	struct authopts *opts = NULL;
	struct key *key = NULL, **subjp;
	struct key_cert *cert = NULL;
	struct sbuf *data = NULL, *m;
	const char *sigalg = NULL;
	char *alg = NULL;
	int r, hassig;

	*outp = AUTH_FAIL;
	if ((r = sbuf_get_bool(req, &hassig)) != 0 ||
	    (r = sbuf_get_cstring(req, &alg, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(req, &blob, &blen)) != 0 ||
	    (hassig && (r = sbuf_get_string_direct(req, &sig,
	    &siglen)) != 0) || sbuf_len(req) != 0) {
		r = ERR_PROTOCOL;
		goto out;
	}
	r = 0;
	if (pubkey_decode(alg, blob, blen, &key, &cert, &sigalg, infop) != 0)
		goto out;
	subjp = cert != NULL ? &cert->key : &key;
	if (ac->sc->pubkey_accepted_algorithms == NULL ||
	    match_pattern_list(alg, ac->sc->pubkey_accepted_algorithms,
	    0) != 1) {
		log_verbose("userauth_pubkey: signature algorithm %s not in "
		    "PubkeyAcceptedAlgorithms", alg);
		goto out;
	}
	if ((*subjp)->type == KEY_RSA && key_bits(*subjp) < RSA_MIN_BITS) {
		log_verbose("userauth_pubkey: RSA key too small (%u bits)",
		    key_bits(*subjp));
		goto out;
	}
	if (auth_key_revoked(ac, *subjp, cert))
		goto out;
	if (!ac->valid)
		goto out;
	if (cert != NULL ? auth_cert_allowed(ac, cert, &opts) != 0 :
	    authkeys_find(ac->sc, ac->pw, key, ac->conn->remote_host,
	    ac->conn->remote_addr, &opts) != 0)
		goto out;
	if (!hassig) {
		/* A query: the key would do (RFC 4252 section 7). */
		if ((m = tr_msg_start(ac->t, SSH2_MSG_USERAUTH_PK_OK)) == NULL) {
			r = ERR_INTERNAL;
			goto out;
		}
		if ((r = sbuf_put_cstring(m, alg)) != 0 ||
		    (r = sbuf_put_string(m, blob, blen)) != 0 ||
		    (r = tr_msg_send(ac->t)) != 0)
			goto out;
		*outp = AUTH_POSTPONED;
		goto out;
	}
	data = sbuf_new();
	if ((r = pubkey_signed_data(ac, alg, blob, blen, data)) != 0)
		goto out;
	if (key_verify(*subjp, sig, siglen, sbuf_ptr(data), sbuf_len(data),
	    sigalg) != 0) {
		log_debug("userauth_pubkey: signature did not verify");
		goto out;
	}
	if (ac->chains != NULL && key_used(ac, *subjp)) {
		log_verbose("userauth_pubkey: refusing previously-used %s key",
		    key_type_name(*subjp));
		goto out;
	}
	if (ac->chains != NULL) {
		ac->used_keys = x_reallocarray(ac->used_keys,
		    ac->nused_keys + 1, sizeof(*ac->used_keys));
		ac->used_keys[ac->nused_keys++] = *subjp;
		*subjp = NULL;
	}
	authopts_free(ac->opts);
	ac->opts = opts;
	opts = NULL;
	*outp = AUTH_SUCCESS;
 out:
	sbuf_free(data);
	authopts_free(opts);
	key_free(key);
	cert_free(cert);
	x_free(alg);
	return r;
}
