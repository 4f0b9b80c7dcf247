/*
 * test_clientauth.c: the client's ssh-userauth.
 *
 * Pure parts: which way a prompt goes (BatchMode, tty, SSH_ASKPASS_REQUIRE,
 * display), the method order, the RSA signature algorithm choice.
 * End to end over a socketpair, the server in a forked child:
 *   - our auth_serve(): publickey with encrypted keys (the passphrase is
 *     asked only for the key the server takes), RSA without a .pub file,
 *     AuthenticationMethods publickey,password followed after partial
 *     success down to "Permission denied" with the last method list;
 *   - a scripted server: keyboard-interactive with echo flags and a
 *     round without prompts, then partial success, then password.
 * Prompts are answered by a callback that records them.
 */
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "auth.h"
#include "client.h"
#include "clientauth_int.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"
#include "transport.h"
#include "trpair.h"

static char tmp[256];
static struct trp_host host;
static const char *user;

/* Prompts seen, and the answers to give in turn. */
struct answers {
	const char *ans[8];
	size_t next;
	char seen[2048];
};

static int
prompt_cb(void *arg, const char *prompt, int echo, char **answerp)
{
	struct answers *a = arg;
	size_t n = strlen(a->seen);

	snprintf(a->seen + n, sizeof(a->seen) - n, "[%s|%d]", prompt, echo);
	if (a->next >= 8 || a->ans[a->next] == NULL)
		return ERR_PERMISSION_DENIED;
	*answerp = x_strdup(a->ans[a->next++]);
	return 0;
}

static void
base_opts(struct client_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pubkey_authentication = 1;
	o->password_authentication = 1;
	o->kbd_interactive_authentication = 1;
	o->number_of_password_prompts = 3;
	o->batch_mode = 0;
	o->log_level = LOG_LEVEL_QUIET;
}

/* The server in the child: auth_serve() under the servconf arg. */
static int
real_server(struct transport *t, void *arg)
{
	const struct servconf *sc = arg;
	struct auth_conn conn;
	struct auth_result res;
	int r;

	memset(&conn, 0, sizeof(conn));
	conn.remote_host = conn.remote_addr = "127.0.0.1";
	conn.remote_port = 1234;
	r = auth_serve(t, sc, &conn, &res);
	if (r == 0)
		auth_result_clear(&res);
	tr_flush(t);
	return r == 0 ? 0 : 1;
}

/* Server: auth_serve() under sc in a child; client: client_auth_ex(). */
static int
run_real(const struct servconf *sc, const struct client_opts *o,
    struct client_auth_args *a)
{
	struct trp_peer p;
	int r, status;

	if ((r = trp_start(&p, &host, 1, real_server, (void *)sc)) != 0)
		return r;
	r = client_auth_ex(p.t, o, user, "testhost", a);
	status = trp_finish(&p);
	if (r == 0)
		CHECK(status == 0);
	return r;
}

static struct servconf *
make_sc(const char *extra)
{
	struct servconf *sc = servconf_new();
	char line[600];

	snprintf(line, sizeof(line), "AuthorizedKeysFile %s/ak", tmp);
	CHECK_OK(servconf_parse_line(sc, line, "test", 1));
	CHECK_OK(servconf_parse_line(sc, "StrictModes no", "test", 2));
	CHECK_OK(servconf_parse_line(sc, "PermitRootLogin yes", "test", 3));
	if (extra != NULL)
		CHECK_OK(servconf_parse_line(sc, extra, "test", 4));
	CHECK_OK(servconf_finish(sc));
	return sc;
}

static char *
path(const char *name)
{
	return x_asprintf("%s/%s", tmp, name);
}

