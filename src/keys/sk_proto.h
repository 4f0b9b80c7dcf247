/*
 * sk_proto.h: the messages between the programs and ssh-sk-helper, the
 * one process that loads a security key middleware (sk_api.h).
 *
 * Each message is uint32 length || body, over the helper's stdin and
 * stdout. A request body:
 *
 *	byte	type (SKH_ENROLL, SKH_SIGN, SKH_LOAD_RESIDENT)
 *	string	provider (path of the middleware library)
 *	string	pin ("" for none)
 *	string	device ("" for the middleware's choice)
 *	SKH_ENROLL:	uint32 alg, string application, byte flags,
 *			string challenge, string user ("" for none)
 *	SKH_SIGN:	uint32 alg, string application, byte flags,
 *			string key handle, string data
 *
 * A reply body is byte SKH_FAIL, uint32 the middleware's error code
 * negated (1 for SSH_SK_ERR_GENERAL ...), or byte SKH_OK and:
 *
 *	SKH_ENROLL:	byte flags, string public key, string key handle,
 *			string signature, string attestation certificate,
 *			string authenticator data
 *	SKH_SIGN:	byte flags, uint32 counter, string r, string s
 *	SKH_LOAD_RESIDENT: uint32 count, then per key uint32 alg,
 *			string application, byte flags, string public
 *			key, string key handle, string user id
 *
 * The helper runs third-party code: every reply is hostile. The
 * skh_parse_* functions check it whole and build our own objects from
 * it (keys, a signature blob); nothing of the reply is trusted beyond
 * them.
 */
#ifndef MOAT_SK_PROTO_H
#define MOAT_SK_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"
#include "sbuf.h"

#define SKH_ENROLL		1
#define SKH_SIGN		2
#define SKH_LOAD_RESIDENT	3
#define SKH_OK			0x80
#define SKH_FAIL		0x7f

#define SKH_MAX_MSG		(256 * 1024)	/* a message body */
#define SKH_MAX_FIELD		(16 * 1024)	/* one field in a reply */
#define SKH_MAX_RESIDENT	256		/* keys in one listing */

/* A request (strings NUL-terminated; NULL read as ""). */
struct skh_request {
	uint8_t type;
	char *provider;
	char *pin;
	char *device;
	uint32_t alg;			/* SSH_SK_ED25519 / SSH_SK_ECDSA */
	char *application;
	uint8_t flags;
	unsigned char *data;		/* challenge, or data to sign */
	size_t datalen;
	unsigned char *key_handle;
	size_t khlen;
	char *user;
};

/* One key from SKH_LOAD_RESIDENT. */
struct skh_resident {
	struct key *key;		/* private form: flags, handle */
	unsigned char *user_id;
	size_t user_id_len;
};

/* Append the request (length-prefixed) to out. */
int skh_request_put(const struct skh_request *q, struct sbuf *out);
/* Parse a request body (without its length); free with skh_request_free. */
int skh_request_get(struct sbuf *body, struct skh_request *q);
void skh_request_free(struct skh_request *q);

/* The sk_api algorithm number of a security key type, and back. */
int skh_alg_of(enum key_type type, uint32_t *algp);

/*
 * The status byte at the head of a reply body: 0 for SKH_OK (body then
 * at the fields), ERR_PROTOCOL for garbage, else ERR_FEATURE_UNSUPPORTED
 * with *skerrp the middleware's SSH_SK_ERR_* code.
 */
int skh_reply_status(struct sbuf *body, int *skerrp);

/*
 * An enrollment reply's fields into a private security key of type
 * alg, bound to application; the attestation (the
 * "ssh-sk-attest-v01" form of PROTOCOL.u2f) is appended to attest
 * when it is not NULL.
 */
int skh_parse_enroll(struct sbuf *body, uint32_t alg, const char *application,
    struct key **keyp, struct sbuf *attest);
/*
 * A signature reply's fields into the SSH signature blob of key k
 * (string alg, string signature, byte flags, uint32 counter), appended
 * to sig. The caller still verifies it against what was signed.
 */
int skh_parse_sign(struct sbuf *body, const struct key *k, struct sbuf *sig);
/* A resident key listing; *nkeysp of them, free with skh_resident_free. */
int skh_parse_resident(struct sbuf *body, struct skh_resident **keysp,
    size_t *nkeysp);
void skh_resident_free(struct skh_resident *keys, size_t n);

#endif
