/*
 * fwd_client.h: the client's side of TCP forwarding: -L/LocalForward
 * (listen here, direct-tcpip to the server), -R/RemoteForward
 * (tcpip-forward requests; forwarded-tcpip channels connected here),
 * -D/DynamicForward (SOCKS 4/4a/5 here, socks.c), -R [bind:]port
 * (SOCKS served here for the server's listener, socks_rev.c), -W (stdin/stdout as one
 * direct-tcpip channel), ExitOnForwardFailure, GatewayPorts and
 * ClearAllForwardings; and the Unix-domain socket forms of -L and -R
 * (fwd_unix.c) with StreamLocalBindMask and StreamLocalBindUnlink.
 *
 * Use: fwd_client_new(o); pass fwd_client_setup / the state as the
 * session's setup hook (client_session_args.setup); after the session,
 * fwd_client_failed() says whether ExitOnForwardFailure (or -W) makes
 * the exit status 255; fwd_client_free().
 */
#ifndef MOAT_FWD_CLIENT_H
#define MOAT_FWD_CLIENT_H

#include <stddef.h>
#include <stdint.h>

struct chan_set;
struct client_opts;
struct fwd_client;

/*
 * -L -R -D -W on the command line into o; 0, or after a message on
 * stderr ERR_INVALID_ARGUMENT (a malformed spec) or ERR_CONFIG.
 */
int fwd_client_option(struct client_opts *o, int ch, const char *arg);

/*
 * A forwarding as stored in client_opts (the config's "listen target"
 * with a blank, or the -L/-R/-D form) of kind 'L', 'R' or 'D' into f,
 * as fwd_parse_spec does.
 */
struct fwd_spec;
int fwd_client_parse(const char *written, int kind, struct fwd_spec *f);

struct fwd_client *fwd_client_new(const struct client_opts *o);
/* Register types, bind listeners, send requests: the setup hook. */
int fwd_client_setup(struct chan_set *cs, void *arg);
int fwd_client_failed(const struct fwd_client *fc);
/* The exit status after the session returned status (-W: 0 once its
 * channel was open and the connection ended cleanly). */
int fwd_client_status(const struct fwd_client *fc, int status);
void fwd_client_free(struct fwd_client *fc);
/*
 * ~C: one line typed at the "ssh> " prompt ("-L spec", "-R spec",
 * "-D spec", "-KL port", "-KR port", "-KD port", "?", "-h") acted on in
 * the running connection; the outcome is logged as ssh(1) words it.
 */
void fwd_client_command(struct fwd_client *fc, const char *line);

/*
 * For a mux client's forwarding request (mux_master.c): set up spec
 * (taken, cleared) of kind 'L', 'R' or 'D' in the running connection.
 * An error when it cannot be: the listener's (logged), or
 * ERR_INVALID_ARGUMENT with no connection yet, ERR_NO_BUFFER_SPACE when
 * the table of forwardings is full. For 'R', done hears the
 * server's answer later (port: the one allocated for a listen port of
 * 0); for the others, and for a forwarding that exists already, done
 * runs before this returns. done may be NULL.
 */
typedef void (*fwd_client_done_fn)(void *arg, int ok, int port);
struct fwd_spec;
int fwd_client_add_spec(struct fwd_client *fc, int kind, struct fwd_spec *spec,
    fwd_client_done_fn done, void *arg);
/* No more answers for arg (its client went away). */
void fwd_client_forget(struct fwd_client *fc, void *arg);
/*
 * Cancel the forwarding listening where k says; ERR_NOT_FOUND if there
 * is none, or the error sending the cancel request.
 */
int fwd_client_cancel_spec(struct fwd_client *fc, int kind,
    const struct fwd_spec *k);

/* ---- fwd_unix.c: the Unix-domain socket ends ---- */
struct chan;
/* Listen on path (umask mask; unlink_first: remove the file first);
 * 0 with *fdp, or an error after ssh(1)'s log line. */
int fwd_unix_listen(const char *path, int mask, int unlink_first, int *fdp);
/* Connect to path (non-blocking socket); 0 with *fdp or an error after
 * ssh(1)'s log line. */
int fwd_unix_connect(const char *path, int *fdp);
/* For an open hook: connect to path and attach it to c; 0, or an error
 * with *reasonp and *descp set. */
int fwd_unix_attach(struct chan *c, const char *path, uint32_t *reasonp,
    const char **descp);
/* Open a direct-streamlocal@openssh.com channel to the server's path for
 * the connected socket fd (the channel's from here on, even on error). */
int fwd_unix_open_direct(struct chan_set *cs, int fd, const char *path);

/* ---- socks.c ---- */
struct socks_req {
	int version;		/* 4 or 5 */
	char host[256];
	int port;
};
/*
 * Parse what a SOCKS client sent so far (buf, len). *statep starts at 0.
 * Returns ERR_AGAIN when more is needed, 0 with *req filled when the
 * request is complete (*usedp bytes consumed), ERR_INVALID_FORMAT or
 * ERR_FEATURE_UNSUPPORTED when it must be refused. When *replyp is set
 * (SOCKS5 method choice) those *replylenp bytes must be sent first and
 * *usedp bytes dropped before calling again.
 */
int socks_parse(const unsigned char *buf, size_t len, int *statep,
    struct socks_req *req, size_t *usedp, const unsigned char **replyp,
    size_t *replylenp);
/* The reply to the request once the channel is open (ok) or refused. */
size_t socks_reply(int version, int ok, unsigned char *out, size_t outlen);
/* Accept SOCKS on listening socket lfd (called from the watch). */
void socks_accept(struct chan_set *cs, int lfd);

/* ---- socks_rev.c: -R [bind:]port, the SOCKS server on this side ---- */
struct socks_rev;
/* Serve SOCKS on forwarded-tcpip channel c (its open hook), to the
 * destinations o's PermitRemoteOpen allows; the relay goes on *listp.
 * 0, or an error with *reasonp and *descp set. */
int socks_rev_start(struct chan_set *cs, struct chan *c,
    const struct client_opts *o, struct socks_rev **listp,
    uint32_t *reasonp, const char **descp);
/* Close every relay on the list (after the connection loop). */
void socks_rev_free_all(struct socks_rev **listp);

#endif
