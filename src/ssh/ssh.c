/*
 * ssh.c: the ssh(1) program's front: the command line, the
 * configuration files, logging, and then ssh_run() (ssh_run.c).
 *
 * Options are parsed with getopt up to the destination, then again after
 * it (OpenSSH accepts "ssh host -p 2222"), until the first word of the
 * remote command. Command-line values go into the options first, so they
 * win over every file ("first value wins"). Flags for features we do not
 * have yet (GSSAPI...) are refused
 * with a clear message rather than ignored.
 */
#include <sys/socket.h>

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "cipher.h"
#include "compress.h"
#include "err.h"
#include "installdirs.h"
#include "kexalg.h"
#include "key.h"
#include "log.h"
#include "mac.h"
#include "mem.h"
#include "mux.h"
#include "fwd_client.h"
#include "ssh.h"
#include "tun_client.h"

#define OPTSTRING "+1246ab:c:e:fgi:kl:m:no:p:qstvxAB:CD:E:F:GI:J:KL:MNO:P:Q:R:S:TVw:W:XYy"

static void
usage(void)
{
	fprintf(stderr,
	    "usage: ssh [-46AaCGNTVfnqstvy] [-B bind_interface] "
	    "[-c cipher_spec] [-E log_file]\n"
	    "           [-F configfile] [-i identity_file] [-J destination]\n"
	    "           [-l login_name] [-m mac_spec] [-o option] [-P tag]\n"
	    "           [-p port] [-Q query_option] [-w local_tun[:remote_tun]]\n"
	    "           destination [command [argument ...]]\n");
	exit(255);
}

static void
unsupported(int ch)
{
	static const struct { int ch; const char *what; } tab[] = {
		{ 'D', "dynamic forwarding" },
		{ 'L', "local forwarding" }, { 'R', "remote forwarding" },
		{ 'W', "stdio forwarding" },
		{ 'K', "GSSAPI authentication" },
	};
	size_t i;
	const char *what = "this feature";

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (tab[i].ch == ch)
			what = tab[i].what;
	fprintf(stderr, "ssh: option -%c is not supported yet (%s)\n", ch,
	    what);
	exit(255);
}

/*
 * ssh -Q: the lists OpenSSH's client answers, in its order, holding what
 * we implement. Short names match exactly; the ssh_config keyword forms
 * match in any case, as OpenSSH's do.
 */
#define Q_KEY_PLAIN "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384," \
	"ecdsa-sha2-nistp521,ssh-rsa"
#define Q_KEY_CERT "ssh-ed25519-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp256-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp384-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp521-cert-v01@openssh.com," \
	"ssh-rsa-cert-v01@openssh.com"
#define Q_KEY "ssh-ed25519,ssh-ed25519-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp256,ecdsa-sha2-nistp256-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp384,ecdsa-sha2-nistp384-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp521,ecdsa-sha2-nistp521-cert-v01@openssh.com," \
	"ssh-rsa,ssh-rsa-cert-v01@openssh.com"
#define Q_KEY_SIG Q_KEY ",rsa-sha2-256,rsa-sha2-256-cert-v01@openssh.com," \
	"rsa-sha2-512,rsa-sha2-512-cert-v01@openssh.com"
#define Q_SIG Q_KEY_PLAIN ",rsa-sha2-256,rsa-sha2-512"

static const char *q_key(void) { return Q_KEY; }
static const char *q_key_cert(void) { return Q_KEY_CERT; }
static const char *q_key_plain(void) { return Q_KEY_PLAIN; }
static const char *q_key_sig(void) { return Q_KEY_SIG; }
static const char *q_sig(void) { return Q_SIG; }
static const char *q_cipher_auth(void)
{
	return "aes128-gcm@openssh.com,aes256-gcm@openssh.com,"
	    "chacha20-poly1305@openssh.com";
}
static const char *q_protocol(void) { return "2"; }
static const char *q_help(void)
{
	return "cipher,cipher-auth,compression,kex,key,key-cert,key-plain,"
	    "key-sig,mac,protocol-version,sig";
}

