/*
 * mac.c: the SSH transport MACs, one table row per algorithm.
 *
 * The hmac-* rows are HMAC over uint32(seqnr) || data, with libcrypto's
 * EVP_MAC "HMAC". The context is made and keyed once in mac_init; each
 * packet re-initialises it with a NULL key, which keeps the key, so the
 * key schedule is not redone per packet. (OpenSSL 3.0's HMAC still
 * copies its inner and outer digest states on re-init, which allocates
 * inside libcrypto; later releases copy in place.)
 *
 * The umac-*@openssh.com rows are UMAC (RFC 4418, umac.c) as OpenSSH
 * uses it: the MAC is over the data alone, and the sequence number is the
 * nonce, as 8 bytes uint64(seqnr) big-endian. The UMAC context (derived
 * keys and the pad AES) is built once in mac_init.
 *
 * A row's impl gives its init and compute functions, so HMAC and UMAC are
 * told apart by the table, not by tests in the code.
 *
 * The *-etm@openssh.com rows differ only in the etm flag, which tells the
 * packet layer what data to feed in (see mac.h).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "err.h"
#include "mac.h"
#include "mem.h"
#include "umac.h"

#define MAC_MAX_LEN	64	/* SHA-512 */
#define MAC_MAX_KEY_LEN	64	/* hmac-sha2-512 */

struct mac_ctx;

struct mac_impl {
	int (*init)(struct mac_ctx *, const unsigned char *, unsigned int);
	int (*compute)(struct mac_ctx *, uint32_t, const unsigned char *,
	    size_t, unsigned char *);
	const char *digest;	/* HMAC: libcrypto digest name */
	unsigned int full_len;	/* HMAC: digest output, before truncation */
};

struct mac_ctx {
	const struct mac_alg *alg;
	EVP_MAC_CTX *evp;	/* HMAC */
	struct umac_ctx *umac;	/* UMAC */
	unsigned char key[MAC_MAX_KEY_LEN];	/* for mac_export() */
};

static int hmac_init(struct mac_ctx *, const unsigned char *, unsigned int);
static int hmac_compute(struct mac_ctx *, uint32_t, const unsigned char *,
    size_t, unsigned char *);
static int umac_mac_init(struct mac_ctx *, const unsigned char *,
    unsigned int);
static int umac_mac_compute(struct mac_ctx *, uint32_t,
    const unsigned char *, size_t, unsigned char *);

static const struct mac_impl impl_md5 =
	{ hmac_init, hmac_compute, "MD5", 16 };
static const struct mac_impl impl_sha1 =
	{ hmac_init, hmac_compute, "SHA1", 20 };
static const struct mac_impl impl_sha256 =
	{ hmac_init, hmac_compute, "SHA2-256", 32 };
static const struct mac_impl impl_sha512 =
	{ hmac_init, hmac_compute, "SHA2-512", 64 };
static const struct mac_impl impl_umac =
	{ umac_mac_init, umac_mac_compute, NULL, 0 };

/*
 * In the order of OpenSSH's `ssh -Q mac`. The -96 rows are the same HMAC
 * cut to its first 12 bytes (RFC 2104 section 5, RFC 4253 section 6.4);
 * hmac-md5* and the -96 forms are off by default, as in OpenSSH.
 */
