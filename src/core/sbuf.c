/*
 * sbuf.c: the bounds-checked wire buffer; see sbuf.h.
 *
 * Storage grows geometrically; consumed bytes at the front are reclaimed
 * by sliding the data down when appending would otherwise grow the
 * storage, so a buffer used as a queue stays at its working-set size.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "err.h"
#include "mem.h"
#include "sbuf.h"
#include "sbuf_int.h"

#define SBUF_MIN_ALLOC 256

/*
 * Storage of a buffer that has none yet, so sbuf_ptr() never computes
 * NULL + 0 (undefined in C); never written (alloc stays 0) or freed.
 */
static unsigned char sbuf_nothing[1];

struct sbuf *
sbuf_new(void)
{
	struct sbuf *b = x_calloc(1, sizeof(*b));

	b->d = sbuf_nothing;
	b->max_size = SBUF_MAX_SIZE;
	return b;
}

struct sbuf *
sbuf_from(const void *p, size_t len)
{
	struct sbuf *b = x_calloc(1, sizeof(*b));

	b->d = p != NULL ? (unsigned char *)p : sbuf_nothing;
	b->size = b->alloc = len;
	b->max_size = len;
	b->readonly = 1;
	return b;
}

struct sbuf *
sbuf_dup(const struct sbuf *src)
{
	struct sbuf *b = sbuf_new();

	if (sbuf_putb(b, src) != 0) {
		sbuf_free(b);
		return NULL;
	}
	return b;
}

void
sbuf_free(struct sbuf *b)
{
	if (b == NULL)
		return;
	if (!b->readonly && b->alloc > 0)
		x_freezero(b->d, b->alloc);
	x_wipe(b, sizeof(*b));
	free(b);
}

void
sbuf_reset(struct sbuf *b)
{
	if (b->readonly) {
		b->off = b->size;
		return;
	}
	x_wipe(b->d, b->size);
	b->off = b->size = 0;
}

void
sbuf_wipe(struct sbuf *b)
{
	if (b->readonly) {
		b->off = b->size;
		return;
	}
	x_wipe(b->d, b->alloc);
	b->off = b->size = 0;
}

int
sbuf_set_max_size(struct sbuf *b, size_t max)
{
	if (b->readonly)
		return ERR_INVALID_ARGUMENT;
	if (max < sbuf_len(b))
		return ERR_NO_BUFFER_SPACE;
	b->max_size = max;
	return 0;
}

size_t
sbuf_len(const struct sbuf *b)
{
	return b->size - b->off;
}

const unsigned char *
sbuf_ptr(const struct sbuf *b)
{
	return b->d + b->off;
}

unsigned char *
sbuf_mutable_ptr(struct sbuf *b)
{
	return b->readonly ? NULL : b->d + b->off;
}

int
sbuf_allocate(struct sbuf *b, size_t len)
{
	size_t need, nalloc;
	unsigned char *nd;

	if (b->readonly)
		return ERR_INVALID_ARGUMENT;
	if (len > b->max_size || sbuf_len(b) > b->max_size - len)
		return ERR_NO_BUFFER_SPACE;
	if (b->size + len <= b->alloc)
		return 0;
	/* Slide unread bytes down if that makes enough room. */
	if (b->off > 0 && sbuf_len(b) + len <= b->alloc) {
		size_t n = sbuf_len(b);

		memmove(b->d, b->d + b->off, n);
		x_wipe(b->d + n, b->size - n);
		b->off = 0;
		b->size = n;
		return 0;
	}
	need = sbuf_len(b) + len;
	nalloc = b->alloc < SBUF_MIN_ALLOC ? SBUF_MIN_ALLOC : b->alloc;
	while (nalloc < need)
		nalloc = nalloc > SIZE_MAX / 2 ? need : nalloc * 2;
	/* Copy rather than realloc so the old storage can be wiped. */
	if ((nd = malloc(nalloc)) == NULL)
		return ERR_ALLOC;
	if (sbuf_len(b))
		memcpy(nd, b->d + b->off, sbuf_len(b));
	if (b->alloc > 0)
		x_freezero(b->d, b->alloc);
	b->size = sbuf_len(b);
	b->off = 0;
	b->d = nd;
	b->alloc = nalloc;
	return 0;
}

int
sbuf_reserve(struct sbuf *b, size_t len, unsigned char **dpp)
{
	int r;

	if (dpp != NULL)
		*dpp = NULL;
	if ((r = sbuf_allocate(b, len)) != 0)
		return r;
	if (dpp != NULL)
		*dpp = b->d + b->size;
	b->size += len;
	return 0;
}

