/*
 * clientpubkey.c: the client's "publickey" method (RFC 4252 section 7).
 *
 * The identities are the IdentityFile list. Their public halves come
 * from "FILE.pub" when it exists, so a key the server will not take is
 * never decrypted (no passphrase asked for it). For each identity we
 * first send a query without a signature; on PK_OK we load the private
 * key (asking for the passphrase when it is encrypted), sign
 *   string session id, byte 50, string user, string "ssh-connection",
 *   string "publickey", bool TRUE, string algorithm, string key blob
 * and send the request again with the signature (bound to the server's
 * host key when it offers that: clienthostbound.c). An identity without a
 * .pub file is loaded (and decrypted) before its query.
 *
 * RSA signs with rsa-sha2-512 or rsa-sha2-256 when the server's
 * server-sig-algs lists them, else ssh-rsa; every algorithm offered must
 * be in PubkeyAcceptedAlgorithms.
 *
 * Keys held by an ssh-agent (clientagent.c) come first, and the agent
 * signs for them: no private key is loaded, no passphrase asked. A key
 * the agent will not sign with (locked, refused, a bad answer) is
 * skipped like a key whose passphrase was not given.
 *
 * Keys on a PKCS#11 token (PKCS11Provider, clientp11.c) come before
 * the files; the token signs for them.
 *
 * A FIDO security key's private file holds no secret: the
 * authenticator signs, through ssh-sk-helper (clientsk.c).
 *
 * Certificates: for each identity whose public key is known, the
 * CertificateFile entries certifying that key and "FILE-cert.pub" are
 * offered first, each as an identity of its own sharing the key file;
 * the request carries the certificate blob under its certificate
 * algorithm (rsa-sha2-512-cert-v01@openssh.com...) and is signed by the
 * plain key with the plain algorithm.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cert.h"
#include "clientauth_int.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport.h"

static const char *const rsa_sigalgs[] = { "rsa-sha2-512", "rsa-sha2-256" };

const char *
ca_pick_sigalg(const struct key *k, const char *server_sig_algs,
    const char *accepted)
{
	const char *name = key_type_name(k);
	size_t i;

	if (name == NULL)
		return NULL;
	if (k->type == KEY_RSA && server_sig_algs != NULL) {
		for (i = 0; i < sizeof(rsa_sigalgs) / sizeof(rsa_sigalgs[0]);
		    i++)
			if (match_list_contains(server_sig_algs,
			    rsa_sigalgs[i]) && (accepted == NULL ||
			    match_list_contains(accepted, rsa_sigalgs[i])))
				return rsa_sigalgs[i];
	}
	if (accepted != NULL && !match_list_contains(accepted, name))
		return NULL;
	return name;
}

/* Whether an identity already offers cert. */
static int
have_cert(const struct ca_ctx *c, const struct key_cert *cert)
{
	const struct key_cert *h;
	size_t i;

	for (i = 0; i < c->nids; i++) {
		h = c->ids[i].cert;
		if (h != NULL && sbuf_len(h->blob) == sbuf_len(cert->blob) &&
		    memcmp(sbuf_ptr(h->blob), sbuf_ptr(cert->blob),
		    sbuf_len(cert->blob)) == 0)
			return 1;
	}
	return 0;
}

/*
 * A new identity for cert (taken) under path, or NULL when the same
 * certificate is already one (cert freed).
 */
static struct ca_identity *
push_cert(struct ca_ctx *c, const char *path, int expl,
    struct key_cert *cert)
{
	struct ca_identity *id;

	if (have_cert(c, cert)) {
		cert_free(cert);
		return NULL;
	}
	id = &c->ids[c->nids++];
	id->path = x_strdup(path);
	id->explicit = expl;
	id->cert = cert;
	if (key_demote(cert->key, &id->pub) != 0)
		id->pub = NULL;
	return id;
}

/* Add an identity for cert (taken) if it certifies pub and is new. */
static void
add_cert_identity(struct ca_ctx *c, const char *path, int expl,
    const struct key *pub, struct key_cert *cert, const char *from)
{
	struct ca_identity *id;

	if (!key_equal_public(cert->key, pub) ||
	    cert->type != CERT_TYPE_USER) {
		cert_free(cert);
		return;
	}
	if ((id = push_cert(c, path, expl, cert)) == NULL)
		return;
	log_debug("Will attempt key: %s %s cert from %s", path,
	    cert_type_name(cert->key), from);
}

