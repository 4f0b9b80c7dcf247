/*
 * test_authority.c: the userauth code asks the authority (authority.h)
 * for every decision and obeys the answer.
 *
 * The ssh-userauth service runs in-process, as in test_auth.c (a
 * scripted client in a forked child over a socketpair; authserve.h),
 * with a recording authority in front of the in-process one: each
 * operation asked is written down, and chosen ones are answered by the
 * test instead. A key the authority refuses stays out even though
 * authorized_keys lists it, a password it accepts gets in though no
 * password is right, a user it calls invalid is refused,
 * keyboard-interactive and hostbased follow its verdicts, and failures
 * are reported to it for btmp. test_authority_local.c asks the
 * in-process authority directly.
 */
#include "authserve.h"

static struct key *hkey;		/* a client host's key */

/* --- the recording authority --- */

struct proxy {
	struct authority *inner;	/* the in-process authority */
	char calls[1024];		/* operations asked, space-separated */
	int veto_pubkey;		/* 1: every key refused */
	int passwd;			/* -1: ask inner; else the answer */
	int hostbased;			/* -1: ask inner; else the answer */
	int invalidate;			/* user_lookup answers valid 0 */
	int pam;			/* user_lookup answers UsePAM, PAM open */
	int pk_has_sig[4];		/* the publickey requests seen */
	char pk_alg[64], pk_service[64], pk_user[64];
	size_t pk_n;
	char hb_chost[64], hb_cuser[64];
	char failed_user[64];		/* record_failed_login's user */
};

static void
note(struct proxy *p, const char *op)
{
	size_t l = strlen(p->calls);

	snprintf(p->calls + l, sizeof(p->calls) - l, "%s%s", l ? " " : "", op);
}

static void
copy(char *dst, size_t n, const char *s)
{
	snprintf(dst, n, "%s", s ? s : "(null)");
}

static int
px_sign(void *impl, size_t idx, const char *alg, const unsigned char *data,
    size_t dlen, struct sbuf *sig)
{
	struct proxy *p = impl;

	note(p, "hostkey_sign");
	return authority_hostkey_sign(p->inner, idx, alg, data, dlen, sig);
}

static int
px_lookup(void *impl, const char *u, struct authority_user *out)
{
	struct proxy *p = impl;
	int r;

	note(p, "user_lookup");
	if ((r = authority_user_lookup(p->inner, u, out)) != 0)
		return r;
	if (p->invalidate)
		out->valid = 0;
	if (p->pam) {
		out->pam = 1;
		out->sc->use_pam = 1;
	}
	return 0;
}

static int
px_banner(void *impl, struct sbuf *text)
{
	struct proxy *p = impl;

	note(p, "banner");
	return authority_banner(p->inner, text);
}

static int
px_pubkey(void *impl, const struct authority_pubkey_req *q, int *okp,
    struct authopts **optsp)
{
	struct proxy *p = impl;

	note(p, "pubkey_check");
	if (p->pk_n < 4)
		p->pk_has_sig[p->pk_n++] = q->has_sig;
	copy(p->pk_alg, sizeof(p->pk_alg), q->alg);
	copy(p->pk_service, sizeof(p->pk_service), q->service);
	copy(p->pk_user, sizeof(p->pk_user), q->user);
	if (p->veto_pubkey)
		return 0;
	return authority_pubkey_check(p->inner, q, okp, optsp);
}

static int
px_hostbased(void *impl, const struct authority_hostbased_req *q, int *okp)
{
	struct proxy *p = impl;

	note(p, "hostbased_check");
	copy(p->hb_chost, sizeof(p->hb_chost), q->chost);
	copy(p->hb_cuser, sizeof(p->hb_cuser), q->cuser);
	if (p->hostbased >= 0) {
		*okp = p->hostbased;
		return 0;
	}
	return authority_hostbased_check(p->inner, q, okp);
}

static int
px_passwd(void *impl, const char *u, const char *password, int *okp)
{
	struct proxy *p = impl;

	note(p, "passwd_check");
	if (p->passwd >= 0) {
		*okp = p->passwd;
		return 0;
	}
	return authority_passwd_check(p->inner, u, password, okp);
}

