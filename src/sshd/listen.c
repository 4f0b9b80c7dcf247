/*
 * listen.c: sshd's listener. It accepts on every listening socket, forks
 * one connection process per connection, which executes sshd anew
 * (sshd.h: SSHD_REXEC_SOCK_FD), and enforces the limits kept per
 * source: PerSourcePenalties (penalty.h), MaxStartups and
 * PerSourceMaxStartups.
 *
 * Each connection process not yet authenticated has a slot in a table
 * sized by MaxStartups' "full" value. It holds the write end of a
 * startup pipe; once authenticated it writes the one byte
 * SSHD_STARTUP_AUTHENTICATED and closes it, and the listener forgets
 * it. Otherwise the pipe closes when the process ends, and the slot is
 * kept until the process is reaped: its wait status (exit code, or the
 * signal that killed it) decides the penalty its source earns. The
 * listener reads at most one byte from a child, ever, so a hostile
 * connection process can affect nothing but its own slot.
 *
 * A refused source costs a slot nothing: it is turned away right after
 * accept(), with OpenSSH's "Not allowed at this time" line, and its
 * drops are logged at a bounded rate.
 *
 * SIGCHLD, SIGHUP, SIGTERM and SIGINT are blocked except inside ppoll(),
 * so a child's exit is never missed between the reaping and the wait.
 * Once they are, the service manager hears READY=1 (notify.c), and
 * RELOADING=1 or STOPPING=1 when a signal ends the loop.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "log.h"
#include "mem.h"
#include "penalty.h"
#include "sshd.h"

struct conn_slot {
	int pipe;			/* startup pipe, read end; -1: closed */
	pid_t pid;			/* -1: nothing to wait for */
	struct sockaddr_storage addr;	/* the peer */
	socklen_t addrlen;		/* 0: not an IP peer */
	struct penalty_addr block;	/* addr masked: PerSourceNetBlockSize */
	char id[2 * INET6_ADDRSTRLEN + 24];	/* "connection from A to B" */
};

/* Log rate limiting for drops: a leaky bucket with a quiet period. */
struct ratelimit {
	unsigned int level;		/* events, leaking one a second */
	time_t last, last_over, last_report;
	int active;
	unsigned int dropped;		/* lines not logged since report */
};

#define RL_THRESHOLD	8	/* events in the bucket before limiting */
#define RL_MAX		30
#define RL_QUIET	30	/* seconds under threshold to end it */
#define RL_REPORT	120	/* seconds between summaries */

struct listen_ctx {
	struct server *s;
	struct listener *l;
	struct conn_slot *slots;
	size_t nslots;
	int unauth;			/* slots whose pipe is open */
	struct penalties *pen;
	struct ratelimit rl_penalty;
	sigset_t orig_mask;		/* restored in children */
};

static volatile sig_atomic_t got_sighup, got_sigterm;

static void
on_sigterm(int sig)
{
	(void)sig;
	got_sigterm = 1;
}

static void
on_sighup(int sig)
{
	(void)sig;
	got_sighup = 1;
}

static void
on_sigchld(int sig)
{
	(void)sig;
}

static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * 1 if this event's line is to be held back. *report: a count of lines
 * held back, to be summarised now (0: none).
 */
static int
ratelimit_hold(struct ratelimit *rl, time_t now, unsigned int *report)
{
	time_t gone = rl->last == 0 || now < rl->last ? 0 : now - rl->last;

	*report = 0;
	rl->level = gone >= (time_t)rl->level ? 0 :
	    rl->level - (unsigned int)gone;
	if (rl->level < RL_MAX)
		rl->level++;
	rl->last = now;
	if (rl->level >= RL_THRESHOLD)
		rl->last_over = now;
	if (!rl->active) {
		if (rl->level < RL_THRESHOLD)
			return 0;
		rl->active = 1;
		rl->last_report = now;
		rl->dropped = 1;
		return 1;
	}
	if (rl->level < RL_THRESHOLD && now - rl->last_over >= RL_QUIET) {
		rl->active = 0;
		*report = rl->dropped;
		rl->dropped = 0;
		return 0;
	}
	rl->dropped++;
	if (now - rl->last_report >= RL_REPORT) {
		*report = rl->dropped;
		rl->dropped = 0;
		rl->last_report = now;
	}
	return 1;
}

