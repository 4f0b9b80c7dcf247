/*
 * agentd.c: ssh-agent's handling of requests (draft-miller-ssh-agent,
 * OpenSSH's PROTOCOL.agent): the framing of a client's byte stream,
 * then one function per message: list, sign, add (agentd_store.c),
 * remove, remove all, lock, unlock and the session-bind@openssh.com
 * extension. See agentd.h for what closes a connection and what is
 * only refused.
 *
 * Lock keeps a salted bcrypt_pbkdf hash of the passphrase, not the
 * passphrase; while locked the agent lists no keys and signs nothing.
 * A wrong unlock passphrase costs a pause that grows by a tenth of a
 * second per failure up to ten seconds, as in OpenSSH, against
 * guessing.
 */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "agent.h"
#include "agentd_int.h"
#include "bcrypt_pbkdf.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "p11_client.h"

#define SESSION_BIND	"session-bind@openssh.com"
#define MAX_UNLOCK_FAILS 100		/* pause at most 10 s */

static uint64_t
mono_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec;
}

static void
pause_usec(unsigned long usec)
{
	(void)usleep((useconds_t)usec);
}

uint64_t
agentd_now(const struct agentd *a)
{
	return a->cfg.now != NULL ? a->cfg.now() : mono_now();
}

int
agentd_new(const struct agentd_config *cfg, struct agentd **ap)
{
	struct agentd *a = x_calloc(1, sizeof(*a));

	if (cfg != NULL)
		a->cfg = *cfg;
	if (a->cfg.delay == NULL)
		a->cfg.delay = pause_usec;
	*ap = a;
	return 0;
}

void
agentd_free(struct agentd *a)
{
	if (a == NULL)
		return;
	agentd_remove_all(a);
	agentd_p11_free(a);
	x_free(a->ids);
	x_freezero(a, sizeof(*a));
}

struct agentd_conn *
agentd_conn_new(void)
{
	struct agentd_conn *c = x_calloc(1, sizeof(*c));

	c->in = sbuf_new();
	return c;
}

void
agentd_conn_free(struct agentd_conn *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nbinds; i++) {
		x_free(c->binds[i].hostkey);
		x_free(c->binds[i].sid);
		key_free(c->binds[i].key);
		cert_free(c->binds[i].cert);
	}
	sbuf_wipe(c->in);
	sbuf_free(c->in);
	x_free(c);
}

size_t
agentd_count(const struct agentd *a)
{
	return a->nids;
}

size_t
agentd_conn_pending(const struct agentd_conn *c)
{
	return sbuf_len(c->in);
}

size_t
agentd_conn_bindings(const struct agentd_conn *c)
{
	return c->nbinds;
}

long
agentd_expire(struct agentd *a)
{
	uint64_t now = agentd_now(a), next = 0;
	size_t i = 0;

	while (i < a->nids) {
		if (a->ids[i].death != 0 && a->ids[i].death <= now) {
			log_verbose("Expired key removed: %.100s",
			    a->ids[i].comment);
			agentd_remove_at(a, i);
			continue;
		}
		if (a->ids[i].death != 0 &&
		    (next == 0 || a->ids[i].death < next))
			next = a->ids[i].death;
		i++;
	}
	return next == 0 ? -1 : (long)(next - now);
}

static int
put_status(struct sbuf *reply, int ok)
{
	return sbuf_put_u8(reply, ok ? SSH_AGENT_SUCCESS : SSH_AGENT_FAILURE);
}

static int
do_list(struct agentd *a, const struct agentd_conn *c, struct sbuf *m,
    struct sbuf *reply)
{
	size_t i, n = a->locked ? 0 : a->nids, shown = 0;
	int r;

	if (sbuf_len(m) != 0)
		return ERR_INVALID_FORMAT;
	/* A destination-constrained key only where it may be used. */
	for (i = 0; i < n; i++)
		shown += agentd_dest_permitted(&a->ids[i], c, NULL);
	if ((r = sbuf_put_u8(reply, SSH_AGENT_IDENTITIES_ANSWER)) != 0 ||
	    (r = sbuf_put_u32(reply, (uint32_t)shown)) != 0)
		return r;
	for (i = 0; i < n; i++) {
		if (shown < n && !agentd_dest_permitted(&a->ids[i], c, NULL))
			continue;
		if ((r = sbuf_put_string(reply, a->ids[i].blob,
		    a->ids[i].bloblen)) != 0 ||
		    (r = sbuf_put_cstring(reply, a->ids[i].comment)) != 0)
			return r;
	}
	return 0;
}