static const struct mac_alg macs[] = {
	{ "hmac-sha1", 20, 20, 0, &impl_sha1 },
	{ "hmac-sha1-96", 20, 12, 0, &impl_sha1 },
	{ "hmac-sha2-256", 32, 32, 0, &impl_sha256 },
	{ "hmac-sha2-512", 64, 64, 0, &impl_sha512 },
	{ "hmac-md5", 16, 16, 0, &impl_md5 },
	{ "hmac-md5-96", 16, 12, 0, &impl_md5 },
	{ "umac-64@openssh.com", 16, 8, 0, &impl_umac },
	{ "umac-128@openssh.com", 16, 16, 0, &impl_umac },
	{ "hmac-sha1-etm@openssh.com", 20, 20, 1, &impl_sha1 },
	{ "hmac-sha1-96-etm@openssh.com", 20, 12, 1, &impl_sha1 },
	{ "hmac-sha2-256-etm@openssh.com", 32, 32, 1, &impl_sha256 },
	{ "hmac-sha2-512-etm@openssh.com", 64, 64, 1, &impl_sha512 },
	{ "hmac-md5-etm@openssh.com", 16, 16, 1, &impl_md5 },
	{ "hmac-md5-96-etm@openssh.com", 16, 12, 1, &impl_md5 },
	{ "umac-64-etm@openssh.com", 16, 8, 1, &impl_umac },
	{ "umac-128-etm@openssh.com", 16, 16, 1, &impl_umac },
};

#define NMACS (sizeof(macs) / sizeof(macs[0]))

const struct mac_alg *
mac_by_name(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < NMACS; i++)
		if (strcmp(macs[i].name, name) == 0)
			return &macs[i];
	return NULL;
}

const char *
mac_all_names(void)
{
	return "hmac-sha1,hmac-sha1-96,hmac-sha2-256,hmac-sha2-512,"
	    "hmac-md5,hmac-md5-96,umac-64@openssh.com,umac-128@openssh.com,"
	    "hmac-sha1-etm@openssh.com,hmac-sha1-96-etm@openssh.com,"
	    "hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,"
	    "hmac-md5-etm@openssh.com,hmac-md5-96-etm@openssh.com,"
	    "umac-64-etm@openssh.com,umac-128-etm@openssh.com";
}

const char *
mac_default_names(void)
{
	return "umac-64-etm@openssh.com,umac-128-etm@openssh.com,"
	    "hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,"
	    "hmac-sha1-etm@openssh.com,"
	    "umac-64@openssh.com,umac-128@openssh.com,"
	    "hmac-sha2-256,hmac-sha2-512,hmac-sha1";
}

static int
hmac_init(struct mac_ctx *ctx, const unsigned char *key, unsigned int keylen)
{
	const struct mac_impl *impl = ctx->alg->impl;
	EVP_MAC *mac = NULL;
	OSSL_PARAM params[2];
	int r;

	if ((mac = EVP_MAC_fetch(NULL, OSSL_MAC_NAME_HMAC, NULL)) == NULL) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	if ((ctx->evp = EVP_MAC_CTX_new(mac)) == NULL) {
		r = ERR_ALLOC;
		goto out;
	}
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
	    (char *)impl->digest, 0);
	params[1] = OSSL_PARAM_construct_end();
	if (EVP_MAC_init(ctx->evp, key, keylen, params) != 1 ||
	    EVP_MAC_CTX_get_mac_size(ctx->evp) != impl->full_len ||
	    ctx->alg->mac_len > impl->full_len) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	r = 0;
 out:
	EVP_MAC_free(mac);
	return r;
}

static int
hmac_compute(struct mac_ctx *ctx, uint32_t seqnr,
    const unsigned char *data, size_t len, unsigned char *out)
{
	const struct mac_impl *impl = ctx->alg->impl;
	unsigned char seq[4], full[MAC_MAX_LEN];
	size_t outl;
	int r = 0;

	seq[0] = (unsigned char)(seqnr >> 24);
	seq[1] = (unsigned char)(seqnr >> 16);
	seq[2] = (unsigned char)(seqnr >> 8);
	seq[3] = (unsigned char)seqnr;
	if (EVP_MAC_init(ctx->evp, NULL, 0, NULL) != 1 ||
	    EVP_MAC_update(ctx->evp, seq, sizeof(seq)) != 1 ||
	    (len != 0 && EVP_MAC_update(ctx->evp, data, len) != 1))
		return ERR_LIBCRYPTO;
	if (ctx->alg->mac_len == impl->full_len) {
		if (EVP_MAC_final(ctx->evp, out, &outl, impl->full_len) != 1 ||
		    outl != impl->full_len)
			r = ERR_LIBCRYPTO;
		return r;
	}
	/* A truncated form (-96): the first mac_len bytes of the HMAC. */
	if (EVP_MAC_final(ctx->evp, full, &outl, sizeof(full)) != 1 ||
	    outl != impl->full_len)
		r = ERR_LIBCRYPTO;
	else
		memcpy(out, full, ctx->alg->mac_len);
	x_wipe(full, sizeof(full));
	return r;
}

