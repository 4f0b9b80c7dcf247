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

#define AGENTD_MAX_DESTS	1024	/* constraints on one key */
#define AGENTD_MAX_HOP_KEYS	1024	/* host keys of one hop */
#define AGENTD_MAX_USER_PATTERN	256

/* One hop of a destination constraint (agentd_dest.c). */
struct agentd_hop {
	char *user;			/* pattern; NULL: any user */
	char *host;			/* NULL: this machine ("from") */
	struct key **keys;		/* its host keys or CAs */
	int *is_ca;
	size_t nkeys;
};

struct agentd_dest {
	struct agentd_hop from, to;
};

struct agentd_id {
	struct key *key;		/* private key */
	struct key_cert *cert;		/* NULL for a plain key */
	unsigned char *blob;		/* listed blob: public key or cert */
	size_t bloblen;
	char *comment;
	uint64_t death;			/* monotonic second; 0: never */
	int confirm;			/* ask before each signature */
	struct agentd_dest *dests;	/* ssh-add -h; none: anywhere */
	size_t ndests;
	struct p11_helper *p11;		/* a token's key: this signs */
	char *sk_provider;		/* security keys: the middleware */
};

/* A PKCS#11 provider the agent has a helper for (agentd_p11.c). */
struct agentd_p11 {
	char *provider;			/* the resolved path */
	struct p11_helper *h;
};

struct agentd {
	struct agentd_config cfg;
	struct agentd_id *ids;
	size_t nids;
	int locked;
	unsigned char lock_salt[AGENTD_LOCK_SALT_LEN];
	unsigned char lock_hash[AGENTD_LOCK_HASH_LEN];
	unsigned int unlock_fails;
	struct agentd_p11 *p11s;
	size_t np11;
};

struct agentd_binding {
	unsigned char *hostkey;		/* host key blob */
	size_t hostkeylen;
	unsigned char *sid;		/* session identifier */
	size_t sidlen;
	int forwarded;
	struct key *key;		/* the host key (a certificate's key) */
	struct key_cert *cert;		/* its certificate, or NULL */
};

struct agentd_conn {
	struct sbuf *in;		/* bytes not yet handled */
	struct agentd_binding binds[AGENTD_MAX_SESSION_IDS];
	size_t nbinds;
	int bind_attempted;		/* a session-bind was seen */
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
int agentd_add(struct agentd *a, const struct agentd_conn *c,
    struct sbuf *m, int *okp);
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
/* Constraints after an added key's comment (agentd_store.c). */
int agentd_constraints(struct sbuf *m, uint32_t *lifep, int *confirmp);
/* Store k (taken, public for a token key) with comment (taken). */
int agentd_put(struct agentd *a, struct key *k, struct key_cert *c,
    char *comment, uint32_t life, int confirm);

/* agentd_p11.c: *okp 1 when done; an error only when malformed. */
int agentd_add_card(struct agentd *a, struct sbuf *m, int constrained,
    int *okp);
int agentd_remove_card(struct agentd *a, struct sbuf *m, int *okp);
/* Stop every provider's helper (and drop its keys). */
void agentd_p11_free(struct agentd *a);

/*
 * agentd_dest.c. Parse a restrict-destination-v00@openssh.com body into
 * *dp (*np of them; caller frees with agentd_dest_free() whatever the
 * result): ERR_FEATURE_UNSUPPORTED (logged) refuses the key, other
 * errors mean a malformed request.
 */
int agentd_dest_parse(struct sbuf *m, struct agentd_dest **dp, size_t *np);
void agentd_dest_free(struct agentd_dest *d, size_t n);
/*
 * 1 when id may be used over connection c: listed, removed, replaced
 * (user NULL) or sign for user at the last bound host; 0 (logged) not.
 */
int agentd_dest_permitted(const struct agentd_id *id,
    const struct agentd_conn *c, const char *user);
/* 1 when id may sign data (a userauth request) over c; 0 (logged). */
int agentd_dest_sign_ok(const struct agentd_id *id,
    const struct agentd_conn *c, const unsigned char *data, size_t dlen);

#endif
