/*
 * test_match.c: patterns, pattern lists, addresses and CIDR, user@host,
 * algorithm negotiation and the +,-,^ list modifiers.
 *
 * The expected algorithm lists were taken from OpenSSH 9.2's sshd -T
 * (HostKeyAlgorithms and Ciphers with the same specs), using its default
 * and supported lists, so the modifiers behave as OpenSSH's do.
 */
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "mem.h"
#include "testlib.h"

/* OpenSSH 9.2: ssh -Q key-sig, and sshd's default HostKeyAlgorithms. */
#define HK_ALL "ssh-ed25519,ssh-ed25519-cert-v01@openssh.com," \
	"sk-ssh-ed25519@openssh.com,sk-ssh-ed25519-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp256,ecdsa-sha2-nistp256-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp384,ecdsa-sha2-nistp384-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp521,ecdsa-sha2-nistp521-cert-v01@openssh.com," \
	"sk-ecdsa-sha2-nistp256@openssh.com," \
	"sk-ecdsa-sha2-nistp256-cert-v01@openssh.com," \
	"webauthn-sk-ecdsa-sha2-nistp256@openssh.com," \
	"ssh-dss,ssh-dss-cert-v01@openssh.com," \
	"ssh-rsa,ssh-rsa-cert-v01@openssh.com," \
	"rsa-sha2-256,rsa-sha2-256-cert-v01@openssh.com," \
	"rsa-sha2-512,rsa-sha2-512-cert-v01@openssh.com"
#define HK_CERTS "ssh-ed25519-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp256-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp384-cert-v01@openssh.com," \
	"ecdsa-sha2-nistp521-cert-v01@openssh.com," \
	"sk-ssh-ed25519-cert-v01@openssh.com," \
	"sk-ecdsa-sha2-nistp256-cert-v01@openssh.com," \
	"rsa-sha2-512-cert-v01@openssh.com,rsa-sha2-256-cert-v01@openssh.com"
#define HK_PLAIN_TAIL "ecdsa-sha2-nistp256,ecdsa-sha2-nistp384," \
	"ecdsa-sha2-nistp521,sk-ssh-ed25519@openssh.com," \
	"sk-ecdsa-sha2-nistp256@openssh.com"
#define HK_DEF HK_CERTS ",ssh-ed25519," HK_PLAIN_TAIL \
	",rsa-sha2-512,rsa-sha2-256"

#define C_ALL "3des-cbc,aes128-cbc,aes192-cbc,aes256-cbc,aes128-ctr," \
	"aes192-ctr,aes256-ctr,aes128-gcm@openssh.com," \
	"aes256-gcm@openssh.com,chacha20-poly1305@openssh.com"
#define C_DEF "chacha20-poly1305@openssh.com,aes128-ctr,aes192-ctr," \
	"aes256-ctr,aes128-gcm@openssh.com,aes256-gcm@openssh.com"

static void
check_assemble(const char *def, const char *all, const char *spec,
    const char *want)
{
	char *out = NULL;
	int r = match_assemble_list(def, all, spec, &out);

	if (want == NULL) {
		CHECK_ERR(r, ERR_INVALID_ARGUMENT);
		CHECK(out == NULL);
		if (r == 0)
			fprintf(stderr, "  spec %s gave %s\n", spec, out);
	} else {
		CHECK_OK(r);
		CHECK_STR(out, want);
		if (r != 0)
			fprintf(stderr, "  spec %s failed\n", spec);
	}
	x_free(out);
}

