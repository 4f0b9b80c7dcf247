/*
 * key_int.h: what the files of src/keys share and nobody else needs:
 * the key type and signature algorithm tables, and the per-type private
 * key body codec used by the openssh-key-v1 file format.
 *
 * One row of keytypes[] describes a public key type (its name on the
 * wire, its libcrypto group, the SSH curve identifier). One row of
 * sigalgs[] describes a signature algorithm (its name, the key type it
 * needs, its hash).
 */
#ifndef MOAT_KEY_INT_H
#define MOAT_KEY_INT_H

#include "key.h"

struct keytype {
	const char *name;		/* "ssh-ed25519", "ecdsa-sha2-nistp256" */
	const char *shortname;		/* "ED25519", "ECDSA", "RSA" */
	enum key_type type;
	int nid;			/* curve for ECDSA, else 0 */
	const char *curve;		/* "nistp256" in the blob */
	const char *group;		/* libcrypto group name */
	unsigned int field_len;		/* bytes of one coordinate */
};

struct sigalg {
	const char *name;
	enum key_type type;
	int nid;			/* ECDSA: curve the key must have */
	const EVP_MD *(*md)(void);	/* NULL for ed25519 */
};

#define KEY_RSA_MIN_BITS	1024
#define KEY_RSA_MAX_BITS	16384
#define ED25519_PK_LEN		32
#define ED25519_SK_LEN		64	/* seed || public, as on disk */

/* Row for a key, or NULL. */
const struct keytype *keytype_of(const struct key *k);
const struct keytype *keytype_by_name(const char *name);
const struct sigalg *sigalg_by_name(const char *name);

/* A fresh, empty struct key. */
struct key *key_new(enum key_type type, int nid);

/*
 * Public key parts from a blob after its type name was read (b at the
 * first type-specific field).
 */
int key_public_from_sbuf(const struct keytype *kt, struct sbuf *b,
    struct key **keyp);

/* Keys from their parts (key.c; d, iqmp, p, q may be NULL for public). */
int key_ec_from_parts(const struct keytype *kt, const unsigned char *q,
    size_t qlen, const BIGNUM *d, EVP_PKEY **pkeyp);
int key_rsa_from_parts(const BIGNUM *n, const BIGNUM *e, const BIGNUM *d,
    const BIGNUM *iqmp, const BIGNUM *p, const BIGNUM *q, EVP_PKEY **pkeyp);
/* The type-specific public fields of a blob (after the name). */
int key_public_fields_to_sbuf(const struct key *k, struct sbuf *out);

/*
 * Private key body as in PROTOCOL.key (key_priv.c): string type then the type's
 * public and private fields (key_private_to_sbuf, in key.h, appends
 * it).
 */
int key_private_from_sbuf(struct sbuf *b, struct key **keyp);

/* Uncompressed EC point 04||X||Y of an EC key into out (alloc'd). */
int key_ec_point(const struct key *k, unsigned char **pp, size_t *lenp);

/* Get a BIGNUM parameter of a key (caller frees). */
int key_get_bn(const struct key *k, const char *param, BIGNUM **bnp);

/* Wrap a libcrypto key (taking ownership) into a struct key. */
int key_from_pkey(EVP_PKEY *pkey, int has_private, struct key **keyp);

/*
 * PEM / PKCS#8 private key text via libcrypto (key_pem.c).
 * ERR_KEY_WRONG_PASSPHRASE when an encrypted key does not open.
 */
int key_parse_pem(const struct sbuf *file, const char *passphrase,
    struct key **keyp);
/* PKCS#1/SEC 1 (pkcs8 0) or PKCS#8 PEM text of a private RSA/ECDSA key. */
int key_serialize_pem(const struct key *k, const char *passphrase,
    int pkcs8, struct sbuf *out);

/*
 * A security key signature (key_sk.c): b is at the first field after
 * the algorithm name (the inner signature); everything up to its end
 * must belong to the signature. det may be NULL.
 */
int key_sk_verify(const struct key *k, const char *sigalg, struct sbuf *b,
    const unsigned char *data, size_t dlen, struct key_sig_details *det);

/* The raw Ed25519 or ECDSA check of sig over data (key_sig.c). */
int key_raw_verify(const struct key *k, const EVP_MD *md,
    const unsigned char *sig, size_t siglen, const unsigned char *data,
    size_t dlen);
int key_ecdsa_sig_to_der(const unsigned char *sig, size_t siglen,
    unsigned char **derp, size_t *lenp);

#endif
