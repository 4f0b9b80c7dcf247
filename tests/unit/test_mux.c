/*
 * test_mux: the control socket's bytes (mux_wire.c): encoders against
 * byte strings written out by hand from PROTOCOL.mux's field order, the
 * request parser on them and on broken ones, framing, and descriptor
 * passing over a socketpair.
 */
#include <sys/socket.h>

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "fdio.h"
#include "mux.h"
#include "sbuf.h"
#include "testlib.h"

/* hello, version 4 */
static const unsigned char hello[] = {
	0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 4,
};

/* new session: rid 7, tty, no x11/agent/subsystem, '~', "xterm", "ls",
 * one env string "A=b" */
static const unsigned char session[] = {
	0, 0, 0, 0x36,
	0x10, 0, 0, 2,  0, 0, 0, 7,  0, 0, 0, 0,	/* type rid reserved */
	0, 0, 0, 1,  0, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0,
	0, 0, 0, '~',
	0, 0, 0, 5, 'x', 't', 'e', 'r', 'm',
	0, 0, 0, 2, 'l', 's',
	0, 0, 0, 3, 'A', '=', 'b',
};

/* open forward: rid 9, local, "" port 8080 -> "h" port 22 */
static const unsigned char fwd[] = {
	0, 0, 0, 0x1d,
	0x10, 0, 0, 6,  0, 0, 0, 9,  0, 0, 0, 1,
	0, 0, 0, 0,  0, 0, 0x1f, 0x90,
	0, 0, 0, 1, 'h',  0, 0, 0, 22,
};

static void
test_encode(void)
{
	struct sbuf *b = sbuf_new();
	struct mux_req q;

	CHECK_OK(mux_put_hello(b));
	CHECK(sbuf_len(b) == sizeof(hello));
	CHECK_MEM(sbuf_ptr(b), hello, sizeof(hello));
	sbuf_reset(b);

	memset(&q, 0, sizeof(q));
	q.rid = 7;
	q.want_tty = 1;
	q.escape_char = '~';
	q.term = "xterm";
	q.command = "ls";
	q.env[0] = "A=b";
	q.nenv = 1;
	CHECK_OK(mux_put_session(b, &q));
	CHECK(sbuf_len(b) == sizeof(session));
	CHECK_MEM(sbuf_ptr(b), session, sizeof(session));
	sbuf_reset(b);

	memset(&q, 0, sizeof(q));
	q.type = MUX_C_OPEN_FWD;
	q.rid = 9;
	q.ftype = MUX_FWD_LOCAL;
	q.listen_port = 8080;
	q.connect_host = "h";
	q.connect_port = 22;
	CHECK_OK(mux_put_fwd(b, &q));
	CHECK(sbuf_len(b) == sizeof(fwd));
	CHECK_MEM(sbuf_ptr(b), fwd, sizeof(fwd));
	sbuf_free(b);
}

static void
test_parse(void)
{
	struct mux_req q;

	CHECK_OK(mux_parse_request(hello + 4, sizeof(hello) - 4, &q));
	CHECK(q.type == MUX_MSG_HELLO && q.version == 4);
	mux_req_clear(&q);

	CHECK_OK(mux_parse_request(session + 4, sizeof(session) - 4, &q));
	CHECK(q.type == MUX_C_NEW_SESSION && q.rid == 7);
	CHECK(q.want_tty == 1 && q.want_x11 == 0 && q.subsystem == 0);
	CHECK(q.escape_char == '~');
	CHECK_STR(q.term, "xterm");
	CHECK_STR(q.command, "ls");
	CHECK(q.nenv == 1);
	if (q.nenv == 1)
		CHECK_STR(q.env[0], "A=b");
	mux_req_clear(&q);

	CHECK_OK(mux_parse_request(fwd + 4, sizeof(fwd) - 4, &q));
	CHECK(q.type == MUX_C_OPEN_FWD && q.ftype == MUX_FWD_LOCAL);
	CHECK(q.listen_port == 8080 && q.connect_port == 22);
	CHECK_STR(q.listen_host, "");
	CHECK_STR(q.connect_host, "h");
	mux_req_clear(&q);

	/* Every truncation of a session request is refused. */
	{
		size_t n;
		int bad = 0;

		for (n = 0; n < sizeof(session) - 4 - 7; n++) {
			if (mux_parse_request(session + 4, n, &q) == 0)
				bad++;
			mux_req_clear(&q);
		}
		CHECK(bad == 0);
	}
}

