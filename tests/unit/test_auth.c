/*
 * test_auth.c: the ssh-userauth service end to end, with a scripted
 * client over a socketpair: the client runs in a child process (its
 * failures become the exit status), the server in this one. Also the
 * password check against a hash made here.
 */

#include <crypt.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "auth.h"
#include "authclient.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"
#include "trpair.h"

static char tmp[256], banner[300];
static struct trp_host host;
static struct key *ukey, *ukey2;
static const char *user;

/* --- the client side --- */

/* FAILURE with this method list and partial success flag. */
static void
c_expect_failure2(struct transport *t, const char *list, int want_partial)
{
	struct sbuf *p;
	char *s = NULL;
	int partial = -1;

	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_FAILURE, &p));
	if (p == NULL)
		return;
	CHECK_OK(sbuf_get_cstring(p, &s, NULL));
	CHECK_OK(sbuf_get_bool(p, &partial));
	CHECK_STR(s, list);
	CHECK(partial == want_partial);
	x_free(s);
}

static void
c_expect_failure(struct transport *t, const char *list)
{
	c_expect_failure2(t, list, 0);
}

static struct sbuf *
c_start(struct transport *t, const char *u, const char *method)
{
	struct sbuf *m = tr_msg_start(t, SSH2_MSG_USERAUTH_REQUEST);

	sbuf_put_cstring(m, u);
	sbuf_put_cstring(m, "ssh-connection");
	sbuf_put_cstring(m, method);
	return m;
}

static void
c_service(struct transport *t)
{
	struct sbuf *m, *p;
	char *s = NULL;

	m = tr_msg_start(t, SSH2_MSG_SERVICE_REQUEST);
	sbuf_put_cstring(m, "ssh-userauth");
	CHECK_OK(tr_msg_send(t));
	CHECK_OK(c_expect(t, SSH2_MSG_SERVICE_ACCEPT, &p));
	if (p != NULL) {
		CHECK_OK(sbuf_get_cstring(p, &s, NULL));
		CHECK_STR(s, "ssh-userauth");
		x_free(s);
	}
}

/* publickey request; sign: 0 query, 1 good signature, 2 bad one. */
static void
c_pubkey(struct transport *t, const char *u, const struct key *k, int sign)
{
	struct sbuf *blob = sbuf_new(), *d = sbuf_new(), *sig = sbuf_new();
	const char *alg = key_type_name(k);
	const unsigned char *sid;
	size_t sidlen;
	struct sbuf *m;

	key_to_blob(k, blob);
	if (sign) {
		sid = tr_session_id(t, &sidlen);
		sbuf_put_string(d, sid, sidlen);
		sbuf_put_u8(d, SSH2_MSG_USERAUTH_REQUEST);
		sbuf_put_cstring(d, u);
		sbuf_put_cstring(d, "ssh-connection");
		sbuf_put_cstring(d, "publickey");
		sbuf_put_u8(d, 1);
		sbuf_put_cstring(d, alg);
		sbuf_put_stringb(d, blob);
		if (sign == 2)
			sbuf_put_u8(d, 0);
		CHECK_OK(key_sign(k, alg, sbuf_ptr(d), sbuf_len(d), sig));
	}
	m = c_start(t, u, "publickey");
	sbuf_put_u8(m, sign ? 1 : 0);
	sbuf_put_cstring(m, alg);
	sbuf_put_stringb(m, blob);
	if (sign)
		sbuf_put_stringb(m, sig);
	CHECK_OK(tr_msg_send(t));
	sbuf_free(blob);
	sbuf_free(d);
	sbuf_free(sig);
}

static void
c_password(struct transport *t, const char *u, const char *pass)
{
	struct sbuf *m = c_start(t, u, "password");

	sbuf_put_u8(m, 0);
	sbuf_put_cstring(m, pass);
	CHECK_OK(tr_msg_send(t));
}

static void
c_none(struct transport *t, const char *u)
{
	c_start(t, u, "none");
	CHECK_OK(tr_msg_send(t));
}

/* Script 1: banner, none, queries, a bad and a good signature. */
static void
script_pubkey(struct transport *t)
{
	struct sbuf *p;
	char *s = NULL;

	c_service(t);
	c_none(t, user);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_BANNER, &p));
	if (p != NULL) {
		CHECK_OK(sbuf_get_cstring(p, &s, NULL));
		CHECK_STR(s, "Hello there\n");
		x_free(s);
	}
	c_expect_failure(t, "publickey,password");
	c_pubkey(t, user, ukey2, 0);		/* not listed */
	c_expect_failure(t, "publickey,password");
	c_pubkey(t, user, ukey, 0);		/* listed */
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_PK_OK, &p));
	c_pubkey(t, user, ukey, 2);
	c_expect_failure(t, "publickey,password");
	c_pubkey(t, user, ukey, 1);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_SUCCESS, &p));
}

