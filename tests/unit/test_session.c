/*
 * test_session.c: session_serve() and the connection loop end to end, in
 * one process tree, over a socketpair.
 *
 * Both ends are the real transport (trpair.h: one fixed, quick set of
 * algorithms), so the test depends on transport.h only as any caller
 * does and a new transport function cannot break its link. Everything
 * above it is the real code: conn_loop, the channel table, the session
 * requests, fork/exec of real shell commands, reaping, exit status and
 * EOF/CLOSE ordering. The server runs in a forked process; the test is
 * the client and checks every message it gets, except the server's
 * hostkeys-00@openssh.com notice, which it drops as a client that does
 * not update host keys would.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "authopts.h"
#include "channel.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "session.h"
#include "testlib.h"
#include "transport.h"
#include "trpair.h"

/* ---- the two ends: the real transport, one key exchange each ---- */

static struct trp_host host;

static struct transport *
srv_end(int fd)
{
	return trp_end(fd, 1, &host);
}

/* ---- the client side, driven by the test ---- */

static struct transport *cli;

static void
c_send(uint8_t type, const char *fmt, ...)
{
	/* fmt: 'u' uint32, 'b' bool, 's' C string, 'S' sbuf (as string) */
	struct sbuf *b = tr_msg_start(cli, type);
	va_list ap;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		if (*fmt == 'u')
			sbuf_put_u32(b, va_arg(ap, uint32_t));
		else if (*fmt == 'b')
			sbuf_put_u8(b, (uint8_t)va_arg(ap, int));
		else if (*fmt == 's')
			sbuf_put_cstring(b, va_arg(ap, const char *));
		else if (*fmt == 'S')
			sbuf_put_stringb(b, va_arg(ap, struct sbuf *));
	}
	va_end(ap);
	tr_msg_send(cli);
}

/* 1 for the server's unsolicited list of its host keys. */
static int
hostkeys_notice(uint8_t type, const struct sbuf *m)
{
	struct sbuf *b;
	char *name = NULL;
	int want = 1, is;

	if (type != SSH2_MSG_GLOBAL_REQUEST)
		return 0;
	b = sbuf_from(sbuf_ptr(m), sbuf_len(m));
	is = sbuf_get_cstring(b, &name, NULL) == 0 &&
	    sbuf_get_bool(b, &want) == 0 && want == 0 &&
	    strcmp(name, "hostkeys-00@openssh.com") == 0;
	x_free(name);
	sbuf_free(b);
	return is;
}

/* Next message, pumping our output meanwhile; -1 on timeout/EOF. */
static int
c_recv(struct sbuf **mp)
{
	uint8_t type;
	int r;

	for (;;) {
		struct pollfd p = { tr_fd_in(cli), POLLIN, 0 };

		if ((r = tr_next_message(cli, &type, mp)) == 0) {
			if (hostkeys_notice(type, *mp))
				continue;
			return type;
		}
		if (r != ERR_AGAIN)
			return -1;
		if (tr_want_write(cli))
			p.events |= POLLOUT;
		if (poll(&p, 1, 10000) <= 0)
			return -1;
		if ((p.revents & POLLOUT) && tr_fd_write(cli) == ERR_SYSTEM)
			return -1;
		if ((p.revents & (POLLIN | POLLHUP)) &&
		    (r = tr_fd_read(cli)) != 0 && r != ERR_AGAIN)
			return -1;
	}
}

static uint32_t
c_open(uint32_t id, uint32_t window, uint32_t maxpkt, int *okp)
{
	struct sbuf *m;
	uint32_t rid = 0, me = 0, w, mp;
	int t;

	c_send(SSH2_MSG_CHANNEL_OPEN, "suuu", "session", id, window, maxpkt);
	t = c_recv(&m);
	*okp = t == SSH2_MSG_CHANNEL_OPEN_CONFIRMATION;
	if (*okp) {
		CHECK(sbuf_get_u32(m, &me) == 0 && me == id);
		CHECK(sbuf_get_u32(m, &rid) == 0);
		CHECK(sbuf_get_u32(m, &w) == 0 && w == CHAN_WINDOW);
		CHECK(sbuf_get_u32(m, &mp) == 0 && mp == CHAN_MAXPACKET);
	}
	return rid;
}

