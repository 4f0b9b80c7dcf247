/*
 * agent.h: the client side of the ssh-agent protocol (OpenSSH's
 * PROTOCOL.agent, draft-miller-ssh-agent): list the agent's identities
 * and have it sign with one of them. Only what publickey authentication
 * needs; adding and removing keys is ssh-add's business.
 *
 * An agent connection is a plain file descriptor (a Unix socket, or any
 * stream socket in tests); calls block until the agent answers. Every
 * answer is one message "uint32 length, byte type, contents", refused
 * when longer than AGENT_MAX_MSG.
 */
#ifndef MOAT_AGENT_H
#define MOAT_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

#define AGENT_MAX_MSG		(256u * 1024)
#define AGENT_MAX_KEYS		1024

/* Message numbers (draft-miller-ssh-agent section 5.1). */
#define SSH_AGENT_FAILURE		5
#define SSH_AGENT_SUCCESS		6
#define SSH_AGENTC_REQUEST_IDENTITIES	11
#define SSH_AGENTC_REMOVE_ALL_RSA_IDENTITIES 9	/* protocol 1 */
#define SSH_AGENT_IDENTITIES_ANSWER	12
#define SSH_AGENTC_SIGN_REQUEST		13
#define SSH_AGENT_SIGN_RESPONSE		14
#define SSH_AGENTC_ADD_IDENTITY		17
#define SSH_AGENTC_REMOVE_IDENTITY	18
#define SSH_AGENTC_REMOVE_ALL_IDENTITIES 19
#define SSH_AGENTC_ADD_SMARTCARD_KEY	20
#define SSH_AGENTC_REMOVE_SMARTCARD_KEY	21
#define SSH_AGENTC_LOCK			22
#define SSH_AGENTC_UNLOCK		23
#define SSH_AGENTC_ADD_ID_CONSTRAINED	25
#define SSH_AGENTC_ADD_SMARTCARD_KEY_CONSTRAINED 26
#define SSH_AGENTC_EXTENSION		27
#define SSH_AGENT_EXTENSION_FAILURE	28
/* Key constraints (section 5.2.1; MAXSIGN is OpenSSH's). */
#define SSH_AGENT_CONSTRAIN_LIFETIME	1
#define SSH_AGENT_CONSTRAIN_CONFIRM	2
#define SSH_AGENT_CONSTRAIN_MAXSIGN	3
#define SSH_AGENT_CONSTRAIN_EXTENSION	255
#define AGENT_RESTRICT_DESTINATION "restrict-destination-v00@openssh.com"
/* Signature flags (section 5.3). */
#define SSH_AGENT_RSA_SHA2_256		0x02
#define SSH_AGENT_RSA_SHA2_512		0x04

struct key;
struct key_cert;

struct agent_identity {
	unsigned char *blob;		/* as the agent listed it */
	size_t bloblen;
	char *comment;
	struct key *key;		/* the plain public key */
	struct key_cert *cert;		/* when the blob is a certificate */
};

/*
 * Which socket IdentityAgent (NULL: unset) names: unset or
 * "SSH_AUTH_SOCK": $SSH_AUTH_SOCK; "none": none; "$VAR": that variable;
 * else the path itself. *pathp: a new string, or NULL when there is no
 * agent to use. Returns 0.
 */
int agent_socket_path(const char *identity_agent, char **pathp);
/* Connect to the Unix socket at path; *fdp the connection. */
int agent_connect(const char *path, int *fdp);
void agent_close(int fd);
/*
 * REQUEST_IDENTITIES: *idsp gets *nidsp identities (free with
 * agent_identities_free). Keys of types we do not know are left out
 * (debug line). ERR_PROTOCOL on a malformed or unexpected answer,
 * ERR_PERMISSION_DENIED on FAILURE.
 */
