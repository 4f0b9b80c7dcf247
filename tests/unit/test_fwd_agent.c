/*
 * test_fwd_agent.c: the server's agent forwarding (fwd_agent.h). Which
 * rule refuses it: AllowAgentForwarding, DisableForwarding and the
 * authorized_keys options no-agent-forwarding, restrict and
 * restrict,agent-forwarding as parsed from real option strings. The
 * listener: a private directory named ssh- and ten random characters
 * (mode 0700), the socket agent.PID in it, both removed again on free;
 * another directory each time; given to the user when root serves
 * another one; nothing left by a failure; and a directory swapped for
 * a link to another one after the fact does not make free remove a
 * file there. The sweep after a killed process: only its socket, only
 * in directories of the right name, owner and mode.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "authopts.h"
#include "channel.h"
#include "fwd.h"
#include "fwd_agent.h"
#include "mem.h"
#include "servconf.h"
#include "testlib.h"

static void
test_refusal(void)
{
	static const struct {
		const char *opts;	/* key options; NULL: none at all */
		int allow, disable;
		const char *want;	/* NULL: allowed */
	} rows[] = {
		{ NULL, 1, 0, NULL },
		{ NULL, 0, 0, "AllowAgentForwarding" },
		{ NULL, 1, 1, "DisableForwarding" },
		{ "no-pty", 1, 0, NULL },
		{ "no-agent-forwarding", 1, 0, "no-agent-forwarding" },
		{ "no-port-forwarding,no-pty", 1, 0, NULL },
		{ "restrict", 1, 0, "restrict" },
		{ "restrict,agent-forwarding", 1, 0, NULL },
		{ "restrict,agent-forwarding", 0, 0, "AllowAgentForwarding" },
		{ "restrict,agent-forwarding", 1, 1, "DisableForwarding" },
		{ "agent-forwarding", 0, 1, "DisableForwarding" },
	};
	struct servconf sc;
	struct authopts *o;
	char line[128];
	const char *got;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&sc, 0, sizeof(sc));
		sc.allow_agent_forwarding = rows[i].allow;
		sc.disable_forwarding = rows[i].disable;
		o = NULL;
		if (rows[i].opts != NULL) {
			snprintf(line, sizeof(line), "%s ssh-ed25519 AAAA",
			    rows[i].opts);
			CHECK_OK(authopts_parse(line, &o, NULL, NULL));
		}
		got = fwd_agent_refusal(&sc, o);
		if (rows[i].want == NULL)
			CHECK(got == NULL);
		else
			CHECK(got != NULL && strcmp(got, rows[i].want) == 0);
		authopts_free(o);
	}
}

/* Names in dir, other than . and .. */
static int
count_entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* base/ssh-XXXXXXXXXX/agent.PID with ten letters and digits drawn. */
static int
path_shape(const char *base, const char *path)
{
	char want[64];
	size_t n = strlen(base), i;

	if (strncmp(path, base, n) != 0 || strncmp(path + n, "/ssh-", 5) != 0)
		return 0;
	path += n + 5;
	for (i = 0; i < 10; i++)
		if (!isalnum((unsigned char)path[i]))
			return 0;
	snprintf(want, sizeof(want), "/agent.%ld", (long)getpid());
	return strcmp(path + 10, want) == 0 && strstr(path, "XXXX") == NULL;
}

static void
test_listen(const char *base)
{
	struct chan_set *cs = chan_set_new(NULL);
	struct fwd_agent *fa = NULL, *fb = NULL;
	struct passwd *pw = getpwuid(geteuid());
	struct stat st;
	char *dir;
	int fd;

	CHECK(cs != NULL && pw != NULL);
	if (cs == NULL || pw == NULL)
		return;
	CHECK_OK(fwd_agent_listen(cs, pw, base, &fa));
	if (fa == NULL)
		return;
	CHECK(path_shape(base, fwd_agent_path(fa)));
	dir = x_strdup(fwd_agent_path(fa));
	*strrchr(dir, '/') = '\0';
	CHECK(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
	    (st.st_mode & 0777) == 0700 && st.st_uid == geteuid());
	CHECK(lstat(fwd_agent_path(fa), &st) == 0 && S_ISSOCK(st.st_mode) &&
	    (st.st_mode & 0077) == 0);
	/* It listens: a client gets in (the accept is the loop's). */
	CHECK((fd = fwd_unix_connect_fd(fwd_agent_path(fa))) != -1);
	if (fd != -1)
		close(fd);
	/* Another listener (another connection) gets another directory. */
	CHECK_OK(fwd_agent_listen(cs, pw, base, &fb));
	CHECK(fb != NULL && strcmp(fwd_agent_path(fa),
	    fwd_agent_path(fb)) != 0);
	fwd_agent_free(cs, fb);
	CHECK(count_entries(base) == 1);
	fwd_agent_free(cs, fa);
	CHECK(lstat(dir, &st) == -1);
	CHECK(count_entries(base) == 0);
	x_free(dir);
	chan_set_free(cs);
}

