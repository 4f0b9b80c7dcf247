/*
 * transport_int.h: the transport's private state, shared by transport.c
 * (I/O, banners, dispatch), packet.c (binary packet protocol) and kex.c
 * (key exchange). Nothing outside src/transport includes this.
 */
#ifndef MOAT_TRANSPORT_INT_H
#define MOAT_TRANSPORT_INT_H

#include <stdint.h>

#include "cipher.h"
#include "compress.h"
#include "kexalg.h"
#include "mac.h"
#include "transport.h"

/*
 * Our version line (RFC 4253 section 4.2), followed by " " and the
 * VersionAddendum when one is set. The comment "OpenSSH-compatible" is
 * for SFTP clients that choose the order of SSH_FXP_SYMLINK's two paths
 * from the server's version string: asyncssh sends them in OpenSSH's
 * order, the one our sftp-server takes (see sftp_req_symlink()), only
 * to a server whose version string contains "OpenSSH". Peers that turn
 * on OpenSSH bug-compatibility from the version string look for
 * "OpenSSH" at the start of the software version (OpenSSH's compat
 * table, PuTTY, WinSCP, ProFTPD; paramiko wants "-OpenSSH_") or for a
 * version number right after it (libssh), so the comment changes
 * nothing else for them.
 */
#define TR_VERSION	"SSH-2.0-moat_0.1 OpenSSH-compatible"
#define TR_MAX_BANNER_LINE	8192	/* RFC says 255; be lenient */
#define TR_MAX_PREAMBLE		1024	/* lines before the version line */

/* Keys and counters for one direction. */
struct tr_dir {
	const struct cipher_alg *cipher;	/* NULL: no encryption yet */
	const struct mac_alg *mac;		/* NULL: none or AEAD */
	struct cipher_ctx *cctx;
	struct mac_ctx *mctx;
	uint32_t seqnr;
	uint64_t blocks;	/* cipher blocks since the last key change */
	uint64_t max_blocks;	/* rekey after this many */
	const struct comp_alg *comp;	/* negotiated; NULL: none */
	/*
	 * Compression: 0 none, 1 compressing through zctx, 2 waiting
	 * for USERAUTH_SUCCESS (zlib@openssh.com). The packet paths test
	 * only this, so "none" costs them one comparison.
	 */
	int zmode;
	struct comp_ctx *zctx;
};

/* Negotiated algorithms of a key exchange in progress. */
struct tr_newkeys {
	const struct cipher_alg *cipher;
	const struct mac_alg *mac;
	const struct comp_alg *comp;
	unsigned char *key, *iv, *mackey;
};

enum kex_state {
	KEX_IDLE = 0,		/* keys in use; no exchange running */
	KEX_RUNNING,		/* KEXINIT sent and/or received */
};

struct key_cert;

struct transport {
	struct tr_config cfg;
	int fd_in, fd_out;
	int server;

	struct sbuf *in;	/* raw bytes from the peer */
	struct sbuf *out;	/* raw bytes to the peer */
	struct sbuf *msg;	/* current incoming message, type byte first */
	int msg_keep;		/* msg is channel data: no need to wipe it */
	struct sbuf *body;	/* view of msg after the type byte, reused */
	struct sbuf *compose;	/* outgoing message being built */
	struct sbuf *deferred;	/* upper-layer messages held during KEX */

	char *peer_version;
	int banner_done;
	unsigned int preamble_lines;

	struct tr_dir send, recv;
	uint32_t last_seqnr;	/* seqnr of the message last handed up */
	/* A packet whose first block is decrypted but not yet complete. */
	uint32_t pending_len;	/* packet_length, 0 if none */

	/* Key exchange. */
	enum kex_state kex_state;
	int kexinit_sent;	/* our KEXINIT for this exchange is out */
	int kexinit_received;
	int newkeys_sent;
	int newkeys_received;
	int first_kex_done;	/* a full exchange has completed */
	unsigned int nkex;	/* exchanges completed so far */
	int strict;		/* kex-strict-*-v00@openssh.com agreed */
	int ignore_guess;	/* skip the peer's wrongly guessed packet */
	int expect;		/* next KEX message number we accept, 0: any */
	int peer_ext_info;	/* peer sent ext-info-c / ext-info-s */
	int ext_info_sent;
	int authenticated;
	int zauth;		/* USERAUTH_SUCCESS went by: delayed may start */
	int zany;		/* a direction compresses or waits to */
	/*
	 * tr_new_plain(): proxy-mode framing, no KEX. The packet paths
	 * test it only where no cipher is in use, so the encrypted path
	 * never looks at it.
	 */
	int plain;
	struct sbuf *my_kexinit;	/* payloads, type byte included */
	struct sbuf *peer_kexinit;
	const struct kex_alg *kex;
	char *hostkey_alg;
	const struct key *hostkey;	/* server: the key in use */
	struct key *peer_hostkey;	/* client: the server's key */
	struct key_cert *peer_hostcert;	/* client: its certificate, if any */
	struct kex_eph *eph;
	struct sbuf *my_pub;		/* our encoded public value */
	uint32_t gex_min, gex_want, gex_max;
	BIGNUM *gex_p, *gex_g;
	struct tr_newkeys nk_send, nk_recv;
	char *negotiated[8];	/* names, for tr_negotiated() */
	unsigned char session_id[64];
	size_t session_id_len;
	/*
	 * Client: K_S and the signature of the first exchange, kept for
	 * session-bind@openssh.com (a rekey leaves them as they are).
	 */
	unsigned char *first_hostkey, *first_sig;
	size_t first_hostkey_len, first_sig_len;
	uint64_t kex_time;	/* when the last exchange completed */
	char *peer_sig_algs;	/* from the server's ext-info */
	int peer_hostbound;	/* server's ext-info: publickey-hostbound 0 */
	int peer_ping;		/* server's ext-info: ping@openssh.com 0 */
	char *peer_hostkey_algs;	/* the peer's first KEXINIT's list */

