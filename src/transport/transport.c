/*
 * transport.c: the transport's life cycle, non-blocking I/O, version
 * exchange, message dispatch and the outgoing queue; see transport.h.
 *
 * Incoming: raw bytes accumulate in t->in; tr_next_message() takes the
 * banner line first, then packets (packet.c), handles transport messages
 * itself (kex.c for 20..49) and hands the rest up. Outgoing: messages are
 * encrypted straight into t->out, except that upper-layer messages sent
 * while our KEXINIT is out and our NEWKEYS is not are held in t->deferred
 * and released by kex.c once the new keys are in use.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "transport_int.h"

#ifndef TR_READ_CHUNK		/* the fuzz build sets a smaller one */
#define TR_READ_CHUNK	(256 * 1024)
#endif
/* Reads shorter than this are acknowledged at once (see quickack()). */
#define TR_QUICKACK_BELOW	4096
/* Receive low-water mark while bulk data streams in (see set_lowat()). */
#define TR_LOWAT		(64 * 1024)
#define TR_LOWAT_ENTER		(128 * 1024)
#define TR_LOWAT_WAIT_MS	2
#define TR_READ_MIN	(32 * 1024)	/* smallest read worth a syscall */
#define TR_MAX_INPUT	(4 * TR_MAX_PACKET)

uint64_t
tr_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}