static void
test_failure(const char *base)
{
	struct chan_set *cs = chan_set_new(NULL);
	struct passwd *pw = getpwuid(geteuid());
	struct fwd_agent *fa = (struct fwd_agent *)1;
	char *missing = x_asprintf("%s/none", base);

	CHECK(fwd_agent_listen(cs, pw, missing, &fa) != 0);
	CHECK(fa == NULL);
	/* A name too long for a socket: the directory goes again. */
	{
		char longbase[160];

		snprintf(longbase, sizeof(longbase), "%s/%0100d", base, 0);
		CHECK(mkdir(longbase, 0700) == 0);
		fa = (struct fwd_agent *)1;
		CHECK(fwd_agent_listen(cs, pw, longbase, &fa) != 0);
		CHECK(fa == NULL);
		CHECK(count_entries(longbase) == 0);
		CHECK(rmdir(longbase) == 0);
	}
	CHECK(count_entries(base) == 0);
	x_free(missing);
	chan_set_free(cs);
}

/*
 * The directory renamed and a link put in its place, to a directory
 * holding a file of the socket's name: free removes the real socket
 * (through the directory it holds open) and neither the other file nor
 * the link.
 */
static void
test_swapped(const char *base)
{
	struct chan_set *cs = chan_set_new(NULL);
	struct passwd *pw = getpwuid(geteuid());
	struct fwd_agent *fa = NULL;
	char *dir, *moved, *other, *victim, *sock;
	struct stat st;
	int fd;

	CHECK_OK(fwd_agent_listen(cs, pw, base, &fa));
	if (fa == NULL)
		return;
	dir = x_strdup(fwd_agent_path(fa));
	*strrchr(dir, '/') = '\0';
	moved = x_asprintf("%s/moved", base);
	other = x_asprintf("%s/other", base);
	victim = x_asprintf("%s%s", other, strrchr(fwd_agent_path(fa), '/'));
	sock = x_asprintf("%s%s", moved, strrchr(fwd_agent_path(fa), '/'));
	CHECK(mkdir(other, 0700) == 0);
	CHECK((fd = open(victim, O_WRONLY | O_CREAT, 0600)) != -1);
	if (fd != -1)
		close(fd);
	CHECK(rename(dir, moved) == 0);
	CHECK(symlink(other, dir) == 0);
	fwd_agent_free(cs, fa);
	CHECK(stat(victim, &st) == 0);
	CHECK(lstat(dir, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(lstat(sock, &st) == -1);
	(void)unlink(victim);
	(void)rmdir(other);
	(void)unlink(dir);
	(void)rmdir(moved);
	CHECK(count_entries(base) == 0);
	x_free(dir);
	x_free(moved);
	x_free(other);
	x_free(victim);
	x_free(sock);
	chan_set_free(cs);
}

/* Root serving another user: the directory and socket are the user's. */
static void
test_given_to_user(const char *base)
{
	struct chan_set *cs;
	struct passwd *pw;
	struct fwd_agent *fa = NULL;
	struct stat st;
	char *dir;

	if (geteuid() != 0 || (pw = getpwnam("nobody")) == NULL) {
		printf("skip: not root or no user nobody: ownership unchecked\n");
		return;
	}
	cs = chan_set_new(NULL);
	/* The user must reach the base to be given anything below it. */
	CHECK(chmod(base, 0711) == 0);
	CHECK_OK(fwd_agent_listen(cs, pw, base, &fa));
	if (fa != NULL) {
		dir = x_strdup(fwd_agent_path(fa));
		*strrchr(dir, '/') = '\0';
		CHECK(lstat(dir, &st) == 0 && st.st_uid == pw->pw_uid &&
		    (st.st_mode & 0777) == 0700);
		CHECK(lstat(fwd_agent_path(fa), &st) == 0 &&
		    st.st_uid == pw->pw_uid);
		fwd_agent_free(cs, fa);
		CHECK(lstat(dir, &st) == -1);
		x_free(dir);
	}
	CHECK(chmod(base, 0700) == 0);
	chan_set_free(cs);
}

/* A socket bound at dir/name; 0 on success. */
static int
bind_at(const char *dir, const char *name)
{
	char *path = x_asprintf("%s/%s", dir, name);
	int fd = fwd_unix_listen_fd(path, 0177);

	x_free(path);
	if (fd == -1)
		return -1;
	close(fd);
	return 0;
}

/*
 * What a killed process left: its socket and directory go; another
 * process's socket, a directory that is not 0700, a name that is not
 * ssh- and ten letters or digits, and a link are left alone; a
 * directory holding more keeps the rest.
 */
static void
test_sweep(const char *base)
{
	char *dead = x_asprintf("%s/ssh-Ab3dEf6hIj", base);
	char *alive = x_asprintf("%s/ssh-0123456789", base);
	char *open_mode = x_asprintf("%s/ssh-abcdefghij", base);
	char *odd = x_asprintf("%s/ssh-abc", base);
	char *full = x_asprintf("%s/ssh-ZZZZZZZZZZ", base);
	char *link = x_asprintf("%s/ssh-LLLLLLLLLL", base);
	char *kept = x_asprintf("%s/kept", full);
	struct stat st;
	int fd;

	CHECK(mkdir(dead, 0700) == 0 && bind_at(dead, "agent.4242") == 0);
	CHECK(mkdir(alive, 0700) == 0 && bind_at(alive, "agent.4243") == 0);
	CHECK(mkdir(open_mode, 0700) == 0 && chmod(open_mode, 0755) == 0 &&
	    bind_at(open_mode, "agent.4242") == 0);
	CHECK(mkdir(odd, 0700) == 0 && bind_at(odd, "agent.4242") == 0);
	CHECK(mkdir(full, 0700) == 0 && bind_at(full, "agent.4242") == 0);
	CHECK((fd = open(kept, O_WRONLY | O_CREAT, 0600)) != -1);
	if (fd != -1)
		close(fd);
	CHECK(symlink(alive, link) == 0);

	CHECK(fwd_agent_sweep(base, 4242) == 2);
	CHECK(lstat(dead, &st) == -1);
	CHECK(count_entries(alive) == 1);
	CHECK(count_entries(open_mode) == 1);
	CHECK(count_entries(odd) == 1);
	CHECK(count_entries(full) == 1 && stat(kept, &st) == 0);
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	/* Nothing of that process left: nothing more to do. */
	CHECK(fwd_agent_sweep(base, 4242) == 0);
	CHECK(fwd_agent_sweep(base, 4243) == 1);
	CHECK(lstat(alive, &st) == -1);

	(void)unlink(link);
	(void)unlink(kept);
	(void)rmdir(full);
	CHECK(chmod(open_mode, 0700) == 0);
	CHECK(fwd_agent_sweep(base, 4242) == 1);
	CHECK(lstat(open_mode, &st) == -1);
	{
		char *s = x_asprintf("%s/agent.4242", odd);

		(void)unlink(s);
		x_free(s);
	}
	(void)rmdir(odd);
	CHECK(count_entries(base) == 0);
	x_free(dead);
	x_free(alive);
	x_free(open_mode);
	x_free(odd);
	x_free(full);
	x_free(link);
	x_free(kept);
}

int
main(void)
{
	char base[] = "/tmp/moat-fwdagent.XXXXXX";

	test_refusal();
	if (mkdtemp(base) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_listen(base);
	test_failure(base);
	test_swapped(base);
	test_given_to_user(base);
	test_sweep(base);
	CHECK(rmdir(base) == 0);
	return TEST_DONE();
}
