/*
 * sandbox.c: confinement of sshd's pre-authentication child (see sandbox.h).
 *
 * sandbox_drop() opens the privilege-separation directory once, checks
 * the inode behind that descriptor (root's, not group- or world-writable)
 * and chroots through it (fchdir, chroot "."), so the directory checked is
 * the one entered. Then it empties the supplementary groups, sets the
 * real, effective and saved gid and uid to the account's, proves that the
 * old ids cannot be taken back, and sets no_new_privs.
 *
 * sandbox_apply() always sets the resource limits first (file size 0, no
 * descriptor numbers left, no processes), then, unless told not to, loads
 * a seccomp-bpf filter built with libseccomp from the table below: one row
 * per allowed system call, with argument checks where a call has safe and
 * unsafe uses (mmap and mprotect without PROT_EXEC, fcntl and ioctl only
 * for flag reads and sets and isatty(), setsockopt only for the
 * transport's two options). Anything else kills the whole process with
 * SIGSYS, as does a call made through another architecture's entry
 * (i386's int 0x80, x32). Whether the kernel takes filters is asked
 * first, with an empty program (EFAULT: yes); if it refuses them (EINVAL,
 * or ENOSYS: built without seccomp) the limits alone stay in force and
 * the caller is told so.
 * Any other failure is an error, never a silent fallback.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pwd.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/seccomp.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <seccomp.h>

#ifdef MOAT_SANITIZE_BUILD
#include <sanitizer/lsan_interface.h>
#endif

#include "err.h"
#include "log.h"
#include "sandbox.h"

/* Log a failed system call at the FATAL level, keeping its errno. */
#define FAIL_ERRNO(...) do { \
	int fe_errno_ = errno; \
	log_fatal(__VA_ARGS__); \
	errno = fe_errno_; \
} while (0)

/*
 * Under the sanitizers, run the leak check that would otherwise run at
 * exit, while it can: it needs /proc (gone after the chroot) and ptrace
 * (refused by the filter). Later calls, and the one at exit, do nothing.
 */
static void
leak_check_now(void)
{
#ifdef MOAT_SANITIZE_BUILD
	__lsan_do_leak_check();
#endif
}

/* ---- the account and the directory ---- */

static int
lookup_user(const char *user, uid_t *uid, gid_t *gid)
{
	struct passwd *pw;

	if ((pw = getpwnam(user)) == NULL) {
		endpwent();
		log_fatal("Privilege separation user %s does not exist", user);
		return ERR_NOT_FOUND;
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	endpwent();
	if (*uid == 0) {
		log_fatal("Privilege separation user %s must not be root",
		    user);
		return ERR_CONFIG;
	}
	return 0;
}

/*
 * Open the directory, making it (0755, whatever the umask) when it is
 * missing, and check the inode the descriptor holds. *fdp: the descriptor.
 */
static int
open_dir(const char *dir, int *fdp)
{
	struct stat st;
	int fd, made = 0;

	*fdp = -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1 && errno == ENOENT) {
		if (mkdir(dir, 0755) == -1) {
			log_fatal("Missing privilege separation directory: %s",
			    dir);
			return ERR_NOT_FOUND;
		}
		made = 1;
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd == -1) {
		FAIL_ERRNO("chroot(\"%s\"): %s", dir, strerror(errno));
		return ERR_SYSTEM;
	}
	if ((made && fchmod(fd, 0755) == -1) || fstat(fd, &st) == -1) {
		FAIL_ERRNO("chroot(\"%s\"): %s", dir, strerror(errno));
		close(fd);
		return ERR_SYSTEM;
	}
	if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		log_fatal("%s must be owned by root and not group or "
		    "world-writable.", dir);
		close(fd);
		return ERR_PERMISSION_DENIED;
	}
	*fdp = fd;
	return 0;
}

int
sandbox_check(const char *user, const char *dir)
{
	uid_t uid;
	gid_t gid;
	int r, fd;

	if ((r = lookup_user(user ? user : MOAT_PRIVSEP_USER, &uid,
	    &gid)) != 0)
		return r;
	if ((r = open_dir(dir ? dir : MOAT_PRIVSEP_PATH, &fd)) != 0)
		return r;
	close(fd);
	return 0;
}

/* Enter the checked directory as the new root, and stand at its top. */
static int
enter_root(int fd, const char *dir)
{
	if (fchdir(fd) == -1 || chroot(".") == -1) {
		FAIL_ERRNO("chroot(\"%s\"): %s", dir, strerror(errno));
		return ERR_SYSTEM;
	}
	if (chdir("/") == -1) {
		FAIL_ERRNO("chdir(\"/\"): %s", strerror(errno));
		return ERR_SYSTEM;
	}
	return 0;
}

