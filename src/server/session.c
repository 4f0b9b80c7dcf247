/*
 * session.c: the "session" channel type of the server and session_serve(),
 * the entry point sshd calls after authentication (see session.h).
 *
 * Channel requests go through a table from request name to handler. The
 * child is started by sesschild.c; children are reaped through a
 * signalfd for SIGCHLD polled by the connection loop (no work happens in
 * a signal handler). When a child ends we send exit-status or exit-signal
 * at once and stop writing to its stdin; the connection layer then sends
 * EOF once stdout and stderr are drained, and CLOSE after that. EOF waits
 * for the exit status too, so the order on the wire is always
 * exit-status, EOF, CLOSE, and a client that closes its end on our EOF
 * has the status already. A pty session's login records (sesschild.c)
 * end when its child exits, or when the channel goes first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <strings.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__)
#include <pty.h>
#else
#include <util.h>
#endif

#include "authopts.h"
#include "channel.h"
#include "err.h"
#include "ev.h"
#include "fwd_agent.h"
#include "fwd_server.h"
#include "hostkeys_notify.h"
#include "log.h"
#include "loginrec.h"
#include "mem.h"
#include "memtrim.h"
#include "sbuf.h"
#include "servconf.h"
#include "session.h"
#include "session_priv.h"
#include "timeouts.h"
#include "transport.h"
#include "tun_server.h"
#include "x11srv.h"

/* "env" requests accepted per session; past it each is refused. */
#define SESS_MAX_ENV	256

