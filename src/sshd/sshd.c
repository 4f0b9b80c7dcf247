/*
 * sshd.c: the server program: command line, configuration, host keys,
 * and the work of one connection process.
 *
 * The listener (listen.c) accepts on every ListenAddress/Port and forks
 * a child per connection, which executes sshd anew with -R: it reads
 * the configuration and host keys again and serves the connection it
 * finds on SSHD_REXEC_SOCK_FD. The child runs the transport, then user
 * authentication (src/server/auth.c), then the session (session.c). It
 * tells the listener through its startup pipe when it has
 * authenticated; if it ends before that, its exit status says how
 * (penalty.h), for PerSourcePenalties.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <unistd.h>

#include "auth.h"
#include "authopts.h"
#include "authority.h"
#include "compress.h"
#include "conftape.h"
#include "err.h"
#include "installdirs.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "monitor.h"
#include "penalty.h"
#include "sandbox.h"
#include "servconf.h"
#include "session.h"
#include "sshd.h"
#include "transport.h"

/* -R is internal: the listener re-executes itself with it. */
#define OPTSTRING "46C:DE:Gc:def:g:h:iqo:p:RtTu:V"

static void
usage(void)
{
	fprintf(stderr,
	    "usage: sshd [-46DdeiqTt] [-C connection_spec] "
	    "[-c host_cert_file]\n"
	    "            [-E log_file] [-f config_file] [-g login_grace_time]\n"
	    "            [-h host_key_file] [-o option] [-p port] "
	    "[-u len]\n");
	exit(1);
}

/* The transport's signer: the authority signs with host key number i. */
int
sshd_hostkey_sign(void *arg, const struct key *pub, const char *sigalg,
    const unsigned char *data, size_t dlen, struct sbuf *sig)
{
	struct hostkey_signer *hs = arg;
	size_t i;

	for (i = 0; i < hs->s->nhostkeys; i++)
		if (hs->s->hostpub[i] == pub)
			return authority_hostkey_sign(hs->auth, i, sigalg, data,
			    dlen, sig);
	return ERR_NOT_FOUND;
}

static void
addr_of(const struct sockaddr_storage *ss, char *host, size_t hlen,
    int *port)
{
	if (getnameinfo((const struct sockaddr *)ss, sizeof(*ss), host,
	    (socklen_t)hlen, NULL, 0, NI_NUMERICHOST) != 0)
		snprintf(host, hlen, "UNKNOWN");
	if (ss->ss_family == AF_INET)
		*port = ntohs(((const struct sockaddr_in *)ss)->sin_port);
	else if (ss->ss_family == AF_INET6)
		*port = ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	else
		*port = 0;
}

void
describe_peer(int fd, struct conn_info *ci)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	memset(&ss, 0, sizeof(ss));
	if (getpeername(fd, (struct sockaddr *)&ss, &len) == 0 &&
	    (ss.ss_family == AF_INET || ss.ss_family == AF_INET6)) {
		addr_of(&ss, ci->raddr, sizeof(ci->raddr), &ci->rport);
		len = sizeof(ss);
		if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
			addr_of(&ss, ci->laddr, sizeof(ci->laddr), &ci->lport);
	} else {
		/* Not a socket (sshd -i from a pipe): like OpenSSH. */
		snprintf(ci->raddr, sizeof(ci->raddr), "UNKNOWN");
		snprintf(ci->laddr, sizeof(ci->laddr), "UNKNOWN");
		ci->rport = ci->lport = 65535;
	}
	snprintf(ci->desc, sizeof(ci->desc), "%s port %d", ci->raddr,
	    ci->rport);
}

