/*
 * mux_msess.c: the master's sessions for its clients (see mux.h).
 *
 * A MUX_C_NEW_SESSION becomes a "session" channel on the shared
 * connection. Once the server confirms it we send pty-req (the client's
 * $TERM, and the size and modes of the tty it passed), env for each
 * NAME=value it sent, and exec, shell or subsystem, then tell the client
 * MUX_S_SESSION_OPENED. The server's output goes to the client's stdout
 * and stderr descriptors directly. Its stdin we read ourselves and pass
 * on through a pipe that is the channel's rfd: so the escape character
 * can be acted on here, as OpenSSH's master does, and so the reading
 * stops the moment the client goes away. exit-status becomes
 * MUX_S_EXIT_MESSAGE; when the channel is gone, the client's connection
 * is closed.
 *
 * "~." ends the session for its client at once, whatever the server
 * does: the client's connection is closed (it exits with 255) and CLOSE
 * is sent; the channel is left to end when, if ever, the server answers.
 *
 * MUX_C_NEW_STDIO_FWD (-W) is a direct-tcpip channel on the two
 * descriptors passed.
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "agentfwd.h"
#include "channel.h"
#include "err.h"
#include "escape.h"
#include "ev.h"
#include "fwd.h"
#include "log.h"
#include "mem.h"
#include "mux_int.h"
#include "sbuf.h"
#include "x11fwd.h"

#define MS_MAX_PENDING	4

enum ms_reply { MS_PTY, MS_EXEC, MS_SUBSYS, MS_X11 };

struct mux_sess {
	struct mux_conn *mc;		/* NULL once the client is gone */
	struct chan_set *cs;
	struct chan *chan;
	struct mux_req q;		/* what the client asked for */
	uint32_t sid;
	int stdio;			/* -W */
	int in;				/* the client's stdin, ours */
	int out, err;			/* until given to the channel */
	int errw;			/* our own copy of err, for escapes */
	int pipe_r, pipe_w;		/* pipe_r: the channel's rfd */
	struct sbuf *pend;		/* input not yet in the pipe */
	int in_eof;
	int escapes;
	struct esc_state esc;
	enum ms_reply pending[MS_MAX_PENDING];
	size_t npending;
	int exit_seen;
	struct winsize ws;
};

static void
close_fd(int *fdp)
{
	if (*fdp != -1) {
		close(*fdp);
		*fdp = -1;
	}
}

static void
send_to_client(struct mux_sess *s, uint32_t type, uint32_t a, uint32_t b,
    const char *reason)
{
	struct sbuf *m;

	if (s->mc == NULL)
		return;
	m = sbuf_new();
	if ((reason != NULL ? mux_put_status(m, type, a, reason) :
	    mux_put_u32s(m, type, a, b)) == 0)
		(void)mux_conn_send(s->mc, m);
	sbuf_free(m);
}

static void
stop_input(struct mux_sess *s)
{
	if (s->in != -1) {
		ev_fd_del(chan_set_ev(s->cs), s->in);
		close_fd(&s->in);
	}
	if (s->pipe_w != -1) {
		ev_fd_del(chan_set_ev(s->cs), s->pipe_w);
		close_fd(&s->pipe_w);
	}
}

static void
sess_free(struct mux_sess *s)
{
	stop_input(s);
	close_fd(&s->out);
	close_fd(&s->err);
	close_fd(&s->errw);
	close_fd(&s->pipe_r);
	sbuf_free(s->pend);
	mux_req_clear(&s->q);
	x_free(s);
}

/* ---- input: the client's stdin, escapes, the pipe ---- */

static void watch_input(struct mux_sess *s);

static void
say(struct mux_sess *s, const char *text)
{
	if (s->errw != -1)
		(void)write(s->errw, text, strlen(text));
}

/* ~. : the client is let go now, the server may answer later. */
static void
abandon(struct mux_sess *s)
{
	struct mux_conn *mc = s->mc;

	stop_input(s);
	if (s->chan != NULL) {
		chan_close_write(s->chan);
		(void)chan_send_close(s->cs, s->chan);
	}
	if (mc != NULL) {
		s->mc = NULL;
		mc->sess = NULL;
		mux_conn_close(mc);
	}
}

