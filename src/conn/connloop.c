/*
 * connloop.c: the event loop of one connection (see channel.h), on the
 * set's ev loop (ev.h).
 *
 * Before each wait (the before hook): write what the transport holds,
 * advance every channel's EOF/CLOSE state, and bring each fd's interest
 * up to date: the transport's input always, its output while it has
 * something to write, a channel's read fds only while the peer's window
 * is open and the transport's output queue is below CONN_OUTPUT_HIGH (so
 * a slow peer holds data back in the producer rather than in our
 * memory), its write fds while data waits for them. ev only makes a
 * system call when an fd's interest changes. After the wait: the
 * transport's batch and rekey checks. Then the callbacks: the transport
 * (read, dispatch every complete message, write) before the channels'
 * fds and the watched fds, as marked with EV_FIRST.
 *
 * Timers: ClientAlive (when nothing has arrived from the peer for the
 * interval, we send a keepalive@openssh.com global request wanting a
 * reply; any reply resets the count, and after CountMax unanswered
 * probes we disconnect), the idle callback (restarted whenever a wait
 * saw a ready fd), and the transport's own wake-up (tr_poll_timeout(),
 * the end of an input batch or a rekey by time).
 *
 * The loop ends with conn_end(): an error, the peer gone, the last
 * channel gone with exit_when_idle, or conn_stop() from above.
 */
#include <errno.h>
#include <string.h>

#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "ev.h"
#include "log.h"
#include "transport.h"

void
conn_end(struct chan_set *cs, int r)
{
	if (!cs->loop_done) {
		cs->loop_done = 1;
		cs->loop_err = r;
	}
	ev_stop(cs->ev);
}

void
conn_stop(struct chan_set *cs)
{
	cs->stop_req = 1;
	conn_end(cs, 0);
}

struct ev_loop *
chan_set_ev(struct chan_set *cs)
{
	return cs->ev;
}

/* ---- timers ---- */

/* ClientAlive: probe or give up on a silent peer. */
static void
alive_cb(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct chan_set *cs = arg;
	time_t now = chan_now(), due = cs->last_rx + cs->alive_interval;

	if (cs->alive_interval <= 0)
		return;
	if (now < due) {
		ev_timer_start(ev, tm, (int64_t)(due - now) * 1000, 0);
		return;
	}
	if (cs->alive_unanswered >= cs->alive_count_max) {
		log_info("Timeout, client not responding from user %s %s "
		    "port %d", cs->peer_user ? cs->peer_user : "?",
		    cs->peer_addr ? cs->peer_addr : "?", cs->peer_port);
		(void)tr_disconnect(cs->t, SSH2_DISCONNECT_BY_APPLICATION,
		    "Timeout, your session not responding.");
		conn_end(cs, ERR_CONN_TIMEOUT);
		return;
	}
	cs->alive_unanswered++;
	if (chan_global_start(cs, "keepalive@openssh.com", 1, NULL,
	    NULL) == NULL || tr_msg_send(cs->t) != 0) {
		conn_end(cs, ERR_INTERNAL);
		return;
	}
	/* Wait another interval for input before the next probe. */
	cs->last_rx = now;
	ev_timer_start(ev, tm, (int64_t)cs->alive_interval * 1000, 0);
}

static void
idle_cb(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct chan_set *cs = arg;

	(void)ev;
	(void)tm;
	if (cs->idle_cb != NULL)
		cs->idle_cb(cs, cs->idle_arg);
}

/* Only a wake-up: the after hook does the transport's checks. */
static void
tr_wake_cb(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	(void)ev;
	(void)tm;
	(void)arg;
}

void
conn_timers_init(struct chan_set *cs)
{
	ev_timer_init(&cs->alive_tm, alive_cb, cs);
	ev_timer_init(&cs->idle_tm, idle_cb, cs);
	ev_timer_init(&cs->tr_tm, tr_wake_cb, cs);
}

/* ---- fds ---- */

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

static void
transport_cb(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct chan_set *cs = arg;
	struct transport *t = cs->t;
	int r;

	(void)ev;
	if ((events & EV_READ) && fd == tr_fd_in(t)) {
		r = tr_fd_read(t);
		if (r == ERR_AGAIN)
			r = 0;
		if (r != 0 || (r = drain_messages(cs)) != 0) {
			conn_end(cs, r);
			return;
		}
	}
	if ((events & EV_WRITE) && fd == tr_fd_out(t) &&
	    (r = tr_fd_write(t)) != 0 && r != ERR_AGAIN)
		conn_end(cs, r);
}

static void
channel_cb(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct chan *c = arg;
	struct chan_set *cs = c->set;
	int r = 0;

	(void)ev;
	/* rfd and wfd may be one fd: each slot still holding it, in turn. */
	if ((events & EV_READ) && fd == c->rfd)
		r = chan_read_fd(cs, c, 0);
	if (r == 0 && (events & EV_READ) && fd == c->efd &&
	    c->efd_mode == CHAN_EFD_READ)
		r = chan_read_fd(cs, c, 1);
	if (r == 0 && (events & EV_WRITE) && fd == c->wfd)
		r = chan_write_fd(cs, c, 0);
	if (r == 0 && (events & EV_WRITE) && fd == c->efd &&
	    c->efd_mode == CHAN_EFD_WRITE)
		r = chan_write_fd(cs, c, 1);
	if (r != 0)
		conn_end(cs, r);
}

