/*
 * clientesc.c: typed input of an interactive session. Bytes read from
 * the local tty run through the escape machine (escape.c); what is for
 * the server is queued and written to the pipe the channel reads, and
 * the escape commands are carried out here; ObscureKeystrokeTiming may
 * hold what was typed for its next tick. While the pipe is full we
 * stop reading the tty; at the tty's end of file we close the pipe, so
 * the channel sends EOF.
 *
 * ~C (EnableEscapeCommandline yes) leaves raw mode, prompts "ssh> " and
 * reads one line with the tty's own echo and editing, the loop waiting
 * meanwhile as in ssh(1); the line goes to the forwardings
 * (fwd_client_command).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "clientsess_int.h"
#include "err.h"
#include "ev.h"
#include "fwd_client.h"
#include "log.h"
#include "mem.h"
#include "transport.h"

static void
say(struct csess *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
say(struct csess *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(s->err, buf, strlen(buf)) < 0)
		log_debug("escape: write: %s", strerror(errno));
}

void
csess_pipe_flush(struct csess *s)
{
	ssize_t n;
	int had = sbuf_len(s->pipebuf) > 0;

	while (sbuf_len(s->pipebuf) > 0 && s->pipe_w != -1) {
		n = write(s->pipe_w, sbuf_ptr(s->pipebuf),
		    sbuf_len(s->pipebuf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			sbuf_reset(s->pipebuf);
			break;
		}
		sbuf_consume(s->pipebuf, (size_t)n);
	}
	if (sbuf_len(s->pipebuf) > 0) {
		if (!had || !s->in_eof)
			csess_watch(s, s->pipe_w, EV_WRITE);
		if (!s->in_eof)
			csess_watch(s, s->in, 0);
		return;
	}
	csess_watch(s, s->pipe_w, 0);
	if (s->in_eof) {
		if (s->pipe_w != -1) {
			csess_watch(s, s->pipe_w, -1);
			close(s->pipe_w);
		}
		s->pipe_w = -1;
	} else if (had)
		csess_watch(s, s->in, EV_READ);
}

static void
set_in_eof(struct csess *s)
{
	if (s->in_eof)
		return;
	s->in_eof = 1;
	csess_watch(s, s->in, -1);
}

static void
suspend(struct csess *s, const char *ename)
{
	say(s, "%s^Z [suspend ssh]\r\n", ename);
	ttyraw_leave(&s->raw);
	(void)kill(getpid(), SIGTSTP);
	/* Here again after SIGCONT. */
	(void)ttyraw_enter(&s->raw, s->in);
	csess_window_change(s);
}

static void
background(struct csess *s, const char *ename)
{
	pid_t pid;

	ttyraw_leave(&s->raw);
	say(s, "%s& [backgrounded]\n", ename);
	if ((pid = fork()) == -1) {
		log_error("fork: %s", strerror(errno));
		return;
	}
	if (pid != 0)
		_exit(0);	/* the parent's part ends here, as in ssh(1) */
	/* The child serves on, with no more typed input. */
	set_in_eof(s);
	csess_pipe_flush(s);
}

static void
verbosity(struct csess *s, const char *ename, int up)
{
	int lv = log_level() + (up ? 1 : -1);

	if (lv < LOG_LEVEL_INFO)
		lv = LOG_LEVEL_INFO;
	if (lv > LOG_LEVEL_DEBUG3)
		lv = LOG_LEVEL_DEBUG3;
	log_set_level(lv);
	say(s, "%s%c [LogLevel %s]\r\n", ename, up ? 'v' : 'V',
	    log_level_name(lv));
}

#define CMDLINE_MAX	512

/*
 * The ~C line: typed-ahead bytes (rest, restlen) first, then the tty
 * in canonical mode. Returns how many of rest were used.
 */
