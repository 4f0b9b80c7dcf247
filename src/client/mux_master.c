/*
 * mux_master.c: ssh as a ControlMaster (see mux.h).
 *
 * The control socket is made as OpenSSH makes it: bound under a random
 * temporary name next to ControlPath with umask 0177 (so the socket is
 * 0600 from its first moment), then hard-linked to ControlPath, which
 * fails rather than replaces when something is there already, and the
 * temporary name removed. It is watched in the connection's own loop;
 * each client is checked to be our uid (or root) with SO_PEERCRED, then
 * speaks hello (version 4) and requests. Messages are read exactly, one
 * at a time: a new session is followed by descriptors that a larger
 * read would swallow.
 *
 * Sessions and -W live in mux_msess.c, proxy mode (-O proxy) in
 * mux_proxy.c; forwardings go to the running connection's forwarding
 * state (fwd_client_add_spec). ControlPersist:
 * a master without a session of its own stays for that long after its
 * last client (for ever with "yes"); -O stop removes the socket and the
 * master ends once nothing uses it; -O exit ends it at once.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "channel.h"
#include "conf.h"
#include "err.h"
#include "fdio.h"
#include "fwd.h"
#include "fwd_client.h"
#include "log.h"
#include "mem.h"
#include "mux_int.h"
#include "sbuf.h"
#include "transport.h"

/* How long a client may take to pass its descriptors. */
#define MUX_FD_WAIT_MS	5000

/* A -R answer a client waits for. */
struct fwd_wait {
	struct mux_conn *c;
	uint32_t rid;
	int zero_port;
	struct fwd_wait *next;
};

int
mux_persist_secs(const struct client_opts *o)
{
	const char *v = o->control_persist;
	long t;

	if (v == NULL || strcasecmp(v, "no") == 0 ||
	    strcasecmp(v, "false") == 0)
		return 0;
	if (strcasecmp(v, "yes") == 0 || strcasecmp(v, "true") == 0)
		return -1;
	if ((t = conf_parse_time(v)) < 0)
		return 0;
	return t == 0 ? -1 : (int)t;
}

static int
temp_name(const char *path, char **outp)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[16];
	char suffix[17];
	size_t i;

	if (RAND_bytes(rnd, sizeof(rnd)) != 1)
		return ERR_LIBCRYPTO;
	for (i = 0; i < sizeof(rnd); i++)
		suffix[i] = chars[rnd[i] % (sizeof(chars) - 1)];
	suffix[16] = '\0';
	*outp = x_asprintf("%s.%s", path, suffix);
	return 0;
}

/* Bind at tmp under umask 0177 and listen; the socket or -1. */
static int
bind_at(const char *tmp)
{
	struct sockaddr_un sun;
	mode_t old;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(tmp) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sun.sun_path, tmp, strlen(tmp) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(fd, 64) == -1) {
		int e = errno;

		umask(old);
		close(fd);
		errno = e;
		return -1;
	}
	umask(old);
	return fd;
}

struct mux_master *
mux_master_new(const struct client_opts *o, const char *host)
{
	struct mux_master *mm;
	char *tmp = NULL;
	int fd;

	if (o->control_path == NULL || strcmp(o->control_path, "none") == 0)
		return NULL;
	log_debug("setting up multiplex master socket");
	if (temp_name(o->control_path, &tmp) != 0)
		return NULL;
	if ((fd = bind_at(tmp)) == -1) {
		if (errno == ENAMETOOLONG)
			log_error("ControlPath \"%s\" too long for Unix "
			    "domain socket", o->control_path);
		else
			log_error("ControlSocket %s: %s", tmp,
			    strerror(errno));
		log_error("disabling multiplexing");
		x_free(tmp);
		return NULL;
	}
	if (link(tmp, o->control_path) != 0) {
		if (errno == EEXIST)
			log_error("ControlSocket %s already exists, "
			    "disabling multiplexing", o->control_path);
		else
			log_error("ControlSocket %s: link: %s; disabling "
			    "multiplexing", o->control_path, strerror(errno));
		(void)unlink(tmp);
		close(fd);
		x_free(tmp);
		return NULL;
	}
	(void)unlink(tmp);
	x_free(tmp);
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	mm = x_calloc(1, sizeof(*mm));
	mm->o = o;
	mm->host = x_strdup(host != NULL ? host : "");
	mm->path = x_strdup(o->control_path);
	mm->lfd = fd;
	mm->persist = mux_persist_secs(o);
	return mm;
}

