/*
 * test_monitor.c: the authority across a socketpair (monitor.h).
 *
 * A login through it: ssh-userauth served with an authority_remote
 * whose monitor runs in a forked process with the in-process authority
 * behind it, then the monitor's own verdict (MON_REQ_AUTHENTICATED) and
 * the post-auth phase. And a hostile child: raw frames written at a
 * monitor, each of which must end the connection (monitor_serve_one()
 * returns an error) with no answer written back, above all no signature:
 * data that is no exchange hash, a second user lookup, a key check for
 * another user, requests out of their phase, an "authenticated" claim
 * the monitor's own answers do not support, a second such claim, a
 * frame too long, a body cut short or with bytes left over, an unknown
 * type.
 */
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>

#include "authserve.h"
#include "err.h"
#include "fdio.h"
#include "monitor.h"

/* ---- a login through a monitor in another process ---- */

struct mon_proc {
	pid_t pid;
	int fd;			/* the child's end */
};

/* The transport's host-key signer, as sshd's: through the authority. */
static int
sign_remote(void *arg, const char *alg, const unsigned char *data,
    size_t dlen, struct sbuf *sig)
{
	return authority_hostkey_sign(arg, 0, alg, data, dlen, sig);
}

/*
 * authserve_make_fn: fork a monitor serving the in-process authority
 * of this connection; hand back the remote authority on the other end.
 * The key exchange is still to come (it runs when the server first
 * reads): its exchange hash is signed by the monitor, which learns the
 * session id from it, as in sshd; the monitor's authority has no
 * transport to read it from.
 */
static struct authority *
make_remote(struct transport *t, const struct servconf *sc, void *arg)
{
	struct mon_proc *mp = arg;
	struct authority *a;
	struct monitor *m;
	int sv[2], r;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return NULL;
	if ((mp->pid = fork()) == 0) {
		close(sv[0]);
		m = monitor_new(local_authority(sc, NULL), sv[1]);
		while ((r = monitor_serve_one(m)) == 0)
			;
		/* 0: the child closed its end; 2: the monitor ended it. */
		_exit(r == ERR_CONN_CLOSED ? (monitor_authenticated(m) ?
		    0 : 1) : 2);
	}
	close(sv[1]);
	mp->fd = sv[0];
	a = authority_remote_new(sv[0], sc);
	host.sign = sign_remote;
	host.sign_arg = a;
	return a;
}

static int
mon_wait(struct mon_proc *mp)
{
	int st;

	host.sign = NULL;
	close(mp->fd);
	if (waitpid(mp->pid, &st, 0) != mp->pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void
s_pubkey(struct transport *t)
{
	c_service(t);
	c_pubkey(t, 1);
	c_success(t);
}

static void
s_query_only(struct transport *t)
{
	struct sbuf *p;

	c_service(t);
	c_pubkey(t, 0);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_PK_OK, &p));
	c_start(t, "none");
	CHECK_OK(tr_msg_send(t));
	c_failure(t);
}

static void
test_login(const struct servconf *sc)
{
	struct auth_result res;
	struct authority *a;
	struct mon_proc mp;
	int r;

	/* A key login: the verdict is the monitor's too. */
	memset(&mp, 0, sizeof(mp));
	r = run(s_pubkey, sc, make_remote, &mp, &a, &res, NULL);
	CHECK_OK(r);
	CHECK(res.opts != NULL && res.opts->force_command != NULL &&
	    strcmp(res.opts->force_command, "echo hi") == 0);
	CHECK(res.sc != NULL && res.pw != NULL &&
	    strcmp(res.pw->pw_name, user) == 0);
	/* auth.c claimed it before USERAUTH_SUCCESS; only once. */
	CHECK(a->phase == AUTHORITY_POSTAUTH);
	CHECK(authority_remote_authenticated(a, user) != 0);
	CHECK_OK(authority_session_open(a, NULL));
	CHECK_OK(authority_session_close(a));
	authority_free(a);
	CHECK(mon_wait(&mp) == 0);
	auth_pw_free(res.pw);
	authopts_free(res.opts);
	if (res.sc != NULL)
		servconf_free(res.sc);
	x_free(res.method);

	/* Only a query answered: the monitor will not agree. */
	memset(&mp, 0, sizeof(mp));
	r = run(s_query_only, sc, make_remote, &mp, &a, &res, NULL);
	CHECK(r != 0);
	CHECK(authority_remote_authenticated(a, user) != 0);
	authority_free(a);
	CHECK(mon_wait(&mp) == 2);
	CHECK(logged("monitor: an authenticated claim the answers given do "
	    "not support; ending the connection"));
	auth_pw_free(res.pw);
	authopts_free(res.opts);
	if (res.sc != NULL)
		servconf_free(res.sc);
	x_free(res.method);
}

