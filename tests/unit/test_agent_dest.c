/*
 * test_agent_dest.c: the agent's destination constraints
 * (restrict-destination-v00@openssh.com, src/client/agentd_dest.c):
 * which constraints are taken and which refused, and how a constrained
 * key is listed and signs on connections bound (session-bind) to
 * permitted and other hosts: the first hop, forwarded hops, the user
 * pattern, host certificates under a CA, the session id and host key
 * named in the signed userauth request.
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

#define HB "publickey-hostbound-v00@openssh.com"

static struct key *user_key, *host_a, *host_b, *host_x, *ca;
static struct sbuf *user_blob;

static void
put_key(struct sbuf *b, const struct key *k)
{
	struct sbuf *kb = sbuf_new();

	key_to_blob(k, kb);
	sbuf_put_stringb(b, kb);
	sbuf_free(kb);
}

/* A hop: user, host, reserved, then (key, is_ca) pairs. */
static void
put_hop(struct sbuf *c, const char *user, const char *host,
    const char *reserved, const struct key *k1, int ca1, const struct key *k2)
{
	struct sbuf *h = sbuf_new();

	sbuf_put_cstring(h, user);
	sbuf_put_cstring(h, host);
	sbuf_put_cstring(h, reserved);
	if (k1 != NULL) {
		put_key(h, k1);
		sbuf_put_u8(h, (uint8_t)ca1);
	}
	if (k2 != NULL) {
		put_key(h, k2);
		sbuf_put_u8(h, 0);
	}
	sbuf_put_stringb(c, h);
	sbuf_free(h);
}

/* A constraint "from > [user@]to" appended to list. */
static void
put_dest(struct sbuf *list, const char *from, const struct key *fk,
    const char *user, const char *to, const struct key *tk, int to_ca)
{
	struct sbuf *c = sbuf_new();

	put_hop(c, "", from, "", fk, 0, NULL);
	put_hop(c, user, to, "", tk, to_ca, NULL);
	sbuf_put_cstring(c, "");
	sbuf_put_stringb(list, c);
	sbuf_free(c);
}

/* ADD_ID_CONSTRAINED of user_key with the constraint list (raw). */
static int
add_raw(struct agentd *a, struct agentd_conn *c, const struct sbuf *list,
    int twice)
{
	struct sbuf *b = sbuf_new();
	int t, i;

	key_private_to_sbuf(user_key, b);
	sbuf_put_cstring(b, "restricted");
	for (i = 0; i < 1 + twice; i++) {
		sbuf_put_u8(b, SSH_AGENT_CONSTRAIN_EXTENSION);
		sbuf_put_cstring(b, "restrict-destination-v00@openssh.com");
		sbuf_put_stringb(b, list);
	}
	t = agentd_req(a, c, SSH_AGENTC_ADD_ID_CONSTRAINED, b, NULL);
	sbuf_free(b);
	return t;
}

static int
bind_blob(struct agentd *a, struct agentd_conn *c, const struct sbuf *hkblob,
    const struct key *signer, const unsigned char *sid, int fwd)
{
	struct sbuf *b = sbuf_new(), *sig = sbuf_new();
	int t;

	key_sign(signer, NULL, sid, 32, sig);
	sbuf_put_cstring(b, "session-bind@openssh.com");
	sbuf_put_stringb(b, hkblob);
	sbuf_put_string(b, sid, 32);
	sbuf_put_stringb(b, sig);
	sbuf_put_u8(b, (uint8_t)fwd);
	t = agentd_req(a, c, SSH_AGENTC_EXTENSION, b, NULL);
	sbuf_free(b);
	sbuf_free(sig);
	return t;
}

static int
bind_key(struct agentd *a, struct agentd_conn *c, const struct key *hk,
    const unsigned char *sid, int fwd)
{
	struct sbuf *kb = sbuf_new();
	int t;

	key_to_blob(hk, kb);
	t = bind_blob(a, c, kb, hk, sid, fwd);
	sbuf_free(kb);
	return t;
}

