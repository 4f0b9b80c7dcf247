/*
 * ssh_run.c: one ssh(1) connection from start to end: reach the server
 * (TCP or ProxyCommand), start the transport with the host key check as
 * its verify callback, authenticate (client_auth), optionally fork into
 * the background (-f), run the session (client_session) and return its
 * exit status. Connection failures return 255 with OpenSSH's messages.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agentfwd.h"
#include "clienthostkeys.h"
#include "compress.h"
#include "connect.h"
#include "err.h"
#include "fwd_client.h"
#include "hostcheck.h"
#include "log.h"
#include "mem.h"
#include "mux.h"
#include "ssh.h"
#include "transport.h"
#include "tun_client.h"
#include "x11fwd.h"

/* What the session sets up on its channel set before the loop runs. */
struct run_setup {
	struct fwd_client *fwd;
	struct tun_client *tun;
	struct agent_fwd *afwd;
	struct x11_fwd *x11;
	struct client_hostkeys *hk;
	struct transport *t;
	struct mux_master *mm;
	int own_session;
};

static int
run_setup(struct chan_set *cs, void *arg)
{
	struct run_setup *rs = arg;
	int r;

	if ((r = client_hostkeys_setup(rs->hk, cs, rs->t)) != 0 ||
	    (r = agent_fwd_setup(cs, rs->afwd)) != 0 ||
	    (r = x11_fwd_setup(cs, rs->x11)) != 0 ||
	    (r = fwd_client_setup(cs, rs->fwd)) != 0 ||
	    (r = tun_client_setup(cs, rs->tun)) != 0)
		return r;
	return mux_master_setup(rs->mm, cs, rs->fwd, rs->afwd, rs->x11,
	    rs->own_session);
}

/* UpdateHostKeys=ask only where a prompt can be answered and seen. */
static void
check_update_ask(struct client_opts *o, const struct ssh_cmdline *cl)
{
	if (o->update_host_keys != 2)
		return;
	if (cl->command != NULL || o->remote_command != NULL ||
	    cl->tty_no || o->request_tty == RTTY_NO) {
		log_debug("UpdateHostKeys=ask is incompatible with remote "
		    "command execution; disabling");
		o->update_host_keys = 0;
	} else if (o->log_level < LOG_LEVEL_INFO)
		o->update_host_keys = 0;
}

static int
want_tty(const struct client_opts *o, const struct ssh_cmdline *cl,
    const char *command)
{
	int mode = o->request_tty, tty = isatty(STDIN_FILENO);

	if (cl->tty_t == 1)
		mode = RTTY_YES;
	else if (cl->tty_t >= 2)
		mode = RTTY_FORCE;
	else if (cl->tty_no)
		mode = RTTY_NO;
	if (cl->no_command)
		return 0;
	switch (mode) {
	case RTTY_FORCE:
		return 1;
	case RTTY_YES:
		if (!tty || cl->stdin_null) {
			log_info("Pseudo-terminal will not be allocated "
			    "because stdin is not a terminal.");
			return 0;
		}
		return 1;
	case RTTY_AUTO:
		return command == NULL && !cl->subsystem && tty &&
		    !cl->stdin_null;
	default:
		return 0;
	}
}

/*
 * The connection ended before the session (EOF or a failed read or
 * write, r being ERR_CONN_CLOSED or ERR_SYSTEM): say so as OpenSSH's
 * ssh does, at the same levels. Before the server's version line came,
 * an ERROR line names the version exchange; then one INFO line "...
 * closed by ADDR port N" (EOF) or "... reset by ..." (ECONNRESET).
 */
static void
report_lost(const struct transport *t, const char *desc, int r)
{
	int rd, e = tr_io_errno(t, &rd);

	if (tr_peer_version(t) == NULL) {
		if (r == ERR_CONN_CLOSED)
			log_error("kex_exchange_identification: Connection "
			    "closed by remote host");
		else if (rd)
			log_error("kex_exchange_identification: read: %s",
			    strerror(e));
	}
	if (r == ERR_CONN_CLOSED)
		log_info("Connection closed by %s", desc);
	else if (e == ECONNRESET)
		log_info("Connection reset by %s", desc);
	else
		log_info("Connection to %s: %s", desc, strerror(e));
}

