/*
 * x11fwd.h: X11 forwarding in ssh(1) (-X, -Y, -x, ForwardX11,
 * ForwardX11Trusted, ForwardX11Timeout, XAuthLocation), see x11fwd.c.
 *
 * Use: x11_fwd_new(o) once the options are final (runs xauth);
 * x11_fwd_setup() on the connection's channel set (accepts the
 * server's x11 channels); x11_fwd_request() when the session channel
 * is open; x11_fwd_free() after the connection. The state must outlive
 * the channel set.
 */
#ifndef MOAT_X11FWD_H
#define MOAT_X11FWD_H

#include <stddef.h>

#include "client.h"

struct chan_set;
struct chan;
struct x11_fwd;

/* Longest cookie we carry (MIT-MAGIC-COOKIE-1 has 16 bytes). */
#define X11_COOKIE_MAX	256
/* The protocol name's longest form we accept from xauth. */
#define X11_PROTO_MAX	64

struct x11_fwd *x11_fwd_new(const struct client_opts *o);
void x11_fwd_free(struct x11_fwd *xf);
int x11_fwd_setup(struct chan_set *cs, struct x11_fwd *xf);
/*
 * Send x11-req (wanting a reply) on session channel c when forwarding
 * is on and none was sent yet (xf may be NULL): 1 when sent, 0 when
 * not, or an error.
 */
int x11_fwd_request(struct x11_fwd *xf, struct chan_set *cs,
    struct chan *c);
/*
 * The same for a further session channel (a mux client's that asked
 * for it): sent whenever forwarding is on, with the same fake cookie.
 */
int x11_fwd_request_more(struct x11_fwd *xf, struct chan_set *cs,
    struct chan *c);

/* x11xauth.c: the cookie from xauth, and the local display. */

/*
 * The cookie xauth (at xauth_path) has for display: trusted, the
 * user's own; else a new untrusted one made with "generate" in a
 * private temporary file, valid timeout seconds past ForwardX11Timeout
 * (0: for ever). 0 with *proto and data[0..*lenp), or an error.
 */
int x11_xauth_cookie(const char *xauth_path, const char *display,
    int trusted, int timeout, char proto[X11_PROTO_MAX],
    unsigned char data[X11_COOKIE_MAX], size_t *lenp);
/* The screen number of a DISPLAY value ("host:D.S"), 0 when absent. */
int x11_display_screen(const char *display);
/*
 * Connect to the X server display names: ":D" or "unix:D" is the Unix
 * socket of display D, "host:D" TCP port 6000+D. A blocking connect:
 * 0 and *fdp, or an error (logged): ERR_INVALID_FORMAT for a name with
 * no display number, ERR_NOT_FOUND for a host that does not resolve,
 * ERR_SYSTEM (errno) when the connect failed.
 */
int x11_display_connect(const char *display, int *fdp);

#endif
