/*
 * sk_client.h: making and using FIDO security keys through
 * ssh-sk-helper, which loads the middleware library (sk_api.h) in a
 * process of its own; the messages are sk_proto.h's.
 *
 * The helper is ssh-sk-helper in the install's libexec directory, else
 * the one beside the running program (a build tree). (OpenSSH's
 * $SSH_SK_HELPER names OpenSSH's own helper, which speaks another
 * protocol: it is not looked at.) One helper is started per operation
 * and ends with it.
 *
 * Each function returns 0 or an ERR_* code; when the middleware itself
 * refused, the code is ERR_FEATURE_UNSUPPORTED and *skerrp (may be
 * NULL) holds its SSH_SK_ERR_* code (SSH_SK_ERR_PIN_REQUIRED: ask for
 * a PIN and try again), else *skerrp is 0.
 */
#ifndef MOAT_SK_CLIENT_H
#define MOAT_SK_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"
#include "sbuf.h"
#include "sk_proto.h"

/* Where the middleware and the device are; pin NULL for none. */
struct sk_where {
	const char *provider;		/* library path, or "internal" */
	const char *device;		/* NULL: the middleware's choice */
	const char *pin;
};

/*
 * A new key of type (KEY_ED25519_SK or KEY_ECDSA_SK) for application
 * with flags (SSH_SK_*). challenge NULL: 32 random bytes. user NULL:
 * the middleware's default. attest (may be NULL) receives the
 * attestation in PROTOCOL.u2f's "ssh-sk-attest-v01" form. *keyp is
 * the private form (flags, key handle).
 */
int skc_enroll(const struct sk_where *w, enum key_type type,
    const char *application, uint8_t flags, const char *user,
    const unsigned char *challenge, size_t chlen, struct key **keyp,
    struct sbuf *attest, int *skerrp);
/*
 * The SSH signature of data by private security key k, appended to
 * sig once it verifies with k's public key.
 */
int skc_sign(const struct sk_where *w, const struct key *k,
    const unsigned char *data, size_t dlen, struct sbuf *sig, int *skerrp);
/* The resident keys on the authenticator (skh_resident_free them). */
int skc_load_resident(const struct sk_where *w, struct skh_resident **keysp,
    size_t *nkeysp, int *skerrp);

/* OpenSSH's words for a middleware error code ("requested feature..."). */
const char *skc_strerror(int skerr);
/* The helper's path (caller frees), or NULL when there is none. */
char *skc_helper_path(void);

#endif
