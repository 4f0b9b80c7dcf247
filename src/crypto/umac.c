/*
 * umac.c: UMAC message authentication (RFC 4418), AES-128 flavour.
 *
 * Tag = UHASH(K, M) xor PDF(K, Nonce). UHASH runs taglen/4 independent
 * "iterations", each giving 4 bytes, through three layers:
 *
 *   L1 (NH)   splits M into 1024-byte chunks, zero-pads each to a multiple
 *             of 32 bytes and hashes it with NH to 64 bits, plus the
 *             chunk's bit length. Message words are little-endian, key
 *             words big-endian. Iteration i uses the NH key shifted by
 *             16 bytes (a Toeplitz extension), so all iterations share
 *             one message load per 32-byte block.
 *   L2 (POLY) a polynomial hash mod 2^64-59 over the L1 outputs, moving
 *             to mod 2^128-159 after 2^14 of them (messages > 16 MiB).
 *             A message of one chunk skips L2.
 *   L3        an inner product mod 2^36-5 of the 128-bit L2 value with a
 *             key, truncated to 32 bits and xored with a second key.
 *
 * The keys come from the KDF (AES-128 of a counter block under K) once in
 * umac_new. PDF encrypts the nonce, its low bits cleared, under a derived
 * AES key; for 4- and 8-byte tags that bit selects a slice of the AES
 * block, so consecutive nonces share one AES call, kept in the context.
 *
 * NH dominates the cost: with SSE2 it is two 32x32->64 multiplies per
 * instruction; elsewhere plain C that the compiler may vectorise.
 */
#include <stdint.h>
#include <string.h>

#include <openssl/evp.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "err.h"
#include "mem.h"
#include "umac.h"

#define MAX_ITERS	(UMAC_MAX_TAG / 4)
#define L1_CHUNK	1024
#define NH_KEY_WORDS	(L1_CHUNK / 4 + 4 * (MAX_ITERS - 1))
#define L2_SWITCH	16384		/* L1 words hashed mod 2^64-59 */

#define P36		0x0000000ffffffffbULL	/* 2^36 - 5 */
#define P64		0xffffffffffffffc5ULL	/* 2^64 - 59 */
#define OFF64		59
#define OFF128		159			/* 2^128 - p128 */
#define MASK64		0x01ffffff01ffffffULL
#define WORDRANGE_HI	0xffffffff00000000ULL

#if defined(__GNUC__)
#define ALWAYS_INLINE	inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE	inline
#endif

struct umac_ctx {
	unsigned int taglen;
	unsigned int iters;
	uint32_t nhkey[NH_KEY_WORDS];
	uint64_t k64[MAX_ITERS];
	uint64_t k128h[MAX_ITERS], k128l[MAX_ITERS];
	uint64_t l3k1[MAX_ITERS][8];
	uint32_t l3k2[MAX_ITERS];
	EVP_CIPHER_CTX *pdf;		/* AES-128-ECB under KDF(K, 0) */
	unsigned char pdf_in[16];	/* last nonce block encrypted */
	unsigned char pdf_out[16];
	int pdf_valid;
};

