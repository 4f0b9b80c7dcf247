/*
 * authority_remote.c: the child's side of monitor.h. Every operation of
 * the authority is one request on the monitor's socket and one answer;
 * an answer that does not parse is an error (the caller treats it as a
 * "no"). The only state kept here is the configuration both processes
 * loaded, to apply the Match blocks the monitor names.
 */
#include <string.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "monitor.h"

struct remote {
	int fd;
	const struct servconf *sc;
};

/* Send a request, read its MON_ANSWER; *errp is the monitor's code. */
static int
call(struct remote *rm, uint8_t type, const struct sbuf *req,
    struct sbuf *ans, int *errp)
{
	uint8_t t;
	uint32_t e;
	int r;

	*errp = ERR_INTERNAL;
	if ((r = mon_send(rm->fd, type, req)) != 0 ||
	    (r = mon_recv(rm->fd, &t, ans)) != 0)
		return r;
	if (t != MON_ANSWER || sbuf_get_u32(ans, &e) != 0)
		return ERR_PROTOCOL;
	*errp = mon_err(e);
	return 0;
}

/* The common tail: the monitor's code, or a transport failure. */
static int
done(int r, int e)
{
	if (r != 0) {
		log_error("monitor: %s", err_str(r));
		return r;
	}
	return e;
}

static int
get_ok(struct sbuf *ans, int *okp)
{
	return sbuf_get_bool(ans, okp) != 0 ? ERR_PROTOCOL : 0;
}

static int
remote_hostkey_sign(void *impl, size_t idx, const char *alg,
    const unsigned char *data, size_t dlen, struct sbuf *sig)
{
	struct remote *rm = impl;
	struct sbuf *q = sbuf_new(), *a = sbuf_new();
	const unsigned char *s;
	size_t slen;
	int r, e = ERR_INTERNAL;

	if ((r = sbuf_put_u32(q, (uint32_t)idx)) == 0 &&
	    (r = sbuf_put_cstring(q, alg)) == 0 &&
	    (r = sbuf_put_string(q, data, dlen)) == 0)
		r = call(rm, MON_REQ_HOSTKEY_SIGN, q, a, &e);
	if (r == 0 && e == 0) {
		if (sbuf_get_string_direct(a, &s, &slen) != 0)
			e = ERR_PROTOCOL;
		else
			e = sbuf_put(sig, s, slen);
	}
	sbuf_free(q);
	sbuf_free(a);
	return done(r, e);
}

static int
remote_user_lookup(void *impl, const char *user, struct authority_user *out)
{
	struct remote *rm = impl;
	struct sbuf *q = sbuf_new(), *a = sbuf_new();
	uint32_t n, i;
	int r, e = ERR_INTERNAL;

	if ((r = sbuf_put_cstring(q, user)) == 0)
		r = call(rm, MON_REQ_USER_LOOKUP, q, a, &e);
	if (r != 0 || e != 0)
		goto out;
	e = ERR_PROTOCOL;
	if (mon_get_passwd(a, &out->pw) != 0 ||
	    sbuf_get_bool(a, &out->valid) != 0 ||
	    sbuf_get_bool(a, &out->pam) != 0 ||
	    sbuf_get_u32(a, &n) != 0 || n > servconf_nblocks(rm->sc))
		goto out;
	out->blocks = x_calloc(n + 1, sizeof(*out->blocks));
	for (i = 0; i < n; i++)
		if (sbuf_get_u32(a, &out->blocks[i]) != 0)
			goto out;
	out->nblocks = n;
	/* The same file, the same blocks: the same settings as the monitor. */
	e = servconf_apply_blocks(rm->sc, out->blocks, n, &out->sc);
 out:
	sbuf_free(q);
	sbuf_free(a);
	return done(r, e);
}