static void
background(void)
{
	pid_t pid;
	int fd;

	if ((pid = fork()) == -1) {
		log_error("fork: %s", strerror(errno));
		exit(255);
	}
	if (pid != 0)
		_exit(0);
	if (setsid() == -1)
		log_debug("setsid: %s", strerror(errno));
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, STDIN_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

/*
 * Connection sharing, before connecting: -O commands, and sessions run
 * by a master already there (ControlMaster no, auto, autoask; force:
 * whatever it says). The exit status, or -1 to connect ourselves.
 */
static int
try_mux(const struct client_opts *o, const struct ssh_cmdline *cl, int tty,
    int force)
{
	struct ssh_mux_args ma;

	memset(&ma, 0, sizeof(ma));
	ma.cmd = (enum mux_cmd)cl->mux_cmd;
	ma.command = cl->command != NULL ? cl->command : o->remote_command;
	ma.subsystem = cl->subsystem;
	ma.want_tty = tty;
	ma.stdin_null = cl->stdin_null;
	ma.no_command = cl->no_command;
	ma.force = force;
	return mux_client(o, &ma);
}

/* persist_detach(): this process is the background master. */
#define PERSIST_IN_CHILD	(-1)

/*
 * ControlPersist: the master goes on in a child in the background, and
 * this process runs its session as a client of it (or, with -N or -f,
 * is done). Returns the exit status for the foreground (255 when there
 * is no child: ssh gives up, as OpenSSH does), or PERSIST_IN_CHILD in
 * the child, which must serve as the master with no session of its own.
 */
static int
persist_detach(const struct client_opts *o, const struct ssh_cmdline *cl,
    int tty, struct mux_master **mmp)
{
	pid_t pid;
	int fd, r;

	fflush(NULL);
	if ((pid = fork()) == -1) {
		log_error("fork: %s", strerror(errno));
		mux_master_free(*mmp);
		*mmp = NULL;
		return 255;
	}
	if (pid == 0) {
		if (setsid() == -1)
			log_debug("setsid: %s", strerror(errno));
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			if (o->log_level < LOG_LEVEL_DEBUG1)
				dup2(fd, STDERR_FILENO);
			if (fd > STDERR_FILENO)
				close(fd);
		}
		return PERSIST_IN_CHILD;
	}
	log_debug("background mux master, pid %ld", (long)pid);
	mux_master_forget(*mmp);
	*mmp = NULL;
	if (cl->no_command || cl->fork_after_auth)
		return 0;
	if ((r = try_mux(o, cl, tty, 1)) < 0)
		return 255;
	return r;
}

/*
 * LocalCommand (when PermitLocalCommand is on): its %-tokens expanded,
 * %T being "NONE" as there is no tunnel, run by the user's shell once
 * authenticated and waited for; its status does not matter.
 */
static void
local_command(const struct client_opts *o)
{
	static const char *const none[] = { "NONE" };
	const char *shell = getenv("SHELL");
	char *cmd = NULL;
	pid_t pid;

	if (o->local_command == NULL || o->permit_local_command <= 0)
		return;
	if (readconf_expand_more(o, o->local_command, "T", none, &cmd) != 0)
		return;
	if (shell == NULL || *shell == '\0')
		shell = "/bin/sh";
	log_debug("Executing %s -c \"%s\"", shell, cmd);
	fflush(NULL);
	if ((pid = fork()) == -1)
		log_error("fork: %s", strerror(errno));
	else if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		execl(shell, shell, "-c", cmd, (char *)NULL);
		fprintf(stderr, "Couldn't execute %s -c \"%s\": %s\n", shell,
		    cmd, strerror(errno));
		_exit(1);
	} else
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
	x_free(cmd);
}