static void
test_refuse(void)
{
	unsigned char m[sizeof(fwd)];
	struct mux_req q;

	/* An unknown forwarding type. */
	memcpy(m, fwd, sizeof(m));
	m[15] = 4;
	CHECK_ERR(mux_parse_request(m + 4, sizeof(m) - 4, &q),
	    ERR_INVALID_FORMAT);
	mux_req_clear(&q);
	/* A port out of range that is not the path marker. */
	memcpy(m, fwd, sizeof(m));
	m[21] = 1;
	CHECK_ERR(mux_parse_request(m + 4, sizeof(m) - 4, &q),
	    ERR_INVALID_FORMAT);
	mux_req_clear(&q);
	/* An unknown message type. */
	memcpy(m, fwd, sizeof(m));
	m[7] = 0x42;
	CHECK_ERR(mux_parse_request(m + 4, sizeof(m) - 4, &q),
	    ERR_INVALID_FORMAT);
	mux_req_clear(&q);
	/* A string with a NUL inside. */
	memcpy(m, fwd, sizeof(m));
	m[28] = '\0';
	CHECK(mux_parse_request(m + 4, sizeof(m) - 4, &q) != 0);
	mux_req_clear(&q);
}

static void
test_frame(void)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *body;
	size_t len;
	static const unsigned char big[] = { 0x00, 0x04, 0x00, 0x01 };

	CHECK_OK(sbuf_put(b, hello, 3));
	CHECK_ERR(mux_frame(b, &body, &len), ERR_AGAIN);
	CHECK_OK(sbuf_put(b, hello + 3, sizeof(hello) - 3));
	CHECK_OK(mux_frame(b, &body, &len));
	CHECK(len == 8 && body == sbuf_ptr(b) + 4);
	sbuf_reset(b);
	CHECK_OK(sbuf_put(b, big, sizeof(big)));
	CHECK_ERR(mux_frame(b, &body, &len), ERR_PACKET_TOO_LARGE);
	sbuf_free(b);
}

static void
test_fds(void)
{
	int sp[2], p[2], got = -1;
	char c = 0;
	struct sbuf *b = sbuf_new();

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	CHECK(pipe(p) == 0);
	CHECK_OK(mux_send_fd(sp[0], p[1]));
	CHECK_OK(fd_recv_fd(sp[1], 1000, &got));
	CHECK(got >= 0 && got != p[1]);
	CHECK(write(got, "z", 1) == 1 && read(p[0], &c, 1) == 1 && c == 'z');
	/* Plain bytes where a descriptor should come are refused. */
	CHECK(write(sp[0], "x", 1) == 1);
	CHECK_ERR(fd_recv_fd(sp[1], 1000, &got), ERR_INVALID_FORMAT);
	/* A whole message, read exactly. */
	CHECK(write(sp[0], hello, sizeof(hello)) == (ssize_t)sizeof(hello));
	CHECK_OK(mux_read_msg(sp[1], b));
	CHECK(sbuf_len(b) == 8);
	close(sp[0]);
	CHECK_ERR(mux_read_msg(sp[1], b), ERR_EOF);
	close(sp[1]);
	close(p[0]);
	close(p[1]);
	sbuf_free(b);
}

static void
test_names(void)
{
	CHECK(mux_cmd_from_name("check") == MUXC_CHECK);
	CHECK(mux_cmd_from_name("stop") == MUXC_STOP);
	CHECK(mux_cmd_from_name("exit") == MUXC_EXIT);
	CHECK(mux_cmd_from_name("Check") == MUXC_NONE);
	CHECK(mux_cmd_from_name("") == MUXC_NONE);
}

int
main(void)
{
	test_encode();
	test_parse();
	test_refuse();
	test_frame();
	test_fds();
	test_names();
	return TEST_DONE();
}
