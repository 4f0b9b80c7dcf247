/*
 * fwd_client.c: the client's side of TCP forwarding (see fwd_client.h);
 * forwardings added and cancelled later are fwd_client_live.c's.
 *
 * Setup, once the connection is authenticated: each LocalForward and
 * DynamicForward gets listening sockets (GatewayPorts decides the bind
 * address when none is given) watched by the connection loop; each
 * RemoteForward becomes a tcpip-forward global request whose reply is
 * reported (the allocated port when 0 was asked); -W opens one
 * direct-tcpip channel on stdin/stdout and ends the connection with it.
 * Incoming forwarded-tcpip channels are matched to the RemoteForward by
 * listen port and connected without blocking (fwd.c); for a
 * RemoteForward with no target this side serves SOCKS on the channel
 * (socks_rev.c), as OpenSSH 7.6 and later do.
 *
 * Socket paths (fwd_unix.c): a LocalForward from a path listens on a
 * Unix socket; one to a path opens direct-streamlocal@openssh.com
 * channels; a RemoteForward from a path is a
 * streamlocal-forward@openssh.com request whose
 * forwarded-streamlocal@openssh.com channels are matched by path; a
 * RemoteForward to a path connects its channels to the socket here.
 * ~C -KL/-KR take a path too (cancel-streamlocal-forward@openssh.com).
 *
 * ExitOnForwardFailure: a listener that cannot be set up fails setup;
 * a refused remote forward ends the connection. Either way the exit
 * status becomes 255.
 */
#include <sys/socket.h>

#include <ctype.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "client.h"
#include "err.h"
#include "fwd.h"
#include "fwd_client.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"
#include "fwd_client_int.h"

int
fwd_client_option(struct client_opts *o, int ch, const char *arg)
{
	struct fwd_spec f;
	char *q;
	const char *kw = ch == 'L' ? "LocalForward" : ch == 'R' ?
	    "RemoteForward" : "DynamicForward";

	if (ch == 'W') {
		if (fwd_parse_spec(arg, 0, &f) == 0 ||
		    (q = strrchr(arg, ':')) == NULL || q == arg) {
			fwd_spec_clear(&f);
			fprintf(stderr, "stdio forward: bad host:port "
			    "\"%s\"\n", arg);
			return ERR_INVALID_ARGUMENT;
		}
		x_free(o->stdio_forward_host);
		if (arg[0] == '[' && q[-1] == ']')	/* [v6 or host]:port */
			o->stdio_forward_host = x_strndup(arg + 1,
			    (size_t)(q - arg) - 2);
		else
			o->stdio_forward_host = x_strndup(arg,
			    (size_t)(q - arg));
		o->stdio_forward_port = atoi(q + 1);
		if (o->stdio_forward_port <= 0 ||
		    o->stdio_forward_port > 65535) {
			fprintf(stderr, "Bad stdio forwarding "
			    "specification '%s'\n", arg);
			return ERR_INVALID_ARGUMENT;
		}
		return 0;
	}
	if (fwd_parse_spec(arg, ch == 'L' ? 0 : ch == 'R' ? 2 : 1, &f)
	    != 0) {
		fprintf(stderr, "Bad %s forwarding specification '%s'\n",
		    ch == 'L' ? "local" : ch == 'R' ? "remote" : "dynamic",
		    arg);
		return ERR_INVALID_ARGUMENT;
	}
	fwd_spec_clear(&f);
	/* The spec is sound: a refusal now is the option table's. */
	return readconf_set(o, kw, arg) == 0 ? 0 : ERR_CONFIG;
}

/* "[bind:]port host:hostport" (config) or the -L form: one spec. */
int
fc_parse_written(const char *w, int dynamic, struct fwd_spec *f)
{
	char *s = x_strdup(w), *p;
	int r;

	for (p = s; *p != '\0'; p++)
		if (isspace((unsigned char)*p))
			*p = ':';
	r = fwd_parse_spec(s, dynamic, f);
	x_free(s);
	return r;
}

int
fwd_client_parse(const char *written, int kind, struct fwd_spec *f)
{
	return fc_parse_written(written, kind == 'L' ? 0 : kind == 'R' ? 2 : 1,
	    f);
}

