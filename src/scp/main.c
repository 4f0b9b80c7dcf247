/*
 * main.c: scp, the remote file copy program.
 *
 * The flags are OpenSSH's scp(1). Each source is copied to the target
 * the way its operands say: local to local with cp(1); to or from a
 * remote host over SFTP (ssh's "sftp" subsystem, or with -D a server
 * run directly), or with -O over the old rcp protocol by running
 * "scp -t" or "scp -f" there; remote to remote through this host (the
 * default, -3) or with -R by running scp on the source host. The
 * hidden -t and -f make this program that far end.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "scp.h"
#include "sftp_prog.h"

static void
usage(void)
{
	fprintf(stderr,
	    "usage: scp [-346ABCOpqRrsTv] [-c cipher] [-D sftp_server_path]"
	    " [-F ssh_config]\n"
	    "           [-i identity_file] [-J destination] [-l limit]"
	    " [-o ssh_option]\n"
	    "           [-P port] [-S program] [-X sftp_option]"
	    " source ... target\n");
	exit(1);
}

static void
push(char ***v, size_t *n, const char *s)
{
	*v = x_reallocarray(*v, *n + 2, sizeof(**v));
	(*v)[(*n)++] = x_strdup(s);
	(*v)[*n] = NULL;
}

void
scp_err(struct scp *g, const char *fmt, ...)
{
	va_list ap;

	g->errs++;
	fprintf(stderr, "scp: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\r\n");
}

int
scp_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The argv of ssh (or -D's server) for host and a command. */
static char **
connect_argv(struct scp *g, const struct rpath *r, const char *cmd,
    int subsystem, int batch, size_t *np)
{
	const char *user = r->user, *host = r->host;
	const char *port = r->port != NULL ? r->port : g->port;
	char **v = NULL;
	size_t n = 0, i;

	if (subsystem && g->sftp_direct != NULL) {
		/* The server itself, given what ssh would have been. */
		push(&v, &n, g->sftp_direct);
	} else {
		for (i = 0; i < g->nssh; i++)
			push(&v, &n, g->ssh[i]);
		if (port != NULL) {
			push(&v, &n, "-p");
			push(&v, &n, port);
		}
		if (user != NULL) {
			push(&v, &n, "-l");
			push(&v, &n, user);
		}
		if (batch)
			push(&v, &n, "-oBatchMode=yes");
		if (subsystem)
			push(&v, &n, "-s");
	}
	push(&v, &n, "--");
	push(&v, &n, host);
	push(&v, &n, cmd);
	if (g->verbose)
		fprintf(stderr, "Executing: program %s host %s, user %s, "
		    "command %s\n", v[0], host, user ? user : "(unspecified)",
		    cmd);
	*np = n;
	return v;
}

int
scp_connect(struct scp *g, const struct rpath *rp, const char *cmd,
    int subsystem, int *in_fd, int *out_fd, pid_t *pid)
{
	size_t n;
	char **v = connect_argv(g, rp, cmd, subsystem, 0, &n);
	int r;

	r = sftp_spawn(v, 0, in_fd, out_fd, pid);
	if (r != 0)
		fprintf(stderr, "scp: fork: %s\n", strerror(errno));
	scp_free_strv(v, n);
	return r == 0 ? 0 : -1;
}

/* host:path, [user@]host:path, [v6addr]:path; NULL when local. */
static const char *
colon(const char *s)
{
	int bracket = 0;

	if (*s == ':')
		return NULL;
	if (*s == '[')
		bracket = 1;
	for (; *s != '\0'; s++) {
		if (*s == '@' && s[1] == '[')
			bracket = 1;
		if (*s == ']' && s[1] == ':' && bracket)
			return s + 1;
		if (*s == ':' && !bracket)
			return s;
		if (*s == '/')
			return NULL;
	}
	return NULL;
}

/* %XX escapes decoded; NULL for a bad one or one that makes a NUL. */
static char *
url_decode(const char *s, size_t len)
{
	char *out = x_malloc(len + 1), *o = out, hex[3] = { 0 };
	size_t i;
	unsigned long v;

	for (i = 0; i < len; i++) {
		if (s[i] != '%') {
			*o++ = s[i];
			continue;
		}
		if (i + 2 >= len ||
		    !isxdigit((unsigned char)s[i + 1]) ||
		    !isxdigit((unsigned char)s[i + 2]) ||
		    (v = strtoul(memcpy(hex, s + i + 1, 2), NULL, 16)) == 0) {
			x_free(out);
			return NULL;
		}
		*o++ = (char)v;
		i += 2;
	}
	*o = '\0';
	return out;
}

