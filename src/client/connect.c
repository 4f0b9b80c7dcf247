/*
 * connect.c: TCP connection and ProxyCommand for ssh(1).
 *
 * TCP: getaddrinfo() on the host name, then each address in turn with a
 * non-blocking connect() and poll() bounded by ConnectTimeout; the first
 * that answers wins. ProxyCommand: the command, with its %-tokens
 * expanded, runs as "exec CMD" under /bin/sh -c; two pipes carry the
 * stream, and the child ignores SIGINT like OpenSSH's proxy so ^C reaches
 * the session instead. With ProxyUseFdpass the command passes a socket
 * it connected back to us instead, and exits.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "connect.h"
#include "sbuf.h"
#include "err.h"
#include "fdio.h"
#include "log.h"
#include "mem.h"

/* A connect failure of ours with no errno to name (*errp below). */
#define CONN_ERR_OURS	(-1)

char *
client_peer_desc(int fd_in, int fd_out)
{
	struct sockaddr_storage ss;
	struct sockaddr_in sin;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t len = sizeof(ss);
	char host[NI_MAXHOST], port[NI_MAXSERV];

	memset(&ss, 0, sizeof(ss));
	if (fd_in != fd_out ||
	    getpeername(fd_in, (struct sockaddr *)&ss, &len) == -1 ||
	    (ss.ss_family != AF_INET && ss.ss_family != AF_INET6))
		return x_strdup("UNKNOWN port 65535");
	if (ss.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_port = sin6->sin6_port;
		memcpy(&sin.sin_addr, &sin6->sin6_addr.s6_addr[12], 4);
		memcpy(&ss, &sin, sizeof(sin));
		len = sizeof(sin);
	}
	if (getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host),
	    port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		return x_strdup("UNKNOWN port 65535");
	return x_asprintf("%s port %s", host, port);
}

int
client_peer_is_local(int fd)
{
	struct sockaddr_storage ss;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)&ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)&ss;
	socklen_t len = sizeof(ss);

	memset(&ss, 0, sizeof(ss));
	if (getpeername(fd, (struct sockaddr *)&ss, &len) == -1)
		return 0;
	if (ss.ss_family == AF_INET)
		return (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
	if (ss.ss_family != AF_INET6)
		return 0;
	if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr))
		return sin6->sin6_addr.s6_addr[12] == 127;
	return IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr);
}

/*
 * An address of interface ifname in family af (an IPv6 one not
 * link-local, which would need a scope): 0 and *ss; ERR_NOT_FOUND when
 * the interface has none, ERR_SYSTEM when the list cannot be had.
 */
static int
iface_addr(const char *ifname, int af, struct sockaddr_storage *ss,
    socklen_t *lenp)
{
	struct ifaddrs *ifs, *i;
	const struct sockaddr_in6 *s6;
	int r = ERR_NOT_FOUND;

	if (getifaddrs(&ifs) == -1) {
		log_error("getifaddrs: %s: %s", ifname, strerror(errno));
		return ERR_SYSTEM;
	}
	for (i = ifs; i != NULL && r != 0; i = i->ifa_next) {
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != af ||
		    strcmp(i->ifa_name, ifname) != 0)
			continue;
		if (af == AF_INET6) {
			s6 = (const struct sockaddr_in6 *)(void *)i->ifa_addr;
			if (IN6_IS_ADDR_LINKLOCAL(&s6->sin6_addr))
				continue;
			*lenp = sizeof(struct sockaddr_in6);
		} else
			*lenp = sizeof(struct sockaddr_in);
		memset(ss, 0, sizeof(*ss));
		memcpy(ss, i->ifa_addr, *lenp);
		r = 0;
	}
	freeifaddrs(ifs);
	return r;
}

/*
 * BindAddress, else BindInterface (an address of that interface in the
 * family of the one we connect to, as OpenSSH picks it): bind fd there.
 * 0, or an error (logged) with *errp set for conn_err(): the errno, or
 * CONN_ERR_OURS when there was none.
 */
