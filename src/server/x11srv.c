/*
 * x11srv.c: the server's side of X11 forwarding (see x11srv.h).
 *
 * The listener: display numbers are tried from X11DisplayOffset up,
 * each a TCP port 6000+N bound on every loopback address (or on every
 * address with X11UseLocalhost no); a port in use by anything, an X
 * server or another session, moves on to the next number. With
 * X11UseLocalhost the children see DISPLAY=localhost:N.S and the cookie
 * is filed under "unix:N.S", the name X libraries look up for a
 * localhost display; otherwise both are HOSTNAME:N.S.
 *
 * Each accepted connection opens an "x11" channel carrying the
 * connecting end's address and port (RFC 4254 section 6.3.2) through
 * fwd.c's second channel shape: the socket is attached once the client
 * confirms, closed if it refuses. The client checks the cookie.
 */
#include <sys/socket.h>

#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "authopts.h"
#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "x11srv.h"

struct x11_srv {
	struct fwd_listener l;
	int watched;
	int single;
	char *display;		/* DISPLAY */
	char *auth_display;	/* the name xauth files the cookie under */
	char *proto, *cookie;
};

const char *
x11_srv_refusal(const struct servconf *sc, const struct authopts *opts)
{
	if (opts != NULL && !opts->permit_x11_forwarding)
		return opts->restricted ? "restrict" : "no-X11-forwarding";
	if (sc->disable_forwarding)
		return "DisableForwarding";
	if (!sc->x11_forwarding)
		return "X11Forwarding";
	return NULL;
}

int
x11_srv_valid_word(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && strchr(".:/-_", *s) == NULL)
			return 0;
	return 1;
}

static const struct chan_ops x11_ops = {
	.type = "x11",
	.opened = fwd_chan_opened,
	.free = fwd_chan_free,
};

static void
unwatch_all(struct chan_set *cs, struct x11_srv *xs)
{
	size_t i;

	if (xs->watched && cs != NULL)
		for (i = 0; i < xs->l.nfds; i++)
			chan_set_unwatch(cs, xs->l.fds[i]);
	xs->watched = 0;
	fwd_listener_close(&xs->l);
}

/* A listener is readable: an X client of the session connects. */
static void
accept_cb(struct chan_set *cs, int lfd, short revents, void *arg)
{
	struct x11_srv *xs = arg;
	char host[NI_MAXHOST];
	struct sbuf *extra;
	int fd, port;

	(void)revents;
	if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK |
	    SOCK_CLOEXEC)) == -1) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_debug("accept: %s", strerror(errno));
		return;
	}
	if (xs->single) {
		log_debug("X11 single connection: closing the listener");
		unwatch_all(cs, xs);
	}
	fwd_peer_name(fd, 0, host, sizeof(host), &port);
	log_debug("X11 connection requested.");
	extra = sbuf_new();
	if (sbuf_put_cstring(extra, host) != 0 ||
	    sbuf_put_u32(extra, (uint32_t)port) != 0) {
		close(fd);
		sbuf_free(extra);
		return;
	}
	if (fwd_chan_open_fd(cs, &x11_ops, fd, extra) != 0)
		log_info("x11: cannot open a channel");
	sbuf_free(extra);
}

/* The first free display number from the offset on, or an error. */
static int
bind_display(const struct servconf *sc, struct x11_srv *xs, int *nump)
{
	const char *err;
	int n;

	for (n = sc->x11_display_offset; n < sc->x11_display_offset +
	    X11_SRV_MAX_DISPLAYS; n++) {
		if (X11_SRV_BASE_PORT + n > 65535)
			break;
		if (fwd_listen(NULL, !sc->x11_use_localhost,
		    X11_SRV_BASE_PORT + n, &xs->l, &err) == 0) {
			*nump = n;
			return 0;
		}
		log_debug2("x11: port %d: %s", X11_SRV_BASE_PORT + n, err);
	}
	log_error("Failed to allocate internet-domain X11 display socket.");
	return ERR_SYSTEM;
}

int
x11_srv_listen(struct chan_set *cs, const struct servconf *sc,
    int single, const char *proto, const char *cookie, unsigned int screen,
    struct x11_srv **out)
{
	struct x11_srv *xs = x_calloc(1, sizeof(*xs));
	char host[256];
	size_t i;
	int num, r;

	*out = NULL;
	xs->single = single;
	if ((r = bind_display(sc, xs, &num)) != 0)
		goto fail;
	for (i = 0; i < xs->l.nfds; i++)
		if ((r = chan_set_watch(cs, xs->l.fds[i], POLLIN, accept_cb,
		    xs)) != 0)
			goto fail;
	xs->watched = 1;
	if (sc->x11_use_localhost) {
		xs->display = x_asprintf("localhost:%d.%u", num, screen);
		xs->auth_display = x_asprintf("unix:%d.%u", num, screen);
	} else {
		if (gethostname(host, sizeof(host)) != 0) {
			log_error("gethostname: %s", strerror(errno));
			r = ERR_SYSTEM;
			goto fail;
		}
		host[sizeof(host) - 1] = '\0';
		xs->display = x_asprintf("%s:%d.%u", host, num, screen);
		xs->auth_display = x_strdup(xs->display);
	}
	xs->proto = x_strdup(proto);
	xs->cookie = x_strdup(cookie);
	log_debug("x11: listening for display %s on port %d", xs->display,
	    X11_SRV_BASE_PORT + num);
	*out = xs;
	return 0;
 fail:
	x11_srv_free(cs, xs);
	return r;
}

const char *
x11_srv_display(const struct x11_srv *xs)
{
	return xs->display;
}

char *
x11_srv_xauth_input(const struct x11_srv *xs)
{
	return x_asprintf("remove %s\nadd %s %s %s\n", xs->auth_display,
	    xs->auth_display, xs->proto, xs->cookie);
}

char *
x11_srv_rc_input(const struct x11_srv *xs)
{
	return x_asprintf("%s %s\n", xs->proto, xs->cookie);
}

void
x11_srv_free(struct chan_set *cs, struct x11_srv *xs)
{
	if (xs == NULL)
		return;
	unwatch_all(cs, xs);
	x_free(xs->display);
	x_free(xs->auth_display);
	if (xs->cookie != NULL)
		x_wipe(xs->cookie, strlen(xs->cookie));
	x_free(xs->proto);
	x_free(xs->cookie);
	x_free(xs);
}