static void
query(const char *what)
{
	static const struct {
		const char *name;	/* exact */
		const char *keyword;	/* any case; NULL: none */
		const char *(*list)(void);
	} tab[] = {
		{ "cipher", "Ciphers", cipher_all_names },
		{ "cipher-auth", NULL, q_cipher_auth },
		{ "compression", NULL, comp_all_names },
		{ "kex", "KexAlgorithms", kexalg_all_names },
		{ "key", NULL, q_key },
		{ "key-cert", NULL, q_key_cert },
		{ "key-plain", NULL, q_key_plain },
		{ "key-sig", "HostKeyAlgorithms", q_key_sig },
		{ NULL, "PubkeyAcceptedAlgorithms", q_key_sig },
		{ NULL, "PubkeyAcceptedKeyTypes", q_key_sig },
		{ NULL, "HostbasedAcceptedAlgorithms", q_key_sig },
		{ NULL, "HostbasedKeyTypes", q_key_sig },
		{ "mac", "MACs", mac_all_names },
		{ "protocol-version", NULL, q_protocol },
		{ "sig", "CASignatureAlgorithms", q_sig },
		{ "help", NULL, q_help },
	};
	const char *l, *c;
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if ((tab[i].name == NULL || strcmp(tab[i].name, what) != 0) &&
		    (tab[i].keyword == NULL ||
		    strcasecmp(tab[i].keyword, what) != 0))
			continue;
		for (l = tab[i].list(); *l != '\0'; l = c + (*c == ',')) {
			c = strchr(l, ',');
			if (c == NULL)
				c = l + strlen(l);
			printf("%.*s\n", (int)(c - l), l);
		}
		exit(0);
	}
	fprintf(stderr, "Unsupported query \"%s\"\n", what);
	exit(255);
}

static void
set_or_die(struct client_opts *o, const char *kw, const char *v)
{
	if (readconf_set(o, kw, v) != 0)
		exit(255);
}

/* One option character; exits on errors. */
static void
one_option(struct client_opts *o, struct ssh_cmdline *cl, int ch,
    const char *arg)
{
	switch (ch) {
	case '1':
		fprintf(stderr, "SSH protocol v.1 is no longer supported\n");
		exit(255);
	case '2': break;
	case '4': set_or_die(o, "AddressFamily", "inet"); break;
	case '6': set_or_die(o, "AddressFamily", "inet6"); break;
	/* -A and -a set forwarding outright: the last one wins, even
	 * over -o ForwardAgent, as in ssh(1); a socket path given with
	 * -o stays. */
	case 'A': o->forward_agent = 1; break;
	case 'a': o->forward_agent = 0; break;
	/* -X, -Y and -x beat ForwardX11 in any file, as in ssh(1). */
	case 'X': o->forward_x11 = 1; break;
	case 'Y': o->forward_x11 = 1; o->forward_x11_trusted = 1; break;
	case 'x': o->forward_x11 = 0; break;
	case 'k': break;	/* GSSAPI delegation: off anyway */
	case 'b': set_or_die(o, "BindAddress", arg); break;
	case 'B': set_or_die(o, "BindInterface", arg); break;
	case 'P': set_or_die(o, "Tag", arg); break;
	case 'c': set_or_die(o, "Ciphers", arg); break;
	case 'm': set_or_die(o, "MACs", arg); break;
	case 'e': set_or_die(o, "EscapeChar", arg); break;
	case 'i': set_or_die(o, "IdentityFile", arg); break;
	case 'I': set_or_die(o, "PKCS11Provider", arg); break;
	case 'l': set_or_die(o, "User", arg); break;
	case 'J': set_or_die(o, "ProxyJump", arg); break;
	case 'p':
		if (readconf_set(o, "Port", arg) != 0) {
			fprintf(stderr, "Bad port '%s'\n", arg);
			exit(255);
		}
		break;
	case 'o':
		if (readconf_parse_line(o, arg, "command-line", 0) != 0)
			exit(255);
		break;
	case 'C':
		set_or_die(o, "Compression", "yes");
		break;
	/* These four set the option whatever came before, as OpenSSH's. */
	case 'f': o->fork_after_auth = 1; o->stdin_null = 1; break;
	case 'g': set_or_die(o, "GatewayPorts", "yes"); break;
	case 'n': o->stdin_null = 1; break;
	case 'N': o->session_type = ST_NONE; break;
	case 's': o->session_type = ST_SUBSYSTEM; break;
	case 't': cl->tty_t++; break;
	case 'T': cl->tty_no = 1; break;
	case 'v': cl->verbose++; break;
	case 'q': cl->quiet = 1; break;
	case 'y': cl->use_syslog = 1; break;
	case 'E': cl->log_file = arg; break;
	case 'F': cl->config_file = arg; break;
	case 'G': cl->dump_config = 1; break;
	case 'Q': query(arg); break;
	case 'L': case 'R': case 'D': case 'W':
		if (fwd_client_option(o, ch, arg) != 0)
			exit(255);
		if (ch == 'W')
			o->session_type = ST_NONE;
		break;
	case 'w':
		if (tun_client_option(o, arg) != 0)
			exit(255);
		break;
	case 'M':
		o->control_master = o->control_master == MUX_YES ? MUX_ASK :
		    MUX_YES;
		break;
	case 'S': set_or_die(o, "ControlPath", arg); break;
	case 'O':
		if (cl->mux_cmd != MUXC_NONE) {
			fprintf(stderr, "Cannot specify multiplexing command "
			    "more than once\n");
			exit(255);
		}
		if ((cl->mux_cmd = mux_cmd_from_name(arg)) == MUXC_NONE) {
			fprintf(stderr, "Invalid multiplex command.\n");
			exit(255);
		}
		break;
	case 'V':
		fprintf(stderr, "moat_0.1, %s\n",
		    OpenSSL_version(OPENSSL_VERSION));
		exit(0);
	default:
		if (ch != '?' && ch != ':')
			unsupported(ch);
		usage();
	}
}

