/*
 * fwd_server.h: the server's side of TCP forwarding: "direct-tcpip"
 * channels (the client's -L and -D), the "tcpip-forward" and
 * "cancel-tcpip-forward" global requests and the "forwarded-tcpip"
 * channels they lead to (the client's -R), under AllowTcpForwarding,
 * PermitOpen, PermitListen, GatewayPorts, DisableForwarding and the
 * authorized_keys options no-port-forwarding, permitopen=, permitlisten=
 * and restrict.
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

#endif
