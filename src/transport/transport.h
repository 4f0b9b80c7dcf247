/*
 * transport.h: the SSH transport layer (RFC 4253 and OpenSSH's
 * extensions), both roles: version exchange, binary packet protocol,
 * key exchange and rekeying, strict KEX, ext-info.
 *
 * The transport owns two file descriptors (which may be one socket) and
 * never blocks on its own: callers feed it with tr_fd_read() when the
 * input fd is readable and drain it with tr_fd_write() when tr_want_write()
 * says so; tr_next_message() hands back the next message for the layers
 * above (userauth, connection). Transport-level messages (IGNORE, DEBUG,
 * UNIMPLEMENTED, DISCONNECT, KEXINIT and the KEX messages, EXT_INFO) are
 * handled inside. Messages the upper layers send during a key exchange
 * are queued and go out once the new keys are in use.
 *
 * tr_wait_message() and tr_flush() are blocking conveniences for the
 * simple sequential phases (authentication, tests).
 *
 * Host keys: the server passes the public halves and a sign callback, so
 * the private keys can live in another process (privilege separation).
 * The client passes a verify callback that decides whether to trust the
 * server's host key.
 */
#ifndef MOAT_TRANSPORT_H
#define MOAT_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"
#include "sbuf.h"

/* Message numbers (RFC 4250 section 4.1). */
#define SSH2_MSG_DISCONNECT			1
#define SSH2_MSG_IGNORE				2
#define SSH2_MSG_UNIMPLEMENTED			3
#define SSH2_MSG_DEBUG				4
#define SSH2_MSG_SERVICE_REQUEST		5
#define SSH2_MSG_SERVICE_ACCEPT			6
#define SSH2_MSG_EXT_INFO			7
#define SSH2_MSG_KEXINIT			20
#define SSH2_MSG_NEWKEYS			21
#define SSH2_MSG_KEX_ECDH_INIT			30
#define SSH2_MSG_KEX_ECDH_REPLY			31
#define SSH2_MSG_KEXDH_INIT			30
#define SSH2_MSG_KEXDH_REPLY			31
#define SSH2_MSG_KEX_DH_GEX_GROUP		31
#define SSH2_MSG_KEX_DH_GEX_INIT		32
#define SSH2_MSG_KEX_DH_GEX_REPLY		33
#define SSH2_MSG_KEX_DH_GEX_REQUEST		34
#define SSH2_MSG_USERAUTH_REQUEST		50
#define SSH2_MSG_USERAUTH_FAILURE		51
#define SSH2_MSG_USERAUTH_SUCCESS		52
#define SSH2_MSG_USERAUTH_BANNER		53
#define SSH2_MSG_USERAUTH_PK_OK			60
#define SSH2_MSG_USERAUTH_PASSWD_CHANGEREQ	60
#define SSH2_MSG_USERAUTH_INFO_REQUEST		60
#define SSH2_MSG_USERAUTH_INFO_RESPONSE		61
#define SSH2_MSG_GLOBAL_REQUEST			80
#define SSH2_MSG_REQUEST_SUCCESS		81
#define SSH2_MSG_REQUEST_FAILURE		82
#define SSH2_MSG_CHANNEL_OPEN			90
#define SSH2_MSG_CHANNEL_OPEN_CONFIRMATION	91
#define SSH2_MSG_CHANNEL_OPEN_FAILURE		92
#define SSH2_MSG_CHANNEL_WINDOW_ADJUST		93
#define SSH2_MSG_CHANNEL_DATA			94
#define SSH2_MSG_CHANNEL_EXTENDED_DATA		95
#define SSH2_MSG_CHANNEL_EOF			96
#define SSH2_MSG_CHANNEL_CLOSE			97
#define SSH2_MSG_CHANNEL_REQUEST		98
#define SSH2_MSG_CHANNEL_SUCCESS		99
#define SSH2_MSG_CHANNEL_FAILURE		100
/* OpenSSH's transport ping (its PROTOCOL, 1.8: "ping@openssh.com"). */
#define SSH2_MSG_PING				192
#define SSH2_MSG_PONG				193

