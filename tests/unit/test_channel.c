/*
 * test_channel.c: the pure parts of the connection and session layers:
 * window arithmetic (including a simulated bulk transfer), terminal-mode
 * decoding (RFC 4254 section 8), signal names, the child environment,
 * and the per-connection limit on refusal log lines.
 */
#include <sys/socket.h>

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <termios.h>
#include <unistd.h>

#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "session.h"
#include "testlib.h"
#include "transport.h"

static void
test_send_limit(void)
{
	CHECK(chan_send_limit(100, 32768, CHAN_READ_MAX) == 100);
	CHECK(chan_send_limit(CHAN_WINDOW, 32768, CHAN_READ_MAX) == 32768);
	CHECK(chan_send_limit(0, 32768, CHAN_READ_MAX) == 0);
	CHECK(chan_send_limit(CHAN_WINDOW, 0, CHAN_READ_MAX) == 0);
	CHECK(chan_send_limit(UINT32_MAX, UINT32_MAX, 4096) == 4096);
	CHECK(chan_send_limit(5000, UINT32_MAX, CHAN_READ_MAX) == 5000);
}

static void
test_window_math(void)
{
	uint32_t w = 1000, add;

	CHECK_OK(chan_window_consume(&w, 400));
	CHECK(w == 600);
	CHECK_OK(chan_window_consume(&w, 600));
	CHECK(w == 0);
	CHECK_ERR(chan_window_consume(&w, 1), ERR_PROTOCOL);
	CHECK(w == 0);
	w = 10;
	CHECK_ERR(chan_window_consume(&w, 11), ERR_PROTOCOL);
	CHECK(w == 10);

	/* Adjust only once half the window has been consumed. */
	CHECK(chan_adjust_due(499, 501, 1000, 0, &add) == 0 && add == 0);
	CHECK(chan_adjust_due(500, 500, 1000, 0, &add) == 1 && add == 500);
	CHECK(chan_adjust_due(1000, 0, 1000, 0, &add) == 1 && add == 1000);
	CHECK(chan_adjust_due(0, 1000, 1000, 0, &add) == 0);
	/* Not after the write side closed. */
	CHECK(chan_adjust_due(800, 200, 1000, 1, &add) == 0 && add == 0);
	/* Never offer more than the maximum in all. */
	CHECK(chan_adjust_due(800, 300, 1000, 0, &add) == 0);

	w = UINT32_MAX - 10;
	CHECK_OK(chan_window_add(&w, 10));
	CHECK(w == UINT32_MAX);
	CHECK_ERR(chan_window_add(&w, 1), ERR_PROTOCOL);
	CHECK(w == UINT32_MAX);
	w = 0;
	CHECK_OK(chan_window_add(&w, CHAN_WINDOW));
	CHECK(w == CHAN_WINDOW);
}

/*
 * A sender and receiver exchanging 20 MiB with the receiver writing out
 * in odd-sized pieces: the sender never exceeds the window or the packet
 * size, the window never goes negative, and the transfer never stalls.
 */
static void
test_bulk_simulation(void)
{
	uint32_t rwin = CHAN_WINDOW;	/* sender's view of the window */
	uint32_t lwin = CHAN_WINDOW;	/* receiver's window */
	uint32_t consumed = 0, buffered = 0, add;
	uint64_t total = 20u * 1024 * 1024, sent = 0, written = 0;
	int violations = 0, stalls = 0, adjusts = 0, rounds = 0;

	while (written < total && rounds < 10000000) {
		size_t n = chan_send_limit(rwin, CHAN_MAXPACKET,
		    CHAN_READ_MAX);
		uint32_t out;

		rounds++;
		if (n > total - sent)
			n = (size_t)(total - sent);
		if (n > CHAN_MAXPACKET)
			violations++;
		if (n > 0) {
			rwin -= (uint32_t)n;
			sent += n;
			if (chan_window_consume(&lwin, (uint32_t)n) != 0)
				violations++;
			buffered += (uint32_t)n;
		}
		out = buffered < 7001 ? buffered : 7001;
		buffered -= out;
		consumed += out;
		written += out;
		if (chan_adjust_due(consumed, lwin, CHAN_WINDOW, 0, &add)) {
			lwin += add;
			consumed = 0;
			if (chan_window_add(&rwin, add) != 0)
				violations++;
			adjusts++;
		}
		if (n == 0 && out == 0)
			stalls++;
		if (buffered > CHAN_WINDOW)
			violations++;
	}
	CHECK(written == total);
	CHECK(violations == 0);
	CHECK(stalls == 0);
	/* Roughly one adjust per half window, not one per packet. */
	CHECK(adjusts >= (int)(total / CHAN_WINDOW) &&
	    adjusts <= (int)(total / (CHAN_WINDOW / 2)) + 1);
}

