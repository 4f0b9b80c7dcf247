/*
 * mux_proxy.c: the master's downstreams, control connections in proxy
 * mode (see mux_proxy.h for the framing).
 *
 * A downstream speaks the connection protocol as if it had the
 * connection to itself. For each channel it opens, the master makes a
 * relay channel of its own (chan_relay_new(): an id in the connection's
 * table and nothing more) and sends the open upstream with that id as
 * the sender; the server's confirmation goes back down with the
 * downstream's id as the recipient and the master's id as the sender.
 * So on either side the other end's id of every relayed channel is the
 * master's: a message from the downstream names the master's id, which
 * is looked up, checked to be a relay channel of this very downstream,
 * and replaced by the server's id; a message from the server reaches
 * the relay hook with the master's id, which is replaced by the
 * downstream's. Nothing else in a message changes. Windows and
 * maximum packet sizes are the two ends' business: the master neither
 * buffers channel data nor counts it, except what waits for a slow
 * downstream to read (bounded; a downstream that lets more pile up is
 * dropped).
 *
 * Every byte from a downstream is hostile. A malformed message, one of
 * a type a downstream may not send (key exchange, authentication), or
 * one for a channel not its own (unknown, another client's, the
 * master's own sessions, or one it closed) ends that downstream, never
 * the master. Global requests are refused (REQUEST_FAILURE when a
 * reply is wanted): the connection's global state (remote forwardings,
 * no-more-sessions) is the master's.
 *
 * When a downstream goes, each of its channels still open is closed
 * upstream and kept, ownerless, until the server's CLOSE (or its answer
 * to an open still under way) arrives.
 */
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "mux_int.h"
#include "mux_proxy.h"
#include "sbuf.h"
#include "transport.h"

/* Bytes read from a downstream at a time. */
#define MUXP_READ_CHUNK		(64u * 1024)
/* What may wait for a downstream to read before it is dropped. */
#define MUXP_OUT_MAX		(64u * 1024 * 1024)
/* Channels one downstream may have at once. */
#define MUXP_MAX_CHANS		(CHAN_MAX_CHANNELS / 2)

struct mux_proxy {
	struct mux_conn *c;
	struct chan_set *cs;
	struct sbuf *in;		/* bytes of a packet not yet whole */
	struct sbuf *out;		/* for the downstream, not yet taken */
	size_t nchans;
	int watch_out;			/* POLLOUT is watched */
	int dead;			/* dropped: closed next turn */
	struct ev_timer drop_tm;
};

/* A relay channel's context. */
struct pchan {
	struct mux_proxy *px;		/* NULL: the downstream went */
	uint32_t down_id;		/* the downstream's id for it */
};

static int relay_in(struct chan_set *, struct chan *, uint8_t,
    struct sbuf *);
static void pchan_free(struct chan_set *, struct chan *);
static void px_io(struct chan_set *, int, short, void *);

static const struct chan_ops relay_ops = {
	.type = "mux-proxy",
	.relay = relay_in,
	.free = pchan_free,
};

/* ---- towards the downstream ---- */

static void
drop_fire(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct mux_proxy *px = arg;

	(void)ev;
	(void)tm;
	mux_conn_close(px->c);
}

/* The downstream cannot be served: end it next turn. */
static void
px_fail(struct mux_proxy *px, const char *why)
{
	if (px->dead)
		return;
	log_error("mux: proxy client: %s", why);
	px->dead = 1;
	ev_timer_start(chan_set_ev(px->cs), &px->drop_tm, 0, 0);
}

/* Write what the downstream will take; watch for more room if needed. */
static void
px_flush(struct mux_proxy *px)
{
	ssize_t n;
	int want;

	while (!px->dead && sbuf_len(px->out) > 0) {
		n = write(px->c->fd, sbuf_ptr(px->out), sbuf_len(px->out));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			px_fail(px, n < 0 ? strerror(errno) : "short write");
			return;
		}
		(void)sbuf_consume(px->out, (size_t)n);
	}
	if (sbuf_len(px->out) > MUXP_OUT_MAX) {
		px_fail(px, "too much output waiting");
		return;
	}
	want = sbuf_len(px->out) > 0;
	if (want != px->watch_out && !px->dead) {
		px->watch_out = want;
		(void)chan_set_watch(px->cs, px->c->fd, want ?
		    POLLIN | POLLOUT : POLLIN, px_io, px);
	}
}