static int
bind_local(int fd, int af, const struct client_opts *o, int *errp)
{
	struct addrinfo hints, *b = NULL;
	struct sockaddr_storage ss;
	socklen_t len = 0;
	int r;

	if (o->bind_address != NULL) {
		memset(&hints, 0, sizeof(hints));
		hints.ai_family = af;
		hints.ai_socktype = SOCK_STREAM;
		hints.ai_flags = AI_PASSIVE;
		if (getaddrinfo(o->bind_address, NULL, &hints, &b) != 0 ||
		    bind(fd, b->ai_addr, b->ai_addrlen) == -1) {
			*errp = errno ? errno : EADDRNOTAVAIL;
			log_error("bind %s: %s", o->bind_address,
			    strerror(*errp));
			if (b != NULL)
				freeaddrinfo(b);
			return ERR_SYSTEM;
		}
		freeaddrinfo(b);
		return 0;
	}
	if (o->bind_interface == NULL)
		return 0;
	if ((r = iface_addr(o->bind_interface, af, &ss, &len)) != 0) {
		log_info("getifaddrs: %s: no suitable addresses",
		    o->bind_interface);
		*errp = CONN_ERR_OURS;	/* OpenSSH says "failure" */
		return r;
	}
	if (bind(fd, (struct sockaddr *)&ss, len) == -1) {
		*errp = errno;
		log_error("bind %s: %s", o->bind_interface, strerror(errno));
		return ERR_SYSTEM;
	}
	return 0;
}

/* A connect failure as ssh words it, from an errno or CONN_ERR_OURS. */
static const char *
conn_err(int err)
{
	if (err == ETIMEDOUT)
		return "Connection timed out";
	return err == CONN_ERR_OURS ? "failure" : strerror(err);
}

/*
 * Connect to one address, as connect(2) does: the connected socket, or
 * -1 with the reason in *errp (an errno, or CONN_ERR_OURS). A socket
 * number, not an error code: the caller tries the next address.
 */
static int
connect_one(const struct addrinfo *ai, const struct client_opts *o,
    int *errp)
{
	struct pollfd pfd;
	socklen_t sl = sizeof(int);
	int fd, fl, r, soerr = 0, timeout;

	if ((fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
	    ai->ai_protocol)) == -1) {
		*errp = errno;
		return -1;
	}
	if (bind_local(fd, ai->ai_family, o, errp) != 0) {
		close(fd);
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	r = connect(fd, ai->ai_addr, ai->ai_addrlen);
	if (r == -1 && errno != EINPROGRESS) {
		*errp = errno;
		close(fd);
		return -1;
	}
	if (r == -1) {
		timeout = o->connect_timeout > 0 ? o->connect_timeout * 1000 :
		    -1;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		while ((r = poll(&pfd, 1, timeout)) == -1 && errno == EINTR)
			;
		if (r == 0) {
			*errp = ETIMEDOUT;
			close(fd);
			return -1;
		}
		if (r == -1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr,
		    &sl) == -1 || soerr != 0) {
			*errp = soerr ? soerr : errno;
			close(fd);
			return -1;
		}
	}
	fcntl(fd, F_SETFL, fl);
	r = 1;
	if (o->tcp_keep_alive > 0)
		setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &r, sizeof(r));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &r, sizeof(r));
	return fd;
}