static size_t
put_mode(unsigned char *p, uint8_t op, uint32_t v)
{
	p[0] = op;
	p[1] = (unsigned char)(v >> 24);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 8);
	p[4] = (unsigned char)v;
	return 5;
}

static void
test_ttymodes(void)
{
	unsigned char m[128];
	struct termios tio;
	size_t n = 0, cut;

	memset(&tio, 0, sizeof(tio));
	tio.c_iflag = ICRNL;
	tio.c_lflag = ISIG;
	tio.c_oflag = ONLCR;
	tio.c_cflag = 0;
	n += put_mode(m + n, 1, 3);		/* VINTR ^C */
	n += put_mode(m + n, 5, 4);		/* VEOF ^D */
	n += put_mode(m + n, 3, 255);		/* VERASE disabled */
	n += put_mode(m + n, 36, 0);		/* ICRNL off */
	n += put_mode(m + n, 53, 1);		/* ECHO on */
	n += put_mode(m + n, 51, 1);		/* ICANON on */
	n += put_mode(m + n, 50, 0);		/* ISIG off */
	n += put_mode(m + n, 70, 1);		/* OPOST on */
	n += put_mode(m + n, 72, 0);		/* ONLCR off */
	n += put_mode(m + n, 91, 1);		/* CS8 */
	n += put_mode(m + n, 99, 1);		/* unknown: skipped */
	n += put_mode(m + n, 128, 38400);	/* ISPEED */
	n += put_mode(m + n, 129, 9600);	/* OSPEED */
	m[n++] = 0;				/* TTY_OP_END */
	n += put_mode(m + n, 53, 0);		/* after END: ignored */
	CHECK_OK(ttymodes_apply(&tio, m, n));
	CHECK(tio.c_cc[VINTR] == 3);
	CHECK(tio.c_cc[VEOF] == 4);
	CHECK(tio.c_cc[VERASE] == _POSIX_VDISABLE);
	CHECK((tio.c_iflag & ICRNL) == 0);
	CHECK((tio.c_lflag & ECHO) != 0);
	CHECK((tio.c_lflag & ICANON) != 0);
	CHECK((tio.c_lflag & ISIG) == 0);
	CHECK((tio.c_oflag & OPOST) != 0);
	CHECK((tio.c_oflag & ONLCR) == 0);
	CHECK((tio.c_cflag & CSIZE) == CS8);
	/* Linux keeps one speed for both directions: the last one wins. */
	CHECK(cfgetospeed(&tio) == B9600);
	n = put_mode(m, 128, 38400);
	CHECK_OK(ttymodes_apply(&tio, m, n));
	CHECK(cfgetispeed(&tio) == B38400);
	n = put_mode(m, 128, 12345);		/* not a rate: ignored */
	CHECK_OK(ttymodes_apply(&tio, m, n));
	CHECK(cfgetispeed(&tio) == B38400);

	/* An opcode of 160 or more ends the parse. */
	n = 0;
	n += put_mode(m + n, 53, 0);
	m[n++] = 160;
	n += put_mode(m + n, 51, 0);
	tio.c_lflag = ECHO | ICANON;
	CHECK_OK(ttymodes_apply(&tio, m, n));
	CHECK((tio.c_lflag & ECHO) == 0);
	CHECK((tio.c_lflag & ICANON) != 0);

	/* Cut short: what came before applies, then an error. */
	n = 0;
	n += put_mode(m + n, 53, 1);
	n += put_mode(m + n, 51, 0);
	cut = n - 2;
	tio.c_lflag = ICANON;
	CHECK_ERR(ttymodes_apply(&tio, m, cut), ERR_MESSAGE_INCOMPLETE);
	CHECK((tio.c_lflag & ECHO) != 0);
	CHECK((tio.c_lflag & ICANON) != 0);
	/* Empty string: nothing changes. */
	CHECK_OK(ttymodes_apply(&tio, m, 0));

	/* CS7/CS8 set the CSIZE field; CS7 on with CS8 off must give CS7. */
	n = 0;
	n += put_mode(m + n, 90, 1);
	n += put_mode(m + n, 91, 0);
	m[n++] = 0;
	tio.c_cflag = CS8 | CREAD;
	CHECK_OK(ttymodes_apply(&tio, m, n));
	CHECK((tio.c_cflag & CSIZE) == CS7);
	CHECK((tio.c_cflag & CREAD) != 0);

	{
		speed_t sp;

		CHECK_OK(ttymodes_speed(115200, &sp));
		CHECK(sp == B115200);
		CHECK_ERR(ttymodes_speed(12345, &sp), ERR_NOT_FOUND);
	}
}