/* ---- the clients ---- */

int
mux_conn_send(struct mux_conn *c, const struct sbuf *m)
{
	if (c == NULL || c->fd == -1)
		return ERR_CONN_CLOSED;
	return mux_write_all(c->fd, sbuf_ptr(m), sbuf_len(m));
}

static void
send_status(struct mux_conn *c, uint32_t type, uint32_t rid,
    const char *reason)
{
	struct sbuf *m = sbuf_new();

	if ((reason != NULL ? mux_put_status(m, type, rid, reason) :
	    mux_put_simple(m, type, rid)) == 0)
		(void)mux_conn_send(c, m);
	sbuf_free(m);
}

static void
forget_waits(struct mux_conn *c)
{
	struct fwd_wait **wp = (struct fwd_wait **)&c->mm->waits, *w;

	while ((w = *wp) != NULL) {
		if (w->c != c) {
			wp = &w->next;
			continue;
		}
		*wp = w->next;
		fwd_client_forget(c->mm->fc, w);
		x_free(w);
	}
}

void
mux_conn_close(struct mux_conn *c)
{
	struct mux_master *mm = c->mm;
	struct mux_conn **cp;

	for (cp = &mm->conns; *cp != NULL; cp = &(*cp)->next)
		if (*cp == c) {
			*cp = c->next;
			break;
		}
	forget_waits(c);
	if (c->sess != NULL)
		msess_client_gone(c->sess);
	if (c->px != NULL)
		mproxy_client_gone(c->px);
	if (c->fd != -1) {
		chan_set_unwatch(mm->cs, c->fd);
		close(c->fd);
	}
	sbuf_free(c->in);
	x_free(c);
	mux_master_check_idle(mm);
}

void
mux_master_quit(struct mux_master *mm)
{
	(void)tr_flush(chan_set_transport(mm->cs));
	conn_stop(mm->cs);
}

static void
persist_fire(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct mux_master *mm = arg;

	(void)ev;
	(void)tm;
	log_debug("ControlPersist timeout expired");
	mux_master_quit(mm);
}

/* Next turn, when a channel being freed now is gone from the count. */
void
mux_master_check_idle(struct mux_master *mm)
{
	if (mm->cs != NULL && !mm->own_session)
		ev_timer_start(chan_set_ev(mm->cs), &mm->idle_tm, 0, 0);
}

static void
idle_check(struct ev_loop *ev, struct ev_timer *tm, void *arg)
{
	struct mux_master *mm = arg;
	int busy;

	(void)tm;
	if (mm->cs == NULL)
		return;
	busy = mm->conns != NULL || chan_set_count(mm->cs) > 0;
	if (mm->stopped && !busy) {
		mux_master_quit(mm);
		return;
	}
	if (mm->persist <= 0 || mm->stopped)
		return;
	if (busy)
		ev_timer_stop(ev, &mm->persist_tm);
	else if (!ev_timer_active(&mm->persist_tm))
		ev_timer_start(ev, &mm->persist_tm,
		    (int64_t)mm->persist * 1000, 0);
}

static void
fwd_done(void *arg, int ok, int port)
{
	struct fwd_wait *w = arg, **wp;
	struct sbuf *m = sbuf_new();

	if (!ok)
		(void)mux_put_status(m, MUX_S_FAILURE, w->rid,
		    "Port forwarding failed");
	else if (w->zero_port)
		(void)mux_put_u32s(m, MUX_S_REMOTE_PORT, w->rid,
		    (uint32_t)port);
	else
		(void)mux_put_simple(m, MUX_S_OK, w->rid);
	(void)mux_conn_send(w->c, m);
	sbuf_free(m);
	for (wp = (struct fwd_wait **)&w->c->mm->waits; *wp != NULL;
	    wp = &(*wp)->next)
		if (*wp == w) {
			*wp = w->next;
			break;
		}
	x_free(w);
}

