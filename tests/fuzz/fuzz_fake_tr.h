/*
 * fuzz_fake_tr.h: a stand-in transport for the fuzz targets of the layers
 * above it (user authentication, channels, sessions, forwarding).
 *
 * The real transport would cost a key exchange per input and encrypt
 * every message; these targets fuzz what the messages say, not how they
 * travel. So this header defines the transport's public functions
 * (transport.h) itself, and the targets that include it link the library
 * as an archive: the real transport's objects are then never pulled in,
 * exactly as tests/unit/test_session.c does it with its own stand-in.
 * Include it in one source file per program: it defines functions.
 *
 * Input: a script of records, each "uint16 length (big-endian), message"
 * where the message is its type byte and payload, as the client would
 * send it after the key exchange (the same framing as fuzz_tr.h's
 * scripted mode). A length beyond the end takes what is left; an empty
 * record is skipped. The records are handed up one per tr_fd_read()
 * call, so an event loop handles one message per turn and its other
 * work (fds, listeners) interleaves with them. When they run out the
 * peer has closed the connection (ERR_CONN_CLOSED).
 *
 * What the real transport keeps to itself it keeps here too: DISCONNECT
 * ends the input (ERR_DISCONNECTED); IGNORE, DEBUG, UNIMPLEMENTED,
 * EXT_INFO, the other numbers below 20 and the key exchange range 20..49
 * are dropped. SERVICE_REQUEST/ACCEPT and 50 and up go up. After
 * tr_disconnect() nothing more is read or sent, as with the real one.
 *
 * Output: what the layer above sends is checked by fz_out() (a hook the
 * target may set) and thrown away. Never blocking, the stand-in ignores
 * timeouts and deadlines; its input fd is an eventfd that always polls
 * readable. The session id is a fixed 32 bytes, so seeds can carry
 * signatures that verify (see mkseeds.c); the host keys are the ones the
 * target gives (fz_tr_add_hostkey), for hostkeys-00 and its proofs;
 * the first of them is the key the exchange used (tr_hostkey()), which
 * publickey-hostbound-v00@openssh.com requests must name.
 */
#ifndef MOAT_FUZZ_FAKE_TR_H
#define MOAT_FUZZ_FAKE_TR_H

#include <sys/eventfd.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

struct transport {
	const uint8_t *data;	/* the script */
	size_t size, off;
	struct sbuf *msg;	/* the message handed up, after its type */
	uint8_t type;
	int ready;		/* msg read and not yet handed up */
	struct sbuf *compose;
	int closed;		/* DISCONNECT sent or received */
	int authenticated;
	unsigned long nin, nout;
};

/* The fixed session id (see mkseeds.c, which signs with it). */
static const unsigned char fz_session_id[32] = {
	0x6d, 0x6f, 0x61, 0x74, 0x20, 0x66, 0x75, 0x7a,
	0x7a, 0x20, 0x73, 0x65, 0x73, 0x73, 0x69, 0x6f,
	0x6e, 0x20, 0x69, 0x64, 0x2c, 0x20, 0x33, 0x32,
	0x20, 0x62, 0x79, 0x74, 0x65, 0x73, 0x2e, 0x0a,
};

/*
 * The server's host keys (tr_hostkeys(), tr_hostkey_sign()): private
 * halves and public ones, set by the target with fz_tr_add_hostkey().
 */
#define FZ_MAXHK	4
static struct key *fz_hk_priv[FZ_MAXHK], *fz_hk_pub[FZ_MAXHK];
static size_t fz_nhk;

/*
 * Newer parts of the transport's interface, declared here as well so the
 * stand-in defines every function of transport.h whichever version of it
 * the code under test was written against (a function it lacked would
 * pull the real transport in beside it).
 */
struct key *const *tr_hostkeys(const struct transport *t, size_t *np);
int tr_hostkey_sign(struct transport *t, const struct key *pub,
    const char *sigalg, const unsigned char *data, size_t dlen,
    struct sbuf *sig);