/*
 * scp://[user@]host[:port][/path] (RFC 3986 syntax, as OpenSSH's scp
 * takes it): the path is relative to the login directory ("//" starts
 * an absolute one), none means "."; user and path may hold %XX.
 */
static int
split_uri(const char *s, struct rpath *r)
{
	const char *a = s + 6, *slash = strchr(a, '/'), *at, *hp, *pc;
	size_t alen = slash != NULL ? (size_t)(slash - a) : strlen(a);
	char *end;
	unsigned long port;

	for (at = NULL, hp = a; hp < a + alen; hp++)
		if (*hp == '@')
			at = hp;
	if (at != NULL && (r->user = url_decode(a, (size_t)(at - a))) == NULL)
		return -1;
	if (r->user != NULL && *r->user == '\0') {
		x_free(r->user);
		r->user = NULL;
	}
	hp = at != NULL ? at + 1 : a;
	if (*hp == '[') {
		if ((pc = memchr(hp, ']', alen - (size_t)(hp - a))) == NULL)
			return -1;
		r->host = x_strndup(hp + 1, (size_t)(pc - hp - 1));
		pc++;
	} else {
		for (pc = hp; pc < a + alen && *pc != ':'; pc++)
			;
		r->host = x_strndup(hp, (size_t)(pc - hp));
	}
	if (*r->host == '\0' || strchr(r->host, '%') != NULL)
		return -1;
	if (pc < a + alen) {
		if (*pc != ':')
			return -1;
		r->port = x_strndup(pc + 1, alen - (size_t)(pc + 1 - a));
		errno = 0;
		port = strtoul(r->port, &end, 10);
		if (*r->port == '\0' || *end != '\0' || errno != 0 ||
		    port == 0 || port > 65535)
			return -1;
	}
	if (slash == NULL || slash[1] == '\0')
		r->path = x_strdup(".");
	else if ((r->path = url_decode(slash + 1, strlen(slash + 1))) == NULL)
		return -1;
	return 0;
}

static int
is_remote(const char *s)
{
	return strncmp(s, "scp://", 6) == 0 || colon(s) != NULL;
}

static int
split_remote(const char *s, struct rpath *r)
{
	const char *c = colon(s), *at;
	char *h;

	memset(r, 0, sizeof(*r));
	if (strncmp(s, "scp://", 6) == 0) {
		if (split_uri(s, r) == 0)
			return 0;
		fprintf(stderr, "%s: invalid uri\n", s);
		exit(1);
	}
	if (c == NULL)
		return -1;
	h = x_strndup(s, (size_t)(c - s));
	r->path = x_strdup(c + 1);
	if ((at = strrchr(h, '@')) != NULL) {
		r->user = x_strndup(h, (size_t)(at - h));
		memmove(h, at + 1, strlen(at + 1) + 1);
		if (*r->user == '\0') {
			x_free(r->user);
			r->user = NULL;
		}
	}
	if (h[0] == '[' && strlen(h) > 1 && h[strlen(h) - 1] == ']') {
		h[strlen(h) - 1] = '\0';
		memmove(h, h + 1, strlen(h));
	}
	r->host = h;
	return 0;
}

static void
free_rpath(struct rpath *r)
{
	x_free(r->user);
	x_free(r->host);
	x_free(r->path);
	x_free(r->port);
	memset(r, 0, sizeof(*r));
}

/* "scp -v -r -p -d -f --": the command of a legacy far end. */
static char *
remote_cmd(struct scp *g, const char *mode, const char *path)
{
	char *q = scp_shell_quote(*path ? path : "."), *c;

	c = x_asprintf("scp%s%s%s%s %s -- %s", g->verbose ? " -v" : "",
	    g->recurse ? " -r" : "", g->preserve ? " -p" : "",
	    g->targetdir ? " -d" : "", mode, q);
	x_free(q);
	return c;
}

