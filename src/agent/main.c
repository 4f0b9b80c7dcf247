/*
 * main.c: ssh-agent's command line, as OpenSSH's:
 *
 *   ssh-agent [-c | -s] [-Dd] [-a bind_address] [-E fingerprint_hash]
 *             [-O option] [-P allowed_providers] [-t life]
 *   ssh-agent [...] command [arg ...]
 *   ssh-agent [-c | -s] -k
 *
 * Without -a the socket is agent.<pid> in a fresh 0700 directory
 * $TMPDIR/ssh-XXXXXXXXXXXX (TMPDIR unset or not a directory: /tmp).
 * The agent forks: the parent prints the shell commands that set
 * SSH_AUTH_SOCK and SSH_AGENT_PID (sh, or csh with -c or a SHELL ending
 * in "csh") and exits, or, given a command, becomes that command with
 * the two variables set; the child serves, detached, and exits once the command
 * is gone. -d (debug to stderr) and -D (stay in the foreground) do not
 * fork. -k kills the agent $SSH_AGENT_PID names. The agent is never
 * dumpable: it holds private keys.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "agentd.h"
#include "conf.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sshagent.h"

#define SOCK_ENV	"SSH_AUTH_SOCK"
#define PID_ENV		"SSH_AGENT_PID"

struct opts {
	int c_flag, s_flag, k_flag, d_flag, D_flag;
	const char *bind_address;
	struct agentd_config cfg;
};

static char socket_dir[PATH_MAX];
static char socket_name[PATH_MAX];

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr,
	    "usage: ssh-agent [-c | -s] [-Dd] [-a bind_address] "
	    "[-E fingerprint_hash]\n"
	    "                 [-O option] [-P allowed_providers] [-t life]\n"
	    "       ssh-agent [-a bind_address] [-E fingerprint_hash] "
	    "[-O option]\n"
	    "                 [-P allowed_providers] [-t life] command "
	    "[arg ...]\n"
	    "       ssh-agent [-c | -s] -k\n");
	exit(1);
}

static void
cleanup_socket(void)
{
	if (socket_name[0] != '\0')
		(void)unlink(socket_name);
	if (socket_dir[0] != '\0')
		(void)rmdir(socket_dir);
}

/* A fatal error as OpenSSH's log prints it on stderr (CR LF). */
static void __attribute__((noreturn))
fatal_exit(const char *msg)
{
	fprintf(stderr, "%s\r\n", msg);
	exit(255);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	long life;
	int ch;

	opterr = 0;	/* OpenSSH's wording below, without the name */
	while ((ch = getopt(argc, argv, "+cDdksE:a:O:P:t:")) != -1) {
		switch (ch) {
		case 'E':
			if (key_fp_hash_from_name(optarg,
			    &o->cfg.fp_hash) != 0) {
				fprintf(stderr, "Invalid hash algorithm "
				    "\"%s\"\r\n", optarg);
				exit(255);
			}
			break;
		case 'c':
			if (o->s_flag)
				usage();
			o->c_flag++;
			break;
		case 's':
			if (o->c_flag)
				usage();
			o->s_flag++;
			break;
		case 'k':
			o->k_flag++;
			break;
		case 'd':
		case 'D':
			if (o->d_flag || o->D_flag)
				usage();
			if (ch == 'd')
				o->d_flag++;
			else
				o->D_flag++;
			break;
		case 'a':
			o->bind_address = optarg;
			break;
		case 'O':
			if (strcmp(optarg, "no-restrict-websafe") != 0 &&
			    strcmp(optarg, "allow-remote-pkcs11") != 0)
				fatal_exit("Unknown -O option");
			break;
		case 'P':	/* PKCS#11 modules and security key middleware */
			o->cfg.allowed_providers = optarg;
			break;
		case 't':
			if ((life = conf_parse_time(optarg)) < 0) {
				fprintf(stderr, "Invalid lifetime\n");
				usage();
			}
			o->cfg.default_life = (uint32_t)life;
			break;
		default:
			if (optopt != 0 && strchr("EaOPt", optopt) != NULL)
				fprintf(stderr, "option requires an argument "
				    "-- %c\r\n", optopt);
			else
				fprintf(stderr, "unknown option -- %c\r\n",
				    optopt);
			usage();
		}
	}
}

static void __attribute__((noreturn))
kill_agent(int csh)
{
	const char *s = getenv(PID_ENV), *un = csh ? "unsetenv" : "unset";
	char *end;
	long pid;

	if (s == NULL) {
		fprintf(stderr, "%s not set, cannot kill agent\n", PID_ENV);
		exit(1);
	}
	errno = 0;
	pid = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || pid < 2 ||
	    pid > INT_MAX) {
		fprintf(stderr, "%s=\"%s\", which is not a good PID: %s\n",
		    PID_ENV, s, *s == '\0' || *end != '\0' ? "invalid" :
		    pid < 2 ? "too small" : "too large");
		exit(1);
	}
	if (kill((pid_t)pid, SIGTERM) == -1) {
		perror("kill");
		exit(1);
	}
	printf("%s %s;\n", un, SOCK_ENV);
	printf("%s %s;\n", un, PID_ENV);
	printf("echo Agent pid %ld killed;\n", pid);
	exit(0);
}