static void
test_signals(void)
{
	CHECK(sess_signal_number("TERM") == SIGTERM);
	CHECK(sess_signal_number("INT") == SIGINT);
	CHECK(sess_signal_number("HUP") == SIGHUP);
	CHECK(sess_signal_number("KILL") == SIGKILL);
	CHECK(sess_signal_number("USR2") == SIGUSR2);
	CHECK(sess_signal_number("SIGTERM") == -1);
	CHECK(sess_signal_number("term") == -1);
	CHECK(sess_signal_number("") == -1);
	CHECK_STR(sess_signal_name(SIGSEGV), "SEGV");
	CHECK_STR(sess_signal_name(SIGQUIT), "QUIT");
	CHECK_STR(sess_signal_name(SIGWINCH), "SIG@openssh.com");
}

static void
test_env(void)
{
	struct sess_env e = { NULL, 0 };

	sess_env_set(&e, "USER", "alice");
	sess_env_set(&e, "USERNAME", "x");
	sess_env_set(&e, "HOME", "/home/alice");
	CHECK(e.n == 3);
	CHECK_STR(sess_env_get(&e, "USER"), "alice");
	CHECK_STR(sess_env_get(&e, "USERNAME"), "x");
	sess_env_set(&e, "USER", "bob");
	CHECK(e.n == 3);
	CHECK_STR(sess_env_get(&e, "USER"), "bob");
	CHECK_STR(sess_env_get(&e, "USERNAME"), "x");
	CHECK(sess_env_get(&e, "USE") == NULL);
	CHECK(sess_env_put(&e, "LANG=C.UTF-8") == 0);
	CHECK(sess_env_put(&e, "A=b=c") == 0);
	CHECK_STR(sess_env_get(&e, "A"), "b=c");
	CHECK(sess_env_put(&e, "=oops") == ERR_INVALID_FORMAT);
	CHECK(sess_env_put(&e, "NOEQUALS") == ERR_INVALID_FORMAT);
	CHECK(e.n == 5);
	CHECK(e.v[e.n] == NULL);
	CHECK_STR(e.v[0], "USER=bob");
	sess_env_free(&e);
	CHECK(e.n == 0 && e.v == NULL);
}

static void
test_accept_env(void)
{
	struct servconf sc;
	char p1[] = "LANG", p2[] = "LC_*", p3[] = "GIT_?X";

	memset(&sc, 0, sizeof(sc));
	CHECK(sess_env_acceptable(&sc, "LANG") == 0);
	sc.accept_env[0] = p1;
	sc.accept_env[1] = p2;
	sc.accept_env[2] = p3;
	sc.naccept_env = 3;
	CHECK(sess_env_acceptable(&sc, "LANG") == 1);
	CHECK(sess_env_acceptable(&sc, "LANGUAGE") == 0);
	CHECK(sess_env_acceptable(&sc, "LC_ALL") == 1);
	CHECK(sess_env_acceptable(&sc, "LC_") == 1);
	CHECK(sess_env_acceptable(&sc, "lc_all") == 0);
	CHECK(sess_env_acceptable(&sc, "GIT_AX") == 1);
	CHECK(sess_env_acceptable(&sc, "GIT_X") == 0);
	CHECK(sess_env_acceptable(&sc, "PATH") == 0);
	CHECK(sess_env_acceptable(&sc, "LD_PRELOAD") == 0);
	CHECK(sess_env_acceptable(&sc, "") == 0);
	CHECK(sess_env_acceptable(&sc, "LC_X=1") == 0);
}

/*
 * ~/.ssh/environment as OpenSSH reads it, with PermitUserEnvironment
 * no, yes and a pattern list; a line without '=' reported by number.
 */
