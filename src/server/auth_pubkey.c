/*
 * auth_pubkey.c: publickey authentication (RFC 4252 section 7), with
 * OpenSSH certificates (PROTOCOL.certkeys).
 *
 * The offered key or certificate is decoded here (for the log lines
 * and to refuse what we cannot use), then handed to the authority
 * (authority_pubkey_check()), which checks it against
 * PubkeyAcceptedAlgorithms, the RSA size floor and RevokedKeys, then
 * against authorized_keys (or, for a certificate, TrustedUserCAKeys and
 * the principals rules), and verifies the signature over the session id
 * and the request. A request without a signature is a query and gets
 * PK_OK when the authority would take the key. Under
 * AuthenticationMethods a key that completed an earlier step is not
 * accepted again.
 *
 * publickey-hostbound-v00@openssh.com (OpenSSH's PROTOCOL 3.1, offered
 * in our EXT_INFO) is the same request with the server's host key blob
 * after the key, covered by the signature too: it must be the host key
 * of this connection, else the connection ends, as with OpenSSH.
 */
#include <string.h>

#include "auth_int.h"
#include "cert.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "transport.h"

static char *
key_log_info(const struct key *k, int fp_hash)
{
	char *d = auth_key_desc(k, fp_hash), *s;

	s = x_asprintf(": %s", d);
	x_free(d);
	return s;
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
 * certificate algorithm. 0 on a key we can use; nonzero (logged)
 * otherwise.
 */
static int
pubkey_decode(const char *alg, const unsigned char *blob, size_t blen,
    int fp_hash, struct key **keyp, struct key_cert **certp, char **infop)
{
	enum key_type kt;
	int r, nid;

	if (cert_sigalg_base(alg) != NULL) {
		if ((r = cert_from_blob(blob, blen, certp)) != 0) {
			log_error("userauth_pubkey: cannot decode key: %s: %s",
			    alg, err_str(r));
			return r;
		}
		*infop = auth_cert_info(*certp, fp_hash);
		if (!cert_sigalg_matches(*certp, alg)) {
			log_error("userauth_pubkey: type mismatch for decoded "
			    "key (received %s, expected %s)", alg,
			    cert_type_name((*certp)->key));
			return ERR_KEY_TYPE_MISMATCH;
		}
		return 0;
	}
	if ((r = key_from_blob(blob, blen, keyp)) != 0) {
		log_error("userauth_pubkey: cannot decode key: %s: %s", alg,
		    err_str(r));
		return r;
	}
	*infop = key_log_info(*keyp, fp_hash);
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

/*
 * Whether a hostbound request's host key blob (a key or a certificate)
 * is the key this connection's exchange used. The authority checks it
 * again against the first exchange's key, which it signed with.
 */
static int
hostkey_is_ours(const struct authctxt *ac, const unsigned char *blob,
    size_t len)
{
	const struct key *mine = tr_hostkey(ac->t);
	struct key *k = NULL;
	struct key_cert *c = NULL;
	int ok = 0;

	if (mine == NULL)
		return 0;
	if (key_from_blob(blob, len, &k) == 0)
		ok = key_equal_public(k, mine);
	else if (cert_from_blob(blob, len, &c) == 0)
		ok = key_equal_public(c->key, mine);
	key_free(k);
	cert_free(c);
	return ok;
}

int
auth_m_publickey(struct authctxt *ac, struct sbuf *req, enum auth_outcome *outp,
    char **infop)
{
	struct authority_pubkey_req q;
	struct authopts *opts = NULL;
	struct key *key = NULL, **subjp;
	struct key_cert *cert = NULL;
	struct sbuf *m;
	char *alg = NULL;
	int r, hassig, ok;

	*outp = AUTH_FAIL;
	memset(&q, 0, sizeof(q));
	if ((r = sbuf_get_bool(req, &hassig)) != 0 ||
	    (r = sbuf_get_cstring(req, &alg, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(req, &q.blob, &q.bloblen)) != 0 ||
	    (ac->hostbound && (r = sbuf_get_string_direct(req, &q.hostkey,
	    &q.hostkeylen)) != 0) ||
	    (hassig && (r = sbuf_get_string_direct(req, &q.sig,
	    &q.siglen)) != 0) || sbuf_len(req) != 0) {
		r = ERR_PROTOCOL;
		goto out;
	}
	r = 0;
	if (ac->hostbound && !hostkey_is_ours(ac, q.hostkey, q.hostkeylen)) {
		/* OpenSSH ends the connection here: so do we. */
		log_error("userauth_pubkey: %s packet contained wrong host "
		    "key", AUTH_HOSTBOUND_METHOD);
		r = ERR_PROTOCOL;
		goto out;
	}
	if (pubkey_decode(alg, q.blob, q.bloblen, ac->sc != NULL ?
	    ac->sc->fingerprint_hash : KEY_FP_SHA256, &key, &cert, infop) != 0)
		goto out;
	subjp = cert != NULL ? &cert->key : &key;
	q.user = ac->user;
	q.service = ac->service;
	q.alg = alg;
	q.has_sig = hassig;
	if (authority_pubkey_check(ac->auth, &q, &ok, &opts) != 0 || !ok)
		goto out;
	if (!hassig) {
		/* A query: the key would do (RFC 4252 section 7). */
		if ((m = tr_msg_start(ac->t, SSH2_MSG_USERAUTH_PK_OK)) == NULL) {
			r = ERR_INTERNAL;
			goto out;
		}
		if ((r = sbuf_put_cstring(m, alg)) != 0 ||
		    (r = sbuf_put_string(m, q.blob, q.bloblen)) != 0 ||
		    (r = tr_msg_send(ac->t)) != 0)
			goto out;
		*outp = AUTH_POSTPONED;
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
	authopts_free(opts);
	key_free(key);
	cert_free(cert);
	x_free(alg);
	return r;
}
