/*
 * sftp_server_main.c: the command line of sftp-server(8), shared by the
 * sftp-server program and sshd's internal-sftp.
 *
 * The flags are OpenSSH's: -d start directory (%d home, %u user, %%
 * percent, a leading ~ the home), -e log to stderr, -f syslog facility,
 * -l log level, -P/-p denied/allowed request names, -Q requests (list
 * those names), -R read-only, -u umask. Trailing arguments are ignored,
 * as OpenSSH's server does: a client that runs the server directly in
 * place of ssh (scp -D, sftp -D) gives it ssh's arguments, "-- host
 * sftp". The user comes from the caller: inside a ChrootDirectory there
 * is no password file to look it up in.
 */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/stat.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp_server.h"

/* What the flags asked for, before anything is done. */
struct main_opts {
	struct sftp_server_opts o;
	const char *dflag;
	int level, facility, to_stderr;
};

static int
usage(const char *name)
{
	fprintf(stderr,
	    "usage: %s [-ehR] [-d start_directory] [-f log_facility] "
	    "[-l log_level]\n"
	    "\t[-P denied_requests] [-p allowed_requests] [-u umask]\n"
	    "       %s -Q protocol_feature\n", name, name);
	return 1;
}

/*
 * -d's argument with its %-tokens and leading ~ expanded (caller frees);
 * NULL, with the reason logged, for an unknown token.
 */
static char *
start_dir(const char *spec, const char *home, const char *user)
{
	size_t cap = strlen(spec) + 1, len = 0, add;
	const char *p, *v;
	char *out, tok[2] = "%";

	if (spec[0] == '~' && (spec[1] == '\0' || spec[1] == '/')) {
		char *t = x_asprintf("%s%s", home, spec + 1);
		char *res = start_dir(t, home, user);

		x_free(t);
		return res;
	}
	out = x_malloc(cap);
	for (p = spec; *p != '\0'; p++) {
		v = tok;
		tok[0] = *p;
		if (*p == '%') {
			p++;
			if (*p == 'd')
				v = home;
			else if (*p == 'u')
				v = user;
			else if (*p == '%')
				v = "%";
			else {
				log_fatal("Invalid token %%%c in start "
				    "directory \"%s\"", *p ? *p : ' ', spec);
				x_free(out);
				return NULL;
			}
		}
		add = strlen(v);
		if (len + add + 1 > cap) {
			cap = (len + add + 1) * 2;
			out = x_reallocarray(out, cap, 1);
		}
		memcpy(out + len, v, add);
		len += add;
	}
	out[len] = '\0';
	return out;
}

/* The first word of SSH_CONNECTION: the client's address. */
static char *
client_addr(void)
{
	const char *c = getenv("SSH_CONNECTION");
	size_t n;

	if (c == NULL || *c == '\0')
		return x_strdup("UNKNOWN");
	n = strcspn(c, " ");
	return x_strndup(c, n);
}

/* One flag; -1 to go on, else the exit status to stop with. */
static int
one_flag(int ch, const char *arg, struct main_opts *m, const char *name)
{
	size_t i;
	long v;
	char *ep;

	switch (ch) {
	case 'Q':
		if (strcasecmp(arg, "requests") != 0) {
			fprintf(stderr, "Invalid query type\n");
			return 1;
		}
		for (i = 0; sftp_server_request_name(i) != NULL; i++)
			printf("%s\n", sftp_server_request_name(i));
		return 0;
	case 'R':
		m->o.readonly = 1;
		return -1;
	case 'p':
	case 'P':
		if ((ch == 'p' ? m->o.allowed : m->o.denied) != NULL) {
			fprintf(stderr, "%s requests already set\n",
			    ch == 'p' ? "Permitted" : "Denied");
			return 1;
		}
		*(ch == 'p' ? &m->o.allowed : &m->o.denied) = arg;
		return -1;
	case 'e':
		m->to_stderr = 1;
		return -1;
	case 'l':
		if ((m->level = log_level_from_name(arg)) < 0) {
			fprintf(stderr, "Invalid log level \"%s\"\n", arg);
			return 1;
		}
		return -1;
	case 'f':
		if ((m->facility = log_facility_from_name(arg)) < 0) {
			fprintf(stderr, "Invalid log facility \"%s\"\n", arg);
			return 1;
		}
		return -1;
	case 'd':
		m->dflag = arg;
		return -1;
	case 'u':
		errno = 0;
		v = strtol(arg, &ep, 8);
		if (*arg == '\0' || *ep != '\0' || errno != 0 || v < 0 ||
		    v > 0777) {
			fprintf(stderr, "Invalid umask \"%s\"\n", arg);
			return 1;
		}
		(void)umask((mode_t)v);
		return -1;
	default:
		return usage(name);
	}
}

/* Serve stdin/stdout as pw from the start directory; the exit status. */
static int
serve(struct main_opts *m, const struct passwd *pw)
{
	struct sftp_server *s = NULL;
	char *addr, *dir;
	int r, rc = 1;

	addr = client_addr();
	log_info("session opened for local user %s from [%s]", pw->pw_name,
	    addr);
	if (m->dflag != NULL) {
		if ((dir = start_dir(m->dflag, pw->pw_dir, pw->pw_name)) ==
		    NULL)
			goto out;
		log_debug("chdir to \"%s\"", dir);
		if (chdir(dir) == -1) {
			log_error("chdir to \"%s\" failed: %s", dir,
			    strerror(errno));
			x_free(dir);
			goto out;
		}
		x_free(dir);
	}
	m->o.user = pw->pw_name;
	m->o.home = pw->pw_dir;
	m->o.client_addr = addr;
	if ((r = sftp_server_new(&m->o, STDIN_FILENO, STDOUT_FILENO, &s)) !=
	    0) {
		log_fatal("sftp-server: %s", err_str(r));
		goto out;
	}
	r = sftp_server_run(s);
	rc = r == 0 ? 0 : r == ERR_PROTOCOL ? 11 : 1;
	sftp_server_free(s);
	log_info("session closed for local user %s from [%s]", pw->pw_name,
	    addr);
 out:
	x_free(addr);
	return rc;
}

int
sftp_server_main(int argc, char **argv, const struct passwd *pw)
{
	struct main_opts m;
	const char *name;
	int ch, rc;

	name = argc > 0 && argv[0] != NULL ? argv[0] : "sftp-server";
	if (strrchr(name, '/') != NULL)
		name = strrchr(name, '/') + 1;
	memset(&m, 0, sizeof(m));
	m.level = LOG_LEVEL_ERROR;
	m.facility = LOG_AUTH;
	optind = 0;	/* glibc: start afresh (sshd parsed its own) */
	while ((ch = getopt(argc, argv, "d:f:l:P:p:Q:u:ehR")) != -1)
		if ((rc = one_flag(ch, optarg, &m, name)) != -1)
			return rc;
	log_init(name, m.level, m.facility, m.to_stderr);
	return serve(&m, pw);
}
