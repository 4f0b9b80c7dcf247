/*
 * bcrypt_pbkdf.h: the key derivation function of openssh-key-v1 private
 * key files (PROTOCOL.key, kdf "bcrypt"): a PBKDF2-like construction
 * whose PRF is a bcrypt-style hash built on Eksblowfish.
 */
#ifndef MOAT_BCRYPT_PBKDF_H
#define MOAT_BCRYPT_PBKDF_H

#include <stddef.h>
#include <stdint.h>

/* Derive keylen bytes (at most 1024) into key. 0 or ERR_INVALID_ARGUMENT. */
int bcrypt_pbkdf(const char *pass, size_t passlen, const uint8_t *salt,
    size_t saltlen, uint8_t *key, size_t keylen, unsigned int rounds);

#endif
