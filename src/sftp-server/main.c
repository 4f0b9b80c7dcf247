/*
 * main.c: sftp-server, the SFTP subsystem program.
 *
 * sshd runs it as the logged-in user with the channel on stdin and
 * stdout. The flags are OpenSSH's sftp-server(8): -d start directory
 * (%d home, %u user, %% percent, a leading ~ the home), -e log to stderr,
 * -f syslog facility, -l log level, -P/-p denied/allowed request names,
 * -Q requests (list those names), -R read-only, -u umask. The session
 * itself is the server core in src/sftp.
 */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/stat.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp_server.h"

static void
usage(void)
{
	fprintf(stderr,
	    "usage: sftp-server [-ehR] [-d start_directory] [-f log_facility] "
	    "[-l log_level]\n"
	    "\t[-P denied_requests] [-p allowed_requests] [-u umask]\n"
	    "       sftp-server -Q protocol_feature\n");
	exit(1);
}

/* -d's argument with its %-tokens and leading ~ expanded (caller frees). */
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
				exit(1);
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

int
main(int argc, char **argv)
{
	struct sftp_server_opts o;
	struct sftp_server *s = NULL;
	struct passwd *pw;
	const char *dflag = NULL;
	char *addr, *user, *home, *dir;
	int ch, level = LOG_LEVEL_ERROR, facility = LOG_AUTH, to_stderr = 0;
	int r, rc;
	size_t i;
	long m;
	char *ep;

	memset(&o, 0, sizeof(o));
	while ((ch = getopt(argc, argv, "d:f:l:P:p:Q:u:ehR")) != -1) {
		switch (ch) {
		case 'Q':
			if (strcasecmp(optarg, "requests") != 0) {
				fprintf(stderr, "Invalid query type\n");
				exit(1);
			}
			for (i = 0; sftp_server_request_name(i) != NULL; i++)
				printf("%s\n", sftp_server_request_name(i));
			exit(0);
		case 'R':
			o.readonly = 1;
			break;
		case 'p':
			if (o.allowed != NULL) {
				fprintf(stderr, "Permitted requests already "
				    "set\n");
				exit(1);
			}
			o.allowed = optarg;
			break;
		case 'P':
			if (o.denied != NULL) {
				fprintf(stderr, "Denied requests already "
				    "set\n");
				exit(1);
			}
			o.denied = optarg;
			break;
		case 'e':
			to_stderr = 1;
			break;
		case 'l':
			if ((level = log_level_from_name(optarg)) < 0) {
				fprintf(stderr, "Invalid log level \"%s\"\n",
				    optarg);
				exit(1);
			}
			break;
		case 'f':
			if ((facility = log_facility_from_name(optarg)) < 0) {
				fprintf(stderr, "Invalid log facility "
				    "\"%s\"\n", optarg);
				exit(1);
			}
			break;
		case 'd':
			dflag = optarg;
			break;
		case 'u':
			errno = 0;
			m = strtol(optarg, &ep, 8);
			if (*optarg == '\0' || *ep != '\0' || errno != 0 ||
			    m < 0 || m > 0777) {
				fprintf(stderr, "Invalid umask \"%s\"\n",
				    optarg);
				exit(1);
			}
			(void)umask((mode_t)m);
			break;
		case 'h':
		default:
			usage();
		}
	}
	/*
	 * Trailing arguments are ignored, as OpenSSH's server does: a
	 * client that runs the server directly in place of ssh (scp -D,
	 * sftp -D) gives it ssh's arguments, "-- host sftp".
	 */
	log_init("sftp-server", level, facility, to_stderr);

	if ((pw = getpwuid(getuid())) == NULL) {
		log_fatal("No user found for uid %lu", (unsigned long)getuid());
		exit(1);
	}
	user = x_strdup(pw->pw_name);
	home = x_strdup(pw->pw_dir);
	addr = client_addr();
	log_info("session opened for local user %s from [%s]", user, addr);

	if (dflag != NULL) {
		dir = start_dir(dflag, home, user);
		log_debug("chdir to \"%s\"", dir);
		if (chdir(dir) == -1) {
			log_error("chdir to \"%s\" failed: %s", dir,
			    strerror(errno));
			x_free(dir);
			exit(1);
		}
		x_free(dir);
	}

	o.user = user;
	o.home = home;
	o.client_addr = addr;
	if ((r = sftp_server_new(&o, STDIN_FILENO, STDOUT_FILENO, &s)) != 0) {
		log_fatal("sftp-server: %s", err_str(r));
		exit(1);
	}
	r = sftp_server_run(s);
	rc = r == 0 ? 0 : r == ERR_PROTOCOL ? 11 : 1;
	sftp_server_free(s);
	log_info("session closed for local user %s from [%s]", user, addr);
	x_free(user);
	x_free(home);
	x_free(addr);
	return rc;
}
