/*
 * sntrup761.c: the Streamlined NTRU Prime 761 KEM (sntrup761.h), written
 * from the NTRU Prime round-3 specification; the ring arithmetic is in
 * sntrup761_poly.c.
 *
 * Keys. g is a random small element, drawn again until invertible in R3;
 * f is a random short element; the public key is h = g/(3f) in Rq. The
 * secret key is f and 1/g (R3), then the public key, a random rho and
 * the cache Hash_prefix(4, pk):
 *
 *   sk = Small(f) | Small(1/g) | pk | rho (191) | cache (32)
 *
 * Encapsulation. r is a random short element; c = Round(h r), every
 * coefficient rounded to the nearest multiple of 3; the ciphertext is
 * Rounded(c) followed by the confirmation hash, and the shared secret
 * hashes r with the ciphertext:
 *
 *   Hash_prefix(b, x)   = first 32 bytes of SHA-512(b | x)
 *   confirm             = Hash_prefix(2, Hash_prefix(3, Small(r)) | cache)
 *   ss                  = Hash_prefix(1, Hash_prefix(3, Small(r)) | ct)
 *
 * Decapsulation recovers r as (3 f c mod q, then mod 3) / g in R3,
 * replaces it by a fixed short element when its weight is not w,
 * encrypts it again and compares with the ciphertext received. On a
 * mismatch the secret hashes rho instead of Small(r), with prefix 0: the
 * choice is made with masks, so timing does not tell which happened.
 *
 * Encodings. Small packs four coefficients (plus one) per byte, two bits
 * each, the last byte holding the one left over (191 bytes). Rq and
 * Rounded use the spec's Encode: a list of integers R[i] < M[i] is
 * merged in pairs (r = R[i] + M[i] R[i+1], m = M[i] M[i+1]); while m is
 * at least 2^14 the low byte of r is written out and m shrinks to
 * ceil(m/256); the pairs' results form the next, half-length list,
 * until one integer is left, written out byte by byte while m > 1.
 * Decode walks the same path back, reducing each value mod its M[i], so
 * any string of the right length decodes (a public key or ciphertext
 * needs no further check). Decode only ever sees public bytes, and
 * divides by public moduli.
 */
#include <stdint.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "err.h"
#include "mem.h"
#include "sntrup761.h"
#include "sntrup761_int.h"

#define P		SNTRUP_P
#define Q		SNTRUP_Q
#define W		SNTRUP_W
#define Q12		SNTRUP_Q12
#define M_ROUNDED	((Q + 2) / 3)	/* 1531 values of (c + q12)/3 */

#define SMALL_BYTES	191		/* (P + 3) / 4 */
#define ROUNDED_BYTES	1007
#define HASH_BYTES	32
#define SK_F		0
#define SK_GINV		SMALL_BYTES
#define SK_PK		(2 * SMALL_BYTES)
#define SK_RHO		(SK_PK + SNTRUP761_PUBLICKEY_SIZE)
#define SK_CACHE	(SK_RHO + SMALL_BYTES)
#define KEYGEN_TRIES	64		/* a non-invertible g has odds ~3^-19 */

_Static_assert(SK_CACHE + HASH_BYTES == SNTRUP761_SECRETKEY_SIZE,
    "secret key layout");
_Static_assert(ROUNDED_BYTES + HASH_BYTES == SNTRUP761_CIPHERTEXT_SIZE,
    "ciphertext layout");

/*
 * Encode: writes R[0..n) (R[i] < M[i] <= 16383) and returns the number
 * of bytes written. R and M are used as scratch space.
 */
static size_t
encode(unsigned char *out, uint16_t *R, uint16_t *M, size_t n)
{
	size_t len = 0, i;
	uint32_t r, m;

	while (n > 1) {
		for (i = 0; i + 1 < n; i += 2) {
			m = (uint32_t)M[i] * M[i + 1];
			r = R[i] + (uint32_t)M[i] * R[i + 1];
			while (m >= 16384) {
				out[len++] = (unsigned char)r;
				r >>= 8;
				m = (m + 255) >> 8;
			}
			R[i / 2] = (uint16_t)r;
			M[i / 2] = (uint16_t)m;
		}
		if (n & 1) {
			R[n / 2] = R[n - 1];
			M[n / 2] = M[n - 1];
		}
		n = (n + 1) / 2;
	}
	for (r = R[0], m = M[0]; m > 1; m = (m + 255) >> 8) {
		out[len++] = (unsigned char)r;
		r >>= 8;
	}
	return len;
}

