/*
 * authinfo_rec.h: what the monitor keeps of the methods that succeeded.
 * Each yes from the backend may become a step of the user's
 * AuthenticationMethods chains and a line of ExposeAuthInfo's text
 * (authinfo.h); the last method and the restrictions of every key that
 * logged in go to the session, and a key that served as a step may not
 * serve again.
 *
 * The record is embedded in the monitor (no allocation of its own
 * beyond the text and the keys it keeps); authrec_clear() frees what
 * it holds.
 */
#ifndef MOAT_AUTHINFO_REC_H
#define MOAT_AUTHINFO_REC_H

#include <pwd.h>
#include <stddef.h>

#include "auth.h"
#include "authopts.h"
#include "sbuf.h"

#define AUTHREC_MAX_KEYS	16

struct authrec {
	int chain_done;			/* an AuthenticationMethods chain */
	int forced;			/* a key with command="..." logged in */
	struct authopts *opts;		/* the keys' restrictions, joined */
	char *method;			/* the last method that succeeded */
	struct sbuf *text;		/* each one's line (ExposeAuthInfo) */
	struct sbuf *keys_used[AUTHREC_MAX_KEYS];
	size_t nkeys_used;
};

void authrec_init(struct authrec *ar);
void authrec_clear(struct authrec *ar);

/*
 * 1 if the key blob already served as a step; otherwise 0, and it is
 * remembered (up to AUTHREC_MAX_KEYS keys).
 */
int authrec_key_used(struct authrec *ar, const unsigned char *blob,
    size_t len);

/*
 * A public key succeeded with restrictions opts (copied): as OpenSSH,
 * they join those of the keys before it (authopts_merge()), so a second
 * key cannot lift what the first one's line imposes. 0, or
 * ERR_PERMISSION_DENIED when the two force different commands (the key
 * then does not count, and the record is as it was).
 */
int authrec_add_key_opts(struct authrec *ar, const struct authopts *opts);

/*
 * The backend said yes to method for user pw under PermitRootLogin
 * permit_root: a step of chains, if root may log in that way, and a line
 * of ExposeAuthInfo's text when the step was due (blob, info: as
 * authinfo_add()).
 */
void authrec_success(struct authrec *ar, const struct passwd *pw,
    int permit_root, struct auth_chains *chains, const char *method,
    const unsigned char *blob, size_t bloblen, const char *info);

/*
 * Hand the restrictions (a fresh empty set when no key gave any), the
 * last method and ExposeAuthInfo's text to res; the record keeps none
 * of them.
 */
void authrec_take(struct authrec *ar, struct auth_result *res);

#endif
