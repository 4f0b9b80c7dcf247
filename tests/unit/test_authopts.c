/* test_authopts.c: the options field of authorized_keys lines. */
#include <stdlib.h>
#include <time.h>

#include "authopts.h"
#include "mem.h"
#include "testlib.h"

#define KEY "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG comment"

static struct authopts *
parse_ok(const char *s)
{
	struct authopts *o = NULL;
	const char *end = NULL, *err = NULL;

	CHECK_OK(authopts_parse(s, &o, &end, &err));
	if (o == NULL) {
		fprintf(stderr, "  parsing '%s': %s\n", s, err ? err : "?");
		return authopts_new();
	}
	CHECK(end != NULL && strcmp(end, KEY) == 0);
	return o;
}

static void
parse_bad(const char *s, const char *want_err)
{
	struct authopts *o = (struct authopts *)1;
	const char *err = NULL;

	CHECK_ERR(authopts_parse(s, &o, NULL, &err), ERR_INVALID_FORMAT);
	CHECK(o == NULL);
	if (want_err != NULL)
		CHECK_STR(err, want_err);
	else
		CHECK(err != NULL);
}

static void
test_defaults(void)
{
	struct authopts *o = authopts_new();

	CHECK(o->permit_port_forwarding && o->permit_agent_forwarding &&
	    o->permit_x11_forwarding && o->permit_pty && o->permit_user_rc);
	CHECK(!o->restricted && o->force_command == NULL && o->nenv == 0);
	CHECK(o->valid_before == 0 && o->force_tun_device == -1);
	authopts_free(o);
}

static void
test_flags(void)
{
	struct authopts *o;

	o = parse_ok("no-port-forwarding,no-agent-forwarding,"
	    "no-X11-forwarding,no-pty,no-user-rc " KEY);
	CHECK(!o->permit_port_forwarding && !o->permit_agent_forwarding &&
	    !o->permit_x11_forwarding && !o->permit_pty && !o->permit_user_rc);
	CHECK(!o->restricted);
	authopts_free(o);

	o = parse_ok("NO-PTY,Cert-Authority,no-touch-required,"
	    "verify-required\t " KEY);
	CHECK(!o->permit_pty && o->permit_port_forwarding);
	CHECK(o->cert_authority && o->no_touch_required && o->verify_required);
	authopts_free(o);

	/* restrict turns everything off; later options turn some back on. */
	o = parse_ok("restrict " KEY);
	CHECK(o->restricted);
	CHECK(!o->permit_port_forwarding && !o->permit_agent_forwarding &&
	    !o->permit_x11_forwarding && !o->permit_pty && !o->permit_user_rc);
	authopts_free(o);
	o = parse_ok("restrict,pty,port-forwarding,agent-forwarding,"
	    "x11-forwarding,user-rc " KEY);
	CHECK(o->restricted);
	CHECK(o->permit_port_forwarding && o->permit_agent_forwarding &&
	    o->permit_x11_forwarding && o->permit_pty && o->permit_user_rc);
	authopts_free(o);
	o = parse_ok("restrict,pty " KEY);
	CHECK(o->permit_pty && !o->permit_port_forwarding &&
	    !o->permit_user_rc);
	authopts_free(o);
	/* An earlier enable is overridden by a later restrict. */
	o = parse_ok("pty,restrict " KEY);
	CHECK(!o->permit_pty);
	authopts_free(o);
}

static void
test_values(void)
{
	struct authopts *o, *d;

	o = parse_ok("command=\"echo \\\"hi, there\\\" \\\\n\" " KEY);
	CHECK_STR(o->force_command, "echo \"hi, there\" \\\\n");
	authopts_free(o);

	o = parse_ok("environment=\"A=1\",environment=\"B_2=x y\","
	    "environment=\"A=2\" " KEY);
	CHECK(o->nenv == 2);
	if (o->nenv == 2) {
		CHECK_STR(o->env[0], "A=1");
		CHECK_STR(o->env[1], "B_2=x y");
	}
	authopts_free(o);

	o = parse_ok("from=\"*.example.com,!bad.example.com,10.0.0.0/8\" "
	    KEY);
	CHECK_STR(o->required_from_host_keys,
	    "*.example.com,!bad.example.com,10.0.0.0/8");
	authopts_free(o);

	o = parse_ok("permitopen=\"host:80\",permitopen=\"[::1]:*\","
	    "permitlisten=\"8080\",permitlisten=\"localhost:*\","
	    "permitlisten=\"[::1]:22000\" " KEY);
	CHECK(o->npermitopen == 2 && o->npermitlisten == 3);
	if (o->npermitopen == 2 && o->npermitlisten == 3) {
		CHECK_STR(o->permitopen[0], "host:80");
		CHECK_STR(o->permitopen[1], "[::1]:*");
		CHECK_STR(o->permitlisten[0], "8080");
		CHECK_STR(o->permitlisten[2], "[::1]:22000");
	}
	CHECK_OK(authopts_dup(o, &d));
	CHECK(d != o && d->npermitopen == 2 && d->permitopen != o->permitopen);
	if (d->npermitopen == 2)
		CHECK_STR(d->permitopen[1], "[::1]:*");
	authopts_free(d);
	authopts_free(o);

	o = parse_ok("cert-authority,principals=\"alice,bob\",tunnel=\"3\" "
	    KEY);
	CHECK(o->cert_authority);
	CHECK_STR(o->cert_principals, "alice,bob");
	CHECK(o->force_tun_device == 3);
	authopts_free(o);
	/* "any" as OpenSSH takes it: the server's choice of unit. */
	o = parse_ok("tunnel=\"any\" " KEY);
	CHECK(o->force_tun_device == 0x7fffffff);
	authopts_free(o);
	o = parse_ok("tunnel=\"2147483645\" " KEY);
	CHECK(o->force_tun_device == 0x7ffffffd);
	authopts_free(o);

	o = parse_ok("restrict,command=\"uptime\" " KEY);
	CHECK(o->restricted && !o->permit_pty);
	CHECK_STR(o->force_command, "uptime");
	CHECK_OK(authopts_dup(o, &d));
	CHECK_STR(d->force_command, "uptime");
	CHECK(d->force_command != o->force_command && d->restricted);
	authopts_free(d);
	authopts_free(o);
}