int
serve_connection(struct server *s, int in, int out, int authpipe)
{
	struct conn_info ci;
	struct tr_config tc;
	struct sbuf *state = NULL;
	struct auth_conn ac;
	struct auth_result res;
	struct authority_local_config acfg;
	struct hostkey_signer hs;
	struct monitor *m = NULL;
	char *login_text;
	int status;
	unsigned char done = SSHD_STARTUP_AUTHENTICATED;

	memset(&ci, 0, sizeof(ci));
	memset(&res, 0, sizeof(res));
	describe_peer(in, &ci);
	/* No routing domains here: OpenSSH on Linux prints an empty one. */
	log_verbose("Connection from %s port %d on %s port %d rdomain \"\"",
	    ci.raddr, ci.rport, ci.laddr, ci.lport);
	memset(&ac, 0, sizeof(ac));
	ac.remote_host = ci.raddr;
	ac.remote_addr = ci.raddr;
	ac.remote_port = ci.rport;
	ac.local_addr = ci.laddr;
	ac.local_port = ci.lport;
	memset(&acfg, 0, sizeof(acfg));
	acfg.sc = s->sc;
	acfg.conn = &ac;
	acfg.hostkeys = s->hostkeys;
	acfg.nhostkeys = s->nhostkeys;
	hs.s = s;
	hs.auth = authority_local_new(&acfg);
	memset(&tc, 0, sizeof(tc));
	tc.server = 1;
	tc.kex_algs = s->sc->kex_algorithms;
	tc.hostkey_algs = s->sc->hostkey_algorithms;
	tc.ciphers = s->sc->ciphers;
	tc.macs = s->sc->macs;
	tc.compression = s->sc->compression ? COMP_SERVER_YES : COMP_SERVER_NO;
	tc.rekey_bytes = s->sc->rekey_bytes;
	tc.rekey_seconds = s->sc->rekey_seconds;
	tc.version_comment = s->sc->version_addendum;
	tc.peer_desc = ci.desc;
	tc.hostkeys = s->hostpub;
	tc.nhostkeys = s->nhostkeys;
	tc.hostkey_sign = sshd_hostkey_sign;
	tc.hostcerts = s->hostcerts;
	tc.hostkey_arg = &hs;
	tc.moduli_path = s->sc->moduli_file ? s->sc->moduli_file :
	    MOAT_SSHDIR "/moduli";
	/*
	 * Everything up to USERAUTH_SUCCESS happens in a sandboxed child
	 * (privsep.c); LoginGraceTime runs there, from here, just after
	 * accept. The monitor takes the authority over; the child's
	 * transport state goes on in a process of the user's, which this
	 * one, root, serves as its monitor until the connection ends.
	 */
	if ((status = privsep_preauth(s, in, out, authpipe, &tc, &ac,
	    hs.auth, &m, &state)) != 0)
		goto out;
	hs.auth = monitor_authority(m);
	monitor_take_result(m, &res);
	status = 1;
	if (authpipe != -1) {
		/* Tells the listener: authenticated, no penalty to give. */
		(void)!write(authpipe, &done, 1);
		close(authpipe);
		authpipe = -1;
	}
	if (authority_session_open(hs.auth, NULL) != 0)
		goto out;
	/* The post-auth process (a fork of this one) shows it. */
	login_text = authority_login_text(hs.auth);
	session_set_login_text(login_text);
	x_free(login_text);
	status = privsep_postauth(s, in, out, &tc, m, state, &res, &ci);
	state = NULL;
	authority_session_close(hs.auth);
 out:
	if (authpipe != -1)
		close(authpipe);
	sbuf_free(state);
	auth_result_clear(&res);
	monitor_free(m);
	return status;
}

static int
open_listeners(struct server *s, struct listener *l)
{
	const struct servconf *sc = s->sc;
	struct addrinfo hints, *ai, *a;
	char portstr[16];
	size_t i, j;
	int fd, on = 1, r;

	for (i = 0; i < sc->nlisten; i++) {
		for (j = 0; j < (sc->listen[i].port ? 1 : sc->nports); j++) {
			int port = sc->listen[i].port ? sc->listen[i].port :
			    sc->ports[j];

			memset(&hints, 0, sizeof(hints));
			hints.ai_family = sc->address_family;
			hints.ai_socktype = SOCK_STREAM;
			hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
			snprintf(portstr, sizeof(portstr), "%d", port);
			if ((r = getaddrinfo(sc->listen[i].addr, portstr,
			    &hints, &ai)) != 0) {
				log_error("bad addr or host: %s (%s)",
				    sc->listen[i].addr ? sc->listen[i].addr :
				    "<NULL>", gai_strerror(r));
				continue;
			}
			for (a = ai; a != NULL && l->nfds < MAX_LISTEN;
			    a = a->ai_next) {
				char host[NI_MAXHOST];

				fd = socket(a->ai_family, a->ai_socktype |
				    SOCK_CLOEXEC, a->ai_protocol);
				if (fd == -1)
					continue;
				setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on,
				    sizeof(on));
				if (a->ai_family == AF_INET6)
					setsockopt(fd, IPPROTO_IPV6,
					    IPV6_V6ONLY, &on, sizeof(on));
				getnameinfo(a->ai_addr, a->ai_addrlen, host,
				    sizeof(host), NULL, 0, NI_NUMERICHOST);
				if (bind(fd, a->ai_addr, a->ai_addrlen) == -1 ||
				    listen(fd, 128) == -1) {
					log_error("Bind to port %d on %s "
					    "failed: %s.", port, host,
					    strerror(errno));
					close(fd);
					continue;
				}
				l->fds[l->nfds++] = fd;
				log_info("Server listening on %s port %d.",
				    host, port);
			}
			freeaddrinfo(ai);
		}
	}
	if (l->nfds == 0) {
		log_error("Cannot bind any address.");
		return ERR_SYSTEM;
	}
	return 0;
}

