/*
 * test_readconf.c: ssh_config reading: Host and Match blocks, first value
 * wins, Include, tokens, -o precedence, errors with file:line, the -G
 * dump, and Debian's stock /etc/ssh/ssh_config when present.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "log.h"
#include "mem.h"
#include "conftest.h"
#include "testlib.h"

/* The value of one -G line, or NULL (caller frees). */
static char *
dump_value(const struct client_opts *o, const char *kw)
{
	char *buf = NULL, *ret;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	readconf_dump(o, f);
	fclose(f);
	ret = conftest_line(buf, kw, 1);
	free(buf);
	return ret;
}

/* The -G line of kw has the value want (a failure names this line). */
#define CHECK_DUMP(o, kw, want) do { \
	char *check_dump_ = dump_value((o), (kw)); \
	CHECK_STR(check_dump_, (want)); \
	x_free(check_dump_); \
} while (0)

static struct client_opts *
load(const char *host, const char *text, int *rp)
{
	struct client_opts *o = client_opts_new();
	char *path = conftest_write("config", text, 0600);

	o->host_arg = x_strdup(host);
	*rp = readconf_load(o, path, 1);
	x_free(path);
	return o;
}

static void
test_host_blocks(void)
{
	struct client_opts *o;
	int r;

	o = load("web1.example.org",
	    "Port 2200\n"
	    "Host *.example.org !db*\n"
	    "  User alice\n"
	    "  Port 2201\n"
	    "Host web?.example.org\n"
	    "  User bob\n"
	    "  HostName 10.0.0.%h\n"
	    "  Compression yes\n"
	    "Host *\n"
	    "  User carol\n"
	    "  IdentityFile ~/.ssh/one\n"
	    "  IdentityFile %d/two_%r\n", &r);
	CHECK_OK(r);
	CHECK(o->port == 2200);	/* first value wins */
	CHECK_STR(o->user, "alice");
	CHECK(o->compression == 1);
	CHECK(o->nidentity_files == 2);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK_STR(o->hostname, "10.0.0.web1.example.org");
	CHECK(o->nidentity_files == 2);
	if (o->nidentity_files == 2) {
		CHECK(strstr(o->identity_files[1], "/two_alice") != NULL);
		CHECK(o->identity_files[0][0] == '/');
		CHECK(o->identity_files_explicit[0] == 1);
	}
	client_opts_free(o);

	/* Negation excludes the block. */
	o = load("db1.example.org",
	    "Host *.example.org !db*\n  User alice\n"
	    "Host *\n  User carol\n", &r);
	CHECK_OK(r);
	CHECK_STR(o->user, "carol");
	client_opts_free(o);
}

