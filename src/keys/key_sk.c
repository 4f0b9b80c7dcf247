/*
 * key_sk.c: checking the signatures of FIDO security keys
 * (PROTOCOL.u2f).
 *
 * An authenticator does not sign the message itself. It signs
 *
 *	SHA-256(application) || flags || uint32 counter || extensions ||
 *	SHA-256(message)
 *
 * (Ed25519 over those bytes, ECDSA P-256 over their SHA-256), and the
 * SSH signature blob carries the flags and counter after the inner
 * signature so the verifier can rebuild them:
 *
 *	string alg, string signature, byte flags, uint32 counter
 *
 * The extensions are empty except in the webauthn form
 * ("webauthn-sk-ecdsa-sha2-nistp256@openssh.com"), made through a web
 * browser, which appends string origin, string clientData, string
 * extensions. There the "message" is the browser's clientData JSON,
 * which must begin with the fixed preamble naming the type, the
 * challenge (the base64url of the real message) and the origin; the
 * origin may hold no quote and the flags must agree with the presence
 * of extensions. The preamble is compared byte for byte, so no JSON is
 * parsed.
 *
 * The flags and counter are returned to the caller, who decides whether
 * user presence or verification was needed.
 */
#include <string.h>

#include <openssl/evp.h>

#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

#define SK_HASH_LEN		32
#define SK_ED25519_SIG_LEN	64
#define SK_FLAG_AT		0x40	/* attested credential data */
#define SK_FLAG_ED		0x80	/* extension data present */
#define SK_MAX_FIELD		(64 * 1024)	/* origin, clientData, exts */
#define WEBAUTHN_ALG		"webauthn-sk-ecdsa-sha2-nistp256@openssh.com"

/* The webauthn signature's extra fields. */
struct webauthn {
	char *origin;
	const unsigned char *client;
	size_t clientlen;
	const unsigned char *exts;
	size_t extslen;
};

static int
sha256(const void *p, size_t len, unsigned char out[SK_HASH_LEN])
{
	return EVP_Digest(p, len, out, NULL, EVP_sha256(), NULL) == 1 ? 0 :
	    ERR_LIBCRYPTO;
}

/* base64url without padding (RFC 4648 section 5) of data, into out. */
static int
put_b64url(struct sbuf *out, const unsigned char *data, size_t dlen)
{
	struct sbuf *in = sbuf_from(data, dlen);
	char *t, *c;
	int r;

	if (in == NULL)
		return ERR_ALLOC;
	if ((t = sbuf_to_b64(in, 0)) == NULL) {
		sbuf_free(in);
		return ERR_ALLOC;
	}
	for (c = t; *c != '\0' && *c != '='; c++) {
		if (*c == '+')
			*c = '-';
		else if (*c == '/')
			*c = '_';
	}
	r = sbuf_put(out, t, (size_t)(c - t));
	x_free(t);
	sbuf_free(in);
	return r;
}

/*
 * The hash a webauthn signature stands in for SHA-256(message): that of
 * the clientData, once its preamble is found to name this message.
 */
static int
webauthn_hash(const struct webauthn *w, unsigned char flags,
    const unsigned char *data, size_t dlen, unsigned char out[SK_HASH_LEN])
{
	static const char pre0[] = "{\"type\":\"webauthn.get\",\"challenge\":\"";
	static const char pre1[] = "\",\"origin\":\"";
	struct sbuf *m = sbuf_new();
	int r;

	if (strchr(w->origin, '"') != NULL || (flags & SK_FLAG_AT) != 0 ||
	    ((flags & SK_FLAG_ED) != 0) != (w->extslen != 0)) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if ((r = sbuf_put(m, pre0, sizeof(pre0) - 1)) != 0 ||
	    (r = put_b64url(m, data, dlen)) != 0 ||
	    (r = sbuf_put(m, pre1, sizeof(pre1) - 1)) != 0 ||
	    (r = sbuf_put(m, w->origin, strlen(w->origin))) != 0 ||
	    (r = sbuf_put(m, "\"", 1)) != 0)
		goto out;
	if (w->clientlen < sbuf_len(m) ||
	    memcmp(w->client, sbuf_ptr(m), sbuf_len(m)) != 0) {
		r = ERR_SIGNATURE_INVALID;
		goto out;
	}
	r = sha256(w->client, w->clientlen, out);
 out:
	sbuf_free(m);
	return r;
}

