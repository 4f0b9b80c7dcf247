/*
 * clientauth_int.h: the inside of the client's ssh-userauth, shared by
 * clientauth.c (the loop, password, keyboard-interactive) and
 * clientpubkey.c (identities, publickey). Not for other modules.
 *
 * Each method is a table row with a "next" step (send the next request:
 * 1 when one was sent, 0 when the method has nothing more to try) and a
 * handler for message 60, whose meaning depends on the method (PK_OK,
 * INFO_REQUEST, PASSWD_CHANGEREQ).
 */
#ifndef MOAT_CLIENTAUTH_INT_H
#define MOAT_CLIENTAUTH_INT_H

#include "client.h"
#include "key.h"
#include "sbuf.h"

struct transport;

struct key_cert;
struct agent_identity;
struct ca_agent;
struct p11_helper;

struct ca_identity {
	char *path;
	struct key *pub;		/* from path.pub, or from the private */
	struct key *priv;		/* once loaded */
	char *comment;			/* the private key file's comment */
	int added;			/* AddKeysToAgent: done for this one */
	/*
	 * A CertificateFile no IdentityFile's key matches: offered first,
	 * signed only by an agent holding its key (or itself).
	 */
	int lone_cert;
	struct key_cert *cert;		/* offered instead of pub, or NULL */
	int explicit;
	int used;			/* succeeded (partially) already */
	/* The agent holds the private key: it signs, nothing is loaded. */
	const struct agent_identity *agent;
	int p11;			/* a PKCS#11 token key (clientp11.c) */
};

struct ca_ctx {
	struct transport *t;
	const struct client_opts *o;
	const char *user, *host;
	client_prompt_fn prompt;
	void *prompt_arg;

	struct ca_identity *ids;
	size_t nids;
	struct ca_agent *agent;		/* NULL: no agent in use */
	struct p11_helper *p11;		/* PKCS11Provider's helper, or NULL */
	size_t id_next;			/* publickey: next identity to try */
	struct ca_identity *id_cur;	/* awaiting PK_OK or the answer */
	const char *id_alg;		/* signature algorithm offered */
	/*
	 * The request answered next carried a signature (publickey after
	 * PK_OK, hostbased): a partial success then is a step done even
	 * when the server's list stays the same (publickey,publickey).
	 */
	int signed_sent;

	struct ca_hb *hb;		/* hostbased: host keys, client host */
	int hb_cur;			/* hostbased: key awaiting answer */

	int pw_tries;
	int kbd_tries;
	int kbd_in_info;		/* kbd-int: INFO_REQUEST answered */
};

/* clientpubkey.c */
/* Load the public halves; warn about explicit files we cannot read. */
void ca_identities_load(struct ca_ctx *c);
void ca_identities_free(struct ca_ctx *c);
int ca_pubkey_next(struct ca_ctx *c);
int ca_pubkey_msg60(struct ca_ctx *c, struct sbuf *p);
/*
 * clienthostbound.c: the method of a signed publickey request for key
 * k: "publickey-hostbound-v00@openssh.com" with *hkp the server's host
 * key blob (into the transport) when the server offered it, else
 * "publickey" with *hkp NULL.
 */
const char *ca_pubkey_method(const struct ca_ctx *c, const struct key *k,
    const unsigned char **hkp, size_t *hklenp);
void ca_pubkey_reset(struct ca_ctx *c);
/*
 * The signature algorithm to offer for k: RSA takes rsa-sha2-512 or
 * rsa-sha2-256 when the server's server-sig-algs lists them, else
 * ssh-rsa; the result must be in accepted (NULL: anything). NULL when
 * the key is not to be offered.
 */
const char *ca_pick_sigalg(const struct key *k, const char *server_sig_algs,
    const char *accepted);

/* clientagent.c */
/*
 * After the files are loaded: connect to the agent IdentityAgent names
 * and put its keys in OpenSSH's order: file identities the agent holds
 * (in the agent's order), then the agent's other keys (none with
 * IdentitiesOnly), then the remaining files. No agent: nothing changes.
 */
void ca_agent_load(struct ca_ctx *c);
void ca_agent_free(struct ca_ctx *c);
/*
 * AddKeysToAgent: id's private key was loaded from its file because the
 * server will take it; hand it to the agent (IdentityAgent, else
 * $SSH_AUTH_SOCK) with the configured lifetime and confirmation, after
 * asking when the setting is "ask". Failures are debug lines only.
 */
void ca_agent_add_loaded(struct ca_ctx *c, struct ca_identity *id);
/* Have the agent sign data for id with algorithm alg into sig. */
int ca_agent_sign(struct ca_ctx *c, const struct ca_identity *id,
    const char *alg, const unsigned char *data, size_t dlen,
    struct sbuf *sig);

/* clientp11.c */
/* Before ca_agent_load: the PKCS11Provider's keys, IdentitiesOnly kept. */
void ca_p11_load(struct ca_ctx *c);
void ca_p11_free(struct ca_ctx *c);
/* Have the token sign for id (asking for its PIN when it wants one). */
int ca_p11_sign(struct ca_ctx *c, const struct ca_identity *id,
    const char *alg, const unsigned char *data, size_t dlen,
    struct sbuf *sig);

/* clienthostbased.c */
int ca_hostbased_next(struct ca_ctx *c);
int ca_hostbased_msg60(struct ca_ctx *c, struct sbuf *p);
/* After a partial success: the key that got it is not offered again. */
void ca_hostbased_reset(struct ca_ctx *c);
void ca_hostbased_free(struct ca_ctx *c);

/* clientauth.c */
/* USERAUTH_REQUEST header: user, "ssh-connection", method. */
struct sbuf *ca_request_start(struct ca_ctx *c, const char *method);
/* Ask the user; 0 with *answerp, or ERR_PERMISSION_DENIED. */
int ca_ask(struct ca_ctx *c, const char *prompt, int echo, char **answerp);
/*
 * clientsk.c: the signature of a private security key k over data,
 * through SecurityKeyProvider's middleware (sk_client.h).
 */
int ca_sk_sign(struct ca_ctx *c, const struct key *k,
    const unsigned char *data, size_t dlen, struct sbuf *sig);
/* The middleware SecurityKeyProvider names ($VAR resolved), or NULL. */
const char *ca_sk_provider(const struct client_opts *o);
/*
 * The next method to try (pure): the first of preferred (NULL: the
 * default order) that the server lists, that we have in ours (a
 * comma-separated list), and that is not in done. NULL when none.
 * The result points into a static table.
 */
const char *ca_next_method(const char *preferred, const char *server,
    const char *ours, const char *done);

#endif
