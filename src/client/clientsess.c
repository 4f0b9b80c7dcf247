/*
 * clientsess.c: the client's session channel (RFC 4254 section 6) run
 * on the shared connection layer (channel.h, conn_loop).
 *
 * We open a "session" channel; once it is confirmed we send pty-req
 * (TERM, the real window size, our termios encoded), env for SendEnv
 * and SetEnv, then exec, shell or subsystem, and attach our fds: DATA
 * goes to out, EXTENDED_DATA to err, and in is read and sent, its end
 * of file becoming CHANNEL_EOF. exit-status is the return value;
 * exit-signal or a lost connection gives 255.
 *
 * Everything else is watched in the connection's own event loop
 * (chan_set_ev()): a signalfd (SIGWINCH sends window-change; SIGHUP,
 * SIGINT, SIGTERM, SIGQUIT end the session with the tty restored), a
 * repeating timer for ServerAliveInterval, and, when escapes are on (a
 * tty was asked for) or ObscureKeystrokeTiming may hold typing back
 * (clientchaff.c), the real input fd: we read it, run the escape
 * machine, and pass the remaining bytes on through a pipe that is the
 * channel's rfd.
 *
 * To end the loop from inside (~., a timeout, a signal) we flush what
 * the transport holds and call conn_stop().
 */
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agentfwd.h"
#include "channel.h"
#include "client.h"
#include "conf.h"
#include "clientsess_int.h"
#include "connect.h"
#include "err.h"
#include "ev.h"
#include "fdio.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport.h"
#include "x11fwd.h"

extern char **environ;

/* ---- the channel type ---- */

static void
push_reply(struct csess *s, enum cs_reply kind)
{
	if (s->npending < CS_MAX_PENDING)
		s->pending[s->npending++] = kind;
}

int
client_pty_request(struct chan_set *cs, struct chan *c, const char *term,
    const struct winsize *ws, const struct termios *tio)
{
	struct sbuf *b, *modes = sbuf_new();
	int r;

	if (tio != NULL)
		r = ttymodes_encode(tio, modes);
	else
		r = sbuf_put_u8(modes, 0);
	if (r == 0 && ((b = chan_request_start(cs, c, "pty-req", 1)) ==
	    NULL || sbuf_put_cstring(b, term != NULL ? term : "") != 0 ||
	    sbuf_put_u32(b, ws->ws_col) != 0 ||
	    sbuf_put_u32(b, ws->ws_row) != 0 ||
	    sbuf_put_u32(b, ws->ws_xpixel) != 0 ||
	    sbuf_put_u32(b, ws->ws_ypixel) != 0 ||
	    sbuf_put_stringb(b, modes) != 0 || chan_msg_send(cs) != 0))
		r = ERR_INTERNAL;
	sbuf_free(modes);
	return r;
}

const char *
client_command_kind(const char *command, int subsystem)
{
	if (subsystem)
		return "subsystem";
	return command != NULL && *command != '\0' ? "exec" : "shell";
}

int
client_command_request(struct chan_set *cs, struct chan *c,
    const char *command, int subsystem)
{
	const char *what = client_command_kind(command, subsystem);
	struct sbuf *b;

	if ((b = chan_request_start(cs, c, what, 1)) == NULL ||
	    (strcmp(what, "shell") != 0 &&
	    sbuf_put_cstring(b, command) != 0) || chan_msg_send(cs) != 0)
		return ERR_INTERNAL;
	return 0;
}

static int
send_pty_req(struct csess *s, struct chan *c)
{
	struct winsize ws;
	struct termios tio;
	int r;

	memset(&ws, 0, sizeof(ws));
	(void)ioctl(s->in, TIOCGWINSZ, &ws);
	/* The modes the user had, not our raw mode, set up by now. */
	if (s->raw.active)
		tio = s->raw.saved;
	r = client_pty_request(s->cs, c, getenv("TERM"), &ws,
	    s->raw.active || tcgetattr(s->in, &tio) == 0 ? &tio : NULL);
	if (r == 0)
		push_reply(s, CS_REPLY_PTY);
	s->ws = ws;
	return r;
}

