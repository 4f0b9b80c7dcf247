/*
 * transport_state.c: a transport's state as bytes, for another process
 * to carry on the same connection (tr_export(), tr_import()).
 *
 * The blob, in SSH wire encoding (RFC 4251 section 5):
 *
 *   string   "moat-transport-state-v1"
 *   boolean  server role
 *   string   session id
 *   string   peer's version line
 *   uint32   exchanges completed (at least 1)
 *   uint64   when the last one completed (tr_now(): monotonic, so the
 *            same clock in every process of the machine)
 *   boolean  strict KEX;  boolean peer wants ext-info;
 *   boolean  ext-info sent;  boolean authenticated
 *   boolean  USERAUTH_SUCCESS has gone by (delayed compression runs)
 *   string   x 8   negotiated names (kex, host key, ciphers, MACs,
 *            compression methods)
 *   string   peer's server-sig-algs ("" when none)
 *   string   peer's first host key algorithm list ("" when none)
 *   uint32   index of the host key in use (server; 0xffffffff: none)
 *   uint32   sequence number of the message last handed up
 *   uint32   packet length of an incoming packet whose first block is
 *            already decrypted in the input (classic order: cipher,
 *            then a MAC over the plaintext), or 0
 *   2 x      direction (send, then receive):
 *     string cipher name;  string key;  string IV
 *     string MAC name ("" for AEAD ciphers);  string MAC key
 *     uint32 sequence number;  uint64 cipher blocks since the keys
 *   string   raw input not yet handled
 *   string   raw output not yet written
 *
 * A compression stream's state cannot be carried: the receiving side
 * starts afresh where the method runs, so tr_export() refuses a stream
 * that has already compressed or inflated a byte. (sshd hands over
 * right after USERAUTH_SUCCESS, before zlib@openssh.com has begun.)
 *
 * It holds every secret of the connection: it travels only over the
 * socketpair between the two halves of one connection, and both sides
 * wipe their copies.
 */
#include <string.h>

#include "cipher.h"
#include "err.h"
#include "kexalg.h"
#include "log.h"
#include "mac.h"
#include "mem.h"
#include "transport_int.h"

#define STATE_MAGIC	"moat-transport-state-v1"
#define NO_HOSTKEY	0xffffffffU
#define NNEGOTIATED	8
#define MAX_NAME	256	/* one algorithm name or name-list entry */
#define MAX_NAMELIST	8192	/* a name-list */

static int
put_dir(struct sbuf *b, const struct tr_dir *d)
{
	unsigned char key[64], iv[16], mkey[64];
	int r;

	if ((r = cipher_export(d->cctx, key, iv)) != 0)
		return r;
	if (d->mac != NULL && (r = mac_export(d->mctx, mkey)) != 0)
		goto out;
	if ((r = sbuf_put_cstring(b, d->cipher->name)) != 0 ||
	    (r = sbuf_put_string(b, key, d->cipher->key_len)) != 0 ||
	    (r = sbuf_put_string(b, iv, d->cipher->iv_len)) != 0 ||
	    (r = sbuf_put_cstring(b, d->mac ? d->mac->name : "")) != 0 ||
	    (r = sbuf_put_string(b, mkey, d->mac ? d->mac->key_len : 0)) != 0 ||
	    (r = sbuf_put_u32(b, d->seqnr)) != 0 ||
	    (r = sbuf_put_u64(b, d->blocks)) != 0)
		goto out;
 out:
	x_wipe(key, sizeof(key));
	x_wipe(iv, sizeof(iv));
	x_wipe(mkey, sizeof(mkey));
	return r;
}

