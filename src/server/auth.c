/*
 * auth.c: the server's "ssh-userauth" service (RFC 4252).
 *
 * auth_serve() accepts the service, then runs one loop over
 * USERAUTH_REQUESTs. The first request names the user: it is looked up,
 * the Match blocks for it are applied, and the account checks run. An
 * unknown user gets a fake passwd entry; unknown and refused users go
 * through the same motions (a password is still hashed) and are never
 * let in, so the answers do not tell whether the account exists.
 * Methods are rows of a table (name, the servconf switch that enables
 * it, handler); a handler answers SUCCESS, FAILURE or POSTPONED (it
 * already replied, as PK_OK does), and the loop does the bookkeeping
 * OpenSSH does: log lines, MaxAuthTries, PermitRootLogin, the banner,
 * the list of methods that can continue. none and password are here;
 * publickey, keyboard-interactive and hostbased have files of their own
 * (auth_pubkey.c, auth_kbdint.c, auth_hostbased.c).
 * Running as root, failed logins go into btmp where Debian's sshd puts
 * them: a user name that does not exist, when first seen, and each
 * password or keyboard-interactive answer that was checked and refused
 * (including a right one refused after all: PermitRootLogin, PAM
 * account); not publickey, hostbased or none, nor a method never tried.
 *
 * Nothing here needs privilege: looking the user up, the banner file,
 * passwords, PAM, keys and btmp are the authority's (authority.h); this
 * file parses, asks, obeys the answer and speaks the protocol.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth_int.h"
#include "err.h"
#include "log.h"
#include "mem.h"

void
auth_result_clear(struct auth_result *res)
{
	auth_pw_free(res->pw);
	authopts_free(res->opts);
	if (res->sc != NULL)
		servconf_free(res->sc);
	x_free(res->method);
	x_free(res->auth_info);
	memset(res, 0, sizeof(*res));
}

/* A failed login, for btmp: the authority records it. */
static void
record_failed_login(struct authctxt *ac)
{
	(void)authority_record_failed_login(ac->auth, ac->user);
}

static int
m_none(struct authctxt *ac, struct sbuf *req, enum auth_outcome *outp,
    char **infop)
{
	*outp = AUTH_FAIL;
	return sbuf_len(req) == 0 ? 0 : ERR_PROTOCOL;
}

static int
m_password(struct authctxt *ac, struct sbuf *req, enum auth_outcome *outp,
    char **infop)
{
	char *password = NULL, *newpass = NULL;
	size_t plen = 0, nlen = 0;
	int r, change, ok;

	*outp = AUTH_FAIL;
	if ((r = sbuf_get_bool(req, &change)) != 0 ||
	    (r = sbuf_get_cstring(req, &password, &plen)) != 0 ||
	    (change && (r = sbuf_get_cstring(req, &newpass, &nlen)) != 0) ||
	    sbuf_len(req) != 0) {
		r = ERR_PROTOCOL;
		goto out;
	}
	if (change) {
		log_info("password change not supported");
		goto out;
	}
	if (authority_passwd_check(ac->auth, ac->user, password, &ok) != 0)
		ok = 0;
	if (ok && ac->valid)
		*outp = AUTH_SUCCESS;
	else
		record_failed_login(ac);
	r = 0;
 out:
	if (password != NULL)
		x_freezero(password, plen);
	if (newpass != NULL)
		x_freezero(newpass, nlen);
	return r;
}

#define SC_FIELD(f) offsetof(struct servconf, f)
#define ALWAYS ((size_t)-1)

static const struct method {
	const char *name;
	size_t enabled;		/* int field of servconf; ALWAYS for none */
	method_fn fn;
	int btmp;		/* its refusals are failed logins (btmp) */
} methods[] = {
	{ "none",	ALWAYS,				m_none, 0 },
	{ "publickey",	SC_FIELD(pubkey_authentication),
	    auth_m_publickey, 0 },
	{ "password",	SC_FIELD(password_authentication),	m_password, 1 },
	{ "keyboard-interactive", SC_FIELD(kbd_interactive_authentication),
	    auth_m_kbdint, 1 },
	{ "hostbased",	SC_FIELD(hostbased_authentication),
	    auth_m_hostbased, 0 },
};
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

static int
method_enabled(const struct servconf *sc, const struct method *m)
{
	if (m->enabled == ALWAYS)
		return 1;
	return *(const int *)(const void *)((const char *)sc + m->enabled);
}

/* Enabled, and due now under AuthenticationMethods. */
static int
method_usable(const struct authctxt *ac, const struct method *m)
{
	return method_enabled(ac->sc, m) && (m->enabled == ALWAYS ||
	    auth_chains_allowed(ac->chains, m->name));
}

