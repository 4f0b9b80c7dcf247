/*
 * test_ev.c: the event loop (ev.h): fd readiness, changes made from
 * inside callbacks, timer order and the turn rule, ev_stop(), the wait's
 * timeout, descriptors epoll cannot watch, and no growth in the steady
 * state.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "ev.h"
#include "testlib.h"

struct rec {
	int calls;
	int last_fd, last_events;
	int order[16];
	int norder;
	struct ev_loop *ev;
	int del_a, del_b;	/* fds a callback deletes (-1: none) */
	int stop;		/* ev_stop() from the callback */
};

static void
fd_cb(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct rec *r = arg;

	r->calls++;
	r->last_fd = fd;
	r->last_events = events;
	if (r->norder < 16)
		r->order[r->norder++] = fd;
	if (r->del_a != -1)
		ev_fd_del(ev, r->del_a);
	if (r->del_b != -1)
		ev_fd_del(ev, r->del_b);
	if (r->stop)
		ev_stop(ev);
}

static void
rec_init(struct rec *r, struct ev_loop *ev)
{
	memset(r, 0, sizeof(*r));
	r->ev = ev;
	r->del_a = r->del_b = -1;
	r->last_fd = -1;
}

static void
put(int fd)
{
	CHECK(write(fd, "x", 1) == 1);
}

static void
test_readiness(void)
{
	struct ev_loop *ev = ev_new();
	struct rec r;
	int p[2];

	CHECK(ev != NULL && pipe(p) == 0);
	rec_init(&r, ev);
	CHECK_OK(ev_fd_add(ev, p[0], EV_READ, fd_cb, &r));
	CHECK(ev_fd_get(ev, p[0]) == EV_READ);
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 0);
	put(p[1]);
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 1 && r.last_fd == p[0] && r.last_events == EV_READ);
	/* Level-triggered: still there until read. */
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 2);
	/* Mask 0: registered, not woken. */
	CHECK_OK(ev_fd_mask(ev, p[0], 0));
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 2 && ev_fd_get(ev, p[0]) == 0);
	CHECK_OK(ev_fd_mask(ev, p[0], EV_READ));
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 3);
	/* Write side of a pipe: writable at once. */
	rec_init(&r, ev);
	CHECK_OK(ev_fd_add(ev, p[1], EV_WRITE, fd_cb, &r));
	ev_fd_del(ev, p[0]);
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 1 && r.last_fd == p[1] && r.last_events == EV_WRITE);
	/* Reader gone: the writer hears it, as an error. */
	close(p[0]);
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 2 && (r.last_events & EV_ERROR) &&
	    (r.last_events & EV_WRITE));
	/* ...but not while it waits for nothing. */
	CHECK_OK(ev_fd_mask(ev, p[1], 0));
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 2);
	CHECK(ev_fd_get(ev, 12345) == -1);
	CHECK_ERR(ev_fd_mask(ev, 12345, EV_READ), ERR_INVALID_ARGUMENT);
	CHECK_ERR(ev_fd_add(ev, -1, EV_READ, fd_cb, &r), ERR_INVALID_ARGUMENT);
	ev_fd_del(ev, p[1]);
	close(p[1]);
	ev_free(ev);
}

/* Two ready fds; the first callback deletes both: one call in all. */
static void
test_delete_in_callback(void)
{
	struct ev_loop *ev = ev_new();
	struct rec r;
	int a[2], b[2];

	CHECK(pipe(a) == 0 && pipe(b) == 0);
	rec_init(&r, ev);
	r.del_a = a[0];
	r.del_b = b[0];
	CHECK_OK(ev_fd_add(ev, a[0], EV_READ, fd_cb, &r));
	CHECK_OK(ev_fd_add(ev, b[0], EV_READ, fd_cb, &r));
	put(a[1]);
	put(b[1]);
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 1);
	CHECK(ev_fd_get(ev, a[0]) == -1 && ev_fd_get(ev, b[0]) == -1);

	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	ev_free(ev);
}