struct run {
	const char *cmd;		/* exec; NULL with subsystem set */
	const char *subsystem;
	const char *env_name, *env_value;
	int pty;
	struct sbuf *input;		/* sent as stdin, then EOF */
	int send_eof;
	const char *signal;		/* sent right after exec */
	uint32_t window, maxpkt;	/* what we offer */
	/* results */
	int req_ok;
	struct sbuf *out, *err;
	int exit_status;
	char *exit_signal;
	int order_ok;
	uint32_t biggest;
};

/* The requests before the command runs: env, pty-req and window-change,
 * then exec or subsystem. Whether the server started it. */
static int
session_start(struct run *rn, uint32_t rid)
{
	struct sbuf *m;
	int t;

	if (rn->env_name != NULL) {
		c_send(SSH2_MSG_CHANNEL_REQUEST, "usbss", rid, "env", 1,
		    rn->env_name, rn->env_value);
		CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_SUCCESS);
	}
	if (rn->pty) {
		struct sbuf *modes = sbuf_new();

		sbuf_put_u8(modes, 53);		/* ECHO off */
		sbuf_put_u32(modes, 0);
		sbuf_put_u8(modes, 0);
		c_send(SSH2_MSG_CHANNEL_REQUEST, "usbsuuuuS", rid, "pty-req",
		    1, "xterm-test", 80, 24, 0, 0, modes);
		sbuf_free(modes);
		CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_SUCCESS);
		c_send(SSH2_MSG_CHANNEL_REQUEST, "usbuuuu", rid,
		    "window-change", 0, 132, 50, 0, 0);
	}
	if (rn->subsystem != NULL)
		c_send(SSH2_MSG_CHANNEL_REQUEST, "usbs", rid, "subsystem", 1,
		    rn->subsystem);
	else
		c_send(SSH2_MSG_CHANNEL_REQUEST, "usbs", rid, "exec", 1,
		    rn->cmd);
	t = c_recv(&m);
	rn->req_ok = t == SSH2_MSG_CHANNEL_SUCCESS;
	if (!rn->req_ok) {
		CHECK(t == SSH2_MSG_CHANNEL_FAILURE);
		c_send(SSH2_MSG_CHANNEL_CLOSE, "u", rid);
		CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_CLOSE);
	}
	return rn->req_ok;
}

/* A request from the server: exit-status or exit-signal, never one that
 * wants a reply. */
static void
session_request(struct run *rn, struct sbuf *m, int *got_exitp)
{
	char *name = NULL;
	uint32_t v;
	int want;

	CHECK(sbuf_get_cstring(m, &name, NULL) == 0);
	CHECK(sbuf_get_bool(m, &want) == 0 && want == 0);
	if (name != NULL && strcmp(name, "exit-status") == 0) {
		CHECK(sbuf_get_u32(m, &v) == 0);
		rn->exit_status = (int)v;
		(*got_exitp)++;
	} else if (name != NULL && strcmp(name, "exit-signal") == 0) {
		int core;

		CHECK(sbuf_get_cstring(m, &rn->exit_signal, NULL) == 0);
		CHECK(sbuf_get_bool(m, &core) == 0);
		CHECK(sbuf_get_string(m, NULL, NULL) == 0);
		CHECK(sbuf_get_string(m, NULL, NULL) == 0);
		(*got_exitp)++;
	}
	x_free(name);
}

