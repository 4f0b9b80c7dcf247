/*
 * socks.c: the SOCKS 4, 4a and 5 (no authentication, CONNECT only) side
 * of -D / DynamicForward.
 *
 * An accepted connection is watched until a whole request has arrived
 * (socks_parse, a pure function over the bytes so far); then a
 * direct-tcpip channel is opened for the requested host and port. The
 * SOCKS reply goes out when the server answers the open: success, and
 * the socket becomes the channel's; or failure, and it is closed.
 */
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "fwd_client.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"

#define SOCKS_MAX_REQ	1024

static const unsigned char socks5_noauth[2] = { 5, 0 };

static int
parse4(const unsigned char *b, size_t len, struct socks_req *req,
    size_t *usedp)
{
	const unsigned char *z, *h;
	size_t off = 8;

	if (len < 9)
		return ERR_AGAIN;
	if (b[1] != 1)
		return ERR_FEATURE_UNSUPPORTED;	/* CONNECT only */
	req->version = 4;
	req->port = (b[2] << 8) | b[3];
	if ((z = memchr(b + off, 0, len - off)) == NULL)
		return len > SOCKS_MAX_REQ ? ERR_INVALID_FORMAT : ERR_AGAIN;
	off = (size_t)(z - b) + 1;
	if (b[4] == 0 && b[5] == 0 && b[6] == 0 && b[7] != 0) {
		/* 4a: the host name follows the user id. */
		h = b + off;
		if ((z = memchr(h, 0, len - off)) == NULL)
			return len > SOCKS_MAX_REQ ? ERR_INVALID_FORMAT :
			    ERR_AGAIN;
		if ((size_t)(z - h) == 0 ||
		    (size_t)(z - h) >= sizeof(req->host))
			return ERR_INVALID_FORMAT;
		memcpy(req->host, h, (size_t)(z - h));
		req->host[z - h] = '\0';
		off = (size_t)(z - b) + 1;
	} else if (inet_ntop(AF_INET, b + 4, req->host,
	    sizeof(req->host)) == NULL)
		return ERR_INVALID_FORMAT;
	*usedp = off;
	return 0;
}

static int
parse5(const unsigned char *b, size_t len, struct socks_req *req,
    size_t *usedp)
{
	size_t alen, off;

	if (len < 5)
		return ERR_AGAIN;
	if (b[0] != 5 || b[2] != 0)
		return ERR_INVALID_FORMAT;
	if (b[1] != 1)
		return ERR_FEATURE_UNSUPPORTED;
	switch (b[3]) {
	case 1:
		alen = 4;
		off = 4;
		break;
	case 3:
		alen = b[4];
		off = 5;
		if (alen == 0)
			return ERR_INVALID_FORMAT;
		break;
	case 4:
		alen = 16;
		off = 4;
		break;
	default:
		return ERR_FEATURE_UNSUPPORTED;
	}
	if (len < off + alen + 2)
		return ERR_AGAIN;
	req->version = 5;
	if (b[3] == 3) {
		memcpy(req->host, b + off, alen);
		req->host[alen] = '\0';
		if (strlen(req->host) != alen)
			return ERR_INVALID_FORMAT;
	} else if (inet_ntop(b[3] == 1 ? AF_INET : AF_INET6, b + off,
	    req->host, sizeof(req->host)) == NULL)
		return ERR_INVALID_FORMAT;
	req->port = (b[off + alen] << 8) | b[off + alen + 1];
	*usedp = off + alen + 2;
	return 0;
}

int
socks_parse(const unsigned char *buf, size_t len, int *statep,
    struct socks_req *req, size_t *usedp, const unsigned char **replyp,
    size_t *replylenp)
{
	size_t i;

	*usedp = 0;
	*replyp = NULL;
	*replylenp = 0;
	memset(req, 0, sizeof(*req));
	if (len == 0)
		return ERR_AGAIN;
	if (*statep == 1)
		return parse5(buf, len, req, usedp);
	if (buf[0] == 4)
		return parse4(buf, len, req, usedp);
	if (buf[0] != 5)
		return ERR_INVALID_FORMAT;
	/* SOCKS5 greeting: version, nmethods, methods; we take "none". */
	if (len < 2 || len < 2 + (size_t)buf[1])
		return ERR_AGAIN;
	for (i = 0; i < buf[1]; i++)
		if (buf[2 + i] == 0)
			break;
	if (i == buf[1])
		return ERR_FEATURE_UNSUPPORTED;
	*statep = 1;
	*usedp = 2 + (size_t)buf[1];
	*replyp = socks5_noauth;
	*replylenp = sizeof(socks5_noauth);
	return ERR_AGAIN;
}