static uint64_t
tr_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl != -1 && !(fl & O_NONBLOCK))
		(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

struct transport *
tr_alloc(int fd_in, int fd_out, const struct tr_config *cfg)
{
	struct transport *t = x_calloc(1, sizeof(*t));

	t->cfg = *cfg;
	t->server = cfg->server;
	t->fd_in = fd_in;
	t->fd_out = fd_out;
	t->in = sbuf_new();
	t->out = sbuf_new();
	t->msg = sbuf_new();
	t->body = sbuf_from(NULL, 0);
	t->compose = sbuf_new();
	t->deferred = sbuf_new();
	sbuf_set_max_size(t->in, TR_MAX_INPUT + TR_READ_CHUNK);
	sbuf_set_max_size(t->out, 64u * 1024 * 1024);
	set_nonblock(fd_in);
	if (fd_out != fd_in)
		set_nonblock(fd_out);
	t->last_input = tr_now();
	return t;
}

struct transport *
tr_new(int fd_in, int fd_out, const struct tr_config *cfg)
{
	struct transport *t = tr_alloc(fd_in, fd_out, cfg);

	/* Our banner goes out at once, without waiting for the peer's. */
	if (cfg->version_comment != NULL && *cfg->version_comment != '\0')
		sbuf_putf(t->out, "%s %s\r\n", TR_VERSION, cfg->version_comment);
	else
		sbuf_putf(t->out, "%s\r\n", TR_VERSION);
	/* And so does our KEXINIT. */
	if (kex_send_kexinit(t) != 0) {
		tr_free(t);
		return NULL;
	}
	return t;
}

struct transport *
tr_new_plain(int fd_in, int fd_out, const struct tr_config *cfg)
{
	struct transport *t;

	if (cfg->server)
		return NULL;
	t = tr_alloc(fd_in, fd_out, cfg);
	t->plain = 1;
	t->banner_done = 1;
	t->authenticated = 1;
	t->zauth = 1;
	return t;
}

void
tr_free(struct transport *t)
{
	if (t == NULL)
		return;
	kex_clear(t);
	pkt_dir_clear(&t->send);
	pkt_dir_clear(&t->recv);
	sbuf_free(t->in);
	sbuf_free(t->out);
	sbuf_free(t->msg);
	sbuf_free(t->body);
	sbuf_free(t->compose);
	sbuf_free(t->deferred);
	x_free(t->peer_version);
	firstkex_clear(t);
	x_freezero(t, sizeof(*t));
}

int tr_fd_in(const struct transport *t) { return t->fd_in; }
int tr_fd_out(const struct transport *t) { return t->fd_out; }
int tr_is_server(const struct transport *t) { return t->server; }
const char *tr_peer_version(const struct transport *t) { return t->peer_version; }
int tr_peer_wants_ext_info(const struct transport *t) { return t->peer_ext_info; }
uint64_t tr_last_input_time(const struct transport *t) { return t->last_input; }

void
tr_set_authenticated(struct transport *t)
{
	t->authenticated = 1;
	/* Else the packet layer sees USERAUTH_SUCCESS go by itself. */
	if (!t->zany)
		t->zauth = 1;
}
unsigned int tr_kex_count(const struct transport *t) { return t->nkex; }
int tr_peer_eof(const struct transport *t) { return t->peer_eof; }
int tr_peer_disconnected(const struct transport *t)
{
	return t->peer_disconnected;
}

int
tr_io_errno(const struct transport *t, int *readp)
{
	if (readp != NULL)
		*readp = t->io_errno_read;
	return t->io_errno;
}
int tr_kex_running(const struct transport *t) { return t->kex_state != KEX_IDLE; }

const char *
tr_negotiated(const struct transport *t, const char *what)
{
	static const char *names[] = { "kex", "hostkey", "cipher c2s",
	    "cipher s2c", "mac c2s", "mac s2c", "comp c2s", "comp s2c" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(what, names[i]) == 0)
			return t->negotiated[i];
	return NULL;
}

/*
 * Acknowledge small inputs at once. A peer with Nagle's algorithm on
 * (OpenSSH's client without a tty) holds its next small packet until
 * the last is acknowledged, and during key exchange and authentication
 * we often have nothing to say back that the ACK could ride on: the
 * kernel's delayed ACK then stalls each such step by ~40 ms. Bulk reads
 * are large and keep the delayed ACKs. Not a TCP socket (a pipe under
 * inetd, a test's socketpair): stop trying.
 */
static void
quickack(struct transport *t)
{
	int on = 1;

	if (t->no_quickack)
		return;
	if (setsockopt(t->fd_in, IPPROTO_TCP, TCP_QUICKACK, &on,
	    sizeof(on)) != 0)
		t->no_quickack = 1;
}

/*
 * While bulk data streams in, wake for input only once TR_LOWAT bytes
 * are there (SO_RCVLOWAT) rather than for every segment the peer
 * writes: a stock client writes each 16 KiB packet on its own, and
 * every wakeup costs a context switch. tr_poll_timeout() bounds the
 * wait, and once TR_LOWAT_WAIT_MS pass without a read (the stream
 * paused or ended, or a last short message waits) tr_poll_done() puts
 * the mark back to one byte. tr_wait_message() always waits for any
 * input.
 */
static void
set_lowat(struct transport *t, int v)
{
	if (t->no_lowat)
		return;
	if (setsockopt(t->fd_in, SOL_SOCKET, SO_RCVLOWAT, &v,
	    sizeof(v)) == 0)
		t->lowat = v > 1;
	else
		t->no_lowat = 1;	/* not a socket */
}

int
tr_fd_read(struct transport *t)
{
	unsigned char *p;
	size_t want;
	ssize_t n;
	int r, e;

	if (sbuf_len(t->in) >= TR_MAX_INPUT)
		return 0;	/* let the consumer catch up */
	/*
	 * Read into the room there is; slide or grow only when it is small.
	 * The raw input is ciphertext (or public pre-KEX text): sliding it
	 * needs no wipe.
	 */
	want = sbuf_tailroom(t->in);
	if (want < TR_READ_MIN) {
		if ((r = sbuf_make_room(t->in, TR_READ_CHUNK)) != 0)
			return r;
		want = sbuf_tailroom(t->in);
	}
	if (want > TR_READ_CHUNK)
		want = TR_READ_CHUNK;
	if ((r = sbuf_reserve(t->in, want, &p)) != 0)
		return r;
	n = read(t->fd_in, p, want);
	e = errno;
	sbuf_consume_end(t->in, want - (n > 0 ? (size_t)n : 0));
	if (n == 0) {
		t->peer_eof = 1;
		return ERR_CONN_CLOSED;
	}
	if (n < 0) {
		if (e == EAGAIN || e == EWOULDBLOCK || e == EINTR)
			return ERR_AGAIN;
		t->io_errno = errno = e;
		t->io_errno_read = 1;
		return ERR_SYSTEM;
	}
	t->last_input = tr_now();
	if ((size_t)n < TR_QUICKACK_BELOW)
		quickack(t);
	else if ((size_t)n >= TR_LOWAT_ENTER && !t->lowat)
		set_lowat(t, TR_LOWAT);
	if (t->lowat)
		t->lowat_read_ms = tr_now_ms();
	return 0;
}

void
tr_poll_done(struct transport *t)
{
	if (t->lowat && tr_now_ms() - t->lowat_read_ms >= TR_LOWAT_WAIT_MS)
		set_lowat(t, 1);
}

int
tr_fd_write(struct transport *t)
{
	ssize_t n;

	while (sbuf_len(t->out) > 0) {
		n = write(t->fd_out, sbuf_ptr(t->out), sbuf_len(t->out));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return ERR_AGAIN;
			t->io_errno = errno;
			t->io_errno_read = 0;
			return ERR_SYSTEM;
		}
		sbuf_consume(t->out, (size_t)n);
	}
	return 0;
}