/* A one-prompt conversation standing in for PAM: "42" is right. */
static int
px_kbdint(void *impl, const char *u, auth_pam_ask_fn ask, void *arg,
    int *okp)
{
	struct proxy *p = impl;
	const char *prompts[1] = { "Code: " };
	int echo[1] = { 1 };
	char **ans = NULL;
	int r;

	note(p, "kbdint");
	if ((r = ask(arg, "Say the code", 1, prompts, echo, &ans)) != 0)
		return r;
	*okp = strcmp(ans[0], "42") == 0;
	x_free(ans[0]);
	x_free(ans);
	return 0;
}

static int
px_account(void *impl, const char *u, int *okp)
{
	struct proxy *p = impl;

	note(p, "account_check");
	*okp = 1;
	return 0;
}

static int
px_failed(void *impl, const char *u)
{
	struct proxy *p = impl;

	note(p, "record_failed_login");
	copy(p->failed_user, sizeof(p->failed_user), u);
	return 0;
}

static int
px_open(void *impl, const char *tty)
{
	note(impl, "session_open");
	return 0;
}

static int
px_close(void *impl)
{
	note(impl, "session_close");
	return 0;
}

static void
px_free(void *impl)
{
	struct proxy *p = impl;

	authority_free(p->inner);
	x_free(p);
}

static const struct authority_ops proxy_ops = {
	px_sign, px_lookup, px_banner, px_pubkey, px_hostbased, px_passwd,
	px_kbdint, px_account, px_failed, px_open, px_close, px_free, NULL, NULL,
};

static void
c_password(struct transport *t, const char *pass)
{
	struct sbuf *m = c_start(t, "password");

	sbuf_put_u8(m, 0);
	sbuf_put_cstring(m, pass);
	CHECK_OK(tr_msg_send(t));
}

/* keyboard-interactive, answering the one prompt with answer. */
static void
c_kbdint(struct transport *t, const char *answer)
{
	struct sbuf *m = c_start(t, "keyboard-interactive"), *p;
	char *s = NULL;
	uint32_t n = 0;

	sbuf_put_cstring(m, "");
	sbuf_put_cstring(m, "");
	CHECK_OK(tr_msg_send(t));
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_INFO_REQUEST, &p));
	if (p == NULL)
		return;
	CHECK_OK(sbuf_get_cstring(p, &s, NULL));	/* name */
	x_free(s);
	CHECK_OK(sbuf_get_cstring(p, &s, NULL));
	CHECK_STR(s, "Say the code");
	x_free(s);
	CHECK_OK(sbuf_get_cstring(p, &s, NULL));	/* language */
	x_free(s);
	CHECK_OK(sbuf_get_u32(p, &n));
	CHECK(n == 1);
	CHECK_OK(sbuf_get_cstring(p, &s, NULL));
	CHECK_STR(s, "Code: ");
	x_free(s);
	m = tr_msg_start(t, SSH2_MSG_USERAUTH_INFO_RESPONSE);
	sbuf_put_u32(m, 1);
	sbuf_put_cstring(m, answer);
	CHECK_OK(tr_msg_send(t));
}

/* hostbased for client host "client.example." and user "alice". */
static void
c_hostbased(struct transport *t, int good_sig)
{
	struct sbuf *blob = sbuf_new(), *d = sbuf_new(), *sig = sbuf_new();
	const unsigned char *sid;
	size_t sidlen;
	struct sbuf *m;

	key_to_blob(hkey, blob);
	sid = tr_session_id(t, &sidlen);
	sbuf_put_string(d, sid, sidlen);
	sbuf_put_u8(d, SSH2_MSG_USERAUTH_REQUEST);
	sbuf_put_cstring(d, user);
	sbuf_put_cstring(d, "ssh-connection");
	sbuf_put_cstring(d, "hostbased");
	sbuf_put_cstring(d, "ssh-ed25519");
	sbuf_put_stringb(d, blob);
	sbuf_put_cstring(d, good_sig ? "client.example." : "other.example.");
	sbuf_put_cstring(d, "alice");
	CHECK_OK(key_sign(hkey, NULL, sbuf_ptr(d), sbuf_len(d), sig));
	m = c_start(t, "hostbased");
	sbuf_put_cstring(m, "ssh-ed25519");
	sbuf_put_stringb(m, blob);
	sbuf_put_cstring(m, "client.example.");
	sbuf_put_cstring(m, "alice");
	sbuf_put_stringb(m, sig);
	CHECK_OK(tr_msg_send(t));
	sbuf_free(blob);
	sbuf_free(d);
	sbuf_free(sig);
}