static int
send_env(struct csess *s, struct chan *c, const char *name, const char *val)
{
	struct sbuf *b;

	log_debug("Sending env %s = %s", name, val);
	if ((b = chan_request_start(s->cs, c, "env", 0)) == NULL ||
	    sbuf_put_cstring(b, name) != 0 ||
	    sbuf_put_cstring(b, val) != 0)
		return ERR_INTERNAL;
	return chan_msg_send(s->cs);
}

/* SendEnv patterns over our environment, then SetEnv NAME=value. */
static int
send_envs(struct csess *s, struct chan *c)
{
	const struct client_opts *o = s->o;
	char **e, *name, *eq;
	size_t i;
	int r = 0, hit;

	for (e = environ; r == 0 && e != NULL && *e != NULL; e++) {
		if ((eq = strchr(*e, '=')) == NULL)
			continue;
		name = x_strndup(*e, (size_t)(eq - *e));
		for (i = 0, hit = 0; i < o->nsend_env && !hit; i++)
			hit = o->send_env[i][0] != '-' &&
			    match_pattern(name, o->send_env[i]);
		if (hit)
			r = send_env(s, c, name, eq + 1);
		x_free(name);
	}
	for (i = 0; r == 0 && i < o->nset_env; i++) {
		if ((eq = strchr(o->set_env[i], '=')) == NULL)
			continue;
		name = x_strndup(o->set_env[i],
		    (size_t)(eq - o->set_env[i]));
		r = send_env(s, c, name, eq + 1);
		x_free(name);
	}
	return r;
}

static void
cs_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct csess *s = c->ctx;
	const struct client_session_args *a = s->a;
	const char *what;
	char *label;
	int r;

	if (!ok) {
		fprintf(stderr, "channel %u: open failed\r\n", c->local_id);
		return;
	}
	/* X11, then agent forwarding go first, as ssh(1) sends them. */
	if ((r = x11_fwd_request(a->x11, cs, c)) < 0)
		return;
	if (r == 1)
		push_reply(s, CS_REPLY_X11);
	if (agent_fwd_request(a->afwd, s->o, cs, c) != 0)
		return;
	if (a->want_tty && send_pty_req(s, c) != 0)
		return;
	if (send_envs(s, c) != 0)
		return;
	if (client_command_request(cs, c, a->command, a->subsystem) != 0)
		return;
	push_reply(s, a->subsystem ? CS_REPLY_SUBSYS : CS_REPLY_EXEC);
	/* ChannelTimeout sees it by what it runs, as OpenSSH's ssh labels it. */
	what = client_command_kind(a->command, a->subsystem);
	label = a->subsystem ? x_asprintf("session:subsystem:%s", a->command) :
	    x_strdup(*what == 'e' ? "session:command" : "session:shell");
	chan_set_timeout_type(c, label);
	x_free(label);
	chan_set_fds(c, s->chan_rfd, s->chan_wfd, s->chan_efd,
	    CHAN_EFD_WRITE, 0);
	s->chan_rfd = s->chan_wfd = s->chan_efd = -1;
}

static void
cs_reply(struct chan_set *cs, struct chan *c, int ok)
{
	struct csess *s = c->ctx;
	enum cs_reply kind;

	if (s->npending == 0)
		return;
	kind = s->pending[0];
	memmove(s->pending, s->pending + 1,
	    --s->npending * sizeof(s->pending[0]));
	if (ok)
		return;
	switch (kind) {
	case CS_REPLY_PTY:
		fprintf(stderr, "PTY allocation request failed on channel "
		    "%u\r\n", c->local_id);
		break;
	case CS_REPLY_X11:
		if (s->o->log_level >= LOG_LEVEL_INFO)
			fprintf(stderr, "X11 forwarding request failed on "
			    "channel %u\r\n", c->local_id);
		break;
	case CS_REPLY_SUBSYS:
		fprintf(stderr, "Request for subsystem '%s' failed on "
		    "channel %u\r\n", s->a->command, c->local_id);
		chan_close_write(c);
		(void)chan_send_close(cs, c);
		break;
	case CS_REPLY_EXEC:
		fprintf(stderr, "%s request failed on channel %u\r\n",
		    client_command_kind(s->a->command, 0), c->local_id);
		chan_close_write(c);
		(void)chan_send_close(cs, c);
		break;
	}
}

