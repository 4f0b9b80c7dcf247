/*
 * test_servconf.c: sshd_config parsing, Include, Match overlays, errors
 * and the sshd -T dump.
 *
 * Each case writes a config into a fresh temporary directory, loads it
 * and looks at the resulting struct (or the dump text). Expected values
 * follow OpenSSH 9.2's sshd -T on the same input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "installdirs.h"
#include "log.h"
#include "mem.h"
#include "servconf.h"
#include "cipher.h"
#include "kexalg.h"
#include "mac.h"
#include "match.h"
#include "conftest.h"
#include "testlib.h"

/* Load text as a config; returns the load result, *scp finished. */
static int
load_text(const char *text, struct servconf **scp)
{
	char *path = conftest_write("sshd_config", text, 0);
	struct servconf *sc = servconf_new();
	int r = servconf_load(sc, path);

	if (r == 0)
		r = servconf_finish(sc);
	x_free(path);
	*scp = sc;
	return r;
}

static char *
dump_text(const struct servconf *sc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	servconf_dump(sc, f);
	fclose(f);
	return buf;
}

static int
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' ||
		    p[n] == '\0'))
			return 1;
		p++;
	}
	return 0;
}

static void
test_defaults(void)
{
	struct servconf *sc;
	char *d;

	CHECK_OK(load_text("", &sc));
	CHECK(sc->nports == 1 && sc->ports[0] == 22);
	CHECK(sc->login_grace_time == 120);
	CHECK(sc->max_auth_tries == 6);
	CHECK(sc->max_sessions == 10);
	CHECK(sc->max_startups_begin == 10 && sc->max_startups_rate == 30 &&
	    sc->max_startups_max == 100);
	CHECK(sc->permit_root_login == PERMIT_ROOT_NO_PASSWORD);
	CHECK(sc->password_authentication == 1);
	CHECK(sc->pubkey_authentication == 1);
	CHECK(sc->strict_modes == 1 && sc->print_motd == 1);
	CHECK(sc->client_alive_count_max == 3 && sc->tcp_keep_alive == 1);
	CHECK(sc->permit_tty == 1);
	CHECK(sc->log_level == LOG_LEVEL_INFO && sc->log_facility == LOG_AUTH);
	CHECK(sc->nhostkeys == 3);
	CHECK_STR(sc->hostkeys[2], MOAT_SSHDIR "/ssh_host_ed25519_key");
	CHECK_STR(sc->pid_file, "/run/sshd.pid");
	CHECK(sc->nauthorized_keys_files == 2);
	CHECK_STR(sc->authorized_keys_files[1], ".ssh/authorized_keys2");
	d = dump_text(sc);
	/* Lines as OpenSSH 9.2's sshd -T prints them for an empty file. */
	CHECK(has_line(d, "port 22"));
	CHECK(has_line(d, "addressfamily any"));
	CHECK(has_line(d, "listenaddress [::]:22"));
	CHECK(has_line(d, "listenaddress 0.0.0.0:22"));
	CHECK(has_line(d, "usepam no"));
	CHECK(has_line(d, "logingracetime 120"));
	CHECK(has_line(d, "permitrootlogin without-password"));
	CHECK(has_line(d, "kbdinteractiveauthentication yes"));
	CHECK(has_line(d, "compression yes"));
	CHECK(has_line(d, "allowtcpforwarding yes"));
	CHECK(has_line(d, "pidfile /run/sshd.pid"));
	CHECK(has_line(d, "modulifile " MOAT_SSHDIR "/moduli"));
	CHECK(has_line(d, "banner none"));
	CHECK(has_line(d, "loglevel INFO"));
	CHECK(has_line(d, "syslogfacility AUTH"));
	CHECK(has_line(d, "authorizedkeysfile .ssh/authorized_keys "
	    ".ssh/authorized_keys2"));
	CHECK(has_line(d, "authenticationmethods any"));
	CHECK(has_line(d, "maxstartups 10:30:100"));
	CHECK(has_line(d, "permittunnel no"));
	CHECK(has_line(d, "rekeylimit 0 0"));
	CHECK(has_line(d, "permituserenvironment no"));
	free(d);
	servconf_free(sc);
}