/* The certificates for an identity: CertificateFile, then FILE-cert.pub. */
static void
load_certs(struct ca_ctx *c, const char *path, int expl,
    const struct key *pub)
{
	const struct client_opts *o = c->o;
	struct key_cert *cert;
	char *cpath;
	size_t i;

	for (i = 0; i < o->ncertificate_files; i++)
		if (cert_load_public(o->certificate_files[i], &cert,
		    NULL) == 0)
			add_cert_identity(c, path, expl, pub, cert,
			    o->certificate_files[i]);
	cpath = x_asprintf("%s-cert.pub", path);
	if (cert_load_public(cpath, &cert, NULL) == 0)
		add_cert_identity(c, path, expl, pub, cert, cpath);
	x_free(cpath);
}

/*
 * A CertificateFile that no identity file's key matches: an identity of
 * its own, named by its file, for a key the agent may hold (OpenSSH
 * offers every CertificateFile; only an agent can sign for this one).
 */
static void
add_lone_cert(struct ca_ctx *c, const char *path)
{
	struct ca_identity *id;
	struct key_cert *cert;

	if (cert_load_public(path, &cert, NULL) != 0)
		return;
	if (cert->type != CERT_TYPE_USER) {
		log_debug("ignoring certificate %s: not a user certificate",
		    path);
		cert_free(cert);
		return;
	}
	if ((id = push_cert(c, path, 1, cert)) != NULL)
		id->lone_cert = 1;
}

void
ca_identities_load(struct ca_ctx *c)
{
	const struct client_opts *o = c->o;
	struct ca_identity *id;
	struct key *pub;
	struct stat st;
	char *pubpath;
	size_t i;

	c->ids = x_calloc((o->nidentity_files + 1) *
	    (o->ncertificate_files + 2) + 1, sizeof(*c->ids));
	for (i = 0; i < o->nidentity_files; i++) {
		const char *path = o->identity_files[i];
		int expl = o->identity_files_explicit[i];

		if (stat(path, &st) == -1) {
			if (expl)
				fprintf(stderr, "Warning: Identity file %s "
				    "not accessible: %s.\n", path,
				    strerror(errno));
			else
				log_debug("no such identity: %s: %s", path,
				    strerror(errno));
			continue;
		}
		pubpath = x_asprintf("%s.pub", path);
		if (key_load_public(pubpath, &pub, NULL) == 0)
			load_certs(c, path, expl, pub);
		else
			pub = NULL;
		x_free(pubpath);
		id = &c->ids[c->nids++];
		id->path = x_strdup(path);
		id->explicit = expl;
		id->pub = pub;
		log_debug("Will attempt key: %s", path);
	}
	for (i = 0; i < o->ncertificate_files; i++)
		add_lone_cert(c, o->certificate_files[i]);
	ca_p11_load(c);
	ca_agent_load(c);
}

void
ca_identities_free(struct ca_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nids; i++) {
		x_free(c->ids[i].path);
		key_free(c->ids[i].pub);
		key_free(c->ids[i].priv);
		x_free(c->ids[i].comment);
		cert_free(c->ids[i].cert);
	}
	x_free(c->ids);
	c->ids = NULL;
	c->nids = 0;
	ca_agent_free(c);
	ca_p11_free(c);
}

void
ca_pubkey_reset(struct ca_ctx *c)
{
	c->id_next = 0;
	c->id_cur = NULL;
}

static void
warn_perms(const char *path)
{
	struct stat st;
	unsigned int mode = 0;

	if (stat(path, &st) == 0)
		mode = (unsigned int)st.st_mode & 0777;
	fprintf(stderr,
	    "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
	    "@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @\n"
	    "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
	    "Permissions 0%3.3o for '%s' are too open.\n"
	    "It is required that your private key files are NOT accessible "
	    "by others.\n"
	    "This private key will be ignored.\n", mode, path);
}

/*
 * Load id's private key: without a passphrase first, then asking up to
 * NumberOfPasswordPrompts times. An empty answer gives up on the key.
 */