/* The request's fields as a forwarding (strings moved into f). */
static int
req_spec(struct mux_req *q, int kind, struct fwd_spec *f)
{
	memset(f, 0, sizeof(*f));
	if (q->listen_port == MUX_FWD_PATH_PORT) {
		f->listen_path = q->listen_host;
		q->listen_host = NULL;
	} else {
		f->listen_port = (int)q->listen_port;
		if (q->listen_host != NULL && *q->listen_host != '\0') {
			f->listen_host = q->listen_host;
			q->listen_host = NULL;
		}
	}
	if (kind == 'D' || (kind == 'R' && (q->connect_host == NULL ||
	    *q->connect_host == '\0')))
		return 0;
	if (q->connect_port == MUX_FWD_PATH_PORT) {
		f->connect_path = q->connect_host;
		q->connect_host = NULL;
	} else {
		f->connect_port = (int)q->connect_port;
		f->connect_host = q->connect_host;
		q->connect_host = NULL;
	}
	if (kind == 'L' && f->connect_host == NULL && f->connect_path == NULL)
		return ERR_INVALID_FORMAT;
	if (kind != 'R' && f->listen_path == NULL && f->listen_port == 0)
		return ERR_INVALID_FORMAT;
	return 0;
}

static void
do_fwd(struct mux_conn *c, struct mux_req *q)
{
	struct mux_master *mm = c->mm;
	struct fwd_spec f;
	struct fwd_wait *w;
	int r;
	int kind = q->ftype == MUX_FWD_LOCAL ? 'L' :
	    q->ftype == MUX_FWD_REMOTE ? 'R' : 'D';

	if (req_spec(q, kind, &f) != 0) {
		fwd_spec_clear(&f);
		send_status(c, MUX_S_FAILURE, q->rid,
		    "Invalid forwarding request");
		return;
	}
	if (q->type == MUX_C_CLOSE_FWD) {
		if (fwd_client_cancel_spec(mm->fc, kind, &f) != 0)
			send_status(c, MUX_S_FAILURE, q->rid,
			    "port not forwarded");
		else
			send_status(c, MUX_S_OK, q->rid, NULL);
		fwd_spec_clear(&f);
		return;
	}
	if (!mux_fwd_allowed(mm, kind, &f)) {
		fwd_spec_clear(&f);
		send_status(c, MUX_S_PERMISSION_DENIED, q->rid,
		    "Permission denied");
		return;
	}
	w = x_calloc(1, sizeof(*w));
	w->c = c;
	w->rid = q->rid;
	w->zero_port = kind == 'R' && f.listen_path == NULL &&
	    f.listen_port == 0;
	w->next = mm->waits;
	mm->waits = w;
	if ((r = fwd_client_add_spec(mm->fc, kind, &f, fwd_done, w)) != 0) {
		log_error("mux: requested %s forwarding failed: %s",
		    kind == 'L' ? "local" : kind == 'R' ? "remote" :
		    "dynamic", err_str(r));
		fwd_done(w, 0, 0);
	}
}

/* Take the n descriptors that follow a request. */
static int
take_fds(struct mux_conn *c, int *fds, int n)
{
	int i, r;

	for (i = 0; i < n; i++)
		fds[i] = -1;
	for (i = 0; i < n; i++)
		if ((r = fd_recv_fd(c->fd, MUX_FD_WAIT_MS, &fds[i])) != 0) {
			log_error("mux: cannot receive descriptor %d: %s",
			    i, err_str(r));
			while (--i >= 0)
				close(fds[i]);
			return r;
		}
	return 0;
}

/*
 * Proxy mode: the client's channels come over the socket from now on
 * (mux_proxy.c). Not for a client that has a session already.
 */
static int
do_proxy(struct mux_conn *c, struct mux_req *q)
{
	struct sbuf *m;
	int r;

	if (c->sess != NULL)
		return -1;
	if (!mux_allowed(c->mm, "Allow multiplex proxy connection", "")) {
		send_status(c, MUX_S_PERMISSION_DENIED, q->rid,
		    "proxy refused by user");
		return 0;
	}
	m = sbuf_new();
	if ((r = mux_put_simple(m, MUX_S_PROXY, q->rid)) == 0 &&
	    (r = mux_conn_send(c, m)) == 0)
		r = mproxy_start(c);
	sbuf_free(m);
	return r != 0 ? -1 : 0;
}

