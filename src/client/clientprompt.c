/*
 * clientprompt.c: asking the user for passphrases and passwords, the
 * way ssh(1) does.
 *
 * client_prompt_via() is the pure decision (BatchMode, a tty, a display,
 * SSH_ASKPASS_REQUIRE); client_read_passphrase() carries it out through
 * readpass.h: on the controlling terminal (/dev/tty, echo switched off
 * for secrets and put back afterwards) or by running the askpass program
 * with the prompt as its argument and reading its standard output.
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
#include "readpass.h"

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

static int
prompt_askpass(const char *prompt, int confirm, char **answerp)
{
	const char *prog = getenv("SSH_ASKPASS");
	int r;

	if (prog == NULL || *prog == '\0')
		prog = READPASS_DEFAULT_ASKPASS;
	if ((r = readpass_askpass(prog, prompt,
	    confirm ? RP_CONFIRM : 0, answerp)) != 0)
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
		return readpass_tty(prompt, echo ? RP_ECHO : 0, answerp) == 0 ?
		    0 : ERR_PERMISSION_DENIED;
	case CP_ASKPASS:
		return prompt_askpass(prompt, confirm, answerp);
	default:
		return ERR_PERMISSION_DENIED;
	}
}