/* "ssh://[user@]host[:port]" or "[user@]host". */
static void
parse_destination(struct client_opts *o, const char *dest)
{
	char *d = x_strdup(dest), *h = d, *at, *colon, *end;

	if (strncmp(d, "ssh://", 6) == 0) {
		h = d + 6;
		if ((end = strchr(h, '/')) != NULL && end[1] == '\0')
			*end = '\0';
		if ((at = strrchr(h, '@')) != NULL) {
			*at = '\0';
			if (*h != '\0' && strchr(h, ';') == NULL)
				set_or_die(o, "User", h);
			h = at + 1;
		}
		if (*h == '[' && (end = strchr(h, ']')) != NULL) {
			*end = '\0';
			colon = end[1] == ':' ? end + 1 : NULL;
			h++;
		} else
			colon = strrchr(h, ':');
		if (colon != NULL) {
			*colon = '\0';
			if (readconf_set(o, "Port", colon + 1) != 0) {
				fprintf(stderr, "Bad port '%s'\n", colon + 1);
				exit(255);
			}
		}
	} else if ((at = strrchr(d, '@')) != NULL) {
		*at = '\0';
		if (*d != '\0')
			set_or_die(o, "User", d);
		h = at + 1;
	}
	if (*h == '\0' || strchr(h, '/') != NULL) {
		fprintf(stderr, "ssh: invalid destination '%s'\n", dest);
		exit(255);
	}
	o->host_arg = x_strdup(h);
	x_free(d);
}

static void
load_configs(struct client_opts *o, const struct ssh_cmdline *cl)
{
	char *user_cfg = NULL;
	int r;

	if (cl->config_file != NULL) {
		if (strcasecmp(cl->config_file, "none") == 0)
			return;
		r = readconf_load(o, cl->config_file, 1);
		if (r == ERR_NOT_FOUND || r == ERR_SYSTEM) {
			fprintf(stderr, "Can't open user config file %s: %s\n",
			    cl->config_file, strerror(errno));
			exit(255);
		}
		if (r != 0)
			exit(255);
		return;
	}
	if (readconf_tilde(o, "~/.ssh/config", &user_cfg) == 0) {
		r = readconf_load(o, user_cfg, 2);
		x_free(user_cfg);
		if (r != 0 && r != ERR_NOT_FOUND)
			exit(255);
	}
	r = readconf_load(o, MOAT_SSHDIR "/ssh_config", 0);
	if (r != 0 && r != ERR_NOT_FOUND)
		exit(255);
}

/*
 * The host name as ssh uses it: HostName (its %h the host as given) in
 * lower case, canonicalised (canon.c); with CanonicalizeHostname on, or
 * when a "Match final" line asks for it, the files are read again for
 * that name. Exits on failure.
 */
static void
canonical_host(struct client_opts *o, const struct ssh_cmdline *cl)
{
	const char *h = o->hostname != NULL ? o->hostname : o->host_arg, *c;
	char *host = x_malloc(strlen(h) * (strlen(o->host_arg) + 1) + 1);
	size_t n = 0;
	int direct;

	for (c = h; *c != '\0'; c++) {
		if (o->hostname != NULL && c[0] == '%' && c[1] == 'h') {
			memcpy(host + n, o->host_arg, strlen(o->host_arg));
			n += strlen(o->host_arg);
			c++;
			continue;
		}
		if (o->hostname != NULL && c[0] == '%' && c[1] == '%')
			c++;
		host[n++] = *c;
	}
	host[n] = '\0';
	/* Addresses are left as written: canonicalising rewrites them. */
	if (strchr(host, ':') == NULL)
		for (n = 0; host[n] != '\0'; n++)
			host[n] = (char)tolower((unsigned char)host[n]);
	direct = (o->proxy_command == NULL ||
	    strcmp(o->proxy_command, "none") == 0) &&
	    (o->proxy_jump == NULL || strcmp(o->proxy_jump, "none") == 0);
	if (client_canonicalize(o, &host, direct) != 0)
		exit(255);
	if (o->canonicalize_hostname > 0 || readconf_wants_final_pass(o)) {
		if (readconf_wants_final_pass(o))
			log_debug("configuration requests final Match pass");
		else
			log_debug("hostname canonicalisation enabled, will "
			    "re-parse configuration");
		log_debug("re-parsing configuration");
		readconf_canonical_pass(o, host);
		load_configs(o, cl);
	} else if (o->hostname != NULL || strcmp(host, o->host_arg) != 0) {
		/* (%h is gone: readconf_finish() leaves it alone) */
		x_free(o->hostname);
		o->hostname = host;
		host = NULL;
	}
	x_free(host);
}