/* One whole request; non-zero: drop the client. */
static int
do_request(struct mux_conn *c, struct mux_req *q)
{
	struct mux_master *mm = c->mm;
	struct sbuf *m;
	int fds[3], n;

	if (!c->hello) {
		if (q->type != MUX_MSG_HELLO || q->version != MUX_VERSION) {
			log_error("mux: unsupported hello from client");
			return -1;
		}
		c->hello = 1;
		return 0;
	}
	switch (q->type) {
	case MUX_C_NEW_SESSION:
	case MUX_C_NEW_STDIO_FWD:
		if (c->sess != NULL)
			return -1;	/* one per client */
		n = q->type == MUX_C_NEW_SESSION ? 3 : 2;
		if (take_fds(c, fds, n))
			return -1;
		if (n == 3 ? !mux_allowed(mm, "Allow shared connection to ",
		    NULL) : !mux_allowed(mm, "Allow forward to ",
		    q->connect_host)) {
			while (n > 0)
				close(fds[--n]);
			send_status(c, MUX_S_PERMISSION_DENIED, q->rid,
			    "Permission denied");
			return 0;
		}
		if (q->type == MUX_C_NEW_SESSION)
			msess_start(c, q, fds);
		else
			msess_stdio(c, q, fds);
		return 0;
	case MUX_C_ALIVE_CHECK:
		m = sbuf_new();
		if (mux_put_u32s(m, MUX_S_ALIVE, q->rid,
		    (uint32_t)getpid()) == 0)
			(void)mux_conn_send(c, m);
		sbuf_free(m);
		return 0;
	case MUX_C_TERMINATE:
		if (!mux_allowed(mm, "Terminate shared connection to ",
		    NULL)) {
			send_status(c, MUX_S_PERMISSION_DENIED, q->rid,
			    "Permission denied");
			return 0;
		}
		send_status(c, MUX_S_OK, q->rid, NULL);
		mm->terminated = 1;
		mux_master_quit(mm);
		return 0;
	case MUX_C_OPEN_FWD:
	case MUX_C_CLOSE_FWD:
		do_fwd(c, q);
		return 0;
	case MUX_C_STOP_LISTENING:
		if (!mux_allowed(mm, "Disable further multiplexing on shared "
		    "connection to ", NULL)) {
			send_status(c, MUX_S_PERMISSION_DENIED, q->rid,
			    "Permission denied");
			return 0;
		}
		send_status(c, MUX_S_OK, q->rid, NULL);
		mux_master_close_listener(mm);
		mm->stopped = 1;
		mux_master_check_idle(mm);
		return 0;
	case MUX_C_PROXY:
		return do_proxy(c, q);
	default:
		send_status(c, MUX_S_FAILURE, q->rid, "unsupported request");
		return 0;
	}
}

/*
 * Read up to the end of the message under way and no further: 1 when
 * one is whole in c->in, 0 for later, -1 on end of file or an error.
 */
static int
read_some(struct mux_conn *c)
{
	const unsigned char *p = sbuf_ptr(c->in);
	size_t have = sbuf_len(c->in), want;
	unsigned char *d;
	ssize_t n;

	if (have < 4)
		want = 4 - have;
	else {
		want = (size_t)p[0] << 24 | (size_t)p[1] << 16 |
		    (size_t)p[2] << 8 | p[3];
		if (want > MUX_MAX_MSG)
			return -1;
		want -= have - 4;
	}
	if (want == 0)
		return 1;
	if (sbuf_reserve(c->in, want, &d) != 0)
		return -1;
	n = read(c->fd, d, want);
	if (n < 0) {
		(void)sbuf_consume_end(c->in, want);
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	}
	(void)sbuf_consume_end(c->in, want - (size_t)n);
	if (n == 0)
		return -1;
	return (size_t)n == want && have >= 4 ? 1 : 0;
}

static void
conn_read(struct chan_set *cs, int fd, short revents, void *arg)
{
	struct mux_conn *c = arg;
	const unsigned char *body;
	struct mux_req q;
	size_t len;
	int r, i;

	(void)cs;
	(void)fd;
	(void)revents;
	/* A few messages a turn; the header and body may need two reads. */
	for (i = 0; i < 8; i++) {
		if ((r = read_some(c)) < 0) {
			mux_conn_close(c);
			return;
		}
		if (r == 0 && (r = read_some(c)) <= 0) {
			if (r < 0)
				mux_conn_close(c);
			return;
		}
		if (mux_frame(c->in, &body, &len) != 0) {
			mux_conn_close(c);
			return;
		}
		r = mux_parse_request(body, len, &q);
		sbuf_reset(c->in);
		if (r != 0) {
			log_error("mux: malformed request from client: %s",
			    err_str(r));
			mux_req_clear(&q);
			mux_conn_close(c);
			return;
		}
		r = do_request(c, &q);
		mux_req_clear(&q);
		if (r != 0) {
			mux_conn_close(c);
			return;
		}
		/* Proxy mode reads the socket from now on (mux_proxy.c). */
		if (c->mm->terminated || c->px != NULL)
			return;
	}
}

