/*
 * authority.c: the door of authority.h: one wrapper per operation, and
 * the table of the phases each operation is allowed in.
 *
 * A wrapper checks the phase, clears the out-parameters (so that a
 * refusing or failing implementation leaves a "no" behind, never stale
 * data), and forwards to the implementation's row. The phase is moved
 * on only by the privileged side (authority_set_phase()); the pre-auth
 * code has no way to ask for it.
 */
#include <string.h>

#include "authority.h"
#include "err.h"
#include "log.h"
#include "mem.h"

#define PRE	AUTHORITY_PREAUTH
#define POST	AUTHORITY_POSTAUTH

enum op {
	OP_HOSTKEY_SIGN, OP_USER_LOOKUP, OP_BANNER, OP_PUBKEY_CHECK,
	OP_HOSTBASED_CHECK, OP_PASSWD_CHECK, OP_KBDINT, OP_ACCOUNT_CHECK,
	OP_RECORD_FAILED_LOGIN, OP_SESSION_OPEN, OP_SESSION_CLOSE,
	OP_AUTHENTICATED,
};

static const struct {
	const char *name;
	unsigned phases;
} op_table[] = {
	[OP_HOSTKEY_SIGN] =		{ "hostkey_sign", PRE | POST },
	[OP_USER_LOOKUP] =		{ "user_lookup", PRE },
	[OP_BANNER] =			{ "banner", PRE },
	[OP_PUBKEY_CHECK] =		{ "pubkey_check", PRE },
	[OP_HOSTBASED_CHECK] =		{ "hostbased_check", PRE },
	[OP_PASSWD_CHECK] =		{ "passwd_check", PRE },
	[OP_KBDINT] =			{ "kbdint", PRE },
	[OP_ACCOUNT_CHECK] =		{ "account_check", PRE },
	[OP_RECORD_FAILED_LOGIN] =	{ "record_failed_login", PRE },
	[OP_SESSION_OPEN] =		{ "session_open", POST },
	[OP_SESSION_CLOSE] =		{ "session_close", POST },
	[OP_AUTHENTICATED] =		{ "authenticated", PRE },
};

/* 0 if op may run now; ERR_PERMISSION_DENIED (logged) otherwise. */
static int
allowed(const struct authority *a, enum op op)
{
	if (a == NULL || a->ops == NULL)
		return ERR_INTERNAL;
	if ((op_table[op].phases & a->phase) == 0) {
		log_error("authority: %s refused %s authentication",
		    op_table[op].name, a->phase == PRE ? "before" : "after");
		return ERR_PERMISSION_DENIED;
	}
	return 0;
}

struct authority *
authority_new(const struct authority_ops *ops, void *impl)
{
	struct authority *a = x_calloc(1, sizeof(*a));

	a->ops = ops;
	a->impl = impl;
	a->phase = PRE;
	return a;
}

void
authority_free(struct authority *a)
{
	if (a == NULL)
		return;
	if (a->ops != NULL && a->ops->free != NULL)
		a->ops->free(a->impl);
	x_free(a);
}

void
authority_set_phase(struct authority *a, enum authority_phase phase)
{
	a->phase = phase;
}

void
authority_user_clear(struct authority_user *u)
{
	auth_pw_free(u->pw);
	if (u->sc != NULL)
		servconf_free(u->sc);
	x_free(u->blocks);
	memset(u, 0, sizeof(*u));
}

int
authority_hostkey_sign(struct authority *a, size_t idx, const char *alg,
    const unsigned char *data, size_t dlen, struct sbuf *sig)
{
	int r;

	if ((r = allowed(a, OP_HOSTKEY_SIGN)) != 0)
		return r;
	return a->ops->hostkey_sign(a->impl, idx, alg, data, dlen, sig);
}

