/*
 * sshsig.h: SSH signatures of files and messages (OpenSSH's
 * PROTOCOL.sshsig), as "ssh-keygen -Y" and git's gpg.format=ssh make and
 * check them.
 *
 * A signature is a binary blob: "SSHSIG", a version (1), the signer's
 * public key or certificate blob, a namespace ("git", "file"...), a
 * reserved string, the name of the hash the message was digested with
 * ("sha256" or "sha512") and an ordinary SSH signature blob. What the key
 * signs is not the message but "SSHSIG", the namespace, the reserved
 * string, the hash name and the message's digest, so a signature made for
 * one namespace never checks in another and can never be mistaken for one
 * of the SSH protocol's own. On disk the blob is armored: base64 between
 * BEGIN and END lines, wrapped at 70 columns.
 *
 * Parsing takes untrusted bytes and validates fully (a certificate's own
 * CA signature included); nothing partly parsed is returned. A parser's
 * why buffer, when not NULL, receives the message OpenSSH's ssh-keygen
 * prints for the same failure, so that ours reads the same.
 *
 * Ownership: sshsig_parse() returns a struct the caller frees with
 * sshsig_free().
 */
#ifndef MOAT_SSHSIG_H
#define MOAT_SSHSIG_H

#include <stddef.h>

#include "cert.h"
#include "key.h"
#include "sbuf.h"

#define SSHSIG_MAGIC		"SSHSIG"
#define SSHSIG_MAGIC_LEN	6
#define SSHSIG_VERSION		1
#define SSHSIG_BEGIN		"-----BEGIN SSH SIGNATURE-----\n"
#define SSHSIG_END		"-----END SSH SIGNATURE-----"
#define SSHSIG_DEFAULT_HASH	"sha512"
#define SSHSIG_WHY_MAX		256

struct sshsig {
	struct key *key;	/* the signer's plain key (a cert's subject) */
	struct key_cert *cert;	/* when a certificate signed; else NULL */
	char *ns;		/* namespace */
	char *hashalg;		/* "sha256" or "sha512" (checked at verify) */
	unsigned char *sig;	/* signature blob: string alg, string sig */
	size_t siglen;
};

/* 1 when name is a hash a signature may use ("sha256", "sha512"). */
int sshsig_hashalg_ok(const char *name);
/*
 * The digest of everything read from fd up to end of file, or of
 * [p, p+len), with hash hashalg, appended to out. ERR_INVALID_ARGUMENT
 * for a hash sshsig_hashalg_ok() refuses.
 */
int sshsig_hash_fd(const char *hashalg, int fd, struct sbuf *out);
int sshsig_hash_mem(const char *hashalg, const void *p, size_t len,
    struct sbuf *out);

/* What the key signs for a digest h of a message, appended to out. */
int sshsig_signed_data(const char *ns, const char *hashalg,
    const unsigned char *h, size_t hlen, struct sbuf *out);
/*
 * The signature blob for a key (or certificate) blob, namespace, hash
 * name and signature blob (string alg, string sig), appended to out.
 */
int sshsig_encode(const unsigned char *keyblob, size_t keylen,
    const char *ns, const char *hashalg, const unsigned char *sig,
    size_t siglen, struct sbuf *out);

/* The armored text of a signature blob (BEGIN line to END line and a
 * newline), appended to out. */
int sshsig_armor(const struct sbuf *blob, struct sbuf *out);
/*
 * The blob inside armored text: the text must start with the BEGIN line;
 * the END line must follow a newline; what comes after it is ignored.
 * Appends the decoded blob to out.
 */
int sshsig_dearmor(const unsigned char *text, size_t len, struct sbuf *out,
    char *why, size_t whylen);

/*
 * Parse a signature blob. key_only: stop after the signer's key (as
 * ssh-keygen -Y find-principals does: the rest is not looked at); the
 * result's other fields are then NULL. ERR_INVALID_FORMAT (or a parse
 * error) for anything malformed, ERR_FEATURE_UNSUPPORTED for a version
 * above 1.
 */
int sshsig_parse(const unsigned char *blob, size_t len, int key_only,
    struct sshsig **sigp, char *why, size_t whylen);
/*
 * Check a parsed signature over a message whose digest, made with
 * s->hashalg, is h: the namespace must be ns, an RSA signature must be
 * rsa-sha2-256 or -512, and the signature must be good.
 * ERR_SIGNATURE_INVALID when it is not.
 */
int sshsig_verify(const struct sshsig *s, const char *ns,
    const unsigned char *h, size_t hlen, char *why, size_t whylen);
/* "ED25519", "ECDSA-CERT"...: the signer's type as ssh-keygen names it. */
const char *sshsig_key_label(const struct sshsig *s);

void sshsig_free(struct sshsig *s);

#endif
