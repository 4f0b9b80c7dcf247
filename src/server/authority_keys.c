/*
 * authority_keys.c: the in-process authority's key operations
 * (authority.h): signing with a host key, and deciding publickey and
 * hostbased requests.
 *
 * Nothing the caller says is taken on trust. Blobs are decoded again
 * here (the caller has decoded and logged them already, so failures
 * here are silent refusals); the policy checks run here, logging
 * refusals in OpenSSH's words; the data a client signature must cover
 * is built here from the transport's session id and the user that was
 * looked up; and a host key signs only what a key exchange or a
 * hostkeys-prove-00 reply needs.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <ctype.h>
#include <netdb.h>
#include <string.h>
#include <strings.h>

#include "auth_hostbased.h"
#include "auth_int.h"
#include "authkeys.h"
#include "authority_local.h"
#include "cert.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport.h"

#define PROVE_TAG		"hostkeys-prove-00@openssh.com"

/* The session id, or NULL before the first key exchange is done. */
static const unsigned char *
session_id(const struct authority_local *l, size_t *lenp)
{
	*lenp = 0;
	if (l->t != NULL)
		return tr_session_id(l->t, lenp);
	*lenp = l->sidlen;
	return l->sidlen > 0 ? l->sid : NULL;
}

/* 1 if data is a hostkeys-prove-00 request for key k in this session. */
static int
is_prove_request(const struct authority_local *l, const struct key *k,
    const unsigned char *data, size_t dlen)
{
	struct sbuf *b = sbuf_from(data, dlen), *kb = sbuf_new();
	const unsigned char *tag, *sid, *blob, *mysid;
	size_t taglen, sidlen, bloblen, mylen;
	int ok = 0;

	if ((mysid = session_id(l, &mylen)) == NULL ||
	    sbuf_get_string_direct(b, &tag, &taglen) != 0 ||
	    sbuf_get_string_direct(b, &sid, &sidlen) != 0 ||
	    sbuf_get_string_direct(b, &blob, &bloblen) != 0 ||
	    sbuf_len(b) != 0 || key_to_blob(k, kb) != 0)
		goto out;
	ok = taglen == strlen(PROVE_TAG) &&
	    memcmp(tag, PROVE_TAG, taglen) == 0 &&
	    sidlen == mylen && memcmp(sid, mysid, mylen) == 0 &&
	    bloblen == sbuf_len(kb) && memcmp(blob, sbuf_ptr(kb), bloblen) == 0;
 out:
	sbuf_free(b);
	sbuf_free(kb);
	return ok;
}

int
authority_local_hostkey_sign(void *impl, size_t idx, const char *alg,
    const unsigned char *data, size_t dlen, struct sbuf *sig)
{
	struct authority_local *l = impl;

	if (idx >= l->nhostkeys || l->hostkeys[idx] == NULL)
		return ERR_NOT_FOUND;
	/* An exchange hash: SHA-1, SHA-256, SHA-384 or SHA-512 sized. */
	if (dlen != 20 && dlen != 32 && dlen != 48 && dlen != 64 &&
	    !is_prove_request(l, l->hostkeys[idx], data, dlen)) {
		log_error("authority: refusing to sign %zu bytes that are "
		    "neither an exchange hash nor a hostkeys-prove request",
		    dlen);
		return ERR_PERMISSION_DENIED;
	}
	return key_sign(l->hostkeys[idx], alg, data, dlen, sig);
}

/*
 * The signed data of a publickey or hostbased request, as RFC 4252
 * sections 7 and 9 lay it out, from the authority's own session id and
 * user: the fields common to both.
 */
static int
signed_head(const struct authority_local *l, const char *service,
    const char *method, struct sbuf *d)
{
	const unsigned char *sid;
	size_t sidlen;
	int r;

	if ((sid = session_id(l, &sidlen)) == NULL)
		return ERR_INTERNAL;
	if ((r = sbuf_put_string(d, sid, sidlen)) != 0 ||
	    (r = sbuf_put_u8(d, SSH2_MSG_USERAUTH_REQUEST)) != 0 ||
	    (r = sbuf_put_cstring(d, l->user)) != 0 ||
	    (r = sbuf_put_cstring(d, service)) != 0 ||
	    (r = sbuf_put_cstring(d, method)) != 0)
		return r;
	return 0;
}

