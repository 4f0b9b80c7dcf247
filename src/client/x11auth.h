/*
 * x11auth.h: the first message an X client sends (the X11 connection
 * setup), read from hostile bytes, and the fake cookie in it swapped
 * for the real one (see x11auth.c).
 */
#ifndef MOAT_X11AUTH_H
#define MOAT_X11AUTH_H

#include <stddef.h>
#include <stdint.h>

/* Where the authorisation fields of a complete setup message lie. */
struct x11_setup {
	size_t name_off, name_len;	/* authorisation protocol name */
	size_t data_off, data_len;	/* authorisation data */
	size_t total;			/* the whole message, padding too */
};

/*
 * Read the setup message at the head of p[0..len): 0 and *out when it
 * is all there, ERR_AGAIN when more bytes are needed, ERR_INVALID_FORMAT
 * when the byte-order byte is neither 'B' nor 'l'.
 */
int x11_setup_parse(const unsigned char *p, size_t len,
    struct x11_setup *out);

/*
 * Check a parsed message's protocol name against proto and its data
 * against fake (n bytes, constant time); when both match, write real
 * (n bytes) over the data in place. 0, or ERR_PERMISSION_DENIED: the
 * name differs (*whyp "protocol") or the data does ("data").
 */
int x11_setup_spoof(unsigned char *p, const struct x11_setup *st,
    const char *proto, const unsigned char *fake,
    const unsigned char *real, size_t n, const char **whyp);

#endif
