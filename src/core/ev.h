/*
 * ev.h: a small event loop (epoll and a monotonic clock).
 *
 * A loop watches file descriptors and runs timers. Each fd has one
 * callback and an interest mask (EV_READ, EV_WRITE); the callback hears
 * what is ready, EV_ERROR added when the kernel reports an error or a
 * hang-up (then the registered interest bits are set too, as poll()
 * would wake a reader or writer). Changing the mask is cheap when it does
 * not change; a mask of 0 keeps the registration but stops the wakeups.
 * EV_FIRST asks for the fd's callback to run before those without it in
 * the same turn (e.g. the connection before the channels it feeds).
 *
 * Timers are structs the caller owns (embedded in its own state): start
 * one to fire once after a delay, or every period milliseconds. Due
 * timers run in order of their due time, ties in the order they were
 * started; a timer started from inside a callback waits for the next turn
 * even when it is due at once.
 *
 * ev_run() turns until ev_stop(); one turn is: the before hook, one
 * epoll_wait with the timeout to the nearest timer, the after hook (told
 * how many fds were ready), the fd callbacks, then the due timers. Every
 * array grows only to its high-water mark (the largest fd, the most timers
 * armed at once), so a loop in its steady state allocates nothing.
 *
 * Callbacks may add, change and delete any fd or timer, their own
 * included: an fd deleted (or deleted and added again) after the wait is
 * not dispatched for what that wait saw. An fd must be deleted before it
 * is closed. Descriptors epoll cannot watch (regular files, /dev/null)
 * are accepted and are always ready for what they are watched for.
 *
 * Ownership: ev_new() returns a loop freed with ev_free(), which closes
 * its epoll fd only; the watched fds and the timers stay the caller's.
 */
#ifndef MOAT_EV_H
#define MOAT_EV_H

#include <stddef.h>
#include <stdint.h>

#define EV_READ		0x01
#define EV_WRITE	0x02
#define EV_ERROR	0x04	/* reported only */
#define EV_FIRST	0x08	/* registered only: dispatch early in a turn */

struct ev_loop;
struct ev_timer;

typedef void (*ev_fd_fn)(struct ev_loop *ev, int fd, int events, void *arg);
typedef void (*ev_timer_fn)(struct ev_loop *ev, struct ev_timer *tm,
    void *arg);
/* Before each wait; after it, with the number of fds that were ready. */
typedef void (*ev_hook_fn)(struct ev_loop *ev, int nready, void *arg);

struct ev_timer {
	int64_t due;		/* monotonic ms */
	int64_t period;		/* ms; 0: one-shot */
	uint64_t seq;		/* start order, for ties and the turn rule */
	ev_timer_fn cb;
	void *arg;
	size_t slot;		/* index in the loop's table; SIZE_MAX: off */
};

/* NULL when the kernel refuses an epoll instance. */
struct ev_loop *ev_new(void);
void ev_free(struct ev_loop *ev);

/*
 * Watch fd with mask (EV_READ | EV_WRITE, EV_FIRST), replacing any
 * earlier callback for it. ERR_INVALID_ARGUMENT for a bad fd,
 * ERR_SYSTEM if epoll refuses it for another reason than its type.
 */
int ev_fd_add(struct ev_loop *ev, int fd, int mask, ev_fd_fn cb, void *arg);
/* Change what a watched fd waits for; no system call if unchanged. */
int ev_fd_mask(struct ev_loop *ev, int fd, int mask);
/* The mask fd is watched with; -1 when it is not watched. */
int ev_fd_get(const struct ev_loop *ev, int fd);
/* Stop watching fd (no-op if it is not watched). Do this before close. */
void ev_fd_del(struct ev_loop *ev, int fd);

/* Set up a timer (once, before it is first started). */
void ev_timer_init(struct ev_timer *tm, ev_timer_fn cb, void *arg);
/*
 * (Re)start: fire after ms milliseconds (0: on the next turn), then, if
 * period_ms > 0, every period_ms after that.
 */
void ev_timer_start(struct ev_loop *ev, struct ev_timer *tm, int64_t ms,
    int64_t period_ms);
void ev_timer_stop(struct ev_loop *ev, struct ev_timer *tm);
int ev_timer_active(const struct ev_timer *tm);

void ev_set_hooks(struct ev_loop *ev, ev_hook_fn before, ev_hook_fn after,
    void *arg);

/*
 * Run until ev_stop(): 0 then, ERR_SYSTEM if epoll_wait fails (other
 * than EINTR). ev_run_once() is one turn with at most max_ms of waiting
 * (-1: up to the nearest timer, or for ever without one).
 */
int ev_run(struct ev_loop *ev);
int ev_run_once(struct ev_loop *ev, int max_ms);
/*
 * From a callback or hook: run no more callbacks this turn and end
 * ev_run(). Each turn starts afresh, so a stop before ev_run() is lost;
 * ev_stopped() tells whether the last turn was stopped.
 */
void ev_stop(struct ev_loop *ev);
int ev_stopped(const struct ev_loop *ev);

/* The wait's timeout now: ms to the nearest timer, 0, or -1 (none). */
int ev_timeout(const struct ev_loop *ev);
/* Monotonic milliseconds, as timers count them. */
int64_t ev_now_ms(void);
/* Times the loop has grown one of its arrays (0 in the steady state). */
unsigned long ev_grows(const struct ev_loop *ev);

#endif