static int
escape_action(struct mux_sess *s, enum esc_action act)
{
	char buf[8], msg[128];
	struct sbuf *b;
	char *h;

	switch (act) {
	case ESC_DISCONNECT:
		abandon(s);
		return -1;
	case ESC_HELP:
		h = esc_help(s->esc.escape_char);
		say(s, h);
		x_free(h);
		return 0;
	case ESC_BREAK:
		if (s->chan != NULL && (b = chan_request_start(s->cs, s->chan,
		    "break", 0)) != NULL && sbuf_put_u32(b, 1000) == 0)
			(void)chan_msg_send(s->cs);
		return 0;
	default:
		snprintf(msg, sizeof(msg), "%s%c escape not available to "
		    "multiplexed sessions\r\n",
		    esc_char_name(s->esc.escape_char, buf),
		    act == ESC_SUSPEND ? 'Z' : act == ESC_BACKGROUND ? '&' :
		    act == ESC_REKEY ? 'R' : act == ESC_COMMAND ? 'C' :
		    act == ESC_LIST ? '#' : act == ESC_VERBOSE_UP ? 'v' : 'V');
		say(s, msg);
		return 0;
	}
}

/* Move what is pending into the pipe; 0, or -1 once s is gone. */
static int
flush_pipe(struct mux_sess *s)
{
	ssize_t n;

	while (sbuf_len(s->pend) > 0 && s->pipe_w != -1) {
		n = write(s->pipe_w, sbuf_ptr(s->pend), sbuf_len(s->pend));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			sbuf_reset(s->pend);
			stop_input(s);
			return 0;
		}
		(void)sbuf_consume(s->pend, (size_t)n);
	}
	watch_input(s);
	return 0;
}

static void
on_input(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct mux_sess *s = arg;
	unsigned char buf[4096];
	enum esc_action act;
	size_t off = 0, used;
	ssize_t n;

	(void)ev;
	(void)events;
	if (fd == s->pipe_w) {
		(void)flush_pipe(s);
		return;
	}
	n = read(s->in, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		s->in_eof = 1;
		ev_fd_del(chan_set_ev(s->cs), s->in);
		close_fd(&s->in);
		(void)flush_pipe(s);
		return;
	}
	if (!s->escapes) {
		(void)sbuf_put(s->pend, buf, (size_t)n);
		(void)flush_pipe(s);
		return;
	}
	while (off < (size_t)n) {
		used = esc_feed(&s->esc, buf + off, (size_t)n - off, s->pend,
		    &act);
		off += used;
		if (act != ESC_NONE && escape_action(s, act) != 0)
			return;
		if (used == 0)
			break;
	}
	(void)flush_pipe(s);
}

/* Read the client's input while the pipe takes it; EOF closes the pipe. */
static void
watch_input(struct mux_sess *s)
{
	struct ev_loop *ev = chan_set_ev(s->cs);
	int busy = sbuf_len(s->pend) > 0;

	if (s->pipe_w == -1)
		return;
	if (!busy && s->in_eof) {
		ev_fd_del(ev, s->pipe_w);
		close_fd(&s->pipe_w);
		return;
	}
	if (busy) {
		if (ev_fd_get(ev, s->pipe_w) == -1)
			(void)ev_fd_add(ev, s->pipe_w, EV_WRITE, on_input, s);
		if (s->in != -1)
			(void)ev_fd_mask(ev, s->in, 0);
		return;
	}
	if (ev_fd_get(ev, s->pipe_w) != -1)
		ev_fd_del(ev, s->pipe_w);
	if (s->in == -1)
		return;
	if (ev_fd_get(ev, s->in) == -1)
		(void)ev_fd_add(ev, s->in, EV_READ, on_input, s);
	else
		(void)ev_fd_mask(ev, s->in, EV_READ);
}

/* ---- the session channel ---- */

static void
push_reply(struct mux_sess *s, enum ms_reply kind)
{
	if (s->npending < MS_MAX_PENDING)
		s->pending[s->npending++] = kind;
}

static int
send_pty_req(struct mux_sess *s, struct chan *c)
{
	struct termios tio;
	int r;

	memset(&s->ws, 0, sizeof(s->ws));
	(void)ioctl(s->in, TIOCGWINSZ, &s->ws);
	r = client_pty_request(s->cs, c, s->q.term, &s->ws,
	    tcgetattr(s->in, &tio) == 0 ? &tio : NULL);
	if (r == 0)
		push_reply(s, MS_PTY);
	return r;
}

