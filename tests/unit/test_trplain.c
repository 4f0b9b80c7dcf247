/*
 * test_trplain: the transport's plain framing for ssh -O proxy
 * (tr_new_plain), on a socketpair whose other end plays the master.
 * The bytes are PROTOCOL.mux's "uint32 packet length, byte 0, payload",
 * as Debian's OpenSSH master was seen to send them: nothing at start
 * (no version line, no KEXINIT), messages whole or in pieces, and the
 * master's malformed packets refused.
 */
#include <sys/socket.h>

#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "transport.h"
#include "testlib.h"

/* CHANNEL_OPEN_CONFIRMATION 0 -> 2, window 2 MiB, packets 32 KiB. */
static const unsigned char confirm[] = {
	0, 0, 0, 0x12, 0,
	91, 0, 0, 0, 0,  0, 0, 0, 2,  0, 0x20, 0, 0,  0, 0, 0x80, 0,
};

/* CHANNEL_DATA to 2: "hi\n" */
static const unsigned char data_hi[] = {
	0, 0, 0, 0x0d, 0,
	94, 0, 0, 0, 2,  0, 0, 0, 3, 'h', 'i', '\n',
};

struct pair {
	int sp[2];
	struct transport *t;
};

static void
pair_open(struct pair *p)
{
	struct tr_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, p->sp) == 0);
	(void)fcntl(p->sp[1], F_SETFL, O_NONBLOCK);
	p->t = tr_new_plain(p->sp[0], p->sp[0], &cfg);
	CHECK(p->t != NULL);
}

static void
pair_close(struct pair *p)
{
	tr_free(p->t);
	close(p->sp[0]);
	close(p->sp[1]);
}

/* What the transport wrote to the master's end so far. */
static size_t
master_read(struct pair *p, unsigned char *buf, size_t len)
{
	ssize_t n;

	(void)tr_flush(p->t);
	n = read(p->sp[1], buf, len);
	return n > 0 ? (size_t)n : 0;
}

/* Feed bytes from the master; the next message's result. */
static int
feed(struct pair *p, const void *b, size_t len, uint8_t *typep,
    struct sbuf **mp)
{
	int r;

	if (len > 0)
		CHECK(write(p->sp[1], b, len) == (ssize_t)len);
	r = tr_fd_read(p->t);
	if (r != 0 && r != ERR_AGAIN)
		return r;
	return tr_next_message(p->t, typep, mp);
}

static void
test_roles(void)
{
	struct tr_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.server = 1;
	CHECK(tr_new_plain(0, 1, &cfg) == NULL);
}

static void
test_send(void)
{
	static const unsigned char want[] = {
		0, 0, 0, 0x0d, 0,
		98, 0, 0, 0, 2,  0, 0, 0, 3, 'e', 'o', 'w',
	};
	unsigned char buf[256];
	struct pair p;
	struct sbuf *b;

	pair_open(&p);
	/* Nothing at start: no version line, no KEXINIT. */
	CHECK(master_read(&p, buf, sizeof(buf)) == 0);
	CHECK(!tr_want_write(p.t));
	b = tr_msg_start(p.t, SSH2_MSG_CHANNEL_REQUEST);
	CHECK_OK(sbuf_put_u32(b, 2));
	CHECK_OK(sbuf_put_cstring(b, "eow"));
	CHECK_OK(tr_msg_send(p.t));
	CHECK(master_read(&p, buf, sizeof(buf)) == sizeof(want));
	CHECK_MEM(buf, want, sizeof(want));
	/* A rekey is the master's business: nothing goes out. */
	CHECK_OK(tr_rekey(p.t));
	CHECK_OK(tr_check_rekey(p.t));
	CHECK(master_read(&p, buf, sizeof(buf)) == 0);
	CHECK(tr_poll_timeout(p.t) == -1);
	pair_close(&p);
}

