/*
 * sntrup761.h: the Streamlined NTRU Prime 761 key encapsulation
 * mechanism (NTRU Prime round 3: p = 761, q = 4591, w = 286), the
 * post-quantum half of sntrup761x25519-sha512.
 *
 * keypair makes a public key (to send) and a secret key (to keep);
 * enc turns a peer's public key into a ciphertext (to send back) and a
 * 32-byte shared secret; dec turns that ciphertext and the secret key
 * into the same shared secret. dec never reports a bad ciphertext: a
 * ciphertext that is not the honest encryption gives a pseudorandom
 * secret the peer cannot know ("implicit rejection"), so the key
 * exchange fails later, on the MACs. Only a ciphertext or public key of
 * the wrong length is refused (ERR_INVALID_FORMAT).
 *
 * Randomness comes from RAND_bytes, or from a caller's generator (the
 * _rng variants, for known-answer tests): it is asked for 4*761 bytes
 * per random polynomial (little-endian 32-bit words, the spec's
 * urandom32 in order) and 191 bytes for the secret key's rho.
 * The secret key must be wiped by its owner after use.
 */
#ifndef MOAT_SNTRUP761_H
#define MOAT_SNTRUP761_H

#include <stddef.h>

#define SNTRUP761_PUBLICKEY_SIZE	1158
#define SNTRUP761_SECRETKEY_SIZE	1763
#define SNTRUP761_CIPHERTEXT_SIZE	1039
#define SNTRUP761_SHARED_SIZE		32

/* Fills buf with len random bytes; 0 on success or an ERR_* code. */
typedef int sntrup761_rng_fn(void *arg, unsigned char *buf, size_t len);

int sntrup761_keypair(unsigned char pk[SNTRUP761_PUBLICKEY_SIZE],
    unsigned char sk[SNTRUP761_SECRETKEY_SIZE]);
/* pk is the peer's public key, pklen bytes. */
int sntrup761_enc(unsigned char ct[SNTRUP761_CIPHERTEXT_SIZE],
    unsigned char ss[SNTRUP761_SHARED_SIZE],
    const unsigned char *pk, size_t pklen);
/* ct is the peer's ciphertext, ctlen bytes. */
int sntrup761_dec(unsigned char ss[SNTRUP761_SHARED_SIZE],
    const unsigned char *ct, size_t ctlen,
    const unsigned char sk[SNTRUP761_SECRETKEY_SIZE]);

int sntrup761_keypair_rng(unsigned char pk[SNTRUP761_PUBLICKEY_SIZE],
    unsigned char sk[SNTRUP761_SECRETKEY_SIZE],
    sntrup761_rng_fn *rng, void *arg);
int sntrup761_enc_rng(unsigned char ct[SNTRUP761_CIPHERTEXT_SIZE],
    unsigned char ss[SNTRUP761_SHARED_SIZE],
    const unsigned char *pk, size_t pklen,
    sntrup761_rng_fn *rng, void *arg);

#endif