static void
print_var(int csh, const char *name, const char *value)
{
	if (csh)
		printf("setenv %s %s;\n", name, value);
	else
		printf("%s=%s; export %s;\n", name, value, name);
}

/* The socket path: -a, or agent.<pid> in a fresh private directory. */
static void
make_socket_name(const struct opts *o, pid_t parent)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;

	if (o->bind_address != NULL) {
		if (strlen(o->bind_address) >= sizeof(socket_name))
			fatal_exit("bind address too long");
		strcpy(socket_name, o->bind_address);
		return;
	}
	if (tmp == NULL || *tmp == '\0' || stat(tmp, &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		tmp = "/tmp";
	if ((size_t)snprintf(socket_dir, sizeof(socket_dir),
	    "%s/ssh-XXXXXXXXXXXX", tmp) >= sizeof(socket_dir) ||
	    mkdtemp(socket_dir) == NULL) {
		perror("mkdtemp: private socket dir");
		exit(1);
	}
	if ((size_t)snprintf(socket_name, sizeof(socket_name), "%s/agent.%ld",
	    socket_dir, (long)parent) >= sizeof(socket_name))
		fatal_exit("socket path too long");
}

static void
signal_handlers(int foreground)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	if (!foreground)
		sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = agent_loop_stop;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (foreground)
		sigaction(SIGINT, &sa, NULL);
}

/* The parent after the fork: print the variables, or run the command. */
static void __attribute__((noreturn))
parent_side(const struct opts *o, pid_t child, int argc, char **argv)
{
	char pidstr[32];

	snprintf(pidstr, sizeof(pidstr), "%ld", (long)child);
	if (argc == 0) {
		print_var(o->c_flag, SOCK_ENV, socket_name);
		print_var(o->c_flag, PID_ENV, pidstr);
		printf("echo Agent pid %s;\n", pidstr);
		exit(0);
	}
	if (setenv(SOCK_ENV, socket_name, 1) != 0 ||
	    setenv(PID_ENV, pidstr, 1) != 0) {
		perror("setenv");
		exit(1);
	}
	execvp(argv[0], argv);
	perror(argv[0]);
	exit(1);
}

static void
detach(void)
{
	int fd;

	if (setsid() == -1)
		log_error("setsid: %s", strerror(errno));
	(void)chdir("/");
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		(void)dup2(fd, STDIN_FILENO);
		(void)dup2(fd, STDOUT_FILENO);
		(void)dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct agent_loop l;
	struct rlimit rl = { 0, 0 };
	const char *shell;
	pid_t parent, pid;
	size_t len;
	int r, rc;

	memset(&o, 0, sizeof(o));
	memset(&l, 0, sizeof(l));
	o.cfg.fp_hash = KEY_FP_SHA256;
	o.cfg.confirm = agent_confirm;
	log_init("ssh-agent", LOG_LEVEL_INFO, LOG_AUTH, 1);
	parse_args(argc, argv, &o);
	argc -= optind;
	argv += optind;
	if (argc > 0 && (o.c_flag || o.k_flag || o.s_flag || o.d_flag ||
	    o.D_flag))
		usage();
	if (argc == 0 && !o.c_flag && !o.s_flag &&
	    (shell = getenv("SHELL")) != NULL && (len = strlen(shell)) > 2 &&
	    strcmp(shell + len - 3, "csh") == 0)
		o.c_flag = 1;
	if (o.k_flag)
		kill_agent(o.c_flag);

	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	parent = getpid();
	make_socket_name(&o, parent);
	if ((r = agent_listen(socket_name, &l.listen_fd)) != 0) {
		fprintf(stderr, "unix_listener: cannot bind to path %s: %s\r\n",
		    socket_name, strerror(errno));
		if (o.bind_address == NULL)
			cleanup_socket();
		exit(1);
	}
	if (o.d_flag || o.D_flag) {
		log_init("ssh-agent", o.d_flag ? LOG_LEVEL_DEBUG3 :
		    LOG_LEVEL_INFO, LOG_AUTH, 1);
		print_var(o.c_flag, SOCK_ENV, socket_name);
		printf("echo Agent pid %ld;\n", (long)parent);
		fflush(stdout);
	} else {
		fflush(stdout);
		if ((pid = fork()) < 0) {
			perror("fork");
			cleanup_socket();
			exit(1);
		}
		if (pid != 0) {
			close(l.listen_fd);
			parent_side(&o, pid, argc, argv);
		}
		log_init("ssh-agent", LOG_LEVEL_INFO, LOG_AUTH, 0);
		detach();
		(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		if (argc > 0)
			l.watch_parent = parent;
	}
	(void)setrlimit(RLIMIT_CORE, &rl);
	signal_handlers(o.d_flag || o.D_flag);
	(void)agentd_new(&o.cfg, &l.store);
	rc = agent_loop_run(&l);
	agentd_free(l.store);
	close(l.listen_fd);
	cleanup_socket();
	return rc;
}
