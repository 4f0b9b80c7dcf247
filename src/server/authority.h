/*
 * authority.h: the one narrow door between the server's network-facing
 * authentication code and everything that needs root or a secret.
 *
 * The userauth code (auth.c, auth_pubkey.c, auth_kbdint.c,
 * auth_hostbased.c) parses what the client sends and speaks the
 * protocol, but it decides nothing that needs privilege: it asks an
 * authority. So does the transport when it signs the exchange hash with
 * a host key. Today the authority runs in the same process
 * (authority_local_new(): it calls the password, PAM, authorized_keys,
 * rhosts, KRL and login-record code directly). The interface is shaped
 * so that the pre-auth code can move into an unprivileged child that
 * reaches a privileged monitor over a socketpair:
 *
 * - An authority is one connection's handle. Every operation takes plain
 *   data (strings, byte strings, numbers) and answers through
 *   out-parameters (a flag, a copied passwd entry, a settings copy,
 *   authorized_keys restrictions, bytes) and an ERR_* code. Nothing
 *   points into the caller's state; each request and answer can be
 *   written to a socket as SSH-style strings and integers.
 * - The authority keeps its own state of the connection: the client's
 *   address, the user name it looked up, the account, the settings with
 *   Match applied, the PAM transaction, the transport's session id. It
 *   trusts nothing the caller says about them: requests name the user
 *   and must name the one that was looked up, signed data is built by
 *   the authority from what it knows, never taken from the caller.
 * - Verification happens on the authority's side. pubkey_check and
 *   hostbased_check take the client's signature and check it over data
 *   the authority builds itself (session id, user, service, method,
 *   algorithm, key...); the caller's verdict is never asked for.
 * - Each operation belongs to a phase: PRE (before the user is
 *   authenticated), POST (after), or both. The wrappers below refuse an
 *   operation out of its phase (ERR_PERMISSION_DENIED, logged); the
 *   privileged side, never the pre-auth code, moves the phase on with
 *   authority_set_phase(). A monitor will apply the same table.
 * - Errors: an operation returns 0 when it answered (the answer may be
 *   "no": *okp = 0) and an ERR_* code when it could not answer or
 *   refused to (out of phase, wrong user, malformed request). Callers
 *   treat an error like a "no".
 * - Still the caller's, for now: the final verdict "authenticated"
 *   (AuthenticationMethods chains, a key serving twice, PermitRootLogin,
 *   MaxAuthTries). Before a monitor moves to the POST phase on its own
 *   it must derive that verdict from the answers it gave.
 *
 * Operations, their phase, and who calls them:
 *
 *   hostkey_sign         PRE+POST  sshd.c (the transport's KEX signer;
 *                                  also for hostkeys-prove-00 replies)
 *   user_lookup          PRE       auth.c (first USERAUTH_REQUEST), once
 *   banner               PRE       auth.c
 *   pubkey_check         PRE       auth_pubkey.c
 *   hostbased_check      PRE       auth_hostbased.c
 *   passwd_check         PRE       auth.c (password)
 *   kbdint               PRE       auth_kbdint.c (keyboard-interactive/pam)
 *   account_check        PRE       auth.c (PAM account, after a success)
 *   record_failed_login  PRE       auth.c (btmp)
 *   authenticated        PRE       auth.c (before USERAUTH_SUCCESS)
 *   session_open         POST      sshd.c (PAM session)
 *   session_close        POST      sshd.c
 */
#ifndef MOAT_AUTHORITY_H
#define MOAT_AUTHORITY_H

#include <pwd.h>
#include <stddef.h>
#include <stdint.h>

#include "auth.h"
#include "auth_pam.h"
#include "authopts.h"
#include "sbuf.h"
#include "servconf.h"

struct key;
struct transport;

enum authority_phase {
	AUTHORITY_PREAUTH = 1 << 0,	/* until a user is authenticated */
	AUTHORITY_POSTAUTH = 1 << 1,	/* the authenticated user's session */
};

/* The answer to user_lookup. */
struct authority_user {
	/*
	 * A copy of the passwd entry with pw_passwd "*" (the hash stays
	 * with the authority); for a user that does not exist, a fake
	 * entry (uid and gid -1, home and shell /nonexistent).
	 */
	struct passwd *pw;
	int valid;		/* exists and may log in (auth_user_allowed) */
	int pam;		/* a PAM transaction is open for the user */
	struct servconf *sc;	/* the settings with Match applied */
	/*
	 * The Match blocks applied (servconf_match_blocks()), for a
	 * process that holds the same configuration and applies them
	 * itself; x_free()d by authority_user_clear().
	 */
	uint32_t *blocks;
	size_t nblocks;
};
void authority_user_clear(struct authority_user *u);