static void
test_env_file(void)
{
	char path[] = "/tmp/test_channel_env.XXXXXX", errbuf[256];
	struct servconf sc;
	struct sess_env e = { NULL, 0 };
	FILE *f, *errs;
	size_t n;
	int fd;

	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		CHECK(0);
		return;
	}
	fputs("# a comment\n  FOO=one\nBAR=two=three\n\n"
	    "\tLANG_X=lx\nnoequals\n=empty\n   # indented comment\n"
	    "LC_ALL=C\nLAST=\\back\\", f);
	fclose(f);
	memset(&sc, 0, sizeof(sc));
	sess_env_read_file(&e, &sc, path, NULL);
	CHECK(e.n == 0);		/* PermitUserEnvironment no */

	sc.permit_user_environment = 1;
	errs = tmpfile();
	sess_env_read_file(&e, &sc, path, errs);
	CHECK(e.n == 5);
	CHECK_STR(sess_env_get(&e, "FOO"), "one");
	CHECK_STR(sess_env_get(&e, "BAR"), "two=three");
	CHECK_STR(sess_env_get(&e, "LANG_X"), "lx");
	CHECK_STR(sess_env_get(&e, "LC_ALL"), "C");
	CHECK_STR(sess_env_get(&e, "LAST"), "\\back\\");
	CHECK(sess_env_get(&e, "noequals") == NULL);
	if (errs != NULL) {
		rewind(errs);
		n = fread(errbuf, 1, sizeof(errbuf) - 1, errs);
		errbuf[n] = '\0';
		fclose(errs);
		CHECK(strncmp(errbuf, "Bad line 6 in /tmp/test_channel_env.",
		    36) == 0);
		CHECK(strchr(errbuf, '\n') == errbuf + n - 1);
	}
	sess_env_free(&e);

	sc.permit_user_env_allowlist = (char *)"LANG*,LC_*,NONE";
	sess_env_read_file(&e, &sc, path, NULL);
	CHECK(e.n == 2);
	CHECK_STR(sess_env_get(&e, "LANG_X"), "lx");
	CHECK_STR(sess_env_get(&e, "LC_ALL"), "C");
	CHECK(sess_user_env_allowed(&sc, "LANG"));
	CHECK(!sess_user_env_allowed(&sc, "FOO"));
	sess_env_free(&e);
	unlink(path);
	sess_env_read_file(&e, &sc, path, NULL);	/* no file: nothing */
	CHECK(e.n == 0);
	sc.permit_user_env_allowlist = NULL;
	CHECK(sess_user_env_allowed(&sc, "ANYTHING"));
	sc.permit_user_environment = 0;
	CHECK(!sess_user_env_allowed(&sc, "ANYTHING"));
}

/* The lines of file path, counted, and whether one equals want. */
static int
count_lines(const char *path, const char *want, int *found)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	*found = 0;
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		n++;
		if (want != NULL && strcmp(line, want) == 0)
			*found = 1;
	}
	fclose(f);
	return n;
}

/*
 * chan_log_refusal: the first 10 of a connection logged, then a count at
 * most once a minute (the minute is made to pass by moving the time of
 * the last report back) and at the end.
 */
static void
test_refusal_log(void)
{
	char path[] = "/tmp/test_channel.XXXXXX";
	struct chan_set *cs;
	int fd, i, found;

	if ((fd = mkstemp(path)) == -1) {
		CHECK(0);
		return;
	}
	close(fd);
	log_init("test_channel", LOG_LEVEL_INFO, 0, 1);
	CHECK_OK(log_to_file(path));
	cs = chan_set_new(NULL);
	chan_set_keepalive(cs, 0, 3, "alice", "192.0.2.1", 2200);
	for (i = 0; i < 25; i++)
		chan_log_refusal(cs, LOG_LEVEL_INFO, "refused #%d", i);
	CHECK(count_lines(path, "refused #9\n", &found) == 10 && found);
	cs->refusals_reported -= CHAN_REFUSAL_LOG_EVERY;
	chan_log_refusal(cs, LOG_LEVEL_INFO, "refused #25");
	CHECK(count_lines(path, "Refused 16 more requests from 192.0.2.1 "
	    "port 2200, not logged one by one\n", &found) == 11 && found);
	for (i = 26; i < 30; i++)
		chan_log_refusal(cs, LOG_LEVEL_INFO, "refused #%d", i);
	CHECK(count_lines(path, NULL, &found) == 11);
	chan_set_free(cs);
	CHECK(count_lines(path, "Refused 4 more requests from 192.0.2.1 "
	    "port 2200, not logged one by one\n", &found) == 12 && found);
	/* Nothing left to count: no line at the end. */
	cs = chan_set_new(NULL);
	chan_log_refusal(cs, LOG_LEVEL_INFO, "one refusal");
	chan_set_free(cs);
	CHECK(count_lines(path, "one refusal\n", &found) == 13 && found);
	unlink(path);
	log_init("test_channel", LOG_LEVEL_ERROR, 0, 1);
}

