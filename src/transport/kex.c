/*
 * kex.c: key exchange (RFC 4253 sections 7-8, RFC 4419, RFC 5656,
 * RFC 8731) and OpenSSH's strict KEX and ext-info, both roles.
 *
 * Flow for one exchange: both sides send KEXINIT (ours goes out first,
 * or in answer to the peer's when the peer starts a rekey); negotiation
 * picks one name per slot, client preference first. Then, by method kind:
 *   ECDH/DH:  client 30 (Q_C or e) -> server 31 (K_S, Q_S or f, sig)
 *   DH-GEX:   client 34 (min,n,max) -> server 31 (p,g) -> client 32 (e)
 *             -> server 33 (K_S, f, sig)
 * and each side sends NEWKEYS, switching its outgoing keys right after
 * sending it and its incoming keys right after receiving the peer's.
 * The method math is in src/crypto/kexalg.c; this file holds the
 * protocol state and the exchange hash.
 *
 * Host certificates: a certificate algorithm (ssh-ed25519-cert-v01@...)
 * is offered by a server for each host key with a certificate in
 * cfg.hostcerts; K_S is then the certificate blob and the signature is
 * made with the plain key and the plain algorithm. A client receiving
 * one parses and checks the certificate (cert.c), verifies the KEX
 * signature with its subject key and asks cfg.hostcert_verify.
 */
#include <string.h>

#include <openssl/rand.h>

#include "cert.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "transport_int.h"

#define GEX_MIN		2048
#define GEX_WANT	4096
#define GEX_MAX		8192

/*
 * The most output, sent or held for the end of a key exchange, that a
 * PONG may join: a peer that sends PINGs and does not read the answers
 * must not make us hold an echo of everything it sent.
 */
#define PONG_BACKLOG_MAX	(4u * 1024 * 1024)

/* 1 if name is an element of the comma-separated list. */
int
kex_send_kexinit(struct transport *t)
{
	unsigned char cookie[16];
	struct sbuf *b;
	char *hk = NULL, *kexl;
	const char *comp = t->cfg.compression ? t->cfg.compression : "none";
	int r;

	if (t->kexinit_sent)
		return 0;
	if (RAND_bytes(cookie, sizeof(cookie)) != 1)
		return ERR_LIBCRYPTO;
	if (t->first_kex_done)
		kexl = x_strdup(t->cfg.kex_algs);
	else
		kexl = x_asprintf("%s,%s,%s", t->cfg.kex_algs,
		    t->server ? EXT_INFO_S : EXT_INFO_C,
		    t->server ? STRICT_S : STRICT_C);
	hk = t->server ? kex_hostkey_list(t) : x_strdup(t->cfg.hostkey_algs);
	b = sbuf_new();
	if ((r = sbuf_put_u8(b, SSH2_MSG_KEXINIT)) != 0 ||
	    (r = sbuf_put(b, cookie, sizeof(cookie))) != 0 ||
	    (r = sbuf_put_cstring(b, kexl)) != 0 ||
	    (r = sbuf_put_cstring(b, hk)) != 0 ||
	    (r = sbuf_put_cstring(b, t->cfg.ciphers)) != 0 ||
	    (r = sbuf_put_cstring(b, t->cfg.ciphers)) != 0 ||
	    (r = sbuf_put_cstring(b, t->cfg.macs)) != 0 ||
	    (r = sbuf_put_cstring(b, t->cfg.macs)) != 0 ||
	    (r = sbuf_put_cstring(b, comp)) != 0 ||
	    (r = sbuf_put_cstring(b, comp)) != 0 ||
	    (r = sbuf_put_cstring(b, "")) != 0 ||
	    (r = sbuf_put_cstring(b, "")) != 0 ||
	    (r = sbuf_put_u8(b, 0)) != 0 ||
	    (r = sbuf_put_u32(b, 0)) != 0)
		goto out;
	if ((r = pkt_send(t, sbuf_ptr(b), sbuf_len(b))) != 0)
		goto out;
	sbuf_free(t->my_kexinit);
	t->my_kexinit = b;
	b = NULL;
	t->kexinit_sent = 1;
	t->kex_state = KEX_RUNNING;
	log_debug("SSH2_MSG_KEXINIT sent");
 out:
	sbuf_free(b);
	x_free(kexl);
	x_free(hk);
	return r;
}

