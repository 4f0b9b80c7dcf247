/*
 * helper.h: ssh-pkcs11-helper's state: the one module it serves, the
 * token slots it opened a session on, and the keys it found there.
 * token.c loads the module and finds the keys; sign.c makes signatures;
 * main.c reads the requests (p11_client.h has the protocol).
 *
 * Whatever the module returns is checked as if it came from the
 * network: attribute lengths are capped before allocation, key material
 * must parse into a key of ours, signatures must have the size their
 * key implies.
 */
#ifndef MOAT_P11_HELPER_H
#define MOAT_P11_HELPER_H

#include <stddef.h>

#include "key.h"
#include "p11_defs.h"
#include "sbuf.h"

#define P11H_MAX_SLOTS	64
#define P11H_MAX_ATTR	(64 * 1024)	/* longest attribute value read */

struct p11h_slot {
	CK_SLOT_ID id;
	CK_SESSION_HANDLE sess;
	char label[33];			/* token label, blanks trimmed */
	int login_required;
	int logged_in;
};

struct p11h_key {
	size_t slot;			/* index into slots */
	struct key *pub;
	char *label;
	unsigned char *ckid;		/* CKA_ID: finds the private key */
	size_t ckidlen;
};

struct p11h {
	void *dl;
	CK_FUNCTION_LIST *f;
	int initialized;
	struct p11h_slot *slots;
	size_t nslots;
	struct p11h_key *keys;
	size_t nkeys;
};

/* request.c */
/* A request body after its type byte; the strings are copies. */
struct p11h_request {
	uint8_t type;			/* P11_OPEN, P11_SIGN */
	char *path;			/* P11_OPEN: the module */
	char *pin;			/* both: "" for none */
	size_t pinlen;
	const unsigned char *blob;	/* P11_SIGN: point into the body */
	size_t bloblen;
	const unsigned char *data;
	size_t dlen;
	uint32_t flags;
};
/*
 * Parse the body m of a request of type: ERR_INVALID_FORMAT when it is
 * malformed or has bytes left over, ERR_FEATURE_UNSUPPORTED for an
 * unknown type. Clear q with p11h_request_clear after a 0.
 */
int p11h_request_parse(uint8_t type, struct sbuf *m, struct p11h_request *q);
void p11h_request_clear(struct p11h_request *q);

/* token.c */
/*
 * Load the module at path, open every initialized token, log in where
 * a PIN is given and wanted, and collect the keys. ERR_KEY_WRONG_-
 * PASSPHRASE: a token refused the PIN. *whyp: a message (caller frees).
 */
int p11h_open(struct p11h *h, const char *path, const char *pin,
    char **whyp);
void p11h_close(struct p11h *h);
/* Log in to slot s with pin; 0 when logged in (or not needed). */
int p11h_login(struct p11h *h, struct p11h_slot *s, const char *pin);
/* An attribute's value (caller frees *valp); 0 or an error. */
int p11h_get_attr(struct p11h *h, CK_SESSION_HANDLE sess,
    CK_OBJECT_HANDLE obj, CK_ATTRIBUTE_TYPE type, unsigned char **valp,
    size_t *lenp);

/* keyconv.c */
/* SSH public keys from token attributes or an X.509 certificate. */
int p11h_rsa_key(const unsigned char *n, size_t nlen,
    const unsigned char *e, size_t elen, struct key **kp);
int p11h_ec_key(const unsigned char *params, size_t plen,
    const unsigned char *point, size_t ptlen, struct key **kp);
int p11h_x509_key(const unsigned char *der, size_t len, struct key **kp);
/* ECDSA r||s (each half the field size) to SSH's mpint r, mpint s. */
int p11h_ecdsa_sig(const unsigned char *rs, size_t len, size_t flen,
    struct sbuf *out);

/* sign.c */
/*
 * Sign data with key k under flags (P11_RSA_SHA2_*) into the SSH
 * signature blob sig. ERR_PERMISSION_DENIED: the token wants a PIN.
 */
int p11h_sign(struct p11h *h, struct p11h_key *k, const unsigned char *data,
    size_t dlen, unsigned int flags, struct sbuf *sig);

#endif
