/*
 * krl_write.c: writing a KRL and printing one as text.
 *
 * Serials: the per-CA ranges are sorted and disjoint. Each maximal run is
 * written whole as part of a serial list (8 bytes a serial), a range
 * subsection (one run, 16 bytes) or a bitmap (a bit a serial from its
 * first run's low end to its last run's high end); every subsection costs
 * 5 more bytes of framing. The writer chooses the grouping of runs into
 * subsections of minimal total size by dynamic programming over the runs:
 * best[j] is the cheapest encoding of runs 0..j-1, and the three options
 * for the group ending at run j are
 *   list:   an open list either continued or newly started (linear);
 *   range:  best[j-1] + 21;
 *   bitmap: min over i of best[i] + 18 + floor((hi[j-1]-lo[i]+1)/8), for
 *           groups no wider than KRL_BITMAP_MAX_BITS; since
 *           best[i] + floor(x/8) = floor((8 best[i] + x)/8), the minimum is
 *           a sliding-window minimum of 8 best[i] - lo[i] (a monotone deque).
 * This is linear in the number of runs and never larger than any
 * greedy choice among the same encodings.
 */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "err.h"
#include "key.h"
#include "krl.h"
#include "krl_int.h"
#include "mem.h"
#include "sbuf.h"

__extension__ typedef __int128 krl_i128;

enum { ENC_LIST, ENC_RANGE, ENC_BITMAP };

#define COST_INF	((uint64_t)1 << 62)

/* Cost in bytes of n serials in a list, or COST_INF when absurd. */
static uint64_t
list_cost(uint64_t n)
{
	return n >= ((uint64_t)1 << 58) ? COST_INF : 8 * n;
}

static int
put_list(struct sbuf *out, const struct krl_range *r, size_t a, size_t b)
{
	struct sbuf *s = sbuf_new();
	uint64_t v;
	size_t i;
	int ret = 0;

	for (i = a; i < b && ret == 0; i++)
		for (v = r[i].lo; ret == 0; v++) {
			ret = sbuf_put_u64(s, v);
			if (v == r[i].hi)
				break;
		}
	if (ret == 0 && (ret = sbuf_put_u8(out,
	    KRL_SECTION_CERT_SERIAL_LIST)) == 0)
		ret = sbuf_put_stringb(out, s);
	sbuf_free(s);
	return ret;
}

static int
put_bitmap(struct sbuf *out, const struct krl_range *r, size_t a, size_t b)
{
	struct sbuf *s = sbuf_new();
	unsigned char *bm;
	uint64_t base = r[a].lo, nbits = r[b - 1].hi - base + 1, v;
	size_t nbytes = (size_t)(nbits + 7) / 8, i;
	int ret;

	bm = x_calloc(1, nbytes);
	for (i = a; i < b; i++)
		for (v = r[i].lo - base; v <= r[i].hi - base; v++)
			bm[nbytes - 1 - v / 8] |= (unsigned char)(1u << (v % 8));
	if ((ret = sbuf_put_u64(s, base)) == 0 &&
	    (ret = sbuf_put_u32(s, (uint32_t)(nbytes + (bm[0] >> 7)))) == 0 &&
	    (ret = (bm[0] & 0x80) ? sbuf_put_u8(s, 0) : 0) == 0 &&
	    (ret = sbuf_put(s, bm, nbytes)) == 0 &&
	    (ret = sbuf_put_u8(out, KRL_SECTION_CERT_SERIAL_BITMAP)) == 0)
		ret = sbuf_put_stringb(out, s);
	x_free(bm);
	sbuf_free(s);
	return ret;
}

static int
put_range(struct sbuf *out, const struct krl_range *r)
{
	int ret;

	if ((ret = sbuf_put_u8(out, KRL_SECTION_CERT_SERIAL_RANGE)) != 0 ||
	    (ret = sbuf_put_u32(out, 16)) != 0 ||
	    (ret = sbuf_put_u64(out, r->lo)) != 0)
		return ret;
	return sbuf_put_u64(out, r->hi);
}

