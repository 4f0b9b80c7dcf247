/*
 * fwd_server.c: the server's side of TCP forwarding (see fwd_server.h).
 *
 * direct-tcpip: the open hook checks the rules, then starts a
 * non-blocking connect (fwd.c); the open is answered when it completes.
 * tcpip-forward: the global request checks the rules, binds per
 * GatewayPorts and watches the listening sockets; each accepted
 * connection becomes a forwarded-tcpip channel towards the client,
 * naming the address and port the client asked for (the allocated port
 * when it asked for 0). cancel-tcpip-forward closes the listener.
 *
 * Refusals follow OpenSSH: OPEN_FAILURE "administratively prohibited" /
 * REQUEST_FAILURE, and a log line in OpenSSH's wording with the rule
 * that refused in parentheses.
 */
#include <sys/socket.h>

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "authopts.h"
#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "fwd_server.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"

#define FWD_MAX_LISTENERS	64

struct srv_listen {
	struct fwd_server *fs;
	char *host;			/* as the client asked */
	int port;			/* as asked; 0: allocated */
	struct fwd_listener l;
};

struct fwd_server {
	struct chan_set *cs;
	const struct servconf *sc;
	const struct authopts *opts;
	const struct passwd *pw;
	const char *raddr;
	int rport;
	struct srv_listen *ls[FWD_MAX_LISTENERS];
	size_t nls;
	struct fwd_stream *stream;	/* Unix-socket forwarding */
};

const char *
fwd_server_refusal(const struct servconf *sc, const struct authopts *opts,
    unsigned int uid, int remote, const char *host, int port)
{
	if (sc->disable_forwarding)
		return "DisableForwarding";
	if ((sc->allow_tcp_forwarding & (remote ? 1 : 2)) == 0)
		return "AllowTcpForwarding";
	if (opts != NULL && !opts->permit_port_forwarding)
		return opts->restricted ? "restrict" : "no-port-forwarding";
	if (!remote) {
		if (!fwd_permit_open(sc->permit_open, sc->npermit_open, host,
		    port))
			return "PermitOpen";
		if (opts != NULL && !fwd_permit_open(opts->permitopen,
		    opts->npermitopen, host, port))
			return "permitopen";
		return NULL;
	}
	if (port != 0 && port < 1024 && uid != 0)
		return "privileged port";
	if (!fwd_permit_listen(sc->permit_listen, sc->npermit_listen, host,
	    port))
		return "PermitListen";
	if (opts != NULL && !fwd_permit_listen(opts->permitlisten,
	    opts->npermitlisten, host, port))
		return "permitlisten";
	return NULL;
}

static int
is_list_rule(const char *rule)
{
	return strcasecmp(rule, "PermitOpen") == 0 ||
	    strcasecmp(rule, "PermitListen") == 0;
}

/* ---- direct-tcpip ---- */

static int
direct_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	struct fwd_server *fs = c->type_arg;
	char *host = NULL, *orig = NULL;
	uint32_t port, oport;
	const char *rule;
	int r;

	if ((r = sbuf_get_cstring(extra, &host, NULL)) != 0 ||
	    (r = sbuf_get_u32(extra, &port)) != 0 ||
	    (r = sbuf_get_cstring(extra, &orig, NULL)) != 0 ||
	    (r = sbuf_get_u32(extra, &oport)) != 0) {
		*descp = "bad request";
		goto out;
	}
	log_debug("server_request_direct_tcpip: originator %s port %u, "
	    "target %s port %u", orig, oport, host, port);
	rule = port > 65535 ? "bad port" : fwd_server_refusal(fs->sc,
	    fs->opts, fs->pw->pw_uid, 0, host, (int)port);
	if (rule != NULL) {
		if (is_list_rule(rule))
			log_info("Received request from %s port %d to connect "
			    "to host %s port %u, but the request was denied. "
			    "(%s)", fs->raddr, fs->rport, host, port, rule);
		else
			log_info("refused local port forward: originator %s "
			    "port %u, target %s port %u (%s)", orig, oport,
			    host, port, rule);
		*reasonp = SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED;
		*descp = "open failed";
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	r = fwd_chan_connect(cs, c, host, (int)port, reasonp, descp);
 out:
	x_free(host);
	x_free(orig);
	return r;
}

static const struct chan_ops direct_ops = {
	.type = "direct-tcpip",
	.open = direct_open,
	.free = fwd_chan_free,
};

/* ---- tcpip-forward ---- */

static const struct chan_ops forwarded_ops = {
	.type = "forwarded-tcpip",
	.opened = fwd_chan_opened,
	.free = fwd_chan_free,
};

static void
accept_cb(struct chan_set *cs, int lfd, short revents, void *arg)
{
	struct srv_listen *sl = arg;
	char orig[NI_MAXHOST];
	struct sbuf *extra;
	int fd, oport;

	if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK |
	    SOCK_CLOEXEC)) == -1) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_error("accept: %s", strerror(errno));
		return;
	}
	fwd_peer_name(fd, 0, orig, sizeof(orig), &oport);
	log_debug("forwarded-tcpip: listen %s port %d, originator %s "
	    "port %d", sl->host, sl->l.port, orig, oport);
	extra = sbuf_new();
	if (fwd_put_addrs(extra, sl->host, sl->l.port, orig, oport) != 0 ||
	    fwd_chan_open_fd(cs, &forwarded_ops, fd, extra) != 0)
		log_info("forwarded-tcpip: cannot open a channel");
	sbuf_free(extra);
}

