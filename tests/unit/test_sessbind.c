/*
 * test_sessbind.c: session-bind@openssh.com from the client's side.
 *
 * A client and a server transport run their key exchange in this
 * process over a socketpair. The client must keep the server's host key
 * blob and its signature from the first exchange (tr_first_kex()), the
 * signature must verify over the session identifier, and a rekey must
 * change none of them. Then agent_bind_transport() writes its request
 * to a socket whose answer is already waiting: the captured bytes are
 * checked field by field against the transport's values, and handed to
 * our agent's request handler, which must verify and record them. A
 * refusal by the agent must be survived.
 */
#include <sys/socket.h>

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "agentd.h"
#include "err.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"
#include "transport.h"

static struct key *hostkey, *hostpub;

static int
sign_cb(void *arg, const struct key *pub, const char *alg,
    const unsigned char *d, size_t dl, struct sbuf *sig)
{
	(void)arg;
	(void)pub;
	return key_sign(hostkey, alg, d, dl, sig);
}

static int
verify_cb(void *arg, const struct key *k)
{
	(void)arg;
	return key_equal_public(hostpub, k) ? 0 : ERR_HOSTKEY_MISMATCH;
}

struct pair {
	struct transport *s, *c;
	int fd[2];
};

static int
pair_open(struct pair *p)
{
	struct tr_config sc, cc;

	memset(&sc, 0, sizeof(sc));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, p->fd) != 0)
		return ERR_SYSTEM;
	sc.server = 1;
	sc.kex_algs = "curve25519-sha256";
	sc.hostkey_algs = "ssh-ed25519";
	sc.ciphers = "aes128-ctr";
	sc.macs = "hmac-sha2-256";
	sc.hostkeys = &hostpub;
	sc.nhostkeys = 1;
	sc.hostkey_sign = sign_cb;
	sc.peer_desc = "test port 1";
	cc = sc;
	cc.server = 0;
	cc.hostkeys = NULL;
	cc.nhostkeys = 0;
	cc.hostkey_sign = NULL;
	cc.hostkey_verify = verify_cb;
	p->s = tr_new(p->fd[0], p->fd[0], &sc);
	p->c = tr_new(p->fd[1], p->fd[1], &cc);
	return p->s && p->c ? 0 : ERR_INTERNAL;
}

static void
pair_close(struct pair *p)
{
	tr_free(p->s);
	tr_free(p->c);
	close(p->fd[0]);
	close(p->fd[1]);
}

/* Send one message of type from one end; run both until to has it. */
static int
pass(struct transport *from, struct transport *to, uint8_t type)
{
	struct sbuf *payload;
	uint8_t got;
	int i, r;

	tr_msg_start(from, type);
	if ((r = tr_msg_send(from)) != 0)
		return r;
	for (i = 0; i < 100000; i++) {
		(void)tr_fd_write(from);
		(void)tr_fd_write(to);
		if ((r = tr_fd_read(from)) != 0 && r != ERR_AGAIN)
			return r;
		if ((r = tr_next_message(from, &got, &payload)) != ERR_AGAIN)
			return r == 0 ? ERR_PROTOCOL : r;
		if ((r = tr_fd_read(to)) != 0 && r != ERR_AGAIN)
			return r;
		if ((r = tr_next_message(to, &got, &payload)) != ERR_AGAIN)
			return r != 0 ? r : got == type ? 0 : ERR_PROTOCOL;
	}
	return ERR_CONN_TIMEOUT;
}

/*
 * agent_bind_transport() on a socket whose agent end already holds the
 * answer (type ans); the request it wrote, unframed, into req.
 */
static int
capture(const struct transport *t, int fwd, uint8_t ans, struct sbuf *req)
{
	unsigned char frame[5] = { 0, 0, 0, 1, ans }, lb[4], *d;
	uint32_t len;
	int sv[2], ok = -1;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return -1;
	if (write(sv[1], frame, sizeof(frame)) != (ssize_t)sizeof(frame))
		goto out;
	agent_bind_transport(sv[0], t, fwd, "test");
	(void)shutdown(sv[0], SHUT_WR);
	if (read(sv[1], lb, 4) != 4)
		goto out;
	len = (uint32_t)lb[0] << 24 | (uint32_t)lb[1] << 16 |
	    (uint32_t)lb[2] << 8 | lb[3];
	if (len > 65536 || sbuf_reserve(req, len, &d) != 0 ||
	    read(sv[1], d, len) != (ssize_t)len)
		goto out;
	ok = 0;
 out:
	close(sv[0]);
	close(sv[1]);
	return ok;
}