	/* Random padding, drawn from libcrypto a pool at a time. */
	unsigned char padpool[512];
	size_t padpos;			/* next unused byte of padpool */

	uint64_t last_input;
	int no_quickack;	/* fd_in refused TCP_QUICKACK */
	int lowat;		/* SO_RCVLOWAT raised for bulk input */
	uint64_t lowat_read_ms;	/* last read while raised */
	int no_lowat;		/* fd_in refused SO_RCVLOWAT */
	int closed;		/* DISCONNECT sent or received */
	uint64_t deadline_ms;	/* tr_set_deadline(), monotonic; 0: none */
	int peer_eof;		/* end of file read from fd_in */
	int peer_disconnected;	/* the peer sent DISCONNECT */
	int io_errno;		/* errno of the last failed read or write */
	int io_errno_read;	/* ... and whether it was a read */
};

/* packet.c */
/* Scratch room a framed payload needs before and after it. */
#define PKT_HEADROOM	5	/* uint32 packet_length, byte padding_length */
#define PKT_TAILROOM	256	/* padding (up to 255 bytes) */
int pkt_send(struct transport *t, const unsigned char *payload, size_t len);
int pkt_send_sbuf(struct transport *t, struct sbuf *b);
/* 0: t->msg holds a message; ERR_AGAIN: need more input. */
int pkt_read(struct transport *t);
int pkt_set_keys(struct tr_dir *d, struct tr_newkeys *nk, int encrypt);
void pkt_dir_clear(struct tr_dir *d);
/*
 * Compression of a direction that has just taken new keys with method
 * comp (d->comp): a fresh stream now, or once USERAUTH_SUCCESS goes by.
 */
int pkt_comp_start(struct transport *t, struct tr_dir *d,
    const struct comp_alg *comp);

/* OpenSSH's pseudo-algorithms in the KEX list of the first KEXINIT. */
#define EXT_INFO_C	"ext-info-c"
#define EXT_INFO_S	"ext-info-s"
#define STRICT_C	"kex-strict-c-v00@openssh.com"
#define STRICT_S	"kex-strict-s-v00@openssh.com"

/* The ten name-lists of a KEXINIT, in order. */
enum { NEG_KEX, NEG_HOSTKEY, NEG_CIPHER_C2S, NEG_CIPHER_S2C, NEG_MAC_C2S,
	NEG_MAC_S2C, NEG_COMP_C2S, NEG_COMP_S2C, NEG_LANG_C2S, NEG_LANG_S2C,
	NEG_MAX };

/* kex_negotiate.c */
/* Choose every slot from t->my_kexinit and t->peer_kexinit. */
int kex_negotiate(struct transport *t);
/* Index of our host key for alg (certificate algorithms too); -1: none. */
int kex_hostkey_index(const struct transport *t, const char *alg);
/* cfg.hostkey_algs restricted to the keys we have (caller frees). */
char *kex_hostkey_list(const struct transport *t);

/* kex.c */
int kex_send_kexinit(struct transport *t);
/* A KEX-range message (20..49) arrived in t->msg. */
int kex_dispatch(struct transport *t, uint8_t type);
/* A server's answer to SSH2_MSG_PING (in t->body), after authentication. */
int kex_answer_ping(struct transport *t);
int kex_need_rekey(struct transport *t);
void kex_clear(struct transport *t);

/* firstkex.c */
/* The first exchange's hash H becomes the session ID; later ones do not. */
void firstkex_session_id(struct transport *t, const unsigned char *H,
    size_t hlen);
/* Client: K_S and the signature of the first exchange, kept once. */
void firstkex_keep(struct transport *t, const unsigned char *kblob,
    size_t kbloblen, const unsigned char *sig, size_t siglen);
/* SSH_MSG_EXT_INFO in t->body (after its type byte). */
int firstkex_ext_info(struct transport *t);
/* Frees and wipes what it kept (from tr_free()). */
void firstkex_clear(struct transport *t);

/* transport.c */
/* A transport with empty buffers and no keys, that has sent nothing. */
struct transport *tr_alloc(int fd_in, int fd_out, const struct tr_config *cfg);
int tr_send_raw(struct transport *t, uint8_t type, const struct sbuf *body);
int tr_protocol_error(struct transport *t, uint32_t reason,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint64_t tr_now(void);

#endif