static void
listener_free(struct chan_set *cs, struct srv_listen *sl)
{
	size_t i;

	for (i = 0; i < sl->l.nfds; i++)
		if (cs != NULL)
			chan_set_unwatch(cs, sl->l.fds[i]);
	fwd_listener_close(&sl->l);
	x_free(sl->host);
	x_free(sl);
}

static int
global_forward(struct chan_set *cs, void *arg, struct sbuf *body,
    struct sbuf *reply)
{
	struct fwd_server *fs = arg;
	struct srv_listen *sl = NULL;
	const char *rule, *addr, *err;
	char *host = NULL;
	uint32_t port;
	size_t i;
	int wildcard, r;

	if ((r = sbuf_get_cstring(body, &host, NULL)) != 0 ||
	    (r = sbuf_get_u32(body, &port)) != 0)
		goto out;
	log_debug("server_input_global_request: tcpip-forward listen %s "
	    "port %u", host, port);
	rule = port > 65535 ? "bad port" : fwd_server_refusal(fs->sc,
	    fs->opts, fs->pw->pw_uid, 1, host, (int)port);
	if (rule != NULL) {
		if (strcasecmp(rule, "PermitListen") == 0)
			log_info("Received request from %s port %d to remote "
			    "forward to host %s port %u, but the request was "
			    "denied. (%s)", fs->raddr, fs->rport, host, port,
			    rule);
		else
			log_info("refused remote port forward: listen %s "
			    "port %u (%s)", host, port, rule);
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if (fs->nls >= FWD_MAX_LISTENERS) {
		log_info("tcpip-forward: too many listeners");
		r = ERR_NO_BUFFER_SPACE;
		goto out;
	}
	sl = x_calloc(1, sizeof(*sl));
	sl->fs = fs;
	sl->port = (int)port;
	fwd_bind_addr(host, fs->sc->gateway_ports, 0, &addr, &wildcard);
	if ((r = fwd_listen(addr, wildcard, (int)port, &sl->l, &err)) != 0) {
		log_info("tcpip-forward: cannot listen on %s port %u: %s",
		    host, port, err);
		goto out;
	}
	for (i = 0; i < sl->l.nfds; i++)
		if ((r = chan_set_watch(cs, sl->l.fds[i], POLLIN, accept_cb,
		    sl)) != 0)
			goto out;
	if (port == 0 && (r = sbuf_put_u32(reply, (uint32_t)sl->l.port)) != 0)
		goto out;
	log_debug("Local forwarding listening on %s port %d.", host,
	    sl->l.port);
	sl->host = host;
	host = NULL;
	fs->ls[fs->nls++] = sl;
	sl = NULL;
 out:
	if (sl != NULL)
		listener_free(cs, sl);
	x_free(host);
	return r;
}

static int
global_cancel(struct chan_set *cs, void *arg, struct sbuf *body,
    struct sbuf *reply)
{
	struct fwd_server *fs = arg;
	char *host = NULL;
	uint32_t port;
	size_t i;
	int r;

	if ((r = sbuf_get_cstring(body, &host, NULL)) != 0 ||
	    (r = sbuf_get_u32(body, &port)) != 0)
		goto out;
	r = ERR_NOT_FOUND;
	for (i = 0; i < fs->nls; i++) {
		struct srv_listen *sl = fs->ls[i];

		if (strcmp(sl->host, host) != 0 ||
		    (sl->port != (int)port && sl->l.port != (int)port))
			continue;
		log_debug("cancel-tcpip-forward: listen %s port %u", host,
		    port);
		listener_free(cs, sl);
		fs->ls[i] = fs->ls[--fs->nls];
		r = 0;
		break;
	}
 out:
	x_free(host);
	return r;
}

int
fwd_server_setup(struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, const struct passwd *pw, const char *raddr,
    int rport, struct fwd_server **out)
{
	struct fwd_server *fs = x_calloc(1, sizeof(*fs));
	int r;

	*out = NULL;
	fs->cs = cs;
	fs->sc = sc;
	fs->opts = opts;
	fs->pw = pw;
	fs->raddr = raddr;
	fs->rport = rport;
	if ((r = chan_set_register(cs, &direct_ops, fs)) != 0 ||
	    (r = chan_set_global(cs, "tcpip-forward", global_forward,
	    fs)) != 0 ||
	    (r = chan_set_global(cs, "cancel-tcpip-forward", global_cancel,
	    fs)) != 0 ||
	    (r = fwd_stream_setup(cs, sc, opts, pw, raddr, rport,
	    &fs->stream)) != 0) {
		x_free(fs);
		return r;
	}
	*out = fs;
	return 0;
}

void
fwd_server_free(struct fwd_server *fs)
{
	size_t i;

	if (fs == NULL)
		return;
	for (i = 0; i < fs->nls; i++)
		listener_free(NULL, fs->ls[i]);
	fwd_stream_free(fs->stream);
	x_free(fs);
}
