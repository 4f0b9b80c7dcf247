/*
 * monitor.c: the privileged side of monitor.h. One request at a time:
 * parse it whole, check it against the monitor's own record of the
 * connection (phase, the user looked up, how often each request came),
 * then let the backend authority answer and write the answer back.
 *
 * What ends the connection (an error from monitor_serve_one(), logged
 * "monitor: ..."): a frame that does not parse or has bytes left over,
 * an unknown or out-of-phase request, a request that names another user,
 * one repeated past its limit, a backend refusal (ERR_PERMISSION_DENIED:
 * the backend's own phase, user and signing-data checks). Any other
 * backend answer, "no" and errors alike, goes back to the child.
 */
#include <string.h>

#include "auth.h"
#include "authinfo_rec.h"
#include "err.h"
#include "kexalg.h"
#include "log.h"
#include "mem.h"
#include "monitor.h"
#include "ptyrecords.h"

#define MAX_PRE_SIGNS		16	/* KEX, a few rekeys, prove */
#define MAX_AUTH_REQUESTS	1024	/* key queries, tries, failures */
#define MAX_MODULI		4	/* one group exchange; room to spare */

struct monitor {
	struct authority *a;		/* the backend; ours */
	int fd;
	struct sbuf *in, *out;
	/* From user_lookup. */
	int looked_up;
	char *user;
	struct passwd *pw;
	int valid;
	struct servconf *sc;
	struct auth_chains *chains;
	/* The monitor's own record of what it said yes to. */
	struct authrec rec;
	int account_ok;			/* the PAM account check passed */
	int authenticated;
	int broken;			/* the child broke a conversation */
	int refused;			/* RefuseConnection applied */
	/* Counts. */
	unsigned pre_signs, auth_requests, banners, moduli;
	const char *moduli_path;
	struct sbuf *state;		/* MON_REQ_TRANSPORT_STATE */
	char *client;			/* the client's address */
	struct ptyrecords *ptys;	/* login records written */
	int sid_known;
	uint8_t type;			/* of the request being served */
};

struct monitor *
monitor_new(struct authority *backend, int fd)
{
	struct monitor *m = x_calloc(1, sizeof(*m));

	m->a = backend;
	m->fd = fd;
	m->in = sbuf_new();
	m->out = sbuf_new();
	m->ptys = ptyrecords_new();
	authrec_init(&m->rec);
	return m;
}

void
monitor_free(struct monitor *m)
{
	if (m == NULL)
		return;
	authority_free(m->a);
	sbuf_free(m->in);
	sbuf_free(m->out);
	x_free(m->user);
	auth_pw_free(m->pw);
	if (m->sc != NULL)
		servconf_free(m->sc);
	auth_chains_free(m->chains);
	authrec_clear(&m->rec);
	x_free(m->client);
	ptyrecords_free(m->ptys);
	sbuf_free(m->state);		/* wipes the keys it holds */
	x_free(m);
}

int
monitor_authenticated(const struct monitor *m)
{
	return m->authenticated;
}

const struct passwd *
monitor_user(const struct monitor *m)
{
	return m->pw;
}

void
monitor_set_moduli(struct monitor *m, const char *path)
{
	m->moduli_path = path;
}

void
monitor_set_client(struct monitor *m, const char *addr)
{
	x_free(m->client);
	m->client = x_strdup(addr);
}

void
monitor_set_fd(struct monitor *m, int fd)
{
	m->fd = fd;
}

void
monitor_logout_all(struct monitor *m)
{
	ptyrecords_logout_all(m->ptys);
}

void
monitor_take_result(struct monitor *m, struct auth_result *res)
{
	memset(res, 0, sizeof(*res));
	if (!m->authenticated)
		return;
	res->pw = auth_pw_dup(m->pw);
	res->sc = m->sc;
	m->sc = NULL;
	authrec_take(&m->rec, res);
}

int
monitor_refused(const struct monitor *m)
{
	return m->refused;
}

int
monitor_has_state(const struct monitor *m)
{
	return m->state != NULL;
}

struct authority *
monitor_authority(struct monitor *m)
{
	return m->a;
}

struct sbuf *
monitor_take_state(struct monitor *m)
{
	struct sbuf *s = m->state;

	m->state = NULL;
	return s;
}

static int
refuse(const char *what)
{
	log_error("monitor: %s; ending the connection", what);
	return ERR_PERMISSION_DENIED;
}

