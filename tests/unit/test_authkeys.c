/*
 * test_authkeys.c: authorized_keys files: token expansion, finding the
 * right line among options, comments and garbage, from= and expiry-time,
 * StrictModes refusals, and reading as the user when run as root.
 * Keys are made with ssh-keygen in a temporary directory.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "authkeys.h"
#include "authtest.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"

static char tmp[256], home[300], sshdir[320], akfile[340], logpath[320];

static struct key *
gen_key(const char *name, const char *type, char **textp)
{
	struct key *k = test_keygen(tmp, name, type);

	*textp = k ? key_public_text(k) : x_strdup("none");
	return k;
}

/* Whether the log holds s; empties the log. */
static int
logged(const char *s)
{
	return test_log_holds(logpath, s);
}

static struct authopts *
check(const struct passwd *pw, const struct key *k, const char *ip,
    uint64_t now, int strict, int want)
{
	struct authkeys_query q;
	struct authopts *o = NULL;

	memset(&q, 0, sizeof(q));
	q.key = k;
	q.remote_ip = ip;
	q.remote_host = ip;
	q.now = now ? now : (uint64_t)time(NULL);
	q.strict_modes = strict;
	CHECK_ERR(authkeys_check_file(akfile, pw, &q, &o), want);
	CHECK((want == 0) == (o != NULL));
	return o;
}

static void
test_expand(const struct passwd *pw)
{
	struct passwd p = *pw;
	char *s;

	p.pw_dir = (char *)"/home/al";
	p.pw_name = (char *)"al";
	p.pw_uid = 1001;
	CHECK_OK(authkeys_expand_path("%h/.ssh/authorized_keys", &p, &s));
	CHECK_STR(s, "/home/al/.ssh/authorized_keys");
	x_free(s);
	CHECK_OK(authkeys_expand_path(".ssh/authorized_keys2", &p, &s));
	CHECK_STR(s, "/home/al/.ssh/authorized_keys2");
	x_free(s);
	CHECK_OK(authkeys_expand_path("/etc/keys/%u.%U%%", &p, &s));
	CHECK_STR(s, "/etc/keys/al.1001%");
	x_free(s);
	CHECK_OK(authkeys_expand_path("%u/keys", &p, &s));
	CHECK_STR(s, "/home/al/al/keys");
	x_free(s);
	CHECK_ERR(authkeys_expand_path("/x/%q", &p, &s), ERR_INVALID_FORMAT);
	CHECK(s == NULL);
	CHECK_ERR(authkeys_expand_path("/x/%", &p, &s), ERR_INVALID_FORMAT);
}

/* StrictModes: the file, its directory and home must not be writable by
 * others (nor the file owned by another user). */
static void
test_strict_modes(const struct passwd *pw, const struct key *k1)
{
	struct authopts *o;
	char cmd[600];

	truncate(logpath, 0);
	chmod(akfile, 0666);
	check(pw, k1, "192.0.2.1", 0, 1, ERR_KEY_BAD_PERMISSIONS);
	snprintf(cmd, sizeof(cmd), "Authentication refused: bad ownership "
	    "or modes for file %s", akfile);
	CHECK(logged(cmd));
	o = check(pw, k1, "192.0.2.1", 0, 0, 0);
	authopts_free(o);
	chmod(akfile, 0620);
	check(pw, k1, "192.0.2.1", 0, 1, ERR_KEY_BAD_PERMISSIONS);
	chmod(akfile, 0644);
	o = check(pw, k1, "192.0.2.1", 0, 1, 0);
	authopts_free(o);
	chmod(sshdir, 0777);
	check(pw, k1, "192.0.2.1", 0, 1, ERR_KEY_BAD_PERMISSIONS);
	snprintf(cmd, sizeof(cmd), "Authentication refused: bad ownership "
	    "or modes for directory %s", sshdir);
	CHECK(logged(cmd));
	chmod(sshdir, 0700);
	chmod(home, 0770);
	check(pw, k1, "192.0.2.1", 0, 1, ERR_KEY_BAD_PERMISSIONS);
	snprintf(cmd, sizeof(cmd), "bad ownership or modes for directory %s",
	    home);
	CHECK(logged(cmd));
	chmod(home, 0755);
	if (geteuid() == 0) {
		/* Owned by someone else. */
		CHECK(chown(akfile, 12345, 0) == 0);
		check(pw, k1, "192.0.2.1", 0, 1, ERR_KEY_BAD_PERMISSIONS);
		CHECK(chown(akfile, 0, 0) == 0);
	}
	o = check(pw, k1, "192.0.2.1", 0, 1, 0);
	authopts_free(o);
}

/* Every AuthorizedKeysFile entry in turn. */
static void
test_files_in_turn(const struct passwd *pw, const struct key *k2,
    const struct key *k5)
{
	struct authopts *o;
	struct servconf sc;

	memset(&sc, 0, sizeof(sc));
	sc.authorized_keys_files[0] = (char *)"none";
	sc.authorized_keys_files[1] = (char *)"%h/.ssh/missing";
	sc.authorized_keys_files[2] = (char *)".ssh/authorized_keys";
	sc.nauthorized_keys_files = 3;
	sc.strict_modes = 1;
	CHECK_OK(authkeys_find(&sc, pw, k2, "10.1.2.3", "10.1.2.3", &o));
	if (o != NULL)
		CHECK_STR(o->force_command, "only-from-10");
	authopts_free(o);
	CHECK_ERR(authkeys_find(&sc, pw, k5, NULL, "10.1.2.3", &o),
	    ERR_NOT_FOUND);
	sc.nauthorized_keys_files = 2;
	CHECK_ERR(authkeys_find(&sc, pw, k2, NULL, "10.1.2.3", &o),
	    ERR_NOT_FOUND);
}