/* What fd of c waits for now, over all the slots that hold it. */
static int
chan_mask(const struct chan *c, int fd, int can_read)
{
	int rd, mask = 0;

	if (!c->confirmed || !c->active || c->close_sent)
		return 0;
	rd = can_read && !c->eof_sent &&
	    chan_send_limit(c->remote_window, c->remote_maxpacket,
	    CHAN_READ_MAX) > 0 && !c->close_rcvd;
	if (rd && fd == c->rfd)
		mask |= EV_READ;
	if (rd && fd == c->efd && c->efd_mode == CHAN_EFD_READ)
		mask |= EV_READ;
	if (fd == c->wfd && sbuf_len(c->wbuf) > 0)
		mask |= EV_WRITE;
	if (fd == c->efd && c->efd_mode == CHAN_EFD_WRITE &&
	    sbuf_len(c->ebuf) > 0)
		mask |= EV_WRITE;
	return mask;
}

static int
update_interest(struct chan_set *cs)
{
	struct transport *t = cs->t;
	/* No channel reads while keys change (see tr_kex_running()). */
	int can_read = tr_output_pending(t) < CONN_OUTPUT_HIGH &&
	    !tr_kex_running(t);
	int in = tr_fd_in(t), out = tr_fd_out(t), r, k;
	int wr = tr_want_write(t) ? EV_WRITE : 0;
	size_t i;

	if (in == out)
		r = ev_fd_mask(cs->ev, in, EV_READ | EV_FIRST | wr);
	else
		r = ev_fd_mask(cs->ev, out, EV_FIRST | wr);
	if (r != 0)
		return r;
	for (i = 0; i < cs->nalloc; i++) {
		struct chan *c = cs->chans[i];
		int fds[3];

		if (c == NULL)
			continue;
		fds[0] = c->rfd;
		fds[1] = c->wfd;
		fds[2] = c->efd;
		for (k = 0; k < 3; k++) {
			if (fds[k] == -1 || (k > 0 && fds[k] == fds[0]) ||
			    (k > 1 && fds[k] == fds[1]))
				continue;
			if ((r = ev_fd_add(cs->ev, fds[k],
			    chan_mask(c, fds[k], can_read), channel_cb,
			    c)) != 0)
				return r;
		}
	}
	return 0;
}

/* ---- the turn ---- */

static void
before_wait(struct ev_loop *ev, int nready, void *arg)
{
	struct chan_set *cs = arg;
	struct transport *t = cs->t;
	int r, ms;

	(void)nready;
	if (cs->stop_req) {
		conn_end(cs, 0);
		return;
	}
	if (tr_want_write(t) && (r = tr_fd_write(t)) != 0 && r != ERR_AGAIN) {
		conn_end(cs, r);
		return;
	}
	if ((r = chan_check_all(cs)) != 0) {
		conn_end(cs, r);
		return;
	}
	if (cs->exit_when_idle && cs->had_channel && cs->count == 0) {
		conn_end(cs, tr_flush(t));
		return;
	}
	if ((r = update_interest(cs)) != 0) {
		log_error("event loop: %s", err_str(r));
		conn_end(cs, r);
		return;
	}
	if ((ms = tr_poll_timeout(t)) >= 0)
		ev_timer_start(ev, &cs->tr_tm, ms, 0);
	else
		ev_timer_stop(ev, &cs->tr_tm);
}

static void
after_wait(struct ev_loop *ev, int nready, void *arg)
{
	struct chan_set *cs = arg;
	int r;

	tr_poll_done(cs->t);
	if (nready > 0 && cs->idle_ms > 0)
		ev_timer_start(ev, &cs->idle_tm, cs->idle_ms, 0);
	if ((r = tr_check_rekey(cs->t)) != 0)
		conn_end(cs, r);
}

static int
loop_start(struct transport *t, struct chan_set *cs)
{
	int in = tr_fd_in(t), out = tr_fd_out(t), r;

	if ((r = ev_fd_add(cs->ev, in, EV_READ | EV_FIRST, transport_cb,
	    cs)) != 0)
		return r;
	if (out != in && (r = ev_fd_add(cs->ev, out, EV_FIRST, transport_cb,
	    cs)) != 0)
		return r;
	if (cs->alive_interval > 0)
		ev_timer_start(cs->ev, &cs->alive_tm,
		    (int64_t)cs->alive_interval * 1000, 0);
	if (cs->idle_ms > 0)
		ev_timer_start(cs->ev, &cs->idle_tm, cs->idle_ms, 0);
	ev_set_hooks(cs->ev, before_wait, after_wait, cs);
	return 0;
}

static void
loop_end(struct transport *t, struct chan_set *cs)
{
	cs->stop_req = 0;
	ev_set_hooks(cs->ev, NULL, NULL, NULL);
	ev_timer_stop(cs->ev, &cs->alive_tm);
	ev_timer_stop(cs->ev, &cs->idle_tm);
	ev_timer_stop(cs->ev, &cs->tr_tm);
	/* The transport's fds are its own, and may be closed after us. */
	ev_fd_del(cs->ev, tr_fd_in(t));
	ev_fd_del(cs->ev, tr_fd_out(t));
}

int
conn_loop(struct transport *t, struct chan_set *cs)
{
	int r;

	cs->t = t;
	cs->last_rx = chan_now();
	cs->loop_done = 0;
	cs->loop_err = 0;
	/* Messages that arrived along with the last authentication reply. */
	if ((r = drain_messages(cs)) != 0)
		goto done;
	if ((r = loop_start(t, cs)) == 0) {
		if ((r = ev_run(cs->ev)) != 0)
			log_error("epoll_wait: %s", strerror(errno));
		else
			r = cs->loop_err;
	}
	loop_end(t, cs);
 done:
	if (r == ERR_CONN_CLOSED || r == ERR_DISCONNECTED)
		r = 0;
	return r;
}