/* Ask the user (through cfg.confirm) whether id may sign now. */
static int
confirm_use(struct agentd *a, const struct agentd_id *id)
{
	char *fp, *prompt;
	int ok = 0;

	if (a->cfg.confirm == NULL)
		return 0;
	if ((fp = key_fingerprint(id->key, a->cfg.fp_hash)) == NULL)
		return 0;
	prompt = x_asprintf("Allow use of key %s?\nKey fingerprint %s.",
	    id->comment, fp);
	ok = a->cfg.confirm(a->cfg.confirm_arg, prompt) == 1;
	x_free(prompt);
	x_free(fp);
	return ok;
}

/* The signature algorithm SIGN_REQUEST's flags ask of key k. */
static const char *
sign_alg(const struct key *k, uint32_t flags)
{
	if (k->type != KEY_RSA)
		return NULL;
	if (flags & SSH_AGENT_RSA_SHA2_512)
		return "rsa-sha2-512";
	if (flags & SSH_AGENT_RSA_SHA2_256)
		return "rsa-sha2-256";
	return "ssh-rsa";
}

static int
do_sign(struct agentd *a, const struct agentd_conn *c, struct sbuf *m,
    struct sbuf *reply)
{
	const unsigned char *blob, *data;
	size_t bloblen, dlen;
	struct agentd_id *id;
	struct sbuf *sig = NULL;
	uint32_t flags;
	int r;

	if ((r = sbuf_get_string_direct(m, &blob, &bloblen)) != 0 ||
	    (r = sbuf_get_string_direct(m, &data, &dlen)) != 0 ||
	    (r = sbuf_get_u32(m, &flags)) != 0)
		return r;
	if (sbuf_len(m) != 0)
		return ERR_INVALID_FORMAT;
	if (a->locked || (id = agentd_find(a, blob, bloblen)) == NULL) {
		log_verbose("process_sign_request2: key not found");
		return put_status(reply, 0);
	}
	if (!agentd_dest_sign_ok(id, c, data, dlen))
		return put_status(reply, 0);
	if (id->confirm && !confirm_use(a, id)) {
		log_verbose("process_sign_request2: user refused key");
		return put_status(reply, 0);
	}
	sig = sbuf_new();
	if (id->p11 != NULL)
		r = p11_helper_sign(id->p11, id->key, sign_alg(id->key, flags),
		    data, dlen, NULL, sig, NULL);
	else if (key_is_sk(id->key))
		r = agentd_sk_sign(id, data, dlen, sig);
	else
		r = key_sign(id->key, sign_alg(id->key, flags), data, dlen,
		    sig);
	if (r != 0) {
		log_error("process_sign_request2: sign: %s", err_str(r));
		r = put_status(reply, 0);
		goto out;
	}
	if ((r = sbuf_put_u8(reply, SSH_AGENT_SIGN_RESPONSE)) == 0)
		r = sbuf_put_stringb(reply, sig);
 out:
	sbuf_free(sig);
	return r;
}

static int
do_remove(struct agentd *a, const struct agentd_conn *c, struct sbuf *m,
    struct sbuf *reply)
{
	const unsigned char *blob;
	size_t len;
	struct agentd_id *id;
	int r;

	if ((r = sbuf_get_string_direct(m, &blob, &len)) != 0)
		return r;
	if (sbuf_len(m) != 0)
		return ERR_INVALID_FORMAT;
	if ((id = agentd_find(a, blob, len)) == NULL) {
		log_debug("process_remove_identity: key not found");
		return put_status(reply, 0);
	}
	/* Not visible to this connection: not to be removed either. */
	if (!agentd_dest_permitted(id, c, NULL))
		return put_status(reply, 0);
	agentd_remove_at(a, (size_t)(id - a->ids));
	return put_status(reply, 1);
}

static int
lock_hash(const struct agentd *a, const char *pass, size_t len,
    unsigned char *out)
{
	return bcrypt_pbkdf(pass, len, a->lock_salt, sizeof(a->lock_salt),
	    out, AGENTD_LOCK_HASH_LEN, 1);
}

