/*
 * test_chantimeout.c: ChannelTimeout and UnusedConnectionTimeout.
 *
 * The lookup (src/server/timeouts.c): patterns in order, OpenSSH's names
 * for the wire's channel types, "global" apart. Then the bookkeeping of
 * the connection layer, over a real transport: a forked child serves
 * session_serve() with the settings of a round, and this process opens
 * sessions as a client. An idle session is closed after its interval
 * (EOF and CLOSE, no exit status) while one moving data every 250 ms
 * stays until its command ends; under a global timeout the idle one
 * lives as long as the other moves data; "session" alone does not apply
 * once a command runs (the channel is session:command then, as in
 * OpenSSH). With UnusedConnectionTimeout the server ends the connection,
 * without a word, a second after its last channel went, and not while
 * one was open. The server's log lines are OpenSSH's.
 */
#include <fcntl.h>
#include <pwd.h>
#include <time.h>
#include <unistd.h>

#include "channel.h"
#include "ev.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "session.h"
#include "testlib.h"
#include "timeouts.h"
#include "trpair.h"

static void
test_lookup(void)
{
	struct servconf sc;
	char *words[] = { "session:*=5", "direct-*=1m", "global=7",
	    "agent-connection=9", "x11-connection=11", "tun-connection=13",
	    "*=2", "global=8" };

	memset(&sc, 0, sizeof(sc));
	CHECK(srv_channel_timeout(&sc, "session") == 0);
	CHECK(srv_global_timeout(&sc) == 0);
	memcpy(sc.channel_timeouts, words, sizeof(words));
	sc.nchannel_timeouts = sizeof(words) / sizeof(words[0]);
	CHECK(srv_channel_timeout(&sc, "session:shell") == 5);
	CHECK(srv_channel_timeout(&sc, "session:subsystem:sftp") == 5);
	/* The first match wins: "*" catches plain "session". */
	CHECK(srv_channel_timeout(&sc, "session") == 2);
	CHECK(srv_channel_timeout(&sc, "direct-tcpip") == 60);
	CHECK(srv_channel_timeout(&sc, "direct-streamlocal@openssh.com") ==
	    60);
	CHECK(srv_channel_timeout(&sc, "forwarded-tcpip") == 2);
	CHECK(srv_channel_timeout(&sc, "auth-agent@openssh.com") == 9);
	CHECK(srv_channel_timeout(&sc, "x11") == 11);
	CHECK(srv_channel_timeout(&sc, "tun@openssh.com") == 13);
	/* "global" is no channel's type, and the last one counts. */
	CHECK(srv_channel_timeout(&sc, "global") == 2);
	CHECK(srv_global_timeout(&sc) == 8);
	sc.nchannel_timeouts = 2;
	CHECK(srv_channel_timeout(&sc, "global") == 0);
	CHECK(srv_channel_timeout(&sc, "Session:shell") == 0);
	CHECK(srv_global_timeout(&sc) == 0);
}

/* ---- over a transport ---- */

#define MAX_SESS	2
#define TICKS		10		/* busy input: one line each 250 ms */
#define MAX_TICKS	120		/* ... until the command echoes */

struct sess {
	const char *cmd;
	int busy;			/* fed by the ticker, else idle */
	int out;			/* what came back (a temporary file) */
	int in[2];			/* the busy one's input pipe */
	int exit_status;		/* -1: none came */
	int64_t opened, closed;		/* ev_now_ms() */
	int ticks;
	struct ev_timer tick;		/* the busy one's input */
};

struct round {
	const char *name;
	char *words[4];			/* ChannelTimeout */
	int unused;			/* UnusedConnectionTimeout */
	struct sess s[MAX_SESS];
	size_t n;
	char log[64];
};

static int
serve(struct transport *t, void *arg)
{
	struct round *rd = arg;
	struct servconf sc;
	size_t i;
	int r;

	log_init("test_chantimeout", LOG_LEVEL_DEBUG2, 0, 0);
	if (log_to_file(rd->log) != 0)
		return 20;
	memset(&sc, 0, sizeof(sc));
	sc.max_sessions = 10;
	for (i = 0; i < 4 && rd->words[i] != NULL; i++)
		sc.channel_timeouts[sc.nchannel_timeouts++] = rd->words[i];
	sc.unused_connection_timeout = rd->unused;
	r = session_serve(t, &sc, getpwuid(getuid()), NULL, "127.0.0.1",
	    40000);
	return r == ERR_CONN_TIMEOUT ? 10 : r == 0 ? 0 : 11;
}