struct fwd_client *
fwd_client_new(const struct client_opts *o)
{
	struct fwd_client *fc = x_calloc(1, sizeof(*fc));
	char *const *lists[3] = { o->local_forwards, o->remote_forwards,
	    o->dynamic_forwards };
	size_t counts[3] = { o->nlocal_forwards, o->nremote_forwards,
	    o->ndynamic_forwards };
	const int kinds[3] = { 'L', 'R', 'D' };
	size_t k, i;

	fc->o = o;
	if (o->clear_all_forwardings > 0)
		return fc;
	for (k = 0; k < 3; k++) {
		for (i = 0; i < counts[k] && fc->n < FC_MAX; i++) {
			struct cl_fwd *f = x_calloc(1, sizeof(*f));

			f->fc = fc;
			f->kind = kinds[k];
			if (fc_parse_written(lists[k][i], kinds[k] == 'L' ? 0 :
			    kinds[k] == 'R' ? 2 : 1, &f->spec) != 0) {
				log_error("Bad forwarding specification "
				    "'%s'", lists[k][i]);
				x_free(f);
				continue;
			}
			fc->f[fc->n++] = f;
		}
	}
	return fc;
}

int
fwd_client_failed(const struct fwd_client *fc)
{
	return fc != NULL && fc->failed;
}

int
fwd_client_status(const struct fwd_client *fc, int status)
{
	if (fc == NULL)
		return status;
	if (fc->failed)
		return 255;
	if (fc->o->stdio_forward_host != NULL)
		return fc->stdio_ok ? 0 : 255;
	return status;
}

void
fwd_client_free(struct fwd_client *fc)
{
	size_t i;

	if (fc == NULL)
		return;
	socks_rev_free_all(&fc->rsocks);
	for (i = 0; i < fc->n; i++) {
		fwd_listener_close(&fc->f[i]->l);
		fwd_spec_clear(&fc->f[i]->spec);
		x_free(fc->f[i]);
	}
	x_free(fc);
}

/* End the connection from inside the loop (as the session does). */
static void
fc_quit(struct fwd_client *fc)
{
	fc->failed = 1;
	(void)tr_flush(chan_set_transport(fc->cs));
	conn_stop(fc->cs);
}

/* ---- -L ---- */

static const struct chan_ops direct_ops = {
	.type = "direct-tcpip",
	.opened = fwd_chan_opened,
	.free = fwd_chan_free,
};

static void
local_accept(struct chan_set *cs, int lfd, short revents, void *arg)
{
	struct cl_fwd *f = arg;
	char orig[1025];
	struct sbuf *extra;
	int fd, oport;

	(void)revents;
	if (f->kind == 'D' && f->spec.connect_path == NULL) {
		socks_accept(cs, lfd);
		return;
	}
	if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK |
	    SOCK_CLOEXEC)) == -1)
		return;
	if (f->spec.connect_path != NULL) {
		if (fwd_unix_open_direct(cs, fd, f->spec.connect_path) != 0)
			log_error("channel: cannot open "
			    "direct-streamlocal@openssh.com");
		return;
	}
	if (f->spec.listen_path != NULL) {
		/* No address to give: what ssh(1) sends instead. */
		snprintf(orig, sizeof(orig), "127.0.0.1");
		oport = 65535;
	} else
		fwd_peer_name(fd, 0, orig, sizeof(orig), &oport);
	extra = sbuf_new();
	if (fwd_put_addrs(extra, f->spec.connect_host, f->spec.connect_port,
	    orig, oport) != 0 || fwd_chan_open_fd(cs, &direct_ops, fd,
	    extra) != 0)
		log_error("channel: cannot open direct-tcpip");
	sbuf_free(extra);
}

static int
setup_unix_listener(struct fwd_client *fc, struct cl_fwd *f)
{
	const struct client_opts *o = fc->o;
	int fd, r;

	if ((r = fwd_unix_listen(f->spec.listen_path,
	    o->streamlocal_bind_mask >= 0 ? o->streamlocal_bind_mask : 0177,
	    o->streamlocal_bind_unlink > 0, &fd)) != 0) {
		log_error("Could not request %s forwarding.",
		    f->kind == 'L' ? "local" : "dynamic");
		return r;
	}
	f->l.fds[0] = fd;
	f->l.nfds = 1;
	(void)chan_set_watch(fc->cs, fd, POLLIN, local_accept, f);
	log_debug("Local forwarding listening on path %s.",
	    f->spec.listen_path);
	return 0;
}

