/*
 * channel.h: the SSH connection layer (RFC 4254), shared by both roles.
 *
 * A struct chan_set holds the channels of one connection, indexed by our
 * local channel id. Each channel has up to three file descriptors:
 *   rfd  read by us, sent to the peer as CHANNEL_DATA;
 *   wfd  written by us with the CHANNEL_DATA the peer sends;
 *   efd  the extended (stderr) stream, read and sent as EXTENDED_DATA
 *        type 1 (server sessions) or written with what the peer sends
 *        (client sessions), as chosen by efd_mode.
 * rfd and wfd may be the same descriptor (a pty master).
 *
 * What a channel type does on open and on channel requests lives in a
 * small table of operations (struct chan_ops) registered per type name;
 * the layer itself knows nothing about sessions.
 *
 * Flow control: we offer CHAN_WINDOW bytes of window and accept packets up
 * to CHAN_MAXPACKET; once the bytes written out to wfd/efd reach half the
 * window we send WINDOW_ADJUST for them, and grow the window (up to
 * CHAN_WINDOW_CAP) when the peer keeps it used up (chanwin.c). We never send more than the
 * peer's window or its maximum packet size.
 *
 * EOF and CLOSE: EOF is sent once rfd and efd have both reached end of
 * file (and the type's drain hook, if any, agrees). CLOSE is sent once EOF
 * has been sent, the write side is finished (the peer's EOF arrived and
 * everything was written, or the type closed it locally, e.g. after the
 * child exited), and the type's close_ok hook agrees. Nothing is sent on
 * a channel after CLOSE; the channel is freed once CLOSE has been both
 * sent and received.
 *
 * conn_loop() is the event loop of one connection, run on the set's
 * ev loop (ev.h, chan_set_ev()): it watches the transport's fds and the
 * channels' fds, moves data, dispatches messages and sends ClientAlive
 * probes; the programs add their own fds (signals, typed input,
 * listeners) and timers to the same loop, and end it with conn_stop().
 *
 * Ownership: chan_set_new() returns a set the caller frees with
 * chan_set_free(), which frees every channel (calling each type's free
 * hook) and closes the channels' fds. The transport stays the caller's.
 */
#ifndef MOAT_CHANNEL_H
#define MOAT_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "ev.h"
#include "sbuf.h"

struct transport;

/* What we offer the peer; easy to change. */
#define CHAN_WINDOW		(2u * 1024 * 1024)
/* Autotuning may grow a channel's window (and so its buffer) to this. */
#define CHAN_WINDOW_CAP		(16u * 1024 * 1024)
/*
 * 128 KiB packets (OpenSSH offers 32 KiB): a peer with more than 32 KiB at
 * hand sends fewer, larger packets, and per-packet costs (a MAC or tag, a
 * syscall, a loop pass) are spread over more bytes. Well under the
 * transport's 256 KiB packet limit.
 */
#define CHAN_MAXPACKET		(128u * 1024)
/* Largest chunk we read from an fd for one packet, whatever the peer says. */
#define CHAN_READ_MAX		(128u * 1024)
/* Stop reading channel fds while this much transport output is queued. */
#define CONN_OUTPUT_HIGH	(1024u * 1024)
/* Most channels one connection may have open at once. */
#define CHAN_MAX_CHANNELS	256

/* Channel open failure reasons (RFC 4254 section 5.1). */
#define SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED	1
#define SSH2_OPEN_CONNECT_FAILED		2
#define SSH2_OPEN_UNKNOWN_CHANNEL_TYPE		3
#define SSH2_OPEN_RESOURCE_SHORTAGE		4

#define SSH2_EXTENDED_DATA_STDERR		1

enum chan_efd_mode {
	CHAN_EFD_NONE = 0,	/* no extended stream; incoming is dropped */
	CHAN_EFD_READ,		/* read efd, send EXTENDED_DATA */
	CHAN_EFD_WRITE,		/* write incoming EXTENDED_DATA to efd */
};

struct chan_set;
struct chan;

