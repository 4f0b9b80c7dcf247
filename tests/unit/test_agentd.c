/*
 * test_agentd.c: ssh-agent's request handling without sockets: add
 * every key type and certificates, list, sign (RSA flags), re-add,
 * remove, remove all, lifetime and default lifetime on a fake clock,
 * confirmation through a fake prompt, lock and unlock (the pause after
 * a wrong passphrase), session-bind, unknown messages, the framing of
 * a byte stream, and every cut point of add and sign requests, each of
 * which must end the connection.
 */
#include <string.h>

#include <openssl/rand.h>

#include "agent.h"
#include "agentd.h"
#include "agentdtest.h"
#include "cert.h"
#include "key.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

static uint64_t fake_time = 1000;
static unsigned long last_delay;
static int confirm_answer, confirm_asked;
static char last_prompt[512];

static uint64_t fake_now(void) { return fake_time; }
static void fake_delay(unsigned long usec) { last_delay = usec; }

static int
fake_confirm(void *arg, const char *prompt)
{
	(void)arg;
	confirm_asked++;
	snprintf(last_prompt, sizeof(last_prompt), "%s", prompt);
	return confirm_answer;
}

/* The private fields of k as a certificate's ADD carries them. */
static void
cert_private(const struct key *k, struct sbuf *out)
{
	struct sbuf *b = sbuf_new();
	int i, skip;

	key_private_to_sbuf(k, b);
	sbuf_get_string(b, NULL, NULL);			/* type name */
	skip = k->type == KEY_ED25519 ? 0 : 2;		/* curve, Q / n, e */
	for (i = 0; i < skip; i++)
		sbuf_get_string(b, NULL, NULL);
	sbuf_putb(out, b);
	sbuf_free(b);
}

/* ADD body for k (or its certificate c), comment and constraints. */
static struct sbuf *
add_body(const struct key *k, const struct key_cert *c, const char *comment,
    const struct sbuf *constraints)
{
	struct sbuf *b = sbuf_new(), *blob = sbuf_new();

	if (c == NULL) {
		key_private_to_sbuf(k, b);
	} else {
		sbuf_put_cstring(b, cert_type_name(c->key));
		cert_to_blob(c, blob);
		sbuf_put_stringb(b, blob);
		cert_private(k, b);
	}
	sbuf_put_cstring(b, comment);
	if (constraints != NULL)
		sbuf_putb(b, constraints);
	sbuf_free(blob);
	return b;
}

static int
add(struct agentd *a, struct agentd_conn *c, const struct key *k,
    const struct key_cert *cert, const char *comment,
    const struct sbuf *constraints)
{
	struct sbuf *b = add_body(k, cert, comment, constraints);
	int t = agentd_req(a, c, constraints != NULL ? SSH_AGENTC_ADD_ID_CONSTRAINED :
	    SSH_AGENTC_ADD_IDENTITY, b, NULL);

	sbuf_free(b);
	return t;
}

static struct sbuf *
sign_body(const struct sbuf *blob, const char *data, uint32_t flags)
{
	struct sbuf *b = sbuf_new();

	sbuf_put_stringb(b, blob);
	sbuf_put_cstring(b, data);
	sbuf_put_u32(b, flags);
	return b;
}

/* Sign with the identity blob; the signature checked with k. Returns
 * the answer type; *algp the signature algorithm (caller frees). */
static int
sign(struct agentd *a, struct agentd_conn *c, const struct sbuf *blob,
    const struct key *k, uint32_t flags, char **algp)
{
	struct sbuf *b = sign_body(blob, "to be signed", flags);
	struct sbuf *r = sbuf_new();
	const unsigned char *sig;
	size_t siglen;
	int t;

	if (algp != NULL)
		*algp = NULL;
	t = agentd_req(a, c, SSH_AGENTC_SIGN_REQUEST, b, r);
	if (t == SSH_AGENT_SIGN_RESPONSE) {
		CHECK(sbuf_get_string_direct(r, &sig, &siglen) == 0);
		CHECK_OK(key_verify(k, sig, siglen,
		    (const unsigned char *)"to be signed", 12, NULL));
		if (algp != NULL)
			key_sig_alg(sig, siglen, algp);
	}
	sbuf_free(b);
	sbuf_free(r);
	return t;
}