/* In a conversation: refused, and the request it belongs to ends too. */
static int
broke(struct monitor *m, const char *what)
{
	m->broken = 1;
	refuse(what);
	return ERR_PROTOCOL;
}

/*
 * The next frame from the child that is not a log line; those are
 * logged and acknowledged on the way (MON_LOG).
 */
static int
recv_frame(struct monitor *m, uint8_t *typep, struct sbuf *b)
{
	const unsigned char *text;
	size_t len;
	uint8_t level;
	int r;

	for (;;) {
		if ((r = mon_recv(m->fd, typep, b)) != 0 || *typep != MON_LOG)
			return r;
		if (sbuf_get_u8(b, &level) != 0 ||
		    sbuf_get_string_direct(b, &text, &len) != 0 ||
		    sbuf_len(b) != 0)
			return refuse("a malformed log line");
		log_relay(level, text, len);
		if ((r = mon_send(m->fd, MON_LOGGED, NULL)) != 0)
			return r;
	}
}

/* The answer: err, then what the request put in m->out. */
static int
answer(struct monitor *m, int err)
{
	struct sbuf *b = sbuf_new();
	int r;

	if (err == ERR_PERMISSION_DENIED) {
		sbuf_free(b);
		return refuse("the authority refused a request");
	}
	if ((r = sbuf_put_u32(b, (uint32_t)-err)) == 0 && err == 0)
		r = sbuf_putb(b, m->out);
	if (r == 0)
		r = mon_send(m->fd, MON_ANSWER, b);
	sbuf_free(b);
	return r;
}

/* A request that names a user must name the one looked up. */
static int
same_user(struct monitor *m, const char *user)
{
	if (m->pw == NULL)
		return refuse("a request before the user was looked up");
	if (strcmp(user, m->user) != 0)
		return refuse("a request for another user");
	return 0;
}

static int
counted(struct monitor *m)
{
	if (++m->auth_requests > MAX_AUTH_REQUESTS)
		return refuse("too many authentication requests");
	return 0;
}

/* The backend said yes to method: the record decides what it counts for. */
static void
record_success(struct monitor *m, const char *method,
    const unsigned char *blob, size_t bloblen, const char *info)
{
	authrec_success(&m->rec, m->pw, m->sc->permit_root_login, m->chains,
	    method, blob, bloblen, info);
}

static int
op_hostkey_sign(struct monitor *m, struct sbuf *q)
{
	const unsigned char *data;
	struct sbuf *sig;
	size_t dlen;
	uint32_t idx;
	char *alg = NULL;
	int r;

	if (!m->authenticated && ++m->pre_signs > MAX_PRE_SIGNS)
		return refuse("too many signature requests");
	if (sbuf_get_u32(q, &idx) != 0 ||
	    sbuf_get_cstring(q, &alg, NULL) != 0 ||
	    sbuf_get_string_direct(q, &data, &dlen) != 0 || sbuf_len(q) != 0) {
		x_free(alg);
		return refuse("a malformed signature request");
	}
	sig = sbuf_new();
	if ((r = authority_hostkey_sign(m->a, idx, alg, data, dlen,
	    sig)) == 0) {
		/* The first exchange hash is the session id from now on. */
		if (!m->sid_known && (dlen == 20 || dlen == 32 ||
		    dlen == 48 || dlen == 64)) {
			authority_local_set_session_id(m->a, data, dlen);
			authority_local_set_session_hostkey(m->a, idx);
			m->sid_known = 1;
		}
		r = sbuf_put_stringb(m->out, sig);
	}
	sbuf_free(sig);
	x_free(alg);
	return answer(m, r);
}