/* The client's publickey signature over what it must cover. */
static int
pubkey_verify(const struct authority_local *l,
    const struct authority_pubkey_req *q, const struct key *subj,
    const char *sigalg, struct key_sig_details *det)
{
	struct sbuf *d = sbuf_new();
	int r;

	if ((r = signed_head(l, q->service, q->hostkey != NULL ?
	    AUTH_HOSTBOUND_METHOD : "publickey", d)) == 0 &&
	    (r = sbuf_put_u8(d, 1)) == 0 &&
	    (r = sbuf_put_cstring(d, q->alg)) == 0 &&
	    (r = sbuf_put_string(d, q->blob, q->bloblen)) == 0 &&
	    (q->hostkey == NULL ||
	    (r = sbuf_put_string(d, q->hostkey, q->hostkeylen)) == 0))
		r = key_verify_details(subj, q->sig, q->siglen, sbuf_ptr(d),
		    sbuf_len(d), sigalg, det);
	sbuf_free(d);
	return r;
}

/*
 * Whether blob (a host key or a host certificate) is the key that
 * signed this connection's first exchange hash.
 */
static int
is_session_hostkey(const struct authority_local *l,
    const unsigned char *blob, size_t len)
{
	const struct key *mine = NULL;
	struct key *k = NULL;
	struct key_cert *c = NULL;
	int ok = 0;

	if (l->t != NULL)
		mine = tr_hostkey(l->t);
	else if (l->sid_hostkey_set && l->sid_hostkey < l->nhostkeys)
		mine = l->hostkeys[l->sid_hostkey];
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

/*
 * A security key's signature says whether the user touched the key and
 * whether the authenticator verified them (PIN or biometrics).
 * PubkeyAuthOptions and the key's options (authorized_keys
 * no-touch-required and verify-required, or the certificate's) say
 * which of the two this login needs. 1 (logged as OpenSSH does) when a
 * needed one is missing.
 */
static int
sk_refused(const struct authority_local *l, const struct key *subj,
    int is_cert, const struct authopts *o, const struct key_sig_details *det)
{
	int pko = l->sc->pubkey_auth_options;
	char *fp;
	const char *what = NULL;

	if (!det->is_sk)
		return 0;
	log_debug("userauth_pubkey: sk_counter = %u, sk_flags = 0x%02x",
	    det->sk_counter, det->sk_flags);
	if (((pko & SC_PKOPT_TOUCH) || !o->no_touch_required) &&
	    (det->sk_flags & KEY_SK_USER_PRESENT) == 0)
		what = "user presence (authenticator touch) requirement";
	else if (((pko & SC_PKOPT_VERIFY) || o->verify_required) &&
	    (det->sk_flags & KEY_SK_USER_VERIFIED) == 0)
		what = "user verification requirement";
	if (what == NULL)
		return 0;
	fp = key_fingerprint(subj, (enum key_fp_hash)l->sc->fingerprint_hash);
	/* OpenSSH's line, trailing blank included. */
	log_error("public key %s%s %s signature for %s%s from %.128s port %d "
	    "rejected: %s not met ", auth_key_short_name(subj),
	    is_cert ? "-CERT" : "", fp ? fp : "?", l->valid ? "" :
	    "invalid user ", l->user, l->conn.remote_addr,
	    l->conn.remote_port, what);
	x_free(fp);
	return 1;
}

/*
 * The offered key or certificate; the signature algorithm in *sigalgp.
 * The caller logged why a blob would not do: refuse in silence.
 */
static int
pubkey_decode(const struct authority_pubkey_req *q, struct key **keyp,
    struct key_cert **certp, const char **sigalgp)
{
	if ((*sigalgp = cert_sigalg_base(q->alg)) != NULL) {
		if (cert_from_blob(q->blob, q->bloblen, certp) != 0 ||
		    !cert_sigalg_matches(*certp, q->alg))
			return ERR_KEY_INVALID;
		return 0;
	}
	*sigalgp = q->alg;
	if (key_from_blob(q->blob, q->bloblen, keyp) != 0 ||
	    key_sigalg_matches(*keyp, q->alg) != 1)
		return ERR_KEY_INVALID;
	return 0;
}

int
authority_local_pubkey_check(void *impl, const struct authority_pubkey_req *q,
    int *okp, struct authopts **optsp)
{
	struct authority_local *l = impl;
	const struct auth_conn *c = &l->conn;
	struct key *key = NULL, *subj;
	struct key_cert *cert = NULL;
	struct authopts *opts = NULL;
	struct key_sig_details det;
	const char *sigalg;
	int r;

	if ((r = authority_local_user_is(l, q->user)) != 0)
		return r;
	if (pubkey_decode(q, &key, &cert, &sigalg) != 0)
		goto out;
	subj = cert != NULL ? cert->key : key;
	if (l->sc->pubkey_accepted_algorithms == NULL ||
	    match_pattern_list(q->alg, l->sc->pubkey_accepted_algorithms,
	    0) != 1) {
		log_verbose("userauth_pubkey: signature algorithm %s not in "
		    "PubkeyAcceptedAlgorithms", q->alg);
		goto out;
	}
	if (cert != NULL && (l->sc->ca_signature_algorithms == NULL ||
	    cert->sig_alg == NULL || match_pattern_list(cert->sig_alg,
	    l->sc->ca_signature_algorithms, 0) != 1)) {
		log_info("userauth_pubkey: certificate signature algorithm "
		    "%s: signature algorithm not supported",
		    cert->sig_alg != NULL ? cert->sig_alg : "(null)");
		goto out;
	}
	if (subj->type == KEY_RSA &&
	    key_bits(subj) < (unsigned int)l->sc->required_rsa_size) {
		/* OpenSSH's line, with sshkey_type()'s name. */
		log_info("refusing %s key: Invalid key length",
		    cert != NULL ? "RSA-CERT" : "RSA");
		goto out;
	}
	if (auth_key_revoked(l->sc, subj, cert) || !l->valid)
		goto out;
	if (cert != NULL ? auth_cert_allowed(l->sc, l->pw, c, cert,
	    &opts) != 0 : authkeys_find(l->sc, l->pw, key, c->remote_host,
	    c->remote_addr, &opts) != 0)
		goto out;
	if (q->hostkey != NULL &&
	    !is_session_hostkey(l, q->hostkey, q->hostkeylen)) {
		log_error("userauth_pubkey: %s packet contained wrong host key",
		    AUTH_HOSTBOUND_METHOD);
		goto out;
	}
	if (q->has_sig && pubkey_verify(l, q, subj, sigalg, &det) != 0) {
		log_debug("userauth_pubkey: signature did not verify");
		goto out;
	}
	if (q->has_sig && sk_refused(l, subj, cert != NULL, opts, &det))
		goto out;
	*optsp = opts;
	opts = NULL;
	*okp = 1;
 out:
	authopts_free(opts);
	key_free(key);
	cert_free(cert);
	return r;
}

char *
hostbased_canonical_name(const char *addr, int use_dns)
{
	struct addrinfo hints, *ai = NULL, *a;
	char name[NI_MAXHOST], back[NI_MAXHOST], *p;
	int ok = 0;

	if (!use_dns)
		return x_strdup(addr);
	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_NUMERICHOST;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(addr, NULL, &hints, &ai) != 0)
		return x_strdup(addr);
	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, name, sizeof(name),
	    NULL, 0, NI_NAMEREQD) != 0) {
		freeaddrinfo(ai);
		return x_strdup(addr);
	}
	freeaddrinfo(ai);
	ai = NULL;
	/* A PTR record that looks like an address is a lie. */
	if (getaddrinfo(name, NULL, &hints, &ai) == 0) {
		log_error("Nasty PTR record \"%s\" is set up for %s, ignoring",
		    name, addr);
		freeaddrinfo(ai);
		return x_strdup(addr);
	}
	for (p = name; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	/* The name must lead back to the address. */
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	ai = NULL;
	if (getaddrinfo(name, NULL, &hints, &ai) == 0) {
		for (a = ai; a != NULL && !ok; a = a->ai_next)
			ok = getnameinfo(a->ai_addr, a->ai_addrlen, back,
			    sizeof(back), NULL, 0, NI_NUMERICHOST) == 0 &&
			    strcmp(back, addr) == 0;
		freeaddrinfo(ai);
	}
	if (!ok) {
		log_info("Address %s maps to %s, but this does not map back "
		    "to the address.", addr, name);
		return x_strdup(addr);
	}
	return x_strdup(name);
}