static void
run_session(struct run *rn)
{
	struct sbuf *m;
	uint32_t rid, id = 7, ch, win, consumed = 0, swin = CHAN_WINDOW;
	uint32_t v;
	int ok, t, got_eof = 0, got_exit = 0, done = 0;
	size_t sent = 0;

	rn->out = sbuf_new();
	rn->err = sbuf_new();
	rn->exit_status = -1;
	rn->order_ok = 1;
	win = rn->window;
	rid = c_open(id, rn->window, rn->maxpkt, &ok);
	CHECK(ok);
	if (!session_start(rn, rid))
		return;
	if (rn->signal != NULL)
		c_send(SSH2_MSG_CHANNEL_REQUEST, "usbs", rid, "signal", 0,
		    rn->signal);
	while (!done) {
		/* Feed stdin within the server's window. */
		while (rn->input != NULL && sent < sbuf_len(rn->input) &&
		    swin > 0 && tr_output_pending(cli) < 256 * 1024) {
			size_t n = sbuf_len(rn->input) - sent;
			struct sbuf *d;

			if (n > CHAN_MAXPACKET)
				n = CHAN_MAXPACKET;
			if (n > swin)
				n = swin;
			d = sbuf_from(sbuf_ptr(rn->input) + sent, n);
			c_send(SSH2_MSG_CHANNEL_DATA, "uS", rid, d);
			sbuf_free(d);
			sent += n;
			swin -= (uint32_t)n;
		}
		if (rn->send_eof && (rn->input == NULL ||
		    sent == sbuf_len(rn->input))) {
			c_send(SSH2_MSG_CHANNEL_EOF, "u", rid);
			rn->send_eof = 0;
		}
		if ((t = c_recv(&m)) < 0) {
			CHECK(!"timeout or connection lost");
			return;
		}
		if (t >= SSH2_MSG_CHANNEL_WINDOW_ADJUST &&
		    t <= SSH2_MSG_CHANNEL_FAILURE) {
			CHECK(sbuf_get_u32(m, &ch) == 0 && ch == id);
		}
		switch (t) {
		case SSH2_MSG_CHANNEL_WINDOW_ADJUST:
			CHECK(sbuf_get_u32(m, &v) == 0);
			swin += v;
			break;
		case SSH2_MSG_CHANNEL_DATA:
		case SSH2_MSG_CHANNEL_EXTENDED_DATA: {
			const unsigned char *p;
			size_t len;

			if (t == SSH2_MSG_CHANNEL_EXTENDED_DATA)
				CHECK(sbuf_get_u32(m, &v) == 0 && v == 1);
			CHECK(sbuf_get_string_direct(m, &p, &len) == 0);
			if (got_eof || len > rn->maxpkt || len > win)
				rn->order_ok = 0;
			if (len > rn->biggest)
				rn->biggest = (uint32_t)len;
			win -= (uint32_t)len;
			consumed += (uint32_t)len;
			sbuf_put(t == SSH2_MSG_CHANNEL_DATA ? rn->out :
			    rn->err, p, len);
			if (consumed >= rn->window / 2) {
				c_send(SSH2_MSG_CHANNEL_WINDOW_ADJUST, "uu",
				    rid, consumed);
				win += consumed;
				consumed = 0;
			}
			break;
		}
		case SSH2_MSG_CHANNEL_EOF:
			if (got_eof)
				rn->order_ok = 0;
			got_eof = 1;
			break;
		case SSH2_MSG_CHANNEL_REQUEST:
			session_request(rn, m, &got_exit);
			break;
		case SSH2_MSG_CHANNEL_CLOSE:
			if (!got_eof || got_exit != 1)
				rn->order_ok = 0;
			done = 1;
			break;
		default:
			CHECK(!"unexpected message");
			fprintf(stderr, "message %d\n", t);
			break;
		}
	}
	c_send(SSH2_MSG_CHANNEL_CLOSE, "u", rid);
}

static void
run_free(struct run *rn)
{
	sbuf_free(rn->out);
	sbuf_free(rn->err);
	x_free(rn->exit_signal);
}

static int
out_is(struct sbuf *b, const char *s)
{
	return sbuf_len(b) == strlen(s) && memcmp(sbuf_ptr(b), s, strlen(s)) == 0;
}

