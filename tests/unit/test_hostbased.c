/*
 * test_hostbased.c: the pure parts of hostbased authentication: rhosts
 * lines (+ and - entries, user fields, skipped lines), the file walk
 * with IgnoreRhosts and StrictModes, client host names, known_hosts
 * lookups, and the sshd_config keywords.
 */
#include <sys/stat.h>

#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "auth_hostbased.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "servconf.h"
#include "testlib.h"

static char dir[64];

static const struct rhosts_query q_alice = {
	"client.example.org", "192.0.2.7", "alice", "bob" };

static void
test_lines(void)
{
	const struct rhosts_query *q = &q_alice;

	/* Host and user. */
	CHECK(rhosts_line_match("client.example.org alice", q) == 1);
	CHECK(rhosts_line_match("CLIENT.Example.ORG alice\n", q) == 1);
	CHECK(rhosts_line_match("  192.0.2.7\talice  ", q) == 1);
	CHECK(rhosts_line_match("+client.example.org +alice", q) == 1);
	CHECK(rhosts_line_match("client.example.org Alice", q) == 0);
	CHECK(rhosts_line_match("other.example.org alice", q) == 0);
	CHECK(rhosts_line_match("192.0.2.70 alice", q) == 0);
	/* The address compares exactly, the name without case. */
	CHECK(rhosts_line_match("client.example.org. alice", q) == 0);
	/* Host only: the client user must be the local account's name. */
	CHECK(rhosts_line_match("client.example.org", q) == 0);
	{
		struct rhosts_query same = q_alice;

		same.server_user = "alice";
		CHECK(rhosts_line_match("client.example.org", &same) == 1);
	}
	/* '-' on either field denies when the line matches. */
	CHECK(rhosts_line_match("-client.example.org alice", q) == -1);
	CHECK(rhosts_line_match("client.example.org -alice", q) == -1);
	CHECK(rhosts_line_match("client.example.org -carol", q) == 0);
	CHECK(rhosts_line_match("-other.example.org alice", q) == 0);
	/* Wildcards are not honoured; garbage, comments, NO_PLUS skipped. */
	CHECK(rhosts_line_match("+", q) == 0);
	CHECK(rhosts_line_match("+ +", q) == 0);
	CHECK(rhosts_line_match("client.example.org +", q) == 0);
	CHECK(rhosts_line_match("- alice", q) == 0);
	CHECK(rhosts_line_match("client.example.org alice extra", q) == 0);
	CHECK(rhosts_line_match("# client.example.org alice", q) == 0);
	CHECK(rhosts_line_match("NO_PLUS", q) == 0);
	CHECK(rhosts_line_match("", q) == 0);
	CHECK(rhosts_line_match("   \n", q) == 0);
	/* Netgroups that do not exist match nothing. */
	CHECK(rhosts_line_match("@no-such-netgroup alice", q) == 0);
	CHECK(rhosts_line_match("client.example.org @no-such-netgroup", q)
	    == 0);
}

static FILE *
text_stream(const char *s)
{
	return fmemopen((void *)(uintptr_t)s, strlen(s), "r");
}

static void
test_scan(void)
{
	FILE *f;

	/* The first deciding line wins. */
	f = text_stream("# trust\nother alice\nclient.example.org alice\n"
	    "-client.example.org alice\n");
	CHECK(rhosts_scan(f, &q_alice) == 1);
	fclose(f);
	f = text_stream("client.example.org -alice\nclient.example.org "
	    "alice\n");
	CHECK(rhosts_scan(f, &q_alice) == 0);
	fclose(f);
	f = text_stream("+\nclient.example.org carol\n");
	CHECK(rhosts_scan(f, &q_alice) == 0);
	fclose(f);
}

static void
put(const char *name, const char *text, mode_t mode)
{
	char *p = x_asprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
	chmod(p, mode);
	x_free(p);
}

