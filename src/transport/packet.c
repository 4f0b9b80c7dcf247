/*
 * packet.c: the binary packet protocol (RFC 4253 section 6) with
 * OpenSSH's encrypt-then-MAC and AEAD forms.
 *
 *   uint32 packet_length | byte padding_length | payload | padding | mac
 *
 * With an AEAD cipher or an EtM MAC the length field is sent outside the
 * padded block (it is AAD, or MACed as ciphertext) and only the rest is
 * padded to the block size; otherwise the whole packet is. Incoming
 * packets are decrypted out of place, from the input buffer straight into
 * the message buffer: for EtM and AEAD the MAC or tag is checked before
 * anything is decrypted; for the classic order the first block is
 * decrypted (in place) to learn the length, the rest when the whole packet
 * has arrived, and the MAC is checked over the plaintext.
 * Nothing here allocates per packet once buffers reach working size.
 */
#include <string.h>

#include <openssl/rand.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "transport_int.h"

static unsigned int
dir_block_size(const struct tr_dir *d)
{
	if (d->cipher == NULL || d->cipher->block_size < 8)
		return 8;
	return d->cipher->block_size;
}

static int
dir_aad(const struct tr_dir *d)
{
	return (d->cipher != NULL && (d->cipher->flags & CIPHER_AEAD)) ||
	    (d->mac != NULL && d->mac->etm);
}

static unsigned int
dir_taglen(const struct tr_dir *d)
{
	if (d->cipher != NULL && (d->cipher->flags & CIPHER_AEAD))
		return d->cipher->auth_len;
	return d->mac != NULL ? d->mac->mac_len : 0;
}

static uint32_t
get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/*
 * Random padding: one RAND_bytes call fills a pool for many packets
 * (padding is at most 255 bytes, usually 4 to 19).
 */
static int
pad_bytes(struct transport *t, unsigned char *dst, unsigned int n)
{
	if (t->padpos == 0 || t->padpos + n > sizeof(t->padpool)) {
		if (RAND_bytes(t->padpool, (int)sizeof(t->padpool)) != 1)
			return ERR_LIBCRYPTO;
		t->padpos = 0;
	}
	memcpy(dst, t->padpool + t->padpos, n);
	x_wipe(t->padpool + t->padpos, n);
	t->padpos += n;
	return 0;
}

/*
 * Proxy mode (tr_new_plain): "uint32 length, byte 0, payload", no
 * padding, cipher or MAC. buf is as pkt_send_frame() has it.
 */
static int
plain_send_frame(struct transport *t, unsigned char *buf, size_t len)
{
	sbuf_store_u32(buf, (uint32_t)(1 + len));
	buf[4] = 0;
	t->send.seqnr++;
	return sbuf_put(t->out, buf, PKT_HEADROOM + len);
}

/*
 * Frame, pad, encrypt and MAC one packet into t->out. The payload is at
 * buf + PKT_HEADROOM; buf has room for the header before it and for
 * the padding after it, and is used as scratch space. The cipher
 * writes the packet straight into t->out, so the payload is not copied
 * first.
 */
static int
pkt_send_frame(struct transport *t, unsigned char *buf, size_t len)
{
	struct tr_dir *d = &t->send;
	unsigned int bs = dir_block_size(d), aad = dir_aad(d) ? 4 : 0;
	unsigned int taglen = dir_taglen(d), pad;
	int aead = d->cipher != NULL && (d->cipher->flags & CIPHER_AEAD);
	int etm = d->mac != NULL && d->mac->etm;
	uint32_t plen;
	unsigned char *p;
	size_t base;
	int r;

	if (len == 0 || len > TR_MAX_PACKET - 64)
		return ERR_PACKET_TOO_LARGE;
	if (d->cipher == NULL && t->plain)
		return plain_send_frame(t, buf, len);
	/* Bytes that must come to a multiple of the block size. */
	base = 1 + len + (aad ? 0 : 4);
	pad = bs - (unsigned int)(base % bs);
	if (pad < 4)
		pad += bs;
	plen = (uint32_t)(1 + len + pad);
	sbuf_store_u32(buf, plen);
	buf[4] = (unsigned char)pad;
	if ((r = pad_bytes(t, buf + 5 + len, pad)) != 0)
		return r;
	if ((r = sbuf_make_room(t->out, 4 + plen + taglen)) != 0 ||
	    (r = sbuf_reserve(t->out, 4 + plen + taglen, &p)) != 0)
		return r;
	if (d->mac != NULL && !etm &&
	    (r = mac_compute(d->mctx, d->seqnr, buf, 4 + plen,
	    p + 4 + plen)) != 0)
		return r;
	if (d->cipher != NULL) {
		if ((r = cipher_crypt(d->cctx, d->seqnr, p, buf, plen + 4 - aad,
		    aad, aead ? taglen : 0)) != 0)
			return r;
	} else
		memcpy(p, buf, 4 + plen);
	if (etm &&
	    (r = mac_compute(d->mctx, d->seqnr, p, 4 + plen, p + 4 + plen)) != 0)
		return r;
	d->seqnr++;
	d->blocks += (4 + plen) / bs;
	return 0;
}

