/*
 * x11srv.h: the server's side of X11 forwarding (RFC 4254 section
 * 6.3). A session's x11-req makes it listen on TCP port 6000+N for the
 * first free display number N from X11DisplayOffset (on the loopback
 * addresses, or every address with X11UseLocalhost no); the session's
 * children get DISPLAY, and the cookie the client sent is added for
 * them with xauth (or handed to ~/.ssh/rc). Each connection to the
 * listener becomes an "x11" channel towards the client. The listener
 * goes with the session.
 *
 * Ownership: x11_srv_listen() returns state the caller frees with
 * x11_srv_free() while the channel set still exists (or with cs NULL
 * once it is gone).
 */
#ifndef MOAT_X11SRV_H
#define MOAT_X11SRV_H

struct chan_set;
struct servconf;
struct authopts;
struct x11_srv;

/* Display numbers tried from X11DisplayOffset on. */
#define X11_SRV_MAX_DISPLAYS	1000
#define X11_SRV_BASE_PORT	6000

/*
 * Which rule refuses X11 forwarding (pure): NULL when allowed, else
 * "DisableForwarding", "X11Forwarding", or the key's
 * "no-X11-forwarding" / "restrict". opts may be NULL.
 */
const char *x11_srv_refusal(const struct servconf *sc,
    const struct authopts *opts);

/*
 * Whether s is fit to be an xauth protocol name or cookie: letters,
 * digits and ".:/-_" only, as it goes to xauth's input (pure).
 */
int x11_srv_valid_word(const char *s);

/*
 * Listen for display connections as sc says (X11DisplayOffset,
 * X11UseLocalhost); single: close the listener after the first
 * connection. proto and cookie are the client's (checked).
 */
int x11_srv_listen(struct chan_set *cs, const struct servconf *sc,
    int single, const char *proto, const char *cookie, unsigned int screen,
    struct x11_srv **out);

/* DISPLAY for the session's children. */
const char *x11_srv_display(const struct x11_srv *xs);
/*
 * What xauth is fed ("remove D" and "add D PROTO COOKIE" lines), or
 * what ~/.ssh/rc gets on its input ("PROTO COOKIE"): allocated.
 */
char *x11_srv_xauth_input(const struct x11_srv *xs);
char *x11_srv_rc_input(const struct x11_srv *xs);

void x11_srv_free(struct chan_set *cs, struct x11_srv *xs);

#endif