static void
test_match(void)
{
	struct client_opts *o;
	int r;

	o = load("short",
	    "Match originalhost short\n  HostName short.example.net\n"
	    "Match host short.example.net user nobody-xyz\n  Port 1\n"
	    "Match host short.example.net\n  User matched\n"
	    "Match exec \"test %n = short\"\n  ConnectTimeout 7\n"
	    "Match exec false\n  ServerAliveInterval 9\n"
	    "Match !localuser nobody-here-xyz\n  BatchMode yes\n"
	    "Match canonical\n  TCPKeepAlive no\n"
	    "Match user matched\n  NumberOfPasswordPrompts 2\n"
	    "Match all\n  ServerAliveCountMax 5\n", &r);
	CHECK_OK(r);
	CHECK_STR(o->hostname, "short.example.net");
	CHECK(o->port == -1);
	CHECK_STR(o->user, "matched");
	CHECK(o->connect_timeout == 7);
	CHECK(o->server_alive_interval == -1);
	CHECK(o->batch_mode == 1);
	CHECK(o->tcp_keep_alive == -1);
	CHECK(o->server_alive_count_max == 5);
	CHECK(o->number_of_password_prompts == 2);
	client_opts_free(o);

	o = load("x", "Match bogus x\n  Port 1\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
}

static void
test_cmdline_first(void)
{
	struct client_opts *o = client_opts_new();
	char *path = conftest_write("config",
	    "User fromfile\nPort 2222\nCiphers aes128-ctr\n"
	    "UserKnownHostsFile /a /b\nUserKnownHostsFile /c\n"
	    "SendEnv LANG LC_*\nSendEnv -LANG\n", 0600);

	o->host_arg = x_strdup("h");
	CHECK_OK(readconf_parse_line(o, "User=fromcmd", "command-line", 0));
	CHECK_OK(readconf_parse_line(o, "Ciphers \"aes256-ctr\"",
	    "command-line", 0));
	CHECK_OK(readconf_set(o, "Port", "2022"));
	CHECK_ERR(readconf_parse_line(o, "Host foo", "command-line", 0),
	    ERR_CONFIG);
	CHECK_ERR(readconf_parse_line(o, "Ciphers nonsense-cipher",
	    "command-line", 0), ERR_CONFIG);
	CHECK_ERR(readconf_parse_line(o, "Port 70000", "command-line", 0),
	    ERR_CONFIG);
	CHECK_ERR(readconf_parse_line(o, "BatchMode maybe", "command-line",
	    0), ERR_CONFIG);
	CHECK_OK(readconf_load(o, path, 1));
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK_STR(o->user, "fromcmd");
	CHECK(o->port == 2022);
	CHECK_STR(o->ciphers, "aes256-ctr");
	CHECK(o->nuser_known_hosts_files == 2);
	CHECK_STR(o->user_known_hosts_files[1], "/b");
	CHECK(o->nsend_env == 1);
	CHECK_STR(o->send_env[0], "LC_*");
	x_free(path);
	client_opts_free(o);
}

static void
test_algorithms(void)
{
	struct client_opts *o = client_opts_new();

	o->host_arg = x_strdup("h");
	CHECK_OK(readconf_parse_line(o, "MACs -hmac-sha1*", "c", 0));
	CHECK_OK(readconf_parse_line(o, "HostKeyAlgorithms ^rsa-sha2-256",
	    "c", 0));
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK(strstr(o->macs, "hmac-sha1") == NULL);
	CHECK(strstr(o->macs, "hmac-sha2-256") != NULL);
	CHECK(strncmp(o->hostkey_algorithms, "rsa-sha2-256,", 13) == 0);
	CHECK(o->kex_algorithms != NULL &&
	    strstr(o->kex_algorithms, "curve25519-sha256") != NULL);
	CHECK(o->pubkey_accepted_algorithms != NULL &&
	    strstr(o->pubkey_accepted_algorithms, "ssh-ed25519") != NULL);
	client_opts_free(o);
}

static void
test_include_and_errors(void)
{
	struct client_opts *o;
	char *inc, *cfg;
	int r;

	inc = conftest_write("inc1.conf", "Host incl\n  Port 4444\n"
	    "Host *\n  User included\n", 0600);
	x_free(inc);
	inc = conftest_write("inc2.conf", "GSSAPIAuthentication yes\n", 0600);
	x_free(inc);
	cfg = x_asprintf("Include %s/inc*.conf\nHost other\n  User no\n"
	    "Host incl\n  ForwardX11 no\n", conftest_dir);
	o = load("incl", cfg, &r);
	x_free(cfg);
	CHECK_OK(r);
	CHECK(o->port == 4444);
	CHECK_STR(o->user, "included");
	client_opts_free(o);

	/* An unknown keyword is an error naming file and line. */
	o = load("h", "Port 22\n\n# comment\nNoSuchOption yes\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	o = load("h", "Port\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	o = load("h", "StrictHostKeyChecking sometimes\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);

	/* -G values. */
	o = load("gee",
	    "StrictHostKeyChecking accept-new\nRequestTTY force\n"
	    "ProxyCommand sh -c 'exec %h %p'  \nLocalForward 8080 127.0.0.1:80\n"
	    "EscapeChar ^A\nRekeyLimit 1G 1h\nConnectTimeout 1m\n"
	    "SetEnv A=1 B=2\nSetEnv C=3\nLogLevel DEBUG1\n"
	    "CertificateFile ~/c-%h\n", &r);
	CHECK_OK(r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK_DUMP(o, "stricthostkeychecking", "accept-new");
	CHECK_DUMP(o, "requesttty", "force");
	CHECK_DUMP(o, "proxycommand", "sh -c 'exec %h %p'");
	CHECK_DUMP(o, "localforward", "8080 [127.0.0.1]:80");
	CHECK_DUMP(o, "escapechar", "^A");
	CHECK_DUMP(o, "rekeylimit", "1073741824 3600");
	CHECK_DUMP(o, "connecttimeout", "60");
	/* One line each, and the first SetEnv line wins (OpenSSH 9.2). */
	CHECK_DUMP(o, "setenv", "A=1");
	CHECK(o->nset_env == 2);
	CHECK_DUMP(o, "loglevel", "DEBUG");
	CHECK_DUMP(o, "certificatefile", "~/c-%h");
	/* Not set: left out, as OpenSSH leaves it out. */
	CHECK(dump_value(o, "preferredauthentications") == NULL);
	CHECK_DUMP(o, "port", "22");
	CHECK_DUMP(o, "user", "tester");
	CHECK_DUMP(o, "identityfile", "~/.ssh/id_rsa");
	client_opts_free(o);
}

static void
test_tokens(void)
{
	struct client_opts *o = client_opts_new();
	char *s = NULL;

	o->host_arg = x_strdup("alias");
	CHECK_OK(readconf_set(o, "HostName", "real.example"));
	CHECK_OK(readconf_set(o, "User", "u1"));
	CHECK_OK(readconf_set(o, "Port", "2022"));
	CHECK_OK(readconf_expand(o, "%h:%p:%r:%n:%%", &s));
	CHECK_STR(s, "real.example:2022:u1:alias:%");
	x_free(s);
	CHECK_ERR(readconf_expand(o, "%Z", &s), ERR_CONFIG);
	CHECK_OK(readconf_tilde(o, "~/x", &s));
	CHECK(s != NULL && s[0] == '/' && strstr(s, "/x") != NULL);
	x_free(s);
	client_opts_free(o);
}

static void
test_debian_stock(void)
{
	struct client_opts *o;

	if (access("/etc/ssh/ssh_config", R_OK) != 0) {
		fprintf(stderr, "no /etc/ssh/ssh_config; skipped\n");
		return;
	}
	o = client_opts_new();
	o->host_arg = x_strdup("example.com");
	CHECK_OK(readconf_load(o, "/etc/ssh/ssh_config", 0));
	CHECK_OK(readconf_finish(o, "tester"));
	client_opts_free(o);
}

/*
 * UpdateHostKeys' default (ssh_config(5) of OpenSSH 8.5+): yes unless
 * UserKnownHostsFile names another file or VerifyHostKeyDNS is on.
 */
static void
test_update_host_keys(void)
{
	static const struct {
		const char *config;
		int want;
		const char *shown;
	} cases[] = {
		{ "", 1, "true" },
		{ "UserKnownHostsFile ~/.ssh/known_hosts\n", 1, "true" },
		{ "UserKnownHostsFile /tmp/kh\n", 0, "false" },
		{ "UserKnownHostsFile ~/.ssh/known_hosts ~/.ssh/kh2\n", 0,
		    "false" },
		{ "VerifyHostKeyDNS yes\n", 0, "false" },
		{ "VerifyHostKeyDNS no\n", 1, "true" },
		{ "UserKnownHostsFile /tmp/kh\nUpdateHostKeys yes\n", 1,
		    "true" },
		{ "UpdateHostKeys ask\n", 2, "ask" },
		{ "UpdateHostKeys no\n", 0, "false" },
	};
	struct client_opts *o;
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		o = load("h", cases[i].config, &r);
		CHECK_OK(r);
		CHECK_OK(readconf_finish(o, "tester"));
		CHECK(o->update_host_keys == cases[i].want);
		CHECK_DUMP(o, "updatehostkeys", cases[i].shown);
		client_opts_free(o);
	}
	o = load("h", "VerifyHostKeyDNS ask\n", &r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK_DUMP(o, "verifyhostkeydns", "ask");
	client_opts_free(o);
}

/* IgnoreUnknown: only unknown keywords its patterns name, once set. */
static void
test_ignore_unknown(void)
{
	struct client_opts *o;
	char *v;
	int r;

	o = load("h", "IgnoreUnknown foo*,Bar\nFooThing 1\nbar 2\nBAR 3\n",
	    &r);
	CHECK_OK(r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK_DUMP(o, "ignoreunknown", "foo*,Bar");
	client_opts_free(o);
	/* Not listed; listed only after it; set in a block that does
	 * not apply; the second IgnoreUnknown does not count. */
	o = load("h", "IgnoreUnknown foo\nbaz 1\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	o = load("h", "foo 1\nIgnoreUnknown foo\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	o = load("h", "Host x\nIgnoreUnknown foo\nHost *\nfoo 1\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	o = load("h", "IgnoreUnknown a\nIgnoreUnknown b\nb 1\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	o = load("h", "IgnoreUnknown a b\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	o = load("h", "IgnoreUnknown\n", &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	/* The command line's comes first. */
	o = client_opts_new();
	o->host_arg = x_strdup("h");
	CHECK_OK(readconf_parse_line(o, "IgnoreUnknown=zz*", "command-line",
	    0));
	CHECK_OK(readconf_parse_line(o, "zzTop yes", "command-line", 0));
	CHECK_ERR(readconf_parse_line(o, "yy yes", "command-line", 0),
	    ERR_CONFIG);
	client_opts_free(o);
	/* An included file is read with the same rules. */
	x_free(conftest_write("inc_unknown.conf", "NoSuchThing 1\n", 0600));
	v = x_asprintf("Include %s/inc_unknown.conf\n", conftest_dir);
	o = load("h", v, &r);
	CHECK_ERR(r, ERR_CONFIG);
	client_opts_free(o);
	x_free(v);
}

/*
 * GSSAPI (we have none): the keywords are accepted, yes included since
 * Debian's own ssh_config sets GSSAPIAuthentication yes, with values
 * checked as Debian's ssh checks them; in a block that does not apply
 * too.
 */
static void
test_gssapi(void)
{
	static const char *good[] = {
		"GSSAPIAuthentication yes\n", "GSSAPIAuthentication no\n",
		"GSSAPIDelegateCredentials yes\n", "GSSAPIKeyExchange no\n",
		"GSSAPITrustDNS no\n", "GSSAPIRenewalForcesRekey yes\n",
		"GSSAPIClientIdentity someone@EXAMPLE.ORG\n",
		"GSSAPIServerIdentity host.example.org\n",
		"GSSAPIKexAlgorithms gss-group14-sha256-\n",
	};
	static const char *bad[] = {
		"GSSAPIAuthentication banana\n", "GSSAPITrustDNS maybe\n",
		"GSSAPIAuthentication\n", "GSSAPIAuthentication yes no\n",
		"Host nomatch\nGSSAPIDelegateCredentials 1\n",
		"GSSAPIClientIdentity\n",
	};
	struct client_opts *o;
	size_t i;
	int r;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		o = load("h", good[i], &r);
		if (r != 0)
			fprintf(stderr, "  refused: %s", good[i]);
		CHECK_OK(r);
		client_opts_free(o);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = load("h", bad[i], &r);
		if (r == 0)
			fprintf(stderr, "  accepted: %s", bad[i]);
		CHECK_ERR(r, ERR_CONFIG);
		client_opts_free(o);
	}
}

/* ConnectionAttempts, StdinNull, ForkAfterAuthentication, SessionType,
 * LocalCommand, PermitLocalCommand: values, checks, defaults, -G. */
static void
test_session_keywords(void)
{
	static const char *const bad[] = {
		"ConnectionAttempts -1\n", "ConnectionAttempts abc\n",
		"ConnectionAttempts 3 4\n", "ConnectionAttempts 2147483648\n",
		"StdinNull maybe\n", "SessionType foo\n",
		"ForkAfterAuthentication 2\n", "PermitLocalCommand ask\n",
		"LocalCommand\n", "KnownHostsCommand\n", "RevokedHostKeys a b\n",
		"NoHostAuthenticationForLocalhost perhaps\n",
		"FingerprintHash sha2\n", "SyslogFacility LOCAL9\n",
	};
	struct client_opts *o;
	size_t i;
	char *v;
	int r;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = load("h", bad[i], &r);
		CHECK_ERR(r, ERR_CONFIG);
		client_opts_free(o);
	}
	o = load("h", "", &r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK(o->connection_attempts == 1);
	CHECK(o->stdin_null == 0 && o->fork_after_auth == 0);
	CHECK(o->session_type == ST_DEFAULT);
	CHECK(o->permit_local_command == 0 && o->local_command == NULL);
	CHECK_DUMP(o, "sessiontype", "default");
	CHECK((v = dump_value(o, "localcommand")) == NULL);
	x_free(v);
	client_opts_free(o);
	o = load("h", "ConnectionAttempts 3\nStdinNull yes\n"
	    "ForkAfterAuthentication yes\nSessionType subsystem\n"
	    "SessionType none\nPermitLocalCommand yes\n"
	    "LocalCommand echo %h  %%T \"x\"\n", &r);
	CHECK_OK(r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK(o->connection_attempts == 3);
	CHECK(o->session_type == ST_SUBSYSTEM);
	CHECK_DUMP(o, "connectionattempts", "3");
	CHECK_DUMP(o, "stdinnull", "yes");
	CHECK_DUMP(o, "forkafterauthentication", "yes");
	CHECK_DUMP(o, "sessiontype", "subsystem");
	CHECK_DUMP(o, "permitlocalcommand", "yes");
	CHECK_DUMP(o, "localcommand", "echo %h  %%T \"x\"");
	client_opts_free(o);
	o = load("h", "KnownHostsCommand /bin/k  %H \"%K\"\n"
	    "RevokedHostKeys ~/r_%h\nNoHostAuthenticationForLocalhost yes\n",
	    &r);
	CHECK_OK(r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK_DUMP(o, "knownhostscommand", "/bin/k  %H \"%K\"");
	CHECK_DUMP(o, "revokedhostkeys", "~/r_%h");
	CHECK_DUMP(o, "nohostauthenticationforlocalhost", "yes");
	CHECK_DUMP(o, "fingerprinthash", "SHA256");
	CHECK_DUMP(o, "syslogfacility", "USER");
	client_opts_free(o);
	o = load("h", "FingerprintHash md5\nSyslogFacility local3\n", &r);
	CHECK_OK(r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK(client_fp_hash(o) == KEY_FP_MD5);
	CHECK_DUMP(o, "fingerprinthash", "MD5");
	CHECK_DUMP(o, "syslogfacility", "LOCAL3");
	client_opts_free(o);
}

/* %C (SHA-1 of %l%h%p%r, as OpenSSH 9.2), %k and %j. */
static void
test_more_tokens(void)
{
	struct client_opts *o = client_opts_new();
	char *s = NULL, *want, host[256];

	o->host_arg = x_strdup("alias");
	CHECK_OK(readconf_set(o, "HostName", "real.example"));
	CHECK_OK(readconf_set(o, "User", "u1"));
	CHECK_OK(readconf_set(o, "Port", "2022"));
	CHECK_OK(readconf_set(o, "ProxyJump", "a@j1:22,ssh://b@j2:2200"));
	CHECK_OK(readconf_expand(o, "%k %j", &s));
	CHECK_STR(s, "alias j2");
	x_free(s);
	CHECK_OK(readconf_set(o, "HostKeyAlias", "ka"));
	CHECK_OK(readconf_expand(o, "%k %C", &s));
	if (gethostname(host, sizeof(host)) != 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	/* The digest is checked against sha1sum's of the same text. */
	want = x_asprintf("printf %%s '%sreal.example2022u1' | sha1sum | "
	    "grep -q \"^%s \"", host, s != NULL && strlen(s) > 3 ?
	    s + 3 : "x");
	CHECK(s != NULL && strncmp(s, "ka ", 3) == 0 && strlen(s) == 43);
	CHECK(system(want) == 0);
	x_free(want);
	x_free(s);
	/* Extra tokens: values taken as they are, '%' and all. */
	{
		const char *vals[] = { "[h]:2%2", "NONE" };

		CHECK_OK(readconf_expand_more(o, "%H %T %%T %h %%", "HT", vals,
		    &s));
		CHECK_STR(s, "[h]:2%2 NONE %T real.example %");
		x_free(s);
		CHECK_ERR(readconf_expand_more(o, "%H %Q", "HT", vals, &s),
		    ERR_CONFIG);
	}
	client_opts_free(o);
}

/* Canonicalisation (no DNS: an address) and the second reading. */
static void
test_canonical(void)
{
	struct client_opts *o;
	char *path, *host;
	int r;

	path = conftest_write("canon.conf", "CanonicalizeHostname yes\n"
	    "IdentityFile ~/.ssh/k1\nSendEnv A B\nLocalForward 1 h:2\n"
	    "Host 127.0.0.1\n  Port 2345\n  SendEnv C\n"
	    "Match canonical\n  User canon\n"
	    "Match !canonical\n  ServerAliveInterval 7\n", 0600);
	o = client_opts_new();
	o->host_arg = x_strdup("127.1");
	CHECK_OK(readconf_load(o, path, 1));
	CHECK(o->port == -1 && o->user == NULL);
	host = x_strdup("127.1");
	CHECK_OK(client_canonicalize(o, &host, 1));
	CHECK_STR(host, "127.0.0.1");
	readconf_canonical_pass(o, host);
	CHECK_OK(readconf_load(o, path, 1));
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK(o->port == 2345);
	CHECK_STR(o->user, "canon");
	CHECK_STR(o->hostname, "127.0.0.1");
	CHECK(o->server_alive_interval == 7);
	CHECK(o->nidentity_files == 1);
	CHECK(o->nsend_env == 3);
	CHECK(o->nlocal_forwards == 1);
	CHECK_DUMP(o, "canonicalizehostname", "true");
	CHECK_DUMP(o, "canonicaldomains", "none");
	x_free(host);
	client_opts_free(o);
	x_free(path);

	/* A name under no domain: kept, or an error without fallback. */
	o = load("h", "CanonicalizeHostname yes\nCanonicalDomains invalid\n"
	    "CanonicalizeFallbackLocal no\n"
	    "CanonicalizePermittedCNAMEs *.a:*.b\n", &r);
	CHECK_OK(r);
	host = x_strdup("nosuchhost-moat");
	CHECK_ERR(client_canonicalize(o, &host, 1), ERR_NOT_FOUND);
	CHECK_STR(host, "nosuchhost-moat");
	/* Through a proxy: left alone unless "always". */
	CHECK_OK(client_canonicalize(o, &host, 0));
	CHECK_DUMP(o, "canonicalizePermittedcnames", "*.a:*.b");
	x_free(host);
	client_opts_free(o);
	o = load("h", "CanonicalizeHostname yes\nCanonicalDomains invalid\n"
	    "CanonicalizeMaxDots 0\nCanonicalizeFallbackLocal no\n", &r);
	host = x_strdup("a.b");
	CHECK_OK(client_canonicalize(o, &host, 1));	/* too many dots */
	CHECK_STR(host, "a.b");
	x_free(host);
	client_opts_free(o);
}

/* LogVerbose, Tag and Match tagged, BindInterface, SmartcardDevice,
 * ChannelTimeout, ProxyUseFdpass, ObscureKeystrokeTiming. */
static void
test_newer_keywords(void)
{
	static const char *const bad[] = {
		"ChannelTimeout session\n", "ChannelTimeout session=x\n",
		"ChannelTimeout none session=1\n", "ChannelTimeout =5\n",
		"ObscureKeystrokeTiming maybe\n",
		"ObscureKeystrokeTiming interval:0\n",
		"ObscureKeystrokeTiming interval:1001\n",
		"ObscureKeystrokeTiming interval:\n",
		"ObscureKeystrokeTiming yes no\n", "ProxyUseFdpass 2\n",
		"Tag a b\n", "BindInterface a b\n", "LogVerbose\n",
		"Match tagged\n",
	};
	struct client_opts *o;
	size_t i;
	int r;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = load("h", bad[i], &r);
		CHECK_ERR(r, ERR_CONFIG);
		client_opts_free(o);
	}
	o = load("h", "Tag web\nTag db\nMatch tagged w*\n  User tu\n"
	    "SmartcardDevice /s.so\nPKCS11Provider /p.so\n"
	    "ChannelTimeout session=5m global=1h\nChannelTimeout x=1\n"
	    "ObscureKeystrokeTiming interval:50\nProxyUseFdpass yes\n"
	    "BindInterface eth9\nLogVerbose a.c:*:* b.c:f:1\n", &r);
	CHECK_OK(r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK_STR(o->user, "tu");
	CHECK_DUMP(o, "tag", "web");
	CHECK_DUMP(o, "pkcs11provider", "/s.so");
	CHECK_DUMP(o, "channeltimeout", "session=5m global=1h");
	CHECK_DUMP(o, "obscurekeystroketiming", "50");
	CHECK_DUMP(o, "proxyusefdpass", "yes");
	CHECK_DUMP(o, "bindinterface", "eth9");
	CHECK_DUMP(o, "logverbose", "a.c:*:*");
	client_opts_free(o);
	/* Defaults; no tag: "Match tagged *" does not match. */
	o = load("h", "ObscureKeystrokeTiming no\n"
	    "Match tagged *\n  User tu\n", &r);
	CHECK_OK(r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK(o->user == NULL || strcmp(o->user, "tu") != 0);
	CHECK(dump_value(o, "tag") == NULL);
	CHECK_DUMP(o, "channeltimeout", "none");
	CHECK_DUMP(o, "obscurekeystroketiming", "no");
	CHECK_DUMP(o, "proxyusefdpass", "no");
	CHECK_DUMP(o, "logverbose", "none");
	client_opts_free(o);
	o = load("h", "", &r);
	CHECK_OK(readconf_finish(o, "tester"));
	CHECK_DUMP(o, "obscurekeystroketiming", "yes");
	client_opts_free(o);
}

int
main(void)
{
	log_init("test_readconf", LOG_LEVEL_QUIET, 0, 1);
	if (conftest_mkdir("readconf") != 0)
		return 1;
	test_host_blocks();
	test_match();
	test_cmdline_first();
	test_algorithms();
	test_include_and_errors();
	test_tokens();
	test_debian_stock();
	test_update_host_keys();
	test_ignore_unknown();
	test_gssapi();
	test_session_keywords();
	test_more_tokens();
	test_canonical();
	test_newer_keywords();
	conftest_rmdir();
	return TEST_DONE();
}
