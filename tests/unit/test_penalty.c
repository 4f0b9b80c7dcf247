/*
 * test_penalty.c: the PerSourcePenalties table with a clock the test
 * drives: accumulation to the min threshold, the max cap, expiry,
 * network blocks, the exempt list, both overflow modes, the exit
 * statuses a listener reads, and the hash and heap checked against a
 * plain list model over many random operations.
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "mem.h"
#include "penalty.h"
#include "servconf.h"
#include "testlib.h"

#define S(x)	((int64_t)(x) * 1000000)	/* seconds to the clock */

static struct servconf *
conf(const char *lines)
{
	char *dup = x_strdup(lines), *cp = dup, *line;
	struct servconf *sc = servconf_new();
	int n = 0;

	while ((line = strsep(&cp, "\n")) != NULL)
		CHECK_OK(servconf_parse_line(sc, line, "test", ++n));
	x_free(dup);
	CHECK_OK(servconf_finish(sc));
	return sc;
}

static struct penalties *
table(const char *lines)
{
	struct servconf *sc = conf(lines);
	struct penalties *p = penalties_new(sc);

	servconf_free(sc);
	return p;
}

/* An address as a sockaddr (v4 or v6 by its text). */
static socklen_t
sa_of(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		return sizeof(*s4);
	}
	if (inet_pton(AF_INET6, s, &s6->sin6_addr) != 1)
		abort();
	s6->sin6_family = AF_INET6;
	return sizeof(*s6);
}

static int
allowed(struct penalties *p, const char *addr, int64_t now,
    const char **why)
{
	struct sockaddr_storage ss;
	socklen_t sl = sa_of(addr, &ss);
	const char *dummy = NULL;

	return penalties_allow(p, (struct sockaddr *)&ss, sl, now,
	    why != NULL ? why : &dummy);
}

static void
add(struct penalties *p, const char *addr, int64_t now, enum penalty_kind k)
{
	struct sockaddr_storage ss;
	socklen_t sl = sa_of(addr, &ss);

	penalties_add(p, (struct sockaddr *)&ss, sl, now, k);
}

static void
test_disabled(void)
{
	struct penalties *p = table("PerSourcePenalties no");

	add(p, "192.0.2.1", S(100), PENALTY_CRASH);
	add(p, "192.0.2.1", S(100), PENALTY_CRASH);
	CHECK(allowed(p, "192.0.2.1", S(101), NULL));
	CHECK(penalties_count(p, AF_INET) == 0);
	penalties_free(p);
}

static void
test_accumulate(void)
{
	struct penalties *p = table("PerSourcePenalties authfail:5 "
	    "grace-exceeded:20 noauth:0 max:30 min:15");
	const char *why = NULL;
	int64_t t = S(1000);

	/* 5 s outstanding: recorded, not enforced. */
	add(p, "192.0.2.1", t, PENALTY_AUTHFAIL);
	CHECK(penalties_count(p, AF_INET) == 1);
	CHECK(allowed(p, "192.0.2.1", t, NULL));
	add(p, "192.0.2.1", t, PENALTY_AUTHFAIL);
	add(p, "192.0.2.1", t, PENALTY_AUTHFAIL);
	CHECK(allowed(p, "192.0.2.1", t, NULL));	/* 15: not past min */
	add(p, "192.0.2.1", t, PENALTY_AUTHFAIL);	/* 20 > 15 */
	CHECK(!allowed(p, "192.0.2.1", t + 1, &why));
	CHECK_STR(why, "penalty: failed authentication");
	CHECK(allowed(p, "192.0.2.2", t + 1, NULL));
	CHECK(allowed(p, "2001:db8::1", t + 1, NULL));
	/* Enforced until it expires, 20 s on; then gone. */
	CHECK(!allowed(p, "192.0.2.1", t + S(20), NULL));
	CHECK(allowed(p, "192.0.2.1", t + S(20) + 1, NULL));
	CHECK(penalties_count(p, AF_INET) == 0);

	/* Capped at max however many pile up; reason the latest one. */
	t = S(2000);
	add(p, "192.0.2.3", t, PENALTY_GRACE);		/* 20 > min at once */
	CHECK(!allowed(p, "192.0.2.3", t, &why));
	CHECK_STR(why, "penalty: exceeded LoginGraceTime");
	add(p, "192.0.2.3", t, PENALTY_GRACE);
	add(p, "192.0.2.3", t, PENALTY_GRACE);
	add(p, "192.0.2.3", t, PENALTY_AUTHFAIL);
	CHECK(!allowed(p, "192.0.2.3", t + S(30), &why));
	CHECK_STR(why, "penalty: failed authentication");
	CHECK(allowed(p, "192.0.2.3", t + S(30) + 1, NULL));
	/* A kind whose duration is 0 records nothing. */
	add(p, "192.0.2.4", t, PENALTY_NOAUTH);
	add(p, "192.0.2.4", t, PENALTY_NONE);
	CHECK(penalties_count(p, AF_INET) == 0);
	penalties_free(p);
}

