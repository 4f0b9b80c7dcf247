/*
 * channel.c: the channel table and the connection-layer messages
 * (RFC 4254 sections 4 and 5); see channel.h for the model.
 *
 * Incoming messages go through a table from message number to handler.
 * Channel types, global requests and channel requests are tables too.
 * Moving data between fds and packets is in chanio.c; global requests
 * and watched fds in changlobal.c; channel opens and their answers in
 * chanopen.c.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

time_t
chan_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return time(NULL);
	return ts.tv_sec;
}

struct chan_set *
chan_set_new(struct transport *t)
{
	struct chan_set *cs;
	struct ev_loop *ev;

	if ((ev = ev_new()) == NULL)
		return NULL;
	cs = x_calloc(1, sizeof(*cs));
	cs->t = t;
	cs->ev = ev;
	cs->last_rx = chan_now();
	conn_timers_init(cs);
	chan_timeouts_init(cs);
	return cs;
}

void
chan_fd_close(struct chan *c, int *fdp)
{
	int fd = *fdp;

	if (fd == -1)
		return;
	*fdp = -1;
	/*
	 * rfd and wfd may share a pty master or a socket: close on the
	 * last use; a socket we stop writing to still gets its FIN.
	 */
	if (fd == c->rfd || fd == c->wfd || fd == c->efd) {
		if (fdp == &c->wfd && !c->wfd_is_tty)
			(void)shutdown(fd, SHUT_WR);
		return;
	}
	/* Out of the loop first: epoll would outlive the number. */
	ev_fd_del(c->set->ev, fd);
	close(fd);
}

void
chan_free(struct chan_set *cs, struct chan *c)
{
	chan_idle_gone(cs, c);
	if (c->ops != NULL && c->ops->free != NULL)
		c->ops->free(cs, c);
	chan_fd_close(c, &c->rfd);
	chan_fd_close(c, &c->wfd);
	chan_fd_close(c, &c->efd);
	sbuf_free(c->wbuf);
	sbuf_free(c->ebuf);
	cs->chans[c->local_id] = NULL;
	cs->count--;
	log_debug2("channel %u: free", c->local_id);
	x_free(c);
}

void
chan_set_free(struct chan_set *cs)
{
	size_t i;

	if (cs == NULL)
		return;
	chan_log_refusals_end(cs);
	cs->unused_secs = 0;	/* no more counting: all go */
	for (i = 0; i < cs->nalloc; i++)
		if (cs->chans[i] != NULL)
			chan_free(cs, cs->chans[i]);
	x_free(cs->chans);
	x_free(cs->greplies);
	x_free(cs->watches);
	ev_free(cs->ev);
	x_free(cs);
}

struct transport *
chan_set_transport(const struct chan_set *cs)
{
	return cs->t;
}

int
chan_set_register(struct chan_set *cs, const struct chan_ops *ops, void *arg)
{
	if (cs->ntypes >= CHAN_MAX_TYPES || ops == NULL || ops->type == NULL)
		return ERR_INVALID_ARGUMENT;
	cs->type_args[cs->ntypes] = arg;
	cs->types[cs->ntypes++] = ops;
	return 0;
}

void
chan_set_keepalive(struct chan_set *cs, int interval, int count_max,
    const char *user, const char *addr, int port)
{
	cs->alive_interval = interval > 0 ? interval : 0;
	cs->alive_count_max = count_max;
	cs->peer_user = user;
	cs->peer_addr = addr;
	cs->peer_port = port;
}

void
chan_set_idle(struct chan_set *cs, int ms,
    void (*cb)(struct chan_set *, void *), void *arg)
{
	cs->idle_ms = cb != NULL && ms > 0 ? ms : 0;
	cs->idle_cb = cb;
	cs->idle_arg = arg;
	if (cs->idle_ms == 0)
		ev_timer_stop(cs->ev, &cs->idle_tm);
}

void
chan_set_exit_when_idle(struct chan_set *cs, int on)
{
	cs->exit_when_idle = on;
}

size_t
chan_set_count(const struct chan_set *cs)
{
	return cs->count;
}

struct chan *
chan_lookup(struct chan_set *cs, uint32_t id)
{
	if (id >= cs->nalloc)
		return NULL;
	return cs->chans[id];
}

