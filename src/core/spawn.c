/*
 * spawn.c: starting a program on a socketpair, and the length-prefixed
 * messages over it (spawn.h).
 */
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "err.h"
#include "fdio.h"
#include "spawn.h"

#define SPAWN_MAX_FDS	65536

/*
 * In the child: end as stdin and stdout, nothing else open, no signal
 * blocked (ssh-agent blocks SIGTERM, SIGHUP and SIGINT around its wait,
 * and a mask outlives exec), then exec.
 */
static void __attribute__((noreturn))
exec_child(const char *path, char *const argv[], int end)
{
	long max = sysconf(_SC_OPEN_MAX);
	sigset_t none;
	int e, fd;

	/* Moved above 2 first, so neither dup2 closes it under us. */
	if ((e = fcntl(end, F_DUPFD_CLOEXEC, 10)) < 0 ||
	    dup2(e, STDIN_FILENO) < 0 || dup2(e, STDOUT_FILENO) < 0)
		_exit(127);
	/* Every descriptor above 2, however high; by hand where the
	 * kernel or the C library has no close_range. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
	if (close_range(STDERR_FILENO + 1, ~0U, 0) == 0)
		max = 0;
#endif
	if (max < 0 || max > SPAWN_MAX_FDS)
		max = SPAWN_MAX_FDS;
	for (fd = STDERR_FILENO + 1; fd < max; fd++)
		close(fd);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	execv(path, argv);
	_exit(127);
}

int
spawn_socketpair(const char *path, char *const argv[], int *fdp,
    pid_t *pidp)
{
	int sp[2];
	pid_t pid;

	*fdp = -1;
	*pidp = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) != 0)
		return ERR_SYSTEM;
	if ((pid = fork()) < 0) {
		close(sp[0]);
		close(sp[1]);
		return ERR_SYSTEM;
	}
	if (pid == 0)
		exec_child(path, argv, sp[1]);
	close(sp[1]);
	*fdp = sp[0];
	*pidp = pid;
	return 0;
}

int
spawn_reap(pid_t pid, int *statusp)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return ERR_SYSTEM;
	}
	if (statusp != NULL)
		*statusp = status;
	return 0;
}

int
msg_read_framed(int fd, size_t max, struct sbuf *body)
{
	unsigned char lenb[4], *p;
	uint32_t len;
	int r;

	if ((r = fd_read_full(fd, lenb, sizeof(lenb))) != 0)
		return r;
	len = (uint32_t)lenb[0] << 24 | (uint32_t)lenb[1] << 16 |
	    (uint32_t)lenb[2] << 8 | lenb[3];
	if (len == 0 || len > max)
		return ERR_PROTOCOL;
	if ((r = sbuf_reserve(body, len, &p)) != 0)
		return r;
	return fd_read_full(fd, p, len);
}

int
msg_write_framed(int fd, const struct sbuf *body)
{
	struct sbuf *msg = sbuf_new();
	int r;

	if ((r = sbuf_put_stringb(msg, body)) == 0)
		r = fd_write_full(fd, sbuf_ptr(msg), sbuf_len(msg));
	sbuf_wipe(msg);		/* a request may carry a PIN */
	sbuf_free(msg);
	return r;
}