static int
remote_banner(void *impl, struct sbuf *text)
{
	struct remote *rm = impl;
	struct sbuf *a = sbuf_new();
	const unsigned char *s;
	size_t slen;
	int r, e = ERR_INTERNAL;

	r = call(rm, MON_REQ_BANNER, NULL, a, &e);
	if (r == 0 && e == 0) {
		if (sbuf_get_string_direct(a, &s, &slen) != 0)
			e = ERR_PROTOCOL;
		else
			e = sbuf_put(text, s, slen);
	}
	sbuf_free(a);
	return done(r, e);
}

static int
remote_pubkey_check(void *impl, const struct authority_pubkey_req *pq,
    int *okp, struct authopts **optsp)
{
	struct remote *rm = impl;
	struct sbuf *q = sbuf_new(), *a = sbuf_new();
	int r, e = ERR_INTERNAL;

	if ((r = sbuf_put_cstring(q, pq->user)) == 0 &&
	    (r = sbuf_put_cstring(q, pq->service)) == 0 &&
	    (r = sbuf_put_cstring(q, pq->alg)) == 0 &&
	    (r = sbuf_put_string(q, pq->blob, pq->bloblen)) == 0 &&
	    (r = sbuf_put_u8(q, pq->has_sig != 0)) == 0 &&
	    (r = sbuf_put_string(q, pq->sig, pq->has_sig ? pq->siglen : 0))
	    == 0 &&
	    (r = sbuf_put_string(q, pq->hostkey, pq->hostkey != NULL ?
	    pq->hostkeylen : 0)) == 0)
		r = call(rm, MON_REQ_PUBKEY_CHECK, q, a, &e);
	if (r == 0 && e == 0 && (e = get_ok(a, okp)) == 0 && *okp &&
	    mon_get_authopts(a, optsp) != 0)
		e = ERR_PROTOCOL;
	sbuf_free(q);
	sbuf_free(a);
	return done(r, e);
}

static int
remote_hostbased_check(void *impl, const struct authority_hostbased_req *hq,
    int *okp)
{
	struct remote *rm = impl;
	struct sbuf *q = sbuf_new(), *a = sbuf_new();
	int r, e = ERR_INTERNAL;

	if ((r = sbuf_put_cstring(q, hq->user)) == 0 &&
	    (r = sbuf_put_cstring(q, hq->service)) == 0 &&
	    (r = sbuf_put_cstring(q, hq->alg)) == 0 &&
	    (r = sbuf_put_string(q, hq->blob, hq->bloblen)) == 0 &&
	    (r = sbuf_put_cstring(q, hq->chost)) == 0 &&
	    (r = sbuf_put_cstring(q, hq->cuser)) == 0 &&
	    (r = sbuf_put_string(q, hq->sig, hq->siglen)) == 0)
		r = call(rm, MON_REQ_HOSTBASED_CHECK, q, a, &e);
	if (r == 0 && e == 0)
		e = get_ok(a, okp);
	sbuf_free(q);
	sbuf_free(a);
	return done(r, e);
}

/* The requests that name the user and answer a flag. */
static int
user_flag(struct remote *rm, uint8_t type, const char *user,
    const char *extra, int *okp)
{
	struct sbuf *q = sbuf_new(), *a = sbuf_new();
	int r, e = ERR_INTERNAL;

	if ((r = sbuf_put_cstring(q, user)) == 0 && extra != NULL)
		r = sbuf_put_cstring(q, extra);
	if (r == 0)
		r = call(rm, type, q, a, &e);
	if (r == 0 && e == 0 && okp != NULL)
		e = get_ok(a, okp);
	sbuf_free(q);
	sbuf_free(a);
	return done(r, e);
}

static int
remote_passwd_check(void *impl, const char *user, const char *password,
    int *okp)
{
	return user_flag(impl, MON_REQ_PASSWD_CHECK, user, password, okp);
}

static int
remote_account_check(void *impl, const char *user, int *okp)
{
	return user_flag(impl, MON_REQ_ACCOUNT_CHECK, user, NULL, okp);
}

static int
remote_record_failed_login(void *impl, const char *user)
{
	return user_flag(impl, MON_REQ_RECORD_FAILED, user, NULL, NULL);
}

