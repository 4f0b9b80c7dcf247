/*
 * kexalg_pq.c: the post-quantum hybrid key exchanges, a KEM joined with
 * an elliptic-curve Diffie-Hellman:
 *
 *   mlkem768x25519-sha256    ML-KEM-768 (FIPS 203) + X25519, SHA-256
 *   mlkem768nistp256-sha256  ML-KEM-768 + ECDH on P-256, SHA-256
 *   sntrup761x25519-sha512   Streamlined NTRU Prime 761 + X25519, SHA-512
 *                            (also under its older @openssh.com name)
 *
 * as the IETF sshm drafts and OpenSSH's PROTOCOL describe them. They use
 * the ECDH message numbers (30 and 31) and strings for the public values:
 *
 *   client -> server  C_INIT  = KEM public key || client's ECDH public
 *   server -> client  S_REPLY = KEM ciphertext || server's ECDH public
 *   K = HASH(K_PQ || K_CL), sent into the exchange hash and the key
 *       derivation as an SSH string (not an mpint), where K_PQ is the
 *       KEM's 32-byte shared secret and K_CL the raw ECDH secret (the
 *       X25519 output, or P-256's x coordinate).
 *
 * The client makes the KEM key pair (keygen) and later decapsulates
 * (derive); the server has nothing to send until it has C_INIT, so its
 * half is kexalg_reply: encapsulate to the client's key, make its own
 * ECDH key, and derive K in one step. The peer's values are checked for
 * exact length first; the KEM checks its public key (ML-KEM's modulus
 * check), the ECDH half refuses points off the curve and an all-zero
 * result; ML-KEM and sntrup761 decapsulation never fail on a bad
 * ciphertext (implicit rejection: the keys just differ and the exchange
 * fails at the signature), so no secret-dependent error reaches the peer.
 */
#include <string.h>

#include <openssl/err.h>

#include "err.h"
#include "kexalg.h"
#include "kexalg_priv.h"
#include "mem.h"
#include "mlkem.h"
#include "sbuf.h"
#include "sntrup761.h"

#define KEM_SS_LEN	32

struct kex_hybrid {
	const struct kex_impl *classical;	/* the ECDH half */
	size_t pklen, sklen, ctlen;		/* the KEM's sizes */
	int (*keypair)(unsigned char *pk, unsigned char *sk);
	int (*encaps)(unsigned char *ct, unsigned char *ss,
	    const unsigned char *pk, size_t pklen);
	int (*decaps)(unsigned char *ss, const unsigned char *ct,
	    size_t ctlen, const unsigned char *sk, size_t sklen);
};

static int
mlkem_keypair(unsigned char *pk, unsigned char *sk)
{
	return mlkem768_keypair(pk, sk);
}

static int
mlkem_encaps(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
    size_t pklen)
{
	return mlkem768_encaps(ct, ss, pk, pklen);
}

static int
mlkem_decaps(unsigned char *ss, const unsigned char *ct, size_t ctlen,
    const unsigned char *sk, size_t sklen)
{
	return mlkem768_decaps(ss, ct, ctlen, sk, sklen);
}

static int
sntrup_keypair(unsigned char *pk, unsigned char *sk)
{
	return sntrup761_keypair(pk, sk);
}

static int
sntrup_encaps(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
    size_t pklen)
{
	return sntrup761_enc(ct, ss, pk, pklen);
}

static int
sntrup_decaps(unsigned char *ss, const unsigned char *ct, size_t ctlen,
    const unsigned char *sk, size_t sklen)
{
	if (sklen != SNTRUP761_SECRETKEY_SIZE)
		return ERR_INVALID_ARGUMENT;
	return sntrup761_dec(ss, ct, ctlen, sk);
}

static const struct kex_hybrid hy_mlkem_x25519 = {
	&kexalg_impl_x25519, MLKEM768_EK_LEN, MLKEM768_DK_LEN,
	MLKEM768_CT_LEN, mlkem_keypair, mlkem_encaps, mlkem_decaps
};
static const struct kex_hybrid hy_mlkem_p256 = {
	&kexalg_impl_p256, MLKEM768_EK_LEN, MLKEM768_DK_LEN,
	MLKEM768_CT_LEN, mlkem_keypair, mlkem_encaps, mlkem_decaps
};
static const struct kex_hybrid hy_sntrup_x25519 = {
	&kexalg_impl_x25519, SNTRUP761_PUBLICKEY_SIZE,
	SNTRUP761_SECRETKEY_SIZE, SNTRUP761_CIPHERTEXT_SIZE,
	sntrup_keypair, sntrup_encaps, sntrup_decaps
};

static int hy_keygen(struct kex_eph *, const BIGNUM *, const BIGNUM *,
    const unsigned char *, size_t, struct sbuf *);
static int hy_derive(struct kex_eph *, const unsigned char *, size_t,
    struct sbuf *);

