/*
 * kexalg.h: key-agreement methods, one table row per algorithm; the math
 * of key exchange with no protocol state (that lives in src/transport).
 *
 * Every method fits one shape: each side makes an ephemeral key pair and
 * sends its public value; each side derives the shared secret K from its
 * private value and the peer's public one. What differs (curve, group,
 * hash, encoding of the public value) is in the table row.
 *
 * Encodings, as they appear both on the wire and inside the exchange hash:
 *  - ECDH and curve25519 (RFC 5656, RFC 8731): public value is an SSH
 *    string (uncompressed point / 32 raw bytes).
 *  - Finite-field DH (RFC 4253, RFC 8268, RFC 4419): public value is an
 *    mpint.
 *  - Post-quantum hybrids (KEM + ECDH; kexalg_pq.c): the client's value
 *    is KEM public key || ECDH public, the server's KEM ciphertext ||
 *    ECDH public, both strings.
 *  - K is handed back as an mpint (for curve25519 the 32 output bytes
 *    read as a big-endian unsigned number, RFC 8731 section 3.1), except
 *    for the hybrids, whose K is a string: HASH(K_PQ || K_CL).
 *
 * The client calls kexalg_keygen, sends its value, then kexalg_derive
 * with the server's. The server answers the client's value with
 * kexalg_reply, which makes its own value and K at once (a KEM's
 * ciphertext depends on the client's key).
 */
#ifndef MOAT_KEXALG_H
#define MOAT_KEXALG_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>

#include "sbuf.h"

enum kex_kind {
	KEX_KIND_ECDH,		/* curve25519 and NIST curves: msgs 30/31 */
	KEX_KIND_DH,		/* fixed groups: msgs 30/31 */
	KEX_KIND_DHGEX,		/* group exchange: msgs 34/31/32/33 */
	KEX_KIND_KEM,		/* post-quantum hybrid: msgs 30/31 */
};

struct kex_alg {
	const char *name;
	enum kex_kind kind;
	const char *digest;	/* libcrypto digest name: "SHA256" ... */
	unsigned int hash_len;	/* bytes of digest output */
	const void *impl;	/* private to kexalg.c */
};

struct kex_eph;

const struct kex_alg *kexalg_by_name(const char *name);
const char *kexalg_all_names(void);
/* OpenSSH 10.5's default KexAlgorithms: post-quantum hybrids first. */
const char *kexalg_default_names(void);
/* sshd's: the same less finite-field Diffie-Hellman, as OpenSSH 10.0+. */
const char *kexalg_server_default_names(void);

/*
 * Make an ephemeral key pair. For KEX_KIND_DHGEX p and g give the group
 * (otherwise they are ignored and may be NULL). Appends our public value
 * to pub in its wire encoding (string or mpint as above).
 */
int kexalg_keygen(const struct kex_alg *alg, const BIGNUM *p,
    const BIGNUM *g, struct kex_eph **ephp, struct sbuf *pub);
/*
 * peer/peerlen: the peer's public value, as the string contents (ECDH) or
 * the mpint magnitude from sbuf_get_mpint_direct (DH). It is validated
 * (point on curve, 1 < f < p-1, ...). Appends K as an mpint to K.
 */
int kexalg_derive(struct kex_eph *eph, const unsigned char *peer,
    size_t peerlen, struct sbuf *K);
/*
 * Server: answer the client's public value peer (string contents): make
 * our ephemeral state in *ephp, append our public value to pub (wire
 * encoding) and K. The peer's value is validated as for kexalg_derive.
 * *ephp is set even on failure; the caller frees it.
 */
int kexalg_reply(const struct kex_alg *alg, const BIGNUM *p,
    const BIGNUM *g, const unsigned char *peer, size_t peerlen,
    struct kex_eph **ephp, struct sbuf *pub, struct sbuf *K);
void kexalg_eph_free(struct kex_eph *eph);

/* out must hold alg->hash_len bytes. */
int kexalg_hash(const struct kex_alg *alg, const unsigned char *data,
    size_t len, unsigned char *out);
/*
 * RFC 4253 section 7.2: need bytes of key material for letter c ('A' ..
 * 'F'): HASH(K || H || c || session_id), extended by HASH(K || H || K1...)
 * until long enough. K is the mpint encoding (as kexalg_derive made it).
 */
int kexalg_derive_key(const struct kex_alg *alg, const struct sbuf *K,
    const unsigned char *H, size_t hlen, char c,
    const unsigned char *session_id, size_t sidlen,
    unsigned char *out, size_t need);

/*
 * DH group exchange, server side: pick a safe-prime group with size in
 * [min, max] bits closest to want (RFC 4419), from an OpenSSH moduli file
 * (/etc/ssh/moduli format); falls back to the RFC 3526 groups 14/16/18
 * when the file is missing or has no fitting group, as OpenSSH does.
 * Caller frees *pp and *gp.
 */
int kexalg_gex_choose(const char *moduli_path, uint32_t min, uint32_t want,
    uint32_t max, BIGNUM **pp, BIGNUM **gp);

#endif
