/*
 * sesschild.c: starting the child process of a session.
 *
 * The parent builds argv, marks the connection with the IPQoS value
 * (interactive for a pty session, bulk otherwise), forks, hands its
 * ends of the pipes (or a copy of the pty master) to the channel, and
 * closes the child's ends. The
 * child makes itself a session leader (with the pty as controlling
 * terminal, or the three pipes as 0/1/2), closes every other descriptor,
 * restores default signal handling, drops to the user when we are root
 * (and checks root cannot be regained), builds the environment as that
 * user (OpenSSH's variables and order, see build_env: it may read
 * ~/.ssh/environment), changes to the home directory,
 * prints PAM's login text for shells, and for pty ones then the "Last
 * login" line and /etc/motd (none of it when ~/.hushlogin exists), runs ~/.ssh/rc or /etc/ssh/sshrc, and execs
 * "shell -c command" or the login shell
 * ("-" + basename as argv[0]). A failure in the child is written to its
 * stderr and it exits 1.
 *
 * A pty session is a login: the parent reads the lastlog message before
 * it forks and, once the child's pid is known, records the login in
 * utmp, wtmp and lastlog (as root; session.c records the logout).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "authopts.h"
#include "channel.h"
#include "err.h"
#include "fdio.h"
#include "fwd_agent.h"
#include "x11srv.h"
#include "installdirs.h"
#include "log.h"
#include "loginrec.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "session.h"
#include "session_priv.h"
#include "tun_server.h"
#include "sftp_server.h"

#define SESS_PATH_USER	"/usr/local/bin:/usr/bin:/bin:/usr/games"
#define SESS_PATH_ROOT	"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#define SESS_MAILDIR	"/var/mail"
#define SESS_MOTD	"/etc/motd"
#define SESS_USER_RC	".ssh/rc"		/* relative to the home */
#define SESS_SYSTEM_RC	MOAT_SSHDIR "/sshrc"
#define SESS_INTERNAL_SFTP	"internal-sftp"
#define SESS_ISFTP_MAX_ARGS	64	/* words of an internal-sftp command */

static int sess_chrooted;	/* session_set_chrooted() */
static const char *sess_auth_info;	/* session_set_auth_info() */
static char *sess_login_text;		/* session_set_login_text() */
#define SESS_PIPE_SIZE	(1024 * 1024)	/* stdin/stdout pipes of a command */

static const char *
user_shell(const struct passwd *pw)
{
	return (pw->pw_shell != NULL && *pw->pw_shell != '\0') ?
	    pw->pw_shell : "/bin/sh";
}

/*
 * The child's environment, in OpenSSH's order (a later one replaces an
 * earlier one): what the client sent (AcceptEnv), the login variables,
 * TERM, SSH_AUTH_SOCK when agent forwarding listens, then -- when
 * PermitUserEnvironment allows the name -- the
 * key's environment= options and ~/.ssh/environment (read here, so call
 * this as the user), then SetEnv, and last what only the server knows.
 */
static void
build_env(struct session *s, const char *original_command,
    struct sess_env *e)
{
	const struct sess_conn *conn = s->conn;
	const struct passwd *pw = conn->pw;
	const struct servconf *sc = conn->sc;
	size_t i;
	char *v, *eq;

