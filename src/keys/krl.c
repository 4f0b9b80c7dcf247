/*
 * krl.c: key revocation lists: the sets, revocation and lookup (the
 * binary parser and loading from disk are in krl_parse.c, the writer in
 * krl_write.c).
 *
 * The sets cap what they hold (KRL_MAX_RANGES ranges, KRL_MAX_CAS CA
 * sections). Serials arrive as lists, ranges and bitmaps in any order and
 * are merged into sorted, disjoint ranges per CA, so a lookup is one
 * binary search.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "cert.h"
#include "err.h"
#include "key.h"
#include "krl.h"
#include "krl_int.h"
#include "mem.h"
#include "sbuf.h"

struct krl *
krl_new(void)
{
	return x_calloc(1, sizeof(struct krl));
}

static void
blobset_free(struct krl_blobset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		x_free(s->v[i].p);
	x_free(s->v);
	memset(s, 0, sizeof(*s));
}

void
krl_free(struct krl *krl)
{
	size_t i;

	if (krl == NULL)
		return;
	for (i = 0; i < krl->ncas; i++) {
		key_free(krl->cas[i].ca);
		x_free(krl->cas[i].blob);
		x_free(krl->cas[i].r);
		blobset_free(&krl->cas[i].ids);
	}
	x_free(krl->cas);
	blobset_free(&krl->keys);
	blobset_free(&krl->sha1);
	blobset_free(&krl->sha256);
	x_free(krl->comment);
	x_free(krl);
}

void
krl_set_version(struct krl *krl, uint64_t version)
{
	krl->version = version;
}

uint64_t
krl_version(const struct krl *krl)
{
	return krl->version;
}

int
krl_set_comment(struct krl *krl, const char *comment)
{
	x_free(krl->comment);
	krl->comment = comment != NULL ? x_strdup(comment) : NULL;
	return 0;
}

int
krl_blob_cmp(const struct krl_blob *a, const struct krl_blob *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c;

	if (n > 0 && (c = memcmp(a->p, b->p, n)) != 0)
		return c;
	if (a->len == b->len)
		return 0;
	return a->len < b->len ? -1 : 1;
}

static int
blob_qcmp(const void *a, const void *b)
{
	return krl_blob_cmp(a, b);
}

/* Add a copy of p unless already present. */
int
krl_blobset_add(struct krl_blobset *s, const unsigned char *p, size_t len)
{
	struct krl_blob nb;
	int c;

	nb.p = (unsigned char *)p;
	nb.len = len;
	if (s->n > 0 && !s->unsorted) {
		c = krl_blob_cmp(&s->v[s->n - 1], &nb);
		if (c == 0)
			return 0;
		if (c > 0)
			s->unsorted = 1;
	}
	if (s->n >= SBUF_MAX_SIZE / sizeof(*s->v))
		return ERR_NO_BUFFER_SPACE;
	if (s->n == s->alloc) {
		s->alloc = s->alloc == 0 ? 16 : s->alloc * 2;
		s->v = x_reallocarray(s->v, s->alloc, sizeof(*s->v));
	}
	s->v[s->n].p = x_memdup(p, len == 0 ? 1 : len);
	s->v[s->n].len = len;
	s->n++;
	return 0;
}

static void
blobset_normalize(struct krl_blobset *s)
{
	size_t i, o;

	if (!s->unsorted)
		return;
	qsort(s->v, s->n, sizeof(*s->v), blob_qcmp);
	for (i = o = 0; i < s->n; i++) {
		if (o > 0 && krl_blob_cmp(&s->v[o - 1], &s->v[i]) == 0) {
			x_free(s->v[i].p);
			continue;
		}
		s->v[o++] = s->v[i];
	}
	s->n = o;
	s->unsorted = 0;
}

static int
blobset_has(const struct krl_blobset *s, const unsigned char *p, size_t len)
{
	struct krl_blob k;
	size_t i;

	if (s->n == 0)
		return 0;
	k.p = (unsigned char *)p;
	k.len = len;
	if (s->unsorted) {
		for (i = 0; i < s->n; i++)
			if (krl_blob_cmp(&s->v[i], &k) == 0)
				return 1;
		return 0;
	}
	return bsearch(&k, s->v, s->n, sizeof(*s->v), blob_qcmp) != NULL;
}

static int
range_qcmp(const void *a, const void *b)
{
	const struct krl_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return 0;
}

static void
ranges_normalize(struct krl_ca *c)
{
	size_t i, o;

	if (!c->r_unsorted)
		return;
	qsort(c->r, c->nr, sizeof(*c->r), range_qcmp);
	for (i = o = 0; i < c->nr; i++) {
		if (o > 0 && (c->r[i].lo <= c->r[o - 1].hi ||
		    c->r[i].lo - 1 == c->r[o - 1].hi)) {
			if (c->r[i].hi > c->r[o - 1].hi)
				c->r[o - 1].hi = c->r[i].hi;
			continue;
		}
		c->r[o++] = c->r[i];
	}
	c->nr = o;
	c->r_unsorted = 0;
}