/*
 * The settings the command line shares with ssh_config (-f -n -N -s and
 * ForkAfterAuthentication, StdinNull, SessionType), checked as OpenSSH
 * checks them before -G, and copied where the session reads them.
 */
static void
session_flags(const struct client_opts *o, struct ssh_cmdline *cl)
{
	if (o->fork_after_auth > 0 && cl->command == NULL &&
	    o->remote_command == NULL && o->session_type != ST_NONE) {
		fprintf(stderr, "Cannot fork into background without a command "
		    "to execute.\n");
		exit(255);
	}
	if (o->connection_attempts <= 0) {
		fprintf(stderr, "Invalid number of ConnectionAttempts\n");
		exit(255);
	}
	cl->fork_after_auth = o->fork_after_auth > 0;
	cl->no_command = o->session_type == ST_NONE;
	cl->subsystem = o->session_type == ST_SUBSYSTEM;
	/* -W carries the stream on stdin: never /dev/null there. */
	cl->stdin_null = o->stdin_null > 0 && o->stdio_forward_host == NULL;
}

int
main(int argc, char **argv)
{
	struct ssh_cmdline cl;
	struct client_opts *o;
	int ch, level, i, r;
	size_t len;

	memset(&cl, 0, sizeof(cl));
	cl.self = argv[0];
	signal(SIGPIPE, SIG_IGN);
	log_init("ssh", LOG_LEVEL_INFO, LOG_USER, 1);
	o = client_opts_new();

	while ((ch = getopt(argc, argv, OPTSTRING)) != -1)
		one_option(o, &cl, ch, optarg);
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	parse_destination(o, argv[0]);
	/* Options may follow the destination, up to the command. */
	if (argc > 1 && argv[1][0] == '-' && strcmp(argv[1], "--") != 0) {
		optind = 0;
		while ((ch = getopt(argc, argv, OPTSTRING)) != -1)
			one_option(o, &cl, ch, optarg);
		argc -= optind;
		argv += optind;
	} else {
		argc--;
		argv++;
		if (argc > 0 && strcmp(argv[0], "--") == 0) {
			argc--;
			argv++;
		}
	}
	for (i = 0, len = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if (argc > 0) {
		cl.command = x_calloc(1, len);
		for (i = 0; i < argc; i++) {
			if (i > 0)
				strcat(cl.command, " ");
			strcat(cl.command, argv[i]);
		}
	}
	/* -W's stream is ours: a master has no stdio of ours to use. */
	if (cl.mux_cmd != MUXC_NONE && o->stdio_forward_host != NULL) {
		fprintf(stderr, "Cannot specify stdio forward with -O\n");
		exit(255);
	}
	/* -q and -v win over -o LogLevel wherever it stands, as in OpenSSH. */
	if (cl.quiet)
		o->log_level = LOG_LEVEL_QUIET;
	else if (cl.verbose > 0)
		o->log_level = cl.verbose == 1 ? LOG_LEVEL_DEBUG1 :
		    cl.verbose == 2 ? LOG_LEVEL_DEBUG2 : LOG_LEVEL_DEBUG3;
	/* Debug output while reading the files when asked on the command line. */
	if (cl.verbose > 0)
		log_set_level(o->log_level);
	load_configs(o, &cl);
	canonical_host(o, &cl);
	if ((r = readconf_finish(o, NULL)) != 0)
		exit(255);
	session_flags(o, &cl);
	if (cl.dump_config) {
		readconf_dump(o, stdout);
		exit(0);
	}
	level = o->log_level;
	log_init("ssh", level, o->syslog_facility, !cl.use_syslog);
	(void)log_set_verbose(o->log_verbose);
	if (cl.log_file != NULL && log_to_file(cl.log_file) != 0) {
		fprintf(stderr, "Couldn't open logfile %s: %s\n", cl.log_file,
		    strerror(errno));
		exit(255);
	}
	r = ssh_run(o, &cl);
	x_free(cl.command);
	client_opts_free(o);
	return r;
}
