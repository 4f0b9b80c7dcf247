/*
 * mux_wire.c: the bytes of the control socket (see mux.h): framing,
 * the parser of client requests, the encoders both sides use, and the
 * descriptor passing. Whoever can reach the socket may send anything:
 * the master parses only here, through the sbuf getters, with a cap on
 * message size and on the number of environment strings.
 */
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "mem.h"
#include "mux.h"
#include "sbuf.h"

void
mux_req_clear(struct mux_req *q)
{
	size_t i;

	x_free(q->term);
	x_free(q->command);
	for (i = 0; i < q->nenv; i++)
		x_free(q->env[i]);
	x_free(q->listen_host);
	x_free(q->connect_host);
	memset(q, 0, sizeof(*q));
}

static int
parse_session(struct sbuf *b, struct mux_req *q)
{
	char *e;
	int r;

	uint32_t f[4];

	/* The flags are uint32 on the wire (PROTOCOL.mux says bool). */
	if ((r = sbuf_get_string(b, NULL, NULL)) != 0 ||	/* reserved */
	    (r = sbuf_get_u32(b, &f[0])) != 0 ||
	    (r = sbuf_get_u32(b, &f[1])) != 0 ||
	    (r = sbuf_get_u32(b, &f[2])) != 0 ||
	    (r = sbuf_get_u32(b, &f[3])) != 0 ||
	    (r = sbuf_get_u32(b, &q->escape_char)) != 0 ||
	    (r = sbuf_get_cstring(b, &q->term, NULL)) != 0 ||
	    (r = sbuf_get_cstring(b, &q->command, NULL)) != 0)
		return r;
	q->want_tty = f[0] != 0;
	q->want_x11 = f[1] != 0;
	q->want_agent = f[2] != 0;
	q->subsystem = f[3] != 0;
	while (sbuf_len(b) > 0) {
		if (q->nenv == MUX_MAX_ENV)
			return ERR_INVALID_FORMAT;
		if ((r = sbuf_get_cstring(b, &e, NULL)) != 0)
			return r;
		q->env[q->nenv++] = e;
	}
	return 0;
}

static int
parse_fwd(struct sbuf *b, struct mux_req *q)
{
	int r;

	if ((r = sbuf_get_u32(b, &q->ftype)) != 0 ||
	    (r = sbuf_get_cstring(b, &q->listen_host, NULL)) != 0 ||
	    (r = sbuf_get_u32(b, &q->listen_port)) != 0 ||
	    (r = sbuf_get_cstring(b, &q->connect_host, NULL)) != 0 ||
	    (r = sbuf_get_u32(b, &q->connect_port)) != 0)
		return r;
	if (q->ftype != MUX_FWD_LOCAL && q->ftype != MUX_FWD_REMOTE &&
	    q->ftype != MUX_FWD_DYNAMIC)
		return ERR_INVALID_FORMAT;
	if ((q->listen_port > 65535 && q->listen_port != MUX_FWD_PATH_PORT) ||
	    (q->connect_port > 65535 && q->connect_port != MUX_FWD_PATH_PORT))
		return ERR_INVALID_FORMAT;
	return 0;
}

int
mux_parse_request(const unsigned char *p, size_t len, struct mux_req *q)
{
	struct sbuf *b;
	int r;

	memset(q, 0, sizeof(*q));
	if (len > MUX_MAX_MSG)
		return ERR_PACKET_TOO_LARGE;
	if ((b = sbuf_from(p, len)) == NULL)
		return ERR_ALLOC;
	if ((r = sbuf_get_u32(b, &q->type)) != 0)
		goto out;
	if (q->type == MUX_MSG_HELLO) {
		/* Extensions (name, value pairs) may follow: none known. */
		if ((r = sbuf_get_u32(b, &q->version)) != 0)
			goto out;
		while (r == 0 && sbuf_len(b) > 0)
			if ((r = sbuf_get_string(b, NULL, NULL)) == 0)
				r = sbuf_get_string(b, NULL, NULL);
		goto out;
	}
	if ((r = sbuf_get_u32(b, &q->rid)) != 0)
		goto out;
	switch (q->type) {
	case MUX_C_NEW_SESSION:
		r = parse_session(b, q);
		break;
	case MUX_C_OPEN_FWD:
	case MUX_C_CLOSE_FWD:
		r = parse_fwd(b, q);
		break;
	case MUX_C_NEW_STDIO_FWD:
		if ((r = sbuf_get_string(b, NULL, NULL)) != 0 ||
		    (r = sbuf_get_cstring(b, &q->connect_host, NULL)) != 0 ||
		    (r = sbuf_get_u32(b, &q->connect_port)) != 0)
			break;
		if (q->connect_port > 65535)
			r = ERR_INVALID_FORMAT;
		break;
	case MUX_C_ALIVE_CHECK:
	case MUX_C_TERMINATE:
	case MUX_C_STOP_LISTENING:
	case MUX_C_PROXY:
		break;
	default:
		r = ERR_INVALID_FORMAT;
	}
 out:
	sbuf_free(b);
	return r;
}

