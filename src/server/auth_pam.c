/*
 * auth_pam.c: the server's PAM transaction (see auth_pam.h).
 *
 * One conversation function serves every PAM call. What it does depends
 * on the mode the caller set before the call: with an ask callback
 * (keyboard-interactive) the prompts of one PAM conversation call become
 * one INFO_REQUEST, and PAM_TEXT_INFO / PAM_ERROR_MSG text is kept and
 * sent as the instruction of the next request (or of a prompt-less one
 * at the end); with a password, hidden prompts get the password and
 * shown prompts fail; with neither (account check, session set-up),
 * prompts fail and the text is kept for the user's login (OpenSSH's
 * "login message": sshd prints it before a shell). Responses are allocated with the C library's malloc,
 * because PAM frees them with free().
 */
#include <sys/types.h>

#include <stdlib.h>
#include <string.h>

#include "auth_pam.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"

#ifdef HAVE_PAM

#include <security/pam_appl.h>

struct auth_pam {
	pam_handle_t *h;
	char *user;
	char *rhost;
	int last;		/* last PAM status, for pam_end() */
	int account_ok;
	int session_open;
	int cred_set;
	/* The conversation mode, set around each PAM call. */
	auth_pam_ask_fn ask;
	void *arg;
	const char *password;
	int ask_err;		/* what ask returned, when it failed */
	struct sbuf *text;	/* info/error text not shown yet */
	struct sbuf *loginmsg;	/* text for the login (auth_pam_login_text) */
	struct pam_conv conv;
};

static void
free_replies(struct pam_response *rep, int n)
{
	int i;

	if (rep == NULL)
		return;
	for (i = 0; i < n; i++)
		if (rep[i].resp != NULL) {
			x_wipe(rep[i].resp, strlen(rep[i].resp));
			free(rep[i].resp);
		}
	free(rep);
}

/* The pending text as a string (an empty buffer may have no storage). */
static char *
text_str(const struct auth_pam *p)
{
	if (sbuf_len(p->text) == 0)
		return x_strdup("");
	return x_strndup((const char *)sbuf_ptr(p->text), sbuf_len(p->text));
}

/*
 * Hand the prompts gathered from msg to the ask callback: 0, the
 * callback's error (kept in p->ask_err too), or ERR_ALLOC when an
 * answer cannot be copied for PAM.
 */
static int
ask_prompts(struct auth_pam *p, int n, const struct pam_message **msg,
    struct pam_response *rep)
{
	const char *prompts[PAM_MAX_NUM_MSG];
	int echo[PAM_MAX_NUM_MSG], idx[PAM_MAX_NUM_MSG];
	char **answers = NULL, *instr;
	size_t np = 0, i;
	int r, k;

	for (k = 0; k < n; k++) {
		if (msg[k]->msg_style != PAM_PROMPT_ECHO_ON &&
		    msg[k]->msg_style != PAM_PROMPT_ECHO_OFF)
			continue;
		prompts[np] = msg[k]->msg ? msg[k]->msg : "";
		echo[np] = msg[k]->msg_style == PAM_PROMPT_ECHO_ON;
		idx[np++] = k;
	}
	if (np == 0)
		return 0;
	instr = text_str(p);
	sbuf_reset(p->text);
	r = p->ask(p->arg, instr, np, prompts, echo, &answers);
	x_free(instr);
	if (r != 0) {
		p->ask_err = r;
		return r;
	}
	for (i = 0; i < np; i++) {
		if (rep != NULL &&
		    (rep[idx[i]].resp = strdup(answers[i])) == NULL)
			r = ERR_ALLOC;
		x_freezero(answers[i], strlen(answers[i]));
	}
	x_free(answers);
	return r;
}

static int
conv_fn(int n, const struct pam_message **msg, struct pam_response **resp,
    void *appdata)
{
	struct auth_pam *p = appdata;
	struct pam_response *rep;
	int k;

	*resp = NULL;
	if (n <= 0 || n > PAM_MAX_NUM_MSG)
		return PAM_CONV_ERR;
	if ((rep = calloc((size_t)n, sizeof(*rep))) == NULL)
		return PAM_BUF_ERR;
	for (k = 0; k < n; k++) {
		const char *m = msg[k]->msg ? msg[k]->msg : "";

		switch (msg[k]->msg_style) {
		case PAM_TEXT_INFO:
		case PAM_ERROR_MSG:
			if (p->ask == NULL) {
				if (sbuf_len(p->loginmsg) < 8192)
					sbuf_putf(p->loginmsg, "%s\n", m);
			} else if (sbuf_len(p->text) < 8192)
				sbuf_putf(p->text, "%s\n", m);
			break;
		case PAM_PROMPT_ECHO_OFF:
			if (p->ask != NULL)
				break;
			if (p->password == NULL)
				goto fail;
			if ((rep[k].resp = strdup(p->password)) == NULL)
				goto fail;
			p->password = NULL;	/* answered once */
			break;
		case PAM_PROMPT_ECHO_ON:
			if (p->ask == NULL)
				goto fail;
			break;
		default:
			goto fail;
		}
	}
	if (p->ask != NULL && ask_prompts(p, n, msg, rep) != 0)
		goto fail;
	*resp = rep;
	return PAM_SUCCESS;
 fail:
	free_replies(rep, n);
	return PAM_CONV_ERR;
}

