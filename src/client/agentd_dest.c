/*
 * agentd_dest.c: destination constraints on the agent's keys
 * (restrict-destination-v00@openssh.com, OpenSSH's PROTOCOL.agent
 * section 2; added by ssh-add -h).
 *
 * A constraint names one hop a key may be used on: from a host (by its
 * host keys; none for the machine the agent runs on) to a host (by its
 * host keys or a CA of its host certificates), optionally as a user
 * pattern. A connection to the agent carries the hops it came through
 * as session-bind@openssh.com records: the first is the connection ssh
 * made from here, each later one a forwarding further on, the last the
 * one a signature is for. A key with constraints is usable on that
 * connection only when every recorded hop matches one of them, in
 * order, and it is listed only then; a connection never bound is the
 * local user (ssh-add -l, ssh-keygen) and sees every key, but may not
 * have a constrained key sign. Signatures with such a key must be over
 * a publickey userauth request for the last bound session, naming the
 * host key bound last (required past the first hop).
 *
 * Wire form (after the constraint's name): string holding a sequence of
 *   string constraint: string from-hop, string to-hop, string reserved
 * and a hop: string user, string host, string reserved, then pairs of
 * string key blob, bool is_ca to its end.
 */
#include <string.h>
#include <time.h>

#include "agent.h"
#include "agentd_int.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport.h"

#define HOSTBOUND_METHOD	"publickey-hostbound-v00@openssh.com"

static void
hop_free(struct agentd_hop *h)
{
	size_t i;

	x_free(h->user);
	x_free(h->host);
	for (i = 0; i < h->nkeys; i++)
		key_free(h->keys[i]);
	x_free(h->keys);
	x_free(h->is_ca);
	memset(h, 0, sizeof(*h));
}

void
agentd_dest_free(struct agentd_dest *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		hop_free(&d[i].from);
		hop_free(&d[i].to);
	}
	x_free(d);
}

/* An empty string as NULL. */
static char *
null_if_empty(char *s)
{
	if (s != NULL && *s == '\0') {
		x_free(s);
		return NULL;
	}
	return s;
}

