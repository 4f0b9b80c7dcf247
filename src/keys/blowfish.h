/*
 * blowfish.h: the Blowfish block cipher (Schneier, 1993) with the
 * Eksblowfish key schedule bcrypt needs. Only bcrypt_pbkdf uses it;
 * libcrypto does not expose the expensive key setup.
 */
#ifndef MOAT_BLOWFISH_H
#define MOAT_BLOWFISH_H

#include <stddef.h>
#include <stdint.h>

struct blowfish {
	uint32_t p[18];
	uint32_t s[4][256];
};

/* Load the initial state (the digits of pi). */
void blowfish_init(struct blowfish *bf);
/* Standard Blowfish key schedule: init, then expand with key. */
void blowfish_setkey(struct blowfish *bf, const uint8_t *key, size_t keylen);
/*
 * Eksblowfish ExpandKey: XOR key into P, then re-encrypt the state,
 * mixing in data (salt) as it goes. data may be NULL (datalen 0) for
 * the plain "expand0" form. keylen and datalen must be > 0 if used.
 */
void blowfish_expand(struct blowfish *bf, const uint8_t *data,
    size_t datalen, const uint8_t *key, size_t keylen);
void blowfish_encrypt(const struct blowfish *bf, uint32_t *l, uint32_t *r);
void blowfish_decrypt(const struct blowfish *bf, uint32_t *l, uint32_t *r);

#endif