static void
newkeys_clear(struct tr_newkeys *nk)
{
	if (nk->cipher != NULL) {
		x_freezero(nk->key, nk->cipher->key_len);
		x_freezero(nk->iv, nk->cipher->iv_len);
	}
	if (nk->mac != NULL)
		x_freezero(nk->mackey, nk->mac->key_len);
	memset(nk, 0, sizeof(*nk));
}

void
kex_clear(struct transport *t)
{
	size_t i;

	sbuf_free(t->my_kexinit);
	sbuf_free(t->peer_kexinit);
	sbuf_free(t->my_pub);
	t->my_kexinit = t->peer_kexinit = t->my_pub = NULL;
	kexalg_eph_free(t->eph);
	t->eph = NULL;
	BN_clear_free(t->gex_p);
	BN_clear_free(t->gex_g);
	t->gex_p = t->gex_g = NULL;
	key_free(t->peer_hostkey);
	t->peer_hostkey = NULL;
	cert_free(t->peer_hostcert);
	t->peer_hostcert = NULL;
	x_free(t->hostkey_alg);
	t->hostkey_alg = NULL;
	newkeys_clear(&t->nk_send);
	newkeys_clear(&t->nk_recv);
	for (i = 0; i < sizeof(t->negotiated) / sizeof(t->negotiated[0]); i++) {
		x_free(t->negotiated[i]);
		t->negotiated[i] = NULL;
	}
}

/* Negotiate every slot from the two KEXINITs (RFC 4253 section 7.1). */
static char *
my_version(const struct transport *t)
{
	if (t->cfg.version_comment != NULL && *t->cfg.version_comment)
		return x_asprintf("%s %s", TR_VERSION, t->cfg.version_comment);
	return x_strdup(TR_VERSION);
}

/*
 * H = HASH(V_C || V_S || I_C || I_S || K_S || [gex params] || e || f || K)
 * with e and f given in their wire encodings (length prefix included).
 */
static int
exchange_hash(struct transport *t, const struct sbuf *hostkey_blob,
    const unsigned char *cpub, size_t cpublen,
    const unsigned char *spub, size_t spublen, const struct sbuf *K,
    unsigned char *H)
{
	struct sbuf *b = sbuf_new();
	char *mine = my_version(t);
	const struct sbuf *ic = t->server ? t->peer_kexinit : t->my_kexinit;
	const struct sbuf *is = t->server ? t->my_kexinit : t->peer_kexinit;
	int r;

	if ((r = sbuf_put_cstring(b, t->server ? t->peer_version : mine)) != 0 ||
	    (r = sbuf_put_cstring(b, t->server ? mine : t->peer_version)) != 0 ||
	    (r = sbuf_put_stringb(b, ic)) != 0 ||
	    (r = sbuf_put_stringb(b, is)) != 0 ||
	    (r = sbuf_put_stringb(b, hostkey_blob)) != 0)
		goto out;
	if (t->kex->kind == KEX_KIND_DHGEX &&
	    ((r = sbuf_put_u32(b, t->gex_min)) != 0 ||
	    (r = sbuf_put_u32(b, t->gex_want)) != 0 ||
	    (r = sbuf_put_u32(b, t->gex_max)) != 0 ||
	    (r = sbuf_put_bignum(b, t->gex_p)) != 0 ||
	    (r = sbuf_put_bignum(b, t->gex_g)) != 0))
		goto out;
	if ((r = sbuf_put(b, cpub, cpublen)) != 0 ||
	    (r = sbuf_put(b, spub, spublen)) != 0 ||
	    (r = sbuf_putb(b, K)) != 0)
		goto out;
	r = kexalg_hash(t->kex, sbuf_ptr(b), sbuf_len(b), H);
 out:
	x_free(mine);
	sbuf_free(b);
	return r;
}

