/*
 * clientchaff.c: ObscureKeystrokeTiming, as OpenSSH 9.5 and later send
 * an interactive session's typing.
 *
 * Someone watching the packets of a pty session can read the gaps
 * between keystrokes, and from them guess what was typed. So once the
 * user starts typing, typed bytes no longer go out as they come: they
 * wait in pipebuf for a repeating tick of about the configured interval
 * (20 ms for "yes"), each tick some random milliseconds off the exact
 * period, and the whole run's rate shifted by a random amount too. A
 * tick with nothing typed sends SSH2_MSG_PING carrying "PING!", a
 * packet the size of a one-byte CHANNEL_DATA, so an observer sees the
 * same packet at every tick whether a key was pressed or not. The ticks
 * go on for a random 1 to 3 seconds after the last key, then stop until
 * the next one; the first key of a run goes out at once.
 *
 * Chaff is sent only to a server whose EXT_INFO offered
 * ping@openssh.com (it answers with a PONG the transport drops); to
 * any other server typing is still sent on the ticks, without chaff,
 * as OpenSSH does. A run ends early, everything held going out at once,
 * when the session channel is gone or closing, a key exchange starts,
 * or more than a few keystrokes' worth is waiting (a paste): bulk input
 * is not slowed down.
 *
 * One timer in the connection's loop, restarted from its own callback;
 * a tick allocates nothing (the PING is built in the transport's own
 * message buffer).
 */
#include <sys/random.h>

#include <string.h>

#include "channel.h"
#include "clientsess_int.h"
#include "ev.h"
#include "log.h"
#include "transport.h"

/* As OpenSSH: 20 ms by default, jitter of 10% of the interval. */
#define CHAFF_DEFAULT_MS	20
#define CHAFF_FUZZ_PERCENT	10
/* Ticks go on for CHAFF_MIN_MS plus up to CHAFF_RNG_MS after a key. */
#define CHAFF_MIN_MS		1024
#define CHAFF_RNG_MS		2048
/* More than this waiting, here or in the transport, is not typing. */
#define CHAFF_MAX_PENDING	256

/* A uniform number below n (n > 0). */
static uint32_t
rnd_below(uint32_t n)
{
	uint32_t v, lim;

	if (n <= 1)
		return 0;
	lim = UINT32_MAX - UINT32_MAX % n;
	do {
		if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
			return n / 2;
	} while (v >= lim);
	return v % n;
}

/* Microseconds of jitter the interval may take. */
static uint32_t
fuzz_us(const struct csess *s)
{
	return (uint32_t)s->chaff_ms * 1000 * CHAFF_FUZZ_PERCENT / 100;
}

/* Milliseconds to the next tick: the interval less the jitter, plus a
 * random part of it and this run's share. */
static int64_t
next_tick_ms(const struct csess *s)
{
	uint32_t fuzz = fuzz_us(s);
	uint64_t us = (uint64_t)s->chaff_ms * 1000 - fuzz + rnd_below(fuzz) +
	    s->chaff_rate_us;
	int64_t ms = (int64_t)((us + 500) / 1000);

	return ms > 0 ? ms : 1;
}

/* Why the run must end now; NULL while it may go on. */
static const char *
stop_reason(const struct csess *s)
{
	if (s->quit || s->in_eof || s->chan == NULL || !s->chan->confirmed ||
	    s->chan->close_sent || s->chan->close_rcvd)
		return "no active channels";
	if (tr_kex_running(s->t))
		return "rekeying started";
	if (sbuf_len(s->pipebuf) >= CHAFF_MAX_PENDING ||
	    tr_output_pending(s->t) >= CHAFF_MAX_PENDING)
		return "output buffer filling";
	return NULL;
}

static void
extend(struct csess *s)
{
	s->chaff_until = ev_now_ms() + CHAFF_MIN_MS + rnd_below(CHAFF_RNG_MS);
}

void
csess_chaff_stop(struct csess *s, const char *why)
{
	if (!s->chaff_on)
		return;
	s->chaff_on = 0;
	ev_timer_stop(chan_set_ev(s->cs), &s->chaff_tm);
	log_debug3("obfuscate_keystroke_timing: stopping: %s (%lu chaff "
	    "packets sent)", why, s->nchaff);
}

static void
send_chaff(struct csess *s)
{
	struct sbuf *b;

	/* Only where a PONG is sure to come back, not UNIMPLEMENTED. */
	if (!tr_peer_ping(s->t) || tr_output_pending(s->t) > 0)
		return;
	if ((b = tr_msg_start(s->t, SSH2_MSG_PING)) == NULL ||
	    sbuf_put_cstring(b, "PING!") != 0 || tr_msg_send(s->t) != 0)
		return;
	s->nchaff++;
}

static void
on_tick(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct csess *s = arg;
	const char *why;

	if ((why = stop_reason(s)) != NULL) {
		csess_chaff_stop(s, why);
		csess_pipe_flush(s);
		return;
	}
	if (sbuf_len(s->pipebuf) > 0)
		csess_pipe_flush(s);
	else if (ev_now_ms() >= s->chaff_until) {
		csess_chaff_stop(s, "chaff time expired");
		return;
	} else
		send_chaff(s);
	ev_timer_start(ev, tm, next_tick_ms(s), 0);
}

void
csess_chaff_typed(struct csess *s)
{
	const char *why;

	if (s->chaff_ms <= 0 || sbuf_len(s->pipebuf) == 0) {
		csess_pipe_flush(s);
		return;
	}
	if ((why = stop_reason(s)) != NULL) {
		csess_chaff_stop(s, why);
		csess_pipe_flush(s);
		return;
	}
	extend(s);
	if (s->chaff_on)
		return;		/* held for the next tick */
	/* A run starts: this key goes now, the next on a tick. */
	s->chaff_on = 1;
	s->nchaff = 0;
	s->chaff_rate_us = rnd_below(fuzz_us(s));
	log_debug3("obfuscate_keystroke_timing: starting: interval ~%dms",
	    s->chaff_ms);
	ev_timer_start(chan_set_ev(s->cs), &s->chaff_tm, next_tick_ms(s), 0);
	csess_pipe_flush(s);
}

void
csess_chaff_init(struct csess *s)
{
	int v = s->o->obscure_keystroke_timing;

	ev_timer_init(&s->chaff_tm, on_tick, s);
	/* Only a session with a pty is typed into (OpenSSH: client_tty). */
	if (!s->a->want_tty || s->a->no_command || s->a->stdin_null)
		return;
	s->chaff_ms = v == -2 ? CHAFF_DEFAULT_MS : v > 0 ? v : 0;
}
