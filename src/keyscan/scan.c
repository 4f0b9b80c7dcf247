/*
 * scan.c: every connection of a scan in one poll() loop.
 *
 * A connection is for one target and one key type. It tries the
 * target's addresses in turn (and each address a name resolves to),
 * each with a non-blocking connect(), until one answers; then our
 * transport takes over in the client role, offering only that type's
 * host key algorithms. The transport sends our banner and KEXINIT at
 * once; the server's banner is reported as soon as it is in, its host
 * key once the key exchange reply has come and, for the types the
 * transport can verify, its signature checked. Then the socket is
 * closed: nothing past the host key is wanted.
 *
 * The key exchange protects nothing here (no secret ever crosses it), so
 * the cheapest methods come first: OpenSSH's set, elliptic curves ahead
 * of the post-quantum hybrids and finite-field groups, whose key
 * generation would hold up every other connection of the loop.
 *
 * Verified keys are accepted, so the transport goes on to its NEWKEYS
 * before the close, which costs nothing; refusing them would make the
 * server log a host key verification failure that did not happen. Keys
 * the transport cannot verify are refused once recorded.
 *
 * A connection that hears nothing for the timeout (-T) is dropped, as
 * OpenSSH's ssh-keyscan drops it: counted from the start and from every
 * read. Refusals, timeouts and failed key exchanges are quiet; what
 * OpenSSH reports on stderr (a name that does not resolve, a server
 * that hangs up before its banner) is reported in its words.
 */
#include <sys/socket.h>

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cipher.h"
#include "err.h"
#include "keyscan.h"
#include "log.h"
#include "mac.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

#define KS_KEX_ALGS \
	"curve25519-sha256,curve25519-sha256@libssh.org," \
	"ecdh-sha2-nistp256,ecdh-sha2-nistp384,ecdh-sha2-nistp521," \
	"mlkem768x25519-sha256," \
	"sntrup761x25519-sha512,sntrup761x25519-sha512@openssh.com," \
	"diffie-hellman-group14-sha256,diffie-hellman-group16-sha512," \
	"diffie-hellman-group-exchange-sha256,diffie-hellman-group18-sha512"

struct ks_conn {
	struct ks_scan *scan;
	enum ks_type type;
	char *addrs;		/* the addresses to try, comma-separated */
	char *next;		/* the rest of addrs, not yet tried */
	char *name;		/* the entry of addrs being tried */
	char *names;		/* what the keys are printed under */
	struct addrinfo *res;	/* name's addresses ... */
	struct addrinfo *ai;	/* ... and the one being tried */
	int fd;
	struct transport *t;	/* once connected */
	char *desc;		/* "ADDR port N", for the transport's log */
	uint64_t since_ms;	/* the timeout counts from here */
	int greeted;		/* the banner was reported */
	int write_failed;	/* leave it to the next read to say why */
	struct sbuf *blob;	/* the host key blob as it came */
	int got;		/* blob is a key to report */
};

struct ks_scan {
	struct ks_opts *o;
	struct ks_conn **conns;
	size_t nconns, maxconn;
	struct pollfd *pfd;	/* parallel to ready: one poll's worth */
	struct ks_conn **ready;
};

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct ks_scan *
ks_scan_new(struct ks_opts *o, int maxconn)
{
	struct ks_scan *s = x_calloc(1, sizeof(*s));

	s->o = o;
	s->maxconn = maxconn > 0 ? (size_t)maxconn : 1;
	s->conns = x_calloc(s->maxconn, sizeof(*s->conns));
	s->pfd = x_calloc(s->maxconn, sizeof(*s->pfd));
	s->ready = x_calloc(s->maxconn, sizeof(*s->ready));
	return s;
}

void
ks_scan_free(struct ks_scan *s)
{
	if (s == NULL)
		return;
	x_free(s->conns);	/* empty: every connection ends on its own */
	x_free(s->pfd);
	x_free(s->ready);
	x_free(s);
}

size_t ks_scan_active(const struct ks_scan *s) { return s->nconns; }
int ks_scan_full(const struct ks_scan *s) { return s->nconns >= s->maxconn; }

/* Close the socket (and transport) of the address being tried. */
static void
conn_hangup(struct ks_conn *c)
{
	tr_free(c->t);
	c->t = NULL;
	if (c->fd != -1)
		close(c->fd);
	c->fd = -1;
	x_free(c->desc);
	c->desc = NULL;
	c->greeted = c->write_failed = 0;
}

static void
conn_free(struct ks_conn *c)
{
	conn_hangup(c);
	if (c->res != NULL)
		freeaddrinfo(c->res);
	sbuf_free(c->blob);
	x_free(c->addrs);
	x_free(c->name);
	x_free(c->names);
	x_free(c);
}

/* The connection is done: out of the table. */
static void
conn_end(struct ks_conn *c)
{
	struct ks_scan *s = c->scan;
	size_t i;

	for (i = 0; i < s->nconns; i++) {
		if (s->conns[i] == c) {
			s->conns[i] = s->conns[--s->nconns];
			break;
		}
	}
	conn_free(c);
}