/* The scripts: what the client sends, what it must get back. */
static void
s_key_refused(struct transport *t)
{
	c_service(t);
	c_pubkey(t, 0);
	c_failure(t);			/* no PK_OK for a refused key */
	c_pubkey(t, 1);
	c_failure(t);
}

static void
s_key_accepted(struct transport *t)
{
	struct sbuf *p;

	c_service(t);
	c_pubkey(t, 0);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_PK_OK, &p));
	c_pubkey(t, 1);
	c_success(t);
}

static void
s_key_invalid_user(struct transport *t)
{
	c_service(t);
	c_pubkey(t, 1);
	c_failure(t);
}

static void
s_password_ok(struct transport *t)
{
	c_service(t);
	c_password(t, "not the password");
	c_success(t);
}

static void
s_password_bad(struct transport *t)
{
	c_service(t);
	c_password(t, "whatever");
	c_failure(t);
}

static void
s_kbdint_ok(struct transport *t)
{
	c_service(t);
	c_kbdint(t, "42");
	c_success(t);
}

static void
s_kbdint_bad(struct transport *t)
{
	c_service(t);
	c_kbdint(t, "41");
	c_failure(t);
}

static void
s_hostbased(struct transport *t)
{
	c_service(t);
	c_hostbased(t, 1);
	c_success(t);
}

static void
s_hostbased_refused(struct transport *t)
{
	c_service(t);
	c_hostbased(t, 1);
	c_failure(t);
}

static void
s_hostbased_badsig(struct transport *t)
{
	c_service(t);
	c_hostbased(t, 0);
	c_failure(t);
}

static struct proxy *
new_proxy(void)
{
	struct proxy *p = x_calloc(1, sizeof(*p));

	p->passwd = -1;
	p->hostbased = -1;
	return p;
}

/* authserve_make_fn: the proxy arg in front of a local authority. */
static struct authority *
make_proxy(struct transport *t, const struct servconf *sc, void *arg)
{
	struct proxy *px = arg;

	px->inner = local_authority(sc, t);
	return authority_new(&proxy_ops, px);
}

/* Whether the proxy was asked op (a word of its list). */
static int
asked(const struct proxy *p, const char *op)
{
	size_t l = strlen(op);
	const char *c = p->calls;

	while ((c = strstr(c, op)) != NULL) {
		if ((c == p->calls || c[-1] == ' ') &&
		    (c[l] == ' ' || c[l] == '\0'))
			return 1;
		c += l;
	}
	fprintf(stderr, "not asked %s: %s\n", op, p->calls);
	return 0;
}

/* publickey: the authority's no beats authorized_keys; its yes lets in. */
static void
test_pubkey(const struct servconf *sc)
{
	struct auth_result res;
	struct authority *a;
	struct proxy *px = new_proxy();
	char line[300];

	px->veto_pubkey = 1;
	CHECK_ERR(run(s_key_refused, sc, make_proxy, px, &a, &res, NULL),
	    ERR_CONN_CLOSED);
	CHECK(res.pw == NULL);
	CHECK(asked(px, "user_lookup") && asked(px, "pubkey_check"));
	CHECK(px->pk_n == 2 && px->pk_has_sig[0] == 0 &&
	    px->pk_has_sig[1] == 1);
	CHECK_STR(px->pk_alg, "ssh-ed25519");
	CHECK_STR(px->pk_service, "ssh-connection");
	CHECK_STR(px->pk_user, user);
	/* A refused key is no failed login (btmp). */
	CHECK(strstr(px->calls, "record_failed_login") == NULL);
	snprintf(line, sizeof(line), "Failed publickey for %s from "
	    "127.0.0.1 port 1234 ssh2: ED25519 SHA256:", user);
	CHECK(logged(line));
	authority_free(a);

	/* The same key through to the in-process authority: in. */
	px = new_proxy();
	CHECK_OK(run(s_key_accepted, sc, make_proxy, px, &a, &res, NULL));
	CHECK_STR(res.method, "publickey");
	CHECK(res.pw != NULL && strcmp(res.pw->pw_name, user) == 0);
	CHECK(res.pw != NULL && strcmp(res.pw->pw_passwd, "*") == 0);
	/* The key's line restrictions came through the seam. */
	CHECK(res.opts != NULL && res.opts->force_command != NULL &&
	    strcmp(res.opts->force_command, "echo hi") == 0);
	CHECK(px->pk_n == 2);
	auth_result_clear(&res);
	authority_free(a);

	/* A user the authority calls invalid gets nowhere with a good key. */
	px = new_proxy();
	px->invalidate = 1;
	CHECK_ERR(run(s_key_invalid_user, sc, make_proxy, px, &a, &res, NULL),
	    ERR_CONN_CLOSED);
	snprintf(line, sizeof(line), "Failed publickey for invalid user %s "
	    "from 127.0.0.1 port 1234 ssh2", user);
	CHECK(logged(line));
	authority_free(a);
}