static void
test_pure(void)
{
	struct key *rsa = NULL, *ed = NULL;

	CHECK(client_prompt_via(1, 1, NULL, 1) == CP_NONE);
	CHECK(client_prompt_via(0, 1, NULL, 1) == CP_TTY);
	CHECK(client_prompt_via(0, 0, NULL, 1) == CP_ASKPASS);
	CHECK(client_prompt_via(0, 0, NULL, 0) == CP_NONE);
	CHECK(client_prompt_via(0, 1, "force", 0) == CP_ASKPASS);
	CHECK(client_prompt_via(0, 0, "force", 0) == CP_ASKPASS);
	CHECK(client_prompt_via(0, 1, "prefer", 1) == CP_ASKPASS);
	CHECK(client_prompt_via(0, 1, "prefer", 0) == CP_TTY);
	CHECK(client_prompt_via(0, 1, "never", 1) == CP_TTY);
	CHECK(client_prompt_via(0, 0, "never", 1) == CP_NONE);
	CHECK(client_prompt_via(1, 0, "force", 1) == CP_NONE);

	CHECK_STR(ca_next_method(NULL, "publickey,password,"
	    "keyboard-interactive", NULL, ""), "publickey");
	CHECK_STR(ca_next_method(NULL, "password,keyboard-interactive",
	    NULL, ""), "keyboard-interactive");
	CHECK_STR(ca_next_method(NULL, "publickey,password",
	    "keyboard-interactive,password", ""), "password");
	CHECK_STR(ca_next_method("password,publickey", "publickey,password",
	    NULL, ""), "password");
	CHECK_STR(ca_next_method(NULL, "publickey,password", NULL,
	    "publickey"), "password");
	CHECK(ca_next_method(NULL, "gssapi-with-mic", NULL, "") == NULL);
	/* hostbased before publickey, but only when we have it on. */
	CHECK_STR(ca_next_method(NULL, "gssapi-with-mic,publickey,hostbased",
	    NULL, ""), "hostbased");
	CHECK_STR(ca_next_method(NULL, "publickey,hostbased",
	    "publickey,password", ""), "publickey");
	CHECK(ca_next_method("hostbased", "publickey", NULL, "") == NULL);
	CHECK(ca_next_method(NULL, "publickey,password", NULL,
	    "password,publickey") == NULL);

	CHECK_OK(key_generate(KEY_RSA, 2048, &rsa));
	CHECK_OK(key_generate(KEY_ED25519, 0, &ed));
	CHECK_STR(ca_pick_sigalg(rsa, "ssh-ed25519,rsa-sha2-256,"
	    "rsa-sha2-512", NULL), "rsa-sha2-512");
	CHECK_STR(ca_pick_sigalg(rsa, "rsa-sha2-256,rsa-sha2-512",
	    "rsa-sha2-256,ssh-ed25519"), "rsa-sha2-256");
	CHECK_STR(ca_pick_sigalg(rsa, "rsa-sha2-256", NULL), "rsa-sha2-256");
	CHECK_STR(ca_pick_sigalg(rsa, NULL, NULL), "ssh-rsa");
	CHECK(ca_pick_sigalg(rsa, NULL, "rsa-sha2-512,ssh-ed25519") == NULL);
	CHECK(ca_pick_sigalg(rsa, "ssh-ed25519", "rsa-sha2-512") == NULL);
	CHECK_STR(ca_pick_sigalg(ed, NULL, NULL), "ssh-ed25519");
	CHECK(ca_pick_sigalg(ed, NULL, "rsa-sha2-512") == NULL);
	key_free(rsa);
	key_free(ed);
}

/* A scripted server: kbd-int (two rounds), partial, then password. */
static int
expect(struct transport *t, uint8_t want, struct sbuf **pp)
{
	uint8_t type;
	int r;

	if ((r = tr_wait_message(t, &type, pp, 10000)) != 0)
		return r;
	return type == want ? 0 : ERR_PROTOCOL;
}

