/*
 * fwd_agent.h: the server's side of agent forwarding (OpenSSH's
 * PROTOCOL, "auth-agent-req@openssh.com"). A session channel's
 * auth-agent-req@openssh.com request makes the connection listen on a
 * Unix socket, DIR/ssh-XXXXXXXXXX/agent.PID (the directory private to
 * the user, mode 0700), named to the session's children as
 * SSH_AUTH_SOCK; each connection to it becomes an
 * auth-agent@openssh.com channel towards the client, whose agent answers
 * it. One listener per connection, as in OpenSSH; the socket and its
 * directory are removed when the connection ends.
 *
 * Ownership: fwd_agent_listen() returns state the caller frees with
 * fwd_agent_free(), after chan_set_free() of the set it watches on, or
 * before with that set (the listener is then unwatched first).
 */
#ifndef MOAT_FWD_AGENT_H
#define MOAT_FWD_AGENT_H

struct chan_set;
struct servconf;
struct authopts;
struct passwd;
struct fwd_agent;

/* The directory the socket's private directory is made in. */
#define FWD_AGENT_TMPDIR	"/tmp"

/*
 * Which rule refuses agent forwarding (pure): NULL when allowed, else
 * "DisableForwarding", "AllowAgentForwarding", or the key's
 * "no-agent-forwarding" / "restrict" (a certificate without
 * permit-agent-forwarding counts as no-agent-forwarding). opts may be
 * NULL (no key options).
 */
const char *fwd_agent_refusal(const struct servconf *sc,
    const struct authopts *opts);

/*
 * Make the private directory under tmpdir and listen in it, watching
 * the socket on cs. When this process is root and pw another user, the
 * directory and socket are given to pw; otherwise they are ours. On
 * error nothing is left behind.
 */
int fwd_agent_listen(struct chan_set *cs, const struct passwd *pw,
    const char *tmpdir, struct fwd_agent **out);

/* The socket's path (for SSH_AUTH_SOCK). */
const char *fwd_agent_path(const struct fwd_agent *fa);

/*
 * Stop listening, remove the socket and the directory, free fa (NULL:
 * nothing). cs: the set it still watches on, or NULL once that is gone.
 */
void fwd_agent_free(struct chan_set *cs, struct fwd_agent *fa);

/*
 * After the process with id pid ended without removing its socket
 * (killed): remove each tmpdir/ssh-XXXXXXXXXX/agent.PID socket in a
 * directory of ours (owner, mode 0700), and the directory when that
 * leaves it empty. Run it as the user whose process that was; returns
 * how many sockets it removed.
 */
int fwd_agent_sweep(const char *tmpdir, long pid);

#endif
