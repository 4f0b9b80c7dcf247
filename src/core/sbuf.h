/*
 * sbuf.h: the bounds-checked wire buffer.
 *
 * All untrusted bytes are read through these functions. A buffer holds the
 * bytes [off, size) of its storage; getters consume from the front, putters
 * append at the end. Every getter checks the length it is about to read and
 * returns ERR_MESSAGE_INCOMPLETE rather than read past the end; nothing is
 * consumed when a getter fails. Strings from the peer are capped at
 * SBUF_MAX_STRING before anything is allocated for them.
 *
 * Ownership: sbuf_new() and sbuf_from() return a buffer the caller frees
 * with sbuf_free(), which wipes the storage (buffers often hold secrets).
 * A buffer made by sbuf_from() is a read-only view over memory it does not
 * own; that memory must outlive the view.
 */
#ifndef MOAT_SBUF_H
#define MOAT_SBUF_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>

#define SBUF_MAX_SIZE	(128u * 1024 * 1024)	/* default cap on a buffer */
#define SBUF_MAX_STRING	(16u * 1024 * 1024)	/* cap on a string read */
#define SBUF_MAX_BIGNUM	(16384 / 8)		/* 16384 bits */

/* Opaque: its fields are sbuf.c's alone (sbuf_int.h for its tests). */
struct sbuf;

struct sbuf *sbuf_new(void);
/* Read-only view of [p, p+len); the memory is not copied. */
struct sbuf *sbuf_from(const void *p, size_t len);
/* New buffer holding a copy of the unread bytes of b. */
struct sbuf *sbuf_dup(const struct sbuf *b);
void sbuf_free(struct sbuf *b);
/*
 * Empty the buffer but keep its storage, wiping the bytes it held. A
 * buffer read to its end was emptied then, without a wipe (a packet's
 * worth per read would cost the bulk path): what it held is still in
 * the storage, beyond sbuf_reset()'s reach.
 */
void sbuf_reset(struct sbuf *b);
/* Empty the buffer and wipe all of its storage: for one that held a
 * password or keys, whatever was read from it since. */
void sbuf_wipe(struct sbuf *b);
int sbuf_set_max_size(struct sbuf *b, size_t max);

/* Number of unread bytes, and a pointer to the first of them. */
size_t sbuf_len(const struct sbuf *b);
const unsigned char *sbuf_ptr(const struct sbuf *b);
/* Writable pointer to the unread bytes; NULL for a read-only view. */
unsigned char *sbuf_mutable_ptr(struct sbuf *b);

/* Make room for len more bytes without appending them. */
int sbuf_allocate(struct sbuf *b, size_t len);
/* Append len uninitialised bytes; *dpp points at them (may be NULL). */
int sbuf_reserve(struct sbuf *b, size_t len, unsigned char **dpp);
/*
 * The bulk paths' three operations (transport input, packet output,
 * channel queues), for which a copy or a wipe per pass would cost about
 * as much as the encryption:
 *
 * sbuf_make_room: room for len more bytes at the end, sliding the unread
 * bytes to the front without wiping the consumed ones when that is
 * enough, else growing as sbuf_allocate() does. For streams that hold
 * no secret of ours.
 */
int sbuf_make_room(struct sbuf *b, size_t len);
/* Bytes that can be appended with neither a slide nor a growth. */
size_t sbuf_tailroom(const struct sbuf *b);
/*
 * sbuf_set_headroom: an empty buffer starts head bytes into its storage,
 * with room for len bytes after, so a header can later be written in
 * front of what is appended. Nothing changes when it fails.
 * sbuf_frame: a writable pointer head bytes before the unread bytes when
 * there are head bytes before them and tail bytes of room after them;
 * NULL otherwise, and always for a read-only view.
 */
int sbuf_set_headroom(struct sbuf *b, size_t head, size_t len);
unsigned char *sbuf_frame(struct sbuf *b, size_t head, size_t tail);
/* Re-point a read-only view at [p, p+len); nothing is allocated. */
int sbuf_view_reset(struct sbuf *b, const void *p, size_t len);

/* Drop len bytes from the front / the end. */
int sbuf_consume(struct sbuf *b, size_t len);
int sbuf_consume_end(struct sbuf *b, size_t len);

int sbuf_put(struct sbuf *b, const void *v, size_t len);
int sbuf_putb(struct sbuf *b, const struct sbuf *v);
int sbuf_putf(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int sbuf_put_u8(struct sbuf *b, uint8_t v);
int sbuf_put_u32(struct sbuf *b, uint32_t v);
/* v as the wire's uint32 (big-endian) at p[0..3], for lengths filled in
   after the fact. */
static inline void
sbuf_store_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}
int sbuf_put_u64(struct sbuf *b, uint64_t v);
/* SSH "string": uint32 length then bytes. */
int sbuf_put_string(struct sbuf *b, const void *v, size_t len);
int sbuf_put_cstring(struct sbuf *b, const char *s);
int sbuf_put_stringb(struct sbuf *b, const struct sbuf *v);
/* SSH "mpint" from an unsigned big-endian magnitude. */
int sbuf_put_mpint_bytes(struct sbuf *b, const void *v, size_t len);
int sbuf_put_bignum(struct sbuf *b, const BIGNUM *bn);

int sbuf_get(struct sbuf *b, void *v, size_t len);
int sbuf_get_u8(struct sbuf *b, uint8_t *v);
int sbuf_get_u32(struct sbuf *b, uint32_t *v);
int sbuf_get_u64(struct sbuf *b, uint64_t *v);
/* SSH boolean: any non-zero byte is true. */
int sbuf_get_bool(struct sbuf *b, int *v);
/*
 * String as a fresh allocation with a NUL appended (caller frees);
 * valp and lenp may be NULL to skip the string.
 */
int sbuf_get_string(struct sbuf *b, unsigned char **valp, size_t *lenp);
/* As sbuf_get_string but refuses strings with an embedded NUL. */
int sbuf_get_cstring(struct sbuf *b, char **valp, size_t *lenp);
/* Pointer into the buffer (no copy); valid until b changes. */
int sbuf_get_string_direct(struct sbuf *b, const unsigned char **valp,
    size_t *lenp);
int sbuf_peek_string_direct(const struct sbuf *b, const unsigned char **valp,
    size_t *lenp);
/* Append the string's contents to v. */
int sbuf_get_stringb(struct sbuf *b, struct sbuf *v);
/* mpint: magnitude without leading zeros; refuses negative numbers. */
int sbuf_get_mpint_direct(struct sbuf *b, const unsigned char **valp,
    size_t *lenp);
int sbuf_get_bignum(struct sbuf *b, BIGNUM **bnp);

/* Base64 of the unread bytes (caller frees); wrap at 70 columns if asked. */
char *sbuf_to_b64(const struct sbuf *b, int wrap);
/* Decode base64 text (whitespace allowed) and append the bytes. */
int sbuf_b64_decode(struct sbuf *b, const char *text);
/* Lower-case hex of the unread bytes (caller frees). */
char *sbuf_to_hex(const struct sbuf *b);
/* 1 when the unread bytes of a and b are equal. */
int sbuf_equal(const struct sbuf *a, const struct sbuf *b);

#endif