/* ---- a hostile child, frame by frame ---- */

struct fix {
	int fd;			/* the child's end, ours here */
	int mfd;		/* the monitor's */
	struct monitor *m;
	const struct servconf *sc;
};

static void
fix_new(struct fix *f, const struct servconf *sc)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		abort();
	f->fd = sv[0];
	f->mfd = sv[1];
	f->sc = sc;
	f->m = monitor_new(local_authority(sc, NULL), sv[1]);
}

static void
fix_free(struct fix *f)
{
	close(f->fd);
	monitor_free(f->m);	/* closes nothing: the fd is the caller's */
	close(f->mfd);
}

/* Send a frame, let the monitor serve it; its result. */
static int
serve(struct fix *f, uint8_t type, const struct sbuf *body)
{
	CHECK_OK(mon_send(f->fd, type, body));
	return monitor_serve_one(f->m);
}

/* Read the answer the monitor wrote: its err, the rest in a. */
static int
answer(struct fix *f, struct sbuf *a)
{
	uint8_t t;
	uint32_t e;

	if (mon_recv(f->fd, &t, a) != 0 || t != MON_ANSWER ||
	    sbuf_get_u32(a, &e) != 0)
		return ERR_PROTOCOL;
	return mon_err(e);
}

/* Nothing at all was written back. */
static int
nothing_back(struct fix *f)
{
	char c;

	return recv(f->fd, &c, 1, MSG_DONTWAIT) == -1 && errno == EAGAIN;
}

static struct sbuf *
req_user(const char *u)
{
	struct sbuf *b = sbuf_new();

	sbuf_put_cstring(b, u);
	return b;
}

static struct sbuf *
req_sign(const unsigned char *d, size_t n)
{
	struct sbuf *b = sbuf_new();

	sbuf_put_u32(b, 0);
	sbuf_put_cstring(b, "ssh-ed25519");
	sbuf_put_string(b, d, n);
	return b;
}

/* A publickey request with a signature by k over session id sid. */
static struct sbuf *
req_pubkey_by(const struct key *k, const char *u, const unsigned char *sid,
    size_t sidlen, int sign)
{
	struct sbuf *b = sbuf_new(), *blob = sbuf_new(), *d = sbuf_new();
	struct sbuf *sig = sbuf_new();

	key_to_blob(k, blob);
	pk_data(sid, sidlen, "ssh-connection", blob, d);
	CHECK_OK(key_sign(k, NULL, sbuf_ptr(d), sbuf_len(d), sig));
	sbuf_put_cstring(b, u);
	sbuf_put_cstring(b, "ssh-connection");
	sbuf_put_cstring(b, "ssh-ed25519");
	sbuf_put_stringb(b, blob);
	sbuf_put_u8(b, sign);
	sbuf_put_stringb(b, sig);
	sbuf_put_string(b, NULL, 0);		/* not hostbound */
	sbuf_free(blob);
	sbuf_free(d);
	sbuf_free(sig);
	return b;
}

static struct sbuf *
req_pubkey(const char *u, const unsigned char *sid, size_t sidlen, int sign)
{
	return req_pubkey_by(ukey, u, sid, sidlen, sign);
}

/*
 * A publickey-hostbound-v00@openssh.com request naming host key hk,
 * signed by ukey over session id sid.
 */