static void
test_values(void)
{
	struct servconf *sc;
	char *d;

	CHECK_OK(load_text(
	    "# a comment\n"
	    "\n"
	    "  port 2222\n"
	    "Port=2200\n"
	    "ListenAddress 127.0.0.1:2201\n"
	    "ListenAddress 127.0.0.2\n"
	    "ListenAddress [::1]:2202\n"
	    "PASSWORDAUTHENTICATION no\n"
	    "PasswordAuthentication yes\n"
	    "MaxAuthTries = 3\n"
	    "MaxAuthTries 9\n"
	    "LoginGraceTime 1m30s\n"
	    "ClientAliveInterval 2h\n"
	    "RekeyLimit 1G 1h\n"
	    "MaxStartups 5\n"
	    "PermitRootLogin no\n"
	    "AuthorizedKeysFile a b\n"
	    "AuthorizedKeysFile c\n"
	    "AllowUsers bob@10.0.0.0/8 al*@*.example.com\n"
	    "AllowUsers carol\n"
	    "AcceptEnv LANG LC_*\n"
	    "AcceptEnv FOO\n"
	    "SetEnv A=1 \"B=2 3\"\n"
	    "SetEnv C=4\n"
	    "HostKey /k1\n"
	    "HostKey /k2\n"
	    "Subsystem sftp /usr/lib/openssh/sftp-server -l INFO\n"
	    "Subsystem x /bin/x\n"
	    "Banner /etc/issue\n"
	    "Banner /etc/motd\n"
	    "ForceCommand /bin/echo \"hi there\"\n"
	    "ChrootDirectory none\n"
	    "LogLevel DEBUG\n"
	    "SyslogFacility LOCAL3\n"
	    "GatewayPorts clientspecified\n"
	    "AllowTcpForwarding local\n"
	    "AuthenticationMethods publickey,publickey "
	    "publickey,keyboard-interactive:pam\n"
	    "KbdInteractiveAuthentication yes\n"
	    "ChallengeResponseAuthentication no\n"
	    "PubkeyAcceptedKeyTypes ssh-ed25519\n"
	    "GSSAPIAuthentication no\n"
	    "X11DisplayOffset 10 # comment\n", &sc));
	CHECK(sc->nports == 2 && sc->ports[0] == 2222 && sc->ports[1] == 2200);
	CHECK(sc->nlisten == 3);
	CHECK_STR(sc->listen[0].addr, "127.0.0.1");
	CHECK(sc->listen[0].port == 2201);
	CHECK(sc->listen[1].port == 0);
	CHECK_STR(sc->listen[2].addr, "::1");
	CHECK(sc->password_authentication == 0);	/* first wins */
	CHECK(sc->max_auth_tries == 3);
	CHECK(sc->login_grace_time == 90);
	CHECK(sc->client_alive_interval == 7200);
	CHECK(sc->rekey_bytes == 1073741824ULL && sc->rekey_seconds == 3600);
	CHECK(sc->max_startups_begin == 5 && sc->max_startups_rate == 30 &&
	    sc->max_startups_max == 5);
	CHECK(sc->permit_root_login == PERMIT_ROOT_NO);
	CHECK(sc->nauthorized_keys_files == 2);
	CHECK(sc->nallow_users == 3);
	CHECK_STR(sc->allow_users[2], "carol");
	CHECK(sc->naccept_env == 3);
	CHECK(sc->nset_env == 3);
	CHECK_STR(sc->set_env[1], "B=2 3");
	CHECK(sc->nhostkeys == 2);
	CHECK(sc->nsubsystems == 2);
	CHECK_STR(sc->subsystems[0].command,
	    "/usr/lib/openssh/sftp-server -l INFO");
	CHECK_STR(sc->banner, "/etc/issue");
	CHECK_STR(sc->force_command, "/bin/echo \"hi there\"");
	CHECK(sc->chroot_directory == NULL);
	CHECK(sc->log_level == LOG_LEVEL_DEBUG1);
	CHECK(sc->log_facility == LOG_LOCAL3);
	CHECK(sc->gateway_ports == 2);
	CHECK(sc->allow_tcp_forwarding == 2);
	CHECK(sc->kbd_interactive_authentication == 1);
	d = dump_text(sc);
	CHECK(has_line(d, "port 2222"));
	CHECK(has_line(d, "port 2200"));
	CHECK(has_line(d, "listenaddress 127.0.0.1:2201"));
	CHECK(has_line(d, "listenaddress 127.0.0.2:2222"));
	CHECK(has_line(d, "listenaddress 127.0.0.2:2200"));
	CHECK(has_line(d, "listenaddress [::1]:2202"));
	CHECK(has_line(d, "logingracetime 90"));
	CHECK(has_line(d, "rekeylimit 1073741824 3600"));
	CHECK(has_line(d, "maxstartups 5:30:5"));
	CHECK(has_line(d, "authorizedkeysfile a b"));
	CHECK(has_line(d, "allowusers bob@10.0.0.0/8"));
	CHECK(has_line(d, "allowusers al*@*.example.com"));
	CHECK(has_line(d, "acceptenv LC_*"));
	CHECK(has_line(d, "setenv B=2 3"));
	CHECK(has_line(d, "subsystem sftp /usr/lib/openssh/sftp-server "
	    "-l INFO"));
	CHECK(has_line(d, "banner /etc/issue"));
	CHECK(has_line(d, "loglevel DEBUG"));	/* as OpenSSH prints DEBUG1 */
	CHECK(has_line(d, "syslogfacility LOCAL3"));
	CHECK(has_line(d, "gatewayports clientspecified"));
	CHECK(has_line(d, "allowtcpforwarding local"));
	CHECK(has_line(d, "authenticationmethods publickey,publickey "
	    "publickey,keyboard-interactive:pam"));
	free(d);
	servconf_free(sc);
}