static void
slot_pipe_close(struct listen_ctx *lc, struct conn_slot *c)
{
	if (c->pipe == -1)
		return;
	close(c->pipe);
	c->pipe = -1;
	lc->unauth--;
}

static void
slot_clear(struct conn_slot *c)
{
	memset(c, 0, sizeof(*c));
	c->pipe = -1;
	c->pid = -1;
}

/*
 * Read the child's one message, or the end of its pipe. 1 if it has
 * authenticated (the slot is then free). With nothing there yet
 * (EAGAIN) the pipe stays open.
 */
static int
startup_read(struct listen_ctx *lc, struct conn_slot *c)
{
	unsigned char b;
	ssize_t n = read(c->pipe, &b, 1);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	slot_pipe_close(lc, c);
	if (n == 1 && b == SSHD_STARTUP_AUTHENTICATED) {
		log_debug2("server_accept_loop: child %ld for %s auth done",
		    (long)c->pid, c->id);
		slot_clear(c);
		return 1;
	}
	if (n == 1) {
		log_error("server_accept_loop: unexpected message 0x%02x "
		    "child %ld for %s", b, (long)c->pid, c->id);
		if (c->pid > 0)
			kill(c->pid, SIGTERM);
	} else
		log_debug3("server_accept_loop: child %ld for %s closed pipe",
		    (long)c->pid, c->id);
	return 0;
}

/* Log how a child that never authenticated ended; its penalty kind. */
static enum penalty_kind
log_child_end(const struct conn_slot *c, int status)
{
	long pid = (long)c->pid;

	if (WIFSIGNALED(status)) {
		log_msg(penalty_signal_is_crash(WTERMSIG(status)) ?
		    LOG_LEVEL_ERROR : LOG_LEVEL_DEBUG1,
		    "session process %ld for %s killed by signal %d", pid,
		    c->id, WTERMSIG(status));
	} else if (!WIFEXITED(status)) {
		log_error("session process %ld for %s terminated abnormally, "
		    "status=0x%x", pid, c->id, (unsigned int)status);
	} else switch (WEXITSTATUS(status)) {
	case 0:
		log_debug3("child_reap: preauth child %ld for %s completed "
		    "normally", pid, c->id);
		break;
	case SSHD_EXIT_LOGIN_GRACE:
		/* The child logged it already, in OpenSSH 9.2's words. */
		log_debug("Timeout before authentication for %s, pid = %ld",
		    c->id, pid);
		break;
	case SSHD_EXIT_CHILD_CRASH:
		log_info("Session process %ld unpriv child crash for %s",
		    pid, c->id);
		break;
	case SSHD_EXIT_AUTH_ATTEMPTED:
		log_debug("child_reap: preauth child %ld for %s exited after "
		    "unsuccessful auth attempt", pid, c->id);
		break;
	case SSHD_EXIT_INVALID_USER:
		log_debug("child_reap: preauth child %ld for %s exited after "
		    "auth attempt by invalid user", pid, c->id);
		break;
	default:
		log_debug("child_reap: preauth child %ld for %s exited with "
		    "status %d", pid, c->id, WEXITSTATUS(status));
		break;
	}
	return penalty_for_status(status);
}

/* A child has been reaped: penalise its source as it deserves. */
static void
child_ended(struct listen_ctx *lc, struct conn_slot *c, int status)
{
	enum penalty_kind kind;

	/* A success written just before it exited still counts. */
	if (c->pipe != -1 && startup_read(lc, c))
		return;
	slot_pipe_close(lc, c);	/* a grandchild may still hold it */
	kind = log_child_end(c, status);
	if (kind != PENALTY_NONE && c->addrlen != 0)
		penalties_add(lc->pen, (struct sockaddr *)&c->addr, c->addrlen,
		    now_us(), kind);
	slot_clear(c);
}