/* Disconnect reasons (RFC 4250 section 4.2.2). */
#define SSH2_DISCONNECT_HOST_NOT_ALLOWED_TO_CONNECT	1
#define SSH2_DISCONNECT_PROTOCOL_ERROR			2
#define SSH2_DISCONNECT_KEY_EXCHANGE_FAILED		3
#define SSH2_DISCONNECT_MAC_ERROR			5
#define SSH2_DISCONNECT_SERVICE_NOT_AVAILABLE		7
#define SSH2_DISCONNECT_PROTOCOL_VERSION_NOT_SUPPORTED	8
#define SSH2_DISCONNECT_HOST_KEY_NOT_VERIFIABLE		9
#define SSH2_DISCONNECT_CONNECTION_LOST			10
#define SSH2_DISCONNECT_BY_APPLICATION			11
#define SSH2_DISCONNECT_TOO_MANY_CONNECTIONS		12
#define SSH2_DISCONNECT_AUTH_CANCELLED_BY_USER		13
#define SSH2_DISCONNECT_NO_MORE_AUTH_METHODS_AVAILABLE	14
#define SSH2_DISCONNECT_ILLEGAL_USER_NAME		15

#define TR_MAX_PACKET	(256 * 1024)	/* largest packet we accept */

struct key_cert;

struct tr_config {
	int server;			/* 1: server role, 0: client */
	/* Final algorithm lists (after +,-,^ processing), comma-separated. */
	const char *kex_algs;
	const char *hostkey_algs;
	const char *ciphers;
	const char *macs;
	/*
	 * Compression methods, both directions ("none,zlib@openssh.com"
	 * ...); NULL: "none". Pass only zlib@openssh.com and none on a
	 * server that hands the connection over after authentication
	 * (tr_export() refuses a stream that has begun).
	 */
	const char *compression;
	uint64_t rekey_bytes;		/* 0: default for the cipher */
	uint32_t rekey_seconds;		/* 0: none */
	/* After our version line (TR_VERSION) and a space; may be NULL. */
	const char *version_comment;
	const char *peer_desc;		/* "ADDR port N", for log lines */

	/* Server: public host keys, and how to sign with them. */
	struct key **hostkeys;
	size_t nhostkeys;
	int (*hostkey_sign)(void *arg, const struct key *pub,
	    const char *sigalg, const unsigned char *data, size_t dlen,
	    struct sbuf *sig);
	void *hostkey_arg;
	/*
	 * Server, optional: host certificates parallel to hostkeys
	 * (hostcerts[i] certifies hostkeys[i], or is NULL); NULL: none.
	 * Each adds its certificate algorithm to the offer; when chosen,
	 * K_S is the certificate and hostkey_sign is called for
	 * hostkeys[i] with the plain algorithm (cert_sigalg_base()).
	 */
	struct key_cert **hostcerts;
	const char *moduli_path;	/* DH group exchange; NULL: default */
	/*
	 * Or, where the moduli file cannot be opened (a sandboxed child):
	 * the group is chosen by this (called with hostkey_arg), as
	 * kexalg_gex_choose() would.
	 */
	int (*gex_choose)(void *arg, uint32_t min, uint32_t want, uint32_t max,
	    BIGNUM **pp, BIGNUM **gp);

	/* Client: 0 to accept the server's host key, an error to refuse. */
	int (*hostkey_verify)(void *arg, const struct key *hostkey);
	/*
	 * Client: called instead of hostkey_verify when the server sent a
	 * host certificate (its CA signature and the KEX signature by its
	 * subject key already checked); 0 to accept. NULL: refuse every
	 * certificate.
	 */
	int (*hostcert_verify)(void *arg, const struct key_cert *cert);
	/*
	 * Client, optional: shown the server's host key blob (K_S, a
	 * certificate's whole blob for a certificate algorithm) and the
	 * negotiated host key algorithm as soon as the reply arrives,
	 * before the blob is parsed or the exchange signature checked; 0
	 * to go on, an error to end the exchange as a refused key does.
	 * For ssh-keyscan, which also reports key types this build cannot
	 * verify (ssh-dss, security keys).
	 */
	int (*hostkey_seen)(void *arg, const char *alg,
	    const unsigned char *blob, size_t len);
	void *verify_arg;
};

struct transport;

