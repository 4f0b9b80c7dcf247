/*
 * test_sandbox_drop.c: sandbox_check() and sandbox_drop() (sandbox.c), as
 * root (not root: the test says so and exits 77, skipped).
 *
 * - sandbox_check: the directory made 0755 (root's) when missing, whatever
 *   the umask; refused, with OpenSSH's log line, for an unknown account, a
 *   missing parent, a group- or world-writable directory, one not root's,
 *   a file; the account may not be root. sandbox_drop refuses the same and
 *   leaves the process as it was.
 * - sandbox_drop, in a child: real, effective and saved uid and gid are
 *   the account's, no supplementary groups, "/" is the directory (its
 *   inode from inside, /proc/PID/root from outside), /etc/passwd is not
 *   there, uid 0, gid 0 and groups cannot be taken back, no_new_privs.
 * - dropped and filtered: the pre-auth child's work goes on, open() kills;
 *   dropped with the limits alone: fork and clone fail with EAGAIN, as
 *   RLIMIT_NPROC binds the account (it never binds root).
 * - a process no longer root: sandbox_drop refuses (nothing to drop from).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "sandbox.h"
#include "sandboxtest.h"
#include "testlib.h"

/* ---- sandbox_check and sandbox_drop (root) ---- */

static char top[] = "/tmp/test_sandbox.XXXXXX";
static uid_t pr_uid;
static gid_t pr_gid;

/* dir under top, in buf. */
static const char *
sub(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", top, name);
	return buf;
}

/* sandbox_check(user, dir) returns want and logs `line` (if not NULL). */
static void
child_check(const void *arg)
{
	const char *const *a = arg;
	int want = atoi(a[2]), rd;
	char buf[4096];
	size_t have = 0;

	log_to_pipe(&rd);
	REQUIRE(sandbox_check(a[0], a[1]) == want);
	REQUIRE(sandbox_drop(a[0], a[1]) == want);
	if (a[3] != NULL)
		REQUIRE(logged(rd, buf, sizeof(buf), &have, a[3]));
	REQUIRE(getuid() == 0 && geteuid() == 0);	/* nothing dropped */
	_exit(0);
}

/* sandbox_check and sandbox_drop refuse user/dir with `want`, logging
 * the line fmt... makes. */