/*
 * Before anything opens a file: descriptors 0-2 open (on /dev/null where
 * the launcher left one closed, so no socket or log file can become
 * stderr) and nothing above them. Whatever else the launching shell or
 * service manager had open must reach neither the listener nor a
 * connection. With -i, stdin and stdout are the connection and stay as
 * they are. Nothing is carried across the SIGHUP re-exec: it opens its
 * listeners and log file anew. A connection process (rexec: sshd -R)
 * keeps the three descriptors its listener handed over as well.
 */
static void
sanitise_fds(int rexec)
{
	int fd;

	closefrom((rexec ? SSHD_REXEC_CONF_FD : STDERR_FILENO) + 1);
	while ((fd = open("/dev/null", O_RDWR)) != -1 && fd <= STDERR_FILENO)
		;
	if (fd > STDERR_FILENO)
		close(fd);
}

/*
 * Load the configuration. A connection process replays its listener's
 * record of the files (conftape.h: the configuration the listener
 * started with, whatever is on disk now) if it was handed one; a
 * listener (record) keeps such a record for its connection processes
 * in srv->conf_fd. 0, or nonzero (logged).
 */
static int
load_config(struct server *srv, const char *path, int rexec, int record)
{
	struct conftape *tape = NULL;
	int r;

	srv->conf_fd = -1;
	if (rexec) {
		if ((tape = conftape_read_fd(SSHD_REXEC_CONF_FD)) == NULL)
			log_debug("rexec: no configuration record; reading "
			    "%s", path);
		close(SSHD_REXEC_CONF_FD);
	} else if (record)
		tape = conftape_new();
	servconf_set_tape(srv->sc, tape);
	r = servconf_load(srv->sc, path);
	servconf_set_tape(srv->sc, NULL);
	if (r == 0 && record && !rexec &&
	    (srv->conf_fd = conftape_to_memfd(tape)) == -1)
		log_error("connection processes will read %s anew", path);
	conftape_free(tape);
	return r;
}

/* The command line, as parse_flag leaves it. */
struct sshd_cli {
	const char *config, *logfile;
	int debug, no_daemon, inetd, test, dump, log_stderr, quiet, rexec;
	char *opts[256];	/* -o and its shorthands, as config lines */
	int nopts;
	struct match_conn spec;	/* -C: the connection -T evaluates */
	int have_spec;
	int print;		/* -G: as -T, which checks no host keys here */
};

/* -C's port: a number or a TCP service name; -1 if neither. */
static int
spec_port(const char *s)
{
	struct servent *se;
	char *ep;
	long v;

	errno = 0;
	v = strtol(s, &ep, 10);
	if (*s != '\0' && *ep == '\0' && errno == 0 && v >= 0 && v <= 65535)
		return (int)v;
	if ((se = getservbyname(s, "tcp")) != NULL)
		return ntohs((uint16_t)se->s_port);
	return -1;
}

/*
 * -C "user=u,host=h,addr=a,laddr=l,lport=p,rdomain=r", any subset, in
 * any order; further -C options add to it. OpenSSH stops at an empty
 * term, so "a=1,,b=2" gives only a; we read it the same way.
 */
