/*
 * chanio.c: moving channel data between file descriptors and packets.
 *
 * Data from an fd is read straight into the outgoing message buffer (the
 * length field is filled in after the read), so each byte is copied once
 * on its way from the fd to the transport; a read that yields nothing
 * leaves the started message unsent, and the next tr_msg_start() simply
 * replaces it. Large data from the peer is written straight from the
 * message to the fd when nothing is queued before it (saving a copy);
 * smaller pieces are queued and written together after the batch of
 * messages they came in (one write and one wakeup of the reader instead
 * of one per packet). What the fd does not take waits in wbuf/ebuf
 * (bounded by our window) until it is writable. What is written is
 * counted towards the next WINDOW_ADJUST.
 */
#include <errno.h>
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>

#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "log.h"
#include "sbuf.h"
#include "transport.h"
#include "tun.h"

/* Reading an fd straight into a DATA / EXTENDED_DATA packet. */
int
chan_read_fd(struct chan_set *cs, struct chan *c, int ext)
{
	int *fdp = ext ? &c->efd : &c->rfd;
	struct sbuf *b;
	unsigned char *p;
	size_t n;
	ssize_t got;
	int r;

	if (c->datagram && !ext)
		return tun_chan_read(cs, c);
	n = chan_send_limit(c->remote_window, c->remote_maxpacket,
	    CHAN_READ_MAX);
	if (n == 0 || *fdp == -1)
		return 0;
	b = chan_msg_start(cs, c, ext ? SSH2_MSG_CHANNEL_EXTENDED_DATA :
	    SSH2_MSG_CHANNEL_DATA);
	if (b == NULL)
		return ERR_INTERNAL;
	if (ext && (r = sbuf_put_u32(b, SSH2_EXTENDED_DATA_STDERR)) != 0)
		return r;
	if ((r = sbuf_reserve(b, 4 + n, &p)) != 0)
		return r;
	/* An unsent message is simply replaced by the next tr_msg_start. */
	got = read(*fdp, p + 4, n);
	if (got < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (got <= 0) {
		if (got < 0 && errno != EIO)
			log_debug("channel %u: read: %s", c->local_id,
			    strerror(errno));
		log_debug2("channel %u: %s eof", c->local_id,
		    ext ? "efd" : "rfd");
		chan_fd_close(c, fdp);
		return 0;
	}
	sbuf_store_u32(p, (uint32_t)got);
	if ((r = sbuf_consume_end(b, n - (size_t)got)) != 0)
		return r;
	c->remote_window -= (uint32_t)got;
	chan_used(c);
	return tr_msg_send(cs->t);
}

int
chan_write_fd(struct chan_set *cs, struct chan *c, int ext)
{
	struct sbuf *buf = ext ? c->ebuf : c->wbuf;
	int fd = ext ? c->efd : c->wfd;
	ssize_t n;

	if (c->datagram && !ext)
		return tun_chan_write(cs, c);
	if (fd == -1 || sbuf_len(buf) == 0)
		return 0;
	n = write(fd, sbuf_ptr(buf), sbuf_len(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		log_debug("channel %u: write failed: %s", c->local_id,
		    n < 0 ? strerror(errno) : "short");
		chan_close_write(c);
		return 0;
	}
	c->local_consumed += (uint32_t)n;
	chan_used(c);
	return sbuf_consume(buf, (size_t)n);
}

/* Data from the peer for wfd (ext 0) or efd (ext 1); buf is its queue. */
int
chan_put_data(struct chan *c, struct sbuf *buf, int ext,
    const unsigned char *data, size_t len)
{
	int fd = ext ? c->efd : c->wfd;
	ssize_t n = 0;
	int r;

	if (c->datagram && !ext)
		return tun_chan_put(c, data, len);
	/*
	 * Large data goes straight out when nothing is queued before it;
	 * smaller pieces are queued and written together once every
	 * message of this read is handled (chan_flush_writes()): one
	 * write and one wakeup of the reader per batch instead of one per
	 * packet (a stock client sends 16 KiB packets).
	 */
	if (sbuf_len(buf) == 0 && fd != -1 && len >= CHAN_DIRECT_MIN) {
		n = write(fd, data, len);
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			log_debug("channel %u: write failed: %s", c->local_id,
			    strerror(errno));
			chan_close_write(c);
			c->local_consumed += (uint32_t)len;
			return 0;
		}
		if (n < 0)
			n = 0;
		else if (n > 0)
			chan_used(c);
		c->local_consumed += (uint32_t)n;
	}
	if ((size_t)n == len)
		return 0;
	/*
	 * Queue the rest. Slide what is queued to the front without a wipe
	 * when that makes room (sbuf_allocate() would wipe the bytes already
	 * written): this is the user's stream, not a secret of ours.
	 */
	if ((r = sbuf_make_room(buf, len - (size_t)n)) != 0)
		return r;
	return sbuf_put(buf, data + n, len - (size_t)n);
}

static int
flush_one(struct chan_set *cs, struct chan *c, void *arg)
{
	int *errp = arg;

	if ((*errp = chan_write_fd(cs, c, 0)) != 0 ||
	    (*errp = chan_write_fd(cs, c, 1)) != 0)
		return 1;
	return 0;
}

int
chan_flush_writes(struct chan_set *cs)
{
	int r = 0;

	chan_foreach(cs, flush_one, &r);
	return r;
}

/* The transport socket's receive buffer, as a bandwidth-delay hint. */
size_t
chan_bdp_hint(struct chan_set *cs)
{
	int v = 0;
	socklen_t len = sizeof(v);

	if (getsockopt(tr_fd_in(cs->t), SOL_SOCKET, SO_RCVBUF, &v,
	    &len) != 0 || v < 0)
		return 0;
	return (size_t)v;
}