/* A publickey request (RFC 4252 section 7), as the client sent it. */
struct authority_pubkey_req {
	const char *user;
	const char *service;
	const char *alg;		/* may name a certificate algorithm */
	const unsigned char *blob;	/* the key or certificate */
	size_t bloblen;
	int has_sig;			/* 0: a query (PK_OK) */
	const unsigned char *sig;
	size_t siglen;
	/*
	 * publickey-hostbound-v00@openssh.com (OpenSSH's PROTOCOL 3.1):
	 * the server host key blob the request names, which the signed
	 * data covers too; NULL for plain "publickey".
	 */
	const unsigned char *hostkey;
	size_t hostkeylen;
};

/* A hostbased request (RFC 4252 section 9), as the client sent it. */
struct authority_hostbased_req {
	const char *user;
	const char *service;
	const char *alg;
	const unsigned char *blob;	/* the client host's key */
	size_t bloblen;
	const char *chost;		/* as sent, trailing dot and all */
	const char *cuser;
	const unsigned char *sig;
	size_t siglen;
};

/*
 * The operations. impl is the implementation's own state (the handle
 * of one connection). Each row's contract is that of its wrapper below.
 */
struct authority_ops {
	int (*hostkey_sign)(void *impl, size_t idx, const char *alg,
	    const unsigned char *data, size_t dlen, struct sbuf *sig);
	int (*user_lookup)(void *impl, const char *user,
	    struct authority_user *out);
	int (*banner)(void *impl, struct sbuf *text);
	int (*pubkey_check)(void *impl, const struct authority_pubkey_req *q,
	    int *okp, struct authopts **optsp);
	int (*hostbased_check)(void *impl,
	    const struct authority_hostbased_req *q, int *okp);
	int (*passwd_check)(void *impl, const char *user,
	    const char *password, int *okp);
	int (*kbdint)(void *impl, const char *user, auth_pam_ask_fn ask,
	    void *arg, int *okp);
	int (*account_check)(void *impl, const char *user, int *okp);
	int (*record_failed_login)(void *impl, const char *user);
	int (*session_open)(void *impl, const char *tty);
	int (*session_close)(void *impl);
	void (*free)(void *impl);
	/* Optional (NULL: nothing to ask); see the wrapper below. */
	int (*authenticated)(void *impl, const char *user);
	/* Optional (NULL: no text); see the wrapper below. */
	char *(*login_text)(void *impl);
};

struct authority {
	const struct authority_ops *ops;
	void *impl;
	enum authority_phase phase;
};

/* An authority over ops/impl, in the PRE phase; freed with ops->free. */
struct authority *authority_new(const struct authority_ops *ops, void *impl);
void authority_free(struct authority *a);
/* The privileged side's: the user is authenticated (POST phase). */
void authority_set_phase(struct authority *a, enum authority_phase phase);

/*
 * hostkey_sign (PRE+POST): sign data with host key number idx (the
 * order of the server's host keys, as the transport offers them) using
 * signature algorithm alg; the signature blob is appended to sig.
 * Only two kinds of data are signed: an exchange hash (20, 32, 48 or 64
 * bytes: the KEX hashes) and a hostkeys-prove-00@openssh.com request
 * (string "hostkeys-prove-00@openssh.com", string session id, string
 * the blob of key idx; PROTOCOL section 2.5) for this connection's
 * session id. Anything else is refused (ERR_PERMISSION_DENIED, logged),
 * so the authority is no signing oracle. ERR_NOT_FOUND for a bad idx.
 */
int authority_hostkey_sign(struct authority *a, size_t idx, const char *alg,
    const unsigned char *data, size_t dlen, struct sbuf *sig);

/*
 * user_lookup (PRE, once per connection): look up user, apply the Match
 * blocks for it and the connection, start the PAM transaction (UsePAM),
 * and run the account checks (auth_user_allowed()). An unknown user is
 * logged ("Invalid user ...") and, when running as root, recorded in
 * btmp; the answer is then a fake entry with valid 0. Every later PRE
 * operation that names a user must name this one. 0 and *out (clear it
 * with authority_user_clear()); ERR_CONFIG when Match cannot be applied.
 */
int authority_user_lookup(struct authority *a, const char *user,
    struct authority_user *out);

/*
 * banner (PRE, after user_lookup): the Banner file of the user's
 * settings, at most 64 KiB, appended to text; nothing when there is no
 * banner or it cannot be read (logged).
 */
int authority_banner(struct authority *a, struct sbuf *text);

/*
 * pubkey_check (PRE): may q's key (or certificate) log in as q->user?
 * The authority decodes the blob itself and checks, logging refusals in
 * OpenSSH's words: PubkeyAcceptedAlgorithms, the RSA size floor,
 * RevokedKeys, the account's validity, then authorized_keys /
 * AuthorizedKeysCommand (a certificate: its cert-authority lines,
 * TrustedUserCAKeys with the principals rules, certificate options and
 * source-address). For a query (has_sig 0) that is the answer. With a
 * signature, the authority verifies it over session id || 50 || user ||
 * service || "publickey" || TRUE || alg || blob, built from its own
 * session id and user; a hostbound request (q->hostkey set) must name
 * the host key of the first exchange and its signed data says
 * "publickey-hostbound-v00@openssh.com" and ends with that host key
 * blob. *okp 1 and *optsp (the restrictions to apply;
 * caller frees) when the key may log in; *okp 0 otherwise.
 */
