/*
 * keyconv.c: SSH public keys out of what a token holds: an RSA modulus
 * and exponent, an EC curve (a DER object identifier) and point (a DER
 * OCTET STRING around the uncompressed point, or the bare point, as
 * some modules return it), or an X.509 certificate. The blob is built
 * here and then parsed by key_from_blob(), which checks it as any key
 * from outside (sizes, the point on the curve).
 */
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

#include "err.h"
#include "helper.h"
#include "mem.h"

static int
blob_to_key(struct sbuf *blob, struct key **kp)
{
	int r = key_from_blob(sbuf_ptr(blob), sbuf_len(blob), kp);

	sbuf_free(blob);
	return r;
}

int
p11h_rsa_key(const unsigned char *n, size_t nlen, const unsigned char *e,
    size_t elen, struct key **kp)
{
	struct sbuf *b = sbuf_new();
	int r;

	*kp = NULL;
	if (nlen == 0 || elen == 0 || nlen > 2048 || elen > 64) {
		sbuf_free(b);
		return ERR_KEY_INVALID;
	}
	if ((r = sbuf_put_cstring(b, "ssh-rsa")) != 0 ||
	    (r = sbuf_put_mpint_bytes(b, e, elen)) != 0 ||
	    (r = sbuf_put_mpint_bytes(b, n, nlen)) != 0) {
		sbuf_free(b);
		return r;
	}
	return blob_to_key(b, kp);
}

static const struct {
	int nid;
	const char *curve, *type;
} curves[] = {
	{ NID_X9_62_prime256v1, "nistp256", "ecdsa-sha2-nistp256" },
	{ NID_secp384r1, "nistp384", "ecdsa-sha2-nistp384" },
	{ NID_secp521r1, "nistp521", "ecdsa-sha2-nistp521" },
};

static int
ec_blob(int nid, const unsigned char *pt, size_t ptlen, struct key **kp)
{
	struct sbuf *b;
	size_t i;
	int r;

	for (i = 0; i < sizeof(curves) / sizeof(curves[0]); i++)
		if (curves[i].nid == nid)
			break;
	if (i == sizeof(curves) / sizeof(curves[0]))
		return ERR_KEY_TYPE_UNKNOWN;
	b = sbuf_new();
	if ((r = sbuf_put_cstring(b, curves[i].type)) != 0 ||
	    (r = sbuf_put_cstring(b, curves[i].curve)) != 0 ||
	    (r = sbuf_put_string(b, pt, ptlen)) != 0) {
		sbuf_free(b);
		return r;
	}
	return blob_to_key(b, kp);
}

int
p11h_ec_key(const unsigned char *params, size_t plen,
    const unsigned char *point, size_t ptlen, struct key **kp)
{
	const unsigned char *p = params;
	ASN1_OBJECT *obj = NULL;
	ASN1_OCTET_STRING *os = NULL;
	int nid, r;

	*kp = NULL;
	if (plen > 64 || ptlen > 1024 ||
	    d2i_ASN1_OBJECT(&obj, &p, (long)plen) == NULL)
		return ERR_KEY_INVALID;
	nid = OBJ_obj2nid(obj);
	ASN1_OBJECT_free(obj);
	if (p != params + plen)
		return ERR_KEY_INVALID;
	/* The standard's form first: DER OCTET STRING around the point. */
	p = point;
	if (ptlen > 0 && point[0] == V_ASN1_OCTET_STRING &&
	    d2i_ASN1_OCTET_STRING(&os, &p, (long)ptlen) != NULL &&
	    p == point + ptlen) {
		r = ec_blob(nid, ASN1_STRING_get0_data(os),
		    (size_t)ASN1_STRING_length(os), kp);
		ASN1_OCTET_STRING_free(os);
		return r;
	}
	ASN1_OCTET_STRING_free(os);
	return ec_blob(nid, point, ptlen, kp);
}

static int
x509_rsa(EVP_PKEY *pk, struct key **kp)
{
	BIGNUM *n = NULL, *e = NULL;
	unsigned char nb[2048], eb[64];
	int nl, el, r = ERR_KEY_INVALID;

	if (EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_RSA_N, &n) == 1 &&
	    EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_RSA_E, &e) == 1 &&
	    BN_num_bytes(n) <= (int)sizeof(nb) &&
	    BN_num_bytes(e) <= (int)sizeof(eb)) {
		nl = BN_bn2bin(n, nb);
		el = BN_bn2bin(e, eb);
		r = p11h_rsa_key(nb, (size_t)nl, eb, (size_t)el, kp);
	}
	BN_free(n);
	BN_free(e);
	return r;
}

static int
x509_ec(EVP_PKEY *pk, struct key **kp)
{
	char group[64];
	unsigned char pt[256];
	size_t ptlen = 0;
	int nid;

	if (EVP_PKEY_get_utf8_string_param(pk, OSSL_PKEY_PARAM_GROUP_NAME,
	    group, sizeof(group), NULL) != 1 ||
	    EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY,
	    pt, sizeof(pt), &ptlen) != 1)
		return ERR_KEY_INVALID;
	if ((nid = OBJ_sn2nid(group)) == NID_undef)
		nid = OBJ_txt2nid(group);
	return ec_blob(nid, pt, ptlen, kp);
}

int
p11h_x509_key(const unsigned char *der, size_t len, struct key **kp)
{
	const unsigned char *p = der;
	X509 *x;
	EVP_PKEY *pk;
	int r = ERR_KEY_TYPE_UNKNOWN;

	*kp = NULL;
	if ((x = d2i_X509(NULL, &p, (long)len)) == NULL)
		return ERR_KEY_INVALID;
	if ((pk = X509_get0_pubkey(x)) != NULL) {
		if (EVP_PKEY_get_base_id(pk) == EVP_PKEY_RSA)
			r = x509_rsa(pk, kp);
		else if (EVP_PKEY_get_base_id(pk) == EVP_PKEY_EC)
			r = x509_ec(pk, kp);
	}
	X509_free(x);
	return r;
}

int
p11h_ecdsa_sig(const unsigned char *rs, size_t len, size_t flen,
    struct sbuf *out)
{
	struct sbuf *inner;
	int r;

	if (flen == 0 || len != 2 * flen)
		return ERR_SIGNATURE_INVALID;
	inner = sbuf_new();
	if ((r = sbuf_put_mpint_bytes(inner, rs, flen)) == 0 &&
	    (r = sbuf_put_mpint_bytes(inner, rs + flen, flen)) == 0)
		r = sbuf_put_stringb(out, inner);
	sbuf_free(inner);
	return r;
}
