/*
 * chan_priv.h: the inside of struct chan_set, shared by channel.c (the
 * table and the messages), chanio.c (fd I/O), changlobal.c (global
 * requests, watched fds), connloop.c (the event loop on ev.h) and
 * chantimeout.c (inactivity). Not for other modules.
 */
#ifndef MOAT_CHAN_PRIV_H
#define MOAT_CHAN_PRIV_H

#include <stdint.h>
#include <time.h>

#include "channel.h"
#include "ev.h"

#define CHAN_MAX_TYPES	8

struct chan_set {
	struct transport *t;
	struct ev_loop *ev;		/* every fd and timer of the connection */
	struct chan **chans;		/* indexed by local id; NULL: free */
	size_t nalloc;
	size_t count;
	const struct chan_ops *types[CHAN_MAX_TYPES];
	void *type_args[CHAN_MAX_TYPES];
	size_t ntypes;

	/* ClientAlive. */
	int alive_interval;
	int alive_count_max;
	int alive_unanswered;
	time_t last_rx;			/* monotonic seconds */
	const char *peer_user, *peer_addr;
	int peer_port;
	struct ev_timer alive_tm;

	/* chan_set_idle: quiet spell and callback; restarted when busy. */
	int idle_ms;
	void (*idle_cb)(struct chan_set *, void *);
	void *idle_arg;
	struct ev_timer idle_tm;

	/* The transport's wake-up (tr_poll_timeout(): batches, rekey). */
	struct ev_timer tr_tm;

	/* conn_loop's outcome: set once, by the first to end it. */
	int loop_err;
	int loop_done;
	int stop_req;			/* conn_stop() */

	/* Global requests: handlers, and callbacks for replies due. */
	struct {
		const char *name;
		chan_global_fn fn;
		void *arg;
	} globals[CHAN_MAX_GLOBALS];
	size_t nglobals;
	struct chan_greply {
		chan_global_reply_fn cb;
		void *arg;
	} *greplies;
	size_t ngreplies, agreplies;

	/* Extra watched fds (chan_set_watch); fd -1: free slot. */
	struct chan_watch {
		int fd;
		chan_watch_fn cb;
		void *arg;
	} *watches;
	size_t nwatches;

	int exit_when_idle;
	int had_channel;

	/* chantimeout.c: ChannelTimeout's lookup, global, unused. */
	int (*timeout_fn)(void *, const char *);
	void *timeout_arg;
	int global_secs;
	int64_t global_last_used;	/* ev_now_ms() */
	struct ev_timer global_tm;
	int unused_secs;
	struct ev_timer unused_tm;

	/* chan_log_refusal (chanlog.c): logged, counted since reported. */
	unsigned int refusals_logged;
	unsigned long refusals_unlogged;
	time_t refusals_reported;
};

/* channel.c */
int chan_dispatch(struct chan_set *cs, uint8_t type, struct sbuf *msg);
/* A channel in a free slot (NULL: the table is full); freeing one. */
struct chan *chan_alloc(struct chan_set *cs, const struct chan_ops *ops);
void chan_free(struct chan_set *cs, struct chan *c);
/*
 * chanrelay.c: a message for a relay channel to its owner; 1 when the
 * recipient is no relay channel (the usual handlers run).
 */
int chan_relay_dispatch(struct chan_set *cs, uint8_t type, struct sbuf *msg);
/* Advance EOF/CLOSE state, send window adjusts, free finished channels. */
int chan_check_all(struct chan_set *cs);
/* fd work for one channel: read rfd/efd into packets, write wbuf/ebuf. */
int chan_read_fd(struct chan_set *cs, struct chan *c, int ext);
int chan_write_fd(struct chan_set *cs, struct chan *c, int ext);
/* Bandwidth-delay hint for window autotuning (0: none). */
size_t chan_bdp_hint(struct chan_set *cs);
/* Below this, peer data is queued and written per batch. */
#define CHAN_DIRECT_MIN	(64u * 1024)
/* Write what chan_put_data() queued, for every channel. */
int chan_flush_writes(struct chan_set *cs);
/*
 * Peer data for wfd/efd: written at once if it is large and nothing is
 * queued, otherwise queued for chan_flush_writes().
 */
int chan_put_data(struct chan *c, struct sbuf *buf, int ext,
    const unsigned char *data, size_t len);
time_t chan_now(void);
/* Close one fd slot; an fd shared with another slot stays open. */
void chan_fd_close(struct chan *c, int *fdp);
/* Start a message to the peer's end of c; NULL once CLOSE was sent. */
struct sbuf *chan_msg_start(struct chan_set *cs, struct chan *c,
    uint8_t type);

/* connloop.c: end conn_loop() with r (the first call wins). */
void conn_end(struct chan_set *cs, int r);
/* connloop.c: set up the set's timers (chan_set_new). */
void conn_timers_init(struct chan_set *cs);

/* channel.c: close every fd of c and drop what is buffered. */
void chan_close_all_fds(struct chan *c);

/*
 * chantimeout.c: the timers (chan_set_new); a channel made (its type's
 * interval looked up), possibly open now (a confirmation or its fds:
 * the clock starts once both), being freed; the unused-connection
 * count, after a channel came or went. chan_used(): fd I/O moved bytes.
 */
void chan_timeouts_init(struct chan_set *cs);
void chan_idle_init(struct chan_set *cs, struct chan *c);
void chan_idle_open(struct chan *c);
void chan_idle_gone(struct chan_set *cs, struct chan *c);
void chan_unused_check(struct chan_set *cs);
void chan_used_now(struct chan *c);
static inline void
chan_used(struct chan *c)
{
	if (c->idle_secs > 0 || c->set->global_secs > 0)
		chan_used_now(c);
}

/* chanlog.c: the count of unlogged refusals, when the set goes. */
void chan_log_refusals_end(struct chan_set *cs);

/* changlobal.c: handlers of the global-request messages. */
int chan_in_global_request(struct chan_set *cs, struct sbuf *m);
/* chanopen.c: CHANNEL_OPEN and the answers to ours. */
int chan_in_open(struct chan_set *cs, struct sbuf *m);
int chan_in_open_confirm(struct chan_set *cs, struct sbuf *m);
int chan_in_open_failure(struct chan_set *cs, struct sbuf *m);
/*
 * The recipient channel a message names (its first field, consumed);
 * need_open: it must be open both ways. An unknown id, or one not open
 * when it must be, is a protocol error.
 */
int chan_get(struct chan_set *cs, struct sbuf *m, int need_open,
    struct chan **cp);
int chan_in_global_success(struct chan_set *cs, struct sbuf *m);
int chan_in_global_failure(struct chan_set *cs, struct sbuf *m);

#endif