/*
 * After authentication: the master's socket if ControlMaster asks for
 * one (moving to the background for ControlPersist), -f, then the
 * session with its forwardings. Returns the exit status.
 */
static int
run_session(struct client_opts *o, struct ssh_cmdline *cl,
    struct transport *t, int tty, int proxied)
{
	struct client_session_args sa;
	struct client_hostkeys *hk;
	struct mux_master *mm = NULL;
	struct run_setup rs;
	int r, status;

	memset(&sa, 0, sizeof(sa));
	sa.no_command = cl->no_command;
	/* Through a master's proxy mode we are no master ourselves. */
	if (o->control_master != MUX_NO && !proxied)
		mm = mux_master_new(o, o->hostname);
	if (mm != NULL && mux_persist_secs(o) != 0 &&
	    (r = persist_detach(o, cl, tty, &mm)) != PERSIST_IN_CHILD)
		return r;	/* the foreground, done as a client */
	if (mm != NULL && mux_persist_secs(o) != 0)
		sa.no_command = 1;	/* the background master */
	else if (cl->fork_after_auth)
		background();
	sa.command = cl->command != NULL ? cl->command : o->remote_command;
	sa.subsystem = cl->subsystem;
	sa.want_tty = sa.no_command ? 0 : tty;
	sa.stdin_null = cl->stdin_null;
	sa.fork_after_auth = cl->fork_after_auth;
	if (sa.subsystem && sa.command == NULL) {
		log_error("ssh: -s needs a subsystem name");
		mux_master_free(mm);
		return 255;
	}
	hk = client_hostkeys_new(o, o->hostname, o->port);
	rs.fwd = fwd_client_new(o);
	rs.tun = tun_client_new(o);
	rs.afwd = agent_fwd_new(o);
	rs.x11 = x11_fwd_new(o);
	rs.hk = hk;
	rs.t = t;
	rs.mm = mm;
	rs.own_session = !sa.no_command;
	sa.after_loop = mux_master_detach;
	sa.on_winch = mux_master_winch;
	sa.hook_arg = mm;
	sa.setup = run_setup;
	sa.setup_arg = &rs;
	sa.fwd = rs.fwd;
	sa.afwd = rs.afwd;
	sa.x11 = rs.x11;
	status = client_session(t, o, &sa);
	status = fwd_client_status(rs.fwd, status);
	status = tun_client_status(rs.tun, status);
	fwd_client_free(rs.fwd);
	tun_client_free(rs.tun);
	agent_fwd_free(rs.afwd);
	x11_fwd_free(rs.x11);
	mux_master_free(mm);
	client_hostkeys_free(hk);
	return status;
}

/*
 * ssh -O proxy: the master's connection, spoken over its control socket
 * in the plain framing of proxy mode. The master checked the host key
 * and authenticated; the session and forwardings run as on our own.
 */
static int
run_proxy(struct client_opts *o, struct ssh_cmdline *cl, int tty)
{
	struct tr_config cfg;
	struct transport *t;
	int fd, status;

	if ((fd = mux_client_proxy(o)) == -1)
		return 255;
	memset(&cfg, 0, sizeof(cfg));
	cfg.server = 0;
	if ((t = tr_new_plain(fd, fd, &cfg)) == NULL) {
		close(fd);
		return 255;
	}
	local_command(o);
	status = run_session(o, cl, t, tty, 1);
	tr_free(t);
	close(fd);
	return status;
}

