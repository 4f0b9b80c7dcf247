/*
 * chanrelay.c: relay channels (see chan_relay_new() in channel.h): ids
 * in the table whose messages from the peer go whole to their owner,
 * which keeps their state itself (a mux master's proxy clients).
 */
#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "sbuf.h"
#include "transport.h"

int
chan_relay_new(struct chan_set *cs, const struct chan_ops *ops, void *ctx,
    struct chan **cp)
{
	struct chan *c;

	*cp = NULL;
	if (ops == NULL || ops->relay == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((c = chan_alloc(cs, ops)) == NULL)
		return ERR_NO_BUFFER_SPACE;
	c->relay = 1;
	c->ctx = ctx;
	*cp = c;
	return 0;
}

void
chan_relay_free(struct chan_set *cs, struct chan *c)
{
	if (c != NULL && c->relay)
		chan_free(cs, c);
}

/*
 * A channel message for a relay channel goes to its owner whole: 1 when
 * the recipient is not one (the usual handlers run), else the owner's
 * answer.
 */
int
chan_relay_dispatch(struct chan_set *cs, uint8_t type, struct sbuf *msg)
{
	const unsigned char *p = sbuf_ptr(msg);
	struct chan *c;
	uint32_t id;

	if (type < SSH2_MSG_CHANNEL_OPEN_CONFIRMATION ||
	    type > SSH2_MSG_CHANNEL_FAILURE || sbuf_len(msg) < 4)
		return 1;
	id = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
	if ((c = chan_lookup(cs, id)) == NULL || !c->relay)
		return 1;
	(void)sbuf_consume(msg, 4);
	return c->ops->relay(cs, c, type, msg);
}
