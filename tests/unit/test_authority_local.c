/*
 * test_authority_local.c: the in-process authority (authority.h) asked
 * directly: the phase table, nothing about a user before the one
 * lookup of the connection, requests only for that user, signatures
 * checked over data the authority builds from its own session id (a
 * caller cannot swap the service), and a host key that signs only
 * exchange hashes and this session's hostkeys-prove requests.
 */
#include "authserve.h"

static void
s_lookup_only(struct transport *t)
{
	c_service(t);
	c_start(t, "none");
	CHECK_OK(tr_msg_send(t));
	c_failure(t);
}

/* Before the user is known, and the phase table. */
static void
test_phases(const struct servconf *sc)
{
	struct authority *a = local_authority(sc, NULL);
	struct authority_pubkey_req q;
	struct authopts *o = (struct authopts *)1;
	struct sbuf *b = sbuf_new();
	int ok = 7;

	/* Nothing about a user before the lookup. */
	CHECK_ERR(authority_banner(a, b), ERR_PERMISSION_DENIED);
	CHECK_ERR(authority_passwd_check(a, user, "x", &ok),
	    ERR_PERMISSION_DENIED);
	CHECK(ok == 0);
	memset(&q, 0, sizeof(q));
	q.user = user;
	q.service = "ssh-connection";
	q.alg = "ssh-ed25519";
	CHECK_ERR(authority_pubkey_check(a, &q, &ok, &o),
	    ERR_PERMISSION_DENIED);
	CHECK(ok == 0 && o == NULL);
	CHECK_ERR(authority_record_failed_login(a, user),
	    ERR_PERMISSION_DENIED);
	/* Post-auth operations wait for the post-auth phase. */
	CHECK_ERR(authority_session_open(a, NULL), ERR_PERMISSION_DENIED);
	CHECK(logged("authority: session_open refused before "
	    "authentication"));
	authority_set_phase(a, AUTHORITY_POSTAUTH);
	CHECK_OK(authority_session_open(a, NULL));	/* no PAM: nothing */
	CHECK_OK(authority_session_close(a));
	CHECK_ERR(authority_pubkey_check(a, &q, &ok, &o),
	    ERR_PERMISSION_DENIED);
	CHECK(logged("authority: pubkey_check refused after "
	    "authentication"));
	sbuf_free(b);
	authority_free(a);
}

/* A publickey request put to the authority directly, signed for svc. */
static int
ask_pubkey(struct authority *a, struct transport *t, const struct key *k,
    const char *req_user, const char *svc, int sign, struct authopts **op)
{
	struct authority_pubkey_req q;
	struct sbuf *blob = sbuf_new(), *d = sbuf_new(), *sig = sbuf_new();
	const unsigned char *sid;
	size_t sidlen;
	int ok = 0, r;

	key_to_blob(k, blob);
	sid = tr_session_id(t, &sidlen);
	pk_data(sid, sidlen, "ssh-connection", blob, d);
	CHECK_OK(key_sign(ukey, NULL, sbuf_ptr(d), sbuf_len(d), sig));
	memset(&q, 0, sizeof(q));
	q.user = req_user;
	q.service = svc;
	q.alg = "ssh-ed25519";
	q.blob = sbuf_ptr(blob);
	q.bloblen = sbuf_len(blob);
	q.has_sig = sign;
	q.sig = sbuf_ptr(sig);
	q.siglen = sbuf_len(sig);
	r = authority_pubkey_check(a, &q, &ok, op);
	sbuf_free(blob);
	sbuf_free(d);
	sbuf_free(sig);
	return r != 0 ? r : ok;
}

/*
 * A publickey-hostbound-v00@openssh.com request naming host key hk, its
 * signature over the hostbound data naming signed_hk (NULL: over the
 * plain publickey data).
 */