static int
do_lock(struct agentd *a, struct sbuf *m, int lock, struct sbuf *reply)
{
	unsigned char h[AGENTD_LOCK_HASH_LEN];
	char *pass = NULL;
	size_t len = 0;
	int r, ok = 0;

	if ((r = sbuf_get_cstring(m, &pass, &len)) != 0)
		return r;
	if (sbuf_len(m) != 0) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if (lock && !a->locked) {
		if (RAND_bytes(a->lock_salt, sizeof(a->lock_salt)) == 1 &&
		    lock_hash(a, pass, len, a->lock_hash) == 0) {
			log_debug("agent locked");
			a->locked = ok = 1;
		}
	} else if (!lock && a->locked) {
		if (lock_hash(a, pass, len, h) == 0 &&
		    x_ct_eq(h, a->lock_hash, sizeof(h))) {
			log_debug("agent unlocked");
			a->locked = 0;
			a->unlock_fails = 0;
			x_wipe(a->lock_hash, sizeof(a->lock_hash));
			ok = 1;
		} else {
			if (a->unlock_fails < MAX_UNLOCK_FAILS)
				a->unlock_fails++;
			log_debug("unlock failed, delaying %0.1lf seconds",
			    a->unlock_fails / 10.0);
			a->cfg.delay(100000UL * a->unlock_fails);
		}
	}
	r = put_status(reply, ok);
 out:
	x_wipe(h, sizeof(h));
	x_freezero(pass, len);
	return r;
}

/* The host key of a session-bind: a plain key or a certificate's key. */
static int
bind_hostkey(const unsigned char *blob, size_t len, struct key **kp,
    struct key_cert **cp)
{
	int r;

	*kp = NULL;
	*cp = NULL;
	if ((r = key_from_blob(blob, len, kp)) == 0)
		return 0;
	if ((r = cert_from_blob(blob, len, cp)) != 0)
		return r;
	return key_demote((*cp)->key, kp);
}

/* Check a session-bind request against what c already holds. */
static int
bind_allowed(const struct agentd_conn *c, const unsigned char *hk,
    size_t hklen, const unsigned char *sid, size_t sidlen, int *dupp)
{
	const struct agentd_binding *b;
	size_t i;

	*dupp = 0;
	for (i = 0; i < c->nbinds; i++) {
		b = &c->binds[i];
		if (!b->forwarded) {
			log_error("process_ext_session_bind: attempt to bind "
			    "session ID to socket previously bound for "
			    "authentication attempt");
			return 0;
		}
		if (b->sidlen != sidlen || memcmp(b->sid, sid, sidlen) != 0)
			continue;
		if (b->hostkeylen == hklen &&
		    memcmp(b->hostkey, hk, hklen) == 0) {
			log_debug("process_ext_session_bind: session ID "
			    "already recorded");
			*dupp = 1;
			return 1;
		}
		log_error("process_ext_session_bind: session ID recorded "
		    "against different key");
		return 0;
	}
	if (c->nbinds >= AGENTD_MAX_SESSION_IDS) {
		log_error("process_ext_session_bind: too many session IDs "
		    "recorded");
		return 0;
	}
	return 1;
}

static int
session_bind(struct agentd_conn *c, struct sbuf *m, int *okp)
{
	const unsigned char *hk, *sid, *sig;
	size_t hklen, sidlen, siglen;
	struct key *k = NULL;
	struct key_cert *cert = NULL;
	struct agentd_binding *b;
	int r, fwd, dup;

	*okp = 0;
	c->bind_attempted = 1;
	if ((r = sbuf_get_string_direct(m, &hk, &hklen)) != 0 ||
	    (r = sbuf_get_string_direct(m, &sid, &sidlen)) != 0 ||
	    (r = sbuf_get_string_direct(m, &sig, &siglen)) != 0 ||
	    (r = sbuf_get_bool(m, &fwd)) != 0)
		return r;
	if (sbuf_len(m) != 0)
		return ERR_INVALID_FORMAT;
	if (sidlen == 0 || sidlen > AGENTD_MAX_SID_LEN) {
		log_error("process_ext_session_bind: bad session ID length");
		return 0;
	}
	if ((r = bind_hostkey(hk, hklen, &k, &cert)) != 0) {
		log_error("process_ext_session_bind: parse key: %s",
		    err_str(r));
		return 0;
	}
	if ((r = key_verify(k, sig, siglen, sid, sidlen, NULL)) != 0) {
		log_error("process_ext_session_bind: sshkey_verify for %s "
		    "failed: %s", key_type_name(k), err_str(r));
		goto out;
	}
	if (!bind_allowed(c, hk, hklen, sid, sidlen, &dup))
		goto out;
	*okp = 1;
	if (dup)
		goto out;
	b = &c->binds[c->nbinds++];
	b->hostkey = x_memdup(hk, hklen);
	b->hostkeylen = hklen;
	b->sid = x_memdup(sid, sidlen);
	b->sidlen = sidlen;
	b->forwarded = fwd != 0;
	log_debug("process_ext_session_bind: recorded %s (slot %zu of %d)",
	    key_type_name(k), c->nbinds, AGENTD_MAX_SESSION_IDS);
	b->key = k;			/* kept for destination checks */
	b->cert = cert;
	k = NULL;
	cert = NULL;
 out:
	key_free(k);
	cert_free(cert);
	return 0;
}