int agent_list(int fd, struct agent_identity **idsp, size_t *nidsp);
void agent_identities_free(struct agent_identity *ids, size_t n);
/*
 * SIGN_REQUEST for the key blob over data with signature algorithm alg
 * ("rsa-sha2-512" sets SSH_AGENT_RSA_SHA2_512...); appends the signature
 * blob (string alg, string sig) to sig. ERR_PERMISSION_DENIED when the
 * agent refuses (FAILURE: locked, key gone, confirmation denied);
 * ERR_PROTOCOL when the answer is malformed or signed with another
 * algorithm than alg.
 */
int agent_sign(int fd, const unsigned char *blob, size_t bloblen,
    const unsigned char *data, size_t dlen, const char *alg,
    struct sbuf *sig);
/* The SIGN_REQUEST flags for signature algorithm alg (pure). */
uint32_t agent_sign_flags(const char *alg);
/*
 * The session-bind@openssh.com extension (PROTOCOL.agent): tell the
 * agent which server this connection is for: the server's host key blob
 * hk, the session identifier sid and the server's signature sig over it
 * from the first key exchange; forwarding set when the connection is
 * relayed for a forwarded agent channel. 0 on SUCCESS,
 * ERR_PERMISSION_DENIED when the agent refuses (or lacks the extension),
 * ERR_PROTOCOL on any other answer.
 */
#define AGENT_SESSION_BIND	"session-bind@openssh.com"
int agent_session_bind(int fd, const unsigned char *hk, size_t hklen,
    const unsigned char *sid, size_t sidlen, const unsigned char *sig,
    size_t siglen, int forwarding);
/*
 * agent_session_bind() with what the client's transport t kept of its
 * first key exchange. A refusal is only logged, in ssh(1)'s words with
 * fn (the caller's name in them), as it goes on without the binding.
 */
struct transport;
void agent_bind_transport(int fd, const struct transport *t, int forwarding,
    const char *fn);

/*
 * ssh-add's requests. Each returns 0 when the agent answers SUCCESS,
 * ERR_PERMISSION_DENIED on FAILURE, ERR_PROTOCOL on any other or a
 * malformed answer, or the I/O error (ERR_CONN_CLOSED, ERR_SYSTEM).
 * Requests holding secrets are wiped before they are freed.
 */
struct agent_constraints {
	uint32_t lifetime;		/* seconds; 0: none */
	int confirm;			/* ask before each use */
	uint32_t maxsign;		/* signatures allowed; 0: no limit */
	/*
	 * restrict-destination-v00@openssh.com (PROTOCOL.agent): the
	 * encoded constraints (each a string), or NULL.
	 */
	const struct sbuf *dest;
	/*
	 * sk-provider@openssh.com (PROTOCOL.u2f): the middleware of a
	 * security key, or NULL.
	 */
	const char *sk_provider;
};
/*
 * ADD_IDENTITY (ADD_ID_CONSTRAINED when cons sets anything) of the
 * private key k, or, when cert is not NULL, of that certificate of k
 * (its type name, the certificate blob, then k's private fields).
 * ERR_INVALID_ARGUMENT when k is public or cert is not k's.
 */
int agent_add(int fd, const struct key *k, const struct key_cert *cert,
    const char *comment, const struct agent_constraints *cons);
/* REMOVE_IDENTITY of a key or certificate blob. */
int agent_remove(int fd, const unsigned char *blob, size_t bloblen);
/*
 * REMOVE_ALL_IDENTITIES, then the protocol-1 request OpenSSH's ssh-add
 * still sends after it (its answer ignored). The first one's answer.
 */
int agent_remove_all(int fd);
/* LOCK (lock 1) or UNLOCK with password. */
int agent_lock(int fd, int lock, const char *password);
/*
 * ADD_SMARTCARD_KEY (_CONSTRAINED when cons sets a lifetime,
 * confirmation or destinations) of a PKCS#11 provider with its PIN, or
 * with add 0 REMOVE_SMARTCARD_KEY (the PIN then unused but sent).
 */
int agent_update_card(int fd, int add, const char *provider,
    const char *pin, const struct agent_constraints *cons);

#endif