int
client_exit_request(const char *name, struct sbuf *body, uint32_t *statusp)
{
	char *sig = NULL;
	int r;

	if (strcmp(name, "exit-status") == 0) {
		if ((r = sbuf_get_u32(body, statusp)) != 0)
			return r;
		log_debug("Exit status %u", *statusp);
		return CLIENT_EXIT_STATUS;
	}
	if (strcmp(name, "exit-signal") == 0) {
		if ((r = sbuf_get_cstring(body, &sig, NULL)) != 0)
			return r;
		log_debug("Remote command died of signal %s", sig);
		x_free(sig);
		return CLIENT_EXIT_SIGNAL;
	}
	if (strcmp(name, "eow@openssh.com") == 0)
		return CLIENT_EXIT_OTHER;
	return ERR_FEATURE_UNSUPPORTED;
}

static int
cs_request(struct chan_set *cs, struct chan *c, const char *name,
    int want_reply, struct sbuf *body)
{
	struct csess *s = c->ctx;
	uint32_t v;
	int r;

	(void)cs;
	(void)want_reply;
	if ((r = client_exit_request(name, body, &v)) == CLIENT_EXIT_STATUS)
		s->exit_status = (int)(v & 0xff);
	else if (r == CLIENT_EXIT_SIGNAL)
		s->exit_signal = 1;
	return r < 0 ? r : 0;
}

/*
 * The server ends a session: after both EOFs we wait for its exit-status
 * (or exit-signal, or its CLOSE) before sending CLOSE, since a server may
 * send the status after its EOF (Dropbear does) and nothing is accepted
 * on a channel once we have closed it.
 */
static int
cs_close_ok(struct chan_set *cs, struct chan *c)
{
	struct csess *s = c->ctx;

	(void)cs;
	return s->exit_status >= 0 || s->exit_signal;
}

static void
cs_free(struct chan_set *cs, struct chan *c)
{
	struct csess *s = c->ctx;

	if (s != NULL && s->chan == c)
		s->chan = NULL;
}

static const struct chan_ops session_ops = {
	.type = "session",
	.opened = cs_opened,
	.request = cs_request,
	.reply = cs_reply,
	.close_ok = cs_close_ok,
	.free = cs_free,
};

/* ---- ending the loop from inside ---- */

void
csess_quit(struct csess *s, int status)
{
	if (s->quit)
		return;
	s->quit = 1;
	s->quit_status = status;
	(void)tr_flush(s->t);
	conn_stop(s->cs);
}

void
csess_window_change(struct csess *s)
{
	struct winsize ws;
	struct sbuf *b;

	if (!s->a->want_tty || s->chan == NULL ||
	    ioctl(s->in, TIOCGWINSZ, &ws) == -1)
		return;
	if (memcmp(&ws, &s->ws, sizeof(ws)) == 0)
		return;
	s->ws = ws;
	if ((b = chan_request_start(s->cs, s->chan, "window-change", 0)) ==
	    NULL || sbuf_put_u32(b, ws.ws_col) != 0 ||
	    sbuf_put_u32(b, ws.ws_row) != 0 ||
	    sbuf_put_u32(b, ws.ws_xpixel) != 0 ||
	    sbuf_put_u32(b, ws.ws_ypixel) != 0)
		return;
	(void)chan_msg_send(s->cs);
}

/* ---- watchers: signals, keepalive, typed input ---- */

static void
on_signal(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct csess *s = arg;
	struct signalfd_siginfo si;

	(void)ev;
	(void)events;
	while (!s->quit && read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGWINCH) {
			csess_window_change(s);
			if (s->a->on_winch != NULL)
				s->a->on_winch(s->a->hook_arg);
			continue;
		}
		ttyraw_leave(&s->raw);
		log_verbose("Killed by signal %u.", si.ssi_signo);
		csess_quit(s, 255);
	}
}