static int
put_serials(struct sbuf *out, const struct krl_range *r, size_t n)
{
	uint64_t *best, *lbest, c;
	size_t *lstart, *from, *dq, dh = 0, dt = 0, j, i, ngroups;
	unsigned char *enc;
	krl_i128 x, bx;
	int ret = 0;

	best = x_calloc(n + 1, sizeof(*best));
	lbest = x_calloc(n + 1, sizeof(*lbest));
	lstart = x_calloc(n + 1, sizeof(*lstart));
	from = x_calloc(n + 1, sizeof(*from));
	dq = x_calloc(n + 1, sizeof(*dq));
	enc = x_calloc(n + 1, 1);
	lbest[0] = COST_INF;
	for (j = 1; j <= n; j++) {
		const struct krl_range *cur = &r[j - 1];

		/* List: continue the open list or start one here. */
		c = list_cost(cur->hi - cur->lo + 1);
		if (lbest[j - 1] <= best[j - 1] + 5) {
			lbest[j] = lbest[j - 1] + c;
			lstart[j] = lstart[j - 1];
		} else {
			lbest[j] = best[j - 1] + 5 + c;
			lstart[j] = j - 1;
		}
		if (lbest[j] > COST_INF)
			lbest[j] = COST_INF;
		best[j] = lbest[j];
		enc[j] = ENC_LIST;
		from[j] = lstart[j];
		if (best[j - 1] + 21 < best[j]) {
			best[j] = best[j - 1] + 21;
			enc[j] = ENC_RANGE;
			from[j] = j - 1;
		}
		/* Bitmap: window of groups starting at runs i <= j-1. */
		x = (krl_i128)best[j - 1] * 8 - (krl_i128)r[j - 1].lo;
		while (dt > dh && (krl_i128)best[dq[dt - 1]] * 8 -
		    (krl_i128)r[dq[dt - 1]].lo >= x)
			dt--;
		dq[dt++] = j - 1;
		while (dh < dt &&
		    cur->hi - r[dq[dh]].lo >= KRL_BITMAP_MAX_BITS)
			dh++;
		if (dh < dt) {
			i = dq[dh];
			bx = (krl_i128)best[i] * 8 - (krl_i128)r[i].lo +
			    (krl_i128)cur->hi + 1;
			c = 18 + (uint64_t)(bx / 8);
			if (c < best[j]) {
				best[j] = c;
				enc[j] = ENC_BITMAP;
				from[j] = i;
			}
		}
	}
	/* Walk back to find the groups, then write them in order. */
	ngroups = 0;
	for (j = n; j > 0; j = from[j])
		dq[ngroups++] = j;
	while (ngroups > 0 && ret == 0) {
		j = dq[--ngroups];
		i = from[j];
		if (enc[j] == ENC_LIST)
			ret = put_list(out, r, i, j);
		else if (enc[j] == ENC_RANGE)
			ret = put_range(out, &r[i]);
		else
			ret = put_bitmap(out, r, i, j);
	}
	x_free(best);
	x_free(lbest);
	x_free(lstart);
	x_free(from);
	x_free(dq);
	x_free(enc);
	return ret;
}

static int
put_ca(struct sbuf *out, const struct krl_ca *c)
{
	struct sbuf *s = sbuf_new(), *ids = sbuf_new();
	size_t i;
	int r;

	if ((r = sbuf_put_string(s, c->blob, c->blob_len)) != 0 ||
	    (r = sbuf_put_string(s, NULL, 0)) != 0 ||
	    (r = put_serials(s, c->r, c->nr)) != 0)
		goto out;
	for (i = 0; i < c->ids.n; i++)
		if ((r = sbuf_put_string(ids, c->ids.v[i].p,
		    c->ids.v[i].len)) != 0)
			goto out;
	if (c->ids.n > 0 &&
	    ((r = sbuf_put_u8(s, KRL_SECTION_CERT_KEY_ID)) != 0 ||
	    (r = sbuf_put_stringb(s, ids)) != 0))
		goto out;
	if ((r = sbuf_put_u8(out, KRL_SECTION_CERTIFICATES)) == 0)
		r = sbuf_put_stringb(out, s);
 out:
	sbuf_free(s);
	sbuf_free(ids);
	return r;
}

static int
put_blobs(struct sbuf *out, int type, const struct krl_blobset *set)
{
	struct sbuf *s;
	size_t i;
	int r = 0;

	if (set->n == 0)
		return 0;
	s = sbuf_new();
	for (i = 0; i < set->n && r == 0; i++)
		r = sbuf_put_string(s, set->v[i].p, set->v[i].len);
	if (r == 0 && (r = sbuf_put_u8(out, (uint8_t)type)) == 0)
		r = sbuf_put_stringb(out, s);
	sbuf_free(s);
	return r;
}

