/*
 * agentd_store.c: the agent's identities. Adding one reads the private
 * key as ADD_IDENTITY carries it (draft-miller-ssh-agent section 4.2):
 * a plain key is "string type, public and private fields" as in an
 * openssh-key-v1 file's private section; a certificate is "string
 * cert type, string certificate, the private fields only" (the public
 * ones are in the certificate). For a certificate the plain body is
 * rebuilt from the certificate's key and the private fields, read by the
 * same code as a plain key, and the two public halves must agree.
 *
 * The constraints that follow the comment: lifetime (uint32 seconds),
 * confirm and destinations (the restrict-destination-v00@openssh.com
 * extension, agentd_dest.c). Others (maxsign, other extensions) are
 * refused, as OpenSSH refuses
 * what it does not support. Adding a key the agent already holds
 * replaces its private key, comment and constraints, as OpenSSH does.
 */
#include <string.h>

#include <openssl/core_names.h>

#include "agent.h"
#include "agentd_int.h"
#include "err.h"
#include "key_int.h"
#include "log.h"
#include "mem.h"

int
agentd_malformed(int r)
{
	return r == ERR_MESSAGE_INCOMPLETE || r == ERR_INVALID_FORMAT ||
	    r == ERR_STRING_TOO_LARGE || r == ERR_BIGNUM_NEGATIVE ||
	    r == ERR_BIGNUM_TOO_LARGE || r == ERR_NO_BUFFER_SPACE;
}

struct agentd_id *
agentd_find(struct agentd *a, const unsigned char *blob, size_t len)
{
	size_t i;

	for (i = 0; i < a->nids; i++) {
		if (a->ids[i].bloblen == len &&
		    memcmp(a->ids[i].blob, blob, len) == 0)
			return &a->ids[i];
	}
	return NULL;
}

static void
id_clear(struct agentd_id *id)
{
	key_free(id->key);
	cert_free(id->cert);
	x_free(id->blob);
	agentd_dest_free(id->dests, id->ndests);
	x_free(id->sk_provider);
	if (id->comment != NULL)
		x_freezero(id->comment, strlen(id->comment));
	memset(id, 0, sizeof(*id));
}

void
agentd_remove_at(struct agentd *a, size_t i)
{
	if (i >= a->nids)
		return;
	id_clear(&a->ids[i]);
	memmove(&a->ids[i], &a->ids[i + 1],
	    (a->nids - i - 1) * sizeof(a->ids[0]));
	a->nids--;
}

void
agentd_remove_all(struct agentd *a)
{
	while (a->nids > 0)
		agentd_remove_at(a, a->nids - 1);
}

/* Copy one string field from m to body unchanged. */
static int
copy_string(struct sbuf *m, struct sbuf *body)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = sbuf_get_string_direct(m, &p, &len)) != 0)
		return r;
	return sbuf_put_string(body, p, len);
}

/* A security key's byte flags, string key handle, string reserved. */
static int
copy_sk_fields(struct sbuf *m, struct sbuf *body)
{
	uint8_t flags;
	int r;

	if ((r = sbuf_get_u8(m, &flags)) != 0 ||
	    (r = sbuf_put_u8(body, flags)) != 0 ||
	    (r = copy_string(m, body)) != 0)
		return r;
	return copy_string(m, body);
}

/* ECDSA-SK: the certificate's application, which m must repeat. */
static int
ecdsa_sk_body(const struct key *k, struct sbuf *m, struct sbuf *body)
{
	const unsigned char *app;
	size_t len;
	int r;

	if ((r = sbuf_get_string_direct(m, &app, &len)) != 0)
		return r;
	if (k->sk_application == NULL || len != strlen(k->sk_application) ||
	    memcmp(app, k->sk_application, len) != 0)
		return ERR_KEY_TYPE_MISMATCH;
	if ((r = key_to_blob(k, body)) != 0)	/* ... Q, application */
		return r;
	return copy_sk_fields(m, body);
}