/* ServerAliveInterval: every interval, probe unless input came. */
static void
on_alive(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct csess *s = arg;
	struct sbuf *b;
	time_t now = time(NULL);

	(void)ev;
	(void)tm;
	if ((uint64_t)now - tr_last_input_time(s->t) <
	    (uint64_t)s->o->server_alive_interval) {
		s->alive_missed = 0;
		return;
	}
	if (++s->alive_missed > (s->o->server_alive_count_max >= 0 ?
	    s->o->server_alive_count_max : 3)) {
		ttyraw_leave(&s->raw);
		fprintf(stderr, "Timeout, server %s not responding.\n",
		    s->host);
		csess_quit(s, 255);
		return;
	}
	if ((b = chan_global_start(s->cs, "keepalive@openssh.com", 1, NULL,
	    NULL)) != NULL)
		(void)tr_msg_send(s->t);
}

static void
on_input(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct csess *s = arg;

	(void)ev;
	(void)events;
	if (s->quit)
		return;
	if (fd == s->in)
		csess_input(s);
	else if (fd == s->pipe_w)
		csess_pipe_flush(s);
}

void
csess_watch(struct csess *s, int fd, int mask)
{
	struct ev_loop *ev = chan_set_ev(s->cs);

	if (fd == -1)
		return;
	if (mask < 0)
		ev_fd_del(ev, fd);
	/* Early in a turn, as typed input went before channel I/O. */
	else if (ev_fd_get(ev, fd) == -1)
		(void)ev_fd_add(ev, fd, mask | EV_FIRST, on_input, s);
	else
		(void)ev_fd_mask(ev, fd, mask | EV_FIRST);
}

/* ---- setup and teardown ---- */

/*
 * A pipe on stdin or stdout (tar c | ssh host tar x) holds 64 KiB by
 * default: the other end and we would wake each other for every 64 KiB.
 * Let it hold as much as a channel reads at a time, several times over.
 */
#define CLIENT_PIPE_SIZE	(1024 * 1024)

static void
grow_pipe(int fd)
{
	struct stat st;

	if (fd != -1 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, CLIENT_PIPE_SIZE);
}

static int
setup_fds(struct csess *s)
{
	const struct client_session_args *a = s->a;
	int p[2];

	s->chan_wfd = dup(s->out);
	s->chan_efd = dup(s->err);
	if (a->stdin_null)
		s->chan_rfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	else if (s->own_input) {
		if (pipe2(p, O_CLOEXEC) == -1)
			return ERR_SYSTEM;
		s->chan_rfd = p[0];
		s->pipe_w = p[1];
		(void)fcntl(s->pipe_w, F_SETFL, O_NONBLOCK);
	} else
		s->chan_rfd = dup(s->in);
	if (s->chan_rfd == -1 || s->chan_wfd == -1 || s->chan_efd == -1)
		return ERR_SYSTEM;
	grow_pipe(s->chan_rfd);
	grow_pipe(s->chan_wfd);
	return 0;
}

static int
setup_watchers(struct csess *s)
{
	struct ev_loop *ev = chan_set_ev(s->cs);
	int r;

	sigemptyset(&s->sigs);
	sigaddset(&s->sigs, SIGWINCH);
	sigaddset(&s->sigs, SIGHUP);
	sigaddset(&s->sigs, SIGINT);
	sigaddset(&s->sigs, SIGTERM);
	sigaddset(&s->sigs, SIGQUIT);
	if (sigprocmask(SIG_BLOCK, &s->sigs, &s->oldmask) == -1)
		return ERR_SYSTEM;
	s->mask_set = 1;
	if ((s->sigfd = signalfd(-1, &s->sigs, SFD_NONBLOCK |
	    SFD_CLOEXEC)) == -1)
		return ERR_SYSTEM;
	if ((r = ev_fd_add(ev, s->sigfd, EV_READ | EV_FIRST, on_signal,
	    s)) != 0)
		return r;
	if (s->o->server_alive_interval > 0) {
		int64_t ms = (int64_t)s->o->server_alive_interval * 1000;

		ev_timer_init(&s->alive_tm, on_alive, s);
		ev_timer_start(ev, &s->alive_tm, ms, ms);
	}
	if (s->own_input)
		csess_watch(s, s->in, EV_READ);
	return 0;
}

