/*
 * mux_client.c: ssh as a client of a ControlMaster (see mux.h).
 *
 * With ControlMaster no or auto and a ControlPath, ssh first tries the
 * socket: a master there runs our session (our stdin, stdout and stderr
 * passed to it) and we only wait for its MUX_S_EXIT_MESSAGE, relaying
 * SIGWINCH to it; with no master there, the caller connects itself (a
 * socket refusing connections is stale and removed, as OpenSSH does).
 * Forwardings given to this ssh are asked of the master first; one that
 * fails ends us with 255. -O sends one control request and says what
 * came of it in OpenSSH's words.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "fwd.h"
#include "fwd_client.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "mux.h"
#include "sbuf.h"
#include "ttyraw.h"

extern char **environ;

static volatile sig_atomic_t got_term;
static volatile pid_t master_pid;

static void
on_term(int sig)
{
	got_term = sig;
}

static void
on_winch(int sig)
{
	if (master_pid > 0)
		(void)kill(master_pid, sig);
}

/*
 * The master set O_NONBLOCK on the stdout and stderr we passed, and a
 * terminal or pipe shares that flag with whoever writes to it after us:
 * clear it again on the way out.
 */
static void
blocking_again(void)
{
	int fd, fl;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if ((fl = fcntl(fd, F_GETFL)) != -1 && (fl & O_NONBLOCK))
			(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
}

/* Connect to path: the socket, or -1 with errno. */
static int
connect_path(const char *path)
{
	struct sockaddr_un sun;
	int fd, e;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int
send_msg(int fd, struct sbuf *m)
{
	int r = mux_write_all(fd, sbuf_ptr(m), sbuf_len(m));

	sbuf_reset(m);
	return r;
}

/* Read a reply; *typep and *ridp are its first two fields. */
static int
read_reply(int fd, struct sbuf *m, uint32_t *typep, uint32_t *ridp)
{
	int r;

	if ((r = mux_read_msg(fd, m)) != 0)
		return r;
	if ((r = sbuf_get_u32(m, typep)) != 0 ||
	    (r = sbuf_get_u32(m, ridp)) != 0)
		return r;
	return 0;
}

static int
hello(int fd, struct sbuf *m)
{
	uint32_t type, ver;
	int r;

	if ((r = mux_put_hello(m)) != 0 || (r = send_msg(fd, m)) != 0 ||
	    (r = read_reply(fd, m, &type, &ver)) != 0)
		return r;
	if (type != MUX_MSG_HELLO || ver != MUX_VERSION) {
		log_error("Unsupported multiplexing protocol version %u "
		    "(expected %u)", ver, MUX_VERSION);
		return ERR_PROTOCOL_VERSION;
	}
	log_debug("master version %u", ver);
	return 0;
}

/* The reason in a PERMISSION_DENIED / FAILURE (static on error). */
static char *
reason(struct sbuf *m)
{
	char *s = NULL;

	if (sbuf_get_cstring(m, &s, NULL) != 0)
		return x_strdup("(malformed reason)");
	return s;
}

static int
simple_request(int fd, struct sbuf *m, uint32_t type, uint32_t rid,
    uint32_t *valp)
{
	uint32_t t, got;
	char *e;
	int r;

	if ((r = mux_put_simple(m, type, rid)) != 0 ||
	    (r = send_msg(fd, m)) != 0)
		return r;
	if ((r = read_reply(fd, m, &t, &got)) != 0) {
		/* A master told to go may be gone before it answers. */
		if (r == ERR_EOF && type == MUX_C_TERMINATE)
			return 0;
		log_error("read from master failed: %s", err_str(r));
		return r;
	}
	if (got != rid) {
		log_error("out of sequence reply: my id %u theirs %u", rid,
		    got);
		return ERR_PROTOCOL;
	}
	if (t == MUX_S_PERMISSION_DENIED || t == MUX_S_FAILURE) {
		e = reason(m);
		log_error("Master refused request: %s", e);
		x_free(e);
		return ERR_PERMISSION_DENIED;
	}
	if (t == MUX_S_ALIVE && valp != NULL)
		return sbuf_get_u32(m, valp);
	return t == MUX_S_OK ? 0 : ERR_PROTOCOL;
}

/* One forwarding of o asked of the master (cancel: closed). */
static int
one_forward(int fd, struct sbuf *m, uint32_t *ridp, int kind,
    const char *written, int cancel, int print_port)
{
	struct fwd_spec f;
	struct mux_req q;
	uint32_t t, got, port;
	char *e;
	int r;

	if (fwd_client_parse(written, kind, &f) != 0)
		return ERR_CONFIG;
	memset(&q, 0, sizeof(q));
	q.type = cancel ? MUX_C_CLOSE_FWD : MUX_C_OPEN_FWD;
	q.rid = (*ridp)++;
	q.ftype = kind == 'L' ? MUX_FWD_LOCAL : kind == 'R' ?
	    MUX_FWD_REMOTE : MUX_FWD_DYNAMIC;
	if (f.listen_path != NULL) {
		q.listen_host = f.listen_path;
		q.listen_port = MUX_FWD_PATH_PORT;
	} else {
		q.listen_host = f.listen_host == NULL ? "" :
		    *f.listen_host == '\0' ? "*" : f.listen_host;
		q.listen_port = (uint32_t)f.listen_port;
	}
	if (f.connect_path != NULL) {
		q.connect_host = f.connect_path;
		q.connect_port = MUX_FWD_PATH_PORT;
	} else if (kind == 'D') {
		/* A name OpenSSH's master requires and never connects to. */
		q.connect_host = "socks";
		q.connect_port = 0;
	} else {
		q.connect_host = f.connect_host != NULL ? f.connect_host : "";
		q.connect_port = (uint32_t)f.connect_port;
	}
	r = mux_put_fwd(m, &q);
	if (r == 0 && (r = send_msg(fd, m)) == 0)
		r = read_reply(fd, m, &t, &got);
	if (r == 0 && got != q.rid)
		r = ERR_PROTOCOL;
	if (r == 0) {
		switch (t) {
		case MUX_S_OK:
			break;
		case MUX_S_REMOTE_PORT:
			if ((r = sbuf_get_u32(m, &port)) != 0)
				break;
			if (print_port)
				fprintf(stdout, "%u\n", port);
			else
				log_info("Allocated port %u for mux remote "
				    "forward to %s:%d", port, q.connect_host,
				    (int)q.connect_port);
			break;
		case MUX_S_PERMISSION_DENIED:
			e = reason(m);
			log_error("Master refused forwarding request: %s", e);
			x_free(e);
			r = ERR_PERMISSION_DENIED;
			break;
		default:
			e = reason(m);
			log_error("mux_client_forward: forwarding request "
			    "failed: %s", e);
			x_free(e);
			r = ERR_PERMISSION_DENIED;
		}
	}
	fwd_spec_clear(&f);
	return r;
}

static int
forwards(int fd, struct sbuf *m, uint32_t *ridp,
    const struct client_opts *o, int cancel, int print)
{
	char *const *lists[3] = { o->local_forwards, o->remote_forwards,
	    o->dynamic_forwards };
	const size_t counts[3] = { o->nlocal_forwards, o->nremote_forwards,
	    o->ndynamic_forwards };
	const int kinds[3] = { 'L', 'R', 'D' };
	size_t k, i;

	if (o->clear_all_forwardings > 0)
		return 0;
	for (k = 0; k < 3; k++)
		for (i = 0; i < counts[k]; i++)
			if (one_forward(fd, m, ridp, kinds[k], lists[k][i],
			    cancel, print) != 0) {
				log_error("muxclient: master %sforward "
				    "request failed", cancel ? "cancel " : "");
				return -1;
			}
	return 0;
}

/* SendEnv matches and SetEnv, as NAME=value strings. */
static void
collect_env(const struct client_opts *o, struct mux_req *q)
{
	char **e, *eq, *name;
	size_t i;
	int hit;

	for (e = environ; e != NULL && *e != NULL; e++) {
		if ((eq = strchr(*e, '=')) == NULL || q->nenv == MUX_MAX_ENV)
			continue;
		name = x_strndup(*e, (size_t)(eq - *e));
		for (i = 0, hit = 0; i < o->nsend_env && !hit; i++)
			hit = o->send_env[i][0] != '-' &&
			    match_pattern(name, o->send_env[i]);
		x_free(name);
		if (hit)
			q->env[q->nenv++] = x_strdup(*e);
	}
	for (i = 0; i < o->nset_env && q->nenv < MUX_MAX_ENV; i++)
		q->env[q->nenv++] = x_strdup(o->set_env[i]);
}

static void
set_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_winch;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGWINCH, &sa, NULL);
}

