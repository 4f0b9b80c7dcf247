/*
 * test_chanwin.c: channel window autotuning (chanwin.c).
 *
 * The rule itself on fixed inputs, then a simulated long fat link: a
 * sender limited only by the window and the link's bandwidth, a receiver
 * whose WINDOW_ADJUSTs reach the sender one round trip later. With a
 * fixed window the transfer runs at window / RTT; with autotuning the
 * window grows to the cap and the transfer runs several times faster,
 * while the peer never sends beyond the window and our queue never holds
 * more than the cap. A slow consumer (data queued) must not grow it. The
 * hint stands for the TCP receive buffer, which Linux sizes at about
 * twice the bandwidth-delay product.
 */
#include <stdint.h>
#include <string.h>

#include "channel.h"
#include "testlib.h"

#define MIB	(1024u * 1024)

static void
test_rule(void)
{
	/* The path holds more than the window, nothing queued: doubled. */
	CHECK(chan_window_autotune(2 * MIB, 64 * MIB, 0, 16 * MIB) == 4 * MIB);
	/* Up to the hint... */
	CHECK(chan_window_autotune(2 * MIB, 3 * MIB, 0, 16 * MIB) == 3 * MIB);
	/* ...and the cap, and no further. */
	CHECK(chan_window_autotune(12 * MIB, 64 * MIB, 0,
	    16 * MIB) == 16 * MIB);
	CHECK(chan_window_autotune(16 * MIB, 64 * MIB, 0,
	    16 * MIB) == 16 * MIB);
	/* The window already covers the path, or no hint: unchanged. */
	CHECK(chan_window_autotune(2 * MIB, 2 * MIB, 0, 16 * MIB) == 2 * MIB);
	CHECK(chan_window_autotune(2 * MIB, MIB, 0, 16 * MIB) == 2 * MIB);
	CHECK(chan_window_autotune(2 * MIB, 0, 0, 16 * MIB) == 2 * MIB);
	/* Our consumer is behind: growing would only buffer more. */
	CHECK(chan_window_autotune(2 * MIB, 64 * MIB, 1, 16 * MIB) == 2 * MIB);
	/* A cap below the window never shrinks it. */
	CHECK(chan_window_autotune(2 * MIB, 64 * MIB, 0, MIB) == 2 * MIB);
}

#define RTT		50		/* ticks (say 1 ms each) */
#define BW		(256u * 1024)	/* link bytes per tick */
#define FLIGHT		(RTT + 1)

/*
 * Send total bytes; consumer_rate bytes per tick leave our queue.
 * Returns the ticks taken; *maxwinp and *maxqueuedp get the largest
 * window offered while the sender had data left, and the largest queue.
 */
static unsigned long
simulate(uint64_t total, int autotune, uint32_t consumer_rate,
    uint32_t *maxwinp, uint64_t *maxqueuedp, int *violationsp)
{
	/* Adjusts in flight towards the sender, by arrival tick. */
	uint32_t adj_flight[FLIGHT];
	uint32_t data_flight[FLIGHT];
	uint32_t rwin = CHAN_WINDOW, lwin = CHAN_WINDOW, lmax = CHAN_WINDOW;
	uint32_t consumed = 0, add;
	uint64_t sent = 0, written = 0, queued = 0;
	/* What TCP autotuning makes of the receive buffer: 2 x BDP. */
	size_t hint = 2 * (size_t)BW * RTT;
	unsigned long tick;

	memset(adj_flight, 0, sizeof(adj_flight));
	memset(data_flight, 0, sizeof(data_flight));
	*maxwinp = lmax;
	*maxqueuedp = 0;
	*violationsp = 0;
	for (tick = 0; written < total && tick < 10000000; tick++) {
		size_t slot = tick % FLIGHT, half = (tick + RTT / 2) % FLIGHT;
		uint32_t n = 0, out;

		/* Sender: adjusts arriving now, then send what it may. */
		if (chan_window_add(&rwin, adj_flight[slot]) != 0)
			(*violationsp)++;
		adj_flight[slot] = 0;
		while (n < BW && sent < total) {
			size_t k = chan_send_limit(rwin, CHAN_MAXPACKET,
			    CHAN_READ_MAX);

			if (k == 0)
				break;
			if (k > total - sent)
				k = (size_t)(total - sent);
			rwin -= (uint32_t)k;
			sent += k;
			n += (uint32_t)k;
		}
		data_flight[half] += n;
		/* Receiver: data arriving now (sent half an RTT ago). */
		if (chan_window_consume(&lwin, data_flight[slot]) != 0)
			(*violationsp)++;
		queued += data_flight[slot];
		data_flight[slot] = 0;
		out = queued < consumer_rate ? (uint32_t)queued :
		    consumer_rate;
		queued -= out;
		written += out;
		consumed += out;
		if (queued > *maxqueuedp)
			*maxqueuedp = queued;
		if (chan_adjust_due(consumed, lwin, lmax, 0, &add)) {
			if (autotune) {
				uint32_t grown = chan_window_autotune(lmax,
				    hint, (size_t)queued, CHAN_WINDOW_CAP);

				add += grown - lmax;
				lmax = grown;
			}
			lwin += add;
			consumed = 0;
			if (lwin > lmax)
				(*violationsp)++;
			adj_flight[half] += add;
		}
		/* (Once the queue drains at the very end it may grow.) */
		if (sent < total && lmax > *maxwinp)
			*maxwinp = lmax;
	}
	return tick;
}

static void
test_long_fat_link(void)
{
	uint64_t total = 512u * MIB, maxq;
	uint32_t maxwin;
	unsigned long fixed, tuned;
	int v;

	fixed = simulate(total, 0, UINT32_MAX, &maxwin, &maxq, &v);
	CHECK(v == 0);
	CHECK(maxwin == CHAN_WINDOW);
	tuned = simulate(total, 1, UINT32_MAX, &maxwin, &maxq, &v);
	CHECK(v == 0);
	CHECK(maxwin == CHAN_WINDOW_CAP);
	CHECK(maxq <= CHAN_WINDOW_CAP);
	/* A 2 MiB window over 50 ticks is 40 KiB/tick; 16 MiB is 8x that. */
	CHECK(fixed > 4 * tuned);
	/* A consumer slower than the link: no growth, queue bounded. */
	(void)simulate(64u * MIB, 1, 16u * 1024, &maxwin, &maxq, &v);
	CHECK(v == 0);
	CHECK(maxwin == CHAN_WINDOW);
	CHECK(maxq <= CHAN_WINDOW);
}

int
main(void)
{
	test_rule();
	test_long_fat_link();
	return TEST_DONE();
}
