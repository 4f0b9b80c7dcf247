/*
 * test_authprinc_cmd.c: AuthorizedPrincipalsCommand and certificates
 * through AuthorizedKeysCommand: the %-tokens describing a certificate
 * and its CA, the tokens each command refuses, and real programs
 * (through /bin/sh, which is root-owned) printing principals lines or
 * cert-authority lines, failing and printing the wrong thing. The CA,
 * the user key and the certificate are made with ssh-keygen.
 */
#include <sys/stat.h>

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth.h"
#include "auth_subproc.h"
#include "authkeys.h"
#include "authtest.h"
#include "cert.h"
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

/* The base64 word of "type base64". */
static const char *
b64_of(const char *text)
{
	const char *sp = text != NULL ? strchr(text, ' ') : NULL;

	return sp != NULL ? sp + 1 : "";
}

static void
test_tokens(const struct key_cert *c)
{
	struct passwd p;
	char **av = NULL, *fp, *cafp, *ctext, *katext;

	memset(&p, 0, sizeof(p));
	p.pw_name = (char *)"al";
	p.pw_dir = (char *)"/home/al";
	p.pw_uid = 1001;
	fp = key_fingerprint(c->key, KEY_FP_SHA256);
	cafp = key_fingerprint(c->ca_key, KEY_FP_SHA256);
	ctext = cert_public_text(c);
	katext = key_public_text(c->ca_key);
	CHECK_OK(authkeys_principals_command_argv("/usr/bin/look %u %U %h "
	    "%t %T %f %F %i %s \"%C\" x%Dy 100%% %k %K", &p, c,
	    "192.0.2.1 40000 192.0.2.2 22", &av));
	if (av != NULL) {
		CHECK_STR(av[0], "/usr/bin/look");
		CHECK_STR(av[1], "al");
		CHECK_STR(av[2], "1001");
		CHECK_STR(av[3], "/home/al");
		CHECK_STR(av[4], "ssh-ed25519-cert-v01@openssh.com");
		CHECK_STR(av[5], "ssh-ed25519");
		CHECK_STR(av[6], fp);
		CHECK_STR(av[7], cafp);
		CHECK_STR(av[8], "key id 7");
		CHECK_STR(av[9], "42");
		CHECK_STR(av[10], "192.0.2.1 40000 192.0.2.2 22");
		CHECK_STR(av[11], "xy");
		CHECK_STR(av[12], "100%");
		CHECK_STR(av[13], b64_of(ctext));
		CHECK_STR(av[14], b64_of(katext));
		CHECK(av[15] == NULL);
	}
	subproc_argv_free(av);
	/* No arguments: the user's name. */
	CHECK_OK(authkeys_principals_command_argv("/usr/bin/look", &p, c,
	    NULL, &av));
	if (av != NULL) {
		CHECK_STR(av[1], "al");
		CHECK(av[2] == NULL);
	}
	subproc_argv_free(av);
	CHECK_OK(authkeys_principals_command_argv("/x %C", &p, c, NULL, &av));
	if (av != NULL)
		CHECK_STR(av[1], "UNKNOWN");
	subproc_argv_free(av);
	CHECK_ERR(authkeys_principals_command_argv("/x %q", &p, c, NULL, &av),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(authkeys_principals_command_argv("/x 5%", &p, c, NULL, &av),
	    ERR_INVALID_FORMAT);
	/* The CA tokens are the principals command's alone. */
	CHECK_ERR(authkeys_command_argv("/x %T", &p, c->key, &av),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(authkeys_command_argv("/x %i", &p, c->key, &av),
	    ERR_INVALID_FORMAT);
	x_free(fp);
	x_free(cafp);
	x_free(ctext);
	x_free(katext);
}

static void
run_apc(struct servconf *sc, const struct passwd *pw,
    const struct key_cert *c, const char *cmd, int want)
{
	struct authopts *o = NULL;

	x_free(sc->authorized_principals_command);
	sc->authorized_principals_command = x_strdup(cmd);
	CHECK_ERR(authkeys_principals_command(sc, pw, c, "127.0.0.1 1 "
	    "127.0.0.1 2", "127.0.0.1", "127.0.0.1", &o), want);
	CHECK((want == 0) == (o != NULL));
	if (o != NULL && strstr(cmd, "no-pty") != NULL)
		CHECK(!o->permit_pty);
	authopts_free(o);
}

static void
test_principals(const struct passwd *pw, const struct key_cert *c)
{
	struct servconf *sc = servconf_new();

	servconf_finish(sc);
	sc->authorized_keys_command_timeout = 2;
	run_apc(sc, pw, c, "/bin/sh -c 'echo bob'", ERR_NOT_FOUND);
	CHECK(logged("No user for AuthorizedPrincipalsCommand specified"));
	sc->authorized_principals_command_user = x_strdup(pw->pw_name);
	run_apc(sc, pw, c, "/bin/sh -c 'echo carol; echo bob'", 0);
	run_apc(sc, pw, c, "/bin/sh -c 'echo no-pty bob'", 0);
	run_apc(sc, pw, c, "/bin/sh -c 'echo carol; echo alicia'",
	    ERR_NOT_FOUND);
	/* Tokens reach the program. */
	run_apc(sc, pw, c, "/bin/sh -c 'test \"$0/$1\" = \"42/key id 7\" && "
	    "echo alice' %s %i", 0);
	run_apc(sc, pw, c, "/bin/sh -c 'echo bob; exit 1'", ERR_NOT_FOUND);
	CHECK(logged("AuthorizedPrincipalsCommand /bin/sh failed, status 1"));
	run_apc(sc, pw, c, "/bin/sh -c 'echo bob; sleep 30'", ERR_NOT_FOUND);
	CHECK(logged("AuthorizedPrincipalsCommand /bin/sh timed out after 2 "
	    "seconds; killed"));
	run_apc(sc, pw, c, "/bin/sh -c 'echo %z'", ERR_NOT_FOUND);
	CHECK(logged("unknown %-token"));
	servconf_free(sc);
}

static void
run_akc(struct servconf *sc, const struct passwd *pw,
    const struct key_cert *c, const char *cmd, int want)
{
	struct authopts *o = NULL;

	x_free(sc->authorized_keys_command);
	sc->authorized_keys_command = x_strdup(cmd);
	CHECK_ERR(authkeys_command_cert(sc, pw, c, "127.0.0.1", "127.0.0.1",
	    &o), want);
	CHECK((want == 0) == (o != NULL));
	authopts_free(o);
}

static void
test_keys_command(const struct passwd *pw, const struct key_cert *c)
{
	struct servconf *sc = servconf_new();
	char *ca = key_public_text(c->ca_key), *ct = cert_public_text(c);
	char cmd[4096];

	servconf_finish(sc);
	sc->authorized_keys_command_timeout = 2;
	sc->authorized_keys_command_user = x_strdup(pw->pw_name);
	snprintf(cmd, sizeof(cmd), "/bin/sh -c 'echo "
	    "cert-authority,principals=\\\"bob\\\" %s'", ca);
	run_akc(sc, pw, c, cmd, 0);
	snprintf(cmd, sizeof(cmd), "/bin/sh -c 'echo "
	    "cert-authority,principals=\\\"carol\\\" %s'", ca);
	run_akc(sc, pw, c, cmd, ERR_NOT_FOUND);
	/* Without principals=, the user's name must be in the cert. */
	snprintf(cmd, sizeof(cmd), "/bin/sh -c 'echo cert-authority %s'", ca);
	run_akc(sc, pw, c, cmd, ERR_NOT_FOUND);
	/* The CA as a plain key line does not let the certificate in. */
	snprintf(cmd, sizeof(cmd), "/bin/sh -c 'echo %s'", ca);
	run_akc(sc, pw, c, cmd, ERR_NOT_FOUND);
	/* %t and %k describe the certificate. */
	snprintf(cmd, sizeof(cmd), "/bin/sh -c 'test \"$0 $1\" = \"%s\" && "
	    "echo cert-authority,principals=\\\"alice\\\" %s' %%t %%k", ct,
	    ca);
	run_akc(sc, pw, c, cmd, 0);
	x_free(ca);
	x_free(ct);
	servconf_free(sc);
}

int
main(void)
{
	struct passwd *me;
	struct key_cert *c = NULL;
	char cmd[1024], path[400], *comment = NULL;

	snprintf(tmp, sizeof(tmp), "/tmp/moat-apcmd-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(logpath, sizeof(logpath), "%s/log", tmp);
	log_init("test_authprinc_cmd", LOG_LEVEL_DEBUG1, 0, 1);
	CHECK_OK(log_to_file(logpath));
	snprintf(cmd, sizeof(cmd), "cd %s && ssh-keygen -q -t ed25519 -N '' "
	    "-f ca && ssh-keygen -q -t ed25519 -N '' -f user && "
	    "ssh-keygen -q -s ca -I 'key id 7' -n alice,bob -z 42 user.pub",
	    tmp);
	CHECK(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/user-cert.pub", tmp);
	CHECK_OK(cert_load_public(path, &c, &comment));
	x_free(comment);
	me = getpwuid(geteuid());
	CHECK(me != NULL);
	if (c != NULL && me != NULL) {
		me = auth_pw_dup(me);
		test_tokens(c);
		test_principals(me, c);
		test_keys_command(me, c);
		auth_pw_free(me);
	}
	cert_free(c);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	CHECK(system(cmd) == 0);
	return TEST_DONE();
}