static int
umac_mac_init(struct mac_ctx *ctx, const unsigned char *key,
    unsigned int keylen)
{
	if (keylen != UMAC_KEY_LEN)
		return ERR_INVALID_ARGUMENT;
	return umac_new(&ctx->umac, key, ctx->alg->mac_len);
}

/* The nonce is the sequence number as uint64 big-endian. */
static int
umac_mac_compute(struct mac_ctx *ctx, uint32_t seqnr,
    const unsigned char *data, size_t len, unsigned char *out)
{
	unsigned char nonce[8];

	nonce[0] = nonce[1] = nonce[2] = nonce[3] = 0;
	nonce[4] = (unsigned char)(seqnr >> 24);
	nonce[5] = (unsigned char)(seqnr >> 16);
	nonce[6] = (unsigned char)(seqnr >> 8);
	nonce[7] = (unsigned char)seqnr;
	return umac_tag(ctx->umac, data, len, nonce, sizeof(nonce), out);
}

int
mac_init(struct mac_ctx **ctxp, const struct mac_alg *alg,
    const unsigned char *key, unsigned int keylen)
{
	const struct mac_impl *impl;
	struct mac_ctx *ctx = NULL;
	int r;

	if (ctxp != NULL)
		*ctxp = NULL;
	if (ctxp == NULL || alg == NULL || (impl = alg->impl) == NULL ||
	    key == NULL || keylen != alg->key_len)
		return ERR_INVALID_ARGUMENT;
	if (keylen > MAC_MAX_KEY_LEN)
		return ERR_INTERNAL;
	ctx = x_calloc(1, sizeof(*ctx));
	ctx->alg = alg;
	memcpy(ctx->key, key, keylen);
	if ((r = impl->init(ctx, key, keylen)) != 0)
		goto out;
	*ctxp = ctx;
	ctx = NULL;
 out:
	mac_free(ctx);
	return r;
}

int
mac_compute(struct mac_ctx *ctx, uint32_t seqnr,
    const unsigned char *data, size_t len, unsigned char *out)
{
	const struct mac_impl *impl;

	if (ctx == NULL || out == NULL || (data == NULL && len != 0))
		return ERR_INVALID_ARGUMENT;
	impl = ctx->alg->impl;
	return impl->compute(ctx, seqnr, data, len, out);
}

int
mac_check(struct mac_ctx *ctx, uint32_t seqnr,
    const unsigned char *data, size_t len, const unsigned char *tag)
{
	unsigned char want[MAC_MAX_LEN];
	int r;

	if (ctx == NULL || tag == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((r = mac_compute(ctx, seqnr, data, len, want)) != 0)
		goto out;
	r = x_ct_eq(want, tag, ctx->alg->mac_len) ? 0 : ERR_MAC_INVALID;
 out:
	x_wipe(want, sizeof(want));
	return r;
}

const struct mac_alg *
mac_ctx_alg(const struct mac_ctx *ctx)
{
	return ctx == NULL ? NULL : ctx->alg;
}

int
mac_export(const struct mac_ctx *ctx, unsigned char *key)
{
	if (ctx == NULL || key == NULL)
		return ERR_INVALID_ARGUMENT;
	memcpy(key, ctx->key, ctx->alg->key_len);
	return 0;
}

void
mac_free(struct mac_ctx *ctx)
{
	if (ctx == NULL)
		return;
	EVP_MAC_CTX_free(ctx->evp);	/* wipes the HMAC key state */
	umac_free(ctx->umac);		/* wipes the UMAC keys */
	x_freezero(ctx, sizeof(*ctx));
}