static const struct method *
method_find(const struct authctxt *ac, const char *name)
{
	size_t i;

	for (i = 0; i < NMETHODS; i++)
		if (strcmp(methods[i].name, name) == 0 &&
		    method_usable(ac, &methods[i]))
			return &methods[i];
	return NULL;
}

/* PermitRootLogin for a root login by method; logs a refusal. */
static int
root_allowed(struct authctxt *ac, const char *method)
{
	int ok = 0;

	switch (ac->sc->permit_root_login) {
	case PERMIT_ROOT_YES:
		ok = 1;
		break;
	case PERMIT_ROOT_NO_PASSWORD:
		ok = strcmp(method, "publickey") == 0 ||
		    strcmp(method, "hostbased") == 0;
		break;
	case PERMIT_ROOT_FORCED_ONLY:
		if (strcmp(method, "publickey") == 0 && ac->opts != NULL &&
		    ac->opts->force_command != NULL) {
			log_info("Root login accepted for forced command.");
			ok = 1;
		}
		break;
	case PERMIT_ROOT_NO:
		break;
	}
	if (!ok)
		log_info("ROOT LOGIN REFUSED FROM %s port %d",
		    ac->conn->remote_addr, ac->conn->remote_port);
	return ok;
}

static void
auth_log(struct authctxt *ac, const char *method, enum auth_outcome out,
    const char *info)
{
	int level = LOG_LEVEL_VERBOSE;
	const char *what = out == AUTH_SUCCESS ? "Accepted" :
	    out == AUTH_POSTPONED ? "Postponed" :
	    out == AUTH_PARTIAL ? "Partial" : "Failed";

	if (out == AUTH_SUCCESS || !ac->valid ||
	    ac->failures >= ac->sc->max_auth_tries / 2 ||
	    strcmp(method, "password") == 0)
		level = LOG_LEVEL_INFO;
	/*
	 * OpenSSH's monitor logs the requests it decides: never a failed
	 * "none", nor a key offered (unsigned) for an invalid user, whose
	 * keys it does not look up; a postponed key (the query before a
	 * signature) comes from its pre-auth child, without the key.
	 */
	if (out == AUTH_FAIL && (strcmp(method, "none") == 0 ||
	    (!ac->valid && ac->key_query)))
		return;
	if (out == AUTH_POSTPONED) {
		log_verbose("Postponed %.100s for %s%.100s from %s port %d "
		    "ssh2 [preauth]", method, ac->valid ? "" : "invalid user ",
		    ac->user, ac->conn->remote_addr, ac->conn->remote_port);
		return;
	}
	log_msg(level, "%s %.100s%s%.100s for %s%.100s from %s port %d ssh2%s",
	    what, method, ac->submethod ? "/" : "",
	    ac->submethod ? ac->submethod : "",
	    ac->valid ? "" : "invalid user ", ac->user,
	    ac->conn->remote_addr, ac->conn->remote_port, info ? info : "");
}

static int
send_banner(struct authctxt *ac)
{
	struct sbuf *m, *text = sbuf_new();
	int r = 0;

	if (authority_banner(ac->auth, text) != 0 || sbuf_len(text) == 0)
		goto out;
	if ((m = tr_msg_start(ac->t, SSH2_MSG_USERAUTH_BANNER)) == NULL) {
		r = ERR_INTERNAL;
		goto out;
	}
	if ((r = sbuf_put_stringb(m, text)) != 0 ||
	    (r = sbuf_put_cstring(m, "")) != 0 ||
	    (r = tr_msg_send(ac->t)) != 0)
		goto out;
 out:
	sbuf_free(text);
	return r;
}

static int
send_failure(struct authctxt *ac, int partial)
{
	struct sbuf *m, *list = sbuf_new();
	size_t i;
	int r;

	for (i = 0, r = 0; i < NMETHODS && r == 0; i++) {
		if (methods[i].enabled == ALWAYS ||
		    !method_usable(ac, &methods[i]))
			continue;
		r = sbuf_putf(list, "%s%s", sbuf_len(list) ? "," : "",
		    methods[i].name);
	}
	if (r == 0 &&
	    (m = tr_msg_start(ac->t, SSH2_MSG_USERAUTH_FAILURE)) == NULL)
		r = ERR_INTERNAL;
	if (r == 0 && (r = sbuf_put_stringb(m, list)) == 0 &&
	    (r = sbuf_put_u8(m, partial ? 1 : 0)) == 0)
		r = tr_msg_send(ac->t);
	sbuf_free(list);
	return r;
}