const struct kex_impl kexalg_impl_mlkem_x25519 = {
	hy_keygen, hy_derive, NULL, NULL, 0, 0, 0, NULL, &hy_mlkem_x25519
};
const struct kex_impl kexalg_impl_mlkem_p256 = {
	hy_keygen, hy_derive, NULL, NULL, 0, 0, 0, NULL, &hy_mlkem_p256
};
const struct kex_impl kexalg_impl_sntrup_x25519 = {
	hy_keygen, hy_derive, NULL, NULL, 0, 0, 0, NULL, &hy_sntrup_x25519
};

/* K = string(HASH(K_PQ || K_CL)). */
static int
put_hybrid_k(const struct kex_alg *alg, const unsigned char *pq,
    const unsigned char *cl, size_t cllen, struct sbuf *K)
{
	unsigned char both[KEM_SS_LEN + EC_MAX_SECRET], h[64];
	int r;

	memcpy(both, pq, KEM_SS_LEN);
	memcpy(both + KEM_SS_LEN, cl, cllen);
	if ((r = kexalg_hash(alg, both, KEM_SS_LEN + cllen, h)) == 0)
		r = sbuf_put_string(K, h, alg->hash_len);
	x_wipe(both, sizeof(both));
	x_wipe(h, sizeof(h));
	return r;
}

/* Client: the KEM key pair and our ECDH key; C_INIT as a string. */
static int
hy_keygen(struct kex_eph *eph, const BIGNUM *p, const BIGNUM *g,
    const unsigned char *priv, size_t privlen, struct sbuf *pub)
{
	const struct kex_hybrid *hy = eph->impl->hybrid;
	unsigned char *buf, cpub[EC_MAX_PUB];
	size_t clen = 0;
	int r;

	if (priv != NULL)	/* no fixed-key form for the KEM half */
		return ERR_INVALID_ARGUMENT;
	eph->kem_sklen = hy->sklen;
	eph->kem_sk = x_malloc(hy->sklen);
	buf = x_malloc(hy->pklen);
	if ((r = hy->keypair(buf, eph->kem_sk)) == 0 &&
	    (r = kexalg_ec_make(eph, hy->classical, NULL, 0, cpub,
	    &clen)) == 0 &&
	    (r = sbuf_put_u32(pub, (uint32_t)(hy->pklen + clen))) == 0 &&
	    (r = sbuf_put(pub, buf, hy->pklen)) == 0)
		r = sbuf_put(pub, cpub, clen);
	x_free(buf);
	return r;
}

/* Client: S_REPLY arrived; decapsulate, finish the ECDH, make K. */
static int
hy_derive(struct kex_eph *eph, const unsigned char *peer, size_t peerlen,
    struct sbuf *K)
{
	const struct kex_hybrid *hy = eph->impl->hybrid;
	const struct kex_impl *cl = hy->classical;
	unsigned char pq[KEM_SS_LEN], secret[EC_MAX_SECRET];
	int r;

	if (eph->kem_sk == NULL)
		return ERR_INVALID_ARGUMENT;
	if (peerlen != hy->ctlen + cl->publen)
		return ERR_INVALID_FORMAT;
	if ((r = kexalg_ec_shared(eph->pkey, cl, peer + hy->ctlen,
	    cl->publen, secret)) == 0 &&
	    (r = hy->decaps(pq, peer, hy->ctlen, eph->kem_sk,
	    eph->kem_sklen)) == 0)
		r = put_hybrid_k(eph->alg, pq, secret, cl->secretlen, K);
	x_wipe(pq, sizeof(pq));
	x_wipe(secret, sizeof(secret));
	return r;
}

/* Server: C_INIT arrived; encapsulate to it, our ECDH, S_REPLY and K. */
int
kexalg_hybrid_reply(struct kex_eph *eph, const unsigned char *peer,
    size_t peerlen, struct sbuf *pub, struct sbuf *K)
{
	const struct kex_hybrid *hy = eph->impl->hybrid;
	const struct kex_impl *cl = hy->classical;
	unsigned char pq[KEM_SS_LEN], secret[EC_MAX_SECRET], cpub[EC_MAX_PUB];
	unsigned char *ct;
	size_t clen = 0;
	int r;

	if (peerlen != hy->pklen + cl->publen)
		return ERR_INVALID_FORMAT;
	ct = x_malloc(hy->ctlen);
	if ((r = kexalg_ec_make(eph, cl, NULL, 0, cpub, &clen)) == 0 &&
	    (r = kexalg_ec_shared(eph->pkey, cl, peer + hy->pklen,
	    cl->publen, secret)) == 0 &&
	    (r = hy->encaps(ct, pq, peer, hy->pklen)) == 0 &&
	    (r = put_hybrid_k(eph->alg, pq, secret, cl->secretlen, K)) == 0 &&
	    (r = sbuf_put_u32(pub, (uint32_t)(hy->ctlen + clen))) == 0 &&
	    (r = sbuf_put(pub, ct, hy->ctlen)) == 0)
		r = sbuf_put(pub, cpub, clen);
	x_free(ct);
	x_wipe(pq, sizeof(pq));
	x_wipe(secret, sizeof(secret));
	if (r != 0)
		ERR_clear_error();
	return r;
}
