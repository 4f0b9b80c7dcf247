/*
 * x11auth.c: the X11 connection setup message as ssh(1) sees it on a
 * forwarded X11 channel, before anything reaches the real display.
 *
 * The message (X Window System Protocol, "Connection Setup"): a
 * byte-order byte ('B' most significant byte first, 'l' least), one
 * unused byte, the major and minor protocol versions (16 bits each),
 * the lengths of the authorisation protocol name and data (16 bits
 * each), two unused bytes, then the name and the data, each padded to a
 * multiple of four bytes. Every 16-bit field is in the order the first
 * byte names. The bytes come from whatever connected to the server's
 * listener, so they are read through a bounds-checked view and nothing
 * is trusted until the whole message is there: the lengths are at most
 * 65535, so a message is at most 12 + 2 * 65536 bytes.
 */
#include <string.h>

#include "err.h"
#include "mem.h"
#include "sbuf.h"
#include "x11auth.h"

#define X11_SETUP_HEAD	12

/* Round up to a multiple of four, as the protocol pads. */
static size_t
pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static int
get_u16(struct sbuf *b, int msb_first, uint16_t *v)
{
	uint8_t hi, lo;
	int r;

	if (msb_first) {
		if ((r = sbuf_get_u8(b, &hi)) != 0 ||
		    (r = sbuf_get_u8(b, &lo)) != 0)
			return r;
	} else {
		if ((r = sbuf_get_u8(b, &lo)) != 0 ||
		    (r = sbuf_get_u8(b, &hi)) != 0)
			return r;
	}
	*v = (uint16_t)((hi << 8) | lo);
	return 0;
}

int
x11_setup_parse(const unsigned char *p, size_t len, struct x11_setup *out)
{
	struct sbuf *b;
	uint8_t order, unused;
	uint16_t major, minor, nlen, dlen;
	size_t total;
	int r, msb;

	memset(out, 0, sizeof(*out));
	if (len < X11_SETUP_HEAD)
		return len > 0 && p[0] != 'B' && p[0] != 'l' ?
		    ERR_INVALID_FORMAT : ERR_AGAIN;
	b = sbuf_from(p, len);
	if ((r = sbuf_get_u8(b, &order)) != 0)
		goto out;
	if (order != 'B' && order != 'l') {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	msb = order == 'B';
	if ((r = sbuf_get_u8(b, &unused)) != 0 ||
	    (r = get_u16(b, msb, &major)) != 0 ||
	    (r = get_u16(b, msb, &minor)) != 0 ||
	    (r = get_u16(b, msb, &nlen)) != 0 ||
	    (r = get_u16(b, msb, &dlen)) != 0)
		goto out;
	total = X11_SETUP_HEAD + pad4(nlen) + pad4(dlen);
	if (len < total) {
		r = ERR_AGAIN;
		goto out;
	}
	out->name_off = X11_SETUP_HEAD;
	out->name_len = nlen;
	out->data_off = X11_SETUP_HEAD + pad4(nlen);
	out->data_len = dlen;
	out->total = total;
	r = 0;
 out:
	sbuf_free(b);
	return r;
}

int
x11_setup_spoof(unsigned char *p, const struct x11_setup *st,
    const char *proto, const unsigned char *fake,
    const unsigned char *real, size_t n, const char **whyp)
{
	size_t plen = strlen(proto);

	*whyp = NULL;
	if (st->name_len != plen ||
	    memcmp(p + st->name_off, proto, plen) != 0) {
		*whyp = "protocol";
		return ERR_PERMISSION_DENIED;
	}
	if (st->data_len != n || !x_ct_eq(p + st->data_off, fake, n)) {
		*whyp = "data";
		return ERR_PERMISSION_DENIED;
	}
	memcpy(p + st->data_off, real, n);
	return 0;
}