static struct sbuf *
req_hostbound(const unsigned char *sid, size_t sidlen, const struct key *hk)
{
	struct sbuf *b = sbuf_new(), *blob = sbuf_new(), *d = sbuf_new();
	struct sbuf *sig = sbuf_new(), *hkb = sbuf_new();

	key_to_blob(ukey, blob);
	key_to_blob(hk, hkb);
	sbuf_put_string(d, sid, sidlen);
	sbuf_put_u8(d, SSH2_MSG_USERAUTH_REQUEST);
	sbuf_put_cstring(d, user);
	sbuf_put_cstring(d, "ssh-connection");
	sbuf_put_cstring(d, "publickey-hostbound-v00@openssh.com");
	sbuf_put_u8(d, 1);
	sbuf_put_cstring(d, "ssh-ed25519");
	sbuf_put_stringb(d, blob);
	sbuf_put_stringb(d, hkb);
	CHECK_OK(key_sign(ukey, NULL, sbuf_ptr(d), sbuf_len(d), sig));
	sbuf_put_cstring(b, user);
	sbuf_put_cstring(b, "ssh-connection");
	sbuf_put_cstring(b, "ssh-ed25519");
	sbuf_put_stringb(b, blob);
	sbuf_put_u8(b, 1);
	sbuf_put_stringb(b, sig);
	sbuf_put_stringb(b, hkb);
	sbuf_free(blob);
	sbuf_free(d);
	sbuf_free(sig);
	sbuf_free(hkb);
	return b;
}

/*
 * The start of a login: the exchange hash h signed (the session id from
 * then on) and the user looked up; returns the publickey request to send
 * next, with or without a signature.
 */
static struct sbuf *
sign_lookup_pubkey(struct fix *f, const unsigned char *h, size_t hlen,
    struct sbuf *a, int sign)
{
	struct sbuf *q = req_sign(h, hlen);

	CHECK_OK(serve(f, MON_REQ_HOSTKEY_SIGN, q));
	CHECK_OK(answer(f, a));
	sbuf_free(q);
	q = req_user(user);
	CHECK_OK(serve(f, MON_REQ_USER_LOOKUP, q));
	CHECK_OK(answer(f, a));
	sbuf_free(q);
	return req_pubkey(user, h, hlen, sign);
}

/* The monitor of f ended the connection and wrote nothing back. */
#define ENDED(f, expr) do {						\
	CHECK((expr) != 0);						\
	CHECK(nothing_back(f));						\
} while (0)

static void
test_sign(const struct servconf *sc)
{
	struct fix f;
	struct sbuf *q, *a = sbuf_new(), *d = sbuf_new(), *blob = sbuf_new();
	const unsigned char *sig;
	unsigned char h[64];
	size_t siglen;

	memset(h, 0x42, sizeof(h));
	/* A digest of an exchange hash's size: signed, and the session id. */
	fix_new(&f, sc);
	q = req_sign(h, 32);
	CHECK_OK(serve(&f, MON_REQ_HOSTKEY_SIGN, q));
	sbuf_free(q);
	CHECK_OK(answer(&f, a));
	CHECK_OK(sbuf_get_string_direct(a, &sig, &siglen));
	CHECK_OK(key_verify(host.pub, sig, siglen, h, 32, "ssh-ed25519"));
	/* A proof for this session: signed. */
	key_to_blob(host.pub, blob);
	sbuf_put_cstring(d, "hostkeys-prove-00@openssh.com");
	sbuf_put_string(d, h, 32);
	sbuf_put_stringb(d, blob);
	q = req_sign(sbuf_ptr(d), sbuf_len(d));
	CHECK_OK(serve(&f, MON_REQ_HOSTKEY_SIGN, q));
	sbuf_free(q);
	CHECK_OK(answer(&f, a));
	/* Anything else: the end, no signature. */
	q = req_sign(h, 33);
	ENDED(&f, serve(&f, MON_REQ_HOSTKEY_SIGN, q));
	sbuf_free(q);
	fix_free(&f);

	/* A proof for another session id. */
	fix_new(&f, sc);
	q = req_sign(h, 32);
	CHECK_OK(serve(&f, MON_REQ_HOSTKEY_SIGN, q));
	sbuf_free(q);
	CHECK_OK(answer(&f, a));
	sbuf_reset(d);
	sbuf_put_cstring(d, "hostkeys-prove-00@openssh.com");
	h[0] ^= 1;
	sbuf_put_string(d, h, 32);
	h[0] ^= 1;
	sbuf_put_stringb(d, blob);
	q = req_sign(sbuf_ptr(d), sbuf_len(d));
	ENDED(&f, serve(&f, MON_REQ_HOSTKEY_SIGN, q));
	sbuf_free(q);
	fix_free(&f);

	/* A proof before any exchange hash: there is no session yet. */
	fix_new(&f, sc);
	q = req_sign(sbuf_ptr(d), sbuf_len(d));
	ENDED(&f, serve(&f, MON_REQ_HOSTKEY_SIGN, q));
	sbuf_free(q);
	fix_free(&f);

	/* No end of signatures before authentication. */
	fix_new(&f, sc);
	{
		int i, r = 0;

		for (i = 0; i < 40 && r == 0; i++) {
			q = req_sign(h, 32);
			if ((r = serve(&f, MON_REQ_HOSTKEY_SIGN, q)) == 0)
				CHECK_OK(answer(&f, a));
			sbuf_free(q);
		}
		CHECK(r != 0 && i > 1 && i < 40);
		CHECK(nothing_back(&f));
	}
	fix_free(&f);
	CHECK(logged("monitor: too many signature requests"));
	sbuf_free(a);
	sbuf_free(d);
	sbuf_free(blob);
}

