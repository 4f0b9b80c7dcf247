/*
 * chanopen.c: channel opens (RFC 4254 5.1): the peer's CHANNEL_OPEN,
 * answered at once or later by the channel's type (chan_open_confirm,
 * chan_open_refuse), and the peer's answers to our own opens.
 */
#include <string.h>

#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

static int
send_open_failure(struct chan_set *cs, uint32_t remote_id, uint32_t reason,
    const char *desc)
{
	struct sbuf *b = tr_msg_start(cs->t, SSH2_MSG_CHANNEL_OPEN_FAILURE);
	int r;

	if (b == NULL)
		return ERR_INTERNAL;
	if ((r = sbuf_put_u32(b, remote_id)) != 0 ||
	    (r = sbuf_put_u32(b, reason)) != 0 ||
	    (r = sbuf_put_cstring(b, desc)) != 0 ||
	    (r = sbuf_put_cstring(b, "")) != 0)
		return r;
	return tr_msg_send(cs->t);
}

int
chan_in_open(struct chan_set *cs, struct sbuf *m)
{
	const unsigned char *type;
	size_t tlen, i;
	uint32_t rid, win, maxpkt, reason = SSH2_OPEN_UNKNOWN_CHANNEL_TYPE;
	const struct chan_ops *ops = NULL;
	void *arg = NULL;
	const char *desc = "unknown channel type";
	struct chan *c;
	int r;

	if ((r = sbuf_get_string_direct(m, &type, &tlen)) != 0 ||
	    (r = sbuf_get_u32(m, &rid)) != 0 ||
	    (r = sbuf_get_u32(m, &win)) != 0 ||
	    (r = sbuf_get_u32(m, &maxpkt)) != 0)
		return r;
	for (i = 0; i < cs->ntypes; i++) {
		if (strlen(cs->types[i]->type) == tlen &&
		    memcmp(cs->types[i]->type, type, tlen) == 0) {
			ops = cs->types[i];
			arg = cs->type_args[i];
		}
	}
	log_debug("server_input_channel_open: ctype %.*s rchan %u win %u "
	    "max %u", (int)(tlen > 64 ? 64 : tlen), type, rid, win, maxpkt);
	if (ops == NULL)
		return send_open_failure(cs, rid, reason, desc);
	if ((c = chan_alloc(cs, ops)) == NULL)
		return send_open_failure(cs, rid, SSH2_OPEN_RESOURCE_SHORTAGE,
		    "too many channels");
	c->type_arg = arg;
	c->remote_id = rid;
	c->remote_window = win;
	c->remote_maxpacket = maxpkt;
	desc = "open failed";
	reason = SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED;
	c->open_pending = 1;
	if (ops->open != NULL &&
	    (r = ops->open(cs, c, m, &reason, &desc)) != 0) {
		if (r == ERR_AGAIN)
			return 0;	/* the type answers later */
		chan_free(cs, c);
		return send_open_failure(cs, rid, reason, desc);
	}
	return chan_open_confirm(cs, c);
}

int
chan_open_confirm(struct chan_set *cs, struct chan *c)
{
	struct sbuf *b;
	int r;

	if (!c->open_pending)
		return ERR_INVALID_ARGUMENT;
	c->open_pending = 0;
	c->confirmed = 1;
	chan_idle_open(c);
	if ((b = tr_msg_start(cs->t,
	    SSH2_MSG_CHANNEL_OPEN_CONFIRMATION)) == NULL)
		return ERR_INTERNAL;
	if ((r = sbuf_put_u32(b, c->remote_id)) != 0 ||
	    (r = sbuf_put_u32(b, c->local_id)) != 0 ||
	    (r = sbuf_put_u32(b, c->local_window)) != 0 ||
	    (r = sbuf_put_u32(b, c->local_maxpacket)) != 0)
		return r;
	return tr_msg_send(cs->t);
}

int
chan_open_refuse(struct chan_set *cs, struct chan *c, uint32_t reason,
    const char *desc)
{
	uint32_t rid = c->remote_id;

	if (!c->open_pending)
		return ERR_INVALID_ARGUMENT;
	chan_free(cs, c);
	return send_open_failure(cs, rid, reason, desc);
}

static int
in_open_reply(struct chan_set *cs, struct sbuf *m, int ok)
{
	struct chan *c;
	uint32_t reason;
	char *desc = NULL;
	int r;

	if ((r = chan_get(cs, m, 0, &c)) != 0)
		return r;
	/* An answer to our open only: not to one of the peer's own. */
	if (c->confirmed || c->open_pending) {
		log_error("channel %u: open %s for a channel not ours to "
		    "have answered", c->local_id, ok ? "confirmation" :
		    "failure");
		return ERR_PROTOCOL;
	}
	if (ok) {
		if ((r = sbuf_get_u32(m, &c->remote_id)) != 0 ||
		    (r = sbuf_get_u32(m, &c->remote_window)) != 0 ||
		    (r = sbuf_get_u32(m, &c->remote_maxpacket)) != 0)
			return r;
		c->confirmed = 1;
		chan_idle_open(c);
	} else if ((r = sbuf_get_u32(m, &reason)) == 0) {
		log_debug("channel %u: open failed, reason %u",
		    c->local_id, reason);
		c->open_reason = reason;
		if (sbuf_get_cstring(m, &desc, NULL) != 0)
			desc = NULL;
		c->open_desc = desc;
	}
	if (c->ops->opened != NULL)
		c->ops->opened(cs, c, ok);
	c->open_desc = NULL;
	x_free(desc);
	if (!ok)
		chan_free(cs, c);
	return 0;
}

int
chan_in_open_confirm(struct chan_set *cs, struct sbuf *m)
{
	return in_open_reply(cs, m, 1);
}

int
chan_in_open_failure(struct chan_set *cs, struct sbuf *m)
{
	return in_open_reply(cs, m, 0);
}