static void
reap_children(struct listen_ctx *lc)
{
	pid_t pid;
	size_t i;
	int status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < lc->nslots; i++)
			if (lc->slots[i].pid == pid) {
				child_ended(lc, &lc->slots[i], status);
				break;
			}
	}
}

/* MaxStartups start:rate:full: 1 if this new connection is dropped. */
static int
maxstartups_drop(const struct servconf *sc, int startups)
{
	unsigned int p, r;

	if (startups < sc->max_startups_begin)
		return 0;
	if (startups >= sc->max_startups_max)
		return 1;
	if (sc->max_startups_rate == 100)
		return 1;
	p = 100 - (unsigned int)sc->max_startups_rate;
	p *= (unsigned int)(startups - sc->max_startups_begin);
	p /= (unsigned int)(sc->max_startups_max - sc->max_startups_begin);
	p += (unsigned int)sc->max_startups_rate;
	if (RAND_bytes((unsigned char *)&r, sizeof(r)) != 1)
		return 1;
	return (r % 100) < p;
}

/* PerSourceMaxStartups: 1 if c's block has its fill of slots. */
static int
persource_full(const struct listen_ctx *lc, const struct conn_slot *c,
    const char *raddr)
{
	int limit = lc->s->sc->per_source_max_startups, n = 0;
	size_t i;

	if (limit == INT_MAX || c->addrlen == 0)
		return 0;
	for (i = 0; i < lc->nslots; i++)
		if (lc->slots[i].pipe != -1 && lc->slots[i].addrlen != 0 &&
		    penalty_addr_eq(&lc->slots[i].block, &c->block))
			n++;
	log_debug3("srclimit_check_allow: new unauthenticated connection "
	    "from %s/%d, at %d of %d", raddr,
	    c->block.af == AF_INET ? lc->s->sc->per_source_masklen4 :
	    lc->s->sc->per_source_masklen6, n, limit);
	return n >= limit;
}

/* PerSourcePenalties: 1 (logged, client told) if fd's source is refused. */
static int
penalty_refuse(struct listen_ctx *lc, int fd, const struct sockaddr *sa,
    socklen_t salen)
{
	static const char msg[] = "Not allowed at this time\r\n";
	struct conn_info dci;
	const char *why = NULL;
	unsigned int report;
	int held;

	if (penalties_allow(lc->pen, sa, salen, now_us(), &why))
		return 0;
	describe_peer(fd, &dci);
	held = ratelimit_hold(&lc->rl_penalty, time(NULL), &report);
	log_msg(held ? LOG_LEVEL_DEBUG3 : LOG_LEVEL_INFO,
	    "drop connection #%d from [%s]:%d on [%s]:%d %s", lc->unauth,
	    dci.raddr, dci.rport, dci.laddr, dci.lport, why);
	if (report != 0)
		log_info("PerSourcePenalties logging rate-limited: additional "
		    "%u connections dropped", report);
	(void)!write(fd, msg, sizeof(msg) - 1);
	return 1;
}

static void
close_all_pipes(struct listen_ctx *lc)
{
	size_t i;

	for (i = 0; i < lc->nslots; i++)
		slot_pipe_close(lc, &lc->slots[i]);
}

/* In the new child: drop the listener's descriptors and signal state. */
static void
child_setup(struct listen_ctx *lc, int readend)
{
	size_t m;

	for (m = 0; m < lc->l->nfds; m++)
		close(lc->l->fds[m]);
	close_all_pipes(lc);
	close(readend);
	unsetenv("NOTIFY_SOCKET");	/* the listener speaks for the service */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_SETMASK, &lc->orig_mask, NULL);
}