static int
op_user_lookup(struct monitor *m, struct sbuf *q)
{
	struct authority_user u;
	char *user = NULL;
	size_t i;
	int r;

	if (m->looked_up++)
		return refuse("a second user lookup");
	/* Any length a packet can carry: it is logged cut to 100. */
	if (sbuf_get_cstring(q, &user, NULL) != 0 || sbuf_len(q) != 0) {
		x_free(user);
		return refuse("a malformed user lookup");
	}
	m->user = user;
	if ((r = authority_user_lookup(m->a, user, &u)) != 0)
		return answer(m, r);
	/* Logged by the authority; the connection ends here, no answer. */
	if (u.sc->refuse_connection) {
		m->refused = 1;
		authority_user_clear(&u);
		return ERR_PERMISSION_DENIED;
	}
	if ((r = auth_chains_new(u.sc->authentication_methods,
	    &m->chains)) != 0) {
		authority_user_clear(&u);
		return answer(m, r);
	}
	m->pw = auth_pw_dup(u.pw);
	m->valid = u.valid;
	m->sc = servconf_dup(u.sc);
	if ((r = mon_put_passwd(m->out, u.pw)) == 0 &&
	    (r = sbuf_put_u8(m->out, u.valid != 0)) == 0 &&
	    (r = sbuf_put_u8(m->out, u.pam != 0)) == 0 &&
	    (r = sbuf_put_u32(m->out, (uint32_t)u.nblocks)) == 0)
		for (i = 0; r == 0 && i < u.nblocks; i++)
			r = sbuf_put_u32(m->out, u.blocks[i]);
	authority_user_clear(&u);
	return answer(m, r);
}

static int
op_banner(struct monitor *m, struct sbuf *q)
{
	struct sbuf *text;
	int r;

	if (sbuf_len(q) != 0)
		return refuse("a malformed banner request");
	if (m->pw == NULL || m->banners++ > 0)
		return refuse("a banner request out of turn");
	text = sbuf_new();
	if ((r = authority_banner(m->a, text)) == 0)
		r = sbuf_put_stringb(m->out, text);
	sbuf_free(text);
	return answer(m, r);
}

static int
op_pubkey_check(struct monitor *m, struct sbuf *q)
{
	struct authority_pubkey_req pq;
	char *user = NULL, *service = NULL, *alg = NULL;
	struct authopts *opts = NULL;
	int ok = 0, r;

	memset(&pq, 0, sizeof(pq));
	if (sbuf_get_cstring(q, &user, NULL) != 0 ||
	    sbuf_get_cstring(q, &service, NULL) != 0 ||
	    sbuf_get_cstring(q, &alg, NULL) != 0 ||
	    sbuf_get_string_direct(q, &pq.blob, &pq.bloblen) != 0 ||
	    sbuf_get_bool(q, &pq.has_sig) != 0 ||
	    sbuf_get_string_direct(q, &pq.sig, &pq.siglen) != 0 ||
	    sbuf_get_string_direct(q, &pq.hostkey, &pq.hostkeylen) != 0 ||
	    sbuf_len(q) != 0) {
		r = refuse("a malformed publickey request");
		goto out;
	}
	if ((r = same_user(m, user)) != 0 || (r = counted(m)) != 0)
		goto out;
	pq.user = user;
	pq.service = service;
	pq.alg = alg;
	if (pq.hostkeylen == 0)
		pq.hostkey = NULL;	/* plain "publickey" */
	if ((r = authority_pubkey_check(m->a, &pq, &ok, &opts)) == 0) {
		/* A key that logs in: its options join the earlier keys'. */
		if (ok && pq.has_sig &&
		    !authrec_key_used(&m->rec, pq.blob, pq.bloblen)) {
			if (authrec_add_key_opts(&m->rec, opts) == 0)
				record_success(m, "publickey", pq.blob,
				    pq.bloblen, NULL);
			else {
				log_error("Inconsistent authentication "
				    "options: forced command options do not "
				    "match");
				ok = 0;
			}
		}
		if ((r = sbuf_put_u8(m->out, ok != 0)) == 0 && ok)
			r = mon_put_authopts(m->out, opts);
	}
	r = answer(m, r);
 out:
	authopts_free(opts);
	x_free(user);
	x_free(service);
	x_free(alg);
	return r;
}