static void
test_receive(void)
{
	struct pair p;
	struct sbuf *m;
	uint8_t type;
	uint32_t v;
	size_t i;

	pair_open(&p);
	CHECK_OK(feed(&p, confirm, sizeof(confirm), &type, &m));
	CHECK(type == SSH2_MSG_CHANNEL_OPEN_CONFIRMATION);
	CHECK(sbuf_len(m) == 16);
	CHECK_OK(sbuf_get_u32(m, &v));
	CHECK(v == 0);
	CHECK_OK(sbuf_get_u32(m, &v));
	CHECK(v == 2);
	/* One byte at a time: nothing until it is whole. */
	for (i = 0; i + 1 < sizeof(data_hi); i++)
		CHECK_ERR(feed(&p, data_hi + i, 1, &type, &m), ERR_AGAIN);
	CHECK_OK(feed(&p, data_hi + i, 1, &type, &m));
	CHECK(type == SSH2_MSG_CHANNEL_DATA);
	CHECK(sbuf_len(m) == 11);
	CHECK_MEM(sbuf_ptr(m) + 8, "hi\n", 3);
	/* Two in one read. */
	CHECK(write(p.sp[1], confirm, sizeof(confirm)) ==
	    (ssize_t)sizeof(confirm));
	CHECK_OK(feed(&p, data_hi, sizeof(data_hi), &type, &m));
	CHECK(type == SSH2_MSG_CHANNEL_OPEN_CONFIRMATION);
	CHECK_OK(tr_next_message(p.t, &type, &m));
	CHECK(type == SSH2_MSG_CHANNEL_DATA);
	CHECK_ERR(tr_next_message(p.t, &type, &m), ERR_AGAIN);
	pair_close(&p);
}

/* One malformed packet from the master: the error, and a DISCONNECT. */
static void
refused(const unsigned char *b, size_t len, int want)
{
	unsigned char buf[512];
	struct pair p;
	struct sbuf *m;
	uint8_t type;
	size_t n;

	pair_open(&p);
	CHECK_ERR(feed(&p, b, len, &type, &m), want);
	n = master_read(&p, buf, sizeof(buf));
	CHECK(n > 6 && buf[4] == 0 && buf[5] == SSH2_MSG_DISCONNECT);
	CHECK_ERR(tr_next_message(p.t, &type, &m), ERR_CONN_CLOSED);
	pair_close(&p);
}

static void
test_refuse(void)
{
	static const unsigned char huge[] = { 0xff, 0xff, 0xff, 0xff, 0 };
	static const unsigned char toolong[] = { 0, 0x04, 0, 1, 0, 94 };
	static const unsigned char notype[] = { 0, 0, 0, 1, 0 };
	static const unsigned char padded[] = {
		0, 0, 0, 0x0a, 4,  2, 0, 0, 0, 0,  0, 0, 0, 0,
	};
	static const unsigned char kexinit[] = {
		0, 0, 0, 0x12, 0,  20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
		11, 12, 13, 14, 15, 16,
	};
	static const unsigned char newkeys[] = { 0, 0, 0, 2, 0, 21 };

	refused(huge, sizeof(huge), ERR_PACKET_TOO_LARGE);
	refused(toolong, sizeof(toolong), ERR_PACKET_TOO_LARGE);
	refused(notype, sizeof(notype), ERR_PACKET_TOO_LARGE);
	refused(padded, sizeof(padded), ERR_INVALID_FORMAT);
	refused(kexinit, sizeof(kexinit), ERR_PROTOCOL);
	refused(newkeys, sizeof(newkeys), ERR_PROTOCOL);
}

/* IGNORE and the like are the transport's, as on a full one. */
static void
test_transport_msgs(void)
{
	static const unsigned char ignore[] = {
		0, 0, 0, 6, 0,  2, 0, 0, 0, 0,
	};
	struct pair p;
	struct sbuf *m;
	uint8_t type;

	pair_open(&p);
	CHECK(write(p.sp[1], ignore, sizeof(ignore)) ==
	    (ssize_t)sizeof(ignore));
	CHECK_OK(feed(&p, data_hi, sizeof(data_hi), &type, &m));
	CHECK(type == SSH2_MSG_CHANNEL_DATA);
	/* The end of the socket, as when the master goes. */
	shutdown(p.sp[1], SHUT_WR);
	CHECK_ERR(feed(&p, NULL, 0, &type, &m), ERR_CONN_CLOSED);
	CHECK(tr_peer_eof(p.t));
	pair_close(&p);
}

int
main(void)
{
	test_roles();
	test_send();
	test_receive();
	test_refuse();
	test_transport_msgs();
	return TEST_DONE();
}
