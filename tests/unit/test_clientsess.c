/*
 * test_clientsess.c: the client's session.
 *
 * Pure parts: the escape machine fed with bytes (line starts, ~~, an
 * unknown escape, commands), the help text, and the terminal modes
 * encoding checked by decoding it with the server's ttymodes_apply().
 * End to end: client_session() against session_serve() in a forked
 * child over a socketpair: exec with stdout and stderr kept apart and
 * the exit status returned, -n, a remote signal death (255).
 */
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

#include "client.h"
#include "escape.h"
#include "log.h"
#include "mem.h"
#include "servconf.h"
#include "session.h"
#include "testlib.h"
#include "transport.h"
#include "trpair.h"
#include "ttyraw.h"

static struct trp_host host;

static void
feed(struct esc_state *e, const char *in, const char *want_out,
    const enum esc_action *want_acts, size_t nacts)
{
	struct sbuf *out = sbuf_new();
	enum esc_action act;
	size_t off = 0, len = strlen(in), n = 0;

	while (off < len) {
		off += esc_feed(e, (const unsigned char *)in + off,
		    len - off, out, &act);
		if (act != ESC_NONE) {
			CHECK(n < nacts && want_acts[n] == act);
			n++;
		}
	}
	CHECK(n == nacts);
	CHECK(sbuf_len(out) == strlen(want_out) && (sbuf_len(out) == 0 ||
	    memcmp(sbuf_ptr(out), want_out, sbuf_len(out)) == 0));
	sbuf_free(out);
}

static void
test_escape(void)
{
	struct esc_state e;
	static const enum esc_action dis[] = { ESC_DISCONNECT };
	static const enum esc_action two[] = { ESC_HELP, ESC_SUSPEND };
	static const enum esc_action many[] = { ESC_LIST, ESC_BACKGROUND,
	    ESC_VERBOSE_UP, ESC_VERBOSE_DOWN, ESC_REKEY, ESC_BREAK,
	    ESC_COMMAND };
	char *help;

	esc_init(&e, '~');
	feed(&e, "~.", "", dis, 1);			/* session start */
	esc_init(&e, '~');
	feed(&e, "ab~.c\r~.", "ab~.c\r", dis, 1);	/* mid-line ~ */
	esc_init(&e, '~');
	feed(&e, "~~x\n~x\n~", "~x\n~x\n", NULL, 0);	/* ~~, unknown */
	feed(&e, "?\n~\032", "\n", two, 2);		/* held ~ */
	esc_init(&e, '~');
	feed(&e, "~#~&~v~V~R~B~C", "", many, 7);	/* line start kept */
	esc_init(&e, '%');
	feed(&e, "~.\n%.", "~.\n", dis, 1);
	esc_init(&e, -2);				/* EscapeChar none */
	feed(&e, "~.", "~.", NULL, 0);

	help = esc_help('~');
	CHECK(strncmp(help, "Supported escape sequences:\r\n", 29) == 0);
	CHECK(strstr(help, " ~.   - terminate connection (and any "
	    "multiplexed sessions)\r\n") != NULL);
	CHECK(strstr(help, " ~^Z  - suspend ssh\r\n") != NULL);
	CHECK(strstr(help, " ~V/v - decrease/increase verbosity "
	    "(LogLevel)\r\n") != NULL);
	CHECK(strstr(help, " ~~   - send the escape character by typing "
	    "it twice\r\n") != NULL);
	CHECK(strstr(help, "~C") == NULL);		/* not offered */
	x_free(help);
}