/*
 * Learn the user from the first request: the authority looks the user
 * up, applies Match, starts PAM and runs the account checks.
 */
static int
first_request(struct authctxt *ac, const char *user, const char *service)
{
	struct authority_user u;
	int r;

	ac->user = x_strdup(user);
	ac->service = x_strdup(service);
	if ((r = authority_user_lookup(ac->auth, user, &u)) != 0)
		return r;
	ac->pw = u.pw;
	ac->valid = u.valid;
	ac->pam = u.pam;
	ac->sc = u.sc;
	x_free(u.blocks);	/* the rest is ours now */
	if ((r = auth_chains_new(ac->sc->authentication_methods,
	    &ac->chains)) != 0) {
		log_error("bad AuthenticationMethods \"%s\"",
		    ac->sc->authentication_methods);
		return r;
	}
	return 0;
}

/*
 * "authenticating user U " or "invalid user U " once a request named a
 * user, as OpenSSH names the peer in its pre-auth lines; "" before.
 */
static void
auth_peer_user(const struct authctxt *ac, char *buf, size_t size)
{
	if (ac->user == NULL)
		buf[0] = '\0';
	else
		snprintf(buf, size, "%s user %.100s ",
		    ac->valid ? "authenticating" : "invalid", ac->user);
}

int
auth_wait_failed(struct authctxt *ac, int r)
{
	const struct auth_conn *c = ac->conn;
	int banner = tr_peer_version(ac->t) != NULL;
	char who[160];
	const char *how;

	if (r == ERR_CONN_TIMEOUT || r == ERR_AGAIN) {
		/* LoginGraceTime; OpenSSH logs it at its fatal level. */
		log_fatal("Timeout before authentication for %s port %d",
		    c->remote_addr, c->remote_port);
		tr_disconnect(ac->t, SSH2_DISCONNECT_BY_APPLICATION,
		    "Timeout before authentication");
		return ERR_CONN_TIMEOUT;
	}
	if (r == ERR_PROTOCOL_VERSION) {
		/* The transport logged what the peer sent. */
		log_info("banner exchange: Connection from %s port %d: "
		    "invalid format", c->remote_addr, c->remote_port);
		return r;
	}
	if (r == ERR_SYSTEM && tr_io_errno(ac->t, NULL) == ECONNRESET)
		how = "Connection reset by";
	else if (r == ERR_DISCONNECTED)
		how = "Disconnected from";
	else if (r == ERR_CONN_CLOSED || r == ERR_EOF)
		how = "Connection closed by";
	else
		return r;
	/* OpenSSH's lines: no [preauth] before the version exchange. */
	if (!banner) {
		log_error("kex_exchange_identification: %s",
		    r == ERR_SYSTEM ? "read: Connection reset by peer" :
		    "Connection closed by remote host");
		log_info("%s %s port %d", how, c->remote_addr, c->remote_port);
		return ERR_CONN_CLOSED;
	}
	auth_peer_user(ac, who, sizeof(who));
	log_info("%s %s%s port %d [preauth]", how, who, c->remote_addr,
	    c->remote_port);
	return r == ERR_DISCONNECTED ? r : ERR_CONN_CLOSED;
}

/*
 * Answer one SERVICE_REQUEST (p: its body): "ssh-userauth" is accepted,
 * anything else ends the connection. As in OpenSSH, a client may ask
 * again at any time before it is authenticated: paramiko does so before
 * each attempt.
 */
static int
answer_service(struct authctxt *ac, struct sbuf *p)
{
	struct sbuf *m;
	char *name = NULL;
	int r;

	if (sbuf_get_cstring(p, &name, NULL) != 0) {
		tr_disconnect(ac->t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "bad service request");
		return ERR_PROTOCOL;
	}
	if (strcmp(name, "ssh-userauth") != 0) {
		tr_disconnect(ac->t, SSH2_DISCONNECT_SERVICE_NOT_AVAILABLE,
		    "bad service request %s", name);
		x_free(name);
		return ERR_PROTOCOL;
	}
	if ((m = tr_msg_start(ac->t, SSH2_MSG_SERVICE_ACCEPT)) == NULL)
		r = ERR_INTERNAL;
	else if ((r = sbuf_put_cstring(m, name)) == 0)
		r = tr_msg_send(ac->t);
	x_free(name);
	return r;
}

