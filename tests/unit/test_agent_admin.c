/*
 * test_agent_admin.c: ssh-add's agent requests (src/client/agent.c:
 * agent_add, agent_remove, agent_remove_all, agent_lock) against a fake
 * agent in this process: the "agent" end of a socketpair holds its
 * answer (then end of file) before the request is made, and the
 * request is read back from it afterwards and taken apart field by
 * field: the private key body of each type, the certificate forms of
 * ADD_IDENTITY, the constraints (lifetime, confirm, maxsign and the
 * restrict-destination extension). Then every malformed answer: FAILURE,
 * other types, surplus bytes, bad lengths, and the good answer cut at
 * every byte must each give an error, never a crash or a hang.
 */
#include <sys/socket.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "cert.h"
#include "key.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

static struct key *keys[3], *ca_key;	/* ed25519, ecdsa, rsa */
static struct key_cert *certs[3];

enum op { OP_ADD, OP_ADD_CONS, OP_ADD_CERT, OP_REMOVE, OP_REMOVE_ALL,
	OP_LOCK, OP_UNLOCK };

/*
 * Run op (on key i) against an agent that answers raw; the bytes the
 * agent was sent end up in sent (when not NULL).
 */
static int
run(enum op op, size_t i, const unsigned char *raw, size_t len,
    struct sbuf *sent)
{
	struct agent_constraints cons = { 5, 1, 7, NULL, NULL };
	unsigned char buf[4096];
	struct sbuf *blob, *dest = sbuf_new();
	ssize_t n;
	int sv[2], r = ERR_INTERNAL;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		abort();
	if (len > 0 && write(sv[1], raw, len) != (ssize_t)len)
		abort();
	shutdown(sv[1], SHUT_WR);
	sbuf_put_cstring(dest, "dest");
	cons.dest = dest;
	switch (op) {
	case OP_ADD:
		r = agent_add(sv[0], keys[i], NULL, "c", NULL);
		break;
	case OP_ADD_CONS:
		r = agent_add(sv[0], keys[i], NULL, "c", &cons);
		break;
	case OP_ADD_CERT:
		r = agent_add(sv[0], keys[i], certs[i], "cert", NULL);
		break;
	case OP_REMOVE:
		blob = sbuf_new();
		key_to_blob(keys[i], blob);
		r = agent_remove(sv[0], sbuf_ptr(blob), sbuf_len(blob));
		sbuf_free(blob);
		break;
	case OP_REMOVE_ALL:
		r = agent_remove_all(sv[0]);
		break;
	case OP_LOCK:
	case OP_UNLOCK:
		r = agent_lock(sv[0], op == OP_LOCK, "pw");
		break;
	}
	sbuf_free(dest);
	close(sv[0]);
	while (sent != NULL && (n = read(sv[1], buf, sizeof(buf))) > 0)
		sbuf_put(sent, buf, (size_t)n);
	close(sv[1]);
	return r;
}

static const unsigned char success[] = { 0, 0, 0, 1, SSH_AGENT_SUCCESS };

/* The next request frame of sent into a view; its type. */
static struct sbuf *
next_request(struct sbuf *sent, uint8_t *typep)
{
	const unsigned char *p;
	size_t len;
	struct sbuf *req;

	if (sbuf_get_string_direct(sent, &p, &len) != 0)
		return NULL;
	req = sbuf_from(p, len);
	if (sbuf_get_u8(req, typep) != 0) {
		sbuf_free(req);
		return NULL;
	}
	return req;
}

