/*
 * test_servconf_extra.c: the keywords with values of their own
 * (RequiredRSASize, FingerprintHash, IPQoS, ChannelTimeout,
 * UnusedConnectionTimeout, PubkeyAuthOptions, CASignatureAlgorithms,
 * X11 display settings) and those of features we lack (GSSAPI,
 * Kerberos): good values load, bad ones fail with the message Debian's
 * sshd -t prints for the same line, and sshd -T prints what Debian's
 * prints. Each row below was checked against Debian's sshd -t/-T.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "key.h"
#include "log.h"
#include "mem.h"
#include "servconf.h"
#include "servconftest.h"
#include "testlib.h"

static char logpath[64];

/* Parse one line (then finish); 0 if accepted. The log is in logpath. */
static int
parse_logged(const char *line, struct servconf **scp)
{
	struct servconf *sc = servconf_new();
	int r;

	unlink(logpath);
	log_set_level(LOG_LEVEL_INFO);
	log_to_file(logpath);
	r = servconf_parse_line(sc, line, "cfg", 2);
	if (r == 0)
		r = servconf_finish(sc);
	log_set_level(LOG_LEVEL_QUIET);
	*scp = sc;
	return r;
}

static int
log_has(const char *want)
{
	char buf[4096];
	size_t n = 0;
	FILE *f;

	if ((f = fopen(logpath, "r")) != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	if (want == NULL)
		return n == 0;
	if (strstr(buf, want) == NULL) {
		fprintf(stderr, "  log: %s  want: %s\n", buf, want);
		return 0;
	}
	return 1;
}

struct row {
	const char *line;
	const char *log;	/* a line of the log; NULL: log empty */
	const char *dump;	/* sshd -T line when accepted; NULL: skip */
};

/* Accepted lines and what sshd -T prints for them. */
static const struct row good[] = {
	{ "RequiredRSASize 2048", NULL, "requiredrsasize 2048" },
	{ "RequiredRSASize 0", NULL, "requiredrsasize 0" },
	{ "FingerprintHash md5", NULL, "fingerprinthash MD5" },
	{ "FingerprintHash SHA256", NULL, "fingerprinthash SHA256" },
	{ "FingerprintHash sha512", NULL, "fingerprinthash SHA512" },
	{ "PermitUserRC no", NULL, "permituserrc no" },
	{ "ExposeAuthInfo no", NULL, "exposeauthinfo no" },
	{ "ExposeAuthInfo yes", NULL, "exposeauthinfo yes" },
	{ "DebianBanner no", NULL, NULL },
	{ "IPQoS af11 cs1", NULL, "ipqos af11 cs1" },
	{ "IPQoS AF11", NULL, "ipqos af11 af11" },
	{ "IPQoS 0x10", NULL, "ipqos lowdelay lowdelay" },
	{ "IPQoS 010", NULL, "ipqos throughput throughput" },
	{ "IPQoS 10", NULL, "ipqos 0x0a 0x0a" },
	{ "IPQoS 0", NULL, "ipqos cs0 cs0" },
	{ "IPQoS reliability", NULL, "ipqos le le" },
	{ "IPQoS none", NULL, "ipqos none none" },
	{ "IPQoS af11 none", NULL, "ipqos af11 none" },
	{ "IPQoS ef le", NULL, "ipqos ef le" },
	{ "ChannelTimeout session=5m x11=1h", NULL,
	    "channeltimeout session=5m x11=1h" },
	{ "ChannelTimeout none", NULL, NULL },
	{ "UnusedConnectionTimeout 1h30m", NULL,
	    "unusedconnectiontimeout 5400" },
	{ "UnusedConnectionTimeout none", NULL,
	    "unusedconnectiontimeout none" },
	{ "UnusedConnectionTimeout 0", NULL, "unusedconnectiontimeout none" },
	{ "PubkeyAuthOptions touch-required verify-required", NULL,
	    "pubkeyauthoptions touch-required verify-required" },
	{ "PubkeyAuthOptions none touch-required", NULL,
	    "pubkeyauthoptions touch-required" },
	{ "PubkeyAuthOptions none", NULL, "pubkeyauthoptions none" },
	{ "LogVerbose kex.c:*:1000", NULL,
	    "logverbose kex.c:*:1000" },
	{ "CASignatureAlgorithms -rsa-sha2-512", NULL,
	    "casignaturealgorithms ssh-ed25519,ecdsa-sha2-nistp256,"
	    "ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,"
	    "sk-ssh-ed25519@openssh.com,sk-ecdsa-sha2-nistp256@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com,rsa-sha2-256" },
	{ "CASignatureAlgorithms ssh-rsa", NULL,
	    "casignaturealgorithms ssh-rsa" },
	/* GSSAPI off, as we are: quiet (Debian's sshd is quiet too). */
	{ "GSSAPIAuthentication no", NULL, NULL },
	{ "GSSAPIKeyExchange no", NULL, NULL },
	{ "GSSAPICleanupCredentials yes", NULL, NULL },
	{ "GSSAPICleanupCredentials no", NULL, NULL },
	{ "GSSAPIStrictAcceptorCheck no", NULL, NULL },
	{ "GSSAPIStoreCredentialsOnRekey yes", NULL, NULL },
	{ "GSSAPIKexAlgorithms gss-group14-sha256-,gss-curve25519-sha256-",
	    NULL, NULL },
	{ "KerberosAuthentication yes",
	    "cfg line 2: Unsupported option KerberosAuthentication", NULL },
	{ "X11DisplayOffset 5", NULL, "x11displayoffset 5" },
	{ "X11UseLocalhost no", NULL, "x11uselocalhost no" },
	{ "XAuthLocation /opt/bin/xauth", NULL,
	    "xauthlocation /opt/bin/xauth" },
	{ "HostKeyAgent none", "Unsupported option HostKeyAgent", NULL },
	{ "SecurityKeyProvider internal",
	    "Unsupported option SecurityKeyProvider", NULL },
};

/* Refused lines and Debian's sshd -t message for each. */
static const struct row bad[] = {
	{ "RequiredRSASize banana",
	    "cfg line 2: RequiredRSASize integer value invalid.", NULL },
	{ "RequiredRSASize -1",
	    "cfg line 2: RequiredRSASize integer value too small.", NULL },
	{ "RequiredRSASize 99999999999",
	    "cfg line 2: RequiredRSASize integer value too large.", NULL },
	{ "RequiredRSASize 0x400",
	    "cfg line 2: RequiredRSASize integer value invalid.", NULL },
	{ "RequiredRSASize 2048 x", "cfg line 2: keyword RequiredRSASize "
	    "extra arguments at end of line", NULL },
	{ "MaxAuthTries -3", "MaxAuthTries integer value too small.", NULL },
	{ "FingerprintHash banana",
	    "cfg line 2: Invalid FingerprintHash algorithm \"banana\".", NULL },
	{ "PermitUserRC banana", "cfg line 2: unsupported option \"banana\".",
	    NULL },
	{ "ExposeAuthInfo 1", "cfg line 2: unsupported option \"1\".", NULL },
	{ "DebianBanner banana", "unsupported option \"banana\".", NULL },
	{ "IPQoS banana", "cfg line 2: Bad IPQoS value: banana", NULL },
	{ "IPQoS 256", "Bad IPQoS value: 256", NULL },
	{ "IPQoS -1", "Bad IPQoS value: -1", NULL },
	{ "IPQoS 08", "Bad IPQoS value: 08", NULL },
	{ "IPQoS 1x", "Bad IPQoS value: 1x", NULL },
	{ "IPQoS 0x100", "Bad IPQoS value: 0x100", NULL },
	{ "IPQoS va", "Bad IPQoS value: va", NULL },
	{ "IPQoS cs0 banana", "Bad IPQoS value: banana", NULL },
	{ "IPQoS af11 cs1 ef",
	    "keyword IPQoS extra arguments at end of line", NULL },
	{ "ChannelTimeout banana", "cfg line 2: invalid channel timeout banana",
	    NULL },
	{ "ChannelTimeout session=banana",
	    "invalid channel timeout session=banana", NULL },
	{ "ChannelTimeout session=", "invalid channel timeout session=", NULL },
	{ "ChannelTimeout =5", "invalid channel timeout 5", NULL },
	{ "ChannelTimeout none session=5", "cfg line 2: keyword "
	    "ChannelTimeout \"none\" argument must appear alone.", NULL },
	{ "UnusedConnectionTimeout banana", "cfg line 2: invalid time value.",
	    NULL },
	{ "UnusedConnectionTimeout -1", "invalid time value.", NULL },
	{ "PubkeyAuthOptions banana",
	    "cfg line 2: unsupported PubkeyAuthOptions option banana", NULL },
	{ "PubkeyAuthOptions touch-required,verify-required",
	    "unsupported PubkeyAuthOptions option "
	    "touch-required,verify-required", NULL },
	{ "CASignatureAlgorithms banana", "cfg line 2: Bad key types 'banana'.",
	    NULL },
	{ "GSSAPIAuthentication banana",
	    "cfg line 2: unsupported option \"banana\".", NULL },
	/* Ours only: GSSAPI asked for, and we have none. */
	{ "GSSAPIAuthentication yes", "cfg line 2: GSSAPIAuthentication yes: "
	    "this sshd has no GSSAPI support; set it to \"no\" or remove "
	    "the line.", NULL },
	{ "GSSAPIKeyExchange yes", "cfg line 2: GSSAPIKeyExchange yes: this "
	    "sshd has no GSSAPI support", NULL },
	{ "GSSAPIStrictAcceptorCheck banana", "unsupported option \"banana\".",
	    NULL },
	{ "GSSAPIKexAlgorithms banana",
	    "cfg line 2: Bad GSSAPI KexAlgorithms 'banana'.", NULL },
	{ "GSSAPIKexAlgorithms gss-group14-sha256-,curve25519-sha256",
	    "Bad GSSAPI KexAlgorithms", NULL },
	{ "GSSAPIAuthentication yes no", "keyword GSSAPIAuthentication extra "
	    "arguments at end of line", NULL },
	{ "KerberosOrLocalPasswd maybe", "unsupported option \"maybe\".",
	    NULL },
	{ "X11DisplayOffset -1", "X11DisplayOffset integer value too small.",
	    NULL },
	{ "X11DisplayOffset banana",
	    "X11DisplayOffset integer value invalid.", NULL },
	{ "X11UseLocalhost banana", "unsupported option \"banana\".", NULL },
	{ "XAuthLocation a b", "keyword XAuthLocation extra arguments at end "
	    "of line", NULL },
	{ "HostKeyAgent a b", "keyword HostKeyAgent extra arguments at end of "
	    "line", NULL },
};

static void
test_good(void)
{
	struct servconf *sc;
	size_t i;
	int r;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if ((r = parse_logged(good[i].line, &sc)) != 0)
			fprintf(stderr, "  refused: %s\n", good[i].line);
		CHECK_OK(r);
		CHECK(log_has(good[i].log));
		servconf_free(sc);
	}
}