static int
load_private(struct ca_ctx *c, struct ca_identity *id)
{
	char *prompt = NULL, *pass = NULL;
	int r, i, tries;

	if (id->priv != NULL)
		return 0;
	x_free(id->comment);
	id->comment = NULL;
	r = key_load_private(id->path, "", 1, &id->priv, &id->comment);
	if (r == ERR_KEY_BAD_PERMISSIONS) {
		warn_perms(id->path);
		return r;
	}
	tries = c->o->number_of_password_prompts >= 0 ?
	    c->o->number_of_password_prompts : 3;
	prompt = x_asprintf("Enter passphrase for key '%.100s': ", id->path);
	for (i = 0; r == ERR_KEY_WRONG_PASSPHRASE && i < tries; i++) {
		if (ca_ask(c, prompt, 0, &pass) != 0 || *pass == '\0') {
			log_debug2("no passphrase given, try next key");
			break;
		}
		r = key_load_private(id->path, pass, 1, &id->priv,
		    &id->comment);
		x_freezero(pass, strlen(pass));
		pass = NULL;
		if (r == ERR_KEY_WRONG_PASSPHRASE)
			log_debug2("bad passphrase given, try again...");
	}
	if (pass != NULL)
		x_freezero(pass, strlen(pass));
	x_free(prompt);
	if (r != 0 && r != ERR_KEY_WRONG_PASSPHRASE)
		fprintf(stderr, "Load key \"%s\": %s\n", id->path,
		    err_str(r));
	if (r != 0) {
		id->priv = NULL;
		return r;
	}
	if (id->pub == NULL && (r = key_demote(id->priv, &id->pub)) != 0)
		return r;
	if (!key_equal_public(id->pub, id->priv)) {
		fprintf(stderr, "Load key \"%s\": public and private keys "
		    "differ\n", id->path);
		key_free(id->priv);
		id->priv = NULL;
		return ERR_KEY_INVALID;
	}
	return 0;
}

/* id's blob as offered: its certificate, or its plain key. */
static int
offered_blob(const struct ca_identity *id, struct sbuf *blob)
{
	return id->cert != NULL ? cert_to_blob(id->cert, blob) :
	    key_to_blob(id->pub, blob);
}

/*
 * The signature for id's signed request into sig: by the agent when it
 * holds the key, else by the loaded private key.
 */
static int
make_signature(struct ca_ctx *c, struct ca_identity *id, struct sbuf *sig)
{
	struct sbuf *blob = sbuf_new(), *data = sbuf_new();
	const unsigned char *sid, *hk;
	const char *alg = id->cert != NULL ? cert_sigalg_base(c->id_alg) :
	    c->id_alg, *method;
	size_t sidlen, hklen;
	int r;

	method = ca_pubkey_method(c, id->pub, &hk, &hklen);
	sid = tr_session_id(c->t, &sidlen);
	if ((r = offered_blob(id, blob)) != 0 ||
	    (r = sbuf_put_string(data, sid, sidlen)) != 0 ||
	    (r = sbuf_put_u8(data, SSH2_MSG_USERAUTH_REQUEST)) != 0 ||
	    (r = sbuf_put_cstring(data, c->user)) != 0 ||
	    (r = sbuf_put_cstring(data, "ssh-connection")) != 0 ||
	    (r = sbuf_put_cstring(data, method)) != 0 ||
	    (r = sbuf_put_u8(data, 1)) != 0 ||
	    (r = sbuf_put_cstring(data, c->id_alg)) != 0 ||
	    (r = sbuf_put_stringb(data, blob)) != 0 ||
	    (hk != NULL && (r = sbuf_put_string(data, hk, hklen)) != 0))
		goto out;
	if (id->agent != NULL)
		r = ca_agent_sign(c, id, alg, sbuf_ptr(data), sbuf_len(data),
		    sig);
	else if (id->p11)
		r = ca_p11_sign(c, id, alg, sbuf_ptr(data), sbuf_len(data),
		    sig);
	else if (key_is_sk(id->priv))
		r = ca_sk_sign(c, id->priv, sbuf_ptr(data), sbuf_len(data),
		    sig);
	else
		r = key_sign(id->priv, alg, sbuf_ptr(data), sbuf_len(data),
		    sig);
 out:
	sbuf_free(blob);
	sbuf_free(data);
	return r;
}

/* A publickey request for id; sig NULL: the query without signature. */
static int
send_request(struct ca_ctx *c, struct ca_identity *id,
    const struct sbuf *sig)
{
	struct sbuf *blob = sbuf_new(), *m;
	const unsigned char *hk = NULL;
	const char *method = "publickey";
	size_t hklen = 0;
	int r;

	if ((r = offered_blob(id, blob)) != 0)
		goto out;
	/* Only the signed request is bound, as OpenSSH's ssh does. */
	if (sig != NULL)
		method = ca_pubkey_method(c, NULL, &hk, &hklen);
	if ((m = ca_request_start(c, method)) == NULL) {
		r = ERR_INTERNAL;
		goto out;
	}
	if ((r = sbuf_put_u8(m, sig != NULL ? 1 : 0)) != 0 ||
	    (r = sbuf_put_cstring(m, c->id_alg)) != 0 ||
	    (r = sbuf_put_stringb(m, blob)) != 0 ||
	    (hk != NULL && (r = sbuf_put_string(m, hk, hklen)) != 0) ||
	    (sig != NULL && (r = sbuf_put_stringb(m, sig)) != 0))
		goto out;
	if ((r = tr_msg_send(c->t)) == 0)
		c->signed_sent = sig != NULL;
 out:
	sbuf_free(blob);
	return r;
}