static int
send_requests(struct mux_sess *s, struct chan *c)
{
	const char *eq;
	struct sbuf *b;
	size_t i;
	int r;

	/* X11, then the agent, then the tty, as for the master's own. */
	if (s->q.want_x11 &&
	    (r = x11_fwd_request_more(s->mc->mm->x11, s->cs, c)) != 0) {
		if (r < 0)
			return r;
		push_reply(s, MS_X11);
	}
	if (s->q.want_agent && agent_fwd_request_more(s->mc->mm->afwd,
	    s->mc->mm->o, s->cs, c) != 0)
		return ERR_INTERNAL;
	if (s->q.want_tty && send_pty_req(s, c) != 0)
		return ERR_INTERNAL;
	for (i = 0; i < s->q.nenv; i++) {
		if ((eq = strchr(s->q.env[i], '=')) == NULL)
			continue;
		if ((b = chan_request_start(s->cs, c, "env", 0)) == NULL ||
		    sbuf_put_string(b, s->q.env[i],
		    (size_t)(eq - s->q.env[i])) != 0 ||
		    sbuf_put_cstring(b, eq + 1) != 0 ||
		    chan_msg_send(s->cs) != 0)
			return ERR_INTERNAL;
	}
	if (client_command_request(s->cs, c, s->q.command,
	    s->q.subsystem) != 0)
		return ERR_INTERNAL;
	push_reply(s, s->q.subsystem ? MS_SUBSYS : MS_EXEC);
	return 0;
}

/*
 * ChannelTimeout (the master's) sees a client's session by what it
 * runs, "session:command", "session:shell" or "session:subsystem:NAME",
 * as it sees the master's own.
 */
static void
set_timeout_type(struct mux_sess *s, struct chan *c)
{
	char *label;

	if (s->q.subsystem)
		label = x_asprintf("session:subsystem:%s", s->q.command);
	else
		label = x_strdup(*client_command_kind(s->q.command, 0) ==
		    'e' ? "session:command" : "session:shell");
	chan_set_timeout_type(c, label);
	x_free(label);
}

static void
ms_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct mux_sess *s = c->ctx;

	(void)cs;
	if (!ok) {
		send_to_client(s, MUX_S_FAILURE, s->q.rid, 0,
		    "Session open refused by peer");
		return;
	}
	if (s->mc == NULL) {
		(void)chan_send_close(cs, c);
		return;
	}
	if (s->stdio) {
		chan_set_fds(c, s->in, s->out, -1, CHAN_EFD_NONE, 0);
		s->in = s->out = -1;
		send_to_client(s, MUX_S_SESSION_OPENED, s->q.rid, s->sid,
		    NULL);
		return;
	}
	if (send_requests(s, c) != 0) {
		abandon(s);
		return;
	}
	set_timeout_type(s, c);
	chan_set_fds(c, s->pipe_r, s->out, s->err, CHAN_EFD_WRITE,
	    s->q.want_tty && isatty(s->out));
	s->pipe_r = s->out = s->err = -1;
	send_to_client(s, MUX_S_SESSION_OPENED, s->q.rid, s->sid, NULL);
	watch_input(s);
}

static void
ms_reply(struct chan_set *cs, struct chan *c, int ok)
{
	struct mux_sess *s = c->ctx;
	enum ms_reply kind;

	if (s->npending == 0)
		return;
	kind = s->pending[0];
	memmove(s->pending, s->pending + 1,
	    --s->npending * sizeof(s->pending[0]));
	if (ok)
		return;
	if (kind == MS_X11) {
		/* Where the client sees it, as the master's own would. */
		if (s->errw != -1 && s->mc != NULL &&
		    s->mc->mm->o->log_level >= LOG_LEVEL_INFO) {
			char line[96];

			snprintf(line, sizeof(line), "X11 forwarding request "
			    "failed on channel %u\r\n", c->local_id);
			say(s, line);
		}
		return;
	}
	if (kind == MS_PTY) {
		send_to_client(s, MUX_S_TTY_ALLOC_FAIL, s->sid, 0, NULL);
		return;
	}
	log_error("%s request failed on channel %u",
	    client_command_kind(s->q.command, kind == MS_SUBSYS),
	    c->local_id);
	chan_close_write(c);
	(void)chan_send_close(cs, c);
}

static int
ms_request(struct chan_set *cs, struct chan *c, const char *name,
    int want_reply, struct sbuf *body)
{
	struct mux_sess *s = c->ctx;
	uint32_t v;
	int r;

	(void)cs;
	(void)want_reply;
	if ((r = client_exit_request(name, body, &v)) < 0)
		return r;
	if (r == CLIENT_EXIT_OTHER)
		return 0;
	s->exit_seen = 1;
	if (r == CLIENT_EXIT_STATUS)
		send_to_client(s, MUX_S_EXIT_MESSAGE, s->sid, v, NULL);
	return 0;
}