static void
rm(const char *name)
{
	char *p = x_asprintf("%s/%s", dir, name);

	unlink(p);
	x_free(p);
}

static struct servconf *
config(const char *lines)
{
	struct servconf *sc = servconf_new();
	char *copy = x_strdup(lines), *cp = copy, *l;
	int n = 0;

	while ((l = strsep(&cp, "\n")) != NULL)
		if (*l != '\0' && servconf_parse_line(sc, l, "test", ++n) != 0)
			fprintf(stderr, "bad line %s\n", l);
	x_free(copy);
	if (servconf_finish(sc) != 0)
		fprintf(stderr, "servconf_finish failed\n");
	return sc;
}

static void
test_files(void)
{
	struct passwd pw;
	struct hostbased_paths paths;
	struct rhosts_query q = { "client.example.org", "192.0.2.7", "alice",
	    "bob" };
	struct servconf *no = config("IgnoreRhosts no"), *yes = config(""),
	    *sonly = config("IgnoreRhosts shosts-only"),
	    *lax = config("IgnoreRhosts no\nStrictModes no");
	char *heq = x_asprintf("%s/hosts.equiv", dir);
	char *seq = x_asprintf("%s/shosts.equiv", dir);
	int equiv_used = geteuid() != 0;	/* we act as pw, uid = ours */

	memset(&pw, 0, sizeof(pw));
	pw.pw_name = (char *)"bob";
	pw.pw_uid = geteuid();
	pw.pw_gid = getegid();
	pw.pw_dir = dir;
	memset(&paths, 0, sizeof(paths));
	paths.hosts_equiv = heq;
	paths.shosts_equiv = seq;
	chmod(dir, 0755);

	/* No files at all. */
	CHECK(hostbased_rhosts_ok(no, &pw, &q, &paths) == 0);
	/* ~/.shosts, read unless IgnoreRhosts yes. */
	put(".shosts", "client.example.org alice\n", 0600);
	CHECK(hostbased_rhosts_ok(no, &pw, &q, &paths) == 1);
	CHECK(hostbased_rhosts_ok(sonly, &pw, &q, &paths) == 1);
	CHECK(hostbased_rhosts_ok(yes, &pw, &q, &paths) == 0);
	/* Group-writable: refused with StrictModes, read without. */
	put(".shosts", "client.example.org alice\n", 0620);
	CHECK(hostbased_rhosts_ok(no, &pw, &q, &paths) == 0);
	CHECK(hostbased_rhosts_ok(lax, &pw, &q, &paths) == 1);
	rm(".shosts");
	/* ~/.rhosts: not with shosts-only. */
	put(".rhosts", "192.0.2.7 alice\n", 0600);
	CHECK(hostbased_rhosts_ok(no, &pw, &q, &paths) == 1);
	CHECK(hostbased_rhosts_ok(sonly, &pw, &q, &paths) == 0);
	/* A home directory others can write voids the user's files. */
	chmod(dir, 0777);
	CHECK(hostbased_rhosts_ok(no, &pw, &q, &paths) == 0);
	CHECK(hostbased_rhosts_ok(lax, &pw, &q, &paths) == 1);
	chmod(dir, 0755);
	rm(".rhosts");
	/* The system files, whatever IgnoreRhosts says; never for root. */
	put("hosts.equiv", "client.example.org alice\n", 0644);
	CHECK(hostbased_rhosts_ok(yes, &pw, &q, &paths) == equiv_used);
	rm("hosts.equiv");
	put("shosts.equiv", "client.example.org\n", 0644);
	CHECK(hostbased_rhosts_ok(yes, &pw, &q, &paths) == 0);	/* bob */
	q.client_user = "bob";
	CHECK(hostbased_rhosts_ok(yes, &pw, &q, &paths) == equiv_used);
	/* A denial in one system file does not stop the next file. */
	put("hosts.equiv", "client.example.org -bob\n", 0644);
	CHECK(hostbased_rhosts_ok(yes, &pw, &q, &paths) == equiv_used);
	rm("hosts.equiv");
	rm("shosts.equiv");
	x_free(heq);
	x_free(seq);
	servconf_free(no);
	servconf_free(yes);
	servconf_free(sonly);
	servconf_free(lax);
}

