/*
 * tunchan.c: the datagram side of the channel layer, for tunnel
 * forwarding (tun.h). chanio.c hands a channel marked by
 * tun_chan_attach() here instead of treating its fd as a byte stream.
 *
 * Reading: one read() of the device is one packet, and becomes one
 * CHANNEL_DATA, with the point-to-point family header put in front
 * (IPv6 when the IP version nibble says 6, IPv4 otherwise, as OpenSSH
 * does). A packet larger than the peer's window or maximum packet is
 * dropped, as a router drops what it cannot forward; the device is not
 * read at all while the window is closed (the loop stops watching it).
 *
 * Writing: one CHANNEL_DATA is one write() of the device, after the
 * family header is taken off (its value is not needed: Linux takes the
 * family from the packet). What the device does not take now waits in
 * wbuf as uint32 length, bytes, and goes out a packet per write once it
 * is writable. A packet the device refuses (a bad packet, the interface
 * down) is dropped, and so is one that would make wbuf hold more than
 * the window we offer: the window alone does not bound it, as each tiny
 * packet costs four bytes of length besides its own, and the family
 * header is given back at once. Every byte, sent on or dropped, is
 * given back to the peer's window.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "log.h"
#include "sbuf.h"
#include "transport.h"
#include "tun.h"

void
tun_chan_attach(struct chan *c, int fd, uint32_t mode)
{
	c->datagram = mode == TUN_MODE_POINTOPOINT ? CHAN_DGRAM_AF :
	    CHAN_DGRAM_RAW;
	chan_set_fds(c, fd, fd, -1, CHAN_EFD_NONE, 0);
}

int
tun_chan_read(struct chan_set *cs, struct chan *c)
{
	size_t head = c->datagram == CHAN_DGRAM_AF ? 4 : 0, len;
	struct sbuf *b;
	unsigned char *p;
	ssize_t got;
	int r;

	if (c->rfd == -1 || c->remote_window == 0)
		return 0;
	if ((b = chan_msg_start(cs, c, SSH2_MSG_CHANNEL_DATA)) == NULL)
		return ERR_INTERNAL;
	if ((r = sbuf_reserve(b, 4 + head + TUN_PACKET_MAX, &p)) != 0)
		return r;
	/* An unsent message is simply replaced by the next tr_msg_start. */
	got = read(c->rfd, p + 4 + head, TUN_PACKET_MAX);
	if (got < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (got <= 0) {
		log_debug("channel %u: tunnel read: %s", c->local_id,
		    got < 0 ? strerror(errno) : "end of file");
		chan_fd_close(c, &c->rfd);
		return 0;
	}
	chan_used(c);
	len = head + (size_t)got;
	if (len > c->remote_window || len > c->remote_maxpacket) {
		log_debug2("channel %u: datagram too big (%zu, window %u, "
		    "max %u)", c->local_id, len, c->remote_window,
		    c->remote_maxpacket);
		return 0;
	}
	sbuf_store_u32(p, (uint32_t)len);
	if (head != 0)
		sbuf_store_u32(p + 4, (p[8] >> 4) == 6 ? TUN_AF_INET6 :
		    TUN_AF_INET);
	if ((r = sbuf_consume_end(b, TUN_PACKET_MAX - (size_t)got)) != 0)
		return r;
	c->remote_window -= (uint32_t)len;
	return tr_msg_send(cs->t);
}

/* One packet to the device: 1 written or dropped, 0 try later. */
static int
write_packet(struct chan *c, const unsigned char *p, size_t len)
{
	ssize_t n = write(c->wfd, p, len);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n < 0)
		log_debug2("channel %u: tunnel write: %s (packet dropped)",
		    c->local_id, strerror(errno));
	else
		chan_used(c);
	c->local_consumed += (uint32_t)len;
	return 1;
}

int
tun_chan_write(struct chan_set *cs, struct chan *c)
{
	const unsigned char *p;
	size_t len;
	int r;

	(void)cs;
	while (c->wfd != -1 && sbuf_len(c->wbuf) > 0) {
		if ((r = sbuf_peek_string_direct(c->wbuf, &p, &len)) != 0)
			return ERR_INTERNAL;
		if (!write_packet(c, p, len))
			break;
		if ((r = sbuf_get_string_direct(c->wbuf, NULL, NULL)) != 0)
			return r;
	}
	return 0;
}

int
tun_chan_put(struct chan *c, const unsigned char *data, size_t len)
{
	int r;

	if (c->datagram == CHAN_DGRAM_AF) {
		/* The family header is the peer's; Linux needs none. */
		if (len <= 4) {
			c->local_consumed += (uint32_t)len;
			return 0;
		}
		c->local_consumed += 4;
		data += 4;
		len -= 4;
	}
	if (len == 0)
		return 0;
	if (sbuf_len(c->wbuf) == 0 && c->wfd != -1 &&
	    write_packet(c, data, len))
		return 0;
	if (sbuf_len(c->wbuf) + 4 + len > c->local_window_max) {
		log_debug3("channel %u: tunnel queue full (%zu), packet "
		    "dropped", c->local_id, sbuf_len(c->wbuf));
		c->local_consumed += (uint32_t)len;
		return 0;
	}
	if ((r = sbuf_make_room(c->wbuf, 4 + len)) != 0)
		return r;
	return sbuf_put_string(c->wbuf, data, len);
}
