/*
 * auth.h: the server's "ssh-userauth" service (RFC 4252): methods none,
 * publickey, password, keyboard-interactive and hostbased, OpenSSH's
 * user checks and log lines.
 *
 * The decisions that need root (user lookup, reading authorized_keys as
 * the user, reading the shadow file, PAM, btmp) are taken by an
 * authority (authority.h), which calls the privileged functions
 * (authkeys_find(), auth_passwd_check(), auth_user_allowed()...): the
 * service itself asks and obeys, so that it can move into an
 * unprivileged process that asks a privileged monitor.
 */
#ifndef MOAT_AUTH_H
#define MOAT_AUTH_H

#include <pwd.h>

#include "authopts.h"
#include "servconf.h"
#include "transport.h"

struct authority;

/* Who is on the other end (and this end, for Match). */
struct auth_conn {
	const char *remote_host;	/* reverse name (UseDNS) or the address */
	const char *remote_addr;	/* numeric */
	int remote_port;
	const char *local_addr;		/* numeric; NULL: unknown */
	int local_port;
};

/* What a successful authentication hands to the session layer. */
struct auth_result {
	struct passwd *pw;		/* a copy; auth_pw_free() */
	struct authopts *opts;		/* restrictions; never NULL on success */
	struct servconf *sc;		/* settings with Match applied */
	char *method;			/* "publickey", "password" */
	char *auth_info;		/* ExposeAuthInfo's text, or NULL */
	/*
	 * Set when auth_serve() fails, for the exit status the listener
	 * reads (PerSourcePenalties): a method other than "none" was tried;
	 * the user named does not exist or may not log in.
	 */
	int attempted;
	int invalid_user;
};

/*
 * Serve ssh-userauth on t until a user is authenticated.
 *
 * Waits for SERVICE_REQUEST "ssh-userauth" and accepts it, then answers
 * USERAUTH_REQUESTs: "none", "publickey" (PK_OK for queries, signature
 * over session id || 50 || user || service || "publickey" || TRUE ||
 * alg || key blob), "password" (no password change). Sends the Banner
 * before the first answer, USERAUTH_FAILURE with the methods that can
 * continue after each failure, USERAUTH_SUCCESS at the end. With
 * AuthenticationMethods, a step that succeeds short of a whole chain is
 * answered FAILURE with partial success set and the methods due next
 * (a key may not serve twice). Every decision that needs privilege is
 * asked of auth: the user lookup, which also applies the Match blocks
 * (servconf_apply_match) once the user name is known, giving the
 * settings that rule the rest (MaxAuthTries, methods, PermitRootLogin,
 * AllowUsers...); the banner; keys, passwords, PAM; btmp records.
 * auth stays in the pre-auth phase: moving it on after a success is the
 * caller's. The service must be "ssh-connection"; user and service
 * may not change between requests. LoginGraceTime is the caller's: a
 * deadline on t (tr_set_deadline()) that it set when it accepted.
 *
 * Returns 0 with *res filled (caller clears it with auth_result_clear()).
 * Otherwise the connection is over and the reason is already logged:
 * ERR_PERMISSION_DENIED after MaxAuthTries failures (DISCONNECT sent),
 * ERR_CONN_TIMEOUT when t's deadline passed ("Timeout before
 * authentication", DISCONNECT sent), ERR_CONN_CLOSED / ERR_DISCONNECTED
 * when the peer left, ERR_PROTOCOL when it broke the protocol
 * (DISCONNECT sent), or a transport error.
 */
int auth_serve_authority(struct transport *t, struct authority *auth,
    const struct auth_conn *conn, struct auth_result *res);
/*
 * The same with an in-process authority of its own for settings sc
 * (authority_local_new(), no host keys), freed before returning: its
 * PAM transaction, if any, ends with it.
 */
int auth_serve(struct transport *t, const struct servconf *sc,
    const struct auth_conn *conn, struct auth_result *res);
void auth_result_clear(struct auth_result *res);

/*
 * OpenSSH's account checks for an existing user under the (matched)
 * settings sc: account locked or expired (without UsePAM), login shell,
 * DenyUsers, AllowUsers, DenyGroups,
 * AllowGroups, and when not running as root only the server's own user.
 * 1 if allowed; 0 otherwise, logged ("User %s from %s not allowed
 * because ...").
 */
int auth_user_allowed(const struct servconf *sc, const struct passwd *pw,
    const char *remote_host, const char *remote_addr);

/*
 * Check a password (auth_passwd.c). valid is 0 for a user that does not
 * exist or may not log in: a fake hash is computed all the same, with
 * the method and cost of the system's accounts (fakehash.h), so the
 * time taken does not tell. The hash comes from the shadow file when
 * readable (running as root), else from pw->pw_passwd; locked accounts
 * ("!..." , "*") never match; an empty hash matches the empty password
 * only when permit_empty. 0 on a match, ERR_PERMISSION_DENIED otherwise.
 */
int auth_passwd_check(const struct passwd *pw, int valid,
    const char *password, int permit_empty);

/*
 * AuthenticationMethods progress (auth_chains.c). auth_chains_new():
 * *outp NULL for a NULL or "any" spec (no chains: one method is
 * enough); ERR_CONFIG for a malformed one. auth_chains_allowed(): 1 if
 * method is due next in some chain. auth_chains_complete(): record that
 * method succeeded; 1 if some chain is now complete. A NULL set allows
 * everything and completes at once.
 */
struct auth_chains;
int auth_chains_new(const char *spec, struct auth_chains **outp);
int auth_chains_allowed(const struct auth_chains *ac, const char *method);
int auth_chains_complete(struct auth_chains *ac, const char *method);
void auth_chains_free(struct auth_chains *ac);

struct passwd *auth_pw_dup(const struct passwd *pw);
void auth_pw_free(struct passwd *pw);

#endif
