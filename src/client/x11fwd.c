/*
 * x11fwd.c: the client's side of X11 forwarding (RFC 4254 section
 * 6.3): -X, -Y, -x, ForwardX11, ForwardX11Trusted, ForwardX11Timeout.
 *
 * Authentication spoofing, as ssh(1) does it: the real cookie for
 * $DISPLAY (from xauth, x11xauth.c) never leaves this machine. The
 * x11-req sends a random fake cookie of the same length; the server
 * hands the fake one to the session's X clients. For each "x11" channel
 * the server opens we connect to the local display at once, confirm,
 * and hold the channel's bytes back until the X client's connection
 * setup message is all there (x11auth.c): its protocol name and cookie
 * must be the fake ones, which are then overwritten with the real
 * cookie before anything reaches the display; any other message ends
 * the channel. The channel layer has no hook for arriving data, so a
 * short repeating timer looks at what the channel holds until the
 * message is complete (a few turns; the message arrives in one packet
 * from every X library).
 *
 * Untrusted forwarding (ForwardX11Trusted no) uses a cookie generated
 * as untrusted, and after ForwardX11Timeout new X11 channels are
 * refused. A channel the server opens when forwarding was not asked
 * for is refused with ssh(1)'s warnings.
 */
#include <sys/random.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "err.h"
#include "ev.h"
#include "log.h"
#include "mem.h"
#include "x11auth.h"
#include "x11fwd.h"

/* How often a held channel is looked at, and for how long at most. */
#define X11_POLL_MS	5
#define X11_SETUP_WAIT_MS	(60 * 1000)

struct x11_fwd {
	int enabled;		/* ForwardX11 with a cookie to spoof */
	int requested;		/* x11-req sent */
	char *display;
	int screen;
	char proto[X11_PROTO_MAX];
	unsigned char real[X11_COOKIE_MAX], fake[X11_COOKIE_MAX];
	size_t len;
	int64_t refuse_at;	/* ev_now_ms() past which we refuse; 0 never */
};

/* One x11 channel held until its setup message is checked. */
struct x11_chan {
	struct x11_fwd *xf;
	struct chan_set *cs;
	struct chan *c;
	int fd;			/* the display, until given to the channel */
	int64_t since;
	struct ev_timer tm;
};

static void
cookie_setup(struct x11_fwd *xf, const struct client_opts *o)
{
	int trusted = o->forward_x11_trusted > 0;

	if (x11_xauth_cookie(o->xauth_location, xf->display, trusted,
	    o->forward_x11_timeout, xf->proto, xf->real, &xf->len) != 0) {
		if (!trusted) {
			log_error("Warning: untrusted X11 forwarding setup "
			    "failed: xauth key data not generated");
			return;
		}
		/* The X server may not ask at all: any cookie will do. */
		log_info("Warning: No xauth data; using fake authentication "
		    "data for X11 forwarding.");
		snprintf(xf->proto, sizeof(xf->proto), "MIT-MAGIC-COOKIE-1");
		xf->len = 16;
		if (getrandom(xf->real, xf->len, 0) != (ssize_t)xf->len)
			return;
	}
	if (getrandom(xf->fake, xf->len, 0) != (ssize_t)xf->len)
		return;
	if (!trusted && o->forward_x11_timeout > 0)
		xf->refuse_at = ev_now_ms() +
		    (int64_t)o->forward_x11_timeout * 1000;
	xf->enabled = 1;
}

struct x11_fwd *
x11_fwd_new(const struct client_opts *o)
{
	struct x11_fwd *xf = x_calloc(1, sizeof(*xf));
	const char *d;

	if (o->forward_x11 <= 0)
		return xf;
	if ((d = getenv("DISPLAY")) == NULL || *d == '\0') {
		log_debug("X11 forwarding requested but DISPLAY not set");
		return xf;
	}
	xf->display = x_strdup(d);
	xf->screen = x11_display_screen(d);
	cookie_setup(xf, o);
	return xf;
}

void
x11_fwd_free(struct x11_fwd *xf)
{
	if (xf == NULL)
		return;
	x_wipe(xf->real, sizeof(xf->real));
	x_wipe(xf->fake, sizeof(xf->fake));
	x_free(xf->display);
	x_free(xf);
}

int
x11_fwd_request(struct x11_fwd *xf, struct chan_set *cs, struct chan *c)
{
	if (xf == NULL || xf->requested)
		return 0;
	return x11_fwd_request_more(xf, cs, c);
}

int
x11_fwd_request_more(struct x11_fwd *xf, struct chan_set *cs,
    struct chan *c)
{
	struct sbuf *b;
	char hex[2 * X11_COOKIE_MAX + 1];
	size_t i;
	int r;