/* A callback that deletes and closes another ready fd, then adds a new one. */
struct swap {
	struct ev_loop *ev;
	int other;
	int newp[2];
	int calls, stale;
};

static void
swap_stale_cb(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct swap *s = arg;

	(void)ev;
	(void)fd;
	(void)events;
	s->stale++;
}

static void
swap_cb(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct swap *s = arg;

	(void)events;
	s->calls++;
	if (s->other == -1)
		return;
	ev_fd_del(ev, s->other);
	close(s->other);
	CHECK(pipe(s->newp) == 0);
	/* The lowest free number: most likely the one just closed. */
	CHECK_OK(ev_fd_add(ev, s->newp[0], EV_READ, swap_stale_cb, s));
	s->other = -1;
	(void)fd;
}

static void
test_reuse_in_callback(void)
{
	struct ev_loop *ev = ev_new();
	struct swap s;
	int a[2], b[2];

	memset(&s, 0, sizeof(s));
	CHECK(pipe(a) == 0 && pipe(b) == 0);
	put(a[1]);
	put(b[1]);
	CHECK_OK(ev_fd_add(ev, a[0], EV_READ, swap_cb, &s));
	CHECK_OK(ev_fd_add(ev, b[0], EV_READ, swap_cb, &s));
	s.other = b[0];
	/* Whichever runs first closes b[0]; if a[0] ran first, b is gone. */
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(s.stale == 0);
	CHECK(s.calls == 1 || s.calls == 2);
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(s.stale == 0);	/* the new pipe was never written */
	ev_fd_del(ev, a[0]);
	ev_fd_del(ev, s.newp[0]);
	close(a[0]);
	close(a[1]);
	close(b[1]);
	close(s.newp[0]);
	close(s.newp[1]);
	ev_free(ev);
}

/* EV_FIRST runs before the rest, whatever order epoll reports. */
static void
test_first(void)
{
	struct ev_loop *ev = ev_new();
	struct rec r;
	int a[2], b[2], i;

	CHECK(pipe(a) == 0 && pipe(b) == 0);
	for (i = 0; i < 2; i++) {
		int f = i == 0 ? a[0] : b[0], o = i == 0 ? b[0] : a[0];

		rec_init(&r, ev);
		CHECK_OK(ev_fd_add(ev, o, EV_READ, fd_cb, &r));
		CHECK_OK(ev_fd_add(ev, f, EV_READ | EV_FIRST, fd_cb, &r));
		put(a[1]);
		put(b[1]);
		CHECK_OK(ev_run_once(ev, 0));
		CHECK(r.norder == 2 && r.order[0] == f && r.order[1] == o);
		ev_fd_del(ev, a[0]);
		ev_fd_del(ev, b[0]);
	}
	/* A stop from a callback ends the turn: the other is not run. */
	rec_init(&r, ev);
	r.stop = 1;
	CHECK_OK(ev_fd_add(ev, a[0], EV_READ, fd_cb, &r));
	CHECK_OK(ev_fd_add(ev, b[0], EV_READ, fd_cb, &r));
	CHECK_OK(ev_run(ev));
	CHECK(r.calls == 1 && ev_stopped(ev));
	ev_fd_del(ev, a[0]);
	ev_fd_del(ev, b[0]);
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	ev_free(ev);
}

/* ---- timers ---- */

struct tlog {
	char seq[64];
	size_t n;
	int stop_after_a;
	struct ev_timer *restart;	/* started at 0 ms from the callback */
	int rep_stop_at;		/* stop the loop on this count of 'R' */
	int reps;
};

/* The timers the order test uses, each with a name. */
struct named {
	struct ev_timer tm;
	char name;
	struct tlog *log;
};

static void
named_cb(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct named *t = arg;
	struct tlog *l = t->log;

	(void)tm;
	if (l->n < sizeof(l->seq) - 1)
		l->seq[l->n++] = t->name;
	if (t->name == 'R' && ++l->reps == l->rep_stop_at)
		ev_stop(ev);
	if (t->name == 'A' && l->stop_after_a)
		ev_stop(ev);
	if (l->restart != NULL) {
		ev_timer_start(ev, l->restart, 0, 0);
		l->restart = NULL;
	}
}

