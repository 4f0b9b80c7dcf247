/*
 * test_authkeys_cmd.c: AuthorizedKeysCommand: word splitting, %-tokens,
 * the safe-path rule, and running real programs (through /bin/sh, which
 * is root-owned) that print a key, garbage, fail, hang or never stop
 * printing. Keys are made with ssh-keygen in a temporary directory.
 */
#include <sys/stat.h>

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "auth_subproc.h"
#include "authkeys.h"
#include "authtest.h"
#include "log.h"
#include "mem.h"
#include "servconf.h"
#include "testlib.h"

static char tmp[256], logpath[320];

/* Whether the log holds s; empties the log. */
static int
logged(const char *s)
{
	return test_log_holds(logpath, s);
}

static void
test_split(void)
{
	char **av;

	CHECK_OK(subproc_split("/bin/x  a\t'b c' \"d\\\"e\" f\\ g", &av));
	if (av != NULL) {
		CHECK_STR(av[0], "/bin/x");
		CHECK_STR(av[1], "a");
		CHECK_STR(av[2], "b c");
		CHECK_STR(av[3], "d\"e");
		CHECK_STR(av[4], "f g");
		CHECK(av[5] == NULL);
	}
	subproc_argv_free(av);
	CHECK_ERR(subproc_split("/bin/x 'open", &av), ERR_INVALID_FORMAT);
	CHECK_ERR(subproc_split("   ", &av), ERR_INVALID_FORMAT);
}

static void
test_argv(const struct key *k)
{
	struct passwd p;
	char **av, *fp = key_fingerprint(k, KEY_FP_SHA256), *want;

	memset(&p, 0, sizeof(p));
	p.pw_name = (char *)"al";
	p.pw_dir = (char *)"/home/al";
	p.pw_uid = 1001;
	CHECK_OK(authkeys_command_argv("/usr/bin/look", &p, k, &av));
	if (av != NULL) {
		CHECK_STR(av[1], "al");
		CHECK(av[2] == NULL);
	}
	subproc_argv_free(av);
	CHECK_OK(authkeys_command_argv("/usr/bin/look %u %U %h %t %f 100%%",
	    &p, k, &av));
	if (av != NULL) {
		CHECK_STR(av[1], "al");
		CHECK_STR(av[2], "1001");
		CHECK_STR(av[3], "/home/al");
		CHECK_STR(av[4], "ssh-ed25519");
		CHECK_STR(av[5], fp);
		CHECK_STR(av[6], "100%");
	}
	subproc_argv_free(av);
	CHECK_OK(authkeys_command_argv("/usr/bin/look %k", &p, k, &av));
	want = key_public_text(k);	/* "ssh-ed25519 AAAA..." */
	if (av != NULL && want != NULL)
		CHECK_STR(av[1], strchr(want, ' ') + 1);
	subproc_argv_free(av);
	x_free(want);
	CHECK_OK(authkeys_command_argv("/usr/bin/look '' x", &p, k, &av));
	if (av != NULL)
		CHECK_STR(av[1], "");
	subproc_argv_free(av);
	CHECK_ERR(authkeys_command_argv("/usr/bin/look %q", &p, k, &av),
	    ERR_INVALID_FORMAT);
	x_free(fp);
}

static void
test_safe(void)
{
	char err[512], path[400];
	FILE *f;

	CHECK_OK(subproc_safe_path("/bin/sh", err, sizeof(err)));
	CHECK_ERR(subproc_safe_path("bin/sh", err, sizeof(err)),
	    ERR_KEY_BAD_PERMISSIONS);
	CHECK_ERR(subproc_safe_path("/nonexistent/x", err, sizeof(err)),
	    ERR_KEY_BAD_PERMISSIONS);
	CHECK_ERR(subproc_safe_path("/bin", err, sizeof(err)),
	    ERR_KEY_BAD_PERMISSIONS);
	snprintf(path, sizeof(path), "%s/cmd", tmp);
	if ((f = fopen(path, "w")) != NULL) {
		fputs("#!/bin/sh\nexit 0\n", f);
		fclose(f);
	}
	chmod(path, 0755);
	chmod(tmp, 0755);
	/* tmp sits in /tmp, which everybody may write to. */
	CHECK_ERR(subproc_safe_path(path, err, sizeof(err)),
	    ERR_KEY_BAD_PERMISSIONS);
	CHECK(strstr(err, geteuid() == 0 ? "directory /tmp" : "file") != NULL);
	chmod(path, 0777);
	CHECK_ERR(subproc_safe_path(path, err, sizeof(err)),
	    ERR_KEY_BAD_PERMISSIONS);
	CHECK(strstr(err, "for file") != NULL);
}