/* Wait for the first SERVICE_REQUEST and answer it. */
static int
accept_service(struct authctxt *ac)
{
	struct sbuf *p;
	uint8_t type;
	int r;

	for (;;) {
		r = tr_wait_message(ac->t, &type, &p, -1);
		if (r != 0)
			return auth_wait_failed(ac, r);
		if (type == SSH2_MSG_SERVICE_REQUEST)
			return answer_service(ac, p);
		log_debug("unexpected message type %u before service "
		    "request", type);
		if ((r = tr_unimplemented(ac->t)) != 0)
			return r;
	}
}

/*
 * The user and service of a request: the first one names them (and gets
 * the banner), every later one must name the same pair.
 */
static int
check_identity(struct authctxt *ac, const char *user, const char *service)
{
	int r;

	if (ac->user == NULL) {
		if (strcmp(service, "ssh-connection") != 0) {
			tr_disconnect(ac->t,
			    SSH2_DISCONNECT_SERVICE_NOT_AVAILABLE,
			    "bad service %s", service);
			return ERR_PROTOCOL;
		}
		if ((r = first_request(ac, user, service)) != 0)
			return r;
		return send_banner(ac);
	}
	if (strcmp(user, ac->user) != 0 || strcmp(service, ac->service) != 0) {
		tr_disconnect(ac->t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "Change of username or service not allowed: "
		    "(%s,%s) -> (%s,%s)", ac->user, ac->service, user, service);
		return ERR_PROTOCOL;
	}
	return 0;
}

/*
 * Disconnect with OpenSSH's pre-auth wording, which names the user:
 * "Disconnecting authenticating user U ADDR port N: MSG [preauth]". The
 * transport's own line (which names the address only) is held back.
 */
static void
auth_disconnect(struct authctxt *ac, uint32_t reason, const char *msg)
{
	int level = log_level();
	char who[160];

	auth_peer_user(ac, who, sizeof(who));
	log_info("Disconnecting %s%s port %d: %s [preauth]", who,
	    ac->conn->remote_addr, ac->conn->remote_port, msg);
	log_set_level(LOG_LEVEL_QUIET);
	tr_disconnect(ac->t, reason, "%s", msg);
	log_set_level(level);
}

/* Tell the client the outcome of one request; *donep set on success. */
static int
answer_outcome(struct authctxt *ac, enum auth_outcome out, int *donep)
{
	int r;

	switch (out) {
	case AUTH_POSTPONED:
		break;
	case AUTH_PARTIAL:
		return send_failure(ac, 1);
	case AUTH_SUCCESS:
		/* A monitor's verdict comes before the client hears one. */
		if ((r = authority_claim_authenticated(ac->auth,
		    ac->user)) != 0)
			return r;
		if (tr_msg_start(ac->t, SSH2_MSG_USERAUTH_SUCCESS) == NULL)
			return ERR_INTERNAL;
		if ((r = tr_msg_send(ac->t)) != 0)
			return r;
		tr_set_authenticated(ac->t);
		*donep = 1;
		break;
	case AUTH_FAIL:
		if (ac->failures >= ac->sc->max_auth_tries) {
			log_error("maximum authentication attempts exceeded "
			    "for %s%.100s from %s port %d ssh2 [preauth]",
			    ac->valid ? "" : "invalid user ", ac->user,
			    ac->conn->remote_addr, ac->conn->remote_port);
			auth_disconnect(ac, SSH2_DISCONNECT_PROTOCOL_ERROR,
			    "Too many authentication failures");
			return ERR_PERMISSION_DENIED;
		}
		return send_failure(ac, 0);
	}
	return 0;
}