/* password: the authority's word, both ways; refusals go to btmp. */
static void
test_password(const struct servconf *sc)
{
	struct auth_result res;
	struct authority *a;
	struct proxy *px = new_proxy();

	px->passwd = 1;
	CHECK_OK(run(s_password_ok, sc, make_proxy, px, &a, &res, NULL));
	CHECK_STR(res.method, "password");
	CHECK(asked(px, "passwd_check"));
	CHECK(strstr(px->calls, "record_failed_login") == NULL);
	auth_result_clear(&res);
	authority_free(a);

	px = new_proxy();
	px->passwd = 0;
	CHECK_ERR(run(s_password_bad, sc, make_proxy, px, &a, &res, NULL),
	    ERR_CONN_CLOSED);
	CHECK(asked(px, "passwd_check") && asked(px, "record_failed_login"));
	CHECK_STR(px->failed_user, user);
	authority_free(a);

	/* Asked for real, the in-process authority knows no such password. */
	px = new_proxy();
	CHECK_ERR(run(s_password_bad, sc, make_proxy, px, &a, &res, NULL),
	    ERR_CONN_CLOSED);
	CHECK(asked(px, "record_failed_login"));
	authority_free(a);
}

/* keyboard-interactive: the conversation runs through the authority. */
static void
test_kbdint(const struct servconf *sc)
{
	struct auth_result res;
	struct authority *a;
	struct proxy *px = new_proxy();

	px->pam = 1;
	CHECK_OK(run(s_kbdint_ok, sc, make_proxy, px, &a, &res, NULL));
	CHECK_STR(res.method, "keyboard-interactive");
	CHECK(asked(px, "kbdint") && asked(px, "account_check"));
	auth_result_clear(&res);
	authority_free(a);

	px = new_proxy();
	px->pam = 1;
	CHECK_ERR(run(s_kbdint_bad, sc, make_proxy, px, &a, &res, NULL),
	    ERR_CONN_CLOSED);
	CHECK(asked(px, "kbdint") && asked(px, "record_failed_login"));
	CHECK(strstr(px->calls, "account_check") == NULL);
	authority_free(a);
}

/* hostbased: the authority's verdict, and its own signature check. */
static void
test_hostbased(const struct servconf *sc)
{
	struct auth_result res;
	struct authority *a;
	struct proxy *px = new_proxy();

	px->hostbased = 1;
	CHECK_OK(run(s_hostbased, sc, make_proxy, px, &a, &res, NULL));
	CHECK_STR(res.method, "hostbased");
	CHECK_STR(px->hb_chost, "client.example.");
	CHECK_STR(px->hb_cuser, "alice");
	auth_result_clear(&res);
	authority_free(a);

	px = new_proxy();
	px->hostbased = 0;
	CHECK_ERR(run(s_hostbased_refused, sc, make_proxy, px, &a, &res, NULL),
	    ERR_CONN_CLOSED);
	CHECK(asked(px, "hostbased_check"));
	authority_free(a);

	/* Signed for another host name: the authority's check fails it. */
	px = new_proxy();
	CHECK_ERR(run(s_hostbased_badsig, sc, make_proxy, px, &a, &res, NULL),
	    ERR_CONN_CLOSED);
	CHECK(logged("userauth_hostbased: signature did not verify"));
	authority_free(a);
}

int
main(void)
{
	struct servconf *sc;

	if (authserve_setup("authority") != 0)
		return TEST_DONE();
	CHECK_OK(key_generate(KEY_ED25519, 0, &hkey));
	sc = make_sc(NULL);
	test_pubkey(sc);
	test_password(sc);
	servconf_free(sc);
	sc = make_sc("KbdInteractiveAuthentication yes");
	test_kbdint(sc);
	servconf_free(sc);
	sc = make_sc("HostbasedAuthentication yes");
	test_hostbased(sc);
	servconf_free(sc);
	key_free(hkey);
	authserve_teardown();
	return TEST_DONE();
}
