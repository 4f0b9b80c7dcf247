/*
 * test_servconf_persource.c: PerSourcePenalties, PerSourcePenaltyExemptList,
 * PerSourceNetBlockSize and PerSourceMaxStartups: values, defaults,
 * first-value-wins, errors and the sshd -T lines. The expected text is
 * what OpenSSH 10.5's sshd -T prints for the same lines (keywords in
 * lower case, as ours prints every keyword).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "log.h"
#include "mem.h"
#include "servconf.h"
#include "servconftest.h"
#include "testlib.h"

#define DEFAULT_PENALTIES "persourcepenalties crash:90.000000 " \
	"authfail:5.000000 noauth:1.000000 invaliduser:5.000000 " \
	"grace-exceeded:10.000000 refuseconnection:10.000000 " \
	"max:600.000000 min:15.000000 max-sources4:65536 " \
	"max-sources6:65536 overflow:permissive overflow6:permissive"

/* Parse the lines (separated by '\n'); 0 if every one was accepted. */
static int
parse(const char *text, struct servconf **scp)
{
	char *dup = x_strdup(text), *cp = dup, *line;
	struct servconf *sc = servconf_new();
	int r = 0, n = 0;

	while ((line = strsep(&cp, "\n")) != NULL)
		if (servconf_parse_line(sc, line, "test", ++n) != 0)
			r = -1;
	x_free(dup);
	if (r == 0 && servconf_finish(sc) != 0)
		r = -1;
	*scp = sc;
	return r;
}

/* text parses, and the dump's line for its keyword is want. */
static void
check_dump(const char *text, const char *kw, const char *want)
{
	struct servconf *sc;
	char *got;

	CHECK_OK(parse(text, &sc));
	got = dump_line(sc, kw);
	CHECK_STR(got, want);
	if (got == NULL || strcmp(got, want) != 0)
		fprintf(stderr, "  for: %s\n", text);
	x_free(got);
	servconf_free(sc);
}

static void
check_bad(const char *text)
{
	struct servconf *sc;
	int r = parse(text, &sc);

	CHECK(r != 0);
	if (r == 0)
		fprintf(stderr, "  accepted: %s\n", text);
	servconf_free(sc);
}

static void
test_defaults(void)
{
	struct servconf *sc;

	check_dump("", "persourcepenalties", DEFAULT_PENALTIES);
	check_dump("", "persourcepenaltyexemptlist",
	    "persourcepenaltyexemptlist none");
	check_dump("", "persourcenetblocksize", "persourcenetblocksize 32:128");
	check_dump("", "persourcemaxstartups", "persourcemaxstartups none");
	CHECK_OK(parse("", &sc));
	CHECK(sc->penalties.enabled == 1);
	CHECK(sc->per_source_max_startups == INT_MAX);
	CHECK(sc->penalty_exempt == NULL);
	servconf_free(sc);
	check_dump("PerSourcePenalties yes", "persourcepenalties",
	    DEFAULT_PENALTIES);
}