static size_t
command_line(struct csess *s, const unsigned char *rest, size_t restlen)
{
	char line[CMDLINE_MAX];
	size_t len = 0, used = 0;
	struct pollfd pfd;
	unsigned char ch;
	int done = 0;
	ssize_t n;

	ttyraw_leave(&s->raw);
	say(s, "\r\nssh> ");
	while (used < restlen && !done) {
		ch = rest[used++];
		if (ch == '\r' || ch == '\n')
			done = 1;
		else if (len < sizeof(line) - 1)
			line[len++] = (char)ch;
	}
	while (!done) {
		pfd.fd = s->in;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			break;
		n = read(s->in, &ch, 1);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0 || ch == '\n' || ch == '\r')
			break;
		if (len < sizeof(line) - 1)
			line[len++] = (char)ch;
	}
	line[len] = '\0';
	fwd_client_command(s->a->fwd, line);
	x_wipe(line, sizeof(line));
	(void)ttyraw_enter(&s->raw, s->in);
	say(s, "\r\n");
	return used;
}

/* ~? offers ~C (before ~R, as ssh(1)) only when the line is on. */
static void
help(struct csess *s, const char *e)
{
	char *h = esc_help(s->esc.escape_char), *p;
	char key[16];

	say(s, "%s?\r\n", e);
	snprintf(key, sizeof(key), " %sR ", e);
	if (s->o->enable_escape_commandline > 0 &&
	    (p = strstr(h, key)) != NULL) {
		say(s, "%.*s", (int)(p - h), h);
		say(s, " %s%-3s - open a command line\r\n", e, "C");
		say(s, "%s", p);
	} else
		say(s, "%s", h);
	x_free(h);
}

static void
do_action(struct csess *s, enum esc_action act)
{
	char ebuf[8];
	const char *e = esc_char_name(s->esc.escape_char, ebuf);
	struct sbuf *b;

	switch (act) {
	case ESC_DISCONNECT:
		/* Quietly, as ssh(1) shows it: only the closing line. */
		csess_quit(s, 255);
		break;
	case ESC_SUSPEND:
		suspend(s, e);
		break;
	case ESC_LIST:
		say(s, "%s#\r\nThe following connections are open:\r\n",
		    e);
		if (s->chan != NULL)
			say(s, "  #%u client-session (r%u i%s o%s)\r\n",
			    s->chan->local_id, s->chan->remote_id,
			    s->chan->eof_sent ? "eof" : "open",
			    s->chan->eof_rcvd ? "eof" : "open");
		break;
	case ESC_BACKGROUND:
		background(s, e);
		break;
	case ESC_HELP:
		help(s, e);
		break;
	case ESC_VERBOSE_UP:
	case ESC_VERBOSE_DOWN:
		verbosity(s, e, act == ESC_VERBOSE_UP);
		break;
	case ESC_REKEY:
		log_verbose("Rekeying at the user's request");
		(void)tr_rekey(s->t);
		break;
	case ESC_BREAK:
		say(s, "%sB\r\n", e);
		if (s->chan != NULL && (b = chan_request_start(s->cs,
		    s->chan, "break", 0)) != NULL &&
		    sbuf_put_u32(b, 1000) == 0)
			(void)chan_msg_send(s->cs);
		break;
	case ESC_COMMAND:
		/* Enabled: csess_input reads the line. */
		if (s->o->enable_escape_commandline <= 0)
			say(s, "commandline disabled\r\n");
		break;
	case ESC_NONE:
		break;
	}
}

void
csess_input(struct csess *s)
{
	unsigned char buf[4096];
	enum esc_action act;
	ssize_t n;
	size_t off = 0, used;

	n = read(s->in, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		set_in_eof(s);
		csess_pipe_flush(s);
		return;
	}
	while (off < (size_t)n && !s->quit) {
		used = esc_feed(&s->esc, buf + off, (size_t)n - off,
		    s->pipebuf, &act);
		off += used;
		do_action(s, act);
		if (act == ESC_COMMAND && s->o->enable_escape_commandline > 0)
			off += command_line(s, buf + off, (size_t)n - off);
	}
	x_wipe(buf, sizeof(buf));
	csess_chaff_typed(s);
}
