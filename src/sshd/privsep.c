/*
 * privsep.c: privilege separation of one connection. The connection
 * process stays root and is the monitor (monitor.h) of two children in
 * turn, each on a socketpair of its own:
 *
 *   pre-auth child                        monitor (this process, root)
 *   logs through the monitor (MON_LOG)    answers each request, or ends
 *   sandbox_drop(): the sshd account,       the connection: host key
 *     chroot into the empty directory       signatures, the user lookup,
 *   sandbox_apply(): rlimits, seccomp       key/password/PAM checks, the
 *   transport on the client's socket,       verdict, DH groups
 *     userauth through authority_remote
 *   after USERAUTH_SUCCESS: tr_export()   keeps the state; PAM session
 *     -> MON_REQ_TRANSPORT_STATE, _exit
 *
 *   post-auth process                     answers: host key signatures
 *   drops the host private keys,            and groups (rekeying,
 *     becomes the user for good (with       hostkeys-prove), login
 *     ChrootDirectory), logs through the    records of pty sessions;
 *     monitor                               after it: logout records,
 *   tr_import(), session_serve(): the       PAM session close
 *     connection layer, as the user
 *
 * The pre-auth child holds the client's socket, its end of the
 * socketpair and the descriptors 0-2 (/dev/null unless debugging),
 * nothing else: no host private key, no file, no way to open one. Its
 * exit status is the pre-auth status of penalty.h, which the monitor
 * passes on to the listener as its own; killed by a signal (the seccomp
 * filter's SIGSYS, a crash), SSHD_EXIT_CHILD_CRASH. A child that breaks
 * the monitor protocol is killed.
 *
 * The transport state goes from the sandboxed child to the user's
 * process through the monitor, which only stores the bytes: the parser
 * (tr_import()) runs in the least privileged process that needs it.
 *
 * LoginGraceTime is the child's (its transport's deadline, logged as
 * OpenSSH does); the monitor keeps a backstop a little later, in case
 * the child hangs, and then kills it.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "authinfo.h"
#include "authority.h"
#include "err.h"
#include "ev.h"
#include "fwd_agent.h"
#include "log.h"
#include "mem.h"
#include "memtrim.h"
#include "monitor.h"
#include "penalty.h"
#include "sandbox.h"
#include "session.h"
#include "sshd.h"
#include "transport.h"

#define GRACE_BACKSTOP_MS	5000	/* after LoginGraceTime */
#define IDLE_TRIM_MS		2000	/* as the session's (memtrim.h) */

/* A child's group chooser asks the monitor, as its signer does. */
static int
child_gex(void *arg, uint32_t min, uint32_t want, uint32_t max, BIGNUM **pp,
    BIGNUM **gp)
{
	struct hostkey_signer *hs = arg;

	return authority_remote_moduli(hs->auth, min, want, max, pp, gp);
}

/*
 * A child forked from the monitor has the host private keys in its copy
 * of memory: free them (libcrypto wipes the key material) before it
 * reads a byte from the client. The public halves stay for the offer.
 */
static void
drop_host_keys(struct server *s)
{
	size_t i;

	for (i = 0; i < s->nhostkeys; i++) {
		key_free(s->hostkeys[i]);
		s->hostkeys[i] = NULL;
	}
}

static int
preauth_status(int r, const struct auth_result *res)
{
	if (r == ERR_CONN_TIMEOUT)
		return SSHD_EXIT_LOGIN_GRACE;
	if (res->attempted)
		return SSHD_EXIT_AUTH_ATTEMPTED;
	if (res->invalid_user)
		return SSHD_EXIT_INVALID_USER;
	return SSHD_EXIT_NOAUTH;
}