/* ---- a peer answering its own open ---- */

static struct chan *pending_chan;

/* A type whose opens are answered later (as an outgoing connect is). */
static int
pending_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	pending_chan = c;
	return ERR_AGAIN;
}

static const struct chan_ops pending_ops = {
	.type = "pending@test",
	.open = pending_open,
};

/* One message in the plain framing: uint32 length, byte 0, payload. */
static void
put_plain(struct sbuf *w, const struct sbuf *msg)
{
	CHECK_OK(sbuf_put_u32(w, (uint32_t)sbuf_len(msg) + 1));
	CHECK_OK(sbuf_put_u8(w, 0));
	CHECK_OK(sbuf_put(w, sbuf_ptr(msg), sbuf_len(msg)));
}

/*
 * The peer opens a channel whose answer is ours to give later, then
 * "answers" it itself: an OPEN_CONFIRMATION or OPEN_FAILURE for a
 * channel the peer opened breaks the protocol, and the channel stays
 * as it was (freeing it would pull it from under the pending open).
 */
static void
test_peer_answers_own_open(void)
{
	struct tr_config cfg;
	struct transport *t;
	struct chan_set *cs;
	struct sbuf *w, *msg;
	int sp[2], ok, r;

	for (ok = 0; ok <= 1; ok++) {
		memset(&cfg, 0, sizeof(cfg));
		CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
		t = tr_new_plain(sp[0], sp[0], &cfg);
		CHECK(t != NULL);
		cs = chan_set_new(t);
		CHECK(cs != NULL);
		CHECK_OK(chan_set_register(cs, &pending_ops, NULL));
		pending_chan = NULL;
		w = sbuf_new();
		msg = sbuf_new();
		CHECK_OK(sbuf_put_u8(msg, SSH2_MSG_CHANNEL_OPEN));
		CHECK_OK(sbuf_put_cstring(msg, "pending@test"));
		CHECK_OK(sbuf_put_u32(msg, 7));		/* sender channel */
		CHECK_OK(sbuf_put_u32(msg, 65536));
		CHECK_OK(sbuf_put_u32(msg, 16384));
		put_plain(w, msg);
		sbuf_reset(msg);
		CHECK_OK(sbuf_put_u8(msg, ok ?
		    SSH2_MSG_CHANNEL_OPEN_CONFIRMATION :
		    SSH2_MSG_CHANNEL_OPEN_FAILURE));
		CHECK_OK(sbuf_put_u32(msg, 0));		/* our channel 0 */
		CHECK_OK(sbuf_put_u32(msg, ok ? 9 : 2));
		CHECK_OK(sbuf_put_u32(msg, ok ? 65536 : 0));
		CHECK_OK(sbuf_put_u32(msg, 16384));
		put_plain(w, msg);
		CHECK(write(sp[1], sbuf_ptr(w), sbuf_len(w)) ==
		    (ssize_t)sbuf_len(w));
		shutdown(sp[1], SHUT_WR);
		r = conn_loop(t, cs);
		CHECK(r == ERR_PROTOCOL);
		CHECK(pending_chan != NULL &&
		    chan_lookup(cs, 0) == pending_chan);
		if (pending_chan != NULL && chan_lookup(cs, 0) == pending_chan)
			CHECK(!pending_chan->confirmed &&
			    pending_chan->open_pending);
		sbuf_free(msg);
		sbuf_free(w);
		chan_set_free(cs);
		tr_free(t);
		close(sp[0]);
		close(sp[1]);
	}
}

int
main(void)
{
	test_send_limit();
	test_window_math();
	test_bulk_simulation();
	test_ttymodes();
	test_signals();
	test_env();
	test_accept_env();
	test_env_file();
	test_refusal_log();
	test_peer_answers_own_open();
	return TEST_DONE();
}