/* Derive one direction's keys (RFC 4253 section 7.2). */
static int
derive_dir(struct transport *t, struct tr_newkeys *nk, int c2s,
    const struct sbuf *K, const unsigned char *H, size_t hlen)
{
	const struct kex_alg *k = t->kex;
	int r;

	nk->key = x_malloc(nk->cipher->key_len);
	nk->iv = x_malloc(nk->cipher->iv_len ? nk->cipher->iv_len : 1);
	if (nk->mac != NULL)
		nk->mackey = x_malloc(nk->mac->key_len);
	if (nk->cipher->iv_len && (r = kexalg_derive_key(k, K, H, hlen,
	    c2s ? 'A' : 'B', t->session_id, t->session_id_len, nk->iv,
	    nk->cipher->iv_len)) != 0)
		return r;
	if ((r = kexalg_derive_key(k, K, H, hlen, c2s ? 'C' : 'D',
	    t->session_id, t->session_id_len, nk->key,
	    nk->cipher->key_len)) != 0)
		return r;
	if (nk->mac != NULL && (r = kexalg_derive_key(k, K, H, hlen,
	    c2s ? 'E' : 'F', t->session_id, t->session_id_len, nk->mackey,
	    nk->mac->key_len)) != 0)
		return r;
	return 0;
}

static int
derive_keys(struct transport *t, const struct sbuf *K, const unsigned char *H)
{
	size_t hlen = t->kex->hash_len;
	int r;

	firstkex_session_id(t, H, hlen);
	if ((r = derive_dir(t, &t->nk_send, !t->server, K, H, hlen)) != 0 ||
	    (r = derive_dir(t, &t->nk_recv, t->server, K, H, hlen)) != 0)
		return r;
	return 0;
}

static int
send_ext_info(struct transport *t)
{
	struct sbuf *b = sbuf_new();
	int r;

	/*
	 * publickey-hostbound: OpenSSH's PROTOCOL 3.1, version "0"; ping
	 * (PROTOCOL 1.8, version "0"): kex_answer_ping.
	 */
	if ((r = sbuf_put_u32(b, 3)) != 0 ||
	    (r = sbuf_put_cstring(b, "server-sig-algs")) != 0 ||
	    (r = sbuf_put_cstring(b, key_sigalg_all_names())) != 0 ||
	    (r = sbuf_put_cstring(b, "publickey-hostbound@openssh.com")) != 0 ||
	    (r = sbuf_put_cstring(b, "0")) != 0 ||
	    (r = sbuf_put_cstring(b, "ping@openssh.com")) != 0 ||
	    (r = sbuf_put_cstring(b, "0")) != 0 ||
	    (r = tr_send_raw(t, SSH2_MSG_EXT_INFO, b)) != 0)
		goto out;
	t->ext_info_sent = 1;
 out:
	sbuf_free(b);
	return r;
}

/*
 * PING's data comes back in a PONG, in order; during a key exchange of
 * ours the PONG waits with the other held messages. Before the user is
 * authenticated a ping is not answered (OpenSSH's rule: an unknown
 * client gets no free echo service), nor while PONG_BACKLOG_MAX bytes
 * wait to go out (a peer that does not read them). Servers only
 * (transport.c).
 */
int
kex_answer_ping(struct transport *t)
{
	const unsigned char *data;
	struct sbuf *b;
	size_t len;
	int r;

	if (sbuf_get_string_direct(t->body, &data, &len) != 0)
		return tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "malformed PING");
	if (!t->authenticated) {
		log_debug("Won't reply to PING in preauth");
		return 0;
	}
	log_debug3("Received SSH2_MSG_PING len %zu", len);
	if (tr_output_pending(t) + len > PONG_BACKLOG_MAX) {
		log_debug3("Won't reply to PING: %zu bytes wait to go out",
		    tr_output_pending(t));
		return 0;
	}
	b = sbuf_new();
	if (t->kexinit_sent && !t->newkeys_sent) {
		/* Held as tr_msg_send holds one: type and body. */
		if ((r = sbuf_put_u8(b, SSH2_MSG_PONG)) == 0 &&
		    (r = sbuf_put_string(b, data, len)) == 0)
			r = sbuf_put_string(t->deferred, sbuf_ptr(b),
			    sbuf_len(b));
	} else if ((r = sbuf_put_string(b, data, len)) == 0)
		r = tr_send_raw(t, SSH2_MSG_PONG, b);
	sbuf_free(b);
	return r;
}