static void __attribute__((noreturn))
child_main(struct server *s, int in, int out, const struct tr_config *tc0,
    const struct auth_conn *ac, int mon)
{
	struct hostkey_signer hs;
	struct tr_config tc = *tc0;
	struct transport *t;
	struct auth_result res;
	struct sbuf *st;
	enum sandbox_kind kind;
	int r;

	log_set_sink(mon_log_sink, &mon);
	drop_host_keys(s);
	if (geteuid() == 0 && sandbox_drop(NULL, NULL) != 0)
		_exit(SSHD_EXIT_NOAUTH);
	if (sandbox_apply(s->sandbox_flags, &kind) != 0)
		_exit(SSHD_EXIT_NOAUTH);
	log_debug("privsep: pre-authentication child %ld: uid %ld, "
	    "sandbox %s", (long)getpid(), (long)geteuid(),
	    sandbox_kind_name(kind));
	hs.s = s;
	hs.auth = authority_remote_new(mon, s->sc);
	tc.hostkey_sign = sshd_hostkey_sign;
	tc.gex_choose = child_gex;
	tc.hostkey_arg = &hs;
	memset(&res, 0, sizeof(res));
	if ((t = tr_new(in, out, &tc)) == NULL) {
		log_error("could not set up the transport");
		_exit(SSHD_EXIT_NOAUTH);
	}
	/* LoginGraceTime, from accept: see serve_connection(). */
	if (s->sc->login_grace_time > 0 && !s->debug)
		tr_set_deadline(t, (uint64_t)s->sc->login_grace_time * 1000);
	if ((r = auth_serve_authority(t, hs.auth, ac, &res)) != 0) {
		(void)tr_flush(t);
		_exit(preauth_status(r, &res));
	}
	st = sbuf_new();
	if ((r = tr_export(t, st)) != 0 ||
	    (r = authority_remote_send_state(hs.auth, st)) != 0) {
		log_error("privsep: handing the connection over: %s",
		    err_str(r));
		_exit(SSHD_EXIT_NOAUTH);
	}
	/* The keys in st and t go with the process. */
	_exit(0);
}

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* One monitor_loop(): the child's requests and the two timers. */
struct mon_run {
	struct monitor *m;
	pid_t pid;
	int until_state;
	int trimmed;
	int result;			/* as monitor_loop() returns */
	struct ev_timer trim_tm, grace_tm;
};

static void
mon_finish(struct ev_loop *ev, struct mon_run *mr, int result)
{
	mr->result = result;
	ev_stop(ev);
}

static void
mon_request(struct ev_loop *ev, int fd, int events, void *arg)
{
	struct mon_run *mr = arg;
	int r;

	(void)fd;
	(void)events;
	r = monitor_serve_one(mr->m);
	if (r == ERR_CONN_CLOSED)
		mon_finish(ev, mr, 0);
	else if (r != 0)
		mon_finish(ev, mr, -1);
	else if (mr->until_state && monitor_has_state(mr->m))
		mon_finish(ev, mr, 1);
	else if (!mr->trimmed)
		ev_timer_start(ev, &mr->trim_tm, IDLE_TRIM_MS, 0);
}

static void
mon_trim(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct mon_run *mr = arg;

	(void)ev;
	(void)tm;
	(void)mem_trim_idle();
	mr->trimmed = 1;
}

static void
mon_grace(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct mon_run *mr = arg;

	(void)tm;
	log_error("privsep: pre-authentication child %ld outlived "
	    "LoginGraceTime; stopping it", (long)mr->pid);
	mon_finish(ev, mr, -1);
}

/*
 * Serve the child until it hands the connection over (1: the pre-auth
 * child, with until_state), ends (0) or must be stopped (-1: killed
 * here), at the latest at end (monotonic ms; 0: no limit). Its log
 * lines come in between its requests (MON_LOG). Without an end, the
 * monitor gives back the pages it no longer needs (memtrim.h) once the
 * child has asked nothing for IDLE_TRIM_MS: it waits out the session.
 * Both deadlines are timers in an event loop (ev.h) of its own.
 */
static int
monitor_loop(struct monitor *m, int mon, pid_t pid, uint64_t end,
    int until_state)
{
	struct ev_loop *ev;
	struct mon_run mr;
	uint64_t t;
	int r;

	memset(&mr, 0, sizeof(mr));
	mr.m = m;
	mr.pid = pid;
	mr.until_state = until_state;
	mr.trimmed = end != 0;
	mr.result = -1;
	ev_timer_init(&mr.trim_tm, mon_trim, &mr);
	ev_timer_init(&mr.grace_tm, mon_grace, &mr);
	if ((ev = ev_new()) == NULL) {
		log_error("privsep: epoll_create1: %s", strerror(errno));
		kill(pid, SIGKILL);
		return -1;
	}
	if ((r = ev_fd_add(ev, mon, EV_READ, mon_request, &mr)) == 0) {
		if (end != 0) {
			t = now_ms();
			ev_timer_start(ev, &mr.grace_tm,
			    t >= end ? 0 : (int64_t)(end - t), 0);
		} else
			ev_timer_start(ev, &mr.trim_tm, IDLE_TRIM_MS, 0);
		if ((r = ev_run(ev)) != 0)
			log_error("privsep: epoll_wait: %s", strerror(errno));
	} else
		log_error("privsep: epoll_ctl: %s", err_str(r));
	ev_free(ev);
	if (r == 0 && mr.result >= 0)
		return mr.result;
	kill(pid, SIGKILL);
	return -1;
}

