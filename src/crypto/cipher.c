/*
 * cipher.c: the SSH transport cipher table and the AES modes.
 *
 * A cipher is one row of ciphers[] (name, sizes, flags) whose impl points
 * at a struct cipher_impl with its operations; cipher_init/crypt/
 * get_length only dispatch through it. Every libcrypto context is made
 * in cipher_init and reused for every packet, so the packet path
 * allocates nothing.
 *
 * aes*-ctr: one EVP context per direction for the whole connection; the
 *   counter runs on across packets. Bytes before aadlen (the plain length
 *   of an encrypt-then-MAC packet) are copied untouched.
 * aes*-gcm@openssh.com (RFC 5647): the 12-byte IV is a 4-byte fixed field
 *   and an 8-byte big-endian invocation counter; we keep the next IV in
 *   the context, set it before each packet and add one to the counter
 *   after it. The 4-byte packet length is AAD, left in clear; the 16-byte
 *   tag follows the ciphertext. libcrypto checks the tag (in constant
 *   time) when the packet is finished.
 * aes*-cbc, 3des-cbc (RFC 4253; off by default, for old equipment): the
 *   same as CTR from the packet layer's view: one EVP context per
 *   direction, no padding, the chaining state runs on across packets (the
 *   last ciphertext block of a packet is the IV of the next).
 * chacha20-poly1305@openssh.com lives in cipher_chachapoly.c.
 */
#include <string.h>

#include "cipher_int.h"
#include "err.h"
#include "mem.h"

#define GCM_TAG_LEN	16

static int
aes_init(struct cipher_ctx *ctx, const unsigned char *key,
    const unsigned char *iv)
{
	const struct cipher_impl *impl = ctx->alg->impl;

	if ((ctx->evp = EVP_CIPHER_CTX_new()) == NULL)
		return ERR_ALLOC;
	if (EVP_CipherInit_ex(ctx->evp, impl->evp(), NULL, NULL, NULL,
	    ctx->encrypt) != 1 ||
	    EVP_CIPHER_CTX_set_padding(ctx->evp, 0) != 1)
		return ERR_LIBCRYPTO;
	if ((unsigned int)EVP_CIPHER_CTX_get_key_length(ctx->evp) !=
	    ctx->alg->key_len)
		return ERR_INTERNAL;
	if (ctx->alg->auth_len != 0) {
		/* GCM: key now, the IV packet by packet. */
		if (EVP_CIPHER_CTX_ctrl(ctx->evp, EVP_CTRL_AEAD_SET_IVLEN,
		    CIPHER_GCM_IV_LEN, NULL) != 1 ||
		    EVP_CipherInit_ex(ctx->evp, NULL, NULL, key, NULL,
		    -1) != 1)
			return ERR_LIBCRYPTO;
		memcpy(ctx->iv, iv, CIPHER_GCM_IV_LEN);
		return 0;
	}
	if (EVP_CipherInit_ex(ctx->evp, NULL, NULL, key, iv, -1) != 1)
		return ERR_LIBCRYPTO;
	return 0;
}

/* Run len bytes through the stream or mode; len fits in an int. */
static int
evp_update(EVP_CIPHER_CTX *evp, unsigned char *dst, const unsigned char *src,
    unsigned int len)
{
	int outl;

	if (len == 0)
		return 0;
	if (EVP_CipherUpdate(evp, dst, &outl, src, (int)len) != 1 ||
	    (unsigned int)outl != len)
		return ERR_LIBCRYPTO;
	return 0;
}

static int
ctr_crypt(struct cipher_ctx *ctx, uint32_t seqnr, unsigned char *dst,
    const unsigned char *src, unsigned int len, unsigned int aadlen,
    unsigned int authlen)
{
	if (authlen != 0)
		return ERR_INVALID_ARGUMENT;
	if (aadlen != 0 && dst != src)
		memmove(dst, src, aadlen);
	return evp_update(ctx->evp, dst + aadlen, src + aadlen, len);
}

static void
gcm_next_iv(unsigned char *iv)
{
	int i;

	/* 64-bit big-endian invocation counter in bytes 4..11. */
	for (i = CIPHER_GCM_IV_LEN - 1; i >= 4; i--)
		if (++iv[i] != 0)
			break;
}