/* Send NEWKEYS, switch outgoing keys, release held messages. */
static int
send_newkeys(struct transport *t)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = tr_send_raw(t, SSH2_MSG_NEWKEYS, NULL)) != 0)
		return r;
	log_debug("SSH2_MSG_NEWKEYS sent");
	if ((r = pkt_set_keys(&t->send, &t->nk_send, 1)) != 0 ||
	    (r = pkt_comp_start(t, &t->send, t->nk_send.comp)) != 0)
		return r;
	if (t->strict)
		t->send.seqnr = 0;
	newkeys_clear(&t->nk_send);
	t->newkeys_sent = 1;
	if (t->server && !t->first_kex_done && t->peer_ext_info &&
	    !t->ext_info_sent && (r = send_ext_info(t)) != 0)
		return r;
	while (sbuf_len(t->deferred) > 0) {
		if ((r = sbuf_get_string_direct(t->deferred, &p, &len)) != 0 ||
		    (r = pkt_send(t, p, len)) != 0)
			return r;
	}
	sbuf_reset(t->deferred);
	return 0;
}

/* Both NEWKEYS are through: the exchange is over. */
static void
kex_finish(struct transport *t)
{
	t->kex_state = KEX_IDLE;
	t->kexinit_sent = t->kexinit_received = 0;
	t->newkeys_sent = t->newkeys_received = 0;
	t->expect = 0;
	t->first_kex_done = 1;
	t->nkex++;
	t->kex_time = tr_now();
	sbuf_free(t->my_kexinit);
	sbuf_free(t->peer_kexinit);
	sbuf_free(t->my_pub);
	t->my_kexinit = t->peer_kexinit = t->my_pub = NULL;
	kexalg_eph_free(t->eph);
	t->eph = NULL;
}

/* Read the peer's public value: raw wire field and its contents. */
static int
get_peer_pub(struct transport *t, struct sbuf *body, const unsigned char **raw,
    size_t *rawlen, const unsigned char **val, size_t *vallen)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = sbuf_peek_string_direct(body, &p, &len)) != 0)
		return r;
	*raw = sbuf_ptr(body);
	*rawlen = 4 + len;
	if (t->kex->kind == KEX_KIND_ECDH || t->kex->kind == KEX_KIND_KEM)
		return sbuf_get_string_direct(body, val, vallen);
	return sbuf_get_mpint_direct(body, val, vallen);
}

/* Server: the client's public value arrived; reply and send NEWKEYS. */
static int
server_kex_reply(struct transport *t, uint8_t reply_type)
{
	const unsigned char *raw, *val;
	size_t rawlen, vallen;
	unsigned char H[64];
	struct sbuf *K = sbuf_new(), *blob = sbuf_new(), *sig = sbuf_new();
	struct sbuf *m = NULL;
	const char *sigalg = cert_sigalg_base(t->hostkey_alg);
	int r, hk;

	if ((r = get_peer_pub(t, t->body, &raw, &rawlen, &val, &vallen)) != 0 ||
	    sbuf_len(t->body) != 0) {
		r = tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "bad key exchange message");
		goto out;
	}
	if ((hk = kex_hostkey_index(t, t->hostkey_alg)) < 0) {
		r = ERR_NO_HOSTKEY_MATCH;
		goto out;
	}
	t->hostkey = t->cfg.hostkeys[hk];
	t->my_pub = sbuf_new();
	if ((r = kexalg_reply(t->kex, t->gex_p, t->gex_g, val, vallen,
	    &t->eph, t->my_pub, K)) != 0) {
		r = tr_protocol_error(t, SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
		    "key exchange failed: %s", err_str(r));
		goto out;
	}
	if ((r = sigalg != NULL ? cert_to_blob(t->cfg.hostcerts[hk], blob) :
	    key_to_blob(t->hostkey, blob)) != 0 ||
	    (r = exchange_hash(t, blob, raw, rawlen, sbuf_ptr(t->my_pub),
	    sbuf_len(t->my_pub), K, H)) != 0)
		goto out;
	if ((r = t->cfg.hostkey_sign(t->cfg.hostkey_arg, t->hostkey,
	    sigalg != NULL ? sigalg : t->hostkey_alg, H, t->kex->hash_len,
	    sig)) != 0) {
		log_error("host key signing failed: %s", err_str(r));
		goto out;
	}
	if ((r = derive_keys(t, K, H)) != 0)
		goto out;
	m = sbuf_new();
	if ((r = sbuf_put_stringb(m, blob)) != 0 ||
	    (r = sbuf_putb(m, t->my_pub)) != 0 ||
	    (r = sbuf_put_stringb(m, sig)) != 0 ||
	    (r = tr_send_raw(t, reply_type, m)) != 0)
		goto out;
	if ((r = send_newkeys(t)) != 0)
		goto out;
	t->expect = SSH2_MSG_NEWKEYS;
 out:
	x_wipe(H, sizeof(H));
	sbuf_free(K);
	sbuf_free(blob);
	sbuf_free(sig);
	sbuf_free(m);
	return r;
}