int
tr_want_write(const struct transport *t)
{
	return sbuf_len(t->out) > 0;
}

size_t
tr_output_pending(const struct transport *t)
{
	return sbuf_len(t->out) + sbuf_len(t->deferred);
}

/* Send a message now, bypassing the KEX hold (transport use only). */
int
tr_send_raw(struct transport *t, uint8_t type, const struct sbuf *body)
{
	unsigned char stackbuf[1024], *p = stackbuf;
	size_t len = 1 + (body ? sbuf_len(body) : 0);
	int r;

	if (len > sizeof(stackbuf))
		p = x_malloc(len);
	p[0] = type;
	if (body != NULL && sbuf_len(body))
		memcpy(p + 1, sbuf_ptr(body), sbuf_len(body));
	r = pkt_send(t, p, len);
	if (p != stackbuf)
		x_freezero(p, len);
	else
		x_wipe(p, len);
	return r;
}

struct sbuf *
tr_msg_start(struct transport *t, uint8_t type)
{
	const unsigned char *p = sbuf_ptr(t->compose);

	/* An unsent message is dropped; wiped unless it is channel data. */
	if (sbuf_len(t->compose) > 0 && (p[0] == SSH2_MSG_CHANNEL_DATA ||
	    p[0] == SSH2_MSG_CHANNEL_EXTENDED_DATA))
		(void)sbuf_consume(t->compose, sbuf_len(t->compose));
	else
		sbuf_reset(t->compose);
	/* Leave room for the packet header, so it is framed in place. */
	(void)sbuf_set_headroom(t->compose, PKT_HEADROOM, 1 + PKT_TAILROOM);
	sbuf_put_u8(t->compose, type);
	return t->compose;
}

int
tr_msg_send(struct transport *t)
{
	const unsigned char *p = sbuf_ptr(t->compose);
	size_t len = sbuf_len(t->compose);
	int r;

	if (t->closed)
		return ERR_CONN_CLOSED;
	if (len == 0)
		return ERR_INVALID_ARGUMENT;
	if (t->kexinit_sent && !t->newkeys_sent && p[0] >= 5 &&
	    p[0] != SSH2_MSG_KEXINIT && (p[0] < 20 || p[0] >= 50)) {
		/* Held until the new keys are in use. */
		r = sbuf_put_string(t->deferred, p, len);
	} else {
		r = pkt_send_sbuf(t, t->compose);
	}
	/* Channel data is the user's stream, not a secret of ours. */
	if (p[0] == SSH2_MSG_CHANNEL_DATA ||
	    p[0] == SSH2_MSG_CHANNEL_EXTENDED_DATA)
		(void)sbuf_consume(t->compose, len);
	else
		sbuf_reset(t->compose);
	if (r != 0)
		return r;
	if (kex_need_rekey(t))
		return kex_send_kexinit(t);
	return 0;
}

int
tr_unimplemented(struct transport *t)
{
	struct sbuf *b = sbuf_new();
	int r;

	if ((r = sbuf_put_u32(b, t->last_seqnr)) == 0)
		r = tr_send_raw(t, SSH2_MSG_UNIMPLEMENTED, b);
	sbuf_free(b);
	return r;
}

