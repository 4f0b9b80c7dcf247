/*
 * session.h: the server's session channels (RFC 4254 section 6).
 *
 * session_serve() is what sshd calls once a user has authenticated: it
 * runs the connection layer for that one connection until the client
 * goes away, serving "session" channels: pty-req, env, exec, shell,
 * subsystem, window-change, signal, auth-agent-req@openssh.com (agent
 * forwarding, fwd_agent.h), and exit-status / exit-signal when the
 * child ends. Each child runs in a new session as the user (when the
 * server is root), in the home directory, with an environment built as
 * OpenSSH builds it, and with no descriptor but its own 0, 1 and 2.
 */
#ifndef MOAT_SESSION_H
#define MOAT_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <termios.h>

#include "ttymodes.h"

struct transport;
struct servconf;
struct authopts;
struct passwd;

/*
 * Serve one authenticated connection.
 *   t           the transport, after userauth succeeded; stays the
 *               caller's (free it after this returns).
 *   sc          the configuration for this connection (Match applied):
 *               MaxSessions, PermitTTY, AcceptEnv, SetEnv, ForceCommand,
 *               Subsystem, PrintMotd, PermitUserEnvironment,
 *               ClientAliveInterval/CountMax.
 *   pw          the authenticated user; when the process is root and pw
 *               is another user, children drop to pw. When not root, pw
 *               must be the user the process runs as.
 *   opts        restrictions from the key that authenticated (may be
 *               NULL: none): no-pty, command=, environment=.
 *   remote_addr, remote_port  the client, for SSH_CLIENT and logs.
 * Returns 0 when the client closed the connection or disconnected,
 * ERR_CONN_TIMEOUT after ClientAliveCountMax unanswered probes, or
 * another error. SIGCHLD is blocked while it runs (children are reaped
 * through a signalfd) and the old signal mask and SIGCHLD/SIGPIPE
 * dispositions are restored on return. Running children are not killed.
 */
int session_serve(struct transport *t, const struct servconf *sc,
    const struct passwd *pw, const struct authopts *opts,
    const char *remote_addr, int remote_port);

/*
 * Login records (utmp, wtmp) need root. A session process that runs as
 * the user (privilege separation) asks the one that kept root through
 * these instead; with none set, or login NULL, the records are written
 * here when running as root and skipped otherwise. login's pid is the
 * session leader's; host is the client's address.
 */
struct session_recorder {
	int (*login)(void *arg, const char *tty, long pid);
	void (*logout)(void *arg, const char *tty);
	void *arg;
};
void session_set_recorder(const struct session_recorder *r);

/*
 * The process is already inside the user's ChrootDirectory (sshd's
 * post-authentication process put it there): a missing home directory
 * is then no surprise and not reported, as with a chroot of our own.
 */
void session_set_chrooted(int chrooted);

/*
 * ExposeAuthInfo: every session's environment names path (NULL: none)
 * in SSH_USER_AUTH. The file is the caller's to write and to remove
 * (authinfo.h); path must stay valid while sessions start.
 */
void session_set_auth_info(const char *path);

/*
 * What PAM said at login (authority_login_text), printed first to a
 * shell's output -- a pty one's or not, never a command's -- unless
 * ~/.hushlogin exists, as OpenSSH prints its login message. text may
 * be NULL; it is copied.
 */
void session_set_login_text(const char *text);

struct chan_set;
/*
 * An SSH_MSG_DEBUG for the client (not always displayed: "ssh -v"
 * shows it as "Remote: ..."), as OpenSSH's sshd sends when it turns a
 * request down for a reason the user may want to know. Best effort.
 */
void session_debug_to_client(struct chan_set *cs, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * ChrootDirectory for pw: expand %h %u %%, then check that every
 * component is a directory owned by root and not writable by group or
 * others (OpenSSH's rule). *pathp is the expanded path (caller frees) or
 * NULL for none. Errors are logged in OpenSSH's wording.
 */
int sess_chroot_path(const char *spec, const struct passwd *pw,
    char **pathp);

/*
 * In a child of a root process (a session's, the post-authentication
 * process of privilege separation): become pw for good -- its groups, gid,
 * then chroot_path (a path sess_chroot_path() checked; NULL: none)
 * entered after the groups are set and before giving up root, then uid
 * -- and check root cannot be regained. ERR_SYSTEM with errno and *whatp
 * naming the step that failed.
 */
int sess_become_user(const struct passwd *pw, const char *chroot_path,
    const char **whatp);

/* ---- helpers, exposed for tests ---- */



/*
 * Signal name ("TERM") to number, -1 if unknown (a signal number, not an
 * error code); and back.
 */
int sess_signal_number(const char *name);
const char *sess_signal_name(int sig);

/* A NULL-terminated "NAME=value" list (v may be NULL when n is 0). */
struct sess_env {
	char **v;
	size_t n;
};
/* Set or replace NAME. */
void sess_env_set(struct sess_env *e, const char *name, const char *value);
/* "NAME=value"; ERR_INVALID_FORMAT if there is no '=' or no name. */
int sess_env_put(struct sess_env *e, const char *nameval);
const char *sess_env_get(const struct sess_env *e, const char *name);
void sess_env_free(struct sess_env *e);
/* 1 if a client may set this variable (AcceptEnv), 0 otherwise. */
int sess_env_acceptable(const struct servconf *sc, const char *name);
/*
 * 1 if PermitUserEnvironment lets the user set this variable (by an
 * authorized_keys environment= option or ~/.ssh/environment): it is
 * "yes", or a pattern list the name matches.
 */
int sess_user_env_allowed(const struct servconf *sc, const char *name);
/*
 * When PermitUserEnvironment allows it, set into e the variables of a
 * ~/.ssh/environment file at path (OpenSSH's format): NAME=value lines,
 * leading blanks skipped, empty and '#' lines ignored, names the
 * pattern list refuses skipped; a line without '=' is reported on errs
 * (if not NULL) as "Bad line N in PATH" and skipped. A missing or
 * unreadable file sets nothing. Call it as the user.
 */
void sess_env_read_file(struct sess_env *e, const struct servconf *sc,
    const char *path, FILE *errs);

#endif
