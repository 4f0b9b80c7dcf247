/*
 * test_sk_proto.c: the messages of ssh-sk-helper (sk_proto.h) and the
 * private file form of security keys. Requests survive a round trip;
 * replies made here, with a plain Ed25519 or P-256 key standing in for
 * the authenticator, become a security key and a signature that
 * verifies with the authenticator's flags and counter; malformed
 * replies (wrong sizes, a point off the curve, trailing bytes, too many
 * keys, a bad status) are refused; a key made from a reply is saved and
 * loaded back, encrypted or not, with its flags and key handle.
 */
#include <stdio.h>

#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "sk_api.h"
#include "sk_proto.h"
#include "sktest.h"
#include "testlib.h"

static const unsigned char handle[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

/* An enrollment reply for pk with khlen bytes of the handle. */
static struct sbuf *
enroll_reply(const unsigned char *pk, size_t pklen, size_t khlen)
{
	return sktest_enroll_reply(SSH_SK_USER_PRESENCE_REQD, pk, pklen,
	    handle, khlen);
}

static struct key *
enrolled(const struct key *plain, uint32_t alg)
{
	unsigned char pk[80];
	size_t pklen;
	struct sbuf *b, *attest = sbuf_new();
	struct key *k = NULL;
	char *name = NULL;
	int skerr;

	sktest_raw_public(plain, pk, &pklen);
	b = enroll_reply(pk, pklen, sizeof(handle));
	CHECK_OK(skh_reply_status(b, &skerr));
	CHECK_OK(skh_parse_enroll(b, alg, APP, &k, attest));
	CHECK(k != NULL && key_is_sk(k) && k->has_private);
	CHECK(k != NULL && k->sk_flags == SSH_SK_USER_PRESENCE_REQD);
	CHECK(k != NULL && k->sk_key_handle_len == sizeof(handle) &&
	    memcmp(k->sk_key_handle, handle, sizeof(handle)) == 0);
	CHECK(k != NULL && strcmp(k->sk_application, APP) == 0);
	CHECK(sbuf_get_cstring(attest, &name, NULL) == 0 &&
	    strcmp(name, "ssh-sk-attest-v01") == 0);
	x_free(name);
	sbuf_free(attest);
	sbuf_free(b);
	return k;
}

static void
test_ed25519(void)
{
	struct key *plain = NULL, *k;
	struct sbuf *d, *reply, *sig = sbuf_new();
	unsigned char raw[64], pk[40];
	size_t rawlen = sizeof(raw), pklen;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int skerr;

	CHECK_OK(key_generate(KEY_ED25519, 0, &plain));
	k = enrolled(plain, SSH_SK_ED25519);
	CHECK(k != NULL && k->type == KEY_ED25519_SK);
	d = sktest_u2f_signed(0x05, 77);
	CHECK(EVP_DigestSignInit(ctx, NULL, NULL, NULL, plain->pkey) == 1);
	CHECK(EVP_DigestSign(ctx, raw, &rawlen, sbuf_ptr(d), sbuf_len(d)) == 1);
	reply = sktest_sign_reply(0x05, 77, raw, rawlen, NULL, 0);
	if (k != NULL)
		sktest_check_sig(k, reply, 0x05, 77);
	sbuf_free(reply);
	/* A 63-byte signature, or an s where none belongs: refused. */
	reply = sktest_sign_reply(0x05, 77, raw, 63, NULL, 0);
	CHECK_OK(skh_reply_status(reply, &skerr));
	CHECK_ERR(skh_parse_sign(reply, k, sig), ERR_PROTOCOL);
	sbuf_free(reply);
	reply = sktest_sign_reply(0x05, 77, raw, 64, raw, 1);
	CHECK_OK(skh_reply_status(reply, &skerr));
	CHECK_ERR(skh_parse_sign(reply, k, sig), ERR_PROTOCOL);
	sbuf_free(reply);
	/* A public key of the wrong size; no key handle. */
	sktest_raw_public(plain, pk, &pklen);
	reply = enroll_reply(pk, pklen - 1, sizeof(handle));
	CHECK_OK(skh_reply_status(reply, &skerr));
	key_free(k);
	CHECK_ERR(skh_parse_enroll(reply, SSH_SK_ED25519, APP, &k, NULL),
	    ERR_PROTOCOL);
	sbuf_free(reply);
	reply = enroll_reply(pk, pklen, 0);
	CHECK_OK(skh_reply_status(reply, &skerr));
	CHECK_ERR(skh_parse_enroll(reply, SSH_SK_ED25519, APP, &k, NULL),
	    ERR_PROTOCOL);
	sbuf_free(reply);
	/* Trailing bytes. */
	reply = enroll_reply(pk, pklen, sizeof(handle));
	sbuf_put_u8(reply, 0);
	CHECK_OK(skh_reply_status(reply, &skerr));
	CHECK_ERR(skh_parse_enroll(reply, SSH_SK_ED25519, APP, &k, NULL),
	    ERR_PROTOCOL);
	CHECK(k == NULL);
	sbuf_free(reply);
	EVP_MD_CTX_free(ctx);
	sbuf_free(d);
	sbuf_free(sig);
	key_free(plain);
}

static void
test_ecdsa(void)
{
	struct key *plain = NULL, *k;
	struct sbuf *d, *reply, *sshsig = sbuf_new(), *inner = sbuf_new();
	const unsigned char *r, *s;
	unsigned char pk[80];
	size_t rlen, slen, pklen;
	char *alg = NULL;
	int skerr;

	CHECK_OK(key_generate(KEY_ECDSA, 256, &plain));
	k = enrolled(plain, SSH_SK_ECDSA);
	CHECK(k != NULL && k->type == KEY_ECDSA_SK);
	/* A plain ECDSA signature over the u2f bytes, taken apart. */
	d = sktest_u2f_signed(0x01, 0x12345678);
	CHECK_OK(key_sign(plain, "ecdsa-sha2-nistp256", sbuf_ptr(d),
	    sbuf_len(d), sshsig));
	CHECK_OK(sbuf_get_cstring(sshsig, &alg, NULL));
	CHECK_OK(sbuf_get_stringb(sshsig, inner));
	CHECK_OK(sbuf_get_mpint_direct(inner, &r, &rlen));
	CHECK_OK(sbuf_get_mpint_direct(inner, &s, &slen));
	reply = sktest_sign_reply(0x01, 0x12345678, r, rlen, s, slen);
	if (k != NULL)
		sktest_check_sig(k, reply, 0x01, 0x12345678);
	sbuf_free(reply);
	/* An empty r is refused. */
	reply = sktest_sign_reply(0x01, 1, r, 0, s, slen);
	CHECK_OK(skh_reply_status(reply, &skerr));
	CHECK_ERR(skh_parse_sign(reply, k, d), ERR_PROTOCOL);
	sbuf_free(reply);
	/* A point off the curve. */
	sktest_raw_public(plain, pk, &pklen);
	pk[40] ^= 1;
	reply = enroll_reply(pk, pklen, sizeof(handle));
	CHECK_OK(skh_reply_status(reply, &skerr));
	key_free(k);
	CHECK_ERR(skh_parse_enroll(reply, SSH_SK_ECDSA, APP, &k, NULL),
	    ERR_PROTOCOL);
	sbuf_free(reply);
	x_free(alg);
	sbuf_free(d);
	sbuf_free(sshsig);
	sbuf_free(inner);
	key_free(plain);
}

static void
test_requests(void)
{
	struct skh_request q, back;
	struct sbuf *b = sbuf_new();
	uint32_t len;

	memset(&q, 0, sizeof(q));
	q.type = SKH_SIGN;
	q.provider = (char *)"/lib/x.so";
	q.pin = (char *)"1234";
	q.alg = SSH_SK_ECDSA;
	q.application = (char *)APP;
	q.flags = 0x05;
	q.key_handle = (unsigned char *)handle;
	q.khlen = sizeof(handle);
	q.data = (unsigned char *)MSG;
	q.datalen = strlen(MSG);
	CHECK_OK(skh_request_put(&q, b));
	CHECK_OK(sbuf_get_u32(b, &len));
	CHECK(len == sbuf_len(b));
	CHECK_OK(skh_request_get(b, &back));
	CHECK(back.type == SKH_SIGN && back.alg == SSH_SK_ECDSA &&
	    back.flags == 0x05);
	CHECK_STR(back.provider, "/lib/x.so");
	CHECK_STR(back.pin, "1234");
	CHECK_STR(back.device, "");
	CHECK_STR(back.application, APP);
	CHECK(back.khlen == sizeof(handle) &&
	    memcmp(back.key_handle, handle, sizeof(handle)) == 0);
	CHECK(back.datalen == strlen(MSG) &&
	    memcmp(back.data, MSG, back.datalen) == 0);
	skh_request_free(&back);

	sbuf_reset(b);
	q.type = SKH_ENROLL;
	q.user = (char *)"alice";
	q.device = (char *)"/dev/x";
	CHECK_OK(skh_request_put(&q, b));
	CHECK_OK(sbuf_get_u32(b, &len));
	CHECK_OK(skh_request_get(b, &back));
	CHECK(back.type == SKH_ENROLL);
	CHECK_STR(back.user, "alice");
	CHECK_STR(back.device, "/dev/x");
	skh_request_free(&back);

	sbuf_reset(b);
	q.type = SKH_LOAD_RESIDENT;
	CHECK_OK(skh_request_put(&q, b));
	CHECK_OK(sbuf_get_u32(b, &len));
	sbuf_put_u8(b, 0);	/* a trailing byte */
	CHECK_ERR(skh_request_get(b, &back), ERR_PROTOCOL);
	skh_request_free(&back);
	sbuf_free(b);
}

static void
test_status_and_resident(void)
{
	struct sbuf *b = sbuf_new();
	struct skh_resident *rks = NULL;
	struct key *plain = NULL;
	unsigned char pk[40];
	size_t pklen, n = 0;
	int skerr = 0;

	sbuf_put_u8(b, SKH_FAIL);
	sbuf_put_u32(b, 3);
	CHECK_ERR(skh_reply_status(b, &skerr), ERR_FEATURE_UNSUPPORTED);
	CHECK(skerr == SSH_SK_ERR_PIN_REQUIRED);
	sbuf_reset(b);
	sbuf_put_u8(b, 0x42);
	CHECK_ERR(skh_reply_status(b, &skerr), ERR_PROTOCOL);
	sbuf_reset(b);
	sbuf_put_u8(b, SKH_FAIL);
	sbuf_put_u32(b, 0);
	CHECK_ERR(skh_reply_status(b, &skerr), ERR_PROTOCOL);

	CHECK_OK(key_generate(KEY_ED25519, 0, &plain));
	sktest_raw_public(plain, pk, &pklen);
	sbuf_reset(b);
	sbuf_put_u32(b, 2);
	sbuf_put_u32(b, SSH_SK_ED25519);
	sbuf_put_cstring(b, "ssh:one");
	sbuf_put_u8(b, SSH_SK_USER_VERIFICATION_REQD);
	sbuf_put_string(b, pk, pklen);
	sbuf_put_string(b, handle, sizeof(handle));
	sbuf_put_cstring(b, "alice");
	sbuf_put_u32(b, SSH_SK_ED25519);
	sbuf_put_cstring(b, "ssh:");
	sbuf_put_u8(b, 0);
	sbuf_put_string(b, pk, pklen);
	sbuf_put_string(b, handle, 1);
	sbuf_put_string(b, "", 0);
	CHECK_OK(skh_parse_resident(b, &rks, &n));
	CHECK(n == 2);
	if (n == 2) {
		CHECK_STR(rks[0].key->sk_application, "ssh:one");
		CHECK(rks[0].user_id_len == 5);
		CHECK(rks[1].key->sk_key_handle_len == 1);
	}
	skh_resident_free(rks, n);
	/* More keys than allowed. */
	sbuf_reset(b);
	sbuf_put_u32(b, SKH_MAX_RESIDENT + 1);
	CHECK_ERR(skh_parse_resident(b, &rks, &n), ERR_PROTOCOL);
	/* A count larger than what follows. */
	sbuf_reset(b);
	sbuf_put_u32(b, 1);
	CHECK_ERR(skh_parse_resident(b, &rks, &n), ERR_PROTOCOL);
	CHECK(rks == NULL && n == 0);
	key_free(plain);
	sbuf_free(b);
}

/* A key from a reply saved as openssh-key-v1 and read back. */
static void
test_private_file(void)
{
	struct key *plain = NULL, *k, *back = NULL;
	struct sbuf *f = sbuf_new();
	char *comment = NULL;
	const char *pass[] = { "", "secret" };
	size_t i;

	CHECK_OK(key_generate(KEY_ECDSA, 256, &plain));
	k = enrolled(plain, SSH_SK_ECDSA);
	for (i = 0; i < 2 && k != NULL; i++) {
		sbuf_reset(f);
		CHECK_OK(key_serialize_private(k, pass[i], "c", 2, f));
		CHECK_OK(key_parse_private(f, pass[i], &back, &comment));
		CHECK(back != NULL && back->type == KEY_ECDSA_SK &&
		    back->has_private && key_equal_public(back, k));
		CHECK(back != NULL && back->sk_flags == k->sk_flags &&
		    back->sk_key_handle_len == sizeof(handle) &&
		    memcmp(back->sk_key_handle, handle, sizeof(handle)) == 0);
		CHECK_STR(comment, "c");
		/* The authenticator signs, never key_sign(). */
		CHECK_ERR(key_sign(back, NULL, (const unsigned char *)"x", 1,
		    f), ERR_FEATURE_UNSUPPORTED);
		key_free(back);
		back = NULL;
		x_free(comment);
		comment = NULL;
	}
	key_free(k);
	key_free(plain);
	sbuf_free(f);
}

int
main(void)
{
	test_requests();
	test_ed25519();
	test_ecdsa();
	test_status_and_resident();
	test_private_file();
	return TEST_DONE();
}
