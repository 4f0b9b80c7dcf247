/*
 * umac.h: UMAC (RFC 4418) with AES-128, for the umac-*@openssh.com MACs.
 *
 * A context holds the derived hash keys and a keyed AES for the pad
 * function; it is built once by umac_new and then tags any number of
 * messages without allocating. Tags of 4, 8, 12 or 16 bytes are
 * supported (UMAC-32/64/96/128); SSH uses 8 and 16.
 */
#ifndef MOAT_UMAC_H
#define MOAT_UMAC_H

#include <stddef.h>

#define UMAC_KEY_LEN	16
#define UMAC_MAX_TAG	16
#define UMAC_MAX_NONCE	16

struct umac_ctx;

/* taglen is 4, 8, 12 or 16; key is UMAC_KEY_LEN bytes. */
int umac_new(struct umac_ctx **ctxp, const unsigned char *key,
    unsigned int taglen);
/*
 * Writes the taglen-byte tag of msg under nonce (1..UMAC_MAX_NONCE
 * bytes) to tag. Messages of any length are accepted.
 */
int umac_tag(struct umac_ctx *ctx, const unsigned char *msg, size_t len,
    const unsigned char *nonce, size_t noncelen, unsigned char *tag);
void umac_free(struct umac_ctx *ctx);

#endif