static uint64_t
get_be64(const unsigned char *p)
{
	return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 |
	    (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
	    (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
	    (uint64_t)p[6] << 8 | (uint64_t)p[7];
}

static uint32_t
get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* KDF(K, index, n): AES-128 of uint64(index) || uint64(i), i = 1, 2... */
static int
kdf(EVP_CIPHER_CTX *aes, uint64_t index, unsigned char *out, size_t n)
{
	unsigned char in[16], blk[16];
	uint64_t i;
	size_t take;
	int outl, j;

	for (i = 1; n > 0; i++) {
		for (j = 0; j < 8; j++) {
			in[j] = (unsigned char)(index >> (56 - 8 * j));
			in[8 + j] = (unsigned char)(i >> (56 - 8 * j));
		}
		if (EVP_EncryptUpdate(aes, blk, &outl, in, 16) != 1 ||
		    outl != 16) {
			x_wipe(blk, sizeof(blk));
			return ERR_LIBCRYPTO;
		}
		take = n < 16 ? n : 16;
		memcpy(out, blk, take);
		out += take;
		n -= take;
	}
	x_wipe(blk, sizeof(blk));
	return 0;
}

static EVP_CIPHER_CTX *
aes_ecb_new(const unsigned char *key)
{
	EVP_CIPHER_CTX *c;

	if ((c = EVP_CIPHER_CTX_new()) == NULL)
		return NULL;
	if (EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, key, NULL) != 1 ||
	    EVP_CIPHER_CTX_set_padding(c, 0) != 1) {
		EVP_CIPHER_CTX_free(c);
		return NULL;
	}
	return c;
}

int
umac_new(struct umac_ctx **ctxp, const unsigned char *key,
    unsigned int taglen)
{
	struct umac_ctx *ctx = NULL;
	EVP_CIPHER_CTX *aes = NULL;
	unsigned char buf[L1_CHUNK + 16 * (MAX_ITERS - 1)];
	unsigned int i, j, iters;
	size_t w;
	int r;

	if (ctxp != NULL)
		*ctxp = NULL;
	if (ctxp == NULL || key == NULL ||
	    (taglen != 4 && taglen != 8 && taglen != 12 && taglen != 16))
		return ERR_INVALID_ARGUMENT;
	iters = taglen / 4;
	ctx = x_calloc(1, sizeof(*ctx));
	ctx->taglen = taglen;
	ctx->iters = iters;
	if ((aes = aes_ecb_new(key)) == NULL) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	/* PDF key. */
	if ((r = kdf(aes, 0, buf, 16)) != 0)
		goto out;
	if ((ctx->pdf = aes_ecb_new(buf)) == NULL) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	/* L1 (NH) key, as big-endian 32-bit words. */
	if ((r = kdf(aes, 1, buf, L1_CHUNK + 16 * (iters - 1))) != 0)
		goto out;
	for (w = 0; w < L1_CHUNK / 4 + 4 * (iters - 1); w++)
		ctx->nhkey[w] = get_be32(buf + 4 * w);
	/* L2 keys: 8 bytes for the 64-bit poly, 16 for the 128-bit one. */
	if ((r = kdf(aes, 2, buf, 24 * iters)) != 0)
		goto out;
	for (i = 0; i < iters; i++) {
		ctx->k64[i] = get_be64(buf + 24 * i) & MASK64;
		ctx->k128h[i] = get_be64(buf + 24 * i + 8) & MASK64;
		ctx->k128l[i] = get_be64(buf + 24 * i + 16) & MASK64;
	}
	/* L3 keys. */
	if ((r = kdf(aes, 3, buf, 64 * iters)) != 0)
		goto out;
	for (i = 0; i < iters; i++)
		for (j = 0; j < 8; j++)
			ctx->l3k1[i][j] = get_be64(buf + 64 * i + 8 * j) % P36;
	if ((r = kdf(aes, 4, buf, 4 * iters)) != 0)
		goto out;
	for (i = 0; i < iters; i++)
		ctx->l3k2[i] = get_be32(buf + 4 * i);
	*ctxp = ctx;
	ctx = NULL;
	r = 0;
 out:
	x_wipe(buf, sizeof(buf));
	EVP_CIPHER_CTX_free(aes);
	umac_free(ctx);
	return r;
}

void
umac_free(struct umac_ctx *ctx)
{
	if (ctx == NULL)
		return;
	EVP_CIPHER_CTX_free(ctx->pdf);
	x_freezero(ctx, sizeof(*ctx));
}

/*
 * NH over nblocks 32-byte blocks, adding iteration j's sum into out[j].
 * Inlined with a constant iters so the per-iteration loop unrolls.
 */
#if defined(__SSE2__)
static ALWAYS_INLINE void
nh_blocks(const uint32_t *k, const unsigned char *m, size_t nblocks,
    unsigned int iters, uint64_t *out)
{
	__m128i acc[MAX_ITERS], m0, m1, a, b;
	uint64_t lanes[2];
	unsigned int j;
	size_t n;

	for (j = 0; j < iters; j++)
		acc[j] = _mm_setzero_si128();
	for (n = 0; n < nblocks; n++, m += 32, k += 8) {
		m0 = _mm_loadu_si128((const __m128i *)(const void *)m);
		m1 = _mm_loadu_si128((const __m128i *)(const void *)(m + 16));
		for (j = 0; j < iters; j++) {
			a = _mm_add_epi32(m0, _mm_loadu_si128(
			    (const __m128i *)(const void *)(k + 4 * j)));
			b = _mm_add_epi32(m1, _mm_loadu_si128(
			    (const __m128i *)(const void *)(k + 4 * j + 4)));
			/* lanes 0,2 then lanes 1,3: (m_i+k_i)*(m_i+4+k_i+4) */
			acc[j] = _mm_add_epi64(acc[j], _mm_mul_epu32(a, b));
			acc[j] = _mm_add_epi64(acc[j], _mm_mul_epu32(
			    _mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32)));
		}
	}
	for (j = 0; j < iters; j++) {
		_mm_storeu_si128((__m128i *)(void *)lanes, acc[j]);
		out[j] += lanes[0] + lanes[1];
	}
}
#else
static ALWAYS_INLINE uint32_t
get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static ALWAYS_INLINE void
nh_blocks(const uint32_t *k, const unsigned char *m, size_t nblocks,
    unsigned int iters, uint64_t *out)
{
	uint64_t acc[MAX_ITERS];
	uint32_t w[8];
	const uint32_t *kj;
	unsigned int i, j;
	size_t n;

	for (j = 0; j < iters; j++)
		acc[j] = 0;
	for (n = 0; n < nblocks; n++, m += 32, k += 8) {
		for (i = 0; i < 8; i++)
			w[i] = get_le32(m + 4 * i);
		for (j = 0; j < iters; j++) {
			kj = k + 4 * j;
			for (i = 0; i < 4; i++)
				acc[j] += (uint64_t)(uint32_t)(w[i] + kj[i]) *
				    (uint32_t)(w[i + 4] + kj[i + 4]);
		}
	}
	for (j = 0; j < iters; j++)
		out[j] += acc[j];
}
#endif

