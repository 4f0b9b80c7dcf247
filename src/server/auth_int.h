/*
 * auth_int.h: what the server's userauth files (auth.c and the method
 * files auth_pubkey.c, auth_kbdint.c, auth_hostbased.c) share: the
 * per-connection context and the handlers. They parse and answer the
 * client; every decision that needs privilege goes to ac->auth
 * (authority.h).
 */
#ifndef MOAT_AUTH_INT_H
#define MOAT_AUTH_INT_H

#include "auth.h"
#include "authority.h"
#include "cert.h"
#include "key.h"
#include "sbuf.h"

enum auth_outcome { AUTH_FAIL, AUTH_SUCCESS, AUTH_POSTPONED, AUTH_PARTIAL };

struct authctxt {
	struct transport *t;
	struct authority *auth;		/* decides; see authority.h */
	struct servconf *sc;		/* with Match applied for the user */
	const struct auth_conn *conn;
	char *user;
	char *service;
	struct passwd *pw;		/* real, or fake; no password hash */
	int valid;
	int pam;			/* the authority has a PAM transaction */
	int attempts;			/* requests seen */
	int failures;			/* counted against MaxAuthTries */
	int attempted;			/* a method beyond "none" was tried */
	int key_query;			/* this request: a key without signature */
	struct auth_chains *chains;	/* AuthenticationMethods; NULL: any */
	struct key **used_keys;		/* keys accepted in earlier steps */
	size_t nused_keys;
	struct authopts *opts;		/* from the accepted key */
	char *method;			/* the one that succeeded */
	struct sbuf *pending;		/* a request that cut kbd-int short */
	const char *submethod;		/* device of this request ("pam") */
	int hostbound;			/* this request is publickey-hostbound */
};

/* OpenSSH's name for publickey bound to the server's host key. */
#define AUTH_HOSTBOUND_METHOD	"publickey-hostbound-v00@openssh.com"


typedef int (*method_fn)(struct authctxt *, struct sbuf *,
    enum auth_outcome *, char **);

/*
 * Log why waiting for the client failed; the error to return
 * (ERR_CONN_TIMEOUT: LoginGraceTime passed, see tr_set_deadline()).
 */
int auth_wait_failed(struct authctxt *ac, int r);

/* auth_cert.c: "ED25519" for a key's type, as OpenSSH logs it. */
const char *auth_key_short_name(const struct key *k);
/* "TYPE SHA256:..." as OpenSSH logs a key (caller frees). */
char *auth_key_desc(const struct key *k, int fp_hash);
/* ": ED25519-CERT SHA256:... ID id (serial N) CA ED25519 SHA256:..." */
char *auth_cert_info(const struct key_cert *c, int fp_hash);

/* Method handlers outside auth.c. */
int auth_m_publickey(struct authctxt *, struct sbuf *, enum auth_outcome *,
    char **);
int auth_m_kbdint(struct authctxt *, struct sbuf *, enum auth_outcome *,
    char **);
int auth_m_hostbased(struct authctxt *, struct sbuf *, enum auth_outcome *,
    char **);

#endif