static void
named_init(struct named *t, char name, struct tlog *l)
{
	ev_timer_init(&t->tm, named_cb, t);
	t->name = name;
	t->log = l;
}

static void
test_timer_order(void)
{
	struct ev_loop *ev = ev_new();
	struct named a, r, c, x, y;
	struct tlog l;
	size_t i, nr;

	memset(&l, 0, sizeof(l));
	named_init(&a, 'A', &l);
	named_init(&r, 'R', &l);
	named_init(&c, 'C', &l);
	named_init(&x, 'X', &l);
	named_init(&y, 'Y', &l);
	/* R every 20 ms, A once at 70 ms, C once at once. */
	ev_timer_start(ev, &r.tm, 20, 20);
	ev_timer_start(ev, &a.tm, 70, 0);
	ev_timer_start(ev, &c.tm, 0, 0);
	l.stop_after_a = 1;
	CHECK_OK(ev_run(ev));
	l.seq[l.n] = '\0';
	/* C first, then R three times, then A. */
	CHECK_STR(l.seq, "CRRRA");
	CHECK(!ev_timer_active(&a.tm) && !ev_timer_active(&c.tm));
	CHECK(ev_timer_active(&r.tm));
	/* The repeating one goes on; the one-shots do not come back. */
	memset(&l, 0, sizeof(l));
	l.rep_stop_at = 3;
	CHECK_OK(ev_run(ev));
	l.seq[l.n] = '\0';
	CHECK_STR(l.seq, "RRR");
	ev_timer_stop(ev, &r.tm);
	CHECK(!ev_timer_active(&r.tm));
	ev_timer_stop(ev, &r.tm);	/* twice: harmless */

	/* Same due time: start order. */
	memset(&l, 0, sizeof(l));
	ev_timer_start(ev, &y.tm, 0, 0);
	ev_timer_start(ev, &x.tm, 0, 0);
	ev_timer_start(ev, &y.tm, 0, 0);	/* restarted: now after X */
	CHECK_OK(ev_run_once(ev, 0));
	l.seq[l.n] = '\0';
	CHECK_STR(l.seq, "XY");

	/* Started from a callback at 0 ms: not in the same turn. */
	memset(&l, 0, sizeof(l));
	l.restart = &y.tm;
	ev_timer_start(ev, &x.tm, 0, 0);
	CHECK_OK(ev_run_once(ev, 0));
	l.seq[l.n] = '\0';
	CHECK_STR(l.seq, "X");
	CHECK(ev_timer_active(&y.tm) && ev_timeout(ev) == 0);
	CHECK_OK(ev_run_once(ev, 0));
	l.seq[l.n] = '\0';
	CHECK_STR(l.seq, "XY");
	for (i = 0, nr = 0; i < l.n; i++)
		nr += l.seq[i] == 'R';
	CHECK(nr == 0);
	ev_free(ev);
}