/* Client: the server's reply arrived; check it and send NEWKEYS. */
static int
client_kex_reply(struct transport *t)
{
	const unsigned char *kblob, *raw, *val, *sig;
	size_t kbloblen, rawlen, vallen, siglen;
	unsigned char H[64];
	struct sbuf *K = sbuf_new(), *blob = NULL;
	const char *sigalg = cert_sigalg_base(t->hostkey_alg);
	int r;

	if ((r = sbuf_get_string_direct(t->body, &kblob, &kbloblen)) != 0 ||
	    (r = get_peer_pub(t, t->body, &raw, &rawlen, &val, &vallen)) != 0 ||
	    (r = sbuf_get_string_direct(t->body, &sig, &siglen)) != 0 ||
	    sbuf_len(t->body) != 0) {
		r = tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "bad key exchange reply");
		goto out;
	}
	if (t->cfg.hostkey_seen != NULL && (r = t->cfg.hostkey_seen(
	    t->cfg.verify_arg, t->hostkey_alg, kblob, kbloblen)) != 0) {
		tr_disconnect(t, SSH2_DISCONNECT_HOST_KEY_NOT_VERIFIABLE,
		    "Host key verification failed.");
		goto out;
	}
	key_free(t->peer_hostkey);
	t->peer_hostkey = NULL;
	cert_free(t->peer_hostcert);
	t->peer_hostcert = NULL;
	if (sigalg != NULL) {
		if ((r = cert_from_blob(kblob, kbloblen,
		    &t->peer_hostcert)) != 0 ||
		    !cert_sigalg_matches(t->peer_hostcert, t->hostkey_alg) ||
		    (r = key_demote(t->peer_hostcert->key,
		    &t->peer_hostkey)) != 0) {
			r = tr_protocol_error(t,
			    SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
			    "bad server host certificate for %s",
			    t->hostkey_alg);
			goto out;
		}
	} else if ((r = key_from_blob(kblob, kbloblen,
	    &t->peer_hostkey)) != 0 ||
	    !key_sigalg_matches(t->peer_hostkey, t->hostkey_alg)) {
		r = tr_protocol_error(t, SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
		    "server host key does not match %s", t->hostkey_alg);
		goto out;
	}
	if ((r = kexalg_derive(t->eph, val, vallen, K)) != 0) {
		r = tr_protocol_error(t, SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
		    "key exchange failed: %s", err_str(r));
		goto out;
	}
	blob = sbuf_from(kblob, kbloblen);
	if ((r = exchange_hash(t, blob, sbuf_ptr(t->my_pub),
	    sbuf_len(t->my_pub), raw, rawlen, K, H)) != 0)
		goto out;
	if ((r = key_verify(t->peer_hostkey, sig, siglen, H, t->kex->hash_len,
	    sigalg != NULL ? sigalg : t->hostkey_alg)) != 0) {
		/* Say "incorrect signature", not "protocol error", at exit. */
		(void)tr_protocol_error(t, SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
		    "signature on key exchange does not verify");
		r = ERR_SIGNATURE_INVALID;
		goto out;
	}
	if (t->peer_hostcert != NULL)
		r = t->cfg.hostcert_verify == NULL ? ERR_PERMISSION_DENIED :
		    t->cfg.hostcert_verify(t->cfg.verify_arg, t->peer_hostcert);
	else if (t->cfg.hostkey_verify != NULL)
		r = t->cfg.hostkey_verify(t->cfg.verify_arg, t->peer_hostkey);
	if (r != 0) {
		tr_disconnect(t, SSH2_DISCONNECT_HOST_KEY_NOT_VERIFIABLE,
		    "Host key verification failed.");
		goto out;
	}
	firstkex_keep(t, kblob, kbloblen, sig, siglen);
	if ((r = derive_keys(t, K, H)) != 0 || (r = send_newkeys(t)) != 0)
		goto out;
	t->expect = SSH2_MSG_NEWKEYS;
 out:
	x_wipe(H, sizeof(H));
	sbuf_free(K);
	sbuf_free(blob);
	return r;
}

