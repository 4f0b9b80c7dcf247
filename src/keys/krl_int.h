/*
 * krl_int.h: the in-memory KRL shared by krl.c (sets, lookups),
 * krl_parse.c (parser, loading) and krl_write.c (writer, text dump). Not
 * for use outside src/keys.
 *
 * Every set is an array kept sorted while additions arrive in order; an
 * out-of-order addition only marks the set unsorted, and krl_normalize()
 * sorts and merges it (the parser and the writer call it). Lookups on an
 * unsorted set fall back to a linear scan, so they are always right.
 */
#ifndef MOAT_KRL_INT_H
#define MOAT_KRL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"

struct krl_range {
	uint64_t lo, hi;
};

struct krl_blob {
	unsigned char *p;
	size_t len;
};

struct krl_blobset {
	struct krl_blob *v;
	size_t n, alloc;
	int unsorted;
};

struct krl_ca {
	struct key *ca;			/* NULL: any CA */
	unsigned char *blob;		/* CA public blob; NULL for any CA */
	size_t blob_len;
	struct krl_range *r;		/* disjoint, non-adjacent when sorted */
	size_t nr, ar;
	int r_unsorted;
	struct krl_blobset ids;		/* key IDs, without their NUL */
};

struct krl {
	uint64_t version;
	uint64_t date;
	char *comment;
	struct krl_ca *cas;		/* in order of first appearance */
	size_t ncas;
	struct krl_blobset keys;	/* explicit public key blobs */
	struct krl_blobset sha1;
	struct krl_blobset sha256;
};

/* Add a copy of p to s unless already present. */
int krl_blobset_add(struct krl_blobset *s, const unsigned char *p,
    size_t len);
/* Revoke serials lo..hi under c (merged later by krl_normalize). */
int krl_ranges_add(struct krl_ca *c, uint64_t lo, uint64_t hi);
/* The section for a CA blob (len 0: any CA), made when create is set. */
int krl_ca_find(struct krl *krl, const unsigned char *blob, size_t len,
    int create, struct krl_ca **cp);
/* Sort and merge every set. */
int krl_normalize(struct krl *krl);
/* Order of blobs: bytewise, a prefix before a longer blob. */
int krl_blob_cmp(const struct krl_blob *a, const struct krl_blob *b);

#endif
