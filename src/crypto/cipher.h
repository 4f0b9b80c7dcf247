/*
 * cipher.h: the SSH transport ciphers, one table row per algorithm, over
 * libcrypto EVP.
 *
 * Packet-level interface, the same for every cipher so the packet layer
 * has no per-cipher branches:
 *
 *   cipher_crypt(ctx, seqnr, dst, src, len, aadlen, authlen)
 *     The first aadlen bytes of src (the 4-byte packet length for AEAD
 *     ciphers and for encrypt-then-MAC, else 0) are copied to dst and, for
 *     AEAD ciphers, authenticated but not encrypted (chacha20-poly1305
 *     alone encrypts them, with its length key K_1). The next len bytes
 *     are encrypted or decrypted into dst + aadlen. When authlen != 0 (AEAD
 *     only, equal to alg->auth_len): encrypting writes the tag to
 *     dst + aadlen + len; decrypting verifies the tag at
 *     src + aadlen + len in constant time and returns ERR_MAC_INVALID on
 *     mismatch (dst contents are then undefined). dst may equal src.
 *     len must be a multiple of alg->block_size.
 *
 *   cipher_get_length(ctx, &plen, seqnr, src, srclen)
 *     The packet length of an incoming packet whose first bytes are src.
 *     For chacha20-poly1305 the length field is itself encrypted (with K_1,
 *     PROTOCOL.chacha20poly1305); it is decrypted without touching any
 *     state, and the tag is not checked yet. For the others it is read
 *     as plain bytes (callers use it only when aadlen is 4).
 *     ERR_MESSAGE_INCOMPLETE if srclen < 4.
 *
 * AES-GCM (RFC 5647 as OpenSSH uses it): 12-byte IV from key derivation,
 * the 64-bit invocation counter (last 8 bytes of the IV) incremented
 * after each packet; the packet length is AAD.
 * chacha20-poly1305@openssh.com: 64-byte key (K_2 = first 32 bytes for
 * the payload, K_1 = last 32 for the length), nonce = seqnr as 64-bit BE.
 * AES-CTR: plain stream, IV is the 16-byte initial counter.
 */
#ifndef MOAT_CIPHER_H
#define MOAT_CIPHER_H

#include <stdint.h>

#define CIPHER_AEAD		0x01	/* tag appended, no separate MAC */
#define CIPHER_LENGTH_ENCRYPTED	0x02	/* chacha20-poly1305 */

struct cipher_alg {
	const char *name;
	unsigned int block_size;	/* padding multiple: 8 or 16 */
	unsigned int key_len;		/* bytes of key material */
	unsigned int iv_len;		/* bytes of IV material (0: none) */
	unsigned int auth_len;		/* AEAD tag length (0: none) */
	unsigned int flags;
	const void *impl;		/* private to cipher.c */
};

struct cipher_ctx;

/* Look up by exact name; NULL if unknown. */
const struct cipher_alg *cipher_by_name(const char *name);
/* Comma-separated names of every supported cipher, in preference order. */
const char *cipher_all_names(void);
/* OpenSSH 10.5's default Ciphers list. */
const char *cipher_default_names(void);

/* encrypt: 1 to encrypt, 0 to decrypt. Key and IV lengths must match. */
int cipher_init(struct cipher_ctx **ctxp, const struct cipher_alg *alg,
    const unsigned char *key, unsigned int keylen,
    const unsigned char *iv, unsigned int ivlen, int encrypt);
int cipher_crypt(struct cipher_ctx *ctx, uint32_t seqnr, unsigned char *dst,
    const unsigned char *src, unsigned int len, unsigned int aadlen,
    unsigned int authlen);
int cipher_get_length(struct cipher_ctx *ctx, uint32_t *plenp,
    uint32_t seqnr, const unsigned char *src, unsigned int srclen);
const struct cipher_alg *cipher_ctx_alg(const struct cipher_ctx *ctx);
/*
 * What another process needs to go on where ctx stands: the key
 * (alg->key_len bytes) and the IV the next packet starts from
 * (alg->iv_len bytes; none for chacha20-poly1305, whose nonce is the
 * sequence number): the CBC chaining block, the CTR counter, the GCM
 * invocation counter. cipher_init() with them continues the stream.
 * Only between packets (every call so far a whole number of blocks).
 */
int cipher_export(const struct cipher_ctx *ctx, unsigned char *key,
    unsigned char *iv);
/* Frees and wipes; NULL is a no-op. */
void cipher_free(struct cipher_ctx *ctx);

#endif