/* Wait for the session's end: its exit status, or 255. */
static int
wait_exit(int fd, struct sbuf *m, uint32_t sid, struct ttyraw *raw,
    int *seenp)
{
	uint32_t type, a, v = 255;
	int r;

	*seenp = 0;
	while (!got_term) {
		if ((r = read_reply(fd, m, &type, &a)) != 0)
			break;
		if (type == MUX_S_TTY_ALLOC_FAIL && a == sid) {
			ttyraw_leave(raw);
			continue;
		}
		if (type == MUX_S_EXIT_MESSAGE && a == sid &&
		    sbuf_get_u32(m, &v) == 0) {
			*seenp = 1;
			continue;
		}
		log_error("mux_client_request_session: unexpected response "
		    "from master 0x%08x", type);
		break;
	}
	if (got_term)
		log_debug("Exiting on signal: %s", strsignal(got_term));
	else if (!*seenp)
		log_debug("Control master terminated unexpectedly");
	return *seenp && !got_term ? (int)(v & 0xff) : 255;
}

static int
session(int fd, struct sbuf *m, uint32_t *ridp, const struct client_opts *o,
    const struct ssh_mux_args *a)
{
	struct mux_req q;
	struct ttyraw raw;
	uint32_t type, rid, sid;
	int fds[3] = { STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO };
	int i, r, ret = 255, seen, nullfd = -1;
	char *e;

	memset(&raw, 0, sizeof(raw));
	memset(&q, 0, sizeof(q));
	q.rid = rid = (*ridp)++;
	q.want_tty = a->want_tty;
	q.subsystem = a->subsystem;
	/* The master forwards only when its own options allow it too. */
	q.want_x11 = o->forward_x11 > 0;
	q.want_agent = o->forward_agent > 0;
	q.escape_char = o->escape_char == -2 ? MUX_NO_ESCAPE :
	    o->escape_char >= 0 ? (uint32_t)o->escape_char : '~';
	q.term = x_strdup(getenv("TERM") != NULL ? getenv("TERM") : "");
	q.command = x_strdup(a->command != NULL ? a->command : "");
	collect_env(o, &q);
	if (a->stdin_null &&
	    (nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC)) != -1)
		fds[0] = nullfd;
	r = mux_put_session(m, &q);
	mux_req_clear(&q);
	if (r == 0)
		r = send_msg(fd, m);
	for (i = 0; r == 0 && i < 3; i++)
		r = mux_send_fd(fd, fds[i]);
	if (nullfd != -1)
		close(nullfd);
	if (r != 0) {
		log_error("mux_client_request_session: send fds failed");
		return 255;
	}
	if ((r = read_reply(fd, m, &type, &sid)) != 0) {
		log_error("mux_client_request_session: read from master "
		    "failed: %s", strerror(errno));
		return 255;
	}
	if (type != MUX_S_SESSION_OPENED) {
		e = reason(m);
		if (type == MUX_S_PERMISSION_DENIED)
			log_error("Master refused session request: %s", e);
		else
			log_error("mux_client_request_session: session "
			    "request failed: %s", e);
		x_free(e);
		return 255;
	}
	if (sid != rid || sbuf_get_u32(m, &sid) != 0) {
		log_error("out of sequence reply");
		return 255;
	}
	log_debug("mux_client_request_session: master session id: %u", sid);
	if (a->want_tty && isatty(STDIN_FILENO))
		(void)ttyraw_enter(&raw, STDIN_FILENO);
	ret = wait_exit(fd, m, sid, &raw, &seen);
	ttyraw_leave(&raw);
	blocking_again();
	return ret;
}