static int
copy_mpint(struct sbuf *m, struct sbuf *body)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = sbuf_get_mpint_direct(m, &p, &len)) != 0)
		return r;
	return sbuf_put_mpint_bytes(body, p, len);
}

static int
put_param(const struct key *k, const char *param, struct sbuf *body)
{
	BIGNUM *bn = NULL;
	int r;

	if ((r = key_get_bn(k, param, &bn)) == 0)
		r = sbuf_put_bignum(body, bn);
	BN_free(bn);
	return r;
}

/* The plain private body for certificate c's key from m's fields. */
static int
cert_body(const struct key_cert *c, struct sbuf *m, struct sbuf *body)
{
	const struct key *k = c->key;
	int r, i;

	switch (k->type) {
	case KEY_ED25519:	/* string pk, string pk||sk */
		if ((r = sbuf_put_cstring(body, key_type_name(k))) != 0 ||
		    (r = copy_string(m, body)) != 0)
			return r;
		return copy_string(m, body);
	case KEY_ECDSA:		/* mpint d */
		if ((r = key_to_blob(k, body)) != 0)
			return r;
		return copy_mpint(m, body);
	case KEY_ED25519_SK:	/* string pk, string application, sk fields */
		if ((r = sbuf_put_cstring(body, key_type_name(k))) != 0 ||
		    (r = copy_string(m, body)) != 0 ||
		    (r = copy_string(m, body)) != 0)
			return r;
		return copy_sk_fields(m, body);
	case KEY_ECDSA_SK:	/* string application, sk fields */
		return ecdsa_sk_body(k, m, body);
	case KEY_RSA:		/* mpint d, iqmp, p, q */
		if ((r = sbuf_put_cstring(body, key_type_name(k))) != 0 ||
		    (r = put_param(k, OSSL_PKEY_PARAM_RSA_N, body)) != 0 ||
		    (r = put_param(k, OSSL_PKEY_PARAM_RSA_E, body)) != 0)
			return r;
		for (i = 0; i < 4; i++) {
			if ((r = copy_mpint(m, body)) != 0)
				return r;
		}
		return 0;
	default:
		return ERR_KEY_TYPE_UNKNOWN;
	}
}

