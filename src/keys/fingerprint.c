/*
 * fingerprint.c: key fingerprints and the randomart picture, as
 * ssh-keygen -l and -lv print them.
 *
 * A fingerprint is a hash of the public key blob: the hash's name
 * ("SHA256:", "SHA1:"...) and the base64 of the digest without '='
 * padding, or "MD5:" and the digest in lower-case hex pairs joined by
 * ':'. The hashes are rows of fp_hashes[].
 *
 * Bubble babble (ssh-keygen -B) spells the SHA-1 digest of the blob as
 * pronounceable five-letter words, after Antti Huima's description: the
 * input goes in pairs of bytes; each pair gives a vowel, a consonant and
 * a vowel (the first byte's top two bits, middle four, low two, the
 * vowels offset by a running seed), then a consonant, '-' and a
 * consonant (the second byte's nibbles). The seed moves on by
 * (seed * 5 + b1 * 7 + b2) mod 36. A last odd byte gives only the first
 * three letters; with none left the tuple is seed mod 6, 'x', seed / 6.
 * The whole is wrapped in 'x' ... 'x'.
 *
 * The randomart ("drunken bishop") walks a 17x9 field from its centre:
 * each digest byte, low bits first, gives four moves of two bits (bit 0
 * right/left, bit 1 down/up), clamped at the walls; every square visited
 * counts up. Counts become the characters of " .o+=*BOX@%&#/^", the start
 * is 'S' and the end 'E'. The frame carries "[TYPE BITS]" on top and
 * "[HASH]" below, both centred.
 */
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

#define ART_W	17
#define ART_H	9

static const char art_chars[] = " .o+=*BOX@%&#/^SE";

static const struct {
	enum key_fp_hash hash;
	const char *name;		/* as printed, and as -E takes it */
	const EVP_MD *(*md)(void);
} fp_hashes[] = {
	{ KEY_FP_SHA256, "SHA256", EVP_sha256 },
	{ KEY_FP_MD5, "MD5", EVP_md5 },
	{ KEY_FP_SHA1, "SHA1", EVP_sha1 },
	{ KEY_FP_SHA384, "SHA384", EVP_sha384 },
	{ KEY_FP_SHA512, "SHA512", EVP_sha512 },
};
#define NHASHES	(sizeof(fp_hashes) / sizeof(fp_hashes[0]))

static size_t
fp_row(enum key_fp_hash hash)
{
	size_t i;

	for (i = 0; i < NHASHES && fp_hashes[i].hash != hash; i++)
		;
	return i < NHASHES ? i : 0;
}

int
key_fp_hash_from_name(const char *name, enum key_fp_hash *hashp)
{
	size_t i;

	for (i = 0; i < NHASHES; i++)
		if (strcasecmp(name, fp_hashes[i].name) == 0) {
			*hashp = fp_hashes[i].hash;
			return 0;
		}
	return ERR_INVALID_ARGUMENT;
}

const char *
key_fp_hash_name(enum key_fp_hash hash)
{
	return fp_hashes[fp_row(hash)].name;
}

int
key_fingerprint_raw(const struct key *k, enum key_fp_hash hash,
    unsigned char *dgst, unsigned int *dlenp)
{
	struct sbuf *b = sbuf_new();
	const EVP_MD *md = fp_hashes[fp_row(hash)].md();
	int r;

	if ((r = key_to_blob(k, b)) == 0 &&
	    EVP_Digest(sbuf_ptr(b), sbuf_len(b), dgst, dlenp, md, NULL) != 1)
		r = ERR_LIBCRYPTO;
	sbuf_free(b);
	return r;
}

char *
key_fingerprint(const struct key *k, enum key_fp_hash hash)
{
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen, i;
	struct sbuf *b;
	char *s, *ret;
	size_t n;

	if (key_fingerprint_raw(k, hash, dgst, &dlen) != 0)
		return NULL;
	if (hash == KEY_FP_MD5) {
		ret = x_malloc(4 + 3 * dlen + 1);
		memcpy(ret, "MD5:", 4);
		for (i = 0; i < dlen; i++)
			snprintf(ret + 4 + 3 * i, 4, "%02x%s", dgst[i],
			    i + 1 < dlen ? ":" : "");
		return ret;
	}
	if ((b = sbuf_from(dgst, dlen)) == NULL)
		return NULL;
	s = sbuf_to_b64(b, 0);
	sbuf_free(b);
	if (s == NULL)
		return NULL;
	n = strlen(s);
	while (n > 0 && s[n - 1] == '=')
		s[--n] = '\0';
	ret = x_asprintf("%s:%s", key_fp_hash_name(hash), s);
	x_free(s);
	return ret;
}