static int
op_hostbased_check(struct monitor *m, struct sbuf *q)
{
	struct authority_hostbased_req hq;
	char *user = NULL, *service = NULL, *alg = NULL, *chost = NULL,
	    *cuser = NULL, *info;
	int ok = 0, r;

	memset(&hq, 0, sizeof(hq));
	if (sbuf_get_cstring(q, &user, NULL) != 0 ||
	    sbuf_get_cstring(q, &service, NULL) != 0 ||
	    sbuf_get_cstring(q, &alg, NULL) != 0 ||
	    sbuf_get_string_direct(q, &hq.blob, &hq.bloblen) != 0 ||
	    sbuf_get_cstring(q, &chost, NULL) != 0 ||
	    sbuf_get_cstring(q, &cuser, NULL) != 0 ||
	    sbuf_get_string_direct(q, &hq.sig, &hq.siglen) != 0 ||
	    sbuf_len(q) != 0) {
		r = refuse("a malformed hostbased request");
		goto out;
	}
	if ((r = same_user(m, user)) != 0 || (r = counted(m)) != 0)
		goto out;
	hq.user = user;
	hq.service = service;
	hq.alg = alg;
	hq.chost = chost;
	hq.cuser = cuser;
	if ((r = authority_hostbased_check(m->a, &hq, &ok)) == 0) {
		r = sbuf_put_u8(m->out, ok != 0);
		if (ok) {
			info = x_asprintf("client user \"%.100s\", client "
			    "host \"%.100s\"", cuser, chost);
			record_success(m, "hostbased", hq.blob, hq.bloblen,
			    info);
			x_free(info);
		}
	}
	r = answer(m, r);
 out:
	x_free(user);
	x_free(service);
	x_free(alg);
	x_free(chost);
	x_free(cuser);
	return r;
}

static int
op_passwd_check(struct monitor *m, struct sbuf *q)
{
	char *user = NULL, *password = NULL;
	size_t plen = 0;
	int ok = 0, r;

	if (sbuf_get_cstring(q, &user, NULL) != 0 ||
	    sbuf_get_cstring(q, &password, &plen) != 0 || sbuf_len(q) != 0) {
		r = refuse("a malformed password request");
		goto out;
	}
	if ((r = same_user(m, user)) != 0 || (r = counted(m)) != 0)
		goto out;
	if ((r = authority_passwd_check(m->a, user, password, &ok)) == 0) {
		r = sbuf_put_u8(m->out, ok != 0);
		if (ok)
			record_success(m, "password", NULL, 0, NULL);
	}
	r = answer(m, r);
 out:
	x_free(user);
	if (password != NULL)
		x_freezero(password, plen);
	return r;
}

/* The monitor's side of a PAM conversation: a MON_PROMPT round trip. */
static int
ask_child(void *arg, const char *instruction, size_t nprompts,
    const char *const *prompts, const int *echo, char ***answersp)
{
	struct monitor *m = arg;
	struct sbuf *b = sbuf_new();
	uint32_t e, n, i;
	uint8_t t;
	char **ans = NULL;
	int r;

	*answersp = NULL;
	if ((r = sbuf_put_cstring(b, instruction)) != 0 ||
	    (r = sbuf_put_u32(b, (uint32_t)nprompts)) != 0)
		goto out;
	for (i = 0; i < nprompts; i++)
		if ((r = sbuf_put_cstring(b, prompts[i])) != 0 ||
		    (r = sbuf_put_u8(b, echo[i] != 0)) != 0)
			goto out;
	if ((r = mon_send(m->fd, MON_PROMPT, b)) != 0 ||
	    (r = recv_frame(m, &t, b)) != 0)
		goto out;
	if (t != MON_ANSWERS || sbuf_get_u32(b, &e) != 0 ||
	    sbuf_get_u32(b, &n) != 0) {
		r = broke(m, "a malformed answer to a prompt");
		goto out;
	}
	if (e != 0) {
		/* The child gave up; only "try again later" is its to say. */
		r = mon_err(e) == ERR_AGAIN ? ERR_AGAIN : ERR_PROTOCOL;
		goto out;
	}
	if (n != nprompts) {
		r = broke(m, "the wrong number of answers to a prompt");
		goto out;
	}
	ans = x_calloc(n + 1, sizeof(*ans));
	for (i = 0; i < n; i++)
		if (sbuf_get_cstring(b, &ans[i], NULL) != 0) {
			r = broke(m, "a malformed answer to a prompt");
			goto out;
		}
	if (sbuf_len(b) != 0) {
		r = broke(m, "a malformed answer to a prompt");
		goto out;
	}
	*answersp = ans;
	ans = NULL;
 out:
	if (ans != NULL) {
		for (i = 0; i < nprompts; i++)
			if (ans[i] != NULL)
				x_freezero(ans[i], strlen(ans[i]));
		x_free(ans);
	}
	sbuf_free(b);
	return r;
}

