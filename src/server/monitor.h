/*
 * monitor.h: the authority (authority.h) across a socketpair: the
 * unprivileged pre-auth process holds an authority_remote that writes
 * each operation as a request; the privileged monitor reads it, checks
 * it, answers it with its own authority (authority_local) and writes the
 * answer back. Nothing the child sends is trusted: a request that does
 * not parse, is too long, comes out of its phase or more often than it
 * can make sense, or names another user than the one looked up ends the
 * connection (monitor_serve_one() returns an error, logged); the answer
 * to a refused request is never written.
 *
 * Wire: every message is a frame, uint32 length (1 to MON_MAX_FRAME) of
 * what follows, byte type, body in SSH encoding (RFC 4251 section 5).
 * The child sends a request and waits for its answer; only kbdint
 * interleaves (the monitor's MON_PROMPT, the child's MON_ANSWERS) before
 * its MON_ANSWER.
 *
 *   request                   body                         answer after err
 *   MON_REQ_HOSTKEY_SIGN      u32 idx, string alg,         string signature
 *                             string data
 *   MON_REQ_USER_LOOKUP       string user                  passwd, bool valid,
 *                                                          bool pam, u32 n,
 *                                                          n x u32 Match block
 *   MON_REQ_BANNER            -                            string text
 *   MON_REQ_PUBKEY_CHECK      string user, service, alg,   bool ok, [authopts]
 *                             blob, bool has_sig, string sig,
 *                             string hostkey ("": publickey)
 *   MON_REQ_HOSTBASED_CHECK   string user, service, alg,   bool ok
 *                             blob, chost, cuser, sig
 *   MON_REQ_PASSWD_CHECK      string user, password        bool ok
 *   MON_REQ_KBDINT            string user                  bool ok
 *   MON_REQ_ACCOUNT_CHECK     string user                  bool ok
 *   MON_REQ_RECORD_FAILED     string user                  -
 *   MON_REQ_AUTHENTICATED     string user                  -
 *   MON_REQ_SESSION_OPEN      bool has_tty, string tty     -
 *   MON_REQ_SESSION_CLOSE     -                            -
 *   MON_REQ_MODULI            u32 min, want, max           mpint p, mpint g
 *   MON_REQ_TRANSPORT_STATE   string state (tr_export())   (none)
 *   MON_REQ_LOGIN_RECORD      string tty, u32 pid          -
 *   MON_REQ_LOGOUT_RECORD     string tty                   -
 *
 * MON_LOG (byte level, string text) may come from the child between any
 * two frames, in a conversation too: the monitor logs it (log_relay())
 * and sends MON_LOGGED (empty) before it reads on, and the child waits
 * for that. So the child's lines are written in order and before
 * anything it does next, as if it logged them itself: a client that
 * has its answer finds the line in the log.
 *
 * MON_ANSWER: u32 err (the negated ERR_* code; 0: answered), then the
 * column above when err is 0. passwd: string name, u32 uid, u32 gid,
 * string gecos, dir, shell. authopts: as authopts_put() writes them.
 * MON_PROMPT: string instruction, u32 n, n x (string prompt, bool echo).
 * MON_ANSWERS: u32 err, u32 n, n x string.
 *
 * The verdict is the monitor's. MON_REQ_AUTHENTICATED moves the monitor
 * to the POST phase only when the answers it gave itself (a verified
 * publickey or hostbased signature, a matching password, a PAM
 * conversation, each followed by the PAM account check under UsePAM)
 * complete one of the user's AuthenticationMethods chains, for a valid
 * user that PermitRootLogin lets in by those methods. Only one
 * MON_REQ_AUTHENTICATED is ever answered.
 *
 * MON_REQ_MODULI (at most 4 times before authentication) picks
 * a DH group exchange group from the moduli file, which the sandboxed
 * child cannot open. MON_REQ_TRANSPORT_STATE is the child's last word,
 * once, after MON_REQ_AUTHENTICATED was granted: its transport, for the
 * side that carries the connection on (checked by tr_import()).
 *
 * After the hand-over the connection goes on in a process that runs as
 * the user, which asks for what still needs root: host key signatures
 * and groups for rekeying, and the login records of its pty sessions.
 * Login records follow ptyrecords.h's rules: only for a pty under
 * /dev/pts that the user owns, for a process of the user's, a bounded
 * number; a logout only for a tty the monitor recorded.
 *
 * Host keys: the monitor signs only what authority_hostkey_sign()
 * allows (an exchange-hash-sized digest, a hostkeys-prove request for
 * this session); the first digest it signs is the session id from then
 * on, as in OpenSSH's monitor.
 */
#ifndef MOAT_MONITOR_H
#define MOAT_MONITOR_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>

#include "auth.h"
#include "authority.h"
#include "sbuf.h"
#include "servconf.h"

/* The transport state with up to 1.25 MiB of input read ahead fits. */
#define MON_MAX_FRAME		(2 * 1024 * 1024)