/*
 * One message down: type, the recipient, for a confirmation the sender,
 * then rest (may be NULL) or the bytes p[0..len).
 */
static void
px_send(struct mux_proxy *px, uint8_t type, uint32_t id, const uint32_t *sender,
    const struct sbuf *rest, const void *p, size_t len)
{
	size_t start;
	int r;

	if (px->dead)
		return;
	if ((r = muxp_start(px->out, type, &start)) != 0 ||
	    (r = sbuf_put_u32(px->out, id)) != 0 ||
	    (sender != NULL && (r = sbuf_put_u32(px->out, *sender)) != 0) ||
	    (rest != NULL && (r = sbuf_putb(px->out, rest)) != 0) ||
	    (p != NULL && (r = sbuf_put(px->out, p, len)) != 0) ||
	    (r = muxp_end(px->out, start)) != 0) {
		px_fail(px, err_str(r));
		return;
	}
	px_flush(px);
}

/* REQUEST_FAILURE, the answer to every global request. */
static void
px_send_failure(struct mux_proxy *px)
{
	size_t start;

	if (px->dead)
		return;
	if (muxp_start(px->out, SSH2_MSG_REQUEST_FAILURE, &start) != 0 ||
	    muxp_end(px->out, start) != 0) {
		px_fail(px, "out of memory");
		return;
	}
	px_flush(px);
}

/* A refused open, in the server's words. */
static void
px_open_refused(struct mux_proxy *px, uint32_t id, uint32_t reason,
    const char *desc)
{
	struct sbuf *b = sbuf_new();

	if (sbuf_put_u32(b, reason) == 0 && sbuf_put_cstring(b, desc) == 0 &&
	    sbuf_put_cstring(b, "") == 0)
		px_send(px, SSH2_MSG_CHANNEL_OPEN_FAILURE, id, NULL, b, NULL,
		    0);
	sbuf_free(b);
}

/* ---- from the server ---- */

static void
pchan_free(struct chan_set *cs, struct chan *c)
{
	struct pchan *pc = c->ctx;

	(void)cs;
	if (pc != NULL && pc->px != NULL)
		pc->px->nchans--;
	x_free(pc);
	c->ctx = NULL;
}

/* Our CLOSE for a channel whose downstream is gone. */
static int
close_up(struct chan_set *cs, struct chan *c)
{
	struct sbuf *b;

	if (c->close_sent)
		return 0;
	c->close_sent = 1;
	if ((b = tr_msg_start(chan_set_transport(cs),
	    SSH2_MSG_CHANNEL_CLOSE)) == NULL ||
	    sbuf_put_u32(b, c->remote_id) != 0)
		return ERR_INTERNAL;
	return tr_msg_send(chan_set_transport(cs));
}

/* The server's answer to an open: the channel's ids, or its end. */
static int
relay_open_reply(struct chan_set *cs, struct chan *c, uint8_t type,
    struct sbuf *msg)
{
	struct pchan *pc = c->ctx;
	struct mux_proxy *px = pc->px;
	uint32_t down = pc->down_id, id = c->local_id;
	int r;

	if (c->confirmed) {
		log_error("channel %u: second answer to its open", id);
		return ERR_PROTOCOL;
	}
	if (type == SSH2_MSG_CHANNEL_OPEN_FAILURE) {
		chan_relay_free(cs, c);
		if (px != NULL)
			px_send(px, type, down, NULL, msg, NULL, 0);
		return 0;
	}
	if ((r = sbuf_get_u32(msg, &c->remote_id)) != 0)
		return r;
	c->confirmed = 1;
	if (px == NULL)
		return close_up(cs, c);
	px_send(px, type, down, &id, msg, NULL, 0);
	return 0;
}

