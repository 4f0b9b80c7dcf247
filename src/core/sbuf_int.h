/*
 * sbuf_int.h: the wire buffer's fields, for sbuf.c and its unit test
 * only. Everything else goes through sbuf.h's functions, so the rules
 * there (bounds, caps, wipes) cannot be stepped around.
 */
#ifndef MOAT_SBUF_INT_H
#define MOAT_SBUF_INT_H

#include <stddef.h>

struct sbuf {
	unsigned char *d;	/* storage */
	size_t off;		/* first unread byte */
	size_t size;		/* end of data */
	size_t alloc;		/* bytes allocated */
	size_t max_size;	/* cap on size - off */
	int readonly;		/* view over memory we do not own */
};

#endif