/* Client: send our public value (30 or 32). */
static int
client_send_pub(struct transport *t, uint8_t type)
{
	int r;

	t->my_pub = sbuf_new();
	if ((r = kexalg_keygen(t->kex, t->gex_p, t->gex_g, &t->eph,
	    t->my_pub)) != 0 ||
	    (r = tr_send_raw(t, type, t->my_pub)) != 0)
		return r;
	return 0;
}

static int
on_kexinit(struct transport *t)
{
	struct sbuf *b;
	int r;

	if (t->kexinit_received)
		return tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "unexpected KEXINIT");
	log_debug("SSH2_MSG_KEXINIT received");
	t->kexinit_received = 1;
	sbuf_free(t->peer_kexinit);
	t->peer_kexinit = sbuf_dup(t->msg);
	if (sbuf_len(t->peer_kexinit) < 17)
		return tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "short KEXINIT");
	if ((r = kex_send_kexinit(t)) != 0 || (r = kex_negotiate(t)) != 0)
		return r;
	if (t->server) {
		t->expect = t->kex->kind == KEX_KIND_DHGEX ?
		    SSH2_MSG_KEX_DH_GEX_REQUEST : SSH2_MSG_KEX_ECDH_INIT;
		return 0;
	}
	if (t->kex->kind == KEX_KIND_DHGEX) {
		t->gex_min = GEX_MIN;
		t->gex_want = GEX_WANT;
		t->gex_max = GEX_MAX;
		b = sbuf_new();
		if ((r = sbuf_put_u32(b, t->gex_min)) == 0 &&
		    (r = sbuf_put_u32(b, t->gex_want)) == 0 &&
		    (r = sbuf_put_u32(b, t->gex_max)) == 0)
			r = tr_send_raw(t, SSH2_MSG_KEX_DH_GEX_REQUEST, b);
		sbuf_free(b);
		t->expect = SSH2_MSG_KEX_DH_GEX_GROUP;
		return r;
	}
	t->expect = SSH2_MSG_KEX_ECDH_REPLY;
	return client_send_pub(t, SSH2_MSG_KEX_ECDH_INIT);
}

static int
server_gex_request(struct transport *t)
{
	struct sbuf *b;
	int r;

	if ((r = sbuf_get_u32(t->body, &t->gex_min)) != 0 ||
	    (r = sbuf_get_u32(t->body, &t->gex_want)) != 0 ||
	    (r = sbuf_get_u32(t->body, &t->gex_max)) != 0 ||
	    t->gex_min > t->gex_want || t->gex_want > t->gex_max)
		return tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "bad DH group exchange request");
	if (t->cfg.gex_choose != NULL)
		r = t->cfg.gex_choose(t->cfg.hostkey_arg, t->gex_min,
		    t->gex_want, t->gex_max, &t->gex_p, &t->gex_g);
	else
		r = kexalg_gex_choose(t->cfg.moduli_path, t->gex_min,
		    t->gex_want, t->gex_max, &t->gex_p, &t->gex_g);
	if (r != 0)
		return tr_protocol_error(t, SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
		    "no DH group fits %u..%u bits", t->gex_min, t->gex_max);
	log_debug("SSH2_MSG_KEX_DH_GEX_REQUEST received: %u < %u < %u; "
	    "sending a %d-bit group", t->gex_min, t->gex_want, t->gex_max,
	    BN_num_bits(t->gex_p));
	b = sbuf_new();
	if ((r = sbuf_put_bignum(b, t->gex_p)) == 0 &&
	    (r = sbuf_put_bignum(b, t->gex_g)) == 0)
		r = tr_send_raw(t, SSH2_MSG_KEX_DH_GEX_GROUP, b);
	sbuf_free(b);
	t->expect = SSH2_MSG_KEX_DH_GEX_INIT;
	return r;
}

