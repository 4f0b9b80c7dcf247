/*
 * cipher_chachapoly.c: chacha20-poly1305@openssh.com over libcrypto.
 *
 * The 64-byte key is two chacha20 keys: K_2 (first 32 bytes) encrypts the
 * payload and yields the poly1305 key, K_1 (last 32 bytes) encrypts only
 * the 4-byte packet length. The nonce of both is the packet sequence
 * number as a 64-bit big-endian value. For each packet:
 *
 *   poly_key = first 32 bytes of chacha20(K_2, nonce, block 0)
 *   length   = chacha20(K_1, nonce, block 0) XOR plain length
 *   payload  = chacha20(K_2, nonce, from block 1) XOR plain payload
 *   tag      = poly1305(poly_key, encrypted length || encrypted payload)
 *
 * EVP_chacha20 takes a 16-byte IV: a 32-bit little-endian block counter
 * then a 96-bit nonce. This construction uses a 64-bit counter and a
 * 64-bit nonce, so its IV is counter(LE32) || 0(32) || seqnr(BE64). We
 * key the two stream contexts and the poly1305 context once in init and
 * only set the IV per packet, so the packet path allocates nothing.
 * Deriving poly_key runs the K_2 stream over one whole 64-byte block,
 * which leaves it at block 1, ready for the payload.
 *
 * On decryption the tag is checked, in constant time, before anything is
 * decrypted.
 */
#include <string.h>

#include <openssl/core_names.h>

#include "cipher_int.h"
#include "err.h"
#include "mem.h"

#define CHACHA_BLOCK_LEN	64

static const unsigned char zero_block[CHACHA_BLOCK_LEN];

int
chachapoly_new_stream(EVP_CIPHER_CTX **cp, const unsigned char *key)
{
	EVP_CIPHER_CTX *c;

	*cp = NULL;
	if ((c = EVP_CIPHER_CTX_new()) == NULL)
		return ERR_ALLOC;
	if (EVP_CipherInit_ex(c, EVP_chacha20(), NULL, key, NULL, 1) != 1) {
		EVP_CIPHER_CTX_free(c);
		return ERR_LIBCRYPTO;
	}
	*cp = c;
	return 0;
}

int
chachapoly_new_poly(EVP_MAC_CTX **mp)
{
	EVP_MAC *mac;
	EVP_MAC_CTX *m;

	*mp = NULL;
	if ((mac = EVP_MAC_fetch(NULL, OSSL_MAC_NAME_POLY1305, NULL)) == NULL)
		return ERR_LIBCRYPTO;
	m = EVP_MAC_CTX_new(mac);
	EVP_MAC_free(mac);	/* the context holds its own reference */
	if (m == NULL)
		return ERR_ALLOC;
	*mp = m;
	return 0;
}

void
chachapoly_iv(unsigned char iv[CHACHA_EVP_IV_LEN], uint32_t counter,
    uint64_t nonce)
{
	int i;

	for (i = 0; i < 4; i++)
		iv[i] = (unsigned char)(counter >> (8 * i));
	memset(iv + 4, 0, 4);
	for (i = 0; i < 8; i++)
		iv[8 + i] = (unsigned char)(nonce >> (56 - 8 * i));
}

int
chachapoly_xor(EVP_CIPHER_CTX *c, const unsigned char *iv,
    const unsigned char *in, unsigned char *out, size_t len)
{
	int outl;

	if (len > INT32_MAX)
		return ERR_INVALID_ARGUMENT;
	if (iv != NULL && EVP_CipherInit_ex(c, NULL, NULL, NULL, iv, 1) != 1)
		return ERR_LIBCRYPTO;
	if (len == 0)
		return 0;
	if (EVP_CipherUpdate(c, out, &outl, in, (int)len) != 1 ||
	    (size_t)outl != len)
		return ERR_LIBCRYPTO;
	return 0;
}

int
chachapoly_poly1305(EVP_MAC_CTX *m, const unsigned char *key,
    const unsigned char *data, size_t len, unsigned char *tag)
{
	size_t outl;

	if (EVP_MAC_init(m, key, POLY1305_KEY_LEN, NULL) != 1 ||
	    EVP_MAC_update(m, data, len) != 1 ||
	    EVP_MAC_final(m, tag, &outl, POLY1305_TAG_LEN) != 1 ||
	    outl != POLY1305_TAG_LEN)
		return ERR_LIBCRYPTO;
	return 0;
}

static int
cp_init(struct cipher_ctx *ctx, const unsigned char *key,
    const unsigned char *iv)
{
	int r;

	if ((r = chachapoly_new_stream(&ctx->evp, key)) != 0 ||
	    (r = chachapoly_new_stream(&ctx->evp_len,
	    key + CHACHA_KEY_LEN)) != 0 ||
	    (r = chachapoly_new_poly(&ctx->poly)) != 0)
		return r;
	return 0;
}

static int
cp_crypt(struct cipher_ctx *ctx, uint32_t seqnr, unsigned char *dst,
    const unsigned char *src, unsigned int len, unsigned int aadlen,
    unsigned int authlen)
{
	unsigned char iv[CHACHA_EVP_IV_LEN];
	unsigned char block[CHACHA_BLOCK_LEN];
	unsigned char tag[POLY1305_TAG_LEN];
	size_t total = (size_t)aadlen + len;
	int r;

	if (authlen != POLY1305_TAG_LEN)
		return ERR_INVALID_ARGUMENT;

	/* poly1305 key from block 0 of K_2; leaves the stream at block 1. */
	chachapoly_iv(iv, 0, seqnr);
	if ((r = chachapoly_xor(ctx->evp, iv, zero_block, block,
	    sizeof(block))) != 0)
		goto out;

	if (!ctx->encrypt) {
		if ((r = chachapoly_poly1305(ctx->poly, block, src, total,
		    tag)) != 0)
			goto out;
		if (!x_ct_eq(tag, src + total, POLY1305_TAG_LEN)) {
			r = ERR_MAC_INVALID;
			goto out;
		}
	}

	/* Length with K_1 from block 0, payload with K_2 from block 1. */
	if ((r = chachapoly_xor(ctx->evp_len, iv, src, dst, aadlen)) != 0 ||
	    (r = chachapoly_xor(ctx->evp, NULL, src + aadlen, dst + aadlen,
	    len)) != 0)
		goto out;

	if (ctx->encrypt && (r = chachapoly_poly1305(ctx->poly, block, dst,
	    total, dst + total)) != 0)
		goto out;
	r = 0;
 out:
	x_wipe(block, sizeof(block));
	x_wipe(tag, sizeof(tag));
	return r;
}

static int
cp_get_length(struct cipher_ctx *ctx, uint32_t *plenp, uint32_t seqnr,
    const unsigned char *src)
{
	unsigned char iv[CHACHA_EVP_IV_LEN], buf[4];
	int r;

	chachapoly_iv(iv, 0, seqnr);
	if ((r = chachapoly_xor(ctx->evp_len, iv, src, buf, sizeof(buf))) != 0)
		return r;
	*plenp = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 |
	    (uint32_t)buf[2] << 8 | buf[3];
	x_wipe(buf, sizeof(buf));
	return 0;
}

const struct cipher_impl cipher_impl_chachapoly = {
	NULL, cp_init, cp_crypt, cp_get_length
};
