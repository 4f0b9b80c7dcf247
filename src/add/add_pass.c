/*
 * add_pass.c: passphrases and lock passwords for ssh-add, asked the way
 * OpenSSH's ssh-add asks them (a prompt that may also read standard
 * input).
 *
 * The askpass program ($SSH_ASKPASS, else /usr/bin/ssh-askpass, the
 * prompt its one argument, the first line of its output the answer) is
 * used when standard input is not a terminal and $DISPLAY or
 * $WAYLAND_DISPLAY is set; SSH_ASKPASS_REQUIRE=force uses it always,
 * "prefer" whenever a display is set, "never" not at all. Otherwise the
 * prompt goes to the controlling terminal and the answer is read there
 * with echo off; with no terminal, the prompt goes to standard error
 * and the answer comes from standard input. A failed askpass, end of
 * input or an interrupted read is an empty answer.
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

#include "add.h"
#include "mem.h"

#define ASKPASS_DEFAULT	"/usr/bin/ssh-askpass"
#define ANSWER_MAX	1024

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	got_signal = sig;
}

static const int held[] = { SIGINT, SIGHUP, SIGQUIT, SIGTERM, SIGTSTP };
#define NHELD	(sizeof(held) / sizeof(held[0]))

/*
 * Up to a newline (or carriage return, or the end) from fd into buf,
 * one byte per read so that nothing after the line is consumed.
 */
static void
get_line(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t got;
	char c;

	for (;;) {
		got = read(fd, &c, 1);
		if (got == -1 && errno == EINTR && got_signal == 0)
			continue;
		if (got != 1 || c == '\n' || c == '\r')
			break;
		if (n + 1 < size)
			buf[n++] = c;
	}
	buf[n] = '\0';
}

/*
 * On the terminal: the signals that would leave it without echo are
 * caught while the answer is read, and raised again once the terminal
 * is as it was.
 */
static char *
ask_tty(const char *prompt)
{
	struct sigaction sa, old[NHELD];
	struct termios saved, noecho;
	char buf[ANSWER_MAX], *ans;
	int tty, in, out, quiet = 0;
	size_t i;

	if ((tty = open("/dev/tty", O_RDWR | O_CLOEXEC)) != -1)
		in = out = tty;
	else {
		in = STDIN_FILENO;
		out = STDERR_FILENO;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	got_signal = 0;
	for (i = 0; i < NHELD; i++)
		sigaction(held[i], &sa, &old[i]);
	if (tcgetattr(in, &saved) == 0) {
		noecho = saved;
		noecho.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		quiet = tcsetattr(in, TCSAFLUSH, &noecho) == 0;
	}
	if (write(out, prompt, strlen(prompt)) == -1)
		(void)0;	/* the answer may come anyway */
	get_line(in, buf, sizeof(buf));
	if (quiet) {
		(void)tcsetattr(in, TCSAFLUSH, &saved);
		if (write(out, "\n", 1) == -1)
			(void)0;
	}
	if (tty != -1)
		close(tty);
	for (i = 0; i < NHELD; i++)
		sigaction(held[i], &old[i], NULL);
	if (got_signal != 0) {
		buf[0] = '\0';
		raise(got_signal);
	}
	ans = x_strdup(buf);
	x_wipe(buf, sizeof(buf));
	return ans;
}

static char *
ask_program(const char *prompt)
{
	const char *prog = getenv("SSH_ASKPASS");
	char buf[ANSWER_MAX], *ans;
	int p[2], status = 0;
	pid_t pid;

	if (prog == NULL || *prog == '\0')
		prog = ASKPASS_DEFAULT;
	fflush(stdout);
	fflush(stderr);
	if (pipe(p) == -1)
		return x_strdup("");
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return x_strdup("");
	}
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], STDOUT_FILENO) == -1)
			_exit(1);
		execlp(prog, prog, prompt, (char *)NULL);
		fprintf(stderr, "ssh_askpass: exec(%s): %s\r\n", prog,
		    strerror(errno));
		_exit(1);
	}
	close(p[1]);
	got_signal = 0;
	get_line(p[0], buf, sizeof(buf));
	close(p[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		buf[0] = '\0';
	ans = x_strdup(buf);
	x_wipe(buf, sizeof(buf));
	return ans;
}

static int
env_set(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0';
}

char *
add_read_pass(const char *prompt)
{
	const char *req = getenv("SSH_ASKPASS_REQUIRE");
	int allow = env_set("DISPLAY") || env_set("WAYLAND_DISPLAY");
	int use = 0;

	if (req != NULL && strcasecmp(req, "force") == 0)
		use = allow = 1;
	else if (req != NULL && strcasecmp(req, "prefer") == 0)
		use = allow;
	else if (req != NULL && strcasecmp(req, "never") == 0)
		allow = 0;
	if (!use && !isatty(STDIN_FILENO))
		use = 1;
	return use && allow ? ask_program(prompt) : ask_tty(prompt);
}

void
add_pass_free(char *p)
{
	if (p != NULL)
		x_freezero(p, strlen(p));
}
