/*
 * sandbox.h: confinement of sshd's unprivileged pre-authentication child.
 *
 * Two steps, in this order, in the freshly forked child:
 *
 *   sandbox_drop()   (as root) chroot into the empty privilege-separation
 *                    directory, become the privilege-separation account
 *                    for good (no supplementary groups, real, effective and
 *                    saved ids all changed, checked), set no_new_privs.
 *   sandbox_apply()  shrink what the process may still do: resource limits
 *                    (no file growth, no new descriptors, no new processes)
 *                    and, where the kernel has it, a seccomp-bpf allowlist
 *                    that kills the process on any other system call.
 *
 * Before sandbox_apply() the caller must have everything it will need
 * open: the client's socket, the monitor's socketpair, the log going to a
 * descriptor (a pipe or socket: RLIMIT_FSIZE 0 stops writes to a regular
 * file; syslog(3) would want a new socket). libcrypto is initialised here
 * before the filter goes on. A sandboxed process should end with _exit():
 * atexit handlers may want calls the filter refuses. In a sanitizer build
 * (MOAT_SANITIZE) the leak check that runs at exit runs at the first of
 * the two calls instead, and the filter lets the runtime's own few extra
 * calls through; a sanitizer report from inside is cut short by SIGSYS.
 *
 * Both functions log OpenSSH's messages for the same steps (errors at the
 * FATAL level, for the caller to exit on; progress at DEBUG1..3) and return
 * 0 or an ERR_* code; neither exits.
 */
#ifndef MOAT_SANDBOX_H
#define MOAT_SANDBOX_H

/* The build's privilege-separation account and its empty directory. */
#ifndef MOAT_PRIVSEP_USER
#define MOAT_PRIVSEP_USER "sshd"
#endif
#ifndef MOAT_PRIVSEP_PATH
#define MOAT_PRIVSEP_PATH "/run/sshd"
#endif

enum sandbox_kind {
	SANDBOX_NONE = 0,
	SANDBOX_SECCOMP,	/* seccomp-bpf allowlist, plus the rlimits */
	SANDBOX_RLIMIT,		/* the rlimits alone */
};

/* sandbox_apply() flags */
#define SANDBOX_FORCE_RLIMIT	0x01	/* do not try seccomp */

/*
 * Check that the account exists and that the directory is there, owned by
 * root and not group- or world-writable; create the directory (mode 0755)
 * when it is missing. NULL means the build's default. For sshd's start-up,
 * so a broken set-up is refused before the first connection; sandbox_drop()
 * checks again. Returns 0, ERR_NOT_FOUND (no account, no directory),
 * ERR_CONFIG (the account is root's uid), ERR_PERMISSION_DENIED (bad
 * ownership or mode) or ERR_SYSTEM (the path is not a directory...).
 */
int sandbox_check(const char *user, const char *dir);

/*
 * Drop the calling process (which must be root) to `user` inside `dir`
 * (NULL: the build's defaults), as described above. On error the process
 * may be half-way: the caller must exit. Returns sandbox_check()'s
 * errors, ERR_PERMISSION_DENIED when not root (nothing is changed then)
 * or when the old ids could be taken back, ERR_SYSTEM (errno set) when a
 * system call failed.
 */
int sandbox_drop(const char *user, const char *dir);

/*
 * Confine the calling process. *kind (may be NULL) says what is in force:
 * SANDBOX_SECCOMP, or SANDBOX_RLIMIT when asked (SANDBOX_FORCE_RLIMIT) or
 * when the kernel refuses seccomp filters (EINVAL, ENOSYS). RLIMIT_NOFILE
 * becomes the lowest descriptor number not in use, so no new descriptor
 * can be made; poll() is then limited to that many entries. RLIMIT_NPROC 0
 * does not bind root: it matters after sandbox_drop(). Returns 0,
 * ERR_SYSTEM (errno set) or ERR_INTERNAL (the filter could not be built).
 */
int sandbox_apply(int flags, enum sandbox_kind *kind);

/* "seccomp", "rlimit" or "none", for a debug line. */
const char *sandbox_kind_name(enum sandbox_kind kind);

#endif