/*
 * Whether the client host and user may log in as l's user with key
 * (OpenSSH's hostbased_key_allowed). chost has no trailing dot.
 */
static int
hb_allowed(const struct authority_local *l, const struct key *key,
    const char *chost, const char *cuser)
{
	const struct auth_conn *c = &l->conn;
	struct rhosts_query q;
	char *resolved = NULL, *fp;
	const char *lookup;
	int ok = 0;

	if (l->sc->use_dns && c->remote_host != NULL &&
	    strcmp(c->remote_host, c->remote_addr) != 0)
		resolved = x_strdup(c->remote_host);	/* already resolved */
	else
		resolved = hostbased_canonical_name(c->remote_addr,
		    l->sc->use_dns);
	log_debug2("hostbased_key_allowed: chost %s resolvedname %s ipaddr "
	    "%s", chost, resolved, c->remote_addr);
	memset(&q, 0, sizeof(q));
	q.client_user = cuser;
	q.server_user = l->pw->pw_name;
	if (l->sc->hostbased_uses_name_from_packet_only) {
		q.host = q.addr = lookup = chost;
		if (!hostbased_rhosts_ok(l->sc, l->pw, &q,
		    &hostbased_system_paths)) {
			log_debug2("hostbased_key_allowed: auth_rhosts2 refused "
			    "user \"%s\" host \"%s\" (from packet)", cuser,
			    chost);
			goto out;
		}
	} else {
		if (strcasecmp(resolved, chost) != 0)
			log_info("userauth_hostbased mismatch: client sends "
			    "%s, but we resolve %s to %s", chost,
			    c->remote_addr, resolved);
		q.host = lookup = resolved;
		q.addr = c->remote_addr;
		if (!hostbased_rhosts_ok(l->sc, l->pw, &q,
		    &hostbased_system_paths)) {
			log_debug2("hostbased_key_allowed: auth_rhosts2 refused "
			    "user \"%s\" host \"%s\" addr \"%s\"", cuser,
			    resolved, c->remote_addr);
			goto out;
		}
	}
	log_debug2("hostbased_key_allowed: access allowed by auth_rhosts2");
	if (!hostbased_key_known(l->sc, l->pw, key, lookup,
	    &hostbased_system_paths))
		goto out;
	fp = key_fingerprint(key, (enum key_fp_hash)l->sc->fingerprint_hash);
	log_verbose("Accepted %s public key %s from %s@%s",
	    auth_key_short_name(key), fp ? fp : "?", cuser, lookup);
	x_free(fp);
	ok = 1;
 out:
	x_free(resolved);
	return ok;
}

