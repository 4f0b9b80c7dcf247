/*
 * main.c: sftp, the file transfer client.
 *
 * The flags are OpenSSH's sftp(1). The server is ssh's "sftp"
 * subsystem (ssh is run with the arguments OpenSSH's sftp gives it, so
 * ssh_config applies the same way), or with -D a server program run
 * directly. Commands come from a batch file (-b: each echoed, the first
 * failure ends the run with status 1 unless the line starts with '-'),
 * or from standard input. A destination host:path names the directory
 * to start in, or files to fetch at once.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp.h"

/* ^C during an interactive command: the transfer stops (see
 * sftp_client_set_cancel); at the prompt it is ignored. */
static volatile sig_atomic_t interrupted;

/* The terminal's streams before vis_streams filtered stdout/stderr. */
static FILE *tty_out, *tty_err;

static void
on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void
sigint_catch(int on)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on ? on_sigint : SIG_IGN;	/* no SA_RESTART */
	(void)sigaction(SIGINT, &sa, NULL);
}

/*
 * Log lines (-v) go out as OpenSSH's sftp writes them: through the
 * stderr filter, which escapes as its log does, and ended by "\r\n"
 * whether or not stderr is a terminal.
 */
static void
log_line(int level, const char *text, void *arg)
{
	(void)arg;
	fprintf(stderr, "%s%s\r\n", level == LOG_LEVEL_DEBUG1 ? "debug1: " :
	    level == LOG_LEVEL_DEBUG2 ? "debug2: " : level >= LOG_LEVEL_DEBUG3 ?
	    "debug3: " : "", text);
}

struct args {
	char **v;
	size_t n;
};

static void
addarg(struct args *a, const char *s)
{
	a->v = x_reallocarray(a->v, a->n + 2, sizeof(*a->v));
	a->v[a->n++] = x_strdup(s);
	a->v[a->n] = NULL;
}

static void
free_args(struct args *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		x_free(a->v[i]);
	x_free(a->v);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: sftp [-46AaCfNpqrv] [-B buffer_size] [-b batchfile] "
	    "[-c cipher]\n"
	    "          [-D sftp_server_command] [-F ssh_config] "
	    "[-i identity_file]\n"
	    "          [-J destination] [-l limit] [-o ssh_option] "
	    "[-P port]\n"
	    "          [-R num_requests] [-S program] "
	    "[-s subsystem | sftp_server]\n"
	    "          [-X sftp_option] destination\n");
	exit(1);
}

static unsigned long
number(const char *s, unsigned long min, unsigned long max, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *s == '-' || *end != '\0' || errno != 0 ||
	    v < min || v > max) {
		if (what == NULL)
			usage();
		fprintf(stderr, "Invalid %s \"%s\"\r\n", what, s);
		exit(255);
	}
	return v;
}

/* The server (or ssh); an interactive session's ^C is ours, not the
 * server's. */
static pid_t
start_server(char **argv, int *in_fd, int *out_fd, int interactive)
{
	pid_t pid;

	if (sftp_spawn(argv, interactive, in_fd, out_fd, &pid) != 0) {
		fprintf(stderr, "pipe/fork: %s\r\n", strerror(errno));
		exit(1);
	}
	return pid;
}

struct dest {
	char *user, *host, *port, *path;
};

/* [user@]host[:path] or sftp://[user@]host[:port][/path]. */
static int
parse_dest(const char *s, struct dest *d)
{
	char *t, *p, *at;

	memset(d, 0, sizeof(*d));
	if (strncmp(s, "sftp://", 7) == 0) {
		t = x_strdup(s + 7);
		if ((p = strchr(t, '/')) != NULL) {
			d->path = x_strdup(p + 1);
			*p = '\0';
		}
		if ((at = strrchr(t, '@')) != NULL) {
			*at = '\0';
			d->user = x_strdup(t);
			memmove(t, at + 1, strlen(at + 1) + 1);
		}
		p = t[0] == '[' ? strchr(t, ']') : t;
		if (p != NULL && (p = strchr(p, ':')) != NULL) {
			*p = '\0';
			d->port = x_strdup(p + 1);
		}
	} else {
		t = x_strdup(s);
		if ((at = strrchr(t, '@')) != NULL) {
			*at = '\0';
			d->user = x_strdup(t);
			memmove(t, at + 1, strlen(at + 1) + 1);
		}
		p = t[0] == '[' ? strchr(t, ']') : t;
		if (p != NULL && (p = strchr(p, ':')) != NULL) {
			*p = '\0';
			d->path = x_strdup(p + 1);
		}
	}
	if (t[0] == '[' && t[strlen(t) - 1] == ']') {
		t[strlen(t) - 1] = '\0';
		memmove(t, t + 1, strlen(t));
	}
	d->host = t;
	if (*t == '\0') {
		fprintf(stderr, "Missing hostname\r\n");
		return -1;
	}
	if (d->path != NULL && *d->path == '\0') {
		x_free(d->path);
		d->path = NULL;
	}
	return 0;
}

