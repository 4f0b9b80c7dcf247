/*
 * test_sk_fido.c: the device-free half of the built-in libfido2
 * security key provider (src/sk-helper/fido_conv.c): libfido2's public
 * key forms into sk_api's, a DER ECDSA signature split into r and s,
 * Ed25519 signatures passed whole, enrollment results copied, resident
 * credentials as listed keys, the user ID and the options. Fixed byte
 * inputs first; then a P-256 signature made here as an authenticator
 * would goes through the conversion and the helper reply parser and
 * verifies as a security key signature.
 */
#include <stdio.h>

#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "sk_api.h"
#include "sk_proto.h"
#include "sktest.h"
#include "testlib.h"

#include "../../src/sk-helper/fido_conv.c"

static void
test_pubkey(void)
{
	uint8_t in[65], *out = NULL;
	size_t i, outlen;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i + 1);
	CHECK_OK(skf_pubkey(SSH_SK_ED25519, in, 32, &out, &outlen));
	CHECK(outlen == 32 && out != NULL && memcmp(out, in, 32) == 0);
	free(out);
	CHECK(skf_pubkey(SSH_SK_ED25519, in, 31, &out, &outlen) != 0);
	CHECK(out == NULL && outlen == 0);
	CHECK(skf_pubkey(SSH_SK_ED25519, in, 33, &out, &outlen) != 0);
	/* x || y gains the 0x04 of an uncompressed point */
	CHECK_OK(skf_pubkey(SSH_SK_ECDSA, in, 64, &out, &outlen));
	CHECK(outlen == 65 && out != NULL && out[0] == 0x04 &&
	    memcmp(out + 1, in, 64) == 0);
	free(out);
	/* already uncompressed: kept; another first byte: refused */
	in[0] = 0x04;
	CHECK_OK(skf_pubkey(SSH_SK_ECDSA, in, 65, &out, &outlen));
	CHECK(outlen == 65 && out != NULL && memcmp(out, in, 65) == 0);
	free(out);
	in[0] = 0x02;
	CHECK(skf_pubkey(SSH_SK_ECDSA, in, 65, &out, &outlen) != 0);
	CHECK(skf_pubkey(SSH_SK_ECDSA, in, 33, &out, &outlen) != 0);
	CHECK(skf_pubkey(SSH_SK_ECDSA, NULL, 64, &out, &outlen) != 0);
	CHECK_ERR(skf_pubkey(7, in, 32, &out, &outlen), SSH_SK_ERR_UNSUPPORTED);
}

static void
test_ecdsa_der(void)
{
	/* r with its top bit set (a 0x00 pad in DER), s a single byte */
	static const uint8_t der[] = {
		0x30, 0x26, 0x02, 0x21, 0x00,
		0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
		0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
		0x02, 0x01, 0x05,
	};
	uint8_t bad[sizeof(der) + 1];
	struct sk_sign_response *s = NULL;

	CHECK_OK(skf_sign_response(SSH_SK_ECDSA, der, sizeof(der), 0x05,
	    0x01020304, &s));
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK(s->flags == 0x05 && s->counter == 0x01020304);
		CHECK(s->sig_r_len == 32 && memcmp(s->sig_r, der + 5, 32) == 0);
		CHECK(s->sig_s_len == 1 && s->sig_s[0] == 0x05);
	}
	skf_sign_free(s);
	/* a byte after the signature, a cut one, a broken tag: refused */
	memcpy(bad, der, sizeof(der));
	bad[sizeof(der)] = 0;
	CHECK(skf_sign_response(SSH_SK_ECDSA, bad, sizeof(bad), 0, 0, &s) != 0);
	CHECK(s == NULL);
	CHECK(skf_sign_response(SSH_SK_ECDSA, der, sizeof(der) - 1, 0, 0,
	    &s) != 0);
	bad[0] = 0x31;
	CHECK(skf_sign_response(SSH_SK_ECDSA, bad, sizeof(der), 0, 0, &s) != 0);
	/* an r longer than the curve's 32 bytes */
	memcpy(bad, der, sizeof(der));
	bad[4] = 0x01;
	CHECK(skf_sign_response(SSH_SK_ECDSA, bad, sizeof(der), 0, 0, &s) != 0);
	CHECK(skf_sign_response(SSH_SK_ECDSA, NULL, 0, 0, 0, &s) != 0);
}