static void
test_ttymodes(void)
{
	struct termios a, b;
	struct sbuf *enc = sbuf_new();
	const unsigned char *p;

	memset(&a, 0, sizeof(a));
	a.c_iflag = ICRNL | IXON;
	a.c_oflag = OPOST | ONLCR;
	a.c_cflag = CS8 | CREAD;
	a.c_lflag = ISIG | ICANON | ECHO | ECHOE | IEXTEN;
	a.c_cc[VINTR] = 3;
	a.c_cc[VERASE] = 127;
	a.c_cc[VEOF] = 4;
	a.c_cc[VEOL] = _POSIX_VDISABLE;
	cfsetispeed(&a, B38400);
	cfsetospeed(&a, B38400);
	CHECK_OK(ttymodes_encode(&a, enc));
	p = sbuf_ptr(enc);
	/* ISPEED 38400 first, TTY_OP_END last. */
	CHECK(sbuf_len(enc) > 10 && p[0] == 128 && p[1] == 0 && p[2] == 0 &&
	    p[3] == 0x96 && p[4] == 0 && p[sbuf_len(enc) - 1] == 0);
	/* VEOL disabled is sent as 255: opcode 6. */
	{
		size_t i;
		int found = 0;

		for (i = 10; i + 5 <= sbuf_len(enc); i += 5)
			if (p[i] == 6)
				found = p[i + 4] == 255 && p[i + 3] == 0;
		CHECK(found);
	}
	memset(&b, 0, sizeof(b));
	b.c_lflag = ECHOK;		/* cleared by the decoding */
	CHECK_OK(ttymodes_apply(&b, sbuf_ptr(enc), sbuf_len(enc)));
	CHECK(b.c_iflag == a.c_iflag);
	CHECK(b.c_oflag == a.c_oflag);
	CHECK((b.c_cflag & (CSIZE | PARENB)) == CS8);
	CHECK(b.c_lflag == a.c_lflag);
	CHECK(b.c_cc[VINTR] == 3 && b.c_cc[VERASE] == 127 &&
	    b.c_cc[VEOF] == 4);
	CHECK(cfgetospeed(&b) == B38400);
	sbuf_free(enc);
}

static int
tmpfd(const char *data)
{
	FILE *f = tmpfile();
	int fd;

	if (f == NULL)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	if (data != NULL && write(fd, data, strlen(data)) < 0)
		return -1;
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static char *
slurp(int fd)
{
	char buf[4096];
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	return x_strdup(buf);
}

/* The server in the child: session_serve() for this process's user. */
static int
session_server(struct transport *t, void *arg)
{
	struct servconf sc;

	memset(&sc, 0, sizeof(sc));
	sc.max_sessions = 10;
	return session_serve(t, &sc, getpwuid(getuid()), NULL, "127.0.0.1",
	    40000) == 0 ? 0 : 3;
}

/* One session against session_serve(); returns client_session's value. */
static int
run(const char *cmd, const char *input, int stdin_null, char **outp,
    char **errp)
{
	struct client_opts o;
	struct client_session_args a;
	struct trp_peer p;
	int r;

	if (trp_start(&p, &host, 1, session_server, NULL) != 0)
		return -1;
	memset(&o, 0, sizeof(o));
	o.escape_char = -1;
	o.log_level = LOG_LEVEL_INFO;
	o.hostname = (char *)"h.example";
	memset(&a, 0, sizeof(a));
	a.command = cmd;
	a.stdin_null = stdin_null;
	a.use_fds = 1;
	a.in_fd = tmpfd(input);
	a.out_fd = tmpfd(NULL);
	a.err_fd = tmpfd(NULL);
	r = client_session(p.t, &o, &a);
	CHECK(trp_finish(&p) == 0);
	*outp = slurp(a.out_fd);
	*errp = slurp(a.err_fd);
	close(a.in_fd);
	close(a.out_fd);
	close(a.err_fd);
	return r;
}

static void
test_sessions(void)
{
	char *out, *err;

	CHECK(run("cat; echo err >&2; exit 7", "hello\n", 0, &out,
	    &err) == 7);
	CHECK_STR(out, "hello\n");
	CHECK_STR(err, "err\n");
	x_free(out);
	x_free(err);
	/* -n: stdin is /dev/null, whatever we were given. */
	CHECK(run("cat; echo x", "ignored\n", 1, &out, &err) == 0);
	CHECK_STR(out, "x\n");
	CHECK_STR(err, "");
	x_free(out);
	x_free(err);
	/* Death by a signal: 255. */
	CHECK(run("kill -9 $$", NULL, 1, &out, &err) == 255);
	x_free(out);
	x_free(err);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	log_init("test_clientsess", LOG_LEVEL_ERROR, 0, 1);
	test_escape();
	test_ttymodes();
	CHECK_OK(key_generate(KEY_ED25519, 0, &host.key));
	CHECK_OK(key_demote(host.key, &host.pub));
	if (host.pub != NULL)
		test_sessions();
	key_free(host.key);
	key_free(host.pub);
	return TEST_DONE();
}
