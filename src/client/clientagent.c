/*
 * clientagent.c: the agent's keys in the client's publickey method.
 *
 * ca_agent_load() runs once the IdentityFile identities are loaded. It
 * finds the socket (IdentityAgent, else $SSH_AUTH_SOCK), binds it to
 * this server (session-bind@openssh.com, so an agent holding keys
 * restricted to destinations knows where they would be used), lists the
 * agent's identities and rebuilds the identity list in OpenSSH's order:
 *
 *   1. file identities whose key the agent holds, in the agent's order
 *      (they keep their file name and are signed by the agent, so no
 *      passphrase is asked for them);
 *   2. the agent's other keys, named by their comment (left out with
 *      IdentitiesOnly);
 *   3. the remaining file identities, which the agent still signs for
 *      when it holds their plain key (a CertificateFile whose key is in
 *      the agent).
 *
 * A file identity without a .pub file gets its public key from the
 * file itself when that is a public key, else from the unencrypted
 * header of an openssh-key-v1 private key, so it can be matched without
 * a passphrase. Without an agent nothing here changes
 * the list. Signing goes through agent_sign(); a refusal is the
 * caller's to skip.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "agent.h"
#include "cert.h"
#include "clientauth_int.h"
#include "err.h"
#include "log.h"
#include "mem.h"

#define PRIVKEY_MAX	(1024 * 1024)

struct ca_agent {
	int fd;
	struct agent_identity *ids;
	size_t nids;
};

static const char privkey_begin[] = "-----BEGIN OPENSSH PRIVATE KEY-----";
static const char privkey_end[] = "-----END OPENSSH PRIVATE KEY-----";
static const char privkey_magic[] = "openssh-key-v1";	/* with its NUL */

/* The public key in an openssh-key-v1 file's clear header. */
static int
pub_from_private_file(const char *path, struct key **keyp)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *pk;
	char *text = NULL, *s, *e;
	unsigned char magic[sizeof(privkey_magic)];
	size_t n = 0, pklen;
	uint32_t nkeys;
	FILE *f;
	int r = ERR_INVALID_FORMAT;

	*keyp = NULL;
	if ((f = fopen(path, "r")) == NULL) {
		r = ERR_SYSTEM;
		goto out;
	}
	text = x_malloc(PRIVKEY_MAX + 1);
	n = fread(text, 1, PRIVKEY_MAX, f);
	fclose(f);
	text[n] = '\0';
	if ((s = strstr(text, privkey_begin)) == NULL ||
	    (e = strstr(s, privkey_end)) == NULL)
		goto out;
	*e = '\0';
	if (sbuf_b64_decode(b, s + strlen(privkey_begin)) != 0 ||
	    sbuf_get(b, magic, sizeof(magic)) != 0 ||
	    memcmp(magic, privkey_magic, sizeof(magic)) != 0 ||
	    sbuf_get_string_direct(b, NULL, NULL) != 0 ||	/* cipher */
	    sbuf_get_string_direct(b, NULL, NULL) != 0 ||	/* kdf */
	    sbuf_get_string_direct(b, NULL, NULL) != 0 ||	/* kdf opts */
	    sbuf_get_u32(b, &nkeys) != 0 || nkeys != 1 ||
	    sbuf_get_string_direct(b, &pk, &pklen) != 0)
		goto out;
	r = key_from_blob(pk, pklen, keyp);
 out:
	if (text != NULL)
		x_freezero(text, n + 1);
	sbuf_free(b);
	return r;
}

/* The blob id offers: its certificate, or its plain key. */
static int
offered_blob_equal(const struct ca_identity *id,
    const struct agent_identity *a)
{
	if (id->cert != NULL)
		return a->cert != NULL && sbuf_len(id->cert->blob) ==
		    a->bloblen && memcmp(sbuf_ptr(id->cert->blob), a->blob,
		    a->bloblen) == 0;
	return a->cert == NULL && id->pub != NULL &&
	    key_equal_public(id->pub, a->key);
}

