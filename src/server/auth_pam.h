/*
 * auth_pam.h: Pluggable Authentication Modules for the server (UsePAM).
 *
 * One PAM transaction per connection, started with the user name from
 * the first USERAUTH_REQUEST under PAMServiceName (default "sshd"), with
 * PAM_RHOST set to the client and PAM_TTY "ssh". Authentication runs
 * pam_authenticate() then pam_acct_mgmt(), and pam_chauthtok() when the
 * account says the password has expired. PAM talks to the user through a
 * conversation callback: keyboard-interactive maps it onto INFO_REQUEST
 * rounds; password authentication answers the one hidden prompt with the
 * password the client sent. After authentication the session layer
 * calls auth_pam_open_session() before it starts the user's programs
 * and auth_pam_close_session() when the connection is over.
 *
 * Built without libpam, auth_pam_start() fails with
 * ERR_FEATURE_UNSUPPORTED and the rest are no-ops.
 */
#ifndef MOAT_AUTH_PAM_H
#define MOAT_AUTH_PAM_H

#include <stddef.h>

struct auth_pam;

/*
 * Ask the user: instruction (text from PAM_TEXT_INFO and
 * PAM_ERROR_MSG, "" when none), then nprompts prompts, echo[i] nonzero
 * when the answer may be shown. On 0, *answersp is an array of nprompts
 * strings (x_malloc'd; the caller of the callback wipes and frees them).
 * nprompts may be 0 (text only). Any error aborts the PAM call.
 */
typedef int (*auth_pam_ask_fn)(void *arg, const char *instruction,
    size_t nprompts, const char *const *prompts, const int *echo,
    char ***answersp);

/* Start the transaction; *pp is freed with auth_pam_end(). */
int auth_pam_start(const char *service, const char *user, const char *rhost,
    struct auth_pam **pp);
/*
 * Authenticate through the conversation ask/arg (keyboard-interactive):
 * pam_authenticate, pam_acct_mgmt, and a password change through the
 * same conversation when the account has expired. 0 when all of them
 * succeed; ERR_PERMISSION_DENIED (logged) otherwise; ERR_PROTOCOL or
 * another transport error when ask failed.
 */
int auth_pam_kbdint(struct auth_pam *p, int permit_empty, auth_pam_ask_fn ask,
    void *arg);
/*
 * Authenticate with a password (password authentication): PAM's hidden
 * prompts are answered with it, shown prompts fail. Then
 * pam_acct_mgmt; an expired password cannot be changed this way and is
 * refused. 0 or ERR_PERMISSION_DENIED.
 */
int auth_pam_password(struct auth_pam *p, int permit_empty,
    const char *password);
/*
 * pam_acct_mgmt for a user authenticated another way (public key); once
 * an account check passed it is not repeated. 0 or
 * ERR_PERMISSION_DENIED.
 */
int auth_pam_account(struct auth_pam *p);
/* pam_setcred(ESTABLISH) and pam_open_session; tty may be NULL. */
int auth_pam_open_session(struct auth_pam *p, const char *tty);
/* pam_close_session and pam_setcred(DELETE) if a session was opened. */
int auth_pam_close_session(struct auth_pam *p);
/*
 * The PAM_TEXT_INFO / PAM_ERROR_MSG text of the account check and the
 * session set-up (one line each, as the modules gave it), for sshd to
 * show the user before a shell; NULL when there is none. Caller frees.
 */
char *auth_pam_login_text(const struct auth_pam *p);
/* The variables PAM modules set ("NAME=value", NULL-terminated; caller
 * frees each and the array with x_free), or NULL. */
char **auth_pam_env(struct auth_pam *p);
void auth_pam_end(struct auth_pam *p);

#endif