/* Sign a userauth request (hk NULL: plain publickey) or raw text. */
static int
sign_ua(struct agentd *a, struct agentd_conn *c, const unsigned char *sid,
    const char *user, const struct key *hk, const char *raw)
{
	struct sbuf *d = sbuf_new(), *b = sbuf_new();
	int t;

	if (raw != NULL)
		sbuf_put_cstring(d, raw);
	else {
		sbuf_put_string(d, sid, 32);
		sbuf_put_u8(d, 50);
		sbuf_put_cstring(d, user);
		sbuf_put_cstring(d, "ssh-connection");
		sbuf_put_cstring(d, hk != NULL ? HB : "publickey");
		sbuf_put_u8(d, 1);
		sbuf_put_cstring(d, "ssh-ed25519");
		sbuf_put_stringb(d, user_blob);
		if (hk != NULL)
			put_key(d, hk);
	}
	sbuf_put_stringb(b, user_blob);
	sbuf_put_stringb(b, d);
	sbuf_put_u32(b, 0);
	t = agentd_req(a, c, SSH_AGENTC_SIGN_REQUEST, b, NULL);
	sbuf_free(d);
	sbuf_free(b);
	return t;
}

static void
test_parse(void)
{
	struct agentd_conn *c = agentd_conn_new();
	struct sbuf *l = sbuf_new(), *h;
	struct agentd *a;

	agentd_new(NULL, &a);
	/* Taken: from here to A; from A to B as a user pattern. */
	put_dest(l, "", NULL, "", "a", host_a, 0);
	put_dest(l, "a", host_a, "al*", "b", host_b, 0);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_count(a) == 1);
	/* Set twice in one request: refused. */
	CHECK(add_raw(a, c, l, 1) == SSH_AGENT_FAILURE);
	/* No constraint at all in the list: refused. */
	sbuf_reset(l);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
	/* A "from" host without keys, keys without a host, a user. */
	put_dest(l, "a", NULL, "", "b", host_b, 0);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
	sbuf_reset(l);
	put_dest(l, "", host_a, "", "b", host_b, 0);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
	sbuf_reset(l);
	h = sbuf_new();
	put_hop(h, "root", "a", "", host_a, 0, NULL);
	put_hop(h, "", "b", "", host_b, 0, NULL);
	sbuf_put_cstring(h, "");
	sbuf_put_stringb(l, h);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
	/* "to" without keys or without a host. */
	sbuf_reset(l);
	put_dest(l, "", NULL, "", "b", NULL, 0);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
	sbuf_reset(l);
	put_dest(l, "", NULL, "", "", host_b, 0);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
	/* Reserved fields must be empty. */
	sbuf_reset(l);
	sbuf_reset(h);
	put_hop(h, "", "", "", NULL, 0, NULL);
	put_hop(h, "", "b", "x", host_b, 0, NULL);
	sbuf_put_cstring(h, "");
	sbuf_put_stringb(l, h);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
	/* A key blob that is no key; a truncated hop: the latter closes. */
	sbuf_reset(l);
	sbuf_reset(h);
	{
		struct sbuf *hop = sbuf_new();

		sbuf_put_cstring(hop, "");
		sbuf_put_cstring(hop, "b");
		sbuf_put_cstring(hop, "");
		sbuf_put_cstring(hop, "not a key");
		sbuf_put_u8(hop, 0);
		put_hop(h, "", "", "", NULL, 0, NULL);
		sbuf_put_stringb(h, hop);
		sbuf_put_cstring(h, "");
		sbuf_put_stringb(l, h);
		CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
		sbuf_reset(l);
		sbuf_reset(h);
		sbuf_reset(hop);
		sbuf_put_cstring(hop, "");
		sbuf_put_cstring(hop, "b");
		sbuf_put_cstring(hop, "");
		put_key(hop, host_b);	/* no is_ca byte */
		put_hop(h, "", "", "", NULL, 0, NULL);
		sbuf_put_stringb(h, hop);
		sbuf_put_cstring(h, "");
		sbuf_put_stringb(l, h);
		CHECK(add_raw(a, c, l, 0) == -1);
		sbuf_free(hop);
	}
	/* An unknown constraint extension: refused. */
	sbuf_reset(l);
	key_private_to_sbuf(user_key, l);
	sbuf_put_cstring(l, "c");
	sbuf_put_u8(l, SSH_AGENT_CONSTRAIN_EXTENSION);
	sbuf_put_cstring(l, "no-such-constraint@example.com");
	CHECK(agentd_req(a, c, SSH_AGENTC_ADD_ID_CONSTRAINED, l, NULL) ==
	    SSH_AGENT_FAILURE);
	CHECK(agentd_count(a) == 1);
	sbuf_free(h);
	sbuf_free(l);
	agentd_conn_free(c);
	agentd_free(a);
}