/* Script 2: wrong passwords until MaxAuthTries (3) is reached. */
static void
script_maxtries(struct transport *t)
{
	struct sbuf *p;
	uint8_t type;

	c_service(t);
	c_none(t, user);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_BANNER, &p));
	c_expect_failure(t, "publickey,password");
	c_password(t, user, "wrong1");
	c_expect_failure(t, "publickey,password");
	c_none(t, user);			/* a second none counts */
	c_expect_failure(t, "publickey,password");
	c_password(t, user, "wrong2");
	CHECK_ERR(tr_wait_message(t, &type, &p, 10000), ERR_DISCONNECTED);
}

/* Script 3: an unknown user, then a change of user name. */
static void
script_invalid(struct transport *t)
{
	struct sbuf *p;
	uint8_t type;

	c_service(t);
	c_pubkey(t, "moat-no-such-user", ukey, 0);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_BANNER, &p));
	c_expect_failure(t, "publickey,password");
	c_password(t, "moat-no-such-user", "x");
	c_expect_failure(t, "publickey,password");
	c_none(t, user);
	CHECK_ERR(tr_wait_message(t, &type, &p, 10000), ERR_DISCONNECTED);
}

/* Script 4: the client goes away mid-way. */
static void
script_close(struct transport *t)
{
	struct sbuf *p;

	c_service(t);
	c_none(t, user);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_BANNER, &p));
	c_expect_failure(t, "publickey,password");
}

/* Script 5: a refused user's good key does not get in. */
static void
script_denied(struct transport *t)
{
	struct sbuf *p;

	c_service(t);
	c_pubkey(t, user, ukey, 1);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_BANNER, &p));
	c_expect_failure(t, "publickey,password");
}

/* Script 6: AuthenticationMethods publickey,password. */
static void
script_chain(struct transport *t)
{
	struct sbuf *p;

	c_service(t);
	c_password(t, user, "wrong");		/* not due yet */
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_BANNER, &p));
	c_expect_failure(t, "publickey");
	c_pubkey(t, user, ukey, 1);
	c_expect_failure2(t, "password", 1);
	/*
	 * RFC 4252 5.1: partial success is TRUE only in the reply to the
	 * request that succeeded; later failures say FALSE (a client that
	 * counts partial replies as progress looped on the old behaviour).
	 */
	c_pubkey(t, user, ukey, 1);		/* publickey is done */
	c_expect_failure2(t, "password", 0);
	c_password(t, user, "wrong");
	c_expect_failure2(t, "password", 0);
}

/* Script 8: keyboard-interactive without PAM: offered, no devices. */
static void
script_kbdint_nopam(struct transport *t)
{
	struct sbuf *m, *p;

	c_service(t);
	c_none(t, user);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_BANNER, &p));
	c_expect_failure(t, "publickey,password,keyboard-interactive");
	m = c_start(t, user, "keyboard-interactive");
	sbuf_put_cstring(m, "");
	sbuf_put_cstring(m, "");
	CHECK_OK(tr_msg_send(t));
	c_expect_failure(t, "publickey,password,keyboard-interactive");
}

/* Script 7: a good key, accepted. */
static void
script_key_ok(struct transport *t)
{
	struct sbuf *p;

	c_service(t);
	c_pubkey(t, user, ukey, 1);
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_BANNER, &p));
	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_SUCCESS, &p));
}

static struct servconf *
make_sc(const char *extra1, const char *extra2)
{
	struct servconf *sc = servconf_new();
	char line[600];

	snprintf(line, sizeof(line), "AuthorizedKeysFile %s/ak_%%u", tmp);
	CHECK_OK(servconf_parse_line(sc, line, "test", 1));
	snprintf(line, sizeof(line), "Banner %s", banner);
	CHECK_OK(servconf_parse_line(sc, line, "test", 2));
	CHECK_OK(servconf_parse_line(sc, "StrictModes no", "test", 3));
	if (extra1 != NULL)
		CHECK_OK(servconf_parse_line(sc, extra1, "test", 4));
	if (extra2 != NULL)
		CHECK_OK(servconf_parse_line(sc, extra2, "test", 5));
	/* Unless set above, keyboard-interactive stays out of the lists. */
	CHECK_OK(servconf_parse_line(sc, "KbdInteractiveAuthentication no",
	    "test", 6));
	CHECK_OK(servconf_finish(sc));
	return sc;
}