static int
gcm_crypt(struct cipher_ctx *ctx, uint32_t seqnr, unsigned char *dst,
    const unsigned char *src, unsigned int len, unsigned int aadlen,
    unsigned int authlen)
{
	unsigned char tag[GCM_TAG_LEN];
	int r, outl;

	if (authlen != GCM_TAG_LEN)
		return ERR_INVALID_ARGUMENT;
	if (EVP_CipherInit_ex(ctx->evp, NULL, NULL, NULL, ctx->iv, -1) != 1)
		return ERR_LIBCRYPTO;
	gcm_next_iv(ctx->iv);
	if (!ctx->encrypt) {
		memcpy(tag, src + aadlen + len, sizeof(tag));
		if (EVP_CIPHER_CTX_ctrl(ctx->evp, EVP_CTRL_AEAD_SET_TAG,
		    sizeof(tag), tag) != 1)
			return ERR_LIBCRYPTO;
	}
	if (aadlen != 0) {
		if (EVP_CipherUpdate(ctx->evp, NULL, &outl, src,
		    (int)aadlen) != 1)
			return ERR_LIBCRYPTO;
		if (dst != src)
			memmove(dst, src, aadlen);
	}
	if ((r = evp_update(ctx->evp, dst + aadlen, src + aadlen, len)) != 0)
		return r;
	if (EVP_CipherFinal_ex(ctx->evp, dst + aadlen + len, &outl) != 1)
		return ctx->encrypt ? ERR_LIBCRYPTO : ERR_MAC_INVALID;
	if (ctx->encrypt && EVP_CIPHER_CTX_ctrl(ctx->evp,
	    EVP_CTRL_AEAD_GET_TAG, GCM_TAG_LEN, dst + aadlen + len) != 1)
		return ERR_LIBCRYPTO;
	return 0;
}

static int
plain_get_length(struct cipher_ctx *ctx, uint32_t *plenp, uint32_t seqnr,
    const unsigned char *src)
{
	*plenp = (uint32_t)src[0] << 24 | (uint32_t)src[1] << 16 |
	    (uint32_t)src[2] << 8 | src[3];
	return 0;
}

static const struct cipher_impl impl_aes128_ctr = {
	EVP_aes_128_ctr, aes_init, ctr_crypt, plain_get_length
};
static const struct cipher_impl impl_aes192_ctr = {
	EVP_aes_192_ctr, aes_init, ctr_crypt, plain_get_length
};
static const struct cipher_impl impl_aes256_ctr = {
	EVP_aes_256_ctr, aes_init, ctr_crypt, plain_get_length
};
static const struct cipher_impl impl_aes128_cbc = {
	EVP_aes_128_cbc, aes_init, ctr_crypt, plain_get_length
};
static const struct cipher_impl impl_aes192_cbc = {
	EVP_aes_192_cbc, aes_init, ctr_crypt, plain_get_length
};
static const struct cipher_impl impl_aes256_cbc = {
	EVP_aes_256_cbc, aes_init, ctr_crypt, plain_get_length
};
static const struct cipher_impl impl_3des_cbc = {
	EVP_des_ede3_cbc, aes_init, ctr_crypt, plain_get_length
};
static const struct cipher_impl impl_aes128_gcm = {
	EVP_aes_128_gcm, aes_init, gcm_crypt, plain_get_length
};
static const struct cipher_impl impl_aes256_gcm = {
	EVP_aes_256_gcm, aes_init, gcm_crypt, plain_get_length
};

/* In the order of OpenSSH's `ssh -Q cipher`. */
static const struct cipher_alg ciphers[] = {
	{ "3des-cbc", 8, 24, 8, 0, 0, &impl_3des_cbc },
	{ "aes128-cbc", 16, 16, 16, 0, 0, &impl_aes128_cbc },
	{ "aes192-cbc", 16, 24, 16, 0, 0, &impl_aes192_cbc },
	{ "aes256-cbc", 16, 32, 16, 0, 0, &impl_aes256_cbc },
	{ "aes128-ctr", 16, 16, 16, 0, 0, &impl_aes128_ctr },
	{ "aes192-ctr", 16, 24, 16, 0, 0, &impl_aes192_ctr },
	{ "aes256-ctr", 16, 32, 16, 0, 0, &impl_aes256_ctr },
	{ "aes128-gcm@openssh.com", 16, 16, 12, 16, CIPHER_AEAD,
	    &impl_aes128_gcm },
	{ "aes256-gcm@openssh.com", 16, 32, 12, 16, CIPHER_AEAD,
	    &impl_aes256_gcm },
	{ "chacha20-poly1305@openssh.com", 8, 64, 0, 16,
	    CIPHER_AEAD | CIPHER_LENGTH_ENCRYPTED, &cipher_impl_chachapoly },
};

#define NCIPHERS (sizeof(ciphers) / sizeof(ciphers[0]))