int
sbuf_make_room(struct sbuf *b, size_t len)
{
	size_t n = sbuf_len(b);

	if (b->size + len <= b->alloc && !b->readonly)
		return 0;
	if (b->off > 0 && !b->readonly && n + len <= b->alloc &&
	    len <= b->max_size && n <= b->max_size - len) {
		memmove(b->d, b->d + b->off, n);
		b->off = 0;
		b->size = n;
		return 0;
	}
	return sbuf_allocate(b, len);
}

size_t
sbuf_tailroom(const struct sbuf *b)
{
	return b->readonly ? 0 : b->alloc - b->size;
}

int
sbuf_set_headroom(struct sbuf *b, size_t head, size_t len)
{
	int r;

	if (b->readonly || sbuf_len(b) != 0 || head > SIZE_MAX - len)
		return ERR_INVALID_ARGUMENT;
	if ((r = sbuf_allocate(b, head + len)) != 0)
		return r;
	b->off = b->size = head;
	return 0;
}

unsigned char *
sbuf_frame(struct sbuf *b, size_t head, size_t tail)
{
	if (b->readonly || b->off < head || b->alloc - b->size < tail)
		return NULL;
	return b->d + b->off - head;
}

int
sbuf_view_reset(struct sbuf *b, const void *p, size_t len)
{
	if (!b->readonly)
		return ERR_INVALID_ARGUMENT;
	b->d = p != NULL ? (unsigned char *)p : sbuf_nothing;
	b->off = 0;
	b->size = b->alloc = b->max_size = len;
	return 0;
}

int
sbuf_consume(struct sbuf *b, size_t len)
{
	if (len > sbuf_len(b))
		return ERR_MESSAGE_INCOMPLETE;
	b->off += len;
	if (b->off == b->size && !b->readonly)
		b->off = b->size = 0;
	return 0;
}

int
sbuf_consume_end(struct sbuf *b, size_t len)
{
	if (len > sbuf_len(b))
		return ERR_MESSAGE_INCOMPLETE;
	b->size -= len;
	return 0;
}

int
sbuf_put(struct sbuf *b, const void *v, size_t len)
{
	unsigned char *p;
	int r;

	if ((r = sbuf_reserve(b, len, &p)) != 0)
		return r;
	if (len)
		memcpy(p, v, len);
	return 0;
}

int
sbuf_putb(struct sbuf *b, const struct sbuf *v)
{
	return sbuf_put(b, sbuf_ptr(v), sbuf_len(v));
}

int
sbuf_putf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n, r;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return ERR_ALLOC;
	r = sbuf_put(b, s, (size_t)n);
	x_freezero(s, (size_t)n);
	return r;
}

int
sbuf_put_u8(struct sbuf *b, uint8_t v)
{
	return sbuf_put(b, &v, 1);
}

int
sbuf_put_u32(struct sbuf *b, uint32_t v)
{
	unsigned char p[4] = {
		(unsigned char)(v >> 24), (unsigned char)(v >> 16),
		(unsigned char)(v >> 8), (unsigned char)v
	};

	return sbuf_put(b, p, 4);
}

int
sbuf_put_u64(struct sbuf *b, uint64_t v)
{
	int r;

	if ((r = sbuf_put_u32(b, (uint32_t)(v >> 32))) != 0)
		return r;
	return sbuf_put_u32(b, (uint32_t)v);
}

int
sbuf_put_string(struct sbuf *b, const void *v, size_t len)
{
	unsigned char *p;
	int r;

	if (len > SBUF_MAX_STRING)
		return ERR_STRING_TOO_LARGE;
	if ((r = sbuf_reserve(b, 4 + len, &p)) != 0)
		return r;
	sbuf_store_u32(p, (uint32_t)len);
	if (len)
		memcpy(p + 4, v, len);
	return 0;
}

int
sbuf_put_cstring(struct sbuf *b, const char *s)
{
	return sbuf_put_string(b, s, s == NULL ? 0 : strlen(s));
}

int
sbuf_put_stringb(struct sbuf *b, const struct sbuf *v)
{
	return sbuf_put_string(b, sbuf_ptr(v), sbuf_len(v));
}

int
sbuf_put_mpint_bytes(struct sbuf *b, const void *v, size_t len)
{
	const unsigned char *s = v;
	unsigned char *p;
	int prepend, r;

	/* Strip leading zeros; add one back if the top bit is set. */
	while (len > 0 && *s == 0) {
		s++;
		len--;
	}
	if (len > SBUF_MAX_BIGNUM + 1)
		return ERR_BIGNUM_TOO_LARGE;
	prepend = len > 0 && (s[0] & 0x80) != 0;
	if ((r = sbuf_put_u32(b, (uint32_t)(len + prepend))) != 0)
		return r;
	if ((r = sbuf_reserve(b, len + prepend, &p)) != 0)
		return r;
	if (prepend)
		*p++ = 0;
	if (len)
		memcpy(p, s, len);
	return 0;
}