static void
test_errors(void)
{
	struct servconf *sc;
	static const char *bad[] = {
		"Foo bar\n",
		"Port x\n",
		"Port 70000\n",
		"Port 22 x\n",
		"MaxAuthTries -3\n",
		"MaxAuthTries\n",
		"PasswordAuthentication maybe\n",
		"LoginGraceTime 1x\n",
		"PermitRootLogin sometimes\n",
		"LogLevel LOUD\n",
		"MaxStartups 10:300:100\n",
		"RekeyLimit 1Q\n",
		"SetEnv NOEQUALS\n",
		"Subsystem sftp\n",
		"Subsystem a /x\nSubsystem a /y\n",
		"AuthenticationMethods publickey,magic\n",
		"ListenAddress [::1\n",
		"Ciphers aes*\n",
		"MACs +hmac-*\n",
		"Banner \"unterminated\n",
		"Match Foo a\n",
		"Match User\n",
		"Match All User a\n",
		"Match Address 10.0.0.1/8\n",
		"Match User a\n  Port 23\n",
		"Match User a\n  Ciphers aes128-ctr\n",
		"Match User a\n  MaxAuthTries many\n",
		"Include /nonexistent/dir/*\nWhatever x\n",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = load_text(bad[i], &sc);

		if (r != ERR_CONFIG)
			fprintf(stderr, "  config accepted: %s", bad[i]);
		CHECK_ERR(r, ERR_CONFIG);
		servconf_free(sc);
	}
	/* Every bad line is counted, and good lines still apply. */
	sc = servconf_new();
	CHECK_ERR(servconf_parse_line(sc, "Bogus 1", "cmd", 1), ERR_CONFIG);
	CHECK_OK(servconf_parse_line(sc, "MaxSessions 4", "cmd", 2));
	CHECK_ERR(servconf_parse_line(sc, "MaxSessions x", "cmd", 3),
	    ERR_CONFIG);
	CHECK(sc->max_sessions == 4);
	servconf_free(sc);
	/* A missing file is a system error, not a config error. */
	sc = servconf_new();
	CHECK_ERR(servconf_load(sc, "/nonexistent/sshd_config"), ERR_SYSTEM);
	servconf_free(sc);
}