int
auth_pam_start(const char *service, const char *user, const char *rhost,
    struct auth_pam **pp)
{
	struct auth_pam *p = x_calloc(1, sizeof(*p));
	int rv;

	*pp = NULL;
	p->user = x_strdup(user);
	p->rhost = x_strdup(rhost ? rhost : "");
	p->text = sbuf_new();
	p->loginmsg = sbuf_new();
	p->conv.conv = conv_fn;
	p->conv.appdata_ptr = p;
	log_debug("PAM: initializing for \"%s\" with service \"%s\"", user,
	    service);
	if ((rv = pam_start(service, user, &p->conv, &p->h)) != PAM_SUCCESS) {
		log_error("PAM: initialisation failed: %s",
		    pam_strerror(NULL, rv));
		p->h = NULL;
		auth_pam_end(p);
		return ERR_SYSTEM;
	}
	if ((rv = pam_set_item(p->h, PAM_RHOST, p->rhost)) != PAM_SUCCESS ||
	    (rv = pam_set_item(p->h, PAM_TTY, "ssh")) != PAM_SUCCESS) {
		log_error("PAM: pam_set_item: %s", pam_strerror(p->h, rv));
		auth_pam_end(p);
		return ERR_SYSTEM;
	}
	*pp = p;
	return 0;
}

static void
set_mode(struct auth_pam *p, auth_pam_ask_fn ask, void *arg,
    const char *password)
{
	p->ask = ask;
	p->arg = arg;
	p->password = password;
	p->ask_err = 0;
	sbuf_reset(p->text);
}

/* OpenSSH logs a refused password at debug level only. */
static int
denied_password(struct auth_pam *p, int rv)
{
	p->last = rv;
	log_debug("PAM: password authentication failed for %.100s: %s",
	    p->user, pam_strerror(p->h, rv));
	return ERR_PERMISSION_DENIED;
}

static int
denied(struct auth_pam *p, int rv)
{
	p->last = rv;
	log_error("PAM: %s for %.100s from %s", pam_strerror(p->h, rv), p->user,
	    p->rhost);
	return ERR_PERMISSION_DENIED;
}

int
auth_pam_kbdint(struct auth_pam *p, int permit_empty, auth_pam_ask_fn ask,
    void *arg)
{
	int rv, r = 0;

	set_mode(p, ask, arg, NULL);
	rv = pam_authenticate(p->h, permit_empty ? 0 :
	    PAM_DISALLOW_NULL_AUTHTOK);
	if (p->ask_err != 0) {
		r = p->ask_err;
		goto out;
	}
	if (rv != PAM_SUCCESS) {
		r = denied(p, rv);
		goto out;
	}
	rv = pam_acct_mgmt(p->h, 0);
	if (rv == PAM_NEW_AUTHTOK_REQD) {
		log_info("PAM: password for %.100s has expired; asking for a new "
		    "one", p->user);
		sbuf_putf(p->text, "Password change required.\n");
		rv = pam_chauthtok(p->h, PAM_CHANGE_EXPIRED_AUTHTOK);
		if (p->ask_err != 0) {
			r = p->ask_err;
			goto out;
		}
	}
	if (rv != PAM_SUCCESS) {
		r = denied(p, rv);
		goto out;
	}
	p->account_ok = 1;
	p->last = PAM_SUCCESS;
	/* Text PAM gave after the last prompt, shown on its own. */
	if (sbuf_len(p->text) > 0) {
		char **none = NULL, *instr = text_str(p);

		r = ask(arg, instr, 0, NULL, NULL, &none);
		x_free(instr);
		x_free(none);
	}
 out:
	set_mode(p, NULL, NULL, NULL);
	return r;
}

int
auth_pam_password(struct auth_pam *p, int permit_empty, const char *password)
{
	int rv, r = 0;

	set_mode(p, NULL, NULL, password);
	rv = pam_authenticate(p->h, permit_empty ? 0 :
	    PAM_DISALLOW_NULL_AUTHTOK);
	if (rv != PAM_SUCCESS) {
		r = denied_password(p, rv);
		goto out;
	}
	rv = pam_acct_mgmt(p->h, 0);
	if (rv == PAM_NEW_AUTHTOK_REQD) {
		log_info("PAM: password for %.100s has expired; it can be changed "
		    "with keyboard-interactive authentication", p->user);
		r = denied(p, rv);
		goto out;
	}
	if (rv != PAM_SUCCESS) {
		r = denied(p, rv);
		goto out;
	}
	p->account_ok = 1;
	p->last = PAM_SUCCESS;
 out:
	set_mode(p, NULL, NULL, NULL);
	return r;
}