static void
test_exec_basic(void)
{
	struct run rn = { .cmd = "echo out; echo err >&2; printf %s "
	    "\"$LC_TEST\"; exit 3", .env_name = "LC_TEST", .env_value = "v1",
	    .window = 1 << 20, .maxpkt = 32768, .send_eof = 1 };

	run_session(&rn);
	CHECK(rn.req_ok);
	CHECK(out_is(rn.out, "out\nv1"));
	CHECK(out_is(rn.err, "err\n"));
	CHECK(rn.exit_status == 3);
	CHECK(rn.order_ok);
	run_free(&rn);
}

static void
test_env_and_vars(void)
{
	struct run rn = { .cmd = "echo \"$USER|$SSH_CLIENT|${SSH_TTY-none}"
	    "|$SSH_ORIGINAL_COMMAND|$FIXED\"", .window = 1 << 20,
	    .maxpkt = 32768 };
	char want[256];

	run_session(&rn);
	snprintf(want, sizeof(want), "%s|10.1.2.3 2222 0|none||set\n",
	    getpwuid(getuid())->pw_name);
	CHECK(out_is(rn.out, want));
	if (!out_is(rn.out, want))
		fprintf(stderr, "got %.*s", (int)sbuf_len(rn.out),
		    (const char *)sbuf_ptr(rn.out));
	CHECK(rn.exit_status == 0 && rn.order_ok);
	run_free(&rn);
}

/* Bulk data out with a small client window and packet size. */
static void
test_bulk_out(void)
{
	struct run rn = { .cmd = "head -c 3000000 /dev/zero",
	    .window = 100000, .maxpkt = 16384 };

	run_session(&rn);
	CHECK(sbuf_len(rn.out) == 3000000);
	CHECK(rn.biggest <= 16384 && rn.biggest > 0);
	CHECK(rn.order_ok && rn.exit_status == 0);
	run_free(&rn);
}

/* 5 MB through cat: needs the server's WINDOW_ADJUSTs to finish. */
static void
test_bulk_in(void)
{
	struct run rn = { .cmd = "cat", .window = 8u << 20, .maxpkt = 32768,
	    .send_eof = 1 };
	size_t i;

	rn.input = sbuf_new();
	for (i = 0; i < 5000000; i++)
		sbuf_put_u8(rn.input, (uint8_t)(i * 7 + i / 251));
	run_session(&rn);
	CHECK(sbuf_equal(rn.out, rn.input));
	CHECK(rn.order_ok && rn.exit_status == 0);
	sbuf_free(rn.input);
	run_free(&rn);
}

/* The child has 0, 1, 2 and nothing else (ls adds its own dir fd). */
static void
test_no_fd_leak(void)
{
	struct run rn = { .cmd = "ls /proc/self/fd | wc -l",
	    .window = 1 << 20, .maxpkt = 32768 };

	run_session(&rn);
	CHECK(out_is(rn.out, "4\n"));
	CHECK(rn.exit_status == 0 && rn.order_ok);
	run_free(&rn);
}

static void
test_signal(void)
{
	struct run rn = { .cmd = "exec sleep 20", .signal = "TERM",
	    .window = 1 << 20, .maxpkt = 32768 };

	run_session(&rn);
	CHECK(rn.exit_signal != NULL && strcmp(rn.exit_signal, "TERM") == 0);
	CHECK(rn.exit_status == -1 && rn.order_ok);
	run_free(&rn);
}

