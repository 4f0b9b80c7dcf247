/*
 * bcrypt_pbkdf.c: the "bcrypt" KDF of openssh-key-v1 files.
 *
 * Like PBKDF2, the output is built from blocks; each block i is the XOR
 * of `rounds` chained PRF outputs, and the PRF is
 *	bcrypt_hash(SHA512(pass), SHA512(salt || be32(i))) then
 *	bcrypt_hash(SHA512(pass), SHA512(previous output)) ...
 * bcrypt_hash sets up Eksblowfish with the hashed salt and password, then
 * 64 times expands with salt alone and password alone, and encrypts the
 * 32-byte text "OxychromaticBlowfishSwatDynamite" 64 times in ECB; the
 * eight result words are emitted little-endian.
 *
 * Unlike PBKDF2 the blocks are not concatenated: output byte j of block
 * i lands at key[j * nblocks + i], so every block is needed for any
 * prefix of the key.
 */
#include <string.h>

#include <openssl/evp.h>

#include "bcrypt_pbkdf.h"
#include "blowfish.h"
#include "err.h"
#include "mem.h"

#define BHASH_WORDS	8
#define BHASH_LEN	(BHASH_WORDS * 4)
#define SHA512_LEN	64

static const char bhash_text[BHASH_LEN + 1] =
    "OxychromaticBlowfishSwatDynamite";

static void
bcrypt_hash(const uint8_t *sha2pass, const uint8_t *sha2salt,
    uint8_t *out, struct blowfish *bf)
{
	uint32_t w[BHASH_WORDS];
	size_t pos = 0;
	int i, j;

	blowfish_init(bf);
	blowfish_expand(bf, sha2salt, SHA512_LEN, sha2pass, SHA512_LEN);
	for (i = 0; i < 64; i++) {
		blowfish_expand(bf, NULL, 0, sha2salt, SHA512_LEN);
		blowfish_expand(bf, NULL, 0, sha2pass, SHA512_LEN);
	}
	for (i = 0; i < BHASH_WORDS; i++) {
		w[i] = 0;
		for (j = 0; j < 4; j++)
			w[i] = (w[i] << 8) | (uint8_t)bhash_text[pos++];
	}
	for (i = 0; i < 64; i++)
		for (j = 0; j < BHASH_WORDS; j += 2)
			blowfish_encrypt(bf, &w[j], &w[j + 1]);
	for (i = 0; i < BHASH_WORDS; i++) {
		out[4 * i] = (uint8_t)w[i];
		out[4 * i + 1] = (uint8_t)(w[i] >> 8);
		out[4 * i + 2] = (uint8_t)(w[i] >> 16);
		out[4 * i + 3] = (uint8_t)(w[i] >> 24);
	}
	x_wipe(w, sizeof(w));
}

static int
sha512(const void *d, size_t len, uint8_t *out)
{
	return EVP_Digest(d, len, out, NULL, EVP_sha512(), NULL) == 1 ? 0 :
	    ERR_LIBCRYPTO;
}

int
bcrypt_pbkdf(const char *pass, size_t passlen, const uint8_t *salt,
    size_t saltlen, uint8_t *key, size_t keylen, unsigned int rounds)
{
	struct blowfish *bf = NULL;
	uint8_t sha2pass[SHA512_LEN], sha2salt[SHA512_LEN];
	uint8_t tmp[BHASH_LEN], acc[BHASH_LEN], *csalt = NULL;
	size_t nblocks, per, blk, i, j, dest;
	unsigned int n;
	int r = ERR_INVALID_ARGUMENT;

	if (rounds < 1 || passlen == 0 || saltlen == 0 || keylen == 0 ||
	    keylen > BHASH_LEN * BHASH_LEN || saltlen > (1 << 20))
		return ERR_INVALID_ARGUMENT;
	nblocks = (keylen + BHASH_LEN - 1) / BHASH_LEN;
	per = (keylen + nblocks - 1) / nblocks;	/* bytes used per block */
	bf = x_malloc(sizeof(*bf));
	csalt = x_malloc(saltlen + 4);
	memcpy(csalt, salt, saltlen);
	if ((r = sha512(pass, passlen, sha2pass)) != 0)
		goto out;
	for (blk = 1; blk <= nblocks; blk++) {
		csalt[saltlen] = (uint8_t)(blk >> 24);
		csalt[saltlen + 1] = (uint8_t)(blk >> 16);
		csalt[saltlen + 2] = (uint8_t)(blk >> 8);
		csalt[saltlen + 3] = (uint8_t)blk;
		if ((r = sha512(csalt, saltlen + 4, sha2salt)) != 0)
			goto out;
		bcrypt_hash(sha2pass, sha2salt, tmp, bf);
		memcpy(acc, tmp, sizeof(acc));
		for (n = 1; n < rounds; n++) {
			if ((r = sha512(tmp, sizeof(tmp), sha2salt)) != 0)
				goto out;
			bcrypt_hash(sha2pass, sha2salt, tmp, bf);
			for (j = 0; j < sizeof(acc); j++)
				acc[j] ^= tmp[j];
		}
		for (i = 0; i < per; i++) {
			dest = i * nblocks + (blk - 1);
			if (dest >= keylen)
				break;
			key[dest] = acc[i];
		}
	}
	r = 0;
 out:
	x_wipe(sha2pass, sizeof(sha2pass));
	x_wipe(sha2salt, sizeof(sha2salt));
	x_wipe(tmp, sizeof(tmp));
	x_wipe(acc, sizeof(acc));
	x_freezero(bf, sizeof(*bf));
	x_freezero(csalt, saltlen + 4);
	return r;
}
