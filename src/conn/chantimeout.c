/*
 * chantimeout.c: closing what sits idle, for sshd's ChannelTimeout and
 * UnusedConnectionTimeout (see channel.h for the calls).
 *
 * A channel's clock starts once it is open both ways with its fds
 * attached, and every read or write on its fds that moves bytes starts
 * it again (window adjusts and requests do not count): OpenSSH's rule.
 * Starting it again only stores the time. The channel's timer, in the
 * set's ev loop, is due at the first moment the channel could have been
 * idle for its interval; when it fires and finds the channel was used
 * since, it sleeps until the next such moment. So a busy channel costs a
 * clock read per I/O and one wake-up per interval, and a set without
 * timeouts one test per I/O and no timer. The global timeout is the same
 * over the last use of any channel, with one timer for the set; when it
 * expires every open channel is closed.
 *
 * A channel closed for inactivity is logged in OpenSSH's words, its fds
 * are closed and its buffers dropped, and EOF and CLOSE go out at once,
 * whatever its type's eof_ok/close_ok hooks would say (a session does
 * not wait for its child). It is freed when the peer's CLOSE comes, as
 * any other, and counts as open no more.
 *
 * Unused connection: whenever a channel completes its open, is freed or
 * is closed for inactivity, the set counts its open channels (confirmed
 * both ways, not closed for inactivity: what OpenSSH counts). With none,
 * a timer runs for the interval, stopped when a channel opens; if it
 * fires, the connection ends without a DISCONNECT, as OpenSSH's sshd
 * just exits. These counts happen on those events only, never per turn.
 */
#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "ev.h"
#include "log.h"

/* Open as far as the timeouts are concerned: data can move. */
static int
idle_candidate(const struct chan *c)
{
	return c->confirmed && c->active && !c->idle_closed &&
	    !c->close_sent && !c->close_rcvd;
}

static void
close_idle(struct chan_set *cs, struct chan *c)
{
	int r;

	log_verbose("channel %u: closing after %d seconds of inactivity",
	    c->local_id, c->idle_secs);
	c->idle_closed = 1;
	ev_timer_stop(cs->ev, &c->idle_tm);
	chan_close_all_fds(c);
	if ((r = chan_send_eof(cs, c)) != 0 ||
	    (r = chan_send_close(cs, c)) != 0)
		conn_end(cs, r);
	chan_unused_check(cs);
}

/* Arm tm for the end of an interval of secs begun at last (ms). */
static void
arm(struct ev_loop *ev, struct ev_timer *tm, int64_t last, int secs)
{
	int64_t left = last + (int64_t)secs * 1000 - ev_now_ms();

	ev_timer_start(ev, tm, left > 0 ? left : 0, 0);
}

static void
chan_idle_cb(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct chan *c = arg;
	int64_t due = c->last_used + (int64_t)c->idle_secs * 1000;

	if (c->idle_secs <= 0 || !idle_candidate(c))
		return;
	if (ev_now_ms() < due) {
		arm(ev, tm, c->last_used, c->idle_secs);
		return;
	}
	close_idle(c->set, c);
}

static int
close_one(struct chan_set *cs, struct chan *c, void *arg)
{
	(void)arg;
	if (idle_candidate(c))
		close_idle(cs, c);
	return 0;
}

static void
global_idle_cb(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct chan_set *cs = arg;

	if (cs->global_secs <= 0)
		return;
	if (ev_now_ms() < cs->global_last_used +
	    (int64_t)cs->global_secs * 1000) {
		arm(ev, tm, cs->global_last_used, cs->global_secs);
		return;
	}
	chan_foreach(cs, close_one, NULL);
}

static int
count_open(struct chan_set *cs, struct chan *c, void *arg)
{
	(void)cs;
	if (c->confirmed && !c->idle_closed)
		(*(size_t *)arg)++;
	return 0;
}

static size_t
open_channels(struct chan_set *cs)
{
	size_t n = 0;

	chan_foreach(cs, count_open, &n);
	return n;
}

static void
unused_cb(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct chan_set *cs = arg;

	(void)ev;
	(void)tm;
	if (cs->unused_secs <= 0 || open_channels(cs) > 0)
		return;
	log_info("terminating inactive connection from user %s %s port %d",
	    cs->peer_user != NULL ? cs->peer_user : "?",
	    cs->peer_addr != NULL ? cs->peer_addr : "?", cs->peer_port);
	conn_end(cs, ERR_CONN_TIMEOUT);
}

void
chan_timeouts_init(struct chan_set *cs)
{
	ev_timer_init(&cs->global_tm, global_idle_cb, cs);
	ev_timer_init(&cs->unused_tm, unused_cb, cs);
}

void
chan_unused_check(struct chan_set *cs)
{
	if (cs->unused_secs <= 0)
		return;
	if (open_channels(cs) > 0)
		ev_timer_stop(cs->ev, &cs->unused_tm);
	else if (!ev_timer_active(&cs->unused_tm))
		ev_timer_start(cs->ev, &cs->unused_tm,
		    (int64_t)cs->unused_secs * 1000, 0);
}

void
chan_idle_init(struct chan_set *cs, struct chan *c)
{
	ev_timer_init(&c->idle_tm, chan_idle_cb, c);
	if (cs->timeout_fn != NULL && c->ops != NULL)
		c->idle_secs = cs->timeout_fn(cs->timeout_arg, c->ops->type);
}

void
chan_idle_open(struct chan *c)
{
	struct chan_set *cs = c->set;

	chan_unused_check(cs);
	if (!idle_candidate(c) || c->last_used != 0)
		return;
	/* The clock starts now, for the channel and for the set. */
	c->last_used = cs->global_last_used = ev_now_ms();
	if (c->idle_secs > 0)
		arm(cs->ev, &c->idle_tm, c->last_used, c->idle_secs);
	if (cs->global_secs > 0 && !ev_timer_active(&cs->global_tm))
		arm(cs->ev, &cs->global_tm, cs->global_last_used,
		    cs->global_secs);
}

void
chan_idle_gone(struct chan_set *cs, struct chan *c)
{
	ev_timer_stop(cs->ev, &c->idle_tm);
	c->idle_closed = 1;
	chan_unused_check(cs);
}

void
chan_used_now(struct chan *c)
{
	if (c->last_used != 0)	/* its clock runs */
		c->last_used = c->set->global_last_used = ev_now_ms();
}

void
chan_set_timeouts(struct chan_set *cs, int (*fn)(void *arg,
    const char *type), void *arg, int global_secs, int unused_secs)
{
	cs->timeout_fn = fn;
	cs->timeout_arg = arg;
	cs->global_secs = global_secs > 0 ? global_secs : 0;
	cs->unused_secs = unused_secs > 0 ? unused_secs : 0;
	if (cs->unused_secs == 0)
		ev_timer_stop(cs->ev, &cs->unused_tm);
	chan_unused_check(cs);
}

void
chan_set_timeout_type(struct chan *c, const char *type)
{
	struct chan_set *cs = c->set;

	if (cs->timeout_fn == NULL)
		return;
	c->idle_secs = cs->timeout_fn(cs->timeout_arg, type);
	log_debug2("channel %u: labelled %s (inactive timeout %d)",
	    c->local_id, type, c->idle_secs);
	/* An open channel keeps its clock; only the interval changes. */
	if (c->last_used == 0 || !idle_candidate(c))
		return;
	if (c->idle_secs > 0)
		arm(cs->ev, &c->idle_tm, c->last_used, c->idle_secs);
	else
		ev_timer_stop(cs->ev, &c->idle_tm);
}