/* Requests out of their phase or for the wrong user. */
static void
hostile_order(const struct servconf *sc)
{
	struct fix f;
	struct sbuf *q, *a = sbuf_new();
	unsigned char h[32];

	memset(h, 0x17, sizeof(h));

	/* Before a lookup, nothing about a user. */
	fix_new(&f, sc);
	q = req_user(user);
	ENDED(&f, serve(&f, MON_REQ_ACCOUNT_CHECK, q));
	sbuf_free(q);
	fix_free(&f);
	CHECK(logged("monitor: a request before the user was looked up"));

	/* A second lookup; a key check for another user. */
	fix_new(&f, sc);
	q = req_user(user);
	CHECK_OK(serve(&f, MON_REQ_USER_LOOKUP, q));
	CHECK_OK(answer(&f, a));
	ENDED(&f, serve(&f, MON_REQ_USER_LOOKUP, q));
	sbuf_free(q);
	fix_free(&f);
	CHECK(logged("monitor: a second user lookup"));

	fix_new(&f, sc);
	q = req_user(user);
	CHECK_OK(serve(&f, MON_REQ_USER_LOOKUP, q));
	CHECK_OK(answer(&f, a));
	sbuf_free(q);
	q = req_pubkey("moat-someone-else", h, sizeof(h), 1);
	ENDED(&f, serve(&f, MON_REQ_PUBKEY_CHECK, q));
	sbuf_free(q);
	fix_free(&f);
	CHECK(logged("monitor: a request for another user"));

	/* Post-auth before authentication. */
	fix_new(&f, sc);
	q = sbuf_new();
	sbuf_put_u8(q, 0);
	sbuf_put_cstring(q, "");
	ENDED(&f, serve(&f, MON_REQ_SESSION_OPEN, q));
	sbuf_free(q);
	fix_free(&f);
	CHECK(logged("monitor: a post-authentication request before "
	    "authentication"));

	/* A claim with nothing behind it; a query is not a login. */
	fix_new(&f, sc);
	q = req_user(user);
	CHECK_OK(serve(&f, MON_REQ_USER_LOOKUP, q));
	CHECK_OK(answer(&f, a));
	ENDED(&f, serve(&f, MON_REQ_AUTHENTICATED, q));
	sbuf_free(q);
	fix_free(&f);

	fix_new(&f, sc);
	q = sign_lookup_pubkey(&f, h, sizeof(h), a, 0);
	CHECK_OK(serve(&f, MON_REQ_PUBKEY_CHECK, q));
	sbuf_free(q);
	CHECK_OK(answer(&f, a));
	q = req_user(user);
	ENDED(&f, serve(&f, MON_REQ_AUTHENTICATED, q));
	sbuf_free(q);
	fix_free(&f);

	/*
	 * Hostbound: the host key that signed the first exchange hash is
	 * the one a request may name; another is refused.
	 */
	{
		const struct key *hks[2] = { host.key, ukey2 };
		int i, ok;

		for (i = 0; i < 2; i++) {
			fix_new(&f, sc);
			q = sign_lookup_pubkey(&f, h, sizeof(h), a, 1);
			sbuf_free(q);
			q = req_hostbound(h, sizeof(h), hks[i]);
			CHECK_OK(serve(&f, MON_REQ_PUBKEY_CHECK, q));
			sbuf_free(q);
			ok = -1;
			CHECK_OK(answer(&f, a));
			CHECK_OK(sbuf_get_bool(a, &ok));
			CHECK(ok == (i == 0));
			sbuf_reset(a);
			fix_free(&f);
		}
		CHECK(logged("userauth_pubkey: publickey-hostbound-v00@"
		    "openssh.com packet contained wrong host key"));
	}

	/* A real login, then a second claim and pre-auth requests. */
	fix_new(&f, sc);
	q = sign_lookup_pubkey(&f, h, sizeof(h), a, 1);
	CHECK_OK(serve(&f, MON_REQ_PUBKEY_CHECK, q));
	sbuf_free(q);
	{
		int ok = 0;

		CHECK_OK(answer(&f, a));
		CHECK_OK(sbuf_get_bool(a, &ok));
		CHECK(ok == 1);
	}
	q = req_user(user);
	CHECK_OK(serve(&f, MON_REQ_AUTHENTICATED, q));
	CHECK_OK(answer(&f, a));
	CHECK(monitor_authenticated(f.m));
	ENDED(&f, serve(&f, MON_REQ_AUTHENTICATED, q));
	sbuf_free(q);
	fix_free(&f);
	CHECK(logged("monitor: a pre-authentication request after "
	    "authentication"));
	sbuf_free(a);
}

