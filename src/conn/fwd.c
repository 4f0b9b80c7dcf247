/*
 * fwd.c: TCP forwarding machinery shared by both roles (see fwd.h).
 *
 * Parsing and the permission lists are pure functions. Listening sockets
 * are plain non-blocking sockets the caller hands to chan_set_watch().
 * A connect walks the addresses getaddrinfo() gives, non-blocking: the
 * socket is watched for POLLOUT and SO_ERROR tells the outcome; on
 * failure the next address is tried, and when none is left the pending
 * open is refused with the last error, as OpenSSH words it.
 */
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "sbuf.h"

/* ---- parsing ---- */

/* One field of a spec: its text and whether it names a socket path. */
struct spec_field {
	char *s;
	int path;
};

/*
 * Cut the next field off *pp (in place). "[...]" is one literal field
 * that must end the spec or be followed by ':'; elsewhere '\\' makes the
 * next character literal and an unescaped '/' marks a path. Returns 0,
 * 1 at the end of the spec, or -1 when malformed.
 */
static int
next_field(char **pp, struct spec_field *fl)
{
	char *p = *pp, *w, *e;

	if (*p == '\0')
		return 1;
	fl->path = 0;
	if (*p == '[') {
		if ((e = strchr(p + 1, ']')) == NULL ||
		    (e[1] != ':' && e[1] != '\0'))
			return -1;
		*e = '\0';
		fl->s = p + 1;
		fl->path = strchr(fl->s, '/') != NULL;
		*pp = e[1] == ':' ? e + 2 : e + 1;
		return 0;
	}
	fl->s = w = p;
	for (; *p != '\0' && *p != ':'; p++) {
		if (*p == '\\') {
			if (*++p == '\0')
				return -1;
		} else if (*p == '/')
			fl->path = 1;
		*w++ = *p;
	}
	*pp = *p == ':' ? p + 1 : p;
	*w = '\0';
	return 0;
}

static int
parse_port(const char *s, int allow_zero, int *portp)
{
	char *ep;
	long v;
	struct servent *se;

	if (s == NULL || *s == '\0')
		return ERR_INVALID_FORMAT;
	errno = 0;
	v = strtol(s, &ep, 10);
	if (*ep != '\0') {
		if ((se = getservbyname(s, "tcp")) == NULL)
			return ERR_INVALID_FORMAT;
		v = ntohs((uint16_t)se->s_port);
	} else if (errno != 0 || v < 0 || v > 65535)
		return ERR_INVALID_FORMAT;
	if (v == 0 && !allow_zero)
		return ERR_INVALID_FORMAT;
	*portp = (int)v;
	return 0;
}

/* Longest socket path a sockaddr_un holds (with its NUL). */
#define FWD_PATH_MAX	(sizeof(((struct sockaddr_un *)NULL)->sun_path))

/* Lay n fields out as listen and connect ends (before any check). */
static int
spec_assign(struct spec_field *fl, size_t n, struct fwd_spec *f,
    const char **lport, const char **cport)
{
	size_t lh = SIZE_MAX, lp = SIZE_MAX, ch = SIZE_MAX, cp = SIZE_MAX;
	size_t lpath = SIZE_MAX, cpath = SIZE_MAX;

	switch (n) {
	case 1:
		if (fl[0].path)
			lpath = 0;
		else
			lp = 0;
		break;
	case 2:
		if (fl[0].path && fl[1].path) {
			lpath = 0;
			cpath = 1;
		} else if (fl[1].path) {
			lp = 0;
			cpath = 1;
		} else {
			lh = 0;
			lp = 1;
		}
		break;
	case 3:
		if (fl[0].path) {
			lpath = 0;
			ch = 1;
			cp = 2;
		} else if (fl[2].path) {
			lh = 0;
			lp = 1;
			cpath = 2;
		} else {
			lp = 0;
			ch = 1;
			cp = 2;
		}
		break;
	case 4:
		lh = 0;
		lp = 1;
		ch = 2;
		cp = 3;
		break;
	default:
		return ERR_INVALID_FORMAT;
	}
	if (lh != SIZE_MAX)
		f->listen_host = x_strdup(fl[lh].s);
	if (lpath != SIZE_MAX)
		f->listen_path = x_strdup(fl[lpath].s);
	if (ch != SIZE_MAX)
		f->connect_host = x_strdup(fl[ch].s);
	if (cpath != SIZE_MAX)
		f->connect_path = x_strdup(fl[cpath].s);
	*lport = lp != SIZE_MAX ? fl[lp].s : NULL;
	*cport = cp != SIZE_MAX ? fl[cp].s : NULL;
	return 0;
}