void
chan_foreach(struct chan_set *cs,
    int (*fn)(struct chan_set *, struct chan *, void *), void *arg)
{
	size_t i;

	for (i = 0; i < cs->nalloc; i++)
		if (cs->chans[i] != NULL && fn(cs, cs->chans[i], arg) != 0)
			return;
}

struct chan *
chan_alloc(struct chan_set *cs, const struct chan_ops *ops)
{
	struct chan *c;
	size_t i;

	if (cs->count >= CHAN_MAX_CHANNELS)
		return NULL;
	for (i = 0; i < cs->nalloc; i++)
		if (cs->chans[i] == NULL)
			break;
	if (i == cs->nalloc) {
		size_t n = cs->nalloc ? cs->nalloc * 2 : 8;

		cs->chans = x_reallocarray(cs->chans, n, sizeof(*cs->chans));
		memset(cs->chans + cs->nalloc, 0,
		    (n - cs->nalloc) * sizeof(*cs->chans));
		cs->nalloc = n;
	}
	c = x_calloc(1, sizeof(*c));
	c->set = cs;
	c->local_id = (uint32_t)i;
	c->ops = ops;
	c->rfd = c->wfd = c->efd = -1;
	c->local_window = c->local_window_max = CHAN_WINDOW;
	c->local_maxpacket = CHAN_MAXPACKET;
	c->wbuf = sbuf_new();
	c->ebuf = sbuf_new();
	chan_idle_init(cs, c);
	cs->chans[i] = c;
	cs->count++;
	cs->had_channel = 1;
	return c;
}