static void
test_ed25519_sig(void)
{
	uint8_t sig[64];
	struct sk_sign_response *s = NULL;

	memset(sig, 0xa5, sizeof(sig));
	CHECK_OK(skf_sign_response(SSH_SK_ED25519, sig, 64, 0x01, 9, &s));
	CHECK(s != NULL && s->sig_r_len == 64 && s->sig_s == NULL &&
	    memcmp(s->sig_r, sig, 64) == 0 && s->flags == 1 && s->counter == 9);
	skf_sign_free(s);
	CHECK(skf_sign_response(SSH_SK_ED25519, sig, 63, 0x01, 9, &s) != 0);
	CHECK(s == NULL);
}

static void
test_enroll(void)
{
	static const uint8_t pk[32] = { 9, 8, 7 }, id[5] = { 1, 2, 3, 4, 5 };
	static const uint8_t sig[3] = { 0x30, 1, 2 }, ad[2] = { 0x58, 0 };
	struct skf_cred c;
	struct sk_enroll_response *e = NULL;

	memset(&c, 0, sizeof(c));
	c.alg = SSH_SK_ED25519;
	c.flags = SSH_SK_USER_PRESENCE_REQD | SSH_SK_RESIDENT_KEY;
	c.pubkey.ptr = pk;
	c.pubkey.len = sizeof(pk);
	c.id.ptr = id;
	c.id.len = sizeof(id);
	c.sig.ptr = sig;
	c.sig.len = sizeof(sig);
	c.authdata.ptr = ad;
	c.authdata.len = sizeof(ad);
	CHECK_OK(skf_enroll_response(&c, &e));
	CHECK(e != NULL);
	if (e != NULL) {
		CHECK(e->flags == (SSH_SK_USER_PRESENCE_REQD |
		    SSH_SK_RESIDENT_KEY));
		CHECK(e->public_key_len == 32 &&
		    memcmp(e->public_key, pk, 32) == 0);
		CHECK(e->key_handle_len == 5 &&
		    memcmp(e->key_handle, id, 5) == 0);
		CHECK(e->signature_len == 3 &&
		    memcmp(e->signature, sig, 3) == 0);
		CHECK(e->attestation_cert == NULL &&
		    e->attestation_cert_len == 0);
		CHECK(e->authdata_len == 2 && memcmp(e->authdata, ad, 2) == 0);
	}
	skf_enroll_free(e);
	/* no credential ID, or a public key of the wrong size */
	c.id.len = 0;
	CHECK(skf_enroll_response(&c, &e) != 0 && e == NULL);
	c.id.len = sizeof(id);
	c.pubkey.len = 31;
	CHECK(skf_enroll_response(&c, &e) != 0 && e == NULL);
}

/* Resident credentials as listed keys, and a list of them freed. */
static void
test_resident(void)
{
	static const uint8_t pk[64] = { 4, 5, 6 }, id[3] = { 7, 8, 9 };
	struct sk_resident_key **list = x_calloc(2, sizeof(*list)), *k = NULL;
	struct skf_bytes uid = { (const uint8_t *)"alice", 5 }, none = { 0 };
	struct skf_cred c;

	memset(&c, 0, sizeof(c));
	c.alg = SSH_SK_ECDSA;
	c.flags = SSH_SK_USER_PRESENCE_REQD | SSH_SK_RESIDENT_KEY;
	c.pubkey.ptr = pk;
	c.pubkey.len = sizeof(pk);
	c.id.ptr = id;
	c.id.len = sizeof(id);
	CHECK_OK(skf_resident_key(&c, "ssh:one", 3, &uid, &list[0]));
	k = list[0];
	CHECK(k != NULL);
	if (k != NULL) {
		CHECK(k->alg == SSH_SK_ECDSA && k->slot == 3 &&
		    k->flags == c.flags && k->key.flags == c.flags);
		CHECK_STR(k->application, "ssh:one");
		CHECK(k->user_id_len == 5 && memcmp(k->user_id, "alice", 5) == 0);
		CHECK(k->key.public_key_len == 65 && k->key.public_key[0] == 4 &&
		    memcmp(k->key.public_key + 1, pk, 64) == 0);
		CHECK(k->key.key_handle_len == 3 &&
		    memcmp(k->key.key_handle, id, 3) == 0);
	}
	/* an empty user ID stays empty */
	CHECK_OK(skf_resident_key(&c, "ssh:", 0, &none, &list[1]));
	CHECK(list[1] != NULL && list[1]->user_id == NULL &&
	    list[1]->user_id_len == 0);
	skf_resident_list_free(list, 2);
	/* no credential ID, a bad key, no application: nothing made */
	c.id.len = 0;
	CHECK(skf_resident_key(&c, "ssh:", 0, &uid, &k) != 0 && k == NULL);
	c.id.len = sizeof(id);
	c.pubkey.len = 63;
	CHECK(skf_resident_key(&c, "ssh:", 0, &uid, &k) != 0 && k == NULL);
	c.pubkey.len = sizeof(pk);
	CHECK(skf_resident_key(&c, NULL, 0, &uid, &k) != 0 && k == NULL);
	skf_resident_list_free(NULL, 0);
}