static void
test_include(void)
{
	struct servconf *sc;
	char *p, *sub, *text;

	sub = x_asprintf("%s/conf.d", conftest_dir);
	CHECK(mkdir(sub, 0700) == 0);
	p = conftest_write("conf.d/20-b.conf", "MaxSessions 20\nPort 2020\n",
	    0);
	x_free(p);
	p = conftest_write("conf.d/10-a.conf", "MaxSessions 10\nPort 1010\n"
	    "Match User inc\n  MaxAuthTries 1\n", 0);
	x_free(p);
	p = conftest_write("conf.d/skip.txt", "MaxSessions 99\n", 0);
	x_free(p);
	text = x_asprintf("Include %s/*.conf\nMaxSessions 5\n"
	    "PasswordAuthentication no\n", sub);
	CHECK_OK(load_text(text, &sc));
	/* Files in glob order, expanded in place; first value wins. */
	CHECK(sc->max_sessions == 10);
	CHECK(sc->nports == 2 && sc->ports[0] == 1010 &&
	    sc->ports[1] == 2020);
	/* The Match inside the included file ended with that file. */
	CHECK(sc->password_authentication == 0);
	{
		struct match_conn c = { "inc", "h", "10.0.0.1", "127.0.0.1",
		    22, NULL };
		struct servconf *m;

		CHECK_OK(servconf_apply_match(sc, &c, &m));
		CHECK(m != NULL && m->max_auth_tries == 1);
		CHECK(m != NULL && m->password_authentication == 0);
		servconf_free(m);
	}
	servconf_free(sc);
	x_free(text);
	unlink(p = x_asprintf("%s/20-b.conf", sub)); x_free(p);
	unlink(p = x_asprintf("%s/10-a.conf", sub)); x_free(p);
	unlink(p = x_asprintf("%s/skip.txt", sub)); x_free(p);
	rmdir(sub);
	x_free(sub);
}

static void
test_match_blocks(void)
{
	struct servconf *sc, *m;
	struct match_conn c = { "bob", "x.example.com", "10.1.2.3",
	    "127.0.0.1", 2222, NULL };

	CHECK_OK(load_text(
	    "PasswordAuthentication yes\n"
	    "MaxAuthTries 4\n"
	    "AllowUsers root\n"
	    "Match User b*,!bad Host *.example.com\n"
	    "  PasswordAuthentication no\n"
	    "  Banner /b1\n"
	    "Match Address 10.0.0.0/8,!10.9.0.0/16\n"
	    "  PasswordAuthentication yes\n"
	    "  MaxAuthTries 2\n"
	    "  Banner /b2\n"
	    "  AllowUsers x y\n"
	    "Match LocalPort 2222 LocalAddress 127.0.0.1\n"
	    "  MaxSessions 3\n"
	    "Match User bob Address fe80::/10\n"
	    "  MaxSessions 7\n"
	    "Match all\n"
	    "  X11Forwarding yes\n"
	    "  MaxSessions 8\n", &sc));
	/* The global values are untouched by Match blocks. */
	CHECK(sc->password_authentication == 1);
	CHECK(sc->banner == NULL);
	CHECK(sc->x11_forwarding == 0);

	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->password_authentication == 0);	/* first block wins */
	CHECK_STR(m->banner, "/b1");
	CHECK(m->max_auth_tries == 2);		/* Match beats global */
	CHECK(m->nallow_users == 2);		/* list replaced */
	CHECK_STR(m->allow_users[0], "x");
	CHECK(m->max_sessions == 3);
	CHECK(m->x11_forwarding == 1);
	CHECK(m->nhostkeys == sc->nhostkeys);	/* deep copy of the rest */
	CHECK(m->hostkeys[0] != sc->hostkeys[0]);
	servconf_free(m);

	c.user = "bad";
	c.address = "10.9.1.1";
	c.lport = 22;
	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->password_authentication == 1);
	CHECK(m->max_auth_tries == 4);
	CHECK(m->banner == NULL);
	CHECK(m->max_sessions == 8);
	servconf_free(m);

	c.user = "bob";
	c.host = "x.example.org";
	c.address = "fe80::1";
	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->password_authentication == 1);
	CHECK(m->max_sessions == 7);
	servconf_free(m);

	/* Missing connection facts never match. */
	memset(&c, 0, sizeof(c));
	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->max_sessions == 8 && m->max_auth_tries == 4);
	servconf_free(m);
	servconf_free(sc);
}