static void
test_expiry(void)
{
	struct authopts *o;
	uint64_t t;

	CHECK_OK(authopts_parse_time("20200102Z", &t));
	CHECK(t == 1577923200ull);
	CHECK_OK(authopts_parse_time("202001020304Z", &t));
	CHECK(t == 1577923200ull + 3 * 3600 + 4 * 60);
	CHECK_OK(authopts_parse_time("20200102030405Z", &t));
	CHECK(t == 1577923200ull + 3 * 3600 + 4 * 60 + 5);
	CHECK_OK(authopts_parse_time("20240229Z", &t));
	CHECK(t == 1709164800ull);
	CHECK_ERR(authopts_parse_time("20230229Z", &t), ERR_INVALID_FORMAT);
	CHECK_ERR(authopts_parse_time("20201301", &t), ERR_INVALID_FORMAT);
	CHECK_ERR(authopts_parse_time("2020010", &t), ERR_INVALID_FORMAT);
	CHECK_ERR(authopts_parse_time("2020010203", &t), ERR_INVALID_FORMAT);
	CHECK_ERR(authopts_parse_time("20200102250000", &t),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(authopts_parse_time("2020o102", &t), ERR_INVALID_FORMAT);
	CHECK_ERR(authopts_parse_time("", &t), ERR_INVALID_FORMAT);

	/* Local time: UTC in this process. */
	setenv("TZ", "UTC", 1);
	tzset();
	CHECK_OK(authopts_parse_time("20200102", &t));
	CHECK(t == 1577923200ull);
	setenv("TZ", "UTC-2", 1);	/* POSIX: two hours east */
	tzset();
	CHECK_OK(authopts_parse_time("20200102", &t));
	CHECK(t == 1577923200ull - 2 * 3600);
	setenv("TZ", "UTC", 1);
	tzset();

	/* The earliest of several wins. */
	o = parse_ok("expiry-time=\"20300101Z\",expiry-time=\"20200102Z\","
	    "expiry-time=\"20250101Z\" " KEY);
	CHECK(o->valid_before == 1577923200ull);
	authopts_free(o);
	parse_bad("expiry-time=\"2020\" " KEY, "invalid expires time");
}

static void
test_bad(void)
{
	parse_bad("bogus " KEY, "unknown key option");
	parse_bad("no-pty,bogus " KEY, "unknown key option");
	parse_bad("ssh-ed25519 AAAA", "unknown key option");
	parse_bad("no-pty,,no-port-forwarding " KEY, "empty option");
	parse_bad("no-pty, " KEY, "empty option");
	parse_bad("command=echo " KEY, "missing start quote");
	parse_bad("command=\"echo " KEY, "missing end quote");
	parse_bad("command=\"a\\\" " KEY, "missing end quote");
	parse_bad("command " KEY, "option needs a value");
	parse_bad("command=\"a\",command=\"b\" " KEY,
	    "multiple \"command\" clauses");
	parse_bad("from=\"a\",from=\"b\" " KEY, "multiple \"from\" clauses");
	parse_bad("principals=\"a\",principals=\"b\" " KEY, NULL);
	parse_bad("command=\"a\"x " KEY, "unexpected character after option");
	parse_bad("no-pty=\"x\" " KEY, "unexpected character after option");
	parse_bad("no-pty", "missing key after options");
	parse_bad("no-pty  ", "missing key after options");
	parse_bad("environment=\"NOEQUALS\" " KEY, NULL);
	parse_bad("environment=\"=x\" " KEY, NULL);
	parse_bad("environment=\"BAD-NAME=x\" " KEY, NULL);
	parse_bad("permitopen=\"host\" " KEY, NULL);
	parse_bad("permitopen=\"host:0\" " KEY, NULL);
	parse_bad("permitopen=\"host:65536\" " KEY, NULL);
	parse_bad("permitopen=\":22\" " KEY, NULL);
	parse_bad("permitopen=\"::1:22\" " KEY, NULL);
	parse_bad("permitopen=\"[::1]22\" " KEY, NULL);
	parse_bad("permitlisten=\"x\" " KEY, NULL);
	parse_bad("permitlisten=\"host:\" " KEY, NULL);
	parse_bad("tunnel=\"x\" " KEY, "invalid tun device");
	parse_bad("tunnel=\"-1\" " KEY, "invalid tun device");
	/* Above the largest unit (0x7ffffffd) as OpenSSH: the line fails. */
	parse_bad("tunnel=\"2147483646\" " KEY, "invalid tun device");
	parse_bad("tunnel=\"2147483647\" " KEY, "invalid tun device");
	parse_bad("from=\"\" " KEY, NULL);
}

int
main(void)
{
	test_defaults();
	test_flags();
	test_values();
	test_expiry();
	test_bad();
	return TEST_DONE();
}