	if (xf == NULL || !xf->enabled)
		return 0;
	for (i = 0; i < xf->len; i++)
		snprintf(hex + 2 * i, 3, "%02x", xf->fake[i]);
	hex[2 * xf->len] = '\0';
	xf->requested = 1;
	log_debug("Requesting X11 forwarding with authentication spoofing.");
	if ((b = chan_request_start(cs, c, "x11-req", 1)) == NULL)
		return ERR_CONN_CLOSED;
	if ((r = sbuf_put_u8(b, 0)) != 0 ||
	    (r = sbuf_put_cstring(b, xf->proto)) != 0 ||
	    (r = sbuf_put_cstring(b, hex)) != 0 ||
	    (r = sbuf_put_u32(b, (uint32_t)xf->screen)) != 0 ||
	    (r = chan_msg_send(cs)) != 0)
		return r;
	return 1;
}

/* Give up on a held channel: nothing goes to the display. */
static void
x11_chan_end(struct x11_chan *xc)
{
	ev_timer_stop(chan_set_ev(xc->cs), &xc->tm);
	if (xc->fd != -1)
		close(xc->fd);
	xc->fd = -1;
	chan_close_write(xc->c);
	chan_set_fds(xc->c, -1, -1, -1, CHAN_EFD_NONE, 0);
}

static void
x11_poll(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct x11_chan *xc = arg;
	struct chan *c = xc->c;
	struct x11_setup st;
	unsigned char *p = sbuf_mutable_ptr(c->wbuf);
	size_t len = sbuf_len(c->wbuf);
	const char *why;
	int r;

	(void)tm;
	r = x11_setup_parse(p, len, &st);
	if (r == ERR_AGAIN && !c->eof_rcvd &&
	    ev_now_ms() - xc->since < X11_SETUP_WAIT_MS)
		return;
	if (r != 0) {
		log_debug2("X11 connection setup %s",
		    r == ERR_AGAIN ? "incomplete" : "malformed");
		if (r != ERR_AGAIN)
			log_error("Initial X11 packet contains bad byte order "
			    "byte: 0x%x", p[0]);
		x11_chan_end(xc);
		return;
	}
	if (x11_setup_spoof(p, &st, xc->xf->proto, xc->xf->fake,
	    xc->xf->real, xc->xf->len, &why) != 0) {
		log_debug2("X11 connection uses different authentication %s.",
		    why);
		log_error("X11 connection rejected because of wrong "
		    "authentication.");
		x11_chan_end(xc);
		return;
	}
	ev_timer_stop(ev, &xc->tm);
	chan_set_fds(c, xc->fd, xc->fd, -1, CHAN_EFD_NONE, 0);
	xc->fd = -1;
}

static int
x11_chan_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	struct x11_fwd *xf = c->type_arg;
	struct x11_chan *xc;
	char *orig = NULL;
	uint32_t oport;
	int fd, r;

	*reasonp = SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED;
	*descp = "open failed";
	if (!xf->enabled || !xf->requested) {
		log_error("Warning: ssh server tried X11 forwarding.");
		log_error("Warning: this is probably a break-in attempt by a "
		    "malicious server.");
		return ERR_PERMISSION_DENIED;
	}
	if (xf->refuse_at != 0 && ev_now_ms() >= xf->refuse_at) {
		log_verbose("Rejected X11 connection after ForwardX11Timeout "
		    "expired");
		return ERR_PERMISSION_DENIED;
	}
	if ((r = sbuf_get_cstring(extra, &orig, NULL)) != 0 ||
	    (r = sbuf_get_u32(extra, &oport)) != 0) {
		x_free(orig);
		return r;
	}
	log_debug("client_request_x11: request from %s %u", orig, oport);
	x_free(orig);
	if ((r = x11_display_connect(xf->display, &fd)) != 0)
		return r;
	xc = x_calloc(1, sizeof(*xc));
	xc->xf = xf;
	xc->cs = cs;
	xc->c = c;
	xc->fd = fd;
	xc->since = ev_now_ms();
	c->ctx = xc;
	ev_timer_init(&xc->tm, x11_poll, xc);
	ev_timer_start(chan_set_ev(cs), &xc->tm, X11_POLL_MS, X11_POLL_MS);
	return 0;
}

static void
x11_chan_free(struct chan_set *cs, struct chan *c)
{
	struct x11_chan *xc = c->ctx;

	if (xc == NULL)
		return;
	ev_timer_stop(chan_set_ev(cs), &xc->tm);
	if (xc->fd != -1)
		close(xc->fd);
	x_free(xc);
	c->ctx = NULL;
}

static const struct chan_ops x11_ops = {
	.type = "x11",
	.open = x11_chan_open,
	.free = x11_chan_free,
};

int
x11_fwd_setup(struct chan_set *cs, struct x11_fwd *xf)
{
	return chan_set_register(cs, &x11_ops, xf);
}