static void
test_stock_debian(void)
{
	struct servconf *sc;

	if (access("/etc/ssh/sshd_config", R_OK) != 0) {
		printf("no /etc/ssh/sshd_config: skipped\n");
		return;
	}
	sc = servconf_new();
	CHECK_OK(servconf_load(sc, "/etc/ssh/sshd_config"));
	CHECK_OK(servconf_finish(sc));
	servconf_free(sc);
}

/* Algorithm keywords resolve +, -, ^ against the real tables. */
static void
test_algorithms(void)
{
	struct servconf *sc;

	CHECK_OK(load_text("Ciphers aes128-ctr,aes256-gcm@openssh.com\n"
	    "MACs +hmac-sha1\n"
	    "KexAlgorithms -sntrup761*\n"
	    "HostKeyAlgorithms ^ssh-rsa\n", &sc));
	CHECK_STR(sc->ciphers, "aes128-ctr,aes256-gcm@openssh.com");
	/* hmac-sha1 is already a default: + adds nothing. */
	CHECK_STR(sc->macs, mac_default_names());
	CHECK_STR(sc->kex_algorithms, "mlkem768x25519-sha256,curve25519-sha256,"
	    "curve25519-sha256@libssh.org,ecdh-sha2-nistp256,"
	    "ecdh-sha2-nistp384,ecdh-sha2-nistp521");
	CHECK(strncmp(sc->hostkey_algorithms, "ssh-rsa,", 8) == 0);
	servconf_free(sc);

	CHECK_OK(load_text("Port 22\n", &sc));
	CHECK_STR(sc->ciphers, cipher_default_names());
	CHECK_STR(sc->kex_algorithms, kexalg_server_default_names());
	/* ssh-rsa (SHA-1) is not a default, as in OpenSSH 8.8 and later. */
	CHECK(!match_list_contains(sc->hostkey_algorithms, "ssh-rsa"));
	CHECK(match_list_contains(sc->hostkey_algorithms, "rsa-sha2-512"));
	servconf_free(sc);

	CHECK_ERR(load_text("Ciphers aes128-ctr,des-cbc\n", &sc), ERR_CONFIG);
	servconf_free(sc);
	CHECK_ERR(load_text("Ciphers aes*\n", &sc), ERR_CONFIG);
	servconf_free(sc);
	CHECK_ERR(load_text("MACs -*\n", &sc), ERR_CONFIG);
	servconf_free(sc);
}

