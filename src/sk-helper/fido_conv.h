/*
 * fido_conv.h: the parts of the built-in libfido2 provider (fido.c)
 * that need no authenticator: turning what libfido2 hands back (a
 * credential's public key, ID and attestation; an assertion's
 * signature, flags and counter; a resident credential) into the
 * sk_api.h structures, the user ID of an enrollment, and the options
 * the caller passed. All
 * of it takes plain bytes, so it is tested without a device.
 */
#ifndef MOAT_SK_FIDO_CONV_H
#define MOAT_SK_FIDO_CONV_H

#include <stddef.h>
#include <stdint.h>

#include "sk_api.h"

#define SKF_USER_ID_LEN		32
#define SKF_DEFAULT_USER	"openssh"

/* The bytes of one part of a credential (ptr NULL or len 0: empty). */
struct skf_bytes {
	const uint8_t *ptr;
	size_t len;
};

/* What enrollment got back from the authenticator. */
struct skf_cred {
	uint32_t alg;			/* SSH_SK_ED25519 / SSH_SK_ECDSA */
	uint8_t flags;			/* what sk_enroll_response carries */
	struct skf_bytes pubkey;	/* libfido2's form: x || y, or 32 */
	struct skf_bytes id;		/* the credential ID: key handle */
	struct skf_bytes sig;		/* attestation signature */
	struct skf_bytes x5c;		/* attestation certificate */
	struct skf_bytes authdata;	/* CBOR-encoded authenticator data */
};

/* The caller's options: device path and user name (NULL when unset). */
struct skf_opts {
	const char *device;
	const char *user;
};

/*
 * The options list (NULL-terminated, may be NULL) into o; an option we
 * do not know is ignored unless it is marked required (then
 * SSH_SK_ERR_UNSUPPORTED).
 */
int skf_parse_options(struct sk_option **opts, struct skf_opts *o);

/* The user ID of a new credential: the user name's bytes, zero-padded. */
void skf_user_id(const char *user, uint8_t out[SKF_USER_ID_LEN]);

/*
 * The public key in sk_api's form: 32 bytes of Ed25519, or the
 * uncompressed P-256 point (0x04 || x || y) from x || y (a leading
 * 0x04 is accepted too). Returns 0 or SSH_SK_ERR_GENERAL.
 */
int skf_pubkey(uint32_t alg, const uint8_t *pk, size_t len, uint8_t **outp,
    size_t *outlenp);

/* A new credential as an sk_enroll_response (malloc'd, free() parts). */
int skf_enroll_response(const struct skf_cred *c,
    struct sk_enroll_response **respp);

/*
 * An assertion as an sk_sign_response: Ed25519's 64 bytes go to sig_r,
 * an ECDSA signature (DER ECDSA-Sig-Value) is split into r and s.
 */
int skf_sign_response(uint32_t alg, const uint8_t *sig, size_t siglen,
    uint8_t flags, uint32_t counter, struct sk_sign_response **respp);

/*
 * A resident credential as a listed key (malloc'd): c converted as for
 * an enrollment (c->flags also become the key's flags), app and the
 * user ID (may be empty) copied; slot is its place in the device's list.
 */
int skf_resident_key(const struct skf_cred *c, const char *app, size_t slot,
    const struct skf_bytes *user_id, struct sk_resident_key **rkp);

/* Free what the functions above made (_parts: not e itself). */
void skf_enroll_free_parts(struct sk_enroll_response *e);
void skf_enroll_free(struct sk_enroll_response *e);
void skf_sign_free(struct sk_sign_response *s);
void skf_resident_free(struct sk_resident_key *rk);
/* A list of n resident keys and the array itself. */
void skf_resident_list_free(struct sk_resident_key **list, size_t n);

#endif