int authority_pubkey_check(struct authority *a,
    const struct authority_pubkey_req *q, int *okp,
    struct authopts **optsp);

/*
 * hostbased_check (PRE): HostbasedAcceptedAlgorithms, the RSA size
 * floor, the account's validity, the client host's signature over
 * session id || 50 || user || service || "hostbased" || alg || blob ||
 * chost || cuser (verified here), then the rhosts-style files and the
 * host's key in known_hosts, for the connection's canonical host name
 * (or the packet's with HostbasedUsesNameFromPacketOnly). *okp 1 when
 * the client host and user may log in.
 */
int authority_hostbased_check(struct authority *a,
    const struct authority_hostbased_req *q, int *okp);

/*
 * passwd_check (PRE): the password of user, through PAM (UsePAM) or the
 * shadow file (auth_passwd_check(): a fake hash is computed for users
 * that do not exist or may not log in). *okp 1 only for a valid user
 * whose password matched.
 */
int authority_passwd_check(struct authority *a, const char *user,
    const char *password, int *okp);

/*
 * kbdint (PRE): the keyboard-interactive "pam" device: the PAM
 * authentication and account check, talking to the user through ask
 * (arg is passed back). ask runs on the caller's side of the authority:
 * across a socketpair, the request is answered by zero or more rounds
 * of prompts (instruction, prompt strings, echo flags) and the caller's
 * answers (strings, or a code for "abandoned") before the verdict.
 * 0 and *okp: 1 when PAM authenticated the user and its account check
 * passed (PAM's verdict: as after every method, the caller refuses a
 * user that is not valid); ERR_AGAIN when ask gave up with ERR_AGAIN
 * (the client sent a new request instead of answering); ask's error
 * when it failed otherwise; ERR_FEATURE_UNSUPPORTED when no PAM
 * transaction is open.
 */
int authority_kbdint(struct authority *a, const char *user,
    auth_pam_ask_fn ask, void *arg, int *okp);

/*
 * account_check (PRE): for a user authenticated another way, the PAM
 * account check (pam_acct_mgmt, once) under UsePAM; without UsePAM
 * always *okp 1.
 */
int authority_account_check(struct authority *a, const char *user,
    int *okp);

/*
 * record_failed_login (PRE): a failed login by user from the
 * connection's client, in btmp (when running as root; see
 * loginrec_failed()). The client's address is the authority's.
 */
int authority_record_failed_login(struct authority *a, const char *user);

/*
 * authenticated (PRE): auth.c's claim, made just before it sends
 * USERAUTH_SUCCESS, that user has completed authentication. An
 * authority in this process has nothing to ask (no row: 0, and the
 * caller moves the phase on as before); a remote one asks its monitor,
 * whose own verdict it is, and on 0 is in the POST phase. An error
 * ends the connection without the success being sent.
 */
int authority_claim_authenticated(struct authority *a, const char *user);

/*
 * session_open / session_close (POST): the PAM session of the
 * authenticated user (pam_setcred and pam_open_session; tty may be
 * NULL), and its end. Without a PAM transaction, 0 and nothing done.
 */
int authority_session_open(struct authority *a, const char *tty);
int authority_session_close(struct authority *a);

/*
 * login_text (POST): what PAM's account and session modules said for
 * the user (pam_motd, pam_echo...), to be shown before a shell as
 * OpenSSH shows it; NULL when nothing (or no PAM). Caller frees.
 */
char *authority_login_text(struct authority *a);

/*
 * The in-process authority (authority_local.c, authority_keys.c): does
 * the work itself, with the privileges of this process.
 */
struct authority_local_config {
	const struct servconf *sc;	/* global settings; must outlive */
	const struct auth_conn *conn;	/* the client; copied */
	struct key *const *hostkeys;	/* private host keys; must outlive */
	size_t nhostkeys;
	const struct transport *t;	/* session id; may be set later */
};
struct authority *authority_local_new(const struct authority_local_config *c);
/* Where the local authority reads the session id from. */
void authority_local_set_transport(struct authority *a,
    const struct transport *t);
/*
 * Or the session id itself, where there is no transport in this process
 * (a monitor learns it from the first exchange hash it signs).
 */
void authority_local_set_session_id(struct authority *a,
    const unsigned char *sid, size_t len);
/*
 * And the host key (index into the configured keys) that signed that
 * first exchange hash: the one a publickey-hostbound request must name.
 */
void authority_local_set_session_hostkey(struct authority *a, size_t idx);

#endif
