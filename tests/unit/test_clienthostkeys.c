/*
 * test_clienthostkeys.c: UpdateHostKeys in the client, with crafted
 * server messages: which keys it asks proofs for, that only a complete
 * set of good proofs (right key, right session, right order, rsa-sha2
 * for RSA, nothing left over) changes known_hosts, and how the file then
 * changes: new keys added (hashed with HashKnownHosts), keys the server
 * dropped removed, other lines kept; lines it must not touch (patterns,
 * the key under another name) stop it; UpdateHostKeys=ask asks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "client.h"
#include "clienthostkeys.h"
#include "hkproof.h"
#include "hostfile.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"

#define HOST	"[127.0.0.1]:2222"

static char dir[] = "/tmp/clhk.XXXXXX";
static char *kh;
static struct key *ed, *ec, *rsa, *ec2;		/* private */
static struct key *edp, *ecp, *rsap;		/* public */
static char *edt, *ect, *rsat, *ec2t;	/* ec2t: another host's */
static unsigned char sid[32];

static struct key *
load(const char *name)
{
	struct key *k = NULL;
	char *p = x_asprintf("data/keys/%s", name);

	CHECK_OK(key_load_private(p, NULL, 0, &k, NULL));
	x_free(p);
	return k;
}

static struct client_opts *
opts(const char *extra1, const char *extra2)
{
	struct client_opts *o = client_opts_new();
	char *line = x_asprintf("UserKnownHostsFile %s", kh);

	o->host_arg = x_strdup("127.0.0.1");
	CHECK_OK(readconf_parse_line(o, line, "test", 0));
	if (extra1 != NULL)
		CHECK_OK(readconf_parse_line(o, extra1, "test", 0));
	if (extra2 != NULL)
		CHECK_OK(readconf_parse_line(o, extra2, "test", 0));
	CHECK_OK(readconf_parse_line(o, "UpdateHostKeys yes", "test", 0));
	CHECK_OK(readconf_parse_line(o, "Port 2222", "test", 0));
	CHECK_OK(readconf_finish(o, "tester"));
	x_free(line);
	return o;
}

/* hostkeys-00's body: the blobs of keys, in order. */
static struct sbuf *
hostkeys_body(struct key *a, struct key *b, struct key *c)
{
	struct sbuf *body = sbuf_new(), *blob = sbuf_new();
	struct key *ks[3] = { a, b, c };
	size_t i;

	for (i = 0; i < 3; i++) {
		if (ks[i] == NULL)
			continue;
		sbuf_reset(blob);
		CHECK_OK(key_to_blob(ks[i], blob));
		CHECK_OK(sbuf_put_stringb(body, blob));
	}
	sbuf_free(blob);
	return body;
}

/* A proof of pub signed by signer with alg over session s. */
static void
put_proof(struct sbuf *reply, struct key *signer, const char *alg,
    const struct key *pub, const unsigned char *s)
{
	struct sbuf *data = sbuf_new(), *sig = sbuf_new();

	CHECK_OK(hkproof_data(s, sizeof(sid), pub, data));
	CHECK_OK(key_sign(signer, alg, sbuf_ptr(data), sbuf_len(data), sig));
	CHECK_OK(sbuf_put_stringb(reply, sig));
	sbuf_free(data);
	sbuf_free(sig);
}

/* The known_hosts text with the ed25519 key known for HOST. */
static char *
known_ed(void)
{
	return x_asprintf("# mine\n" HOST " %s\nother.example %s\n", edt, ec2t);
}

/* Feed [ed, ec, rsa]; 1 if the client asked for exactly [ec, rsa]. */
static int
ask_ec_rsa(struct client_hostkeys *h)
{
	struct sbuf *body = hostkeys_body(edp, ecp, rsap);
	struct sbuf *prove = sbuf_new(), *want = hostkeys_body(ecp, rsap,
	    NULL);
	int ok;

	ok = client_hostkeys_input(h, body, prove) == CLIENT_HOSTKEYS_PROVE &&
	    sbuf_equal(prove, want);
	sbuf_free(body);
	sbuf_free(prove);
	sbuf_free(want);
	return ok;
}