int
krl_serialize(struct krl *krl, struct sbuf *out)
{
	size_t i;
	int r;

	krl_normalize(krl);
	krl->date = (uint64_t)time(NULL);
	if ((r = sbuf_put(out, KRL_MAGIC, KRL_MAGIC_LEN)) != 0 ||
	    (r = sbuf_put_u32(out, KRL_FORMAT_VERSION)) != 0 ||
	    (r = sbuf_put_u64(out, krl->version)) != 0 ||
	    (r = sbuf_put_u64(out, krl->date)) != 0 ||
	    (r = sbuf_put_u64(out, 0)) != 0 ||
	    (r = sbuf_put_string(out, NULL, 0)) != 0 ||
	    (r = sbuf_put_cstring(out, krl->comment != NULL ?
	    krl->comment : "")) != 0)
		return r;
	for (i = 0; i < krl->ncas; i++)
		if ((r = put_ca(out, &krl->cas[i])) != 0)
			return r;
	if ((r = put_blobs(out, KRL_SECTION_EXPLICIT_KEY, &krl->keys)) != 0 ||
	    (r = put_blobs(out, KRL_SECTION_FINGERPRINT_SHA1,
	    &krl->sha1)) != 0)
		return r;
	return put_blobs(out, KRL_SECTION_FINGERPRINT_SHA256, &krl->sha256);
}

/* Printable form of an untrusted string: bytes outside ' '..'~' as \ooo. */
static int
put_safe(struct sbuf *out, const unsigned char *p, size_t len)
{
	size_t i;
	int r = 0;

	for (i = 0; i < len && r == 0; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f)
			r = sbuf_put_u8(out, p[i]);
		else
			r = sbuf_putf(out, "\\%03o", p[i]);
	}
	return r;
}

static int
put_hex_line(struct sbuf *out, const char *prefix, const struct krl_blob *b)
{
	struct sbuf *v = sbuf_from(b->p, b->len);
	char *hex = sbuf_to_hex(v);
	int r;

	r = sbuf_putf(out, "%s%s\n", prefix, hex);
	x_free(hex);
	sbuf_free(v);
	return r;
}

int
krl_dump(const struct krl *krl, struct sbuf *out)
{
	const struct krl_ca *c;
	struct key *k;
	char ts[64], *fp;
	struct tm tm;
	time_t t = (time_t)krl->date;
	size_t i, j;
	int r;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(ts, sizeof(ts), "%Y%m%dT%H%M%S", &tm) == 0)
		strcpy(ts, "INVALID");
	if ((r = sbuf_putf(out, "# KRL version %llu\n# Generated at %s\n",
	    (unsigned long long)krl->version, ts)) != 0)
		return r;
	if (krl->comment != NULL && *krl->comment != '\0') {
		if ((r = sbuf_putf(out, "# Comment: ")) != 0 ||
		    (r = put_safe(out, (unsigned char *)krl->comment,
		    strlen(krl->comment))) != 0 ||
		    (r = sbuf_put_u8(out, '\n')) != 0)
			return r;
	}
	if ((r = sbuf_put_u8(out, '\n')) != 0)
		return r;
	for (i = 0; i < krl->keys.n; i++) {
		if ((r = key_from_blob(krl->keys.v[i].p, krl->keys.v[i].len,
		    &k)) != 0)
			return r;
		fp = key_fingerprint(k, KEY_FP_SHA256);
		r = sbuf_putf(out, "hash: %s # %s\n", fp, key_type_name(k));
		x_free(fp);
		key_free(k);
		if (r != 0)
			return r;
	}
	for (i = 0; i < krl->sha256.n; i++)
		if ((r = put_hex_line(out, "hash: SHA256:",
		    &krl->sha256.v[i])) != 0)
			return r;
	for (i = 0; i < krl->sha1.n; i++)
		if ((r = put_hex_line(out, "# hash SHA1:",
		    &krl->sha1.v[i])) != 0)
			return r;
	for (i = 0; i < krl->ncas; i++) {
		c = &krl->cas[i];
		if (c->ca == NULL)
			r = sbuf_putf(out, "\n# Wildcard CA\n");
		else {
			fp = key_fingerprint(c->ca, KEY_FP_SHA256);
			r = sbuf_putf(out, "\n# CA key %s %s\n",
			    key_type_name(c->ca), fp);
			x_free(fp);
		}
		for (j = 0; j < c->nr && r == 0; j++) {
			if (c->r[j].lo == c->r[j].hi)
				r = sbuf_putf(out, "serial: %llu\n",
				    (unsigned long long)c->r[j].lo);
			else
				r = sbuf_putf(out, "serial: %llu-%llu\n",
				    (unsigned long long)c->r[j].lo,
				    (unsigned long long)c->r[j].hi);
		}
		for (j = 0; j < c->ids.n && r == 0; j++) {
			if ((r = sbuf_putf(out, "id: ")) == 0 &&
			    (r = put_safe(out, c->ids.v[j].p,
			    c->ids.v[j].len)) == 0)
				r = sbuf_put_u8(out, '\n');
		}
		if (r != 0)
			return r;
	}
	return 0;
}