static void
nh(const uint32_t *k, const unsigned char *m, size_t nblocks,
    unsigned int iters, uint64_t *out)
{
	switch (iters) {
	case 1:
		nh_blocks(k, m, nblocks, 1, out);
		break;
	case 2:
		nh_blocks(k, m, nblocks, 2, out);
		break;
	case 3:
		nh_blocks(k, m, nblocks, 3, out);
		break;
	default:
		nh_blocks(k, m, nblocks, 4, out);
		break;
	}
}

/* 64x64 -> 128-bit product. */
static ALWAYS_INLINE void
mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
	unsigned __int128 p = (unsigned __int128)a * b;

	*hi = (uint64_t)(p >> 64);
	*lo = (uint64_t)p;
#else
	uint64_t al = a & 0xffffffff, ah = a >> 32;
	uint64_t bl = b & 0xffffffff, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);

	*lo = (mid << 32) | (ll & 0xffffffff);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* (k * y + m) mod 2^64-59, for k < 2^57 and m <= 2^64-2^32. */
static uint64_t
poly64_step(uint64_t y, uint64_t k, uint64_t m)
{
	uint64_t hi, lo, t;

	mul64(k, y, &hi, &lo);
	t = hi * OFF64;			/* 2^64 = 59 (mod p); t < 2^63 */
	lo += t;
	if (lo < t)
		lo += OFF64;		/* wrapped: lo < t, cannot wrap again */
	lo += m;
	if (lo < m)
		lo += OFF64;		/* wrapped: lo < m */
	if (lo >= P64)
		lo -= P64;
	return lo;
}

static uint64_t
poly64(uint64_t y, uint64_t k, uint64_t m)
{
	if (m >= WORDRANGE_HI) {
		y = poly64_step(y, k, P64 - 1);
		m -= OFF64;
	}
	return poly64_step(y, k, m);
}

/* (h, l) += (ah, al) mod 2^128-159, input value below 2^128. */
static void
add128_mod(uint64_t *h, uint64_t *l, uint64_t ah, uint64_t al)
{
	uint64_t c;

	*l += al;
	c = *l < al;
	*h += c;
	c = *h < c;
	*h += ah;
	c += *h < ah;
	if (c) {		/* 2^128 = 159; the wrapped sum is small */
		*l += OFF128;
		*h += *l < OFF128;
	}
}

