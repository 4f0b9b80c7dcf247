/*
 * fuzz_sys.h: what the server-side fuzz targets must not do for real,
 * replaced by definitions of the C library's own functions in the fuzz
 * program (an executable's definition takes precedence over the shared
 * C library's, and over the sanitizer's interceptors, which are weak).
 * Include it in one source file per program: it defines functions.
 *
 * No child processes: fork() and vfork() fail with EAGAIN, as when the
 * process limit is reached, so a session's exec/shell/subsystem runs all
 * its preparation (environment, pipes or pty, log lines) and then takes
 * the error path. The exec family and kill() abort: with no child ever
 * started, reaching them is a bug. (system() and posix_spawn() are left
 * alone: the code under test has no call to them, and libFuzzer's -merge
 * and -fork modes use them.)
 *
 * No network: socket() of a stream socket in any family gives one end of
 * a socketpair(); the other end stays here, so no address is ever bound,
 * listened on or connected to. bind() and connect() pretend, by rules
 * the input steers through the port number or path it asks for:
 *   TCP connect: port % 4 == 0 connects at once, 2 is "in progress" and
 *   then connected, odd is refused. Unix connect: a path of even length
 *   connects, odd is refused (ENOENT).
 *   TCP bind: a port that is a multiple of 5 is "in use"; port 0 gets
 *   the next of 50001, 50002, 50003, 50004, 50006, ... Unix bind: fails
 *   if the path exists.
 *   listen() leaves one connection waiting on the listener, so accept()
 *   hands out one connected socket per listener and then EAGAIN.
 * Every connected socket (made by connect or accept) finds a greeting
 * waiting to be read, so data flows towards the client as well.
 * getsockname()/getpeername() answer 127.0.0.1 (::1) and the ports above
 * for these sockets. getaddrinfo() resolves numeric addresses only
 * ("localhost" counts as 127.0.0.1): no DNS query ever leaves.
 * lstat() shows a socket at a path one of them is bound to. unlink()
 * does nothing outside the program's scratch directory (fz_sys_scratch):
 * a fuzzed socket path never removes a real file.
 * innetgr() answers no (no NIS).
 *
 * No tunnel devices: ioctl(TUNSETIFF) on a /dev/net/tun descriptor turns
 * it into one end of a SOCK_SEQPACKET pair instead (a packet per read
 * and per write, as a device gives), with an IPv4-looking packet waiting
 * to be read, and names it "tun0"; every other request goes to the
 * kernel.
 *
 * fz_sys_end_input() closes the ends kept here and checks that the code
 * under test closed everything it opened during the input: any file
 * descriptor that was not open before the first input is a leak and
 * aborts.
 */
#ifndef MOAT_FUZZ_SYS_H
#define MOAT_FUZZ_SYS_H

#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/un.h>

#include <linux/if.h>
#include <linux/if_tun.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netdb.h>
#include <sanitizer/common_interface_defs.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FZ_MAXFD	1024
#define FZ_GREETING	"SSH-2.0-fuzz peer\r\n"

/* Per fd of ours: the other end (-1: not ours) and what it pretends. */
static struct fz_sock {
	int peer;
	int family;
	int port;
	char path[108];
	int bound;
	int listening;
} fz_socks[FZ_MAXFD];
static int fz_sys_ready;
static int fz_next_port = 50001;
static unsigned char fz_fd_before[FZ_MAXFD];	/* open before any input */
static char fz_sys_scratch[256];	/* unlink() works below this */

static void
fz_sys_init(void)
{
	int i;

	for (i = 0; i < FZ_MAXFD; i++)
		fz_socks[i].peer = -1;
	fz_sys_ready = 1;
}

static void
fz_die(const char *what)
{
	fprintf(stderr, "fuzz: %s called under the fuzzer\n", what);
	abort();
}

/* ---- no children ---- */

pid_t
fork(void)
{
	errno = EAGAIN;
	return -1;
}

pid_t
vfork(void)
{
	errno = EAGAIN;
	return -1;
}

int execve(const char *p, char *const a[], char *const e[])
{ fz_die("execve"); return -1; }
int execv(const char *p, char *const a[]) { fz_die("execv"); return -1; }
int execvp(const char *p, char *const a[]) { fz_die("execvp"); return -1; }
int execl(const char *p, const char *a, ...) { fz_die("execl"); return -1; }
int execlp(const char *p, const char *a, ...) { fz_die("execlp"); return -1; }
int execle(const char *p, const char *a, ...) { fz_die("execle"); return -1; }
int kill(pid_t pid, int sig) { fz_die("kill"); return -1; }

/* ---- no network ---- */

