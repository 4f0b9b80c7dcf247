/*
 * agent.c: talk to an ssh-agent (draft-miller-ssh-agent) over a stream
 * socket: REQUEST_IDENTITIES and SIGN_REQUEST for ssh, and for ssh-add
 * ADD_IDENTITY (plain keys and certificates, with a lifetime or confirm
 * constraint), REMOVE_IDENTITY, REMOVE_ALL_IDENTITIES, LOCK and UNLOCK.
 *
 * A request is framed as "uint32 length, byte type, contents" and
 * written whole; the answer's length is read first and checked against
 * AGENT_MAX_MSG before its body is read into an sbuf, from which every
 * field is taken through the sbuf getters. An agent is trusted with our
 * keys but its bytes are still parsed as if hostile: a short, long or
 * surplus-laden answer is ERR_PROTOCOL, never a crash.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "cert.h"
#include "err.h"
#include "fdio.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "transport.h"

static const struct {
	const char *alg;
	uint32_t flags;
} sign_flags[] = {
	{ "rsa-sha2-256", SSH_AGENT_RSA_SHA2_256 },
	{ "rsa-sha2-512", SSH_AGENT_RSA_SHA2_512 },
};

uint32_t
agent_sign_flags(const char *alg)
{
	size_t i;

	for (i = 0; i < sizeof(sign_flags) / sizeof(sign_flags[0]); i++)
		if (strcmp(sign_flags[i].alg, alg) == 0)
			return sign_flags[i].flags;
	return 0;
}

int
agent_socket_path(const char *identity_agent, char **pathp)
{
	const char *v;

	*pathp = NULL;
	if (identity_agent == NULL ||
	    strcmp(identity_agent, "SSH_AUTH_SOCK") == 0)
		v = getenv("SSH_AUTH_SOCK");
	else if (strcmp(identity_agent, "none") == 0)
		v = NULL;
	else if (identity_agent[0] == '$')
		v = getenv(identity_agent + 1);
	else
		v = identity_agent;
	if (v != NULL && *v != '\0')
		*pathp = x_strdup(v);
	return 0;
}

int
agent_connect(const char *path, int *fdp)
{
	struct sockaddr_un sun;
	int fd;

	*fdp = -1;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		return ERR_INVALID_ARGUMENT;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return ERR_SYSTEM;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		int save = errno;

		close(fd);
		errno = save;
		return ERR_SYSTEM;
	}
	*fdp = fd;
	return 0;
}

void
agent_close(int fd)
{
	if (fd != -1)
		close(fd);
}

/*
 * Send req (type and contents, unframed) and read the answer into ans
 * (type and contents); *typep its type.
 */
static int
transact(int fd, const struct sbuf *req, struct sbuf *ans, uint8_t *typep)
{
	struct sbuf *frame = sbuf_new();
	unsigned char lenbuf[4], *d;
	uint32_t len;
	int r;

	if ((r = sbuf_put_stringb(frame, req)) != 0 ||
	    (r = fd_write_full(fd, sbuf_ptr(frame), sbuf_len(frame))) != 0 ||
	    (r = fd_read_full(fd, lenbuf, sizeof(lenbuf))) != 0)
		goto out;
	len = (uint32_t)lenbuf[0] << 24 | (uint32_t)lenbuf[1] << 16 |
	    (uint32_t)lenbuf[2] << 8 | lenbuf[3];
	if (len == 0 || len > AGENT_MAX_MSG) {
		log_debug("agent: answer of %u bytes refused", len);
		r = ERR_PROTOCOL;
		goto out;
	}
	sbuf_reset(ans);
	if ((r = sbuf_reserve(ans, len, &d)) != 0 ||
	    (r = fd_read_full(fd, d, len)) != 0)
		goto out;
	r = sbuf_get_u8(ans, typep);
 out:
	sbuf_free(frame);
	return r;
}

/* The agent's FAILURE and its extended forms (SSH2_AGENT_FAILURE 30...). */
static int
is_failure(uint8_t type)
{
	return type == SSH_AGENT_FAILURE || type == 30 || type == 102;
}

/* One listed identity: parse blob as a plain key or a certificate. */
static int
parse_identity(struct agent_identity *id)
{
	int r;

	if ((r = key_from_blob(id->blob, id->bloblen, &id->key)) == 0)
		return 0;
	if ((r = cert_from_blob(id->blob, id->bloblen, &id->cert)) != 0)
		return r;
	if ((r = key_demote(id->cert->key, &id->key)) != 0) {
		cert_free(id->cert);
		id->cert = NULL;
	}
	return r;
}

