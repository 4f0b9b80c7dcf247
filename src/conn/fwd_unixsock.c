/*
 * fwd_unixsock.c: the Unix-domain stream sockets of socket-path
 * forwarding, for both roles (see fwd.h): a non-blocking socket
 * connected to a path, or bound at a path under a given umask and
 * listening. What to remove first, which identity to act as and how to
 * word a failure stay with the callers (sshd acts as the user, in a
 * child; ssh as itself).
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fwd.h"

#define FWD_UNIX_BACKLOG	128

/* A new socket and its address for path; -1 with errno set. */
static int
unix_socket(const char *path, struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (path[0] == '\0' || strlen(path) >= sizeof(sun->sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sun->sun_path, path, strlen(path));
	return socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

int
fwd_unix_connect_fd(const char *path)
{
	struct sockaddr_un sun;
	int fd, err;

	if ((fd = unix_socket(path, &sun)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int
fwd_unix_listen_fd(const char *path, int mask)
{
	struct sockaddr_un sun;
	mode_t old;
	int fd, err;

	if ((fd = unix_socket(path, &sun)) == -1)
		return -1;
	old = umask((mode_t)(mask & 0777));
	err = bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ? errno : 0;
	umask(old);
	if (err == 0 && listen(fd, FWD_UNIX_BACKLOG) != 0) {
		err = errno;
		(void)unlink(path);
	}
	if (err != 0) {
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}