static void
parse_spec(struct sshd_cli *c, const char *arg)
{
	static const char *const keys[] = {
		"user=", "host=", "addr=", "laddr=", "lport=", "rdomain="
	};
	char *buf = x_strdup(arg), *rest = buf, *t, *v;
	size_t k;

	c->have_spec = 1;
	while ((t = strsep(&rest, ",")) != NULL && *t != '\0') {
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (strncmp(t, keys[k], strlen(keys[k])) == 0)
				break;
		if (k == sizeof(keys) / sizeof(keys[0])) {
			fprintf(stderr, "Invalid test mode specification %s\n",
			    t);
			exit(1);
		}
		v = t + strlen(keys[k]);
		switch (k) {
		case 0: c->spec.user = x_strdup(v); break;
		case 1: c->spec.host = x_strdup(v); break;
		case 2: c->spec.address = x_strdup(v); break;
		case 3: c->spec.laddress = x_strdup(v); break;
		case 4:
			if ((c->spec.lport = spec_port(v)) == -1) {
				fprintf(stderr, "Invalid port '%s' in test mode "
				    "specification %s\n", v, t);
				exit(1);
			}
			break;
		default: c->spec.rdomain = x_strdup(v); break;
		}
	}
	x_free(buf);
}

static void
parse_flag(int ch, struct sshd_cli *c)
{
	switch (ch) {
	case '4':
		c->opts[c->nopts++] = x_strdup("AddressFamily inet");
		break;
	case '6':
		c->opts[c->nopts++] = x_strdup("AddressFamily inet6");
		break;
	case 'D': c->no_daemon = 1; break;
	case 'd':
		c->debug++;
		break;
	case 'E': c->logfile = optarg; break;
	case 'e': c->log_stderr = 1; break;
	case 'f': c->config = optarg; break;
	case 'g':
		c->opts[c->nopts++] = x_asprintf("LoginGraceTime %s", optarg);
		break;
	case 'h':
		c->opts[c->nopts++] = x_asprintf("HostKey %s", optarg);
		break;
	case 'i': c->inetd = 1; break;
	case 'q': c->quiet = 1; break;
	case 'o':
		c->opts[c->nopts++] = x_strdup(optarg);
		break;
	case 'p':
		c->opts[c->nopts++] = x_asprintf("Port %s", optarg);
		break;
	case 'R': c->rexec = 1; break;	/* not in usage(): internal */
	case 't': c->test = 1; break;
	case 'T': c->dump = 1; break;
	case 'c':
		c->opts[c->nopts++] = x_asprintf("HostCertificate %s",
		    optarg);
		break;
	case 'V':
		fprintf(stderr, "moat sshd 0.1, %s\n",
		    "OpenSSL 3");
		exit(0);
	case 'C':
		parse_spec(c, optarg);
		break;
	case 'G': c->print = 1; break;
	case 'u':
		break;
	default:
		usage();
	}
	if (c->nopts >= 255) {
		fprintf(stderr, "too many options\n");
		exit(1);
	}
}

/* -R: the descriptors a listener hands over must be there, of their
 * kind; anyone else running sshd -R is refused. */
static void
check_rexec_fds(void)
{
	struct stat st_sock, st_pipe;

	if (fstat(SSHD_REXEC_SOCK_FD, &st_sock) == -1 ||
	    fstat(SSHD_REXEC_PIPE_FD, &st_pipe) == -1 ||
	    !S_ISSOCK(st_sock.st_mode) || !S_ISFIFO(st_pipe.st_mode)) {
		fprintf(stderr, "sshd: -R is for sshd's own use\n");
		exit(1);
	}
	/* As the listener had them: not for the user's programs. */
	fcntl(SSHD_REXEC_SOCK_FD, F_SETFD, FD_CLOEXEC);
	fcntl(SSHD_REXEC_PIPE_FD, F_SETFD, FD_CLOEXEC);
}

/*
 * The level the command line asks for: -q, -d, else the first -o
 * LogLevel, else INFO.
 */