enum mon_type {
	MON_REQ_HOSTKEY_SIGN = 1,
	MON_REQ_USER_LOOKUP = 2,
	MON_REQ_BANNER = 3,
	MON_REQ_PUBKEY_CHECK = 4,
	MON_REQ_HOSTBASED_CHECK = 5,
	MON_REQ_PASSWD_CHECK = 6,
	MON_REQ_KBDINT = 7,
	MON_REQ_ACCOUNT_CHECK = 8,
	MON_REQ_RECORD_FAILED = 9,
	MON_REQ_AUTHENTICATED = 10,
	MON_REQ_SESSION_OPEN = 11,
	MON_REQ_SESSION_CLOSE = 12,
	MON_REQ_MODULI = 13,
	MON_REQ_TRANSPORT_STATE = 14,
	MON_REQ_LOGIN_RECORD = 15,
	MON_REQ_LOGOUT_RECORD = 16,
	MON_ANSWER = 64,
	MON_PROMPT = 65,
	MON_ANSWERS = 66,
	MON_LOG = 67,
	MON_LOGGED = 68,
};

/*
 * Frames (monitor_wire.c). mon_send() writes type and body as one frame;
 * mon_recv() reads one into body (reset first) and *typep: 0, or
 * ERR_CONN_CLOSED at a clean end before a frame, ERR_INVALID_FORMAT for
 * a length out of range, ERR_SYSTEM.
 */
int mon_send(int fd, uint8_t type, const struct sbuf *body);
int mon_recv(int fd, uint8_t *typep, struct sbuf *body);

/*
 * The child's log sink (log_set_sink(mon_log_sink, &fd)): MON_LOG, then
 * wait for MON_LOGGED. Nothing is reported if the monitor is gone.
 */
void mon_log_sink(int level, const char *text, void *fdp);

/*
 * An err field as read: 0, or the ERR_* code it carries; a number no
 * ERR_* code has is ERR_PROTOCOL.
 */
int mon_err(uint32_t e);

/* The authority's answers in SSH encoding, both directions. */
int mon_put_passwd(struct sbuf *b, const struct passwd *pw);
int mon_get_passwd(struct sbuf *b, struct passwd **pwp);
int mon_put_authopts(struct sbuf *b, const struct authopts *o);
int mon_get_authopts(struct sbuf *b, struct authopts **op);

/*
 * The child's side: an authority whose every operation is a request on
 * fd. sc is the configuration the monitor has too (the same file): the
 * Match blocks user_lookup names are applied to it here. The caller
 * keeps fd open while the authority lives and closes it after.
 */
struct authority *authority_remote_new(int fd, const struct servconf *sc);
/*
 * Tell the monitor the user is authenticated (MON_REQ_AUTHENTICATED);
 * 0 when it agreed, and the authority is in the POST phase.
 */
int authority_remote_authenticated(struct authority *a, const char *user);
/* A group exchange group, chosen by the monitor (kexalg_gex_choose()). */
int authority_remote_moduli(struct authority *a, uint32_t min, uint32_t want,
    uint32_t max, BIGNUM **pp, BIGNUM **gp);
/* After authentication: hand the transport state over (no answer). */
int authority_remote_send_state(struct authority *a, const struct sbuf *st);
/* The login records of a pty session (session_recorder's rows). */
int authority_remote_login(struct authority *a, const char *tty, long pid);
int authority_remote_logout(struct authority *a, const char *tty);

/*
 * The monitor's side: answer the requests read from fd with backend (an
 * authority_local of this connection, which the monitor owns from now
 * on). sc: the global configuration (AuthenticationMethods and
 * PermitRootLogin come from the user's Match-applied copy).
 */
struct monitor;
struct monitor *monitor_new(struct authority *backend, int fd);
void monitor_free(struct monitor *m);
/*
 * Read one request and answer it. 0: answered (the answer may be "no");
 * ERR_CONN_CLOSED: the child closed its end; any other error: the
 * request was refused or the child broke the protocol (logged) and the
 * connection must end.
 */
int monitor_serve_one(struct monitor *m);
/* The moduli file MON_REQ_MODULI reads (NULL: the built-in groups). */
void monitor_set_moduli(struct monitor *m, const char *path);
/* The client's address, for login records (copied). */
void monitor_set_client(struct monitor *m, const char *addr);
/* Serve another process from now on: the post-auth one, on fd. */
void monitor_set_fd(struct monitor *m, int fd);
/* Write the logout records of every login still recorded. */
void monitor_logout_all(struct monitor *m);
/* 1 once MON_REQ_AUTHENTICATED was granted; the user then. */
int monitor_authenticated(const struct monitor *m);
const struct passwd *monitor_user(const struct monitor *m);
/*
 * After the grant, what the monitor's own record says of the login, for
 * the session: a copy of the user's entry, the settings with Match
 * applied, the restrictions of the last key that succeeded (empty when
 * none), the last method, the lines of ExposeAuthInfo's text (authinfo.h;
 * "" when none). Moved into res (auth_result_clear() frees).
 */
void monitor_take_result(struct monitor *m, struct auth_result *res);
/* 1 when RefuseConnection ended the connection at the user lookup. */
int monitor_refused(const struct monitor *m);
/* The MON_REQ_TRANSPORT_STATE blob once it came, else NULL; the caller's. */
int monitor_has_state(const struct monitor *m);
struct sbuf *monitor_take_state(struct monitor *m);
/* The backend, for the requests of the session after the hand-over. */
struct authority *monitor_authority(struct monitor *m);

#endif
