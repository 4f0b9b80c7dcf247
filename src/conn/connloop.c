/*
 * connloop.c: the event loop of one connection (see channel.h).
 *
 * Each pass: advance every channel's EOF/CLOSE state, build a poll set of
 * the transport's fds, the channels' fds and the hook fd, wait, then read
 * from the transport and dispatch every complete message, run the hook,
 * move channel data, and write the transport's output. A channel's read
 * fds are polled only while the peer's window is open and the transport's
 * output queue is below CONN_OUTPUT_HIGH, so a slow peer holds data back
 * in the producer rather than in our memory.
 *
 * ClientAlive: when nothing has arrived from the peer for the interval, we
 * send a keepalive@openssh.com global request wanting a reply; any reply
 * resets the count, and after CountMax unanswered probes we disconnect.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "transport.h"

enum slot { SLOT_TR, SLOT_HOOK, SLOT_R, SLOT_E, SLOT_W, SLOT_EW, SLOT_WATCH };

struct pollset {
	struct pollfd *pfd;
	struct {
		enum slot slot;
		uint32_t id;
	} *who;
	size_t n, alloc;
};

static void
ps_add(struct pollset *ps, int fd, short events, enum slot slot, uint32_t id)
{
	if (ps->n == ps->alloc) {
		ps->alloc = ps->alloc ? ps->alloc * 2 : 16;
		ps->pfd = x_reallocarray(ps->pfd, ps->alloc, sizeof(*ps->pfd));
		ps->who = x_reallocarray(ps->who, ps->alloc, sizeof(*ps->who));
	}
	ps->pfd[ps->n].fd = fd;
	ps->pfd[ps->n].events = events;
	ps->pfd[ps->n].revents = 0;
	ps->who[ps->n].slot = slot;
	ps->who[ps->n].id = id;
	ps->n++;
}

static void
build_pollset(struct chan_set *cs, struct pollset *ps)
{
	struct transport *t = cs->t;
	/* No channel reads while keys change (see tr_kex_running()). */
	int can_read = tr_output_pending(t) < CONN_OUTPUT_HIGH &&
	    !tr_kex_running(t);
	size_t i;

	ps->n = 0;
	ps_add(ps, tr_fd_in(t), POLLIN, SLOT_TR, 0);
	if (tr_want_write(t))
		ps_add(ps, tr_fd_out(t), POLLOUT, SLOT_TR, 0);
	if (cs->hook_fd != -1)
		ps_add(ps, cs->hook_fd, POLLIN, SLOT_HOOK, 0);
	for (i = 0; i < cs->nwatches; i++)
		if (cs->watches[i].fd != -1)
			ps_add(ps, cs->watches[i].fd, cs->watches[i].events,
			    SLOT_WATCH, (uint32_t)i);
	for (i = 0; i < cs->nalloc; i++) {
		struct chan *c = cs->chans[i];
		int rd;

		if (c == NULL || !c->confirmed || !c->active || c->close_sent)
			continue;
		rd = can_read && !c->eof_sent &&
		    chan_send_limit(c->remote_window, c->remote_maxpacket,
		    CHAN_READ_MAX) > 0 &&
		    !c->close_rcvd;
		if (rd && c->rfd != -1)
			ps_add(ps, c->rfd, POLLIN, SLOT_R, c->local_id);
		if (rd && c->efd != -1 && c->efd_mode == CHAN_EFD_READ)
			ps_add(ps, c->efd, POLLIN, SLOT_E, c->local_id);
		if (c->wfd != -1 && sbuf_len(c->wbuf) > 0)
			ps_add(ps, c->wfd, POLLOUT, SLOT_W, c->local_id);
		if (c->efd != -1 && c->efd_mode == CHAN_EFD_WRITE &&
		    sbuf_len(c->ebuf) > 0)
			ps_add(ps, c->efd, POLLOUT, SLOT_EW, c->local_id);
	}
}

/* Probe or give up on a silent peer; returns the next poll timeout. */
static int
keepalive(struct chan_set *cs, int *errp)
{
	time_t now = chan_now(), due;
	struct sbuf *b;

	*errp = 0;
	if (cs->alive_interval <= 0)
		return -1;
	due = cs->last_rx + cs->alive_interval;
	if (now < due)
		return (int)(due - now) * 1000;
	if (cs->alive_unanswered >= cs->alive_count_max) {
		log_info("Timeout, client not responding from user %s %s "
		    "port %d", cs->peer_user ? cs->peer_user : "?",
		    cs->peer_addr ? cs->peer_addr : "?", cs->peer_port);
		(void)tr_disconnect(cs->t, SSH2_DISCONNECT_BY_APPLICATION,
		    "Timeout, your session not responding.");
		*errp = ERR_CONN_TIMEOUT;
		return -1;
	}
	cs->alive_unanswered++;
	if ((b = chan_global_start(cs, "keepalive@openssh.com", 1, NULL,
	    NULL)) == NULL || tr_msg_send(cs->t) != 0) {
		*errp = ERR_INTERNAL;
		return -1;
	}
	/* Wait another interval for input before the next probe. */
	cs->last_rx = now;
	return cs->alive_interval * 1000;
}