/*
 * Decode: the inverse of encode for n values with moduli M (n <= P),
 * reading the bytes encode would write.
 */
static void
decode(uint16_t *out, const unsigned char *s, const uint16_t *M0, size_t n0)
{
	uint16_t mbuf[2 * P + 16], rbuf[2 * P + 16];
	size_t start[16], cnt[16], boff[16], pos = 0, i, n;
	uint32_t r, m, sh;
	const uint16_t *M, *R2;
	uint16_t *R;
	int lev = 0, l;

	/* Down: the moduli of every level, and where its bytes start. */
	memcpy(mbuf, M0, n0 * sizeof(*M0));
	start[0] = 0;
	cnt[0] = n0;
	while (cnt[lev] > 1) {
		M = mbuf + start[lev];
		n = cnt[lev];
		boff[lev] = pos;
		for (i = 0; i + 1 < n; i += 2) {
			for (m = (uint32_t)M[i] * M[i + 1]; m >= 16384;
			    m = (m + 255) >> 8)
				pos++;
			mbuf[start[lev] + n + i / 2] = (uint16_t)m;
		}
		if (n & 1)
			mbuf[start[lev] + n + n / 2] = M[n - 1];
		start[lev + 1] = start[lev] + n;
		cnt[lev + 1] = (n + 1) / 2;
		lev++;
	}
	for (r = 0, sh = 0, m = mbuf[start[lev]]; m > 1; m = (m + 255) >> 8) {
		r |= (uint32_t)s[pos++] << sh;
		sh += 8;
	}
	rbuf[start[lev]] = (uint16_t)(r % mbuf[start[lev]]);
	/* Up: split each value back into its pair. */
	for (l = lev - 1; l >= 0; l--) {
		M = mbuf + start[l];
		R = rbuf + start[l];
		R2 = rbuf + start[l + 1];
		n = cnt[l];
		pos = boff[l];
		for (i = 0; i + 1 < n; i += 2) {
			r = 0;
			sh = 0;
			for (m = (uint32_t)M[i] * M[i + 1]; m >= 16384;
			    m = (m + 255) >> 8) {
				r |= (uint32_t)s[pos++] << sh;
				sh += 8;
			}
			r += (uint32_t)R2[i / 2] << sh;
			R[i] = (uint16_t)(r % M[i]);
			R[i + 1] = (uint16_t)((r / M[i]) % M[i + 1]);
		}
		if (n & 1)
			R[n - 1] = R2[n / 2];
	}
	memcpy(out, rbuf, n0 * sizeof(*out));
}

static void
rq_encode(unsigned char *out, const int16_t *h)
{
	uint16_t R[P], M[P];
	int i;

	for (i = 0; i < P; i++) {
		R[i] = (uint16_t)(h[i] + Q12);
		M[i] = Q;
	}
	(void)encode(out, R, M, P);
}

static void
rq_decode(int16_t *h, const unsigned char *s)
{
	uint16_t R[P], M[P];
	int i;

	for (i = 0; i < P; i++)
		M[i] = Q;
	decode(R, s, M, P);
	for (i = 0; i < P; i++)
		h[i] = (int16_t)(R[i] - Q12);
}

/* c has every coefficient a multiple of 3 in -q12..q12. */
static void
rounded_encode(unsigned char *out, const int16_t *c)
{
	uint16_t R[P], M[P];
	int i;

	for (i = 0; i < P; i++) {
		/* (c + q12)/3, exact: c + q12 is a multiple of 3 below 2^13 */
		R[i] = (uint16_t)(((uint32_t)(c[i] + Q12) * 10923) >> 15);
		M[i] = M_ROUNDED;
	}
	(void)encode(out, R, M, P);
	x_wipe(R, sizeof(R));
}

static void
rounded_decode(int16_t *c, const unsigned char *s)
{
	uint16_t R[P], M[P];
	int i;

	for (i = 0; i < P; i++)
		M[i] = M_ROUNDED;
	decode(R, s, M, P);
	for (i = 0; i < P; i++)
		c[i] = (int16_t)(R[i] * 3 - Q12);
}

