/*
 * agentd_int.h: what the files of the agent's request handling share:
 * the store of identities, one connection's state, and the store's
 * operations that agentd.c calls (agentd_store.c).
 */
#ifndef MOAT_AGENTD_INT_H
#define MOAT_AGENTD_INT_H

#include "agentd.h"
#include "cert.h"

#define AGENTD_LOCK_SALT_LEN	16
#define AGENTD_LOCK_HASH_LEN	32

struct agentd_id {
	struct key *key;		/* private key */
	struct key_cert *cert;		/* NULL for a plain key */
	unsigned char *blob;		/* listed blob: public key or cert */
	size_t bloblen;
	char *comment;
	uint64_t death;			/* monotonic second; 0: never */
	int confirm;			/* ask before each signature */
	char *sk_provider;		/* security keys: the middleware */
};

struct agentd {
	struct agentd_config cfg;
	struct agentd_id *ids;
	size_t nids;
	int locked;
	unsigned char lock_salt[AGENTD_LOCK_SALT_LEN];
	unsigned char lock_hash[AGENTD_LOCK_HASH_LEN];
	unsigned int unlock_fails;
};

struct agentd_binding {
	unsigned char *hostkey;		/* host key blob */
	size_t hostkeylen;
	unsigned char *sid;		/* session identifier */
	size_t sidlen;
	int forwarded;
};

struct agentd_conn {
	struct sbuf *in;		/* bytes not yet handled */
	struct agentd_binding binds[AGENTD_MAX_SESSION_IDS];
	size_t nbinds;
};

/* Errors that mean "the request does not parse": close the client. */
int agentd_malformed(int r);
uint64_t agentd_now(const struct agentd *a);

/* The identity listed as blob, or NULL. */
struct agentd_id *agentd_find(struct agentd *a, const unsigned char *blob,
    size_t len);
/*
 * ADD_IDENTITY / ADD_ID_CONSTRAINED after the type byte. *okp: 1 when
 * the key was added (or replaced), 0 when it is refused. Returns an
 * error only when the request is malformed.
 */
int agentd_add(struct agentd *a, struct sbuf *m, int *okp);
/*
 * agentd_sk.c: the "sk-provider@openssh.com" constraint's library (m
 * after the name) into *providerp when -P allows it (ERR_PERMISSION_
 * DENIED when not); and a signature by a security key through it.
 */
int agentd_sk_provider(const struct agentd *a, struct sbuf *m,
    char **providerp);
int agentd_sk_sign(const struct agentd_id *id, const unsigned char *data,
    size_t dlen, struct sbuf *sig);
/* Remove (and wipe) the identity at index i. */
void agentd_remove_at(struct agentd *a, size_t i);
void agentd_remove_all(struct agentd *a);

#endif
