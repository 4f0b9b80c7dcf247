/*
 * fwd_server.c: the server's side of TCP forwarding (see fwd_server.h).
 *
 * direct-tcpip: the open hook checks the rules, then starts a
 * non-blocking connect (fwd.c); the open is answered when it completes.
 * tcpip-forward: the global request checks the rules, binds per
 * GatewayPorts and watches the listening sockets; each accepted
 * connection becomes a forwarded-tcpip channel towards the client,
 * naming the address and port the client asked for (the allocated port
 * when it asked for 0). cancel-tcpip-forward closes the listener. The
 * listeners, the accept path and the registration are fwd_listen.c's,
 * shared with Unix-socket forwarding; this file has what is TCP's.
 *
 * Refusals follow OpenSSH: OPEN_FAILURE "administratively prohibited" /
 * REQUEST_FAILURE, and a log line in OpenSSH's wording with the rule
 * that refused in parentheses.
 */
#include <sys/socket.h>

#include <netdb.h>
#include <pwd.h>
#include <string.h>

#include "authopts.h"
#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "fwd_listen.h"
#include "fwd_server.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"

/* A tcpip-forward listener (the item of its fwd_listen entry). */
struct srv_listen {
	char *host;			/* as the client asked */
	int port;			/* as asked; 0: allocated */
	struct fwd_listener l;
};

/* What cancel-tcpip-forward names. */
struct srv_key {
	const char *host;
	uint32_t port;
};

struct fwd_server {
	struct fwd_lset tcp;
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
	struct fwd_lset *fs = c->type_arg;
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
			chan_log_refusal(cs, LOG_LEVEL_INFO, "Received request "
			    "from %s port %d to connect to host %.100s port "
			    "%u, but the request was denied. (%s)", fs->raddr,
			    fs->rport, host, port, rule);
		else
			chan_log_refusal(cs, LOG_LEVEL_INFO, "refused local "
			    "port forward: originator %.100s port %u, target "
			    "%.100s port %u (%s)", orig, oport, host, port,
			    rule);
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

static int
put_extra(struct fwd_lset *fs, void *item, int fd, struct sbuf *extra)
{
	struct srv_listen *sl = item;
	char orig[NI_MAXHOST];
	int oport;

	fwd_peer_name(fd, 0, orig, sizeof(orig), &oport);
	log_debug("forwarded-tcpip: listen %s port %d, originator %s "
	    "port %d", sl->host, sl->l.port, orig, oport);
	return fwd_put_addrs(extra, sl->host, sl->l.port, orig, oport);
}

static void
listener_close(struct fwd_lset *fs, void *item)
{
	struct srv_listen *sl = item;

	fwd_listener_close(&sl->l);
	x_free(sl->host);
	x_free(sl);
}

static int
global_forward(struct chan_set *cs, void *arg, struct sbuf *body,
    struct sbuf *reply)
{
	struct fwd_lset *fs = arg;
	struct srv_listen *sl = NULL;
	const char *rule, *addr, *err;
	char *host = NULL;
	uint32_t port;
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
			chan_log_refusal(cs, LOG_LEVEL_INFO, "Received request "
			    "from %s port %d to remote forward to host %.100s "
			    "port %u, but the request was denied. (%s)",
			    fs->raddr, fs->rport, host, port, rule);
		else
			chan_log_refusal(cs, LOG_LEVEL_INFO, "refused remote "
			    "port forward: listen %.100s port %u (%s)", host,
			    port, rule);
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if ((r = fwd_lset_room(cs, fs)) != 0)
		goto out;
	sl = x_calloc(1, sizeof(*sl));
	sl->port = (int)port;
	fwd_bind_addr(host, fs->sc->gateway_ports, 0, &addr, &wildcard);
	if ((r = fwd_listen(addr, wildcard, (int)port, &sl->l, &err)) != 0) {
		chan_log_refusal(cs, LOG_LEVEL_INFO, "tcpip-forward: cannot "
		    "listen on %.100s port %u: %s", host, port, err);
		goto out;
	}
	if (port == 0 && (r = sbuf_put_u32(reply, (uint32_t)sl->l.port)) != 0)
		goto out;
	sl->host = host;
	host = NULL;
	if ((r = fwd_lset_add(cs, fs, sl, sl->l.fds, sl->l.nfds)) != 0)
		goto out;
	log_debug("Local forwarding listening on %s port %d.", sl->host,
	    sl->l.port);
	sl = NULL;
 out:
	if (sl != NULL)
		listener_close(fs, sl);
	x_free(host);
	return r;
}

/* Does listener item answer cancel-tcpip-forward key? */
static int
listen_match(const void *item, const void *key)
{
	const struct srv_listen *sl = item;
	const struct srv_key *k = key;

	return strcmp(sl->host, k->host) == 0 &&
	    (sl->port == (int)k->port || sl->l.port == (int)k->port);
}

static int
global_cancel(struct chan_set *cs, void *arg, struct sbuf *body,
    struct sbuf *reply)
{
	struct fwd_lset *fs = arg;
	struct srv_key key;
	char *host = NULL;
	size_t i;
	int r;

	if ((r = sbuf_get_cstring(body, &host, NULL)) != 0 ||
	    (r = sbuf_get_u32(body, &key.port)) != 0)
		goto out;
	key.host = host;
	if ((r = fwd_lset_find(fs, listen_match, &key, &i)) != 0)
		goto out;
	log_debug("cancel-tcpip-forward: listen %s port %u", host, key.port);
	fwd_lset_remove(cs, fs, i);
 out:
	x_free(host);
	return r;
}

/* The row fwd_listen.c works from, in struct fwd_kind's order. */
static const struct fwd_kind tcp_kind = {
	"tcpip-forward", "forwarded-tcpip", &direct_ops, &forwarded_ops,
	"tcpip-forward", global_forward, "cancel-tcpip-forward",
	global_cancel, put_extra, listener_close
};

int
fwd_server_setup(struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, const struct passwd *pw, const char *raddr,
    int rport, struct fwd_server **out)
{
	struct fwd_server *fs = x_calloc(1, sizeof(*fs));
	int r;

	*out = NULL;
	if ((r = fwd_lset_setup(&fs->tcp, &tcp_kind, cs, sc, opts, pw, raddr,
	    rport)) != 0 ||
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
	if (fs == NULL)
		return;
	fwd_lset_clear(&fs->tcp);
	fwd_stream_free(fs->stream);
	x_free(fs);
}