const struct cipher_alg *
cipher_by_name(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < NCIPHERS; i++)
		if (strcmp(ciphers[i].name, name) == 0)
			return &ciphers[i];
	return NULL;
}

const char *
cipher_all_names(void)
{
	return "3des-cbc,aes128-cbc,aes192-cbc,aes256-cbc,"
	    "aes128-ctr,aes192-ctr,aes256-ctr,"
	    "aes128-gcm@openssh.com,aes256-gcm@openssh.com,"
	    "chacha20-poly1305@openssh.com";
}

/* OpenSSH 10.5's default Ciphers (myproposal.h): AEAD first. */
const char *
cipher_default_names(void)
{
	return "chacha20-poly1305@openssh.com,"
	    "aes128-gcm@openssh.com,aes256-gcm@openssh.com,"
	    "aes128-ctr,aes192-ctr,aes256-ctr";
}

int
cipher_init(struct cipher_ctx **ctxp, const struct cipher_alg *alg,
    const unsigned char *key, unsigned int keylen,
    const unsigned char *iv, unsigned int ivlen, int encrypt)
{
	const struct cipher_impl *impl;
	struct cipher_ctx *ctx;
	int r;

	if (ctxp != NULL)
		*ctxp = NULL;
	if (ctxp == NULL || alg == NULL || (impl = alg->impl) == NULL)
		return ERR_INVALID_ARGUMENT;
	if (keylen != alg->key_len || ivlen != alg->iv_len ||
	    key == NULL || (ivlen != 0 && iv == NULL))
		return ERR_INVALID_ARGUMENT;
	if (keylen > sizeof(ctx->key) || ivlen > EVP_MAX_IV_LENGTH)
		return ERR_INTERNAL;
	ctx = x_calloc(1, sizeof(*ctx));
	ctx->alg = alg;
	ctx->encrypt = encrypt != 0;
	memcpy(ctx->key, key, keylen);
	if ((r = impl->init(ctx, key, iv)) != 0) {
		cipher_free(ctx);
		return r;
	}
	*ctxp = ctx;
	return 0;
}

int
cipher_crypt(struct cipher_ctx *ctx, uint32_t seqnr, unsigned char *dst,
    const unsigned char *src, unsigned int len, unsigned int aadlen,
    unsigned int authlen)
{
	const struct cipher_impl *impl;

	if (ctx == NULL || dst == NULL || src == NULL)
		return ERR_INVALID_ARGUMENT;
	impl = ctx->alg->impl;
	if (len % ctx->alg->block_size != 0 || len > INT32_MAX ||
	    aadlen > INT32_MAX - len)
		return ERR_INVALID_ARGUMENT;
	return impl->crypt(ctx, seqnr, dst, src, len, aadlen, authlen);
}

int
cipher_get_length(struct cipher_ctx *ctx, uint32_t *plenp, uint32_t seqnr,
    const unsigned char *src, unsigned int srclen)
{
	const struct cipher_impl *impl;

	if (ctx == NULL || plenp == NULL || src == NULL)
		return ERR_INVALID_ARGUMENT;
	if (srclen < 4)
		return ERR_MESSAGE_INCOMPLETE;
	impl = ctx->alg->impl;
	return impl->get_length(ctx, plenp, seqnr, src);
}

const struct cipher_alg *
cipher_ctx_alg(const struct cipher_ctx *ctx)
{
	return ctx == NULL ? NULL : ctx->alg;
}

int
cipher_export(const struct cipher_ctx *ctx, unsigned char *key,
    unsigned char *iv)
{
	const struct cipher_alg *alg;

	if (ctx == NULL || key == NULL)
		return ERR_INVALID_ARGUMENT;
	alg = ctx->alg;
	if (alg->iv_len != 0) {
		if (iv == NULL)
			return ERR_INVALID_ARGUMENT;
		if (alg->auth_len != 0)
			memcpy(iv, ctx->iv, alg->iv_len);
		else if (EVP_CIPHER_CTX_get_num(ctx->evp) != 0 ||
		    EVP_CIPHER_CTX_get_updated_iv(ctx->evp, iv,
		    alg->iv_len) != 1)
			return ERR_LIBCRYPTO;
	}
	memcpy(key, ctx->key, alg->key_len);
	return 0;
}

void
cipher_free(struct cipher_ctx *ctx)
{
	if (ctx == NULL)
		return;
	/* EVP_*_free wipe the key schedules they hold. */
	EVP_CIPHER_CTX_free(ctx->evp);
	EVP_CIPHER_CTX_free(ctx->evp_len);
	EVP_MAC_CTX_free(ctx->poly);
	x_freezero(ctx, sizeof(*ctx));
}