static void
on_accept(struct chan_set *cs, int lfd, short revents, void *arg)
{
	struct mux_master *mm = arg;
	struct mux_conn *c;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct sbuf *m;
	int fd;

	(void)revents;
	if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK |
	    SOCK_CLOEXEC)) == -1)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1) {
		log_error("mux: getpeereid failed: %s", strerror(errno));
		close(fd);
		return;
	}
	if (cred.uid != 0 && cred.uid != getuid()) {
		log_error("multiplex uid mismatch: peer euid %u != uid %u",
		    (unsigned int)cred.uid, (unsigned int)getuid());
		close(fd);
		return;
	}
	c = x_calloc(1, sizeof(*c));
	c->mm = mm;
	c->fd = fd;
	c->in = sbuf_new();
	m = sbuf_new();
	if (mux_put_hello(m) != 0 || mux_conn_send(c, m) != 0 ||
	    chan_set_watch(cs, fd, POLLIN, conn_read, c) != 0) {
		sbuf_free(m);
		sbuf_free(c->in);
		close(fd);
		x_free(c);
		return;
	}
	sbuf_free(m);
	c->next = mm->conns;
	mm->conns = c;
	mux_master_check_idle(mm);
}

int
mux_master_setup(struct mux_master *mm, struct chan_set *cs,
    struct fwd_client *fc, struct agent_fwd *afwd, struct x11_fwd *x11,
    int own_session)
{
	if (mm == NULL)
		return 0;
	mm->cs = cs;
	mm->fc = fc;
	mm->afwd = afwd;
	mm->x11 = x11;
	mm->own_session = own_session;
	ev_timer_init(&mm->persist_tm, persist_fire, mm);
	ev_timer_init(&mm->idle_tm, idle_check, mm);
	if (mm->lfd != -1)
		(void)chan_set_watch(cs, mm->lfd, POLLIN, on_accept, mm);
	mux_master_check_idle(mm);
	return 0;
}

/* The loop is over: let go of the clients before the channels go. */
void
mux_master_detach(void *arg)
{
	struct mux_master *mm = arg;

	if (mm == NULL)
		return;
	while (mm->conns != NULL) {
		struct mux_conn *c = mm->conns;

		mm->conns = c->next;
		forget_waits(c);
		if (c->sess != NULL)
			msess_detach(c->sess);
		if (c->px != NULL)
			mproxy_detach(c->px);
		if (c->fd != -1) {
			chan_set_unwatch(mm->cs, c->fd);
			close(c->fd);
		}
		sbuf_free(c->in);
		x_free(c);
	}
	ev_timer_stop(chan_set_ev(mm->cs), &mm->persist_tm);
	ev_timer_stop(chan_set_ev(mm->cs), &mm->idle_tm);
	if (mm->lfd != -1)
		chan_set_unwatch(mm->cs, mm->lfd);
	mm->cs = NULL;
}

void
mux_master_winch(void *arg)
{
	struct mux_master *mm = arg;
	struct mux_conn *c;

	for (c = mm != NULL ? mm->conns : NULL; c != NULL; c = c->next)
		if (c->sess != NULL)
			msess_winch(c->sess);
}

int
mux_master_terminated(const struct mux_master *mm)
{
	return mm != NULL && mm->terminated;
}

void
mux_master_close_listener(struct mux_master *mm)
{
	if (mm == NULL)
		return;
	if (mm->lfd != -1) {
		if (mm->cs != NULL)
			chan_set_unwatch(mm->cs, mm->lfd);
		close(mm->lfd);
		mm->lfd = -1;
	}
	if (mm->path != NULL) {
		(void)unlink(mm->path);
		x_free(mm->path);
		mm->path = NULL;
	}
}

void
mux_master_forget(struct mux_master *mm)
{
	if (mm == NULL)
		return;
	if (mm->lfd != -1)
		close(mm->lfd);
	x_free(mm->path);
	x_free(mm->host);
	x_free(mm);
}

void
mux_master_free(struct mux_master *mm)
{
	if (mm == NULL)
		return;
	if (mm->cs != NULL)
		mux_master_detach(mm);
	mux_master_close_listener(mm);
	x_free(mm->host);
	x_free(mm);
}