/* What the authenticator signed, into d. */
static int
signed_bytes(const struct key *k, unsigned char flags, uint32_t counter,
    const struct webauthn *w, const unsigned char *data, size_t dlen,
    struct sbuf *d)
{
	unsigned char apphash[SK_HASH_LEN], msghash[SK_HASH_LEN];
	int r;

	if (w != NULL)
		r = webauthn_hash(w, flags, data, dlen, msghash);
	else
		r = sha256(data, dlen, msghash);
	if (r != 0 || (r = sha256(k->sk_application,
	    strlen(k->sk_application), apphash)) != 0)
		return r;
	if ((r = sbuf_put(d, apphash, sizeof(apphash))) != 0 ||
	    (r = sbuf_put_u8(d, flags)) != 0 ||
	    (r = sbuf_put_u32(d, counter)) != 0 ||
	    (w != NULL && w->extslen > 0 &&
	    (r = sbuf_put(d, w->exts, w->extslen)) != 0) ||
	    (r = sbuf_put(d, msghash, sizeof(msghash))) != 0)
		return r;
	return 0;
}

int
key_sk_verify(const struct key *k, const char *sigalg, struct sbuf *b,
    const unsigned char *data, size_t dlen, struct key_sig_details *det)
{
	struct webauthn wa, *w = NULL;
	struct sbuf *d = NULL;
	const unsigned char *raw;
	unsigned char flags, *der = NULL;
	uint32_t counter;
	size_t rawlen, derlen = 0;
	int r;

	memset(&wa, 0, sizeof(wa));
	if (!key_is_sk(k) || k->sk_application == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((r = sbuf_get_string_direct(b, &raw, &rawlen)) != 0 ||
	    (r = sbuf_get_u8(b, &flags)) != 0 ||
	    (r = sbuf_get_u32(b, &counter)) != 0)
		goto out;
	if (k->type == KEY_ECDSA_SK && strcmp(sigalg, WEBAUTHN_ALG) == 0) {
		w = &wa;
		if ((r = sbuf_get_cstring(b, &w->origin, NULL)) != 0 ||
		    (r = sbuf_get_string_direct(b, &w->client,
		    &w->clientlen)) != 0 ||
		    (r = sbuf_get_string_direct(b, &w->exts,
		    &w->extslen)) != 0)
			goto out;
		if (strlen(w->origin) > SK_MAX_FIELD ||
		    w->clientlen > SK_MAX_FIELD || w->extslen > SK_MAX_FIELD) {
			r = ERR_INVALID_FORMAT;
			goto out;
		}
	}
	if (sbuf_len(b) != 0) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if (k->type == KEY_ED25519_SK && rawlen != SK_ED25519_SIG_LEN) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if (k->type == KEY_ECDSA_SK &&
	    (r = key_ecdsa_sig_to_der(raw, rawlen, &der, &derlen)) != 0)
		goto out;
	d = sbuf_new();
	if ((r = signed_bytes(k, flags, counter, w, data, dlen, d)) != 0)
		goto out;
	if (k->type == KEY_ED25519_SK)
		r = key_raw_verify(k, NULL, raw, rawlen, sbuf_ptr(d),
		    sbuf_len(d));
	else
		r = key_raw_verify(k, EVP_sha256(), der, derlen, sbuf_ptr(d),
		    sbuf_len(d));
	if (r == 0 && det != NULL) {
		det->is_sk = 1;
		det->sk_flags = flags;
		det->sk_counter = counter;
	}
 out:
	OPENSSL_free(der);
	sbuf_free(d);
	x_free(wa.origin);
	return r;
}