int
auth_pam_account(struct auth_pam *p)
{
	int rv;

	if (p->account_ok)
		return 0;
	set_mode(p, NULL, NULL, NULL);
	rv = pam_acct_mgmt(p->h, 0);
	if (rv != PAM_SUCCESS) {
		log_error("Access denied for user %.100s by PAM account "
		    "configuration", p->user);
		return denied(p, rv);
	}
	p->account_ok = 1;
	return 0;
}

int
auth_pam_open_session(struct auth_pam *p, const char *tty)
{
	int rv;

	if (p == NULL || p->session_open)
		return 0;
	set_mode(p, NULL, NULL, NULL);
	if (tty != NULL)
		pam_set_item(p->h, PAM_TTY, tty);
	if ((rv = pam_open_session(p->h, 0)) != PAM_SUCCESS) {
		log_error("PAM: pam_open_session(): %s",
		    pam_strerror(p->h, rv));
		p->last = rv;
		return ERR_PERMISSION_DENIED;
	}
	p->session_open = 1;
	if ((rv = pam_setcred(p->h, PAM_ESTABLISH_CRED)) != PAM_SUCCESS) {
		log_error("PAM: pam_setcred(): %s", pam_strerror(p->h, rv));
		p->last = rv;
		return ERR_PERMISSION_DENIED;
	}
	p->cred_set = 1;
	return 0;
}

int
auth_pam_close_session(struct auth_pam *p)
{
	int rv = PAM_SUCCESS;

	if (p == NULL)
		return 0;
	set_mode(p, NULL, NULL, NULL);
	if (p->cred_set)
		pam_setcred(p->h, PAM_DELETE_CRED);
	p->cred_set = 0;
	if (p->session_open)
		rv = pam_close_session(p->h, 0);
	p->session_open = 0;
	if (rv != PAM_SUCCESS)
		log_error("PAM: pam_close_session(): %s",
		    pam_strerror(p->h, rv));
	return rv == PAM_SUCCESS ? 0 : ERR_SYSTEM;
}

char *
auth_pam_login_text(const struct auth_pam *p)
{
	if (p == NULL || sbuf_len(p->loginmsg) == 0)
		return NULL;
	return x_strndup((const char *)sbuf_ptr(p->loginmsg),
	    sbuf_len(p->loginmsg));
}

char **
auth_pam_env(struct auth_pam *p)
{
	char **e, **out;
	size_t n, i;

	if (p == NULL || (e = pam_getenvlist(p->h)) == NULL)
		return NULL;
	for (n = 0; e[n] != NULL; n++)
		;
	out = x_calloc(n + 1, sizeof(*out));
	for (i = 0; i < n; i++) {
		out[i] = x_strdup(e[i]);
		free(e[i]);
	}
	free(e);
	return out;
}

void
auth_pam_end(struct auth_pam *p)
{
	if (p == NULL)
		return;
	if (p->h != NULL) {
		auth_pam_close_session(p);
		pam_end(p->h, p->last);
	}
	sbuf_free(p->text);
	sbuf_free(p->loginmsg);
	x_free(p->user);
	x_free(p->rhost);
	x_free(p);
}

#else /* !HAVE_PAM */

int
auth_pam_start(const char *service, const char *user, const char *rhost,
    struct auth_pam **pp)
{
	*pp = NULL;
	log_error("UsePAM: this sshd was built without PAM");
	return ERR_FEATURE_UNSUPPORTED;
}

int
auth_pam_kbdint(struct auth_pam *p, int permit_empty, auth_pam_ask_fn ask,
    void *arg)
{
	return ERR_PERMISSION_DENIED;
}

int
auth_pam_password(struct auth_pam *p, int permit_empty, const char *password)
{
	return ERR_PERMISSION_DENIED;
}

int
auth_pam_account(struct auth_pam *p)
{
	return ERR_PERMISSION_DENIED;
}

int
auth_pam_open_session(struct auth_pam *p, const char *tty)
{
	return 0;
}

int
auth_pam_close_session(struct auth_pam *p)
{
	return 0;
}

char *
auth_pam_login_text(const struct auth_pam *p)
{
	return NULL;
}

char **
auth_pam_env(struct auth_pam *p)
{
	return NULL;
}

void
auth_pam_end(struct auth_pam *p)
{
}

#endif /* HAVE_PAM */