static void
test_pty(void)
{
	struct run rn = { .cmd = "echo \"$TERM\"; tty; stty size; stty -a | "
	    "grep -o -m1 -- -echo", .pty = 1, .window = 1 << 20,
	    .maxpkt = 32768 };

	run_session(&rn);
	CHECK(rn.req_ok && rn.order_ok && rn.exit_status == 0);
	sbuf_put_u8(rn.out, 0);
	if (getenv("TEST_VERBOSE"))
		fprintf(stderr, "pty: %d %d %d [%s]\n", rn.req_ok,
		    rn.order_ok, rn.exit_status,
		    (const char *)sbuf_ptr(rn.out));
	CHECK(strstr((const char *)sbuf_ptr(rn.out), "xterm-test\r\n") != NULL);
	CHECK(strstr((const char *)sbuf_ptr(rn.out), "/dev/pts/") != NULL);
	CHECK(strstr((const char *)sbuf_ptr(rn.out), "50 132\r\n") != NULL);
	CHECK(strstr((const char *)sbuf_ptr(rn.out), "-echo") != NULL);
	run_free(&rn);
}

/* A client that never answers: two probes, then a disconnect. */
static void
test_client_alive(void)
{
	struct sbuf *m;
	char *name;
	int sv[2], status, want, i, t;
	pid_t pid;
	time_t start = time(NULL);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return;
	if ((pid = fork()) == 0) {
		struct servconf sc;

		close(sv[0]);
		memset(&sc, 0, sizeof(sc));
		sc.max_sessions = 1;
		sc.client_alive_interval = 1;
		sc.client_alive_count_max = 2;
		_exit(session_serve(srv_end(sv[1]), &sc,
		    getpwuid(getuid()), NULL, "10.1.2.3", 2222) ==
		    ERR_CONN_TIMEOUT ? 0 : 1);
	}
	close(sv[1]);
	cli = trp_end(sv[0], 0, &host);
	for (i = 0; i < 2; i++) {
		CHECK(c_recv(&m) == SSH2_MSG_GLOBAL_REQUEST);
		name = NULL;
		CHECK(sbuf_get_cstring(m, &name, NULL) == 0 &&
		    strcmp(name, "keepalive@openssh.com") == 0);
		CHECK(sbuf_get_bool(m, &want) == 0 && want == 1);
		x_free(name);
	}
	t = c_recv(&m);
	CHECK(t == -1);		/* DISCONNECT, reported by the transport */
	CHECK(time(NULL) - start >= 2 && time(NULL) - start <= 6);
	tr_free(cli);
	cli = NULL;
	close(sv[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void
test_subsystem(void)
{
	struct run rn = { .subsystem = "test-sub", .window = 1 << 20,
	    .maxpkt = 32768 };
	struct run bad = { .subsystem = "nope", .window = 1 << 20,
	    .maxpkt = 32768 };

	run_session(&rn);
	CHECK(rn.req_ok && out_is(rn.out, "sub-ok\n"));
	run_free(&rn);
	run_session(&bad);
	CHECK(!bad.req_ok);
	run_free(&bad);
}

static void
test_refusals(void)
{
	struct sbuf *m;
	uint32_t rid, v;
	int ok, i;

	/* Unknown channel type. */
	c_send(SSH2_MSG_CHANNEL_OPEN, "suuu", "x11", 3, 1000, 1000);
	CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_OPEN_FAILURE);
	CHECK(sbuf_get_u32(m, &v) == 0 && v == 3);
	CHECK(sbuf_get_u32(m, &v) == 0 && v == SSH2_OPEN_UNKNOWN_CHANNEL_TYPE);
	/* Global requests. */
	c_send(SSH2_MSG_GLOBAL_REQUEST, "sb", "keepalive@openssh.com", 1);
	CHECK(c_recv(&m) == SSH2_MSG_REQUEST_FAILURE);
	c_send(SSH2_MSG_GLOBAL_REQUEST, "sb", "tcpip-forward", 1);
	CHECK(c_recv(&m) == SSH2_MSG_REQUEST_FAILURE);
	/* Unknown channel request, disallowed env. */
	rid = c_open(1, 1000, 1000, &ok);
	CHECK(ok);
	c_send(SSH2_MSG_CHANNEL_REQUEST, "usb", rid, "x11-req", 1);
	CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_FAILURE);
	c_send(SSH2_MSG_CHANNEL_REQUEST, "usbss", rid, "env", 1, "PATH", "/x");
	CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_FAILURE);
	/* MaxSessions is 3: two more fit, the fourth does not. */
	for (i = 0; i < 3; i++) {
		(void)c_open(10 + (uint32_t)i, 1000, 1000, &ok);
		CHECK(ok == (i < 2));
	}
	c_send(SSH2_MSG_CHANNEL_CLOSE, "u", rid);
	CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_CLOSE);
	CHECK(sbuf_get_u32(m, &v) == 0 && v == 1);
	/* Close the other two (server ids 1 and 2 after id 0 freed...). */
	for (i = 0; i < 2; i++) {
		c_send(SSH2_MSG_CHANNEL_CLOSE, "u", (uint32_t)(rid + 1 + i));
		CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_CLOSE);
	}
}

