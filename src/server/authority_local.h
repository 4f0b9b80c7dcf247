/*
 * authority_local.h: what the files of the in-process authority
 * (authority_local.c, authority_keys.c) and the privileged checks they
 * call (auth_cert.c) share. Nothing here is for the pre-auth code: it
 * reaches these through authority.h only.
 */
#ifndef MOAT_AUTHORITY_LOCAL_H
#define MOAT_AUTHORITY_LOCAL_H

#include <pwd.h>

#include "auth_pam.h"
#include "authority.h"
#include "cert.h"
#include "key.h"

/* One connection's state, as the authority knows it. */
struct authority_local {
	const struct servconf *gsc;	/* global settings */
	struct auth_conn conn;		/* strings below */
	char *remote_host, *remote_addr, *local_addr;
	struct key *const *hostkeys;	/* private */
	size_t nhostkeys;
	const struct transport *t;	/* session id */
	unsigned char sid[64];		/* or this one (no transport) */
	size_t sidlen;
	size_t sid_hostkey;		/* its host key (no transport) */
	int sid_hostkey_set;
	/* Set by user_lookup. */
	char *user;
	struct passwd *pw;		/* the real entry, or a fake one */
	int valid;
	struct servconf *sc;		/* with Match applied */
	struct auth_pam *pam;		/* UsePAM transaction or NULL */
};

/*
 * 0 when user_lookup has run and user names the user it looked up;
 * ERR_PERMISSION_DENIED (logged) otherwise.
 */
int authority_local_user_is(const struct authority_local *l,
    const char *user);

/* authority_keys.c: the rows of the key operations. */
int authority_local_hostkey_sign(void *impl, size_t idx, const char *alg,
    const unsigned char *data, size_t dlen, struct sbuf *sig);
int authority_local_pubkey_check(void *impl,
    const struct authority_pubkey_req *q, int *okp,
    struct authopts **optsp);
int authority_local_hostbased_check(void *impl,
    const struct authority_hostbased_req *q, int *okp);

/*
 * auth_cert.c. May this user certificate log in as pw from conn
 * (authorized_keys cert-authority lines, then TrustedUserCAKeys /
 * AuthorizedPrincipalsFile / AuthorizedPrincipalsCommand, then
 * AuthorizedKeysCommand)? 0 and *optsp (the restrictions, certificate
 * options applied; caller frees) or nonzero (refusal logged).
 */
int auth_cert_allowed(const struct servconf *sc, const struct passwd *pw,
    const struct auth_conn *conn, const struct key_cert *c,
    struct authopts **optsp);
/*
 * RevokedKeys of sc: 1 (logged, OpenSSH's wording) if key, or
 * certificate cert (key is then its subject key) or its CA, is revoked,
 * or the file cannot be checked; 0 if not revoked or no RevokedKeys.
 */
int auth_key_revoked(const struct servconf *sc, const struct key *key,
    const struct key_cert *cert);

#endif