int
fwd_parse_spec(const char *spec, int dynamic, struct fwd_spec *f)
{
	struct spec_field fl[5];
	const char *lport, *cport;
	char *copy, *p;
	size_t n = 0;
	int r = ERR_INVALID_FORMAT, e = 0;

	memset(f, 0, sizeof(*f));
	copy = x_strdup(spec);
	for (p = copy; isspace((unsigned char)*p); p++)
		;
	while (n < 5 && (e = next_field(&p, &fl[n])) == 0)
		n++;
	if (e < 0 || n == 0 || n > 4)
		goto out;
	if (spec_assign(fl, n, f, &lport, &cport) != 0)
		goto out;
	/* -D takes no target host; -L needs one (a path will do). */
	if (dynamic == 1 && n > 2)
		goto out;
	if (dynamic == 0 && f->connect_host == NULL &&
	    f->connect_path == NULL)
		goto out;
	if (f->listen_path == NULL) {
		if ((r = parse_port(lport, dynamic == 2,
		    &f->listen_port)) != 0)
			goto out;
		r = ERR_INVALID_FORMAT;
	}
	if (f->connect_host != NULL && (*f->connect_host == '\0' ||
	    parse_port(cport, 0, &f->connect_port) != 0))
		goto out;
	if ((f->listen_host != NULL && strlen(f->listen_host) >= NI_MAXHOST) ||
	    (f->connect_host != NULL &&
	    strlen(f->connect_host) >= NI_MAXHOST) ||
	    (f->listen_path != NULL &&
	    (*f->listen_path == '\0' ||
	    strlen(f->listen_path) >= FWD_PATH_MAX)) ||
	    (f->connect_path != NULL &&
	    (*f->connect_path == '\0' ||
	    strlen(f->connect_path) >= FWD_PATH_MAX)))
		goto out;
	r = 0;
 out:
	x_free(copy);
	if (r != 0)
		fwd_spec_clear(f);
	return r;
}

void
fwd_spec_clear(struct fwd_spec *f)
{
	x_free(f->listen_host);
	x_free(f->connect_host);
	x_free(f->listen_path);
	x_free(f->connect_path);
	memset(f, 0, sizeof(*f));
}

void
fwd_bind_addr(const char *listen_addr, int gateway_ports, int is_client,
    const char **addrp, int *wildcardp)
{
	*addrp = NULL;
	*wildcardp = 0;
	if (listen_addr == NULL) {
		if (is_client && gateway_ports == 1)
			*wildcardp = 1;
		else if (!is_client && gateway_ports == 1)
			*wildcardp = 1;
		return;
	}
	if (!is_client && gateway_ports == 0)
		return;			/* loopback, whatever was asked */
	if (is_client && gateway_ports == 0 && *listen_addr != '\0' &&
	    strcmp(listen_addr, "*") != 0) {
		/* An explicit address on the client side is honoured. */
		if (strcmp(listen_addr, "localhost") != 0)
			*addrp = listen_addr;
		return;
	}
	if (*listen_addr == '\0' || strcmp(listen_addr, "*") == 0 ||
	    (!is_client && gateway_ports == 1)) {
		*wildcardp = 1;
		return;
	}
	if (strcmp(listen_addr, "localhost") != 0)
		*addrp = listen_addr;
}