/* Sends our banner at once (queued; flushed by tr_fd_write). */
struct transport *tr_new(int fd_in, int fd_out, const struct tr_config *cfg);
/*
 * A client transport in the plain framing of a ControlMaster's proxy
 * mode (PROTOCOL.mux, "Requesting proxy mode"): the master has the real
 * connection and speaks its connection protocol for us, so there is no
 * version exchange, no key exchange and no encryption or MAC here, and
 * every message goes as "uint32 length, byte 0 (no padding), payload".
 * The layers above run on it as on tr_new()'s (authenticated already);
 * a key exchange message from the peer is a protocol error, and no
 * rekey ever starts. Sends nothing at once.
 */
struct transport *tr_new_plain(int fd_in, int fd_out,
    const struct tr_config *cfg);
void tr_free(struct transport *t);

int tr_fd_in(const struct transport *t);
int tr_fd_out(const struct transport *t);
/*
 * Read what is available: 0, ERR_AGAIN, ERR_CONN_CLOSED (end of file;
 * tr_peer_eof() says so from then on) or an error (ERR_SYSTEM: see
 * tr_io_errno()).
 */
int tr_fd_read(struct transport *t);
/* Write queued output: 0 (or ERR_AGAIN if some remains) or an error. */
int tr_fd_write(struct transport *t);
int tr_want_write(const struct transport *t);
/* Bytes of output queued and not yet written. */
size_t tr_output_pending(const struct transport *t);

/*
 * Next message for the upper layers. On 0, *typep is its number and
 * *payloadp (owned by the transport, valid until the next call) holds the
 * rest of the message after the type byte. ERR_AGAIN: more input needed.
 * ERR_DISCONNECTED: the peer sent DISCONNECT (logged). Any other error is
 * fatal for the connection; the transport has already queued a DISCONNECT
 * where one is due.
 */
int tr_next_message(struct transport *t, uint8_t *typep,
    struct sbuf **payloadp);
/*
 * Blocking: poll and read until a message arrives. ERR_CONN_TIMEOUT once
 * timeout_ms (< 0: none) have passed since the call, or the deadline set
 * by tr_set_deadline(), whichever comes first: both are absolute, so
 * bytes that trickle in (a partial banner or packet, IGNOREs, a rekey)
 * do not extend them.
 */
int tr_wait_message(struct transport *t, uint8_t *typep,
    struct sbuf **payloadp, int timeout_ms);
/* Blocking: write all queued output; ERR_CONN_TIMEOUT past the deadline. */
int tr_flush(struct transport *t);
/*
 * A deadline for the blocking calls above, ms milliseconds from now on
 * the monotonic clock; 0 removes it. sshd's LoginGraceTime: set at
 * accept, removed once the user has logged in.
 */
void tr_set_deadline(struct transport *t, uint64_t ms);

/*
 * Compose and send a message: tr_msg_start() gives a buffer (owned by the
 * transport) holding only the type byte; append the body, then call
 * tr_msg_send(). One message at a time.
 */
struct sbuf *tr_msg_start(struct transport *t, uint8_t type);
int tr_msg_send(struct transport *t);

