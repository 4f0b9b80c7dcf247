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
