/*
 * mac.h: SSH transport MACs, one table row per algorithm.
 *
 * HMAC is computed over uint32(seqnr) || data; UMAC over data alone, with
 * uint64(seqnr) as its nonce. For the classic encrypt-and-MAC forms data
 * is the plaintext packet (length, padding length, payload, padding); for the *-etm@openssh.com forms (alg->etm)
 * it is the 4-byte plain packet length followed by the ciphertext.
 * mac_check() compares in constant time.
 */
#ifndef MOAT_MAC_H
#define MOAT_MAC_H

#include <stddef.h>
#include <stdint.h>

struct mac_alg {
	const char *name;
	unsigned int key_len;	/* bytes of key material */
	unsigned int mac_len;	/* bytes of tag on the wire */
	int etm;		/* encrypt-then-MAC */
	const void *impl;	/* private to mac.c */
};

struct mac_ctx;

const struct mac_alg *mac_by_name(const char *name);
const char *mac_all_names(void);
/* OpenSSH 9.2's default MACs list (EtM first). */
const char *mac_default_names(void);

int mac_init(struct mac_ctx **ctxp, const struct mac_alg *alg,
    const unsigned char *key, unsigned int keylen);
/* out must hold alg->mac_len bytes. */
int mac_compute(struct mac_ctx *ctx, uint32_t seqnr,
    const unsigned char *data, size_t len, unsigned char *out);
/* 0 if tag (alg->mac_len bytes) is right, ERR_MAC_INVALID if not. */
int mac_check(struct mac_ctx *ctx, uint32_t seqnr,
    const unsigned char *data, size_t len, const unsigned char *tag);
const struct mac_alg *mac_ctx_alg(const struct mac_ctx *ctx);
/*
 * The key (alg->key_len bytes), for another process to mac_init() the
 * same MAC: HMAC and UMAC keep no state between packets but the key
 * (the sequence number is their nonce).
 */
int mac_export(const struct mac_ctx *ctx, unsigned char *key);
void mac_free(struct mac_ctx *ctx);

#endif