/* The transport state around the grant. */
static void
hostile_state(const struct servconf *sc)
{
	struct fix f;
	struct sbuf *q, *a = sbuf_new();
	unsigned char h[32];

	memset(h, 0x17, sizeof(h));

	/*
	 * The transport state: only after the grant, once, taken as it
	 * came; the login as the monitor recorded it, not as told.
	 */
	fix_new(&f, sc);
	q = sbuf_new();
	sbuf_put_cstring(q, "state");
	ENDED(&f, serve(&f, MON_REQ_TRANSPORT_STATE, q));
	sbuf_free(q);
	fix_free(&f);
	fix_new(&f, sc);
	q = sign_lookup_pubkey(&f, h, sizeof(h), a, 1);
	CHECK_OK(serve(&f, MON_REQ_PUBKEY_CHECK, q));
	sbuf_free(q);
	CHECK_OK(answer(&f, a));
	q = req_user(user);
	CHECK_OK(serve(&f, MON_REQ_AUTHENTICATED, q));
	CHECK_OK(answer(&f, a));
	sbuf_free(q);
	q = sbuf_new();
	sbuf_put_cstring(q, "state");
	CHECK(!monitor_has_state(f.m));
	CHECK_OK(serve(&f, MON_REQ_TRANSPORT_STATE, q));
	CHECK(nothing_back(&f));
	CHECK(monitor_has_state(f.m));
	ENDED(&f, serve(&f, MON_REQ_TRANSPORT_STATE, q));
	CHECK(logged("monitor: a second transport state"));
	sbuf_free(q);
	{
		struct sbuf *st = monitor_take_state(f.m);
		struct auth_result res;

		CHECK(st != NULL && sbuf_len(st) == 5 &&
		    memcmp(sbuf_ptr(st), "state", 5) == 0);
		sbuf_free(st);
		monitor_take_result(f.m, &res);
		CHECK(res.pw != NULL && strcmp(res.pw->pw_name, user) == 0);
		CHECK(res.opts != NULL && res.sc != NULL);
		CHECK_STR(res.method, "publickey");
		auth_result_clear(&res);
	}
	fix_free(&f);
	sbuf_free(a);
}