static int
relay_in(struct chan_set *cs, struct chan *c, uint8_t type, struct sbuf *msg)
{
	struct pchan *pc = c->ctx;
	struct mux_proxy *px = pc->px;
	uint32_t down = pc->down_id;
	int r = 0;

	if (type == SSH2_MSG_CHANNEL_OPEN_CONFIRMATION ||
	    type == SSH2_MSG_CHANNEL_OPEN_FAILURE)
		return relay_open_reply(cs, c, type, msg);
	if (!c->confirmed) {
		log_error("channel %u: message before open completed",
		    c->local_id);
		return ERR_PROTOCOL;
	}
	if (type == SSH2_MSG_CHANNEL_CLOSE) {
		if (c->close_rcvd)
			return ERR_PROTOCOL;
		c->close_rcvd = 1;
		if (px == NULL)
			r = close_up(cs, c);
		if (c->close_sent)
			chan_relay_free(cs, c);
	}
	/* Ownerless channels hear nothing more than their CLOSE. */
	if (px != NULL)
		px_send(px, type, down, NULL, msg, NULL, 0);
	return r;
}

/* ---- from the downstream ---- */

static int
px_open(struct mux_proxy *px, const struct muxp_msg *m)
{
	struct transport *t = chan_set_transport(px->cs);
	struct pchan *pc;
	struct chan *c;
	struct sbuf *b;
	int r;

	log_debug("mux: proxy client opens %.*s channel %u",
	    (int)(m->namelen > 64 ? 64 : m->namelen), m->name, m->id);
	if (px->nchans >= MUXP_MAX_CHANS) {
		px_open_refused(px, m->id, SSH2_OPEN_RESOURCE_SHORTAGE,
		    "too many channels");
		return 0;
	}
	pc = x_calloc(1, sizeof(*pc));
	if (chan_relay_new(px->cs, &relay_ops, pc, &c) != 0) {
		x_free(pc);
		px_open_refused(px, m->id, SSH2_OPEN_RESOURCE_SHORTAGE,
		    "too many channels");
		return 0;
	}
	pc->px = px;
	pc->down_id = m->id;
	px->nchans++;
	if ((b = tr_msg_start(t, SSH2_MSG_CHANNEL_OPEN)) == NULL) {
		chan_relay_free(px->cs, c);
		return ERR_INTERNAL;
	}
	if ((r = muxp_put_fields(b, m, c->local_id, 0)) != 0 ||
	    (r = tr_msg_send(t)) != 0) {
		chan_relay_free(px->cs, c);
		return r;
	}
	return 0;
}

/* A channel message: for one of its own open channels, or the end. */
static int
px_chan(struct mux_proxy *px, const struct muxp_msg *m)
{
	struct transport *t = chan_set_transport(px->cs);
	struct chan *c = chan_lookup(px->cs, m->id);
	struct pchan *pc = c != NULL && c->relay ? c->ctx : NULL;
	struct sbuf *b;
	int r;

	if (pc == NULL || pc->px != px || !c->confirmed || c->close_sent) {
		log_error("mux: proxy client: message %u for channel %u, "
		    "not one of its open channels", m->type, m->id);
		return ERR_PROTOCOL;
	}
	if ((b = tr_msg_start(t, m->type)) == NULL)
		return ERR_INTERNAL;
	if ((r = muxp_put_fields(b, m, c->remote_id, 0)) != 0 ||
	    (r = tr_msg_send(t)) != 0)
		return r;
	if (m->type == SSH2_MSG_CHANNEL_CLOSE) {
		c->close_sent = 1;
		if (c->close_rcvd)
			chan_relay_free(px->cs, c);
	}
	return 0;
}

/* One message from the downstream; an error drops it. */
static int
px_from_client(struct mux_proxy *px, const unsigned char *p, size_t len)
{
	struct muxp_msg m;
	int r;

	if ((r = muxp_parse(p, len, &m)) != 0) {
		log_error("mux: proxy client: bad message %u: %s",
		    len > 0 ? p[0] : 0, err_str(r));
		return r;
	}
	switch (m.kind) {
	case MUXP_IGNORE:
		return 0;
	case MUXP_DISCONNECT:
		log_debug("mux: proxy client disconnected");
		return ERR_EOF;
	case MUXP_GLOBAL:
		log_debug("mux: proxy client global request %.*s refused",
		    (int)(m.namelen > 64 ? 64 : m.namelen), m.name);
		if (m.want_reply)
			px_send_failure(px);
		return 0;
	case MUXP_OPEN:
		return px_open(px, &m);
	case MUXP_CHAN:
		return px_chan(px, &m);
	default:
		/* The master relays no open from the server downstream. */
		log_error("mux: proxy client: answer to an open it was "
		    "never offered (channel %u)", m.id);
		return ERR_PROTOCOL;
	}
}