static struct fz_sock *
fz_sock(int fd)
{
	if (fd < 0 || fd >= FZ_MAXFD || fz_socks[fd].peer == -1)
		return NULL;
	return &fz_socks[fd];
}

static void
fz_forget(int fd)
{
	if (fz_socks[fd].peer != -1) {
		close(fz_socks[fd].peer);
		fz_socks[fd].peer = -1;
	}
}

/* A connected pair; ours is returned, the other end kept. */
static int
fz_pair(int family, int flags, int greet)
{
	int sp[2];

	if (!fz_sys_ready)
		fz_sys_init();
	if (socketpair(AF_UNIX, SOCK_STREAM | flags, 0, sp) != 0)
		return -1;
	if (sp[0] >= FZ_MAXFD || sp[1] >= FZ_MAXFD) {
		close(sp[0]);
		close(sp[1]);
		errno = EMFILE;
		return -1;
	}
	/*
	 * A number the code under test closed and the kernel gave out
	 * again: close the other end we kept for its old socket.
	 */
	fz_forget(sp[0]);
	fz_forget(sp[1]);
	(void)fcntl(sp[1], F_SETFL, O_NONBLOCK);
	(void)fcntl(sp[1], F_SETFD, FD_CLOEXEC);
	memset(&fz_socks[sp[0]], 0, sizeof(fz_socks[sp[0]]));
	fz_socks[sp[0]].peer = sp[1];
	fz_socks[sp[0]].family = family;
	if (greet)
		(void)write(sp[1], FZ_GREETING, sizeof(FZ_GREETING) - 1);
	return sp[0];
}

int
socket(int domain, int type, int protocol)
{
	if ((domain != AF_INET && domain != AF_INET6 && domain != AF_UNIX) ||
	    (type & 0xf) != SOCK_STREAM) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	return fz_pair(domain, type & (SOCK_NONBLOCK | SOCK_CLOEXEC), 0);
}

static int
fz_tun(int fd, struct ifreq *ifr)
{
	static const unsigned char pkt[] = {
		0x45, 0, 0, 20, 0, 0, 0, 0, 64, 1, 0, 0, 10, 0, 0, 2,
		10, 0, 0, 1,
	};
	int sp[2];

	if (!fz_sys_ready)
		fz_sys_init();
	if (fd < 0 || fd >= FZ_MAXFD ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp) != 0)
		return -1;
	if (sp[1] >= FZ_MAXFD || dup2(sp[0], fd) == -1) {
		close(sp[0]);
		close(sp[1]);
		errno = EBUSY;
		return -1;
	}
	close(sp[0]);
	fz_forget(fd);
	fz_forget(sp[1]);
	(void)fcntl(sp[1], F_SETFL, O_NONBLOCK);
	(void)fcntl(sp[1], F_SETFD, FD_CLOEXEC);
	memset(&fz_socks[fd], 0, sizeof(fz_socks[fd]));
	fz_socks[fd].peer = sp[1];
	fz_socks[fd].family = AF_UNIX;
	(void)write(sp[1], pkt, sizeof(pkt));
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "tun0");
	return 0;
}

int
ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == TUNSETIFF)
		return fz_tun(fd, arg);
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

static int
fz_addr_port(const struct sockaddr *sa, socklen_t len)
{
	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in))
		return ntohs(((const struct sockaddr_in *)(const void *)sa)->
		    sin_port);
	if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6))
		return ntohs(((const struct sockaddr_in6 *)(const void *)sa)->
		    sin6_port);
	return -1;
}

static const char *
fz_addr_path(const struct sockaddr *sa, socklen_t len, char *buf,
    size_t blen)
{
	const struct sockaddr_un *sun = (const void *)sa;
	size_t n;

	if (sa->sa_family != AF_UNIX || len <= offsetof(struct sockaddr_un,
	    sun_path))
		return NULL;
	n = strnlen(sun->sun_path, len - offsetof(struct sockaddr_un,
	    sun_path));
	if (n >= blen)
		n = blen - 1;
	memcpy(buf, sun->sun_path, n);
	buf[n] = '\0';
	return buf;
}

int
bind(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct fz_sock *s = fz_sock(fd);
	struct stat st;
	char path[sizeof(s->path)];
	int port;

	if (s == NULL) {
		errno = ENOTSOCK;
		return -1;
	}
	if (sa->sa_family == AF_UNIX) {
		if (fz_addr_path(sa, len, path, sizeof(path)) == NULL) {
			errno = EINVAL;
			return -1;
		}
		if (lstat(path, &st) == 0) {
			errno = EADDRINUSE;
			return -1;
		}
		strcpy(s->path, path);
		s->bound = 1;
		return 0;
	}
	if ((port = fz_addr_port(sa, len)) < 0) {
		errno = EINVAL;
		return -1;
	}
	if (port != 0 && port % 5 == 0) {
		errno = EADDRINUSE;
		return -1;
	}
	if (port == 0) {
		port = fz_next_port++;
		if (fz_next_port % 5 == 0)	/* those are "in use" */
			fz_next_port++;
	}
	s->port = port;
	s->bound = 1;
	return 0;
}