/* ---- permission lists ---- */

/* "host:port" or "[host]:port" into host and port (-1: any). */
static int
split_hostport(const char *ent, char *host, size_t hlen, int *portp)
{
	const char *colon, *h = ent;
	size_t len;

	if (*ent == '[') {
		const char *e = strchr(ent, ']');

		if (e == NULL || e[1] != ':')
			return ERR_INVALID_FORMAT;
		h = ent + 1;
		len = (size_t)(e - h);
		colon = e + 1;
	} else {
		if ((colon = strrchr(ent, ':')) == NULL)
			return ERR_INVALID_FORMAT;
		len = (size_t)(colon - ent);
	}
	if (len == 0 || len >= hlen)
		return ERR_INVALID_FORMAT;
	memcpy(host, h, len);
	host[len] = '\0';
	if (strcmp(colon + 1, "*") == 0)
		*portp = -1;
	else if (parse_port(colon + 1, 0, portp) != 0)
		return ERR_INVALID_FORMAT;
	return 0;
}

int
fwd_permit_open(char *const *list, size_t n, const char *host, int port)
{
	char h[NI_MAXHOST];
	size_t i;
	int p;

	if (n == 0)
		return 1;
	for (i = 0; i < n; i++) {
		if (strcasecmp(list[i], "any") == 0)
			return 1;
		if (strcasecmp(list[i], "none") == 0)
			return 0;
		if (split_hostport(list[i], h, sizeof(h), &p) != 0)
			continue;
		if (p != -1 && p != port)
			continue;
		if (strcmp(h, "*") != 0 && strcmp(h, host) != 0)
			continue;
		return 1;
	}
	return 0;
}

int
fwd_permit_listen(char *const *list, size_t n, const char *host, int port)
{
	char h[NI_MAXHOST], lhost[NI_MAXHOST];
	size_t i, j;
	int p;

	if (n == 0)
		return 1;
	if (host == NULL || strlen(host) >= sizeof(lhost))
		return 0;
	for (j = 0; host[j] != '\0'; j++)
		lhost[j] = (char)tolower((unsigned char)host[j]);
	lhost[j] = '\0';
	for (i = 0; i < n; i++) {
		if (strcasecmp(list[i], "any") == 0)
			return 1;
		if (strcasecmp(list[i], "none") == 0)
			return 0;
		if (strchr(list[i], ':') == NULL && list[i][0] != '[') {
			strcpy(h, "*");
			if (strcmp(list[i], "*") == 0)
				p = -1;
			else if (parse_port(list[i], 0, &p) != 0)
				continue;
		} else if (split_hostport(list[i], h, sizeof(h), &p) != 0)
			continue;
		if (p != -1 && p != port)
			continue;
		if (match_pattern(lhost, h) != 1)
			continue;
		return 1;
	}
	return 0;
}

/* ---- sockets ---- */

void
fwd_peer_name(int fd, int local, char *host, size_t hostlen, int *portp)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char port[NI_MAXSERV];

	snprintf(host, hostlen, "UNKNOWN");
	*portp = 0;
	if ((local ? getsockname(fd, (struct sockaddr *)&ss, &len) :
	    getpeername(fd, (struct sockaddr *)&ss, &len)) != 0)
		return;
	if (getnameinfo((struct sockaddr *)&ss, len, host, hostlen, port,
	    sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(host, hostlen, "UNKNOWN");
		return;
	}
	*portp = atoi(port);
}

static int
set_nonblock_cloexec(int fd)
{
	int fl;

	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		return ERR_SYSTEM;
	return 0;
}