/* As root: files are read with the user's identity. */
static void
test_as_user(const struct key *k1)
{
	struct authopts *o;
	struct passwd *me;

	if (geteuid() == 0 && (me = getpwnam("nobody")) != NULL) {
		struct passwd nb = *me;

		nb.pw_dir = home;
		chmod(tmp, 0711);	/* mkdtemp made it 0700 */
		CHECK(chown(home, nb.pw_uid, nb.pw_gid) == 0);
		CHECK(chown(sshdir, nb.pw_uid, nb.pw_gid) == 0);
		CHECK(chown(akfile, nb.pw_uid, nb.pw_gid) == 0);
		o = check(&nb, k1, "192.0.2.1", 0, 1, 0);
		authopts_free(o);
		CHECK(geteuid() == 0 && getegid() == 0);
		/* A file only root can read is out of the user's reach. */
		CHECK(chown(akfile, 0, 0) == 0);
		chmod(akfile, 0600);
		check(&nb, k1, "192.0.2.1", 0, 1, ERR_NOT_FOUND);
		CHECK(logged("Permission denied"));
		CHECK(geteuid() == 0 && getegid() == 0);
	}
}

int
main(void)
{
	struct passwd *me, pw;
	struct key *k1, *k2, *k3, *k4, *k5;
	char *t1, *t2, *t3, *t4, *t5, *text;
	struct authopts *o;
	char cmd[600];

	snprintf(tmp, sizeof(tmp), "/tmp/moat-authkeys-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(home, sizeof(home), "%s/home", tmp);
	snprintf(sshdir, sizeof(sshdir), "%s/.ssh", home);
	snprintf(akfile, sizeof(akfile), "%s/authorized_keys", sshdir);
	snprintf(logpath, sizeof(logpath), "%s/log", tmp);
	mkdir(home, 0700);
	mkdir(sshdir, 0700);
	log_init("test_authkeys", LOG_LEVEL_DEBUG1, 0, 1);
	CHECK_OK(log_to_file(logpath));

	me = getpwuid(geteuid());
	CHECK(me != NULL);
	if (me == NULL)
		return TEST_DONE();
	pw = *me;
	pw.pw_dir = home;
	test_expand(&pw);

	k1 = gen_key("k1", "ed25519", &t1);
	k2 = gen_key("k2", "ecdsa", &t2);
	k3 = gen_key("k3", "ed25519", &t3);
	k4 = gen_key("k4", "rsa -b 2048", &t4);
	k5 = gen_key("k5", "ed25519", &t5);
	if (k1 == NULL || k2 == NULL || k3 == NULL || k4 == NULL || k5 == NULL)
		return TEST_DONE();

	text = x_asprintf(
	    "# a comment\n"
	    "\n"
	    "   \t\n"
	    "this is garbage\n"
	    "bogus-option %s first\n"
	    "ssh-dss AAAAB3NzaC1kc3MAAACBAP8= unknown type\n"
	    "from=\"10.*,!10.9.9.9\",command=\"only-from-10\" %s\n"
	    "no-pty,command=\"second\" %s two\r\n"
	    "expiry-time=\"20000101Z\" %s expired\n"
	    "  expiry-time=\"20991231Z\",environment=\"A=B\" %s\n"
	    "cert-authority %s\n"
	    "restrict,pty %s k1 restricted\n",
	    t1, t2, t2, t3, t3, t4, t1);
	test_write_file(akfile, text, 0600);
	x_free(text);

	/* The first acceptable line wins; bad lines are skipped. */
	o = check(&pw, k1, "192.0.2.1", 0, 1, 0);
	if (o != NULL) {
		CHECK(o->restricted && o->permit_pty &&
		    !o->permit_port_forwarding);
		CHECK(o->force_command == NULL);
	}
	authopts_free(o);
	CHECK(logged(":5: bad key options: unknown key option"));

	/* from= chooses between two lines for the same key. */
	o = check(&pw, k2, "10.1.2.3", 0, 1, 0);
	if (o != NULL)
		CHECK_STR(o->force_command, "only-from-10");
	authopts_free(o);
	o = check(&pw, k2, "10.9.9.9", 0, 1, 0);
	if (o != NULL) {
		CHECK_STR(o->force_command, "second");
		CHECK(!o->permit_pty);
	}
	authopts_free(o);
	CHECK(logged("with correct key but not from a permitted host "
	    "(host=10.9.9.9, ip=10.9.9.9)"));

	/* Expired lines are passed over; past both, nothing matches. */
	o = check(&pw, k3, "192.0.2.1", 0, 1, 0);
	if (o != NULL) {
		CHECK(o->nenv == 1 && o->valid_before > 4000000000ull);
		if (o->nenv == 1)
			CHECK_STR(o->env[0], "A=B");
	}
	authopts_free(o);
	o = check(&pw, k3, "192.0.2.1", 946684800ull - 1, 1, 0);
	if (o != NULL)
		CHECK(o->valid_before == 946684800ull && o->nenv == 0);
	authopts_free(o);
	check(&pw, k3, "192.0.2.1", 4200000000ull, 1, ERR_NOT_FOUND);

	/* A cert-authority line does not let the CA key itself in. */
	check(&pw, k4, "192.0.2.1", 0, 1, ERR_NOT_FOUND);
	check(&pw, k5, "192.0.2.1", 0, 1, ERR_NOT_FOUND);

	test_strict_modes(&pw, k1);
	test_files_in_turn(&pw, k2, k5);
	test_as_user(k1);

	key_free(k1);
	key_free(k2);
	key_free(k3);
	key_free(k4);
	key_free(k5);
	x_free(t1);
	x_free(t2);
	x_free(t3);
	x_free(t4);
	x_free(t5);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return TEST_DONE();
}