	for (i = 0; i < s->env.n; i++)
		(void)sess_env_put(e, s->env.v[i]);
	sess_env_set(e, "USER", pw->pw_name);
	sess_env_set(e, "LOGNAME", pw->pw_name);
	sess_env_set(e, "HOME", pw->pw_dir);
	sess_env_set(e, "PATH", pw->pw_uid == 0 ? SESS_PATH_ROOT :
	    SESS_PATH_USER);
	v = x_asprintf("%s/%s", SESS_MAILDIR, pw->pw_name);
	sess_env_set(e, "MAIL", v);
	x_free(v);
	sess_env_set(e, "SHELL", user_shell(pw));
	if (s->ptyfd != -1 && s->term != NULL && *s->term != '\0')
		sess_env_set(e, "TERM", s->term);
	if (conn->agent != NULL)
		sess_env_set(e, "SSH_AUTH_SOCK", fwd_agent_path(conn->agent));
	if (s->x11 != NULL)
		sess_env_set(e, "DISPLAY", x11_srv_display(s->x11));
	for (i = 0; conn->opts != NULL && i < conn->opts->nenv; i++) {
		v = x_strdup(conn->opts->env[i]);
		if ((eq = strchr(v, '=')) != NULL) {
			*eq = '\0';
			if (*v != '\0' && sess_user_env_allowed(sc, v))
				sess_env_set(e, v, eq + 1);
		}
		x_free(v);
	}
	if (sc->permit_user_environment) {
		v = x_asprintf("%s/.ssh/environment", pw->pw_dir);
		sess_env_read_file(e, sc, v, stderr);
		x_free(v);
	}
	for (i = 0; i < sc->nset_env; i++)
		(void)sess_env_put(e, sc->set_env[i]);
	/* What the server knows beats what the client asked for. */
	v = x_asprintf("%s %d %d", conn->raddr, conn->rport, conn->lport);
	sess_env_set(e, "SSH_CLIENT", v);
	x_free(v);
	v = x_asprintf("%s %d %s %d", conn->raddr, conn->rport, conn->laddr,
	    conn->lport);
	sess_env_set(e, "SSH_CONNECTION", v);
	x_free(v);
	if (sess_auth_info != NULL)
		sess_env_set(e, "SSH_USER_AUTH", sess_auth_info);
	if (s->ptyfd != -1)
		sess_env_set(e, "SSH_TTY", s->ttyname);
	if (original_command != NULL)
		sess_env_set(e, "SSH_ORIGINAL_COMMAND", original_command);
	if (tun_server_ifnames(conn->tun) != NULL)
		sess_env_set(e, "SSH_TUNNEL", tun_server_ifnames(conn->tun));
}

static void __attribute__((noreturn))
child_fail(const char *what)
{
	char msg[256];
	int n = snprintf(msg, sizeof(msg), "%s: %s\r\n", what,
	    strerror(errno));

	if (n > 0)
		(void)!write(STDERR_FILENO, msg,
		    (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	_exit(1);
}

static void
close_from(int lowfd)
{
	long max, fd;

#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
	if (close_range((unsigned int)lowfd, ~0U, 0) == 0)
		return;
#endif
	if ((max = sysconf(_SC_OPEN_MAX)) < 0 || max > 65536)
		max = 65536;
	for (fd = lowfd; fd < max; fd++)
		(void)close((int)fd);
}

int
sess_become_user(const struct passwd *pw, const char *chroot_path,
    const char **whatp)
{
	*whatp = "initgroups";
	if (initgroups(pw->pw_name, pw->pw_gid) != 0)
		return ERR_SYSTEM;
	*whatp = "setgid";
	if (setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) != 0)
		return ERR_SYSTEM;
	*whatp = "chroot";
	if (chroot_path != NULL &&
	    (chdir(chroot_path) != 0 || chroot(".") != 0 || chdir("/") != 0))
		return ERR_SYSTEM;
	*whatp = "setuid";
	if (setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) != 0)
		return ERR_SYSTEM;
	*whatp = "was able to restore root";
	if (pw->pw_uid != 0 && (setuid(0) != -1 || seteuid(0) != -1)) {
		errno = EPERM;
		return ERR_SYSTEM;
	}
	*whatp = NULL;
	return 0;
}

static void
drop_privileges(const struct passwd *pw, const char *chroot_path)
{
	const char *what;

	if (geteuid() != 0)
		return;		/* we are the user already (session_serve) */
	if (sess_become_user(pw, chroot_path, &what) != 0)
		child_fail(what);
}