/* Read what is there and act on every whole packet. */
static void
px_read(struct mux_proxy *px)
{
	const unsigned char *pay;
	size_t len, used;
	unsigned char *d;
	ssize_t n;
	int r;

	if (sbuf_reserve(px->in, MUXP_READ_CHUNK, &d) != 0) {
		mux_conn_close(px->c);
		return;
	}
	n = read(px->c->fd, d, MUXP_READ_CHUNK);
	(void)sbuf_consume_end(px->in, MUXP_READ_CHUNK -
	    (n > 0 ? (size_t)n : 0));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		log_debug("mux: proxy client closed: %s",
		    n < 0 ? strerror(errno) : "end of file");
		mux_conn_close(px->c);
		return;
	}
	while ((r = muxp_frame(sbuf_ptr(px->in), sbuf_len(px->in), &pay,
	    &len, &used)) == 0) {
		if ((r = px_from_client(px, pay, len)) != 0) {
			mux_conn_close(px->c);
			return;
		}
		(void)sbuf_consume(px->in, used);
		if (px->dead)
			return;
	}
	if (r != ERR_AGAIN) {
		log_error("mux: proxy client: bad packet: %s", err_str(r));
		mux_conn_close(px->c);
	}
}

static void
px_io(struct chan_set *cs, int fd, short revents, void *arg)
{
	struct mux_proxy *px = arg;

	(void)cs;
	(void)fd;
	if (px->dead)
		return;
	if (revents & POLLOUT)
		px_flush(px);
	if (!px->dead && (revents & (POLLIN | POLLERR)))
		px_read(px);
}

int
mproxy_start(struct mux_conn *c)
{
	struct mux_proxy *px;
	int r;

	px = x_calloc(1, sizeof(*px));
	px->c = c;
	px->cs = c->mm->cs;
	px->in = sbuf_new();
	px->out = sbuf_new();
	ev_timer_init(&px->drop_tm, drop_fire, px);
	if ((r = chan_set_watch(px->cs, c->fd, POLLIN, px_io, px)) != 0) {
		sbuf_free(px->in);
		sbuf_free(px->out);
		x_free(px);
		return r;
	}
	c->px = px;
	log_debug("mux: client on fd %d in proxy mode", c->fd);
	return 0;
}

/* Leave px's channels ownerless; with up, close them upstream. */
struct orphan_arg {
	struct mux_proxy *px;
	int up;
};

static int
orphan(struct chan_set *cs, struct chan *c, void *arg)
{
	struct orphan_arg *a = arg;
	struct pchan *pc = c->relay && c->ops == &relay_ops ? c->ctx : NULL;

	if (pc == NULL || pc->px != a->px)
		return 0;
	pc->px = NULL;
	a->px->nchans--;
	/* Unconfirmed ones are closed when the server's answer comes. */
	if (!a->up || !c->confirmed)
		return 0;
	if (close_up(cs, c) != 0)
		log_error("channel %u: cannot close", c->local_id);
	if (c->close_rcvd)
		chan_relay_free(cs, c);
	return 0;
}

static void
px_free(struct mux_proxy *px, int up)
{
	struct orphan_arg a;

	a.px = px;
	a.up = up;
	chan_foreach(px->cs, orphan, &a);
	ev_timer_stop(chan_set_ev(px->cs), &px->drop_tm);
	px->c->px = NULL;
	sbuf_free(px->in);
	sbuf_free(px->out);
	x_free(px);
}

void
mproxy_client_gone(struct mux_proxy *px)
{
	if (px != NULL)
		px_free(px, 1);
}

void
mproxy_detach(struct mux_proxy *px)
{
	if (px != NULL)
		px_free(px, 0);
}
