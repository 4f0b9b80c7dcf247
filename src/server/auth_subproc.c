/*
 * auth_subproc.c: running a helper program for authentication
 * (AuthorizedKeysCommand) and collecting what it prints.
 *
 * The path is checked first: absolute, a regular file, and it and every
 * directory above it owned by root and not writable by group or others.
 * The command line is split like a shell would do for plain words
 * ("double", 'single' quotes and backslash escapes, no expansion). The
 * child gets a new session (so no controlling tty and a process group
 * we can kill whole), stdin and stderr on /dev/null, stdout on a pipe,
 * every other descriptor closed, the target user's uid, gid and groups
 * when we run as root, and an environment holding only PATH. The parent
 * reads the pipe until end of file, the size cap or the deadline; past
 * the cap or the deadline the process group is killed and the output
 * dropped. Output only counts when the program exited with status 0.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "auth_subproc.h"
#include "err.h"
#include "log.h"
#include "mem.h"

#define SUBPROC_PATH	"/usr/bin:/bin:/usr/sbin:/sbin"
#define SUBPROC_MAXARGS	256

void
subproc_argv_free(char **argv)
{
	size_t i;

	if (argv == NULL)
		return;
	for (i = 0; argv[i] != NULL; i++)
		x_free(argv[i]);
	x_free(argv);
}

int
subproc_split(const char *s, char ***argvp)
{
	char **argv = x_calloc(SUBPROC_MAXARGS + 1, sizeof(*argv));
	char *arg = x_malloc(strlen(s) + 1), *o;
	size_t n = 0;
	int q, r = 0;

	*argvp = NULL;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		if (n >= SUBPROC_MAXARGS) {
			r = ERR_INVALID_FORMAT;
			goto out;
		}
		for (o = arg; *s != '\0' && *s != ' ' && *s != '\t';) {
			if (*s == '\\' && s[1] != '\0') {
				*o++ = s[1];
				s += 2;
			} else if (*s == '"' || *s == '\'') {
				q = *s++;
				while (*s != '\0' && *s != q) {
					if (q == '"' && *s == '\\' &&
					    (s[1] == '"' || s[1] == '\\'))
						s++;
					*o++ = *s++;
				}
				if (*s != q) {
					r = ERR_INVALID_FORMAT;
					goto out;
				}
				s++;
			} else
				*o++ = *s++;
		}
		*o = '\0';
		argv[n++] = x_strdup(arg);
	}
	if (n == 0)
		r = ERR_INVALID_FORMAT;
 out:
	x_free(arg);
	if (r != 0)
		subproc_argv_free(argv);
	else
		*argvp = argv;
	return r;
}

static int
root_safe(const struct stat *st)
{
	return st->st_uid == 0 && (st->st_mode & 022) == 0;
}

int
subproc_safe_path(const char *path, char *err, size_t errlen)
{
	char real[PATH_MAX], *slash;
	struct stat st;

	if (path[0] != '/') {
		snprintf(err, errlen, "path is not absolute");
		return ERR_KEY_BAD_PERMISSIONS;
	}
	if (realpath(path, real) == NULL || stat(real, &st) != 0) {
		snprintf(err, errlen, "stat(\"%s\"): %s", path,
		    strerror(errno));
		return ERR_KEY_BAD_PERMISSIONS;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file", real);
		return ERR_KEY_BAD_PERMISSIONS;
	}
	if (!root_safe(&st)) {
		snprintf(err, errlen, "bad ownership or modes for file %s",
		    real);
		return ERR_KEY_BAD_PERMISSIONS;
	}
	while ((slash = strrchr(real, '/')) != NULL) {
		if (slash == real)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (stat(real, &st) != 0 || !root_safe(&st)) {
			snprintf(err, errlen,
			    "bad ownership or modes for directory %s", real);
			return ERR_KEY_BAD_PERMISSIONS;
		}
		if (strcmp(real, "/") == 0)
			break;
	}
	return 0;
}

/* In the child: become runas, wire up the descriptors, exec. */
static void
child_exec(char **argv, const struct passwd *runas, int outfd)
{
	char *env[] = { (char *)"PATH=" SUBPROC_PATH, NULL };
	sigset_t none;
	int devnull;

	setsid();
	if ((devnull = open("/dev/null", O_RDWR)) == -1 ||
	    dup2(devnull, STDIN_FILENO) == -1 ||
	    dup2(outfd, STDOUT_FILENO) == -1 ||
	    dup2(devnull, STDERR_FILENO) == -1)
		_exit(127);
	closefrom(STDERR_FILENO + 1);
	if (geteuid() == 0 || getuid() == 0) {
		if (initgroups(runas->pw_name, runas->pw_gid) != 0 ||
		    setresgid(runas->pw_gid, runas->pw_gid,
		    runas->pw_gid) != 0 ||
		    setresuid(runas->pw_uid, runas->pw_uid,
		    runas->pw_uid) != 0)
			_exit(126);
		if (runas->pw_uid != 0 && setuid(0) == 0)
			_exit(126);	/* could get root back */
	}
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(argv[0], argv, env);
	_exit(127);
}

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Read fd until EOF, max bytes or the deadline. 0, ERR_CONN_TIMEOUT,
 * ERR_NO_BUFFER_SPACE or ERR_SYSTEM. */
