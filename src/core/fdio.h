/*
 * fdio.h: reading and writing a whole buffer on a blocking descriptor.
 *
 * Both retry on EINTR and short transfers. fd_write_full() writes to a
 * socket with MSG_NOSIGNAL, so a peer that has gone away is an error
 * (ERR_SYSTEM, errno EPIPE) rather than a SIGPIPE; other descriptors are
 * written with write(). fd_read_full() returns ERR_CONN_CLOSED when the
 * descriptor reaches end of file first.
 *
 * fd_recv_fd() takes one descriptor passed over a Unix socket with
 * SCM_RIGHTS along with one byte of data (the byte is not kept): 0 and
 * *fdp (close-on-exec), ERR_CONN_CLOSED at end of file, ERR_SYSTEM
 * (errno ETIMEDOUT when ms passed first on a non-blocking socket; ms -1
 * waits without end), or ERR_INVALID_FORMAT for a message without
 * exactly one descriptor (any that came with it are closed).
 *
 * fd_set_tos() is IPQoS: it marks a socket's packets with tos (IP_TOS,
 * or IPV6_TCLASS on an IPv6 socket). Nothing for tos -1 ("none") or a
 * descriptor that is no IP socket (a ProxyCommand's pipe, sshd -i from
 * a pipe); a failure is logged, not fatal.
 */
#ifndef MOAT_FDIO_H
#define MOAT_FDIO_H

#include <stddef.h>

int fd_read_full(int fd, void *buf, size_t len);
int fd_write_full(int fd, const void *buf, size_t len);
int fd_recv_fd(int sock, int ms, int *fdp);
void fd_set_tos(int fd, int tos);

#endif