static int
cli_log_level(const struct sshd_cli *c)
{
	char word[32];
	const char *p;
	size_t n;
	int i, lv;

	if (c->quiet)
		return LOG_LEVEL_QUIET;
	if (c->debug)
		return LOG_LEVEL_DEBUG1 + (c->debug > 3 ? 2 : c->debug - 1);
	for (i = 0; i < c->nopts; i++) {
		p = c->opts[i] + strspn(c->opts[i], " \t");
		if (strncasecmp(p, "loglevel", 8) != 0 ||
		    strchr(" \t=", p[8]) == NULL || p[8] == '\0')
			continue;
		p += 8 + strspn(p + 8, " \t=");
		n = strcspn(p, " \t");
		if (n >= sizeof(word))
			continue;
		memcpy(word, p, n);
		word[n] = '\0';
		if ((lv = log_level_from_name(word)) >= 0)
			return lv;
	}
	return LOG_LEVEL_INFO;
}

/*
 * The log as the command line asks, then the configuration (the command
 * line's lines first). Until the host keys are loaded the log stays as
 * the command line set it, on stderr unless this is a connection's
 * process (-i, -R), as OpenSSH's sshd does: log_configured() then
 * applies the configuration's LogLevel, LogVerbose and syslog.
 */
static void
setup_config(struct server *srv, struct sshd_cli *c, const char *argv0)
{
	struct servconf *sc = srv->sc;
	int i, bad = 0;

	if (c->debug)
		c->log_stderr = 1;
	log_init(argv0, cli_log_level(c), LOG_AUTH, c->log_stderr ||
	    c->test || c->dump || (!c->inetd && !c->rexec));
	if (c->logfile != NULL && log_to_file(c->logfile) != 0) {
		fprintf(stderr, "Couldn't open logfile %s: %s\n", c->logfile,
		    strerror(errno));
		exit(1);
	}
	/* Command-line options come first, so first-value-wins favours them. */
	for (i = 0; i < c->nopts; i++) {
		if (servconf_parse_line(sc, c->opts[i], "command-line", 0) != 0)
			bad = 1;
		x_free(c->opts[i]);
	}
	if (load_config(srv, c->config, c->rexec, !c->test && !c->dump &&
	    !c->inetd && !c->debug) != 0)
		bad = 1;
	/* HostKey lines of the administrator's, or the default files. */
	srv->default_hostkeys = sc->nhostkeys == 0;
	if (bad || servconf_finish(sc) != 0)
		exit(c->rexec ? SSHD_EXIT_NOT_STARTED : 255);
}

static void
log_configured(const struct servconf *sc, const struct sshd_cli *c,
    const char *argv0)
{
	if (!c->quiet && !c->debug)
		log_set_level(sc->log_level);
	(void)log_set_verbose(sc->log_verbose);
	if (!c->log_stderr && !c->test && !c->dump && c->logfile == NULL)
		log_init(argv0, log_level(), sc->log_facility, 0);
}

/*
 * -T: the settings a connection like -C's would get, the Match blocks
 * evaluated as for a real one. Without -C no criterion holds but "all".
 * What -C leaves out does not match, except a local port: OpenSSH
 * refuses to guess one when a block tests it, and so do we.
 */
static void
dump_config(const struct servconf *sc, const struct match_conn *spec)
{
	struct servconf *m;

	if (spec->lport == 0 && servconf_match_tests(sc, "localport")) {
		log_error("'Match LocalPort' in configuration but "
		    "'lport' not in connection test specification.");
		exit(255);
	}
	if (servconf_apply_match(sc, spec, &m) != 0)
		exit(255);
	servconf_dump(m, stdout);
	servconf_free(m);
	exit(0);
}

/* The listener: sockets, daemon, pid file, the accept loop; a SIGHUP
 * runs sshd again from the top. Does not return. */