static int
pkt_send_copy(struct transport *t, const unsigned char *payload, size_t len)
{
	unsigned char stackbuf[PKT_HEADROOM + 1024 + PKT_TAILROOM], *buf;
	size_t n = PKT_HEADROOM + len + PKT_TAILROOM;
	int r;

	if (len == 0 || len > TR_MAX_PACKET - 64)
		return ERR_PACKET_TOO_LARGE;
	buf = n <= sizeof(stackbuf) ? stackbuf : x_malloc(n);
	memcpy(buf + PKT_HEADROOM, payload, len);
	r = pkt_send_frame(t, buf, len);
	if (buf != stackbuf)
		x_freezero(buf, n);
	else
		x_wipe(buf, n);
	return r;
}

/* Start d's stream: its method is in use and may run now. */
static int
comp_begin(struct tr_dir *d, int deflate)
{
	int r;

	if ((r = comp_new(&d->zctx, deflate)) != 0)
		return r;
	d->zmode = 1;
	if (deflate)
		log_debug("Enabling compression at level 6.");
	return 0;
}

int
pkt_comp_start(struct transport *t, struct tr_dir *d,
    const struct comp_alg *comp)
{
	int r = 0;

	comp_free(d->zctx);
	d->zctx = NULL;
	d->zmode = 0;
	d->comp = comp != NULL && comp->zlib ? comp : NULL;
	if (d->comp != NULL && d->comp->delayed && !t->zauth)
		d->zmode = 2;
	else if (d->comp != NULL)
		r = comp_begin(d, d == &t->send);
	t->zany = t->send.zmode != 0 || t->recv.zmode != 0;
	return r;
}

/*
 * USERAUTH_SUCCESS went by (sent by the server, received by the
 * client): delayed compression starts with the next packet each way.
 */
static int
comp_auth_done(struct transport *t)
{
	int r;

	t->zauth = 1;
	if (t->send.zmode == 2 && (r = comp_begin(&t->send, 1)) != 0)
		return r;
	if (t->recv.zmode == 2 && (r = comp_begin(&t->recv, 0)) != 0)
		return r;
	return 0;
}

/* With compression on or pending: deflate, frame, watch for SUCCESS. */
static int
pkt_send_comp(struct transport *t, const unsigned char *payload, size_t len)
{
	unsigned char *buf;
	size_t clen;
	int r;

	if (len == 0 || len > TR_MAX_PACKET - 64)
		return ERR_PACKET_TOO_LARGE;
	if (t->send.zmode == 1) {
		if ((r = comp_deflate(t->send.zctx, payload, len,
		    PKT_HEADROOM, PKT_TAILROOM, &buf, &clen)) != 0 ||
		    (r = pkt_send_frame(t, buf, clen)) != 0)
			return r;
	} else if ((r = pkt_send_copy(t, payload, len)) != 0)
		return r;
	if (t->server && !t->zauth &&
	    payload[0] == SSH2_MSG_USERAUTH_SUCCESS)
		return comp_auth_done(t);
	return 0;
}

int
pkt_send(struct transport *t, const unsigned char *payload, size_t len)
{
	if (t->zany)
		return pkt_send_comp(t, payload, len);
	return pkt_send_copy(t, payload, len);
}

/*
 * Send the unread bytes of b as one packet without copying them: when b
 * has PKT_HEADROOM bytes before them and PKT_TAILROOM after (see
 * tr_msg_start), they are framed in place; otherwise through pkt_send.
 * b's contents are left as they were, plus scratch bytes around them.
 */
int
pkt_send_sbuf(struct transport *t, struct sbuf *b)
{
	unsigned char *frame = t->zany ? NULL :
	    sbuf_frame(b, PKT_HEADROOM, PKT_TAILROOM);

	if (frame == NULL)
		return pkt_send(t, sbuf_ptr(b), sbuf_len(b));
	return pkt_send_frame(t, frame, sbuf_len(b));
}

