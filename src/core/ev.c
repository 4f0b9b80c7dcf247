/*
 * ev.c: the event loop (see ev.h).
 *
 * fds: a table indexed by fd number holds each fd's callback, its
 * interest mask and what the kernel's epoll set holds for it (kmask).
 * Only a change of the wanted bits reaches epoll_ctl; a mask of 0 takes
 * the fd out of the epoll set (epoll would still report errors and
 * hang-ups for it, waking the loop for an fd nobody wants to hear from).
 * Each entry has a generation, bumped when the fd is deleted, and the
 * epoll data carries it, so an event the wait saw for an fd deleted since
 * (and maybe added again, the number reused) is dropped.
 *
 * Descriptors epoll refuses with EPERM (regular files, /dev/null) are
 * kept on a short list and reported ready, every turn, for what they are
 * watched for; a turn with any of them wanted does not sleep. poll() did
 * the same for them.
 *
 * Timers: an unordered table of pointers to the callers' structs; each
 * knows its slot, so start and stop are O(1), and the nearest or next due
 * one is a scan (a connection has a handful). A timer started during a
 * turn carries a sequence number at or above the turn's mark and so is
 * not run until the next turn.
 *
 * A turn's ready fds are copied into a fixed array before any callback
 * runs; more than fit stay ready (level-triggered) for the next turn.
 */
#include <sys/epoll.h>

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "ev.h"
#include "mem.h"

#define EV_BATCH	64	/* ready fds taken per turn */
#define EV_WANT		(EV_READ | EV_WRITE)

struct ev_fdent {
	ev_fd_fn cb;
	void *arg;
	uint32_t gen;
	int mask;		/* EV_READ | EV_WRITE | EV_FIRST */
	int kmask;		/* EPOLLIN | EPOLLOUT registered, 0: none */
	unsigned int on:1;	/* watched */
	unsigned int nopoll:1;	/* epoll refused it: always ready */
};

struct ev_fired {
	int fd;
	uint32_t gen;
	int events;
	int first;
};

struct ev_loop {
	int epfd;
	struct ev_fdent *fds;
	size_t nfds;			/* entries allocated */
	int *nopoll;			/* fds with the nopoll bit */
	size_t nnopoll, anopoll;
	struct ev_timer **tms;
	size_t ntms, atms;
	uint64_t seq;			/* next timer start number */
	ev_hook_fn before, after;
	void *hook_arg;
	int stop;
	unsigned long grows;
	struct epoll_event kev[EV_BATCH];
	struct ev_fired fired[EV_BATCH + EV_BATCH];
};

int64_t
ev_now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct ev_loop *
ev_new(void)
{
	struct ev_loop *ev;
	int fd;

	if ((fd = epoll_create1(EPOLL_CLOEXEC)) == -1)
		return NULL;
	ev = x_calloc(1, sizeof(*ev));
	ev->epfd = fd;
	return ev;
}

void
ev_free(struct ev_loop *ev)
{
	size_t i;

	if (ev == NULL)
		return;
	/* Timers still armed forget the loop they were in. */
	for (i = 0; i < ev->ntms; i++)
		ev->tms[i]->slot = SIZE_MAX;
	close(ev->epfd);
	x_free(ev->fds);
	x_free(ev->nopoll);
	x_free(ev->tms);
	x_free(ev);
}

/* ---- fds ---- */

static struct ev_fdent *
fd_ent(const struct ev_loop *ev, int fd)
{
	if (fd < 0 || (size_t)fd >= ev->nfds || !ev->fds[fd].on)
		return NULL;
	return &ev->fds[fd];
}

static void
nopoll_drop(struct ev_loop *ev, int fd)
{
	size_t i;

	for (i = 0; i < ev->nnopoll; i++)
		if (ev->nopoll[i] == fd) {
			ev->nopoll[i] = ev->nopoll[--ev->nnopoll];
			return;
		}
}

/* Bring the epoll set in line with what fd's entry wants. */
static int
fd_sync(struct ev_loop *ev, int fd, struct ev_fdent *e)
{
	struct epoll_event kev;
	int want = 0, op;

	if (e->nopoll)
		return 0;
	if (e->mask & EV_READ)
		want |= EPOLLIN;
	if (e->mask & EV_WRITE)
		want |= EPOLLOUT;
	if (want == e->kmask)
		return 0;
	if (want == 0) {
		(void)epoll_ctl(ev->epfd, EPOLL_CTL_DEL, fd, NULL);
		e->kmask = 0;
		return 0;
	}
	memset(&kev, 0, sizeof(kev));
	kev.events = (uint32_t)want;
	kev.data.u64 = (uint64_t)(uint32_t)fd | (uint64_t)e->gen << 32;
	op = e->kmask == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
	if (epoll_ctl(ev->epfd, op, fd, &kev) == -1) {
		/* Our idea of the set was stale: try the other way. */
		if (errno == ENOENT || errno == EEXIST)
			op = op == EPOLL_CTL_ADD ? EPOLL_CTL_MOD :
			    EPOLL_CTL_ADD;
		if ((errno != ENOENT && errno != EEXIST) ||
		    epoll_ctl(ev->epfd, op, fd, &kev) == -1) {
			if (errno != EPERM)
				return ERR_SYSTEM;
			/* Not pollable: always ready. */
			e->nopoll = 1;
			e->kmask = 0;
			if (ev->nnopoll == ev->anopoll) {
				ev->anopoll = ev->anopoll ? ev->anopoll * 2 : 4;
				ev->nopoll = x_reallocarray(ev->nopoll,
				    ev->anopoll, sizeof(*ev->nopoll));
				ev->grows++;
			}
			ev->nopoll[ev->nnopoll++] = fd;
			return 0;
		}
	}
	e->kmask = want;
	return 0;
}