static void
test_chains(void)
{
	struct auth_chains *c;

	CHECK_OK(auth_chains_new(NULL, &c));
	CHECK(c == NULL && auth_chains_allowed(c, "password"));
	CHECK(auth_chains_complete(c, "password") == 1);
	CHECK_OK(auth_chains_new("any", &c));
	CHECK(c == NULL);
	CHECK_ERR(auth_chains_new("publickey,,password", &c), ERR_CONFIG);
	CHECK_ERR(auth_chains_new("  ", &c), ERR_CONFIG);
	CHECK_OK(auth_chains_new("publickey,password  password,publickey "
	    "publickey,publickey,keyboard-interactive", &c));
	CHECK(auth_chains_allowed(c, "publickey"));
	CHECK(auth_chains_allowed(c, "password"));
	CHECK(!auth_chains_allowed(c, "keyboard-interactive"));
	CHECK(auth_chains_complete(c, "publickey") == 0);
	CHECK(auth_chains_allowed(c, "password"));
	CHECK(auth_chains_allowed(c, "publickey"));	/* third chain */
	CHECK(auth_chains_complete(c, "publickey") == 0);
	CHECK(auth_chains_allowed(c, "keyboard-interactive"));
	CHECK(auth_chains_complete(c, "password") == 1);
	auth_chains_free(c);
	/* Devices: an element with one takes only that device. */
	CHECK_OK(auth_chains_new("publickey,keyboard-interactive:pam "
	    "password,keyboard-interactive", &c));
	CHECK(!auth_chains_allowed(c, "keyboard-interactive"));
	CHECK(auth_chains_complete(c, "publickey") == 0);
	CHECK(auth_chains_allowed(c, "keyboard-interactive"));
	CHECK(auth_chains_allowed(c, "keyboard-interactive:pam"));
	CHECK(!auth_chains_allowed(c, "keyboard-interactive:bsdauth"));
	CHECK(auth_chains_complete(c, "keyboard-interactive:bsdauth") == 0);
	CHECK(auth_chains_complete(c, "keyboard-interactive:pam") == 1);
	auth_chains_free(c);
	CHECK_OK(auth_chains_new("password,keyboard-interactive", &c));
	CHECK(auth_chains_complete(c, "password") == 0);
	CHECK(auth_chains_complete(c, "keyboard-interactive:pam") == 1);
	auth_chains_free(c);
}

/* The client's side, in the child: its failures become the exit status. */
struct script {
	void (*fn)(struct transport *);
};

static int
client_child(struct transport *t, void *arg)
{
	const struct script *s = arg;

	s->fn(t);
	tr_flush(t);
	return test_failed > 100 ? 100 : test_failed;
}

static int
run(void (*script)(struct transport *), const struct servconf *sc,
    struct auth_result *res)
{
	struct script s = { script };
	struct auth_conn conn;
	struct trp_peer p;
	int r, status;

	if ((r = trp_start(&p, &host, 0, client_child, &s)) != 0)
		return r;
	memset(&conn, 0, sizeof(conn));
	conn.remote_host = "127.0.0.1";
	conn.remote_addr = "127.0.0.1";
	conn.remote_port = 1234;
	conn.local_addr = "127.0.0.1";
	conn.local_port = 22;
	r = auth_serve(p.t, sc, &conn, res);
	status = trp_finish(&p);
	CHECK(status == 0);
	if (status > 0)
		test_failed += status;
	return r;
}

static void
test_passwd(void)
{
	struct passwd pw;
	char *hash;

	memset(&pw, 0, sizeof(pw));
	pw.pw_name = (char *)"moat-no-such-user";
	hash = x_strdup(crypt("s3cret", "$6$abcdefgh$"));
	pw.pw_passwd = hash;
	CHECK_OK(auth_passwd_check(&pw, 1, "s3cret", 0));
	CHECK_ERR(auth_passwd_check(&pw, 1, "s3cre", 0),
	    ERR_PERMISSION_DENIED);
	CHECK_ERR(auth_passwd_check(&pw, 1, "", 1), ERR_PERMISSION_DENIED);
	CHECK_ERR(auth_passwd_check(&pw, 0, "s3cret", 0),
	    ERR_PERMISSION_DENIED);
	hash[0] = '!';				/* locked */
	CHECK_ERR(auth_passwd_check(&pw, 1, "s3cret", 0),
	    ERR_PERMISSION_DENIED);
	pw.pw_passwd = (char *)"";
	CHECK_OK(auth_passwd_check(&pw, 1, "", 1));
	CHECK_ERR(auth_passwd_check(&pw, 1, "", 0), ERR_PERMISSION_DENIED);
	CHECK_ERR(auth_passwd_check(&pw, 1, "x", 1), ERR_PERMISSION_DENIED);
	pw.pw_passwd = (char *)"*";
	CHECK_ERR(auth_passwd_check(&pw, 1, "*", 1), ERR_PERMISSION_DENIED);
	x_free(hash);
}