int
sbuf_put_bignum(struct sbuf *b, const BIGNUM *bn)
{
	unsigned char tmp[SBUF_MAX_BIGNUM + 1];
	int len, r;

	if (BN_is_negative(bn))
		return ERR_BIGNUM_NEGATIVE;
	len = BN_num_bytes(bn);
	if (len < 0 || (size_t)len > sizeof(tmp))
		return ERR_BIGNUM_TOO_LARGE;
	if (BN_bn2bin(bn, tmp) != len)
		return ERR_LIBCRYPTO;
	r = sbuf_put_mpint_bytes(b, tmp, (size_t)len);
	x_wipe(tmp, (size_t)len);
	return r;
}

int
sbuf_get(struct sbuf *b, void *v, size_t len)
{
	if (len > sbuf_len(b))
		return ERR_MESSAGE_INCOMPLETE;
	if (v != NULL && len)
		memcpy(v, sbuf_ptr(b), len);
	return sbuf_consume(b, len);
}

int
sbuf_get_u8(struct sbuf *b, uint8_t *v)
{
	return sbuf_get(b, v, 1);
}

static uint32_t
peek_u32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

int
sbuf_get_u32(struct sbuf *b, uint32_t *v)
{
	if (sbuf_len(b) < 4)
		return ERR_MESSAGE_INCOMPLETE;
	if (v != NULL)
		*v = peek_u32(sbuf_ptr(b));
	return sbuf_consume(b, 4);
}

int
sbuf_get_u64(struct sbuf *b, uint64_t *v)
{
	const unsigned char *p = sbuf_ptr(b);

	if (sbuf_len(b) < 8)
		return ERR_MESSAGE_INCOMPLETE;
	if (v != NULL)
		*v = (uint64_t)peek_u32(p) << 32 | peek_u32(p + 4);
	return sbuf_consume(b, 8);
}

int
sbuf_get_bool(struct sbuf *b, int *v)
{
	uint8_t c;
	int r;

	if ((r = sbuf_get_u8(b, &c)) != 0)
		return r;
	if (v != NULL)
		*v = c != 0;
	return 0;
}

int
sbuf_peek_string_direct(const struct sbuf *b, const unsigned char **valp,
    size_t *lenp)
{
	uint32_t len;

	if (valp != NULL)
		*valp = NULL;
	if (lenp != NULL)
		*lenp = 0;
	if (sbuf_len(b) < 4)
		return ERR_MESSAGE_INCOMPLETE;
	len = peek_u32(sbuf_ptr(b));
	if (len > SBUF_MAX_STRING)
		return ERR_STRING_TOO_LARGE;
	if (sbuf_len(b) - 4 < len)
		return ERR_MESSAGE_INCOMPLETE;
	if (valp != NULL)
		*valp = sbuf_ptr(b) + 4;
	if (lenp != NULL)
		*lenp = len;
	return 0;
}

int
sbuf_get_string_direct(struct sbuf *b, const unsigned char **valp,
    size_t *lenp)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = sbuf_peek_string_direct(b, &p, &len)) != 0)
		return r;
	if ((r = sbuf_consume(b, 4 + len)) != 0)
		return r;
	if (valp != NULL)
		*valp = p;
	if (lenp != NULL)
		*lenp = len;
	return 0;
}

int
sbuf_get_string(struct sbuf *b, unsigned char **valp, size_t *lenp)
{
	const unsigned char *p;
	size_t len;
	int r;

	if (valp != NULL)
		*valp = NULL;
	if (lenp != NULL)
		*lenp = 0;
	if ((r = sbuf_peek_string_direct(b, &p, &len)) != 0)
		return r;
	if (valp != NULL) {
		unsigned char *s = x_malloc(len + 1);

		if (len)
			memcpy(s, p, len);
		s[len] = '\0';
		*valp = s;
	}
	if (lenp != NULL)
		*lenp = len;
	return sbuf_consume(b, 4 + len);
}

int
sbuf_get_cstring(struct sbuf *b, char **valp, size_t *lenp)
{
	const unsigned char *p;
	size_t len;
	int r;

	if (valp != NULL)
		*valp = NULL;
	if (lenp != NULL)
		*lenp = 0;
	if ((r = sbuf_peek_string_direct(b, &p, &len)) != 0)
		return r;
	if (len != 0 && memchr(p, '\0', len) != NULL)
		return ERR_INVALID_FORMAT;
	return sbuf_get_string(b, (unsigned char **)valp, lenp);
}