static void
test_known_hosts(void)
{
	struct passwd pw;
	struct hostbased_paths paths;
	struct key *k = NULL, *other = NULL;
	struct servconf *sc = config(""), *nouser =
	    config("IgnoreUserKnownHosts yes");
	char *kt, *ot, *line, *sys = x_asprintf("%s/ssh_known_hosts", dir);
	char *sys2 = x_asprintf("%s/ssh_known_hosts2", dir);

	CHECK_OK(key_generate(KEY_ED25519, 0, &k));
	CHECK_OK(key_generate(KEY_ED25519, 0, &other));
	if (k == NULL || other == NULL)
		return;
	kt = key_public_text(k);
	ot = key_public_text(other);
	memset(&pw, 0, sizeof(pw));
	pw.pw_name = (char *)"bob";
	pw.pw_uid = geteuid();
	pw.pw_gid = getegid();
	pw.pw_dir = dir;
	paths.hosts_equiv = paths.shosts_equiv = "/nonexistent";
	paths.known_hosts = sys;
	paths.known_hosts2 = sys2;

	CHECK(hostbased_key_known(sc, &pw, k, "client", &paths) == 0);
	/* The user's file. */
	line = x_asprintf("%s/.ssh", dir);
	mkdir(line, 0700);
	x_free(line);
	line = x_asprintf("client %s\n", kt);
	put(".ssh/known_hosts", line, 0600);
	CHECK(hostbased_key_known(sc, &pw, k, "client", &paths) == 1);
	CHECK(hostbased_key_known(sc, &pw, k, "CLIENT", &paths) == 1);
	CHECK(hostbased_key_known(sc, &pw, k, "other", &paths) == 0);
	CHECK(hostbased_key_known(sc, &pw, other, "client", &paths) == 0);
	CHECK(hostbased_key_known(nouser, &pw, k, "client", &paths) == 0);
	/* Others may write it: not read under StrictModes. */
	put(".ssh/known_hosts", line, 0666);
	CHECK(hostbased_key_known(sc, &pw, k, "client", &paths) == 0);
	rm(".ssh/known_hosts");
	x_free(line);
	/* The system file, and the "2" file when the first has nothing. */
	line = x_asprintf("client,10.0.0.1 %s\n", kt);
	put("ssh_known_hosts2", line, 0644);
	CHECK(hostbased_key_known(nouser, &pw, k, "client", &paths) == 1);
	x_free(line);
	line = x_asprintf("client %s\n", ot);
	put("ssh_known_hosts", line, 0644);
	CHECK(hostbased_key_known(nouser, &pw, k, "client", &paths) == 0);
	x_free(line);
	line = x_asprintf("@revoked * %s\nclient %s\n", kt, kt);
	put("ssh_known_hosts", line, 0644);
	CHECK(hostbased_key_known(nouser, &pw, k, "client", &paths) == 0);
	x_free(line);
	rm("ssh_known_hosts");
	rm("ssh_known_hosts2");
	line = x_asprintf("%s/.ssh", dir);
	rmdir(line);
	x_free(line);
	x_free(kt);
	x_free(ot);
	x_free(sys);
	x_free(sys2);
	key_free(k);
	key_free(other);
	servconf_free(sc);
	servconf_free(nouser);
}

