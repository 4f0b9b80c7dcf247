/*
 * fwd.h: TCP forwarding machinery shared by the server and the client
 * (RFC 4254 section 7): parsing forwarding specifications, choosing the
 * listen address, listening sockets, non-blocking connects, and channels
 * whose rfd/wfd is a TCP socket.
 *
 * Two channel shapes:
 *   - The peer opens a channel we must connect for (server: direct-tcpip;
 *     client: forwarded-tcpip). The type's open hook calls
 *     fwd_chan_connect(), which starts a non-blocking connect and returns
 *     ERR_AGAIN; the open is confirmed once the connect completes (or
 *     refused with "connect failed" and the error).
 *   - We accepted a connection and open a channel for it (server:
 *     forwarded-tcpip; client: direct-tcpip for -L). fwd_chan_open_fd()
 *     sends the open; the socket is attached when it is confirmed and
 *     closed when it is refused.
 * In both the channel layer moves the data and its windows bound what
 * is buffered; when the peer sends EOF the socket is shut down for
 * writing.
 *
 * Such types use fwd_chan_free as their free hook (and fwd_chan_opened
 * as their opened hook for the second shape).
 */
#ifndef MOAT_FWD_H
#define MOAT_FWD_H

#include <stddef.h>
#include <stdint.h>

struct chan_set;
struct chan;
struct chan_ops;
struct sbuf;

/*
 * A forwarding as written: -L/-R "[bind:]port:host:hostport", -D/-R
 * "[bind:]port", and the Unix-domain socket forms "path:host:hostport",
 * "[bind:]port:path", "path:path" (-L/-R) and "path" (-R). Fields are
 * separated by ':'; a field in [] is taken literally (IPv6); '\' makes
 * the next character literal; a field holding an unescaped '/' is a
 * socket path.
 */
struct fwd_spec {
	char *listen_host;	/* NULL: not given; "" or "*": all */
	int listen_port;	/* 0 with listen_path */
	char *listen_path;	/* non-NULL: listen on this socket path */
	char *connect_host;	/* NULL: dynamic (SOCKS), or connect_path */
	int connect_port;
	char *connect_path;	/* non-NULL: connect to this socket path */
};

/*
 * Parse spec into f (strings belong to f; clear with fwd_spec_clear).
 * dynamic: 0 requires a target (-L), 1 forbids one (-D), 2 allows
 * either (-R). Ports are 1..65535 or a service name; listen port 0
 * (allocate) only for -R. Paths are shorter than a sockaddr_un's
 * sun_path, hosts than NI_MAXHOST. ERR_INVALID_FORMAT on anything else.
 */
int fwd_parse_spec(const char *spec, int dynamic, struct fwd_spec *f);
void fwd_spec_clear(struct fwd_spec *f);

/*
 * Which address a listener binds (GatewayPorts rules): *addrp NULL and
 * *wildcardp 0 means loopback only; *wildcardp 1 means every address;
 * otherwise *addrp is the address to bind. gateway_ports: 0 no, 1 yes,
 * 2 clientspecified (server only); is_client: the -L/-D side.
 */
void fwd_bind_addr(const char *listen_addr, int gateway_ports, int is_client,
    const char **addrp, int *wildcardp);

#define FWD_MAX_FDS 4
struct fwd_listener {
	int fds[FWD_MAX_FDS];
	size_t nfds;
	int port;		/* the bound port (allocated when 0 asked) */
};

/*
 * Bind and listen (non-blocking) on addr/wildcard (as from
 * fwd_bind_addr) and port; with port 0 every socket gets the port the
 * first was given. On failure *errp (static or strerror) says why.
 */
int fwd_listen(const char *addr, int wildcard, int port,
    struct fwd_listener *l, const char **errp);
void fwd_listener_close(struct fwd_listener *l);

/*
 * Permission lists (pure). fwd_permit_open: PermitOpen / permitopen=
 * entries "host:port" ("*" for any host or port), "any", "none"; an
 * empty list allows everything. fwd_permit_listen: PermitListen /
 * permitlisten= entries "[host:]port" (host a pattern, "*" if absent;
 * port "*" for any), "any", "none"; empty allows everything.
 * Return 1 when allowed.
 */
int fwd_permit_open(char *const *list, size_t n, const char *host, int port);
int fwd_permit_listen(char *const *list, size_t n, const char *host,
    int port);

/* Peer address of a socket as numeric host and port ("UNKNOWN", 0). */
void fwd_peer_name(int fd, int local, char *host, size_t hostlen,
    int *portp);

/* Shape 1: connect host:port for channel c, then confirm it. Returns
 * ERR_AGAIN (pending) for the open hook, or an error with *reasonp and
 * *descp set (address lookup failed, every connect failed at once). */
int fwd_chan_connect(struct chan_set *cs, struct chan *c, const char *host,
    int port, uint32_t *reasonp, const char **descp);

/*
 * Shape 2: open a channel of ops->type for the connected socket fd with
 * the type's extra fields (address/port pairs). fd belongs to the
 * channel from here on, even on error. ops->opened must be
 * fwd_chan_opened or call it.
 */
int fwd_chan_open_fd(struct chan_set *cs, const struct chan_ops *ops, int fd,
    const struct sbuf *extra);
void fwd_chan_opened(struct chan_set *cs, struct chan *c, int ok);
void fwd_chan_free(struct chan_set *cs, struct chan *c);

/*
 * Unix-domain stream sockets (fwd_unixsock.c), non-blocking: connected
 * to path, or bound at path under umask mask and listening (a bound
 * path that cannot listen is removed again). The socket, or -1 with
 * errno set (ENAMETOOLONG for an empty or too long path).
 */
int fwd_unix_connect_fd(const char *path);
int fwd_unix_listen_fd(const char *path, int mask);

/* Extra for direct-tcpip / forwarded-tcpip: host, port, orig, oport. */
int fwd_put_addrs(struct sbuf *b, const char *host, int port,
    const char *orig, int oport);

#endif
