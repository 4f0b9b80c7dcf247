/*
 * test_tun.c: the parts of tunnel forwarding (tun.h) that need no
 * device: unit numbers as ssh -w and TunnelDevice write them, the open's
 * extra fields, and the datagram queue of a tunnel channel, written to a
 * datagram socket that stands in for a device that takes nothing more.
 *
 * The queue: a peer may fill the whole window we offer with one-byte
 * packets, each of which would cost five bytes of queue (its length and
 * itself); what waits for the device must still stay within the window,
 * the rest is dropped, and every byte, queued, written or dropped, is
 * given back to the window once it is out of our hands.
 */
#include <sys/socket.h>

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "chan_priv.h"
#include "channel.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"
#include "tun.h"

static void
test_units(void)
{
	uint32_t u = 0, l = 0, r = 0;

	CHECK_OK(tun_parse_unit("0", &u));
	CHECK(u == 0);
	CHECK_OK(tun_parse_unit("any", &u));
	CHECK(u == TUN_UNIT_ANY);
	/* OpenSSH takes "any" in any case. */
	CHECK_OK(tun_parse_unit("ANY", &u));
	CHECK(u == TUN_UNIT_ANY);
	CHECK_OK(tun_parse_unit("2147483645", &u));
	CHECK(u == TUN_UNIT_MAX);
	/* The two numbers above the largest unit mean "error" and "any". */
	CHECK_ERR(tun_parse_unit("2147483646", &u), ERR_INVALID_FORMAT);
	CHECK_ERR(tun_parse_unit("2147483647", &u), ERR_INVALID_FORMAT);
	CHECK_ERR(tun_parse_unit("99999999999999999999", &u),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(tun_parse_unit("", &u), ERR_INVALID_FORMAT);
	CHECK_ERR(tun_parse_unit("-1", &u), ERR_INVALID_FORMAT);
	CHECK_ERR(tun_parse_unit("1x", &u), ERR_INVALID_FORMAT);

	CHECK_OK(tun_parse_device("3", &l, &r));
	CHECK(l == 3 && r == TUN_UNIT_ANY);
	CHECK_OK(tun_parse_device("any:7", &l, &r));
	CHECK(l == TUN_UNIT_ANY && r == 7);
	CHECK_ERR(tun_parse_device("1:", &l, &r), ERR_INVALID_FORMAT);
	CHECK_ERR(tun_parse_device(":1", &l, &r), ERR_INVALID_FORMAT);
	CHECK_ERR(tun_parse_device("0123456789012345:1", &l, &r),
	    ERR_INVALID_FORMAT);
}

static void
test_open_fields(void)
{
	struct sbuf *b = sbuf_new();
	uint32_t mode = 0, unit = 0;

	CHECK_OK(tun_open_put(b, TUN_MODE_ETHERNET, 5));
	CHECK_OK(tun_open_parse(b, &mode, &unit));
	CHECK(mode == TUN_MODE_ETHERNET && unit == 5);
	/* Cut short: an error, not a guess. */
	sbuf_reset(b);
	CHECK_OK(sbuf_put_u32(b, TUN_MODE_POINTOPOINT));
	CHECK(tun_open_parse(b, &mode, &unit) != 0);
	sbuf_free(b);
}

static struct chan_set no_set;	/* no timeouts, nothing else */

/* A channel as tun_chan_attach() leaves it, on fd, with our window. */
static void
chan_init(struct chan *c, int fd, unsigned int datagram)
{
	memset(c, 0, sizeof(*c));
	c->set = &no_set;
	c->rfd = c->efd = -1;
	c->wfd = fd;
	c->datagram = datagram;
	c->local_window = c->local_window_max = CHAN_WINDOW;
	c->wbuf = sbuf_new();
	c->ebuf = sbuf_new();
}

/* The queued packets' bytes, without their lengths. */
static size_t
queued_payload(struct chan *c)
{
	const unsigned char *p = sbuf_ptr(c->wbuf);
	size_t off = 0, n = 0, len;

	while (off + 4 <= sbuf_len(c->wbuf)) {
		len = (size_t)p[off] << 24 | (size_t)p[off + 1] << 16 |
		    (size_t)p[off + 2] << 8 | p[off + 3];
		n += len;
		off += 4 + len;
	}
	return n;
}

static void
test_queue_bound(void)
{
	struct chan c;
	unsigned char one = 0x45, buf[64];
	size_t i, got = 0;
	ssize_t n;
	int sv[2], rounds;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, sv) != 0) {
		CHECK(0);
		return;
	}
	/* The whole window in one-byte packets (ethernet: no header). */
	chan_init(&c, sv[0], CHAN_DGRAM_RAW);
	for (i = 0; i < CHAN_WINDOW; i++)
		if (tun_chan_put(&c, &one, 1) != 0)
			break;
	CHECK(i == CHAN_WINDOW);
	CHECK(sbuf_len(c.wbuf) > 0);
	CHECK(sbuf_len(c.wbuf) <= c.local_window_max);
	/* Queued, or given back as written or dropped: nothing lost. */
	CHECK(c.local_consumed + queued_payload(&c) == CHAN_WINDOW);

	/* The device takes the queue, packet by packet, in order. */
	for (rounds = 0; rounds < 1000000 && sbuf_len(c.wbuf) > 0;
	    rounds++) {
		while ((n = recv(sv[1], buf, sizeof(buf), 0)) > 0) {
			CHECK(n == 1 && buf[0] == one);
			got++;
		}
		CHECK_OK(tun_chan_write(NULL, &c));
	}
	while (recv(sv[1], buf, sizeof(buf), 0) > 0)
		got++;
	CHECK(sbuf_len(c.wbuf) == 0);
	CHECK(c.local_consumed == CHAN_WINDOW);
	CHECK(got > 0 && got < CHAN_WINDOW);
	sbuf_free(c.wbuf);
	sbuf_free(c.ebuf);

	/*
	 * Point-to-point: the family header is the peer's and is given
	 * back at once; a message of no more than the header is no packet.
	 */
	chan_init(&c, sv[0], CHAN_DGRAM_AF);
	{
		const unsigned char pkt[6] = { 0, 0, 0, 2, 0x45, 0x46 };

		CHECK_OK(tun_chan_put(&c, pkt, 4));
		CHECK_OK(tun_chan_put(&c, pkt, 3));
		CHECK(c.local_consumed == 7 && sbuf_len(c.wbuf) == 0);
		CHECK_OK(tun_chan_put(&c, pkt, 6));
		CHECK(recv(sv[1], buf, sizeof(buf), 0) == 2 &&
		    buf[0] == 0x45 && buf[1] == 0x46);
		CHECK(c.local_consumed == 13);
	}
	sbuf_free(c.wbuf);
	sbuf_free(c.ebuf);
	close(sv[0]);
	close(sv[1]);
}

int
main(void)
{
	test_units();
	test_open_fields();
	test_queue_bound();
	return TEST_DONE();
}