static int
client_gex_group(struct transport *t)
{
	int r, bits;

	if ((r = sbuf_get_bignum(t->body, &t->gex_p)) != 0 ||
	    (r = sbuf_get_bignum(t->body, &t->gex_g)) != 0)
		return tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "bad DH group");
	bits = BN_num_bits(t->gex_p);
	if (bits < (int)t->gex_min || bits > (int)t->gex_max)
		return tr_protocol_error(t, SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
		    "DH group size %d out of range %u..%u", bits, t->gex_min,
		    t->gex_max);
	t->expect = SSH2_MSG_KEX_DH_GEX_REPLY;
	return client_send_pub(t, SSH2_MSG_KEX_DH_GEX_INIT);
}

int
kex_dispatch(struct transport *t, uint8_t type)
{
	int r;

	if (type == SSH2_MSG_KEXINIT)
		return on_kexinit(t);
	if (t->expect == 0 || type != t->expect)
		return tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "unexpected key exchange message %u (expected %d)", type,
		    t->expect);
	if (type == SSH2_MSG_NEWKEYS) {
		log_debug("SSH2_MSG_NEWKEYS received");
		if ((r = pkt_set_keys(&t->recv, &t->nk_recv, 0)) != 0 ||
		    (r = pkt_comp_start(t, &t->recv, t->nk_recv.comp)) != 0)
			return r;
		if (t->strict)
			t->recv.seqnr = 0;
		newkeys_clear(&t->nk_recv);
		t->newkeys_received = 1;
		if (t->newkeys_sent)
			kex_finish(t);
		return 0;
	}
	t->expect = 0;
	if (t->server) {
		switch (type) {
		case SSH2_MSG_KEX_ECDH_INIT:	/* == KEXDH_INIT */
			return server_kex_reply(t, SSH2_MSG_KEX_ECDH_REPLY);
		case SSH2_MSG_KEX_DH_GEX_REQUEST:
			return server_gex_request(t);
		case SSH2_MSG_KEX_DH_GEX_INIT:
			return server_kex_reply(t, SSH2_MSG_KEX_DH_GEX_REPLY);
		}
	} else {
		switch (type) {
		case SSH2_MSG_KEX_ECDH_REPLY:	/* == GEX_GROUP */
			if (t->kex->kind == KEX_KIND_DHGEX)
				return client_gex_group(t);
			return client_kex_reply(t);
		case SSH2_MSG_KEX_DH_GEX_REPLY:
			return client_kex_reply(t);
		}
	}
	return tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
	    "unexpected key exchange message %u", type);
}

int
kex_need_rekey(struct transport *t)
{
	uint64_t limit;
	unsigned int bs;

	if (!t->first_kex_done || t->kex_state != KEX_IDLE || t->closed)
		return 0;
	/*
	 * Never start a rekey before user authentication has finished:
	 * OpenSSH's client treats a KEXINIT during userauth as a protocol
	 * error, and OpenSSH itself waits the same way. The peer may still
	 * start one; we answer it.
	 */
	if (!t->authenticated)
		return 0;
	if (t->send.blocks >= t->send.max_blocks ||
	    t->recv.blocks >= t->recv.max_blocks)
		return 1;
	if (t->cfg.rekey_bytes != 0) {
		bs = t->send.cipher && t->send.cipher->block_size > 8 ?
		    t->send.cipher->block_size : 8;
		limit = t->cfg.rekey_bytes / bs;
		if (t->send.blocks >= limit || t->recv.blocks >= limit)
			return 1;
	}
	if (t->cfg.rekey_seconds != 0 &&
	    tr_now() - t->kex_time >= t->cfg.rekey_seconds)
		return 1;
	return 0;
}