const char *tr_peer_hostkey_algs(const struct transport *t);
void tr_set_deadline(struct transport *t, uint64_t ms);
int tr_peer_eof(const struct transport *t);
int tr_io_errno(const struct transport *t, int *readp);

/* Sees each message the layer above sends (type byte first). */
static void (*fz_out)(struct transport *t, const struct sbuf *m);
/* Sees each message handed up (its type, then the rest). */
static void (*fz_in)(uint8_t type, const struct sbuf *msg);
static int fz_evfd = -1;

/* One more host key, from its private key file text. */
static inline void
fz_tr_add_hostkey(const char *text)
{
	struct sbuf *f = sbuf_from(text, strlen(text));

	if (fz_nhk == FZ_MAXHK || f == NULL ||
	    key_parse_private(f, NULL, &fz_hk_priv[fz_nhk], NULL) != 0 ||
	    key_demote(fz_hk_priv[fz_nhk], &fz_hk_pub[fz_nhk]) != 0)
		abort();
	fz_nhk++;
	sbuf_free(f);
}

static struct transport *
fz_tr_new(const uint8_t *data, size_t size)
{
	struct transport *t = x_calloc(1, sizeof(*t));

	if (fz_evfd == -1 && (fz_evfd = eventfd(1, EFD_CLOEXEC)) == -1)
		abort();
	t->data = data;
	t->size = size;
	t->msg = sbuf_new();
	t->compose = sbuf_new();
	return t;
}

void
tr_free(struct transport *t)
{
	if (t == NULL)
		return;
	sbuf_free(t->msg);
	sbuf_free(t->compose);
	x_free(t);
}

struct transport *
tr_new(int fd_in, int fd_out, const struct tr_config *cfg)
{
	abort();	/* the targets make theirs with fz_tr_new() */
}

/* The next record of the script into t->msg; 0 or ERR_CONN_CLOSED. */
static int
fz_tr_record(struct transport *t)
{
	size_t len;

	for (;;) {
		if (t->closed || t->size - t->off < 2)
			return ERR_CONN_CLOSED;
		len = (size_t)t->data[t->off] << 8 | t->data[t->off + 1];
		t->off += 2;
		if (len > t->size - t->off)
			len = t->size - t->off;
		if (len == 0)
			continue;
		t->type = t->data[t->off];
		sbuf_reset(t->msg);
		if (sbuf_put(t->msg, t->data + t->off + 1, len - 1) != 0)
			abort();
		t->off += len;
		t->nin++;
		switch (t->type) {
		case SSH2_MSG_DISCONNECT:
			log_info("Received disconnect from fuzz port 1");
			t->closed = 1;
			return ERR_DISCONNECTED;
		case SSH2_MSG_SERVICE_REQUEST:
		case SSH2_MSG_SERVICE_ACCEPT:
			return 0;
		default:
			if (t->type < 50)
				continue;	/* the transport's own */
			if (fz_in != NULL)
				fz_in(t->type, t->msg);
			return 0;
		}
	}
}

int tr_fd_in(const struct transport *t) { return fz_evfd; }
int tr_fd_out(const struct transport *t) { return fz_evfd; }
int tr_fd_write(struct transport *t) { return 0; }
int tr_want_write(const struct transport *t) { return 0; }
size_t tr_output_pending(const struct transport *t) { return 0; }
int tr_flush(struct transport *t) { return 0; }
int tr_poll_timeout(const struct transport *t) { return -1; }
int tr_check_rekey(struct transport *t) { return 0; }
void tr_poll_done(struct transport *t) { }
int tr_rekey(struct transport *t) { return 0; }
int tr_is_server(const struct transport *t) { return 1; }
const char *tr_peer_sig_algs(const struct transport *t) { return NULL; }
int tr_peer_wants_ext_info(const struct transport *t) { return 1; }
/* The key of the exchange: the first the target gave, if any. */
const struct key *
tr_hostkey(const struct transport *t)
{
	return fz_nhk > 0 ? fz_hk_pub[0] : NULL;
}