static struct sbuf *
blob_of(const struct key *k, const struct key_cert *c)
{
	struct sbuf *b = sbuf_new();

	if (c != NULL)
		cert_to_blob(c, b);
	else
		key_to_blob(k, b);
	return b;
}

static void
test_keys_and_certs(void)
{
	static const struct { enum key_type t; unsigned bits; } types[] = {
		{ KEY_ED25519, 0 }, { KEY_ECDSA, 256 }, { KEY_ECDSA, 384 },
		{ KEY_ECDSA, 521 }, { KEY_RSA, 2048 },
	};
	struct agentd_config cfg = { .now = fake_now, .delay = fake_delay };
	struct agentd_conn *c = agentd_conn_new();
	struct key *keys[5], *ca;
	struct key_cert *certs[5];
	struct sbuf *blob;
	struct agentd *a;
	char *alg;
	size_t i;

	agentd_new(&cfg, &a);
	CHECK(agentd_list_count(a, c) == 0);
	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	for (i = 0; i < 5; i++) {
		CHECK_OK(key_generate(types[i].t, types[i].bits, &keys[i]));
		CHECK_OK(cert_new(keys[i], CERT_TYPE_USER, &certs[i]));
		CHECK_OK(cert_sign(certs[i], ca, NULL));
		CHECK(add(a, c, keys[i], NULL, "plain", NULL) ==
		    SSH_AGENT_SUCCESS);
		CHECK(add(a, c, keys[i], certs[i], "cert", NULL) ==
		    SSH_AGENT_SUCCESS);
	}
	CHECK(agentd_list_count(a, c) == 10);
	for (i = 0; i < 5; i++) {
		blob = blob_of(keys[i], NULL);
		CHECK(sign(a, c, blob, keys[i], 0, NULL) ==
		    SSH_AGENT_SIGN_RESPONSE);
		sbuf_free(blob);
		blob = blob_of(keys[i], certs[i]);
		CHECK(sign(a, c, blob, keys[i], SSH_AGENT_RSA_SHA2_512,
		    &alg) == SSH_AGENT_SIGN_RESPONSE);
		if (types[i].t == KEY_RSA)
			CHECK_STR(alg, "rsa-sha2-512");
		x_free(alg);
		sbuf_free(blob);
	}
	/* RSA: no flag is ssh-rsa (SHA-1), 256 and 512 as asked. */
	blob = blob_of(keys[4], NULL);
	CHECK(sign(a, c, blob, keys[4], 0, &alg) == SSH_AGENT_SIGN_RESPONSE);
	CHECK_STR(alg, "ssh-rsa");
	x_free(alg);
	CHECK(sign(a, c, blob, keys[4], SSH_AGENT_RSA_SHA2_256, &alg) ==
	    SSH_AGENT_SIGN_RESPONSE);
	CHECK_STR(alg, "rsa-sha2-256");
	x_free(alg);
	/* Re-adding replaces: still 10; removing: 9, again refused. */
	CHECK(add(a, c, keys[4], NULL, "renamed", NULL) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 10);
	sbuf_free(blob);
	blob = sbuf_new();
	{
		struct sbuf *kb = blob_of(keys[0], NULL);

		sbuf_put_stringb(blob, kb);
		CHECK(agentd_req(a, c, SSH_AGENTC_REMOVE_IDENTITY, blob, NULL) ==
		    SSH_AGENT_SUCCESS);
		CHECK(agentd_req(a, c, SSH_AGENTC_REMOVE_IDENTITY, blob, NULL) ==
		    SSH_AGENT_FAILURE);
		CHECK(sign(a, c, kb, keys[0], 0, NULL) == SSH_AGENT_FAILURE);
		sbuf_free(kb);
	}
	sbuf_free(blob);
	CHECK(agentd_count(a) <= 9);
	CHECK(agentd_req(a, c, SSH_AGENTC_REMOVE_ALL_IDENTITIES, NULL, NULL) ==
	    SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 0);
	/* A certificate whose key is not the private key sent. */
	CHECK(add(a, c, keys[1], certs[2], "wrong", NULL) == SSH_AGENT_FAILURE);
	CHECK(agentd_count(a) == 0);
	for (i = 0; i < 5; i++) {
		key_free(keys[i]);
		cert_free(certs[i]);
	}
	key_free(ca);
	agentd_conn_free(c);
	agentd_free(a);
}

