/*
 * test_sandbox.c: the pre-authentication sandbox (sandbox.c), each case
 * in a forked child whose end the parent judges.
 *
 * - seccomp: the work the child needs still works under the filter (pipe
 *   and socketpair I/O, poll, fcntl, X25519 and SHA-256 against RFC 7748
 *   and FIPS 180 values, big and growing allocations, clocks, getrandom,
 *   exit()); each call outside the allowlist (open, socket, execve, fork,
 *   clone, setuid, ptrace, an executable mapping, dup, a foreign
 *   architecture's entry...) kills its own child with SIGSYS.
 * - rlimit, forced: no new descriptor (EMFILE), no file growth (EFBIG),
 *   no new process (EAGAIN) -- the last only where RLIMIT_NPROC binds,
 *   i.e. not as root: as root it is tested after sandbox_drop().
 * - the kernel refusing seccomp (simulated by an outer filter that fails
 *   seccomp(2) and prctl(PR_SET_SECCOMP)): EINVAL and ENOSYS fall back to
 *   the limits, any other error is returned; the refusal is logged.
 * - the log lines, OpenSSH's words for each step, and a log line written
 *   from inside the sandbox.
 * sandbox_drop and sandbox_check: test_sandbox_drop.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <seccomp.h>

#include "log.h"
#include "sandbox.h"
#include "sandboxtest.h"
#include "testlib.h"

extern char **environ;

/* ---- seccomp: what is allowed ---- */

static void
child_allowed(const void *arg)
{
	enum sandbox_kind kind;
	int pfd[2], sp[2];

	REQUIRE(pipe(pfd) == 0);
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	REQUIRE(sandbox_apply(0, &kind) == 0);
	REQUIRE(kind == SANDBOX_SECCOMP);
	all_work(pfd, sp);
	REQUIRE(close(pfd[0]) == 0 && close(sp[0]) == 0);
	exit(0);		/* through the exit handlers (libcrypto's) */
}

static void
test_seccomp_allows(void)
{
	CHECK(exited_ok(run_child(child_allowed, NULL)));
}

/* ---- seccomp: what kills ---- */

static void
do_open(void)
{
	(void)open("/etc/passwd", O_RDONLY);
}

static void
do_openat(void)
{
	(void)openat(AT_FDCWD, "/etc/passwd", O_RDONLY);
}

static void
do_socket(void)
{
	(void)socket(AF_INET, SOCK_STREAM, 0);
}

static void
do_socketpair(void)
{
	int sp[2];

	(void)socketpair(AF_UNIX, SOCK_STREAM, 0, sp);
}

static void
do_execve(void)
{
	char *argv[] = { (char *)"/bin/true", NULL };

	(void)execve("/bin/true", argv, environ);
}

static void
do_fork(void)
{
	if (fork() == 0)
		_exit(0);
}

static void
do_clone(void)
{
	if (syscall(SYS_clone, (long)SIGCHLD, 0L, 0L, 0L, 0L) == 0)
		_exit(0);
}

static void
do_setuid(void)
{
	(void)syscall(SYS_setuid, 0L);
}

static void
do_setresuid(void)
{
	(void)syscall(SYS_setresuid, 0L, 0L, 0L);
}

static void
do_ptrace(void)
{
	(void)ptrace(PTRACE_TRACEME, 0, NULL, NULL);
}

static void
do_mmap_exec(void)
{
	(void)mmap(NULL, 4096, PROT_READ | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void
do_mmap_fd(void)
{
	(void)mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 0, 0);
}

static void
do_mprotect_exec(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED)
		(void)mprotect(p, 4096, PROT_READ | PROT_EXEC);
}

static void
do_dup(void)
{
	(void)dup(2);
}

static void
do_fcntl_dupfd(void)
{
	(void)fcntl(2, F_DUPFD, 0);
}

static void
do_ioctl(void)
{
	(void)ioctl(0, TIOCSTI, "x");
}