int
listen(int fd, int backlog)
{
	struct fz_sock *s = fz_sock(fd);

	if (s == NULL) {
		errno = ENOTSOCK;
		return -1;
	}
	if (!s->listening)
		(void)write(s->peer, "c", 1);	/* one client waiting */
	s->listening = 1;
	return 0;
}

int
accept4(int fd, struct sockaddr *sa, socklen_t *lenp, int flags)
{
	struct fz_sock *s = fz_sock(fd);
	char c;
	int nfd;

	if (s == NULL || !s->listening) {
		errno = s == NULL ? ENOTSOCK : EINVAL;
		return -1;
	}
	if (recv(fd, &c, 1, MSG_DONTWAIT) != 1) {
		errno = EAGAIN;
		return -1;
	}
	if ((nfd = fz_pair(s->family, flags & (SOCK_NONBLOCK | SOCK_CLOEXEC),
	    1)) == -1)
		return -1;
	fz_socks[nfd].port = 40000 + nfd;
	if (sa != NULL && lenp != NULL)
		*lenp = 0;
	return nfd;
}

int
accept(int fd, struct sockaddr *sa, socklen_t *lenp)
{
	return accept4(fd, sa, lenp, 0);
}

int
connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct fz_sock *s = fz_sock(fd);
	char path[sizeof(s->path)];
	int port;

	if (s == NULL) {
		errno = ENOTSOCK;
		return -1;
	}
	if (sa->sa_family == AF_UNIX) {
		if (fz_addr_path(sa, len, path, sizeof(path)) == NULL ||
		    strlen(path) % 2 == 1) {
			errno = ENOENT;
			return -1;
		}
		strcpy(s->path, path);
		(void)write(s->peer, FZ_GREETING, sizeof(FZ_GREETING) - 1);
		return 0;
	}
	if ((port = fz_addr_port(sa, len)) < 0) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (port % 2 == 1) {
		errno = ECONNREFUSED;
		return -1;
	}
	s->port = 40000 + fd;
	(void)write(s->peer, FZ_GREETING, sizeof(FZ_GREETING) - 1);
	if (port % 4 == 0)
		return 0;
	errno = EINPROGRESS;
	return -1;
}

static int
fz_fill_name(const struct fz_sock *s, int port, struct sockaddr *sa,
    socklen_t *lenp)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;

	memset(&ss, 0, sizeof(ss));
	if (s->family == AF_INET) {
		struct sockaddr_in *in = (void *)&ss;

		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*in);
	} else if (s->family == AF_INET6) {
		struct sockaddr_in6 *in6 = (void *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		in6->sin6_addr = in6addr_loopback;
		len = sizeof(*in6);
	} else {
		struct sockaddr_un *un = (void *)&ss;

		un->sun_family = AF_UNIX;
		strcpy(un->sun_path, s->path);
		len = sizeof(*un);
	}
	memcpy(sa, &ss, *lenp < len ? *lenp : len);
	*lenp = len;
	return 0;
}

int
getsockname(int fd, struct sockaddr *sa, socklen_t *lenp)
{
	struct fz_sock *s = fz_sock(fd);
	int (*real)(int, struct sockaddr *, socklen_t *);

	if (s != NULL)
		return fz_fill_name(s, s->port, sa, lenp);
	real = (int (*)(int, struct sockaddr *, socklen_t *))
	    dlsym(RTLD_NEXT, "getsockname");
	return real != NULL ? real(fd, sa, lenp) : -1;
}

int
getpeername(int fd, struct sockaddr *sa, socklen_t *lenp)
{
	struct fz_sock *s = fz_sock(fd);
	int (*real)(int, struct sockaddr *, socklen_t *);

	if (s != NULL)
		return fz_fill_name(s, 30000 + fd, sa, lenp);
	real = (int (*)(int, struct sockaddr *, socklen_t *))
	    dlsym(RTLD_NEXT, "getpeername");
	return real != NULL ? real(fd, sa, lenp) : -1;
}