/* A certificate and its private key: "string type, string cert, ...". */
static int
read_cert_key(struct sbuf *m, struct key **kp, struct key_cert **cp)
{
	struct sbuf *body = sbuf_new();
	struct key_cert *c = NULL;
	struct key *k = NULL;
	const unsigned char *blob;
	size_t bloblen;
	char *name = NULL;
	int r;

	if ((r = sbuf_get_cstring(m, &name, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(m, &blob, &bloblen)) != 0)
		goto out;
	if ((r = cert_from_blob(blob, bloblen, &c)) != 0) {
		if (agentd_malformed(r))
			r = ERR_KEY_CERT_INVALID;	/* the blob, not m */
		goto out;
	}
	if (strcmp(name, cert_type_name(c->key)) != 0) {
		r = ERR_KEY_TYPE_MISMATCH;
		goto out;
	}
	if ((r = cert_body(c, m, body)) != 0)
		goto out;
	if ((r = key_private_from_sbuf(body, &k)) != 0) {
		if (agentd_malformed(r))
			r = ERR_KEY_INVALID;
		goto out;
	}
	if (!key_equal_public(k, c->key)) {
		r = ERR_KEY_TYPE_MISMATCH;
		goto out;
	}
	*kp = k;
	*cp = c;
	k = NULL;
	c = NULL;
 out:
	key_free(k);
	cert_free(c);
	x_free(name);
	sbuf_wipe(body);
	sbuf_free(body);
	return r;
}

static int
read_key(struct sbuf *m, struct key **kp, struct key_cert **cp)
{
	const unsigned char *name;
	size_t len;
	char tname[128];
	int r;

	*kp = NULL;
	*cp = NULL;
	if ((r = sbuf_peek_string_direct(m, &name, &len)) != 0)
		return r;
	if (len >= sizeof(tname))
		return ERR_KEY_TYPE_UNKNOWN;
	memcpy(tname, name, len);
	tname[len] = '\0';
	if (cert_is_cert_name(tname))
		return read_cert_key(m, kp, cp);
	return key_private_from_sbuf(m, kp);
}

/* What the constraints after the comment ask for. */
struct constraints {
	uint32_t life;
	int confirm;
	struct agentd_dest *dests;
	size_t ndests;
	char *sk_provider;		/* sk-provider@openssh.com */
};

static void
constraints_clear(struct constraints *cs)
{
	agentd_dest_free(cs->dests, cs->ndests);
	x_free(cs->sk_provider);
	memset(cs, 0, sizeof(*cs));
}

/*
 * A constraint extension: destinations, or the middleware of a security
 * key (not for a token's keys, where a is NULL).
 */
static int
read_extension(struct agentd *a, struct sbuf *m, struct constraints *cs)
{
	char *name = NULL;
	int r;

	if ((r = sbuf_get_cstring(m, &name, NULL)) != 0)
		return r;
	log_debug("parse_key_constraint_extension: constraint ext %s", name);
	if (strcmp(name, "restrict-destination-v00@openssh.com") == 0 &&
	    cs->dests == NULL)
		r = agentd_dest_parse(m, &cs->dests, &cs->ndests);
	else if (strcmp(name, "sk-provider@openssh.com") == 0 && a != NULL &&
	    cs->sk_provider == NULL) {
		r = agentd_sk_provider(a, m, &cs->sk_provider);
		/* A provider refused or cut short: the key is. */
		if (r != 0)
			r = ERR_FEATURE_UNSUPPORTED;
	} else {
		log_error("parse_key_constraint_extension: unsupported "
		    "constraint \"%s\"", name);
		r = ERR_FEATURE_UNSUPPORTED;
	}
	x_free(name);
	return r;
}

/* Constraints after the comment; ERR_FEATURE_UNSUPPORTED refuses. */
static int
read_constraints(struct agentd *a, struct sbuf *m, struct constraints *cs)
{
	uint8_t type;
	uint32_t secs;
	int r, have_life = 0;

	while (sbuf_len(m) > 0) {
		if ((r = sbuf_get_u8(m, &type)) != 0)
			return r;
		switch (type) {
		case SSH_AGENT_CONSTRAIN_LIFETIME:
			if ((r = sbuf_get_u32(m, &secs)) != 0)
				return r;
			if (have_life++) {
				log_error("lifetime already set");
				return ERR_FEATURE_UNSUPPORTED;
			}
			cs->life = secs;
			break;
		case SSH_AGENT_CONSTRAIN_CONFIRM:
			cs->confirm = 1;
			break;
		case SSH_AGENT_CONSTRAIN_EXTENSION:
			if ((r = read_extension(a, m, cs)) != 0)
				return r;
			break;
		default:
			log_error("Unsupported constraint %u", type);
			return ERR_FEATURE_UNSUPPORTED;
		}
	}
	return 0;
}

/*
 * Store k with what cs asks (its destinations and provider taken).
 * conn NULL: a token's key, never one already stored (agentd_p11.c
 * skips those), so there is nothing to replace.
 */
static int
put_id(struct agentd *a, const struct agentd_conn *conn, struct key *k,
    struct key_cert *c, char *comment, struct constraints *cs)
{
	uint32_t life = cs->life;
	struct sbuf *blob = sbuf_new();
	struct agentd_id *id;
	int r;

	r = c != NULL ? cert_to_blob(c, blob) : key_to_blob(k, blob);
	if (r != 0)
		goto out;
	if ((id = agentd_find(a, sbuf_ptr(blob), sbuf_len(blob))) != NULL) {
		/* Not visible to this connection: not to be replaced. */
		if (conn == NULL || !agentd_dest_permitted(id, conn, NULL)) {
			r = ERR_PERMISSION_DENIED;
			goto out;
		}
		id_clear(id);
	} else {
		if (a->nids >= AGENT_MAX_KEYS) {
			r = ERR_NO_BUFFER_SPACE;
			goto out;
		}
		a->ids = x_reallocarray(a->ids, a->nids + 1,
		    sizeof(a->ids[0]));
		id = &a->ids[a->nids++];
		memset(id, 0, sizeof(*id));
	}
	id->key = k;
	id->cert = c;
	id->bloblen = sbuf_len(blob);
	id->blob = x_memdup(sbuf_ptr(blob), id->bloblen);
	id->comment = comment;
	if (life == 0)
		life = a->cfg.default_life;
	id->death = life != 0 ? agentd_now(a) + life : 0;
	id->confirm = cs->confirm;
	id->dests = cs->dests;
	id->ndests = cs->ndests;
	id->sk_provider = cs->sk_provider;
	cs->dests = NULL;
	cs->ndests = 0;
	cs->sk_provider = NULL;
 out:
	sbuf_free(blob);
	return r;
}

int
agentd_add(struct agentd *a, const struct agentd_conn *conn, struct sbuf *m,
    int *okp)
{
	struct key *k = NULL;
	struct key_cert *c = NULL;
	char *comment = NULL;
	struct constraints cs;
	size_t nd;
	int r;

	memset(&cs, 0, sizeof(cs));
	*okp = 0;
	if ((r = read_key(m, &k, &c)) != 0) {
		if (agentd_malformed(r))
			goto out;
		log_error("agent: add identity: %s", err_str(r));
		r = 0;
		goto out;
	}
	if ((r = sbuf_get_cstring(m, &comment, NULL)) != 0)
		goto out;
	if ((r = read_constraints(a, m, &cs)) != 0) {
		if (!agentd_malformed(r))
			r = 0;
		goto out;
	}
	if (key_is_sk(k) != (cs.sk_provider != NULL)) {
		log_error("agent: add identity: %s", cs.sk_provider == NULL ?
		    "a security key without its provider" :
		    "a provider for a key that is no security key");
		goto out;
	}
	nd = cs.ndests;
	if ((r = put_id(a, conn, k, c, comment, &cs)) != 0) {
		log_error("agent: add identity: %s", err_str(r));
		r = 0;
		goto out;
	}
	log_debug("add_identity: add %s %.100s (life %u) (confirm %d) "
	    "(%zu destination constraints)", key_type_name(k), comment,
	    (unsigned)cs.life, cs.confirm, nd);
	k = NULL;
	c = NULL;
	comment = NULL;
	*okp = 1;
 out:
	constraints_clear(&cs);
	key_free(k);
	cert_free(c);
	if (comment != NULL)
		x_freezero(comment, strlen(comment));
	return r;
}

/*
 * A token's keys take a lifetime and confirmation; destinations on them
 * are not supported here and refuse the request.
 */
int
agentd_constraints(struct sbuf *m, uint32_t *lifep, int *confirmp)
{
	struct constraints cs;
	int r;

	memset(&cs, 0, sizeof(cs));
	if ((r = read_constraints(NULL, m, &cs)) == 0 && cs.ndests > 0) {
		log_error("destination constraints on PKCS#11 keys are not "
		    "supported");
		r = ERR_FEATURE_UNSUPPORTED;
	}
	*lifep = cs.life;
	*confirmp = cs.confirm;
	constraints_clear(&cs);
	return r;
}

int
agentd_put(struct agentd *a, struct key *k, struct key_cert *c,
    char *comment, uint32_t life, int confirm)
{
	struct constraints cs;

	memset(&cs, 0, sizeof(cs));
	cs.life = life;
	cs.confirm = confirm;
	return put_id(a, NULL, k, c, comment, &cs);
}
