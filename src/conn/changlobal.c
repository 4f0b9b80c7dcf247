/*
 * changlobal.c: connection-wide parts of the connection layer: global
 * requests both ways (RFC 4254 section 4; handlers registered by name,
 * replies to our own requests matched in order) and the extra fds an
 * event loop watches for channel types (listeners, connects in
 * progress). See channel.h.
 */
#include <poll.h>
#include <string.h>

#include "chan_priv.h"
#include "channel.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

/*
 * Global requests: the names registered with chan_set_global(); all
 * others fail (OpenSSH answers keepalive@openssh.com with failure too).
 */
int
chan_set_global(struct chan_set *cs, const char *name, chan_global_fn fn,
    void *arg)
{
	if (cs->nglobals >= CHAN_MAX_GLOBALS || name == NULL || fn == NULL)
		return ERR_INVALID_ARGUMENT;
	cs->globals[cs->nglobals].name = name;
	cs->globals[cs->nglobals].fn = fn;
	cs->globals[cs->nglobals].arg = arg;
	cs->nglobals++;
	return 0;
}

struct sbuf *
chan_global_start(struct chan_set *cs, const char *name, int want_reply,
    chan_global_reply_fn cb, void *arg)
{
	struct sbuf *b;

	if ((b = tr_msg_start(cs->t, SSH2_MSG_GLOBAL_REQUEST)) == NULL ||
	    sbuf_put_cstring(b, name) != 0 ||
	    sbuf_put_u8(b, want_reply ? 1 : 0) != 0)
		return NULL;
	if (want_reply) {
		if (cs->ngreplies == cs->agreplies) {
			cs->agreplies = cs->agreplies ? cs->agreplies * 2 : 4;
			cs->greplies = x_reallocarray(cs->greplies,
			    cs->agreplies, sizeof(*cs->greplies));
		}
		cs->greplies[cs->ngreplies].cb = cb;
		cs->greplies[cs->ngreplies].arg = arg;
		cs->ngreplies++;
	}
	return b;
}

int
chan_in_global_request(struct chan_set *cs, struct sbuf *m)
{
	char *name = NULL;
	struct sbuf *reply = sbuf_new(), *b;
	int want_reply, ok = 0, r;
	size_t i;

	if ((r = sbuf_get_cstring(m, &name, NULL)) != 0 ||
	    (r = sbuf_get_bool(m, &want_reply)) != 0)
		goto out;
	log_debug("%s_input_global_request: rtype %s want_reply %d",
	    tr_is_server(cs->t) ? "server" : "client", name, want_reply);
	for (i = 0; i < cs->nglobals; i++)
		if (strcmp(cs->globals[i].name, name) == 0)
			ok = cs->globals[i].fn(cs, cs->globals[i].arg, m,
			    reply) == 0;
	if (want_reply) {
		if ((b = tr_msg_start(cs->t, ok ? SSH2_MSG_REQUEST_SUCCESS :
		    SSH2_MSG_REQUEST_FAILURE)) == NULL) {
			r = ERR_INTERNAL;
			goto out;
		}
		if (ok && (r = sbuf_putb(b, reply)) != 0)
			goto out;
		r = tr_msg_send(cs->t);
	}
 out:
	sbuf_free(reply);
	x_free(name);
	return r;
}

static int
global_reply(struct chan_set *cs, struct sbuf *m, int ok)
{
	struct chan_greply g;

	cs->alive_unanswered = 0;
	if (cs->ngreplies == 0)
		return 0;
	g = cs->greplies[0];
	cs->ngreplies--;
	memmove(cs->greplies, cs->greplies + 1,
	    cs->ngreplies * sizeof(*cs->greplies));
	if (g.cb != NULL)
		g.cb(cs, g.arg, ok, ok ? m : NULL);
	return 0;
}

int
chan_in_global_success(struct chan_set *cs, struct sbuf *m)
{
	return global_reply(cs, m, 1);
}

int
chan_in_global_failure(struct chan_set *cs, struct sbuf *m)
{
	return global_reply(cs, m, 0);
}

/* ev's view of a watched fd, handed on in poll(2) terms. */
static void
watch_fd_cb(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct chan_set *cs = arg;
	short revents = 0;
	size_t i;

	(void)ev;
	if (events & EV_READ)
		revents |= POLLIN;
	if (events & EV_WRITE)
		revents |= POLLOUT;
	if (events & EV_ERROR)
		revents |= POLLERR;
	for (i = 0; i < cs->nwatches; i++)
		if (cs->watches[i].fd == fd) {
			cs->watches[i].cb(cs, fd, revents, cs->watches[i].arg);
			return;
		}
}

int
chan_set_watch(struct chan_set *cs, int fd, short events, chan_watch_fn cb,
    void *arg)
{
	size_t i;
	int mask = 0, r;

	if (fd < 0 || cb == NULL)
		return ERR_INVALID_ARGUMENT;
	if (events & POLLIN)
		mask |= EV_READ;
	if (events & POLLOUT)
		mask |= EV_WRITE;
	for (i = 0; i < cs->nwatches; i++)
		if (cs->watches[i].fd == fd || cs->watches[i].fd == -1)
			break;
	if (i == cs->nwatches) {
		cs->watches = x_reallocarray(cs->watches, cs->nwatches + 1,
		    sizeof(*cs->watches));
		cs->nwatches++;
	}
	if ((r = ev_fd_add(cs->ev, fd, mask, watch_fd_cb, cs)) != 0) {
		cs->watches[i].fd = -1;
		return r;
	}
	cs->watches[i].fd = fd;
	cs->watches[i].cb = cb;
	cs->watches[i].arg = arg;
	return 0;
}

void
chan_set_unwatch(struct chan_set *cs, int fd)
{
	size_t i;

	for (i = 0; i < cs->nwatches; i++)
		if (cs->watches[i].fd == fd) {
			cs->watches[i].fd = -1;
			ev_fd_del(cs->ev, fd);
		}
}
