/*
 * confirm.c: ssh-agent's question before a key added with the confirm
 * constraint signs. As OpenSSH: the askpass program ($SSH_ASKPASS, else
 * /usr/bin/ssh-askpass) runs with SSH_ASKPASS_PROMPT=confirm in its
 * environment and the question as its one argument; the use is allowed
 * when it exits 0 having printed nothing or "yes" (any case). The agent
 * waits for the answer, as OpenSSH's does.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "log.h"
#include "mem.h"
#include "sshagent.h"

#define DEFAULT_ASKPASS	"/usr/bin/ssh-askpass"
#define ANSWER_MAX	1024

static void __attribute__((noreturn))
run_askpass(const char *askpass, const char *prompt, int out)
{
	sigset_t none;
	int fd;

	/* Not the agent's blocked or ignored signals. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(out, STDOUT_FILENO) < 0)
		_exit(1);
	if ((fd = open("/dev/null", O_RDONLY)) >= 0 && fd != STDIN_FILENO) {
		(void)dup2(fd, STDIN_FILENO);
		close(fd);
	}
	if (setenv("SSH_ASKPASS_PROMPT", "confirm", 1) != 0)
		_exit(1);
	execlp(askpass, askpass, prompt, (char *)NULL);
	_exit(1);
}

/* Read the answer until end of file; *lenp bytes kept (at most max). */
static void
read_answer(int fd, char *buf, size_t max, size_t *lenp)
{
	size_t len = 0;
	ssize_t n;
	char skip[256];

	for (;;) {
		if (len < max)
			n = read(fd, buf + len, max - len);
		else
			n = read(fd, skip, sizeof(skip));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len < max)
			len += (size_t)n;
	}
	*lenp = len;
}

int
agent_confirm(void *arg, const char *prompt)
{
	const char *askpass = getenv("SSH_ASKPASS");
	char answer[ANSWER_MAX + 1];
	size_t len = 0;
	int p[2], status = 0, ok = 0;
	pid_t pid;

	(void)arg;
	if (askpass == NULL || *askpass == '\0')
		askpass = DEFAULT_ASKPASS;
	if (pipe(p) != 0) {
		log_error("pipe: %s", strerror(errno));
		return 0;
	}
	if ((pid = fork()) < 0) {
		log_error("fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return 0;
	}
	if (pid == 0) {
		close(p[0]);
		run_askpass(askpass, prompt, p[1]);
	}
	close(p[1]);
	read_answer(p[0], answer, ANSWER_MAX, &len);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	answer[len] = '\0';
	answer[strcspn(answer, "\r\n")] = '\0';
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	    (answer[0] == '\0' || strcasecmp(answer, "yes") == 0))
		ok = 1;
	x_wipe(answer, sizeof(answer));
	return ok;
}
