/*
 * key_priv.c: the private key body of each key type, as PROTOCOL.key's
 * openssh-key-v1 files and the agent protocol's add-identity messages
 * carry it: string type, then the type's public and private fields.
 * After a certificate, the agent protocol carries only the fields that
 * follow the public ones (key_private_cert_fields_to_sbuf). Keys read
 * here are built through the same libcrypto import as public blobs
 * (key.c).
 *
 * A security key's body (PROTOCOL.u2f) is its public fields, the
 * application among them, then byte flags, string key handle, string
 * reserved: the secret stays in the authenticator.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/obj_mac.h>

#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

static int
ed25519_private_from_sbuf(struct sbuf *b, EVP_PKEY **pkeyp)
{
	const unsigned char *pk, *sk;
	unsigned char derived[ED25519_PK_LEN];
	size_t pklen, sklen, dlen = sizeof(derived);
	EVP_PKEY *pkey;
	int r;

	*pkeyp = NULL;
	if ((r = sbuf_get_string_direct(b, &pk, &pklen)) != 0 ||
	    (r = sbuf_get_string_direct(b, &sk, &sklen)) != 0)
		return r;
	if (pklen != ED25519_PK_LEN || sklen != ED25519_SK_LEN ||
	    memcmp(sk + 32, pk, ED25519_PK_LEN) != 0)
		return ERR_KEY_INVALID;
	if ((pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL,
	    sk, 32)) == NULL)
		return ERR_KEY_INVALID;
	if (!EVP_PKEY_get_raw_public_key(pkey, derived, &dlen) ||
	    dlen != ED25519_PK_LEN ||
	    memcmp(derived, pk, ED25519_PK_LEN) != 0) {
		EVP_PKEY_free(pkey);
		return ERR_KEY_INVALID;
	}
	*pkeyp = pkey;
	return 0;
}

static int
ecdsa_private_from_sbuf(const struct keytype *kt, struct sbuf *b,
    EVP_PKEY **pkeyp)
{
	const unsigned char *q;
	size_t qlen;
	char *curve = NULL;
	BIGNUM *d = NULL;
	int r;

	if ((r = sbuf_get_cstring(b, &curve, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(b, &q, &qlen)) != 0 ||
	    (r = sbuf_get_bignum(b, &d)) != 0)
		goto out;
	if (strcmp(curve, kt->curve) != 0) {
		r = ERR_KEY_TYPE_MISMATCH;
		goto out;
	}
	r = key_ec_from_parts(kt, q, qlen, d, pkeyp);
 out:
	x_free(curve);
	BN_clear_free(d);
	return r;
}

static int
rsa_private_from_sbuf(struct sbuf *b, EVP_PKEY **pkeyp)
{
	BIGNUM *n = NULL, *e = NULL, *d = NULL, *iqmp = NULL, *p = NULL;
	BIGNUM *q = NULL;
	int r;

	if ((r = sbuf_get_bignum(b, &n)) != 0 ||
	    (r = sbuf_get_bignum(b, &e)) != 0 ||
	    (r = sbuf_get_bignum(b, &d)) != 0 ||
	    (r = sbuf_get_bignum(b, &iqmp)) != 0 ||
	    (r = sbuf_get_bignum(b, &p)) != 0 ||
	    (r = sbuf_get_bignum(b, &q)) != 0)
		goto out;
	if (BN_is_zero(p) || BN_is_zero(q) || BN_is_one(p) || BN_is_one(q)) {
		r = ERR_KEY_INVALID;
		goto out;
	}
	r = key_rsa_from_parts(n, e, d, iqmp, p, q, pkeyp);
 out:
	BN_free(n);
	BN_free(e);
	BN_clear_free(d);
	BN_clear_free(iqmp);
	BN_clear_free(p);
	BN_clear_free(q);
	return r;
}

#define SK_MAX_HANDLE	(64 * 1024)

/* The fields after a security key's public ones, into k. */
static int
sk_private_from_sbuf(struct sbuf *b, struct key *k)
{
	const unsigned char *kh, *res;
	size_t khlen, reslen;
	int r;

	if ((r = sbuf_get_u8(b, &k->sk_flags)) != 0 ||
	    (r = sbuf_get_string_direct(b, &kh, &khlen)) != 0 ||
	    (r = sbuf_get_string_direct(b, &res, &reslen)) != 0)
		return r;
	if (khlen > SK_MAX_HANDLE || reslen > SK_MAX_HANDLE)
		return ERR_KEY_INVALID;
	k->sk_key_handle = x_malloc(khlen + 1);
	if (khlen > 0)
		memcpy(k->sk_key_handle, kh, khlen);
	k->sk_key_handle_len = khlen;
	k->sk_reserved = x_malloc(reslen + 1);
	if (reslen > 0)
		memcpy(k->sk_reserved, res, reslen);
	k->sk_reserved_len = reslen;
	k->has_private = 1;
	return 0;
}

static int
sk_key_from_sbuf(const struct keytype *kt, struct sbuf *b, struct key **keyp)
{
	int r;

	if ((r = key_public_from_sbuf(kt, b, keyp)) != 0)
		return r;
	if ((r = sk_private_from_sbuf(b, *keyp)) != 0) {
		key_free(*keyp);
		*keyp = NULL;
	}
	return r;
}