/* Queue DISCONNECT, log it, and flush as far as possible without blocking. */
int tr_disconnect(struct transport *t, uint32_t reason, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reply UNIMPLEMENTED to the message tr_next_message() last returned. */
int tr_unimplemented(struct transport *t);
/*
 * For event loops: milliseconds until the transport needs a look
 * (-1: never) -- RekeyLimit's time limit, or the end of a wait for a
 * batch of bulk input (see tr_poll_done()) -- and a call that starts a
 * rekey when the time or volume limit is due.
 */
int tr_poll_timeout(const struct transport *t);
int tr_check_rekey(struct transport *t);
/*
 * Event loops call this after every poll: it ends a wait for a batch of
 * bulk input that has gone on too long (see tr_poll_timeout()).
 */
void tr_poll_done(struct transport *t);
/* Start a rekey now (e.g. the client's ~R). */
int tr_rekey(struct transport *t);

const unsigned char *tr_session_id(const struct transport *t, size_t *lenp);
/*
 * Client: the server's host key blob (K_S, a key or certificate) and its
 * signature over the exchange hash, as the first key exchange sent them
 * (what session-bind@openssh.com hands the agent, with tr_session_id()).
 * Pointers into t, valid until tr_free(). ERR_INVALID_ARGUMENT before
 * the first exchange has been verified, or on the server.
 */
int tr_first_kex(const struct transport *t, const unsigned char **hkp,
    size_t *hklenp, const unsigned char **sigp, size_t *siglenp);
const char *tr_peer_version(const struct transport *t);
int tr_is_server(const struct transport *t);
/* Peer's server-sig-algs from ext-info (client role); NULL if none. */
const char *tr_peer_sig_algs(const struct transport *t);
/*
 * Client: whether the server's ext-info offered publickey-hostbound@
 * openssh.com version "0" (publickey-hostbound-v00 requests welcome).
 */
int tr_peer_hostbound(const struct transport *t);
/*
 * Client: whether the server's ext-info offered ping@openssh.com version
 * "0" (OpenSSH's PROTOCOL 1.8: SSH2_MSG_PING is answered with a PONG).
 */
int tr_peer_ping(const struct transport *t);
/* Whether the peer sent ext-info-c (server role). */
int tr_peer_wants_ext_info(const struct transport *t);
/*
 * Names negotiated in the last KEX ("kex", "hostkey", "cipher c2s",
 * "mac s2c", "comp c2s"...).
 */
const char *tr_negotiated(const struct transport *t, const char *what);
/* Seconds since epoch of the last input from the peer. */
uint64_t tr_last_input_time(const struct transport *t);
/* Server: the host key the client chose, for hostkeys-00 and logging. */
const struct key *tr_hostkey(const struct transport *t);
/* Server: every host public key (tr_config.hostkeys), *np of them. */
struct key *const *tr_hostkeys(const struct transport *t, size_t *np);
/*
 * Server: sign data with the host key whose public half is pub (one of
 * tr_hostkeys()), through tr_config.hostkey_sign; appends the signature
 * blob to sig.
 */
int tr_hostkey_sign(struct transport *t, const struct key *pub,
    const char *sigalg, const unsigned char *data, size_t dlen,
    struct sbuf *sig);
/* The host key algorithms of the peer's first KEXINIT; NULL before. */
const char *tr_peer_hostkey_algs(const struct transport *t);
/*
 * After user authentication succeeds: only then do we start rekeys of
 * our own (RekeyLimit), as OpenSSH does; peers cannot take a KEXINIT
 * in the middle of userauth.
 */
void tr_set_authenticated(struct transport *t);
/* Key exchanges completed so far (1 after the first). */
unsigned int tr_kex_count(const struct transport *t);

/*
 * Handing a connection to another process (privilege separation: the
 * pre-authentication child ends, the post-authentication side goes on).
 *
 * tr_export() appends, at a message boundary between key exchanges,
 * everything the other side needs to carry on with the same peer: the
 * keys, IVs and counters of both directions, the sequence numbers, the
 * rekey counters, strict-KEX and ext-info state, the session id, the
 * peer's version and the negotiated names, and the raw bytes read but
 * not yet handled and queued but not yet written. ERR_AGAIN while a key
 * exchange is running or messages are held for its end (tr_next_message()
 * further, then try again); ERR_INVALID_ARGUMENT before the first
 * exchange has completed or after a disconnect.
 *
 * tr_import() builds a transport on fd_in/fd_out (the same connection)
 * from such a blob: nothing is sent, the next tr_fd_read() goes on from
 * the exported input. cfg must be what the exporting side used (same
 * role, same host keys in the same order). The blob is checked as
 * hostile (it comes from the less trusted process): names must be
 * known algorithms, every length must fit its algorithm, every number
 * its range. NULL (logged) when it is not a valid state.
 */
int tr_export(struct transport *t, struct sbuf *out);
struct transport *tr_import(int fd_in, int fd_out, const struct tr_config *cfg,
    const unsigned char *blob, size_t len);
/*
 * How the connection was lost, for the messages ssh(1) prints: whether
 * end of file was read from the peer (it closed without DISCONNECT),
 * and the errno of the last read or write that failed (0 if none; with
 * *readp, when not NULL, set to 1 for a read and 0 for a write).
 */
int tr_peer_eof(const struct transport *t);
/* Non-zero once the peer's DISCONNECT was read (sshd logs the end). */
int tr_peer_disconnected(const struct transport *t);
int tr_io_errno(const struct transport *t, int *readp);
/*
 * Non-zero from a KEXINIT (ours or the peer's) until both sides use the
 * new keys. The connection layer stops reading channel data meanwhile,
 * as OpenSSH does: what it read would be held until the new keys and
 * then sent under them in one burst, carrying each key well past
 * RekeyLimit.
 */
int tr_kex_running(const struct transport *t);

#endif
