/*
 * loop.c: ssh-agent's socket and its one event loop. The listening Unix
 * socket is made under umask 0177 (mode 0600; its directory, when the
 * agent made it, is 0700). Every accepted connection is non-blocking and
 * checked with SO_PEERCRED: only root and the agent's own uid may talk
 * to it, as in OpenSSH. One poll() serves the listener and every client;
 * a client's bytes go to agentd_input(), its answers wait in its output
 * buffer until the socket takes them. A client that sends a malformed or
 * oversized request, or stops reading its answers while sending more
 * (its output past a bound: it is no longer read until it drains), only
 * affects itself. Keys with a lifetime are dropped when it is over: the
 * poll timeout is the time to the next one.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "sshagent.h"

#define MAX_CLIENTS	1000
#define READ_CHUNK	16384
#define OUT_HIGH	AGENTD_OUT_MAX		/* stop reading past this */
#define PARENT_CHECK	10			/* seconds, with a command */

struct client {
	int fd;
	struct agentd_conn *conn;
	struct sbuf *out;
};

static volatile sig_atomic_t stop_signal;

void
agent_loop_stop(int sig)
{
	stop_signal = sig;
}

int
agent_listen(const char *path, int *fdp)
{
	struct sockaddr_un sun;
	mode_t old;
	int fd, saved;

	*fdp = -1;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return ERR_SYSTEM;
	}
	memcpy(sun.sun_path, path, strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, 0)) < 0)
		return ERR_SYSTEM;
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		saved = errno;
		umask(old);
		close(fd);
		errno = saved;
		return ERR_SYSTEM;
	}
	umask(old);
	if (listen(fd, SOMAXCONN) != 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return ERR_SYSTEM;
	}
	*fdp = fd;
	return 0;
}

static void
client_close(struct client *cl)
{
	close(cl->fd);
	agentd_conn_free(cl->conn);
	sbuf_wipe(cl->out);
	sbuf_free(cl->out);
	memset(cl, 0, sizeof(*cl));
	cl->fd = -1;
}

/*
 * Accept one client; refuse another uid than ours (root may come).
 * 0 when there was no one left to accept.
 */
static int
accept_one(int lfd, struct client *cls, size_t *ncl)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct client *cl;
	int fd;

	if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) < 0) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_error("accept from AUTH_SOCKET: %s",
			    strerror(errno));
		return 0;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
		log_error("getpeereid %d failed: %s", fd, strerror(errno));
		close(fd);
		return 1;
	}
	if (cred.uid != 0 && cred.uid != getuid()) {
		log_error("uid mismatch: peer euid %u != uid %u",
		    (unsigned)cred.uid, (unsigned)getuid());
		close(fd);
		return 1;
	}
	cl = &cls[(*ncl)++];
	cl->fd = fd;
	cl->conn = agentd_conn_new();
	cl->out = sbuf_new();
	log_debug("new connection on fd %d", fd);
	return 1;
}