static void
test_constraints(void)
{
	struct agentd_config cfg = { .now = fake_now, .delay = fake_delay,
	    .confirm = fake_confirm };
	struct agentd_conn *c = agentd_conn_new();
	struct sbuf *cons = sbuf_new(), *blob;
	struct key *k;
	struct agentd *a;

	agentd_new(&cfg, &a);
	CHECK_OK(key_generate(KEY_ED25519, 0, &k));
	blob = blob_of(k, NULL);
	sbuf_put_u8(cons, SSH_AGENT_CONSTRAIN_LIFETIME);
	sbuf_put_u32(cons, 5);
	CHECK(add(a, c, k, NULL, "short", cons) == SSH_AGENT_SUCCESS);
	CHECK(agentd_expire(a) == 5);
	fake_time += 4;
	CHECK(agentd_list_count(a, c) == 1);
	fake_time += 2;
	CHECK(agentd_list_count(a, c) == 0);
	CHECK(agentd_expire(a) == -1);
	/* Confirm: denied, then allowed; the prompt names the key. */
	sbuf_reset(cons);
	sbuf_put_u8(cons, SSH_AGENT_CONSTRAIN_CONFIRM);
	CHECK(add(a, c, k, NULL, "ask-me", cons) == SSH_AGENT_SUCCESS);
	confirm_answer = 0;
	CHECK(sign(a, c, blob, k, 0, NULL) == SSH_AGENT_FAILURE);
	CHECK(confirm_asked == 1);
	CHECK(strncmp(last_prompt, "Allow use of key ask-me?\nKey "
	    "fingerprint SHA256:", 48) == 0);
	confirm_answer = 1;
	CHECK(sign(a, c, blob, k, 0, NULL) == SSH_AGENT_SIGN_RESPONSE);
	/* Re-added without constraints: no more questions. */
	CHECK(add(a, c, k, NULL, "plain", NULL) == SSH_AGENT_SUCCESS);
	CHECK(sign(a, c, blob, k, 0, NULL) == SSH_AGENT_SIGN_RESPONSE);
	CHECK(confirm_asked == 2);
	/* Unsupported constraints: maxsign, an extension; twice lifetime. */
	sbuf_reset(cons);
	sbuf_put_u8(cons, SSH_AGENT_CONSTRAIN_MAXSIGN);
	sbuf_put_u32(cons, 5);
	CHECK(add(a, c, k, NULL, "x", cons) == SSH_AGENT_FAILURE);
	sbuf_reset(cons);
	sbuf_put_u8(cons, SSH_AGENT_CONSTRAIN_EXTENSION);
	sbuf_put_cstring(cons, "sk-provider@openssh.com");
	CHECK(add(a, c, k, NULL, "x", cons) == SSH_AGENT_FAILURE);
	/* A provider for a key that is no security key; one not allowed. */
	sbuf_put_cstring(cons, "/usr/lib");
	CHECK(add(a, c, k, NULL, "x", cons) == SSH_AGENT_FAILURE);
	sbuf_reset(cons);
	sbuf_put_u8(cons, SSH_AGENT_CONSTRAIN_EXTENSION);
	sbuf_put_cstring(cons, "sk-provider@openssh.com");
	sbuf_put_cstring(cons, "/tmp");
	CHECK(add(a, c, k, NULL, "x", cons) == SSH_AGENT_FAILURE);
	sbuf_reset(cons);
	sbuf_put_u8(cons, SSH_AGENT_CONSTRAIN_LIFETIME);
	sbuf_put_u32(cons, 5);
	sbuf_put_u8(cons, SSH_AGENT_CONSTRAIN_LIFETIME);
	sbuf_put_u32(cons, 5);
	CHECK(add(a, c, k, NULL, "x", cons) == SSH_AGENT_FAILURE);
	agentd_free(a);
	/* The default lifetime (-t). */
	cfg.default_life = 3;
	agentd_new(&cfg, &a);
	CHECK(add(a, c, k, NULL, "default", NULL) == SSH_AGENT_SUCCESS);
	fake_time += 3;
	CHECK(agentd_list_count(a, c) == 0);
	agentd_free(a);
	key_free(k);
	sbuf_free(blob);
	sbuf_free(cons);
	agentd_conn_free(c);
}