/* The captured request, field by field, against t's values. */
static void
check_request(const struct transport *t, struct sbuf *req, int fwd)
{
	const unsigned char *hk, *sig, *sid, *p;
	size_t hklen, siglen, sidlen, n;
	struct sbuf *view = sbuf_from(sbuf_ptr(req), sbuf_len(req));
	char *name = NULL;
	uint8_t type, flag = 9;

	sid = tr_session_id(t, &sidlen);
	CHECK_OK(tr_first_kex(t, &hk, &hklen, &sig, &siglen));
	CHECK_OK(sbuf_get_u8(view, &type));
	CHECK(type == SSH_AGENTC_EXTENSION);
	CHECK_OK(sbuf_get_cstring(view, &name, NULL));
	CHECK_STR(name, "session-bind@openssh.com");
	CHECK_OK(sbuf_get_string_direct(view, &p, &n));
	CHECK(n == hklen && memcmp(p, hk, n) == 0);
	CHECK_OK(sbuf_get_string_direct(view, &p, &n));
	CHECK(n == sidlen && n == 32 && memcmp(p, sid, n) == 0);
	CHECK_OK(sbuf_get_string_direct(view, &p, &n));
	CHECK(n == siglen && memcmp(p, sig, n) == 0);
	CHECK_OK(sbuf_get_u8(view, &flag));
	CHECK(flag == fwd);
	CHECK(sbuf_len(view) == 0);
	x_free(name);
	sbuf_free(view);
}

/* Our agent takes the request: verified and recorded. */
static void
check_agentd(struct sbuf *req)
{
	struct agentd *a;
	struct agentd_conn *c = agentd_conn_new();
	struct sbuf *reply = sbuf_new();
	uint8_t type = 0;

	CHECK_OK(agentd_new(NULL, &a));
	CHECK_OK(agentd_request(a, c, sbuf_ptr(req), sbuf_len(req), reply));
	CHECK_OK(sbuf_get_u8(reply, &type));
	CHECK(type == SSH_AGENT_SUCCESS);
	CHECK(agentd_conn_bindings(c) == 1);
	agentd_conn_free(c);
	agentd_free(a);
	sbuf_free(reply);
}

static void
test_bind(void)
{
	struct pair p;
	const unsigned char *hk, *sig, *sid;
	unsigned char *hk1, *sig1, sid1[64];
	size_t hklen, siglen, sidlen, hklen1, siglen1, sidlen1;
	struct sbuf *kb = sbuf_new(), *req = sbuf_new();

	CHECK_OK(pair_open(&p));
	/* Nothing to bind before the exchange; never on the server. */
	CHECK(tr_first_kex(p.c, &hk, &hklen, &sig, &siglen) ==
	    ERR_INVALID_ARGUMENT);
	CHECK_OK(pass(p.c, p.s, SSH2_MSG_SERVICE_REQUEST));
	CHECK(tr_first_kex(p.s, &hk, &hklen, &sig, &siglen) ==
	    ERR_INVALID_ARGUMENT);

	CHECK_OK(tr_first_kex(p.c, &hk, &hklen, &sig, &siglen));
	sid = tr_session_id(p.c, &sidlen);
	CHECK_OK(key_to_blob(hostpub, kb));
	CHECK(hklen == sbuf_len(kb) && memcmp(hk, sbuf_ptr(kb), hklen) == 0);
	CHECK_OK(key_verify(hostpub, sig, siglen, sid, sidlen, NULL));
	hk1 = x_memdup(hk, hklen);
	hklen1 = hklen;
	sig1 = x_memdup(sig, siglen);
	siglen1 = siglen;
	CHECK(sidlen <= sizeof(sid1));
	memcpy(sid1, sid, sidlen);
	sidlen1 = sidlen;

	/* A rekey: a new exchange hash and signature, kept out. */
	CHECK_OK(tr_rekey(p.c));
	CHECK_OK(pass(p.c, p.s, SSH2_MSG_SERVICE_REQUEST));
	CHECK_OK(pass(p.s, p.c, SSH2_MSG_SERVICE_ACCEPT));
	CHECK(tr_kex_count(p.c) == 2 && tr_kex_count(p.s) == 2);
	CHECK_OK(tr_first_kex(p.c, &hk, &hklen, &sig, &siglen));
	sid = tr_session_id(p.c, &sidlen);
	CHECK(hklen == hklen1 && memcmp(hk, hk1, hklen) == 0);
	CHECK(siglen == siglen1 && memcmp(sig, sig1, siglen) == 0);
	CHECK(sidlen == sidlen1 && memcmp(sid, sid1, sidlen) == 0);

	/* What the agent is sent, for authentication and forwarding. */
	CHECK(capture(p.c, 0, SSH_AGENT_SUCCESS, req) == 0);
	check_request(p.c, req, 0);
	check_agentd(req);
	sbuf_reset(req);
	CHECK(capture(p.c, 1, SSH_AGENT_SUCCESS, req) == 0);
	check_request(p.c, req, 1);
	check_agentd(req);
	/* An agent without the extension: the request went, no harm. */
	sbuf_reset(req);
	CHECK(capture(p.c, 0, SSH_AGENT_FAILURE, req) == 0);
	check_request(p.c, req, 0);
	/* No transport: nothing is sent (the read finds only EOF). */
	sbuf_reset(req);
	CHECK(capture(NULL, 0, SSH_AGENT_SUCCESS, req) == -1);

	x_free(hk1);
	x_free(sig1);
	sbuf_free(kb);
	sbuf_free(req);
	pair_close(&p);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	if (key_generate(KEY_ED25519, 0, &hostkey) != 0 ||
	    key_demote(hostkey, &hostpub) != 0)
		return 1;
	test_bind();
	key_free(hostkey);
	key_free(hostpub);
	return TEST_DONE();
}
