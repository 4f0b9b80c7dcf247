/*
 * blowfish.c: Blowfish encryption and the Eksblowfish key expansion.
 *
 * A block is two 32-bit halves; sixteen Feistel rounds with the
 * subkeys P[0..15], the halves swapped between rounds, and P[16], P[17]
 * whitening the output. F splits its input into four bytes a,b,c,d and
 * returns ((S0[a] + S1[b]) ^ S2[c]) + S3[d].
 *
 * Keys (and bcrypt's salt) are read as a cyclic stream of big-endian
 * 32-bit words. Expansion XORs the key stream into P, then encrypts a
 * running block (XORed with the data stream, if any) to replace P and
 * the S-boxes two words at a time.
 */
#include <string.h>

#include "blowfish.h"
#include "blowfish_pi.h"

static inline uint32_t
bf_f(const struct blowfish *bf, uint32_t x)
{
	return ((bf->s[0][x >> 24] + bf->s[1][(x >> 16) & 0xff]) ^
	    bf->s[2][(x >> 8) & 0xff]) + bf->s[3][x & 0xff];
}

void
blowfish_encrypt(const struct blowfish *bf, uint32_t *lp, uint32_t *rp)
{
	uint32_t l = *lp, r = *rp, t;
	int i;

	for (i = 0; i < 16; i++) {
		l ^= bf->p[i];
		r ^= bf_f(bf, l);
		t = l;
		l = r;
		r = t;
	}
	/* Undo the last swap, then whiten. */
	*lp = r ^ bf->p[17];
	*rp = l ^ bf->p[16];
}

void
blowfish_decrypt(const struct blowfish *bf, uint32_t *lp, uint32_t *rp)
{
	uint32_t l = *lp, r = *rp, t;
	int i;

	for (i = 17; i > 1; i--) {
		l ^= bf->p[i];
		r ^= bf_f(bf, l);
		t = l;
		l = r;
		r = t;
	}
	*lp = r ^ bf->p[0];
	*rp = l ^ bf->p[1];
}

void
blowfish_init(struct blowfish *bf)
{
	memcpy(bf->p, blowfish_pi_p, sizeof(bf->p));
	memcpy(bf->s, blowfish_pi_s, sizeof(bf->s));
}

/* Next big-endian word of a cyclic byte stream. */
static uint32_t
stream_word(const uint8_t *d, size_t len, size_t *pos)
{
	uint32_t w = 0;
	int i;

	for (i = 0; i < 4; i++) {
		if (*pos >= len)
			*pos = 0;
		w = (w << 8) | d[(*pos)++];
	}
	return w;
}

void
blowfish_expand(struct blowfish *bf, const uint8_t *data, size_t datalen,
    const uint8_t *key, size_t keylen)
{
	uint32_t l = 0, r = 0;
	size_t kpos = 0, dpos = 0;
	int i, j;

	for (i = 0; i < 18; i++)
		bf->p[i] ^= stream_word(key, keylen, &kpos);
	for (i = 0; i < 18; i += 2) {
		if (datalen > 0) {
			l ^= stream_word(data, datalen, &dpos);
			r ^= stream_word(data, datalen, &dpos);
		}
		blowfish_encrypt(bf, &l, &r);
		bf->p[i] = l;
		bf->p[i + 1] = r;
	}
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 256; j += 2) {
			if (datalen > 0) {
				l ^= stream_word(data, datalen, &dpos);
				r ^= stream_word(data, datalen, &dpos);
			}
			blowfish_encrypt(bf, &l, &r);
			bf->s[i][j] = l;
			bf->s[i][j + 1] = r;
		}
	}
}

void
blowfish_setkey(struct blowfish *bf, const uint8_t *key, size_t keylen)
{
	blowfish_init(bf);
	blowfish_expand(bf, NULL, 0, key, keylen);
}
