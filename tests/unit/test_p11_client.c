/*
 * test_p11_client.c: the parsers of ssh-pkcs11-helper's answers
 * (src/client/p11_client.c). Key lists: good ones, a duplicate and an
 * unparsable key dropped, a label's control bytes made harmless, too
 * many keys, trailing bytes and failures refused. Signatures: one made
 * by the key is taken; one by another key, under another algorithm,
 * over other data, or with trailing bytes is not; a PIN request hands
 * back the token's label.
 */
#include <string.h>

#include "err.h"
#include "key.h"
#include "mem.h"
#include "p11_client.h"
#include "sbuf.h"
#include "testlib.h"

static struct key *ec_key, *rsa_key, *other_key;
static const unsigned char data[] = "sign me";

static void
put_key(struct sbuf *m, const struct key *k, const char *label)
{
	struct sbuf *blob = sbuf_new();

	CHECK_OK(key_to_blob(k, blob));
	CHECK_OK(sbuf_put_stringb(m, blob));
	CHECK_OK(sbuf_put_cstring(m, label));
	sbuf_free(blob);
}

static void
test_keys(void)
{
	struct sbuf *m = sbuf_new();
	struct p11_key *keys;
	char *why;
	size_t n;

	sbuf_put_u8(m, P11_KEYS);
	sbuf_put_u32(m, 4);
	put_key(m, ec_key, "ec\x1b[2J");
	put_key(m, rsa_key, "rsa");
	put_key(m, ec_key, "again");
	sbuf_put_cstring(m, "not a key");
	sbuf_put_cstring(m, "junk");
	CHECK_OK(p11_parse_keys(m, &keys, &n, &why));
	CHECK(n == 2);
	if (n == 2) {
		CHECK(key_equal_public(keys[0].key, ec_key));
		CHECK_STR(keys[0].label, "ec?[2J");
		CHECK(key_equal_public(keys[1].key, rsa_key));
	}
	p11_keys_free(keys, n);

	/* Trailing bytes, too many keys, a count that lies. */
	sbuf_reset(m);
	sbuf_put_u8(m, P11_KEYS);
	sbuf_put_u32(m, 1);
	put_key(m, ec_key, "ec");
	sbuf_put_u8(m, 0);
	CHECK_ERR(p11_parse_keys(m, &keys, &n, &why), ERR_PROTOCOL);
	CHECK(keys == NULL && n == 0);
	sbuf_reset(m);
	sbuf_put_u8(m, P11_KEYS);
	sbuf_put_u32(m, P11_MAX_KEYS + 1);
	CHECK_ERR(p11_parse_keys(m, &keys, &n, &why), ERR_PROTOCOL);
	sbuf_reset(m);
	sbuf_put_u8(m, P11_KEYS);
	sbuf_put_u32(m, 3);
	put_key(m, ec_key, "ec");
	CHECK_ERR(p11_parse_keys(m, &keys, &n, &why), ERR_PROTOCOL);

	/* Failures: a refused PIN is told apart, with the helper's words. */
	sbuf_reset(m);
	sbuf_put_u8(m, P11_FAIL);
	sbuf_put_u32(m, P11_FAIL_PIN);
	sbuf_put_cstring(m, "C_Login failed");
	CHECK_ERR(p11_parse_keys(m, &keys, &n, &why), ERR_KEY_WRONG_PASSPHRASE);
	CHECK(why != NULL && strcmp(why, "C_Login failed") == 0);
	x_free(why);
	sbuf_reset(m);
	sbuf_put_u8(m, P11_SIG);
	CHECK_ERR(p11_parse_keys(m, &keys, &n, &why), ERR_PROTOCOL);
	sbuf_free(m);
}

/* A P11_SIG answer holding k's signature over d under alg. */
static struct sbuf *
sig_answer(const struct key *k, const char *alg, const unsigned char *d,
    size_t dlen)
{
	struct sbuf *m = sbuf_new(), *sig = sbuf_new();

	CHECK_OK(key_sign(k, alg, d, dlen, sig));
	sbuf_put_u8(m, P11_SIG);
	sbuf_put_stringb(m, sig);
	sbuf_free(sig);
	return m;
}

static void
test_sign(void)
{
	struct sbuf *m, *sig = sbuf_new();
	char *label;

	m = sig_answer(ec_key, NULL, data, sizeof(data));
	CHECK_OK(p11_parse_sign(m, ec_key, NULL, data, sizeof(data), sig,
	    &label));
	CHECK(sbuf_len(sig) > 0 && label == NULL);
	sbuf_free(m);
	sbuf_reset(sig);
	m = sig_answer(rsa_key, "rsa-sha2-256", data, sizeof(data));
	CHECK_OK(p11_parse_sign(m, rsa_key, "rsa-sha2-256", data,
	    sizeof(data), sig, NULL));
	sbuf_free(m);
	/* Another algorithm than asked, another key, other data. */
	sbuf_reset(sig);
	m = sig_answer(rsa_key, "rsa-sha2-512", data, sizeof(data));
	CHECK_ERR(p11_parse_sign(m, rsa_key, "rsa-sha2-256", data,
	    sizeof(data), sig, NULL), ERR_SIGNATURE_INVALID);
	sbuf_free(m);
	m = sig_answer(other_key, NULL, data, sizeof(data));
	CHECK_ERR(p11_parse_sign(m, ec_key, NULL, data, sizeof(data), sig,
	    NULL), ERR_SIGNATURE_INVALID);
	sbuf_free(m);
	m = sig_answer(ec_key, NULL, data, sizeof(data) - 1);
	CHECK_ERR(p11_parse_sign(m, ec_key, NULL, data, sizeof(data), sig,
	    NULL), ERR_SIGNATURE_INVALID);
	sbuf_free(m);
	CHECK(sbuf_len(sig) == 0);
	/* Trailing bytes. */
	m = sig_answer(ec_key, NULL, data, sizeof(data));
	sbuf_put_u8(m, 0);
	CHECK_ERR(p11_parse_sign(m, ec_key, NULL, data, sizeof(data), sig,
	    NULL), ERR_PROTOCOL);
	sbuf_free(m);
	/* A PIN request. */
	m = sbuf_new();
	sbuf_put_u8(m, P11_NEED_PIN);
	sbuf_put_cstring(m, "my token");
	CHECK_ERR(p11_parse_sign(m, ec_key, NULL, data, sizeof(data), sig,
	    &label), ERR_PERMISSION_DENIED);
	CHECK(label != NULL && strcmp(label, "my token") == 0);
	x_free(label);
	sbuf_free(m);
	CHECK(p11_sign_flags("rsa-sha2-256") == P11_RSA_SHA2_256);
	CHECK(p11_sign_flags("ssh-rsa") == 0);
	sbuf_free(sig);
}

int
main(void)
{
	if (key_generate(KEY_ECDSA, 256, &ec_key) != 0 ||
	    key_generate(KEY_ECDSA, 256, &other_key) != 0 ||
	    key_generate(KEY_RSA, 2048, &rsa_key) != 0)
		return 1;
	test_keys();
	test_sign();
	key_free(ec_key);
	key_free(other_key);
	key_free(rsa_key);
	return TEST_DONE();
}