int
agent_list(int fd, struct agent_identity **idsp, size_t *nidsp)
{
	struct sbuf *req = sbuf_new(), *ans = sbuf_new();
	struct agent_identity *ids = NULL, *id;
	size_t n = 0;
	uint32_t count, i;
	uint8_t type;
	int r;

	*idsp = NULL;
	*nidsp = 0;
	if ((r = sbuf_put_u8(req, SSH_AGENTC_REQUEST_IDENTITIES)) != 0 ||
	    (r = transact(fd, req, ans, &type)) != 0)
		goto out;
	if (is_failure(type)) {
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if (type != SSH_AGENT_IDENTITIES_ANSWER) {
		log_debug("agent: unexpected answer %u to list", type);
		r = ERR_PROTOCOL;
		goto out;
	}
	/* Each identity takes at least 8 bytes: refuse impossible counts. */
	if (sbuf_get_u32(ans, &count) != 0 || count > AGENT_MAX_KEYS ||
	    count > sbuf_len(ans) / 8) {
		r = ERR_PROTOCOL;
		goto out;
	}
	ids = x_calloc((size_t)count + 1, sizeof(*ids));
	for (i = 0; i < count; i++) {
		id = &ids[n];
		if ((r = sbuf_get_string(ans, &id->blob, &id->bloblen)) != 0 ||
		    (r = sbuf_get_string(ans, (unsigned char **)&id->comment,
		    NULL)) != 0)
			break;
		if (parse_identity(id) != 0) {
			log_debug("agent: skipping key \"%s\" of an unknown "
			    "or bad type", id->comment);
			x_free(id->blob);
			x_free(id->comment);
			memset(id, 0, sizeof(*id));
			continue;
		}
		n++;
	}
	if (r == 0 && sbuf_len(ans) != 0)
		r = ERR_INVALID_FORMAT;
	if (r != 0) {
		/* the partly read entry is freed with the others */
		agent_identities_free(ids, n + 1);
		ids = NULL;
		r = ERR_PROTOCOL;
		goto out;
	}
	*idsp = ids;
	*nidsp = n;
	ids = NULL;
 out:
	sbuf_free(req);
	sbuf_free(ans);
	return r;
}

void
agent_identities_free(struct agent_identity *ids, size_t n)
{
	size_t i;

	if (ids == NULL)
		return;
	for (i = 0; i < n; i++) {
		x_free(ids[i].blob);
		x_free(ids[i].comment);
		key_free(ids[i].key);
		cert_free(ids[i].cert);
	}
	x_free(ids);
}

/*
 * A security key's signature carries byte flags and uint32 counter
 * after the signature (PROTOCOL.u2f); the verifier checks them.
 */
static int
sk_tail(const char *salg, size_t left)
{
	return strncmp(salg, "sk-", 3) == 0 && left == 5;
}

int
agent_sign(int fd, const unsigned char *blob, size_t bloblen,
    const unsigned char *data, size_t dlen, const char *alg,
    struct sbuf *sig)
{
	struct sbuf *req = sbuf_new(), *ans = sbuf_new(), *view = NULL;
	const unsigned char *s;
	char *salg = NULL;
	size_t slen;
	uint8_t type;
	int r;

	if ((r = sbuf_put_u8(req, SSH_AGENTC_SIGN_REQUEST)) != 0 ||
	    (r = sbuf_put_string(req, blob, bloblen)) != 0 ||
	    (r = sbuf_put_string(req, data, dlen)) != 0 ||
	    (r = sbuf_put_u32(req, agent_sign_flags(alg))) != 0 ||
	    (r = transact(fd, req, ans, &type)) != 0)
		goto out;
	if (is_failure(type)) {
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if (type != SSH_AGENT_SIGN_RESPONSE ||
	    sbuf_get_string_direct(ans, &s, &slen) != 0 ||
	    sbuf_len(ans) != 0 || (view = sbuf_from(s, slen)) == NULL ||
	    sbuf_get_cstring(view, &salg, NULL) != 0 ||
	    sbuf_get_string_direct(view, NULL, NULL) != 0 ||
	    (sbuf_len(view) != 0 && !sk_tail(salg, sbuf_len(view)))) {
		log_debug("agent: malformed answer %u to sign", type);
		r = ERR_PROTOCOL;
		goto out;
	}
	if (strcmp(salg, alg) != 0) {
		log_debug("agent: asked for %s, got a %s signature", alg,
		    salg);
		r = ERR_PROTOCOL;
		goto out;
	}
	r = sbuf_put(sig, s, slen);
 out:
	x_free(salg);
	sbuf_free(view);
	sbuf_free(req);
	sbuf_free(ans);
	return r;
}

/* Requests that change the agent, answered SUCCESS or FAILURE ------- */

/*
 * Send req; 0 when the agent answers SUCCESS (and nothing more),
 * ERR_PERMISSION_DENIED on FAILURE, ERR_PROTOCOL on anything else.
 * req is wiped: it may hold a private key or a password.
 */
static int
simple_request(int fd, struct sbuf *req)
{
	struct sbuf *ans = sbuf_new();
	uint8_t type;
	int r;

	if ((r = transact(fd, req, ans, &type)) != 0)
		goto out;
	if (is_failure(type))
		r = ERR_PERMISSION_DENIED;
	else if (type != SSH_AGENT_SUCCESS || sbuf_len(ans) != 0) {
		log_debug("agent: unexpected answer %u", type);
		r = ERR_PROTOCOL;
	}
 out:
	sbuf_wipe(req);
	sbuf_free(ans);
	return r;
}

/* The key (or certificate) and its private fields, as ADD_IDENTITY has. */
static int
put_private(struct sbuf *req, const struct key *k, const struct key_cert *c)
{
	struct sbuf *blob;
	const char *name;
	int r;

	if (c == NULL)
		return key_private_to_sbuf(k, req);
	if ((name = cert_type_name(k)) == NULL ||
	    !key_equal_public(k, c->key))
		return ERR_INVALID_ARGUMENT;
	blob = sbuf_new();
	if ((r = cert_to_blob(c, blob)) == 0 &&
	    (r = sbuf_put_cstring(req, name)) == 0 &&
	    (r = sbuf_put_stringb(req, blob)) == 0)
		r = key_private_cert_fields_to_sbuf(k, req);
	sbuf_free(blob);
	return r;
}

int
agent_add(int fd, const struct key *k, const struct key_cert *c,
    const char *comment, const struct agent_constraints *cons)
{
	struct sbuf *req = sbuf_new();
	int constrained, r;

	constrained = cons != NULL && (cons->lifetime != 0 || cons->confirm ||
	    cons->maxsign != 0 || cons->dest != NULL ||
	    cons->sk_provider != NULL);
	if ((r = sbuf_put_u8(req, constrained ? SSH_AGENTC_ADD_ID_CONSTRAINED :
	    SSH_AGENTC_ADD_IDENTITY)) != 0 ||
	    (r = put_private(req, k, c)) != 0 ||
	    (r = sbuf_put_cstring(req, comment != NULL ? comment : "")) != 0)
		goto out;
	if (constrained && cons->lifetime != 0 &&
	    ((r = sbuf_put_u8(req, SSH_AGENT_CONSTRAIN_LIFETIME)) != 0 ||
	    (r = sbuf_put_u32(req, cons->lifetime)) != 0))
		goto out;
	if (constrained && cons->confirm &&
	    (r = sbuf_put_u8(req, SSH_AGENT_CONSTRAIN_CONFIRM)) != 0)
		goto out;
	if (constrained && cons->maxsign != 0 &&
	    ((r = sbuf_put_u8(req, SSH_AGENT_CONSTRAIN_MAXSIGN)) != 0 ||
	    (r = sbuf_put_u32(req, cons->maxsign)) != 0))
		goto out;
	if (constrained && cons->dest != NULL &&
	    ((r = sbuf_put_u8(req, SSH_AGENT_CONSTRAIN_EXTENSION)) != 0 ||
	    (r = sbuf_put_cstring(req, AGENT_RESTRICT_DESTINATION)) != 0 ||
	    (r = sbuf_put_stringb(req, cons->dest)) != 0))
		goto out;
	if (constrained && cons->sk_provider != NULL &&
	    ((r = sbuf_put_u8(req, SSH_AGENT_CONSTRAIN_EXTENSION)) != 0 ||
	    (r = sbuf_put_cstring(req, "sk-provider@openssh.com")) != 0 ||
	    (r = sbuf_put_cstring(req, cons->sk_provider)) != 0))
		goto out;
	r = simple_request(fd, req);
 out:
	sbuf_free(req);
	return r;
}

int
agent_remove(int fd, const unsigned char *blob, size_t bloblen)
{
	struct sbuf *req = sbuf_new();
	int r;

	if ((r = sbuf_put_u8(req, SSH_AGENTC_REMOVE_IDENTITY)) == 0 &&
	    (r = sbuf_put_string(req, blob, bloblen)) == 0)
		r = simple_request(fd, req);
	sbuf_free(req);
	return r;
}

int
agent_remove_all(int fd)
{
	struct sbuf *req = sbuf_new();
	int r, r1;

	if ((r = sbuf_put_u8(req, SSH_AGENTC_REMOVE_ALL_IDENTITIES)) != 0)
		goto out;
	r = simple_request(fd, req);
	if (r != 0 && r != ERR_PERMISSION_DENIED)
		goto out;
	/*
	 * Then the protocol-1 form, as OpenSSH's ssh-add still sends; its
	 * answer (or none) does not count.
	 */
	sbuf_reset(req);
	if ((r1 = sbuf_put_u8(req, SSH_AGENTC_REMOVE_ALL_RSA_IDENTITIES)) == 0)
		r1 = simple_request(fd, req);
	if (r1 != 0)
		log_debug("agent: remove all (protocol 1): %s", err_str(r1));
 out:
	sbuf_free(req);
	return r;
}

int
agent_lock(int fd, int lock, const char *password)
{
	struct sbuf *req = sbuf_new();
	int r;

	if ((r = sbuf_put_u8(req, lock ? SSH_AGENTC_LOCK :
	    SSH_AGENTC_UNLOCK)) == 0 &&
	    (r = sbuf_put_cstring(req, password)) == 0)
		r = simple_request(fd, req);
	sbuf_free(req);
	return r;
}

int
agent_session_bind(int fd, const unsigned char *hk, size_t hklen,
    const unsigned char *sid, size_t sidlen, const unsigned char *sig,
    size_t siglen, int forwarding)
{
	struct sbuf *req = sbuf_new();
	int r;

	if ((r = sbuf_put_u8(req, SSH_AGENTC_EXTENSION)) != 0 ||
	    (r = sbuf_put_cstring(req, AGENT_SESSION_BIND)) != 0 ||
	    (r = sbuf_put_string(req, hk, hklen)) != 0 ||
	    (r = sbuf_put_string(req, sid, sidlen)) != 0 ||
	    (r = sbuf_put_string(req, sig, siglen)) != 0 ||
	    (r = sbuf_put_u8(req, forwarding ? 1 : 0)) != 0)
		goto out;
	r = simple_request(fd, req);
 out:
	sbuf_free(req);
	return r;
}

void
agent_bind_transport(int fd, const struct transport *t, int forwarding,
    const char *fn)
{
	const unsigned char *hk, *sid, *sig;
	size_t hklen, sidlen, siglen;
	int r;

	if (t == NULL)
		return;
	sid = tr_session_id(t, &sidlen);
	if ((r = tr_first_kex(t, &hk, &hklen, &sig, &siglen)) == 0 &&
	    sidlen == 0)
		r = ERR_INVALID_ARGUMENT;
	if (r == 0 && (r = agent_session_bind(fd, hk, hklen, sid, sidlen,
	    sig, siglen, forwarding)) == 0) {
		log_debug("%s: bound agent to hostkey", fn);
		return;
	}
	log_debug2("%s: ssh_agent_bind_hostkey: %s", fn,
	    r == ERR_PERMISSION_DENIED ? "agent refused operation" :
	    err_str(r));
}

int
agent_update_card(int fd, int add, const char *provider, const char *pin,
    const struct agent_constraints *cons)
{
	struct sbuf *req = sbuf_new();
	int constrained, r;

	constrained = add && cons != NULL && (cons->lifetime != 0 ||
	    cons->confirm || cons->dest != NULL);
	if ((r = sbuf_put_u8(req, !add ? SSH_AGENTC_REMOVE_SMARTCARD_KEY :
	    constrained ? SSH_AGENTC_ADD_SMARTCARD_KEY_CONSTRAINED :
	    SSH_AGENTC_ADD_SMARTCARD_KEY)) != 0 ||
	    (r = sbuf_put_cstring(req, provider)) != 0 ||
	    (r = sbuf_put_cstring(req, pin != NULL ? pin : "")) != 0)
		goto out;
	if (constrained && cons->lifetime != 0 &&
	    ((r = sbuf_put_u8(req, SSH_AGENT_CONSTRAIN_LIFETIME)) != 0 ||
	    (r = sbuf_put_u32(req, cons->lifetime)) != 0))
		goto out;
	if (constrained && cons->confirm &&
	    (r = sbuf_put_u8(req, SSH_AGENT_CONSTRAIN_CONFIRM)) != 0)
		goto out;
	if (constrained && cons->dest != NULL &&
	    ((r = sbuf_put_u8(req, SSH_AGENT_CONSTRAIN_EXTENSION)) != 0 ||
	    (r = sbuf_put_cstring(req, AGENT_RESTRICT_DESTINATION)) != 0 ||
	    (r = sbuf_put_stringb(req, cons->dest)) != 0))
		goto out;
	r = simple_request(fd, req);
 out:
	sbuf_wipe(req);
	sbuf_free(req);
	return r;
}