static void
test_patterns(void)
{
	CHECK(match_pattern("abc", "abc"));
	CHECK(!match_pattern("abc", "abd"));
	CHECK(!match_pattern("abc", "ab"));
	CHECK(!match_pattern("ab", "abc"));
	CHECK(match_pattern("", ""));
	CHECK(match_pattern("", "*"));
	CHECK(match_pattern("abc", "*"));
	CHECK(match_pattern("abc", "a*"));
	CHECK(match_pattern("abc", "*c"));
	CHECK(match_pattern("abc", "a*c"));
	CHECK(match_pattern("ac", "a*c"));
	CHECK(!match_pattern("ab", "a*c"));
	CHECK(match_pattern("abc", "a?c"));
	CHECK(!match_pattern("ac", "a?c"));
	CHECK(match_pattern("aXbXc", "a*b*c"));
	CHECK(match_pattern("abcbcd", "a*bcd"));
	CHECK(match_pattern("mississippi", "*sip*"));
	CHECK(!match_pattern("mississippi", "*sipx*"));
	CHECK(match_pattern("a**b", "a**b"));
	CHECK(!match_pattern("ABC", "abc"));

	CHECK(match_pattern_list("host.example.com", "*.example.com", 0) == 1);
	CHECK(match_pattern_list("host.example.com", "a,b,*.com", 0) == 1);
	CHECK(match_pattern_list("host.example.com", "a,b", 0) == 0);
	/* A negated match wins, wherever it is in the list. */
	CHECK(match_pattern_list("bad.example.com",
	    "*.example.com,!bad.*", 0) == -1);
	CHECK(match_pattern_list("bad.example.com",
	    "!bad.*,*.example.com", 0) == -1);
	CHECK(match_pattern_list("good.example.com",
	    "!bad.*,*.example.com", 0) == 1);
	CHECK(match_pattern_list("x", "!y", 0) == 0);
	CHECK(match_pattern_list("Host.Example.COM", "*.example.com", 0) == 0);
	CHECK(match_pattern_list("Host.Example.COM", "*.example.com", 1) == 1);
	CHECK(match_pattern_list("host", "", 0) == 0);
	CHECK(match_pattern_list("host", ",,host,", 0) == 1);
}

static void
test_addresses(void)
{
	CHECK(match_addr_list("10.1.2.3", "10.0.0.0/8") == 1);
	CHECK(match_addr_list("11.1.2.3", "10.0.0.0/8") == 0);
	CHECK(match_addr_list("10.1.2.3", "10.0.0.0/8,!10.1.0.0/16") == -1);
	CHECK(match_addr_list("10.2.2.3", "10.0.0.0/8,!10.1.0.0/16") == 1);
	CHECK(match_addr_list("192.0.2.7", "192.0.2.7") == 1);
	CHECK(match_addr_list("192.0.2.7", "192.0.2.7/32") == 1);
	CHECK(match_addr_list("192.0.2.8", "192.0.2.7/32") == 0);
	CHECK(match_addr_list("192.0.2.8", "0.0.0.0/0") == 1);
	CHECK(match_addr_list("192.0.2.130", "192.0.2.128/25") == 1);
	CHECK(match_addr_list("192.0.2.127", "192.0.2.128/25") == 0);
	CHECK(match_addr_list("192.0.2.8", "192.0.2.*") == 1);
	CHECK(match_addr_list("192.0.3.8", "192.0.2.*") == 0);
	/* Host bits set, bad lengths, garbage: the list is malformed. */
	CHECK(match_addr_list("10.1.2.3", "10.0.0.1/8") == -2);
	CHECK(match_addr_list("10.1.2.3", "10.0.0.0/33") == -2);
	CHECK(match_addr_list("10.1.2.3", "10.0.0.0/") == -2);
	CHECK(match_addr_list("10.1.2.3", "10.0.0.0/x") == -2);
	CHECK(match_addr_list("10.1.2.3", "nothost/8") == -2);
	/* IPv6, and families never cross. */
	CHECK(match_addr_list("fe80::1", "fe80::/10") == 1);
	CHECK(match_addr_list("febf::1", "fe80::/10") == 1);
	CHECK(match_addr_list("fec0::1", "fe80::/10") == 0);
	CHECK(match_addr_list("2001:db8::5", "2001:db8::/32,!2001:db8::5")
	    == -1);
	CHECK(match_addr_list("2001:db8::5", "2001:db8::5/128") == 1);
	CHECK(match_addr_list("::1", "::1") == 1);
	CHECK(match_addr_list("::1", "0.0.0.0/0") == 0);
	CHECK(match_addr_list("10.0.0.1", "::/0") == 0);
	CHECK(match_addr_list("fe80::1", "fe80::1/129") == -2);
	CHECK(match_addr_list("not-an-address", "10.0.0.0/8") == 0);

	/* Host names and addresses in one list. */
	CHECK(match_host_and_ip("a.example.com", "10.1.1.1",
	    "*.example.com") == 1);
	CHECK(match_host_and_ip("a.example.org", "10.1.1.1",
	    "*.example.com,10.0.0.0/8") == 1);
	CHECK(match_host_and_ip("a.example.org", "11.1.1.1",
	    "*.example.com,10.0.0.0/8") == 0);
	CHECK(match_host_and_ip("A.EXAMPLE.COM", "11.1.1.1",
	    "*.example.com") == 1);
	CHECK(match_host_and_ip("a.example.com", "10.1.1.1",
	    "*.example.com,!10.1.0.0/16") == -1);
	CHECK(match_host_and_ip("bad.example.com", "10.1.1.1",
	    "10.0.0.0/8,!bad.example.com") == -1);
	CHECK(match_host_and_ip("a.example.com", "10.1.1.1",
	    "10.0.0.1/8") == -1);

	CHECK(match_user("bob", NULL, NULL, "bob") == 1);
	CHECK(match_user("bob", NULL, NULL, "b*") == 1);
	CHECK(match_user("alice", NULL, NULL, "b*") == 0);
	CHECK(match_user("bob", "h.example.com", "10.1.2.3",
	    "bob@10.0.0.0/8") == 1);
	CHECK(match_user("bob", "h.example.com", "11.1.2.3",
	    "bob@10.0.0.0/8") == 0);
	CHECK(match_user("bob", "h.example.com", "11.1.2.3",
	    "bob@*.example.com") == 1);
	CHECK(match_user("ann", "h.example.com", "11.1.2.3",
	    "bob@*.example.com") == 0);
	CHECK(match_user("bob", "h.example.com", "10.1.2.3",
	    "*@10.1.2.3") == 1);
	CHECK(match_user("bob", "fe80-host", "fe80::7",
	    "b?b@fe80::/16") == 1);
}

