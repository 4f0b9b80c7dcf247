/*
 * fdio.c: whole-buffer reads and writes (see fdio.h).
 */
#include <sys/socket.h>

#include <netinet/in.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "fdio.h"
#include "log.h"

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

void
fd_set_tos(int fd, int tos)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int r = 0;

	if (fd < 0 || tos < 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
		return;
	if (ss.ss_family == AF_INET)
		r = setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
	else if (ss.ss_family == AF_INET6)
		r = setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &tos,
		    sizeof(tos));
	if (r != 0)
		log_error("setsockopt %s %d: %s", ss.ss_family == AF_INET ?
		    "IP_TOS" : "IPV6_TCLASS", tos, strerror(errno));
}