/* The client host's signature over what it must cover. */
static int
hb_verify(const struct authority_local *l,
    const struct authority_hostbased_req *q, const struct key *key)
{
	struct sbuf *d = sbuf_new();
	int r;

	if ((r = signed_head(l, q->service, "hostbased", d)) == 0 &&
	    (r = sbuf_put_cstring(d, q->alg)) == 0 &&
	    (r = sbuf_put_string(d, q->blob, q->bloblen)) == 0 &&
	    (r = sbuf_put_cstring(d, q->chost)) == 0 &&
	    (r = sbuf_put_cstring(d, q->cuser)) == 0)
		r = key_verify(key, q->sig, q->siglen, sbuf_ptr(d),
		    sbuf_len(d), q->alg);
	sbuf_free(d);
	return r;
}

int
authority_local_hostbased_check(void *impl,
    const struct authority_hostbased_req *q, int *okp)
{
	struct authority_local *l = impl;
	struct key *key = NULL;
	char *host = NULL;
	int r;

	if ((r = authority_local_user_is(l, q->user)) != 0)
		return r;
	if (key_from_blob(q->blob, q->bloblen, &key) != 0 ||
	    key_sigalg_matches(key, q->alg) != 1)
		goto out;
	if (l->sc->hostbased_accepted_algorithms == NULL ||
	    match_pattern_list(q->alg, l->sc->hostbased_accepted_algorithms,
	    0) != 1) {
		log_info("userauth_hostbased: signature algorithm %s not in "
		    "HostbasedAcceptedAlgorithms", q->alg);
		goto out;
	}
	if (key->type == KEY_RSA &&
	    key_bits(key) < (unsigned int)l->sc->required_rsa_size) {
		log_verbose("userauth_hostbased: refusing RSA key: Invalid "
		    "key length (%u bits)", key_bits(key));
		goto out;
	}
	if (!l->valid) {
		log_debug2("userauth_hostbased: disabled because of invalid "
		    "user");
		goto out;
	}
	if (hb_verify(l, q, key) != 0) {
		log_debug("userauth_hostbased: signature did not verify");
		goto out;
	}
	host = hostbased_clean_name(q->chost);
	*okp = hb_allowed(l, key, host, q->cuser);
 out:
	x_free(host);
	key_free(key);
	return r;
}