static void
test_blocks_and_exempt(void)
{
	struct penalties *p = table("PerSourcePenalties crash:60 min:1\n"
	    "PerSourceNetBlockSize 24:64\n"
	    "PerSourcePenaltyExemptList 198.51.100.0/24,2001:db8:1::*");
	const char *why = NULL;
	int64_t t = S(50);

	add(p, "192.0.2.1", t, PENALTY_CRASH);
	CHECK(!allowed(p, "192.0.2.200", t, &why));
	CHECK_STR(why, "penalty: caused crash");
	CHECK(allowed(p, "192.0.3.1", t, NULL));
	add(p, "2001:db8:0:5::1", t, PENALTY_CRASH);
	CHECK(!allowed(p, "2001:db8:0:5:ffff::9", t, NULL));
	CHECK(allowed(p, "2001:db8:0:6::1", t, NULL));
	CHECK(penalties_count(p, AF_INET6) == 1);
	/* Exempt: never recorded, never refused. */
	add(p, "198.51.100.7", t, PENALTY_CRASH);
	add(p, "2001:db8:1::5", t, PENALTY_CRASH);
	CHECK(penalties_count(p, AF_INET) == 1);
	CHECK(penalties_count(p, AF_INET6) == 1);
	CHECK(allowed(p, "198.51.100.7", t, NULL));
	penalties_free(p);
}

static void
test_overflow(void)
{
	struct penalties *p = table("PerSourcePenalties crash:60 min:1 "
	    "max-sources4:3 max-sources6:2 overflow6:deny-all\n"
	    "PerSourcePenaltyExemptList 2001:db8::99");
	const char *why = NULL;
	int64_t t = S(10);

	/* permissive: the entry closest to expiry makes room. */
	add(p, "192.0.2.1", t, PENALTY_CRASH);		/* expires first */
	add(p, "192.0.2.2", t + S(1), PENALTY_CRASH);
	add(p, "192.0.2.3", t + S(2), PENALTY_CRASH);
	add(p, "192.0.2.4", t + S(3), PENALTY_CRASH);
	CHECK(penalties_count(p, AF_INET) == 3);
	CHECK(allowed(p, "192.0.2.1", t + S(3), NULL));
	CHECK(!allowed(p, "192.0.2.2", t + S(3), NULL));
	CHECK(!allowed(p, "192.0.2.4", t + S(3), NULL));
	CHECK(allowed(p, "192.0.2.9", t + S(3), NULL));
	/* deny-all (v6 here): a full table refuses every v6 source... */
	add(p, "2001:db8::1", t, PENALTY_CRASH);
	add(p, "2001:db8::2", t, PENALTY_CRASH);
	CHECK(!allowed(p, "2001:db8::3", t, &why));
	CHECK_STR(why, "too many penalised addresses");
	CHECK(allowed(p, "2001:db8::99", t, NULL));	/* ...but exempt ones */
	add(p, "2001:db8::3", t, PENALTY_CRASH);	/* not recorded */
	CHECK(penalties_count(p, AF_INET6) == 2);
	CHECK(!allowed(p, "192.0.2.2", t + S(3), NULL));	/* v4 apart */
	CHECK(allowed(p, "192.0.2.8", t + S(3), NULL));
	/* until entries expire. */
	CHECK(allowed(p, "2001:db8::3", t + S(61), NULL));
	CHECK(penalties_count(p, AF_INET6) == 0);
	penalties_free(p);

	/* deny-all with room for none refuses all of that family. */
	p = table("PerSourcePenalties max-sources4:0 overflow:deny-all");
	CHECK(!allowed(p, "192.0.2.1", 0, NULL));
	CHECK(allowed(p, "2001:db8::1", 0, NULL));
	penalties_free(p);
}

