/*
 * socks_rev.c: reverse dynamic forwarding (-R [bind:]port with no
 * target). The server listens; every forwarded-tcpip channel it opens
 * for that port carries a SOCKS 4/4a/5 conversation, and this side is
 * the SOCKS server: it reads the request from the channel, connects to
 * the requested host and port from here, replies, and relays.
 *
 * How: the channel is confirmed at once and attached to one end of a
 * socketpair; the other end (b) is ours. Bytes the peer sends arrive on
 * b and go through socks_parse (socks.c); replies written to b leave as
 * channel data. Once the request is whole, a non-blocking connect to
 * the target (t) runs down the addresses getaddrinfo() gives; on
 * success the reply goes out and b and t are relayed both ways through
 * two bounded buffers, end of file passed on as a half close. The
 * relay lives apart from the channel: when the channel goes its end of
 * the pair closes and b sees end of file. Each relay is on the list
 * its owner frees at the end (socks_rev_free_all).
 */
#include <sys/socket.h>

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "channel.h"
#include "client.h"
#include "err.h"
#include "fwd_client.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

#define RSK_MAX_REQ	1024
#define RSK_BUF		(32 * 1024)

enum rsk_phase { RSK_REQUEST, RSK_CONNECT, RSK_RELAY };

struct rsk_dir {
	int from, to;
	unsigned char buf[RSK_BUF];
	size_t off, len;
	int eof;		/* from gave end of file */
	int shut;		/* and it was passed on to to */
};

struct socks_rev {
	struct socks_rev *next, **prevp;
	struct chan_set *cs;
	const struct client_opts *o;	/* PermitRemoteOpen */
	int b, t;
	enum rsk_phase phase;
	int state;		/* socks_parse's */
	int version;
	struct sbuf *in;
	struct addrinfo *ai, *cur;
	char host[256];
	int port;
	struct rsk_dir bt, tb;	/* b to t, t to b */
};

static void rsk_cb(struct chan_set *cs, int fd, short revents, void *arg);

/* Close and free; unwatch only while the loop is still ours. */
static void
rsk_free(struct socks_rev *r, int unwatch)
{
	if (r->next != NULL)
		r->next->prevp = r->prevp;
	*r->prevp = r->next;
	if (unwatch && r->b != -1)
		chan_set_unwatch(r->cs, r->b);
	if (unwatch && r->t != -1)
		chan_set_unwatch(r->cs, r->t);
	if (r->b != -1)
		close(r->b);
	if (r->t != -1)
		close(r->t);
	sbuf_free(r->in);
	if (r->ai != NULL)
		freeaddrinfo(r->ai);
	x_free(r);
}

static void
rsk_write_b(struct socks_rev *r, const unsigned char *p, size_t n)
{
	/* A few bytes into an empty socketpair: never short. */
	if (write(r->b, p, n) != (ssize_t)n)
		log_debug("socks: short reply");
}

static void
rsk_watch(struct socks_rev *r, int fd, short ev)
{
	if (fd == -1)
		return;
	if (ev == 0)
		chan_set_unwatch(r->cs, fd);
	else
		(void)chan_set_watch(r->cs, fd, ev, rsk_cb, r);
}

/* One step of one direction: 0, or ERR_SYSTEM on a hard error. */
static int
dir_step(struct rsk_dir *d)
{
	ssize_t n;

	if (d->len == 0 && !d->eof) {
		n = read(d->from, d->buf, sizeof(d->buf));
		if (n > 0) {
			d->off = 0;
			d->len = (size_t)n;
		} else if (n == 0)
			d->eof = 1;
		else if (errno != EAGAIN && errno != EINTR)
			return ERR_SYSTEM;
	}
	if (d->len > 0) {
		n = write(d->to, d->buf + d->off, d->len);
		if (n > 0) {
			d->off += (size_t)n;
			d->len -= (size_t)n;
		} else if (n < 0 && errno != EAGAIN && errno != EINTR)
			return ERR_SYSTEM;
	}
	if (d->eof && d->len == 0 && !d->shut) {
		(void)shutdown(d->to, SHUT_WR);
		d->shut = 1;
	}
	return 0;
}