static void
local_copy(struct scp *g, const char *src, const char *target)
{
	char *v[8];
	int n = 0, st;
	pid_t pid;

	v[n++] = "cp";
	if (g->recurse)
		v[n++] = "-r";
	if (g->preserve)
		v[n++] = "-p";
	v[n++] = "--";
	v[n++] = (char *)src;
	v[n++] = (char *)target;
	v[n] = NULL;
	if (g->verbose)
		fprintf(stderr, "Executing: cp %s %s\n", src, target);
	if ((pid = fork()) == -1) {
		scp_err(g, "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		execvp(v[0], v);
		perror("cp");
		_exit(1);
	}
	if ((st = scp_wait(pid)) != 0)
		g->errs++;
}

static void
legacy_download(struct scp *g, const struct rpath *s, const char *target)
{
	char *cmd = remote_cmd(g, "-f", s->path);
	int in, out;
	pid_t pid;

	if (scp_connect(g, s, cmd, 0, &in, &out, &pid) == 0) {
		(void)legacy_sink(g, in, out, target, s->path);
		close(in);
		close(out);
		/* ssh's status: a far end that never ran is an error. */
		if (scp_wait(pid) != 0)
			g->errs++;
	} else
		g->errs++;
	x_free(cmd);
}

static void
legacy_upload(struct scp *g, char **src, size_t n, const struct rpath *t)
{
	char *cmd = remote_cmd(g, "-t", t->path);
	int in, out;
	pid_t pid;

	if (scp_connect(g, t, cmd, 0, &in, &out, &pid) == 0) {
		(void)legacy_source(g, in, out, src, n);
		close(in);
		close(out);
		if (scp_wait(pid) != 0)
			g->errs++;
	} else
		g->errs++;
	x_free(cmd);
}

/* -3 -O: the far ends talk to each other, their ssh wired together
 * here (the second in batch mode: the terminal is the first's). */
static void
legacy_through(struct scp *g, const struct rpath *s, const struct rpath *t)
{
	char *fcmd = remote_cmd(g, "-f", s->path), *tcmd;
	char **v;
	size_t n;
	int in, out;
	pid_t p1, p2;

	tcmd = remote_cmd(g, "-t", t->path);
	if (scp_connect(g, s, fcmd, 0, &in, &out, &p1) != 0) {
		g->errs++;
		goto out;
	}
	v = connect_argv(g, t, tcmd, 0, 1, &n);
	if ((p2 = fork()) == -1) {
		scp_err(g, "fork: %s", strerror(errno));
	} else if (p2 == 0) {
		if (dup2(in, STDIN_FILENO) == -1 ||
		    dup2(out, STDOUT_FILENO) == -1)
			_exit(1);
		close(in);
		close(out);
		signal(SIGPIPE, SIG_DFL);
		execvp(v[0], v);
		fprintf(stderr, "exec: %s: %s\n", v[0], strerror(errno));
		_exit(1);
	}
	scp_free_strv(v, n);
	close(in);
	close(out);
	if (p2 != -1 && scp_wait(p2) != 0)
		g->errs++;
	if (scp_wait(p1) != 0)
		g->errs++;
out:
	x_free(fcmd);
	x_free(tcmd);
}

/* -R: scp runs on the source host and copies from there. */
static void
remote_direct(struct scp *g, const struct rpath *s, const char *target)
{
	char **v = NULL, *q;
	size_t n = 0, i;
	pid_t pid;

	push(&v, &n, g->ssh[0]);
	push(&v, &n, "-x");
	push(&v, &n, "-oClearAllForwardings=yes");
	push(&v, &n, "-n");
	for (i = 0; i < g->npass; i++)
		push(&v, &n, g->pass_flags[i]);
	if (g->port != NULL) {
		push(&v, &n, "-p");
		push(&v, &n, g->port);
	}
	if (s->user != NULL) {
		push(&v, &n, "-l");
		push(&v, &n, s->user);
	}
	push(&v, &n, "--");
	push(&v, &n, s->host);
	/* ssh joins these words into the command line of the far end. */
	q = x_asprintf("scp%s%s%s%s%s%s", g->verbose ? " -v" : "",
	    g->recurse ? " -r" : "", g->preserve ? " -p" : "",
	    g->quiet ? " -q" : "", g->legacy ? " -O" : "",
	    g->strict ? "" : " -T");
	push(&v, &n, q);
	x_free(q);
	push(&v, &n, "--");
	q = scp_shell_quote(*s->path ? s->path : ".");
	push(&v, &n, q);
	x_free(q);
	q = scp_shell_quote(target);
	push(&v, &n, q);
	x_free(q);
	if (g->verbose)
		fprintf(stderr, "Executing: program %s host %s, user %s, "
		    "command scp\n", v[0], s->host,
		    s->user ? s->user : "(unspecified)");
	if ((pid = fork()) == -1)
		scp_err(g, "fork: %s", strerror(errno));
	else if (pid == 0) {
		execvp(v[0], v);
		fprintf(stderr, "exec: %s: %s\n", v[0], strerror(errno));
		_exit(1);
	} else if (scp_wait(pid) != 0)
		g->errs++;
	scp_free_strv(v, n);
}

static void
to_remote(struct scp *g, char **srcs, size_t nsrc, const char *targ)
{
	struct rpath t, s;
	char **local = NULL;
	size_t nlocal = 0, i;

	(void)split_remote(targ, &t);
	for (i = 0; i < nsrc; i++) {
		if (split_remote(srcs[i], &s) != 0) {
			push(&local, &nlocal, srcs[i]);
			continue;
		}
		if (!g->through_local)
			remote_direct(g, &s, targ);
		else if (g->legacy)
			legacy_through(g, &s, &t);
		else
			(void)sftp_remote2remote(g, &s, &t);
		free_rpath(&s);
	}
	if (nlocal > 0) {
		if (g->legacy)
			legacy_upload(g, local, nlocal, &t);
		else
			(void)sftp_upload(g, local, nlocal, &t);
	}
	scp_free_strv(local, nlocal);
	free_rpath(&t);
}

static void
to_local(struct scp *g, char **srcs, size_t nsrc, const char *targ)
{
	struct rpath s;
	size_t i;

	for (i = 0; i < nsrc; i++) {
		if (split_remote(srcs[i], &s) != 0) {
			local_copy(g, srcs[i], targ);
			continue;
		}
		if (g->legacy)
			legacy_download(g, &s, targ);
		else
			(void)sftp_download(g, &s, targ);
		free_rpath(&s);
	}
}

/* The far end: -t receives into one target, -f sends its arguments. */
static int
far_end(struct scp *g, int tflag, int argc, char **argv)
{
	g->remote = 1;
	if (tflag) {
		if (argc != 1) {
			legacy_run_err(g, STDOUT_FILENO, "ambiguous target");
			return 1;
		}
		(void)legacy_sink(g, STDIN_FILENO, STDOUT_FILENO, argv[0],
		    NULL);
	} else
		(void)legacy_source(g, STDIN_FILENO, STDOUT_FILENO, argv,
		    (size_t)argc);
	return g->errs ? 1 : 0;
}

static unsigned long
number(const char *s, unsigned long min, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *s == '-' || *end != '\0' || errno != 0 ||
	    v < min || v > max)
		return 0;
	return v;
}

