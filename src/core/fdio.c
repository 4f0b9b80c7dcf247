/*
 * fdio.c: whole-buffer reads and writes (see fdio.h).
 */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err.h"
#include "fdio.h"

int
fd_read_full(int fd, void *buf, size_t len)
{
	unsigned char *p = buf;
	ssize_t n;

	while (len > 0) {
		if ((n = read(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return ERR_SYSTEM;
		}
		if (n == 0)
			return ERR_CONN_CLOSED;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
fd_write_full(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int sock = 1;
	ssize_t n;

	while (len > 0) {
		n = sock ? send(fd, p, len, MSG_NOSIGNAL) : write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (sock && errno == ENOTSOCK) {
				sock = 0;
				continue;
			}
			return ERR_SYSTEM;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