int
tr_export(struct transport *t, struct sbuf *out)
{
	size_t i, hk = NO_HOSTKEY;
	int r, classic;

	if (!t->first_kex_done || t->closed || t->send.cctx == NULL ||
	    t->recv.cctx == NULL)
		return ERR_INVALID_ARGUMENT;
	if (t->kex_state != KEX_IDLE || sbuf_len(t->deferred) != 0)
		return ERR_AGAIN;
	if ((t->send.zctx != NULL && comp_used(t->send.zctx)) ||
	    (t->recv.zctx != NULL && comp_used(t->recv.zctx)))
		return ERR_FEATURE_UNSUPPORTED;
	/*
	 * Only the classic order decrypts the first block of a packet in
	 * place to learn its length; the others read it again at no cost.
	 */
	classic = !(t->recv.cipher->flags & CIPHER_AEAD) &&
	    !(t->recv.mac != NULL && t->recv.mac->etm);
	for (i = 0; t->server && i < t->cfg.nhostkeys; i++)
		if (t->cfg.hostkeys[i] == t->hostkey)
			hk = i;
	if ((r = sbuf_put_cstring(out, STATE_MAGIC)) != 0 ||
	    (r = sbuf_put_u8(out, t->server != 0)) != 0 ||
	    (r = sbuf_put_string(out, t->session_id, t->session_id_len)) != 0 ||
	    (r = sbuf_put_cstring(out, t->peer_version)) != 0 ||
	    (r = sbuf_put_u32(out, t->nkex)) != 0 ||
	    (r = sbuf_put_u64(out, t->kex_time)) != 0 ||
	    (r = sbuf_put_u8(out, t->strict != 0)) != 0 ||
	    (r = sbuf_put_u8(out, t->peer_ext_info != 0)) != 0 ||
	    (r = sbuf_put_u8(out, t->ext_info_sent != 0)) != 0 ||
	    (r = sbuf_put_u8(out, t->authenticated != 0)) != 0 ||
	    (r = sbuf_put_u8(out, t->zauth != 0)) != 0)
		return r;
	for (i = 0; i < NNEGOTIATED; i++)
		if ((r = sbuf_put_cstring(out, t->negotiated[i] ?
		    t->negotiated[i] : "")) != 0)
			return r;
	if ((r = sbuf_put_cstring(out, t->peer_sig_algs ?
	    t->peer_sig_algs : "")) != 0 ||
	    (r = sbuf_put_cstring(out, t->peer_hostkey_algs ?
	    t->peer_hostkey_algs : "")) != 0 ||
	    (r = sbuf_put_u32(out, (uint32_t)hk)) != 0 ||
	    (r = sbuf_put_u32(out, t->last_seqnr)) != 0 ||
	    (r = sbuf_put_u32(out, classic ? t->pending_len : 0)) != 0 ||
	    (r = put_dir(out, &t->send)) != 0 ||
	    (r = put_dir(out, &t->recv)) != 0 ||
	    (r = sbuf_put_string(out, sbuf_ptr(t->in), sbuf_len(t->in))) != 0 ||
	    (r = sbuf_put_string(out, sbuf_ptr(t->out), sbuf_len(t->out))) != 0)
		return r;
	return 0;
}