static int
stdio_fwd(int fd, struct sbuf *m, uint32_t *ridp, const struct client_opts *o)
{
	struct mux_req q;
	uint32_t type, rid;
	char *e;
	int r;

	memset(&q, 0, sizeof(q));
	q.rid = (*ridp)++;
	q.connect_host = o->stdio_forward_host;
	q.connect_port = (uint32_t)o->stdio_forward_port;
	if ((r = mux_put_stdio_fwd(m, &q)) != 0 ||
	    (r = send_msg(fd, m)) != 0 ||
	    (r = mux_send_fd(fd, STDIN_FILENO)) != 0 ||
	    (r = mux_send_fd(fd, STDOUT_FILENO)) != 0 ||
	    (r = read_reply(fd, m, &type, &rid)) != 0) {
		log_error("mux_client_request_stdio_fwd: %s", err_str(r));
		return 255;
	}
	if (type != MUX_S_SESSION_OPENED) {
		e = reason(m);
		log_error("mux_client_request_stdio_fwd: stdio forwarding "
		    "request failed: %s", e);
		x_free(e);
		return 255;
	}
	/* The master closes the socket when the channel is done. */
	while (!got_term && read_reply(fd, m, &type, &rid) == 0)
		;
	blocking_again();
	return got_term ? 255 : 0;
}

