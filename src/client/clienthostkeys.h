/*
 * clienthostkeys.h: UpdateHostKeys, the client's half of OpenSSH's host
 * key rotation (see src/conn/hkproof.h for the messages).
 *
 * When the server lists its host keys after login (hostkeys-00), keys
 * the user's known_hosts lacks for this host are learnt once the server
 * has proven it holds them (hostkeys-prove-00), and keys the file has
 * for the host that the server no longer lists are dropped. Only the
 * user's known_hosts files change, and only when the host key of this
 * connection was trusted through them (hostcheck.c switches
 * o->update_host_keys off otherwise). With UpdateHostKeys=ask the user
 * confirms the changes first.
 *
 * Ownership: client_hostkeys_new() returns a state the caller frees
 * with client_hostkeys_free() after the connection loop has ended.
 */
#ifndef MOAT_CLIENTHOSTKEYS_H
#define MOAT_CLIENTHOSTKEYS_H

#include <stddef.h>

#include "client.h"
#include "sbuf.h"

struct chan_set;
struct transport;
struct client_hostkeys;

/*
 * host and port: the server as named in known_hosts lookups (HostName
 * and Port; HostKeyAlias wins as in hostcheck.c). o must outlive the
 * state; UpdateHostKeys=ask answered "no" turns o->update_host_keys off.
 */
struct client_hostkeys *client_hostkeys_new(struct client_opts *o,
    const char *host, int port);
void client_hostkeys_free(struct client_hostkeys *h);
/* Handle hostkeys-00@openssh.com on cs; t is the connection's transport. */
int client_hostkeys_setup(struct client_hostkeys *h, struct chan_set *cs,
    struct transport *t);
/* Answer UpdateHostKeys=ask through fn (default client_read_passphrase). */
void client_hostkeys_set_prompt(struct client_hostkeys *h,
    client_prompt_fn fn, void *arg);

/* ---- the steps, exposed for tests ---- */

/*
 * The body of the server's hostkeys-00: on CLIENT_HOSTKEYS_PROVE the key
 * blobs to ask proofs for were appended to prove (send them, then call
 * client_hostkeys_proofs() with the reply); 0 when there is nothing to
 * ask (known_hosts was updated if keys only went away), or an error.
 */
#define CLIENT_HOSTKEYS_PROVE	1
int client_hostkeys_input(struct client_hostkeys *h, struct sbuf *body,
    struct sbuf *prove);
/*
 * The reply to hostkeys-prove-00 (ok 0: REQUEST_FAILURE, body NULL):
 * every signature is checked against the session identifier sid, RSA
 * ones against the host key algorithm of the key exchange (kex_alg) when
 * that is an RSA one; known_hosts is updated only when all verify.
 * Returns 0 when known_hosts was updated, else the reason.
 */
int client_hostkeys_proofs(struct client_hostkeys *h, int ok,
    struct sbuf *body, const unsigned char *sid, size_t sidlen,
    const char *kex_alg);

#endif