static void
test_timeout(void)
{
	struct ev_loop *ev = ev_new();
	struct named a, b;
	struct tlog l;
	struct rec r;
	int t, fd;
	int64_t t0;

	memset(&l, 0, sizeof(l));
	named_init(&a, 'A', &l);
	named_init(&b, 'B', &l);
	CHECK(ev_timeout(ev) == -1);
	ev_timer_start(ev, &a.tm, 5000, 0);
	t = ev_timeout(ev);
	CHECK(t > 4900 && t <= 5000);
	ev_timer_start(ev, &b.tm, 300, 1000);
	t = ev_timeout(ev);
	CHECK(t > 200 && t <= 300);
	ev_timer_stop(ev, &b.tm);
	t = ev_timeout(ev);
	CHECK(t > 4900 && t <= 5000);
	/* The wait honours it: about 300 ms, and B fires. */
	ev_timer_start(ev, &b.tm, 300, 1000);
	t0 = ev_now_ms();
	CHECK_OK(ev_run_once(ev, -1));
	CHECK(ev_now_ms() - t0 >= 290 && ev_now_ms() - t0 < 3000);
	CHECK(l.n == 1 && l.seq[0] == 'B');
	/* Repeating: next due a period later. */
	t = ev_timeout(ev);
	CHECK(t > 900 && t <= 1000);
	/* max_ms caps the wait. */
	t0 = ev_now_ms();
	CHECK_OK(ev_run_once(ev, 50));
	CHECK(ev_now_ms() - t0 < 800 && l.n == 1);
	ev_timer_stop(ev, &a.tm);
	ev_timer_stop(ev, &b.tm);
	CHECK(ev_timeout(ev) == -1);

	/* Not pollable (/dev/null): always ready while wanted. */
	rec_init(&r, ev);
	CHECK((fd = open("/dev/null", O_RDONLY)) != -1);
	CHECK_OK(ev_fd_add(ev, fd, EV_READ, fd_cb, &r));
	CHECK(ev_timeout(ev) == 0);
	CHECK_OK(ev_run_once(ev, -1));
	CHECK(r.calls == 1 && r.last_fd == fd && r.last_events == EV_READ);
	CHECK_OK(ev_fd_mask(ev, fd, 0));
	CHECK(ev_timeout(ev) == -1);
	CHECK_OK(ev_run_once(ev, 0));
	CHECK(r.calls == 1);
	ev_fd_del(ev, fd);
	close(fd);
	ev_free(ev);
}

/* ---- the steady state ---- */

struct busy {
	int p[3][2];
	struct ev_timer tick, once;
	int reads, ticks, onces;
};

static void
busy_read(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct busy *b = arg;
	char c;

	(void)ev;
	(void)events;
	if (read(fd, &c, 1) == 1)
		b->reads++;
}

static void
busy_tick(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct busy *b = arg;

	(void)tm;
	b->ticks++;
	ev_timer_start(ev, &b->once, 0, 0);
}

static void
busy_once(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct busy *b = arg;

	(void)ev;
	(void)tm;
	b->onces++;
}

static void
test_steady_state(void)
{
	struct ev_loop *ev = ev_new();
	struct busy b;
	unsigned long grown;
	int i, k;

	memset(&b, 0, sizeof(b));
	for (k = 0; k < 3; k++) {
		CHECK(pipe(b.p[k]) == 0);
		CHECK_OK(ev_fd_add(ev, b.p[k][0], EV_READ, busy_read, &b));
	}
	ev_timer_init(&b.tick, busy_tick, &b);
	ev_timer_init(&b.once, busy_once, &b);
	ev_timer_start(ev, &b.tick, 0, 1);
	/* Warm up: every array reaches its size. */
	for (i = 0; i < 10; i++)
		CHECK_OK(ev_run_once(ev, 0));
	grown = ev_grows(ev);
	CHECK(grown > 0);
	for (i = 0; i < 2000; i++) {
		k = i % 3;
		put(b.p[k][1]);
		/* Interest toggles and re-registration, as a loop does. */
		CHECK_OK(ev_fd_mask(ev, b.p[(k + 1) % 3][0], 0));
		CHECK_OK(ev_fd_mask(ev, b.p[(k + 1) % 3][0], EV_READ));
		ev_fd_del(ev, b.p[(k + 2) % 3][0]);
		CHECK_OK(ev_fd_add(ev, b.p[(k + 2) % 3][0], EV_READ,
		    busy_read, &b));
		CHECK_OK(ev_run_once(ev, 0));
	}
	CHECK(ev_grows(ev) == grown);
	CHECK(b.reads >= 1990 && b.reads <= 2000);
	CHECK(b.onces > 0 && b.ticks > 0);
	for (k = 0; k < 3; k++) {
		ev_fd_del(ev, b.p[k][0]);
		close(b.p[k][0]);
		close(b.p[k][1]);
	}
	ev_free(ev);
}

int
main(void)
{
	test_readiness();
	test_delete_in_callback();
	test_reuse_in_callback();
	test_first();
	test_timer_order();
	test_timeout();
	test_steady_state();
	return TEST_DONE();
}