static void check_refused(const char *user, const char *dir, int want,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
check_refused(const char *user, const char *dir, int want,
    const char *fmt, ...)
{
	char code[16], line[512];
	const char *a[4] = { user, dir, code, line };
	va_list ap;

	snprintf(code, sizeof(code), "%d", want);
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	CHECK(exited_ok(run_child(child_check, a)));
}

static void
test_check(void)
{
	char d[PATH_MAX], f[PATH_MAX];
	struct stat st;
	mode_t old;
	int fd;

	/* Made when missing: root's, 0755 whatever the umask. */
	old = umask(077);
	CHECK_OK(sandbox_check(MOAT_PRIVSEP_USER, sub(d, sizeof(d), "made")));
	umask(old);
	CHECK(stat(d, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 &&
	    (st.st_mode & 07777) == 0755);
	CHECK_OK(sandbox_check(MOAT_PRIVSEP_USER, d));
	/* Refusals, and OpenSSH's words for them. */
	check_refused("moat-no-such-user", d, ERR_NOT_FOUND,
	    "Privilege separation user %s does not exist\n",
	    "moat-no-such-user");
	check_refused(MOAT_PRIVSEP_USER, sub(d, sizeof(d), "none/sub"),
	    ERR_NOT_FOUND, "Missing privilege separation directory: %s\n", d);
	CHECK(mkdir(sub(d, sizeof(d), "gw"), 0755) == 0 &&
	    chmod(d, 0775) == 0);
	check_refused(MOAT_PRIVSEP_USER, d, ERR_PERMISSION_DENIED, "%s must "
	    "be owned by root and not group or world-writable.\n", d);
	CHECK(mkdir(sub(d, sizeof(d), "ow"), 0755) == 0 &&
	    chmod(d, 0757) == 0);
	check_refused(MOAT_PRIVSEP_USER, d, ERR_PERMISSION_DENIED, "%s must "
	    "be owned by root and not group or world-writable.\n", d);
	CHECK(mkdir(sub(d, sizeof(d), "notroot"), 0755) == 0 &&
	    chown(d, pr_uid, pr_gid) == 0);
	check_refused(MOAT_PRIVSEP_USER, d, ERR_PERMISSION_DENIED, "%s must "
	    "be owned by root and not group or world-writable.\n", d);
	fd = open(sub(f, sizeof(f), "file"), O_WRONLY | O_CREAT, 0644);
	CHECK(fd != -1);
	if (fd != -1)
		close(fd);
	check_refused(MOAT_PRIVSEP_USER, f, ERR_SYSTEM,
	    "chroot(\"%s\"): Not a directory\n", f);
	check_refused("root", sub(d, sizeof(d), "made"), ERR_CONFIG,
	    "Privilege separation user %s must not be root\n", "root");
}

struct drop_case {
	const char *dir;
	ino_t ino;		/* the directory's inode */
	int report;		/* child -> parent */
	int go;			/* parent -> child */
};

/* After the drop: who the child is, where, and what it cannot undo. */
static void
child_drop(const void *arg)
{
	const struct drop_case *dc = arg;
	uid_t r, e, s;
	gid_t rg, eg, sg, zero = 0, extra[2] = { 4, 24 };
	char cwd[PATH_MAX], c;
	struct stat st;

	/* Supplementary groups to lose (root may start with none). */
	REQUIRE(setgroups(2, extra) == 0 && getgroups(0, NULL) == 2);
	REQUIRE(sandbox_drop(NULL, dc->dir) == 0);
	REQUIRE(getresuid(&r, &e, &s) == 0 && r == pr_uid && e == pr_uid &&
	    s == pr_uid);
	REQUIRE(getresgid(&rg, &eg, &sg) == 0 && rg == pr_gid &&
	    eg == pr_gid && sg == pr_gid);
	REQUIRE(getgroups(0, NULL) == 0);
	REQUIRE(getcwd(cwd, sizeof(cwd)) != NULL && strcmp(cwd, "/") == 0);
	REQUIRE(stat("/", &st) == 0 && st.st_ino == dc->ino);
	REQUIRE(stat("/etc/passwd", &st) == -1 && errno == ENOENT);
	REQUIRE(stat("/tmp", &st) == -1 && errno == ENOENT);
	REQUIRE(setuid(0) == -1 && errno == EPERM);
	REQUIRE(seteuid(0) == -1 && setgid(0) == -1 && setegid(0) == -1);
	REQUIRE(setgroups(1, &zero) == -1 && errno == EPERM);
	REQUIRE(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1);
	/* Let the parent look at /proc/PID/root, then go. */
	REQUIRE(write(dc->report, "r", 1) == 1);
	REQUIRE(read(dc->go, &c, 1) == 1);
	_exit(0);
}

static void
test_drop(const char *dir)
{
	struct drop_case dc;
	char link[64], got[PATH_MAX], c;
	int rp[2], gp[2], st = -1;
	struct stat sb;
	ssize_t n = -1;
	pid_t pid;

	if (stat(dir, &sb) != 0 || pipe(rp) != 0 || pipe(gp) != 0) {
		CHECK(0);
		return;
	}
	dc.dir = dir;
	dc.ino = sb.st_ino;
	dc.report = rp[1];
	dc.go = gp[0];
	fflush(stdout);
	if ((pid = fork()) == 0) {
		child_drop(&dc);
		_exit(0);
	}
	close(rp[1]);
	close(gp[0]);
	if (pid > 0 && read(rp[0], &c, 1) == 1) {
		snprintf(link, sizeof(link), "/proc/%ld/root", (long)pid);
		n = readlink(link, got, sizeof(got) - 1);
	}
	CHECK(n > 0);
	got[n > 0 ? n : 0] = '\0';
	CHECK_STR(got, dir);
	(void)!write(gp[1], "g", 1);
	close(gp[1]);
	close(rp[0]);
	if (pid > 0)
		(void)waitpid(pid, &st, 0);
	CHECK(exited_ok(st));
}

/* Dropped, then the filter: the work goes on, then open() kills. */
static void
child_drop_seccomp(const void *arg)
{
	const int *fds = arg;	/* fds[1]: the report pipe's write end */
	enum sandbox_kind kind;
	int pfd[2], sp[2];

	REQUIRE(pipe(pfd) == 0);
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	REQUIRE(sandbox_drop(NULL, top) == 0);
	REQUIRE(sandbox_apply(0, &kind) == 0 && kind == SANDBOX_SECCOMP);
	all_work(pfd, sp);
	REQUIRE(write(fds[1], "ok", 2) == 2);
	(void)open("/etc/passwd", O_RDONLY);
	_exit(3);
}

/* Dropped, then the limits alone: now RLIMIT_NPROC binds. */
static void
child_drop_rlimit(const void *arg)
{
	enum sandbox_kind kind;
	pid_t pid;

	REQUIRE(sandbox_drop(NULL, top) == 0);
	REQUIRE(sandbox_apply(SANDBOX_FORCE_RLIMIT, &kind) == 0 &&
	    kind == SANDBOX_RLIMIT);
	pid = fork();
	if (pid == 0)
		_exit(0);
	REQUIRE(pid == -1 && errno == EAGAIN);
	REQUIRE(syscall(SYS_clone, (long)SIGCHLD, 0L, 0L, 0L, 0L) == -1 &&
	    errno == EAGAIN);
	_exit(0);
}

/* Not root: there is nothing to drop from. */
static void
child_not_root(const void *arg)
{
	REQUIRE(setresgid(pr_gid, pr_gid, pr_gid) == 0 &&
	    setresuid(pr_uid, pr_uid, pr_uid) == 0);
	REQUIRE(sandbox_drop(NULL, top) == ERR_PERMISSION_DENIED);
	REQUIRE(getuid() == pr_uid);
	_exit(0);
}

static void
test_drop_all(void)
{
	struct passwd *pw;
	char d[PATH_MAX], buf[4];
	int rp[2] = { -1, -1 }, st;

	(void)signal(SIGPIPE, SIG_IGN);	/* a child that died early */
	if ((pw = getpwnam(MOAT_PRIVSEP_USER)) == NULL) {
		fprintf(stderr, "no account %s: scripts/deps.sh makes it\n",
		    MOAT_PRIVSEP_USER);
		CHECK(0);
		return;
	}
	pr_uid = pw->pw_uid;
	pr_gid = pw->pw_gid;
	if (mkdtemp(top) == NULL || chmod(top, 0755) != 0) {
		CHECK(0);
		return;
	}
	test_check();
	test_drop(top);
	test_drop(sub(d, sizeof(d), "made"));
	CHECK(pipe(rp) == 0);
	st = run_child(child_drop_seccomp, rp);
	close(rp[1]);
	CHECK(read(rp[0], buf, sizeof(buf)) == 2 && memcmp(buf, "ok", 2) == 0);
	close(rp[0]);
	CHECK(killed_by_sigsys(st));
	CHECK(exited_ok(run_child(child_drop_rlimit, NULL)));
	CHECK(exited_ok(run_child(child_not_root, NULL)));
	/* Clean up: everything made under top. */
	(void)rmdir(sub(d, sizeof(d), "made"));
	(void)rmdir(sub(d, sizeof(d), "gw"));
	(void)rmdir(sub(d, sizeof(d), "ow"));
	(void)rmdir(sub(d, sizeof(d), "notroot"));
	(void)unlink(sub(d, sizeof(d), "file"));
	CHECK(rmdir(top) == 0);
}

int
main(void)
{
	if (geteuid() != 0) {
		printf("SKIP: sandbox_drop and sandbox_check need root\n");
		return 77;
	}
	test_drop_all();
	return TEST_DONE();
}
