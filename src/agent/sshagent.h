/*
 * sshagent.h: what the files of ssh-agent share: the listening socket
 * and event loop (loop.c) and the confirmation prompt (confirm.c). The
 * requests themselves are handled by src/client/agentd.c.
 */
#ifndef MOAT_SSHAGENT_H
#define MOAT_SSHAGENT_H

#include <sys/types.h>

#include "agentd.h"

struct agent_loop {
	struct agentd *store;
	int listen_fd;
	/* With a command: exit when this process (the command) is gone. */
	pid_t watch_parent;
};

/* Listen on a Unix socket at path (mode 0600); *fdp the socket. */
int agent_listen(const char *path, int *fdp);
/*
 * Serve clients until SIGTERM/SIGHUP (or SIGINT when asked) or the
 * watched parent is gone. Returns the exit status to use.
 */
int agent_loop_run(struct agent_loop *l);
/* Set by the signal handlers; the loop ends when it is set. */
void agent_loop_stop(int sig);

/*
 * Run $SSH_ASKPASS (or the default askpass) with SSH_ASKPASS_PROMPT=
 * confirm and prompt as its argument: 1 when it exits 0 answering
 * nothing or "yes", as OpenSSH's confirmation.
 */
int agent_confirm(void *arg, const char *prompt);

#endif