static void
teardown(struct csess *s)
{
	int fds[] = { s->chan_rfd, s->chan_wfd, s->chan_efd, s->pipe_w,
	    s->sigfd };
	size_t i;

	ttyraw_leave(&s->raw);
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] != -1)
			close(fds[i]);
	if (s->mask_set) {
		struct timespec zero = { 0, 0 };
		siginfo_t si;

		/* Swallow what arrived meanwhile, then unblock. */
		while (sigtimedwait(&s->sigs, &si, &zero) > 0)
			;
		(void)sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
	}
	sbuf_free(s->pipebuf);
}

/* ---- the server gone ---- */

/*
 * Whether the server went away under the session, r being what
 * conn_loop() returned: end of file without DISCONNECT, or a failed
 * read. Not when it had closed our session channel already (a server
 * may drop the connection right after its CLOSE).
 */
static int
server_gone(const struct csess *s, int r)
{
	int rd;

	if (s->chan != NULL && s->chan->close_rcvd)
		return 0;
	if (r == ERR_SYSTEM)
		return tr_io_errno(s->t, &rd) != 0 && rd;
	return r == 0 && tr_peer_eof(s->t) && (s->chan != NULL ||
	    s->a->no_command);
}

/*
 * Say so as OpenSSH's ssh does. End of file: "Connection to HOST closed
 * by remote host." on stderr whatever the LogLevel (-q too). A failed
 * read: OpenSSH then sends its DISCONNECT as at every exit, and that
 * write fails too on a reset connection, so what it shows is the FATAL
 * line "client_loop: send disconnect: Broken pipe"; we try the same and
 * word the outcome alike, or, if the write went out, show the read's
 * error. Returns non-zero when that FATAL line ended it.
 */
static int
report_gone(struct csess *s, int r)
{
	int rd, e = tr_io_errno(s->t, &rd);
	struct sbuf *b;

	if (r != ERR_SYSTEM) {
		fprintf(stderr, "Connection to %s closed by remote host.\r\n",
		    s->host);
		return 0;
	}
	if ((b = tr_msg_start(s->t, SSH2_MSG_DISCONNECT)) == NULL ||
	    sbuf_put_u32(b, SSH2_DISCONNECT_BY_APPLICATION) != 0 ||
	    sbuf_put_cstring(b, "disconnected by user") != 0 ||
	    sbuf_put_cstring(b, "") != 0 || tr_msg_send(s->t) != 0 ||
	    tr_flush(s->t) != 0) {
		if (tr_io_errno(s->t, &rd) != 0 && !rd) {
			log_fatal("client_loop: send disconnect: %s",
			    strerror(tr_io_errno(s->t, NULL)));
			return 1;
		}
	}
	fprintf(stderr, "Read from remote host %s: %s\r\n", s->host,
	    strerror(e));
	return 0;
}

/*
 * ChannelTimeout on our side: the seconds of the first "type=interval"
 * word whose pattern matches OpenSSH's name for the channel's type
 * ("global" is no type), 0 for none. The words were checked when read.
 */
static long
timeout_word(const char *word, const char *name, int global)
{
	const char *eq = strchr(word, '=');
	char *pattern;
	int hit;

	if (eq == NULL)
		return -1;
	pattern = x_strndup(word, (size_t)(eq - word));
	hit = global ? strcmp(pattern, "global") == 0 :
	    strcmp(pattern, "global") != 0 && match_pattern(name, pattern);
	x_free(pattern);
	return hit ? conf_parse_time(eq + 1) : -1;
}

static int
channel_timeout(void *arg, const char *type)
{
	const struct client_opts *o = arg;
	const char *name = strcmp(type, "x11") == 0 ? "x11-connection" :
	    strcmp(type, "auth-agent@openssh.com") == 0 ?
	    "agent-connection" : type;
	long secs;
	size_t i;

	for (i = 0; i < o->nchannel_timeouts; i++)
		if ((secs = timeout_word(o->channel_timeouts[i], name, 0)) >= 0)
			return secs > INT32_MAX ? INT32_MAX : (int)secs;
	return 0;
}