/* Write the length in front of what was appended from start on. */
static int
put_len(struct sbuf *b, size_t start)
{
	unsigned char *p = sbuf_mutable_ptr(b);
	size_t n = sbuf_len(b) - start - 4;

	if (p == NULL || n > MUX_MAX_MSG)
		return ERR_INVALID_ARGUMENT;
	p += start;
	sbuf_store_u32(p, (uint32_t)n);
	return 0;
}

static int
start_msg(struct sbuf *b, uint32_t type, size_t *startp)
{
	int r;

	*startp = sbuf_len(b);
	if ((r = sbuf_put_u32(b, 0)) != 0)
		return r;
	return sbuf_put_u32(b, type);
}

int
mux_put_hello(struct sbuf *b)
{
	/* The version where others have the request id. */
	return mux_put_simple(b, MUX_MSG_HELLO, MUX_VERSION);
}

int
mux_put_session(struct sbuf *b, const struct mux_req *q)
{
	size_t s, i;
	int r;

	if ((r = start_msg(b, MUX_C_NEW_SESSION, &s)) != 0 ||
	    (r = sbuf_put_u32(b, q->rid)) != 0 ||
	    (r = sbuf_put_cstring(b, "")) != 0 ||
	    (r = sbuf_put_u32(b, q->want_tty != 0)) != 0 ||
	    (r = sbuf_put_u32(b, q->want_x11 != 0)) != 0 ||
	    (r = sbuf_put_u32(b, q->want_agent != 0)) != 0 ||
	    (r = sbuf_put_u32(b, q->subsystem != 0)) != 0 ||
	    (r = sbuf_put_u32(b, q->escape_char)) != 0 ||
	    (r = sbuf_put_cstring(b, q->term != NULL ? q->term : "")) != 0 ||
	    (r = sbuf_put_cstring(b, q->command != NULL ? q->command :
	    "")) != 0)
		return r;
	for (i = 0; i < q->nenv; i++)
		if ((r = sbuf_put_cstring(b, q->env[i])) != 0)
			return r;
	return put_len(b, s);
}

int
mux_put_fwd(struct sbuf *b, const struct mux_req *q)
{
	size_t s;
	int r;

	if ((r = start_msg(b, q->type, &s)) != 0 ||
	    (r = sbuf_put_u32(b, q->rid)) != 0 ||
	    (r = sbuf_put_u32(b, q->ftype)) != 0 ||
	    (r = sbuf_put_cstring(b, q->listen_host != NULL ?
	    q->listen_host : "")) != 0 ||
	    (r = sbuf_put_u32(b, q->listen_port)) != 0 ||
	    (r = sbuf_put_cstring(b, q->connect_host != NULL ?
	    q->connect_host : "")) != 0 ||
	    (r = sbuf_put_u32(b, q->connect_port)) != 0)
		return r;
	return put_len(b, s);
}

int
mux_put_stdio_fwd(struct sbuf *b, const struct mux_req *q)
{
	size_t s;
	int r;

	if ((r = start_msg(b, MUX_C_NEW_STDIO_FWD, &s)) != 0 ||
	    (r = sbuf_put_u32(b, q->rid)) != 0 ||
	    (r = sbuf_put_cstring(b, "")) != 0 ||
	    (r = sbuf_put_cstring(b, q->connect_host)) != 0 ||
	    (r = sbuf_put_u32(b, q->connect_port)) != 0)
		return r;
	return put_len(b, s);
}

int
mux_put_simple(struct sbuf *b, uint32_t type, uint32_t rid)
{
	size_t s;
	int r;

	if ((r = start_msg(b, type, &s)) != 0 ||
	    (r = sbuf_put_u32(b, rid)) != 0)
		return r;
	return put_len(b, s);
}