/* Become uid/gid with no supplementary groups, for good. */
static int
set_ids(uid_t uid, gid_t gid)
{
	gid_t old_gid = getgid();

	log_debug3("privsep user:group %u:%u", (unsigned)uid, (unsigned)gid);
	if (setgroups(0, NULL) == -1) {
		FAIL_ERRNO("setgroups: %.100s", strerror(errno));
		return ERR_SYSTEM;
	}
	log_debug("permanently_set_uid: %u/%u", (unsigned)uid, (unsigned)gid);
	if (setresgid(gid, gid, gid) == -1) {
		FAIL_ERRNO("setresgid %u: %.100s", (unsigned)gid,
		    strerror(errno));
		return ERR_SYSTEM;
	}
	if (setresuid(uid, uid, uid) == -1) {
		FAIL_ERRNO("setresuid %u: %.100s", (unsigned)uid,
		    strerror(errno));
		return ERR_SYSTEM;
	}
	/* Each of these must fail now; one that works undoes the drop. */
	if (old_gid != gid && (setgid(old_gid) != -1 ||
	    setegid(old_gid) != -1)) {
		log_fatal("permanently_set_uid: was able to restore old "
		    "[e]gid");
		return ERR_PERMISSION_DENIED;
	}
	if (setuid(0) != -1 || seteuid(0) != -1) {
		log_fatal("permanently_set_uid: was able to restore old "
		    "[e]uid");
		return ERR_PERMISSION_DENIED;
	}
	if (getgroups(0, NULL) != 0) {
		log_fatal("setgroups: supplementary groups remain");
		return ERR_PERMISSION_DENIED;
	}
	return 0;
}

int
sandbox_drop(const char *user, const char *dir)
{
	uid_t uid;
	gid_t gid;
	int r, fd;

	if (user == NULL)
		user = MOAT_PRIVSEP_USER;
	if (dir == NULL)
		dir = MOAT_PRIVSEP_PATH;
	if (geteuid() != 0)
		return ERR_PERMISSION_DENIED;	/* nothing to drop from */
	if ((r = lookup_user(user, &uid, &gid)) != 0)
		return r;
	if ((r = open_dir(dir, &fd)) != 0)
		return r;
	leak_check_now();
	r = enter_root(fd, dir);
	close(fd);
	if (r != 0 || (r = set_ids(uid, gid)) != 0)
		return r;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
		FAIL_ERRNO("prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
		return ERR_SYSTEM;
	}
	return 0;
}

/* ---- resource limits ---- */

/* The lowest descriptor number not open: the kernel's next choice. */
static rlim_t
lowest_free_fd(void)
{
	struct rlimit rl;
	rlim_t fd, max = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < INT_MAX)
		max = rl.rlim_cur;
	for (fd = 0; fd < max; fd++)
		if (fcntl((int)fd, F_GETFD) == -1 && errno == EBADF)
			break;
	return fd;
}

static int
set_limits(void)
{
	struct rlimit rl = { 0, 0 };

	if (setrlimit(RLIMIT_FSIZE, &rl) == -1) {
		FAIL_ERRNO("ssh_sandbox_child: setrlimit(RLIMIT_FSIZE, "
		    "{ 0, 0 }): %s", strerror(errno));
		return ERR_SYSTEM;
	}
	rl.rlim_cur = rl.rlim_max = lowest_free_fd();
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
		FAIL_ERRNO("ssh_sandbox_child: setrlimit(RLIMIT_NOFILE, "
		    "{ %lu, %lu }): %s", (unsigned long)rl.rlim_cur,
		    (unsigned long)rl.rlim_max, strerror(errno));
		return ERR_SYSTEM;
	}
	rl.rlim_cur = rl.rlim_max = 0;
	if (setrlimit(RLIMIT_NPROC, &rl) == -1) {
		FAIL_ERRNO("ssh_sandbox_child: setrlimit(RLIMIT_NPROC, "
		    "{ 0, 0 }): %s", strerror(errno));
		return ERR_SYSTEM;
	}
	return 0;
}

/* ---- the seccomp filter ---- */

#define RULE_ALLOW	0	/* or an errno to fail with, not killing */

struct rule {
	int nr;			/* libseccomp's number; < 0: not on this arch */
	int errnum;		/* RULE_ALLOW, or refuse with this errno */
	unsigned int ncmp;	/* argument checks, all of which must hold */
	struct scmp_arg_cmp cmp[2];
};