static int
do_extension(struct agentd_conn *c, struct sbuf *m, struct sbuf *reply)
{
	char *name = NULL;
	int r, ok = 0;

	if ((r = sbuf_get_cstring(m, &name, NULL)) != 0)
		return r;
	if (strcmp(name, SESSION_BIND) == 0) {
		if ((r = session_bind(c, m, &ok)) != 0)
			goto out;
	} else {
		log_debug("process_extension: unsupported extension "
		    "\"%.100s\"", name);
	}
	r = put_status(reply, ok);
 out:
	x_free(name);
	return r;
}

int
agentd_request(struct agentd *a, struct agentd_conn *c,
    const unsigned char *msg, size_t len, struct sbuf *reply)
{
	struct sbuf *m;
	uint8_t type;
	int r, ok = 0;

	if ((m = sbuf_from(msg, len)) == NULL)
		return ERR_ALLOC;
	if ((r = sbuf_get_u8(m, &type)) != 0)
		goto out;
	(void)agentd_expire(a);
	switch (type) {
	case SSH_AGENTC_REQUEST_IDENTITIES:
		r = do_list(a, c, m, reply);
		break;
	case SSH_AGENTC_SIGN_REQUEST:
		r = do_sign(a, c, m, reply);
		break;
	case SSH_AGENTC_ADD_IDENTITY:
	case SSH_AGENTC_ADD_ID_CONSTRAINED:
		if ((r = agentd_add(a, c, m, &ok)) == 0)
			r = put_status(reply, ok);
		break;
	case SSH_AGENTC_REMOVE_IDENTITY:
		r = do_remove(a, c, m, reply);
		break;
	case SSH_AGENTC_REMOVE_ALL_IDENTITIES:
		if (sbuf_len(m) != 0) {
			r = ERR_INVALID_FORMAT;
			break;
		}
		agentd_remove_all(a);
		r = put_status(reply, 1);
		break;
	case SSH_AGENTC_LOCK:
	case SSH_AGENTC_UNLOCK:
		r = do_lock(a, m, type == SSH_AGENTC_LOCK, reply);
		break;
	case SSH_AGENTC_EXTENSION:
		r = do_extension(c, m, reply);
		break;
	case SSH_AGENTC_ADD_SMARTCARD_KEY:
	case SSH_AGENTC_ADD_SMARTCARD_KEY_CONSTRAINED:
		if ((r = agentd_add_card(a, m, type ==
		    SSH_AGENTC_ADD_SMARTCARD_KEY_CONSTRAINED, &ok)) == 0)
			r = put_status(reply, ok);
		break;
	case SSH_AGENTC_REMOVE_SMARTCARD_KEY:
		if ((r = agentd_remove_card(a, m, &ok)) == 0)
			r = put_status(reply, ok);
		break;
	default:	/* SSH1 and unknown messages */
		log_verbose("Unknown message %d", type);
		r = put_status(reply, 0);
		break;
	}
 out:
	sbuf_free(m);
	return r;
}

int
agentd_input(struct agentd *a, struct agentd_conn *c,
    const unsigned char *p, size_t n, struct sbuf *out)
{
	struct sbuf *reply = NULL;
	const unsigned char *q;
	uint32_t len;
	int r;

	if (n > 0 && (r = sbuf_put(c->in, p, n)) != 0)
		return r;
	r = 0;
	while (sbuf_len(c->in) >= 4 && sbuf_len(out) < AGENTD_OUT_MAX) {
		q = sbuf_ptr(c->in);
		len = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 |
		    (uint32_t)q[2] << 8 | q[3];
		if (len == 0 || len > AGENT_MAX_MSG) {
			log_debug("agent: bad request length %u", len);
			r = ERR_PACKET_TOO_LARGE;
			break;
		}
		if (sbuf_len(c->in) - 4 < len)
			break;
		if (reply == NULL)
			reply = sbuf_new();
		sbuf_reset(reply);
		if ((r = agentd_request(a, c, q + 4, len, reply)) != 0)
			break;
		if ((r = sbuf_put_stringb(out, reply)) != 0 ||
		    (r = sbuf_consume(c->in, 4 + (size_t)len)) != 0)
			break;
	}
	if (reply != NULL) {
		sbuf_wipe(reply);
		sbuf_free(reply);
	}
	if (sbuf_len(c->in) == 0)
		sbuf_wipe(c->in);
	return r;
}