static int
collect(int fd, struct sbuf *out, size_t max, uint64_t deadline)
{
	struct pollfd pfd;
	unsigned char buf[4096];
	uint64_t now;
	ssize_t n;
	int rv;

	for (;;) {
		if ((now = now_ms()) >= deadline)
			return ERR_CONN_TIMEOUT;
		pfd.fd = fd;
		pfd.events = POLLIN;
		rv = poll(&pfd, 1, (int)(deadline - now));
		if (rv == -1 && errno == EINTR)
			continue;
		if (rv == -1)
			return ERR_SYSTEM;
		if (rv == 0)
			return ERR_CONN_TIMEOUT;
		n = read(fd, buf, sizeof(buf));
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n == -1)
			return ERR_SYSTEM;
		if (n == 0)
			return 0;
		if (sbuf_len(out) + (size_t)n > max)
			return ERR_NO_BUFFER_SPACE;
		sbuf_put(out, buf, (size_t)n);
	}
}

int
subproc_run(const char *tag, char **argv, const struct passwd *runas,
    int timeout, size_t maxout, struct sbuf **outp)
{
	struct sbuf *out = NULL;
	uint64_t deadline;
	pid_t pid, w;
	int p[2] = { -1, -1 }, r, status = 0;

	*outp = NULL;
	if (pipe2(p, O_CLOEXEC) != 0) {
		log_error("%s: pipe: %s", tag, strerror(errno));
		return ERR_SYSTEM;
	}
	log_debug("%s: running %s as %s", tag, argv[0], runas->pw_name);
	if ((pid = fork()) == -1) {
		log_error("%s: fork: %s", tag, strerror(errno));
		close(p[0]);
		close(p[1]);
		return ERR_SYSTEM;
	}
	if (pid == 0) {
		close(p[0]);
		child_exec(argv, runas, p[1]);
	}
	close(p[1]);
	out = sbuf_new();
	deadline = now_ms() + (uint64_t)(timeout > 0 ? timeout : INT_MAX / 1000)
	    * 1000;
	r = collect(p[0], out, maxout, deadline);
	close(p[0]);
	if (r == ERR_CONN_TIMEOUT)
		log_error("%s %s timed out after %d seconds; killed", tag,
		    argv[0], timeout);
	else if (r == ERR_NO_BUFFER_SPACE)
		log_error("%s %s: output longer than %zu bytes; killed", tag,
		    argv[0], maxout);
	else if (r != 0)
		log_error("%s %s: read: %s", tag, argv[0], strerror(errno));
	if (r != 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while ((w = waitpid(pid, &status, 0)) == -1 && errno == EINTR)
		;
	/* Whatever it left behind in its group goes too. */
	kill(-pid, SIGKILL);
	if (r != 0)
		goto out;
	if (w == -1) {
		log_error("%s %s: waitpid: %s", tag, argv[0], strerror(errno));
		r = ERR_SYSTEM;
	} else if (WIFSIGNALED(status)) {
		log_error("%s %s exited on signal %d", tag, argv[0],
		    WTERMSIG(status));
		r = ERR_PERMISSION_DENIED;
	} else if (WEXITSTATUS(status) != 0) {
		log_error("%s %s failed, status %d", tag, argv[0],
		    WEXITSTATUS(status));
		r = ERR_PERMISSION_DENIED;
	}
 out:
	if (r == 0) {
		*outp = out;
		out = NULL;
	}
	sbuf_free(out);
	return r;
}