struct chan_ops {
	const char *type;		/* channel type name, e.g. "session" */
	/*
	 * The peer opens a channel of this type; extra holds the
	 * type-specific fields. Return 0 to confirm, or set *reasonp
	 * (SSH2_OPEN_*) and *descp (static) and return an error.
	 */
	int (*open)(struct chan_set *cs, struct chan *c, struct sbuf *extra,
	    uint32_t *reasonp, const char **descp);
	/* Our own open was answered (ok: 1 confirmed, 0 refused). */
	void (*opened)(struct chan_set *cs, struct chan *c, int ok);
	/*
	 * A CHANNEL_REQUEST; body holds the fields after want_reply.
	 * Return 0 for success, an error for failure (the layer replies
	 * if the peer wants a reply).
	 */
	int (*request)(struct chan_set *cs, struct chan *c, const char *name,
	    int want_reply, struct sbuf *body);
	/* CHANNEL_SUCCESS (ok 1) / CHANNEL_FAILURE (0) for our request. */
	void (*reply)(struct chan_set *cs, struct chan *c, int ok);
	/* May EOF be sent now that rfd and efd are done? NULL: yes. */
	int (*eof_ok)(struct chan_set *cs, struct chan *c);
	/* May CLOSE be sent (e.g. exit status already sent)? NULL: yes. */
	int (*close_ok)(struct chan_set *cs, struct chan *c);
	/* The channel is being freed: release ctx (fds are the layer's). */
	void (*free)(struct chan_set *cs, struct chan *c);
	/*
	 * Relay channels only (chan_relay_new): a message from the peer
	 * for c, its type (CHANNEL_OPEN_CONFIRMATION to CHANNEL_FAILURE)
	 * and its fields after the recipient id. An error ends the
	 * connection, as a bad message does.
	 */
	int (*relay)(struct chan_set *cs, struct chan *c, uint8_t type,
	    struct sbuf *msg);
};

struct chan {
	struct chan_set *set;		/* the set the channel is in */
	uint32_t local_id;
	uint32_t remote_id;
	const struct chan_ops *ops;
	void *ctx;			/* the type's state, freed by ops->free */
	void *type_arg;			/* as given to chan_set_register */

	/* Our side: what the peer may still send, and what we consumed. */
	uint32_t local_window;
	uint32_t local_window_max;
	uint32_t local_consumed;	/* written out, not yet re-offered */
	uint32_t local_maxpacket;
	/* The peer's side. */
	uint32_t remote_window;
	uint32_t remote_maxpacket;

	int rfd, wfd, efd;		/* -1: none or closed */
	enum chan_efd_mode efd_mode;
	struct sbuf *wbuf;		/* peer data waiting for wfd */
	struct sbuf *ebuf;		/* peer ext data waiting for efd */

	unsigned int confirmed:1;	/* open completed both ways */
	unsigned int active:1;		/* fds attached (chan_set_fds) */
	unsigned int write_closed:1;	/* we will write no more */
	unsigned int eof_sent:1;
	unsigned int eof_rcvd:1;
	unsigned int close_sent:1;
	unsigned int close_rcvd:1;
	unsigned int wfd_is_tty:1;	/* keep wfd open on the peer's EOF */
	unsigned int open_pending:1;	/* peer's open awaits our answer */
	unsigned int idle_closed:1;	/* closed for inactivity (or freed) */
	/* CHAN_DGRAM_* (tun.h): one packet per message on rfd/wfd. */
	unsigned int datagram:2;
	unsigned int relay:1;		/* chan_relay_new() */
	/* Our open refused: the reason and text, during ops->opened. */
	uint32_t open_reason;
	const char *open_desc;

	/* Inactivity (chan_set_timeouts): the layer's, not the type's. */
	int idle_secs;			/* 0: never closed for it */
	int64_t last_used;		/* ev_now_ms() of the last fd I/O;
					   0: the clock has not started */
	struct ev_timer idle_tm;
};

/* NULL when no event loop can be had (no epoll instance). */
struct chan_set *chan_set_new(struct transport *t);
void chan_set_free(struct chan_set *cs);
struct transport *chan_set_transport(const struct chan_set *cs);

/*
 * Accept peer opens of ops->type; ops must outlive the set. arg is
 * handed to the type as c->type_arg on each of its channels.
 */
int chan_set_register(struct chan_set *cs, const struct chan_ops *ops,
    void *arg);
/*
 * ClientAliveInterval/CountMax (interval 0: off). user, addr and port
 * name the peer in the timeout log line; the strings must outlive cs.
 */
void chan_set_keepalive(struct chan_set *cs, int interval, int count_max,
    const char *user, const char *addr, int port);