static int
op_kbdint(struct monitor *m, struct sbuf *q)
{
	char *user = NULL;
	int ok = 0, r;

	if (sbuf_get_cstring(q, &user, NULL) != 0 || sbuf_len(q) != 0) {
		x_free(user);
		return refuse("a malformed keyboard-interactive request");
	}
	if ((r = same_user(m, user)) != 0 || (r = counted(m)) != 0) {
		x_free(user);
		return r;
	}
	r = authority_kbdint(m->a, user, ask_child, m, &ok);
	x_free(user);
	if (m->broken)
		return ERR_PERMISSION_DENIED;	/* logged by broke() */
	if (r == 0) {
		r = sbuf_put_u8(m->out, ok != 0);
		if (ok) {
			/* PAM's verdict includes its account check. */
			m->account_ok = 1;
			record_success(m, "keyboard-interactive:pam", NULL,
			    0, NULL);
		}
	} else if (r != ERR_AGAIN && r != ERR_FEATURE_UNSUPPORTED &&
	    r != ERR_PERMISSION_DENIED)
		return refuse("the keyboard-interactive conversation broke");
	return answer(m, r);
}

/* account_check and record_failed_login: a user, then a flag or not. */
static int
op_user_only(struct monitor *m, struct sbuf *q)
{
	char *user = NULL;
	int ok = 0, r;

	if (sbuf_get_cstring(q, &user, NULL) != 0 || sbuf_len(q) != 0) {
		x_free(user);
		return refuse("a malformed request");
	}
	if ((r = same_user(m, user)) != 0 || (r = counted(m)) != 0) {
		x_free(user);
		return r;
	}
	if (m->type == MON_REQ_ACCOUNT_CHECK) {
		if ((r = authority_account_check(m->a, user, &ok)) == 0)
			r = sbuf_put_u8(m->out, ok != 0);
		if (r == 0 && ok)
			m->account_ok = 1;
	} else
		r = authority_record_failed_login(m->a, user);
	x_free(user);
	return answer(m, r);
}

static int
op_authenticated(struct monitor *m, struct sbuf *q)
{
	char *user = NULL;
	int r;

	if (sbuf_get_cstring(q, &user, NULL) != 0 || sbuf_len(q) != 0) {
		x_free(user);
		return refuse("a malformed authenticated claim");
	}
	r = same_user(m, user);
	x_free(user);
	if (r != 0)
		return r;
	if (!m->valid || !m->rec.chain_done ||
	    (m->sc->use_pam && !m->account_ok))
		return refuse("an authenticated claim the answers given do "
		    "not support");
	m->authenticated = 1;
	authority_set_phase(m->a, AUTHORITY_POSTAUTH);
	log_debug("monitor: %s authenticated", m->user);
	return answer(m, 0);
}

static int
op_session(struct monitor *m, struct sbuf *q)
{
	char *tty = NULL;
	int has_tty = 0, r;

	if (m->type == MON_REQ_SESSION_OPEN &&
	    (sbuf_get_bool(q, &has_tty) != 0 ||
	    sbuf_get_cstring(q, &tty, NULL) != 0)) {
		x_free(tty);
		return refuse("a malformed session request");
	}
	if (sbuf_len(q) != 0) {
		x_free(tty);
		return refuse("a malformed session request");
	}
	if (m->type == MON_REQ_SESSION_OPEN)
		r = authority_session_open(m->a, has_tty ? tty : NULL);
	else
		r = authority_session_close(m->a);
	x_free(tty);
	return answer(m, r);
}

static int
op_moduli(struct monitor *m, struct sbuf *q)
{
	uint32_t min, want, max;
	BIGNUM *p = NULL, *g = NULL;
	int r;

	/* After the grant, each rekeying may ask one: no count then. */
	if (!m->authenticated && ++m->moduli > MAX_MODULI)
		return refuse("too many group exchange requests");
	if (sbuf_get_u32(q, &min) != 0 || sbuf_get_u32(q, &want) != 0 ||
	    sbuf_get_u32(q, &max) != 0 || sbuf_len(q) != 0)
		return refuse("a malformed group exchange request");
	if ((r = kexalg_gex_choose(m->moduli_path, min, want, max, &p,
	    &g)) == 0 && (r = sbuf_put_bignum(m->out, p)) == 0)
		r = sbuf_put_bignum(m->out, g);
	BN_clear_free(p);
	BN_clear_free(g);
	/* A request no group fits is answered "no", as a server would. */
	if (r == ERR_PERMISSION_DENIED)
		r = ERR_NOT_FOUND;
	return answer(m, r);
}