int
key_sk_private_to_sbuf(const struct key *k, struct sbuf *b)
{
	int r;

	if (!key_is_sk(k) || k->sk_key_handle == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((r = sbuf_put_u8(b, k->sk_flags)) != 0 ||
	    (r = sbuf_put_string(b, k->sk_key_handle,
	    k->sk_key_handle_len)) != 0)
		return r;
	return sbuf_put_string(b, k->sk_reserved, k->sk_reserved_len);
}

int
key_private_from_sbuf(struct sbuf *b, struct key **keyp)
{
	const struct keytype *kt;
	char *name = NULL;
	EVP_PKEY *pkey = NULL;
	int r;

	*keyp = NULL;
	if ((r = sbuf_get_cstring(b, &name, NULL)) != 0)
		goto out;
	if ((kt = keytype_by_name(name)) == NULL) {
		r = ERR_KEY_TYPE_UNKNOWN;
		goto out;
	}
	if (kt->type == KEY_ED25519_SK || kt->type == KEY_ECDSA_SK) {
		r = sk_key_from_sbuf(kt, b, keyp);
		goto out;
	}
	switch (kt->type) {
	case KEY_ED25519:
		r = ed25519_private_from_sbuf(b, &pkey);
		break;
	case KEY_ECDSA:
		r = ecdsa_private_from_sbuf(kt, b, &pkey);
		break;
	case KEY_RSA:
		r = rsa_private_from_sbuf(b, &pkey);
		break;
	default:
		r = ERR_KEY_TYPE_UNKNOWN;
		break;
	}
	if (r != 0)
		goto out;
	if ((r = key_from_pkey(pkey, 1, keyp)) != 0)
		goto out;
	pkey = NULL;
 out:
	EVP_PKEY_free(pkey);
	x_free(name);
	return r;
}

static int
put_bn_param(const struct key *k, const char *param, struct sbuf *b)
{
	BIGNUM *bn = NULL;
	int r;

	if ((r = key_get_bn(k, param, &bn)) == 0)
		r = sbuf_put_bignum(b, bn);
	BN_clear_free(bn);
	return r;
}

/* Ed25519's two private-body strings: the public key, seed || public. */
static int
ed25519_private_to_sbuf(const struct key *k, struct sbuf *b)
{
	unsigned char sk[ED25519_SK_LEN];
	size_t len = 32;
	int r;

	r = ERR_LIBCRYPTO;
	if (!EVP_PKEY_get_raw_private_key(k->pkey, sk, &len) || len != 32)
		goto out;
	len = ED25519_PK_LEN;
	if (!EVP_PKEY_get_raw_public_key(k->pkey, sk + 32, &len) ||
	    len != ED25519_PK_LEN)
		goto out;
	if ((r = sbuf_put_string(b, sk + 32, ED25519_PK_LEN)) == 0)
		r = sbuf_put_string(b, sk, sizeof(sk));
 out:
	x_wipe(sk, sizeof(sk));
	return r;
}

/* RSA's secret numbers as both bodies carry them: d, iqmp, p, q. */
static int
rsa_secrets_to_sbuf(const struct key *k, struct sbuf *b)
{
	int r;

	if ((r = put_bn_param(k, OSSL_PKEY_PARAM_RSA_D, b)) != 0 ||
	    (r = put_bn_param(k, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, b)) != 0 ||
	    (r = put_bn_param(k, OSSL_PKEY_PARAM_RSA_FACTOR1, b)) != 0)
		return r;
	return put_bn_param(k, OSSL_PKEY_PARAM_RSA_FACTOR2, b);
}

int
key_private_to_sbuf(const struct key *k, struct sbuf *b)
{
	int r;

	if (keytype_of(k) == NULL || !k->has_private)
		return ERR_INVALID_ARGUMENT;
	if ((r = sbuf_put_cstring(b, key_type_name(k))) != 0)
		return r;
	switch (k->type) {
	case KEY_ED25519_SK:
	case KEY_ECDSA_SK:
		if ((r = key_public_fields_to_sbuf(k, b)) != 0)
			return r;
		return key_sk_private_to_sbuf(k, b);
	case KEY_ED25519:
		return ed25519_private_to_sbuf(k, b);
	case KEY_ECDSA:
		if ((r = key_public_fields_to_sbuf(k, b)) == 0)
			r = put_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, b);
		return r;
	default:
		if ((r = put_bn_param(k, OSSL_PKEY_PARAM_RSA_N, b)) != 0 ||
		    (r = put_bn_param(k, OSSL_PKEY_PARAM_RSA_E, b)) != 0)
			return r;
		return rsa_secrets_to_sbuf(k, b);
	}
}

int
key_private_cert_fields_to_sbuf(const struct key *k, struct sbuf *b)
{
	int r;

	if (keytype_of(k) == NULL || !k->has_private)
		return ERR_INVALID_ARGUMENT;
	switch (k->type) {
	case KEY_ED25519_SK:	/* string pk, string application */
		if ((r = key_public_fields_to_sbuf(k, b)) != 0)
			return r;
		return key_sk_private_to_sbuf(k, b);
	case KEY_ECDSA_SK:	/* the point is in the certificate alone */
		if ((r = sbuf_put_cstring(b, k->sk_application)) != 0)
			return r;
		return key_sk_private_to_sbuf(k, b);
	case KEY_ED25519:
		return ed25519_private_to_sbuf(k, b);
	case KEY_ECDSA:
		return put_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, b);
	default:
		return rsa_secrets_to_sbuf(k, b);
	}
}