/* A fresh agent holding user_key restricted by the list l. */
static struct agentd *
agent_with(const struct sbuf *l)
{
	struct agentd_conn *c = agentd_conn_new();
	struct agentd *a;

	agentd_new(NULL, &a);
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_SUCCESS);
	agentd_conn_free(c);
	return a;
}

static void
test_first_hop(void)
{
	struct sbuf *l = sbuf_new();
	struct agentd_conn *c;
	unsigned char sid[32], sid2[32];
	struct agentd *a;

	RAND_bytes(sid, sizeof(sid));
	RAND_bytes(sid2, sizeof(sid2));
	put_dest(l, "", NULL, "alice", "a", host_a, 0);
	a = agent_with(l);
	/* Unbound: the local user lists it but may not have it sign. */
	c = agentd_conn_new();
	CHECK(agentd_list_count(a, c) == 1);
	CHECK(sign_ua(a, c, sid, "alice", host_a, NULL) == SSH_AGENT_FAILURE);
	agentd_conn_free(c);
	/* Bound to A. */
	c = agentd_conn_new();
	CHECK(bind_key(a, c, host_a, sid, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 1);
	CHECK(sign_ua(a, c, sid, "alice", host_a, NULL) ==
	    SSH_AGENT_SIGN_RESPONSE);
	/* Plain publickey on the first hop: as OpenSSH's agent, allowed. */
	CHECK(sign_ua(a, c, sid, "alice", NULL, NULL) ==
	    SSH_AGENT_SIGN_RESPONSE);
	/* Another user, session id, host key; not a userauth request. */
	CHECK(sign_ua(a, c, sid, "bob", host_a, NULL) == SSH_AGENT_FAILURE);
	CHECK(sign_ua(a, c, sid2, "alice", host_a, NULL) ==
	    SSH_AGENT_FAILURE);
	CHECK(sign_ua(a, c, sid, "alice", host_x, NULL) == SSH_AGENT_FAILURE);
	CHECK(sign_ua(a, c, NULL, NULL, NULL, "anything") ==
	    SSH_AGENT_FAILURE);
	agentd_conn_free(c);
	/* Bound to X: hidden, no signature, not removable. */
	c = agentd_conn_new();
	CHECK(bind_key(a, c, host_x, sid, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 0);
	CHECK(sign_ua(a, c, sid, "alice", host_x, NULL) == SSH_AGENT_FAILURE);
	CHECK(agentd_req(a, c, SSH_AGENTC_REMOVE_IDENTITY, NULL, NULL) == -1);
	{
		struct sbuf *b = sbuf_new();

		sbuf_put_stringb(b, user_blob);
		CHECK(agentd_req(a, c, SSH_AGENTC_REMOVE_IDENTITY, b, NULL) ==
		    SSH_AGENT_FAILURE);
		CHECK(agentd_count(a) == 1);
		sbuf_free(b);
	}
	/* Nor replaced from there. */
	CHECK(add_raw(a, c, l, 0) == SSH_AGENT_FAILURE);
	agentd_conn_free(c);
	/* A failed bind leaves the connection seeing no constrained key. */
	c = agentd_conn_new();
	{
		struct sbuf *kb = sbuf_new();

		key_to_blob(host_a, kb);
		CHECK(bind_blob(a, c, kb, host_x, sid, 0) ==
		    SSH_AGENT_FAILURE);
		sbuf_free(kb);
	}
	CHECK(agentd_list_count(a, c) == 0);
	agentd_conn_free(c);
	agentd_free(a);
	sbuf_free(l);
}

static void
test_forwarding(void)
{
	struct sbuf *l = sbuf_new();
	struct agentd_conn *c;
	unsigned char s1[32], s2[32];
	struct agentd *a;

	RAND_bytes(s1, sizeof(s1));
	RAND_bytes(s2, sizeof(s2));
	/* Only to A: hidden when forwarded on from A. */
	put_dest(l, "", NULL, "", "a", host_a, 0);
	a = agent_with(l);
	c = agentd_conn_new();
	CHECK(bind_key(a, c, host_a, s1, 1) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 0);
	CHECK(bind_key(a, c, host_b, s2, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 0);
	CHECK(sign_ua(a, c, s2, "u", host_b, NULL) == SSH_AGENT_FAILURE);
	agentd_conn_free(c);
	agentd_free(a);
	/* A, and A > B: signs on B through A, not on A past a forward. */
	put_dest(l, "a", host_a, "", "b", host_b, 0);
	a = agent_with(l);
	c = agentd_conn_new();
	CHECK(bind_key(a, c, host_a, s1, 1) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 1);
	CHECK(sign_ua(a, c, s1, "u", host_a, NULL) == SSH_AGENT_FAILURE);
	CHECK(bind_key(a, c, host_b, s2, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 1);
	CHECK(sign_ua(a, c, s2, "u", host_b, NULL) == SSH_AGENT_SIGN_RESPONSE);
	/* Past the first hop the host key must be in the request. */
	CHECK(sign_ua(a, c, s2, "u", NULL, NULL) == SSH_AGENT_FAILURE);
	CHECK(sign_ua(a, c, s1, "u", host_b, NULL) == SSH_AGENT_FAILURE);
	agentd_conn_free(c);
	/* X > B is no hop of it; nor is A bound for signing, then B. */
	c = agentd_conn_new();
	CHECK(bind_key(a, c, host_x, s1, 1) == SSH_AGENT_SUCCESS);
	CHECK(bind_key(a, c, host_b, s2, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 0);
	CHECK(sign_ua(a, c, s2, "u", host_b, NULL) == SSH_AGENT_FAILURE);
	agentd_conn_free(c);
	c = agentd_conn_new();
	CHECK(bind_key(a, c, host_a, s1, 0) == SSH_AGENT_SUCCESS);
	CHECK(bind_key(a, c, host_b, s2, 0) == SSH_AGENT_FAILURE);
	agentd_conn_free(c);
	agentd_free(a);
	sbuf_free(l);
}

/* A host certificate for k, signed by ca, for principal. */
static struct sbuf *
host_cert(const struct key *k, const char *principal)
{
	struct key_cert *hc = NULL;
	struct sbuf *b = sbuf_new();

	CHECK_OK(cert_new(k, CERT_TYPE_HOST, &hc));
	CHECK_OK(cert_add_principal(hc, principal));
	hc->valid_after = 0;
	hc->valid_before = ~(uint64_t)0;
	CHECK_OK(cert_sign(hc, ca, NULL));
	CHECK_OK(cert_to_blob(hc, b));
	cert_free(hc);
	return b;
}

static void
test_ca(void)
{
	struct sbuf *l = sbuf_new(), *good = host_cert(host_a, "a"),
	    *wrong = host_cert(host_a, "elsewhere");
	struct agentd_conn *c;
	unsigned char sid[32];
	struct agentd *a;

	RAND_bytes(sid, sizeof(sid));
	put_dest(l, "", NULL, "", "a", ca, 1);
	a = agent_with(l);
	c = agentd_conn_new();
	CHECK(bind_blob(a, c, good, host_a, sid, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 1);
	agentd_conn_free(c);
	c = agentd_conn_new();
	CHECK(bind_blob(a, c, wrong, host_a, sid, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 0);
	agentd_conn_free(c);
	/* The plain host key is no match for a CA entry. */
	c = agentd_conn_new();
	CHECK(bind_key(a, c, host_a, sid, 0) == SSH_AGENT_SUCCESS);
	CHECK(agentd_list_count(a, c) == 0);
	agentd_conn_free(c);
	agentd_free(a);
	sbuf_free(l);
	sbuf_free(good);
	sbuf_free(wrong);
}

int
main(void)
{
	CHECK_OK(key_generate(KEY_ED25519, 0, &user_key));
	CHECK_OK(key_generate(KEY_ED25519, 0, &host_a));
	CHECK_OK(key_generate(KEY_ECDSA, 256, &host_b));
	CHECK_OK(key_generate(KEY_ED25519, 0, &host_x));
	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	user_blob = sbuf_new();
	key_to_blob(user_key, user_blob);
	test_parse();
	test_first_hop();
	test_forwarding();
	test_ca();
	key_free(user_key);
	key_free(host_a);
	key_free(host_b);
	key_free(host_x);
	key_free(ca);
	sbuf_free(user_blob);
	return TEST_DONE();
}