static int
expect_req(struct transport *t, const char *method, struct sbuf **pp)
{
	char *u = NULL, *svc = NULL, *m = NULL;
	int r;

	if ((r = expect(t, SSH2_MSG_USERAUTH_REQUEST, pp)) != 0 ||
	    (r = sbuf_get_cstring(*pp, &u, NULL)) != 0 ||
	    (r = sbuf_get_cstring(*pp, &svc, NULL)) != 0 ||
	    (r = sbuf_get_cstring(*pp, &m, NULL)) != 0)
		goto out;
	if (strcmp(u, user) != 0 || strcmp(svc, "ssh-connection") != 0 ||
	    strcmp(m, method) != 0) {
		fprintf(stderr, "server: got %s %s %s\n", u, svc, m);
		r = ERR_PROTOCOL;
	}
 out:
	x_free(u);
	x_free(svc);
	x_free(m);
	return r;
}

static void
send_failure(struct transport *t, const char *list, int partial)
{
	struct sbuf *m = tr_msg_start(t, SSH2_MSG_USERAUTH_FAILURE);

	sbuf_put_cstring(m, list);
	sbuf_put_u8(m, partial);
	tr_msg_send(t);
}

static int
expect_string(struct sbuf *p, const char *want)
{
	char *s = NULL;
	int ok;

	if (sbuf_get_cstring(p, &s, NULL) != 0)
		return 0;
	ok = strcmp(s, want) == 0;
	if (!ok)
		fprintf(stderr, "server: got \"%s\", wanted \"%s\"\n", s, want);
	x_free(s);
	return ok;
}

static int
script_server(struct transport *t)
{
	struct sbuf *p, *m;
	uint32_t n;
	int bad = 0;

	if (expect(t, SSH2_MSG_SERVICE_REQUEST, &p) != 0)
		return 1;
	m = tr_msg_start(t, SSH2_MSG_SERVICE_ACCEPT);
	sbuf_put_cstring(m, "ssh-userauth");
	tr_msg_send(t);
	if (expect_req(t, "none", &p) != 0)
		return 2;
	m = tr_msg_start(t, SSH2_MSG_USERAUTH_BANNER);
	sbuf_put_cstring(m, "banner\n");
	sbuf_put_cstring(m, "");
	tr_msg_send(t);
	send_failure(t, "keyboard-interactive,password", 0);
	if (expect_req(t, "keyboard-interactive", &p) != 0)
		return 3;
	m = tr_msg_start(t, SSH2_MSG_USERAUTH_INFO_REQUEST);
	sbuf_put_cstring(m, "Test");
	sbuf_put_cstring(m, "Answer two");
	sbuf_put_cstring(m, "");
	sbuf_put_u32(m, 2);
	sbuf_put_cstring(m, "One: ");
	sbuf_put_u8(m, 1);
	sbuf_put_cstring(m, "Two: ");
	sbuf_put_u8(m, 0);
	tr_msg_send(t);
	if (expect(t, SSH2_MSG_USERAUTH_INFO_RESPONSE, &p) != 0 ||
	    sbuf_get_u32(p, &n) != 0 || n != 2 ||
	    !expect_string(p, "a1") || !expect_string(p, "a2"))
		return 4;
	m = tr_msg_start(t, SSH2_MSG_USERAUTH_INFO_REQUEST);
	sbuf_put_cstring(m, "");
	sbuf_put_cstring(m, "");
	sbuf_put_cstring(m, "");
	sbuf_put_u32(m, 0);
	tr_msg_send(t);
	if (expect(t, SSH2_MSG_USERAUTH_INFO_RESPONSE, &p) != 0 ||
	    sbuf_get_u32(p, &n) != 0 || n != 0)
		return 5;
	send_failure(t, "password", 1);
	if (expect_req(t, "password", &p) != 0)
		return 6;
	if (sbuf_get_u8(p, (uint8_t *)&bad) != 0 || !expect_string(p, "pw1"))
		return 7;
	send_failure(t, "password", 0);
	if (expect_req(t, "password", &p) != 0)
		return 8;
	if (sbuf_get_u8(p, (uint8_t *)&bad) != 0 || !expect_string(p, "pw2"))
		return 9;
	tr_msg_start(t, SSH2_MSG_USERAUTH_SUCCESS);
	tr_msg_send(t);
	tr_flush(t);
	return 0;
}

