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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "add.h"
#include "mem.h"
#include "readpass.h"

static int
env_set(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0';
}

char *
add_read_pass(const char *prompt)
{
	const char *prog = getenv("SSH_ASKPASS");
	char *ans;
	int r;

	if (prog == NULL || *prog == '\0')
		prog = READPASS_DEFAULT_ASKPASS;
	if (readpass_use_askpass(getenv("SSH_ASKPASS_REQUIRE"),
	    isatty(STDIN_FILENO), env_set("DISPLAY") ||
	    env_set("WAYLAND_DISPLAY")))
		r = readpass_askpass(prog, prompt, 0, &ans);
	else
		r = readpass_tty(prompt, RP_STDIN | RP_HOLD_SIGNALS, &ans);
	return r == 0 ? ans : x_strdup("");
}

void
add_pass_free(char *p)
{
	if (p != NULL)
		x_freezero(p, strlen(p));
}
