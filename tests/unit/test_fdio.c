/*
 * test_fdio.c: fd_recv_fd(), a descriptor passed with SCM_RIGHTS: the
 * one passed works and is close-on-exec; end of file, a byte without a
 * descriptor and a message with two are told apart, and the refused
 * descriptors are closed, not left open; a non-blocking socket waits
 * up to its limit and then says ETIMEDOUT.
 */
#include <sys/socket.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "fdio.h"
#include "testlib.h"

/* Send one byte with n descriptors (0 to 2) over sock. */
static int
send_fds(int sock, const int *fds, size_t n)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} cm;
	struct msghdr msg;
	struct iovec iov;
	struct cmsghdr *c;
	char byte = 'x';

	memset(&msg, 0, sizeof(msg));
	memset(&cm, 0, sizeof(cm));
	iov.iov_base = &byte;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (n > 0) {
		msg.msg_control = cm.buf;
		msg.msg_controllen = CMSG_SPACE(n * sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(n * sizeof(int));
		memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	}
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static void
test_passed_fd(void)
{
	int sp[2], p[2], fd = -1;
	char buf[4] = "";

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	CHECK(pipe(p) == 0);
	CHECK(send_fds(sp[1], &p[1], 1) == 0);
	close(p[1]);
	CHECK_OK(fd_recv_fd(sp[0], -1, &fd));
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK((fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
		CHECK(write(fd, "abc", 3) == 3);
		close(fd);
		CHECK(read(p[0], buf, 3) == 3 && memcmp(buf, "abc", 3) == 0);
	}
	close(p[0]);
	/* End of file. */
	close(sp[1]);
	CHECK_ERR(fd_recv_fd(sp[0], -1, &fd), ERR_CONN_CLOSED);
	CHECK(fd == -1);
	close(sp[0]);
}

static void
test_refused(void)
{
	int sp[2], p[2], fd = 7, before;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	CHECK(pipe(p) == 0);
	/* A byte alone. */
	CHECK(send_fds(sp[1], NULL, 0) == 0);
	CHECK_ERR(fd_recv_fd(sp[0], -1, &fd), ERR_INVALID_FORMAT);
	CHECK(fd == -1);
	/* Two at once: refused, and nothing of them stays open here. */
	before = open_fds();
	CHECK(send_fds(sp[1], p, 2) == 0);
	CHECK_ERR(fd_recv_fd(sp[0], -1, &fd), ERR_INVALID_FORMAT);
	CHECK(fd == -1);
	CHECK(before > 0 && open_fds() == before);
	close(p[0]);
	close(p[1]);
	close(sp[0]);
	close(sp[1]);
}

static void
test_timeout(void)
{
	pid_t pid;
	int sp[2], fd, st = -1;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sp) == 0);
	errno = 0;
	CHECK_ERR(fd_recv_fd(sp[0], 50, &fd), ERR_SYSTEM);
	CHECK(errno == ETIMEDOUT && fd == -1);
	/* What arrives while it waits is taken. */
	if ((pid = fork()) == 0) {
		usleep(100000);
		_exit(send_fds(sp[1], &sp[1], 1) == 0 ? 0 : 1);
	}
	CHECK(pid > 0);
	CHECK_OK(fd_recv_fd(sp[0], 10000, &fd));
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && st == 0);
	close(sp[0]);
	close(sp[1]);
}

int
main(void)
{
	test_passed_fd();
	test_refused();
	test_timeout();
	return TEST_DONE();
}