static void
relay(struct socks_rev *r)
{
	short eb, et;

	if (dir_step(&r->bt) != 0 || dir_step(&r->tb) != 0) {
		rsk_free(r, 1);
		return;
	}
	if (r->bt.shut && r->tb.shut) {
		rsk_free(r, 1);
		return;
	}
	eb = (short)((r->bt.len == 0 && !r->bt.eof ? POLLIN : 0) |
	    (r->tb.len > 0 ? POLLOUT : 0));
	et = (short)((r->tb.len == 0 && !r->tb.eof ? POLLIN : 0) |
	    (r->bt.len > 0 ? POLLOUT : 0));
	rsk_watch(r, r->b, eb);
	rsk_watch(r, r->t, et);
}

static void
refuse(struct socks_rev *r)
{
	unsigned char rep[16];
	size_t n;

	n = socks_reply(r->version, 0, rep, sizeof(rep));
	rsk_write_b(r, rep, n);
	rsk_free(r, 1);
}

/*
 * Start connects down the list until one is under way: 0, or
 * ERR_SYSTEM when none could be started (the list is used up).
 */
static int
connect_next(struct socks_rev *r)
{
	struct addrinfo *a;
	int fd;

	while ((a = r->cur) != NULL) {
		r->cur = a->ai_next;
		if ((fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, a->ai_protocol)) == -1)
			continue;
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0 ||
		    errno == EINPROGRESS) {
			r->t = fd;
			(void)chan_set_watch(r->cs, fd, POLLOUT, rsk_cb, r);
			return 0;
		}
		close(fd);
	}
	return ERR_SYSTEM;
}