int
fwd_listen(const char *addr, int wildcard, int port, struct fwd_listener *l,
    const char **errp)
{
	struct addrinfo hints, *ai = NULL, *a;
	char pstr[16];
	int fd, on = 1, gai, r = ERR_SYSTEM;

	memset(l, 0, sizeof(*l));
	*errp = "no address to listen on";
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = wildcard ? AI_PASSIVE : 0;
	snprintf(pstr, sizeof(pstr), "%d", port);
	if ((gai = getaddrinfo(wildcard ? NULL : addr, pstr, &hints,
	    &ai)) != 0) {
		*errp = gai_strerror(gai);
		return ERR_NOT_FOUND;
	}
	for (a = ai; a != NULL && l->nfds < FWD_MAX_FDS; a = a->ai_next) {
		if (a->ai_family != AF_INET && a->ai_family != AF_INET6)
			continue;
		if (l->port != 0) {
			/* Port 0: the rest take the port the first got. */
			if (a->ai_family == AF_INET)
				((struct sockaddr_in *)(void *)a->ai_addr)->
				    sin_port = htons((uint16_t)l->port);
			else
				((struct sockaddr_in6 *)(void *)a->ai_addr)->
				    sin6_port = htons((uint16_t)l->port);
		}
		if ((fd = socket(a->ai_family, a->ai_socktype,
		    a->ai_protocol)) == -1)
			continue;
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on,
		    sizeof(on));
		if (a->ai_family == AF_INET6)
			(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on,
			    sizeof(on));
		if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 ||
		    listen(fd, 128) != 0 || set_nonblock_cloexec(fd) != 0) {
			*errp = strerror(errno);
			close(fd);
			/* Another family may be missing; in use is fatal. */
			if (errno == EADDRINUSE || errno == EACCES)
				goto fail;
			continue;
		}
		if (l->port == 0) {
			char h[NI_MAXHOST];

			fwd_peer_name(fd, 1, h, sizeof(h), &l->port);
		}
		l->fds[l->nfds++] = fd;
	}
	freeaddrinfo(ai);
	return l->nfds > 0 ? 0 : ERR_SYSTEM;
 fail:
	freeaddrinfo(ai);
	fwd_listener_close(l);
	return r;
}

void
fwd_listener_close(struct fwd_listener *l)
{
	size_t i;

	for (i = 0; i < l->nfds; i++)
		close(l->fds[i]);
	l->nfds = 0;
}

/* ---- channels on sockets ---- */

struct fwd_chan {
	int fd;				/* not yet the channel's */
	struct addrinfo *ai, *next;	/* connect: addresses left */
	int err;			/* last connect errno */
	int watched;
};

static void
fc_drop_fd(struct chan_set *cs, struct fwd_chan *fc)
{
	if (fc->watched)
		chan_set_unwatch(cs, fc->fd);
	fc->watched = 0;
	if (fc->fd != -1)
		close(fc->fd);
	fc->fd = -1;
}

void
fwd_chan_free(struct chan_set *cs, struct chan *c)
{
	struct fwd_chan *fc = c->ctx;

	if (fc == NULL)
		return;
	fc_drop_fd(cs, fc);
	if (fc->ai != NULL)
		freeaddrinfo(fc->ai);
	x_free(fc);
	c->ctx = NULL;
}

/* Start connects down the address list until one is under way. */
static int
connect_next(struct fwd_chan *fc)
{
	struct addrinfo *a;
	int fd;

	while ((a = fc->next) != NULL) {
		fc->next = a->ai_next;
		if ((fd = socket(a->ai_family, a->ai_socktype,
		    a->ai_protocol)) == -1) {
			fc->err = errno;
			continue;
		}
		if (set_nonblock_cloexec(fd) != 0) {
			fc->err = errno;
			close(fd);
			continue;
		}
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0 ||
		    errno == EINPROGRESS) {
			fc->fd = fd;
			return 0;
		}
		fc->err = errno;
		close(fd);
	}
	return ERR_SYSTEM;
}

static void connect_cb(struct chan_set *cs, int fd, short revents,
    void *arg);

static int
connect_watch(struct chan_set *cs, struct chan *c, struct fwd_chan *fc)
{
	fc->watched = chan_set_watch(cs, fc->fd, POLLOUT, connect_cb,
	    (void *)(uintptr_t)c->local_id) == 0;
	return fc->watched ? 0 : ERR_INTERNAL;
}

