/*
 * readpass.c: a question on the terminal or through the askpass program
 * (readpass.h).
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <unistd.h>

#include "err.h"
#include "mem.h"
#include "readpass.h"

#define ANSWER_MAX	1024

/* A signal caught while a held terminal's echo was off. */
static volatile sig_atomic_t caught;

static void
on_signal(int sig)
{
	caught = sig;
}

static const int held[] = { SIGINT, SIGHUP, SIGQUIT, SIGTERM, SIGTSTP };
#define NHELD	(sizeof(held) / sizeof(held[0]))

/*
 * One line from fd (to '\n', '\r' or the end), a byte a read so that
 * nothing after it is consumed; a caught signal ends it. ERR_EOF when
 * the end came before any byte.
 */
static int
read_line(int fd, char **answerp)
{
	char buf[ANSWER_MAX], c;
	size_t n = 0;
	ssize_t got;
	int r = 0;

	for (;;) {
		got = read(fd, &c, 1);
		if (got == -1 && errno == EINTR && caught == 0)
			continue;
		if (got != 1) {
			if (got == 0 && n == 0)
				r = ERR_EOF;
			break;
		}
		if (c == '\n' || c == '\r')
			break;
		if (n + 1 < sizeof(buf))
			buf[n++] = c;
	}
	buf[n] = '\0';
	*answerp = r == 0 ? x_strdup(buf) : NULL;
	x_wipe(buf, sizeof(buf));
	return r;
}

static void
hold_signals(struct sigaction *old)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: read() returns */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NHELD; i++)
		sigaction(held[i], &sa, &old[i]);
}

static void
release_signals(const struct sigaction *old)
{
	size_t i;

	for (i = 0; i < NHELD; i++)
		sigaction(held[i], &old[i], NULL);
}

int
readpass_tty(const char *prompt, int flags, char **answerp)
{
	struct sigaction old[NHELD];
	struct termios saved, quiet;
	int tty, in, out, r, restore = 0;

	*answerp = NULL;
	if ((tty = open("/dev/tty", O_RDWR | O_CLOEXEC)) != -1)
		in = out = tty;
	else if (flags & RP_STDIN) {
		in = STDIN_FILENO;
		out = STDERR_FILENO;
	} else
		return ERR_PERMISSION_DENIED;
	caught = 0;
	if (flags & RP_HOLD_SIGNALS)
		hold_signals(old);
	if (!(flags & RP_ECHO) && tcgetattr(in, &saved) == 0) {
		quiet = saved;
		quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		quiet.c_lflag |= ICANON;
		restore = tcsetattr(in, TCSAFLUSH, &quiet) == 0;
	}
	if (write(out, prompt, strlen(prompt)) == -1)
		(void)0;	/* the answer may come anyway */
	r = read_line(in, answerp);
	if (restore) {
		(void)tcsetattr(in, TCSAFLUSH, &saved);
		if (write(out, "\n", 1) == -1)
			(void)0;
	}
	if (tty != -1)
		close(tty);
	if (flags & RP_HOLD_SIGNALS) {
		release_signals(old);
		if (caught != 0) {
			if (*answerp != NULL)
				x_freezero(*answerp, strlen(*answerp));
			*answerp = x_strdup("");
			r = 0;
			raise(caught);
		}
	}
	return r;
}

int
readpass_askpass(const char *prog, const char *prompt, int flags,
    char **answerp)
{
	int p[2], status = 0, r;
	pid_t pid;

	*answerp = NULL;
	fflush(stdout);
	fflush(stderr);
	if (pipe(p) == -1)
		return ERR_SYSTEM;
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return ERR_SYSTEM;
	}
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], STDOUT_FILENO) == -1 || ((flags & RP_CONFIRM) &&
		    setenv("SSH_ASKPASS_PROMPT", "confirm", 1) != 0))
			_exit(1);
		execlp(prog, prog, prompt, (char *)NULL);
		fprintf(stderr, "ssh_askpass: exec(%s): %s\r\n", prog,
		    strerror(errno));
		_exit(1);
	}
	close(p[1]);
	caught = 0;
	r = read_line(p[0], answerp);
	close(p[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (r == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		x_freezero(*answerp, strlen(*answerp));
		*answerp = NULL;
		r = ERR_PERMISSION_DENIED;
	}
	return r;
}

int
readpass_use_askpass(const char *require, int stdin_tty, int have_display)
{
	int use = !stdin_tty, allow = have_display;

	if (require != NULL && strcasecmp(require, "force") == 0)
		use = allow = 1;
	else if (require != NULL && strcasecmp(require, "prefer") == 0)
		use = allow;
	else if (require != NULL && strcasecmp(require, "never") == 0)
		allow = 0;
	return use && allow;
}