static int
op_state(struct monitor *m, struct sbuf *q)
{
	const unsigned char *p;
	size_t len;

	if (m->state != NULL)
		return refuse("a second transport state");
	if (sbuf_get_string_direct(q, &p, &len) != 0 || sbuf_len(q) != 0)
		return refuse("a malformed transport state");
	m->state = sbuf_new();
	if (sbuf_put(m->state, p, len) != 0)
		return refuse("a transport state too large");
	return 0;
}

static int
op_login_record(struct monitor *m, struct sbuf *q)
{
	char *tty = NULL;
	uint32_t pid = 0;
	int r;

	if (sbuf_get_cstring(q, &tty, NULL) != 0 ||
	    (m->type == MON_REQ_LOGIN_RECORD && sbuf_get_u32(q, &pid) != 0) ||
	    sbuf_len(q) != 0) {
		x_free(tty);
		return refuse("a malformed login record request");
	}
	if (m->type == MON_REQ_LOGOUT_RECORD) {
		r = ptyrecords_logout(m->ptys, tty);
		x_free(tty);
		return r != 0 ? refuse("a logout record for a tty not "
		    "recorded") : answer(m, 0);
	}
	r = ptyrecords_login(m->ptys, m->pw, m->client ? m->client : "",
	    tty, pid);
	x_free(tty);
	if (r == ERR_PERMISSION_DENIED)
		return refuse("a login record for a tty or process not the "
		    "user's");
	return answer(m, r);
}

/*
 * Every request, with the phase it belongs to (authority.c checks the
 * backend's too) and the operation that serves it.
 */
enum mon_phase { ANY_PHASE, PREAUTH, POSTAUTH };
static const struct {
	uint8_t type;
	enum mon_phase phase;
	int (*op)(struct monitor *, struct sbuf *);
} ops[] = {
	{ MON_REQ_HOSTKEY_SIGN,		ANY_PHASE,	op_hostkey_sign },
	{ MON_REQ_MODULI,		ANY_PHASE,	op_moduli },
	{ MON_REQ_USER_LOOKUP,		PREAUTH,	op_user_lookup },
	{ MON_REQ_BANNER,		PREAUTH,	op_banner },
	{ MON_REQ_PUBKEY_CHECK,		PREAUTH,	op_pubkey_check },
	{ MON_REQ_HOSTBASED_CHECK,	PREAUTH,	op_hostbased_check },
	{ MON_REQ_PASSWD_CHECK,		PREAUTH,	op_passwd_check },
	{ MON_REQ_KBDINT,		PREAUTH,	op_kbdint },
	{ MON_REQ_ACCOUNT_CHECK,	PREAUTH,	op_user_only },
	{ MON_REQ_RECORD_FAILED,	PREAUTH,	op_user_only },
	{ MON_REQ_AUTHENTICATED,	PREAUTH,	op_authenticated },
	{ MON_REQ_SESSION_OPEN,		POSTAUTH,	op_session },
	{ MON_REQ_SESSION_CLOSE,	POSTAUTH,	op_session },
	{ MON_REQ_TRANSPORT_STATE,	POSTAUTH,	op_state },
	{ MON_REQ_LOGIN_RECORD,		POSTAUTH,	op_login_record },
	{ MON_REQ_LOGOUT_RECORD,	POSTAUTH,	op_login_record },
};

static int
serve(struct monitor *m, uint8_t type)
{
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].type == type)
			break;
	if (i == sizeof(ops) / sizeof(ops[0]))
		return refuse("an unknown request");
	if (ops[i].phase == PREAUTH && m->authenticated)
		return refuse("a pre-authentication request after "
		    "authentication");
	if (ops[i].phase == POSTAUTH && !m->authenticated)
		return refuse("a post-authentication request before "
		    "authentication");
	m->type = type;
	return ops[i].op(m, m->in);
}

/*
 * One request, served. Its frame is wiped as soon as it is answered: a
 * password or the transport's keys must not wait in m->in for the next
 * frame, which after authentication may never come, and the post-auth
 * process is forked with this memory.
 */
int
monitor_serve_one(struct monitor *m)
{
	uint8_t type;
	int r;

	sbuf_reset(m->out);
	if ((r = recv_frame(m, &type, m->in)) != 0) {
		if (r == ERR_CONN_CLOSED)
			return r;
		log_error("monitor: reading a request: %s", err_str(r));
		return r;
	}
	r = serve(m, type);
	sbuf_wipe(m->in);
	sbuf_wipe(m->out);
	return r;
}