static void
cl_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct sess *s = c->ctx;
	struct sbuf *b;

	if (!ok || (b = chan_request_start(cs, c, "exec", 0)) == NULL ||
	    sbuf_put_cstring(b, s->cmd) != 0 || chan_msg_send(cs) != 0)
		return;
	s->opened = ev_now_ms();
	/* The set closes what it is given: out stays ours to read. */
	chan_set_fds(c, s->busy ? s->in[0] : -1, dup(s->out), -1,
	    CHAN_EFD_NONE, 0);
	if (!s->busy)
		return;
	s->in[0] = -1;			/* the set's now */
	/* Input from now on: it flows while the command starts. */
	ev_timer_start(chan_set_ev(cs), &s->tick, 250, 250);
}

static int
cl_request(struct chan_set *cs, struct chan *c, const char *name,
    int want_reply, struct sbuf *body)
{
	uint32_t v;

	if (strcmp(name, "exit-status") != 0 || sbuf_get_u32(body, &v) != 0)
		return ERR_FEATURE_UNSUPPORTED;
	((struct sess *)c->ctx)->exit_status = (int)v;
	return 0;
}

static void
cl_free(struct chan_set *cs, struct chan *c)
{
	((struct sess *)c->ctx)->closed = ev_now_ms();
}

static const struct chan_ops cl_ops = {
	.type = "session",
	.opened = cl_opened,
	.request = cl_request,
	.free = cl_free,
};

static size_t
out_len(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (size_t)st.st_size : 0;
}

/*
 * A busy session's input: a line per tick, then EOF; but not before
 * the command echoed something, however slowly it started (a slow start
 * after the last line would be idle time).
 */
static void
tick_cb(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct sess *s = arg;

	if (s->ticks < TICKS || (out_len(s->out) == 0 &&
	    s->ticks < MAX_TICKS)) {
		(void)!write(s->in[1], "x\n", 2);
		s->ticks++;
		return;
	}
	close(s->in[1]);
	s->in[1] = -1;
	ev_timer_stop(ev, tm);
}

