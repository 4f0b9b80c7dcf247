/*
 * compress.h: the transport's compression methods (RFC 4253 section
 * 6.2 and OpenSSH's PROTOCOL 1.2), as a table like the ciphers' and
 * MACs', and the deflate/inflate streams behind them.
 *
 *   none               no compression
 *   zlib               deflate from the first NEWKEYS on
 *   zlib@openssh.com   the same, but only once user authentication has
 *                      succeeded: after the server sends and the client
 *                      receives USERAUTH_SUCCESS
 *
 * One stream per direction. Each packet's payload is compressed with a
 * partial flush, so the peer can inflate it whole on its own; the
 * streams go on from packet to packet and start afresh when the
 * direction takes new keys (RFC 4253: "initialized after each key
 * exchange"; OpenSSH does the same).
 *
 * Inflating is bounded: a payload that would inflate past the caller's
 * maximum is refused before more than that is held.
 */
#ifndef MOAT_COMPRESS_H
#define MOAT_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

struct comp_alg {
	const char *name;
	int zlib;		/* 0: none */
	int delayed;		/* starts after user authentication */
};

/*
 * What the programs offer, as OpenSSH 10.5 does: ssh with Compression
 * yes (-C) and no; sshd with Compression yes or delayed (the same to
 * it) and no. Neither offers plain zlib any more than OpenSSH (since
 * 7.4 for sshd, 8.x for ssh): in sshd it would run before
 * authentication, in the sandboxed child, and its stream could not be
 * handed on to the user's process. The transport still speaks it for a
 * tr_config that lists it.
 */
#define COMP_CLIENT_YES	"zlib@openssh.com,none"
#define COMP_CLIENT_NO	"none,zlib@openssh.com"
#define COMP_SERVER_YES	"none,zlib@openssh.com"
#define COMP_SERVER_NO	"none"

/* The row for name, or NULL when it is not one we know. */
const struct comp_alg *comp_by_name(const char *name);
/* The methods the programs offer, comma-separated (ssh -Q compression). */
const char *comp_all_names(void);

/* One deflate (compressing) or inflate (decompressing) stream. */
struct comp_ctx;

/* A fresh stream; ERR_ALLOC or ERR_INTERNAL if zlib refused. */
int comp_new(struct comp_ctx **cp, int deflate);
void comp_free(struct comp_ctx *c);
/* Whether any byte has gone through the stream since it began. */
int comp_used(const struct comp_ctx *c);

/*
 * Compress len bytes as one packet's payload (ending in a partial
 * flush). *outp points into the stream's own scratch buffer (valid until
 * the next call), at head bytes of room followed by the *outlenp bytes
 * of compressed data and then tail more bytes of room.
 */
int comp_deflate(struct comp_ctx *c, const unsigned char *in, size_t len,
    size_t head, size_t tail, unsigned char **outp, size_t *outlenp);
/*
 * Inflate one packet's compressed payload into the stream's scratch
 * buffer: *outp, *outlenp (valid until the next call). More than max
 * bytes: ERR_PACKET_TOO_LARGE, without holding more than max. Bytes that
 * are not a valid continuation of the stream: ERR_INVALID_FORMAT.
 */
int comp_inflate(struct comp_ctx *c, const unsigned char *in, size_t len,
    size_t max, const unsigned char **outp, size_t *outlenp);

#endif
