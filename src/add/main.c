/*
 * main.c: ssh-add's command line, after OpenSSH 9.2's: the same flags,
 * messages and exit statuses. The agent is connected to before the
 * flags are read (no agent: exit 2); then one action: -x/-X lock or
 * unlock, -l/-L list, -D remove all, -T test keys, or add (-d: remove)
 * the files named, or with none the default identities in ~/.ssh that
 * exist. Exit 0 on success, 1 when something failed, 255 on a fatal
 * error (a bad flag combination, an unknown hash).
 *
 * A FIDO security key file (and its certificate) is added with the
 * middleware the agent signs through (-S, else $SSH_SK_PROVIDER, else
 * the built-in "internal"), as are the resident keys -K downloads.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "add.h"
#include "agent.h"
#include "err.h"
#include "log.h"
#include "mem.h"

/* ~/.ssh files tried with no arguments, in OpenSSH's order. */
static const char *const default_files[] = {
	".ssh/id_rsa", ".ssh/id_ecdsa", ".ssh/id_ecdsa_sk", ".ssh/id_ed25519",
	".ssh/id_ed25519_sk", ".ssh/id_xmss", ".ssh/id_dsa",
};
#define NDEFAULT	(sizeof(default_files) / sizeof(default_files[0]))

void
add_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\r\n", stderr);
}

void
add_fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\r\n", stderr);
	exit(255);
}

const char *
add_agent_err(int r)
{
	switch (r) {
	case ERR_PERMISSION_DENIED:
		return "agent refused operation";
	case ERR_PROTOCOL:
		return "invalid format";
	default:
		return "communication with agent failed";
	}
}

const char *
add_file_err(int r)
{
	/*
	 * OpenSSH reads a private key that is not openssh-key-v1 with
	 * libcrypto, and says so when that fails too.
	 */
	if (r == ERR_INVALID_FORMAT || r == ERR_MESSAGE_INCOMPLETE ||
	    r == ERR_KEY_INVALID)
		return err_str(ERR_LIBCRYPTO);
	return err_str(r);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: ssh-add [-cDdKkLlqvXx] [-E fingerprint_hash] "
	    "[-H hostkey_file]\n"
	    "               [-h destination_constraint] [-S provider] "
	    "[-t life]\n"
	    "               [file ...]\n"
	    "       ssh-add -s pkcs11\n"
	    "       ssh-add -e pkcs11\n"
	    "       ssh-add -T pubkey ...\n");
}

/* OpenSSH's time format: 90, 90s, 1h30m, 2d, 1w; -1 when bad. */
static long
parse_life(const char *s)
{
	long total = 0, n, mult;
	char *end;

	if (*s == '\0')
		return -1;
	while (*s != '\0') {
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		n = strtol(s, &end, 10);
		if (errno != 0 || n > INT_MAX)
			return -1;
		switch (*end) {
		case '\0': mult = 1; break;
		case 's': case 'S': mult = 1; end++; break;
		case 'm': case 'M': mult = 60; end++; break;
		case 'h': case 'H': mult = 3600; end++; break;
		case 'd': case 'D': mult = 86400; end++; break;
		case 'w': case 'W': mult = 604800; end++; break;
		default: return -1;
		}
		if (n > INT_MAX / mult || total > INT_MAX - n * mult)
			return -1;
		total += n * mult;
		s = end;
	}
	return total;
}

/* -M and -m: a number from 1 to 2^32-1 (leading blanks allowed). */
static int
parse_count(const char *s, uint32_t *np)
{
	long long v;
	char *end;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 1 ||
	    v > (long long)UINT32_MAX)
		return -1;
	*np = (uint32_t)v;
	return 0;
}