/* The row's sshd -T line, looked up by its first word. */
static void
test_dump(void)
{
	struct servconf *sc;
	char kw[64], *l;
	size_t i, n;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (good[i].dump == NULL)
			continue;
		n = strcspn(good[i].dump, " ");
		snprintf(kw, sizeof(kw), "%.*s", (int)n, good[i].dump);
		CHECK_OK(parse_logged(good[i].line, &sc));
		l = dump_line(sc, kw);
		if (l == NULL || strcmp(l, good[i].dump) != 0)
			fprintf(stderr, "  %s: got \"%s\"\n", good[i].line,
			    l ? l : "(none)");
		CHECK(l != NULL && strcmp(l, good[i].dump) == 0);
		x_free(l);
		servconf_free(sc);
	}
}

static void
test_bad(void)
{
	struct servconf *sc;
	size_t i;
	int r;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if ((r = parse_logged(bad[i].line, &sc)) == 0)
			fprintf(stderr, "  accepted: %s\n", bad[i].line);
		CHECK(r != 0);
		CHECK(log_has(bad[i].log));
		servconf_free(sc);
	}
}

/*
 * Defaults, as Debian's sshd -T prints them with an empty config
 * (CASignatureAlgorithms: OpenSSH 10.5's, which adds webauthn).
 */