int
fc_setup_listener(struct fwd_client *fc, struct cl_fwd *f)
{
	const char *addr, *err;
	int r, wildcard, gw = fc->o->gateway_ports > 0 ? 1 : 0;
	size_t i;

	if (f->spec.listen_path != NULL)
		return setup_unix_listener(fc, f);
	fwd_bind_addr(f->spec.listen_host, gw, 1, &addr, &wildcard);
	if ((r = fwd_listen(addr, wildcard, f->spec.listen_port, &f->l,
	    &err)) != 0) {
		log_error("bind [%s]:%d: %s", addr != NULL ? addr :
		    wildcard ? "*" : "127.0.0.1", f->spec.listen_port, err);
		log_error("channel_setup_fwd_listener_tcpip: cannot listen "
		    "to port: %d", f->spec.listen_port);
		log_error("Could not request %s forwarding.",
		    f->kind == 'L' ? "local" : "dynamic");
		return r;
	}
	for (i = 0; i < f->l.nfds; i++)
		(void)chan_set_watch(fc->cs, f->l.fds[i], POLLIN,
		    local_accept, f);
	log_debug("Local forwarding listening on port %d.", f->l.port);
	return 0;
}

/* ---- -R ---- */

static void
remote_reply(struct chan_set *cs, void *arg, int ok, struct sbuf *body)
{
	struct cl_fwd *f = arg;
	uint32_t port;

	if (f->done != NULL) {
		fwd_client_done_fn done = f->done;

		f->done = NULL;
		if (!ok)
			f->canceled = 1;
		done(f->done_arg, ok, ok && f->spec.listen_port == 0 &&
		    body != NULL && sbuf_get_u32(body, &port) == 0 ?
		    (f->allocated = (int)port) : 0);
		return;
	}
	if (!ok) {
		char what[160];
		int eoff = f->fc->o->exit_on_forward_failure > 0;

		if (f->spec.listen_path != NULL)
			snprintf(what, sizeof(what), "path %s",
			    f->spec.listen_path);
		else
			snprintf(what, sizeof(what), "port %d",
			    f->spec.listen_port);
		log_error("%s: remote port forwarding failed for listen %s",
		    eoff ? "Error" : "Warning", what);
		if (eoff)
			fc_quit(f->fc);
		return;
	}
	if (f->spec.listen_path != NULL) {
		log_debug("remote forward success for: listen path %s",
		    f->spec.listen_path);
		return;
	}
	if (f->spec.listen_port == 0 && body != NULL &&
	    sbuf_get_u32(body, &port) == 0) {
		f->allocated = (int)port;
		/* A path target shows as ssh(1) shows it: path:-2. */
		log_error("Allocated port %u for remote forward to %s:%d",
		    port, f->spec.connect_path != NULL ?
		    f->spec.connect_path : f->spec.connect_host != NULL ?
		    f->spec.connect_host : "", f->spec.connect_path != NULL ?
		    -2 : f->spec.connect_port);
	}
	log_debug("remote forward success for: listen %d", f->spec.listen_port);
}

int
fc_request_remote(struct fwd_client *fc, struct cl_fwd *f)
{
	const char *h = f->spec.listen_host;
	struct sbuf *b;

	if (f->spec.listen_path != NULL) {
		if ((b = chan_global_start(fc->cs,
		    "streamlocal-forward@openssh.com", 1, remote_reply,
		    f)) == NULL ||
		    sbuf_put_cstring(b, f->spec.listen_path) != 0)
			return ERR_INTERNAL;
		return chan_msg_send(fc->cs);
	}
	if (h == NULL)
		h = "localhost";
	else if (strcmp(h, "*") == 0)
		h = "";
	if ((b = chan_global_start(fc->cs, "tcpip-forward", 1, remote_reply,
	    f)) == NULL || sbuf_put_cstring(b, h) != 0 ||
	    sbuf_put_u32(b, (uint32_t)f->spec.listen_port) != 0)
		return ERR_INTERNAL;
	return chan_msg_send(fc->cs);
}

/* Connect a forwarded channel for f to its target here. */
static int
remote_target(struct chan_set *cs, struct chan *c, struct cl_fwd *f,
    uint32_t *reasonp, const char **descp)
{
	if (f->spec.connect_path != NULL)
		return fwd_unix_attach(c, f->spec.connect_path, reasonp,
		    descp);
	if (f->spec.connect_host == NULL)
		return socks_rev_start(cs, c, f->fc->o, &f->fc->rsocks,
		    reasonp, descp);
	return fwd_chan_connect(cs, c, f->spec.connect_host,
	    f->spec.connect_port, reasonp, descp);
}