static int
drain_messages(struct chan_set *cs)
{
	uint8_t type;
	struct sbuf *msg;
	int r;

	for (;;) {
		r = tr_next_message(cs->t, &type, &msg);
		if (r == ERR_AGAIN)
			return chan_flush_writes(cs);
		if (r != 0)
			return r;
		if ((r = chan_dispatch(cs, type, msg)) != 0) {
			if (r == ERR_PROTOCOL || r == ERR_MESSAGE_INCOMPLETE ||
			    r == ERR_INVALID_FORMAT)
				(void)tr_disconnect(cs->t,
				    SSH2_DISCONNECT_PROTOCOL_ERROR,
				    "protocol error in message %u", type);
			return r;
		}
	}
}

static int
channel_io(struct chan_set *cs, struct pollset *ps, size_t i)
{
	struct chan *c = chan_lookup(cs, ps->who[i].id);
	short ev = ps->pfd[i].revents;

	if (c == NULL || ev == 0)
		return 0;
	switch (ps->who[i].slot) {
	case SLOT_R:
		return chan_read_fd(cs, c, 0);
	case SLOT_E:
		return chan_read_fd(cs, c, 1);
	case SLOT_W:
		return chan_write_fd(cs, c, 0);
	case SLOT_EW:
		return chan_write_fd(cs, c, 1);
	default:
		return 0;
	}
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Shorten timeout to when the idle callback is due, if it is pending. */
static int
idle_timeout(const struct chan_set *cs, int64_t last_busy, int timeout)
{
	int64_t left;

	if (cs->idle_ms <= 0 || cs->idle_done)
		return timeout;
	left = last_busy + cs->idle_ms - now_ms();
	if (left < 0)
		left = 0;
	return timeout < 0 || left < timeout ? (int)left : timeout;
}

int
conn_loop(struct transport *t, struct chan_set *cs)
{
	struct pollset ps;
	size_t i;
	int timeout, nready, r = 0;
	int64_t last_busy = now_ms();

	memset(&ps, 0, sizeof(ps));
	cs->t = t;
	cs->last_rx = chan_now();
	/* Messages that arrived along with the last authentication reply. */
	if ((r = drain_messages(cs)) != 0)
		goto done;
	for (;;) {
		if ((r = chan_check_all(cs)) != 0)
			break;
		if (cs->exit_when_idle && cs->had_channel && cs->count == 0) {
			r = tr_flush(t);
			break;
		}
		timeout = keepalive(cs, &r);
		if (r != 0)
			break;
		if (tr_poll_timeout(t) >= 0 &&
		    (timeout < 0 || tr_poll_timeout(t) < timeout))
			timeout = tr_poll_timeout(t);
		timeout = idle_timeout(cs, last_busy, timeout);
		build_pollset(cs, &ps);
		if ((nready = poll(ps.pfd, ps.n, timeout)) < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			log_error("poll: %s", strerror(errno));
			r = ERR_SYSTEM;
			break;
		}
		tr_poll_done(t);
		if (nready > 0) {
			last_busy = now_ms();
			cs->idle_done = 0;
		} else if (cs->idle_ms > 0 && !cs->idle_done &&
		    now_ms() - last_busy >= cs->idle_ms) {
			cs->idle_done = 1;
			cs->idle_cb(cs, cs->idle_arg);
		}
		if ((r = tr_check_rekey(t)) != 0)
			break;
		for (i = 0; i < ps.n; i++) {
			if (ps.who[i].slot != SLOT_TR || ps.pfd[i].revents == 0)
				continue;
			if (ps.pfd[i].events & POLLIN) {
				r = tr_fd_read(t);
				if (r == ERR_AGAIN)
					r = 0;
				if (r != 0)
					goto done;
				if ((r = drain_messages(cs)) != 0)
					goto done;
			} else if ((r = tr_fd_write(t)) != 0 &&
			    r != ERR_AGAIN)
				goto done;
		}
		for (i = 0; i < ps.n; i++) {
			if (ps.who[i].slot == SLOT_HOOK &&
			    ps.pfd[i].revents != 0 && cs->hook_cb != NULL)
				cs->hook_cb(cs, cs->hook_arg);
		}
		for (i = 0; i < ps.n; i++)
			if ((r = channel_io(cs, &ps, i)) != 0)
				goto done;
		for (i = 0; i < ps.n; i++) {
			struct chan_watch *w;

			if (ps.who[i].slot != SLOT_WATCH ||
			    ps.pfd[i].revents == 0 ||
			    ps.who[i].id >= cs->nwatches)
				continue;
			w = &cs->watches[ps.who[i].id];
			/* Unwatched (or replaced) since the poll: skip. */
			if (w->fd != ps.pfd[i].fd)
				continue;
			w->cb(cs, w->fd, ps.pfd[i].revents, w->arg);
		}
		if (tr_want_write(t) && (r = tr_fd_write(t)) != 0 &&
		    r != ERR_AGAIN)
			break;
		r = 0;
	}
 done:
	if (r == ERR_CONN_CLOSED || r == ERR_DISCONNECTED)
		r = 0;
	x_free(ps.pfd);
	x_free(ps.who);
	return r;
}