static void
test_names(void)
{
	char *s;

	CHECK_STR(s = hostbased_clean_name("localhost."), "localhost");
	x_free(s);
	CHECK_STR(s = hostbased_clean_name("host.example.org"),
	    "host.example.org");
	x_free(s);
	CHECK_STR(s = hostbased_clean_name("a.."), "a.");
	x_free(s);
	CHECK_STR(s = hostbased_clean_name(""), "");
	x_free(s);
	/* Without UseDNS the name is the address. */
	CHECK_STR(s = hostbased_canonical_name("127.0.0.1", 0), "127.0.0.1");
	x_free(s);
	/* Not an address: returned as is. */
	CHECK_STR(s = hostbased_canonical_name("not-an-address", 1),
	    "not-an-address");
	x_free(s);
}

static void
test_config(void)
{
	struct servconf *sc = config("");

	CHECK(sc->hostbased_authentication == 0);
	CHECK(sc->hostbased_uses_name_from_packet_only == 0);
	CHECK(sc->ignore_rhosts == IGNORE_RHOSTS_YES);
	CHECK(sc->ignore_user_known_hosts == 0);
	/* OpenSSH's default, as far as we support it: PubkeyAccepted's. */
	CHECK(sc->hostbased_accepted_algorithms != NULL &&
	    strstr(sc->hostbased_accepted_algorithms, "ssh-ed25519") != NULL);
	CHECK_STR(sc->hostbased_accepted_algorithms,
	    sc->pubkey_accepted_algorithms);
	servconf_free(sc);

	sc = config("HostbasedAuthentication yes\n"
	    "HostbasedAcceptedKeyTypes -ssh-ed25519*,rsa*\n"
	    "HostbasedUsesNameFromPacketOnly yes\n"
	    "IgnoreRhosts shosts-only\nIgnoreUserKnownHosts yes\n"
	    "AuthenticationMethods hostbased,publickey\n");
	CHECK(sc->hostbased_authentication == 1);
	CHECK(sc->hostbased_uses_name_from_packet_only == 1);
	CHECK(sc->ignore_rhosts == IGNORE_RHOSTS_SHOSTS);
	CHECK(sc->ignore_user_known_hosts == 1);
	/* The pattern takes ssh-ed25519 names, not sk-ssh-ed25519 ones. */
	CHECK(strncmp(sc->hostbased_accepted_algorithms, "ssh-ed25519",
	    11) != 0);
	CHECK(strstr(sc->hostbased_accepted_algorithms, ",ssh-ed25519") ==
	    NULL);
	CHECK(strstr(sc->hostbased_accepted_algorithms,
	    ",sk-ssh-ed25519@openssh.com") != NULL);
	CHECK(strstr(sc->hostbased_accepted_algorithms, "rsa") == NULL);
	CHECK(strstr(sc->hostbased_accepted_algorithms, "ecdsa-sha2-nistp256")
	    != NULL);
	CHECK_STR(sc->authentication_methods, "hostbased,publickey");
	servconf_free(sc);

	/* Bad values; IgnoreUserKnownHosts is not allowed in Match. */
	sc = servconf_new();
	CHECK(servconf_parse_line(sc, "IgnoreRhosts maybe", "t", 1) != 0);
	CHECK(servconf_parse_line(sc, "HostbasedAcceptedAlgorithms nope",
	    "t", 2) != 0);
	CHECK(servconf_parse_line(sc, "Match User x", "t", 3) == 0);
	CHECK(servconf_parse_line(sc, "HostbasedAuthentication yes", "t",
	    4) == 0);
	CHECK(servconf_parse_line(sc, "IgnoreRhosts no", "t", 5) == 0);
	CHECK(servconf_parse_line(sc, "IgnoreUserKnownHosts yes", "t",
	    6) != 0);
	servconf_free(sc);
}

int
main(void)
{
	log_init("test_hostbased", LOG_LEVEL_QUIET, LOG_AUTH, 1);
	snprintf(dir, sizeof(dir), "/tmp/moat-hostbased-XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_lines();
	test_scan();
	test_files();
	test_known_hosts();
	test_names();
	test_config();
	rmdir(dir);
	return TEST_DONE();
}