/* The penalty for a child that ends by _exit(code) or by signal sig. */
static enum penalty_kind
kind_of(int code, int sig)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct rlimit rl = { 0, 0 };

		setrlimit(RLIMIT_CORE, &rl);
		if (sig != 0) {
			signal(sig, SIG_DFL);
			raise(sig);
		}
		_exit(code);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return (enum penalty_kind)-1;
	return penalty_for_status(status);
}

static void
test_status(void)
{
	CHECK(kind_of(0, 0) == PENALTY_NONE);
	CHECK(kind_of(SSHD_EXIT_LOGIN_GRACE, 0) == PENALTY_GRACE);
	CHECK(kind_of(SSHD_EXIT_CHILD_CRASH, 0) == PENALTY_CRASH);
	CHECK(kind_of(SSHD_EXIT_AUTH_ATTEMPTED, 0) == PENALTY_AUTHFAIL);
	CHECK(kind_of(SSHD_EXIT_CONFIG_REFUSED, 0) ==
	    PENALTY_REFUSECONNECTION);
	CHECK(kind_of(SSHD_EXIT_INVALID_USER, 0) == PENALTY_INVALIDUSER);
	CHECK(kind_of(SSHD_EXIT_NOAUTH, 0) == PENALTY_NOAUTH);
	CHECK(kind_of(1, 0) == PENALTY_NOAUTH);
	CHECK(kind_of(0, SIGSEGV) == PENALTY_CRASH);
	CHECK(kind_of(0, SIGABRT) == PENALTY_CRASH);
	CHECK(kind_of(0, SIGTERM) == PENALTY_NONE);
	CHECK(kind_of(0, SIGKILL) == PENALTY_NONE);
	CHECK(penalty_reason(PENALTY_NONE) == NULL);
	CHECK_STR(penalty_reason(PENALTY_NOAUTH),
	    "penalty: connections without attempting authentication");
	CHECK_STR(penalty_reason(PENALTY_INVALIDUSER),
	    "penalty: attempted authentication by invalid user");
}

/* The rules again, as a plain list, to check the hash and heap. */
struct model {
	unsigned int a;
	int64_t expiry;
	int active;
};

static void
test_model(void)
{
	struct penalties *p = table("PerSourcePenalties authfail:3 crash:9 "
	    "noauth:1 max:20 min:5 max-sources4:4000");
	static struct model m[4096];
	size_t n = 0, i, j, checks = 0, mismatches = 0, most = 0, refused = 0;
	int64_t t = S(1);
	char s[40];
	unsigned int a, k;
	int step;

	srandom(7);
	for (step = 0; step < 60000; step++) {
		t += random() % 5000;
		a = (unsigned int)(random() % 1500);
		snprintf(s, sizeof(s), "10.%u.%u.1", a / 256, a % 256);
		for (i = 0, j = 0; i < n; i++)	/* expire the model */
			if (m[i].expiry >= t)
				m[j++] = m[i];
		n = j;
		for (i = 0; i < n && m[i].a != a; i++)
			;
		if (random() % 2) {
			static const enum penalty_kind ks[] = {
				PENALTY_AUTHFAIL, PENALTY_CRASH, PENALTY_NOAUTH
			};
			static const int64_t secs[] = { 3, 9, 1 };

			k = (unsigned int)(random() % 3);
			add(p, s, t, ks[k]);
			if (i == n) {
				m[n].a = a;
				m[n].expiry = t + S(secs[k]);
				m[n++].active = secs[k] > 5;
			} else {
				m[i].expiry += S(secs[k]);
				if (m[i].expiry - t > S(20))
					m[i].expiry = t + S(20);
				if (m[i].expiry - t > S(5))
					m[i].active = 1;
			}
		} else {
			checks++;
			if (allowed(p, s, t, NULL) != !(i < n && m[i].active))
				mismatches++;
			refused += i < n && m[i].active;
		}
		if (penalties_count(p, AF_INET) != n)
			mismatches++;
		if (n > most)
			most = n;
	}
	CHECK(checks > 20000);
	CHECK(most > 400);	/* the table was well filled */
	CHECK(refused > 1000);	/* and sources were refused */
	CHECK(mismatches == 0);
	if (mismatches != 0)
		fprintf(stderr, "  %zu mismatches with the model\n",
		    mismatches);
	penalties_free(p);
}

int
main(void)
{
	log_init("test_penalty", LOG_LEVEL_QUIET, LOG_AUTH, 1);
	test_disabled();
	test_accumulate();
	test_blocks_and_exempt();
	test_overflow();
	test_status();
	test_model();
	return TEST_DONE();
}
