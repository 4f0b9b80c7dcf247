/*
 * mux_proxy_wire.c: the bytes of a proxy-mode control connection (see
 * mux_proxy.h): its framing, and the parser of one message from a
 * downstream, which may be anything. Only the fields the master
 * rewrites or decides on are read; for the messages whose layout is
 * fixed, the parser also checks that nothing is missing and nothing
 * trails, so that what goes upstream is at least well formed. What a
 * request or an open carries beyond that is the server's to judge.
 */
#include <string.h>

#include "err.h"
#include "mux_proxy.h"
#include "sbuf.h"
#include "transport.h"

int
muxp_frame(const unsigned char *p, size_t have, const unsigned char **payp,
    size_t *lenp, size_t *usedp)
{
	size_t n;

	if (have < 4)
		return ERR_AGAIN;
	n = (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 |
	    (size_t)p[3];
	if (n > MUXP_MAX_PACKET)
		return ERR_PACKET_TOO_LARGE;
	if (n < 2)
		return ERR_INVALID_FORMAT;
	if (have - 4 < n)
		return ERR_AGAIN;
	/* The padding length byte is skipped, as the framing has none. */
	*payp = p + 5;
	*lenp = n - 1;
	*usedp = 4 + n;
	return 0;
}

/* The fields after the recipient id, by message type: fixed layouts. */
static int
parse_chan(struct sbuf *b, struct muxp_msg *m)
{
	uint32_t v;
	int r;

	switch (m->type) {
	case SSH2_MSG_CHANNEL_WINDOW_ADJUST:
		r = sbuf_get_u32(b, &v);
		break;
	case SSH2_MSG_CHANNEL_DATA:
		r = sbuf_get_string_direct(b, NULL, NULL);
		break;
	case SSH2_MSG_CHANNEL_EXTENDED_DATA:
		if ((r = sbuf_get_u32(b, &v)) == 0)
			r = sbuf_get_string_direct(b, NULL, NULL);
		break;
	case SSH2_MSG_CHANNEL_REQUEST:
		/* The request's own fields are the server's to parse. */
		if ((r = sbuf_get_string_direct(b, &m->name,
		    &m->namelen)) == 0)
			r = sbuf_get_bool(b, &m->want_reply);
		return r;
	default:	/* EOF, CLOSE, SUCCESS, FAILURE: nothing more */
		r = 0;
		break;
	}
	if (r == 0 && sbuf_len(b) != 0)
		r = ERR_INVALID_FORMAT;
	return r;
}

static int
parse_fields(struct sbuf *b, struct muxp_msg *m, const unsigned char **restp)
{
	uint32_t v;
	int r;

	switch (m->type) {
	case SSH2_MSG_DISCONNECT:
		m->kind = MUXP_DISCONNECT;
		return 0;
	case SSH2_MSG_IGNORE:
	case SSH2_MSG_UNIMPLEMENTED:
	case SSH2_MSG_DEBUG:
	case SSH2_MSG_REQUEST_SUCCESS:
	case SSH2_MSG_REQUEST_FAILURE:
		m->kind = MUXP_IGNORE;
		return 0;
	case SSH2_MSG_GLOBAL_REQUEST:
		m->kind = MUXP_GLOBAL;
		if ((r = sbuf_get_string_direct(b, &m->name,
		    &m->namelen)) != 0)
			return r;
		return sbuf_get_bool(b, &m->want_reply);
	case SSH2_MSG_CHANNEL_OPEN:
		m->kind = MUXP_OPEN;
		if ((r = sbuf_get_string_direct(b, &m->name,
		    &m->namelen)) != 0 ||
		    (r = sbuf_get_u32(b, &m->id)) != 0)
			return r;
		*restp = sbuf_ptr(b);
		/* Window and maximum packet size must be there. */
		if ((r = sbuf_get_u32(b, &v)) != 0)
			return r;
		return sbuf_get_u32(b, &v);
	case SSH2_MSG_CHANNEL_OPEN_CONFIRMATION:
		m->kind = MUXP_OPEN_REPLY;
		if ((r = sbuf_get_u32(b, &m->id)) != 0 ||
		    (r = sbuf_get_u32(b, &m->sender)) != 0)
			return r;
		*restp = sbuf_ptr(b);
		if ((r = sbuf_get_u32(b, &v)) != 0)
			return r;
		return sbuf_get_u32(b, &v);
	case SSH2_MSG_CHANNEL_OPEN_FAILURE:
		m->kind = MUXP_OPEN_REPLY;
		if ((r = sbuf_get_u32(b, &m->id)) != 0)
			return r;
		*restp = sbuf_ptr(b);
		if ((r = sbuf_get_u32(b, &v)) != 0 ||
		    (r = sbuf_get_string_direct(b, NULL, NULL)) != 0 ||
		    (r = sbuf_get_string_direct(b, NULL, NULL)) != 0)
			return r;
		return sbuf_len(b) == 0 ? 0 : ERR_INVALID_FORMAT;
	case SSH2_MSG_CHANNEL_WINDOW_ADJUST:
	case SSH2_MSG_CHANNEL_DATA:
	case SSH2_MSG_CHANNEL_EXTENDED_DATA:
	case SSH2_MSG_CHANNEL_EOF:
	case SSH2_MSG_CHANNEL_CLOSE:
	case SSH2_MSG_CHANNEL_REQUEST:
	case SSH2_MSG_CHANNEL_SUCCESS:
	case SSH2_MSG_CHANNEL_FAILURE:
		m->kind = MUXP_CHAN;
		if ((r = sbuf_get_u32(b, &m->id)) != 0)
			return r;
		*restp = sbuf_ptr(b);
		return parse_chan(b, m);
	default:
		/* Key exchange, authentication, anything unknown. */
		return ERR_PROTOCOL;
	}
}

int
muxp_parse(const unsigned char *p, size_t len, struct muxp_msg *m)
{
	struct sbuf *b;
	const unsigned char *rest = NULL;
	int r;

	memset(m, 0, sizeof(*m));
	if (len < 1)
		return ERR_INVALID_FORMAT;
	m->type = p[0];
	if ((b = sbuf_from(p + 1, len - 1)) == NULL)
		return ERR_ALLOC;
	r = parse_fields(b, m, &rest);
	sbuf_free(b);
	if (r != 0)
		return r;
	/* rest points into p (the view copies nothing). */
	if (rest == NULL)
		rest = p + 1;
	m->rest = rest;
	m->restlen = len - (size_t)(rest - p);
	return 0;
}

int
muxp_put_fields(struct sbuf *b, const struct muxp_msg *m, uint32_t id,
    uint32_t sender)
{
	int r;

	switch (m->kind) {
	case MUXP_OPEN:
		if ((r = sbuf_put_string(b, m->name, m->namelen)) != 0 ||
		    (r = sbuf_put_u32(b, id)) != 0)
			return r;
		break;
	case MUXP_OPEN_REPLY:
		if ((r = sbuf_put_u32(b, id)) != 0)
			return r;
		if (m->type == SSH2_MSG_CHANNEL_OPEN_CONFIRMATION &&
		    (r = sbuf_put_u32(b, sender)) != 0)
			return r;
		break;
	case MUXP_CHAN:
		if ((r = sbuf_put_u32(b, id)) != 0)
			return r;
		break;
	default:
		break;
	}
	return sbuf_put(b, m->rest, m->restlen);
}

int
muxp_start(struct sbuf *out, uint8_t type, size_t *startp)
{
	int r;

	*startp = sbuf_len(out);
	if ((r = sbuf_put_u32(out, 0)) != 0 ||
	    (r = sbuf_put_u8(out, 0)) != 0)
		return r;
	return sbuf_put_u8(out, type);
}

int
muxp_end(struct sbuf *out, size_t start)
{
	unsigned char *p = sbuf_mutable_ptr(out);
	size_t n;

	if (p == NULL || sbuf_len(out) < start + 6)
		return ERR_INVALID_ARGUMENT;
	n = sbuf_len(out) - start - 4;
	if (n > MUXP_MAX_PACKET)
		return ERR_PACKET_TOO_LARGE;
	p += start;
	sbuf_store_u32(p, (uint32_t)n);
	return 0;
}