int
ca_pubkey_next(struct ca_ctx *c)
{
	struct ca_identity *id;
	char *fp;
	int r;

	c->id_cur = NULL;
	while (c->id_next < c->nids) {
		id = &c->ids[c->id_next++];
		if (id->used)
			continue;
		if (id->lone_cert && (id->agent == NULL || id->pub == NULL)) {
			log_debug2("Skipping certificate %s: no agent holds "
			    "its key", id->path);
			continue;
		}
		if (id->pub == NULL && load_private(c, id) != 0)
			continue;
		if (id->pub->type == KEY_RSA && key_bits(id->pub) <
		    (unsigned int)c->o->required_rsa_size) {
			log_debug("Skipping key %s: Invalid key length",
			    id->path);
			continue;
		}
		if (id->cert != NULL) {
			c->id_alg = cert_sigalg_for(ca_pick_sigalg(id->pub,
			    tr_peer_sig_algs(c->t), NULL));
			if (c->id_alg != NULL &&
			    c->o->pubkey_accepted_algorithms != NULL &&
			    !match_list_contains(
			    c->o->pubkey_accepted_algorithms, c->id_alg))
				c->id_alg = NULL;
		} else
			c->id_alg = ca_pick_sigalg(id->pub,
			    tr_peer_sig_algs(c->t),
			    c->o->pubkey_accepted_algorithms);
		if (c->id_alg == NULL) {
			log_debug("Skipping %s key %s: algorithm not "
			    "accepted", key_type_name(id->pub), id->path);
			continue;
		}
		fp = key_fingerprint(id->pub, KEY_FP_SHA256);
		log_debug("Offering public key: %s %s %s%s", id->path,
		    id->cert != NULL ? cert_type_name(id->pub) :
		    key_type_name(id->pub), fp != NULL ? fp : "",
		    id->agent != NULL ? " agent" : "");
		x_free(fp);
		if ((r = send_request(c, id, NULL)) != 0)
			return r;
		c->id_cur = id;
		return 1;
	}
	return 0;
}

/* PK_OK: the server would take the key; sign and send. */
int
ca_pubkey_msg60(struct ca_ctx *c, struct sbuf *p)
{
	struct ca_identity *id = c->id_cur;
	const unsigned char *blob;
	struct sbuf *sig = NULL;
	struct key *k = NULL;
	char *alg = NULL;
	size_t bloblen;
	int r, same;

	if (id == NULL)
		return ERR_PROTOCOL;
	if ((r = sbuf_get_cstring(p, &alg, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(p, &blob, &bloblen)) != 0)
		goto out;
	if (id->cert != NULL)
		same = bloblen == sbuf_len(id->cert->blob) &&
		    memcmp(blob, sbuf_ptr(id->cert->blob), bloblen) == 0;
	else if ((r = key_from_blob(blob, bloblen, &k)) != 0)
		goto out;
	else
		same = key_equal_public(k, id->pub);
	if (strcmp(alg, c->id_alg) != 0 || !same) {
		log_debug("PK_OK for a key we did not offer");
		r = ERR_PROTOCOL;
		goto out;
	}
	log_debug("Server accepts key: %s", id->path);
	if (id->agent == NULL && !id->p11 && load_private(c, id) != 0) {
		r = 0;			/* go on with the next key */
		goto out;
	}
	if (id->agent == NULL && !id->p11)
		ca_agent_add_loaded(c, id);
	sig = sbuf_new();
	if ((r = make_signature(c, id, sig)) != 0) {
		/* A token or security key that failed costs that key only. */
		if (id->agent == NULL && !id->p11 && !key_is_sk(id->priv))
			goto out;
		log_debug("%s refused to sign with %s: %s", id->agent != NULL ?
		    "agent" : id->p11 ? "token" : "security key", id->path,
		    err_str(r));
		r = 0;			/* skip the key */
		goto out;
	}
	if ((r = send_request(c, id, sig)) == 0)
		r = 1;
 out:
	sbuf_free(sig);
	key_free(k);
	x_free(alg);
	return r;
}