int
authority_user_lookup(struct authority *a, const char *user,
    struct authority_user *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = allowed(a, OP_USER_LOOKUP)) != 0)
		return r;
	if ((r = a->ops->user_lookup(a->impl, user, out)) != 0) {
		authority_user_clear(out);
		return r;
	}
	if (out->pw == NULL || out->sc == NULL) {
		authority_user_clear(out);
		return ERR_INTERNAL;
	}
	/*
	 * From here the connection logs as its Match blocks say: a
	 * LogVerbose set in one replaces the global patterns, in this
	 * process and in those it forks later (OpenSSH does the same on
	 * both sides of its monitor), and so does a LogLevel set in one.
	 */
	(void)log_set_verbose(out->sc->log_verbose);
	if (out->sc->log_level_matched)
		log_set_level(out->sc->log_level);
	return 0;
}

int
authority_banner(struct authority *a, struct sbuf *text)
{
	int r;

	if ((r = allowed(a, OP_BANNER)) != 0)
		return r;
	return a->ops->banner(a->impl, text);
}

int
authority_pubkey_check(struct authority *a,
    const struct authority_pubkey_req *q, int *okp, struct authopts **optsp)
{
	int r;

	*okp = 0;
	*optsp = NULL;
	if ((r = allowed(a, OP_PUBKEY_CHECK)) != 0)
		return r;
	r = a->ops->pubkey_check(a->impl, q, okp, optsp);
	if (r != 0 || !*okp || *optsp == NULL) {
		/* No restrictions to go with a yes: not a yes. */
		*okp = 0;
		authopts_free(*optsp);
		*optsp = NULL;
	}
	return r;
}

int
authority_hostbased_check(struct authority *a,
    const struct authority_hostbased_req *q, int *okp)
{
	int r;

	*okp = 0;
	if ((r = allowed(a, OP_HOSTBASED_CHECK)) != 0)
		return r;
	if ((r = a->ops->hostbased_check(a->impl, q, okp)) != 0)
		*okp = 0;
	return r;
}

int
authority_passwd_check(struct authority *a, const char *user,
    const char *password, int *okp)
{
	int r;

	*okp = 0;
	if ((r = allowed(a, OP_PASSWD_CHECK)) != 0)
		return r;
	if ((r = a->ops->passwd_check(a->impl, user, password, okp)) != 0)
		*okp = 0;
	return r;
}

int
authority_kbdint(struct authority *a, const char *user, auth_pam_ask_fn ask,
    void *arg, int *okp)
{
	int r;

	*okp = 0;
	if ((r = allowed(a, OP_KBDINT)) != 0)
		return r;
	if ((r = a->ops->kbdint(a->impl, user, ask, arg, okp)) != 0)
		*okp = 0;
	return r;
}

int
authority_account_check(struct authority *a, const char *user, int *okp)
{
	int r;

	*okp = 0;
	if ((r = allowed(a, OP_ACCOUNT_CHECK)) != 0)
		return r;
	if ((r = a->ops->account_check(a->impl, user, okp)) != 0)
		*okp = 0;
	return r;
}

int
authority_record_failed_login(struct authority *a, const char *user)
{
	int r;

	if ((r = allowed(a, OP_RECORD_FAILED_LOGIN)) != 0)
		return r;
	return a->ops->record_failed_login(a->impl, user);
}

int
authority_claim_authenticated(struct authority *a, const char *user)
{
	int r;

	if ((r = allowed(a, OP_AUTHENTICATED)) != 0)
		return r;
	if (a->ops->authenticated == NULL)
		return 0;
	if ((r = a->ops->authenticated(a->impl, user)) != 0)
		return r;
	authority_set_phase(a, AUTHORITY_POSTAUTH);
	return 0;
}

int
authority_session_open(struct authority *a, const char *tty)
{
	int r;

	if ((r = allowed(a, OP_SESSION_OPEN)) != 0)
		return r;
	return a->ops->session_open(a->impl, tty);
}

char *
authority_login_text(struct authority *a)
{
	if (a == NULL || a->ops == NULL || a->ops->login_text == NULL ||
	    a->phase != POST)
		return NULL;
	return a->ops->login_text(a->impl);
}

int
authority_session_close(struct authority *a)
{
	int r;

	if ((r = allowed(a, OP_SESSION_CLOSE)) != 0)
		return r;
	return a->ops->session_close(a->impl);
}
