/*
 * cert.h: OpenSSH certificates (PROTOCOL.certkeys, the v01 formats of
 * every key type we support: ssh-ed25519-cert-v01@openssh.com,
 * ecdsa-sha2-nistp{256,384,521}-cert-v01@openssh.com and
 * ssh-rsa-cert-v01@openssh.com).
 *
 * A struct key_cert holds the parsed fields, the subject's plain public
 * key, the CA key and the whole signed blob. Certificates are separate
 * from struct key: a cert's plain key is cert->key (so fingerprints and
 * key_* functions work on it unchanged).
 *
 * cert_from_blob() validates fully: known type, well-formed fields,
 * critical options and extensions strictly sorted by name (so unique),
 * a CA key that is a plain key (never a certificate), no trailing bytes
 * and a good signature by the CA key over everything before it. Any
 * failure is ERR_KEY_CERT_INVALID (or a parse error); no partly checked
 * certificate is ever returned.
 *
 * Ownership: constructors return a cert the caller frees with
 * cert_free().
 */
#ifndef MOAT_CERT_H
#define MOAT_CERT_H

#include <stdint.h>

#include "key.h"
#include "sbuf.h"

#define CERT_TYPE_USER	1
#define CERT_TYPE_HOST	2
#define CERT_FOREVER	UINT64_MAX

struct cert_option {
	char *name;
	unsigned char *data;	/* the option's data, as on the wire */
	size_t len;
};

struct key_cert {
	struct key *key;		/* subject public key (plain) */
	unsigned char nonce[32];
	size_t nonce_len;
	uint64_t serial;
	uint32_t type;			/* CERT_TYPE_USER / _HOST */
	char *key_id;
	char **principals;
	size_t nprincipals;
	uint64_t valid_after, valid_before;
	struct cert_option *critical;
	size_t ncritical;
	struct cert_option *extensions;
	size_t nextensions;
	struct key *ca_key;
	char *sig_alg;			/* algorithm of the CA signature */
	struct sbuf *blob;		/* whole signed certificate */
};

/* "ssh-ed25519-cert-v01@openssh.com"... for a plain key's type. */
const char *cert_type_name(const struct key *k);
/* 1 if name is a certificate key type name. */
int cert_is_cert_name(const char *name);

int cert_from_blob(const unsigned char *blob, size_t len,
    struct key_cert **certp);
/* Appends the raw certificate blob. */
int cert_to_blob(const struct key_cert *c, struct sbuf *out);
/*
 * One certificate in text form "type base64 [comment]" at *cpp, as
 * key_read_public_text(); *cpp ends at the comment.
 */
int cert_read_public_text(const char **cpp, struct key_cert **certp);
/* "type base64" (caller frees). */
char *cert_public_text(const struct key_cert *c);
/* A file holding one certificate ("-cert.pub"). */
int cert_load_public(const char *path, struct key_cert **certp,
    char **commentp);

/*
 * A new unsigned certificate for the public half of key, with a random
 * nonce, validity forever and no principals or options.
 */
int cert_new(const struct key *key, uint32_t type, struct key_cert **certp);
/* Replace (or add) an option in the sorted list; data may be NULL. */
int cert_set_option(struct key_cert *c, int critical, const char *name,
    const unsigned char *data, size_t len);
void cert_clear_options(struct key_cert *c, int critical);
int cert_add_principal(struct key_cert *c, const char *name);
/*
 * Sign with the CA's private key (sigalg NULL: the key's default,
 * rsa-sha2-512 for RSA); builds c->blob and sets c->ca_key, c->sig_alg.
 */
int cert_sign(struct key_cert *c, const struct key *ca, const char *sigalg);
/*
 * The same with the signature made elsewhere (an agent): sign gets the
 * bytes to sign and the algorithm (never NULL) and appends the signature
 * blob; ca is the CA's public key. The signature is checked before it
 * is taken.
 */
typedef int (*cert_sign_fn)(void *arg, const unsigned char *data,
    size_t len, const char *sigalg, struct sbuf *sig);
int cert_sign_with(struct key_cert *c, const struct key *ca,
    const char *sigalg, cert_sign_fn sign, void *arg);

/* The option's data when present and set to a string ("force-command"). */
const struct cert_option *cert_option(const struct key_cert *c,
    int critical, const char *name);

/*
 * Is the certificate usable now for principal (NULL: any) as a user
 * (is_host 0) or host (1) certificate? 0 or ERR_KEY_CERT_INVALID. The
 * CA itself is the caller's to trust; revocation is the KRL's to check.
 */
int cert_check(const struct key_cert *c, uint64_t now, const char *principal,
    int is_host);

/*
 * As cert_check(), with OpenSSH's reason for a refusal in *reasonp
 * (a static string). A host certificate with no principals is valid
 * for any name, as OpenSSH has it.
 */
int cert_check_reason(const struct key_cert *c, uint64_t now,
    const char *principal, int is_host, const char **reasonp);

/*
 * Certificate signature algorithms ("ssh-ed25519-cert-v01@openssh.com",
 * "rsa-sha2-512-cert-v01@openssh.com"...). cert_sigalg_base(): the plain
 * signature algorithm the subject key signs with, NULL when name is not
 * one. cert_sigalg_for(): the certificate algorithm for a plain
 * signature algorithm, or NULL. cert_sigalg_matches(): 1 if name may be
 * used with certificate c. cert_sigalg_all_names(): every certificate
 * algorithm then every plain one, for configuration lists;
 * cert_sigalg_default_names(): those of them OpenSSH offers by default
 * (HostKeyAlgorithms, PubkeyAcceptedAlgorithms...);
 * cert_ca_sigalg_default_names(): CASignatureAlgorithms' default. All
 * three are read from one table, in one order of preference.
 */
const char *cert_sigalg_base(const char *name);
const char *cert_sigalg_for(const char *sigalg);
int cert_sigalg_matches(const struct key_cert *c, const char *name);
const char *cert_sigalg_all_names(void);
const char *cert_sigalg_default_names(void);
const char *cert_ca_sigalg_default_names(void);

void cert_free(struct key_cert *c);

#endif