static int
send_disconnect(struct transport *t, uint32_t reason, const char *msg)
{
	struct sbuf *b = sbuf_new();
	int r;

	if ((r = sbuf_put_u32(b, reason)) != 0 ||
	    (r = sbuf_put_cstring(b, msg)) != 0 ||
	    (r = sbuf_put_cstring(b, "")) != 0 ||
	    (r = tr_send_raw(t, SSH2_MSG_DISCONNECT, b)) != 0) {
		sbuf_free(b);
		return r;
	}
	sbuf_free(b);
	t->closed = 1;
	(void)tr_fd_write(t);
	return 0;
}

int
tr_disconnect(struct transport *t, uint32_t reason, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t->closed)
		return 0;
	/* sshd logs it; for ssh(1) the caller prints the error itself. */
	if (t->cfg.peer_desc != NULL)
		log_msg(t->server ? LOG_LEVEL_INFO : LOG_LEVEL_VERBOSE,
		    "Disconnecting %s: %s", t->cfg.peer_desc, msg);
	else
		log_msg(t->server ? LOG_LEVEL_INFO : LOG_LEVEL_VERBOSE,
		    "Disconnecting: %s", msg);
	if (!t->banner_done) {
		t->closed = 1;
		return 0;
	}
	return send_disconnect(t, reason, msg);
}

/* Log a protocol violation, tell the peer, and return ERR_PROTOCOL. */
int
tr_protocol_error(struct transport *t, uint32_t reason, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tr_disconnect(t, reason, "%s", msg);
	return ERR_PROTOCOL;
}

/*
 * Version exchange (RFC 4253 section 4.2). A server may send other lines
 * before its version line; a client may not.
 */
static int
read_banner(struct transport *t)
{
	const unsigned char *p;
	char *line, *sp;
	size_t i, len;

	for (;;) {
		p = sbuf_ptr(t->in);
		len = sbuf_len(t->in);
		for (i = 0; i < len && i < TR_MAX_BANNER_LINE; i++)
			if (p[i] == '\n' || p[i] == '\0')
				break;
		if (i >= TR_MAX_BANNER_LINE) {
			log_error("banner line too long from %s",
			    t->cfg.peer_desc ? t->cfg.peer_desc : "peer");
			t->closed = 1;
			return ERR_PROTOCOL_VERSION;
		}
		if (i == len)
			return ERR_AGAIN;
		if (p[i] == '\0') {
			log_error("banner contains a NUL byte from %s",
			    t->cfg.peer_desc ? t->cfg.peer_desc : "peer");
			t->closed = 1;
			return ERR_PROTOCOL_VERSION;
		}
		len = i;
		if (len > 0 && p[len - 1] == '\r')
			len--;
		line = x_strndup((const char *)p, len);
		sbuf_consume(t->in, i + 1);
		if (strncmp(line, "SSH-", 4) == 0)
			break;
		if (t->server || ++t->preamble_lines > TR_MAX_PREAMBLE) {
			log_error("kex_exchange_identification: %s sent "
			    "invalid protocol identifier \"%.256s\"",
			    t->server ? "client" : "server", line);
			if (t->server) {
				sbuf_reset(t->out);
				sbuf_putf(t->out,
				    "Invalid SSH identification string.\r\n");
				(void)tr_fd_write(t);
			}
			x_free(line);
			t->closed = 1;
			return ERR_PROTOCOL_VERSION;
		}
		log_debug("%s: %s", "remote preamble", line);
		x_free(line);
	}
	/* SSH-protoversion-softwareversion [SP comments] */
	if ((strncmp(line, "SSH-2.0-", 8) != 0 &&
	    strncmp(line, "SSH-1.99-", 9) != 0) ||
	    (sp = strchr(line + 4, '-')) == NULL || sp[1] == '\0' ||
	    sp[1] == ' ') {
		log_info("Protocol major versions differ or bad version "
		    "string \"%.256s\" from %s", line,
		    t->cfg.peer_desc ? t->cfg.peer_desc : "peer");
		sbuf_putf(t->out, "Protocol major versions differ.\r\n");
		(void)tr_fd_write(t);
		x_free(line);
		t->closed = 1;
		return ERR_PROTOCOL_VERSION;
	}
	log_debug("Remote protocol version %.*s, remote software version %s",
	    (int)(sp - line - 4), line + 4, sp + 1);
	t->peer_version = line;
	t->banner_done = 1;
	return 0;
}