/* Commands from f until quit or end; the exit status. */
static int
command_loop(struct sftp_ctx *x, FILE *f, int batch)
{
	char *line = NULL, *p;
	size_t cap = 0;
	ssize_t len;
	int r, ignore, quiet_line, interactive = !batch && isatty(fileno(f));
	int editing = 0;

	if (interactive) {
		sigint_catch(0);
		editing = f == stdin && edit_start(x, tty_out, tty_err) == 0;
	}
	for (;;) {
		if (editing) {
			free(line);
			if ((line = edit_read()) == NULL) {
				printf("\n");
				break;
			}
			len = (ssize_t)strlen(line);
		} else {
			if (interactive) {
				printf("sftp> ");
				fflush(stdout);
			}
			if ((len = getline(&line, &cap, f)) == -1) {
				if (interactive)
					printf("\n");
				break;
			}
		}
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		/* Prefixes: '-' goes on after an error, '@' is not echoed. */
		p = line + strspn(line, " \t");
		ignore = quiet_line = 0;
		for (; *p == '-' || *p == '@'; p++) {
			if (*p == '-')
				ignore = 1;
			else
				quiet_line = 1;
		}
		x->echo = isatty(fileno(f)) || quiet_line ? NULL : line;
		if (interactive) {
			interrupted = 0;
			sigint_catch(1);
		}
		r = run_command(x, p);
		if (interactive)
			sigint_catch(0);
		x->echo = NULL;
		if (r == 1)
			break;
		if (r != 0 && batch && !ignore) {
			free(line);
			return 1;
		}
	}
	free(line);
	if (editing)
		edit_end();
	return 0;
}

/* The command line, as parse_flag leaves it for main. */
struct sftp_cli {
	struct sftp_client_opts o;
	struct args ssh;	/* ssh's arguments so far */
	const char *batchfile, *direct, *program, *subsystem, *port;
	int noquiet, verbose;
};

static void
parse_flag(int ch, struct sftp_cli *c, struct sftp_ctx *x)
{
	char opt[3] = { '-', (char)ch, '\0' };

	switch (ch) {
	case '1':
		fprintf(stderr, "SSH protocol v.1 is no longer "
		    "supported\r\n");
		exit(1);
	case '2':
		break;
	case '4': case '6': case 'A': case 'C':
		addarg(&c->ssh, opt);
		break;
	case 'q':
		x->quiet = 1;
		addarg(&c->ssh, opt);
		break;
	case 'v':
		c->verbose++;
		addarg(&c->ssh, opt);
		break;
	case 'c': case 'F': case 'i': case 'J': case 'o':
		addarg(&c->ssh, opt);
		addarg(&c->ssh, optarg);
		break;
	case 'a': x->global_a = 1; break;
	case 'f': x->global_f = 1; break;
	case 'p': x->global_p = 1; break;
	case 'r': x->global_r = 1; break;
	case 'N': c->noquiet = 1; break;
	case 'P': c->port = optarg; break;
	case 'S': c->program = optarg; break;
	case 's': c->subsystem = optarg; break;
	case 'D': c->direct = optarg; break;
	case 'b':
		if (c->batchfile != NULL)
			usage();
		c->batchfile = optarg;
		break;
	case 'B':
		c->o.buflen = (uint32_t)number(optarg, 1, UINT32_MAX,
		    "buffer size");	/* the library caps it */
		break;
	case 'R':
		c->o.num_requests = (uint32_t)number(optarg, 1, 4096,
		    "number of requests");
		break;
	case 'l':
		c->o.limit_kbps = number(optarg, 1, 100 * 1024 * 1024, NULL);
		break;
	case 'X':
		if (strncmp(optarg, "buffer=", 7) == 0)
			c->o.buflen = (uint32_t)number(optarg + 7, 1,
			    UINT32_MAX, "buffer size");
		else if (strncmp(optarg, "nrequests=", 10) == 0)
			c->o.num_requests = (uint32_t)number(optarg + 10,
			    1, 4096, "number of requests");
		else {
			fprintf(stderr, "Invalid -X option\r\n");
			exit(1);
		}
		break;
	case ':':
		fprintf(stderr, "option requires an argument -- %c\r\n",
		    optopt);
		usage();
		break;
	default:
		fprintf(stderr, "unknown option -- %c\r\n", optopt);
		usage();
	}
}

/* -b: the batch file (quiet unless -N; ssh must not ask anything). */
static FILE *
open_batch(struct sftp_cli *c, struct sftp_ctx *x)
{
	FILE *bf;

	x->batch = 1;
	if (!c->noquiet)
		x->quiet = 1;
	if (strcmp(c->batchfile, "-") == 0)
		bf = stdin;
	else if ((bf = fopen(c->batchfile, "r")) == NULL) {
		fprintf(stderr, "Couldn't open \"%s\": %s\r\n", c->batchfile,
		    strerror(errno));
		exit(1);
	}
	addarg(&c->ssh, "-obatchmode yes");
	return bf;
}

/* The server: ssh running the subsystem at d, or -D's program itself
 * (its words in srv). */