int
client_connect_tcp(const struct client_opts *o, const char *host, int port,
    int *fdp)
{
	struct addrinfo hints, *res = NULL, *ai;
	char portstr[16], addr[NI_MAXHOST];
	int fd = -1, gr, err = 0, attempt, attempts;

	*fdp = -1;
	attempts = o->connection_attempts > 0 ? o->connection_attempts : 1;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = o->address_family > 0 ? o->address_family :
	    AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(portstr, sizeof(portstr), "%d", port);
	if ((gr = getaddrinfo(host, portstr, &hints, &res)) != 0) {
		log_error("ssh: Could not resolve hostname %s: %s", host,
		    gai_strerror(gr));
		return ERR_NOT_FOUND;
	}
	/* ConnectionAttempts: every address again, a second apart. */
	for (attempt = 0; fd == -1 && attempt < attempts; attempt++) {
		if (attempt > 0) {
			sleep(1);
			log_debug("Trying again...");
		}
		for (ai = res; ai != NULL; ai = ai->ai_next) {
			if (getnameinfo(ai->ai_addr, ai->ai_addrlen, addr,
			    sizeof(addr), NULL, 0, NI_NUMERICHOST) != 0)
				strcpy(addr, "?");
			log_debug("Connecting to %s [%s] port %d.", host,
			    addr, port);
			if ((fd = connect_one(ai, o, &err)) != -1)
				break;
			log_debug("connect to address %s port %d: %s", addr,
			    port, conn_err(err));
		}
	}
	freeaddrinfo(res);
	if (fd == -1) {
		log_error("ssh: connect to host %s port %d: %s", host, port,
		    conn_err(err));
		return err == ETIMEDOUT ? ERR_CONN_TIMEOUT : ERR_SYSTEM;
	}
	log_debug("Connection established.");
	*fdp = fd;
	return 0;
}

/*
 * One descriptor sent over sock with SCM_RIGHTS (and at least one byte
 * of data): it, or -1 (logged). Anything but exactly one descriptor in
 * one well-formed control message is refused.
 */
static int
recv_passed_fd(int sock)
{
	int fd, r;

	if ((r = fd_recv_fd(sock, -1, &fd)) == 0)
		return fd;
	if (r == ERR_SYSTEM)
		log_error("recvmsg: %s", strerror(errno));
	else if (r == ERR_CONN_CLOSED)
		log_error("recvmsg: expected received 1 got 0");
	else
		log_error("recvmsg: no descriptor passed");
	return -1;
}

/*
 * ProxyUseFdpass: the command gets one end of a socket pair as its
 * stdin and stdout, connects, passes the connected socket back over it
 * and exits; we wait for it and talk over that socket.
 */
static int
proxy_fdpass(const char *full, int *fdp)
{
	int sp[2], fd, st;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1) {
		log_error("socketpair: %s", strerror(errno));
		return ERR_SYSTEM;
	}
	if ((pid = fork()) == -1) {
		log_error("fork: %s", strerror(errno));
		close(sp[0]);
		close(sp[1]);
		return ERR_SYSTEM;
	}
	if (pid == 0) {
		if (dup2(sp[1], STDIN_FILENO) == -1 ||
		    dup2(sp[1], STDOUT_FILENO) == -1)
			_exit(255);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", full, (char *)NULL);
		fprintf(stderr, "exec /bin/sh: %s\n", strerror(errno));
		_exit(1);
	}
	close(sp[1]);
	fd = recv_passed_fd(sp[0]);
	close(sp[0]);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR) {
			log_error("Couldn't wait for child: %s",
			    strerror(errno));
			break;
		}
	if (fd == -1) {
		log_error("proxy dialer did not pass back a connection");
		return ERR_SYSTEM;
	}
	*fdp = fd;
	return 0;
}

