/*
 * compress.c: the compression methods and their zlib streams; see
 * compress.h.
 *
 * Each stream owns one scratch buffer that holds a packet's worth of
 * output: what the packet layer frames (compressing) or hands up
 * (inflating). It grows to the largest packet seen and is reused, so a
 * stream in use does not allocate per packet. What the previous packet
 * left in it is wiped before the next one, since it may be a
 * password or another secret of the session.
 */
#include <string.h>

#include <zlib.h>

#include "compress.h"
#include "err.h"
#include "mem.h"

#define COMP_CHUNK	(16 * 1024)	/* least room offered to zlib */
#define COMP_LEVEL	6		/* the level OpenSSH compresses at */
/* More compressed output than this over the input is a bug, not data. */
#define COMP_SLACK	(64 * 1024)

static const struct comp_alg comp_algs[] = {
	{ "none", 0, 0 },
	{ "zlib@openssh.com", 1, 1 },
	{ "zlib", 1, 0 },
};

struct comp_ctx {
	z_stream z;
	int deflate;
	unsigned char *buf;
	size_t cap;
	size_t used;		/* bytes of buf the last packet wrote */
};

const struct comp_alg *
comp_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(comp_algs) / sizeof(comp_algs[0]); i++)
		if (strcmp(comp_algs[i].name, name) == 0)
			return &comp_algs[i];
	return NULL;
}

const char *
comp_all_names(void)
{
	return "none,zlib@openssh.com";
}

int
comp_new(struct comp_ctx **cp, int deflate)
{
	struct comp_ctx *c = x_calloc(1, sizeof(*c));
	int zr;

	*cp = NULL;
	c->deflate = deflate;
	zr = deflate ? deflateInit(&c->z, COMP_LEVEL) : inflateInit(&c->z);
	if (zr != Z_OK) {
		x_free(c);
		return zr == Z_MEM_ERROR ? ERR_ALLOC : ERR_INTERNAL;
	}
	*cp = c;
	return 0;
}

void
comp_free(struct comp_ctx *c)
{
	if (c == NULL)
		return;
	if (c->deflate)
		(void)deflateEnd(&c->z);
	else
		(void)inflateEnd(&c->z);
	x_freezero(c->buf, c->cap);
	x_freezero(c, sizeof(*c));
}

int
comp_used(const struct comp_ctx *c)
{
	return c->z.total_in != 0 || c->z.total_out != 0;
}

/* At least need bytes of scratch, keeping the first keep of them. */
static void
scratch_grow(struct comp_ctx *c, size_t need, size_t keep)
{
	unsigned char *nb;
	size_t ncap;

	if (need <= c->cap)
		return;
	ncap = c->cap * 2 > need ? c->cap * 2 : need;
	nb = x_malloc(ncap);
	if (keep > c->cap)
		keep = c->cap;	/* the header room of a first packet */
	if (keep > 0)
		memcpy(nb, c->buf, keep);
	x_freezero(c->buf, c->cap);
	c->buf = nb;
	c->cap = ncap;
}

/* Forget the last packet's output before writing the next. */
static void
scratch_wipe(struct comp_ctx *c)
{
	if (c->used > 0)
		x_wipe(c->buf, c->used);
	c->used = 0;
}

int
comp_deflate(struct comp_ctx *c, const unsigned char *in, size_t len,
    size_t head, size_t tail, unsigned char **outp, size_t *outlenp)
{
	size_t pos = head;
	int zr;

	if (!c->deflate || len > UINT32_MAX)
		return ERR_INVALID_ARGUMENT;
	scratch_wipe(c);
	c->z.next_in = (Bytef *)(uintptr_t)in;
	c->z.avail_in = (uInt)len;
	for (;;) {
		if (pos - head > len + COMP_SLACK)
			return ERR_INTERNAL;
		scratch_grow(c, pos + COMP_CHUNK + tail, pos);
		c->z.next_out = c->buf + pos;
		c->z.avail_out = (uInt)(c->cap - tail - pos);
		zr = deflate(&c->z, Z_PARTIAL_FLUSH);
		pos = c->cap - tail - c->z.avail_out;
		c->used = pos;
		if (zr != Z_OK)
			return ERR_INTERNAL;
		/* Room left over: everything is out, flush included. */
		if (c->z.avail_out != 0)
			break;
	}
	if (c->z.avail_in != 0)
		return ERR_INTERNAL;
	c->used = pos + tail;
	*outp = c->buf;
	*outlenp = pos - head;
	return 0;
}

int
comp_inflate(struct comp_ctx *c, const unsigned char *in, size_t len,
    size_t max, const unsigned char **outp, size_t *outlenp)
{
	size_t pos = 0, want;
	int zr;

	if (c->deflate || len > UINT32_MAX || max >= SIZE_MAX / 2)
		return ERR_INVALID_ARGUMENT;
	scratch_wipe(c);
	c->z.next_in = (Bytef *)(uintptr_t)in;
	c->z.avail_in = (uInt)len;
	for (;;) {
		if (pos == c->cap) {
			/* Room for one byte past max: that byte says "too much". */
			if (c->cap > max)
				return ERR_PACKET_TOO_LARGE;
			want = c->cap < COMP_CHUNK ? COMP_CHUNK : c->cap * 2;
			scratch_grow(c, want > max + 1 ? max + 1 : want, pos);
		}
		c->z.next_out = c->buf + pos;
		c->z.avail_out = (uInt)(c->cap - pos);
		zr = inflate(&c->z, Z_SYNC_FLUSH);
		pos = c->cap - c->z.avail_out;
		c->used = pos;
		if (pos > max)
			return ERR_PACKET_TOO_LARGE;
		if (zr != Z_OK && zr != Z_BUF_ERROR)
			return ERR_INVALID_FORMAT;	/* includes a stream end */
		/* Output room left over: all the input has been inflated. */
		if (c->z.avail_out != 0) {
			if (c->z.avail_in != 0)
				return ERR_INVALID_FORMAT;
			break;
		}
	}
	*outp = c->buf;
	*outlenp = pos;
	return 0;
}