enum fault { GOOD, BAD_SIG, WRONG_KEY, WRONG_SESSION, SWAPPED, MISSING,
	TRAILING, FAILURE, RSA_SHA1, RSA_NOT_KEX };

/* One round against known_ed() with a fault in the reply. */
static int
round_with(enum fault f, char **afterp)
{
	struct client_opts *o = opts(NULL, NULL);
	struct client_hostkeys *h = client_hostkeys_new(o, "127.0.0.1", 2222);
	struct sbuf *reply = sbuf_new();
	unsigned char other[sizeof(sid)];
	const char *kex = f == RSA_NOT_KEX ? "rsa-sha2-512" : "ssh-ed25519";
	char *before = known_ed();
	int r;

	memcpy(other, sid, sizeof(sid));
	other[0] ^= 1;
	test_write_file(kh, before, 0);
	CHECK(ask_ec_rsa(h));
	if (f == SWAPPED) {
		put_proof(reply, rsa, "rsa-sha2-512", rsap, sid);
		put_proof(reply, ec, NULL, ecp, sid);
	} else {
		put_proof(reply, f == WRONG_KEY ? ec2 : ec, NULL, ecp,
		    f == WRONG_SESSION ? other : sid);
		if (f != MISSING)
			put_proof(reply, rsa, f == RSA_SHA1 ? "ssh-rsa" :
			    f == RSA_NOT_KEX ? "rsa-sha2-256" : "rsa-sha2-512",
			    rsap, sid);
	}
	if (f == BAD_SIG)
		sbuf_mutable_ptr(reply)[sbuf_len(reply) - 1] ^= 0x40;
	if (f == TRAILING)
		CHECK_OK(sbuf_put_u32(reply, 0));
	r = client_hostkeys_proofs(h, f != FAILURE, f == FAILURE ? NULL :
	    reply, sid, sizeof(sid), kex);
	*afterp = test_read_file(kh);
	if (r != 0)
		CHECK_STR(*afterp, before);	/* untouched */
	x_free(before);
	sbuf_free(reply);
	client_hostkeys_free(h);
	client_opts_free(o);
	return r;
}

static void
test_proofs(void)
{
	char *after, *want;
	enum fault f;

	CHECK_OK(round_with(GOOD, &after));
	want = x_asprintf("# mine\n" HOST " %s\nother.example %s\n"
	    HOST " %s\n" HOST " %s\n", edt, ec2t, ect, rsat);
	CHECK_STR(after, want);
	x_free(after);
	x_free(want);

	for (f = BAD_SIG; f <= TRAILING; f++) {
		CHECK(round_with(f, &after) != 0);
		x_free(after);
	}
	CHECK_ERR(round_with(FAILURE, &after), ERR_PERMISSION_DENIED);
	x_free(after);
	CHECK(round_with(RSA_NOT_KEX, &after) != 0);
	x_free(after);

	/* An ssh-rsa (SHA-1) proof: that key is passed over, ec learnt. */
	CHECK_OK(round_with(RSA_SHA1, &after));
	want = x_asprintf("# mine\n" HOST " %s\nother.example %s\n"
	    HOST " %s\n", edt, ec2t, ect);
	CHECK_STR(after, want);
	x_free(after);
	x_free(want);
}

/* The server dropped rsa: its line goes, without any proof. */
static void
test_removal(void)
{
	struct client_opts *o = opts(NULL, NULL);
	struct client_hostkeys *h = client_hostkeys_new(o, "127.0.0.1", 2222);
	struct sbuf *body = hostkeys_body(edp, ecp, NULL), *prove = sbuf_new();
	char *before, *after, *want;

	before = x_asprintf("# keep\n" HOST " %s\n" HOST " %s\n"
	    "other.example %s\n" HOST " %s\n", edt, rsat, ec2t, ect);
	test_write_file(kh, before, 0);
	CHECK(client_hostkeys_input(h, body, prove) == 0);
	CHECK(sbuf_len(prove) == 0);
	after = test_read_file(kh);
	want = x_asprintf("# keep\n" HOST " %s\nother.example %s\n"
	    HOST " %s\n", edt, ec2t, ect);
	CHECK_STR(after, want);
	x_free(before);
	x_free(after);
	x_free(want);
	sbuf_free(body);
	sbuf_free(prove);
	client_hostkeys_free(h);
	client_opts_free(o);
}