/* Host key rotation (hostkeys-00, hostkeys-prove-00): the target's keys. */
struct key *const *
tr_hostkeys(const struct transport *t, size_t *np)
{
	*np = fz_nhk;
	return fz_hk_pub;
}

int
tr_hostkey_sign(struct transport *t, const struct key *pub,
    const char *sigalg, const unsigned char *data, size_t dlen,
    struct sbuf *sig)
{
	size_t i;

	for (i = 0; i < fz_nhk; i++)
		if (fz_hk_pub[i] == pub)
			return key_sign(fz_hk_priv[i], sigalg, data, dlen, sig);
	return ERR_NOT_FOUND;
}

const char *
tr_peer_hostkey_algs(const struct transport *t)
{
	return "ssh-ed25519,ecdsa-sha2-nistp256,rsa-sha2-512,rsa-sha2-256";
}

void tr_set_authenticated(struct transport *t) { t->authenticated = 1; }
unsigned int tr_kex_count(const struct transport *t) { return 1; }
int tr_kex_running(const struct transport *t) { return 0; }

const char *
tr_peer_version(const struct transport *t)
{
	return "SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3";
}

uint64_t
tr_last_input_time(const struct transport *t)
{
	return (uint64_t)time(NULL);
}

const char *
tr_negotiated(const struct transport *t, const char *what)
{
	if (strcmp(what, "kex") == 0)
		return "curve25519-sha256";
	if (strcmp(what, "hostkey") == 0)
		return "ssh-ed25519";
	if (strncmp(what, "cipher", 6) == 0)
		return "chacha20-poly1305@openssh.com";
	return NULL;
}

const unsigned char *
tr_session_id(const struct transport *t, size_t *lenp)
{
	*lenp = sizeof(fz_session_id);
	return fz_session_id;
}

void tr_set_deadline(struct transport *t, uint64_t ms) { }
int tr_peer_eof(const struct transport *t) { return t->off >= t->size; }

int
tr_io_errno(const struct transport *t, int *readp)
{
	if (readp != NULL)
		*readp = 0;
	return 0;
}

int
tr_fd_read(struct transport *t)
{
	int r;

	if (t->ready)
		return 0;
	if ((r = fz_tr_record(t)) != 0)
		return r;
	t->ready = 1;
	return 0;
}

int
tr_next_message(struct transport *t, uint8_t *typep, struct sbuf **payloadp)
{
	if (t->closed)
		return ERR_CONN_CLOSED;
	if (!t->ready)
		return ERR_AGAIN;
	t->ready = 0;
	*typep = t->type;
	*payloadp = t->msg;
	return 0;
}

int
tr_wait_message(struct transport *t, uint8_t *typep, struct sbuf **payloadp,
    int timeout_ms)
{
	int r;

	if ((r = tr_fd_read(t)) != 0)
		return r;
	return tr_next_message(t, typep, payloadp);
}

struct sbuf *
tr_msg_start(struct transport *t, uint8_t type)
{
	sbuf_reset(t->compose);
	if (sbuf_put_u8(t->compose, type) != 0)
		abort();
	return t->compose;
}

int
tr_msg_send(struct transport *t)
{
	if (t->closed)
		return ERR_CONN_CLOSED;
	if (sbuf_len(t->compose) == 0)
		return ERR_INVALID_ARGUMENT;
	t->nout++;
	if (fz_out != NULL)
		fz_out(t, t->compose);
	sbuf_reset(t->compose);
	return 0;
}

int
tr_unimplemented(struct transport *t)
{
	struct sbuf *m = tr_msg_start(t, SSH2_MSG_UNIMPLEMENTED);

	if (sbuf_put_u32(m, (uint32_t)t->nin) != 0)
		abort();
	return tr_msg_send(t);
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
	log_info("Disconnecting fuzz port 1: %s", msg);
	t->closed = 1;
	return 0;
}

#endif