/* A printable name or name-list of at most max bytes, "" allowed. */
static int
get_name(struct sbuf *b, size_t max, char **sp)
{
	char *s;
	size_t len, i;
	int r;

	if ((r = sbuf_get_cstring(b, &s, &len)) != 0)
		return r;
	for (i = 0; i < len; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			break;
	if (len > max || i != len) {
		x_free(s);
		return ERR_INVALID_FORMAT;
	}
	*sp = s;
	return 0;
}

static int
get_bool(struct sbuf *b, int *v)
{
	uint8_t c;
	int r;

	if ((r = sbuf_get_u8(b, &c)) != 0)
		return r;
	if (c > 1)
		return ERR_INVALID_FORMAT;
	*v = c;
	return 0;
}

/* One direction's keys, checked against its algorithms, and set up. */
static int
get_dir(struct sbuf *b, struct tr_dir *d, int encrypt)
{
	struct tr_newkeys nk;
	const unsigned char *key, *iv, *mkey;
	size_t klen, ivlen, mklen;
	char *cname = NULL, *mname = NULL;
	int r;

	memset(&nk, 0, sizeof(nk));
	if ((r = get_name(b, MAX_NAME, &cname)) != 0 ||
	    (r = sbuf_get_string_direct(b, &key, &klen)) != 0 ||
	    (r = sbuf_get_string_direct(b, &iv, &ivlen)) != 0 ||
	    (r = get_name(b, MAX_NAME, &mname)) != 0 ||
	    (r = sbuf_get_string_direct(b, &mkey, &mklen)) != 0)
		goto out;
	r = ERR_INVALID_FORMAT;
	if ((nk.cipher = cipher_by_name(cname)) == NULL ||
	    klen != nk.cipher->key_len || ivlen != nk.cipher->iv_len)
		goto out;
	if (nk.cipher->flags & CIPHER_AEAD) {
		if (*mname != '\0' || mklen != 0)
			goto out;
	} else if ((nk.mac = mac_by_name(mname)) == NULL ||
	    mklen != nk.mac->key_len)
		goto out;
	/* pkt_set_keys() takes its key material from a tr_newkeys. */
	nk.key = (unsigned char *)(uintptr_t)key;
	nk.iv = (unsigned char *)(uintptr_t)iv;
	nk.mackey = (unsigned char *)(uintptr_t)mkey;
	if ((r = pkt_set_keys(d, &nk, encrypt)) != 0 ||
	    (r = sbuf_get_u32(b, &d->seqnr)) != 0 ||
	    (r = sbuf_get_u64(b, &d->blocks)) != 0)
		goto out;
 out:
	x_free(cname);
	x_free(mname);
	return r;
}

/* The raw buffers, within what the transport itself would hold. */
static int
get_raw(struct sbuf *b, struct sbuf *into)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = sbuf_get_string_direct(b, &p, &len)) != 0)
		return r;
	return sbuf_put(into, p, len);
}

/* The negotiated names (shown, logged) are those of the keys in use. */
static int
names_agree(const struct transport *t)
{
	const struct tr_dir *c2s = t->server ? &t->recv : &t->send;
	const struct tr_dir *s2c = t->server ? &t->send : &t->recv;
	char *const *n = t->negotiated;

	return kexalg_by_name(n[NEG_KEX]) != NULL &&
	    strcmp(n[NEG_CIPHER_C2S], c2s->cipher->name) == 0 &&
	    strcmp(n[NEG_CIPHER_S2C], s2c->cipher->name) == 0 &&
	    strcmp(n[NEG_MAC_C2S], c2s->mac ? c2s->mac->name :
	    "<implicit>") == 0 &&
	    strcmp(n[NEG_MAC_S2C], s2c->mac ? s2c->mac->name :
	    "<implicit>") == 0 &&
	    comp_by_name(n[NEG_COMP_C2S]) != NULL &&
	    comp_by_name(n[NEG_COMP_S2C]) != NULL;
}