/* Group exchange requests. */
static void
hostile_moduli(const struct servconf *sc)
{
	struct fix f;
	struct sbuf *q, *a = sbuf_new();
	int i;

	/* Group exchange groups: answered, malformed, too many. */
	fix_new(&f, sc);
	q = sbuf_new();
	sbuf_put_u32(q, 2048);
	sbuf_put_u32(q, 3072);
	sbuf_put_u32(q, 8192);
	for (i = 0; i < 4; i++) {
		BIGNUM *p = NULL, *g = NULL;

		CHECK_OK(serve(&f, MON_REQ_MODULI, q));
		CHECK_OK(answer(&f, a));
		CHECK_OK(sbuf_get_bignum(a, &p));
		CHECK_OK(sbuf_get_bignum(a, &g));
		CHECK(p != NULL && BN_num_bits(p) >= 2048 &&
		    BN_num_bits(p) <= 8192);
		CHECK(g != NULL && BN_is_word(g, 2));
		BN_free(p);
		BN_free(g);
	}
	ENDED(&f, serve(&f, MON_REQ_MODULI, q));
	CHECK(logged("monitor: too many group exchange requests"));
	fix_free(&f);
	fix_new(&f, sc);
	sbuf_consume_end(q, 4);
	ENDED(&f, serve(&f, MON_REQ_MODULI, q));
	CHECK(logged("monitor: a malformed group exchange request"));
	sbuf_free(q);
	fix_free(&f);
	sbuf_free(a);
}

/* Frames that do not parse, and the end. */
static void
hostile_frames(const struct servconf *sc)
{
	struct fix f;
	struct sbuf *q;
	unsigned char hdr[5];

	/* Frames: too long, cut short, bytes left over, unknown. */
	fix_new(&f, sc);
	hdr[0] = (MON_MAX_FRAME + 1) >> 24;
	hdr[1] = ((MON_MAX_FRAME + 1) >> 16) & 0xff;
	hdr[2] = ((MON_MAX_FRAME + 1) >> 8) & 0xff;
	hdr[3] = (MON_MAX_FRAME + 1) & 0xff;
	hdr[4] = MON_REQ_USER_LOOKUP;
	CHECK_OK(fd_write_full(f.fd, hdr, sizeof(hdr)));
	ENDED(&f, monitor_serve_one(f.m));
	fix_free(&f);

	fix_new(&f, sc);
	q = sbuf_new();
	sbuf_put_u32(q, 100);		/* a string longer than the frame */
	sbuf_put_cstring(q, "root");
	ENDED(&f, serve(&f, MON_REQ_USER_LOOKUP, q));
	sbuf_free(q);
	fix_free(&f);

	fix_new(&f, sc);
	q = req_user(user);
	sbuf_put_u8(q, 0);
	ENDED(&f, serve(&f, MON_REQ_USER_LOOKUP, q));
	sbuf_free(q);
	fix_free(&f);

	fix_new(&f, sc);
	ENDED(&f, serve(&f, 200, NULL));
	fix_free(&f);
	CHECK(logged("monitor: an unknown request"));

	/* A clean end: the child closed its socket. */
	fix_new(&f, sc);
	shutdown(f.fd, SHUT_WR);
	CHECK_ERR(monitor_serve_one(f.m), ERR_CONN_CLOSED);
	fix_free(&f);
}

static void
test_hostile(const struct servconf *sc)
{
	hostile_order(sc);
	hostile_state(sc);
	hostile_moduli(sc);
	hostile_frames(sc);
}