/* Load text with the log in a file; whether the log holds want. */
static int
load_logs(const char *text, int want_r, const char *want)
{
	char *lp = x_asprintf("%s/log", conftest_dir), buf[4096];
	struct servconf *sc;
	FILE *f;
	size_t n = 0;
	int r, hit;

	log_set_level(LOG_LEVEL_INFO);
	log_to_file(lp);
	r = load_text(text, &sc);
	servconf_free(sc);
	log_set_level(LOG_LEVEL_QUIET);
	if ((f = fopen(lp, "r")) != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	unlink(lp);
	x_free(lp);
	hit = want == NULL || strstr(buf, want) != NULL;
	if (!hit || r != want_r)
		fprintf(stderr, "r=%d, log: %s\n", r, buf);
	return r == want_r && hit;
}

/*
 * Keywords OpenSSH dropped long ago still load, with its log line, as
 * OpenSSH 9.2 and 10.5 do (old Debian files have "Protocol 2" and
 * "UsePrivilegeSeparation yes"); some are allowed in Match.
 */
static void
test_deprecated(void)
{
	static const char *const kw[] = {
		"AFSTokenPassing", "AuthorizedKeysFile2", "CheckMail",
		"KerberosTgtPassing", "KeyRegenerationInterval",
		"ReverseMappingCheck", "RhostsAuthentication",
		"RhostsRSAAuthentication", "RSAAuthentication", "ServerKeyBits",
		"UseLogin", "UsePrivilegeSeparation", "VerifyReverseMapping",
	};
	char text[200], want[200];
	size_t i;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		snprintf(text, sizeof(text), "%s yes\n", kw[i]);
		snprintf(want, sizeof(want), "line 1: Deprecated option %s",
		    kw[i]);
		CHECK(load_logs(text, 0, want));
	}
	CHECK(load_logs("Protocol 2\n", 0, NULL));
	CHECK(load_logs("Match User x\nRSAAuthentication no\n", 0, NULL));
	CHECK(load_logs("Match User x\nUsePrivilegeSeparation no\n",
	    ERR_CONFIG, NULL));
}

/* A method in AuthenticationMethods must be enabled, in Match too. */
static void
test_auth_methods_enabled(void)
{
	CHECK(load_logs("PasswordAuthentication no\n"
	    "AuthenticationMethods publickey,password publickey\n",
	    ERR_CONFIG, "sshd_config line 2: Disabled method \"password\" "
	    "in AuthenticationMethods"));
	CHECK(load_logs("KbdInteractiveAuthentication no\n"
	    "AuthenticationMethods publickey,keyboard-interactive:pam\n",
	    ERR_CONFIG, "line 2: Disabled method \"keyboard-interactive\""));
	CHECK(load_logs("AuthenticationMethods hostbased\n", ERR_CONFIG,
	    "line 1: Disabled method \"hostbased\""));
	CHECK(load_logs("AuthenticationMethods publickey,password\n"
	    "Match User al\n"
	    "  PasswordAuthentication no\n"
	    "Match User bo\n"
	    "  AuthenticationMethods publickey,password\n"
	    "  PasswordAuthentication no\n", ERR_CONFIG,
	    "sshd_config line 5: Disabled method \"password\""));
	CHECK(load_logs("PasswordAuthentication no\n"
	    "Match User bo\n"
	    "  PasswordAuthentication yes\n"
	    "  AuthenticationMethods publickey,password\n", 0, NULL));
	CHECK(load_logs("AuthenticationMethods publickey,password "
	    "publickey,keyboard-interactive:pam\n", 0, NULL));
}

/*
 * StreamLocalBindMask / StreamLocalBindUnlink: defaults, octal parsing
 * and its limits, sshd -T spelling and Match, as OpenSSH 9.2 does them.
 */
