/*
 * ssh.h: what the files of the ssh program share: the command-line
 * state that is not an ssh_config setting.
 */
#ifndef MOAT_SSH_H
#define MOAT_SSH_H

#include "client.h"

struct ssh_cmdline {
	const char *self;		/* argv[0], for ProxyJump */
	char *command;			/* remote command, words joined */
	int subsystem;			/* -s */
	int tty_t;			/* number of -t */
	int tty_no;			/* -T */
	int stdin_null;			/* -n */
	int no_command;			/* -N */
	int fork_after_auth;		/* -f */
	int dump_config;		/* -G */
	int verbose;			/* number of -v */
	int quiet;			/* -q */
	int use_syslog;			/* -y */
	const char *log_file;		/* -E */
	const char *config_file;	/* -F */
	int mux_cmd;			/* -O: enum mux_cmd */
};

/* Connect, check the host key, authenticate, run the session. */
int ssh_run(struct client_opts *o, struct ssh_cmdline *cl);

#endif