/*
 * Log a refused peer request (a channel open, a global or channel
 * request) at level, printf-style. The first CHAN_REFUSAL_LOG_FIRST of a
 * connection are logged; later ones are counted, and the count is logged
 * at most every CHAN_REFUSAL_LOG_EVERY seconds and when the set is freed
 * (naming the peer given to chan_set_keepalive), so a peer asking again
 * and again cannot flood the logs.
 */
#define CHAN_REFUSAL_LOG_FIRST	10
#define CHAN_REFUSAL_LOG_EVERY	60
void chan_log_refusal(struct chan_set *cs, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * Inactivity timeouts (sshd's ChannelTimeout and UnusedConnectionTimeout;
 * see chantimeout.c). fn(arg, type) gives the seconds after which a
 * channel that moved no data is closed (0: never); it is asked with the
 * type's name when a channel is made (ops->type; the caller may map it
 * to names of its own) and by chan_set_timeout_type(). A channel's clock
 * starts when it is open both ways with fds attached; reads and writes
 * on its fds that move bytes restart it. global_secs: every open channel
 * is closed once none of them has moved data for that long. unused_secs:
 * the loop ends (ERR_CONN_TIMEOUT, logged, no DISCONNECT sent) once the
 * set has had no open channel for that long, counted from this call.
 * 0 turns each off. arg must outlive the set.
 */
void chan_set_timeouts(struct chan_set *cs, int (*fn)(void *arg,
    const char *type), void *arg, int global_secs, int unused_secs);
/*
 * Ask fn again for c under another name (e.g. "session:shell" once a
 * session starts a shell). A running clock keeps its start.
 */
void chan_set_timeout_type(struct chan *c, const char *type);
/*
 * Call cb(arg) once the loop has had nothing to do for ms milliseconds,
 * and again after each later burst of activity followed by as long a
 * quiet spell (ms 0: never): a timer in the set's loop, restarted by
 * every wait that saw a ready fd. For giving memory back while idle.
 */
void chan_set_idle(struct chan_set *cs, int ms,
    void (*cb)(struct chan_set *cs, void *arg), void *arg);
/* Make conn_loop return 0 once no channels remain (client role). */
void chan_set_exit_when_idle(struct chan_set *cs, int on);
/* Number of channels in the table (any state). */
size_t chan_set_count(const struct chan_set *cs);
/* Channel by local id, or NULL. */
struct chan *chan_lookup(struct chan_set *cs, uint32_t local_id);
/* Call fn on each channel; stops early if fn returns non-zero. */
void chan_foreach(struct chan_set *cs,
    int (*fn)(struct chan_set *cs, struct chan *c, void *arg), void *arg);

/*
 * Open a channel towards the peer (client role, forwarding). extra, if
 * not NULL, is appended to the CHANNEL_OPEN message. ops->opened hears
 * the answer. *cp is owned by the set.
 */
int chan_open(struct chan_set *cs, const struct chan_ops *ops, void *ctx,
    const struct sbuf *extra, struct chan **cp);

/*
 * Relay channels: an id in the table and nothing else, for a channel
 * whose messages someone else carries (a mux proxy client's). The layer
 * sends nothing for them, keeps no window, buffer or EOF/CLOSE state,
 * and hands every message the peer sends for one to ops->relay; the
 * owner opens it, sends on it (c->remote_id, c->confirmed and the
 * close flags are its to keep) and frees it with chan_relay_free(),
 * which calls ops->free as chan_set_free() would.
 */
int chan_relay_new(struct chan_set *cs, const struct chan_ops *ops,
    void *ctx, struct chan **cp);
void chan_relay_free(struct chan_set *cs, struct chan *c);

/* Attach fds to a channel (the set then owns and closes them). */
void chan_set_fds(struct chan *c, int rfd, int wfd, int efd,
    enum chan_efd_mode efd_mode, int wfd_is_tty);
/* Stop writing to wfd/efd: close them and drop what is buffered. */
void chan_close_write(struct chan *c);

/*
 * Start a CHANNEL_REQUEST; append the request's fields to the returned
 * buffer and call chan_msg_send(). NULL if the channel is closing.
 */
struct sbuf *chan_request_start(struct chan_set *cs, struct chan *c,
    const char *name, int want_reply);