static int
on_seen(void *arg, const char *alg, const unsigned char *blob, size_t len)
{
	struct ks_conn *c = arg;

	sbuf_reset(c->blob);
	if (sbuf_put(c->blob, blob, len) != 0)
		return ERR_ALLOC;
	if (ks_alg_verifiable(alg))
		return 0;	/* reported once the transport checks it */
	if (ks_blob_check(alg, blob, len) != 0) {
		log_verbose("%s: malformed %s host key", c->desc, alg);
		return ERR_KEY_INVALID;
	}
	c->got = 1;
	return ERR_FEATURE_UNSUPPORTED;	/* all there is to learn */
}

static int
on_key(void *arg, const struct key *k)
{
	((struct ks_conn *)arg)->got = 1;
	return 0;
}

static int
on_cert(void *arg, const struct key_cert *cert)
{
	((struct ks_conn *)arg)->got = 1;
	return 0;
}

/* Connected to c->ai: hand the socket to a transport. */
static int
conn_start_ssh(struct ks_conn *c)
{
	char host[NI_MAXHOST], port[NI_MAXSERV];
	struct tr_config cfg;

	if (getnameinfo(c->ai->ai_addr, c->ai->ai_addrlen, host, sizeof(host),
	    port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		snprintf(host, sizeof(host), "%s", c->name);
	c->desc = x_asprintf("%s port %d", host, c->scan->o->port);
	memset(&cfg, 0, sizeof(cfg));
	cfg.kex_algs = KS_KEX_ALGS;
	cfg.hostkey_algs = ks_type_algs(c->type, c->scan->o->certs);
	cfg.ciphers = cipher_default_names();
	cfg.macs = mac_default_names();
	cfg.peer_desc = c->desc;
	cfg.hostkey_seen = on_seen;
	cfg.hostkey_verify = on_key;
	cfg.hostcert_verify = on_cert;
	cfg.verify_arg = c;
	if ((c->t = tr_new(c->fd, c->fd, &cfg)) == NULL)
		return -1;
	if (tr_fd_write(c->t) == ERR_SYSTEM)
		c->write_failed = 1;
	return 0;
}

/* Start a connect() to c->ai; 0 once under way (or made), -1 if not. */
static int
conn_connect(struct ks_conn *c)
{
	const struct addrinfo *ai = c->ai;

	c->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, ai->ai_protocol);
	if (c->fd == -1) {
		fprintf(stderr, "socket: %s\n", strerror(errno));
		return -1;
	}
	c->since_ms = now_ms();
	if (connect(c->fd, ai->ai_addr, ai->ai_addrlen) == 0) {
		if (conn_start_ssh(c) == 0)
			return 0;
	} else if (errno == EINPROGRESS) {
		return 0;
	} else {
		fprintf(stderr, "connect (`%s'): %s\n", c->name,
		    strerror(errno));
	}
	conn_hangup(c);
	return -1;
}

/* The next address of the next name in c->next; 0 when none resolves. */
static int
conn_resolve_next(struct ks_conn *c)
{
	struct addrinfo hints;
	char port[16];
	const char *name;
	int r;

	while ((name = strsep(&c->next, ",")) != NULL) {
		x_free(c->name);
		c->name = x_strdup(name);
		if (c->res != NULL)
			freeaddrinfo(c->res);
		c->res = NULL;
		memset(&hints, 0, sizeof(hints));
		hints.ai_family = c->scan->o->family;
		hints.ai_socktype = SOCK_STREAM;
		snprintf(port, sizeof(port), "%d", c->scan->o->port);
		if ((r = getaddrinfo(name, port, &hints, &c->res)) != 0) {
			fprintf(stderr, "getaddrinfo %s: %s\n", name,
			    gai_strerror(r));
			c->res = NULL;
			continue;
		}
		c->ai = c->res;
		return 1;
	}
	return 0;
}

/*
 * On to the next address that takes a connect(): 0 once one is under
 * way, -1 when the target has no address left.
 */
static int
conn_try_next(struct ks_conn *c)
{
	conn_hangup(c);
	for (;;) {
		if (c->ai != NULL)
			c->ai = c->ai->ai_next;
		if (c->ai == NULL && !conn_resolve_next(c))
			return -1;
		if (conn_connect(c) == 0)
			return 0;
	}
}

void
ks_scan_start(struct ks_scan *s, const char *addrs, const char *names,
    enum ks_type type)
{
	struct ks_conn *c = x_calloc(1, sizeof(*c));

	c->scan = s;
	c->type = type;
	c->fd = -1;
	c->addrs = x_strdup(addrs);
	c->next = c->addrs;
	c->names = x_strdup(names);
	c->blob = sbuf_new();
	/* (c->ai is NULL: the first try resolves the first entry) */
	if (s->nconns >= s->maxconn || conn_try_next(c) != 0) {
		conn_free(c);
		return;
	}
	s->conns[s->nconns++] = c;
}

/* The connect() under way has ended. */
static void
conn_connected(struct ks_conn *c)
{
	socklen_t sl = sizeof(int);
	int err = 0;

	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &sl) == -1)
		err = errno;
	if (err == 0 && conn_start_ssh(c) == 0)
		return;
	if (err != 0 && err != ECONNREFUSED)
		fprintf(stderr, "read (%s): %s\n", c->name, strerror(err));
	if (conn_try_next(c) != 0)
		conn_end(c);
}