static int
connect_agent(void)
{
	char *path = NULL;
	int fd, r;

	(void)agent_socket_path(NULL, &path);
	if (path == NULL) {
		fprintf(stderr, "Could not open a connection to your "
		    "authentication agent.\n");
		exit(2);
	}
	if ((r = agent_connect(path, &fd)) != 0) {
		fprintf(stderr, "Error connecting to agent: %s\n",
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		exit(2);
	}
	x_free(path);
	return fd;
}

/* With no file arguments: the default identities that exist. */
static int
add_defaults(struct add_opts *o, int deleting)
{
	struct passwd *pw;
	struct stat st;
	char *path;
	size_t i;
	int count = 0, ret = 0;

	if ((pw = getpwuid(getuid())) == NULL) {
		fprintf(stderr, "No user found with uid %u\n",
		    (unsigned int)getuid());
		return 1;
	}
	for (i = 0; i < NDEFAULT; i++) {
		path = x_asprintf("%s/%s", pw->pw_dir, default_files[i]);
		if (stat(path, &st) == 0) {
			if ((deleting ? add_delete_file(o, path) :
			    add_file(o, path)) != 0)
				ret = 1;
			else
				count++;
		}
		x_free(path);
	}
	return count == 0 ? 1 : ret;
}

/* The flags that pick the action, as parse_flags read them. */
struct add_cli {
	int lflag, xflag, dflag, Dflag, Tflag, Kflag;
	const char *card;	/* -s / -e provider */
	int card_add;
	int loglevel;
	char **dests;		/* -h, in order */
	size_t ndests;
};

/* One flag into o or c; nonzero: the command line is wrong (exit 1). */
static int
parse_flag(int ch, struct add_opts *o, struct add_cli *c)
{
	uint32_t count;
	long life;

	switch (ch) {
	case 'v':
		if (c->loglevel < LOG_LEVEL_DEBUG3)
			c->loglevel++;
		break;
	case 'E':
		if (key_fp_hash_from_name(optarg, &o->fp_hash) != 0)
			add_fatal("Invalid hash algorithm \"%s\"", optarg);
		break;
	case 'k':
		o->key_only = 1;
		break;
	case 'l': case 'L':
		if (c->lflag != 0)
			add_fatal("-%c flag already specified", c->lflag);
		c->lflag = ch;
		break;
	case 'x': case 'X':
		if (c->xflag != 0)
			add_fatal("-%c flag already specified", c->xflag);
		c->xflag = ch;
		break;
	case 'c':
		o->confirm = 1;
		break;
	case 'd':
		c->dflag = 1;
		break;
	case 'D':
		c->Dflag = 1;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 'T':
		c->Tflag = 1;
		break;
	case 't':
		if ((life = parse_life(optarg)) < 0) {
			fprintf(stderr, "Invalid lifetime\n");
			return 1;
		}
		o->lifetime = (uint32_t)life;
		break;
	case 'M': case 'm':
		/* -m only tunes -M for XMSS keys: none here */
		if (parse_count(optarg, &count) != 0) {
			usage();
			return 1;
		}
		if (ch == 'M')
			o->maxsign = count;
		break;
	case 'H':
		o->hostfiles = x_reallocarray(o->hostfiles,
		    o->nhostfiles + 1, sizeof(*o->hostfiles));
		o->hostfiles[o->nhostfiles++] = optarg;
		break;
	case 'h':
		c->dests = x_reallocarray(c->dests, c->ndests + 1,
		    sizeof(*c->dests));
		c->dests[c->ndests++] = optarg;
		break;
	case 's': case 'e':
		c->card = optarg;
		c->card_add = ch == 's';
		break;
	case 'S':
		o->sk_provider = optarg;
		break;
	case 'K':
		c->Kflag = 1;
		break;
	default:
		fprintf(stderr, "%s -- %c\r\n",
		    strchr("EehHMmsSt", optopt) != NULL ?
		    "option requires an argument" : "unknown option",
		    optopt);
		usage();
		return 1;
	}
	return 0;
}

/* The one action the flags chose, on the files left; the exit status. */
static int
run_action(struct add_opts *o, const struct add_cli *c, int argc,
    char **argv)
{
	int i, ret = 0;

	if ((c->xflag != 0) + (c->lflag != 0) + (c->Dflag != 0) > 1)
		add_fatal("Invalid combination of actions");
	if (c->xflag != 0)
		return add_lock(o, c->xflag == 'x') != 0;
	if (c->lflag != 0)
		return add_list(o, c->lflag == 'l') != 0;
	if (c->Dflag)
		return add_delete_all(o) != 0;
	if (c->card != NULL) {
		for (i = 0; i < (int)c->ndests; i++)
			add_dest_constraint(o, c->dests[i]);
		return add_card(o, c->card, c->card_add) != 0;
	}
	/* As OpenSSH: -h is looked at only by the other actions. */
	for (i = 0; i < (int)c->ndests; i++)
		add_dest_constraint(o, c->dests[i]);
	if (c->Tflag) {
		if (argc <= 0)
			add_fatal("no keys to test");
		for (i = 0; i < argc; i++)
			if (add_test_key(o, argv[i]) != 0)
				ret = 1;
	} else if (c->Kflag)
		ret = add_resident(o) != 0;
	else if (argc == 0)
		ret = add_defaults(o, c->dflag);
	else {
		for (i = 0; i < argc; i++)
			if ((c->dflag ? add_delete_file(o, argv[i]) :
			    add_file(o, argv[i])) != 0)
				ret = 1;
	}
	return ret;
}

int
main(int argc, char **argv)
{
	struct add_opts o;
	struct add_cli c;
	int ch, ret = 0;

	memset(&o, 0, sizeof(o));
	if ((o.sk_provider = getenv("SSH_SK_PROVIDER")) != NULL &&
	    *o.sk_provider == '\0')
		o.sk_provider = NULL;
	memset(&c, 0, sizeof(c));
	o.fp_hash = KEY_FP_SHA256;
	c.loglevel = LOG_LEVEL_INFO;
	signal(SIGPIPE, SIG_IGN);
	log_init("ssh-add", LOG_LEVEL_INFO, 0, 1);
	o.fd = connect_agent();
	opterr = 0;	/* OpenSSH's getopt words, in parse_flag */
	while ((ch = getopt(argc, argv,
	    "+vkKlLcdDTxXE:e:h:H:M:m:qs:S:t:")) != -1) {
		if (parse_flag(ch, &o, &c) != 0) {
			ret = 1;
			goto done;
		}
	}
	log_set_level(c.loglevel);
	if (o.sk_provider == NULL)
		o.sk_provider = "internal";
	ret = run_action(&o, &c, argc - optind, argv + optind);
 done:
	x_free(c.dests);
	x_free(o.hostfiles);
	sbuf_free(o.dest);
	add_pass_free(o.pass);
	agent_close(o.fd);
	return ret;
}