/* The plain scripts against one configuration: a key, too many tries,
 * an invalid user, a client that goes away. */
static void
test_scripts(void)
{
	struct servconf *sc = servconf_new();
	struct auth_result res;
	char line[600];
	int r;

	snprintf(line, sizeof(line), "AuthorizedKeysFile %s/ak_%%u", tmp);
	CHECK_OK(servconf_parse_line(sc, line, "test", 1));
	snprintf(line, sizeof(line), "Banner %s", banner);
	CHECK_OK(servconf_parse_line(sc, line, "test", 2));
	CHECK_OK(servconf_parse_line(sc, "StrictModes no", "test", 3));
	CHECK_OK(servconf_parse_line(sc, "MaxAuthTries 3", "test", 4));
	CHECK_OK(servconf_parse_line(sc, "PermitRootLogin yes", "test", 5));
	CHECK_OK(servconf_parse_line(sc, "KbdInteractiveAuthentication no",
	    "test", 6));
	CHECK_OK(servconf_finish(sc));

	r = run(script_pubkey, sc, &res);
	CHECK_OK(r);
	if (r == 0) {
		CHECK_STR(res.pw->pw_name, user);
		CHECK_STR(res.method, "publickey");
		CHECK(res.opts != NULL && !res.opts->permit_pty);
		CHECK_STR(res.opts->force_command, "echo hi");
		CHECK(res.sc != NULL && res.sc->max_auth_tries == 3);
	}
	auth_result_clear(&res);
	snprintf(line, sizeof(line), "Accepted publickey for %s from "
	    "127.0.0.1 port 1234 ssh2: ED25519 SHA256:", user);
	CHECK(logged(line));
	snprintf(line, sizeof(line), "Postponed publickey for %s from "
	    "127.0.0.1 port 1234 ssh2", user);
	CHECK(logged(line));

	CHECK_ERR(run(script_maxtries, sc, &res), ERR_PERMISSION_DENIED);
	CHECK(res.pw == NULL);
	snprintf(line, sizeof(line), "Failed password for %s from "
	    "127.0.0.1 port 1234 ssh2", user);
	CHECK(logged(line));
	snprintf(line, sizeof(line), "maximum authentication attempts "
	    "exceeded for %s from 127.0.0.1 port 1234 ssh2", user);
	CHECK(logged(line));
	CHECK(logged("Too many authentication failures"));

	CHECK_ERR(run(script_invalid, sc, &res), ERR_PROTOCOL);
	CHECK(logged("Invalid user moat-no-such-user from 127.0.0.1 "
	    "port 1234"));
	CHECK(logged("Failed password for invalid user moat-no-such-user "
	    "from 127.0.0.1 port 1234 ssh2"));
	CHECK(logged("Change of username or service not allowed: "
	    "(moat-no-such-user,ssh-connection) -> "));

	CHECK_ERR(run(script_close, sc, &res), ERR_CONN_CLOSED);
	snprintf(line, sizeof(line), "Connection closed by authenticating "
	    "user %s 127.0.0.1 port 1234 [preauth]", user);
	CHECK(logged(line));

	servconf_free(sc);
}

static void
test_denied_user(void)
{
	struct servconf *sc = servconf_new();
	struct auth_result res;
	char line[600];

	/* Not allowed: DenyUsers; the good key no longer gets in. */
	snprintf(line, sizeof(line), "AuthorizedKeysFile %s/ak_%%u", tmp);
	CHECK_OK(servconf_parse_line(sc, line, "test", 1));
	snprintf(line, sizeof(line), "DenyUsers %s", user);
	CHECK_OK(servconf_parse_line(sc, line, "test", 2));
	CHECK_OK(servconf_parse_line(sc, "StrictModes no", "test", 3));
	snprintf(line, sizeof(line), "Banner %s", banner);
	CHECK_OK(servconf_parse_line(sc, line, "test", 4));
	CHECK_OK(servconf_parse_line(sc, "KbdInteractiveAuthentication no",
	    "test", 5));
	CHECK_OK(servconf_finish(sc));
	CHECK_ERR(run(script_denied, sc, &res), ERR_CONN_CLOSED);
	snprintf(line, sizeof(line), "Failed publickey for invalid user %s "
	    "from 127.0.0.1 port 1234 ssh2: ED25519 SHA256:", user);
	CHECK(logged(line));
	snprintf(line, sizeof(line), "User %s from 127.0.0.1 not allowed "
	    "because listed in DenyUsers", user);
	CHECK(logged(line));

	servconf_free(sc);
}