static int
import_state(struct transport *t, struct sbuf *b)
{
	const unsigned char *sid;
	char *magic = NULL, *s;
	size_t len, i;
	uint32_t hk, plen;
	int server, r;

	if ((r = get_name(b, MAX_NAME, &magic)) != 0)
		return r;
	r = strcmp(magic, STATE_MAGIC) == 0 ? 0 : ERR_INVALID_FORMAT;
	x_free(magic);
	if (r != 0 || (r = get_bool(b, &server)) != 0)
		return r;
	if (server != (t->server != 0))
		return ERR_INVALID_FORMAT;
	if ((r = sbuf_get_string_direct(b, &sid, &len)) != 0)
		return r;
	if (len != 20 && len != 32 && len != 48 && len != 64)
		return ERR_INVALID_FORMAT;
	memcpy(t->session_id, sid, len);
	t->session_id_len = len;
	if ((r = sbuf_get_cstring(b, &t->peer_version, &len)) != 0)
		return r;
	if (len == 0 || len > TR_MAX_BANNER_LINE)
		return ERR_INVALID_FORMAT;
	if ((r = sbuf_get_u32(b, &t->nkex)) != 0 ||
	    (r = sbuf_get_u64(b, &t->kex_time)) != 0 ||
	    (r = get_bool(b, &t->strict)) != 0 ||
	    (r = get_bool(b, &t->peer_ext_info)) != 0 ||
	    (r = get_bool(b, &t->ext_info_sent)) != 0 ||
	    (r = get_bool(b, &t->authenticated)) != 0 ||
	    (r = get_bool(b, &t->zauth)) != 0)
		return r;
	if (t->nkex == 0)
		return ERR_INVALID_FORMAT;
	for (i = 0; i < NNEGOTIATED; i++)
		if ((r = get_name(b, MAX_NAME, &t->negotiated[i])) != 0)
			return r;
	if ((r = get_name(b, MAX_NAMELIST, &s)) != 0)
		return r;
	if (*s == '\0')
		x_free(s);
	else
		t->peer_sig_algs = s;
	if ((r = get_name(b, MAX_NAMELIST, &s)) != 0)
		return r;
	if (*s == '\0')
		x_free(s);
	else
		t->peer_hostkey_algs = s;
	if ((r = sbuf_get_u32(b, &hk)) != 0 ||
	    (r = sbuf_get_u32(b, &t->last_seqnr)) != 0 ||
	    (r = sbuf_get_u32(b, &plen)) != 0)
		return r;
	if (hk != NO_HOSTKEY) {
		if (!t->server || hk >= t->cfg.nhostkeys)
			return ERR_INVALID_FORMAT;
		t->hostkey = t->cfg.hostkeys[hk];
	}
	if ((r = get_dir(b, &t->send, 1)) != 0 ||
	    (r = get_dir(b, &t->recv, 0)) != 0 ||
	    (r = get_raw(b, t->in)) != 0 ||
	    (r = get_raw(b, t->out)) != 0)
		return r;
	if (sbuf_len(b) != 0 || !names_agree(t))
		return ERR_INVALID_FORMAT;
	/* Fresh streams where a method runs (see the top of the file). */
	if ((r = pkt_comp_start(t, &t->send, comp_by_name(t->negotiated[
	    t->server ? NEG_COMP_S2C : NEG_COMP_C2S]))) != 0 ||
	    (r = pkt_comp_start(t, &t->recv, comp_by_name(t->negotiated[
	    t->server ? NEG_COMP_C2S : NEG_COMP_S2C]))) != 0)
		return r;
	/*
	 * A pending length means the first block of the next packet is
	 * already decrypted in the input, so it must be a packet pkt_read()
	 * would have taken, under a classic cipher, with that block there.
	 */
	if (plen != 0) {
		const struct tr_dir *d = &t->recv;
		unsigned int bs = d->cipher->block_size;

		if ((d->cipher->flags & CIPHER_AEAD) || (d->mac && d->mac->etm) ||
		    plen < 5 || plen > TR_MAX_PACKET || (plen + 4) % bs != 0 ||
		    sbuf_len(t->in) < bs)
			return ERR_INVALID_FORMAT;
		t->pending_len = plen;
	}
	t->banner_done = 1;
	t->first_kex_done = 1;
	t->kex_state = KEX_IDLE;
	t->kex = kexalg_by_name(t->negotiated[NEG_KEX]);
	return 0;
}

struct transport *
tr_import(int fd_in, int fd_out, const struct tr_config *cfg,
    const unsigned char *blob, size_t len)
{
	struct transport *t = tr_alloc(fd_in, fd_out, cfg);
	struct sbuf *b = sbuf_from(blob, len);
	int r;

	if ((r = import_state(t, b)) != 0) {
		log_error("transport state from the pre-authentication "
		    "process refused: %s", err_str(r));
		tr_free(t);
		t = NULL;
	}
	sbuf_free(b);
	return t;
}