static int
req_pty(struct session *s, struct sbuf *b)
{
	const struct servconf *sc = s->conn->sc;
	const struct authopts *opts = s->conn->opts;
	const unsigned char *modes;
	size_t mlen;
	uint32_t cols, rows, wpx, hpx;
	struct termios tio;
	char *term = NULL;
	int r;

	if ((r = sbuf_get_cstring(b, &term, NULL)) != 0 ||
	    (r = sbuf_get_u32(b, &cols)) != 0 ||
	    (r = sbuf_get_u32(b, &rows)) != 0 ||
	    (r = sbuf_get_u32(b, &wpx)) != 0 ||
	    (r = sbuf_get_u32(b, &hpx)) != 0 ||
	    (r = sbuf_get_string_direct(b, &modes, &mlen)) != 0)
		goto out;
	if (!sc->permit_tty || (opts != NULL && !opts->permit_pty)) {
		log_debug("Pty allocation disabled.");
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if (s->ptyfd != -1 || s->started) {
		r = ERR_PROTOCOL;
		goto out;
	}
	memset(&s->ws, 0, sizeof(s->ws));
	s->ws.ws_col = (unsigned short)cols;
	s->ws.ws_row = (unsigned short)rows;
	s->ws.ws_xpixel = (unsigned short)wpx;
	s->ws.ws_ypixel = (unsigned short)hpx;
	if (openpty(&s->ptyfd, &s->ttyfd, s->ttyname, NULL, &s->ws) != 0) {
		log_error("openpty: %s", strerror(errno));
		s->ptyfd = s->ttyfd = -1;
		r = ERR_SYSTEM;
		goto out;
	}
	(void)fcntl(s->ptyfd, F_SETFD, FD_CLOEXEC);
	(void)fcntl(s->ttyfd, F_SETFD, FD_CLOEXEC);
	if (tcgetattr(s->ttyfd, &tio) == 0) {
		if (ttymodes_apply(&tio, modes, mlen) != 0)
			log_debug("pty-req: bad terminal modes");
		(void)tcsetattr(s->ttyfd, TCSANOW, &tio);
	}
	x_free(s->term);
	s->term = term;
	term = NULL;
	log_debug("Allocated pty %s for session %d", s->ttyname, s->id);
 out:
	x_free(term);
	return r;
}

static int
req_env(struct session *s, struct sbuf *b)
{
	char *name = NULL, *value = NULL;
	int r;

	if ((r = sbuf_get_cstring(b, &name, NULL)) != 0 ||
	    (r = sbuf_get_cstring(b, &value, NULL)) != 0)
		goto out;
	if (s->env.n >= SESS_MAX_ENV) {
		/* OpenSSH's words; the cap is SESS_MAX_ENV variables. */
		log_debug("Ignoring env request %.100s: too many env vars",
		    name);
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if (!sess_env_acceptable(s->conn->sc, name)) {
		log_debug("Ignoring env request %.100s: disallowed name", name);
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	log_debug2("Setting env %s = %s", name, value);
	sess_env_set(&s->env, name, value);
 out:
	x_free(name);
	x_free(value);
	return r;
}

/* Pick the command to run: a forced command overrides the client's. */
static int
start(struct session *s, const char *command)
{
	const struct servconf *sc = s->conn->sc;
	const struct authopts *opts = s->conn->opts;
	const char *forced = NULL;

	if (s->started)
		return ERR_PROTOCOL;
	/* Refuse rather than run the user outside the configured jail. */
	if (sc->chroot_directory != NULL &&
	    strcasecmp(sc->chroot_directory, "none") != 0) {
		int r;

		if (geteuid() != 0) {
			log_error("server lacks privileges to chroot to "
			    "ChrootDirectory");
			return ERR_PERMISSION_DENIED;
		}
		x_free(s->chroot_path);
		s->chroot_path = NULL;
		if ((r = sess_chroot_path(sc->chroot_directory, s->conn->pw,
		    &s->chroot_path)) != 0)
			return r;
	}
	if (sc->force_command != NULL)
		forced = sc->force_command;
	else if (opts != NULL && opts->force_command != NULL)
		forced = opts->force_command;
	s->started = 1;
	/*
	 * A forced internal-sftp serves only a subsystem request; a shell
	 * or command gets OpenSSH's refusal from the child instead.
	 */
	if (forced != NULL && sess_is_internal_sftp(forced))
		s->internal_sftp = s->is_subsystem ? SESS_ISFTP_RUN :
		    SESS_ISFTP_REFUSE;
	else if (forced != NULL)
		s->internal_sftp = SESS_ISFTP_NO;
	if (forced != NULL)
		return sess_spawn(s, forced, command);
	return sess_spawn(s, command, NULL);
}

static int
req_exec(struct session *s, struct sbuf *b)
{
	char *cmd = NULL;
	int r;

	/* OpenSSH's label for ChannelTimeout, as for each kind below. */
	chan_set_timeout_type(s->c, "session:command");
	if ((r = sbuf_get_cstring(b, &cmd, NULL)) == 0)
		r = start(s, cmd);
	x_free(cmd);
	return r;
}

static int
req_shell(struct session *s, struct sbuf *b)
{
	chan_set_timeout_type(s->c, "session:shell");
	return start(s, NULL);
}

static int
req_subsystem(struct session *s, struct sbuf *b)
{
	const struct servconf *sc = s->conn->sc;
	char *name = NULL, *label;
	size_t i;
	int r;

	if ((r = sbuf_get_cstring(b, &name, NULL)) != 0)
		goto out;
	r = ERR_NOT_FOUND;
	for (i = 0; i < sc->nsubsystems; i++) {
		if (strcmp(sc->subsystems[i].name, name) != 0)
			continue;
		log_verbose("subsystem request for %.100s by user %s", name,
		    s->conn->pw->pw_name);
		s->is_subsystem = 1;
		label = x_asprintf("session:subsystem:%s", name);
		chan_set_timeout_type(s->c, label);
		x_free(label);
		if (sess_is_internal_sftp(sc->subsystems[i].command))
			s->internal_sftp = SESS_ISFTP_RUN;
		r = start(s, sc->subsystems[i].command);
		goto out;
	}
	chan_log_refusal(s->conn->cs, LOG_LEVEL_INFO, "subsystem request for "
	    "%.100s by user %s failed, subsystem not found", name,
	    s->conn->pw->pw_name);
 out:
	x_free(name);
	return r;
}

static int
req_window_change(struct session *s, struct sbuf *b)
{
	uint32_t cols, rows, wpx, hpx;
	int r;

	if ((r = sbuf_get_u32(b, &cols)) != 0 ||
	    (r = sbuf_get_u32(b, &rows)) != 0 ||
	    (r = sbuf_get_u32(b, &wpx)) != 0 ||
	    (r = sbuf_get_u32(b, &hpx)) != 0)
		return r;
	if (s->ptyfd == -1)
		return ERR_PROTOCOL;
	s->ws.ws_col = (unsigned short)cols;
	s->ws.ws_row = (unsigned short)rows;
	s->ws.ws_xpixel = (unsigned short)wpx;
	s->ws.ws_ypixel = (unsigned short)hpx;
	if (ioctl(s->ptyfd, TIOCSWINSZ, &s->ws) != 0)
		return ERR_SYSTEM;
	return 0;
}

static int
req_signal(struct session *s, struct sbuf *b)
{
	char *name = NULL;
	int sig, r;

	if ((r = sbuf_get_cstring(b, &name, NULL)) != 0)
		goto out;
	if ((sig = sess_signal_number(name)) == -1 || s->pid <= 0) {
		log_debug("session %d: signal %s refused", s->id, name);
		r = ERR_INVALID_ARGUMENT;
		goto out;
	}
	log_debug("session %d: signal %s to pid %ld", s->id, name,
	    (long)s->pid);
	/* The child leads its own session: signal the whole group. */
	if (kill(-s->pid, sig) != 0 && kill(s->pid, sig) != 0)
		r = ERR_SYSTEM;
 out:
	x_free(name);
	return r;
}

/*
 * auth-agent-req@openssh.com (no fields): listen for the session's
 * children on a socket whose connections go to the client's agent. The
 * first accepted request on a connection makes the one listener; its
 * path is SSH_AUTH_SOCK for every child started after it, on any
 * session of the connection. A later request is refused, as in OpenSSH.
 */
static int
req_auth_agent(struct session *s, struct sbuf *b)
{
	struct sess_conn *conn = s->conn;
	const char *rule;

	if (sbuf_len(b) != 0)
		return ERR_PROTOCOL;
	if ((rule = fwd_agent_refusal(conn->sc, conn->opts)) != NULL) {
		/* OpenSSH 9.2's line, then which rule said no. */
		log_debug("session_auth_agent_req: agent forwarding disabled");
		log_debug("agent forwarding refused by %s", rule);
		return ERR_PERMISSION_DENIED;
	}
	if (conn->agent_asked)
		return ERR_PERMISSION_DENIED;
	conn->agent_asked = 1;
	return fwd_agent_listen(conn->cs, conn->pw, FWD_AGENT_TMPDIR,
	    &conn->agent);
}

/*
 * x11-req: single connection, protocol, cookie (hex), screen. One per
 * session, before it starts; the listener lives as long as the session.
 */
static int
req_x11(struct session *s, struct sbuf *b)
{
	const struct servconf *sc = s->conn->sc;
	char *proto = NULL, *cookie = NULL;
	const char *rule;
	struct stat st;
	uint32_t screen;
	uint8_t single;
	int r;

	if ((r = sbuf_get_u8(b, &single)) != 0 ||
	    (r = sbuf_get_cstring(b, &proto, NULL)) != 0 ||
	    (r = sbuf_get_cstring(b, &cookie, NULL)) != 0 ||
	    (r = sbuf_get_u32(b, &screen)) != 0)
		goto out;
	r = ERR_PERMISSION_DENIED;
	if (s->x11 != NULL || s->started) {
		log_error("session_x11_req: session %d: x11 forwarding "
		    "already active", s->id);
		goto out;
	}
	if (!x11_srv_valid_word(proto) || !x11_srv_valid_word(cookie) ||
	    screen > 65535) {
		log_error("Invalid X11 forwarding data");
		goto out;
	}
	if ((rule = x11_srv_refusal(sc, s->conn->opts)) != NULL) {
		/* OpenSSH 9.2's lines, then which rule said no. */
		if (strcmp(rule, "X11Forwarding") == 0 ||
		    strcmp(rule, "DisableForwarding") == 0)
			log_debug("X11 forwarding disabled in server "
			    "configuration file.");
		else	/* the client is told this one */
			session_debug_to_client(s->conn->cs,
			    "X11 forwarding disabled by key options.");
		log_debug("X11 forwarding refused by %s", rule);
		goto out;
	}
	if (sc->xauth_location == NULL || stat(sc->xauth_location, &st) != 0) {
		session_debug_to_client(s->conn->cs,
		    "No xauth program; cannot forward X11.");
		goto out;
	}
	r = x11_srv_listen(s->conn->cs, sc, single != 0, proto, cookie,
	    screen, &s->x11);
 out:
	if (cookie != NULL)
		x_wipe(cookie, strlen(cookie));
	x_free(proto);
	x_free(cookie);
	return r;
}

static const struct {
	const char *name;
	int (*fn)(struct session *, struct sbuf *);
} sess_reqs[] = {
	{ "x11-req",		req_x11 },
	{ "pty-req",		req_pty },
	{ "env",		req_env },
	{ "exec",		req_exec },
	{ "shell",		req_shell },
	{ "subsystem",		req_subsystem },
	{ "window-change",	req_window_change },
	{ "signal",		req_signal },
	{ "auth-agent-req@openssh.com", req_auth_agent },
};

static int
sess_request(struct chan_set *cs, struct chan *c, const char *name,
    int want_reply, struct sbuf *body)
{
	struct session *s = c->ctx;
	size_t i;

	for (i = 0; i < sizeof(sess_reqs) / sizeof(sess_reqs[0]); i++)
		if (strcmp(sess_reqs[i].name, name) == 0)
			return sess_reqs[i].fn(s, body);
	log_debug("session %d: unsupported request %s", s->id, name);
	return ERR_FEATURE_UNSUPPORTED;
}

static int
sess_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	struct sess_conn *conn = c->type_arg;
	struct session *s;

	if (conn->nsessions >= conn->sc->max_sessions) {
		chan_log_refusal(cs, LOG_LEVEL_ERROR, "no more sessions");
		*reasonp = SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED;
		*descp = "no more sessions";
		return ERR_PERMISSION_DENIED;
	}
	s = x_calloc(1, sizeof(*s));
	s->conn = conn;
	s->c = c;
	s->id = conn->next_id++;
	s->ptyfd = s->ttyfd = -1;
	conn->nsessions++;
	c->ctx = s;
	log_debug("session_new: session %d", s->id);
	return 0;
}

/* The pty session's login ends: its utmp entry and a wtmp logout. */
static void
record_logout(struct session *s)
{
	if (!s->logged_in)
		return;
	s->logged_in = 0;
	if (sess_recorder.logout != NULL)
		sess_recorder.logout(sess_recorder.arg, s->ttyname);
	else
		(void)loginrec_logout(loginrec_system_files(), s->ttyname);
}

static int
sess_close_ok(struct chan_set *cs, struct chan *c)
{
	struct session *s = c->ctx;

	return s->exit_sent;
}

static void
sess_free(struct chan_set *cs, struct chan *c)
{
	struct session *s = c->ctx;

	if (s == NULL)
		return;
	log_debug("session %d: closed%s", s->id,
	    s->pid > 0 ? ", child still running" : "");
	record_logout(s);
	x11_srv_free(cs, s->x11);
	if (s->ptyfd != -1)
		close(s->ptyfd);
	if (s->ttyfd != -1)
		close(s->ttyfd);
	x_free(s->term);
	sess_env_free(&s->env);
	s->conn->nsessions--;
	x_free(s);
	c->ctx = NULL;
}

static const struct chan_ops session_ops = {
	.type = "session",
	.open = sess_open,
	.request = sess_request,
	.eof_ok = sess_close_ok,
	.close_ok = sess_close_ok,
	.free = sess_free,
};

/* Tell the client how the child ended, then stop feeding its stdin. */
static void
sess_exited(struct chan_set *cs, struct session *s, int status)
{
	struct chan *c = s->c;
	struct sbuf *b;
	int r = 0;

	s->pid = 0;
	record_logout(s);
	if (WIFEXITED(status)) {
		log_debug("session %d: exit status %d", s->id,
		    WEXITSTATUS(status));
		if ((b = chan_request_start(cs, c, "exit-status", 0)) != NULL &&
		    (r = sbuf_put_u32(b, (uint32_t)WEXITSTATUS(status))) == 0)
			r = chan_msg_send(cs);
	} else if (WIFSIGNALED(status)) {
		log_debug("session %d: exit signal %d", s->id,
		    WTERMSIG(status));
		if ((b = chan_request_start(cs, c, "exit-signal", 0)) != NULL &&
		    (r = sbuf_put_cstring(b,
		    sess_signal_name(WTERMSIG(status)))) == 0 &&
#ifdef WCOREDUMP
		    (r = sbuf_put_u8(b, WCOREDUMP(status) ? 1 : 0)) == 0 &&
#else
		    (r = sbuf_put_u8(b, 0)) == 0 &&
#endif
		    (r = sbuf_put_cstring(b, "")) == 0 &&
		    (r = sbuf_put_cstring(b, "")) == 0)
			r = chan_msg_send(cs);
	} else
		return;		/* stopped or continued: still running */
	if (r != 0)
		log_error("session %d: exit message: %s", s->id, err_str(r));
	s->exit_sent = 1;
	chan_close_write(c);
}

struct reap {
	pid_t pid;
	int status;
};

static int
reap_match(struct chan_set *cs, struct chan *c, void *arg)
{
	struct reap *rp = arg;
	struct session *s = c->ctx;

	if (c->ops != &session_ops || s == NULL || s->pid != rp->pid)
		return 0;
	sess_exited(cs, s, rp->status);
	return 1;
}

/* The SIGCHLD signalfd, watched in the connection's loop. */
static void
sigchld_cb(struct ev_loop *ev, int sfd, int events, void *arg)
{
	struct chan_set *cs = arg;
	struct signalfd_siginfo si;
	struct reap rp;

	(void)ev;
	(void)events;
	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		;
	while ((rp.pid = waitpid(-1, &rp.status, WNOHANG)) > 0) {
		if (!WIFEXITED(rp.status) && !WIFSIGNALED(rp.status))
			continue;
		chan_foreach(cs, reap_match, &rp);
	}
}

/*
 * After this long with nothing to do, the connection process drops its
 * mappings of clean library pages and frees heap (see memtrim.h): an
 * idle login then costs about 1 MiB of RSS instead of 5.
 */
#define IDLE_TRIM_MS	2000

static void
idle_trim(struct chan_set *cs, void *arg)
{
	size_t n;

	(void)cs;
	(void)arg;
	n = mem_trim_idle();
	log_debug3("idle: dropped %zu KiB of clean mappings", n / 1024);
}

static void
local_endpoint(struct transport *t, struct sess_conn *conn)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char port[NI_MAXSERV];

	strcpy(conn->laddr, "UNKNOWN");
	conn->lport = 0;
	if (getsockname(tr_fd_in(t), (struct sockaddr *)&ss, &len) != 0 ||
	    (ss.ss_family != AF_INET && ss.ss_family != AF_INET6))
		return;
	if (getnameinfo((struct sockaddr *)&ss, len, conn->laddr,
	    sizeof(conn->laddr), port, sizeof(port),
	    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		strcpy(conn->laddr, "UNKNOWN");
		return;
	}
	conn->lport = atoi(port);
}

int
session_serve(struct transport *t, const struct servconf *sc,
    const struct passwd *pw, const struct authopts *opts,
    const char *remote_addr, int remote_port)
{
	struct sess_conn conn;
	struct fwd_server *fs = NULL;
	struct sigaction sa, old_chld, old_pipe;
	sigset_t set, oldset;
	int sfd = -1, r;

	if (t == NULL || sc == NULL || pw == NULL)
		return ERR_INVALID_ARGUMENT;
	if (geteuid() != 0 && pw->pw_uid != geteuid()) {
		log_error("session_serve: not root and user %s is not us",
		    pw->pw_name);
		return ERR_PERMISSION_DENIED;
	}
	memset(&conn, 0, sizeof(conn));
	conn.sc = sc;
	conn.pw = pw;
	conn.opts = opts;
	conn.raddr = remote_addr != NULL ? remote_addr : "UNKNOWN";
	conn.rport = remote_port;
	conn.sockfd = tr_fd_out(t);
	local_endpoint(t, &conn);

	/* Children are reaped through a signalfd: SIGCHLD must be blocked
	 * and not ignored (or the kernel reaps them for us). */
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	(void)sigaction(SIGCHLD, &sa, &old_chld);
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGPIPE, &sa, &old_pipe);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	(void)sigprocmask(SIG_BLOCK, &set, &oldset);
	if ((sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) == -1) {
		log_error("signalfd: %s", strerror(errno));
		r = ERR_SYSTEM;
		goto out;
	}

	if ((conn.cs = chan_set_new(t)) == NULL) {
		log_error("epoll_create1: %s", strerror(errno));
		r = ERR_SYSTEM;
		goto out;
	}
	if ((r = chan_set_register(conn.cs, &session_ops, &conn)) != 0 ||
	    (r = fwd_server_setup(conn.cs, sc, opts, pw, conn.raddr,
	    conn.rport, &fs)) != 0 ||
	    (r = tun_server_setup(conn.cs, sc, opts, &conn.tun)) != 0 ||
	    (r = hostkeys_notify(conn.cs, t)) != 0)
		goto out;
	chan_set_keepalive(conn.cs, sc->client_alive_interval,
	    sc->client_alive_count_max, pw->pw_name, conn.raddr, conn.rport);
	srv_timeouts_apply(conn.cs, sc);
	/* Early in a turn: a child's exit concerns its channel. */
	if ((r = ev_fd_add(chan_set_ev(conn.cs), sfd, EV_READ | EV_FIRST,
	    sigchld_cb, conn.cs)) != 0)
		goto out;
	chan_set_idle(conn.cs, IDLE_TRIM_MS, idle_trim, NULL);
	r = conn_loop(t, conn.cs);
 out:
	chan_set_free(conn.cs);
	fwd_agent_free(NULL, conn.agent);
	fwd_server_free(fs);
	tun_server_free(conn.tun);
	if (sfd != -1)
		close(sfd);
	(void)sigprocmask(SIG_SETMASK, &oldset, NULL);
	(void)sigaction(SIGPIPE, &old_pipe, NULL);
	(void)sigaction(SIGCHLD, &old_chld, NULL);
	return r;
}