/* Read what the client sent and handle it; 0 keeps the client. */
static int
client_read(struct agentd *a, struct client *cl)
{
	unsigned char buf[READ_CHUNK];
	ssize_t n;
	int r;

	n = read(cl->fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -1;
	r = agentd_input(a, cl->conn, buf, (size_t)n, cl->out);
	x_wipe(buf, (size_t)n);
	if (r != 0) {
		log_debug("client on fd %d: %s; closing", cl->fd, err_str(r));
		return -1;
	}
	return 0;
}

/* Send what the socket takes; then handle requests that waited. */
static int
client_write(struct agentd *a, struct client *cl)
{
	ssize_t n;

	n = send(cl->fd, sbuf_ptr(cl->out), sbuf_len(cl->out), MSG_NOSIGNAL);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -1;
	(void)sbuf_consume(cl->out, (size_t)n);
	if (sbuf_len(cl->out) == 0)
		sbuf_wipe(cl->out);
	if (sbuf_len(cl->out) < OUT_HIGH && agentd_conn_pending(cl->conn) > 0 &&
	    agentd_input(a, cl->conn, NULL, 0, cl->out) != 0)
		return -1;
	return 0;
}

/* Poll timeout in ms: the next key to expire, or the parent check. */
static int
poll_timeout(struct agent_loop *l)
{
	long secs = agentd_expire(l->store);

	if (l->watch_parent > 0 && (secs < 0 || secs > PARENT_CHECK))
		secs = PARENT_CHECK;
	if (secs < 0)
		return -1;
	return (int)(secs > 86400 ? 86400 : secs) * 1000 + 100;
}

/*
 * Wait for events with the stopping signals let through only while
 * waiting, so one that comes just before the wait is not missed.
 */
static int
wait_events(struct agent_loop *l, struct pollfd *pfd, size_t n,
    const sigset_t *waitmask)
{
	struct timespec ts, *tsp = NULL;
	int ms = poll_timeout(l);

	if (ms >= 0) {
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (long)(ms % 1000) * 1000000L;
		tsp = &ts;
	}
	return ppoll(pfd, n, tsp, waitmask);
}

/* One poll and what it found; 1 when the listener has clients. */
static int
serve_turn(struct agent_loop *l, struct client *cls, size_t *ncl,
    struct pollfd *pfd, const sigset_t *waitmask)
{
	size_t i, np = 0, lslot;
	short rev;

	for (i = 0; i < *ncl; i++) {
		pfd[np].fd = cls[i].fd;
		pfd[np].events = sbuf_len(cls[i].out) < OUT_HIGH ? POLLIN : 0;
		if (sbuf_len(cls[i].out) > 0)
			pfd[np].events |= POLLOUT;
		pfd[np++].revents = 0;
	}
	lslot = np;
	pfd[np].fd = *ncl < MAX_CLIENTS ? l->listen_fd : -1;
	pfd[np].events = POLLIN;
	pfd[np].revents = 0;
	if (wait_events(l, pfd, np + 1, waitmask) <= 0)
		return 0;
	for (i = 0; i < np; i++) {
		rev = pfd[i].revents;
		if (rev == 0)
			continue;
		if (((rev & POLLOUT) && client_write(l->store, &cls[i]) != 0) ||
		    ((rev & (POLLIN | POLLHUP | POLLERR)) &&
		    client_read(l->store, &cls[i]) != 0))
			client_close(&cls[i]);
	}
	/* Drop closed clients, keeping the others in order. */
	for (i = 0, np = 0; i < *ncl; i++) {
		if (cls[i].fd >= 0)
			cls[np++] = cls[i];
	}
	*ncl = np;
	return (pfd[lslot].revents & POLLIN) != 0;
}

int
agent_loop_run(struct agent_loop *l)
{
	struct client *cls = x_calloc(MAX_CLIENTS, sizeof(*cls));
	struct pollfd *pfd = x_calloc(MAX_CLIENTS + 1, sizeof(*pfd));
	sigset_t stops, waitmask;
	size_t ncl = 0, i;
	int n;

	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigaddset(&stops, SIGINT);
	sigprocmask(SIG_BLOCK, &stops, &waitmask);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGHUP);
	sigdelset(&waitmask, SIGINT);
	while (!stop_signal) {
		if (serve_turn(l, cls, &ncl, pfd, &waitmask)) {
			for (n = 0; n < 16 && ncl < MAX_CLIENTS; n++) {
				if (!accept_one(l->listen_fd, cls, &ncl))
					break;
			}
		}
		if (l->watch_parent > 0 && getppid() != l->watch_parent) {
			log_debug("Parent has died - Authentication agent "
			    "exiting.");
			break;
		}
	}
	for (i = 0; i < ncl; i++)
		client_close(&cls[i]);
	x_free(cls);
	x_free(pfd);
	return 0;
}