static void
test_streamlocal(void)
{
	struct match_conn c = { "bob", "h", "10.0.0.1", "127.0.0.1", 22, NULL };
	struct servconf *sc, *m;
	char *d;

	CHECK_OK(load_text("", &sc));
	CHECK(sc->streamlocal_bind_mask == 0177);
	CHECK(sc->streamlocal_bind_unlink == 0);
	CHECK(sc->allow_streamlocal_forwarding == 3);
	d = dump_text(sc);
	CHECK(has_line(d, "streamlocalbindmask 0177"));
	CHECK(has_line(d, "streamlocalbindunlink no"));
	CHECK(has_line(d, "allowstreamlocalforwarding yes"));
	/* OpenSSH's order: DisableForwarding first. */
	CHECK(strstr(d, "disableforwarding no\nallowstreamlocalforwarding "
	    "yes\nstreamlocalbindunlink no\n") != NULL);
	free(d);
	servconf_free(sc);

	CHECK_OK(load_text("StreamLocalBindMask 022\n"
	    "StreamLocalBindUnlink yes\n"
	    "AllowStreamLocalForwarding local\n"
	    "Match User bob\n"
	    "  StreamLocalBindMask 0\n"
	    "  StreamLocalBindUnlink no\n"
	    "  AllowStreamLocalForwarding remote\n", &sc));
	CHECK(sc->streamlocal_bind_mask == 022);
	CHECK(sc->streamlocal_bind_unlink == 1);
	CHECK(sc->allow_streamlocal_forwarding == 2);
	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->streamlocal_bind_mask == 0);
	CHECK(m->streamlocal_bind_unlink == 0);
	CHECK(m->allow_streamlocal_forwarding == 1);
	d = dump_text(m);
	CHECK(has_line(d, "streamlocalbindmask 00"));
	CHECK(has_line(d, "streamlocalbindunlink no"));
	CHECK(has_line(d, "allowstreamlocalforwarding remote"));
	free(d);
	servconf_free(m);
	servconf_free(sc);

	/* What OpenSSH takes: octal up to 0777, trailing text ignored. */
	CHECK_OK(load_text("StreamLocalBindMask 0777\n", &sc));
	CHECK(sc->streamlocal_bind_mask == 0777);
	servconf_free(sc);
	CHECK_OK(load_text("StreamLocalBindMask 0x1\n", &sc));
	CHECK(sc->streamlocal_bind_mask == 0);
	servconf_free(sc);
	CHECK_OK(load_text("StreamLocalBindMask 77\n", &sc));
	CHECK(sc->streamlocal_bind_mask == 077);
	servconf_free(sc);
	CHECK(load_logs("StreamLocalBindMask 1777\n", ERR_CONFIG,
	    "line 1: Invalid StreamLocalBindMask."));
	CHECK(load_logs("StreamLocalBindMask 8\n", ERR_CONFIG,
	    "Invalid StreamLocalBindMask."));
	CHECK(load_logs("StreamLocalBindMask -1\n", ERR_CONFIG,
	    "Invalid StreamLocalBindMask."));
	CHECK(load_logs("StreamLocalBindMask abc\n", ERR_CONFIG,
	    "Invalid StreamLocalBindMask."));
	CHECK(load_logs("StreamLocalBindMask 022 x\n", ERR_CONFIG,
	    "extra arguments at end of line"));
	CHECK(load_logs("StreamLocalBindUnlink maybe\n", ERR_CONFIG,
	    "line 1: unsupported option \"maybe\"."));
	/* First value wins, and a later bad one is still an error. */
	CHECK_OK(load_text("StreamLocalBindMask 0\n"
	    "StreamLocalBindMask 077\n", &sc));
	CHECK(sc->streamlocal_bind_mask == 0);
	servconf_free(sc);
	CHECK(load_logs("StreamLocalBindMask 0\nStreamLocalBindMask 9\n",
	    ERR_CONFIG, "line 2: Invalid StreamLocalBindMask."));
}

/*
 * PermitUserEnvironment: "yes", "no" (exactly: "Yes" is a pattern, as in
 * OpenSSH 9.2) or a pattern list of the names allowed; sshd -T prints
 * the list itself; one argument only; not in a Match block.
 */