/*
 * With compression on or pending, for the payload just read into
 * t->msg: inflate it (bounded, so a small packet cannot grow without
 * limit), and watch for USERAUTH_SUCCESS.
 */
static int
pkt_read_comp(struct transport *t)
{
	const unsigned char *z;
	size_t zlen;
	int r;

	if (t->recv.zmode == 1) {
		r = comp_inflate(t->recv.zctx, sbuf_ptr(t->msg),
		    sbuf_len(t->msg), TR_MAX_PACKET, &z, &zlen);
		sbuf_reset(t->msg);
		if (r == 0 && zlen == 0)
			r = ERR_INVALID_FORMAT;
		if (r == ERR_PACKET_TOO_LARGE)
			log_error("Compressed packet from %s inflates past "
			    "%u bytes", t->cfg.peer_desc ? t->cfg.peer_desc :
			    "peer", (unsigned int)TR_MAX_PACKET);
		else if (r != 0)
			log_error("Bad compressed packet from %s",
			    t->cfg.peer_desc ? t->cfg.peer_desc : "peer");
		if (r != 0 || (r = sbuf_put(t->msg, z, zlen)) != 0)
			return r;
		t->msg_keep = z[0] == SSH2_MSG_CHANNEL_DATA ||
		    z[0] == SSH2_MSG_CHANNEL_EXTENDED_DATA;
	}
	if (!t->server && !t->zauth &&
	    sbuf_ptr(t->msg)[0] == SSH2_MSG_USERAUTH_SUCCESS)
		return comp_auth_done(t);
	return 0;
}

/*
 * Empty t->msg for the next packet. The plaintext of a message is wiped
 * once it has been handled, except channel data: that is the user's
 * stream, which is copied on to a pipe or socket anyway, and wiping it
 * would cost as much as decrypting it.
 */
static void
msg_release(struct transport *t)
{
	if (t->msg_keep)
		(void)sbuf_consume(t->msg, sbuf_len(t->msg));
	else
		sbuf_reset(t->msg);
	t->msg_keep = 0;
}

/*
 * Proxy mode: one packet of the plain framing from t->in into t->msg.
 * The master's bytes are checked as any peer's: the length within
 * bounds and covering the padding byte and a message type; a padding
 * length other than 0 (which the framing never has) is refused rather
 * than guessed at.
 */
static int
plain_read(struct transport *t)
{
	const unsigned char *p = sbuf_ptr(t->in);
	uint32_t plen;
	int r;

	if (sbuf_len(t->in) < 4)
		return ERR_AGAIN;
	plen = get32(p);
	if (plen < 2 || plen > TR_MAX_PACKET) {
		log_error("Bad packet length %u.", plen);
		return ERR_PACKET_TOO_LARGE;
	}
	if (sbuf_len(t->in) < 4 + (size_t)plen)
		return ERR_AGAIN;
	if (p[4] != 0) {
		log_error("Bad padding length %u in packet of %u", p[4], plen);
		return ERR_INVALID_FORMAT;
	}
	t->msg_keep = p[5] == SSH2_MSG_CHANNEL_DATA ||
	    p[5] == SSH2_MSG_CHANNEL_EXTENDED_DATA;
	if ((r = sbuf_put(t->msg, p + 5, plen - 1)) != 0 ||
	    (r = sbuf_consume(t->in, 4 + (size_t)plen)) != 0)
		return r;
	t->last_seqnr = t->recv.seqnr++;
	return 0;
}