static void
run_listener(struct server *srv, const struct sshd_cli *c, char **argv)
{
	struct servconf *sc = srv->sc;
	struct listener l;
	size_t k;
	int fd, r;

	memset(&l, 0, sizeof(l));
	if (open_listeners(srv, &l) != 0)
		exit(1);
	if (c->debug) {
		/* -d: one connection, in this process. */
		sshd_notify("READY=1");
		if ((fd = accept(l.fds[0], NULL, NULL)) == -1)
			exit(1);
		exit(serve_connection(srv, fd, fd, -1));
	}
	/* Where each connection process reads the configuration. */
	if (getcwd(srv->rexec_cwd, sizeof(srv->rexec_cwd)) == NULL)
		srv->rexec_cwd[0] = '\0';
	if (!c->no_daemon && daemon(0, 0) == -1) {
		log_error("daemon() failed: %s", strerror(errno));
		exit(1);
	}
	if (sc->pid_file != NULL && strcmp(sc->pid_file, "none") != 0) {
		FILE *f = fopen(sc->pid_file, "w");

		if (f != NULL) {
			fprintf(f, "%ld\n", (long)getpid());
			fclose(f);
		}
	}
	r = listen_loop(srv, &l);
	if (sc->pid_file != NULL && strcmp(sc->pid_file, "none") != 0)
		unlink(sc->pid_file);
	if (r == SSHD_RESTART) {
		/*
		 * SIGHUP: run ourselves again with the same arguments,
		 * so the configuration and host keys are read anew
		 * (OpenSSH's behaviour). Connections already served
		 * by children are not touched.
		 */
		for (k = 0; k < l.nfds; k++)
			close(l.fds[k]);
		signal(SIGHUP, SIG_DFL);
		execv("/proc/self/exe", argv);
		log_error("RESTART FAILED: /proc/self/exe: %s",
		    strerror(errno));
		exit(1);
	}
	exit(r);
}

int
main(int argc, char **argv)
{
	struct server srv;
	struct sshd_cli c;
	int ch, r, i;
	static char rexec_flag[] = "-R";

	memset(&srv, 0, sizeof(srv));
	memset(&c, 0, sizeof(c));
	c.config = SSHD_CONFIG_DEFAULT;
	/* Before getopt() can reorder it: argv[0], -R, then the rest. */
	srv.rexec_argv = x_calloc((size_t)argc + 2, sizeof(*srv.rexec_argv));
	srv.rexec_argv[0] = argv[0];
	srv.rexec_argv[1] = rexec_flag;
	for (i = 1; i < argc; i++)
		srv.rexec_argv[i + 1] = argv[i];
	srv.sc = servconf_new();
	while ((ch = getopt(argc, argv, OPTSTRING)) != -1)
		parse_flag(ch, &c);
	if (optind < argc)
		usage();
	if (c.have_spec && !c.dump) {
		fprintf(stderr, "Config test connection parameter (-C) "
		    "provided without test mode (-T)\n");
		exit(255);
	}
	if (c.print)
		c.dump = 1;
	/* Nothing above has opened a file. */
	sanitise_fds(c.rexec);
	if (c.rexec)
		check_rexec_fds();
	setup_config(&srv, &c, argv[0]);
	if (c.dump)
		dump_config(srv.sc, &c.spec);
	if (load_hostkeys(&srv) != 0)
		exit(c.rexec ? SSHD_EXIT_NOT_STARTED : 1);
	if (c.test)
		exit(0);
	log_configured(srv.sc, &c, argv[0]);
	/*
	 * The pre-authentication child's account and empty directory must
	 * be there before the first connection (as root; a server run by
	 * another user only sandboxes its child, it cannot change its
	 * uid). MOAT_SSHD_SANDBOX=rlimit forces the rlimit-only sandbox
	 * that a kernel without seccomp gets, for tests and diagnosis.
	 */
	if (geteuid() == 0 && sandbox_check(NULL, NULL) != 0)
		exit(255);
	if (getenv("MOAT_SSHD_SANDBOX") != NULL &&
	    strcmp(getenv("MOAT_SSHD_SANDBOX"), "rlimit") == 0)
		srv.sandbox_flags |= SANDBOX_FORCE_RLIMIT;
	srv.log_stderr = c.log_stderr || c.logfile != NULL;
	srv.debug = c.debug;
	signal(SIGPIPE, SIG_IGN);
	if (c.rexec) {
		/*
		 * A connection process: the listener forked and executed
		 * us on the connection (listen.c: child_rexec()). As the
		 * listener it ran from "/" unless kept in the foreground.
		 */
		if (!c.no_daemon && chdir("/") == -1)
			log_debug("chdir /: %s", strerror(errno));
		r = serve_connection(&srv, SSHD_REXEC_SOCK_FD,
		    SSHD_REXEC_SOCK_FD, SSHD_REXEC_PIPE_FD);
		/* The client sees the end now, not after exit-time work. */
		close(SSHD_REXEC_SOCK_FD);
		exit(r);
	}
	if (c.inetd)
		exit(serve_connection(&srv, STDIN_FILENO, STDOUT_FILENO, -1));
	run_listener(&srv, &c, argv);
	return 0;
}