static int
ms_close_ok(struct chan_set *cs, struct chan *c)
{
	struct mux_sess *s = c->ctx;

	(void)cs;
	return s->stdio || s->exit_seen || s->mc == NULL;
}

static void
ms_free(struct chan_set *cs, struct chan *c)
{
	struct mux_sess *s = c->ctx;
	struct mux_conn *mc;

	(void)cs;
	if (s == NULL)
		return;
	c->ctx = NULL;
	s->chan = NULL;
	mc = s->mc;
	s->mc = NULL;
	if (mc != NULL) {
		mc->sess = NULL;
		mux_conn_close(mc);
	}
	sess_free(s);
}

static const struct chan_ops msess_ops = {
	.type = "session",
	.opened = ms_opened,
	.request = ms_request,
	.reply = ms_reply,
	.close_ok = ms_close_ok,
	.free = ms_free,
};

static const struct chan_ops mstdio_ops = {
	.type = "direct-tcpip",
	.opened = ms_opened,
	.close_ok = ms_close_ok,
	.free = ms_free,
};

/* ---- from the master ---- */

static struct mux_sess *
sess_new(struct mux_conn *mc, struct mux_req *q)
{
	struct mux_sess *s = x_calloc(1, sizeof(*s));

	s->mc = mc;
	s->cs = mc->mm->cs;
	s->q = *q;
	memset(q, 0, sizeof(*q));
	s->sid = mc->mm->next_sid++;
	s->in = s->out = s->err = s->errw = -1;
	s->pipe_r = s->pipe_w = -1;
	s->pend = sbuf_new();
	return s;
}

void
msess_start(struct mux_conn *mc, struct mux_req *q, int fds[3])
{
	struct mux_sess *s = sess_new(mc, q);
	int p[2];

	s->in = fds[0];
	s->out = fds[1];
	s->err = fds[2];
	s->errw = dup(s->err);
	s->escapes = s->q.want_tty && s->q.escape_char != MUX_NO_ESCAPE &&
	    s->q.escape_char < 256;
	esc_init(&s->esc, s->escapes ? (int)s->q.escape_char : -2);
	log_debug("mux: new session %u: tty %d, command \"%s\"", s->sid,
	    s->q.want_tty, s->q.command != NULL ? s->q.command : "");
	if (pipe2(p, O_CLOEXEC) == -1) {
		send_to_client(s, MUX_S_FAILURE, s->q.rid, 0,
		    "cannot make a pipe");
		sess_free(s);
		return;
	}
	s->pipe_r = p[0];
	s->pipe_w = p[1];
	(void)fcntl(s->pipe_w, F_SETFL, O_NONBLOCK);
	if (chan_open(s->cs, &msess_ops, s, NULL, &s->chan) != 0) {
		send_to_client(s, MUX_S_FAILURE, s->q.rid, 0,
		    "cannot open a channel");
		sess_free(s);
		return;
	}
	mc->sess = s;
}

void
msess_stdio(struct mux_conn *mc, struct mux_req *q, int fds[2])
{
	struct mux_sess *s = sess_new(mc, q);
	struct sbuf *extra = sbuf_new();
	int r;

	s->stdio = 1;
	s->in = fds[0];
	s->out = fds[1];
	log_debug("mux: stdio forwarding to %s:%u", s->q.connect_host,
	    s->q.connect_port);
	r = fwd_put_addrs(extra, s->q.connect_host, (int)s->q.connect_port,
	    "stdio", 0);
	if (r == 0)
		r = chan_open(s->cs, &mstdio_ops, s, extra, &s->chan);
	sbuf_free(extra);
	if (r != 0) {
		send_to_client(s, MUX_S_FAILURE, s->q.rid, 0,
		    "cannot open a channel");
		sess_free(s);
		return;
	}
	mc->sess = s;
}

void
msess_client_gone(struct mux_sess *s)
{
	s->mc = NULL;
	stop_input(s);
	if (s->chan != NULL && s->chan->confirmed) {
		chan_close_write(s->chan);
		if (s->stdio)
			(void)chan_send_close(s->cs, s->chan);
	}
}

void
msess_detach(struct mux_sess *s)
{
	s->mc = NULL;
}

void
msess_winch(struct mux_sess *s)
{
	struct winsize ws;
	struct sbuf *b;

	if (!s->q.want_tty || s->chan == NULL || s->in == -1 ||
	    ioctl(s->in, TIOCGWINSZ, &ws) == -1 ||
	    memcmp(&ws, &s->ws, sizeof(ws)) == 0)
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