/* Cases where nothing may be written, and nothing is asked. */
static void
test_refusals(void)
{
	static const char *const lines[] = {
		HOST ",a,b ",		/* a list OpenSSH never writes */
		"*:2222 ",		/* a wildcard */
		"@revoked " HOST " ",	/* a marker */
		"elsewhere ",		/* ec known under another name */
	};
	struct client_opts *o = opts(NULL, NULL);
	struct client_hostkeys *h;
	struct sbuf *body, *prove = sbuf_new();
	char *text, *after;
	size_t i;

	for (i = 0; i < 4; i++) {
		text = x_asprintf(HOST " %s\n%s%s\n", edt, lines[i],
		    i < 3 ? rsat : ect);
		test_write_file(kh, text, 0);
		h = client_hostkeys_new(o, "127.0.0.1", 2222);
		body = hostkeys_body(edp, ecp, NULL);
		sbuf_reset(prove);
		CHECK(client_hostkeys_input(h, body, prove) == 0);
		CHECK(sbuf_len(prove) == 0);
		after = test_read_file(kh);
		CHECK_STR(after, text);
		x_free(after);
		x_free(text);
		sbuf_free(body);
		client_hostkeys_free(h);
	}

	/* The same key twice: a protocol error, nothing asked. */
	text = known_ed();
	test_write_file(kh, text, 0);
	x_free(text);
	h = client_hostkeys_new(o, "127.0.0.1", 2222);
	body = hostkeys_body(edp, ecp, ecp);
	sbuf_reset(prove);
	CHECK_ERR(client_hostkeys_input(h, body, prove), ERR_PROTOCOL);
	CHECK(sbuf_len(prove) == 0);
	sbuf_free(body);
	client_hostkeys_free(h);
	sbuf_free(prove);
	client_opts_free(o);
}

/* HostKeyAlgorithms without RSA: the RSA key is not even asked for. */
static void
test_algorithms(void)
{
	struct client_opts *o = opts("HostKeyAlgorithms ssh-ed25519,"
	    "ecdsa-sha2-nistp256", NULL);
	struct client_hostkeys *h = client_hostkeys_new(o, "127.0.0.1", 2222);
	struct sbuf *body = hostkeys_body(edp, ecp, rsap), *prove = sbuf_new();
	struct sbuf *want = hostkeys_body(ecp, NULL, NULL);
	char *text = known_ed();

	test_write_file(kh, text, 0);
	CHECK(client_hostkeys_input(h, body, prove) == CLIENT_HOSTKEYS_PROVE);
	CHECK(sbuf_equal(prove, want));
	x_free(text);
	sbuf_free(body);
	sbuf_free(prove);
	sbuf_free(want);
	client_hostkeys_free(h);
	client_opts_free(o);
}

/* HashKnownHosts: the new lines are hashed, the old ones stay. */
static void
test_hashed(void)
{
	struct client_opts *o = opts("HashKnownHosts yes", NULL);
	struct client_hostkeys *h = client_hostkeys_new(o, "127.0.0.1", 2222);
	struct sbuf *reply = sbuf_new();
	char *hn = hostfile_hash_name(HOST, NULL, 0), *text, *after;
	char *line, *save = NULL;
	int n = 0, hashed = 0;

	text = x_asprintf("%s %s\n", hn, edt);
	test_write_file(kh, text, 0);
	CHECK(ask_ec_rsa(h));
	put_proof(reply, ec, NULL, ecp, sid);
	put_proof(reply, rsa, "rsa-sha2-256", rsap, sid);
	CHECK_OK(client_hostkeys_proofs(h, 1, reply, sid, sizeof(sid),
	    "ssh-ed25519"));
	after = test_read_file(kh);
	CHECK(strncmp(after, text, strlen(text)) == 0);
	CHECK(strstr(after, "127.0.0.1") == NULL);
	for (line = strtok_r(after, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save), n++) {
		char *sp = strchr(line, ' ');

		if (sp == NULL)
			continue;
		*sp = '\0';
		hashed += strncmp(line, "|1|", 3) == 0 &&
		    hostfile_match_hosts(line, HOST) == 1;
	}
	CHECK(n == 3 && hashed == 3);
	x_free(hn);
	x_free(text);
	x_free(after);
	sbuf_free(reply);
	client_hostkeys_free(h);
	client_opts_free(o);
}

