/*
 * key.h: public and private keys of every type we support, their wire
 * blobs, signatures, fingerprints and text forms. Key types are table
 * rows (name, libcrypto type, curve, signature hash).
 *
 * A struct key holds a libcrypto EVP_PKEY, public or private. Ownership:
 * the key_* constructors return a key the caller frees with key_free(),
 * which wipes private material.
 *
 * Signature algorithm names: "ssh-ed25519", "ecdsa-sha2-nistp256/384/521",
 * "rsa-sha2-512", "rsa-sha2-256", "ssh-rsa" (SHA-1). For RSA keys the
 * signature algorithm is separate from the key type name ("ssh-rsa").
 *
 * FIDO security keys (PROTOCOL.u2f), "sk-ssh-ed25519@openssh.com" and
 * "sk-ecdsa-sha2-nistp256@openssh.com", are an Ed25519 or P-256 public
 * key plus the application string the authenticator bound it to. Their
 * signatures are verified here (key_verify_details() hands back the
 * authenticator's flags and counter). Their "private" form holds no
 * secret, only what the authenticator needs to sign (flags, key
 * handle): has_private is set for it, but key_sign() refuses it; the
 * signing goes through the middleware (sk_client.h).
 */
#ifndef MOAT_KEY_H
#define MOAT_KEY_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "sbuf.h"

enum key_type {
	KEY_UNSPEC = 0,
	KEY_ED25519,
	KEY_ECDSA,
	KEY_RSA,
	KEY_ED25519_SK,		/* sk-ssh-ed25519@openssh.com */
	KEY_ECDSA_SK,		/* sk-ecdsa-sha2-nistp256@openssh.com */
};

struct key {
	enum key_type type;
	int ecdsa_nid;		/* NID_X9_62_prime256v1 ... for KEY_ECDSA */
	int has_private;
	EVP_PKEY *pkey;
	char *sk_application;	/* security keys: "ssh:"...; else NULL */
	/* Private security keys only (PROTOCOL.u2f's private fields): */
	unsigned char sk_flags;	/* SSH_SK_* of sk_api.h */
	unsigned char *sk_key_handle;
	size_t sk_key_handle_len;
	unsigned char *sk_reserved;
	size_t sk_reserved_len;
};

/* Authenticator flags in a security key signature (PROTOCOL.u2f). */
#define KEY_SK_USER_PRESENT	0x01
#define KEY_SK_USER_VERIFIED	0x04

/*
 * What a security key signature says beyond valid/invalid: its flags
 * byte and signature counter. is_sk is 0 for every other key type.
 */
struct key_sig_details {
	int is_sk;
	unsigned char sk_flags;
	uint32_t sk_counter;
};

enum key_fp_hash {
	KEY_FP_SHA256, KEY_FP_MD5, KEY_FP_SHA1, KEY_FP_SHA384, KEY_FP_SHA512,
};

/* "ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa"... of a key. */
const char *key_type_name(const struct key *k);
/* "ED25519", "ECDSA-SK", "RSA"...: OpenSSH's sshkey_type() words. */
const char *key_short_name(const struct key *k);
/* Key type and curve for a key type name or signature algorithm name. */
int key_type_from_name(const char *name, enum key_type *type, int *nid);
/* 1 if name is a signature algorithm usable with key k. */
int key_sigalg_matches(const struct key *k, const char *sigalg);
/* All signature algorithms we support, comma-separated, preference order. */
const char *key_sigalg_all_names(void);
/* Bits: 256 for ed25519/P-256, modulus size for RSA. */
unsigned int key_bits(const struct key *k);

/* Public key blob (RFC 4253 section 6.6 form) to key and back. */
int key_from_blob(const unsigned char *blob, size_t len, struct key **keyp);
/* Appends the raw blob (not length-prefixed) to out. */
int key_to_blob(const struct key *k, struct sbuf *out);
int key_equal_public(const struct key *a, const struct key *b);
/* New key holding only the public half of k. */
int key_demote(const struct key *k, struct key **pubp);

/*
 * Sign data; sigalg selects the algorithm (NULL: the key's default, which
 * for RSA is "rsa-sha2-512"). Appends the signature blob
 * (string alg, string sig) to out.
 */
int key_sign(const struct key *k, const char *sigalg,
    const unsigned char *data, size_t dlen, struct sbuf *out);
/*
 * Verify a signature blob. If sigalg is not NULL the blob's algorithm
 * must equal it. ERR_SIGNATURE_INVALID on a bad signature.
 */
int key_verify(const struct key *k, const unsigned char *sig, size_t siglen,
    const unsigned char *data, size_t dlen, const char *sigalg);
/*
 * key_verify() that also fills *det (may be NULL) on success. For an
 * ECDSA security key, sigalg "sk-ecdsa-sha2-nistp256@openssh.com" and
 * "webauthn-sk-ecdsa-sha2-nistp256@openssh.com" each accept both
 * signature forms, as OpenSSH does.
 */
int key_verify_details(const struct key *k, const unsigned char *sig,
    size_t siglen, const unsigned char *data, size_t dlen,
    const char *sigalg, struct key_sig_details *det);