/* The files were announced as they were loaded; these are the agent's. */
static void
log_attempt(const struct ca_identity *id)
{
	char *fp;

	if (id->agent == NULL || id->pub == NULL)
		return;
	fp = key_fingerprint(id->pub, KEY_FP_SHA256);

	log_debug("Will attempt key: %s %s %s%s%s", id->path,
	    id->cert != NULL ? cert_type_name(id->pub) :
	    key_type_name(id->pub), fp != NULL ? fp : "",
	    id->explicit ? " explicit" : "", id->agent != NULL ?
	    " agent" : "");
	x_free(fp);
}

/* A new identity for agent key a alone. */
static void
add_agent_only(struct ca_identity *id, const struct agent_identity *a)
{
	memset(id, 0, sizeof(*id));
	id->path = x_strdup(a->comment);
	id->agent = a;
	if (key_demote(a->key, &id->pub) != 0)
		id->pub = NULL;
	if (a->cert != NULL && cert_from_blob(a->blob, a->bloblen,
	    &id->cert) != 0)
		id->cert = NULL;
}

/* Connect and list; NULL when there is no agent to use. */
static struct ca_agent *
agent_open(const struct client_opts *o, const struct transport *t)
{
	struct ca_agent *ag;
	char *path = NULL;
	int fd, r;

	agent_socket_path(o->identity_agent, &path);
	if (path == NULL)
		return NULL;
	if ((r = agent_connect(path, &fd)) != 0) {
		log_debug("get_agent_identities: ssh_get_authentication_socket:"
		    " %s", r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		x_free(path);
		return NULL;
	}
	x_free(path);
	/* Before the keys are listed, so the agent knows the server. */
	agent_bind_transport(fd, t, 0, "get_agent_identities");
	ag = x_calloc(1, sizeof(*ag));
	ag->fd = fd;
	if ((r = agent_list(fd, &ag->ids, &ag->nids)) != 0) {
		log_debug("get_agent_identities: ssh_fetch_identitylist: %s",
		    err_str(r));
		agent_close(fd);
		x_free(ag);
		return NULL;
	}
	log_debug("get_agent_identities: agent returned %zu keys", ag->nids);
	return ag;
}

void
ca_agent_load(struct ca_ctx *c)
{
	struct ca_agent *ag;
	struct ca_identity *out, *id;
	size_t i, j, n = 0;
	char *moved, *taken;

	if ((ag = agent_open(c->o, c->t)) == NULL)
		return;
	c->agent = ag;
	for (i = 0; i < c->nids; i++)
		if (c->ids[i].pub == NULL && key_load_public(c->ids[i].path,
		    &c->ids[i].pub, NULL) != 0 && pub_from_private_file(
		    c->ids[i].path, &c->ids[i].pub) != 0)
			c->ids[i].pub = NULL;
	out = x_calloc(c->nids + ag->nids + 1, sizeof(*out));
	moved = x_calloc(c->nids + 1, 1);
	taken = x_calloc(ag->nids + 1, 1);
	/* Certificates from CertificateFile alone come first, as there. */
	for (i = 0; i < c->nids; i++) {
		if (!c->ids[i].lone_cert)
			continue;
		moved[i] = 1;
		id = &out[n++];
		*id = c->ids[i];
		for (j = 0; j < ag->nids && id->agent == NULL; j++)
			if (!taken[j] && offered_blob_equal(id, &ag->ids[j])) {
				taken[j] = 1;
				id->agent = &ag->ids[j];
			}
		for (j = 0; id->pub != NULL && j < ag->nids &&
		    id->agent == NULL; j++)
			if (ag->ids[j].cert == NULL &&
			    key_equal_public(id->pub, ag->ids[j].key))
				id->agent = &ag->ids[j];
	}
	for (j = 0; j < ag->nids; j++) {
		for (i = 0; i < c->nids; i++)
			if (!moved[i] && offered_blob_equal(&c->ids[i],
			    &ag->ids[j]))
				break;
		if (i == c->nids)
			continue;
		moved[i] = taken[j] = 1;
		out[n] = c->ids[i];
		out[n++].agent = &ag->ids[j];
	}
	for (j = 0; j < ag->nids; j++) {
		if (taken[j])
			continue;
		if (c->o->identities_only > 0)
			log_debug2("Skipping agent key %s: IdentitiesOnly",
			    ag->ids[j].comment);
		else
			add_agent_only(&out[n++], &ag->ids[j]);
	}
	for (i = 0; i < c->nids; i++) {
		if (moved[i])
			continue;
		id = &out[n++];
		*id = c->ids[i];
		for (j = 0; id->pub != NULL && j < ag->nids; j++)
			if (key_equal_public(id->pub, ag->ids[j].key)) {
				id->agent = &ag->ids[j];
				break;
			}
	}
	x_free(moved);
	x_free(taken);
	x_free(c->ids);
	c->ids = out;
	c->nids = n;
	for (i = 0; i < c->nids; i++)
		log_attempt(&c->ids[i]);
}

void
ca_agent_free(struct ca_ctx *c)
{
	if (c->agent == NULL)
		return;
	agent_close(c->agent->fd);
	agent_identities_free(c->agent->ids, c->agent->nids);
	x_free(c->agent);
	c->agent = NULL;
}

/* AddKeysToAgent ask: an empty answer or "yes" allows it. */
static int
add_allowed(struct ca_ctx *c, const struct ca_identity *id)
{
	char *prompt, *ans = NULL;
	int ok;

	prompt = x_asprintf("Add key %s (%s) to agent?", id->path,
	    id->comment != NULL ? id->comment : "");
	ok = ca_ask(c, prompt, CLIENT_PROMPT_CONFIRM, &ans) == 0 &&
	    (*ans == '\0' || strcasecmp(ans, "yes") == 0);
	x_free(prompt);
	x_free(ans);
	return ok;
}

void
ca_agent_add_loaded(struct ca_ctx *c, struct ca_identity *id)
{
	struct agent_constraints cons;
	char *path = NULL;
	const char *comment;
	int fd, r;

	if (c->o->add_keys_to_agent <= 0 || id->priv == NULL ||
	    id->agent != NULL || id->added)
		return;
	id->added = 1;
	agent_socket_path(c->o->identity_agent, &path);
	if (path == NULL || agent_connect(path, &fd) != 0) {
		log_debug3("no authentication agent, not adding key");
		x_free(path);
		return;
	}
	x_free(path);
	if (c->o->add_keys_to_agent == 2 && !add_allowed(c, id)) {
		log_debug3("user denied adding this key");
		agent_close(fd);
		return;
	}
	memset(&cons, 0, sizeof(cons));
	cons.lifetime = c->o->add_keys_to_agent_lifespan > 0 ?
	    (uint32_t)c->o->add_keys_to_agent_lifespan : 0;
	cons.confirm = c->o->add_keys_to_agent == 3;
	/* A security key: the agent signs through our middleware. */
	if (key_is_sk(id->priv) &&
	    (cons.sk_provider = ca_sk_provider(c->o)) == NULL) {
		log_debug("no security key provider, not adding %s", id->path);
		agent_close(fd);
		return;
	}
	comment = id->comment != NULL && *id->comment != '\0' ?
	    id->comment : id->path;
	if ((r = agent_add(fd, id->priv, NULL, comment, &cons)) == 0)
		log_debug("identity added to agent: %s", id->path);
	else
		log_debug("could not add identity to agent: %s (%s)",
		    id->path, err_str(r));
	agent_close(fd);
}

int
ca_agent_sign(struct ca_ctx *c, const struct ca_identity *id,
    const char *alg, const unsigned char *data, size_t dlen,
    struct sbuf *sig)
{
	if (c->agent == NULL || id->agent == NULL)
		return ERR_INTERNAL;
	return agent_sign(c->agent->fd, id->agent->blob, id->agent->bloblen,
	    data, dlen, alg, sig);
}