static int
ask_hostbound(struct authority *a, struct transport *t, const struct key *hk,
    const struct key *signed_hk)
{
	struct authority_pubkey_req q;
	struct sbuf *blob = sbuf_new(), *d = sbuf_new(), *sig = sbuf_new();
	struct sbuf *hkb = sbuf_new(), *shkb = sbuf_new();
	const unsigned char *sid;
	size_t sidlen;
	int ok = 0, r;
	struct authopts *o = NULL;

	key_to_blob(ukey, blob);
	key_to_blob(hk, hkb);
	sid = tr_session_id(t, &sidlen);
	sbuf_put_string(d, sid, sidlen);
	sbuf_put_u8(d, SSH2_MSG_USERAUTH_REQUEST);
	sbuf_put_cstring(d, user);
	sbuf_put_cstring(d, "ssh-connection");
	sbuf_put_cstring(d, signed_hk != NULL ?
	    "publickey-hostbound-v00@openssh.com" : "publickey");
	sbuf_put_u8(d, 1);
	sbuf_put_cstring(d, "ssh-ed25519");
	sbuf_put_stringb(d, blob);
	if (signed_hk != NULL) {
		key_to_blob(signed_hk, shkb);
		sbuf_put_stringb(d, shkb);
	}
	CHECK_OK(key_sign(ukey, NULL, sbuf_ptr(d), sbuf_len(d), sig));
	memset(&q, 0, sizeof(q));
	q.user = user;
	q.service = "ssh-connection";
	q.alg = "ssh-ed25519";
	q.blob = sbuf_ptr(blob);
	q.bloblen = sbuf_len(blob);
	q.has_sig = 1;
	q.sig = sbuf_ptr(sig);
	q.siglen = sbuf_len(sig);
	q.hostkey = sbuf_ptr(hkb);
	q.hostkeylen = sbuf_len(hkb);
	r = authority_pubkey_check(a, &q, &ok, &o);
	authopts_free(o);
	sbuf_free(blob);
	sbuf_free(d);
	sbuf_free(sig);
	sbuf_free(hkb);
	sbuf_free(shkb);
	return r != 0 ? r : ok;
}

/* Hostbound: the host key named must be the exchange's, and signed. */
static void
test_hostbound(struct authority *a, struct transport *t)
{
	const struct key *mine = tr_hostkey(t);

	CHECK(mine != NULL);
	if (mine == NULL)
		return;
	CHECK(ask_hostbound(a, t, mine, mine) == 1);
	/* Another key named (and signed for): refused, logged. */
	CHECK(ask_hostbound(a, t, ukey2, ukey2) == 0);
	CHECK(logged("userauth_pubkey: publickey-hostbound-v00@openssh.com "
	    "packet contained wrong host key"));
	/* Signed over the plain publickey data: no. */
	CHECK(ask_hostbound(a, t, mine, NULL) == 0);
	CHECK(logged("userauth_pubkey: signature did not verify"));
}