int
sbuf_get_stringb(struct sbuf *b, struct sbuf *v)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = sbuf_peek_string_direct(b, &p, &len)) != 0)
		return r;
	if ((r = sbuf_put(v, p, len)) != 0)
		return r;
	return sbuf_consume(b, 4 + len);
}

int
sbuf_get_mpint_direct(struct sbuf *b, const unsigned char **valp,
    size_t *lenp)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = sbuf_peek_string_direct(b, &p, &len)) != 0)
		return r;
	if (len > SBUF_MAX_BIGNUM + 1)
		return ERR_BIGNUM_TOO_LARGE;
	if (len > 0 && (p[0] & 0x80) != 0)
		return ERR_BIGNUM_NEGATIVE;
	/* One leading zero only when the next byte needs it. */
	if (len > 1 && p[0] == 0 && (p[1] & 0x80) == 0)
		return ERR_INVALID_FORMAT;
	if (len == 1 && p[0] == 0)
		return ERR_INVALID_FORMAT;
	if ((r = sbuf_consume(b, 4 + len)) != 0)
		return r;
	if (len > 0 && p[0] == 0) {
		p++;
		len--;
	}
	if (valp != NULL)
		*valp = p;
	if (lenp != NULL)
		*lenp = len;
	return 0;
}

int
sbuf_get_bignum(struct sbuf *b, BIGNUM **bnp)
{
	const unsigned char *p;
	size_t len;
	BIGNUM *bn;
	int r;

	if (bnp != NULL)
		*bnp = NULL;
	if ((r = sbuf_get_mpint_direct(b, &p, &len)) != 0)
		return r;
	if (bnp == NULL)
		return 0;
	if ((bn = BN_bin2bn(p, (int)len, NULL)) == NULL)
		return ERR_LIBCRYPTO;
	*bnp = bn;
	return 0;
}

char *
sbuf_to_b64(const struct sbuf *b, int wrap)
{
	size_t len = sbuf_len(b), olen = 4 * ((len + 2) / 3), i, j;
	char *enc = x_malloc(olen + 1), *out;

	if (len)
		EVP_EncodeBlock((unsigned char *)enc, sbuf_ptr(b), (int)len);
	enc[olen] = '\0';
	if (!wrap)
		return enc;
	out = x_malloc(olen + olen / 70 + 2);
	for (i = j = 0; i < olen; i++) {
		if (i > 0 && i % 70 == 0)
			out[j++] = '\n';
		out[j++] = enc[i];
	}
	out[j] = '\0';
	x_free(enc);
	return out;
}

int
sbuf_b64_decode(struct sbuf *b, const char *text)
{
	size_t len = strlen(text), n = 0, i, pad = 0;
	char *clean = x_malloc(len + 1);
	unsigned char *out;
	int olen, r;

	for (i = 0; i < len; i++) {
		if (isspace((unsigned char)text[i]))
			continue;
		clean[n++] = text[i];
	}
	clean[n] = '\0';
	if (n == 0) {
		x_free(clean);
		return 0;
	}
	if (n % 4 != 0) {
		x_free(clean);
		return ERR_INVALID_FORMAT;
	}
	if (clean[n - 1] == '=')
		pad++;
	if (clean[n - 2] == '=')
		pad++;
	out = x_malloc(n / 4 * 3 + 1);
	olen = EVP_DecodeBlock(out, (unsigned char *)clean, (int)n);
	x_free(clean);
	if (olen < 0 || (size_t)olen < pad) {
		x_free(out);
		return ERR_INVALID_FORMAT;
	}
	r = sbuf_put(b, out, (size_t)olen - pad);
	x_freezero(out, (size_t)olen);
	return r;
}

char *
sbuf_to_hex(const struct sbuf *b)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = sbuf_len(b), i;
	char *s = x_malloc(len * 2 + 1);

	for (i = 0; i < len; i++) {
		s[2 * i] = hex[sbuf_ptr(b)[i] >> 4];
		s[2 * i + 1] = hex[sbuf_ptr(b)[i] & 0xf];
	}
	s[2 * len] = '\0';
	return s;
}

int
sbuf_equal(const struct sbuf *a, const struct sbuf *b)
{
	return sbuf_len(a) == sbuf_len(b) &&
	    (sbuf_len(a) == 0 || memcmp(sbuf_ptr(a), sbuf_ptr(b), sbuf_len(a)) == 0);
}
