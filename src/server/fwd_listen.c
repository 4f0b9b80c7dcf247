/*
 * fwd_listen.c: the bookkeeping the server's TCP and Unix-socket
 * forwarding share (see fwd_listen.h).
 *
 * Each listener is an entry holding the kind's item and the listening
 * sockets it watches; the entry is the watch callback's argument, so an
 * accepted connection finds its item and, through the set, its kind.
 * The set keeps entries in a small array; removal moves the last entry
 * into the hole (order does not matter: a cancel names one listener).
 */
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "fwd_listen.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"

struct fwd_listen {
	struct fwd_lset *set;
	void *item;			/* the kind's */
	int fds[FWD_MAX_FDS];		/* watched for connections */
	size_t nfds;
};

int
fwd_lset_setup(struct fwd_lset *set, const struct fwd_kind *kind,
    struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, const struct passwd *pw, const char *raddr,
    int rport)
{
	int r;

	memset(set, 0, sizeof(*set));
	set->kind = kind;
	set->sc = sc;
	set->opts = opts;
	set->pw = pw;
	set->raddr = raddr;
	set->rport = rport;
	if ((r = chan_set_register(cs, kind->direct, set)) != 0 ||
	    (r = chan_set_global(cs, kind->forward_req, kind->forward,
	    set)) != 0 ||
	    (r = chan_set_global(cs, kind->cancel_req, kind->cancel,
	    set)) != 0)
		return r;
	return 0;
}

/* A listening socket is readable: open a channel for the connection. */
static void
accept_cb(struct chan_set *cs, int lfd, short revents, void *arg)
{
	struct fwd_listen *e = arg;
	const struct fwd_kind *kind = e->set->kind;
	struct sbuf *extra;
	int fd;

	if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK |
	    SOCK_CLOEXEC)) == -1) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_error("accept: %s", strerror(errno));
		return;
	}
	extra = sbuf_new();
	if (kind->put_extra(e->set, e->item, fd, extra) != 0) {
		close(fd);
		log_info("%s: cannot open a channel", kind->chan_name);
	} else if (fwd_chan_open_fd(cs, kind->forwarded, fd, extra) != 0)
		log_info("%s: cannot open a channel", kind->chan_name);
	sbuf_free(extra);
}

static void
unwatch(struct chan_set *cs, const struct fwd_listen *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		chan_set_unwatch(cs, e->fds[i]);
}

int
fwd_lset_room(struct chan_set *cs, const struct fwd_lset *set)
{
	if (set->nls < FWD_LSET_MAX)
		return 0;
	chan_log_refusal(cs, LOG_LEVEL_INFO, "%s: too many listeners",
	    set->kind->name);
	return ERR_NO_BUFFER_SPACE;
}

int
fwd_lset_add(struct chan_set *cs, struct fwd_lset *set, void *item,
    const int *fds, size_t nfds)
{
	struct fwd_listen *e;
	size_t i;
	int r;

	if (nfds > FWD_MAX_FDS)
		return ERR_INVALID_ARGUMENT;
	if (set->nls >= FWD_LSET_MAX)
		return ERR_NO_BUFFER_SPACE;
	e = x_calloc(1, sizeof(*e));
	e->set = set;
	e->item = item;
	memcpy(e->fds, fds, nfds * sizeof(*fds));
	e->nfds = nfds;
	for (i = 0; i < nfds; i++) {
		if ((r = chan_set_watch(cs, fds[i], POLLIN, accept_cb,
		    e)) != 0) {
			unwatch(cs, e, i);
			x_free(e);
			return r;
		}
	}
	set->ls[set->nls++] = e;
	return 0;
}

int
fwd_lset_find(const struct fwd_lset *set,
    int (*match)(const void *item, const void *key), const void *key,
    size_t *idxp)
{
	size_t i;

	for (i = 0; i < set->nls; i++) {
		if (match(set->ls[i]->item, key)) {
			*idxp = i;
			return 0;
		}
	}
	return ERR_NOT_FOUND;
}

void
fwd_lset_remove(struct chan_set *cs, struct fwd_lset *set, size_t idx)
{
	struct fwd_listen *e = set->ls[idx];

	unwatch(cs, e, e->nfds);
	set->kind->close(set, e->item);
	x_free(e);
	set->ls[idx] = set->ls[--set->nls];
}

void
fwd_lset_clear(struct fwd_lset *set)
{
	size_t i;

	for (i = 0; i < set->nls; i++) {
		set->kind->close(set, set->ls[i]->item);
		x_free(set->ls[i]);
	}
	set->nls = 0;
}