/* The host key signs exchange hashes and this session's proofs only. */
static void
test_hostkey_sign(struct authority *a, struct transport *t)
{
	unsigned char h[64];
	struct sbuf *sig = sbuf_new(), *d = sbuf_new(), *blob = sbuf_new();
	struct sbuf *other = sbuf_new();
	const unsigned char *sid;
	size_t sidlen;

	memset(h, 0x5a, sizeof(h));
	CHECK_OK(authority_hostkey_sign(a, 0, "ssh-ed25519", h, 32, sig));
	CHECK_OK(key_verify(host.pub, sbuf_ptr(sig), sbuf_len(sig), h, 32,
	    "ssh-ed25519"));
	sbuf_reset(sig);
	CHECK_ERR(authority_hostkey_sign(a, 1, "ssh-ed25519", h, 32, sig),
	    ERR_NOT_FOUND);
	CHECK_ERR(authority_hostkey_sign(a, 0, "ssh-ed25519", h, 33, sig),
	    ERR_PERMISSION_DENIED);
	CHECK(sbuf_len(sig) == 0);
	/* hostkeys-prove-00@openssh.com (PROTOCOL 2.5). */
	sid = tr_session_id(t, &sidlen);
	key_to_blob(host.pub, blob);
	key_to_blob(ukey, other);
	sbuf_put_cstring(d, "hostkeys-prove-00@openssh.com");
	sbuf_put_string(d, sid, sidlen);
	sbuf_put_stringb(d, blob);
	CHECK_OK(authority_hostkey_sign(a, 0, "ssh-ed25519", sbuf_ptr(d),
	    sbuf_len(d), sig));
	CHECK_OK(key_verify(host.pub, sbuf_ptr(sig), sbuf_len(sig),
	    sbuf_ptr(d), sbuf_len(d), "ssh-ed25519"));
	/* Another key's blob, or another session's id: refused. */
	sbuf_reset(d);
	sbuf_put_cstring(d, "hostkeys-prove-00@openssh.com");
	sbuf_put_string(d, sid, sidlen);
	sbuf_put_stringb(d, other);
	CHECK_ERR(authority_hostkey_sign(a, 0, "ssh-ed25519", sbuf_ptr(d),
	    sbuf_len(d), sig), ERR_PERMISSION_DENIED);
	sbuf_reset(d);
	sbuf_put_cstring(d, "hostkeys-prove-00@openssh.com");
	sbuf_put_string(d, h, sidlen);
	sbuf_put_stringb(d, blob);
	CHECK_ERR(authority_hostkey_sign(a, 0, "ssh-ed25519", sbuf_ptr(d),
	    sbuf_len(d), sig), ERR_PERMISSION_DENIED);
	CHECK(logged("authority: refusing to sign"));
	sbuf_free(sig);
	sbuf_free(d);
	sbuf_free(blob);
	sbuf_free(other);
}

/* The local authority after a connection named the user. */
static void
test_direct(const struct servconf *sc)
{
	struct auth_result res;
	struct authority *a;
	struct authority_user u;
	struct authopts *o = NULL;
	struct trp_peer p;
	int status;

	memset(&p, 0, sizeof(p));
	CHECK_ERR(run(s_lookup_only, sc, make_local, NULL, &a, &res, &p),
	    ERR_CONN_CLOSED);
	if (a == NULL || p.t == NULL)
		return;
	/* One lookup per connection. */
	CHECK_ERR(authority_user_lookup(a, user, &u), ERR_PERMISSION_DENIED);
	CHECK(u.pw == NULL && u.sc == NULL);
	/* Only for the user looked up. */
	CHECK_ERR(ask_pubkey(a, p.t, ukey, "moat-someone-else",
	    "ssh-connection", 1, &o), ERR_PERMISSION_DENIED);
	/* Queries: the listed key, and a key not listed. */
	CHECK(ask_pubkey(a, p.t, ukey, user, "ssh-connection", 0, &o) == 1);
	CHECK(o != NULL && o->force_command != NULL &&
	    strcmp(o->force_command, "echo hi") == 0);
	authopts_free(o);
	CHECK(ask_pubkey(a, p.t, ukey2, user, "ssh-connection", 0, &o) == 0);
	CHECK(o == NULL);
	/* The signature is checked over data the authority builds. */
	CHECK(ask_pubkey(a, p.t, ukey, user, "ssh-connection", 1, &o) == 1);
	authopts_free(o);
	CHECK(ask_pubkey(a, p.t, ukey, user, "other-service", 1, &o) == 0);
	CHECK(o == NULL);
	CHECK(logged("userauth_pubkey: signature did not verify"));
	test_hostkey_sign(a, p.t);
	test_hostbound(a, p.t);
	authority_set_phase(a, AUTHORITY_POSTAUTH);
	CHECK_ERR(ask_pubkey(a, p.t, ukey, user, "ssh-connection", 1, &o),
	    ERR_PERMISSION_DENIED);
	authority_free(a);
	status = trp_finish(&p);
	CHECK(status == 0);
	if (status > 0)
		test_failed += status;
}

int
main(void)
{
	struct servconf *sc;

	if (authserve_setup("authority-local") != 0)
		return TEST_DONE();
	sc = make_sc(NULL);
	test_phases(sc);
	test_direct(sc);
	servconf_free(sc);
	authserve_teardown();
	return TEST_DONE();
}