static void
small_encode(unsigned char *out, const int8_t *f)
{
	int i, j;
	unsigned int x;

	for (i = 0; i < P / 4; i++) {
		for (x = 0, j = 0; j < 4; j++)
			x |= (unsigned int)(f[4 * i + j] + 1) << (2 * j);
		out[i] = (unsigned char)x;
	}
	out[P / 4] = (unsigned char)(f[P - 1] + 1);
}

/* The two-bit code 3, which encode never writes, is read as -1 (2). */
static void
small_decode(int8_t *f, const unsigned char *s)
{
	int i, j;
	unsigned int x, c;

	for (i = 0; i <= P / 4; i++) {
		x = s[i];
		for (j = 0; j < 4 && 4 * i + j < P; j++) {
			c = (x >> (2 * j)) & 3;
			f[4 * i + j] = (int8_t)((int)c - 1 - 3 * (int)((c >> 1) & c));
		}
	}
}

/* out = Hash_prefix(b, a | c): SHA-512 of b, a and c, cut to 32 bytes. */
static int
hash_prefix(unsigned char *out, int b, const unsigned char *a, size_t alen,
    const unsigned char *c, size_t clen)
{
	EVP_MD_CTX *ctx;
	unsigned char pre = (unsigned char)b, md[64];
	unsigned int mdlen = 0;
	int ok;

	if ((ctx = EVP_MD_CTX_new()) == NULL)
		return ERR_LIBCRYPTO;
	ok = EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) == 1 &&
	    EVP_DigestUpdate(ctx, &pre, 1) == 1 &&
	    EVP_DigestUpdate(ctx, a, alen) == 1 &&
	    (clen == 0 || EVP_DigestUpdate(ctx, c, clen) == 1) &&
	    EVP_DigestFinal_ex(ctx, md, &mdlen) == 1 && mdlen == sizeof(md);
	EVP_MD_CTX_free(ctx);
	if (ok)
		memcpy(out, md, HASH_BYTES);
	x_wipe(md, sizeof(md));
	x_wipe(&pre, sizeof(pre));
	return ok ? 0 : ERR_LIBCRYPTO;
}

/* out = Hash_prefix(b, Hash_prefix(3, y) | z), y being SMALL_BYTES. */
static int
hash_two(unsigned char *out, int b, const unsigned char *y,
    const unsigned char *z, size_t zlen)
{
	unsigned char x[HASH_BYTES];
	int r;

	if ((r = hash_prefix(x, 3, y, SMALL_BYTES, NULL, 0)) == 0)
		r = hash_prefix(out, b, x, sizeof(x), z, zlen);
	x_wipe(x, sizeof(x));
	return r;
}

static int
rng_libcrypto(void *arg, unsigned char *buf, size_t len)
{
	(void)arg;
	return RAND_bytes(buf, (int)len) == 1 ? 0 : ERR_LIBCRYPTO;
}

/* P random 32-bit words, little-endian from the generator's bytes. */
static int
random_words(uint32_t *L, sntrup761_rng_fn *rng, void *arg)
{
	unsigned char buf[4 * P];
	int i, r;

	if ((r = rng(arg, buf, sizeof(buf))) == 0)
		for (i = 0; i < P; i++)
			L[i] = (uint32_t)buf[4 * i] |
			    (uint32_t)buf[4 * i + 1] << 8 |
			    (uint32_t)buf[4 * i + 2] << 16 |
			    (uint32_t)buf[4 * i + 3] << 24;
	x_wipe(buf, sizeof(buf));
	return r;
}

/* Small_random: each coefficient from the top of 30 random bits. */
static int
small_random(int8_t *g, sntrup761_rng_fn *rng, void *arg)
{
	uint32_t L[P];
	int i, r;

	if ((r = random_words(L, rng, arg)) == 0)
		for (i = 0; i < P; i++)
			g[i] = (int8_t)((((L[i] & 0x3fffffff) * 3) >> 30) - 1);
	x_wipe(L, sizeof(L));
	return r;
}

/*
 * Short_random: w words marked (low bits 00 or 10, for -1 or +1) and
 * p - w marked 01 (for 0), sorted on their random high bits: a uniform
 * shuffle of the w nonzero coefficients among the p.
 */