static void
sftp_option(struct scp *g, const char *o)
{
	unsigned long v = 0;

	if (strncmp(o, "buffer=", 7) == 0 &&
	    (v = number(o + 7, 1, 256 * 1024)) != 0)
		g->so.buflen = (uint32_t)v;
	else if (strncmp(o, "nrequests=", 10) == 0 &&
	    (v = number(o + 10, 1, 4096)) != 0)
		g->so.num_requests = (uint32_t)v;
	else {
		fprintf(stderr, "scp: Invalid -X option\n");
		exit(255);
	}
}

struct cmdline {
	int tflag, fflag;
	char **user_opts;	/* for ssh */
	size_t nuser;
};

/* A flag for ssh, and for a remote scp's ssh (-R). */
static void
ssh_flag(struct scp *g, struct cmdline *cl, const char *f, const char *arg)
{
	push(&cl->user_opts, &cl->nuser, f);
	push(&g->pass_flags, &g->npass, f);
	if (arg != NULL) {
		push(&cl->user_opts, &cl->nuser, arg);
		push(&g->pass_flags, &g->npass, arg);
	}
}

static void
parse_flags(struct scp *g, struct cmdline *cl, int argc, char **argv)
{
	char opt[3] = { '-', 0, 0 };
	int ch;

	opterr = 0;
	while ((ch = getopt(argc, argv,
	    ":12346ABCTdfOpqRrstvD:F:J:P:S:c:i:l:o:X:")) != -1) {
		opt[1] = (char)ch;
		switch (ch) {
		case '1':
			fprintf(stderr, "scp: SSH protocol v.1 is no longer "
			    "supported\n");
			exit(1);
		case '2':
			break;
		case 'A': case '4': case '6': case 'C':
			ssh_flag(g, cl, opt, NULL);
			break;
		case '3': g->through_local = 1; break;
		case 'R': g->through_local = 0; break;
		case 'B':
			ssh_flag(g, cl, "-oBatchmode=yes", NULL);
			g->batch = 1;
			break;
		case 'c': case 'F': case 'i': case 'J': case 'o':
			ssh_flag(g, cl, opt, optarg);
			break;
		case 'P':
			if (number(optarg, 1, 65535) == 0) {
				fprintf(stderr, "scp: bad port \"%s\"\n",
				    optarg);
				exit(255);
			}
			g->port = optarg;
			break;
		case 'S': g->ssh_program = optarg; break;
		case 'D': g->sftp_direct = optarg; break;
		case 'l':
			if ((g->limit_kbps = number(optarg, 1,
			    100 * 1024 * 1024)) == 0)
				usage();
			g->so.limit_kbps = g->limit_kbps;
			break;
		case 'O': g->legacy = 1; break;
		case 's': g->legacy = 0; break;
		case 'p': g->preserve = 1; break;
		case 'r': g->recurse = 1; break;
		case 'T': g->strict = 0; break;
		case 'q':
			g->quiet = 1;
			ssh_flag(g, cl, opt, NULL);
			break;
		case 'v':
			g->verbose = 1;
			ssh_flag(g, cl, opt, NULL);
			break;
		case 'X': sftp_option(g, optarg); break;
		case 'd': g->targetdir = 1; break;
		case 'f': cl->fflag = 1; break;
		case 't': cl->tflag = 1; break;
		case ':':
			fprintf(stderr, "scp: option requires an argument -- "
			    "%c\n", optopt);
			usage();
			break;
		default:
			fprintf(stderr, "scp: unknown option -- %c\n", optopt);
			usage();
		}
	}
}

