/*
 * connect.h: how ssh(1) reaches the server: a TCP connection (honouring
 * AddressFamily, BindAddress and ConnectTimeout, trying each address in
 * turn), or a ProxyCommand run through /bin/sh -c whose stdin/stdout
 * carry the SSH stream.
 */
#ifndef MOAT_CONNECT_H
#define MOAT_CONNECT_H

#include <sys/types.h>

#include "client.h"

/*
 * Connect to host:port. On failure the OpenSSH-worded reason
 * ("ssh: connect to host X port N: Connection refused", "ssh: Could not
 * resolve hostname X: ...") has been logged at ERROR.
 */
int client_connect_tcp(const struct client_opts *o, const char *host,
    int port, int *fdp);
/*
 * Run cmd (%h %p %r %n %% expanded; exec'ed by "sh -c") with its stdin
 * and stdout on two pipes: *fd_inp reads what it writes, *fd_outp
 * writes to it. *pidp: the child, for the caller to reap.
 */
int client_connect_proxy(const struct client_opts *o, const char *cmd,
    int *fd_inp, int *fd_outp, pid_t *pidp);
/*
 * "ADDR port N" for the log lines about the connection (caller frees):
 * the server's numeric address and port as the socket has them (an
 * IPv4-mapped IPv6 address as plain IPv4), or "UNKNOWN port 65535" when
 * the stream is not one socket (ProxyCommand), as OpenSSH words both.
 */
char *client_peer_desc(int fd_in, int fd_out);
/* 1 if the socket's peer is a loopback address (127/8, ::1, mapped). */
int client_peer_is_local(int fd);

/*
 * The ProxyCommand that implements ProxyJump spec ("[user@]host[:port]"
 * list, comma-separated) with this program's own path; caller frees.
 * ERR_INVALID_ARGUMENT for a malformed specification.
 */
int client_proxyjump_command(const struct client_opts *o, const char *self,
    const char *config_file, int verbose, char **cmdp);

#endif
