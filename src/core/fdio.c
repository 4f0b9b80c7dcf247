/*
 * fdio.c: whole-buffer reads and writes (see fdio.h).
 */
#include <sys/socket.h>

#include <netinet/in.h>
#include <errno.h>
#include <poll.h>
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

/* Until sock is readable: 0, or ERR_SYSTEM (ETIMEDOUT after ms). */
static int
wait_readable(int sock, int ms)
{
	struct pollfd pfd;
	int n;

	pfd.fd = sock;
	pfd.events = POLLIN;
	pfd.revents = 0;
	while ((n = poll(&pfd, 1, ms)) == -1 && errno == EINTR)
		;
	if (n == 0) {
		errno = ETIMEDOUT;
		return ERR_SYSTEM;
	}
	return n < 0 ? ERR_SYSTEM : 0;
}

/* Close what a refused control message brought in. */
static void
close_passed(struct msghdr *msg)
{
	struct cmsghdr *c;
	size_t i, n;
	int fd;

	for (c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0))
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (fd >= 0)
				close(fd);
		}
	}
}

int
fd_recv_fd(int sock, int ms, int *fdp)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct msghdr msg;
	struct iovec iov;
	struct cmsghdr *c;
	char byte;
	ssize_t n;
	int r;

	*fdp = -1;
	for (;;) {
		memset(&msg, 0, sizeof(msg));
		memset(&cm, 0, sizeof(cm));
		iov.iov_base = &byte;
		iov.iov_len = 1;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cm.buf;
		msg.msg_controllen = sizeof(cm.buf);
		if ((n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC)) >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return ERR_SYSTEM;
		if ((r = wait_readable(sock, ms)) != 0)
			return r;
	}
	if (n == 0)
		return ERR_CONN_CLOSED;
	c = CMSG_FIRSTHDR(&msg);
	/* (With MSG_CTRUNC the kernel closed what did not fit.) */
	if ((msg.msg_flags & MSG_CTRUNC) != 0 || c == NULL ||
	    c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int))) {
		close_passed(&msg);
		return ERR_INVALID_FORMAT;
	}
	memcpy(fdp, CMSG_DATA(c), sizeof(int));
	return *fdp >= 0 ? 0 : ERR_INVALID_FORMAT;
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
