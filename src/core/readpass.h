/*
 * readpass.h: asking the user a question (a passphrase, a password) the
 * way OpenSSH's programs do: on the terminal or through the askpass
 * program. Which one, and what a failure means, each program decides.
 *
 * readpass_tty() writes the prompt to the controlling terminal and reads
 * one line there, with echo off unless RP_ECHO. With RP_STDIN and no
 * terminal, the prompt goes to standard error and the line comes from
 * standard input, a byte a read, so that what follows the line stays
 * there. With RP_HOLD_SIGNALS, a signal that would stop or end the
 * program while echo is off is caught, the terminal is put back, and
 * then the signal is raised again; if the program lives on, the answer
 * is empty.
 *
 * readpass_askpass() runs prog with the prompt as its one argument and
 * takes the first line of its output; a program that cannot be run says
 * so on standard error, as ssh_askpass does in OpenSSH. With RP_CONFIRM
 * it runs with SSH_ASKPASS_PROMPT=confirm, which asks for a yes/no
 * dialogue rather than a text field.
 *
 * Both return 0 with *answerp a new string (free with x_freezero), or
 * ERR_EOF: end of input before any answer; ERR_PERMISSION_DENIED: no
 * terminal (readpass_tty), or the program failed (readpass_askpass);
 * ERR_SYSTEM: no pipe or process.
 *
 * readpass_use_askpass(): whether add and keygen's rule picks the askpass
 * program: SSH_ASKPASS_REQUIRE force (always), prefer (when there is a
 * display), never; otherwise when standard input is not a terminal and
 * there is a display.
 */
#ifndef MOAT_READPASS_H
#define MOAT_READPASS_H

#define READPASS_DEFAULT_ASKPASS	"/usr/bin/ssh-askpass"

#define RP_ECHO		0x01
#define RP_STDIN	0x02
#define RP_HOLD_SIGNALS	0x04
#define RP_CONFIRM	0x08	/* askpass: a yes/no question */

int readpass_tty(const char *prompt, int flags, char **answerp);
int readpass_askpass(const char *prog, const char *prompt, int flags,
    char **answerp);
int readpass_use_askpass(const char *require, int stdin_tty,
    int have_display);

#endif