#define ALLOW(name) { SCMP_SYS(name), RULE_ALLOW, 0, { { 0 } } }
/* Allowed when argument a equals v. */
#define ALLOW_EQ(name, a, v) { SCMP_SYS(name), RULE_ALLOW, 1, \
	{ { (a), SCMP_CMP_EQ, (scmp_datum_t)(v), 0 } } }
/* Allowed when argument a has no bits outside `ok`. */
#define ALLOW_ONLY(name, a, ok) { SCMP_SYS(name), RULE_ALLOW, 1, \
	{ { (a), SCMP_CMP_MASKED_EQ, ~(scmp_datum_t)(ok), 0 } } }
#define REFUSE(name, e) { SCMP_SYS(name), (e), 0, { { 0 } } }

#define PROT_RW (PROT_READ | PROT_WRITE)

static const struct rule rules[] = {
	/* Memory: malloc's brk and anonymous mappings, never executable. */
	ALLOW(brk),
	{ SCMP_SYS(mmap), RULE_ALLOW, 2, {
		{ 2, SCMP_CMP_MASKED_EQ, ~(scmp_datum_t)PROT_RW, 0 },
		{ 3, SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS, MAP_ANONYMOUS } } },
	ALLOW_ONLY(mprotect, 2, PROT_RW),
	ALLOW(mremap),
	ALLOW(munmap),
	ALLOW(madvise),
	/* Clocks and sleeping (the vDSO usually answers the clocks). */
	ALLOW(clock_gettime),
	ALLOW(clock_getres),
	ALLOW(gettimeofday),
	ALLOW(time),
	ALLOW(nanosleep),
	ALLOW(clock_nanosleep),
	/* Locks, signal masks, a handler's return, an interrupted sleep. */
	ALLOW(futex),
	ALLOW(rt_sigprocmask),
	ALLOW(rt_sigreturn),
	ALLOW(restart_syscall),
	/* Who am I (read-only). */
	ALLOW(getpid),
	ALLOW(getuid),
	ALLOW(geteuid),
	ALLOW(getgid),
	ALLOW(getegid),
	/* libcrypto's entropy. */
	ALLOW(getrandom),
	/* I/O on descriptors already open: the client, the monitor, logs. */
	ALLOW(read),
	ALLOW(readv),
	ALLOW(write),
	ALLOW(writev),
	ALLOW_EQ(sendto, 4, 0),		/* send(): no address */
	ALLOW(recvfrom),
	ALLOW(sendmsg),
	ALLOW(recvmsg),
	ALLOW(shutdown),
	ALLOW(close),
	ALLOW(poll),
	ALLOW(ppoll),
	ALLOW(select),
	ALLOW(pselect6),
	ALLOW(epoll_wait),
	ALLOW(epoll_pwait),
	ALLOW(epoll_ctl),
	ALLOW_EQ(fcntl, 1, F_GETFL),
	ALLOW_EQ(fcntl, 1, F_SETFL),
	ALLOW_EQ(fcntl, 1, F_GETFD),
	ALLOW_EQ(fcntl, 1, F_SETFD),
	ALLOW_EQ(ioctl, 1, FIONREAD),
	ALLOW_EQ(ioctl, 1, FIONBIO),
	ALLOW_EQ(ioctl, 1, TCGETS),	/* isatty(): the log asks it */
	{ SCMP_SYS(setsockopt), RULE_ALLOW, 2, {
		{ 1, SCMP_CMP_EQ, SOL_SOCKET, 0 },
		{ 2, SCMP_CMP_EQ, SO_RCVLOWAT, 0 } } },
	{ SCMP_SYS(setsockopt), RULE_ALLOW, 2, {
		{ 1, SCMP_CMP_EQ, IPPROTO_TCP, 0 },
		{ 2, SCMP_CMP_EQ, TCP_QUICKACK, 0 } } },
	/* The end. */
	ALLOW(exit),
	ALLOW(exit_group),
	/*
	 * Refused without killing: glibc asks fstat() on its own (stdio's
	 * first use of a stream); the answer would be nothing worth having
	 * inside the empty root, so it fails with EACCES.
	 */
	REFUSE(fstat, EACCES),
	REFUSE(newfstatat, EACCES),
	REFUSE(stat, EACCES),
	REFUSE(lstat, EACCES),
	REFUSE(statx, EACCES),
#ifdef MOAT_SANITIZE_BUILD
	/*
	 * Sanitizer builds only: the ASan runtime looks at its alternate
	 * signal stack on the way out (exit() and _exit() alike). Its error
	 * reports need /proc and a symbolizer, which stay refused: a report
	 * from a sandboxed process is cut short by SIGSYS.
	 */
	ALLOW(sigaltstack),
#endif
};