/*
 * In the new child, after child_setup(): become a fresh sshd (-R) that
 * serves the connection fd, with the startup pipe's write end pipefd,
 * so that no two connection processes, nor the listener, share an
 * address-space layout. /proc/self/exe is the program the listener
 * runs even if its file has been replaced or removed since. The new
 * process replays the configuration the listener read (conftape.h) and
 * loads the host keys again, from the directory sshd was started in
 * (daemon() left it for "/"), which it leaves in turn once they are
 * loaded. Does not return.
 */
static void
child_rexec(struct listen_ctx *lc, int fd, int pipefd)
{
	int s, p, c = -1, conf = lc->s->conf_fd;

	/*
	 * Copies above SSHD_REXEC_CONF_FD first, as any descriptor may sit
	 * on another's target now. dup2() leaves the targets open across
	 * exec; everything else here is close-on-exec.
	 */
	if ((s = fcntl(fd, F_DUPFD_CLOEXEC, SSHD_REXEC_CONF_FD + 1)) == -1 ||
	    (p = fcntl(pipefd, F_DUPFD_CLOEXEC,
	    SSHD_REXEC_CONF_FD + 1)) == -1 ||
	    (conf != -1 && (c = fcntl(conf, F_DUPFD_CLOEXEC,
	    SSHD_REXEC_CONF_FD + 1)) == -1) ||
	    dup2(s, SSHD_REXEC_SOCK_FD) == -1 ||
	    dup2(p, SSHD_REXEC_PIPE_FD) == -1 ||
	    (c != -1 && dup2(c, SSHD_REXEC_CONF_FD) == -1)) {
		log_error("rexec: descriptors: %s", strerror(errno));
		_exit(SSHD_EXIT_NOT_STARTED);
	}
	if (lc->s->rexec_cwd[0] != '\0' && chdir(lc->s->rexec_cwd) == -1)
		log_debug("rexec: chdir %s: %s", lc->s->rexec_cwd,
		    strerror(errno));
	log_debug("rexec start in %d out %d pipe %d", SSHD_REXEC_SOCK_FD,
	    SSHD_REXEC_SOCK_FD, SSHD_REXEC_PIPE_FD);
	execv("/proc/self/exe", lc->s->rexec_argv);
	log_error("rexec of /proc/self/exe failed: %s", strerror(errno));
	_exit(SSHD_EXIT_NOT_STARTED);
}

/* The slot for a new connection, filled in; NULL if it is dropped. */
static struct conn_slot *
admit(struct listen_ctx *lc, int fd, const struct sockaddr_storage *ss,
    socklen_t sl)
{
	struct conn_slot *c = NULL;
	struct conn_info dci;
	size_t i;

	for (i = 0; i < lc->nslots; i++)
		if (lc->slots[i].pipe == -1 && lc->slots[i].pid == -1) {
			c = &lc->slots[i];
			break;
		}
	describe_peer(fd, &dci);
	if (c != NULL) {
		slot_clear(c);
		if ((ss->ss_family == AF_INET || ss->ss_family == AF_INET6) &&
		    penalty_addr_block((const struct sockaddr *)ss, sl,
		    lc->s->sc->per_source_masklen4,
		    lc->s->sc->per_source_masklen6, &c->block) == 0) {
			memcpy(&c->addr, ss, sizeof(*ss));
			c->addrlen = sl;
		}
		snprintf(c->id, sizeof(c->id), "connection from %.45s to %.45s",
		    dci.raddr, dci.laddr);
	}
	if (c == NULL || maxstartups_drop(lc->s->sc, lc->unauth) ||
	    persource_full(lc, c, dci.raddr)) {
		log_info("drop connection #%d from [%s]:%d on [%s]:%d past "
		    "MaxStartups", lc->unauth, dci.raddr, dci.rport,
		    dci.laddr, dci.lport);
		if (c != NULL)
			slot_clear(c);
		return NULL;
	}
	return c;
}