/* Input on an SSH connection. */
static void
conn_input(struct ks_conn *c)
{
	struct ks_opts *o = c->scan->o;
	struct sbuf *msg;
	uint8_t type;
	int rr, r, e;

	if ((rr = tr_fd_read(c->t)) == ERR_AGAIN)
		return;
	if (rr == 0)
		c->since_ms = now_ms();
	while ((r = tr_next_message(c->t, &type, &msg)) == 0)
		;	/* nothing above the transport is asked for */
	if (!c->greeted && tr_peer_version(c->t) != NULL) {
		c->greeted = 1;
		ks_print_banner(o, c->name, tr_peer_version(c->t));
	}
	if (c->got) {
		ks_print_key(o, c->names, sbuf_ptr(c->blob), sbuf_len(c->blob));
		conn_end(c);
		return;
	}
	if (r == ERR_AGAIN && rr == 0) {
		if (!c->write_failed && tr_fd_write(c->t) == ERR_SYSTEM)
			c->write_failed = 1;
		return;
	}
	e = rr == ERR_SYSTEM ? tr_io_errno(c->t, NULL) : 0;
	if (r == ERR_AGAIN && !c->greeted && rr == ERR_CONN_CLOSED)
		fprintf(stderr, "%s: Connection closed by remote host\n",
		    c->name);
	else if (r == ERR_AGAIN && !c->greeted && e != 0 && e != ECONNREFUSED)
		fprintf(stderr, "read (%s): %s\n", c->name, strerror(e));
	else if (r != ERR_AGAIN)
		log_debug("%s: %s", c->desc, err_str(r));
	conn_end(c);
}

/* Milliseconds until the first connection times out; -1: none open. */
static int
next_timeout(const struct ks_scan *s, uint64_t now)
{
	uint64_t limit = (uint64_t)s->o->timeout * 1000, end, least = 0;
	size_t i;
	int any = 0;

	for (i = 0; i < s->nconns; i++) {
		end = s->conns[i]->since_ms + limit;
		if (!any || end < least)
			least = end;
		any = 1;
	}
	if (!any)
		return -1;
	if (least <= now)
		return 0;
	return least - now > 60000 ? 60000 : (int)(least - now);
}

/*
 * As of now, when the poll returned: what arrived while the loop was
 * busy with other connections is seen at the next poll, not taken for
 * silence.
 */
static void
drop_timed_out(struct ks_scan *s, uint64_t now)
{
	uint64_t limit = (uint64_t)s->o->timeout * 1000;
	size_t i = 0;

	while (i < s->nconns) {
		struct ks_conn *c = s->conns[i];

		if (now < c->since_ms || now - c->since_ms < limit) {
			i++;
			continue;
		}
		log_debug("%s: timed out", c->desc != NULL ? c->desc : c->name);
		conn_end(c);		/* the last one moves to i */
	}
}

void
ks_scan_step(struct ks_scan *s)
{
	size_t i, n = s->nconns;
	int timeout = next_timeout(s, now_ms());
	uint64_t polled;

	if (n == 0)
		return;
	/* Ending a connection reorders the table: the poll has its own. */
	memcpy(s->ready, s->conns, n * sizeof(*s->ready));
	for (i = 0; i < n; i++) {
		struct ks_conn *c = s->ready[i];

		s->pfd[i].fd = c->fd;
		s->pfd[i].revents = 0;
		if (c->t == NULL)
			s->pfd[i].events = POLLOUT;	/* connect() */
		else
			s->pfd[i].events = POLLIN | (!c->write_failed &&
			    tr_want_write(c->t) ? POLLOUT : 0);
	}
	if (poll(s->pfd, n, timeout) == -1) {
		if (errno == EINTR)
			return;
		fprintf(stderr, "ssh-keyscan: poll: %s\n", strerror(errno));
		exit(255);
	}
	polled = now_ms();
	for (i = 0; i < n; i++) {
		struct ks_conn *c = s->ready[i];
		short ev = s->pfd[i].revents;

		if (ev == 0)
			continue;
		if (c->t == NULL) {
			conn_connected(c);
			continue;
		}
		if ((ev & POLLOUT) && tr_fd_write(c->t) == ERR_SYSTEM)
			c->write_failed = 1;
		if (ev & (POLLIN | POLLHUP | POLLERR))
			conn_input(c);
	}
	drop_timed_out(s, polled);
}
