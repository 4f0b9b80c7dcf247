/*
 * test_muxproxy: the bytes of a control connection in proxy mode
 * (mux_proxy_wire.c): packets as Debian's ssh -O proxy sent them to a
 * master (recorded), framed and parsed; the ids rewritten the way the
 * master relays them; and the refusals (lengths, types a downstream may
 * not send, fields missing or trailing).
 */
#include <string.h>

#include "err.h"
#include "mux_proxy.h"
#include "sbuf.h"
#include "testlib.h"

/* CHANNEL_OPEN "session", sender 0, window 2 MiB, packets 32 KiB. */
static const unsigned char open_pkt[] = {
	0, 0, 0, 0x19, 0, 90,
	0, 0, 0, 7, 's', 'e', 's', 's', 'i', 'o', 'n',
	0, 0, 0, 0,  0, 0x20, 0, 0,  0, 0, 0x80, 0,
};

/* CHANNEL_REQUEST to 0x4d: "exec", want reply, "echo hi". */
static const unsigned char exec_pkt[] = {
	0, 0, 0, 0x1a, 0, 98,
	0, 0, 0, 0x4d,
	0, 0, 0, 4, 'e', 'x', 'e', 'c', 1,
	0, 0, 0, 7, 'e', 'c', 'h', 'o', ' ', 'h', 'i',
};

static void
test_frame(void)
{
	const unsigned char *pay;
	size_t len, used;
	unsigned char big[4] = { 0, 4, 0, 1 };	/* 256 KiB + 1 */
	unsigned char tiny[5] = { 0, 0, 0, 1, 0 };

	CHECK_OK(muxp_frame(open_pkt, sizeof(open_pkt), &pay, &len, &used));
	CHECK(used == sizeof(open_pkt));
	CHECK(pay == open_pkt + 5 && len == sizeof(open_pkt) - 5);
	CHECK_ERR(muxp_frame(open_pkt, sizeof(open_pkt) - 1, &pay, &len,
	    &used), ERR_AGAIN);
	CHECK_ERR(muxp_frame(open_pkt, 3, &pay, &len, &used), ERR_AGAIN);
	CHECK_ERR(muxp_frame(big, sizeof(big), &pay, &len, &used),
	    ERR_PACKET_TOO_LARGE);
	CHECK_ERR(muxp_frame(tiny, sizeof(tiny), &pay, &len, &used),
	    ERR_INVALID_FORMAT);
}

static void
test_parse(void)
{
	struct muxp_msg m;

	CHECK_OK(muxp_parse(open_pkt + 5, sizeof(open_pkt) - 5, &m));
	CHECK(m.type == 90 && m.kind == MUXP_OPEN && m.id == 0);
	CHECK(m.namelen == 7 && memcmp(m.name, "session", 7) == 0);
	CHECK(m.restlen == 8 && m.rest == open_pkt + sizeof(open_pkt) - 8);

	CHECK_OK(muxp_parse(exec_pkt + 5, sizeof(exec_pkt) - 5, &m));
	CHECK(m.type == 98 && m.kind == MUXP_CHAN && m.id == 0x4d);
	CHECK(m.namelen == 4 && memcmp(m.name, "exec", 4) == 0);
	CHECK(m.want_reply == 1);
	CHECK(m.rest == exec_pkt + 10 && m.restlen == sizeof(exec_pkt) - 10);
}

/* The master's rewrite: the open's sender, the request's recipient. */
static void
test_renumber(void)
{
	struct sbuf *b = sbuf_new();
	struct muxp_msg m;
	unsigned char want[sizeof(open_pkt)];
	size_t start;

	CHECK_OK(muxp_parse(open_pkt + 5, sizeof(open_pkt) - 5, &m));
	CHECK_OK(muxp_start(b, m.type, &start));
	CHECK_OK(muxp_put_fields(b, &m, 0x0102, 0));
	CHECK_OK(muxp_end(b, start));
	memcpy(want, open_pkt, sizeof(want));
	want[19] = 1;
	want[20] = 2;
	CHECK(sbuf_len(b) == sizeof(want));
	CHECK_MEM(sbuf_ptr(b), want, sizeof(want));
	sbuf_reset(b);

	CHECK_OK(muxp_parse(exec_pkt + 5, sizeof(exec_pkt) - 5, &m));
	CHECK_OK(muxp_put_fields(b, &m, 9, 0));
	CHECK(sbuf_len(b) == sizeof(exec_pkt) - 6);
	CHECK_MEM(sbuf_ptr(b), "\0\0\0\x09", 4);
	CHECK_MEM(sbuf_ptr(b) + 4, exec_pkt + 10, sizeof(exec_pkt) - 10);
	sbuf_free(b);
}

static void
test_refuse(void)
{
	struct muxp_msg m;
	/* KEXINIT, USERAUTH_REQUEST, an unknown type. */
	static const unsigned char kex[] = { 20, 0, 0, 0, 0 };
	static const unsigned char auth[] = { 50, 0, 0, 0, 0 };
	static const unsigned char unk[] = { 200 };
	/* EOF with a byte too many; DATA cut short; a bare type. */
	static const unsigned char eof_trail[] = { 96, 0, 0, 0, 1, 0 };
	static const unsigned char data_short[] = {
		94, 0, 0, 0, 1, 0, 0, 0, 9, 'a',
	};
	static const unsigned char close_bare[] = { 97, 0, 0 };
	/* An open with no maximum packet size. */
	static const unsigned char open_short[] = {
		90, 0, 0, 0, 1, 'x', 0, 0, 0, 1, 0, 0, 0, 2,
	};

	CHECK_ERR(muxp_parse(kex, sizeof(kex), &m), ERR_PROTOCOL);
	CHECK_ERR(muxp_parse(auth, sizeof(auth), &m), ERR_PROTOCOL);
	CHECK_ERR(muxp_parse(unk, sizeof(unk), &m), ERR_PROTOCOL);
	CHECK_ERR(muxp_parse(eof_trail, sizeof(eof_trail), &m),
	    ERR_INVALID_FORMAT);
	CHECK(muxp_parse(data_short, sizeof(data_short), &m) != 0);
	CHECK(muxp_parse(close_bare, sizeof(close_bare), &m) != 0);
	CHECK(muxp_parse(open_short, sizeof(open_short), &m) != 0);
	CHECK(muxp_parse(unk, 0, &m) != 0);
}

int
main(void)
{
	test_frame();
	test_parse();
	test_renumber();
	test_refuse();
	return TEST_DONE();
}