size_t
socks_reply(int version, int ok, unsigned char *out, size_t outlen)
{
	if (outlen < 10)
		return 0;
	memset(out, 0, 10);
	if (version == 4) {
		out[1] = ok ? 90 : 91;
		return 8;
	}
	out[0] = 5;
	out[1] = ok ? 0 : 5;	/* 5: connection refused */
	out[3] = 1;		/* IPv4 0.0.0.0:0 */
	return 10;
}

/* ---- the connection ---- */

struct socks_conn {
	int fd;
	int state;
	int version;
	int watched;
	struct sbuf *in;
};

static void
sc_free(struct chan_set *cs, struct socks_conn *sk)
{
	if (sk->watched)
		chan_set_unwatch(cs, sk->fd);
	if (sk->fd != -1)
		close(sk->fd);
	sbuf_free(sk->in);
	x_free(sk);
}

static void
sk_write(int fd, const unsigned char *p, size_t n)
{
	/* Small replies into an empty socket buffer: never short. */
	if (write(fd, p, n) != (ssize_t)n)
		log_debug("socks: short reply");
}

static void
socks_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct socks_conn *sk = c->ctx;
	unsigned char rep[16];
	size_t n;

	if (sk == NULL)
		return;
	n = socks_reply(sk->version, ok, rep, sizeof(rep));
	sk_write(sk->fd, rep, n);
	if (ok) {
		chan_set_fds(c, sk->fd, sk->fd, -1, CHAN_EFD_NONE, 0);
		sk->fd = -1;
	}
}

static void
socks_chan_free(struct chan_set *cs, struct chan *c)
{
	if (c->ctx != NULL)
		sc_free(cs, c->ctx);
	c->ctx = NULL;
}

static const struct chan_ops socks_ops = {
	.type = "direct-tcpip",
	.opened = socks_opened,
	.free = socks_chan_free,
};

static void
socks_read(struct chan_set *cs, int fd, short revents, void *arg)
{
	struct socks_conn *sk = arg;
	unsigned char buf[512];
	const unsigned char *reply;
	struct socks_req req;
	char orig[NI_MAXHOST];
	struct sbuf *extra;
	struct chan *c;
	size_t used, rlen;
	ssize_t n;
	int r, oport;

	n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0 || sbuf_put(sk->in, buf, (size_t)n) != 0) {
		sc_free(cs, sk);
		return;
	}
	for (;;) {
		r = socks_parse(sbuf_ptr(sk->in), sbuf_len(sk->in),
		    &sk->state, &req, &used, &reply, &rlen);
		if (reply != NULL)
			sk_write(fd, reply, rlen);
		if (used > 0)
			(void)sbuf_consume(sk->in, used);
		if (r != ERR_AGAIN || reply == NULL)
			break;
	}
	if (r == ERR_AGAIN) {
		if (sbuf_len(sk->in) > SOCKS_MAX_REQ)
			sc_free(cs, sk);
		return;
	}
	if (r != 0) {
		log_debug("socks: bad or unsupported request");
		if (sk->state == 1 || (sbuf_len(sk->in) > 0 &&
		    *sbuf_ptr(sk->in) == 4)) {
			n = (ssize_t)socks_reply(sk->state == 1 ? 5 : 4, 0,
			    buf, sizeof(buf));
			sk_write(fd, buf, (size_t)n);
		}
		sc_free(cs, sk);
		return;
	}
	chan_set_unwatch(cs, fd);
	sk->watched = 0;
	sk->version = req.version;
	fwd_peer_name(fd, 0, orig, sizeof(orig), &oport);
	log_debug("socks%d: connect to %s port %d", req.version, req.host,
	    req.port);
	extra = sbuf_new();
	if (fwd_put_addrs(extra, req.host, req.port, orig, oport) != 0 ||
	    chan_open(cs, &socks_ops, sk, extra, &c) != 0)
		sc_free(cs, sk);
	sbuf_free(extra);
}

void
socks_accept(struct chan_set *cs, int lfd)
{
	struct socks_conn *sk;
	int fd;

	if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK |
	    SOCK_CLOEXEC)) == -1)
		return;
	sk = x_calloc(1, sizeof(*sk));
	sk->fd = fd;
	sk->in = sbuf_new();
	if (chan_set_watch(cs, fd, POLLIN, socks_read, sk) != 0) {
		sc_free(cs, sk);
		return;
	}
	sk->watched = 1;
}