int
main(int argc, char **argv)
{
	struct scp g;
	struct cmdline cl;
	size_t nsrc, i;
	char *targ;

	memset(&g, 0, sizeof(g));
	memset(&cl, 0, sizeof(cl));
	g.strict = 1;
	g.through_local = 1;
	g.ssh_program = "ssh";
	signal(SIGPIPE, SIG_IGN);
	log_init("scp", LOG_LEVEL_INFO, 0, 1);
	parse_flags(&g, &cl, argc, argv);
	argc -= optind;
	argv += optind;
	if (cl.tflag || cl.fflag) {
		i = (size_t)far_end(&g, cl.tflag, argc, argv);
		scp_free_strv(cl.user_opts, cl.nuser);
		scp_free_strv(g.pass_flags, g.npass);
		return (int)i;
	}
	if (argc < 2)
		usage();

	/* ssh as OpenSSH's scp runs it: no X11, no forwardings, no tty. */
	push(&g.ssh, &g.nssh, g.ssh_program);
	push(&g.ssh, &g.nssh, "-x");
	push(&g.ssh, &g.nssh, "-oPermitLocalCommand=no");
	push(&g.ssh, &g.nssh, "-oClearAllForwardings=yes");
	push(&g.ssh, &g.nssh, "-oRemoteCommand=none");
	push(&g.ssh, &g.nssh, "-oRequestTTY=no");
	for (i = 0; i < cl.nuser; i++)
		push(&g.ssh, &g.nssh, cl.user_opts[i]);
	/* After -A, whose value ssh takes first. */
	push(&g.ssh, &g.nssh, "-oForwardAgent=no");

	nsrc = (size_t)argc - 1;
	targ = argv[argc - 1];
	if (nsrc > 1)
		g.targetdir = 1;
	if (is_remote(targ))
		to_remote(&g, argv, nsrc, targ);
	else {
		struct stat st;

		if (g.targetdir && (stat(targ, &st) != 0 ||
		    !S_ISDIR(st.st_mode))) {
			fprintf(stderr, "%s: %s\n", targ, strerror(
			    stat(targ, &st) != 0 ? errno : ENOTDIR));
			exit(1);
		}
		to_local(&g, argv, nsrc, targ);
	}
	scp_free_strv(g.ssh, g.nssh);
	scp_free_strv(cl.user_opts, cl.nuser);
	scp_free_strv(g.pass_flags, g.npass);
	return g.errs ? 1 : 0;
}