static void
set_nonblock(int fd)
{
	int fl;

	if (fd != -1 && (fl = fcntl(fd, F_GETFL)) != -1)
		(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void
chan_set_fds(struct chan *c, int rfd, int wfd, int efd,
    enum chan_efd_mode efd_mode, int wfd_is_tty)
{
	c->rfd = rfd;
	c->wfd = wfd;
	c->efd = efd;
	c->efd_mode = efd == -1 ? CHAN_EFD_NONE : efd_mode;
	c->wfd_is_tty = wfd_is_tty ? 1 : 0;
	c->active = 1;
	set_nonblock(rfd);
	set_nonblock(wfd);
	set_nonblock(efd);
	if (c->write_closed) {
		chan_fd_close(c, &c->wfd);
		if (c->efd_mode == CHAN_EFD_WRITE)
			chan_fd_close(c, &c->efd);
	}
	chan_idle_open(c);
}

void
chan_close_write(struct chan *c)
{
	c->write_closed = 1;
	chan_fd_close(c, &c->wfd);
	if (c->efd_mode == CHAN_EFD_WRITE)
		chan_fd_close(c, &c->efd);
	sbuf_reset(c->wbuf);
	sbuf_reset(c->ebuf);
}

void
chan_close_all_fds(struct chan *c)
{
	chan_close_write(c);
	chan_fd_close(c, &c->rfd);
	chan_fd_close(c, &c->efd);
}

/* Start a message addressed to the peer's end of c. */
struct sbuf *
chan_msg_start(struct chan_set *cs, struct chan *c, uint8_t type)
{
	struct sbuf *b;

	if (c->close_sent)
		return NULL;
	b = tr_msg_start(cs->t, type);
	if (b == NULL || sbuf_put_u32(b, c->remote_id) != 0)
		return NULL;
	return b;
}

int
chan_msg_send(struct chan_set *cs)
{
	return tr_msg_send(cs->t);
}

struct sbuf *
chan_request_start(struct chan_set *cs, struct chan *c, const char *name,
    int want_reply)
{
	struct sbuf *b;

	if (!c->confirmed)
		return NULL;
	if ((b = chan_msg_start(cs, c, SSH2_MSG_CHANNEL_REQUEST)) == NULL)
		return NULL;
	if (sbuf_put_cstring(b, name) != 0 ||
	    sbuf_put_u8(b, want_reply ? 1 : 0) != 0)
		return NULL;
	return b;
}

int
chan_send_eof(struct chan_set *cs, struct chan *c)
{
	if (c->eof_sent || c->close_sent || !c->confirmed)
		return 0;
	if (chan_msg_start(cs, c, SSH2_MSG_CHANNEL_EOF) == NULL)
		return ERR_INTERNAL;
	c->eof_sent = 1;
	log_debug2("channel %u: send eof", c->local_id);
	return tr_msg_send(cs->t);
}

int
chan_send_close(struct chan_set *cs, struct chan *c)
{
	if (c->close_sent)
		return 0;
	if (chan_msg_start(cs, c, SSH2_MSG_CHANNEL_CLOSE) == NULL)
		return ERR_INTERNAL;
	c->close_sent = 1;
	log_debug2("channel %u: send close", c->local_id);
	return tr_msg_send(cs->t);
}

int
chan_open(struct chan_set *cs, const struct chan_ops *ops, void *ctx,
    const struct sbuf *extra, struct chan **cp)
{
	struct chan *c;
	struct sbuf *b;
	int r;

	*cp = NULL;
	if ((c = chan_alloc(cs, ops)) == NULL)
		return ERR_NO_BUFFER_SPACE;
	c->ctx = ctx;
	if ((b = tr_msg_start(cs->t, SSH2_MSG_CHANNEL_OPEN)) == NULL) {
		r = ERR_INTERNAL;
		goto fail;
	}
	if ((r = sbuf_put_cstring(b, ops->type)) != 0 ||
	    (r = sbuf_put_u32(b, c->local_id)) != 0 ||
	    (r = sbuf_put_u32(b, c->local_window)) != 0 ||
	    (r = sbuf_put_u32(b, c->local_maxpacket)) != 0 ||
	    (extra != NULL && (r = sbuf_putb(b, extra)) != 0) ||
	    (r = tr_msg_send(cs->t)) != 0)
		goto fail;
	*cp = c;
	return 0;
 fail:
	c->ctx = NULL;
	c->ops = NULL;
	chan_free(cs, c);
	return r;
}

/* Advance one channel's state; may free it. */
static int
chan_check(struct chan_set *cs, struct chan *c)
{
	uint32_t add;
	struct sbuf *b;
	int r;

	if (c->relay)
		return 0;	/* its owner's to advance */
	if (!c->confirmed) {
		if (c->close_rcvd)
			chan_free(cs, c);
		return 0;
	}
	if (c->close_rcvd) {
		/* What arrived before CLOSE still goes out first. */
		if (!c->write_closed &&
		    ((sbuf_len(c->wbuf) > 0 && c->wfd != -1) ||
		    (sbuf_len(c->ebuf) > 0 && c->efd != -1 &&
		    c->efd_mode == CHAN_EFD_WRITE)))
			return 0;
		chan_close_all_fds(c);
		if ((r = chan_send_close(cs, c)) != 0)
			return r;
		chan_free(cs, c);
		return 0;
	}
	if (!c->active || c->close_sent)
		return 0;
	if (!c->write_closed && c->eof_rcvd && sbuf_len(c->wbuf) == 0 &&
	    sbuf_len(c->ebuf) == 0)
		chan_close_write(c);
	if (!c->eof_sent && c->rfd == -1 &&
	    (c->efd == -1 || c->efd_mode != CHAN_EFD_READ) &&
	    (c->ops->eof_ok == NULL || c->ops->eof_ok(cs, c))) {
		if ((r = chan_send_eof(cs, c)) != 0)
			return r;
	}
	if (chan_adjust_due(c->local_consumed, c->local_window,
	    c->local_window_max, c->write_closed || c->eof_rcvd, &add)) {
		uint32_t grown = chan_window_autotune(c->local_window_max,
		    chan_bdp_hint(cs), sbuf_len(c->wbuf) + sbuf_len(c->ebuf),
		    CHAN_WINDOW_CAP);

		add += grown - c->local_window_max;
		if (grown != c->local_window_max)
			log_debug2("channel %u: window %u -> %u", c->local_id,
			    c->local_window_max, grown);
		c->local_window_max = grown;
		if ((b = chan_msg_start(cs, c,
		    SSH2_MSG_CHANNEL_WINDOW_ADJUST)) == NULL ||
		    (r = sbuf_put_u32(b, add)) != 0 ||
		    (r = tr_msg_send(cs->t)) != 0)
			return b == NULL ? ERR_INTERNAL : r;
		c->local_window += add;
		c->local_consumed = 0;
	}
	if (c->eof_sent && c->write_closed &&
	    (c->ops->close_ok == NULL || c->ops->close_ok(cs, c))) {
		chan_close_all_fds(c);
		if ((r = chan_send_close(cs, c)) != 0)
			return r;
	}
	return 0;
}

int
chan_check_all(struct chan_set *cs)
{
	size_t i;
	int r;

	for (i = 0; i < cs->nalloc; i++) {
		if (cs->chans[i] == NULL)
			continue;
		if ((r = chan_check(cs, cs->chans[i])) != 0)
			return r;
	}
	return 0;
}

/* ---- incoming messages ---- */

/* Look up the recipient channel of a message; a bad id breaks the protocol. */
int
chan_get(struct chan_set *cs, struct sbuf *m, int need_open, struct chan **cp)
{
	uint32_t id;
	int r;

	if ((r = sbuf_get_u32(m, &id)) != 0)
		return r;
	if ((*cp = chan_lookup(cs, id)) == NULL) {
		log_error("channel message for unknown channel %u", id);
		return ERR_PROTOCOL;
	}
	if (need_open && !(*cp)->confirmed) {
		log_error("channel %u: message before open completed", id);
		return ERR_PROTOCOL;
	}
	return 0;
}

static int
in_window_adjust(struct chan_set *cs, struct sbuf *m)
{
	struct chan *c;
	uint32_t add;
	int r;

	if ((r = chan_get(cs, m, 1, &c)) != 0 ||
	    (r = sbuf_get_u32(m, &add)) != 0)
		return r;
	if ((r = chan_window_add(&c->remote_window, add)) != 0)
		log_error("channel %u: adjust %u overflows window %u",
		    c->local_id, add, c->remote_window);
	return r;
}

static int
in_data_common(struct chan_set *cs, struct sbuf *m, int ext)
{
	struct chan *c;
	const unsigned char *data;
	size_t len;
	uint32_t code = 0;
	struct sbuf *dst;
	int r;

	if ((r = chan_get(cs, m, 1, &c)) != 0 ||
	    (ext && (r = sbuf_get_u32(m, &code)) != 0) ||
	    (r = sbuf_get_string_direct(m, &data, &len)) != 0)
		return r;
	if (c->eof_rcvd || c->close_rcvd) {
		log_debug("channel %u: data after eof", c->local_id);
		return 0;
	}
	if (len > UINT32_MAX ||
	    chan_window_consume(&c->local_window, (uint32_t)len) != 0) {
		log_info("channel %u: rcvd too much data %zu, win %u",
		    c->local_id, len, c->local_window);
		return 0;
	}
	if (ext && (code != SSH2_EXTENDED_DATA_STDERR ||
	    c->efd_mode != CHAN_EFD_WRITE))
		dst = NULL;
	else
		dst = ext ? c->ebuf : c->wbuf;
	if (dst == NULL || c->write_closed) {
		/* Dropped, but give the window back. */
		c->local_consumed += (uint32_t)len;
		return 0;
	}
	return chan_put_data(c, dst, ext, data, len);
}

static int
in_data(struct chan_set *cs, struct sbuf *m)
{
	return in_data_common(cs, m, 0);
}

static int
in_ext_data(struct chan_set *cs, struct sbuf *m)
{
	return in_data_common(cs, m, 1);
}

static int
in_eof(struct chan_set *cs, struct sbuf *m)
{
	struct chan *c;
	int r;

	if ((r = chan_get(cs, m, 1, &c)) != 0)
		return r;
	log_debug2("channel %u: rcvd eof", c->local_id);
	c->eof_rcvd = 1;
	return 0;
}

static int
in_close(struct chan_set *cs, struct sbuf *m)
{
	struct chan *c;
	int r;

	if ((r = chan_get(cs, m, 1, &c)) != 0)
		return r;
	if (c->close_rcvd)
		return ERR_PROTOCOL;
	log_debug2("channel %u: rcvd close", c->local_id);
	c->close_rcvd = 1;
	return 0;
}

static int
in_chan_request(struct chan_set *cs, struct sbuf *m)
{
	struct chan *c;
	char *name = NULL;
	int want_reply, ok, r;

	if ((r = chan_get(cs, m, 1, &c)) != 0 ||
	    (r = sbuf_get_cstring(m, &name, NULL)) != 0 ||
	    (r = sbuf_get_bool(m, &want_reply)) != 0)
		goto out;
	log_debug("server_input_channel_req: channel %u request %s "
	    "reply %d", c->local_id, name, want_reply);
	if (c->close_sent || c->close_rcvd)
		goto out;
	ok = c->ops->request != NULL &&
	    c->ops->request(cs, c, name, want_reply, m) == 0;
	if (want_reply && !c->close_sent) {
		if (chan_msg_start(cs, c, ok ? SSH2_MSG_CHANNEL_SUCCESS :
		    SSH2_MSG_CHANNEL_FAILURE) == NULL) {
			r = ERR_INTERNAL;
			goto out;
		}
		r = tr_msg_send(cs->t);
	}
 out:
	x_free(name);
	return r;
}

static int
in_chan_reply(struct chan_set *cs, struct sbuf *m, int ok)
{
	struct chan *c;
	int r;

	if ((r = chan_get(cs, m, 1, &c)) != 0)
		return r;
	cs->alive_unanswered = 0;
	if (c->ops->reply != NULL)
		c->ops->reply(cs, c, ok);
	return 0;
}

static int
in_chan_success(struct chan_set *cs, struct sbuf *m)
{
	return in_chan_reply(cs, m, 1);
}

static int
in_chan_failure(struct chan_set *cs, struct sbuf *m)
{
	return in_chan_reply(cs, m, 0);
}

static const struct {
	uint8_t type;
	int (*fn)(struct chan_set *, struct sbuf *);
} handlers[] = {
	{ SSH2_MSG_GLOBAL_REQUEST,		chan_in_global_request },
	{ SSH2_MSG_REQUEST_SUCCESS,		chan_in_global_success },
	{ SSH2_MSG_REQUEST_FAILURE,		chan_in_global_failure },
	{ SSH2_MSG_CHANNEL_OPEN,		chan_in_open },
	{ SSH2_MSG_CHANNEL_OPEN_CONFIRMATION,	chan_in_open_confirm },
	{ SSH2_MSG_CHANNEL_OPEN_FAILURE,	chan_in_open_failure },
	{ SSH2_MSG_CHANNEL_WINDOW_ADJUST,	in_window_adjust },
	{ SSH2_MSG_CHANNEL_DATA,		in_data },
	{ SSH2_MSG_CHANNEL_EXTENDED_DATA,	in_ext_data },
	{ SSH2_MSG_CHANNEL_EOF,			in_eof },
	{ SSH2_MSG_CHANNEL_CLOSE,		in_close },
	{ SSH2_MSG_CHANNEL_REQUEST,		in_chan_request },
	{ SSH2_MSG_CHANNEL_SUCCESS,		in_chan_success },
	{ SSH2_MSG_CHANNEL_FAILURE,		in_chan_failure },
};

int
chan_dispatch(struct chan_set *cs, uint8_t type, struct sbuf *msg)
{
	size_t i;
	int r;

	cs->last_rx = chan_now();
	if ((r = chan_relay_dispatch(cs, type, msg)) != 1)
		return r;
	for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		if (handlers[i].type == type)
			return handlers[i].fn(cs, msg);
	/* Late userauth messages are ignored (RFC 4252 section 5.1). */
	if (type >= 50 && type < 80) {
		log_debug("connection: ignoring message type %u", type);
		return 0;
	}
	/*
	 * A PONG (PROTOCOL 1.8) answers our PINGs, the keystroke chaff of
	 * ssh's ObscureKeystrokeTiming: nothing to do, as in OpenSSH.
	 */
	if (type == SSH2_MSG_PONG)
		return sbuf_get_string_direct(msg, NULL, NULL) == 0 ? 0 :
		    ERR_INVALID_FORMAT;
	return tr_unimplemented(cs->t);
}
