/*
 * chanwin.c: the window arithmetic of the connection layer, as pure
 * functions so it can be tested on its own (see channel.h).
 *
 * Our window shrinks by every data byte the peer sends; once the bytes we
 * have written out reach half of the window we offered, we give them back
 * with one WINDOW_ADJUST (fewer, larger adjusts keep bulk data flowing
 * without a message per packet). The peer's window shrinks by what we
 * send and grows by its adjusts, never past 2^32-1.
 *
 * Autotuning (as HPN-SSH does): a fixed window caps a connection at
 * window / round-trip time. The kernel's TCP receive buffer, which Linux
 * grows with the connection's bandwidth-delay product, is the hint: while
 * it is larger than the window we offer and our side keeps up (nothing
 * queued for the fd), each due adjust doubles the window, up to the hint
 * and a cap. The peer may never have more than the window in flight, and
 * what we have not yet written is part of it, so the cap is also the most
 * memory one channel can make us hold.
 */
#include <stddef.h>
#include <stdint.h>

#include "channel.h"
#include "err.h"

size_t
chan_send_limit(uint32_t remote_window, uint32_t remote_maxpacket, size_t cap)
{
	size_t n = remote_window;

	if (n > remote_maxpacket)
		n = remote_maxpacket;
	if (n > cap)
		n = cap;
	return n;
}

int
chan_window_consume(uint32_t *window, uint32_t len)
{
	if (len > *window)
		return ERR_PROTOCOL;
	*window -= len;
	return 0;
}

int
chan_adjust_due(uint32_t consumed, uint32_t window, uint32_t window_max,
    int write_closed, uint32_t *addp)
{
	*addp = 0;
	if (write_closed || consumed == 0)
		return 0;
	if (consumed < window_max / 2)
		return 0;
	/* Never offer more than window_max in all. */
	if (window > window_max || consumed > window_max - window)
		return 0;
	*addp = consumed;
	return 1;
}

int
chan_window_add(uint32_t *window, uint32_t add)
{
	if (add > UINT32_MAX - *window)
		return ERR_PROTOCOL;
	*window += add;
	return 0;
}

uint32_t
chan_window_autotune(uint32_t window_max, size_t bdp_hint, size_t queued,
    uint32_t cap)
{
	uint32_t want;

	if (queued > 0 || bdp_hint <= window_max || window_max >= cap)
		return window_max;
	want = window_max > cap / 2 ? cap : window_max * 2;
	if (want > bdp_hint)
		want = (uint32_t)bdp_hint;
	return want;
}