/* One frame line: '+', title centred in dashes, '+', newline. */
static void
art_frame(char *p, const char *title)
{
	size_t tlen = strlen(title), off;

	if (tlen > ART_W)
		tlen = ART_W;
	off = (ART_W - tlen) / 2;
	p[0] = '+';
	memset(p + 1, '-', ART_W);
	memcpy(p + 1 + off, title, tlen);
	p[ART_W + 1] = '+';
}

/* title: "[TYPE BITS]", or "[TYPE]" when that does not fit the frame. */
static char *
randomart(const struct key *k, enum key_fp_hash hash, const char *suffix)
{
	unsigned char dgst[EVP_MAX_MD_SIZE], field[ART_W][ART_H];
	const unsigned char top = (unsigned char)(sizeof(art_chars) - 4);
	unsigned int dlen, i, j, x = ART_W / 2, y = ART_H / 2;
	char title[ART_W + 8], *out, *p;
	unsigned char c;

	if (key_fingerprint_raw(k, hash, dgst, &dlen) != 0)
		return NULL;
	memset(field, 0, sizeof(field));
	for (i = 0; i < dlen; i++) {
		c = dgst[i];
		for (j = 0; j < 4; j++, c >>= 2) {
			if (c & 1)
				x += x < ART_W - 1;
			else
				x -= x > 0;
			if (c & 2)
				y += y < ART_H - 1;
			else
				y -= y > 0;
			if (field[x][y] < top)
				field[x][y]++;
		}
	}
	field[ART_W / 2][ART_H / 2] = top + 1;	/* 'S' */
	field[x][y] = top + 2;			/* 'E' */

	/* (ART_W + 3) per line: 2 frame lines and ART_H rows. */
	out = p = x_malloc((ART_W + 3) * (ART_H + 2) + 1);
	snprintf(title, sizeof(title), "[%s%s %u]", keytype_of(k)->shortname,
	    suffix, key_bits(k));
	if (strlen(title) > ART_W)
		snprintf(title, sizeof(title), "[%s%s]",
		    keytype_of(k)->shortname, suffix);
	art_frame(p, title);
	p += ART_W + 2;
	*p++ = '\n';
	for (y = 0; y < ART_H; y++) {
		*p++ = '|';
		for (x = 0; x < ART_W; x++)
			*p++ = art_chars[field[x][y]];
		*p++ = '|';
		*p++ = '\n';
	}
	snprintf(title, sizeof(title), "[%s]", key_fp_hash_name(hash));
	art_frame(p, title);
	p += ART_W + 2;
	*p = '\0';
	return out;
}

char *
key_randomart(const struct key *k, enum key_fp_hash hash)
{
	return randomart(k, hash, "");
}

char *
key_randomart_cert(const struct key *k, enum key_fp_hash hash)
{
	return randomart(k, hash, "-CERT");
}

char *
bubblebabble(const unsigned char *p, size_t len)
{
	static const char vowels[] = "aeiouy";
	static const char cons[] = "bcdfghklmnprstvzx";
	size_t i, rounds = len / 2 + 1;
	unsigned int seed = 1, b1, b2;
	char *out = x_malloc(rounds * 6 + 2), *o = out;

	*o++ = 'x';
	for (i = 0; i < rounds; i++) {
		if (i + 1 == rounds && len % 2 == 0) {
			*o++ = vowels[seed % 6];
			*o++ = cons[16];
			*o++ = vowels[seed / 6];
			break;
		}
		b1 = p[2 * i];
		*o++ = vowels[((b1 >> 6) + seed) % 6];
		*o++ = cons[(b1 >> 2) & 15];
		*o++ = vowels[((b1 & 3) + seed / 6) % 6];
		if (i + 1 == rounds)
			break;
		b2 = p[2 * i + 1];
		*o++ = cons[b2 >> 4];
		*o++ = '-';
		*o++ = cons[b2 & 15];
		seed = (seed * 5 + b1 * 7 + b2) % 36;
	}
	*o++ = 'x';
	*o = '\0';
	return out;
}

char *
key_bubblebabble(const struct key *k)
{
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen;

	if (key_fingerprint_raw(k, KEY_FP_SHA1, dgst, &dlen) != 0)
		return NULL;
	return bubblebabble(dgst, dlen);
}