static void
test_defaults(void)
{
	static const char *want[] = {
		"requiredrsasize 1024", "fingerprinthash SHA256",
		"permituserrc yes", "exposeauthinfo no",
		"unusedconnectiontimeout none", "ipqos lowdelay throughput",
		"pubkeyauthoptions none",
		"casignaturealgorithms ssh-ed25519,ecdsa-sha2-nistp256,"
		    "ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,"
		    "sk-ssh-ed25519@openssh.com,"
		    "sk-ecdsa-sha2-nistp256@openssh.com,"
		    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com,rsa-sha2-512,"
		    "rsa-sha2-256",
	};
	struct servconf *sc;
	char kw[64], *l;
	size_t i, n;

	CHECK_OK(parse_logged("", &sc));
	CHECK(sc->required_rsa_size == 1024);
	CHECK(sc->fingerprint_hash == KEY_FP_SHA256);
	CHECK(sc->permit_user_rc == 1 && sc->debian_banner == 1);
	CHECK(sc->ipqos_interactive == 0x10 && sc->ipqos_bulk == 0x08);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		n = strcspn(want[i], " ");
		snprintf(kw, sizeof(kw), "%.*s", (int)n, want[i]);
		l = dump_line(sc, kw);
		if (l == NULL || strcmp(l, want[i]) != 0)
			fprintf(stderr, "  default: got \"%s\"\n",
			    l ? l : "(none)");
		CHECK(l != NULL && strcmp(l, want[i]) == 0);
		x_free(l);
	}
	/* Printed only when set, as Debian's sshd -T does. */
	l = dump_line(sc, "channeltimeout");
	CHECK(l == NULL);
	x_free(l);
	l = dump_line(sc, "logverbose");
	CHECK(l == NULL);
	x_free(l);
	servconf_free(sc);
}

