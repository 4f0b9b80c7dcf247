/*
 * kexalg_priv.h: what the kexalg_*.c files share, and a test hook.
 *
 * Nothing outside src/crypto/kexalg*.c and the unit tests includes this.
 */
#ifndef MOAT_KEXALG_PRIV_H
#define MOAT_KEXALG_PRIV_H

#include <stddef.h>

#include <openssl/bn.h>

#include "kexalg.h"

#include <openssl/evp.h>

#include "sbuf.h"

#define EC_MAX_PUB	133	/* 0x04 || X || Y on P-521 */
#define EC_MAX_SECRET	66	/* X on P-521 */

struct kex_hybrid;

/* How a table row does its work (kexalg.c, kexalg_pq.c). */
struct kex_impl {
	int (*keygen)(struct kex_eph *, const BIGNUM *, const BIGNUM *,
	    const unsigned char *, size_t, struct sbuf *);
	int (*derive)(struct kex_eph *, const unsigned char *, size_t,
	    struct sbuf *);
	const char *keytype;		/* EVP key type: "X25519", "EC" */
	const char *group;		/* EC curve name, NULL for X25519 */
	int nid;			/* EC curve NID */
	size_t publen;			/* bytes of the public value */
	size_t secretlen;		/* bytes of the raw shared secret */
	BIGNUM *(*prime)(BIGNUM *);	/* fixed DH group; NULL for GEX */
	const struct kex_hybrid *hybrid;	/* KEM + ECDH rows only */
};

/* One side's ephemeral state, from keygen (or reply) to derive. */
struct kex_eph {
	const struct kex_alg *alg;
	const struct kex_impl *impl;
	EVP_PKEY *pkey;			/* EC/X25519 key pair */
	BIGNUM *p, *g, *x;		/* DH group and private exponent */
	unsigned char *kem_sk;		/* hybrid: the KEM's secret key */
	size_t kem_sklen;
};

extern const struct kex_impl kexalg_impl_x25519, kexalg_impl_p256;
extern const struct kex_impl kexalg_impl_mlkem_x25519,
    kexalg_impl_mlkem_p256, kexalg_impl_sntrup_x25519;

/* Server side of a hybrid row (kexalg_pq.c); see kexalg_reply. */
int kexalg_hybrid_reply(struct kex_eph *eph, const unsigned char *peer,
    size_t peerlen, struct sbuf *pub, struct sbuf *K);

int kexalg_ec_make(struct kex_eph *eph, const struct kex_impl *impl,
    const unsigned char *priv, size_t privlen, unsigned char *buf,
    size_t *lenp);
int kexalg_ec_shared(EVP_PKEY *mine, const struct kex_impl *impl,
    const unsigned char *peer, size_t peerlen, unsigned char *secret);

/* Group sizes a group-exchange server offers (OpenSSH's DH_GRP_MIN/MAX). */
#define KEX_DH_GRP_MIN	2048
#define KEX_DH_GRP_MAX	8192

/*
 * As kexalg_keygen, but with a fixed private value instead of a random one,
 * so tests can check published vectors: the 32-byte X25519 scalar, the
 * big-endian NIST curve scalar, or the big-endian DH exponent. Never use
 * outside tests.
 */
int kexalg_keygen_fixed(const struct kex_alg *alg, const BIGNUM *p,
    const BIGNUM *g, const unsigned char *priv, size_t privlen,
    struct kex_eph **ephp, struct sbuf *pub);

#endif