static void
connected(struct socks_rev *r)
{
	unsigned char rep[16];
	socklen_t len = sizeof(int);
	int soerr = 0;
	size_t n;

	if (getsockopt(r->t, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0)
		soerr = errno;
	if (soerr == EINPROGRESS)
		return;
	if (soerr != 0) {
		chan_set_unwatch(r->cs, r->t);
		close(r->t);
		r->t = -1;
		if (connect_next(r) != 0) {
			log_debug("socks: connect to %s port %d: %s",
			    r->host, r->port, strerror(soerr));
			refuse(r);
		}
		return;
	}
	log_debug("socks: connected to %s port %d", r->host, r->port);
	n = socks_reply(r->version, 1, rep, sizeof(rep));
	rsk_write_b(r, rep, n);
	r->phase = RSK_RELAY;
	r->bt.from = r->tb.to = r->b;
	r->bt.to = r->tb.from = r->t;
	/* Whatever followed the request goes first. */
	if (sbuf_len(r->in) > 0) {
		memcpy(r->bt.buf, sbuf_ptr(r->in), sbuf_len(r->in));
		r->bt.len = sbuf_len(r->in);
	}
	sbuf_free(r->in);
	r->in = NULL;
	relay(r);
}

/*
 * PermitRemoteOpen: 1 if host port may be connected to. Entries are
 * "host:port" or "[host]:port"; "*" for the host or the port is any,
 * other hosts are compared as they are (as OpenSSH does).
 */
static int
open_permitted(const struct client_opts *o, const char *host, int port)
{
	const char *e, *p;
	size_t i, hl;

	if (o->npermit_remote_open == 0 ||
	    strcasecmp(o->permit_remote_open[0], "any") == 0)
		return 1;
	for (i = 0; i < o->npermit_remote_open; i++) {
		e = o->permit_remote_open[i];
		if (*e == '[') {
			e++;
			if ((p = strchr(e, ']')) == NULL)
				continue;
			hl = (size_t)(p - e);
			p++;
		} else if ((p = strchr(e, ':')) == NULL)
			continue;	/* "none" */
		else
			hl = (size_t)(p - e);
		if (*p++ != ':')
			continue;
		if (strcmp(p, "*") != 0 && atoi(p) != port)
			continue;
		if ((hl == 1 && *e == '*') ||
		    (strlen(host) == hl && strncmp(host, e, hl) == 0))
			return 1;
	}
	return 0;
}

/* OpenSSH's line for a refused open, naming the server's address. */
static void
log_denied(const struct socks_rev *r)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char addr[NI_MAXHOST] = "UNKNOWN", port[NI_MAXSERV] = "65535";
	struct transport *t = chan_set_transport(r->cs);

	if (t == NULL || getpeername(tr_fd_in(t), (struct sockaddr *)&ss,
	    &len) != 0 || (ss.ss_family != AF_INET &&
	    ss.ss_family != AF_INET6) || getnameinfo((struct sockaddr *)&ss,
	    len, addr, sizeof(addr), port, sizeof(port),
	    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(addr, sizeof(addr), "UNKNOWN");
		snprintf(port, sizeof(port), "65535");
	}
	log_info("Received request from %.100s port %s to connect to host "
	    "%.100s port %d, but the request was denied.", addr, port,
	    r->host, r->port);
}

static void
start_connect(struct socks_rev *r, const struct socks_req *req)
{
	struct addrinfo hints;
	char pstr[16];
	int gai;

	r->version = req->version;
	r->port = req->port;
	snprintf(r->host, sizeof(r->host), "%s", req->host);
	log_debug("socks%d: connect to %s port %d", req->version, r->host,
	    r->port);
	chan_set_unwatch(r->cs, r->b);
	r->phase = RSK_CONNECT;
	if (!open_permitted(r->o, r->host, r->port)) {
		log_denied(r);
		refuse(r);
		return;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(pstr, sizeof(pstr), "%d", r->port);
	if ((gai = getaddrinfo(r->host, pstr, &hints, &r->ai)) != 0) {
		log_info("connect_to %.100s port %d: unknown host (%s)",
		    r->host, r->port, gai_strerror(gai));
		r->ai = NULL;
		refuse(r);
		return;
	}
	r->cur = r->ai;
	if (connect_next(r) != 0) {
		log_info("connect_to %.100s port %d: failed.", r->host,
		    r->port);
		refuse(r);
	}
}

static void
request_input(struct socks_rev *r)
{
	unsigned char buf[512];
	const unsigned char *reply;
	struct socks_req req;
	size_t used, rlen;
	ssize_t n;
	int rv;

	n = read(r->b, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0 || sbuf_put(r->in, buf, (size_t)n) != 0) {
		rsk_free(r, 1);
		return;
	}
	for (;;) {
		rv = socks_parse(sbuf_ptr(r->in), sbuf_len(r->in), &r->state,
		    &req, &used, &reply, &rlen);
		if (reply != NULL)
			rsk_write_b(r, reply, rlen);
		if (used > 0)
			(void)sbuf_consume(r->in, used);
		if (rv != ERR_AGAIN || reply == NULL)
			break;
	}
	if (rv == ERR_AGAIN) {
		if (sbuf_len(r->in) > RSK_MAX_REQ)
			rsk_free(r, 1);
		return;
	}
	if (rv != 0) {
		log_debug("socks: bad or unsupported request");
		r->version = r->state == 1 ? 5 : 4;
		if (r->state == 1 || (sbuf_len(r->in) > 0 &&
		    *sbuf_ptr(r->in) == 4))
			refuse(r);
		else
			rsk_free(r, 1);
		return;
	}
	if (sbuf_len(r->in) > RSK_BUF) {
		rsk_free(r, 1);
		return;
	}
	start_connect(r, &req);
}

static void
rsk_cb(struct chan_set *cs, int fd, short revents, void *arg)
{
	struct socks_rev *r = arg;

	(void)cs;
	(void)revents;
	switch (r->phase) {
	case RSK_REQUEST:
		if (fd == r->b)
			request_input(r);
		break;
	case RSK_CONNECT:
		if (fd == r->t)
			connected(r);
		break;
	case RSK_RELAY:
		relay(r);
		break;
	}
}

int
socks_rev_start(struct chan_set *cs, struct chan *c,
    const struct client_opts *o, struct socks_rev **listp, uint32_t *reasonp,
    const char **descp)
{
	struct socks_rev *r;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0, sv) != 0) {
		*reasonp = SSH2_OPEN_RESOURCE_SHORTAGE;
		*descp = "socketpair failed";
		return ERR_SYSTEM;
	}
	r = x_calloc(1, sizeof(*r));
	r->cs = cs;
	r->o = o;
	r->b = sv[1];
	r->t = -1;
	r->in = sbuf_new();
	r->next = *listp;
	if (r->next != NULL)
		r->next->prevp = &r->next;
	r->prevp = listp;
	*listp = r;
	if (chan_set_watch(cs, r->b, POLLIN, rsk_cb, r) != 0) {
		close(sv[0]);
		rsk_free(r, 0);
		*reasonp = SSH2_OPEN_RESOURCE_SHORTAGE;
		*descp = "open failed";
		return ERR_INTERNAL;
	}
	c->ctx = NULL;
	chan_set_fds(c, sv[0], sv[0], -1, CHAN_EFD_NONE, 0);
	return 0;
}

void
socks_rev_free_all(struct socks_rev **listp)
{
	while (*listp != NULL)
		rsk_free(*listp, 0);
}