static void
test_penalties(void)
{
	struct servconf *sc;

	check_dump("PerSourcePenalties no", "persourcepenalties",
	    "persourcepenalties no");
	check_dump("PerSourcePenalties NO", "persourcepenalties",
	    "persourcepenalties no");
	check_dump("PerSourcePenalties crash:1.5 authfail:1m30s noauth:0 "
	    "max-sources4:0 overflow:deny-all", "persourcepenalties",
	    "persourcepenalties crash:1.500000 authfail:90.000000 "
	    "noauth:0.000000 invaliduser:5.000000 grace-exceeded:10.000000 "
	    "refuseconnection:10.000000 max:600.000000 min:15.000000 "
	    "max-sources4:0 max-sources6:65536 overflow:deny-all "
	    "overflow6:deny-all");
	check_dump("PerSourcePenalties overflow6:deny-all crash:.5 "
	    "grace-exceeded:1h1m1.25 invaliduser:2 refuseconnection:3s "
	    "max:1w min:2d max-sources6:7", "persourcepenalties",
	    "persourcepenalties crash:0.500000 authfail:5.000000 "
	    "noauth:1.000000 invaliduser:2.000000 grace-exceeded:3661.250000 "
	    "refuseconnection:3.000000 max:604800.000000 "
	    "min:172800.000000 max-sources4:65536 max-sources6:7 "
	    "overflow:permissive overflow6:deny-all");
	/* Each value is first-wins on its own, across lines too. */
	check_dump("PerSourcePenalties crash:1 crash:2\n"
	    "PerSourcePenalties crash:3 authfail:4", "persourcepenalties",
	    "persourcepenalties crash:1.000000 authfail:4.000000 "
	    "noauth:1.000000 invaliduser:5.000000 grace-exceeded:10.000000 "
	    "refuseconnection:10.000000 max:600.000000 min:15.000000 "
	    "max-sources4:65536 max-sources6:65536 overflow:permissive "
	    "overflow6:permissive");
	/* A value turns penalties on, after "no" too; a later "no" loses. */
	CHECK_OK(parse("PerSourcePenalties no\nPerSourcePenalties authfail:3",
	    &sc));
	CHECK(sc->penalties.enabled == 1);
	CHECK(sc->penalties.authfail == 3.0);
	servconf_free(sc);
	CHECK_OK(parse("PerSourcePenalties authfail:3\nPerSourcePenalties no",
	    &sc));
	CHECK(sc->penalties.enabled == 1);
	servconf_free(sc);
	/* "no" last on the line is allowed, as in OpenSSH. */
	CHECK_OK(parse("PerSourcePenalties crash:1 no", &sc));
	CHECK(sc->penalties.enabled == 1);
	servconf_free(sc);

	check_bad("PerSourcePenalties no crash:1");
	check_bad("PerSourcePenalties yes crash:1");
	check_bad("PerSourcePenalties crash:1.5m");
	check_bad("PerSourcePenalties crash:");
	check_bad("PerSourcePenalties crash:5.");
	check_bad("PerSourcePenalties crash:.");
	check_bad("PerSourcePenalties crash:1s1s");
	check_bad("PerSourcePenalties crash:1h1s0.5");
	check_bad("PerSourcePenalties crash:1.2.3");
	check_bad("PerSourcePenalties crash:1e3");
	check_bad("PerSourcePenalties crash:-1");
	check_bad("PerSourcePenalties crash:1x");
	check_bad("PerSourcePenalties bogus:1");
	check_bad("PerSourcePenalties Crash:1");
	check_bad("PerSourcePenalties overflow:Deny-all");
	check_bad("PerSourcePenalties overflow:none");
	check_bad("PerSourcePenalties max-sources4:-1");
	check_bad("PerSourcePenalties max-sources6:5x");
	check_bad("PerSourcePenalties max-sources6:99999999999");
	check_bad("PerSourcePenalties");
	/* Global only. */
	check_bad("Match User x\nPerSourcePenalties no");
	check_bad("Match User x\nPerSourceMaxStartups 2");
}

static void
test_others(void)
{
	struct servconf *sc;

	check_dump("PerSourceNetBlockSize 24", "persourcenetblocksize",
	    "persourcenetblocksize 24:128");
	check_dump("PerSourceNetBlockSize 24:64", "persourcenetblocksize",
	    "persourcenetblocksize 24:64");
	/* OpenSSH reads it with sscanf: text after the numbers is ignored. */
	check_dump("PerSourceNetBlockSize 24:64:1", "persourcenetblocksize",
	    "persourcenetblocksize 24:64");
	check_dump("PerSourceNetBlockSize 0:0\nPerSourceNetBlockSize 8",
	    "persourcenetblocksize", "persourcenetblocksize 0:0");
	check_bad("PerSourceNetBlockSize 33");
	check_bad("PerSourceNetBlockSize 24:129");
	check_bad("PerSourceNetBlockSize -1");
	check_bad("PerSourceNetBlockSize x");

	check_dump("PerSourceMaxStartups 7\nPerSourceMaxStartups 9",
	    "persourcemaxstartups", "persourcemaxstartups 7");
	check_dump("PerSourceMaxStartups 0", "persourcemaxstartups",
	    "persourcemaxstartups 0");
	check_dump("PerSourceMaxStartups none", "persourcemaxstartups",
	    "persourcemaxstartups none");
	check_bad("PerSourceMaxStartups -1");
	check_bad("PerSourceMaxStartups 5x");
	check_bad("PerSourceMaxStartups 1 2");

	check_dump("PerSourcePenaltyExemptList 127.0.0.*,!10.0.0.1,::1/128",
	    "persourcepenaltyexemptlist",
	    "persourcepenaltyexemptlist 127.0.0.*,!10.0.0.1,::1/128");
	check_dump("PerSourcePenaltyExemptList none\n"
	    "PerSourcePenaltyExemptList 10.0.0.0/8",
	    "persourcepenaltyexemptlist", "persourcepenaltyexemptlist none");
	CHECK_OK(parse("PerSourcePenaltyExemptList 10.0.0.0/8,192.0.2.1\n"
	    "PerSourcePenaltyExemptList 1.2.3.4", &sc));
	CHECK_STR(sc->penalty_exempt, "10.0.0.0/8,192.0.2.1");
	servconf_free(sc);
	/* A mask too long, or host bits under the mask. */
	check_bad("PerSourcePenaltyExemptList 127.0.0.0/33");
	check_bad("PerSourcePenaltyExemptList 127.0.0.1/8");
	check_bad("PerSourcePenaltyExemptList 1.2.3.4 5.6.7.8");
}

int
main(void)
{
	log_init("test_servconf_persource", LOG_LEVEL_QUIET, LOG_AUTH, 1);
	test_defaults();
	test_penalties();
	test_others();
	return TEST_DONE();
}