static pid_t
launch_server(struct sftp_cli *c, const struct dest *d, struct args *srv,
    int *in_fd, int *out_fd, int interactive)
{
	char *pa, *copy, *tok, *save = NULL;

	if (c->direct != NULL) {
		copy = x_strdup(c->direct);
		for (tok = strtok_r(copy, " \t", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t", &save))
			addarg(srv, tok);
		x_free(copy);
		if (srv->n == 0)
			usage();
		return start_server(srv->v, in_fd, out_fd, interactive);
	}
	addarg(&c->ssh, "-oForwardAgent no");
	if (d->port != NULL || c->port != NULL) {
		pa = x_asprintf("-oPort %s", d->port ? d->port : c->port);
		addarg(&c->ssh, pa);
		x_free(pa);
	}
	if (d->user != NULL) {
		addarg(&c->ssh, "-l");
		addarg(&c->ssh, d->user);
	}
	if (strchr(c->subsystem, '/') == NULL)
		addarg(&c->ssh, "-s");
	addarg(&c->ssh, "--");
	addarg(&c->ssh, d->host);
	addarg(&c->ssh, c->subsystem);
	return start_server(c->ssh.v, in_fd, out_fd, interactive);
}

/*
 * The path of host:path: a directory becomes the remote working
 * directory (0); anything else is fetched to local at once (1, the
 * exit status in *stp) and the run ends there.
 */
static int
start_path(struct sftp_ctx *x, const char *path, const char *local, int *stp)
{
	char *abs = rpath_abs(x, path);

	if (rpath_is_dir(x, abs)) {
		x_free(x->rcwd);
		if (sftp_client_realpath(x->c, abs, &x->rcwd) != 0)
			x->rcwd = x_strdup(abs);
		x_free(abs);
		return 0;
	}
	*stp = fetch_direct(x, path, local) == 0 ? 0 : 1;
	x_free(abs);
	return 1;
}

int
main(int argc, char **argv)
{
	struct sftp_cli c;
	struct sftp_ctx x;
	struct args srv = { NULL, 0 };
	struct dest d;
	FILE *bf = NULL;
	int ch, in_fd, out_fd, st, interactive;
	pid_t pid;

	memset(&x, 0, sizeof(x));
	memset(&c, 0, sizeof(c));
	memset(&d, 0, sizeof(d));
	c.program = "ssh";
	c.subsystem = "sftp";
	signal(SIGPIPE, SIG_IGN);
	vis_streams(&tty_out, &tty_err);
	log_init("sftp", LOG_LEVEL_INFO, 0, 1);
	log_set_sink(log_line, NULL);
	addarg(&c.ssh, c.program);
	addarg(&c.ssh, "-oForwardX11 no");
	addarg(&c.ssh, "-oPermitLocalCommand no");
	addarg(&c.ssh, "-oClearAllForwardings yes");
	opterr = 0;	/* the messages are BSD getopt's, as OpenSSH's */
	while ((ch = getopt(argc, argv,
	    ":1246AaCfNpqrvB:b:c:D:F:i:J:l:o:P:R:S:s:X:")) != -1)
		parse_flag(ch, &c, &x);
	x.progress = c.batchfile == NULL;
	if (c.verbose)
		log_set_level(LOG_LEVEL_DEBUG1 + (c.verbose > 3 ? 2 :
		    c.verbose - 1));
	x_free(c.ssh.v[0]);
	c.ssh.v[0] = x_strdup(c.program);
	if (c.direct == NULL) {
		if (optind != argc - 1 && optind != argc - 2)
			usage();
		if (parse_dest(argv[optind], &d) != 0)
			usage();
	} else if (optind < argc)
		usage();
	if (c.batchfile != NULL)
		bf = open_batch(&c, &x);
	interactive = bf == NULL && isatty(STDIN_FILENO);
	pid = launch_server(&c, &d, &srv, &in_fd, &out_fd, interactive);
	if (sftp_client_init(in_fd, out_fd, &c.o, &x.c) != 0) {
		fprintf(stderr, "Connection closed\r\n");
		exit(255);
	}
	if (interactive)
		sftp_client_set_cancel(x.c, &interrupted);
	if (!x.quiet) {
		if (c.direct != NULL)
			fprintf(stderr, "Attached to %s.\n", c.direct);
		else
			fprintf(stderr, "Connected to %s.\n", d.host);
	}
	if (sftp_client_realpath(x.c, ".", &x.rcwd) != 0) {
		fprintf(stderr, "Need cwd\r\n");
		exit(1);
	}
	st = 0;
	if (d.path == NULL || !start_path(&x, d.path, optind + 1 < argc ?
	    argv[optind + 1] : NULL, &st))
		st = command_loop(&x, bf != NULL ? bf : stdin, x.batch);
	fflush(stdout);
	sftp_client_free(x.c);
	close(in_fd);
	close(out_fd);
	while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
		;
	if (bf != NULL && bf != stdin)
		fclose(bf);
	free_args(&c.ssh);
	free_args(&srv);
	x_free(d.user);
	x_free(d.host);
	x_free(d.port);
	x_free(d.path);
	x_free(x.rcwd);
	return st;
}