static int
lock(struct agentd *a, struct agentd_conn *c, int type, const char *pw)
{
	struct sbuf *b = sbuf_new();
	int t;

	sbuf_put_cstring(b, pw);
	t = agentd_req(a, c, type, b, NULL);
	sbuf_free(b);
	return t;
}

static void
test_lock(void)
{
	struct agentd_config cfg = { .now = fake_now, .delay = fake_delay };
	struct agentd_conn *c = agentd_conn_new();
	struct key *k;
	struct sbuf *blob;
	struct agentd *a;

	agentd_new(&cfg, &a);
	CHECK_OK(key_generate(KEY_ECDSA, 256, &k));
	blob = blob_of(k, NULL);
	CHECK(add(a, c, k, NULL, "k", NULL) == SSH_AGENT_SUCCESS);
	CHECK(lock(a, c, SSH_AGENTC_UNLOCK, "pw") == SSH_AGENT_FAILURE);
	CHECK(lock(a, c, SSH_AGENTC_LOCK, "pw") == SSH_AGENT_SUCCESS);
	CHECK(lock(a, c, SSH_AGENTC_LOCK, "pw") == SSH_AGENT_FAILURE);
	CHECK(agentd_list_count(a, c) == 0);
	CHECK(sign(a, c, blob, k, 0, NULL) == SSH_AGENT_FAILURE);
	last_delay = 0;
	CHECK(lock(a, c, SSH_AGENTC_UNLOCK, "wrong") == SSH_AGENT_FAILURE);
	CHECK(last_delay == 100000);
	CHECK(lock(a, c, SSH_AGENTC_UNLOCK, "pwx") == SSH_AGENT_FAILURE);
	CHECK(last_delay == 200000);
	CHECK(agentd_list_count(a, c) == 0);
	CHECK(lock(a, c, SSH_AGENTC_UNLOCK, "pw") == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 1);
	CHECK(sign(a, c, blob, k, 0, NULL) == SSH_AGENT_SIGN_RESPONSE);
	/* The failure count starts again after a good unlock. */
	CHECK(lock(a, c, SSH_AGENTC_LOCK, "pw2") == SSH_AGENT_SUCCESS);
	CHECK(lock(a, c, SSH_AGENTC_UNLOCK, "pw") == SSH_AGENT_FAILURE);
	CHECK(last_delay == 100000);
	CHECK(lock(a, c, SSH_AGENTC_UNLOCK, "pw2") == SSH_AGENT_SUCCESS);
	key_free(k);
	sbuf_free(blob);
	agentd_conn_free(c);
	agentd_free(a);
}

static int
bind_req(struct agentd *a, struct agentd_conn *c, const struct key *hk,
    const struct key *signer, const unsigned char *sid, size_t sidlen,
    int fwd)
{
	struct sbuf *b = sbuf_new(), *kb = blob_of(hk, NULL), *sig = sbuf_new();
	int t;

	key_sign(signer, NULL, sid, sidlen, sig);
	sbuf_put_cstring(b, "session-bind@openssh.com");
	sbuf_put_stringb(b, kb);
	sbuf_put_string(b, sid, sidlen);
	sbuf_put_stringb(b, sig);
	sbuf_put_u8(b, (uint8_t)fwd);
	t = agentd_req(a, c, SSH_AGENTC_EXTENSION, b, NULL);
	sbuf_free(b);
	sbuf_free(kb);
	sbuf_free(sig);
	return t;
}

