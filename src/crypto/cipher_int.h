/*
 * cipher_int.h: private to the cipher implementation files and their
 * unit test.
 *
 * Each struct cipher_alg row points (through alg->impl) at a struct
 * cipher_impl: the EVP cipher it uses (if any) and the four operations
 * that make up the packet interface of cipher.h. cipher.c holds the
 * table, the AES modes and the dispatch; cipher_chachapoly.c holds
 * chacha20-poly1305@openssh.com. The chacha20 and poly1305 helpers are
 * declared here so the unit test can feed them RFC 8439 vectors.
 */
#ifndef MOAT_CIPHER_INT_H
#define MOAT_CIPHER_INT_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "cipher.h"

#define CIPHER_GCM_IV_LEN	12
#define CHACHA_KEY_LEN		32
#define POLY1305_KEY_LEN	32
#define POLY1305_TAG_LEN	16
#define CHACHA_EVP_IV_LEN	16
#define CIPHER_MAX_KEY_LEN	64	/* chacha20-poly1305: K_2 || K_1 */

struct cipher_impl {
	const EVP_CIPHER *(*evp)(void);		/* NULL for chachapoly */
	int (*init)(struct cipher_ctx *, const unsigned char *key,
	    const unsigned char *iv);
	int (*crypt)(struct cipher_ctx *, uint32_t seqnr, unsigned char *dst,
	    const unsigned char *src, unsigned int len, unsigned int aadlen,
	    unsigned int authlen);
	int (*get_length)(struct cipher_ctx *, uint32_t *plenp,
	    uint32_t seqnr, const unsigned char *src);
};

/*
 * One direction of one connection. Everything is allocated by
 * cipher_init and reused for every packet.
 */
struct cipher_ctx {
	const struct cipher_alg *alg;
	int encrypt;
	EVP_CIPHER_CTX *evp;		/* AES; chachapoly: K_2 (payload) */
	EVP_CIPHER_CTX *evp_len;	/* chachapoly: K_1 (length) */
	EVP_MAC_CTX *poly;		/* chachapoly: poly1305 */
	unsigned char iv[CIPHER_GCM_IV_LEN];	/* GCM: next packet's IV */
	/*
	 * The key, kept (and wiped by cipher_free) so cipher_export() can
	 * hand the direction to another process; the EVP contexts hold
	 * its schedule anyway.
	 */
	unsigned char key[CIPHER_MAX_KEY_LEN];
};

extern const struct cipher_impl cipher_impl_chachapoly;

/* A chacha20 context keyed with a 32-byte key. */
int chachapoly_new_stream(EVP_CIPHER_CTX **cp, const unsigned char *key);
/* A poly1305 EVP_MAC context (keyed per use). */
int chachapoly_new_poly(EVP_MAC_CTX **mp);
/*
 * The 16-byte IV EVP_chacha20 takes (32-bit LE block counter, 96-bit
 * nonce) for the OpenSSH layout (64-bit counter, 64-bit BE nonce).
 */
void chachapoly_iv(unsigned char iv[CHACHA_EVP_IV_LEN], uint32_t counter,
    uint64_t nonce);
/* out = in XOR keystream starting at iv; the stream state is left after. */
int chachapoly_xor(EVP_CIPHER_CTX *c, const unsigned char *iv,
    const unsigned char *in, unsigned char *out, size_t len);
/* tag = poly1305(key, data). */
int chachapoly_poly1305(EVP_MAC_CTX *m, const unsigned char *key,
    const unsigned char *data, size_t len, unsigned char *tag);

#endif