static void
test_negotiation(void)
{
	char *s;

	s = match_first_common("aes256-ctr,aes128-ctr", "aes128-ctr,aes256-ctr");
	CHECK_STR(s, "aes256-ctr");	/* client's preference wins */
	x_free(s);
	s = match_first_common("x,y,aes128-ctr", "aes128-ctr");
	CHECK_STR(s, "aes128-ctr");
	x_free(s);
	/* Prefix or pattern is not a match: names compare whole. */
	CHECK((s = match_first_common("aes128", "aes128-ctr")) == NULL);
	x_free(s);
	CHECK((s = match_first_common("aes*", "aes128-ctr")) == NULL);
	x_free(s);
	CHECK((s = match_first_common("", "aes128-ctr")) == NULL);
	x_free(s);

	CHECK(match_list_contains("a,bb,c", "bb"));
	CHECK(match_list_contains("a,bb,c", "a"));
	CHECK(match_list_contains("a,bb,c", "c"));
	CHECK(!match_list_contains("a,bb,c", "b"));
	CHECK(!match_list_contains("a,bb,c", "bb,c"));
	CHECK(!match_list_contains("", "a"));
}

static void
test_assemble(void)
{
	/* Plain lists replace the defaults, in the given order. */
	check_assemble(C_DEF, C_ALL, "aes256-ctr,aes128-ctr",
	    "aes256-ctr,aes128-ctr");
	check_assemble(C_DEF, C_ALL, "aes128-ctr,aes128-ctr", "aes128-ctr");
	check_assemble(C_DEF, C_ALL, "aes256-ctr,foo", NULL);
	check_assemble(C_DEF, C_ALL, "AES128-CTR", NULL);
	check_assemble(C_DEF, C_ALL, NULL, C_DEF);
	check_assemble(C_DEF, C_ALL, "", C_DEF);
	/* Patterns expand in the supported list's order. */
	check_assemble(HK_DEF, HK_ALL, "ssh-ed25519*",
	    "ssh-ed25519,ssh-ed25519-cert-v01@openssh.com");
	check_assemble(HK_DEF, HK_ALL, "rsa*,ssh-ed25519",
	    "rsa-sha2-256,rsa-sha2-256-cert-v01@openssh.com,rsa-sha2-512,"
	    "rsa-sha2-512-cert-v01@openssh.com,ssh-ed25519");
	check_assemble(HK_DEF, HK_ALL, "ssh-ed25519,rsa*",
	    "ssh-ed25519,rsa-sha2-256,rsa-sha2-256-cert-v01@openssh.com,"
	    "rsa-sha2-512,rsa-sha2-512-cert-v01@openssh.com");
	check_assemble(HK_DEF, HK_ALL, "ssh-rsa,ssh-rsa*",
	    "ssh-rsa,ssh-rsa-cert-v01@openssh.com");
	check_assemble(HK_DEF, HK_ALL, "*", HK_ALL);
	check_assemble(HK_DEF, HK_ALL, "ssh-dss", "ssh-dss");
	check_assemble(HK_DEF, HK_ALL, "ssh-ed25519,,rsa-sha2-256",
	    "ssh-ed25519,rsa-sha2-256");
	check_assemble(HK_DEF, HK_ALL, "foo*", NULL);
	check_assemble(HK_DEF, HK_ALL, "ssh-ed25519,foo*", NULL);
	check_assemble(HK_DEF, HK_ALL, "ssh-ed25519,!ssh-ed25519", NULL);
	check_assemble(HK_DEF, HK_ALL, "ecdsa*,!*cert*", NULL);

	/* +: append what is not there yet. */
	check_assemble(C_DEF, C_ALL, "+aes128-cbc", C_DEF ",aes128-cbc");
	check_assemble(C_DEF, C_ALL, "+aes128-cbc,aes128-cbc",
	    C_DEF ",aes128-cbc");
	check_assemble(C_DEF, C_ALL, "+aes128-ctr", C_DEF);
	check_assemble(C_DEF, C_ALL, "+foo", NULL);
	check_assemble(C_DEF, C_ALL, "+", C_DEF);
	check_assemble(HK_DEF, HK_ALL, "+ssh-rsa*",
	    HK_DEF ",ssh-rsa,ssh-rsa-cert-v01@openssh.com");
	check_assemble(HK_DEF, HK_ALL, "+ssh-rsa,ssh-ed25519",
	    HK_DEF ",ssh-rsa");

	/* ^: put first, dropping them from later positions. */
	check_assemble(C_DEF, C_ALL, "^aes256-ctr,aes128-cbc",
	    "aes256-ctr,aes128-cbc,chacha20-poly1305@openssh.com,aes128-ctr,"
	    "aes192-ctr,aes128-gcm@openssh.com,aes256-gcm@openssh.com");
	check_assemble(C_DEF, C_ALL, "^chacha20-poly1305@openssh.com,"
	    "aes128-cbc", "chacha20-poly1305@openssh.com,aes128-cbc,"
	    "aes128-ctr,aes192-ctr,aes256-ctr,aes128-gcm@openssh.com,"
	    "aes256-gcm@openssh.com");
	check_assemble(C_DEF, C_ALL, "^foo", NULL);
	check_assemble(HK_DEF, HK_ALL, "^ssh-rsa*",
	    "ssh-rsa,ssh-rsa-cert-v01@openssh.com," HK_DEF);
	check_assemble(HK_DEF, HK_ALL, "^ssh-ed25519*",
	    "ssh-ed25519," HK_CERTS "," HK_PLAIN_TAIL
	    ",rsa-sha2-512,rsa-sha2-256");
	check_assemble(HK_DEF, HK_ALL, "^ssh-ed25519,rsa-sha2-256",
	    "ssh-ed25519,rsa-sha2-256," HK_CERTS "," HK_PLAIN_TAIL
	    ",rsa-sha2-512");

	/* -: remove whatever matches; unknown names are harmless. */
	check_assemble(C_DEF, C_ALL, "-aes*", "chacha20-poly1305@openssh.com");
	check_assemble(C_DEF, C_ALL, "-aes128-ctr,aes*-gcm@openssh.com",
	    "chacha20-poly1305@openssh.com,aes192-ctr,aes256-ctr");
	check_assemble(C_DEF, C_ALL, "-foo", C_DEF);
	check_assemble(HK_DEF, HK_ALL, "-*cert*,sk-*",
	    "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,"
	    "ecdsa-sha2-nistp521,rsa-sha2-512,rsa-sha2-256");
	check_assemble(HK_DEF, HK_ALL, "-ssh-ed25519,ssh-ed25519",
	    HK_CERTS "," HK_PLAIN_TAIL ",rsa-sha2-512,rsa-sha2-256");
	/*
	 * Removing everything leaves nothing to offer: an error (as ssh
	 * reports it; OpenSSH's sshd silently keeps its defaults instead).
	 */
	check_assemble(C_DEF, C_ALL, "-*", NULL);
}

int
main(void)
{
	test_patterns();
	test_addresses();
	test_negotiation();
	test_assemble();
	return TEST_DONE();
}