static void
connect_cb(struct chan_set *cs, int fd, short revents, void *arg)
{
	struct chan *c = chan_lookup(cs, (uint32_t)(uintptr_t)arg);
	struct fwd_chan *fc;
	socklen_t len = sizeof(int);
	int soerr = 0;

	if (c == NULL || c->ops->free != fwd_chan_free ||
	    (fc = c->ctx) == NULL || fc->fd != fd) {
		chan_set_unwatch(cs, fd);
		return;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0)
		soerr = errno;
	if (soerr == EINPROGRESS)
		return;
	chan_set_unwatch(cs, fd);
	fc->watched = 0;
	if (soerr == 0) {
		log_debug("channel %u: connected", c->local_id);
		chan_set_fds(c, fd, fd, -1, CHAN_EFD_NONE, 0);
		fc->fd = -1;
		(void)chan_open_confirm(cs, c);
		return;
	}
	fc->err = soerr;
	close(fd);
	fc->fd = -1;
	if (connect_next(fc) == 0 && connect_watch(cs, c, fc) == 0)
		return;
	log_debug("channel %u: connect failed: %s", c->local_id,
	    strerror(fc->err));
	(void)chan_open_refuse(cs, c, SSH2_OPEN_CONNECT_FAILED,
	    strerror(fc->err));
}

int
fwd_chan_connect(struct chan_set *cs, struct chan *c, const char *host,
    int port, uint32_t *reasonp, const char **descp)
{
	struct addrinfo hints;
	struct fwd_chan *fc;
	char pstr[16];
	int gai;

	fc = x_calloc(1, sizeof(*fc));
	fc->fd = -1;
	c->ctx = fc;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(pstr, sizeof(pstr), "%d", port);
	*reasonp = SSH2_OPEN_CONNECT_FAILED;
	if ((gai = getaddrinfo(host, pstr, &hints, &fc->ai)) != 0) {
		chan_log_refusal(cs, LOG_LEVEL_INFO, "connect_to %.100s port "
		    "%d: unknown host (%s)", host, port, gai_strerror(gai));
		fc->ai = NULL;
		*descp = "name or service not known";
		return ERR_NOT_FOUND;
	}
	fc->next = fc->ai;
	if (connect_next(fc) != 0 || connect_watch(cs, c, fc) != 0) {
		chan_log_refusal(cs, LOG_LEVEL_INFO, "connect_to %.100s port "
		    "%d: failed.", host, port);
		*descp = "connect failed";
		return ERR_SYSTEM;
	}
	return ERR_AGAIN;
}

int
fwd_chan_open_fd(struct chan_set *cs, const struct chan_ops *ops, int fd,
    const struct sbuf *extra)
{
	struct fwd_chan *fc = x_calloc(1, sizeof(*fc));
	struct chan *c;
	int r;

	fc->fd = fd;
	if ((r = chan_open(cs, ops, fc, extra, &c)) != 0) {
		close(fd);
		x_free(fc);
	}
	return r;
}

void
fwd_chan_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct fwd_chan *fc = c->ctx;

	if (fc == NULL)
		return;
	if (ok && fc->fd != -1) {
		chan_set_fds(c, fc->fd, fc->fd, -1, CHAN_EFD_NONE, 0);
		fc->fd = -1;
	}
	/* Refused: fwd_chan_free closes the socket. */
}

int
fwd_put_addrs(struct sbuf *b, const char *host, int port, const char *orig,
    int oport)
{
	int r;

	if ((r = sbuf_put_cstring(b, host)) != 0 ||
	    (r = sbuf_put_u32(b, (uint32_t)port)) != 0 ||
	    (r = sbuf_put_cstring(b, orig)) != 0 ||
	    (r = sbuf_put_u32(b, (uint32_t)oport)) != 0)
		return r;
	return 0;
}
