/*
 * krl.h: key revocation lists in OpenSSH's binary KRL format
 * (PROTOCOL.krl, format version 1).
 *
 * A KRL revokes plain keys (by their whole public blob, or by the SHA-1 or
 * SHA-256 hash of that blob) and certificates (by serial number or key ID
 * under a given CA key, or under any CA). In memory every set is a sorted
 * array: per CA a list of disjoint serial ranges and a list of key IDs;
 * for plain keys three sorted lists of blobs. A lookup is a binary search.
 *
 * FAIL CLOSED: a KRL that fails to parse must refuse all keys. krl_parse()
 * and krl_load_file() return an error for anything they cannot fully
 * validate, and never a partial KRL; the caller must then treat every key
 * as revoked.
 *
 * Ownership: krl_new() and the parsers return a KRL the caller frees with
 * krl_free(). The revoke functions copy what they are given.
 */
#ifndef MOAT_KRL_H
#define MOAT_KRL_H

#include <stddef.h>
#include <stdint.h>

#include "cert.h"
#include "key.h"
#include "sbuf.h"

#define KRL_MAGIC		"SSHKRL\n\0"
#define KRL_MAGIC_LEN		8
#define KRL_FORMAT_VERSION	1

#define KRL_SECTION_CERTIFICATES	1
#define KRL_SECTION_EXPLICIT_KEY	2
#define KRL_SECTION_FINGERPRINT_SHA1	3
#define KRL_SECTION_SIGNATURE		4
#define KRL_SECTION_FINGERPRINT_SHA256	5

#define KRL_SECTION_CERT_SERIAL_LIST	0x20
#define KRL_SECTION_CERT_SERIAL_RANGE	0x21
#define KRL_SECTION_CERT_SERIAL_BITMAP	0x22
#define KRL_SECTION_CERT_KEY_ID		0x23

/*
 * Widest bitmap subsection we write: OpenSSH's reader refuses an mpint of
 * more than 2048 bytes (its own writer can exceed that). Reading accepts
 * any width up to the string cap.
 */
#define KRL_BITMAP_MAX_BITS	16384
/* Caps on what one parsed KRL may hold (untrusted input). */
#define KRL_MAX_RANGES		(1u << 24)
#define KRL_MAX_CAS		4096

struct krl;

struct krl *krl_new(void);
void krl_free(struct krl *krl);

void krl_set_version(struct krl *krl, uint64_t version);
uint64_t krl_version(const struct krl *krl);
/* Comment string (copied); NULL for none. */
int krl_set_comment(struct krl *krl, const char *comment);

/*
 * Parse a binary KRL (the unread bytes of b). Validates everything:
 * magic and format version, every section and subsection fully
 * consumed, known section types only, hash lengths, serials non-zero and
 * ranges ordered, bitmaps in range, key blobs and CA keys well-formed,
 * signature sections (skipped, not verified) only at the end. Serial
 * lists may be unsorted or overlap, as OpenSSH's reader allows; they are
 * merged into disjoint ranges.
 */
int krl_parse(const struct sbuf *b, struct krl **krlp);
/* Append the binary KRL, generated now, to out. */
int krl_serialize(struct krl *krl, struct sbuf *out);

/*
 * A binary KRL, or a text file of public keys one a line (blank lines and
 * '#' comments allowed), as sshd's RevokedKeys accepts. An unreadable or
 * unparsable file is an error: the caller must refuse every key.
 */
int krl_load_file(const char *path, struct krl **krlp);

/* Revoke a plain key by its public blob (a cert's plain key likewise). */
int krl_revoke_key(struct krl *krl, const struct key *key);
/* Revoke by the hash of a public key blob (20 or 32 bytes). */
int krl_revoke_sha1(struct krl *krl, const unsigned char *h, size_t len);
int krl_revoke_sha256(struct krl *krl, const unsigned char *h, size_t len);
/* Revoke the hashes of a key's public blob. */
int krl_revoke_key_sha1(struct krl *krl, const struct key *key);
int krl_revoke_key_sha256(struct krl *krl, const struct key *key);
/*
 * Revoke certificate serials lo..hi (1 <= lo <= hi) or a key ID, issued
 * by ca (NULL: by any CA).
 */
int krl_revoke_cert_serial(struct krl *krl, const struct key *ca,
    uint64_t lo, uint64_t hi);
int krl_revoke_cert_keyid(struct krl *krl, const struct key *ca,
    const char *key_id);

/*
 * 0 when neither key (a plain key) nor, when cert is not NULL, the
 * certificate or its CA key is revoked; ERR_KEY_REVOKED otherwise.
 */
int krl_check_key(const struct krl *krl, const struct key *key,
    const struct key_cert *cert);

/* The KRL as ssh-keygen -Q -l prints it, appended to out. */
int krl_dump(const struct krl *krl, struct sbuf *out);

#endif