/* One MON_PROMPT: ask the user, send MON_ANSWERS. */
static int
answer_prompt(struct remote *rm, struct sbuf *p, auth_pam_ask_fn ask,
    void *arg)
{
	char *instr = NULL, **prompts = NULL, **answers = NULL;
	int *echo = NULL, ar = 0, r;
	uint32_t n = 0, i, got = 0;
	struct sbuf *b = sbuf_new();

	if ((r = sbuf_get_cstring(p, &instr, NULL)) != 0 ||
	    (r = sbuf_get_u32(p, &n)) != 0)
		goto out;
	if (n > 64 || n > sbuf_len(p) / 5) {
		r = ERR_PROTOCOL;
		goto out;
	}
	prompts = x_calloc(n + 1, sizeof(*prompts));
	echo = x_calloc(n + 1, sizeof(*echo));
	for (got = 0; got < n; got++)
		if ((r = sbuf_get_cstring(p, &prompts[got], NULL)) != 0 ||
		    (r = sbuf_get_bool(p, &echo[got])) != 0)
			goto out;
	ar = ask(arg, instr, n, (const char *const *)prompts, echo, &answers);
	if ((r = sbuf_put_u32(b, (uint32_t)-ar)) != 0 ||
	    (r = sbuf_put_u32(b, ar == 0 ? n : 0)) != 0)
		goto out;
	for (i = 0; ar == 0 && i < n; i++)
		if ((r = sbuf_put_cstring(b, answers[i])) != 0)
			goto out;
	r = mon_send(rm->fd, MON_ANSWERS, b);
 out:
	if (answers != NULL) {
		for (i = 0; i < n; i++)
			if (answers[i] != NULL)
				x_freezero(answers[i], strlen(answers[i]));
		x_free(answers);
	}
	for (i = 0; i < got + (got < n); i++)
		x_free(prompts[i]);
	x_free(prompts);
	x_free(echo);
	x_free(instr);
	sbuf_free(b);
	return r;
}

static int
remote_kbdint(void *impl, const char *user, auth_pam_ask_fn ask, void *arg,
    int *okp)
{
	struct remote *rm = impl;
	struct sbuf *q = sbuf_new(), *a = sbuf_new();
	uint8_t t;
	uint32_t e;
	int r;

	if ((r = sbuf_put_cstring(q, user)) != 0 ||
	    (r = mon_send(rm->fd, MON_REQ_KBDINT, q)) != 0)
		goto out;
	for (;;) {
		if ((r = mon_recv(rm->fd, &t, a)) != 0)
			goto out;
		if (t != MON_PROMPT)
			break;
		if ((r = answer_prompt(rm, a, ask, arg)) != 0)
			goto out;
	}
	if (t != MON_ANSWER || sbuf_get_u32(a, &e) != 0) {
		r = ERR_PROTOCOL;
		goto out;
	}
	if ((r = mon_err(e)) == 0)
		r = get_ok(a, okp);
 out:
	sbuf_free(q);
	sbuf_free(a);
	return r;
}

static int
remote_session_open(void *impl, const char *tty)
{
	struct remote *rm = impl;
	struct sbuf *q = sbuf_new(), *a = sbuf_new();
	int r, e = ERR_INTERNAL;

	if ((r = sbuf_put_u8(q, tty != NULL)) == 0 &&
	    (r = sbuf_put_cstring(q, tty != NULL ? tty : "")) == 0)
		r = call(rm, MON_REQ_SESSION_OPEN, q, a, &e);
	sbuf_free(q);
	sbuf_free(a);
	return done(r, e);
}

static int
remote_session_close(void *impl)
{
	struct remote *rm = impl;
	struct sbuf *a = sbuf_new();
	int r, e = ERR_INTERNAL;

	r = call(rm, MON_REQ_SESSION_CLOSE, NULL, a, &e);
	sbuf_free(a);
	return done(r, e);
}

static void
remote_free(void *impl)
{
	x_free(impl);
}

static int
remote_authenticated(void *impl, const char *user)
{
	return user_flag(impl, MON_REQ_AUTHENTICATED, user, NULL, NULL);
}