/* The filter's default action: kill the process, or the thread on old
 * kernels (the pre-auth child has one thread). */
static scmp_filter_ctx
filter_new(uint32_t *kill)
{
	scmp_filter_ctx ctx = NULL;

	if (seccomp_api_get() >= 3) {
		*kill = SCMP_ACT_KILL_PROCESS;
		ctx = seccomp_init(*kill);
	}
	if (ctx == NULL) {
		*kill = SCMP_ACT_KILL;
		ctx = seccomp_init(*kill);
	}
	return ctx;
}

/* Build the filter. Returns it, or NULL (a bug or no memory). */
static scmp_filter_ctx
filter_build(void)
{
	scmp_filter_ctx ctx;
	uint32_t kill;
	size_t i;
	int r = 0;

	if ((ctx = filter_new(&kill)) == NULL)
		return NULL;
	/* We set no_new_privs ourselves; errors come back as errno. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, kill) != 0 ||
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0) != 0 ||
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) != 0 ||
	    seccomp_attr_set(ctx, SCMP_FLTATR_API_SYSRAWRC, 1) != 0)
		r = -1;
	for (i = 0; r == 0 && i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *ru = &rules[i];

		if (ru->nr < 0)
			continue;
		r = seccomp_rule_add_array(ctx, ru->errnum == RULE_ALLOW ?
		    SCMP_ACT_ALLOW : SCMP_ACT_ERRNO((uint32_t)ru->errnum),
		    ru->nr, ru->ncmp, ru->cmp);
		if (r != 0)
			log_error("sandbox: seccomp rule %zu (syscall %d): %s",
			    i, ru->nr, strerror(-r));
	}
	if (r != 0) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

/*
 * Whether the kernel takes seccomp filters: 0 when it does, else the
 * errno it answers. A kernel that has them refuses an empty program
 * with EFAULT; one without says EINVAL (ENOSYS where a container's own
 * policy stands in for the kernel).
 */
static int
filter_probe(void)
{
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL, 0, 0) == -1 &&
	    errno != EFAULT)
		return errno;
	return 0;
}

/*
 * Load the filter: 0 when in force, 1 when the kernel refuses seccomp
 * filters, else an error.
 */
static int
filter_load(void)
{
	scmp_filter_ctx ctx;
	int r;

	if ((r = filter_probe()) == 0) {
		if ((ctx = filter_build()) == NULL)
			return ERR_INTERNAL;
		log_debug3("ssh_sandbox_child: attaching seccomp filter "
		    "program");
		r = -seccomp_load(ctx);
		seccomp_release(ctx);
		if (r == 0)
			return 0;
	}
	log_debug("ssh_sandbox_child: prctl(PR_SET_SECCOMP): %s",
	    strerror(r));
	errno = r;
	return r == EINVAL || r == ENOSYS ? 1 : ERR_SYSTEM;
}

/*
 * What must happen before the filter: libcrypto's configuration read and
 * its generator seeded, so neither wants a file later.
 */
static void
prepare(void)
{
	unsigned char b;

	(void)OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL);
	(void)RAND_bytes(&b, 1);
	leak_check_now();
}

int
sandbox_apply(int flags, enum sandbox_kind *kind)
{
	int r;

	if (kind != NULL)
		*kind = SANDBOX_NONE;
	if ((flags & SANDBOX_FORCE_RLIMIT) != 0)
		log_debug3("ssh_sandbox_init: preparing rlimit sandbox");
	else
		log_debug3("ssh_sandbox_init: preparing seccomp filter "
		    "sandbox");
	prepare();
	if ((r = set_limits()) != 0)
		return r;
	log_debug3("ssh_sandbox_child: setting PR_SET_NO_NEW_PRIVS");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
		FAIL_ERRNO("ssh_sandbox_child: prctl(PR_SET_NO_NEW_PRIVS): %s",
		    strerror(errno));
		return ERR_SYSTEM;
	}
	if ((flags & SANDBOX_FORCE_RLIMIT) != 0)
		r = 1;
	else if ((r = filter_load()) < 0)
		return r;
	if (kind != NULL)
		*kind = r == 0 ? SANDBOX_SECCOMP : SANDBOX_RLIMIT;
	return 0;
}

const char *
sandbox_kind_name(enum sandbox_kind kind)
{
	switch (kind) {
	case SANDBOX_SECCOMP:
		return "seccomp";
	case SANDBOX_RLIMIT:
		return "rlimit";
	default:
		return "none";
	}
}
