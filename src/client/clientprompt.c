/*
 * clientprompt.c: asking the user for passphrases and passwords, the
 * way ssh(1) does.
 *
 * client_prompt_via() is the pure decision (BatchMode, a tty, a display,
 * SSH_ASKPASS_REQUIRE); client_read_passphrase() carries it out: on the
 * controlling terminal (/dev/tty, echo switched off for secrets and put
 * back afterwards) or by running the askpass program with the prompt as
 * its argument and reading its standard output.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <unistd.h>

#include "client.h"
#include "err.h"
#include "log.h"
#include "mem.h"

#define DEFAULT_ASKPASS	"/usr/bin/ssh-askpass"
#define ANSWER_MAX	1024

enum client_prompt_via
client_prompt_via(int batch_mode, int have_tty, const char *require,
    int have_display)
{
	int use_askpass = 0, allow_askpass = have_display;

	if (batch_mode > 0)
		return CP_NONE;
	if (require != NULL) {
		if (strcasecmp(require, "force") == 0) {
			use_askpass = 1;
			allow_askpass = 1;
		} else if (strcasecmp(require, "prefer") == 0)
			use_askpass = allow_askpass;
		else if (strcasecmp(require, "never") == 0)
			allow_askpass = 0;
	}
	if (!use_askpass && !have_tty) {
		if (!allow_askpass)
			return CP_NONE;
		use_askpass = 1;
	}
	if (use_askpass && allow_askpass)
		return CP_ASKPASS;
	return have_tty ? CP_TTY : CP_NONE;
}

static int
env_set(const char *name)
{
	const char *s = getenv(name);

	return s != NULL && *s != '\0';
}

/* Read one line (without its newline) from fd into a new string. */
static int
read_line(int fd, char **answerp)
{
	char buf[ANSWER_MAX];
	size_t n = 0;
	ssize_t got;
	char ch;

	for (;;) {
		got = read(fd, &ch, 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (n == 0 && got == 0) {
				x_wipe(buf, sizeof(buf));
				return ERR_EOF;
			}
			break;
		}
		if (ch == '\n' || ch == '\r')
			break;
		if (n < sizeof(buf) - 1)
			buf[n++] = ch;
	}
	buf[n] = '\0';
	*answerp = x_strdup(buf);
	x_wipe(buf, sizeof(buf));
	return 0;
}

static int
prompt_tty(const char *prompt, int echo, char **answerp)
{
	struct termios saved, quiet;
	int fd, r, restore = 0;

	if ((fd = open("/dev/tty", O_RDWR | O_CLOEXEC)) == -1)
		return ERR_PERMISSION_DENIED;
	if (!echo && tcgetattr(fd, &saved) == 0) {
		quiet = saved;
		quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		quiet.c_lflag |= ICANON;
		if (tcsetattr(fd, TCSAFLUSH, &quiet) == 0)
			restore = 1;
	}
	if (write(fd, prompt, strlen(prompt)) < 0)
		log_debug("prompt: write: %s", strerror(errno));
	r = read_line(fd, answerp);
	if (restore) {
		(void)tcsetattr(fd, TCSAFLUSH, &saved);
		if (write(fd, "\n", 1) < 0)
			log_debug("prompt: write: %s", strerror(errno));
	}
	close(fd);
	return r == 0 ? 0 : ERR_PERMISSION_DENIED;
}

static int
prompt_askpass(const char *prompt, int confirm, char **answerp)
{
	const char *prog = getenv("SSH_ASKPASS");
	int p[2], status, r;
	pid_t pid;

	if (prog == NULL || *prog == '\0')
		prog = DEFAULT_ASKPASS;
	if (pipe(p) == -1)
		return ERR_SYSTEM;
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return ERR_SYSTEM;
	}
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], STDOUT_FILENO) == -1 || (confirm &&
		    setenv("SSH_ASKPASS_PROMPT", "confirm", 1) != 0))
			_exit(1);
		execlp(prog, prog, prompt, (char *)NULL);
		_exit(1);
	}
	close(p[1]);
	r = read_line(p[0], answerp);
	close(p[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (r == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		x_freezero(*answerp, strlen(*answerp));
		*answerp = NULL;
		r = ERR_PERMISSION_DENIED;
	}
	if (r != 0)
		log_debug("askpass %s: no answer", prog);
	return r == 0 ? 0 : ERR_PERMISSION_DENIED;
}

int
client_read_passphrase(void *opts, const char *prompt, int echo,
    char **answerp)
{
	const struct client_opts *o = opts;
	const char *require;
	int have_tty, fd, display, confirm = echo == CLIENT_PROMPT_CONFIRM;

	*answerp = NULL;
	if ((fd = open("/dev/tty", O_RDWR | O_CLOEXEC)) != -1) {
		have_tty = 1;
		close(fd);
	} else
		have_tty = 0;
	display = env_set("DISPLAY") || env_set("WAYLAND_DISPLAY");
	require = getenv("SSH_ASKPASS_REQUIRE");
	/* A question of permission goes to the askpass when it may. */
	if (confirm && require == NULL)
		require = "prefer";
	switch (client_prompt_via(o != NULL ? o->batch_mode : 0, have_tty,
	    require, display)) {
	case CP_TTY:
		return prompt_tty(prompt, echo, answerp);
	case CP_ASKPASS:
		return prompt_askpass(prompt, confirm, answerp);
	default:
		return ERR_PERMISSION_DENIED;
	}
}