static const struct authority_ops remote_ops = {
	.hostkey_sign = remote_hostkey_sign,
	.user_lookup = remote_user_lookup,
	.banner = remote_banner,
	.pubkey_check = remote_pubkey_check,
	.hostbased_check = remote_hostbased_check,
	.passwd_check = remote_passwd_check,
	.kbdint = remote_kbdint,
	.account_check = remote_account_check,
	.record_failed_login = remote_record_failed_login,
	.session_open = remote_session_open,
	.session_close = remote_session_close,
	.free = remote_free,
	.authenticated = remote_authenticated,
};

struct authority *
authority_remote_new(int fd, const struct servconf *sc)
{
	struct remote *rm = x_calloc(1, sizeof(*rm));

	rm->fd = fd;
	rm->sc = sc;
	return authority_new(&remote_ops, rm);
}

int
authority_remote_authenticated(struct authority *a, const char *user)
{
	if (a == NULL || a->ops != &remote_ops)
		return ERR_INVALID_ARGUMENT;
	return authority_claim_authenticated(a, user);
}

int
authority_remote_moduli(struct authority *a, uint32_t min, uint32_t want,
    uint32_t max, BIGNUM **pp, BIGNUM **gp)
{
	struct sbuf *q, *ans;
	int r, e = ERR_INTERNAL;

	*pp = *gp = NULL;
	if (a == NULL || a->ops != &remote_ops)
		return ERR_INVALID_ARGUMENT;
	q = sbuf_new();
	ans = sbuf_new();
	if ((r = sbuf_put_u32(q, min)) == 0 && (r = sbuf_put_u32(q, want)) == 0 &&
	    (r = sbuf_put_u32(q, max)) == 0)
		r = call(a->impl, MON_REQ_MODULI, q, ans, &e);
	if (r == 0 && e == 0 && (sbuf_get_bignum(ans, pp) != 0 ||
	    sbuf_get_bignum(ans, gp) != 0 || sbuf_len(ans) != 0)) {
		BN_clear_free(*pp);
		BN_clear_free(*gp);
		*pp = *gp = NULL;
		e = ERR_PROTOCOL;
	}
	sbuf_free(q);
	sbuf_free(ans);
	return done(r, e);
}

int
authority_remote_send_state(struct authority *a, const struct sbuf *st)
{
	struct remote *rm;
	struct sbuf *q;
	int r;

	if (a == NULL || a->ops != &remote_ops)
		return ERR_INVALID_ARGUMENT;
	rm = a->impl;
	q = sbuf_new();
	if ((r = sbuf_put_stringb(q, st)) == 0)
		r = mon_send(rm->fd, MON_REQ_TRANSPORT_STATE, q);
	sbuf_free(q);
	return r;
}

int
authority_remote_login(struct authority *a, const char *tty, long pid)
{
	struct sbuf *q, *ans;
	int r, e = ERR_INTERNAL;

	if (a == NULL || a->ops != &remote_ops || pid < 0 || pid > INT32_MAX)
		return ERR_INVALID_ARGUMENT;
	q = sbuf_new();
	ans = sbuf_new();
	if ((r = sbuf_put_cstring(q, tty)) == 0 &&
	    (r = sbuf_put_u32(q, (uint32_t)pid)) == 0)
		r = call(a->impl, MON_REQ_LOGIN_RECORD, q, ans, &e);
	sbuf_free(q);
	sbuf_free(ans);
	return done(r, e);
}

int
authority_remote_logout(struct authority *a, const char *tty)
{
	struct sbuf *q, *ans;
	int r, e = ERR_INTERNAL;

	if (a == NULL || a->ops != &remote_ops)
		return ERR_INVALID_ARGUMENT;
	q = sbuf_new();
	ans = sbuf_new();
	if ((r = sbuf_put_cstring(q, tty)) == 0)
		r = call(a->impl, MON_REQ_LOGOUT_RECORD, q, ans, &e);
	sbuf_free(q);
	sbuf_free(ans);
	return done(r, e);
}