static int
scripted_server(struct transport *t, void *arg)
{
	int r = script_server(t);

	if (r != 0)
		fprintf(stderr, "script step %d failed\n", r);
	return r;
}

static void
test_scripted(void)
{
	struct client_opts o;
	struct client_auth_args a;
	struct answers ans;
	struct trp_peer p;
	int r;

	r = trp_start(&p, &host, 1, scripted_server, NULL);
	CHECK(r == 0);
	if (r != 0)
		return;
	base_opts(&o);
	memset(&a, 0, sizeof(a));
	memset(&ans, 0, sizeof(ans));
	ans.ans[0] = "a1";
	ans.ans[1] = "a2";
	ans.ans[2] = "pw1";
	ans.ans[3] = "pw2";
	a.prompt = prompt_cb;
	a.prompt_arg = &ans;
	CHECK_OK(client_auth_ex(p.t, &o, user, "h.example", &a));
	CHECK_STR(a.method, "password");
	{
		char *want = x_asprintf("[One: |1][Two: |0]"
		    "[%s@h.example's password: |0]"
		    "[%s@h.example's password: |0]", user, user);

		CHECK_STR(ans.seen, want);
		x_free(want);
	}
	CHECK(trp_finish(&p) == 0);
	x_free(a.method);
	x_free(a.last_methods);
}

/* After the keys: a chain that needs a password, wrong every time; then
 * BatchMode with no identities, where nothing is asked. */
static void
test_real_password_batch(struct client_opts *o)
{
	struct client_auth_args a;
	struct answers ans;
	struct servconf *sc;
	char *want;

	/* publickey,password: partial success, then wrong passwords. */
	sc = make_sc("AuthenticationMethods publickey,password");
	memset(&a, 0, sizeof(a));
	memset(&ans, 0, sizeof(ans));
	ans.ans[0] = "x1";
	ans.ans[1] = "x2";
	ans.ans[2] = "x3";
	a.prompt = prompt_cb;
	a.prompt_arg = &ans;
	CHECK_ERR(run_real(sc, o, &a), ERR_PERMISSION_DENIED);
	CHECK_STR(a.last_methods, "password");
	CHECK(a.method == NULL);
	want = x_asprintf("[%s@testhost's password: |0]"
	    "[%s@testhost's password: |0][%s@testhost's password: |0]",
	    user, user, user);
	CHECK_STR(ans.seen, want);
	x_free(want);
	x_free(a.last_methods);
	servconf_free(sc);

	/* No identities, BatchMode: nothing is asked. */
	sc = make_sc(NULL);
	o->nidentity_files = 0;
	o->batch_mode = 1;
	memset(&a, 0, sizeof(a));
	memset(&ans, 0, sizeof(ans));
	a.prompt = prompt_cb;
	a.prompt_arg = &ans;
	CHECK_ERR(run_real(sc, o, &a), ERR_PERMISSION_DENIED);
	CHECK_STR(ans.seen, "");
	CHECK_STR(a.last_methods, "publickey,password,keyboard-interactive");
	x_free(a.last_methods);
	servconf_free(sc);
}