static void
test_add_plain(void)
{
	struct sbuf *sent, *req;
	const unsigned char *p;
	struct key *got;
	char *comment;
	size_t len;
	uint32_t life;
	uint8_t type, c1, c2;
	size_t i;

	for (i = 0; i < 3; i++) {
		sent = sbuf_new();
		CHECK_OK(run(OP_ADD, i, success, sizeof(success), sent));
		req = next_request(sent, &type);
		CHECK(req != NULL && type == SSH_AGENTC_ADD_IDENTITY);
		if (req == NULL)
			goto next;
		CHECK_OK(key_private_from_sbuf(req, &got));
		CHECK(got != NULL && key_equal_public(got, keys[i]) &&
		    got->has_private);
		key_free(got);
		CHECK_OK(sbuf_get_cstring(req, &comment, NULL));
		CHECK_STR(comment, "c");
		x_free(comment);
		CHECK(sbuf_len(req) == 0 && sbuf_len(sent) == 0);
		sbuf_free(req);

		sbuf_reset(sent);
		CHECK_OK(run(OP_ADD_CONS, i, success, sizeof(success), sent));
		req = next_request(sent, &type);
		CHECK(req != NULL && type == SSH_AGENTC_ADD_ID_CONSTRAINED);
		if (req == NULL)
			goto next;
		CHECK_OK(key_private_from_sbuf(req, &got));
		key_free(got);
		CHECK_OK(sbuf_get_cstring(req, &comment, NULL));
		x_free(comment);
		CHECK(sbuf_get_u8(req, &c1) == 0 &&
		    c1 == SSH_AGENT_CONSTRAIN_LIFETIME);
		CHECK(sbuf_get_u32(req, &life) == 0 && life == 5);
		CHECK(sbuf_get_u8(req, &c2) == 0 &&
		    c2 == SSH_AGENT_CONSTRAIN_CONFIRM);
		CHECK(sbuf_get_u8(req, &c1) == 0 &&
		    c1 == SSH_AGENT_CONSTRAIN_MAXSIGN);
		CHECK(sbuf_get_u32(req, &life) == 0 && life == 7);
		CHECK(sbuf_get_u8(req, &c1) == 0 &&
		    c1 == SSH_AGENT_CONSTRAIN_EXTENSION);
		CHECK(sbuf_get_cstring(req, &comment, NULL) == 0 &&
		    strcmp(comment, AGENT_RESTRICT_DESTINATION) == 0);
		x_free(comment);
		CHECK(sbuf_get_string_direct(req, &p, &len) == 0 &&
		    len == 8 && memcmp(p, "\0\0\0\4dest", 8) == 0);
		CHECK(sbuf_len(req) == 0);
		sbuf_free(req);
 next:
		sbuf_free(sent);
	}
}

/*
 * The private fields a certificate carries: the key's private body
 * without its type name and, for ECDSA and RSA, without the public
 * fields in front (curve and point; n and e).
 */
static struct sbuf *
cert_fields_of(const struct key *k)
{
	struct sbuf *body = sbuf_new(), *out;
	int skip;

	CHECK_OK(key_private_to_sbuf(k, body));
	skip = k->type == KEY_ED25519 ? 1 : 3;
	while (skip-- > 0)
		CHECK_OK(sbuf_get_string_direct(body, NULL, NULL));
	out = sbuf_new();
	sbuf_put(out, sbuf_ptr(body), sbuf_len(body));
	sbuf_free(body);
	return out;
}

static void
test_add_cert(void)
{
	struct sbuf *sent, *req, *want, *blob;
	const unsigned char *p;
	char *name, *comment;
	size_t i, len;
	uint8_t type;

	for (i = 0; i < 3; i++) {
		sent = sbuf_new();
		CHECK_OK(run(OP_ADD_CERT, i, success, sizeof(success), sent));
		req = next_request(sent, &type);
		CHECK(req != NULL && type == SSH_AGENTC_ADD_IDENTITY);
		if (req == NULL) {
			sbuf_free(sent);
			continue;
		}
		CHECK_OK(sbuf_get_cstring(req, &name, NULL));
		CHECK_STR(name, cert_type_name(keys[i]));
		x_free(name);
		blob = sbuf_new();
		cert_to_blob(certs[i], blob);
		CHECK(sbuf_get_string_direct(req, &p, &len) == 0 &&
		    len == sbuf_len(blob) &&
		    memcmp(p, sbuf_ptr(blob), len) == 0);
		sbuf_free(blob);
		want = cert_fields_of(keys[i]);
		/* the fields, then string comment "cert" (4 + 4 bytes) */
		CHECK(sbuf_len(req) == sbuf_len(want) + 8 &&
		    memcmp(sbuf_ptr(req), sbuf_ptr(want),
		    sbuf_len(want)) == 0);
		sbuf_consume(req, sbuf_len(want));
		CHECK_OK(sbuf_get_cstring(req, &comment, NULL));
		CHECK_STR(comment, "cert");
		x_free(comment);
		CHECK(sbuf_len(req) == 0);
		sbuf_free(want);
		sbuf_free(req);
		sbuf_free(sent);
	}
	/* A public key, or a certificate of another key: nothing sent. */
	{
		struct key *pub;
		int sv[2];

		CHECK_OK(key_demote(keys[0], &pub));
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
			abort();
		CHECK_ERR(agent_add(sv[0], pub, NULL, "c", NULL),
		    ERR_INVALID_ARGUMENT);
		CHECK_ERR(agent_add(sv[0], keys[0], certs[1], "c", NULL),
		    ERR_INVALID_ARGUMENT);
		close(sv[0]);
		CHECK(read(sv[1], &type, 1) == 0);
		close(sv[1]);
		key_free(pub);
	}
}