int
mux_put_u32s(struct sbuf *b, uint32_t type, uint32_t a, uint32_t c)
{
	size_t s;
	int r;

	if ((r = start_msg(b, type, &s)) != 0 ||
	    (r = sbuf_put_u32(b, a)) != 0 || (r = sbuf_put_u32(b, c)) != 0)
		return r;
	return put_len(b, s);
}

int
mux_put_status(struct sbuf *b, uint32_t type, uint32_t rid,
    const char *reason)
{
	size_t s;
	int r;

	if ((r = start_msg(b, type, &s)) != 0 ||
	    (r = sbuf_put_u32(b, rid)) != 0 ||
	    (r = sbuf_put_cstring(b, reason)) != 0)
		return r;
	return put_len(b, s);
}

int
mux_frame(const struct sbuf *in, const unsigned char **bodyp, size_t *lenp)
{
	const unsigned char *p = sbuf_ptr(in);
	size_t have = sbuf_len(in), n;

	if (have < 4)
		return ERR_AGAIN;
	n = (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 |
	    (size_t)p[3];
	if (n > MUX_MAX_MSG)
		return ERR_PACKET_TOO_LARGE;
	if (have - 4 < n)
		return ERR_AGAIN;
	*bodyp = p + 4;
	*lenp = n;
	return 0;
}

/* ---- blocking I/O ---- */

static int
wait_fd(int fd, short events, int ms)
{
	struct pollfd pfd = { fd, events, 0 };
	int n;

	while ((n = poll(&pfd, 1, ms)) == -1 && errno == EINTR)
		;
	if (n == 0) {
		errno = ETIMEDOUT;
		return ERR_SYSTEM;
	}
	return n < 0 ? ERR_SYSTEM : 0;
}

int
mux_write_all(int fd, const void *p, size_t len)
{
	const unsigned char *q = p;
	ssize_t n;
	int r;

	while (len > 0) {
		n = send(fd, q, len, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if ((r = wait_fd(fd, POLLOUT, 10000)) != 0)
				return r;
			continue;
		}
		if (n <= 0)
			return ERR_SYSTEM;
		q += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Exactly len bytes; ERR_EOF on end of file before the first. */
static int
read_exact(int fd, unsigned char *p, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int r;

	while (got < len) {
		n = read(fd, p + got, len - got);
		if (n == -1 && errno == EINTR)
			return ERR_SYSTEM;	/* a signal: let the caller see */
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if ((r = wait_fd(fd, POLLIN, -1)) != 0)
				return r;
			continue;
		}
		if (n == 0) {
			errno = EPIPE;
			return got == 0 ? ERR_EOF : ERR_CONN_CLOSED;
		}
		if (n < 0)
			return ERR_SYSTEM;
		got += (size_t)n;
	}
	return 0;
}

int
mux_read_msg(int fd, struct sbuf *b)
{
	unsigned char h[4], *p;
	size_t n;
	int r;

	sbuf_reset(b);
	if ((r = read_exact(fd, h, 4)) != 0)
		return r;
	n = (size_t)h[0] << 24 | (size_t)h[1] << 16 | (size_t)h[2] << 8 | h[3];
	if (n > MUX_MAX_MSG)
		return ERR_PACKET_TOO_LARGE;
	if ((r = sbuf_reserve(b, n, &p)) != 0)
		return r;
	r = read_exact(fd, p, n);
	return r == ERR_EOF ? ERR_CONN_CLOSED : r;
}

int
mux_send_fd(int sock, int fd)
{
	struct msghdr msg;
	struct iovec iov;
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct cmsghdr *c;
	char ch = '\0';
	ssize_t n;
	int r;

	memset(&msg, 0, sizeof(msg));
	memset(&cm, 0, sizeof(cm));
	iov.iov_base = &ch;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cm.buf;
	msg.msg_controllen = sizeof(cm.buf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	for (;;) {
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
		if (n == 1)
			return 0;
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if ((r = wait_fd(sock, POLLOUT, 10000)) != 0)
				return r;
			continue;
		}
		return ERR_SYSTEM;
	}
}

enum mux_cmd
mux_cmd_from_name(const char *s)
{
	static const struct {
		const char *name;
		enum mux_cmd cmd;
	} t[] = {
		{ "check", MUXC_CHECK }, { "forward", MUXC_FORWARD },
		{ "cancel", MUXC_CANCEL }, { "exit", MUXC_EXIT },
		{ "stop", MUXC_STOP }, { "proxy", MUXC_PROXY },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(s, t[i].name) == 0)
			return t[i].cmd;
	return MUXC_NONE;
}
