/*
 * agentd.h: the agent side of the ssh-agent protocol (draft-miller-ssh-
 * agent, OpenSSH's PROTOCOL.agent): the key store ssh-agent keeps and
 * the handling of every request a client sends it, without sockets, so
 * a unit test and a fuzz target drive it with plain bytes.
 *
 * One struct agentd is the store: identities (a private key, or a
 * private key and its certificate), each with a comment and its
 * constraints (a time of death, confirmation before each use), and the
 * lock. One struct agentd_conn is what belongs to one client connection:
 * its bytes not yet handled and the sessions it was bound to
 * (session-bind@openssh.com).
 *
 * agentd_input() takes the bytes a client sent, handles every whole
 * message among them ("uint32 length, byte type, contents") in order and
 * appends the framed answers to out. A request that is malformed,
 * truncated inside its own length, empty or longer than AGENT_MAX_MSG
 * makes it return an error: the caller closes that connection (and only
 * that one). A well-formed request the agent refuses (unknown key type,
 * key not held, locked, confirmation denied, unknown message or
 * extension) gets SSH_AGENT_FAILURE and the connection goes on.
 *
 * Ownership: agentd_new()/agentd_conn_new() return objects freed with
 * agentd_free()/agentd_conn_free(); private keys, the lock hash and
 * request bytes are wiped before they are freed.
 */
#ifndef MOAT_AGENTD_H
#define MOAT_AGENTD_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"
#include "sbuf.h"

#define AGENTD_MAX_SESSION_IDS	16	/* bindings per connection */
#define AGENTD_MAX_SID_LEN	128	/* longest session identifier */
#define AGENTD_OUT_MAX		(1024u * 1024)	/* answers held per client */

struct agentd_config {
	/* Lifetime (seconds) of keys added without one; 0: forever (-t). */
	uint32_t default_life;
	/* Fingerprints in prompts and logs (-E). */
	enum key_fp_hash fp_hash;
	/*
	 * Ask whether a key with the confirm constraint may sign: prompt is
	 * OpenSSH's question; 1 allows. NULL: every such use is denied.
	 */
	int (*confirm)(void *arg, const char *prompt);
	void *confirm_arg;
	/* Pause after a wrong unlock passphrase (NULL: usleep). */
	void (*delay)(unsigned long usec);
	/*
	 * PKCS#11 modules (ADD_SMARTCARD_KEY) and security key middleware
	 * (sk-provider@openssh.com) a client may name (-P): a pattern
	 * list matched against the library's resolved path. NULL:
	 * OpenSSH's default, AGENTD_DEFAULT_PROVIDERS.
	 */
	const char *allowed_providers;
	/* Monotonic seconds (NULL: CLOCK_MONOTONIC). */
	uint64_t (*now)(void);
};

/* The system's library directories, as OpenSSH's agent allows. */
#define AGENTD_DEFAULT_PROVIDERS	"/usr/lib*/*,/usr/local/lib*/*"

struct agentd;
struct agentd_conn;

int agentd_new(const struct agentd_config *cfg, struct agentd **ap);
void agentd_free(struct agentd *a);
struct agentd_conn *agentd_conn_new(void);
void agentd_conn_free(struct agentd_conn *c);

/*
 * Append the n bytes a client sent to its connection's buffer, handle
 * every whole request and append the answers to out. 0, or an error:
 * close the connection. Requests wait in the buffer while out holds
 * AGENTD_OUT_MAX bytes or more: call again (n 0) once out has drained
 * and agentd_conn_pending() is not 0.
 */
int agentd_input(struct agentd *a, struct agentd_conn *c,
    const unsigned char *p, size_t n, struct sbuf *out);
/*
 * One request (type byte and contents, no length) into one answer
 * (type byte and contents, no length) appended to reply.
 */
int agentd_request(struct agentd *a, struct agentd_conn *c,
    const unsigned char *msg, size_t len, struct sbuf *reply);

/*
 * Drop and wipe every identity whose lifetime is over. Returns the
 * seconds until the next one is due, or -1 when none has a lifetime.
 */
long agentd_expire(struct agentd *a);
/* Identities held (locked or not). */
size_t agentd_count(const struct agentd *a);
/* Bytes a connection holds that are not handled yet. */
size_t agentd_conn_pending(const struct agentd_conn *c);
/* Session bindings recorded on a connection. */
size_t agentd_conn_bindings(const struct agentd_conn *c);

#endif