static const char *const *answers;

static int
answer(void *arg, const char *prompt, int echo, char **answerp)
{
	(void)arg;
	CHECK_STR(prompt, "Accept updated hostkeys? (yes/no): ");
	CHECK(echo == 1);
	if (*answers == NULL)
		return ERR_PERMISSION_DENIED;
	*answerp = x_strdup(*answers++);
	return 0;
}

/* UpdateHostKeys=ask: "no" (or no answer) keeps the file as it is. */
static void
test_ask(void)
{
	static const char *const no[] = { "no", NULL };
	static const char *const maybe_yes[] = { "maybe", "YES", NULL };
	static const char *const none[] = { NULL };
	const char *const *tries[] = { no, none, maybe_yes };
	size_t i;

	for (i = 0; i < 3; i++) {
		struct client_opts *o = opts("UpdateHostKeys ask", NULL);
		struct client_hostkeys *h;
		struct sbuf *reply = sbuf_new();
		char *text = known_ed(), *after;
		int r;

		CHECK(o->update_host_keys == 2);	/* the first value won */
		h = client_hostkeys_new(o, "127.0.0.1", 2222);
		client_hostkeys_set_prompt(h, answer, NULL);
		answers = tries[i];
		test_write_file(kh, text, 0);
		CHECK(ask_ec_rsa(h));
		put_proof(reply, ec, NULL, ecp, sid);
		put_proof(reply, rsa, "rsa-sha2-512", rsap, sid);
		r = client_hostkeys_proofs(h, 1, reply, sid, sizeof(sid),
		    "ssh-ed25519");
		after = test_read_file(kh);
		if (i < 2) {
			CHECK(r != 0);
			CHECK_STR(after, text);
			CHECK(o->update_host_keys == 0);
		} else {
			CHECK_OK(r);
			CHECK(strstr(after, ect) != NULL);
			CHECK(*answers == NULL);	/* asked twice */
		}
		x_free(text);
		x_free(after);
		sbuf_free(reply);
		client_hostkeys_free(h);
		client_opts_free(o);
	}
}

int
main(void)
{
	char *old;

	log_init("test_clienthostkeys", LOG_LEVEL_ERROR, 0, 1);
	if (mkdtemp(dir) == NULL || RAND_bytes(sid, sizeof(sid)) != 1)
		return 1;
	kh = x_asprintf("%s/known_hosts", dir);
	ed = load("ed25519");
	ec = load("ecdsa256");
	rsa = load("rsa2048");
	ec2 = load("ecdsa384");
	CHECK_OK(key_demote(ed, &edp));
	CHECK_OK(key_demote(ec, &ecp));
	CHECK_OK(key_demote(rsa, &rsap));
	edt = key_public_text(edp);
	ect = key_public_text(ecp);
	rsat = key_public_text(rsap);
	ec2t = key_public_text(ec2);

	test_proofs();
	test_removal();
	test_refusals();
	test_algorithms();
	test_hashed();
	test_ask();

	old = x_asprintf("%s.old", kh);
	unlink(old);
	unlink(kh);
	rmdir(dir);
	x_free(old);
	x_free(kh);
	x_free(edt);
	x_free(ect);
	x_free(rsat);
	x_free(ec2t);
	key_free(ed);
	key_free(ec);
	key_free(rsa);
	key_free(ec2);
	key_free(edp);
	key_free(ecp);
	key_free(rsap);
	return TEST_DONE();
}