/* (k * y + m) mod 2^128-159, for k's halves < 2^57, m < 2^128-2^96. */
static void
poly128_step(uint64_t *yh, uint64_t *yl, uint64_t kh, uint64_t kl,
    uint64_t mh, uint64_t ml)
{
	uint64_t a1, a0, b1, b0, c1, c0, d1, d0, r0, r1, r2, r3, e1, e0;
	uint64_t f1, f0;

	mul64(kl, *yl, &a1, &a0);
	mul64(kl, *yh, &b1, &b0);
	mul64(kh, *yl, &c1, &c0);
	mul64(kh, *yh, &d1, &d0);
	/* 256-bit product r3:r2:r1:r0; every high half is below 2^57. */
	r0 = a0;
	r1 = a1 + b0;
	r2 = r1 < b0;
	r1 += c0;
	r2 += r1 < c0;
	r2 += b1 + c1;
	r2 += d0;
	r3 = d1 + (r2 < d0);
	/* Fold r3:r2 * 2^128 = r3:r2 * 159 into r1:r0. */
	mul64(r2, OFF128, &e1, &e0);
	mul64(r3, OFF128, &f1, &f0);
	add128_mod(&r1, &r0, 0, e0);
	add128_mod(&r1, &r0, e1, 0);
	add128_mod(&r1, &r0, f0, 0);
	/* f1 * 2^128 = f1 * 159 */
	add128_mod(&r1, &r0, 0, f1 * OFF128);
	add128_mod(&r1, &r0, mh, ml);
	/* Below 2^128 < 2p: one subtraction of p at most. */
	if (r1 == UINT64_MAX && r0 >= (uint64_t)0 - OFF128) {
		r1 = 0;
		r0 += OFF128;
	}
	*yh = r1;
	*yl = r0;
}

static void
poly128(uint64_t *yh, uint64_t *yl, uint64_t kh, uint64_t kl,
    uint64_t mh, uint64_t ml)
{
	if (mh >= WORDRANGE_HI) {
		/* marker p - 1, then m - 159 */
		poly128_step(yh, yl, kh, kl, UINT64_MAX,
		    (uint64_t)0 - OFF128 - 1);
		mh -= ml < OFF128;
		ml -= OFF128;
	}
	poly128_step(yh, yl, kh, kl, mh, ml);
}

/* L3: inner product mod 2^36-5 of the 16-bit words of (bh, bl). */
static uint32_t
l3hash(const uint64_t k1[8], uint32_t k2, uint64_t bh, uint64_t bl)
{
	uint64_t y = 0;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		y += ((bh >> (48 - 16 * i)) & 0xffff) * k1[i];
		y += ((bl >> (48 - 16 * i)) & 0xffff) * k1[4 + i];
	}
	return (uint32_t)(y % P36) ^ k2;
}

/* The L2 stage, fed one L1 output per chunk and iteration. */
struct l2_state {
	size_t nwords;
	int pending;			/* odd word waiting for its pair */
	uint64_t y64[MAX_ITERS];
	uint64_t yh[MAX_ITERS], yl[MAX_ITERS];
	uint64_t hold[MAX_ITERS];
};

static void
l2_feed(const struct umac_ctx *ctx, struct l2_state *st, const uint64_t *in)
{
	unsigned int j;

	if (st->nwords < L2_SWITCH) {
		for (j = 0; j < ctx->iters; j++)
			st->y64[j] = poly64(st->y64[j], ctx->k64[j], in[j]);
	} else {
		if (st->nwords == L2_SWITCH) {
			/* POLY-128 starts from 1 over uint128(y64) || rest */
			for (j = 0; j < ctx->iters; j++) {
				st->yh[j] = 0;
				st->yl[j] = 1;
				poly128(&st->yh[j], &st->yl[j], ctx->k128h[j],
				    ctx->k128l[j], 0, st->y64[j]);
			}
		}
		for (j = 0; j < ctx->iters; j++) {
			if (st->pending)
				poly128(&st->yh[j], &st->yl[j], ctx->k128h[j],
				    ctx->k128l[j], st->hold[j], in[j]);
			else
				st->hold[j] = in[j];
		}
		st->pending = !st->pending;
	}
	st->nwords++;
}

