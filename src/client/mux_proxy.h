/*
 * mux_proxy.h: the master's side of proxy mode (PROTOCOL.mux section 9,
 * ssh -O proxy). Once a client asked MUX_C_PROXY and was answered
 * MUX_S_PROXY, its control connection carries connection-protocol
 * messages (RFC 4254) both ways, in a plain framing with no keys, MAC
 * or padding:
 *
 *	uint32	length of what follows
 *	byte	padding length (0; not looked at)
 *	byte	message type
 *	byte[]	the message's fields
 *
 * The client (the "downstream") speaks as if it were alone on the
 * connection; the master relays its channels to the server with ids of
 * its own and back (mux_proxy.c), so clients never collide.
 *
 *   mux_proxy_wire.c  the framing, and the parser and re-encoder of one
 *                     message: hostile bytes from whoever reaches the
 *                     socket, read only here
 *   mux_proxy.c       the downstreams and their channels
 */
#ifndef MOAT_MUX_PROXY_H
#define MOAT_MUX_PROXY_H

#include <stddef.h>
#include <stdint.h>

struct sbuf;

/* Largest length field either way (a transport packet's limit). */
#define MUXP_MAX_PACKET		(256u * 1024)

/* What a message from a downstream is, for the relay. */
enum muxp_kind {
	MUXP_IGNORE = 1,	/* IGNORE, DEBUG, UNIMPLEMENTED, replies */
	MUXP_DISCONNECT,	/* the client is leaving */
	MUXP_GLOBAL,		/* GLOBAL_REQUEST: name, want_reply */
	MUXP_OPEN,		/* CHANNEL_OPEN: name, id (sender) */
	MUXP_OPEN_REPLY,	/* OPEN_CONFIRMATION (id, sender) or _FAILURE */
	MUXP_CHAN,		/* the other channel messages: id */
};

/*
 * One message, parsed: views into the bytes given to muxp_parse(),
 * valid as long as they are. rest is what follows the fields the relay
 * rewrites (for an open: from the window on; for a confirmation: from
 * the window on; for the other channel messages: after the recipient;
 * for the rest: everything after the type). Every message's fields
 * were checked to be whole and to end where the message ends.
 */
struct muxp_msg {
	uint8_t type;
	enum muxp_kind kind;
	uint32_t id;			/* recipient; for an open, sender */
	uint32_t sender;		/* OPEN_CONFIRMATION */
	const unsigned char *name;	/* channel type or request name */
	size_t namelen;
	int want_reply;			/* GLOBAL_ or CHANNEL_REQUEST */
	const unsigned char *rest;
	size_t restlen;
};

/*
 * Cut one packet from the front of p[0..have): 0 with its payload (the
 * type first) in *payp and *lenp, and the bytes it took in *usedp;
 * ERR_AGAIN when it is not whole yet; ERR_PACKET_TOO_LARGE or
 * ERR_INVALID_FORMAT (no room for the padding byte and a type) for a
 * length to refuse.
 */
int muxp_frame(const unsigned char *p, size_t have,
    const unsigned char **payp, size_t *lenp, size_t *usedp);
/*
 * Parse one payload (type first). ERR_INVALID_FORMAT (or a getter's
 * error) for a malformed message, ERR_PROTOCOL for a type a downstream
 * has no business sending (key exchange, authentication, unknown).
 */
int muxp_parse(const unsigned char *p, size_t len, struct muxp_msg *m);
/*
 * Append m's fields after the type to b, with the recipient (or an
 * open's sender) id and a confirmation's sender replaced by id and
 * sender (sender ignored for the other kinds).
 */
int muxp_put_fields(struct sbuf *b, const struct muxp_msg *m, uint32_t id,
    uint32_t sender);
/*
 * Framing for the downstream: muxp_start() appends the length (filled
 * in later), the padding byte and the type to out, *startp remembering
 * where; append the fields, then muxp_end() fills the length in.
 */
int muxp_start(struct sbuf *out, uint8_t type, size_t *startp);
int muxp_end(struct sbuf *out, size_t start);

#endif