static void
do_setsockopt(void)
{
	int on = 1;

	(void)setsockopt(0, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
}

static void
do_kill(void)
{
	(void)kill(getppid(), 0);
}

static void
do_prctl(void)
{
	(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static void
do_chdir(void)
{
	(void)chdir("/");
}

static void
do_sendto_addr(void)
{
	struct sockaddr_un { sa_family_t f; char p[8]; } a = { AF_UNIX, "" };

	(void)sendto(2, "x", 1, 0, (struct sockaddr *)&a, sizeof(a));
}

#if defined(__x86_64__)
/* getpid through the i386 entry: another architecture's numbering. */
static void
do_i386_entry(void)
{
	long r = 20;	/* i386 __NR_getpid */

	__asm__ volatile("int $0x80" : "+a"(r) : : "memory");
}

/* Run a call with no sandbox: a child's fn(void). */
static void
run_fn(const void *arg)
{
	(void)signal(SIGSEGV, SIG_DFL);	/* not the sanitizer's report */
	(*(void (*const *)(void))arg)();
}
#endif

/* Whether this kernel answers the i386 entry at all (IA-32 emulation). */
static int
has_i386_entry(void)
{
#if defined(__x86_64__)
	void (*fn)(void) = do_i386_entry;
	int st = run_child(run_fn, &fn);

	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
#else
	return 0;
#endif
}

struct forbidden {
	const char *name;
	void (*fn)(void);
};

static const struct forbidden forbidden[] = {
	{ "open", do_open }, { "openat", do_openat },
	{ "socket", do_socket }, { "socketpair", do_socketpair },
	{ "execve", do_execve }, { "fork", do_fork }, { "clone", do_clone },
	{ "setuid(0)", do_setuid }, { "setresuid(0)", do_setresuid },
	{ "ptrace", do_ptrace }, { "mmap PROT_EXEC", do_mmap_exec },
	{ "mmap of a descriptor", do_mmap_fd },
	{ "mprotect PROT_EXEC", do_mprotect_exec }, { "dup", do_dup },
	{ "fcntl F_DUPFD", do_fcntl_dupfd }, { "ioctl TIOCSTI", do_ioctl },
	{ "setsockopt SO_REUSEADDR", do_setsockopt }, { "kill", do_kill },
	{ "prctl", do_prctl }, { "chdir", do_chdir },
	{ "sendto an address", do_sendto_addr },
#if defined(__x86_64__)
	{ "int 0x80 (i386)", do_i386_entry },
#endif
};

static void
child_forbidden(const void *arg)
{
	const struct forbidden *f = arg;
	enum sandbox_kind kind;

	REQUIRE(sandbox_apply(0, &kind) == 0 && kind == SANDBOX_SECCOMP);
	f->fn();
	_exit(3);	/* still alive: the call was let through */
}

static void
test_seccomp_kills(void)
{
	int st, i386 = has_i386_entry();
	size_t i;

	for (i = 0; i < sizeof(forbidden) / sizeof(forbidden[0]); i++) {
		if (strncmp(forbidden[i].name, "int 0x80", 8) == 0 && !i386) {
			printf("SKIP: %s: this kernel has no IA-32 "
			    "emulation\n", forbidden[i].name);
			continue;
		}
		st = run_child(child_forbidden, &forbidden[i]);
		if (!killed_by_sigsys(st))
			fprintf(stderr, "%s: not killed by SIGSYS (status "
			    "0x%x)\n", forbidden[i].name, (unsigned)st);
		CHECK(killed_by_sigsys(st));
	}
}

/* stat and friends fail (EACCES) rather than kill: glibc asks them. */
static void
child_stat(const void *arg)
{
	struct stat st;

	REQUIRE(sandbox_apply(0, NULL) == 0);
	REQUIRE(stat("/etc/passwd", &st) == -1 && errno == EACCES);
	REQUIRE(fstat(1, &st) == -1 && errno == EACCES);
	_exit(0);
}

static void
test_seccomp_stat(void)
{
	CHECK(exited_ok(run_child(child_stat, NULL)));
}

/* ---- the rlimit sandbox ---- */

/* What the limits stop. may_fork: whether RLIMIT_NPROC cannot bind. */
static void
rlimit_checks(int tmpfd)
{
	int fd[2];
	pid_t pid;

	REQUIRE(open("/etc/passwd", O_RDONLY) == -1 && errno == EMFILE);
	REQUIRE(socket(AF_INET, SOCK_STREAM, 0) == -1 && errno == EMFILE);
	REQUIRE(pipe(fd) == -1 && errno == EMFILE);
	REQUIRE(dup(2) == -1 && errno == EMFILE);
	REQUIRE(write(tmpfd, "x", 1) == -1 && errno == EFBIG);
	if (geteuid() != 0) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		REQUIRE(pid == -1 && errno == EAGAIN);
	}
}

static void
child_rlimit(const void *arg)
{
	char path[] = "/tmp/test_sandbox.XXXXXX";
	enum sandbox_kind kind;
	int pfd[2], sp[2], tmpfd;

	REQUIRE(signal(SIGXFSZ, SIG_IGN) != SIG_ERR);
	REQUIRE((tmpfd = mkstemp(path)) != -1);
	(void)unlink(path);
	REQUIRE(pipe(pfd) == 0);
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	REQUIRE(sandbox_apply(SANDBOX_FORCE_RLIMIT, &kind) == 0);
	REQUIRE(kind == SANDBOX_RLIMIT);
	REQUIRE(prctl(PR_GET_SECCOMP) == 0);
	REQUIRE(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1);
	rlimit_checks(tmpfd);
	all_work(pfd, sp);
	_exit(0);
}

static void
test_rlimit(void)
{
	CHECK(exited_ok(run_child(child_rlimit, NULL)));
	if (geteuid() == 0)
		printf("rlimit sandbox: RLIMIT_NPROC does not bind root; fork "
		    "refusal tested after sandbox_drop below\n");
}

/* ---- the kernel refusing seccomp ---- */

/*
 * An outer filter (allow by default) makes seccomp(2) and
 * prctl(PR_SET_SECCOMP) fail with `err`, as a kernel built without
 * seccomp filters does, before the sandbox tries its own.
 */
static void
refuse_seccomp(int err)
{
	struct scmp_arg_cmp set_seccomp = { 0, SCMP_CMP_EQ, PR_SET_SECCOMP, 0 };
	scmp_filter_ctx ctx;

	REQUIRE((ctx = seccomp_init(SCMP_ACT_ALLOW)) != NULL);
	REQUIRE(seccomp_rule_add(ctx, SCMP_ACT_ERRNO((uint32_t)err),
	    SCMP_SYS(seccomp), 0) == 0);
	REQUIRE(seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO((uint32_t)err),
	    SCMP_SYS(prctl), 1, &set_seccomp) == 0);
	REQUIRE(seccomp_load(ctx) == 0);
	seccomp_release(ctx);
}

static void
child_refused(const void *arg)
{
	int err = *(const int *)arg, r, tmpfd, rd, saved;
	char path[] = "/tmp/test_sandbox.XXXXXX", line[128], buf[4096];
	enum sandbox_kind kind;
	size_t have = 0;

	REQUIRE(signal(SIGXFSZ, SIG_IGN) != SIG_ERR);
	REQUIRE((tmpfd = mkstemp(path)) != -1);
	(void)unlink(path);
	snprintf(line, sizeof(line), "debug1: ssh_sandbox_child: "
	    "prctl(PR_SET_SECCOMP): %s\n", strerror(err));
	log_to_pipe(&rd);
	refuse_seccomp(err);
	r = sandbox_apply(0, &kind);
	saved = errno;
	REQUIRE(logged(rd, buf, sizeof(buf), &have, line));
	errno = saved;
	if (err == EINVAL || err == ENOSYS) {
		REQUIRE(r == 0 && kind == SANDBOX_RLIMIT);
		rlimit_checks(tmpfd);
		crypto_work();
	} else {
		REQUIRE(r == ERR_SYSTEM && errno == err);
		REQUIRE(kind == SANDBOX_NONE);
	}
	_exit(0);
}

static void
test_refused(void)
{
	static const int errs[] = { EINVAL, ENOSYS, EPERM, EFAULT };
	size_t i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		CHECK(exited_ok(run_child(child_refused, &errs[i])));
}

static void
test_names(void)
{
	CHECK_STR(sandbox_kind_name(SANDBOX_SECCOMP), "seccomp");
	CHECK_STR(sandbox_kind_name(SANDBOX_RLIMIT), "rlimit");
	CHECK_STR(sandbox_kind_name(SANDBOX_NONE), "none");
}

static void
child_log(const void *arg)
{
	int force = *(const int *)arg, rd;
	char buf[4096];
	size_t have = 0;

	log_to_pipe(&rd);
	REQUIRE(sandbox_apply(force ? SANDBOX_FORCE_RLIMIT : 0, NULL) == 0);
	/* The log still works in the sandbox (stderr: isatty, write). */
	log_debug("after the sandbox");
	if (force)
		REQUIRE(logged(rd, buf, sizeof(buf), &have,
		    "debug3: ssh_sandbox_init: preparing rlimit sandbox\n"));
	else
		REQUIRE(logged(rd, buf, sizeof(buf), &have,
		    "debug3: ssh_sandbox_init: preparing seccomp filter "
		    "sandbox\n") && strstr(buf, "debug3: ssh_sandbox_child: "
		    "attaching seccomp filter program\n") != NULL);
	REQUIRE(strstr(buf, "debug3: ssh_sandbox_child: setting "
	    "PR_SET_NO_NEW_PRIVS\n") != NULL);
	REQUIRE(strstr(buf, "debug1: after the sandbox\n") != NULL);
	_exit(0);
}

static void
test_log(void)
{
	static const int seccomp = 0, rlimit = 1;

	CHECK(exited_ok(run_child(child_log, &seccomp)));
	CHECK(exited_ok(run_child(child_log, &rlimit)));
}

int
main(void)
{
	test_names();
	test_seccomp_allows();
	test_seccomp_kills();
	test_seccomp_stat();
	test_rlimit();
	test_refused();
	test_log();
	return TEST_DONE();
}