static int
forwarded_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	struct fwd_client *fc = c->type_arg;
	struct cl_fwd *f = NULL;
	char *addr = NULL, *orig = NULL;
	uint32_t port, oport;
	size_t i;
	int r;

	if ((r = sbuf_get_cstring(extra, &addr, NULL)) != 0 ||
	    (r = sbuf_get_u32(extra, &port)) != 0 ||
	    (r = sbuf_get_cstring(extra, &orig, NULL)) != 0 ||
	    (r = sbuf_get_u32(extra, &oport)) != 0)
		goto out;
	for (i = 0; i < fc->n && f == NULL; i++)
		if (fc->f[i]->kind == 'R' && !fc->f[i]->canceled &&
		    fc->f[i]->spec.listen_path == NULL &&
		    (fc->f[i]->spec.listen_port == (int)port ||
		    (fc->f[i]->spec.listen_port == 0 &&
		    fc->f[i]->allocated == (int)port)))
			f = fc->f[i];
	if (f == NULL) {
		log_info("WARNING: Server requests forwarding for unknown "
		    "listen_port %u", port);
		*reasonp = SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED;
		*descp = "open failed";
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	log_debug("client_request_forwarded_tcpip: listen %s port %u, "
	    "originator %s port %u", addr, port, orig, oport);
	r = remote_target(cs, c, f, reasonp, descp);
 out:
	x_free(addr);
	x_free(orig);
	return r;
}

/* forwarded-streamlocal@openssh.com: socket path, reserved string. */
static int
forwarded_stream_open(struct chan_set *cs, struct chan *c,
    struct sbuf *extra, uint32_t *reasonp, const char **descp)
{
	struct fwd_client *fc = c->type_arg;
	struct cl_fwd *f = NULL;
	char *path = NULL, *resv = NULL;
	size_t i;
	int r;

	*reasonp = SSH2_OPEN_CONNECT_FAILED;
	*descp = "open failed";
	if ((r = sbuf_get_cstring(extra, &path, NULL)) != 0 ||
	    (r = sbuf_get_cstring(extra, &resv, NULL)) != 0)
		goto out;
	for (i = 0; i < fc->n && f == NULL; i++)
		if (fc->f[i]->kind == 'R' && !fc->f[i]->canceled &&
		    fc->f[i]->spec.listen_path != NULL &&
		    strcmp(fc->f[i]->spec.listen_path, path) == 0)
			f = fc->f[i];
	if (f == NULL) {
		log_info("WARNING: Server requests forwarding for unknown "
		    "path %.100s", path);
		*reasonp = SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED;
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	log_debug("client_request_forwarded_streamlocal: request: %s", path);
	r = remote_target(cs, c, f, reasonp, descp);
 out:
	x_free(path);
	x_free(resv);
	return r;
}

static const struct chan_ops forwarded_stream_ops = {
	.type = "forwarded-streamlocal@openssh.com",
	.open = forwarded_stream_open,
	.free = fwd_chan_free,
};

static const struct chan_ops forwarded_ops = {
	.type = "forwarded-tcpip",
	.open = forwarded_open,
	.free = fwd_chan_free,
};

/* ---- -W ---- */

static void
stdio_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct fwd_client *fc = c->ctx;
	int in, out;

	c->ctx = NULL;
	if (!ok) {
		log_error("stdio forwarding failed");
		fc->failed = 1;
		return;
	}
	fc->stdio_ok = 1;
	in = dup(STDIN_FILENO);
	out = dup(STDOUT_FILENO);
	chan_set_fds(c, in, out, -1, CHAN_EFD_NONE, 0);
}

static const struct chan_ops stdio_ops = {
	.type = "direct-tcpip",
	.opened = stdio_opened,
};

int
fwd_client_setup(struct chan_set *cs, void *arg)
{
	struct fwd_client *fc = arg;
	const struct client_opts *o = fc->o;
	struct sbuf *extra;
	struct chan *c;
	size_t i;
	int r, exit_on = o->exit_on_forward_failure > 0;

	fc->cs = cs;
	if ((r = chan_set_register(cs, &forwarded_ops, fc)) != 0 ||
	    (r = chan_set_register(cs, &forwarded_stream_ops, fc)) != 0)
		return r;
	if (o->stdio_forward_host != NULL) {
		extra = sbuf_new();
		r = fwd_put_addrs(extra, o->stdio_forward_host,
		    o->stdio_forward_port, "stdio", 0);
		if (r == 0)
			r = chan_open(cs, &stdio_ops, fc, extra, &c);
		sbuf_free(extra);
		if (r != 0)
			return r;
		chan_set_exit_when_idle(cs, 1);
	}
	for (i = 0; i < fc->n; i++) {
		struct cl_fwd *f = fc->f[i];

		if (f->kind == 'R')
			r = fc_request_remote(fc, f);
		else
			r = fc_setup_listener(fc, f);
		if (r != 0 && (exit_on || f->kind == 'R')) {
			fc->failed = 1;
			return ERR_CONFIG;
		}
	}
	return 0;
}
