/*
 * sftp_prog.h: what the file transfer programs (sftp, scp) share: the
 * start of the server or ssh child they talk to, and the progress meter
 * of one transfer.
 */
#ifndef MOAT_SFTP_PROG_SHARED_H
#define MOAT_SFTP_PROG_SHARED_H

#include <stdint.h>
#include <sys/types.h>

#include "sftp_client.h"

/*
 * Run argv (searched in PATH) with its stdin and stdout on two pipes:
 * *in_fd reads what the child writes, *out_fd writes to the child.
 * ign_sigint: the child ignores SIGINT (an interactive ^C is the
 * caller's). ERR_SYSTEM (errno set) when a pipe or fork fails; a
 * failed exec shows as the child's exit status 1 after a message.
 */
int sftp_spawn(char *const argv[], int ign_sigint, int *in_fd, int *out_fd,
    pid_t *pidp);

/* The meter of one transfer (sftp_progress.c); on a terminal only. */
struct progress {
	const char *name;
	uint64_t size, done;
	uint64_t first;		/* where it started (a resumed transfer) */
	double start, last;
};
void progress_start(struct progress *p, const char *name, uint64_t size,
    uint64_t done);
sftp_progress_fn progress_update;
void progress_end(struct progress *p);

#endif