int chan_msg_send(struct chan_set *cs);
int chan_send_eof(struct chan_set *cs, struct chan *c);
int chan_send_close(struct chan_set *cs, struct chan *c);

/*
 * Deferred opens: a type's open hook may return ERR_AGAIN to answer
 * later (e.g. after a non-blocking connect). The channel then waits,
 * unconfirmed, until the type calls chan_open_confirm() or
 * chan_open_refuse(); the latter frees the channel (ops->free runs).
 */
int chan_open_confirm(struct chan_set *cs, struct chan *c);
int chan_open_refuse(struct chan_set *cs, struct chan *c, uint32_t reason,
    const char *desc);

/*
 * Global requests from the peer: fn runs for a GLOBAL_REQUEST named
 * name; body holds the fields after want_reply. Return 0 for
 * REQUEST_SUCCESS (anything appended to reply goes with it) or an error
 * for REQUEST_FAILURE. At most CHAN_MAX_GLOBALS names per set.
 */
#define CHAN_MAX_GLOBALS	8
typedef int (*chan_global_fn)(struct chan_set *cs, void *arg,
    struct sbuf *body, struct sbuf *reply);
int chan_set_global(struct chan_set *cs, const char *name,
    chan_global_fn fn, void *arg);
/*
 * Our own global request: append its fields to the returned buffer and
 * call chan_msg_send(). With want_reply, cb (may be NULL) hears the
 * answer in order: ok 1 and the reply's fields, or ok 0 (body NULL).
 * Every GLOBAL_REQUEST we send wanting a reply must go through here, so
 * that replies are matched to requests.
 */
typedef void (*chan_global_reply_fn)(struct chan_set *cs, void *arg, int ok,
    struct sbuf *body);
struct sbuf *chan_global_start(struct chan_set *cs, const char *name,
    int want_reply, chan_global_reply_fn cb, void *arg);

/*
 * More fds for conn_loop to watch (listening sockets, connects in
 * progress), in the set's loop with their events in poll(2) terms:
 * cb(cs, fd, revents, arg) runs when fd is ready for events (POLLIN,
 * POLLOUT). chan_set_unwatch() may be called from inside a callback, and
 * must be called before the fd is closed. The fd stays the caller's.
 */
typedef void (*chan_watch_fn)(struct chan_set *cs, int fd, short revents,
    void *arg);
int chan_set_watch(struct chan_set *cs, int fd, short events,
    chan_watch_fn cb, void *arg);
void chan_set_unwatch(struct chan_set *cs, int fd);

/*
 * The loop of one connection. Returns 0 when the peer closed the
 * connection or disconnected (or, with exit_when_idle, when the last
 * channel is gone), ERR_CONN_TIMEOUT after ClientAliveCountMax
 * unanswered probes, or another error.
 */
int conn_loop(struct transport *t, struct chan_set *cs);
/*
 * End conn_loop() from inside it (a callback), or make the next one
 * return at once: it returns 0 unless an error came first. The transport
 * is left as it is (flush it first if something must go out).
 */
void conn_stop(struct chan_set *cs);
/* The set's event loop, for more fds and timers; owned by the set. */
struct ev_loop *chan_set_ev(struct chan_set *cs);

/*
 * Pure helpers for the window arithmetic (chanwin.c).
 * chan_send_limit: bytes we may send in one packet now.
 * chan_window_consume: account for len bytes received; ERR_PROTOCOL if
 * they exceed the window (the window is left unchanged).
 * chan_adjust_due: 1 and *addp when a WINDOW_ADJUST should go out.
 * chan_window_add: apply the peer's adjust; ERR_PROTOCOL on overflow.
 */
size_t chan_send_limit(uint32_t remote_window, uint32_t remote_maxpacket,
    size_t cap);
int chan_window_consume(uint32_t *window, uint32_t len);
int chan_adjust_due(uint32_t consumed, uint32_t window, uint32_t window_max,
    int write_closed, uint32_t *addp);
int chan_window_add(uint32_t *window, uint32_t add);
/*
 * chan_window_autotune: the window to offer from now on, given the
 * current one, a bandwidth-delay hint (the transport socket's receive
 * buffer; 0: none) and what we hold queued for the fd: doubled, up to
 * the hint and cap, while the hint is larger and nothing is queued.
 */
uint32_t chan_window_autotune(uint32_t window_max, size_t bdp_hint,
    size_t queued, uint32_t cap);

#endif