/*
 * Forced command from the key (authopts), no-pty, and (as root) running
 * as another user: uid, groups and the chdir fallback for a missing home.
 */
static void
test_forced_and_user(void)
{
	struct passwd *nobody = geteuid() == 0 ? getpwnam("nobody") : NULL;
	struct passwd pw = *(nobody != NULL ? nobody : getpwuid(getuid()));
	struct sbuf *m;
	struct run rn = { .cmd = "client-cmd", .window = 1 << 20,
	    .maxpkt = 32768 };
	char want[256];
	int sv[2], status, ok;
	uint32_t rid;
	pid_t pid;

	pw.pw_shell = (char *)"/bin/sh";
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return;
	if ((pid = fork()) == 0) {
		struct servconf sc;
		struct authopts ao;

		close(sv[0]);
		memset(&sc, 0, sizeof(sc));
		sc.max_sessions = 2;
		sc.permit_tty = 1;
		memset(&ao, 0, sizeof(ao));
		ao.force_command = (char *)"echo \"forced:$SSH_ORIGINAL_COMMAND"
		    "\"; id -u; id -G; pwd";
		ao.permit_pty = 0;
		_exit(session_serve(srv_end(sv[1]), &sc, &pw, &ao,
		    "10.1.2.3", 2222) == 0 ? 0 : 1);
	}
	close(sv[1]);
	cli = trp_end(sv[0], 0, &host);
	rid = c_open(1, 1000, 1000, &ok);
	CHECK(ok);
	c_send(SSH2_MSG_CHANNEL_REQUEST, "usbsuuuus", rid, "pty-req", 1,
	    "xterm", 80, 24, 0, 0, "");
	CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_FAILURE);
	c_send(SSH2_MSG_CHANNEL_CLOSE, "u", rid);
	CHECK(c_recv(&m) == SSH2_MSG_CHANNEL_CLOSE);

	run_session(&rn);
	if (nobody != NULL)
		snprintf(want, sizeof(want), "forced:client-cmd\n%u\n%u\n/\n",
		    (unsigned)pw.pw_uid, (unsigned)pw.pw_gid);
	else
		snprintf(want, sizeof(want), "forced:client-cmd\n%u\n",
		    (unsigned)pw.pw_uid);
	CHECK(rn.req_ok && rn.exit_status == 0 && rn.order_ok);
	sbuf_put_u8(rn.out, 0);
	CHECK(strncmp((const char *)sbuf_ptr(rn.out), want,
	    strlen(want)) == 0);
	if (getenv("TEST_VERBOSE"))
		fprintf(stderr, "forced: [%s]\n", (const char *)sbuf_ptr(rn.out));
	if (nobody != NULL) {
		sbuf_put_u8(rn.err, 0);
		CHECK(strstr((const char *)sbuf_ptr(rn.err),
		    "Could not chdir to home directory") != NULL ||
		    access(pw.pw_dir, F_OK) == 0);
	}
	run_free(&rn);
	tr_free(cli);
	cli = NULL;
	close(sv[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * The cap on "env" requests per session: the 257th variable is refused,
 * and the log says why (too many env vars), not that its name was
 * disallowed.
 */
static void
test_env_cap(void)
{
	char path[] = "/tmp/test_session_log.XXXXXX", name[32], line[512];
	struct sbuf *m;
	int sv[2], status, ok, i, nok = 0, capped = 0, disallowed = 0;
	uint32_t rid;
	pid_t pid;
	FILE *f;

	if ((i = mkstemp(path)) == -1)
		return;
	close(i);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return;
	if ((pid = fork()) == 0) {
		struct servconf sc;
		static char accept[] = "LC_*";

		close(sv[0]);
		log_set_level(LOG_LEVEL_DEBUG1);
		(void)log_to_file(path);
		memset(&sc, 0, sizeof(sc));
		sc.max_sessions = 1;
		sc.accept_env[0] = accept;
		sc.naccept_env = 1;
		_exit(session_serve(srv_end(sv[1]), &sc,
		    getpwuid(getuid()), NULL, "10.1.2.3", 2222) == 0 ? 0 : 1);
	}
	close(sv[1]);
	cli = trp_end(sv[0], 0, &host);
	rid = c_open(1, 1000, 1000, &ok);
	CHECK(ok);
	for (i = 0; i < 260; i++) {
		snprintf(name, sizeof(name), "LC_%d", i);
		c_send(SSH2_MSG_CHANNEL_REQUEST, "usbss", rid, "env", 1, name,
		    "v");
		if (c_recv(&m) == SSH2_MSG_CHANNEL_SUCCESS)
			nok++;
	}
	CHECK(nok == 256);
	tr_free(cli);
	cli = NULL;
	close(sv[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL) {
			if (strstr(line, "Ignoring env request LC_2") != NULL &&
			    strstr(line, ": too many env vars") != NULL)
				capped++;
			if (strstr(line, "disallowed name") != NULL)
				disallowed++;
		}
		fclose(f);
	}
	unlink(path);
	CHECK(capped == 4);
	CHECK(disallowed == 0);
}

int
main(void)
{
	int sv[2], status;
	pid_t pid;

	log_init("test_session", LOG_LEVEL_ERROR, 0, 1);
	CHECK_OK(key_generate(KEY_ED25519, 0, &host.key));
	CHECK_OK(key_demote(host.key, &host.pub));
	if (host.pub == NULL)
		return TEST_DONE();
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	if ((pid = fork()) == 0) {
		struct servconf sc;
		struct passwd *pw = getpwuid(getuid());
		static char sub_name[] = "test-sub", sub_cmd[] = "echo sub-ok";
		static char accept[] = "LC_*", setenv_[] = "FIXED=set";
		struct transport *t;
		int r;

		close(sv[0]);
		memset(&sc, 0, sizeof(sc));
		sc.max_sessions = 3;
		sc.permit_tty = 1;
		sc.accept_env[0] = accept;
		sc.naccept_env = 1;
		sc.set_env[0] = setenv_;
		sc.nset_env = 1;
		sc.subsystems[0].name = sub_name;
		sc.subsystems[0].command = sub_cmd;
		sc.nsubsystems = 1;
		t = srv_end(sv[1]);
		r = session_serve(t, &sc, pw, NULL, "10.1.2.3", 2222);
		_exit(r == 0 ? 0 : 10 - r);
	}
	close(sv[1]);
	cli = trp_end(sv[0], 0, &host);
	test_refusals();
	test_exec_basic();
	test_env_and_vars();
	test_bulk_out();
	test_bulk_in();
	test_no_fd_leak();
	test_signal();
	test_pty();
	test_subsystem();
	/* Closing the connection ends session_serve with 0. */
	tr_flush(cli);
	tr_free(cli);
	cli = NULL;
	close(sv[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	test_client_alive();
	test_forced_and_user();
	test_env_cap();
	key_free(host.key);
	key_free(host.pub);
	return TEST_DONE();
}
