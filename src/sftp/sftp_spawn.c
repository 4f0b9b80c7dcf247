/*
 * sftp_spawn.c: start the program a transfer client talks to (ssh with
 * a subsystem or command, or a server run directly) on two pipes.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "sftp_prog.h"

int
sftp_spawn(char *const argv[], int ign_sigint, int *in_fd, int *out_fd,
    pid_t *pidp)
{
	int to[2], from[2], e;
	pid_t pid;

	if (pipe(to) == -1)
		return ERR_SYSTEM;
	if (pipe(from) == -1) {
		e = errno;
		close(to[0]);
		close(to[1]);
		errno = e;
		return ERR_SYSTEM;
	}
	if ((pid = fork()) == -1) {
		e = errno;
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		errno = e;
		return ERR_SYSTEM;
	}
	if (pid == 0) {
		if (dup2(to[0], STDIN_FILENO) == -1 ||
		    dup2(from[1], STDOUT_FILENO) == -1)
			_exit(1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		signal(SIGPIPE, SIG_DFL);
		if (ign_sigint)
			signal(SIGINT, SIG_IGN);
		execvp(argv[0], argv);
		fprintf(stderr, "exec: %s: %s\r\n", argv[0], strerror(errno));
		_exit(1);
	}
	close(to[0]);
	close(from[1]);
	*in_fd = from[0];
	*out_fd = to[1];
	*pidp = pid;
	return 0;
}