/* 1 for a security key (KEY_ED25519_SK, KEY_ECDSA_SK). */
int key_is_sk(const struct key *k);
/* The algorithm name inside a signature blob (caller frees). */
int key_sig_alg(const unsigned char *sig, size_t siglen, char **algp);

/* bits: 0 for the type's default (RSA 3072, ECDSA 256). */
int key_generate(enum key_type type, unsigned int bits, struct key **keyp);

/* "SHA256:base64-without-padding" or "MD5:hex:with:colons" (caller frees). */
char *key_fingerprint(const struct key *k, enum key_fp_hash hash);
/* A hash by its name ("sha256", "MD5"..., any case), and the name back. */
int key_fp_hash_from_name(const char *name, enum key_fp_hash *hashp);
const char *key_fp_hash_name(enum key_fp_hash hash);
/* The digest of the key's blob; dgst holds EVP_MAX_MD_SIZE bytes. */
int key_fingerprint_raw(const struct key *k, enum key_fp_hash hash,
    unsigned char *dgst, unsigned int *dlenp);
/* Bubble babble words for bytes, and of a key's SHA-1 (caller frees). */
char *bubblebabble(const unsigned char *p, size_t len);
char *key_bubblebabble(const struct key *k);
/* OpenSSH randomart picture for a fingerprint (caller frees). */
char *key_randomart(const struct key *k, enum key_fp_hash hash);
/* The same for a certificate of k, titled "[TYPE-CERT ...]". */
char *key_randomart_cert(const struct key *k, enum key_fp_hash hash);

/*
 * One public key in OpenSSH text form "type base64 [comment]" at *cpp;
 * leading whitespace skipped. On success *cpp points past the base64 field
 * (at the comment, if any). Refuses a base64 blob whose type disagrees
 * with the type field.
 */
int key_read_public_text(const char **cpp, struct key **keyp);
/* "type base64" (caller frees); no comment, no newline. */
char *key_public_text(const struct key *k);

/* Public key file (".pub"): key and comment (*commentp may be NULL). */
int key_load_public(const char *path, struct key **keyp, char **commentp);
/*
 * Private key file: openssh-key-v1 (unencrypted or bcrypt+aes256-ctr, and
 * the other ciphers OpenSSH writes), or PEM/PKCS#8 via libcrypto.
 * passphrase may be NULL or "". ERR_KEY_WRONG_PASSPHRASE when it does not
 * decrypt. Refuses files readable by group or others when check_perms.
 */
int key_load_private(const char *path, const char *passphrase,
    int check_perms, struct key **keyp, char **commentp);
int key_parse_private(const struct sbuf *file, const char *passphrase,
    struct key **keyp, char **commentp);
/*
 * The public key an openssh-key-v1 file carries in the clear (encrypted
 * or not), as OpenSSH reads it when a key has no .pub beside it.
 */
int key_load_private_public(const char *path, struct key **keyp);
/*
 * Write an openssh-key-v1 private key (mode 0600) and, when pub_path is
 * not NULL, the public key line. passphrase NULL or "" means unencrypted;
 * rounds is the bcrypt KDF work factor (0: 16).
 */
int key_save_private(const struct key *k, const char *path,
    const char *passphrase, const char *comment, unsigned int rounds);
int key_serialize_private(const struct key *k, const char *passphrase,
    const char *comment, unsigned int rounds, struct sbuf *out);
/*
 * key_save_private() in a chosen format: PEM (PKCS#1 or SEC 1) and PKCS8
 * drop the comment and apply to RSA and ECDSA keys (an Ed25519 key is
 * written as openssh-key-v1 whatever the format); their passphrase, when
 * not empty, needs five characters (ERR_PASSPHRASE_TOO_SHORT).
 */
enum key_file_format { KEY_FILE_OPENSSH, KEY_FILE_PEM, KEY_FILE_PKCS8 };
int key_save_private_as(const struct key *k, const char *path,
    const char *passphrase, const char *comment, unsigned int rounds,
    enum key_file_format fmt);
/* "type base64 comment" (a NULL comment: no blank after the key). */
int key_save_public(const struct key *k, const char *path,
    const char *comment);

/*
 * A private key's body as openssh-key-v1 files and the agent protocol's
 * ADD_IDENTITY carry it: string type name, then the type's public and
 * private fields. ERR_INVALID_ARGUMENT for a public key.
 */
int key_private_to_sbuf(const struct key *k, struct sbuf *b);
/*
 * The private fields that follow a certificate in ADD_IDENTITY
 * (PROTOCOL.certkeys forms): Ed25519 string pk, string seed||pk;
 * ECDSA mpint d; RSA mpint d, iqmp, p, q. A security key's, as
 * OpenSSH's agent takes them: Ed25519-SK string pk, then for both
 * string application, byte flags, string key handle, string reserved.
 */
int key_private_cert_fields_to_sbuf(const struct key *k, struct sbuf *b);
/*
 * A private security key's fields after its application: byte flags,
 * string key handle, string reserved.
 */
int key_sk_private_to_sbuf(const struct key *k, struct sbuf *b);

void key_free(struct key *k);

#endif