/* The encodings survive the trip, and refuse what does not parse. */
static void
test_wire(void)
{
	struct authopts *o = NULL, *o2 = NULL;
	struct sbuf *b = sbuf_new();
	struct passwd pw, *pw2 = NULL;
	const char *err = NULL;

	CHECK_OK(authopts_parse("restrict,pty,command=\"echo x\","
	    "environment=\"A=B\",permitopen=\"h:1\",permitlisten=\"2\","
	    "from=\"10.*\",expiry-time=\"20300101\",tunnel=\"3\" x", &o, NULL,
	    &err));
	if (o == NULL)
		return;
	CHECK_OK(mon_put_authopts(b, o));
	CHECK_OK(mon_get_authopts(b, &o2));
	CHECK(sbuf_len(b) == 0);
	if (o2 != NULL) {
		CHECK(o2->restricted && o2->permit_pty &&
		    !o2->permit_port_forwarding);
		CHECK(strcmp(o2->force_command, "echo x") == 0);
		CHECK(o2->nenv == 1 && strcmp(o2->env[0], "A=B") == 0);
		CHECK(o2->npermitopen == 1 && o2->npermitlisten == 1);
		CHECK(strcmp(o2->required_from_host_keys, "10.*") == 0);
		CHECK(o2->valid_before == o->valid_before &&
		    o2->force_tun_device == 3);
		CHECK(o2->cert_principals == NULL);
	}
	authopts_free(o2);
	/* Cut anywhere: an error, never a half-filled answer. */
	{
		size_t full, cut;

		sbuf_reset(b);
		CHECK_OK(mon_put_authopts(b, o));
		full = sbuf_len(b);
		for (cut = 0; cut < full; cut++) {
			struct sbuf *c = sbuf_from(sbuf_ptr(b), cut);

			o2 = (struct authopts *)1;
			CHECK(mon_get_authopts(c, &o2) != 0 && o2 == NULL);
			sbuf_free(c);
		}
	}
	authopts_free(o);

	memset(&pw, 0, sizeof(pw));
	pw.pw_name = (char *)"someone";
	pw.pw_uid = 1001;
	pw.pw_gid = 1002;
	pw.pw_gecos = (char *)"Some One";
	pw.pw_dir = (char *)"/home/someone";
	pw.pw_shell = (char *)"/bin/sh";
	sbuf_reset(b);
	CHECK_OK(mon_put_passwd(b, &pw));
	CHECK_OK(mon_get_passwd(b, &pw2));
	if (pw2 != NULL) {
		CHECK(strcmp(pw2->pw_name, "someone") == 0 &&
		    pw2->pw_uid == 1001 && pw2->pw_gid == 1002 &&
		    strcmp(pw2->pw_dir, "/home/someone") == 0 &&
		    strcmp(pw2->pw_passwd, "*") == 0);
		auth_pw_free(pw2);
	}
	sbuf_free(b);
}

/* Match blocks applied on the child's side give the monitor's settings. */
/*
 * AuthenticationMethods publickey,publickey: ukey's line forces a
 * command, ukey2's line a tunnel unit and no pty. The login by both
 * keeps the restrictions of both, whichever comes first, as OpenSSH
 * joins them; a second key forcing another command does not count.
 */
static int
two_keys(const struct servconf *sc, const char *opts2, int first2,
    struct auth_result *res)
{
	const struct key *order[2] = { ukey, ukey2 };
	struct sbuf *q, *a = sbuf_new();
	unsigned char h[32];
	struct fix f;
	char path[400], *text;
	uint8_t ok = 0;
	FILE *fp;
	int i, r = 0;

	memset(res, 0, sizeof(*res));
	snprintf(path, sizeof(path), "%s/ak_%s", tmp, user);
	text = key_public_text(ukey2);
	if ((fp = fopen(path, "a")) != NULL) {
		fprintf(fp, "%s %s second\n", opts2, text);
		fclose(fp);
	}
	x_free(text);
	if (first2) {
		order[0] = ukey2;
		order[1] = ukey;
	}
	memset(h, 0x29, sizeof(h));
	fix_new(&f, sc);
	q = sign_lookup_pubkey(&f, h, sizeof(h), a, 1);
	sbuf_free(q);
	for (i = 0; i < 2 && r == 0; i++) {
		q = req_pubkey_by(order[i], user, h, sizeof(h), 1);
		CHECK_OK(serve(&f, MON_REQ_PUBKEY_CHECK, q));
		sbuf_free(q);
		CHECK_OK(answer(&f, a));
		CHECK_OK(sbuf_get_u8(a, &ok));
		if (!ok)
			r = ERR_PERMISSION_DENIED;
	}
	q = req_user(user);
	if (r == 0) {
		CHECK_OK(r = serve(&f, MON_REQ_AUTHENTICATED, q));
		if (r == 0) {
			CHECK_OK(answer(&f, a));
			monitor_take_result(f.m, res);
		}
	} else
		ENDED(&f, serve(&f, MON_REQ_AUTHENTICATED, q));
	sbuf_free(q);
	fix_free(&f);
	sbuf_free(a);
	/* ukey's line alone again, for what follows. */
	text = key_public_text(ukey);
	if ((fp = fopen(path, "w")) != NULL) {
		fprintf(fp, "command=\"echo hi\" %s me\n", text);
		fclose(fp);
	}
	x_free(text);
	return r;
}