static int
short_random(int8_t *f, sntrup761_rng_fn *rng, void *arg)
{
	uint32_t L[P];
	int i, r;

	if ((r = random_words(L, rng, arg)) == 0) {
		for (i = 0; i < W; i++)
			L[i] &= ~(uint32_t)1;
		for (i = W; i < P; i++)
			L[i] = (L[i] & ~(uint32_t)3) | 1;
		sntrup_sort_uint32(L);
		for (i = 0; i < P; i++)
			f[i] = (int8_t)((L[i] & 3) - 1);
	}
	x_wipe(L, sizeof(L));
	return r;
}

int
sntrup761_keypair_rng(unsigned char pk[SNTRUP761_PUBLICKEY_SIZE],
    unsigned char sk[SNTRUP761_SECRETKEY_SIZE],
    sntrup761_rng_fn *rng, void *arg)
{
	int8_t g[P], ginv[P], f[P];
	int16_t f3[P], finv[P], h[P];
	int i, r = ERR_INTERNAL, tries;

	/*
	 * The one branch on a secret, as the spec has it: a g that is not
	 * invertible is thrown away, so how many were drawn tells nothing
	 * about the one kept.
	 */
	for (tries = 0; tries < KEYGEN_TRIES; tries++) {
		if ((r = small_random(g, rng, arg)) != 0)
			goto out;
		if (sntrup_r3_recip(ginv, g) == 0)
			break;
		r = ERR_INTERNAL;
	}
	if (r != 0 || (r = short_random(f, rng, arg)) != 0)
		goto out;
	for (i = 0; i < P; i++)
		f3[i] = (int16_t)(3 * f[i]);
	/*
	 * Rq is a field and 3f is not 0, so this cannot fail; its status
	 * is not looked at, as a branch on it would be on a secret.
	 */
	(void)sntrup_rq_recip(finv, f3);
	sntrup_rq_mult_small(h, finv, g);
	rq_encode(pk, h);
	small_encode(sk + SK_F, f);
	small_encode(sk + SK_GINV, ginv);
	memcpy(sk + SK_PK, pk, SNTRUP761_PUBLICKEY_SIZE);
	if ((r = rng(arg, sk + SK_RHO, SMALL_BYTES)) != 0)
		goto out;
	r = hash_prefix(sk + SK_CACHE, 4, pk, SNTRUP761_PUBLICKEY_SIZE,
	    NULL, 0);
 out:
	x_wipe(g, sizeof(g));
	x_wipe(ginv, sizeof(ginv));
	x_wipe(f, sizeof(f));
	x_wipe(f3, sizeof(f3));
	x_wipe(finv, sizeof(finv));
	x_wipe(h, sizeof(h));
	if (r != 0)
		x_wipe(sk, SNTRUP761_SECRETKEY_SIZE);
	return r;
}

int
sntrup761_keypair(unsigned char pk[SNTRUP761_PUBLICKEY_SIZE],
    unsigned char sk[SNTRUP761_SECRETKEY_SIZE])
{
	return sntrup761_keypair_rng(pk, sk, rng_libcrypto, NULL);
}

/*
 * Hide: ct = Rounded(Round(h r)) | HashConfirm, and r_enc = Small(r);
 * the one path both encapsulation and the re-encryption check take.
 */
static int
hide(unsigned char *ct, unsigned char *r_enc, const int8_t *r,
    const int16_t *h, const unsigned char *cache)
{
	int16_t c[P];
	int i, rv;

	small_encode(r_enc, r);
	sntrup_rq_mult_small(c, h, r);
	for (i = 0; i < P; i++)
		c[i] = (int16_t)(c[i] - sntrup_f3_freeze(c[i]));
	rounded_encode(ct, c);
	rv = hash_two(ct + ROUNDED_BYTES, 2, r_enc, cache, HASH_BYTES);
	x_wipe(c, sizeof(c));
	return rv;
}

