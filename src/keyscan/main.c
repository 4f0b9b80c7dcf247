/*
 * main.c: ssh-keyscan's command line, after OpenSSH 9.2's: the flags,
 * their error messages and exit statuses are OpenSSH's. The -f files
 * are read first, in order, then the hosts given as arguments; each
 * target is scanned once per key type, as soon as the connection table
 * has room, so a long list or a wide range streams through.
 *
 * Exit status: 0 when some key was reported, 1 when none was (or for a
 * bad port or timeout), 255 for other errors.
 */
#include <sys/resource.h>
#include <sys/socket.h>

#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "keyscan.h"
#include "log.h"
#include "mem.h"

/*
 * Connections open at once: as many as the descriptor limit allows, up
 * to OpenSSH's 256, keeping a few for stdio, the -f file and libcrypto.
 */
#define KS_MAX_FDS	256
#define KS_RESERVED_FDS	10

static void
usage(void)
{
	fprintf(stderr,
	    "usage: ssh-keyscan [-46cDHv] [-f file] [-O option] [-p port] "
	    "[-T timeout]\n"
	    "                   [-t type] [host | addrlist namelist]\n");
	exit(1);
}

static void __attribute__((format(printf, 1, 2), noreturn))
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(255);
}

/* -p: a number from 1 to 65535, or a service name. */
static int
parse_port(const char *s)
{
	struct servent *se;
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s != '\0' && *end == '\0' && errno == 0)
		return v >= 1 && v <= 65535 ? (int)v : -1;
	if ((se = getservbyname(s, "tcp")) != NULL)
		return ntohs((uint16_t)se->s_port);
	return -1;
}

/* -t: a comma-separated list; each -t replaces the last. */
static unsigned int
parse_types(const char *arg)
{
	char *list = x_strdup(arg), *p = list, *name;
	unsigned int types = 0;
	int t;

	while ((name = strsep(&p, ",")) != NULL) {
		if (*name == '\0')
			continue;
		if ((t = ks_type_from_name(name)) < 0)
			fatal("Unknown key type \"%s\"", name);
		types |= KS_TYPE_BIT(t);
	}
	x_free(list);
	return types;
}

static void
parse_option(struct ks_opts *o, const char *opt)
{
	if (strncmp(opt, "hashalg=", 8) != 0)
		fatal("Unsupported -O option");
	if (strcmp(opt + 8, "sha1") == 0)
		o->digests = KS_DIGEST_SHA1;
	else if (strcmp(opt + 8, "sha256") == 0)
		o->digests = KS_DIGEST_SHA256;
	else
		fatal("Unsupported hash algorithm");
}

static int
max_connections(void)
{
	struct rlimit rl;
	rlim_t want = KS_MAX_FDS;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < want && rl.rlim_max > rl.rlim_cur) {
			rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
			(void)setrlimit(RLIMIT_NOFILE, &rl);
			(void)getrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur < want)
			want = rl.rlim_cur;
	}
	if (want <= KS_RESERVED_FDS)
		fatal("ssh-keyscan: not enough file descriptors");
	return (int)(want - KS_RESERVED_FDS);
}

/* What each target is handed to. */
struct feed {
	struct ks_scan *s;
	unsigned int types;
};

/* A target: one connection per key type, each when there is room. */
static void
scan_target(const char *addrs, const char *names, void *arg)
{
	struct feed *f = arg;
	int t;

	for (t = 0; t < KS_NTYPES; t++) {
		if (!(f->types & KS_TYPE_BIT(t)))
			continue;
		while (ks_scan_full(f->s))
			ks_scan_step(f->s);
		ks_scan_start(f->s, addrs, names, (enum ks_type)t);
	}
}

static void
scan_file(struct feed *feed, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *line = NULL, *item;
	size_t size = 0;

	if (f == NULL) {
		fprintf(stderr, "ssh-keyscan: %s: %s\n", path, strerror(errno));
		exit(255);
	}
	while (getline(&line, &size, f) != -1)
		if ((item = ks_file_line(line)) != NULL)
			ks_item(item, scan_target, feed);
	free(line);
	if (f != stdin)
		fclose(f);
}

/* -T: whole seconds, at least one. */
static int
parse_timeout(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < 1 ||
	    v > INT_MAX / 1000) {
		fprintf(stderr, "Bad timeout '%s'\n", s);
		usage();
	}
	return (int)v;
}

/* -v: DEBUG1, then one level more each time, to DEBUG3. */
static int
more_verbose(int level)
{
	if (level == LOG_LEVEL_QUIET)
		return LOG_LEVEL_DEBUG1;
	if (level >= LOG_LEVEL_DEBUG3)
		fatal("Too high debugging level.");
	return level + 1;
}

static void
bad_flag(int ch)
{
	if (strchr("fOpTt", ch) != NULL)
		fprintf(stderr, "option requires an argument -- %c\n", ch);
	else
		fprintf(stderr, "unknown option -- %c\n", ch);
	usage();
}

/* The flags into o and files (-f, in order); returns the log level. */
static int
parse_flags(int argc, char **argv, struct ks_opts *o, const char **files,
    size_t *nfilesp)
{
	int ch, level = LOG_LEVEL_QUIET;

	opterr = 0;
	while ((ch = getopt(argc, argv, "+46cDHvf:O:p:T:t:")) != -1) {
		switch (ch) {
		case '4': o->family = AF_INET; break;
		case '6': o->family = AF_INET6; break;
		case 'c': o->certs = 1; break;
		case 'D': o->sshfp = 1; break;
		case 'H': o->hash = 1; break;
		case 'f': files[(*nfilesp)++] = optarg; break;
		case 'O': parse_option(o, optarg); break;
		case 'p':
			if ((o->port = parse_port(optarg)) < 0) {
				fprintf(stderr, "Bad port '%s'\n", optarg);
				exit(1);
			}
			break;
		case 'T': o->timeout = parse_timeout(optarg); break;
		case 't': o->types = parse_types(optarg); break;
		case 'v': level = more_verbose(level); break;
		default: bad_flag(optopt);
		}
	}
	return level;
}

int
main(int argc, char **argv)
{
	struct ks_opts o;
	struct feed feed;
	const char **files;
	size_t nfiles = 0, i;
	int level;

	memset(&o, 0, sizeof(o));
	o.family = AF_UNSPEC;
	o.port = 22;
	o.timeout = 5;
	o.types = KS_DEFAULT_TYPES;
	o.digests = KS_DIGEST_SHA1 | KS_DIGEST_SHA256;
	files = x_calloc((size_t)argc + 1, sizeof(*files));
	level = parse_flags(argc, argv, &o, files, &nfiles);
	if (optind >= argc && nfiles == 0)
		usage();
	/* Only -v shows what the transport says about each connection. */
	log_init("ssh-keyscan", level, LOG_USER, 1);
	signal(SIGPIPE, SIG_IGN);

	feed.s = ks_scan_new(&o, max_connections());
	feed.types = o.types;
	for (i = 0; i < nfiles; i++)
		scan_file(&feed, files[i]);
	for (; optind < argc; optind++)
		ks_item(argv[optind], scan_target, &feed);
	while (ks_scan_active(feed.s) > 0)
		ks_scan_step(feed.s);
	ks_scan_free(feed.s);
	x_free(files);
	return o.found ? 0 : 1;
}