static void
print_motd(void)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if ((fd = open(SESS_MOTD, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			break;
	close(fd);
}

static void
write_all(const char *text)
{
	(void)fd_write_full(STDOUT_FILENO, text, strlen(text));
}

/*
 * What a shell prints first, unless ~/.hushlogin (cwd is home): PAM's
 * text for any shell, then for a pty one (a login) the "Last login"
 * line and the motd -- OpenSSH's order and rule.
 */
static void
print_login_messages(const struct servconf *sc, int pty,
    const char *lastlog_msg)
{
	if (access(".hushlogin", F_OK) == 0)
		return;
	if (sess_login_text != NULL)
		write_all(sess_login_text);
	if (!pty)
		return;
	write_all(lastlog_msg);
	if (sc->print_motd)
		print_motd();
}

/* Run argv (a shell) with input (NULL: nothing) on its stdin; wait. */
static void
run_and_wait(char **argv, char **envp, const char *input)
{
	pid_t pid;
	int fd, status, p[2] = { -1, -1 };

	if (input != NULL && pipe(p) != 0)
		return;
	if ((pid = fork()) == -1) {
		if (p[0] != -1) {
			close(p[0]);
			close(p[1]);
		}
		return;
	}
	if (pid == 0) {
		if (p[0] != -1) {
			close(p[1]);
			fd = p[0];
		} else
			fd = open("/dev/null", O_RDONLY);
		if (fd != -1 && fd != STDIN_FILENO) {
			(void)dup2(fd, STDIN_FILENO);
			close(fd);
		}
		execve(argv[0], argv, envp);
		_exit(127);
	}
	if (p[0] != -1) {
		close(p[0]);
		(void)fd_write_full(p[1], input, strlen(input));
		close(p[1]);
	}
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
}

/*
 * ~/.ssh/rc (through the user's shell), else /etc/ssh/sshrc (through
 * /bin/sh), before the command or shell, as OpenSSH does; with X11
 * forwarding their stdin holds "PROTO COOKIE", and with neither file
 * XAuthLocation adds the cookie for DISPLAY itself. The
 * user's file is skipped for a subsystem, under ForceCommand, with
 * PermitUserRC no or a no-user-rc key option. The working directory is
 * the home.
 */
static void
run_rc_files(const struct session *s, char **envp)
{
	const struct sess_conn *conn = s->conn;
	const struct authopts *o = conn->opts;
	char *argv[4], *input;
	struct stat st;

	input = s->x11 != NULL ? x11_srv_rc_input(s->x11) : NULL;

	if (!s->is_subsystem && conn->sc->permit_user_rc &&
	    conn->sc->force_command == NULL &&
	    (o == NULL || o->permit_user_rc) && stat(SESS_USER_RC, &st) == 0) {
		argv[0] = (char *)user_shell(conn->pw);
		argv[1] = "-c";
		argv[2] = "/bin/sh " SESS_USER_RC;
		argv[3] = NULL;
		run_and_wait(argv, envp, input);
	} else if (stat(SESS_SYSTEM_RC, &st) == 0) {
		argv[0] = "/bin/sh";
		argv[1] = SESS_SYSTEM_RC;
		argv[2] = NULL;
		run_and_wait(argv, envp, input);
	} else if (s->x11 != NULL) {
		x_free(input);
		input = x11_srv_xauth_input(s->x11);
		argv[0] = conn->sc->xauth_location;
		argv[1] = "-q";
		argv[2] = "-";
		argv[3] = NULL;
		run_and_wait(argv, envp, input);
	}
	x_free(input);
}

int
sess_is_internal_sftp(const char *command)
{
	size_t n = strlen(SESS_INTERNAL_SFTP);

	return strncmp(command, SESS_INTERNAL_SFTP, n) == 0 &&
	    (command[n] == '\0' || command[n] == ' ' || command[n] == '\t');
}

/*
 * The SFTP server in the child itself, as the user and inside the
 * ChrootDirectory (nothing need be installed in the jail). Its flags are
 * the command's words after "internal-sftp", split at spaces as
 * OpenSSH's are; the session's environment is the process's, so the
 * server's log lines name the client. A forced internal-sftp asked for a
 * shell or command refuses it with OpenSSH's words.
 */
static void __attribute__((noreturn))
internal_sftp(struct session *s, const char *command, char **envp)
{
	char *args, *word, *save = NULL, *argv[SESS_ISFTP_MAX_ARGS + 1];
	int argc = 0;

	if (s->internal_sftp == SESS_ISFTP_REFUSE) {
		log_error("Connection from %s: refusing non-sftp session",
		    s->conn->raddr);
		printf("This service allows sftp connections only.\n");
		fflush(stdout);
		_exit(1);
	}
	environ = envp;
	args = x_strdup(command);
	for (word = strtok_r(args, " ", &save); word != NULL;
	    word = strtok_r(NULL, " ", &save))
		if (argc < SESS_ISFTP_MAX_ARGS)
			argv[argc++] = word;
	argv[argc] = NULL;
	fflush(NULL);
	_exit(sftp_server_main(argc, argv, s->conn->pw));
}

static void __attribute__((noreturn))
child_run(struct session *s, const char *command,
    const char *original_command, char **argv, int fds[3],
    const char *lastlog_msg)
{
	const struct passwd *pw = s->conn->pw;
	struct sess_env env = { NULL, 0 };
	sigset_t none;
	int i;

	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	for (i = 1; i < NSIG; i++)
		(void)signal(i, SIG_DFL);
	if (setsid() == -1)
		child_fail("setsid");
	if (s->ttyfd != -1 &&
	    ioctl(s->ttyfd, TIOCSCTTY, 0) != 0)
		child_fail("TIOCSCTTY");
	for (i = 0; i < 3; i++) {
		if (fds[i] == i)	/* dup2 would keep close-on-exec */
			(void)fcntl(i, F_SETFD, 0);
		else if (dup2(fds[i], i) == -1)
			child_fail("dup2");
	}
	close_from(3);
	drop_privileges(pw, s->chroot_path);
	build_env(s, original_command, &env);
	/* A home missing inside a ChrootDirectory is no surprise: silent. */
	if (chdir(pw->pw_dir) != 0) {
		if (s->chroot_path == NULL && !sess_chrooted)
			fprintf(stderr, "Could not chdir to home directory "
			    "%s: %s\n", pw->pw_dir, strerror(errno));
		if (chdir("/") != 0)
			child_fail("chdir /");
	}
	if (command == NULL)
		print_login_messages(s->conn->sc, s->ttyfd != -1,
		    lastlog_msg);
	run_rc_files(s, env.v);
	if (s->internal_sftp != SESS_ISFTP_NO)
		internal_sftp(s, command, env.v);
	execve(user_shell(pw), argv, env.v);
	child_fail(user_shell(pw));
}

struct session_recorder sess_recorder;

void
session_set_chrooted(int chrooted)
{
	sess_chrooted = chrooted;
}

void
session_set_auth_info(const char *path)
{
	sess_auth_info = path;
}

void
session_set_login_text(const char *text)
{
	x_free(sess_login_text);
	sess_login_text = text != NULL ? x_strdup(text) : NULL;
}

void
session_set_recorder(const struct session_recorder *r)
{
	if (r != NULL)
		sess_recorder = *r;
	else
		memset(&sess_recorder, 0, sizeof(sess_recorder));
}

/* The pty session's login records, made by the (root) parent. */
static void
record_login(struct session *s)
{
	const struct sess_conn *conn = s->conn;

	if (sess_recorder.login != NULL) {
		if (sess_recorder.login(sess_recorder.arg, s->ttyname,
		    (long)s->pid) == 0)
			s->logged_in = 1;
		return;
	}
	if (geteuid() != 0) {
		log_debug("not root: no utmp/wtmp/lastlog records for %s",
		    s->ttyname);
		return;
	}
	(void)loginrec_login(loginrec_system_files(), s->ttyname, s->pid,
	    conn->pw->pw_name, conn->pw->pw_uid, conn->raddr, conn->raddr);
	s->logged_in = 1;
}

/* tty ownership for the user, as login(1) leaves it. */
static void
pty_setowner(struct session *s)
{
	const struct passwd *pw = s->conn->pw;
	struct group *gr;
	gid_t gid = pw->pw_gid;
	mode_t mode = 0600;

	if (geteuid() != 0)
		return;
	if ((gr = getgrnam("tty")) != NULL) {
		gid = gr->gr_gid;
		mode = 0620;
	}
	if (fchown(s->ttyfd, pw->pw_uid, gid) != 0 ||
	    fchmod(s->ttyfd, mode) != 0)
		log_error("pty %s: chown/chmod: %s", s->ttyname,
		    strerror(errno));
}

int
sess_spawn(struct session *s, const char *command,
    const char *original_command)
{
	const char *shell = user_shell(s->conn->pw), *base;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int fds[3], master = -1, r = ERR_SYSTEM;
	char *argv[4], *argv0, lastlog_msg[512];
	pid_t pid;

	base = strrchr(shell, '/') != NULL ? strrchr(shell, '/') + 1 : shell;
	if (command == NULL) {
		argv0 = x_asprintf("-%s", base);
		argv[1] = NULL;
	} else {
		argv0 = x_strdup(base);
		argv[1] = "-c";
		argv[2] = (char *)command;
		argv[3] = NULL;
	}
	argv[0] = argv0;
	lastlog_msg[0] = '\0';
	if (s->ptyfd != -1) {
		/* Read before this login overwrites the record. */
		if (s->conn->sc->print_last_log)
			(void)loginrec_last_message(loginrec_system_files(),
			    s->conn->pw->pw_uid, lastlog_msg,
			    sizeof(lastlog_msg));
		pty_setowner(s);
		if ((master = fcntl(s->ptyfd, F_DUPFD_CLOEXEC, 3)) == -1)
			goto out;
		fds[0] = fds[1] = fds[2] = s->ttyfd;
	} else {
		if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
		    pipe2(err, O_CLOEXEC) != 0)
			goto out;
		fds[0] = in[0];
		fds[1] = out[1];
		fds[2] = err[1];
		/*
		 * Bulk data: a 64 KiB pipe holds two packets, so the loop
		 * would mostly queue and copy; a larger pipe takes a whole
		 * read's worth of packets straight from the message.
		 * Best effort (the kernel caps it at pipe-max-size).
		 */
		(void)fcntl(in[1], F_SETPIPE_SZ, SESS_PIPE_SIZE);
		(void)fcntl(out[1], F_SETPIPE_SZ, SESS_PIPE_SIZE);
	}
	log_verbose("Starting session: %s%s%s for %s from %s port %d id %d",
	    command == NULL ? "shell" : "command",
	    s->ptyfd != -1 ? " on " : "", s->ptyfd != -1 ? s->ttyname : "",
	    s->conn->pw->pw_name, s->conn->raddr, s->conn->rport, s->id);
	/* OpenSSH's rule: a pty session is interactive, others bulk. */
	fd_set_tos(s->conn->sockfd, s->ptyfd != -1 ?
	    s->conn->sc->ipqos_interactive : s->conn->sc->ipqos_bulk);
	if ((pid = fork()) == -1) {
		log_error("fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		child_run(s, command, original_command, argv, fds,
		    lastlog_msg);
	s->pid = pid;
	if (s->ptyfd != -1) {
		record_login(s);
		close(s->ttyfd);
		s->ttyfd = -1;
		chan_set_fds(s->c, master, master, -1, CHAN_EFD_NONE, 1);
		master = -1;
	} else {
		close(in[0]);
		close(out[1]);
		close(err[1]);
		chan_set_fds(s->c, out[0], in[1], err[0], CHAN_EFD_READ, 0);
		in[1] = out[0] = err[0] = -1;
		in[0] = out[1] = err[1] = -1;
	}
	r = 0;
 out:
	if (r != 0)
		log_error("session %d: cannot start child: %s", s->id,
		    strerror(errno));
	if (master != -1)
		close(master);
	for (int i = 0; i < 2; i++) {
		if (in[i] != -1)
			close(in[i]);
		if (out[i] != -1)
			close(out[i]);
		if (err[i] != -1)
			close(err[i]);
	}
	x_free(argv0);
	return r;
}

/* Expand %h, %u and %% in a ChrootDirectory value (caller frees). */
static char *
expand_chroot(const char *spec, const struct passwd *pw)
{
	struct sbuf *b = sbuf_new();
	const char *p;
	char *out;

	for (p = spec; *p != '\0'; p++) {
		if (*p != '%') {
			sbuf_put_u8(b, (uint8_t)*p);
			continue;
		}
		p++;
		if (*p == 'h')
			sbuf_putf(b, "%s", pw->pw_dir);
		else if (*p == 'u')
			sbuf_putf(b, "%s", pw->pw_name);
		else if (*p == '%')
			sbuf_put_u8(b, '%');
		else {
			sbuf_free(b);
			return NULL;
		}
	}
	out = x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
	sbuf_free(b);
	return out;
}

int
sess_chroot_path(const char *spec, const struct passwd *pw, char **pathp)
{
	char *path, *comp, *slash;
	struct stat st;

	*pathp = NULL;
	if ((path = expand_chroot(spec, pw)) == NULL || path[0] != '/') {
		log_error("chroot path does not begin at root");
		x_free(path);
		return ERR_CONFIG;
	}
	/* Every component from / down to the path itself. */
	comp = x_strdup(path);
	for (slash = comp;; ) {
		char save;

		slash = strchr(slash + 1, '/');
		if (slash != NULL) {
			save = *slash;
			*slash = '\0';
		}
		if (stat(comp[0] ? comp : "/", &st) != 0) {
			log_error("Unable to chdir to chroot path \"%s\": %s",
			    path, strerror(errno));
			goto fail;
		}
		/* OpenSSH's words: a component above the path ends in "/". */
		if (st.st_uid != 0 || (st.st_mode & 022) != 0) {
			log_error("bad ownership or modes for chroot directory "
			    "%s\"%s%s\"", slash == NULL ? "" : "component ",
			    comp, slash == NULL ? "" : "/");
			goto fail;
		}
		if (!S_ISDIR(st.st_mode)) {
			log_error("chroot path %s\"%s%s\" is not a directory",
			    slash == NULL ? "" : "component ", comp,
			    slash == NULL ? "" : "/");
			goto fail;
		}
		if (slash == NULL)
			break;
		*slash = save;
	}
	x_free(comp);
	log_verbose("Changed root directory to \"%s\"", path);
	*pathp = path;
	return 0;
 fail:
	x_free(comp);
	x_free(path);
	return ERR_PERMISSION_DENIED;
}