/* Seconds until the server closes the connection (EOF), at most 8. */
static double
wait_closed(int fd)
{
	struct timespec a, b;
	char buf[4096];
	ssize_t n;

	clock_gettime(CLOCK_MONOTONIC, &a);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	for (;;) {
		struct timeval tv = { 8, 0 };

		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if ((n = read(fd, buf, sizeof(buf))) <= 0)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return n == 0 ? (double)(b.tv_sec - a.tv_sec) +
	    (double)(b.tv_nsec - a.tv_nsec) / 1e9 : 99;
}

static int
logged(const struct round *rd, const char *line)
{
	char *text = test_read_file(rd->log);
	int hit = strstr(text, line) != NULL;

	if (!hit)
		fprintf(stderr, "%s: no \"%s\" in:\n%s\n", rd->name, line,
		    text);
	free(text);
	return hit;
}

/*
 * Run rd: the sessions at once until all are gone; then, with an
 * unused timeout, how long the server takes to hang up (*waitp). The
 * server's exit: 0 peer gone, 10 timed out (unused), else broken.
 */
static int
run(struct round *rd, double *waitp)
{
	struct trp_host h;
	struct trp_peer p;
	struct chan_set *cs;
	struct chan *c;
	char tmpl[] = "/tmp/test_chantimeout.XXXXXX";
	size_t i;
	int fd;

	*waitp = -1;
	CHECK((fd = mkstemp(tmpl)) != -1);
	close(fd);
	snprintf(rd->log, sizeof(rd->log), "%s", tmpl);
	CHECK_OK(key_generate(KEY_ED25519, 0, &h.key));
	CHECK_OK(key_demote(h.key, &h.pub));
	h.sign = NULL;
	CHECK_OK(trp_start(&p, &h, 1, serve, rd));
	cs = chan_set_new(p.t);
	chan_set_exit_when_idle(cs, 1);
	for (i = 0; i < rd->n; i++) {
		struct sess *s = &rd->s[i];
		FILE *f = tmpfile();

		s->exit_status = -1;
		s->in[0] = s->in[1] = -1;
		s->out = f != NULL ? dup(fileno(f)) : -1;
		if (f != NULL)
			fclose(f);
		if (s->busy)
			CHECK(pipe(s->in) == 0);
		ev_timer_init(&s->tick, tick_cb, s);
		CHECK_OK(chan_open(cs, &cl_ops, s, NULL, &c));
	}
	CHECK_OK(conn_loop(p.t, cs));
	if (rd->unused > 0)
		*waitp = wait_closed(p.fd);
	for (i = 0; i < rd->n; i++) {
		ev_timer_stop(chan_set_ev(cs), &rd->s[i].tick);
		if (rd->s[i].in[1] != -1)
			close(rd->s[i].in[1]);
	}
	chan_set_free(cs);
	key_free(h.key);
	key_free(h.pub);
	return trp_finish(&p);
}

static double
secs(int64_t a, int64_t b)
{
	return (double)(b - a) / 1000;
}

static void
finish(struct round *rd)
{
	size_t i;

	for (i = 0; i < rd->n; i++)
		close(rd->s[i].out);
	if (getenv("KEEP") != NULL)
		fprintf(stderr, "%s: server log kept in %s\n", rd->name,
		    rd->log);
	else
		unlink(rd->log);
}

/* An idle session and a busy one; the connection unused afterwards. */
static void
test_channel_and_unused(void)
{
	struct round rd = { .name = "session:*", .words = { "session:*=1" },
	    .unused = 1, .n = 2,
	    .s = { { .cmd = "sleep 10" }, { .cmd = "cat", .busy = 1 } } };
	double wait;
	int st;

	st = run(&rd, &wait);
	/* Closed, no exit status, about a second after it opened. */
	CHECK(rd.s[0].exit_status == -1);
	CHECK(rd.s[0].closed > 0 && secs(rd.s[0].opened, rd.s[0].closed) >=
	    0.9 && secs(rd.s[0].opened, rd.s[0].closed) < 5);
	/* The busy one ran to its end: every line back, cat's status. */
	CHECK(rd.s[1].exit_status == 0);
	CHECK(out_len(rd.s[1].out) == 2 * (size_t)rd.s[1].ticks);
	CHECK(secs(rd.s[1].opened, rd.s[1].closed) >= 2.5);
	/* Hung up on, without a DISCONNECT, a second after the last. */
	CHECK(st == 10);
	CHECK(wait >= 0.8 && wait < 5);
	CHECK(logged(&rd, "channel 0: closing after 1 seconds of "
	    "inactivity"));
	CHECK(logged(&rd, "terminating inactive connection from user "));
	CHECK(logged(&rd, " 127.0.0.1 port 40000"));
	finish(&rd);
}

/* global: any channel's traffic keeps all; the idle one goes after. */
static void
test_global(void)
{
	struct round rd = { .name = "global", .words = { "global=1" },
	    .n = 2,
	    .s = { { .cmd = "sleep 10" }, { .cmd = "cat", .busy = 1 } } };
	double wait;
	int st;

	st = run(&rd, &wait);
	CHECK(rd.s[1].exit_status == 0);
	CHECK(out_len(rd.s[1].out) == 2 * (size_t)rd.s[1].ticks);
	CHECK(rd.s[0].exit_status == -1);
	/* Not before the busy one's last data, then a second later. */
	CHECK(rd.s[0].closed >= rd.s[1].closed - 300);
	CHECK(secs(rd.s[0].opened, rd.s[0].closed) >= 2.5 &&
	    secs(rd.s[0].opened, rd.s[0].closed) < 8);
	CHECK(st == 0);
	CHECK(logged(&rd, "channel 0: closing after 0 seconds of "
	    "inactivity"));
	finish(&rd);
}

/* "session" alone: a running command is session:command, not limited. */
static void
test_session_label(void)
{
	struct round rd = { .name = "session", .words = { "session=1" },
	    .n = 1, .s = { { .cmd = "sleep 2; echo ok" } } };
	double wait;
	int st;

	st = run(&rd, &wait);
	CHECK(rd.s[0].exit_status == 0);
	CHECK(out_len(rd.s[0].out) == 3);
	CHECK(st == 0);
	CHECK(logged(&rd, "labelled session:command (inactive timeout 0)"));
	finish(&rd);
}

int
main(void)
{
	log_init("test_chantimeout", LOG_LEVEL_ERROR, 0, 1);
	test_lookup();
	test_channel_and_unused();
	test_global();
	test_session_label();
	return TEST_DONE();
}