/* Connect and say hello: the socket, or -1 (reported as OpenSSH does). */
static int
open_master(const struct client_opts *o, enum mux_cmd cmd, struct sbuf *m)
{
	const char *path = o->control_path;
	int fd;

	if ((fd = connect_path(path)) == -1) {
		if (cmd != MUXC_NONE) {
			log_error("Control socket connect(%.100s): %s", path,
			    strerror(errno));
			return -1;
		}
		if (errno == ECONNREFUSED && o->control_master != MUX_NO) {
			log_debug("Stale control socket %.100s, unlinking",
			    path);
			(void)unlink(path);
		} else if (errno == ENOENT)
			log_debug("Control socket \"%.100s\" does not exist",
			    path);
		else
			log_error("Control socket connect(%.100s): %s", path,
			    strerror(errno));
		return -1;
	}
	if (hello(fd, m) != 0) {
		log_error("mux_client_hello_exchange: master hello exchange "
		    "failed");
		close(fd);
		return -1;
	}
	return fd;
}

int
mux_client_proxy(const struct client_opts *o)
{
	struct sbuf *m;
	uint32_t type, rid;
	char *e;
	int fd, r;

	if (o->control_path == NULL || strcmp(o->control_path, "none") == 0) {
		log_fatal("No ControlPath specified for \"-O\" command");
		return -1;
	}
	m = sbuf_new();
	if ((fd = open_master(o, MUXC_PROXY, m)) == -1) {
		sbuf_free(m);
		return -1;
	}
	if ((r = mux_put_simple(m, MUX_C_PROXY, 0)) != 0 ||
	    (r = send_msg(fd, m)) != 0 ||
	    (r = read_reply(fd, m, &type, &rid)) != 0) {
		log_fatal("mux_client_proxy: %s", err_str(r));
		goto fail;
	}
	if (type == MUX_S_PERMISSION_DENIED || type == MUX_S_FAILURE) {
		e = reason(m);
		log_fatal("mux_client_proxy: master returned error: %s", e);
		x_free(e);
		goto fail;
	}
	if (type != MUX_S_PROXY) {
		log_fatal("mux_client_proxy: master returned unexpected "
		    "message %u", type);
		goto fail;
	}
	if (rid != 0) {
		log_fatal("mux_client_proxy: out of sequence reply: my id %u "
		    "theirs %u", 0u, rid);
		goto fail;
	}
	log_debug("mux_client_proxy: master in proxy mode");
	sbuf_free(m);
	return fd;
 fail:
	close(fd);
	sbuf_free(m);
	return -1;
}

