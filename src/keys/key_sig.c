/*
 * key_sig.c: making and checking signatures.
 *
 * A signature blob is string algorithm-name, string signature. The inner
 * signature is: the 64-byte Ed25519 signature (RFC 8709); for ECDSA
 * mpint r, mpint s (RFC 5656 section 3.1.2), which libcrypto wants as a
 * DER ECDSA-Sig-Value, so we convert both ways; for RSA the PKCS#1 v1.5
 * signature, as long as the modulus (RFC 8332; "ssh-rsa" is SHA-1).
 * The hash of each algorithm is its row in sigalgs[] (key.c).
 *
 * Verification is strict: the blob's algorithm must suit the key (and
 * equal the caller's, if given), nothing may trail the blob or the ECDSA
 * pair, and lengths must be exact. A shorter RSA signature is padded
 * with leading zeros as other implementations may strip them.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>

#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

#define ED25519_SIG_LEN	64

/* Raw signature of data with key k, hash md (NULL for ed25519). */
static int
evp_sign(const struct key *k, const EVP_MD *md, const unsigned char *data,
    size_t dlen, unsigned char **sigp, size_t *siglenp)
{
	EVP_MD_CTX *ctx = NULL;
	unsigned char *sig = NULL;
	size_t slen = 0;
	int r = ERR_LIBCRYPTO;

	*sigp = NULL;
	if ((ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestSignInit_ex(ctx, NULL, md == NULL ? NULL :
	    EVP_MD_get0_name(md), NULL, NULL, k->pkey, NULL) != 1 ||
	    EVP_DigestSign(ctx, NULL, &slen, data, dlen) != 1)
		goto out;
	sig = x_malloc(slen);
	if (EVP_DigestSign(ctx, sig, &slen, data, dlen) != 1)
		goto out;
	*sigp = sig;
	*siglenp = slen;
	sig = NULL;
	r = 0;
 out:
	x_free(sig);
	EVP_MD_CTX_free(ctx);
	return r;
}

static int
evp_verify(const struct key *k, const EVP_MD *md, const unsigned char *sig,
    size_t siglen, const unsigned char *data, size_t dlen)
{
	EVP_MD_CTX *ctx;
	int r = ERR_LIBCRYPTO, ok;

	if ((ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestVerifyInit_ex(ctx, NULL, md == NULL ? NULL :
	    EVP_MD_get0_name(md), NULL, NULL, k->pkey, NULL) != 1)
		goto out;
	ok = EVP_DigestVerify(ctx, sig, siglen, data, dlen);
	r = ok == 1 ? 0 : ERR_SIGNATURE_INVALID;
 out:
	EVP_MD_CTX_free(ctx);
	return r;
}

/* DER ECDSA-Sig-Value to mpint r, mpint s. */
static int
ecdsa_der_to_ssh(const unsigned char *der, size_t len, struct sbuf *out)
{
	const unsigned char *p = der;
	ECDSA_SIG *es;
	int r;

	if ((es = d2i_ECDSA_SIG(NULL, &p, (long)len)) == NULL)
		return ERR_LIBCRYPTO;
	if ((r = sbuf_put_bignum(out, ECDSA_SIG_get0_r(es))) == 0)
		r = sbuf_put_bignum(out, ECDSA_SIG_get0_s(es));
	ECDSA_SIG_free(es);
	return r;
}

/* mpint r, mpint s (nothing after) to DER. */
static int
ecdsa_ssh_to_der(const unsigned char *sig, size_t siglen,
    unsigned char **derp, size_t *lenp)
{
	struct sbuf *b;
	BIGNUM *br = NULL, *bs = NULL;
	ECDSA_SIG *es = NULL;
	unsigned char *der = NULL;
	int r, len;

	*derp = NULL;
	if ((b = sbuf_from(sig, siglen)) == NULL)
		return ERR_ALLOC;
	if ((r = sbuf_get_bignum(b, &br)) != 0 ||
	    (r = sbuf_get_bignum(b, &bs)) != 0)
		goto out;
	if (sbuf_len(b) != 0) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if ((es = ECDSA_SIG_new()) == NULL || !ECDSA_SIG_set0(es, br, bs)) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	br = bs = NULL;
	if ((len = i2d_ECDSA_SIG(es, &der)) <= 0) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	*derp = der;
	*lenp = (size_t)len;
	r = 0;
 out:
	BN_free(br);
	BN_free(bs);
	ECDSA_SIG_free(es);
	sbuf_free(b);
	return r;
}

static int
rsa_length_ok(const struct key *k)
{
	unsigned int bits = key_bits(k);

	return bits >= KEY_RSA_MIN_BITS && bits <= KEY_RSA_MAX_BITS;
}

int
key_sign(const struct key *k, const char *name,
    const unsigned char *data, size_t dlen, struct sbuf *out)
{
	const struct sigalg *sa;
	const EVP_MD *md;
	unsigned char *sig = NULL;
	size_t slen = 0;
	struct sbuf *inner = NULL;
	int r;

	if (k == NULL || k->pkey == NULL || !k->has_private)
		return ERR_INVALID_ARGUMENT;
	if (key_is_sk(k))
		return ERR_FEATURE_UNSUPPORTED;	/* the authenticator signs */
	if (name == NULL)
		name = k->type == KEY_RSA ? "rsa-sha2-512" : key_type_name(k);
	if ((sa = sigalg_by_name(name)) == NULL)
		return ERR_KEY_TYPE_UNKNOWN;
	if (!key_sigalg_matches(k, name))
		return ERR_KEY_TYPE_MISMATCH;
	if (k->type == KEY_RSA && !rsa_length_ok(k))
		return ERR_KEY_LENGTH;
	md = sa->md == NULL ? NULL : sa->md();
	if ((r = evp_sign(k, md, data, dlen, &sig, &slen)) != 0)
		goto out;
	if ((r = sbuf_put_cstring(out, sa->name)) != 0)
		goto out;
	if (k->type == KEY_ECDSA) {
		inner = sbuf_new();
		if ((r = ecdsa_der_to_ssh(sig, slen, inner)) == 0)
			r = sbuf_put_stringb(out, inner);
	} else
		r = sbuf_put_string(out, sig, slen);
 out:
	sbuf_free(inner);
	x_free(sig);
	return r;
}

int
key_sig_alg(const unsigned char *sig, size_t siglen, char **algp)
{
	struct sbuf *b;
	int r;

	*algp = NULL;
	if ((b = sbuf_from(sig, siglen)) == NULL)
		return ERR_ALLOC;
	r = sbuf_get_cstring(b, algp, NULL);
	sbuf_free(b);
	return r;
}

/* The checks on a plain (not security key) signature after its name. */
static int
verify_plain(const struct key *k, const struct sigalg *sa, struct sbuf *b,
    const unsigned char *data, size_t dlen)
{
	const unsigned char *raw;
	unsigned char *tmp = NULL;
	size_t rawlen, tmplen = 0, modlen;
	int r;

	if ((r = sbuf_get_string_direct(b, &raw, &rawlen)) != 0)
		return r;
	if (sbuf_len(b) != 0)
		return ERR_INVALID_FORMAT;
	switch (k->type) {
	case KEY_ED25519:
		if (rawlen != ED25519_SIG_LEN)
			return ERR_INVALID_FORMAT;
		return evp_verify(k, NULL, raw, rawlen, data, dlen);
	case KEY_ECDSA:
		if ((r = ecdsa_ssh_to_der(raw, rawlen, &tmp, &tmplen)) != 0)
			return r;
		r = evp_verify(k, sa->md(), tmp, tmplen, data, dlen);
		OPENSSL_free(tmp);
		return r;
	case KEY_RSA:
		modlen = (key_bits(k) + 7) / 8;
		if (rawlen == 0 || rawlen > modlen)
			return ERR_INVALID_FORMAT;
		if (rawlen < modlen) {
			tmp = x_calloc(1, modlen);
			memcpy(tmp + modlen - rawlen, raw, rawlen);
			raw = tmp;
			rawlen = modlen;
		}
		r = evp_verify(k, sa->md(), raw, rawlen, data, dlen);
		x_free(tmp);
		return r;
	default:
		return ERR_KEY_TYPE_UNKNOWN;
	}
}

int
key_verify(const struct key *k, const unsigned char *sig, size_t siglen,
    const unsigned char *data, size_t dlen, const char *want)
{
	return key_verify_details(k, sig, siglen, data, dlen, want, NULL);
}

int
key_verify_details(const struct key *k, const unsigned char *sig,
    size_t siglen, const unsigned char *data, size_t dlen, const char *want,
    struct key_sig_details *det)
{
	const struct sigalg *sa;
	struct sbuf *b = NULL;
	char *name = NULL;
	int r, ok;

	if (det != NULL)
		memset(det, 0, sizeof(*det));
	if (k == NULL || k->pkey == NULL || sig == NULL)
		return ERR_INVALID_ARGUMENT;
	if (k->type == KEY_RSA && !rsa_length_ok(k))
		return ERR_KEY_LENGTH;
	if ((b = sbuf_from(sig, siglen)) == NULL)
		return ERR_ALLOC;
	if ((r = sbuf_get_cstring(b, &name, NULL)) != 0)
		goto out;
	if ((sa = sigalg_by_name(name)) == NULL) {
		r = ERR_KEY_TYPE_UNKNOWN;
		goto out;
	}
	/*
	 * A security key's two ECDSA forms (plain and webauthn) stand for
	 * each other, as in OpenSSH; any other signature must carry the
	 * algorithm asked for.
	 */
	if (key_is_sk(k))
		ok = want == NULL || key_sigalg_matches(k, want);
	else
		ok = want == NULL || strcmp(want, name) == 0;
	if (!ok || !key_sigalg_matches(k, name)) {
		r = ERR_SIGNATURE_INVALID;
		goto out;
	}
	if (key_is_sk(k))
		r = key_sk_verify(k, name, b, data, dlen, det);
	else
		r = verify_plain(k, sa, b, data, dlen);
 out:
	x_free(name);
	sbuf_free(b);
	return r;
}

int
key_raw_verify(const struct key *k, const EVP_MD *md, const unsigned char *sig,
    size_t siglen, const unsigned char *data, size_t dlen)
{
	return evp_verify(k, md, sig, siglen, data, dlen);
}

int
key_ecdsa_sig_to_der(const unsigned char *sig, size_t siglen,
    unsigned char **derp, size_t *lenp)
{
	return ecdsa_ssh_to_der(sig, siglen, derp, lenp);
}
