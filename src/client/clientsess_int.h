/*
 * clientsess_int.h: the state of one client session, shared by
 * clientsess.c (channel, loop, signals) and clientesc.c (typed input
 * and the escape commands). Not for other modules.
 */
#ifndef MOAT_CLIENTSESS_INT_H
#define MOAT_CLIENTSESS_INT_H

#include <signal.h>
#include <sys/ioctl.h>

#include "client.h"
#include "escape.h"
#include "ev.h"
#include "ttyraw.h"

struct chan_set;
struct chan;
struct transport;

#define CS_MAX_PENDING 8

enum cs_reply { CS_REPLY_PTY, CS_REPLY_EXEC, CS_REPLY_SUBSYS, CS_REPLY_X11 };

struct csess {
	struct transport *t;
	const struct client_opts *o;
	const struct client_session_args *a;
	const char *host;
	struct chan_set *cs;
	struct chan *chan;

	int in, out, err;		/* ours, not to be closed */
	int chan_rfd, chan_wfd, chan_efd;	/* until given to the channel */

	enum cs_reply pending[CS_MAX_PENDING];	/* replies due, in order */
	size_t npending;

	int exit_status;		/* -1 until exit-status */
	int exit_signal;

	/* Watchers in the connection's loop. */
	int sigfd;
	sigset_t sigs, oldmask;
	int mask_set;
	struct ev_timer alive_tm;	/* ServerAliveInterval */
	int alive_missed;

	/* Escapes: typed input -> escape machine -> pipe -> channel. */
	int escapes;
	struct esc_state esc;
	int pipe_w;
	struct sbuf *pipebuf;
	int in_eof;

	/*
	 * ObscureKeystrokeTiming (clientchaff.c): typed bytes held in
	 * pipebuf until the next tick, PINGs in the gaps until chaff_until.
	 */
	int own_input;			/* we read s->in: escapes or chaff */
	int chaff_ms;			/* the interval; 0: off */
	int chaff_on;
	int64_t chaff_until;		/* monotonic ms */
	uint32_t chaff_rate_us;		/* this run's share of the jitter */
	unsigned long nchaff;
	struct ev_timer chaff_tm;

	struct ttyraw raw;
	struct winsize ws;

	int quit, quit_status, quit_silent;
};

/* clientsess.c */
void csess_quit(struct csess *s, int status);
void csess_window_change(struct csess *s);
/*
 * Watch fd (s->in or s->pipe_w) in the loop for mask (EV_READ,
 * EV_WRITE, 0: not now); mask -1 stops watching it. fd -1: nothing.
 */
void csess_watch(struct csess *s, int fd, int mask);

/* clientesc.c */
void csess_input(struct csess *s);
void csess_pipe_flush(struct csess *s);

/* clientchaff.c */
void csess_chaff_init(struct csess *s);
/* Bytes typed went to pipebuf: on to the channel now or at a tick. */
void csess_chaff_typed(struct csess *s);
void csess_chaff_stop(struct csess *s, const char *why);

#endif
