/*
 * tun_server.h: the server's side of tunnel device forwarding: the
 * client's tun@openssh.com channel opens, under PermitTunnel (and its
 * Match blocks, already applied to sc) and the tunnel="n" option of the
 * key that logged in.
 *
 * The device is opened by the connection's post-authentication process,
 * as the user: making a device needs CAP_NET_ADMIN, so for a user other
 * than root it works only with a persistent device that user owns
 * ("ip tuntap add tun5 mode tun user NAME"), as with OpenSSH.
 *
 * Ownership: tun_server_setup() registers on cs and returns state the
 * caller frees with tun_server_free() after chan_set_free(cs); sc and
 * opts must outlive the set. The interface names of the tunnels opened
 * so far (for a session's SSH_TUNNEL) are tun_server_ifnames()'s.
 */
#ifndef MOAT_TUN_SERVER_H
#define MOAT_TUN_SERVER_H

struct authopts;
struct chan_set;
struct servconf;
struct tun_server;

int tun_server_setup(struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, struct tun_server **tsp);
void tun_server_free(struct tun_server *ts);
/* "tun0,tun1": the interfaces opened so far; NULL: none. */
const char *tun_server_ifnames(const struct tun_server *ts);

#endif