int
client_connect_proxy(const struct client_opts *o, const char *cmd,
    int *fd_inp, int *fd_outp, pid_t *pidp)
{
	int to_child[2] = { -1, -1 }, from_child[2] = { -1, -1 }, r;
	char *ex = NULL, *full;
	pid_t pid;

	*fd_inp = *fd_outp = -1;
	*pidp = -1;
	if ((r = readconf_expand(o, cmd, &ex)) != 0)
		return r;
	full = x_asprintf("exec %s", ex);
	x_free(ex);
	if (o->proxy_use_fdpass > 0) {
		log_debug("Executing proxy dialer command: %.500s", full);
		r = proxy_fdpass(full, fd_inp);
		x_free(full);
		if (r == 0)
			*fd_outp = *fd_inp;
		return r;
	}
	log_debug("Executing proxy command: %s", full);
	if (pipe2(to_child, O_CLOEXEC) == -1 ||
	    pipe2(from_child, O_CLOEXEC) == -1) {
		r = ERR_SYSTEM;
		goto fail;
	}
	if ((pid = fork()) == -1) {
		r = ERR_SYSTEM;
		goto fail;
	}
	if (pid == 0) {
		if (dup2(to_child[0], STDIN_FILENO) == -1 ||
		    dup2(from_child[1], STDOUT_FILENO) == -1)
			_exit(255);
		signal(SIGINT, SIG_IGN);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", full, (char *)NULL);
		fprintf(stderr, "exec /bin/sh: %s\n", strerror(errno));
		_exit(255);
	}
	close(to_child[0]);
	close(from_child[1]);
	x_free(full);
	*fd_inp = from_child[0];
	*fd_outp = to_child[1];
	*pidp = pid;
	return 0;
 fail:
	log_error("proxy command: %s", strerror(errno));
	if (to_child[0] != -1) {
		close(to_child[0]);
		close(to_child[1]);
	}
	if (from_child[0] != -1) {
		close(from_child[0]);
		close(from_child[1]);
	}
	x_free(full);
	return r;
}

/* Append s to b in single quotes, safe for sh -c. */
static void
put_quoted(struct sbuf *b, const char *s)
{
	sbuf_put_u8(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			sbuf_putf(b, "'\\''");
		else
			sbuf_put_u8(b, (uint8_t)*s);
	}
	sbuf_put_u8(b, '\'');
}

/*
 * ProxyJump "[user@]host[:port][,...]" becomes the ProxyCommand
 * "SELF [-F file] [-v...] [-J earlier-hops] [-l user] [-p port]
 * -W '[%h]:%p' last-hop", as OpenSSH builds it: the last jump host is
 * reached through the ones before it, and the target through the last.
 * SELF is this very program (/proc/self/exe), never whatever "ssh" is
 * first on PATH.
 */
int
client_proxyjump_command(const struct client_opts *o, const char *self,
    const char *config_file, int verbose, char **cmdp)
{
	char exe[4096], *spec, *last, *user = NULL, *host, *port = NULL, *p;
	struct sbuf *b;
	ssize_t n;
	int i;

	*cmdp = NULL;
	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0)
		exe[n] = '\0';
	else
		snprintf(exe, sizeof(exe), "%s", self);
	spec = x_strdup(o->proxy_jump);
	if ((last = strrchr(spec, ',')) != NULL)
		*last++ = '\0';
	else
		last = spec;
	host = last;
	if ((p = strrchr(host, '@')) != NULL) {
		*p = '\0';
		user = host;
		host = p + 1;
	}
	if (*host == '[') {			/* [v6addr]:port */
		host++;
		if ((p = strchr(host, ']')) == NULL)
			goto bad;
		*p++ = '\0';
		if (*p == ':')
			port = p + 1;
		else if (*p != '\0')
			goto bad;
	} else if ((p = strchr(host, ':')) != NULL) {
		*p = '\0';
		port = p + 1;
	}
	if (*host == '\0' || (user != NULL && *user == '\0') ||
	    (port != NULL && (*port == '\0' ||
	    strspn(port, "0123456789") != strlen(port))))
		goto bad;
	b = sbuf_new();
	put_quoted(b, exe);
	if (config_file != NULL) {
		sbuf_putf(b, " -F ");
		put_quoted(b, config_file);
	}
	for (i = 0; i < verbose && i < 3; i++)
		sbuf_putf(b, " -v");
	if (last != spec) {
		sbuf_putf(b, " -J ");
		put_quoted(b, spec);
	}
	if (user != NULL) {
		sbuf_putf(b, " -l ");
		put_quoted(b, user);
	}
	if (port != NULL)
		sbuf_putf(b, " -p %s", port);
	sbuf_putf(b, " -W '[%%h]:%%p' ");
	put_quoted(b, host);
	*cmdp = x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
	sbuf_free(b);
	x_free(spec);
	return 0;
 bad:
	log_error("ssh: bad ProxyJump specification \"%s\"", o->proxy_jump);
	x_free(spec);
	return ERR_INVALID_ARGUMENT;
}