static int
pdf(struct umac_ctx *ctx, const unsigned char *nonce, size_t noncelen,
    unsigned char *pad)
{
	unsigned char blk[16];
	unsigned int mask, idx;
	int outl;

	memset(blk, 0, sizeof(blk));
	memcpy(blk, nonce, noncelen);
	mask = ctx->taglen == 4 ? 3 : ctx->taglen == 8 ? 1 : 0;
	idx = blk[noncelen - 1] & mask;
	blk[noncelen - 1] &= (unsigned char)~mask;
	if (!ctx->pdf_valid || memcmp(blk, ctx->pdf_in, sizeof(blk)) != 0) {
		ctx->pdf_valid = 0;
		if (EVP_EncryptUpdate(ctx->pdf, ctx->pdf_out, &outl, blk,
		    sizeof(blk)) != 1 || outl != sizeof(blk))
			return ERR_LIBCRYPTO;
		memcpy(ctx->pdf_in, blk, sizeof(blk));
		ctx->pdf_valid = 1;
	}
	memcpy(pad, ctx->pdf_out + idx * ctx->taglen, ctx->taglen);
	return 0;
}

int
umac_tag(struct umac_ctx *ctx, const unsigned char *msg, size_t len,
    const unsigned char *nonce, size_t noncelen, unsigned char *tag)
{
	struct l2_state st;
	unsigned char last[32], pad[UMAC_MAX_TAG];
	uint64_t l1[MAX_ITERS], bh, bl;
	size_t off = 0, clen, full, rest;
	uint32_t v;
	unsigned int j;
	int r;

	if (ctx == NULL || tag == NULL || (msg == NULL && len != 0) ||
	    nonce == NULL || noncelen == 0 || noncelen > UMAC_MAX_NONCE)
		return ERR_INVALID_ARGUMENT;
	if ((r = pdf(ctx, nonce, noncelen, pad)) != 0)
		return r;
	memset(&st, 0, sizeof(st));
	for (j = 0; j < ctx->iters; j++)
		st.y64[j] = 1;
	do {
		clen = len - off < L1_CHUNK ? len - off : L1_CHUNK;
		full = clen / 32;
		rest = clen % 32;
		memset(l1, 0, sizeof(l1));
		if (full > 0)
			nh(ctx->nhkey, msg + off, full, ctx->iters, l1);
		if (rest != 0 || clen == 0) {
			/* zero-pad the tail (or the empty message) to 32 */
			memset(last, 0, sizeof(last));
			if (rest != 0)
				memcpy(last, msg + off + 32 * full, rest);
			nh(ctx->nhkey + 8 * full, last, 1, ctx->iters, l1);
		}
		for (j = 0; j < ctx->iters; j++)
			l1[j] += (uint64_t)clen * 8;
		off += clen;
		if (len <= L1_CHUNK)
			break;
		l2_feed(ctx, &st, l1);
	} while (off < len);

	for (j = 0; j < ctx->iters; j++) {
		if (len <= L1_CHUNK) {
			bh = 0;
			bl = l1[j];
		} else if (st.nwords <= L2_SWITCH) {
			bh = 0;
			bl = st.y64[j];
		} else {
			/* M_2 || 0x80, zero-padded to 16 bytes */
			if (st.pending)
				poly128(&st.yh[j], &st.yl[j], ctx->k128h[j],
				    ctx->k128l[j], st.hold[j],
				    (uint64_t)0x80 << 56);
			else
				poly128(&st.yh[j], &st.yl[j], ctx->k128h[j],
				    ctx->k128l[j], (uint64_t)0x80 << 56, 0);
			bh = st.yh[j];
			bl = st.yl[j];
		}
		v = l3hash(ctx->l3k1[j], ctx->l3k2[j], bh, bl);
		tag[4 * j] = (unsigned char)(v >> 24) ^ pad[4 * j];
		tag[4 * j + 1] = (unsigned char)(v >> 16) ^ pad[4 * j + 1];
		tag[4 * j + 2] = (unsigned char)(v >> 8) ^ pad[4 * j + 2];
		tag[4 * j + 3] = (unsigned char)v ^ pad[4 * j + 3];
	}
	x_wipe(last, sizeof(last));
	x_wipe(pad, sizeof(pad));
	return 0;
}