static void
test_real(void)
{
	struct client_opts o;
	struct client_auth_args a;
	struct answers ans;
	struct servconf *sc;
	struct key *ed = NULL, *ec = NULL, *rsa = NULL;
	char *ed_path = path("id_ed"), *ec_path = path("id_ec");
	char *rsa_path = path("id_rsa"), *ak = path("ak");
	char *missing = path("nothere"), *t1, *t2, *want;
	FILE *f;

	CHECK_OK(key_generate(KEY_ED25519, 0, &ed));
	CHECK_OK(key_generate(KEY_ECDSA, 0, &ec));
	CHECK_OK(key_generate(KEY_RSA, 2048, &rsa));
	if (ed == NULL || ec == NULL || rsa == NULL)
		return;
	CHECK_OK(key_save_private(ed, ed_path, "edpass", "ed", 4));
	CHECK_OK(key_save_private(ec, ec_path, "ecpass", "ec", 4));
	CHECK_OK(key_save_private(rsa, rsa_path, NULL, "rsa", 0));
	t1 = x_asprintf("%s.pub", ed_path);
	t2 = x_asprintf("%s.pub", ec_path);
	CHECK_OK(key_save_public(ed, t1, "ed"));
	CHECK_OK(key_save_public(ec, t2, "ec"));
	x_free(t1);
	x_free(t2);
	f = fopen(ak, "w");
	t1 = key_public_text(ed);
	t2 = key_public_text(rsa);
	fprintf(f, "%s\n%s\n", t1, t2);
	fclose(f);
	x_free(t1);
	x_free(t2);

	/* Encrypted keys: only the accepted one's passphrase is asked. */
	sc = make_sc(NULL);
	base_opts(&o);
	o.identity_files[0] = missing;
	o.identity_files_explicit[0] = 1;
	o.identity_files[1] = ec_path;
	o.identity_files[2] = ed_path;
	o.nidentity_files = 3;
	memset(&a, 0, sizeof(a));
	memset(&ans, 0, sizeof(ans));
	ans.ans[0] = "wrong";
	ans.ans[1] = "edpass";
	a.prompt = prompt_cb;
	a.prompt_arg = &ans;
	CHECK_OK(run_real(sc, &o, &a));
	CHECK_STR(a.method, "publickey");
	want = x_asprintf("[Enter passphrase for key '%s': |0]"
	    "[Enter passphrase for key '%s': |0]", ed_path, ed_path);
	CHECK_STR(ans.seen, want);
	x_free(want);
	x_free(a.method);
	x_free(a.last_methods);

	/* RSA without a .pub, server-sig-algs from ext-info. */
	o.identity_files[0] = rsa_path;
	o.nidentity_files = 1;
	memset(&a, 0, sizeof(a));
	memset(&ans, 0, sizeof(ans));
	a.prompt = prompt_cb;
	a.prompt_arg = &ans;
	CHECK_OK(run_real(sc, &o, &a));
	CHECK_STR(a.method, "publickey");
	CHECK_STR(ans.seen, "");
	x_free(a.method);
	x_free(a.last_methods);
	/* Only ssh-rsa allowed: not offered where the server wants SHA-2. */
	servconf_free(sc);
	sc = make_sc("PubkeyAcceptedAlgorithms rsa-sha2-512");
	o.pubkey_accepted_algorithms = (char *)"rsa-sha2-256";
	o.password_authentication = 0;
	o.kbd_interactive_authentication = 0;
	memset(&a, 0, sizeof(a));
	CHECK_ERR(run_real(sc, &o, &a), ERR_PERMISSION_DENIED);
	CHECK_STR(a.last_methods, "publickey,password,keyboard-interactive");
	x_free(a.last_methods);
	o.pubkey_accepted_algorithms = NULL;
	o.password_authentication = 1;
	o.kbd_interactive_authentication = 1;
	servconf_free(sc);

	test_real_password_batch(&o);

	key_free(ed);
	key_free(ec);
	key_free(rsa);
	x_free(ed_path);
	x_free(ec_path);
	x_free(rsa_path);
	x_free(ak);
	x_free(missing);
}

int
main(void)
{
	struct passwd *me = getpwuid(geteuid());
	char cmd[300];

	signal(SIGPIPE, SIG_IGN);
	log_init("test_clientauth", LOG_LEVEL_ERROR, 0, 1);
	test_pure();
	if (me == NULL)
		return TEST_DONE();
	user = x_strdup(me->pw_name);
	snprintf(tmp, sizeof(tmp), "/tmp/moat-cauth-XXXXXX");
	if (mkdtemp(tmp) == NULL)
		return 1;
	CHECK_OK(key_generate(KEY_ED25519, 0, &host.key));
	CHECK_OK(key_demote(host.key, &host.pub));
	test_scripted();
	test_real();
	key_free(host.key);
	key_free(host.pub);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return TEST_DONE();
}