/* A socketpair for the monitor and a child; 0, or -1 (logged). */
static int
monitor_pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0)
		return 0;
	log_error("privsep: socketpair: %s", strerror(errno));
	return -1;
}

static void
reap(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) == -1 && errno == EINTR)
		;
}

int
privsep_preauth(struct server *s, int in, int out, int authpipe,
    const struct tr_config *tc, const struct auth_conn *ac,
    struct authority *local, struct monitor **mp, struct sbuf **statep)
{
	int mon[2], status = 0, r;
	struct monitor *m;
	pid_t pid;

	*statep = NULL;
	*mp = NULL;
	if (monitor_pair(mon) != 0) {
		authority_free(local);
		return SSHD_EXIT_NOAUTH;
	}
	*mp = m = monitor_new(local, mon[0]);
	monitor_set_moduli(m, tc->moduli_path);
	monitor_set_client(m, ac->remote_addr);
	if ((pid = fork()) == -1) {
		log_error("privsep: fork: %s", strerror(errno));
		close(mon[0]);
		close(mon[1]);
		return SSHD_EXIT_NOAUTH;
	}
	if (pid == 0) {
		close(mon[0]);
		if (authpipe != -1)
			close(authpipe);
		child_main(s, in, out, tc, ac, mon[1]);
	}
	close(mon[1]);
	r = monitor_loop(m, mon[0], pid, s->sc->login_grace_time > 0 &&
	    !s->debug ? now_ms() + (uint64_t)s->sc->login_grace_time * 1000 +
	    GRACE_BACKSTOP_MS : 0, 1);
	reap(pid, &status);
	close(mon[0]);
	if (r == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	    (*statep = monitor_take_state(m)) != NULL)
		return 0;
	if (monitor_refused(m))
		return SSHD_EXIT_CONFIG_REFUSED;
	if (WIFSIGNALED(status)) {
		if (r != -1)
			log_error("privsep: pre-authentication child %ld "
			    "killed by signal %d", (long)pid,
			    WTERMSIG(status));
		return r == -1 ? SSHD_EXIT_NOAUTH : SSHD_EXIT_CHILD_CRASH;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return WEXITSTATUS(status);
	return SSHD_EXIT_NOAUTH;
}

/* The post-auth process's login records, made by the monitor. */
static int
rec_login(void *arg, const char *tty, long pid)
{
	return authority_remote_login(arg, tty, pid);
}

static void
rec_logout(void *arg, const char *tty)
{
	(void)authority_remote_logout(arg, tty);
}

/*
 * The post-auth process: no host private key, the user's ids (and
 * ChrootDirectory) for good, the transport carried on from state.
 */
static void __attribute__((noreturn))
postauth_main(struct server *s, int in, int out, const struct tr_config *tc0,
    struct sbuf *state, struct auth_result *res, const struct conn_info *ci,
    int mon)
{
	struct session_recorder rec;
	struct hostkey_signer hs;
	struct tr_config tc = *tc0;
	struct transport *t;
	const char *what = NULL;
	char *chroot_path = NULL, *info_path = NULL;
	int r;

	log_set_sink(mon_log_sink, &mon);
	drop_host_keys(s);
	if (geteuid() == 0) {
		const char *cd = res->sc->chroot_directory;

		if (cd != NULL && strcasecmp(cd, "none") != 0 &&
		    sess_chroot_path(cd, res->pw, &chroot_path) != 0)
			_exit(1);
		if (sess_become_user(res->pw, chroot_path, &what) != 0) {
			log_fatal("privsep: %s: %s", what, strerror(errno));
			_exit(1);
		}
		if (chroot_path != NULL) {
			/* Done for the whole session: not again per child. */
			x_free(res->sc->chroot_directory);
			res->sc->chroot_directory = NULL;
			x_free(chroot_path);
			session_set_chrooted(1);
		}
	}
	log_debug("privsep: post-authentication process %ld: uid %ld",
	    (long)getpid(), (long)geteuid());
	hs.s = s;
	hs.auth = authority_remote_new(mon, s->sc);
	authority_set_phase(hs.auth, AUTHORITY_POSTAUTH);
	tc.hostkey_sign = sshd_hostkey_sign;
	tc.gex_choose = child_gex;
	tc.hostkey_arg = &hs;
	t = tr_import(in, out, &tc, sbuf_ptr(state), sbuf_len(state));
	sbuf_free(state);	/* wipes the keys */
	if (t == NULL)
		_exit(1);
	rec.login = rec_login;
	rec.logout = rec_logout;
	rec.arg = hs.auth;
	session_set_recorder(&rec);
	/* ExposeAuthInfo: a file of the user's, as the user (inside a
	 * ChrootDirectory too), removed when the connection ends. */
	if (res->sc->expose_auth_info && res->auth_info != NULL &&
	    authinfo_write(AUTHINFO_DIR, res->auth_info,
	    strlen(res->auth_info), &info_path) == 0)
		session_set_auth_info(info_path);
	r = session_serve(t, res->sc, res->pw, res->opts, ci->raddr,
	    ci->rport);
	if (tr_peer_disconnected(t))
		log_info("Disconnected from user %.100s %s port %d",
		    res->pw->pw_name, ci->raddr, ci->rport);
	if (info_path != NULL) {
		(void)unlink(info_path);
		x_free(info_path);
	}
	tr_free(t);
	_exit(r == 0 ? 0 : 1);
}

/*
 * A post-auth process that was killed could not remove its agent
 * forwarding socket and directory (fwd_agent.h): a child that is the
 * user, inside ChrootDirectory as that process was, removes them.
 */
static void
sweep_agent_socket(const struct auth_result *res, pid_t dead)
{
	const char *cd = res->sc->chroot_directory, *what;
	char *chroot_path = NULL;
	int status;
	pid_t pid;

	if (geteuid() != 0) {
		(void)fwd_agent_sweep(FWD_AGENT_TMPDIR, (long)dead);
		return;
	}
	if (cd != NULL && strcasecmp(cd, "none") != 0 &&
	    sess_chroot_path(cd, res->pw, &chroot_path) != 0)
		return;
	if ((pid = fork()) == -1) {
		x_free(chroot_path);
		return;
	}
	if (pid == 0) {
		if (sess_become_user(res->pw, chroot_path, &what) == 0)
			(void)fwd_agent_sweep(FWD_AGENT_TMPDIR, (long)dead);
		_exit(0);
	}
	reap(pid, &status);
	x_free(chroot_path);
}

int
privsep_postauth(struct server *s, int in, int out, const struct tr_config *tc,
    struct monitor *m, struct sbuf *state, struct auth_result *res,
    const struct conn_info *ci)
{
	int mon[2], status = 0;
	pid_t pid;

	if (monitor_pair(mon) != 0) {
		sbuf_free(state);
		return 1;
	}
	if ((pid = fork()) == -1) {
		log_error("privsep: fork: %s", strerror(errno));
		close(mon[0]);
		close(mon[1]);
		sbuf_free(state);
		return 1;
	}
	if (pid == 0) {
		close(mon[0]);
		postauth_main(s, in, out, tc, state, res, ci, mon[1]);
	}
	log_verbose("User child is on pid %ld", (long)pid);
	sbuf_free(state);
	close(mon[1]);
	monitor_set_fd(m, mon[0]);
	(void)monitor_loop(m, mon[0], pid, 0, 0);
	reap(pid, &status);
	close(mon[0]);
	/* A session the process could not end properly is ended here. */
	monitor_logout_all(m);
	if (WIFSIGNALED(status)) {
		log_error("privsep: post-authentication process %ld killed by "
		    "signal %d", (long)pid, WTERMSIG(status));
		sweep_agent_socket(res, pid);
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
