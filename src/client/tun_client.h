/*
 * tun_client.h: the client's side of tunnel device forwarding: -w
 * local_tun[:remote_tun], Tunnel and TunnelDevice. Once logged in, the
 * local device is opened and a tun@openssh.com channel asks the server
 * for its end; packets then flow between the two devices (tun.h).
 * ExitOnForwardFailure ends the connection (status 255) when either end
 * cannot be had.
 *
 * Use: tun_client_new(o); tun_client_setup() as part of the session's
 * setup hook; after the session, tun_client_status() gives the exit
 * status; tun_client_free().
 */
#ifndef MOAT_TUN_CLIENT_H
#define MOAT_TUN_CLIENT_H

#include <stdio.h>

struct chan_set;
struct client_opts;
struct tun_client;

/* -w ARG: 0, or ERR_INVALID_FORMAT after ssh(1)'s message. */
int tun_client_option(struct client_opts *o, const char *arg);
/* TunnelDevice's value (first one wins); 0 or ERR_CONFIG, logged. */
int tun_config_device(struct client_opts *o, const char *arg,
    const char *src, int line);
/* "tunneldevice L:R" for ssh -G. */
void tun_dump_device(const struct client_opts *o, FILE *f);

struct tun_client *tun_client_new(const struct client_opts *o);
int tun_client_setup(struct chan_set *cs, struct tun_client *tc);
int tun_client_status(const struct tun_client *tc, int status);
void tun_client_free(struct tun_client *tc);

#endif
