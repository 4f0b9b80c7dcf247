/*
 * p11_client.h: PKCS#11 tokens, the caller's side. A token's module is
 * a shared library from outside; it is loaded only in a child process,
 * ssh-pkcs11-helper, never in ssh, ssh-agent, ssh-add or ssh-keygen. A
 * caller starts one helper per module and talks to it over a
 * socketpair (its stdin and stdout; its stderr is the caller's):
 *
 *   uint32 length, byte type, contents
 *
 * Requests and answers (strings are SSH strings):
 *
 *   P11_OPEN     string module path, string PIN ("" : do not log in)
 *     -> P11_KEYS  uint32 n, n x (string public key blob, string label)
 *   P11_SIGN     string key blob, string data, uint32 flags,
 *                string PIN ("" : none at hand)
 *     -> P11_SIG   string signature blob (string alg, string sig)
 *     -> P11_NEED_PIN  string token label: ask and send P11_SIGN again
 *   any -> P11_FAIL  uint32 reason, string text
 *
 * flags are the agent protocol's: P11_RSA_SHA2_256 / _512 choose the
 * RSA signature; neither means "ssh-rsa". A helper serves one module;
 * it logs in to a token once, when first given its PIN.
 *
 * Everything a helper says is hostile: the parsers below check every
 * length, refuse trailing bytes and keys that do not parse, and a
 * signature is taken only when it verifies with the key asked for, over
 * the data sent, under the algorithm asked for.
 */
#ifndef MOAT_P11_CLIENT_H
#define MOAT_P11_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "key.h"
#include "sbuf.h"

#define P11_OPEN	1
#define P11_KEYS	2
#define P11_SIGN	3
#define P11_NEED_PIN	4
#define P11_FAIL	5
#define P11_SIG		6

#define P11_RSA_SHA2_256	0x02
#define P11_RSA_SHA2_512	0x04

#define P11_FAIL_OTHER	0
#define P11_FAIL_PIN	1	/* the PIN was wrong (or locked) */

#define P11_MAX_MSG	(256 * 1024)	/* longest message either way */
#define P11_MAX_KEYS	256		/* keys taken from one module */
#define P11_MAX_LABEL	256		/* longest label kept */

struct p11_key {
	struct key *key;		/* public */
	char *label;			/* printable, may be "" */
};

struct p11_helper {
	pid_t pid;
	int fd;
	char *provider;
};

/*
 * The helper program: $SSH_PKCS11_HELPER when set, else ours in the
 * install prefix's libexec, else beside the running program. Caller
 * frees; NULL when none is there.
 */
char *p11_helper_path(void);
/* Start a helper for provider (a module path). */
int p11_helper_start(const char *provider, struct p11_helper **hp);
/* Close the pipe and reap the helper. NULL is fine. */
void p11_helper_stop(struct p11_helper *h);

/*
 * Open the module and list its keys (*keysp, *np: caller frees with
 * p11_keys_free). pin NULL or "": no login. ERR_KEY_WRONG_PASSPHRASE
 * when the token refused the PIN; *whyp (may be NULL) the helper's
 * words on a failure (caller frees).
 */
int p11_helper_open(struct p11_helper *h, const char *pin,
    struct p11_key **keysp, size_t *np, char **whyp);
/*
 * Sign data with k under sigalg (NULL: the key's default). When the
 * token wants a PIN and pin is NULL or "", ERR_PERMISSION_DENIED with
 * *labelp the token's label (caller frees): ask and call again.
 * ERR_KEY_WRONG_PASSPHRASE: the PIN was refused.
 */
int p11_helper_sign(struct p11_helper *h, const struct key *k,
    const char *sigalg, const unsigned char *data, size_t dlen,
    const char *pin, struct sbuf *sig, char **labelp);

void p11_keys_free(struct p11_key *keys, size_t n);

/* The parsers of the helper's answers (type byte included), for tests. */
int p11_parse_keys(struct sbuf *m, struct p11_key **keysp, size_t *np,
    char **whyp);
int p11_parse_sign(struct sbuf *m, const struct key *k, const char *sigalg,
    const unsigned char *data, size_t dlen, struct sbuf *sig,
    char **labelp);
/* The agent-protocol flags for sigalg ("rsa-sha2-256"...). */
uint32_t p11_sign_flags(const char *sigalg);

#endif