static void
apply_timeouts(struct chan_set *cs, const struct client_opts *o)
{
	long secs, global = 0;
	size_t i;

	if (o->nchannel_timeouts == 0 ||
	    strcmp(o->channel_timeouts[0], "none") == 0)
		return;
	for (i = 0; i < o->nchannel_timeouts; i++)
		if ((secs = timeout_word(o->channel_timeouts[i], "", 1)) >= 0)
			global = secs;
	chan_set_timeouts(cs, channel_timeout, (void *)o,
	    global > INT32_MAX ? INT32_MAX : (int)global, 0);
}

int
client_session(struct transport *t, const struct client_opts *o,
    const struct client_session_args *a)
{
	struct csess s;
	struct chan *c = NULL;
	int r, ret = 255, lost;

	memset(&s, 0, sizeof(s));
	s.t = t;
	s.o = o;
	s.a = a;
	s.host = a->host != NULL ? a->host : o->hostname != NULL ?
	    o->hostname : o->host_arg != NULL ? o->host_arg : "";
	s.in = a->use_fds ? a->in_fd : 0;
	s.out = a->use_fds ? a->out_fd : 1;
	s.err = a->use_fds ? a->err_fd : 2;
	s.chan_rfd = s.chan_wfd = s.chan_efd = s.pipe_w = -1;
	s.sigfd = -1;
	s.exit_status = -1;
	s.pipebuf = sbuf_new();
	s.escapes = a->want_tty && !a->no_command && !a->stdin_null &&
	    o->escape_char != -2 && isatty(s.in);
	esc_init(&s.esc, !s.escapes ? -2 : o->escape_char >= 0 ?
	    o->escape_char : '~');
	csess_chaff_init(&s);
	s.own_input = s.escapes || s.chaff_ms > 0;
	if ((s.cs = chan_set_new(t)) == NULL) {
		r = ERR_ALLOC;
		goto out;
	}
	apply_timeouts(s.cs, o);
	if ((r = setup_watchers(&s)) != 0)
		goto out;
	/* IPQoS: interactive for a session with a pty, bulk otherwise. */
	fd_set_tos(tr_fd_out(t), a->want_tty && !a->no_command ?
	    o->ipqos_interactive : o->ipqos_bulk);
	if (a->setup != NULL && (r = a->setup(s.cs, a->setup_arg)) != 0)
		goto out;
	if (!a->no_command) {
		if ((r = setup_fds(&s)) != 0)
			goto out;
		chan_set_exit_when_idle(s.cs, 1);
		if ((r = chan_open(s.cs, &session_ops, &s, NULL, &c)) != 0)
			goto out;
		s.chan = c;
		if (a->want_tty && isatty(s.in))
			(void)ttyraw_enter(&s.raw, s.in);
	}
	r = conn_loop(t, s.cs);
	csess_chaff_stop(&s, "no active channels");
	if (a->after_loop != NULL)
		a->after_loop(a->hook_arg);
	ttyraw_leave(&s.raw);
	lost = !s.quit && server_gone(&s, r);
	if (s.quit)
		ret = s.quit_status;
	else if (r != 0 && !lost) {
		log_debug("connection: %s", err_str(r));
		ret = 255;
	} else if (s.exit_status >= 0)
		ret = s.exit_status;
	if (lost && report_gone(&s, r) != 0)
		r = 0;	/* ended as OpenSSH's does: no more lines */
	else if (a->want_tty && o->log_level >= LOG_LEVEL_INFO &&
	    !s.quit_silent && (s.quit || r == 0 || lost))
		fprintf(stderr, "Connection to %s closed.\r\n", s.host);
	r = 0;
 out:
	if (r != 0)
		log_error("session: %s", err_str(r));
	if (s.cs != NULL)
		chan_set_free(s.cs);
	teardown(&s);
	return ret;
}