static void
test_user_environment(void)
{
	struct servconf *sc, *m;
	struct match_conn c = { "bob", "h", "10.0.0.1", "127.0.0.1", 22, NULL };
	char *d;

	CHECK_OK(load_text("PermitUserEnvironment yes\n", &sc));
	CHECK(sc->permit_user_environment == 1);
	CHECK(sc->permit_user_env_allowlist == NULL);
	d = dump_text(sc);
	CHECK(has_line(d, "permituserenvironment yes"));
	free(d);
	servconf_free(sc);

	CHECK_OK(load_text("PermitUserEnvironment no\n"
	    "PermitUserEnvironment yes\n", &sc));
	CHECK(sc->permit_user_environment == 0);
	CHECK(sc->permit_user_env_allowlist == NULL);
	servconf_free(sc);

	CHECK_OK(load_text("PermitUserEnvironment LANG,LC_*\n"
	    "PermitUserEnvironment yes\n"
	    "Match User bob\n  PermitTTY no\n", &sc));
	CHECK(sc->permit_user_environment == 1);
	CHECK_STR(sc->permit_user_env_allowlist, "LANG,LC_*");
	d = dump_text(sc);
	CHECK(has_line(d, "permituserenvironment LANG,LC_*"));
	free(d);
	/* A connection's copy keeps the list. */
	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->permit_user_environment == 1);
	CHECK_STR(m->permit_user_env_allowlist, "LANG,LC_*");
	servconf_free(m);
	servconf_free(sc);

	CHECK_OK(load_text("PermitUserEnvironment Yes\n", &sc));
	CHECK(sc->permit_user_environment == 1);
	CHECK_STR(sc->permit_user_env_allowlist, "Yes");
	servconf_free(sc);
	CHECK_OK(load_text("PermitUserEnvironment \"A,B\"\n", &sc));
	CHECK_STR(sc->permit_user_env_allowlist, "A,B");
	servconf_free(sc);

	CHECK(load_logs("PermitUserEnvironment FOO BAR\n", ERR_CONFIG,
	    "line 1: keyword PermitUserEnvironment extra arguments at end "
	    "of line"));
	CHECK(load_logs("PermitUserEnvironment\n", ERR_CONFIG,
	    "line 1: PermitUserEnvironment missing argument."));
	CHECK(load_logs("Match User bob\n  PermitUserEnvironment yes\n",
	    ERR_CONFIG, "line 2: Directive 'PermitUserEnvironment' is not "
	    "allowed within a Match block"));
	/* sshd -o: the command line wins over the file. */
	sc = servconf_new();
	CHECK_OK(servconf_parse_line(sc, "PermitUserEnvironment=FOO",
	    "command-line", 0));
	CHECK_OK(servconf_parse_line(sc, "PermitUserEnvironment no", "f", 1));
	CHECK_OK(servconf_finish(sc));
	CHECK_STR(sc->permit_user_env_allowlist, "FOO");
	servconf_free(sc);
}

/*
 * Match RDomain holds only for a connection that names its routing
 * domain; servconf_match_tests() finds the attribute in any block.
 */
static void
test_match_rdomain(void)
{
	struct match_conn c = { "bob", "h", "10.0.0.1", "127.0.0.1", 22,
	    NULL };
	struct servconf *sc, *m;

	CHECK_OK(load_text("Match RDomain blue,!red*\n"
	    "  MaxSessions 4\n"
	    "Match Address 10.0.0.0/8 LocalPort 22\n"
	    "  MaxAuthTries 3\n", &sc));
	CHECK(servconf_match_tests(sc, "rdomain") == 1);
	CHECK(servconf_match_tests(sc, "LOCALPORT") == 1);
	CHECK(servconf_match_tests(sc, "user") == 0);
	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->max_sessions == 10 && m->max_auth_tries == 3);
	servconf_free(m);
	c.rdomain = "blue";
	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->max_sessions == 4);
	servconf_free(m);
	c.rdomain = "red1";
	c.lport = 0;
	CHECK_OK(servconf_apply_match(sc, &c, &m));
	CHECK(m->max_sessions == 10 && m->max_auth_tries == 6);
	servconf_free(m);
	servconf_free(sc);
}

int
main(void)
{
	log_init("test_servconf", LOG_LEVEL_QUIET, LOG_AUTH, 1);
	if (conftest_mkdir("servconf") != 0)
		return 1;
	test_defaults();
	test_values();
	test_errors();
	test_include();
	test_match_blocks();
	test_stock_debian();
	test_algorithms();
	test_auth_methods_enabled();
	test_deprecated();
	test_streamlocal();
	test_user_environment();
	test_match_rdomain();
	conftest_rmdir();
	return TEST_DONE();
}