static int
parse_hop(struct sbuf *b, struct agentd_hop *h)
{
	const unsigned char *res, *blob;
	size_t reslen, bloblen, userlen;
	struct key *k = NULL;
	uint8_t ca;
	int r;

	memset(h, 0, sizeof(*h));
	if ((r = sbuf_get_cstring(b, &h->user, &userlen)) != 0 ||
	    (r = sbuf_get_cstring(b, &h->host, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(b, &res, &reslen)) != 0)
		return r;
	if (reslen != 0) {
		log_error("parse_dest_constraint_hop: unsupported extensions "
		    "(len %zu)", reslen);
		return ERR_FEATURE_UNSUPPORTED;
	}
	h->user = null_if_empty(h->user);
	h->host = null_if_empty(h->host);
	if (h->user != NULL && userlen > AGENTD_MAX_USER_PATTERN) {
		log_error("parse_dest_constraint_hop: user match pattern too "
		    "long");
		return ERR_FEATURE_UNSUPPORTED;
	}
	while (sbuf_len(b) != 0) {
		if (h->nkeys >= AGENTD_MAX_HOP_KEYS) {
			log_error("parse_dest_constraint_hop: too many keys");
			return ERR_FEATURE_UNSUPPORTED;
		}
		if ((r = sbuf_get_string_direct(b, &blob, &bloblen)) != 0 ||
		    (r = sbuf_get_u8(b, &ca)) != 0)
			return r;
		if ((r = key_from_blob(blob, bloblen, &k)) != 0) {
			log_error("parse_dest_constraint_hop: key: %s",
			    err_str(r));
			return ERR_FEATURE_UNSUPPORTED;
		}
		h->keys = x_reallocarray(h->keys, h->nkeys + 1,
		    sizeof(*h->keys));
		h->is_ca = x_reallocarray(h->is_ca, h->nkeys + 1,
		    sizeof(*h->is_ca));
		h->keys[h->nkeys] = k;
		h->is_ca[h->nkeys++] = ca != 0;
		k = NULL;
	}
	return 0;
}

static int
parse_one(struct sbuf *list, struct agentd_dest *d)
{
	const unsigned char *p, *res;
	size_t len, reslen;
	struct sbuf *c = NULL, *from = NULL, *to = NULL;
	int r;

	memset(d, 0, sizeof(*d));
	if ((r = sbuf_get_string_direct(list, &p, &len)) != 0)
		return r;
	c = sbuf_from(p, len);
	if ((r = sbuf_get_string_direct(c, &p, &len)) != 0)
		goto out;
	from = sbuf_from(p, len);
	if ((r = sbuf_get_string_direct(c, &p, &len)) != 0)
		goto out;
	to = sbuf_from(p, len);
	if ((r = sbuf_get_string_direct(c, &res, &reslen)) != 0 ||
	    (r = parse_hop(from, &d->from)) != 0 ||
	    (r = parse_hop(to, &d->to)) != 0)
		goto out;
	if (reslen != 0 || sbuf_len(c) != 0) {
		log_error("parse_dest_constraint: unsupported extensions "
		    "(len %zu)", reslen);
		r = ERR_FEATURE_UNSUPPORTED;
		goto out;
	}
	log_debug2("parse_dest_constraint: parsed %s (%zu keys) > %s%s%s "
	    "(%zu keys)", d->from.host ? d->from.host : "(ORIGIN)",
	    d->from.nkeys, d->to.user ? d->to.user : "",
	    d->to.user ? "@" : "", d->to.host ? d->to.host : "(ANY)",
	    d->to.nkeys);
	if ((d->from.host == NULL) != (d->from.nkeys == 0) ||
	    d->from.user != NULL) {
		log_error("parse_dest_constraint: inconsistent \"from\" "
		    "specification");
		r = ERR_FEATURE_UNSUPPORTED;
		goto out;
	}
	if (d->to.host == NULL || d->to.nkeys == 0) {
		log_error("parse_dest_constraint: incomplete \"to\" "
		    "specification");
		r = ERR_FEATURE_UNSUPPORTED;
		goto out;
	}
 out:
	sbuf_free(c);
	sbuf_free(from);
	sbuf_free(to);
	return r;
}

int
agentd_dest_parse(struct sbuf *m, struct agentd_dest **dp, size_t *np)
{
	const unsigned char *p;
	struct sbuf *list;
	size_t len;
	int r = 0;

	if (*dp != NULL) {
		log_error("parse_key_constraint_extension: "
		    "restrict-destination-v00@openssh.com already set");
		return ERR_FEATURE_UNSUPPORTED;
	}
	if ((r = sbuf_get_string_direct(m, &p, &len)) != 0)
		return r;
	list = sbuf_from(p, len);
	while (sbuf_len(list) != 0) {
		if (*np >= AGENTD_MAX_DESTS) {
			log_error("parse_key_constraint_extension: too many "
			    "restrict-destination-v00@openssh.com "
			    "constraints");
			r = ERR_FEATURE_UNSUPPORTED;
			break;
		}
		*dp = x_reallocarray(*dp, *np + 1, sizeof(**dp));
		r = parse_one(list, &(*dp)[*np]);
		(*np)++;		/* freed with the rest on failure */
		if (r != 0)
			break;
	}
	sbuf_free(list);
	if (r == 0 && *np == 0) {
		/* Nothing parsed: the key would be unconstrained. */
		log_error("parse_key_constraint_extension: empty "
		    "restrict-destination-v00@openssh.com");
		r = ERR_FEATURE_UNSUPPORTED;
	}
	return r;
}

/* Whether a bound host key (b) is one hop h names. */
static int
hop_has_key(const struct agentd_hop *h, const struct agentd_binding *b)
{
	const char *reason = NULL;
	size_t i;

	for (i = 0; i < h->nkeys; i++) {
		if (b->cert == NULL) {
			if (!h->is_ca[i] && key_equal_public(b->key,
			    h->keys[i]))
				return 1;
			continue;
		}
		if (!h->is_ca[i] || b->cert->ca_key == NULL ||
		    !key_equal_public(b->cert->ca_key, h->keys[i]))
			continue;
		if (cert_check_reason(b->cert, (uint64_t)time(NULL),
		    h->host != NULL ? h->host : "(ORIGIN)", 1, &reason) != 0) {
			log_debug("match_key_hop: cert %s / hostname %s "
			    "rejected: %s", b->cert->key_id ?
			    b->cert->key_id : "", h->host ? h->host : "",
			    reason ? reason : "invalid");
			continue;
		}
		return 1;
	}
	return 0;
}

/*
 * Whether one of id's constraints allows a hop from the host bound as
 * from (NULL: this machine) to the host bound as to (NULL: anywhere),
 * as user (NULL: any).
 */
static int
hop_permitted(const struct agentd_id *id, const struct agentd_binding *from,
    const struct agentd_binding *to, const char *user)
{
	const struct agentd_dest *d;
	size_t i;

	for (i = 0; i < id->ndests; i++) {
		d = &id->dests[i];
		if (from == NULL ? d->from.host != NULL || d->from.nkeys != 0 :
		    !hop_has_key(&d->from, from))
			continue;
		if (to != NULL && !hop_has_key(&d->to, to))
			continue;
		if (d->to.user != NULL && user != NULL &&
		    match_pattern(user, d->to.user) != 1)
			continue;
		log_debug2("permitted_by_dest_constraints: allowed for "
		    "hostname %s", d->to.host);
		return 1;
	}
	log_debug2("permitted_by_dest_constraints: %s identity \"%s\" not "
	    "permitted for this destination", key_short_name(id->key),
	    id->comment);
	return 0;
}

int
agentd_dest_permitted(const struct agentd_id *id,
    const struct agentd_conn *c, const char *user)
{
	const struct agentd_binding *b, *from = NULL;
	size_t i;

	if (id->ndests == 0)
		return 1;
	if (c->bind_attempted && c->nbinds == 0) {
		log_error("identity_permitted: previous session bind failed "
		    "on socket");
		return 0;
	}
	if (c->nbinds == 0)
		return 1;		/* the local user */
	for (i = 0; i < c->nbinds; i++) {
		b = &c->binds[i];
		if (i == c->nbinds - 1) {
			/* A signature is only for the last hop, not beyond. */
			if (b->forwarded && user != NULL) {
				log_error("identity_permitted: tried to sign "
				    "on forwarding hop");
				return 0;
			}
		} else if (!b->forwarded) {
			log_error("identity_permitted: tried to forward "
			    "though signing bind");
			return 0;
		}
		if (!hop_permitted(id, from, b, i == c->nbinds - 1 ? user :
		    NULL))
			return 0;
		from = b;
	}
	/*
	 * Listed through a forwarding: only if some constraint lets it go
	 * on from the last host, else it could log in only to that host.
	 */
	b = &c->binds[c->nbinds - 1];
	if (b->forwarded && user == NULL && !hop_permitted(id, b, NULL, NULL)) {
		log_debug3("identity_permitted: key permitted at host but not "
		    "after");
		return 0;
	}
	return 1;
}

/*
 * The parts of a publickey userauth request (RFC 4252 section 7 and
 * PROTOCOL 3.1) signed for id's key: its user, session id and the
 * server host key blob (NULL for plain "publickey").
 */
struct userauth_parts {
	char *user;
	const unsigned char *sid, *hostkey;
	size_t sidlen, hostkeylen;
};

static int
parse_userauth(const struct agentd_id *id, const unsigned char *data,
    size_t dlen, struct userauth_parts *u)
{
	struct sbuf *b = sbuf_from(data, dlen);
	char *service = NULL, *method = NULL, *alg = NULL;
	const unsigned char *blob;
	size_t bloblen;
	struct key *k = NULL;
	struct key_cert *cert = NULL;
	uint8_t type, follows;
	int r, ok = 0;

	memset(u, 0, sizeof(*u));
	if ((r = sbuf_get_string_direct(b, &u->sid, &u->sidlen)) != 0 ||
	    u->sidlen == 0 || (r = sbuf_get_u8(b, &type)) != 0 ||
	    (r = sbuf_get_cstring(b, &u->user, NULL)) != 0 ||
	    (r = sbuf_get_cstring(b, &service, NULL)) != 0 ||
	    (r = sbuf_get_cstring(b, &method, NULL)) != 0 ||
	    (r = sbuf_get_u8(b, &follows)) != 0 ||
	    (r = sbuf_get_cstring(b, &alg, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(b, &blob, &bloblen)) != 0)
		goto out;
	if (type != SSH2_MSG_USERAUTH_REQUEST || follows != 1 ||
	    strcmp(service, "ssh-connection") != 0 || bloblen != id->bloblen ||
	    memcmp(blob, id->blob, bloblen) != 0)
		goto out;
	if (strcmp(method, HOSTBOUND_METHOD) == 0) {
		if (sbuf_get_string_direct(b, &u->hostkey,
		    &u->hostkeylen) != 0)
			goto out;
		/* It must at least decode as a host key. */
		if (key_from_blob(u->hostkey, u->hostkeylen, &k) != 0 &&
		    cert_from_blob(u->hostkey, u->hostkeylen, &cert) != 0)
			goto out;
	} else if (strcmp(method, "publickey") != 0)
		goto out;
	ok = sbuf_len(b) == 0;
 out:
	sbuf_free(b);
	key_free(k);
	cert_free(cert);
	x_free(service);
	x_free(method);
	x_free(alg);
	if (!ok) {
		x_free(u->user);
		u->user = NULL;
	}
	return ok;
}

int
agentd_dest_sign_ok(const struct agentd_id *id, const struct agentd_conn *c,
    const unsigned char *data, size_t dlen)
{
	const struct agentd_binding *last;
	struct userauth_parts u;
	int ok = 0;

	if (id->ndests == 0)
		return 1;
	if (c->nbinds == 0) {
		log_info("process_sign_request2: refusing use of "
		    "destination-constrained key to sign on unbound "
		    "connection");
		return 0;
	}
	if (!parse_userauth(id, data, dlen, &u)) {
		log_info("process_sign_request2: refusing use of "
		    "destination-constrained key to sign an unidentified "
		    "signature");
		return 0;
	}
	log_debug("process_sign_request2: user=%s", u.user);
	if (!agentd_dest_permitted(id, c, u.user))
		goto out;
	last = &c->binds[c->nbinds - 1];
	if (u.sidlen != last->sidlen ||
	    memcmp(u.sid, last->sid, u.sidlen) != 0) {
		log_error("process_sign_request2: unexpected session ID (%zu "
		    "listed) on signature request for target user %s with "
		    "key %s", c->nbinds, u.user, key_short_name(id->key));
		goto out;
	}
	if (c->nbinds > 1 && u.hostkey == NULL) {
		log_error("process_sign_request2: refusing use of "
		    "destination-constrained key: no hostkey recorded in "
		    "signature for forwarded connection");
		goto out;
	}
	if (u.hostkey != NULL && (u.hostkeylen != last->hostkeylen ||
	    memcmp(u.hostkey, last->hostkey, u.hostkeylen) != 0)) {
		log_error("process_sign_request2: refusing use of "
		    "destination-constrained key: mismatch between hostkey "
		    "in request and most recently bound session");
		goto out;
	}
	ok = 1;
 out:
	x_free(u.user);
	return ok;
}