/* First value wins; Match blocks carry the new fields. */
static void
test_first_and_match(void)
{
	struct servconf *sc = servconf_new(), *m = NULL;
	struct match_conn conn = { "alice", "h", "10.0.0.1", "10.0.0.2", 22,
	    NULL };

	CHECK_OK(servconf_parse_line(sc, "RequiredRSASize 2048", "t", 1));
	CHECK_OK(servconf_parse_line(sc, "RequiredRSASize 4096", "t", 2));
	CHECK_OK(servconf_parse_line(sc, "IPQoS ef", "t", 3));
	CHECK_OK(servconf_parse_line(sc, "IPQoS cs1 cs2", "t", 4));
	CHECK_OK(servconf_parse_line(sc, "Match User alice", "t", 5));
	CHECK_OK(servconf_parse_line(sc, "PermitUserRC no", "t", 6));
	CHECK_OK(servconf_parse_line(sc, "CASignatureAlgorithms ssh-ed25519",
	    "t", 7));
	CHECK_OK(servconf_finish(sc));
	CHECK(sc->required_rsa_size == 2048);
	CHECK(sc->ipqos_interactive == 0xb8 && sc->ipqos_bulk == 0xb8);
	CHECK(sc->permit_user_rc == 1);
	CHECK_OK(servconf_apply_match(sc, &conn, &m));
	CHECK(m != NULL && m->permit_user_rc == 0);
	CHECK(m != NULL && strcmp(m->ca_signature_algorithms,
	    "ssh-ed25519") == 0);
	CHECK(m != NULL && m->required_rsa_size == 2048);
	servconf_free(m);
	servconf_free(sc);
	/* Not in a Match block, as in OpenSSH. */
	sc = servconf_new();
	CHECK_OK(servconf_parse_line(sc, "Match User alice", "t", 1));
	CHECK_ERR(servconf_parse_line(sc, "FingerprintHash md5", "t", 2),
	    ERR_CONFIG);
	CHECK_ERR(servconf_parse_line(sc, "DebianBanner no", "t", 3),
	    ERR_CONFIG);
	servconf_free(sc);
}

int
main(void)
{
	snprintf(logpath, sizeof(logpath), "/tmp/test_servconf_extra.%d",
	    (int)getpid());
	log_init("test_servconf_extra", LOG_LEVEL_QUIET, LOG_AUTH, 1);
	test_good();
	test_dump();
	test_bad();
	test_defaults();
	test_first_and_match();
	unlink(logpath);
	return TEST_DONE();
}