/* One USERAUTH_REQUEST. *donep set on success. */
static int
handle_request(struct authctxt *ac, struct sbuf *p, int *donep)
{
	const struct method *m;
	enum auth_outcome out = AUTH_FAIL;
	char *user = NULL, *service = NULL, *method = NULL, *info = NULL;
	int r, succeeded, ok;

	if (sbuf_get_cstring(p, &user, NULL) != 0 ||
	    sbuf_get_cstring(p, &service, NULL) != 0 ||
	    sbuf_get_cstring(p, &method, NULL) != 0) {
		tr_disconnect(ac->t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "bad userauth request");
		r = ERR_PROTOCOL;
		goto out;
	}
	if ((r = check_identity(ac, user, service)) != 0)
		goto out;
	ac->attempts++;
	ac->submethod = NULL;
	log_debug("userauth-request for user %.100s service %.100s "
	    "method %.100s", user, service, method);
	/*
	 * publickey bound to our host key is publickey by another name:
	 * logged, chained and counted as "publickey", as OpenSSH does.
	 */
	if ((ac->hostbound = strcmp(method, AUTH_HOSTBOUND_METHOD) == 0)) {
		x_free(method);
		method = x_strdup("publickey");
	}
	/* Its first byte: whether a publickey request is signed. */
	ac->key_query = strcmp(method, "publickey") == 0 &&
	    sbuf_len(p) > 0 && sbuf_ptr(p)[0] == 0;
	if ((m = method_find(ac, method)) != NULL) {
		if (strcmp(method, "none") != 0)
			ac->attempted = 1;
		if ((r = m->fn(ac, p, &out, &info)) != 0) {
			if (r == ERR_PROTOCOL)
				tr_disconnect(ac->t,
				    SSH2_DISCONNECT_PROTOCOL_ERROR,
				    "bad userauth request for %s", method);
			goto out;
		}
	} else
		log_debug("userauth: unknown or disabled method %s", method);
	succeeded = out == AUTH_SUCCESS;
	if (out == AUTH_SUCCESS && ac->pw->pw_uid == 0 &&
	    !root_allowed(ac, method))
		out = AUTH_FAIL;
	if (out == AUTH_SUCCESS && !ac->valid)
		out = AUTH_FAIL;		/* cannot happen; be sure */
	if (out == AUTH_SUCCESS && ac->sc->use_pam &&
	    (authority_account_check(ac->auth, ac->user, &ok) != 0 || !ok))
		out = AUTH_FAIL;
	/* Checked and refused: a refused success, a PAM conversation. */
	if (out == AUTH_FAIL && m != NULL && m->btmp &&
	    (succeeded || ac->submethod != NULL))
		record_failed_login(ac);
	if (out == AUTH_SUCCESS) {
		char *step = ac->submethod == NULL ? x_strdup(method) :
		    x_asprintf("%s:%s", method, ac->submethod);

		if (!auth_chains_complete(ac->chains, step))
			out = AUTH_PARTIAL;
		x_free(step);
	}
	if (out == AUTH_FAIL && (ac->attempts > 1 ||
	    strcmp(method, "none") != 0))
		ac->failures++;
	auth_log(ac, method, out, info);
	if ((r = answer_outcome(ac, out, donep)) != 0)
		goto out;
	if (*donep) {
		ac->method = method;
		method = NULL;
	}
 out:
	x_free(user);
	x_free(service);
	x_free(method);
	x_free(info);
	return r;
}

int
auth_serve_authority(struct transport *t, struct authority *auth,
    const struct auth_conn *conn, struct auth_result *res)
{
	struct authctxt ac;
	struct sbuf *p;
	uint8_t type;
	size_t i;
	int r, done = 0;

	memset(res, 0, sizeof(*res));
	memset(&ac, 0, sizeof(ac));
	ac.t = t;
	ac.auth = auth;
	ac.conn = conn;
	if ((r = accept_service(&ac)) != 0)
		goto out;
	while (!done) {
		if (ac.pending != NULL) {
			/* Sent while a keyboard-interactive round was open. */
			p = ac.pending;
			ac.pending = NULL;
			r = handle_request(&ac, p, &done);
			sbuf_free(p);
			if (r != 0)
				goto out;
			continue;
		}
		if ((r = tr_wait_message(t, &type, &p, -1)) != 0) {
			r = auth_wait_failed(&ac, r);
			goto out;
		}
		if (type == SSH2_MSG_SERVICE_REQUEST) {
			if ((r = answer_service(&ac, p)) != 0)
				goto out;
			continue;
		}
		if (type != SSH2_MSG_USERAUTH_REQUEST) {
			log_debug("unexpected message type %u during "
			    "authentication", type);
			if ((r = tr_unimplemented(t)) != 0)
				goto out;
			continue;
		}
		if ((r = handle_request(&ac, p, &done)) != 0)
			goto out;
	}
	if ((r = tr_flush(t)) != 0) {
		r = auth_wait_failed(&ac, r);
		goto out;
	}
	res->pw = ac.pw;
	ac.pw = NULL;
	res->opts = ac.opts != NULL ? ac.opts : authopts_new();
	ac.opts = NULL;
	res->sc = ac.sc;
	ac.sc = NULL;
	res->method = ac.method;
	ac.method = NULL;
 out:
	if (r != 0) {
		res->attempted = ac.attempted;
		res->invalid_user = ac.user != NULL && !ac.valid;
	}
	auth_pw_free(ac.pw);
	authopts_free(ac.opts);
	if (ac.sc != NULL)
		servconf_free(ac.sc);
	x_free(ac.user);
	x_free(ac.service);
	x_free(ac.method);
	auth_chains_free(ac.chains);
	sbuf_free(ac.pending);
	for (i = 0; i < ac.nused_keys; i++)
		key_free(ac.used_keys[i]);
	x_free(ac.used_keys);
	return r;
}