int
krl_ranges_add(struct krl_ca *c, uint64_t lo, uint64_t hi)
{
	struct krl_range *last;

	if (lo == 0 || lo > hi)
		return ERR_INVALID_FORMAT;
	if (c->nr > 0 && !c->r_unsorted) {
		last = &c->r[c->nr - 1];
		if (lo >= last->lo && (lo <= last->hi || lo - 1 == last->hi)) {
			if (hi > last->hi)
				last->hi = hi;
			return 0;
		}
		if (lo < last->lo)
			c->r_unsorted = 1;
	}
	if (c->nr >= KRL_MAX_RANGES)
		return ERR_NO_BUFFER_SPACE;
	if (c->nr == c->ar) {
		c->ar = c->ar == 0 ? 16 : c->ar * 2;
		c->r = x_reallocarray(c->r, c->ar, sizeof(*c->r));
	}
	c->r[c->nr].lo = lo;
	c->r[c->nr].hi = hi;
	c->nr++;
	return 0;
}

static int
ranges_has(const struct krl_ca *c, uint64_t serial)
{
	size_t lo = 0, hi = c->nr, mid, i;

	if (c->r_unsorted) {
		for (i = 0; i < c->nr; i++)
			if (serial >= c->r[i].lo && serial <= c->r[i].hi)
				return 1;
		return 0;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (serial < c->r[mid].lo)
			hi = mid;
		else if (serial > c->r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

int
krl_normalize(struct krl *krl)
{
	size_t i;

	for (i = 0; i < krl->ncas; i++) {
		ranges_normalize(&krl->cas[i]);
		blobset_normalize(&krl->cas[i].ids);
	}
	blobset_normalize(&krl->keys);
	blobset_normalize(&krl->sha1);
	blobset_normalize(&krl->sha256);
	return 0;
}

/* The section for a CA blob (len 0: any CA), made when create is set. */
int
krl_ca_find(struct krl *krl, const unsigned char *blob, size_t len, int create,
    struct krl_ca **cp)
{
	struct krl_ca *c;
	size_t i;
	int r;

	*cp = NULL;
	for (i = 0; i < krl->ncas; i++) {
		c = &krl->cas[i];
		if (c->blob_len == len &&
		    (len == 0 || memcmp(c->blob, blob, len) == 0)) {
			*cp = c;
			return 0;
		}
	}
	if (!create)
		return ERR_NOT_FOUND;
	if (krl->ncas >= KRL_MAX_CAS)
		return ERR_NO_BUFFER_SPACE;
	krl->cas = x_reallocarray(krl->cas, krl->ncas + 1, sizeof(*krl->cas));
	c = &krl->cas[krl->ncas];
	memset(c, 0, sizeof(*c));
	if (len > 0) {
		if ((r = key_from_blob(blob, len, &c->ca)) != 0)
			return r;
		c->blob = x_memdup(blob, len);
		c->blob_len = len;
	}
	krl->ncas++;
	*cp = c;
	return 0;
}

static int
ca_for_key(struct krl *krl, const struct key *ca, struct krl_ca **cp)
{
	struct sbuf *b;
	int r;

	if (ca == NULL)
		return krl_ca_find(krl, NULL, 0, 1, cp);
	if ((b = sbuf_new()) == NULL)
		return ERR_ALLOC;
	if ((r = key_to_blob(ca, b)) == 0)
		r = krl_ca_find(krl, sbuf_ptr(b), sbuf_len(b), 1, cp);
	sbuf_free(b);
	return r;
}

int
krl_revoke_cert_serial(struct krl *krl, const struct key *ca, uint64_t lo,
    uint64_t hi)
{
	struct krl_ca *c;
	int r;

	if (lo == 0 || lo > hi)
		return ERR_INVALID_ARGUMENT;
	if ((r = ca_for_key(krl, ca, &c)) != 0)
		return r;
	return krl_ranges_add(c, lo, hi);
}

int
krl_revoke_cert_keyid(struct krl *krl, const struct key *ca,
    const char *key_id)
{
	struct krl_ca *c;
	int r;

	if ((r = ca_for_key(krl, ca, &c)) != 0)
		return r;
	return krl_blobset_add(&c->ids, (const unsigned char *)key_id,
	    strlen(key_id));
}

static int
key_blob_hash(const struct key *key, const char *md, unsigned char *out,
    size_t *outlen)
{
	struct sbuf *b;
	unsigned int n = 0;
	int r;

	if ((b = sbuf_new()) == NULL)
		return ERR_ALLOC;
	if ((r = key_to_blob(key, b)) == 0 &&
	    EVP_Digest(sbuf_ptr(b), sbuf_len(b), out, &n,
	    EVP_get_digestbyname(md), NULL) != 1)
		r = ERR_LIBCRYPTO;
	*outlen = n;
	sbuf_free(b);
	return r;
}

int
krl_revoke_key(struct krl *krl, const struct key *key)
{
	struct sbuf *b;
	int r;

	if ((b = sbuf_new()) == NULL)
		return ERR_ALLOC;
	if ((r = key_to_blob(key, b)) == 0)
		r = krl_blobset_add(&krl->keys, sbuf_ptr(b), sbuf_len(b));
	sbuf_free(b);
	return r;
}

int
krl_revoke_sha1(struct krl *krl, const unsigned char *h, size_t len)
{
	if (len != 20)
		return ERR_INVALID_ARGUMENT;
	return krl_blobset_add(&krl->sha1, h, len);
}

int
krl_revoke_sha256(struct krl *krl, const unsigned char *h, size_t len)
{
	if (len != 32)
		return ERR_INVALID_ARGUMENT;
	return krl_blobset_add(&krl->sha256, h, len);
}

int
krl_revoke_key_sha1(struct krl *krl, const struct key *key)
{
	unsigned char h[EVP_MAX_MD_SIZE];
	size_t len;
	int r;

	if ((r = key_blob_hash(key, "SHA1", h, &len)) != 0)
		return r;
	return krl_revoke_sha1(krl, h, len);
}

int
krl_revoke_key_sha256(struct krl *krl, const struct key *key)
{
	unsigned char h[EVP_MAX_MD_SIZE];
	size_t len;
	int r;

	if ((r = key_blob_hash(key, "SHA256", h, &len)) != 0)
		return r;
	return krl_revoke_sha256(krl, h, len);
}

/* Is a plain key revoked by blob or hash? */
static int
key_revoked(const struct krl *krl, const struct key *key)
{
	unsigned char h[EVP_MAX_MD_SIZE];
	struct sbuf *b;
	unsigned int n;
	int r = 0;

	if ((b = sbuf_new()) == NULL)
		return ERR_ALLOC;
	if ((r = key_to_blob(key, b)) != 0)
		goto out;
	if (blobset_has(&krl->keys, sbuf_ptr(b), sbuf_len(b))) {
		r = ERR_KEY_REVOKED;
		goto out;
	}
	if (krl->sha1.n > 0) {
		if (EVP_Digest(sbuf_ptr(b), sbuf_len(b), h, &n, EVP_sha1(),
		    NULL) != 1) {
			r = ERR_LIBCRYPTO;
			goto out;
		}
		if (blobset_has(&krl->sha1, h, n)) {
			r = ERR_KEY_REVOKED;
			goto out;
		}
	}
	if (krl->sha256.n > 0) {
		if (EVP_Digest(sbuf_ptr(b), sbuf_len(b), h, &n, EVP_sha256(),
		    NULL) != 1) {
			r = ERR_LIBCRYPTO;
			goto out;
		}
		if (blobset_has(&krl->sha256, h, n))
			r = ERR_KEY_REVOKED;
	}
 out:
	sbuf_free(b);
	return r;
}

static int
cert_revoked_under(const struct krl_ca *c, const struct key_cert *cert)
{
	if (blobset_has(&c->ids, (const unsigned char *)cert->key_id,
	    strlen(cert->key_id)))
		return 1;
	return cert->serial != 0 && ranges_has(c, cert->serial);
}

int
krl_check_key(const struct krl *krl, const struct key *key,
    const struct key_cert *cert)
{
	struct sbuf *b = NULL;
	size_t i;
	int r;

	if ((r = key_revoked(krl, key)) != 0)
		return r;
	if (cert == NULL)
		return 0;
	if (cert->key != NULL && cert->key != key &&
	    (r = key_revoked(krl, cert->key)) != 0)
		return r;
	if ((r = key_revoked(krl, cert->ca_key)) != 0)
		return r;
	if ((b = sbuf_new()) == NULL)
		return ERR_ALLOC;
	if ((r = key_to_blob(cert->ca_key, b)) != 0)
		goto out;
	for (i = 0; i < krl->ncas; i++) {
		const struct krl_ca *c = &krl->cas[i];

		if (c->blob_len != 0 && (c->blob_len != sbuf_len(b) ||
		    memcmp(c->blob, sbuf_ptr(b), c->blob_len) != 0))
			continue;
		if (cert_revoked_under(c, cert)) {
			r = ERR_KEY_REVOKED;
			goto out;
		}
	}
 out:
	sbuf_free(b);
	return r;
}
