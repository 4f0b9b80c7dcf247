/*
 * spawn.h: a program that talks to its parent over a socketpair (its
 * stdin and stdout both), as ssh-sk-helper and ssh-pkcs11-helper do,
 * and the messages such a pair exchanges: uint32 length (big-endian,
 * not zero), then that many bytes.
 */
#ifndef MOAT_SPAWN_H
#define MOAT_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

#include "sbuf.h"

/*
 * Start path with argv (argv[0] its name), one end of a new socketpair
 * as its stdin and stdout, stderr shared, no other descriptor open and
 * SIGPIPE at its default; *fdp is our end (close-on-exec), *pidp the
 * child. ERR_SYSTEM when the pair or the fork fails.
 */
int spawn_socketpair(const char *path, char *const argv[], int *fdp,
    pid_t *pidp);
/* Wait for pid to end (EINTR retried); its wait status in *statusp. */
int spawn_reap(pid_t pid, int *statusp);

/*
 * One message from fd into body (appended): ERR_CONN_CLOSED at end of
 * file, ERR_PROTOCOL for a length of 0 or above max.
 */
int msg_read_framed(int fd, size_t max, struct sbuf *body);
/* body as one message to fd (a socket: no SIGPIPE); the copy is wiped. */
int msg_write_framed(int fd, const struct sbuf *body);

#endif