/* Run cmd as the AuthorizedKeysCommand for pw; expect want. */
static void
run(struct servconf *sc, const struct passwd *pw, const struct key *k,
    const char *cmd, int want)
{
	struct authopts *o = NULL;

	x_free(sc->authorized_keys_command);
	sc->authorized_keys_command = x_strdup(cmd);
	CHECK_ERR(authkeys_command(sc, pw, k, "127.0.0.1", "127.0.0.1", &o),
	    want);
	CHECK((want == 0) == (o != NULL));
	authopts_free(o);
}

static void
test_run(struct passwd *pw, const struct key *k1, const struct key *k2)
{
	struct servconf *sc = servconf_new();
	char cmd[2048], *line = key_public_text(k1);
	time_t t0;

	servconf_finish(sc);
	sc->authorized_keys_command_timeout = 2;
	/* No user: skipped. */
	run(sc, pw, k1, "/bin/echo", ERR_NOT_FOUND);
	CHECK(logged("No user for AuthorizedKeysCommand"));
	sc->authorized_keys_command_user = x_strdup(pw->pw_name);
	snprintf(cmd, sizeof(cmd), "/bin/sh -c \"echo garbage here; "
	    "echo 'no-pty %s'\"", line);
	run(sc, pw, k1, cmd, 0);
	run(sc, pw, k2, cmd, ERR_NOT_FOUND);
	/* Tokens reach the program: it prints the key it was given. */
	run(sc, pw, k2, "/bin/sh -c \"echo %t %k\"", 0);
	run(sc, pw, k2, "/bin/sh -c \"test x$0 = x%u && echo %t %k\" %u", 0);
	/* Runs in a clean environment with no stdin. */
	run(sc, pw, k2, "/bin/sh -c 'if test -z \"$HOME$USER$TERM\" && "
	    "! read x && ! tty -s; then echo %t %k; fi'", 0);
	setenv("MOAT_LEAK", "x", 1);
	run(sc, pw, k2, "/bin/sh -c 'test -z \"$MOAT_LEAK\" && echo %t %k'",
	    0);
	snprintf(cmd, sizeof(cmd), "/bin/sh -c \"echo '%s'; exit 3\"", line);
	run(sc, pw, k1, cmd, ERR_NOT_FOUND);
	CHECK(logged("failed, status 3"));
	t0 = time(NULL);
	snprintf(cmd, sizeof(cmd), "/bin/sh -c \"echo '%s'; sleep 30\"",
	    line);
	run(sc, pw, k1, cmd, ERR_NOT_FOUND);
	CHECK(time(NULL) - t0 < 10);
	CHECK(logged("timed out after 2 seconds; killed"));
	run(sc, pw, k1, "/usr/bin/yes", ERR_NOT_FOUND);
	CHECK(logged("output longer than"));
	run(sc, pw, k1, "/bin/sh -c \"echo %z\"", ERR_NOT_FOUND);
	CHECK(logged("unknown %-token"));
	run(sc, pw, k1, "sh -c true", ERR_NOT_FOUND);
	CHECK(logged("Unsafe AuthorizedKeysCommand"));
	x_free(line);
	servconf_free(sc);
}

int
main(void)
{
	struct passwd *me;
	struct key *k1, *k2;

	snprintf(tmp, sizeof(tmp), "/tmp/moat-akcmd-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(logpath, sizeof(logpath), "%s/log", tmp);
	log_init("test_authkeys_cmd", LOG_LEVEL_DEBUG1, 0, 1);
	CHECK_OK(log_to_file(logpath));
	me = getpwuid(geteuid());
	CHECK(me != NULL);
	if (me == NULL)
		return TEST_DONE();
	me = auth_pw_dup(me);
	k1 = test_keygen(tmp, "k1", "ed25519");
	k2 = test_keygen(tmp, "k2", "ed25519");
	test_split();
	test_argv(k1);
	test_safe();
	test_run(me, k1, k2);
	key_free(k1);
	key_free(k2);
	auth_pw_free(me);
	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
		CHECK(system(cmd) == 0);
	}
	return TEST_DONE();
}
