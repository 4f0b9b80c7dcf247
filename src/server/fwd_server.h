/*
 * fwd_server.h: the server's side of TCP forwarding: "direct-tcpip"
 * channels (the client's -L and -D), the "tcpip-forward" and
 * "cancel-tcpip-forward" global requests and the "forwarded-tcpip"
 * channels they lead to (the client's -R), under AllowTcpForwarding,
 * PermitOpen, PermitListen, GatewayPorts, DisableForwarding and the
 * authorized_keys options no-port-forwarding, permitopen=, permitlisten=
 * and restrict; and, through fwd_stream.c, Unix-domain socket forwarding:
 * "direct-streamlocal@openssh.com" channels, the
 * "streamlocal-forward@openssh.com" and
 * "cancel-streamlocal-forward@openssh.com" global requests and the
 * "forwarded-streamlocal@openssh.com" channels they lead to, under
 * AllowStreamLocalForwarding, StreamLocalBindMask, StreamLocalBindUnlink,
 * DisableForwarding, no-port-forwarding and restrict. Socket paths are
 * connected and bound with the user's identity; the sockets bound are
 * removed when cancelled and when the connection ends.
 *
 * Ownership: fwd_server_setup() registers on cs and returns state the
 * caller frees with fwd_server_free() after chan_set_free(cs); sc, opts,
 * pw and raddr must outlive it.
 */
#ifndef MOAT_FWD_SERVER_H
#define MOAT_FWD_SERVER_H

struct chan_set;
struct servconf;
struct authopts;
struct passwd;
struct fwd_server;

int fwd_server_setup(struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, const struct passwd *pw,
    const char *raddr, int rport, struct fwd_server **out);
void fwd_server_free(struct fwd_server *fs);

/*
 * Which rule refuses a forwarding (pure): NULL when allowed, else the
 * rule's name for the log ("DisableForwarding", "AllowTcpForwarding",
 * "no-port-forwarding", "PermitOpen", "permitopen", "PermitListen",
 * "permitlisten", "privileged port"). remote: 0 for direct-tcpip (host,
 * port is the target), 1 for tcpip-forward (the listen host and port).
 */
const char *fwd_server_refusal(const struct servconf *sc,
    const struct authopts *opts, unsigned int uid, int remote,
    const char *host, int port);

/*
 * Which rule refuses a Unix-socket forwarding (pure): NULL when allowed,
 * else "DisableForwarding", "AllowStreamLocalForwarding",
 * "no-port-forwarding" or "restrict". remote: 0 for
 * direct-streamlocal, 1 for streamlocal-forward.
 */
const char *fwd_stream_refusal(const struct servconf *sc,
    const struct authopts *opts, int remote);

/* The streamlocal half, set up and freed by the two above. */
struct fwd_stream;
int fwd_stream_setup(struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, const struct passwd *pw,
    const char *raddr, int rport, struct fwd_stream **out);
void fwd_stream_free(struct fwd_stream *fst);

#endif
