/*
 * sign.c: a signature by a token key, returned in SSH's form.
 *
 * RSA: the module pads (CKM_RSA_PKCS), so it is given the DigestInfo:
 * the DER prefix naming the hash (RFC 8017 section 9.2, note 1) and the
 * digest of the data; SHA-512, SHA-256 or SHA-1 by the caller's flags,
 * for "rsa-sha2-512", "rsa-sha2-256" or "ssh-rsa". A signature shorter
 * than the modulus is padded with leading zeros, as SSH wants it.
 *
 * ECDSA: the module signs the digest (CKM_ECDSA; SHA-256/384/512 by the
 * curve, RFC 5656) and returns r || s, each as long as the field; SSH
 * wants them as two mpints inside a string.
 */
#include <string.h>

#include <openssl/evp.h>
#include <openssl/objects.h>

#include "err.h"
#include "helper.h"
#include "log.h"
#include "mem.h"
#include "p11_client.h"

#define MAX_SIG	1024			/* an RSA-8192 signature */

static const unsigned char di_sha1[] = {
	0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a,
	0x05, 0x00, 0x04, 0x14,
};
static const unsigned char di_sha256[] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
};
static const unsigned char di_sha512[] = {
	0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40,
};

/* The private key object with the public key's CKA_ID. */
static int
find_private(struct p11h *h, struct p11h_key *k, CK_OBJECT_HANDLE *objp)
{
	CK_SESSION_HANDLE sess = h->slots[k->slot].sess;
	CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
	CK_BBOOL yes = CK_TRUE;
	CK_ATTRIBUTE t[3] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_SIGN, &yes, sizeof(yes) },
		{ CKA_ID, k->ckid, k->ckidlen },
	};
	CK_ULONG n = 0;
	CK_RV rv;

	if (k->ckid == NULL || k->ckidlen == 0)
		return ERR_NOT_FOUND;
	if ((rv = h->f->C_FindObjectsInit(sess, t, 3)) != CKR_OK) {
		log_error("C_FindObjectsInit failed: %lu", rv);
		return ERR_NOT_FOUND;
	}
	rv = h->f->C_FindObjects(sess, objp, 1, &n);
	(void)h->f->C_FindObjectsFinal(sess);
	if (rv != CKR_OK || n != 1) {
		log_error("no private key for the key with label '%s'",
		    k->label);
		return ERR_NOT_FOUND;
	}
	return 0;
}

static int
digest(const EVP_MD *md, const unsigned char *data, size_t dlen,
    unsigned char *out, unsigned int *olen)
{
	return EVP_Digest(data, dlen, out, olen, md, NULL) == 1 ? 0 :
	    ERR_LIBCRYPTO;
}

static int
raw_sign(struct p11h *h, struct p11h_key *k, CK_MECHANISM_TYPE mech,
    const unsigned char *in, size_t inlen, unsigned char *sig,
    CK_ULONG *siglen)
{
	CK_SESSION_HANDLE sess = h->slots[k->slot].sess;
	CK_MECHANISM m = { mech, NULL, 0 };
	CK_OBJECT_HANDLE obj;
	CK_RV rv;
	int r;

	if ((r = find_private(h, k, &obj)) != 0)
		return r;
	if ((rv = h->f->C_SignInit(sess, &m, obj)) != CKR_OK) {
		log_error("C_SignInit failed: %lu", rv);
		return ERR_LIBCRYPTO;
	}
	*siglen = MAX_SIG;
	if ((rv = h->f->C_Sign(sess, (CK_BYTE *)in, (CK_ULONG)inlen, sig,
	    siglen)) != CKR_OK) {
		log_error("C_Sign failed: %lu", rv);
		return ERR_LIBCRYPTO;
	}
	if (*siglen > MAX_SIG)
		return ERR_SIGNATURE_INVALID;
	return 0;
}

static int
sign_rsa(struct p11h *h, struct p11h_key *k, const unsigned char *data,
    size_t dlen, unsigned int flags, struct sbuf *out)
{
	unsigned char in[sizeof(di_sha512) + EVP_MAX_MD_SIZE];
	unsigned char sig[MAX_SIG], padded[MAX_SIG];
	const unsigned char *prefix;
	const EVP_MD *md;
	const char *alg;
	size_t plen, modlen = (key_bits(k->pub) + 7) / 8;
	unsigned int mdlen;
	CK_ULONG siglen;
	int r;

	if (flags & P11_RSA_SHA2_512) {
		md = EVP_sha512(), prefix = di_sha512;
		plen = sizeof(di_sha512), alg = "rsa-sha2-512";
	} else if (flags & P11_RSA_SHA2_256) {
		md = EVP_sha256(), prefix = di_sha256;
		plen = sizeof(di_sha256), alg = "rsa-sha2-256";
	} else {
		md = EVP_sha1(), prefix = di_sha1;
		plen = sizeof(di_sha1), alg = "ssh-rsa";
	}
	memcpy(in, prefix, plen);
	if ((r = digest(md, data, dlen, in + plen, &mdlen)) != 0 ||
	    (r = raw_sign(h, k, CKM_RSA_PKCS, in, plen + mdlen, sig,
	    &siglen)) != 0)
		return r;
	if (siglen == 0 || siglen > modlen || modlen > sizeof(padded))
		return ERR_SIGNATURE_INVALID;
	memset(padded, 0, modlen - siglen);
	memcpy(padded + (modlen - siglen), sig, siglen);
	if ((r = sbuf_put_cstring(out, alg)) != 0 ||
	    (r = sbuf_put_string(out, padded, modlen)) != 0)
		return r;
	return 0;
}

static int
sign_ecdsa(struct p11h *h, struct p11h_key *k, const unsigned char *data,
    size_t dlen, struct sbuf *out)
{
	unsigned char dg[EVP_MAX_MD_SIZE], sig[MAX_SIG];
	const EVP_MD *md;
	unsigned int mdlen;
	size_t flen;
	CK_ULONG siglen;
	int r;

	switch (k->pub->ecdsa_nid) {
	case NID_X9_62_prime256v1: md = EVP_sha256(); flen = 32; break;
	case NID_secp384r1: md = EVP_sha384(); flen = 48; break;
	case NID_secp521r1: md = EVP_sha512(); flen = 66; break;
	default: return ERR_KEY_TYPE_UNKNOWN;
	}
	if ((r = digest(md, data, dlen, dg, &mdlen)) != 0 ||
	    (r = raw_sign(h, k, CKM_ECDSA, dg, mdlen, sig, &siglen)) != 0)
		return r;
	if ((r = sbuf_put_cstring(out, key_type_name(k->pub))) != 0 ||
	    (r = p11h_ecdsa_sig(sig, siglen, flen, out)) != 0)
		return r;
	return 0;
}

int
p11h_sign(struct p11h *h, struct p11h_key *k, const unsigned char *data,
    size_t dlen, unsigned int flags, struct sbuf *sig)
{
	struct p11h_slot *s = &h->slots[k->slot];

	if (s->login_required && !s->logged_in)
		return ERR_PERMISSION_DENIED;
	if (k->pub->type == KEY_RSA)
		return sign_rsa(h, k, data, dlen, flags, sig);
	if (k->pub->type == KEY_ECDSA)
		return sign_ecdsa(h, k, data, dlen, sig);
	return ERR_KEY_TYPE_UNKNOWN;
}