static void
test_session_bind(void)
{
	struct agentd_conn *c = agentd_conn_new();
	unsigned char sid[32], sid2[32];
	struct key *hk, *other;
	struct sbuf *b = sbuf_new();
	struct agentd *a;

	agentd_new(NULL, &a);
	RAND_bytes(sid, sizeof(sid));
	RAND_bytes(sid2, sizeof(sid2));
	CHECK_OK(key_generate(KEY_ED25519, 0, &hk));
	CHECK_OK(key_generate(KEY_ECDSA, 256, &other));
	/* A signature by another key than the one named. */
	CHECK(bind_req(a, c, hk, other, sid, 32, 1) == SSH_AGENT_FAILURE);
	CHECK(agentd_conn_bindings(c) == 0);
	CHECK(bind_req(a, c, hk, hk, sid, 32, 1) == SSH_AGENT_SUCCESS);
	CHECK(agentd_conn_bindings(c) == 1);
	/* The same again is no new record; the sid with another key: no. */
	CHECK(bind_req(a, c, hk, hk, sid, 32, 1) == SSH_AGENT_SUCCESS);
	CHECK(agentd_conn_bindings(c) == 1);
	CHECK(bind_req(a, c, other, other, sid, 32, 1) == SSH_AGENT_FAILURE);
	/* An authentication binding ends the chain. */
	CHECK(bind_req(a, c, other, other, sid2, 32, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_conn_bindings(c) == 2);
	CHECK(bind_req(a, c, hk, hk, sid2, 16, 1) == SSH_AGENT_FAILURE);
	/* Other extensions and messages. */
	sbuf_put_cstring(b, "query");
	CHECK(agentd_req(a, c, SSH_AGENTC_EXTENSION, b, NULL) == SSH_AGENT_FAILURE);
	CHECK(agentd_req(a, c, SSH_AGENTC_ADD_SMARTCARD_KEY, b, NULL) ==
	    SSH_AGENT_FAILURE);
	CHECK(agentd_req(a, c, SSH_AGENTC_REMOVE_SMARTCARD_KEY, b, NULL) ==
	    SSH_AGENT_FAILURE);
	CHECK(agentd_req(a, c, 200, NULL, NULL) == SSH_AGENT_FAILURE);
	/* Trailing bytes after a list request: malformed. */
	CHECK(agentd_req(a, c, SSH_AGENTC_REQUEST_IDENTITIES, b, NULL) == -1);
	key_free(hk);
	key_free(other);
	sbuf_free(b);
	agentd_conn_free(c);
	agentd_free(a);
}

/* Every proper prefix of body as a request must close the connection. */
static void
cut_everywhere(struct agentd *a, int type, const struct sbuf *body)
{
	struct agentd_conn *c = agentd_conn_new();
	struct sbuf *part = sbuf_new();
	size_t i, bad = 0;

	for (i = 0; i < sbuf_len(body); i++) {
		sbuf_reset(part);
		sbuf_put(part, sbuf_ptr(body), i);
		if (agentd_req(a, c, type, part, NULL) != -1)
			bad++;
	}
	CHECK(bad == 0);
	CHECK(agentd_req(a, c, type, body, NULL) != -1);
	sbuf_free(part);
	agentd_conn_free(c);
}

static void
test_cuts(void)
{
	struct agentd_config cfg = { .now = fake_now, .delay = fake_delay };
	struct key *k, *ca;
	struct key_cert *cert;
	struct sbuf *b, *blob;
	struct agentd *a;
	enum key_type t;

	agentd_new(&cfg, &a);
	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	for (t = KEY_ED25519; t <= KEY_RSA; t++) {
		CHECK_OK(key_generate(t, t == KEY_RSA ? 1024 : 0, &k));
		CHECK_OK(cert_new(k, CERT_TYPE_USER, &cert));
		CHECK_OK(cert_sign(cert, ca, NULL));
		b = add_body(k, NULL, "comment", NULL);
		cut_everywhere(a, SSH_AGENTC_ADD_IDENTITY, b);
		sbuf_free(b);
		b = add_body(k, cert, "comment", NULL);
		cut_everywhere(a, SSH_AGENTC_ADD_IDENTITY, b);
		sbuf_free(b);
		blob = blob_of(k, NULL);
		b = sign_body(blob, "data", 0);
		cut_everywhere(a, SSH_AGENTC_SIGN_REQUEST, b);
		sbuf_free(b);
		sbuf_free(blob);
		key_free(k);
		cert_free(cert);
	}
	CHECK(agentd_count(a) == 6);
	/* Lock, and a session-bind signed by the CA key. */
	b = sbuf_new();
	sbuf_put_cstring(b, "passphrase");
	cut_everywhere(a, SSH_AGENTC_LOCK, b);
	sbuf_reset(b);
	{
		struct sbuf *kb = blob_of(ca, NULL), *sig = sbuf_new();

		key_sign(ca, NULL, (const unsigned char *)"sid", 3, sig);
		sbuf_put_cstring(b, "session-bind@openssh.com");
		sbuf_put_stringb(b, kb);
		sbuf_put_cstring(b, "sid");
		sbuf_put_stringb(b, sig);
		sbuf_put_u8(b, 0);
		cut_everywhere(a, SSH_AGENTC_EXTENSION, b);
		sbuf_free(kb);
		sbuf_free(sig);
	}
	sbuf_free(b);
	key_free(ca);
	agentd_free(a);
}

/* The byte stream: split anywhere, several requests per read. */
static void
test_framing(void)
{
	static const unsigned char two[] = {
		0, 0, 0, 1, SSH_AGENTC_REQUEST_IDENTITIES,
		0, 0, 0, 1, SSH_AGENTC_REMOVE_ALL_IDENTITIES,
	};
	static const unsigned char want[] = {
		0, 0, 0, 5, SSH_AGENT_IDENTITIES_ANSWER, 0, 0, 0, 0,
		0, 0, 0, 1, SSH_AGENT_SUCCESS,
	};
	static const unsigned char big[] = { 0, 4, 0, 1, 11 };
	static const unsigned char empty[] = { 0, 0, 0, 0 };
	struct agentd_conn *c = agentd_conn_new();
	struct sbuf *out = sbuf_new();
	struct agentd *a;
	size_t i;

	agentd_new(NULL, &a);
	CHECK_OK(agentd_input(a, c, two, sizeof(two), out));
	CHECK(sbuf_len(out) == sizeof(want) &&
	    memcmp(sbuf_ptr(out), want, sizeof(want)) == 0);
	sbuf_reset(out);
	for (i = 0; i < sizeof(two); i++)
		CHECK_OK(agentd_input(a, c, two + i, 1, out));
	CHECK(sbuf_len(out) == sizeof(want) &&
	    memcmp(sbuf_ptr(out), want, sizeof(want)) == 0);
	/* A full output holds requests back until it drains. */
	sbuf_reset(out);
	sbuf_reserve(out, AGENTD_OUT_MAX, NULL);
	CHECK_OK(agentd_input(a, c, two, sizeof(two), out));
	CHECK(sbuf_len(out) == AGENTD_OUT_MAX);
	CHECK(agentd_conn_pending(c) == sizeof(two));
	sbuf_reset(out);
	CHECK_OK(agentd_input(a, c, NULL, 0, out));
	CHECK(agentd_conn_pending(c) == 0);
	CHECK(sbuf_len(out) == sizeof(want) &&
	    memcmp(sbuf_ptr(out), want, sizeof(want)) == 0);
	CHECK(agentd_input(a, c, big, sizeof(big), out) != 0);
	agentd_conn_free(c);
	c = agentd_conn_new();
	CHECK(agentd_input(a, c, empty, sizeof(empty), out) != 0);
	agentd_conn_free(c);
	sbuf_free(out);
	agentd_free(a);
}

int
main(void)
{
	test_keys_and_certs();
	test_constraints();
	test_lock();
	test_session_bind();
	test_cuts();
	test_framing();
	return TEST_DONE();
}