static int
handle_disconnect(struct transport *t)
{
	uint32_t reason = 0;
	char *desc = NULL;

	(void)sbuf_get_u32(t->body, &reason);
	(void)sbuf_get_cstring(t->body, &desc, NULL);
	if (t->server)
		log_info("Received disconnect from %s:%u: %.400s",
		    t->cfg.peer_desc ? t->cfg.peer_desc : "peer", reason,
		    desc ? desc : "");
	else
		log_error("Received disconnect from %s:%u: %.400s",
		    t->cfg.peer_desc ? t->cfg.peer_desc : "peer", reason,
		    desc ? desc : "");
	x_free(desc);
	t->closed = 1;
	t->peer_disconnected = 1;
	return ERR_DISCONNECTED;
}

int
tr_next_message(struct transport *t, uint8_t *typep, struct sbuf **payloadp)
{
	uint8_t type;
	int r;

	*typep = 0;
	*payloadp = NULL;
	for (;;) {
		if (t->closed)
			return ERR_CONN_CLOSED;
		if (!t->banner_done && (r = read_banner(t)) != 0)
			return r;
		if ((r = pkt_read(t)) != 0) {
			if (r == ERR_AGAIN) {
				if (kex_need_rekey(t) &&
				    (r = kex_send_kexinit(t)) != 0)
					return r;
				return ERR_AGAIN;
			}
			if (r == ERR_MAC_INVALID) {
				log_error("Corrupted MAC on input.");
				tr_disconnect(t, SSH2_DISCONNECT_MAC_ERROR,
				    "Packet corrupt");
			} else {
				tr_disconnect(t,
				    SSH2_DISCONNECT_PROTOCOL_ERROR,
				    "Packet corrupt: %s", err_str(r));
			}
			return r;
		}
		/* Re-point the one read-only view; no allocation. */
		(void)sbuf_view_reset(t->body, sbuf_ptr(t->msg) + 1,
		    sbuf_len(t->msg) - 1);
		type = sbuf_ptr(t->msg)[0];
		if (t->ignore_guess && type >= 30 && type < 50) {
			t->ignore_guess = 0;
			continue;
		}
		if (type == SSH2_MSG_DISCONNECT)
			return handle_disconnect(t);
		if (!t->first_kex_done && !t->plain &&
		    (type < 20 || type >= 50) &&
		    (t->strict || (type != SSH2_MSG_IGNORE &&
		    type != SSH2_MSG_DEBUG && type != SSH2_MSG_UNIMPLEMENTED &&
		    !(type == SSH2_MSG_EXT_INFO && t->newkeys_received)))) {
			return tr_protocol_error(t,
			    SSH2_DISCONNECT_PROTOCOL_ERROR,
			    "unexpected message type %u before key exchange "
			    "completed", type);
		}
		switch (type) {
		case SSH2_MSG_IGNORE:
			continue;
		case SSH2_MSG_DEBUG:
			log_debug("Remote: debug message received");
			continue;
		case SSH2_MSG_UNIMPLEMENTED:
			log_debug("Received SSH2_MSG_UNIMPLEMENTED");
			continue;
		case SSH2_MSG_EXT_INFO:
			if ((r = firstkex_ext_info(t)) != 0)
				return tr_protocol_error(t,
				    SSH2_DISCONNECT_PROTOCOL_ERROR,
				    "bad ext-info: %s", err_str(r));
			continue;
		case SSH2_MSG_PING:
			if (t->server) {
				if ((r = kex_answer_ping(t)) != 0)
					return r;
				continue;
			}
			break;
		case SSH2_MSG_SERVICE_REQUEST:
		case SSH2_MSG_SERVICE_ACCEPT:
			break;
		default:
			if (type >= 20 && type < 50) {
				if (t->plain) {
					log_error("Key exchange message %u "
					    "from the master in proxy mode",
					    type);
					return tr_protocol_error(t,
					    SSH2_DISCONNECT_PROTOCOL_ERROR,
					    "key exchange message %u in "
					    "proxy mode", type);
				}
				if ((r = kex_dispatch(t, type)) != 0)
					return r;
				continue;
			}
			if (type < 20) {
				if ((r = tr_unimplemented(t)) != 0)
					return r;
				continue;
			}
			break;
		}
		*typep = type;
		*payloadp = t->body;
		return 0;
	}
}