/* What the configuration allows: algorithms, chains, devices, root. */
static void
test_policies(void)
{
	struct servconf *sc;
	struct auth_result res;
	char line[600];

	/* The offered algorithm must be in PubkeyAcceptedAlgorithms. */
	sc = make_sc("PubkeyAcceptedAlgorithms rsa-sha2-512", NULL);
	CHECK_ERR(run(script_denied, sc, &res), ERR_CONN_CLOSED);
	CHECK(logged("signature algorithm ssh-ed25519 not in "
	    "PubkeyAcceptedAlgorithms"));
	servconf_free(sc);

	/* AuthenticationMethods: publickey then password. */
	sc = make_sc("AuthenticationMethods publickey,password", NULL);
	CHECK_ERR(run(script_chain, sc, &res), ERR_CONN_CLOSED);
	snprintf(line, sizeof(line), "Partial publickey for %s from "
	    "127.0.0.1 port 1234 ssh2: ED25519", user);
	CHECK(logged(line));
	servconf_free(sc);

	/* keyboard-interactive without UsePAM has no device. */
	sc = make_sc("KbdInteractiveAuthentication yes", "UsePAM no");
	CHECK_ERR(run(script_kbdint_nopam, sc, &res), ERR_CONN_CLOSED);
	CHECK(logged("kbdint: no devices"));
	servconf_free(sc);

	/* PermitRootLogin, when the test runs as root. */
	if (geteuid() == 0) {
		sc = make_sc("PermitRootLogin no", NULL);
		CHECK_ERR(run(script_denied, sc, &res), ERR_CONN_CLOSED);
		CHECK(logged("ROOT LOGIN REFUSED FROM 127.0.0.1 port 1234"));
		servconf_free(sc);
		/* The key's line has command=: allowed. */
		sc = make_sc("PermitRootLogin forced-commands-only", NULL);
		CHECK_OK(run(script_key_ok, sc, &res));
		CHECK(logged("Root login accepted for forced command."));
		auth_result_clear(&res);
		servconf_free(sc);
		sc = make_sc("PermitRootLogin prohibit-password", NULL);
		CHECK_OK(run(script_key_ok, sc, &res));
		auth_result_clear(&res);
		servconf_free(sc);
	}
}

int
main(void)
{
	struct passwd *me = getpwuid(geteuid());
	char line[600], *text;
	FILE *f;

	signal(SIGPIPE, SIG_IGN);
	test_passwd();
	test_chains();
	if (me == NULL)
		return TEST_DONE();
	user = x_strdup(me->pw_name);
	snprintf(tmp, sizeof(tmp), "/tmp/moat-auth-XXXXXX");
	if (mkdtemp(tmp) == NULL)
		return 1;
	snprintf(logpath, sizeof(logpath), "%s/log", tmp);
	snprintf(banner, sizeof(banner), "%s/banner", tmp);
	log_init("test_auth", LOG_LEVEL_DEBUG1, 0, 1);
	CHECK_OK(log_to_file(logpath));

	CHECK_OK(key_generate(KEY_ED25519, 0, &host.key));
	CHECK_OK(key_demote(host.key, &host.pub));
	CHECK_OK(key_generate(KEY_ED25519, 0, &ukey));
	CHECK_OK(key_generate(KEY_ECDSA, 0, &ukey2));
	if (ukey == NULL || ukey2 == NULL || host.pub == NULL)
		return TEST_DONE();

	snprintf(line, sizeof(line), "%s/ak_%s", tmp, user);
	f = fopen(line, "w");
	text = key_public_text(ukey);
	fprintf(f, "# keys\ncommand=\"echo hi\",no-pty %s me\n", text);
	fclose(f);
	x_free(text);
	f = fopen(banner, "w");
	fputs("Hello there\n", f);
	fclose(f);

	test_scripts();
	test_denied_user();
	test_policies();

	key_free(host.key);
	key_free(host.pub);
	key_free(ukey);
	key_free(ukey2);
	snprintf(line, sizeof(line), "rm -rf %s", tmp);
	if (getenv("MOAT_TEST_KEEP") == NULL && system(line) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return TEST_DONE();
}