int
ev_fd_add(struct ev_loop *ev, int fd, int mask, ev_fd_fn cb, void *arg)
{
	struct ev_fdent *e;
	size_t n;
	int r;

	if (fd < 0 || cb == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((size_t)fd >= ev->nfds) {
		n = ev->nfds ? ev->nfds * 2 : 64;
		if (n <= (size_t)fd)
			n = (size_t)fd + 1;
		ev->fds = x_reallocarray(ev->fds, n, sizeof(*ev->fds));
		memset(ev->fds + ev->nfds, 0,
		    (n - ev->nfds) * sizeof(*ev->fds));
		ev->nfds = n;
		ev->grows++;
	}
	e = &ev->fds[fd];
	if (!e->on) {
		e->on = 1;
		e->kmask = 0;
		e->nopoll = 0;
	}
	e->cb = cb;
	e->arg = arg;
	e->mask = mask & (EV_WANT | EV_FIRST);
	if ((r = fd_sync(ev, fd, e)) != 0) {
		ev_fd_del(ev, fd);
		return r;
	}
	return 0;
}

int
ev_fd_mask(struct ev_loop *ev, int fd, int mask)
{
	struct ev_fdent *e = fd_ent(ev, fd);

	if (e == NULL)
		return ERR_INVALID_ARGUMENT;
	mask &= EV_WANT | EV_FIRST;
	if (mask == e->mask)
		return 0;
	e->mask = mask;
	return fd_sync(ev, fd, e);
}

int
ev_fd_get(const struct ev_loop *ev, int fd)
{
	const struct ev_fdent *e = fd_ent(ev, fd);

	return e == NULL ? -1 : e->mask;
}

void
ev_fd_del(struct ev_loop *ev, int fd)
{
	struct ev_fdent *e = fd_ent(ev, fd);

	if (e == NULL)
		return;
	if (e->kmask != 0)
		(void)epoll_ctl(ev->epfd, EPOLL_CTL_DEL, fd, NULL);
	if (e->nopoll)
		nopoll_drop(ev, fd);
	e->on = e->nopoll = 0;
	e->kmask = e->mask = 0;
	e->cb = NULL;
	e->arg = NULL;
	e->gen++;
}

/* ---- timers ---- */

void
ev_timer_init(struct ev_timer *tm, ev_timer_fn cb, void *arg)
{
	memset(tm, 0, sizeof(*tm));
	tm->cb = cb;
	tm->arg = arg;
	tm->slot = SIZE_MAX;
}

void
ev_timer_start(struct ev_loop *ev, struct ev_timer *tm, int64_t ms,
    int64_t period_ms)
{
	if (tm->slot == SIZE_MAX) {
		if (ev->ntms == ev->atms) {
			ev->atms = ev->atms ? ev->atms * 2 : 8;
			ev->tms = x_reallocarray(ev->tms, ev->atms,
			    sizeof(*ev->tms));
			ev->grows++;
		}
		tm->slot = ev->ntms;
		ev->tms[ev->ntms++] = tm;
	}
	tm->due = ev_now_ms() + (ms > 0 ? ms : 0);
	tm->period = period_ms > 0 ? period_ms : 0;
	tm->seq = ev->seq++;
}

void
ev_timer_stop(struct ev_loop *ev, struct ev_timer *tm)
{
	size_t i = tm->slot;

	if (i == SIZE_MAX || i >= ev->ntms || ev->tms[i] != tm)
		return;
	ev->tms[i] = ev->tms[--ev->ntms];
	ev->tms[i]->slot = i;
	tm->slot = SIZE_MAX;
}

int
ev_timer_active(const struct ev_timer *tm)
{
	return tm->slot != SIZE_MAX;
}

/* Earlier due time first, then earlier start. */
static int
tm_before(const struct ev_timer *a, const struct ev_timer *b)
{
	return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

/* Run the timers due by now and started before this turn, in order. */
static void
run_timers(struct ev_loop *ev)
{
	uint64_t mark = ev->seq;
	int64_t now = ev_now_ms();
	struct ev_timer *tm;
	size_t i;

	while (!ev->stop) {
		tm = NULL;
		for (i = 0; i < ev->ntms; i++) {
			struct ev_timer *c = ev->tms[i];

			if (c->due <= now && c->seq < mark &&
			    (tm == NULL || tm_before(c, tm)))
				tm = c;
		}
		if (tm == NULL)
			return;
		if (tm->period > 0) {
			tm->due += tm->period;
			/* Fell behind (a long callback): no catching up. */
			if (tm->due <= now)
				tm->due = now + tm->period;
		} else
			ev_timer_stop(ev, tm);
		tm->cb(ev, tm, tm->arg);
	}
}

/* ---- the loop ---- */

void
ev_set_hooks(struct ev_loop *ev, ev_hook_fn before, ev_hook_fn after,
    void *arg)
{
	ev->before = before;
	ev->after = after;
	ev->hook_arg = arg;
}

static int
nopoll_wanted(const struct ev_loop *ev)
{
	size_t i;

	for (i = 0; i < ev->nnopoll; i++)
		if (ev->fds[ev->nopoll[i]].mask & EV_WANT)
			return 1;
	return 0;
}

int
ev_timeout(const struct ev_loop *ev)
{
	int64_t near = -1, left;
	size_t i;

	if (nopoll_wanted(ev))
		return 0;
	for (i = 0; i < ev->ntms; i++)
		if (near == -1 || ev->tms[i]->due < near)
			near = ev->tms[i]->due;
	if (near == -1)
		return -1;
	left = near - ev_now_ms();
	if (left < 0)
		return 0;
	return left > INT_MAX ? INT_MAX : (int)left;
}

/* Turn what the wait saw into the fired array; returns its length. */
static size_t
collect(struct ev_loop *ev, int n)
{
	size_t k = 0, i;
	int j;

	for (j = 0; j < n; j++) {
		uint32_t kv = ev->kev[j].events;
		int fd = (int)(uint32_t)ev->kev[j].data.u64;
		struct ev_fired *f = &ev->fired[k];

		f->fd = fd;
		f->gen = (uint32_t)(ev->kev[j].data.u64 >> 32);
		f->events = 0;
		if (kv & EPOLLIN)
			f->events |= EV_READ;
		if (kv & EPOLLOUT)
			f->events |= EV_WRITE;
		if (kv & (EPOLLERR | EPOLLHUP))
			f->events |= EV_ERROR | EV_WANT;
		f->first = fd_ent(ev, fd) != NULL &&
		    (ev->fds[fd].mask & EV_FIRST) != 0;
		k++;
	}
	for (i = 0; i < ev->nnopoll && k < sizeof(ev->fired) /
	    sizeof(ev->fired[0]); i++) {
		struct ev_fdent *e = &ev->fds[ev->nopoll[i]];

		if ((e->mask & EV_WANT) == 0)
			continue;
		ev->fired[k].fd = ev->nopoll[i];
		ev->fired[k].gen = e->gen;
		ev->fired[k].events = e->mask & EV_WANT;
		ev->fired[k].first = (e->mask & EV_FIRST) != 0;
		k++;
	}
	return k;
}

static void
dispatch(struct ev_loop *ev, size_t nfired)
{
	int round, events;
	size_t i;

	for (round = 1; round >= 0; round--) {
		for (i = 0; i < nfired && !ev->stop; i++) {
			const struct ev_fired *f = &ev->fired[i];
			struct ev_fdent *e;

			if (f->first != round)
				continue;
			/* Deleted, or deleted and added again, since. */
			if ((e = fd_ent(ev, f->fd)) == NULL ||
			    e->gen != f->gen)
				continue;
			events = f->events & (e->mask & EV_WANT);
			if (events == 0)
				continue;
			e->cb(ev, f->fd, events | (f->events & EV_ERROR),
			    e->arg);
		}
	}
}

int
ev_run_once(struct ev_loop *ev, int max_ms)
{
	int timeout, n;
	size_t nfired;

	ev->stop = 0;
	if (ev->before != NULL)
		ev->before(ev, 0, ev->hook_arg);
	if (ev->stop)
		return 0;
	timeout = ev_timeout(ev);
	if (max_ms >= 0 && (timeout < 0 || max_ms < timeout))
		timeout = max_ms;
	n = epoll_wait(ev->epfd, ev->kev, EV_BATCH, timeout);
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		return ERR_SYSTEM;
	}
	nfired = collect(ev, n);
	if (ev->after != NULL)
		ev->after(ev, (int)nfired, ev->hook_arg);
	dispatch(ev, nfired);
	if (!ev->stop)
		run_timers(ev);
	return 0;
}

int
ev_run(struct ev_loop *ev)
{
	int r;

	do {
		if ((r = ev_run_once(ev, -1)) != 0)
			return r;
	} while (!ev->stop);
	return 0;
}

void
ev_stop(struct ev_loop *ev)
{
	ev->stop = 1;
}

int
ev_stopped(const struct ev_loop *ev)
{
	return ev->stop;
}

unsigned long
ev_grows(const struct ev_loop *ev)
{
	return ev->grows;
}