static void
test_user_and_options(void)
{
	uint8_t uid[SKF_USER_ID_LEN], zero[SKF_USER_ID_LEN];
	char longname[40];
	struct sk_option dev = { (char *)"device", (char *)"/dev/hidraw3", 0 };
	struct sk_option user = { (char *)"user", (char *)"alice", 1 };
	struct sk_option other = { (char *)"colour", (char *)"blue", 0 };
	struct sk_option *list[5] = { &dev, &user, &other, NULL, NULL };
	struct skf_opts o;

	memset(zero, 0, sizeof(zero));
	skf_user_id(NULL, uid);
	CHECK_MEM(uid, zero, sizeof(uid));
	skf_user_id("bob", uid);
	CHECK(memcmp(uid, "bob", 3) == 0 &&
	    memcmp(uid + 3, zero, sizeof(uid) - 3) == 0);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	skf_user_id(longname, uid);
	CHECK_MEM(uid, longname, sizeof(uid));

	CHECK_OK(skf_parse_options(NULL, &o));
	CHECK(o.device == NULL && o.user == NULL);
	CHECK_OK(skf_parse_options(list, &o));
	CHECK_STR(o.device, "/dev/hidraw3");
	CHECK_STR(o.user, "alice");
	/* an unknown option is refused only when required */
	other.required = 1;
	CHECK_ERR(skf_parse_options(list, &o), SSH_SK_ERR_UNSUPPORTED);
}

/*
 * A P-256 credential in libfido2's form (x || y) and an assertion
 * signed here in DER, through the conversions and the reply parser.
 */
static void
test_p256_round_trip(void)
{
	static const uint8_t id[4] = { 0xde, 0xad, 0xbe, 0xef };
	struct key *plain = NULL, *k = NULL;
	struct sk_enroll_response *e = NULL;
	struct sk_sign_response *s = NULL;
	struct sbuf *reply, *d = NULL;
	struct skf_cred c;
	unsigned char pt[80], der[80];
	size_t ptlen, derlen = sizeof(der);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int skerr;

	CHECK_OK(key_generate(KEY_ECDSA, 256, &plain));
	sktest_raw_public(plain, pt, &ptlen);
	CHECK(ptlen == 65 && pt[0] == 0x04);
	memset(&c, 0, sizeof(c));
	c.alg = SSH_SK_ECDSA;
	c.flags = SSH_SK_USER_PRESENCE_REQD;
	c.pubkey.ptr = pt + 1;
	c.pubkey.len = 64;
	c.id.ptr = id;
	c.id.len = sizeof(id);
	CHECK_OK(skf_enroll_response(&c, &e));
	if (e == NULL)
		goto out;
	/* the converted credential as the helper sends it on */
	reply = sktest_enroll_reply(e->flags, e->public_key, e->public_key_len,
	    e->key_handle, e->key_handle_len);
	CHECK_OK(skh_reply_status(reply, &skerr));
	CHECK_OK(skh_parse_enroll(reply, SSH_SK_ECDSA, APP, &k, NULL));
	sbuf_free(reply);
	if (k == NULL)
		goto out;
	d = sktest_u2f_signed(0x01, 42);
	CHECK(EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL,
	    plain->pkey) == 1);
	CHECK(EVP_DigestSign(ctx, der, &derlen, sbuf_ptr(d),
	    sbuf_len(d)) == 1);
	CHECK_OK(skf_sign_response(SSH_SK_ECDSA, der, derlen, 0x01, 42, &s));
	if (s == NULL)
		goto out;
	reply = sktest_sign_reply(s->flags, s->counter, s->sig_r, s->sig_r_len,
	    s->sig_s, s->sig_s_len);
	sktest_check_sig(k, reply, 0x01, 42);
	sbuf_free(reply);
 out:
	EVP_MD_CTX_free(ctx);
	skf_enroll_free(e);
	skf_sign_free(s);
	sbuf_free(d);
	key_free(k);
	key_free(plain);
}

int
main(void)
{
	test_pubkey();
	test_ecdsa_der();
	test_ed25519_sig();
	test_enroll();
	test_resident();
	test_user_and_options();
	test_p256_round_trip();
	return TEST_DONE();
}