int
pkt_read(struct transport *t)
{
	struct tr_dir *d = &t->recv;
	unsigned int bs = dir_block_size(d), aad = dir_aad(d) ? 4 : 0;
	unsigned int taglen = dir_taglen(d), padlen;
	int aead = d->cipher != NULL && (d->cipher->flags & CIPHER_AEAD);
	int etm = d->mac != NULL && d->mac->etm;
	int classic_cipher = d->cipher != NULL && !aad;
	unsigned char *p, *m;
	uint32_t plen;
	size_t need;
	int r;

	msg_release(t);
	if (d->cipher == NULL && t->plain)
		return plain_read(t);
	if ((p = sbuf_mutable_ptr(t->in)) == NULL)
		return ERR_INTERNAL;
	if (t->pending_len == 0) {
		if (d->cipher != NULL &&
		    (d->cipher->flags & CIPHER_LENGTH_ENCRYPTED)) {
			if (sbuf_len(t->in) < 4)
				return ERR_AGAIN;
			if ((r = cipher_get_length(d->cctx, &plen, d->seqnr, p,
			    (unsigned int)sbuf_len(t->in))) != 0)
				return r;
		} else if (classic_cipher) {
			if (sbuf_len(t->in) < bs)
				return ERR_AGAIN;
			/* Decrypt the first block in place to read the length. */
			if ((r = cipher_crypt(d->cctx, d->seqnr, p, p, bs, 0,
			    0)) != 0)
				return r;
			plen = get32(p);
		} else {
			if (sbuf_len(t->in) < 4)
				return ERR_AGAIN;
			plen = get32(p);
		}
		if (plen < 5 || plen > TR_MAX_PACKET) {
			log_error("Bad packet length %u.", plen);
			return ERR_PACKET_TOO_LARGE;
		}
		if ((aad ? plen : plen + 4) % bs != 0) {
			log_error("padding error: need %u block %u mod %u",
			    plen + 4, bs, (aad ? plen : plen + 4) % bs);
			return ERR_INVALID_FORMAT;
		}
		t->pending_len = plen;
	}
	plen = t->pending_len;
	need = 4 + (size_t)plen + taglen;
	if (sbuf_len(t->in) < need)
		return ERR_AGAIN;
	if (etm && (r = mac_check(d->mctx, d->seqnr, p, 4 + plen,
	    p + 4 + plen)) != 0)
		return r;
	/*
	 * Decrypt out of place into t->msg, so the plaintext is written
	 * once and the input buffer only ever holds ciphertext (apart from
	 * the first block of the classic order, wiped below).
	 */
	if ((r = sbuf_reserve(t->msg, 4 + plen, &m)) != 0)
		return r;
	r = 0;
	if (aead) {
		r = cipher_crypt(d->cctx, d->seqnr, m, p, plen, 4, taglen);
	} else if (classic_cipher) {
		memcpy(m, p, bs);
		if (4 + plen > bs)
			r = cipher_crypt(d->cctx, d->seqnr, m + bs, p + bs,
			    4 + plen - bs, 0, 0);
		x_wipe(p, bs);
	} else if (d->cipher != NULL) {
		memcpy(m, p, 4);
		r = cipher_crypt(d->cctx, d->seqnr, m + 4, p + 4, plen, 0, 0);
	} else
		memcpy(m, p, 4 + plen);
	if (r == 0 && d->mac != NULL && !etm)
		r = mac_check(d->mctx, d->seqnr, m, 4 + plen, p + 4 + plen);
	if (r != 0) {
		sbuf_reset(t->msg);
		return r;
	}
	padlen = m[4];
	if (padlen < 4 || padlen >= plen - 1) {
		log_error("Bad padding length %u in packet of %u", padlen,
		    plen);
		sbuf_reset(t->msg);
		return ERR_INVALID_FORMAT;
	}
	if ((r = sbuf_consume(t->msg, 5)) != 0 ||
	    (r = sbuf_consume_end(t->msg, padlen)) != 0 ||
	    (r = sbuf_consume(t->in, need)) != 0)
		return r;
	t->msg_keep = m[5] == SSH2_MSG_CHANNEL_DATA ||
	    m[5] == SSH2_MSG_CHANNEL_EXTENDED_DATA;
	t->pending_len = 0;
	t->last_seqnr = d->seqnr;
	d->seqnr++;
	d->blocks += (4 + plen) / bs;
	if (t->zany)
		return pkt_read_comp(t);
	return 0;
}

void
pkt_dir_clear(struct tr_dir *d)
{
	cipher_free(d->cctx);
	mac_free(d->mctx);
	comp_free(d->zctx);
	d->cctx = NULL;
	d->mctx = NULL;
	d->zctx = NULL;
	d->zmode = 0;
	d->comp = NULL;
	d->cipher = NULL;
	d->mac = NULL;
}

int
pkt_set_keys(struct tr_dir *d, struct tr_newkeys *nk, int encrypt)
{
	const struct cipher_alg *c = nk->cipher;
	int r;

	pkt_dir_clear(d);
	if ((r = cipher_init(&d->cctx, c, nk->key, c->key_len, nk->iv,
	    c->iv_len, encrypt)) != 0)
		return r;
	d->cipher = c;
	if (nk->mac != NULL) {
		if ((r = mac_init(&d->mctx, nk->mac, nk->mackey,
		    nk->mac->key_len)) != 0)
			return r;
		d->mac = nk->mac;
	}
	d->blocks = 0;
	/* As OpenSSH: 2^(2*bs) blocks for 128-bit ciphers, else 1 GiB. */
	if (c->block_size >= 16)
		d->max_blocks = (uint64_t)1 << (c->block_size * 2);
	else
		d->max_blocks = ((uint64_t)1 << 30) / 8;
	return 0;
}