static void
test_two_keys(void)
{
	struct servconf *sc = make_sc("AuthenticationMethods "
	    "publickey,publickey");
	struct auth_result res;
	int first2;

	for (first2 = 0; first2 < 2; first2++) {
		CHECK_OK(two_keys(sc, "tunnel=\"5\",no-pty", first2, &res));
		CHECK(res.opts != NULL);
		if (res.opts == NULL)
			continue;
		CHECK(res.opts->force_command != NULL &&
		    strcmp(res.opts->force_command, "echo hi") == 0);
		CHECK(res.opts->force_tun_device == 5);
		CHECK(!res.opts->permit_pty);
		CHECK(res.opts->permit_port_forwarding);
		auth_result_clear(&res);
	}
	/* restrict on either key holds for the login. */
	CHECK_OK(two_keys(sc, "restrict", 0, &res));
	CHECK(res.opts != NULL && res.opts->restricted &&
	    !res.opts->permit_port_forwarding &&
	    res.opts->force_command != NULL);
	auth_result_clear(&res);
	/* Two forced commands that differ: the second key does not count. */
	CHECK_ERR(two_keys(sc, "command=\"echo other\"", 0, &res),
	    ERR_PERMISSION_DENIED);
	CHECK(res.opts == NULL);
	CHECK(logged("Inconsistent authentication options: forced command "
	    "options do not match"));
	CHECK_OK(two_keys(sc, "command=\"echo hi\"", 0, &res));
	auth_result_clear(&res);
	servconf_free(sc);
}

static void
test_blocks(void)
{
	struct servconf *sc = servconf_new(), *a = NULL, *b = NULL;
	struct match_conn mc;
	uint32_t *blocks = NULL, bad[2] = { 1, 0 };
	size_t n = 0;

	CHECK_OK(servconf_parse_line(sc, "Match User nobody-here", "t", 1));
	CHECK_OK(servconf_parse_line(sc, "MaxAuthTries 2", "t", 2));
	CHECK_OK(servconf_parse_line(sc, "Match Address 127.0.0.1", "t", 3));
	CHECK_OK(servconf_parse_line(sc, "MaxAuthTries 4", "t", 4));
	CHECK_OK(servconf_parse_line(sc, "Banner /x", "t", 5));
	CHECK_OK(servconf_finish(sc));
	memset(&mc, 0, sizeof(mc));
	mc.user = "root";
	mc.address = "127.0.0.1";
	CHECK_OK(servconf_apply_match(sc, &mc, &a));
	CHECK_OK(servconf_match_blocks(sc, &mc, &blocks, &n));
	CHECK(n == 1 && blocks[0] == 1);
	CHECK_OK(servconf_apply_blocks(sc, blocks, n, &b));
	if (a != NULL && b != NULL)
		CHECK(a->max_auth_tries == 4 && b->max_auth_tries == 4 &&
		    b->banner != NULL && strcmp(b->banner, "/x") == 0);
	if (b != NULL)
		servconf_free(b);
	/* Out of order, or a block that is not there: refused. */
	CHECK_ERR(servconf_apply_blocks(sc, bad, 2, &b), ERR_INVALID_ARGUMENT);
	bad[0] = 2;
	CHECK_ERR(servconf_apply_blocks(sc, bad, 1, &b), ERR_INVALID_ARGUMENT);
	CHECK(b == NULL);
	x_free(blocks);
	if (a != NULL)
		servconf_free(a);
	servconf_free(sc);
}

int
main(void)
{
	struct servconf *sc;

	if (authserve_setup("monitor") != 0)
		return TEST_DONE();
	test_wire();
	test_blocks();
	sc = make_sc(NULL);
	test_login(sc);
	test_sign(sc);
	test_hostile(sc);
	servconf_free(sc);
	test_two_keys();
	authserve_teardown();
	return TEST_DONE();
}