static void
test_other_requests(void)
{
	struct sbuf *sent = sbuf_new(), *req, *blob = sbuf_new();
	unsigned char two[10];
	const unsigned char *p;
	char *pw = NULL;
	size_t len;
	uint8_t type;

	CHECK_OK(run(OP_REMOVE, 2, success, sizeof(success), sent));
	req = next_request(sent, &type);
	key_to_blob(keys[2], blob);
	CHECK(req != NULL && type == SSH_AGENTC_REMOVE_IDENTITY &&
	    sbuf_get_string_direct(req, &p, &len) == 0 &&
	    len == sbuf_len(blob) && memcmp(p, sbuf_ptr(blob), len) == 0 &&
	    sbuf_len(req) == 0);
	sbuf_free(req);

	/* remove-all: both requests, whether or not the second is answered */
	memcpy(two, success, 5);
	memcpy(two + 5, success, 5);
	two[9] = SSH_AGENT_FAILURE;
	sbuf_reset(sent);
	CHECK_OK(run(OP_REMOVE_ALL, 0, two, sizeof(two), sent));
	req = next_request(sent, &type);
	CHECK(req != NULL && type == SSH_AGENTC_REMOVE_ALL_IDENTITIES &&
	    sbuf_len(req) == 0);
	sbuf_free(req);
	req = next_request(sent, &type);
	CHECK(req != NULL && type == SSH_AGENTC_REMOVE_ALL_RSA_IDENTITIES &&
	    sbuf_len(req) == 0);
	sbuf_free(req);
	CHECK_OK(run(OP_REMOVE_ALL, 0, success, sizeof(success), NULL));
	CHECK_ERR(run(OP_REMOVE_ALL, 0, two + 5, 5, NULL),
	    ERR_PERMISSION_DENIED);

	sbuf_reset(sent);
	CHECK_OK(run(OP_LOCK, 0, success, sizeof(success), sent));
	req = next_request(sent, &type);
	CHECK(req != NULL && type == SSH_AGENTC_LOCK &&
	    sbuf_get_cstring(req, &pw, NULL) == 0 && strcmp(pw, "pw") == 0);
	x_free(pw);
	sbuf_free(req);
	sbuf_reset(sent);
	CHECK_OK(run(OP_UNLOCK, 0, success, sizeof(success), sent));
	req = next_request(sent, &type);
	CHECK(req != NULL && type == SSH_AGENTC_UNLOCK);
	sbuf_free(req);
	sbuf_free(blob);
	sbuf_free(sent);
}

/* Every operation against one scripted answer (hex). */
static void
all_ops(const char *hex, int want, int exact)
{
	unsigned char raw[64];
	size_t len = test_unhex(hex, raw, sizeof(raw));
	enum op op;
	int r;

	for (op = OP_ADD; op <= OP_UNLOCK; op++) {
		r = run(op, (size_t)op % 3, raw, len, NULL);
		if (exact)
			CHECK_ERR(r, want);
		else
			CHECK(r != 0);
	}
}

static void
test_malformed(void)
{
	size_t cut;

	all_ops("00000001 05", ERR_PERMISSION_DENIED, 1);
	all_ops("00000001 1e", ERR_PERMISSION_DENIED, 1);
	all_ops("00000001 66", ERR_PERMISSION_DENIED, 1);
	all_ops("00000001 0c", ERR_PROTOCOL, 1);
	all_ops("00000002 06 00", ERR_PROTOCOL, 1);
	all_ops("00000000", ERR_PROTOCOL, 1);
	all_ops("00040001 06", ERR_PROTOCOL, 1);
	all_ops("ffffffff 06", ERR_PROTOCOL, 1);
	all_ops("", 0, 0);
	/* the good answer cut at every byte */
	for (cut = 0; cut < sizeof(success); cut++) {
		enum op op;

		for (op = OP_ADD; op <= OP_UNLOCK; op++)
			CHECK(run(op, (size_t)op % 3, success, cut,
			    NULL) != 0);
	}
}

int
main(void)
{
	size_t i;

	signal(SIGPIPE, SIG_IGN);
	if (key_generate(KEY_ED25519, 0, &keys[0]) != 0 ||
	    key_generate(KEY_ECDSA, 384, &keys[1]) != 0 ||
	    key_generate(KEY_RSA, 2048, &keys[2]) != 0 ||
	    key_generate(KEY_ED25519, 0, &ca_key) != 0)
		return 1;
	for (i = 0; i < 3; i++)
		if (cert_new(keys[i], CERT_TYPE_USER, &certs[i]) != 0 ||
		    cert_add_principal(certs[i], "me") != 0 ||
		    cert_sign(certs[i], ca_key, NULL) != 0)
			return 1;
	test_add_plain();
	test_add_cert();
	test_other_requests();
	test_malformed();
	for (i = 0; i < 3; i++) {
		cert_free(certs[i]);
		key_free(keys[i]);
	}
	key_free(ca_key);
	return TEST_DONE();
}