int
ssh_run(struct client_opts *o, struct ssh_cmdline *cl)
{
	struct client_auth_args aa;
	struct hostcheck_ctx hc;
	struct tr_config cfg;
	struct transport *t = NULL;
	char *jump = NULL, *desc = NULL;
	const char *proxy = NULL;
	int fd_in = -1, fd_out = -1, r, status = 255, tty;
	pid_t proxy_pid = -1;

	memset(&aa, 0, sizeof(aa));
	check_update_ask(o, cl);
	tty = want_tty(o, cl, cl->command != NULL ? cl->command :
	    o->remote_command);
	if (cl->mux_cmd == MUXC_PROXY)
		return run_proxy(o, cl, tty);
	if ((r = try_mux(o, cl, tty, 0)) >= 0)
		return r;
	if (o->proxy_command != NULL && strcmp(o->proxy_command, "none") != 0)
		proxy = o->proxy_command;
	else if (o->proxy_jump != NULL && strcmp(o->proxy_jump, "none") != 0) {
		if (client_proxyjump_command(o, cl->self, cl->config_file,
		    cl->verbose, &jump) != 0)
			return 255;
		proxy = jump;
	}
	if (proxy != NULL)
		r = client_connect_proxy(o, proxy, &fd_in, &fd_out,
		    &proxy_pid);
	else if ((r = client_connect_tcp(o, o->hostname, o->port,
	    &fd_in)) == 0)
		fd_out = fd_in;
	x_free(jump);
	if (r != 0)
		return 255;

	memset(&hc, 0, sizeof(hc));
	hc.o = o;
	hc.hostname = o->hostname;
	hc.port = o->port;
	hc.peer_local = proxy == NULL && client_peer_is_local(fd_in);
	desc = client_peer_desc(fd_in, fd_out);
	memset(&cfg, 0, sizeof(cfg));
	cfg.server = 0;
	cfg.kex_algs = o->kex_algorithms;
	cfg.hostkey_algs = o->hostkey_algorithms;
	cfg.ciphers = o->ciphers;
	cfg.macs = o->macs;
	cfg.compression = o->compression > 0 ? COMP_CLIENT_YES : COMP_CLIENT_NO;
	cfg.rekey_bytes = o->rekey_bytes;
	cfg.rekey_seconds = o->rekey_seconds;
	cfg.peer_desc = desc;
	cfg.hostkey_verify = hostcheck_verify;
	cfg.hostcert_verify = hostcheck_verify_cert;
	cfg.verify_arg = &hc;
	if ((t = tr_new(fd_in, fd_out, &cfg)) == NULL) {
		log_error("ssh: could not start the transport");
		goto out;
	}
	r = client_auth_ex(t, o, o->user, o->hostname, &aa);
	if (r != 0) {
		if (hc.refused == 2)
			;	/* said already */
		else if (hc.refused)
			log_error("Host key verification failed.");
		else if (r == ERR_PERMISSION_DENIED)
			log_error("%s@%s: Permission denied%s%s%s.", o->user,
			    o->hostname, aa.last_methods ? " (" : "",
			    aa.last_methods ? aa.last_methods : "",
			    aa.last_methods ? ")" : "");
		else if (r == ERR_CONN_CLOSED || (r == ERR_SYSTEM &&
		    tr_io_errno(t, NULL) != 0))
			report_lost(t, desc, r);
		else if (r != ERR_DISCONNECTED && r != ERR_NO_KEX_MATCH &&
		    r != ERR_NO_HOSTKEY_MATCH && r != ERR_NO_CIPHER_MATCH &&
		    r != ERR_NO_MAC_MATCH && r != ERR_NO_COMPRESS_MATCH)
			/* (negotiation failures were reported by the transport) */
			log_error("ssh: %s: %s", desc, err_str(r));
		goto out;
	}
	local_command(o);
	status = run_session(o, cl, t, tty, 0);
 out:
	x_free(aa.last_methods);
	x_free(aa.method);
	tr_free(t);
	if (fd_in != -1)
		close(fd_in);
	if (fd_out != -1 && fd_out != fd_in)
		close(fd_out);
	if (proxy_pid != -1) {
		while (waitpid(proxy_pid, NULL, 0) == -1 && errno == EINTR)
			;
	}
	x_free(desc);
	return status;
}