static int
command(int fd, struct sbuf *m, uint32_t *ridp, const struct client_opts *o,
    enum mux_cmd cmd)
{
	uint32_t pid = 0;

	switch (cmd) {
	case MUXC_CHECK:
		if (simple_request(fd, m, MUX_C_ALIVE_CHECK, (*ridp)++,
		    &pid) != 0) {
			log_fatal("mux_client_request_alive: master alive "
			    "request failed");
			return 255;
		}
		fprintf(stderr, "Master running (pid=%u)\r\n", pid);
		return 0;
	case MUXC_EXIT:
		if (simple_request(fd, m, MUX_C_TERMINATE, (*ridp)++,
		    NULL) != 0)
			return 255;
		fprintf(stderr, "Exit request sent.\r\n");
		return 0;
	case MUXC_STOP:
		if (simple_request(fd, m, MUX_C_STOP_LISTENING, (*ridp)++,
		    NULL) != 0)
			return 255;
		fprintf(stderr, "Stop listening request sent.\r\n");
		return 0;
	case MUXC_FORWARD:
		return forwards(fd, m, ridp, o, 0, 1) == 0 ? 0 : 255;
	case MUXC_CANCEL:
		/* A failed cancel is reported, and is no failure (sic). */
		(void)forwards(fd, m, ridp, o, 1, 0);
		return 0;
	default:
		log_fatal("unsupported mux command %d", (int)cmd);
		return 255;
	}
}

int
mux_client(const struct client_opts *o, const struct ssh_mux_args *a)
{
	struct sbuf *m;
	uint32_t rid = 0, pid = 0;
	int fd, ret;

	if (o->control_path == NULL || strcmp(o->control_path, "none") == 0) {
		if (a->cmd == MUXC_NONE)
			return -1;
		log_fatal("No ControlPath specified for \"-O\" command");
		return 255;
	}
	if (a->cmd == MUXC_NONE && !a->force && o->control_master != MUX_NO &&
	    o->control_master != MUX_AUTO && o->control_master != MUX_AUTOASK)
		return -1;
	if (a->cmd == MUXC_NONE && o->control_master != MUX_NO)
		log_debug("auto-mux: Trying existing master");
	m = sbuf_new();
	if ((fd = open_master(o, a->cmd, m)) == -1) {
		sbuf_free(m);
		return a->cmd != MUXC_NONE ? 255 : -1;
	}
	signal(SIGPIPE, SIG_IGN);
	if (a->cmd != MUXC_NONE)
		ret = command(fd, m, &rid, o, a->cmd);
	else if (simple_request(fd, m, MUX_C_ALIVE_CHECK, rid++, &pid) != 0) {
		log_error("mux_client_request_session: master alive check "
		    "failed");
		ret = 255;
	} else if (forwards(fd, m, &rid, o, 0, 0) != 0)
		ret = -1;	/* connect ourselves, as OpenSSH falls back */
	else {
		master_pid = (pid_t)pid;
		set_signals();
		if (o->stdio_forward_host != NULL)
			ret = stdio_fwd(fd, m, &rid, o);
		else if (a->no_command) {
			/* -N: the forwardings were the point. */
			ret = 0;
		} else {
			ret = session(fd, m, &rid, o, a);
			if (a->want_tty && o->log_level >= LOG_LEVEL_INFO)
				fprintf(stderr, "Shared connection to %s "
				    "closed.\r\n", o->hostname != NULL ?
				    o->hostname : o->host_arg);
		}
	}
	close(fd);
	sbuf_free(m);
	return ret;
}