int
sntrup761_enc_rng(unsigned char ct[SNTRUP761_CIPHERTEXT_SIZE],
    unsigned char ss[SNTRUP761_SHARED_SIZE],
    const unsigned char *pk, size_t pklen,
    sntrup761_rng_fn *rng, void *arg)
{
	unsigned char r_enc[SMALL_BYTES], cache[HASH_BYTES];
	int16_t h[P];
	int8_t r[P];
	int rv;

	memset(ss, 0, SNTRUP761_SHARED_SIZE);
	if (pklen != SNTRUP761_PUBLICKEY_SIZE)
		return ERR_INVALID_FORMAT;
	rq_decode(h, pk);
	if ((rv = short_random(r, rng, arg)) == 0 &&
	    (rv = hash_prefix(cache, 4, pk, pklen, NULL, 0)) == 0 &&
	    (rv = hide(ct, r_enc, r, h, cache)) == 0)
		rv = hash_two(ss, 1, r_enc, ct, SNTRUP761_CIPHERTEXT_SIZE);
	if (rv != 0)
		x_wipe(ss, SNTRUP761_SHARED_SIZE);
	x_wipe(r, sizeof(r));
	x_wipe(r_enc, sizeof(r_enc));
	return rv;
}

int
sntrup761_enc(unsigned char ct[SNTRUP761_CIPHERTEXT_SIZE],
    unsigned char ss[SNTRUP761_SHARED_SIZE],
    const unsigned char *pk, size_t pklen)
{
	return sntrup761_enc_rng(ct, ss, pk, pklen, rng_libcrypto, NULL);
}

/*
 * r = 1/g * (3 f c mod q, mod 3) in R3, or the fixed short element
 * (1,...,1,0,...,0) when that does not have weight w.
 */
static void
decrypt(int8_t *r, const int16_t *c, const int8_t *f, const int8_t *ginv)
{
	int16_t cf[P];
	int8_t e[P], ev[P];
	int32_t weight = 0, mask;
	int i;

	sntrup_rq_mult_small(cf, c, f);
	for (i = 0; i < P; i++)
		e[i] = sntrup_f3_freeze(sntrup_fq_freeze(3 * (int32_t)cf[i]));
	sntrup_r3_mult(ev, e, ginv);
	for (i = 0; i < P; i++)
		weight += ev[i] & 1;
	/* -1 when the weight is not w */
	mask = -(int32_t)(((uint32_t)(weight - W) |
	    (0U - (uint32_t)(weight - W))) >> 31);
	for (i = 0; i < W; i++)
		r[i] = (int8_t)(((ev[i] ^ 1) & ~mask) ^ 1);
	for (i = W; i < P; i++)
		r[i] = (int8_t)(ev[i] & ~mask);
	x_wipe(cf, sizeof(cf));
	x_wipe(e, sizeof(e));
	x_wipe(ev, sizeof(ev));
}

int
sntrup761_dec(unsigned char ss[SNTRUP761_SHARED_SIZE],
    const unsigned char *ct, size_t ctlen,
    const unsigned char sk[SNTRUP761_SECRETKEY_SIZE])
{
	unsigned char r_enc[SMALL_BYTES], cnew[SNTRUP761_CIPHERTEXT_SIZE];
	const unsigned char *rho = sk + SK_RHO;
	int8_t f[P], ginv[P], r[P];
	int16_t c[P], h[P];
	int32_t diff;
	int i, rv;

	memset(ss, 0, SNTRUP761_SHARED_SIZE);
	if (ctlen != SNTRUP761_CIPHERTEXT_SIZE)
		return ERR_INVALID_FORMAT;
	small_decode(f, sk + SK_F);
	small_decode(ginv, sk + SK_GINV);
	rounded_decode(c, ct);
	decrypt(r, c, f, ginv);
	rq_decode(h, sk + SK_PK);
	if ((rv = hide(cnew, r_enc, r, h, sk + SK_CACHE)) == 0) {
		/* -1 when ct is not what r encrypts to: then use rho */
		diff = CRYPTO_memcmp(ct, cnew, sizeof(cnew));
		diff = -(int32_t)(((uint32_t)diff | (0U - (uint32_t)diff)) >> 31);
		for (i = 0; i < SMALL_BYTES; i++)
			r_enc[i] ^= (unsigned char)(diff & (r_enc[i] ^ rho[i]));
		rv = hash_two(ss, 1 + diff, r_enc, ct, ctlen);
	}
	if (rv != 0)
		x_wipe(ss, SNTRUP761_SHARED_SIZE);
	x_wipe(f, sizeof(f));
	x_wipe(ginv, sizeof(ginv));
	x_wipe(r, sizeof(r));
	x_wipe(r_enc, sizeof(r_enc));
	x_wipe(cnew, sizeof(cnew));
	x_wipe(&diff, sizeof(diff));
	return rv;
}