int
getaddrinfo(const char *node, const char *service,
    const struct addrinfo *hints, struct addrinfo **res)
{
	int (*real)(const char *, const char *, const struct addrinfo *,
	    struct addrinfo **);
	struct addrinfo h;

	real = (int (*)(const char *, const char *, const struct addrinfo *,
	    struct addrinfo **))dlsym(RTLD_NEXT, "getaddrinfo");
	if (real == NULL)
		return EAI_FAIL;
	if (hints != NULL)
		h = *hints;
	else {
		memset(&h, 0, sizeof(h));
		h.ai_family = AF_UNSPEC;
	}
	h.ai_flags |= AI_NUMERICHOST;
	if (node != NULL && strcmp(node, "localhost") == 0)
		node = "127.0.0.1";
	return real(node, service, &h, res);
}

/* A path one of our sockets pretends to be bound at, as a socket. */
int
lstat(const char *path, struct stat *st)
{
	int (*real)(const char *, struct stat *);
	int fd;

	for (fd = 0; fz_sys_ready && fd < FZ_MAXFD; fd++) {
		if (fz_socks[fd].peer == -1 || fz_socks[fd].path[0] == '\0' ||
		    !fz_socks[fd].bound ||
		    strcmp(fz_socks[fd].path, path) != 0)
			continue;
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFSOCK | 0600;
		st->st_dev = 1;
		st->st_ino = (ino_t)(1000 + fd);
		st->st_uid = geteuid();
		st->st_nlink = 1;
		return 0;
	}
	real = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT,
	    "lstat");
	return real != NULL ? real(path, st) : -1;
}

int
innetgr(const char *netgroup, const char *host, const char *user,
    const char *domain)
{
	return 0;
}

int
unlink(const char *path)
{
	size_t n = strlen(fz_sys_scratch);
	int fd;

	/* A socket we pretended to bind there is gone. */
	for (fd = 0; fz_sys_ready && fd < FZ_MAXFD; fd++)
		if (fz_socks[fd].peer != -1 && fz_socks[fd].bound &&
		    strcmp(fz_socks[fd].path, path) == 0)
			fz_socks[fd].bound = 0;

	if (n > 0 && strncmp(path, fz_sys_scratch, n) == 0 &&
	    path[n] == '/' && strstr(path, "/../") == NULL)
		return (int)syscall(SYS_unlinkat, AT_FDCWD, path, 0);
	return 0;
}

/* ---- the scratch directory ---- */

static int
fz_rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	return remove(path);
}

static void
fz_rm_scratch(void)
{
	if (fz_sys_scratch[0] != '\0')
		(void)nftw(fz_sys_scratch, fz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Make fz_sys_scratch, removed again when the program exits. */
static void
fz_sys_make_scratch(void)
{
	snprintf(fz_sys_scratch, sizeof(fz_sys_scratch),
	    "/tmp/moat-fuzz-XXXXXX");
	if (mkdtemp(fz_sys_scratch) == NULL)
		abort();
	atexit(fz_rm_scratch);
}

/* ---- per input ---- */

/*
 * The descriptors open before the first input: the program's own (log,
 * eventfd) and whatever it inherited, at any number. Every other one
 * must be closed again by the end of each input, whatever its number.
 *
 * The sanitizer runtime keeps descriptors of its own: the first time it
 * names a code address (libFuzzer's NEW_FUNC lines, in the middle of a
 * run) it starts llvm-symbolizer and keeps two pipes to it for the rest
 * of the program. Those would count as a leak of whichever input came
 * next, so the symbolizer is started here, before the list is taken.
 */
static void
fz_sys_begin_input(void)
{
	static int known;
	char name[256];
	int fd;

	if (!fz_sys_ready)
		fz_sys_init();
	if (known)
		return;
	__sanitizer_symbolize_pc(__builtin_return_address(0), "%p %F %L",
	    name, sizeof(name));
	for (fd = 0; fd < FZ_MAXFD; fd++)
		fz_fd_before[fd] = fcntl(fd, F_GETFD) != -1;
	known = 1;
}

static void
fz_sys_end_input(void)
{
	struct dirent *e;
	DIR *d;
	int fd, leak = -1;

	for (fd = 0; fd < FZ_MAXFD; fd++) {
		if (fz_socks[fd].peer == -1)
			continue;
		close(fz_socks[fd].peer);
		fz_socks[fd].peer = -1;
	}
	fz_next_port = 50001;
	/* One directory read, not a thousand fcntl calls per input. */
	if ((d = opendir("/proc/self/fd")) == NULL)
		abort();
	while ((e = readdir(d)) != NULL && leak == -1) {
		if (e->d_name[0] == '.')
			continue;
		fd = atoi(e->d_name);
		if (fd != dirfd(d) && (fd >= FZ_MAXFD || !fz_fd_before[fd]))
			leak = fd;
	}
	closedir(d);
	if (leak != -1) {
		char link[64], target[256];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", leak);
		n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "fuzz: fd %d (%s) left open after the input\n",
		    leak, target);
		abort();
	}
}

#endif