/* Accept one connection on lfd and fork its child, or turn it away. */
static void
accept_one(struct listen_ctx *lc, int lfd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct conn_slot *c;
	int fd, p[2], on = 1;
	pid_t pid;

	memset(&ss, 0, sizeof(ss));
	if ((fd = accept4(lfd, (struct sockaddr *)&ss, &sl,
	    SOCK_CLOEXEC)) == -1)
		return;
	if (penalty_refuse(lc, fd, (struct sockaddr *)&ss, sl) ||
	    (c = admit(lc, fd, &ss, sl)) == NULL) {
		close(fd);
		return;
	}
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) == -1) {
		log_error("pipe: %s", strerror(errno));
		slot_clear(c);
		close(fd);
		return;
	}
	if (lc->s->sc->tcp_keep_alive)
		setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
	pid = fork();
	if (pid == 0) {
		child_setup(lc, p[0]);
		child_rexec(lc, fd, p[1]);
	}
	close(p[1]);
	close(fd);
	if (pid == -1) {
		log_error("fork: %s", strerror(errno));
		close(p[0]);
		slot_clear(c);
		return;
	}
	c->pipe = p[0];
	c->pid = pid;
	lc->unauth++;
}

static void
setup_signals(sigset_t *orig)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_sigterm;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_sighup;
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_sigchld;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, orig);
}

int
listen_loop(struct server *s, struct listener *l)
{
	struct listen_ctx lc;
	struct pollfd *pfd;
	size_t *pfd_slot, i, n;
	int ret = 0;

	memset(&lc, 0, sizeof(lc));
	lc.s = s;
	lc.l = l;
	lc.nslots = (size_t)s->sc->max_startups_max;
	lc.slots = x_calloc(lc.nslots, sizeof(*lc.slots));
	for (i = 0; i < lc.nslots; i++)
		slot_clear(&lc.slots[i]);
	lc.pen = penalties_new(s->sc);
	pfd = x_calloc(l->nfds + lc.nslots, sizeof(*pfd));
	pfd_slot = x_calloc(lc.nslots, sizeof(*pfd_slot));
	setup_signals(&lc.orig_mask);
	/* From here a SIGHUP or SIGTERM is ours to handle. */
	sshd_notify("READY=1");
	while (!got_sigterm && !got_sighup) {
		reap_children(&lc);
		for (n = 0; n < l->nfds; n++) {
			pfd[n].fd = l->fds[n];
			pfd[n].events = POLLIN;
		}
		for (i = 0; i < lc.nslots; i++) {
			if (lc.slots[i].pipe == -1)
				continue;
			pfd_slot[n - l->nfds] = i;
			pfd[n].fd = lc.slots[i].pipe;
			pfd[n++].events = POLLIN;
		}
		if (ppoll(pfd, n, NULL, &lc.orig_mask) < 0) {
			if (errno == EINTR)
				continue;
			log_error("poll: %s", strerror(errno));
			ret = 1;
			break;
		}
		for (i = l->nfds; i < n; i++)
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
				(void)startup_read(&lc,
				    &lc.slots[pfd_slot[i - l->nfds]]);
		for (i = 0; i < l->nfds; i++)
			if (pfd[i].revents & POLLIN)
				accept_one(&lc, l->fds[i]);
	}
	if (ret == 0 && got_sighup) {
		log_info("Received SIGHUP; restarting.");
		sshd_notify_reloading();
		ret = SSHD_RESTART;
	} else {
		if (ret == 0)
			log_info("Received signal %d; terminating.", SIGTERM);
		sshd_notify("STOPPING=1");
	}
	close_all_pipes(&lc);
	sigprocmask(SIG_SETMASK, &lc.orig_mask, NULL);
	penalties_free(lc.pen);
	x_free(lc.slots);
	x_free(pfd_slot);
	x_free(pfd);
	return ret;
}
