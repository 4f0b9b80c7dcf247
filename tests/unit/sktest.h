/*
 * sktest.h: what the security key tests (test_sk_proto.c, the helper's
 * messages; test_sk_fido.c, the libfido2 conversions) share: a plain
 * key standing in for an authenticator, the bytes an authenticator
 * signs, ssh-sk-helper's enrollment and signature replies as the
 * helper sends them, and the check that a signature reply becomes a
 * signature that verifies with the authenticator's flags and counter.
 */
#ifndef MOAT_SKTEST_H
#define MOAT_SKTEST_H

#include <string.h>

#include <openssl/evp.h>

#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "sk_api.h"
#include "sk_proto.h"
#include "testlib.h"

#define APP	"ssh:test"
#define MSG	"the data to be signed"

/*
 * A plain key's raw public part (a blob's last string): what a
 * middleware returns, the Ed25519 key or the uncompressed point.
 */
static inline void
sktest_raw_public(const struct key *k, unsigned char *out, size_t *lenp)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *p;
	size_t len;
	char *name = NULL, *curve = NULL;

	CHECK_OK(key_to_blob(k, b));
	CHECK_OK(sbuf_get_cstring(b, &name, NULL));
	if (k->type == KEY_ECDSA)
		CHECK_OK(sbuf_get_cstring(b, &curve, NULL));
	CHECK_OK(sbuf_get_string_direct(b, &p, &len));
	memcpy(out, p, len);
	*lenp = len;
	x_free(name);
	x_free(curve);
	sbuf_free(b);
}

/* What an authenticator signs for APP, flags, counter and MSG. */
static inline struct sbuf *
sktest_u2f_signed(uint8_t flags, uint32_t counter)
{
	struct sbuf *d = sbuf_new();
	unsigned char h[32];

	EVP_Digest(APP, strlen(APP), h, NULL, EVP_sha256(), NULL);
	sbuf_put(d, h, sizeof(h));
	sbuf_put_u8(d, flags);
	sbuf_put_u32(d, counter);
	EVP_Digest(MSG, strlen(MSG), h, NULL, EVP_sha256(), NULL);
	sbuf_put(d, h, sizeof(h));
	return d;
}

/*
 * An enrollment reply: status, flags, public key, key handle, and the
 * attestation's signature, certificate and authenticator data.
 */
static inline struct sbuf *
sktest_enroll_reply(uint8_t flags, const unsigned char *pk, size_t pklen,
    const unsigned char *kh, size_t khlen)
{
	struct sbuf *b = sbuf_new();

	sbuf_put_u8(b, SKH_OK);
	sbuf_put_u8(b, flags);
	sbuf_put_string(b, pk, pklen);
	sbuf_put_string(b, kh, khlen);
	sbuf_put_cstring(b, "sig");
	sbuf_put_cstring(b, "cert");
	sbuf_put_cstring(b, "authdata");
	return b;
}

/* A signature reply carrying r and s. */
static inline struct sbuf *
sktest_sign_reply(uint8_t flags, uint32_t counter, const unsigned char *r,
    size_t rlen, const unsigned char *s, size_t slen)
{
	struct sbuf *b = sbuf_new();

	sbuf_put_u8(b, SKH_OK);
	sbuf_put_u8(b, flags);
	sbuf_put_u32(b, counter);
	sbuf_put_string(b, r, rlen);
	sbuf_put_string(b, s, slen);
	return b;
}

/*
 * The reply becomes a signature by k over MSG that verifies, with flags
 * and counter in its details, and does not verify for another message.
 */
static inline void
sktest_check_sig(const struct key *k, struct sbuf *reply, uint8_t flags,
    uint32_t counter)
{
	struct sbuf *sig = sbuf_new();
	struct key_sig_details det;
	int skerr;

	memset(&det, 0, sizeof(det));
	CHECK_OK(skh_reply_status(reply, &skerr));
	CHECK_OK(skh_parse_sign(reply, k, sig));
	CHECK_OK(key_verify_details(k, sbuf_ptr(sig), sbuf_len(sig),
	    (const unsigned char *)MSG, strlen(MSG), NULL, &det));
	CHECK(det.is_sk && det.sk_flags == flags && det.sk_counter == counter);
	CHECK(key_verify(k, sbuf_ptr(sig), sbuf_len(sig),
	    (const unsigned char *)"other", 5, NULL) != 0);
	sbuf_free(sig);
}

#endif