void
tr_set_deadline(struct transport *t, uint64_t ms)
{
	t->deadline_ms = ms == 0 ? 0 : tr_now_ms() + ms;
}

/*
 * The poll() timeout that ends at `end` (monotonic ms; 0: never): -1
 * for none, 0 once it has passed. Recomputed before every poll, so a
 * wait woken by input resumes with what is left, not the whole of it.
 */
static int
ms_until(uint64_t end)
{
	uint64_t now;

	if (end == 0)
		return -1;
	if ((now = tr_now_ms()) >= end)
		return 0;
	return end - now > INT_MAX ? INT_MAX : (int)(end - now);
}

int
tr_flush(struct transport *t)
{
	struct pollfd pfd;
	int r, wait;

	while ((r = tr_fd_write(t)) == ERR_AGAIN) {
		if ((wait = ms_until(t->deadline_ms)) == 0)
			return ERR_CONN_TIMEOUT;
		pfd.fd = t->fd_out;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, wait) < 0 && errno != EINTR)
			return ERR_SYSTEM;
	}
	return r;
}

int
tr_wait_message(struct transport *t, uint8_t *typep, struct sbuf **payloadp,
    int timeout_ms)
{
	struct pollfd pfd[2];
	uint64_t end = t->deadline_ms;
	int r, n;

	if (timeout_ms >= 0) {
		uint64_t mine = tr_now_ms() + (uint64_t)timeout_ms;

		if (end == 0 || mine < end)
			end = mine;
	}
	for (;;) {
		/*
		 * Checked before each message too: a peer that keeps
		 * complete messages coming must not outlast the deadline.
		 */
		if (ms_until(end) == 0)
			return ERR_CONN_TIMEOUT;
		r = tr_next_message(t, typep, payloadp);
		if (r != ERR_AGAIN)
			return r;
		if ((r = tr_fd_write(t)) != 0 && r != ERR_AGAIN)
			return r;
		if (t->lowat)
			set_lowat(t, 1);
		pfd[0].fd = t->fd_in;
		pfd[0].events = POLLIN;
		pfd[1].fd = t->fd_out;
		pfd[1].events = tr_want_write(t) ? POLLOUT : 0;
		n = poll(pfd, tr_want_write(t) ? 2 : 1, ms_until(end));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return ERR_SYSTEM;
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			r = tr_fd_read(t);
			if (r != 0 && r != ERR_AGAIN)
				return r;
		}
	}
}

int
tr_rekey(struct transport *t)
{
	/* Keys are the master's business in proxy mode. */
	if (t->kex_state != KEX_IDLE || t->plain)
		return 0;
	return kex_send_kexinit(t);
}

int
tr_poll_timeout(const struct transport *t)
{
	uint64_t now = tr_now(), due;

	if (t->lowat) {
		uint64_t ms = tr_now_ms() - t->lowat_read_ms;

		return ms >= TR_LOWAT_WAIT_MS ? 0 : (int)(TR_LOWAT_WAIT_MS - ms);
	}
	if (t->cfg.rekey_seconds == 0 || !t->first_kex_done || !t->authenticated ||
	    t->kex_state != KEX_IDLE)
		return -1;
	due = t->kex_time + t->cfg.rekey_seconds;
	return due <= now ? 0 : (int)((due - now) * 1000);
}

int
tr_check_rekey(struct transport *t)
{
	if (kex_need_rekey(t))
		return kex_send_kexinit(t);
	return 0;
}
