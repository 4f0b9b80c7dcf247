/*
 * test_conf_match.c: the Match walk both configuration files share:
 * "all" alone (sshd) or last (ssh), "!" (ssh only), criteria without an
 * argument, a missing argument, an unknown name, a bad argument, what
 * each test function is told (the argument, whether the line held so
 * far), and every refusal in its program's wording.
 */
#include <stdio.h>
#include <string.h>

#include "conf_match.h"
#include "conftest.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"

enum { C_NAME, C_FLAG, C_COUNT, C_BAD };

static const struct conf_crit crits[] = {
	{ "name", C_NAME, 1 }, { "flag", C_FLAG, 0 }, { "count", C_COUNT, 1 },
	{ "bad", C_BAD, 1 }, { NULL, 0, 0 } };

struct ctx {
	int flag;		/* what "flag" answers */
	int counted;		/* "count" calls made while the line held */
	int calls;
};

static int
test_fn(void *arg, const struct conf_crit *c, const char *v, int so_far,
    const struct conf_at *at)
{
	struct ctx *x = arg;

	x->calls++;
	switch (c->id) {
	case C_NAME:
		return strcmp(v, "yes") == 0;
	case C_FLAG:
		CHECK(v == NULL);
		return x->flag;
	case C_COUNT:
		if (so_far)
			x->counted++;
		return 1;
	default:
		return CONF_MATCH_BAD_ARG;
	}
}

/* The words of line (blank-separated) walked in dialect d; *msgp: the
 * last refusal logged, "" for none. */
static int
walk(int d, const char *line, struct ctx *x, char **msgp)
{
	const struct conf_match m = { d, crits, test_fn, x };
	struct conftest_log c = { 0, "" };
	char *copy = x_strdup(line), *argv[16];
	struct conf_at at = { argv, 0, line, "cfg", 3 };
	int r;

	at.argc = conftest_words(copy, argv, 16);
	log_set_sink(conftest_catch, &c);
	r = conf_match(&m, &at);
	log_set_sink(NULL, NULL);
	*msgp = x_strdup(c.text);
	x_free(copy);
	return r;
}

static void
check(int d, const char *line, int want, const char *want_msg)
{
	struct ctx x = { 1, 0, 0 };
	char *msg;
	int r = walk(d, line, &x, &msg);

	if (r != want)
		fprintf(stderr, "  %s \"%s\": %d, want %d\n",
		    d == CONF_SSH ? "ssh" : "sshd", line, r, want);
	CHECK(r == want);
	CHECK_STR(msg, want_msg);
	x_free(msg);
}

static void
test_sshd(void)
{
	check(CONF_SSHD, "all", 1, "");
	check(CONF_SSHD, "ALL", 1, "");
	check(CONF_SSHD, "name yes", 1, "");
	check(CONF_SSHD, "name no", 0, "");
	check(CONF_SSHD, "name yes name no", 0, "");
	check(CONF_SSHD, "NAME yes count 1", 1, "");
	/* "all" with anything else: refused without a word, as before. */
	check(CONF_SSHD, "all name yes", ERR_CONFIG, "");
	check(CONF_SSHD, "", ERR_CONFIG, "cfg line 3: Bad Match condition");
	check(CONF_SSHD, "name", ERR_CONFIG, "cfg line 3: Bad Match condition");
	check(CONF_SSHD, "name yes count", ERR_CONFIG,
	    "cfg line 3: Bad Match condition");
	check(CONF_SSHD, "bad x", ERR_CONFIG,
	    "cfg line 3: Bad Match condition");
	check(CONF_SSHD, "nosuch x", ERR_CONFIG,
	    "cfg line 3: Unsupported Match attribute nosuch");
	/* No negation in sshd_config. */
	check(CONF_SSHD, "!name no", ERR_CONFIG,
	    "cfg line 3: Unsupported Match attribute !name");
	check(CONF_SSHD, "name yes all x", ERR_CONFIG,
	    "cfg line 3: Unsupported Match attribute all");
}

static void
test_ssh(void)
{
	struct ctx x = { 0, 0, 0 };
	char *msg;

	check(CONF_SSH, "all", 1, "");
	check(CONF_SSH, "name yes all", 1, "");
	check(CONF_SSH, "name no all", 0, "");
	check(CONF_SSH, "!all", 0, "");
	check(CONF_SSH, "all name yes", ERR_CONFIG,
	    "cfg line 3: 'all' cannot be combined with other Match "
	    "attributes");
	check(CONF_SSH, "!all flag", ERR_CONFIG,
	    "cfg line 3: '!all' cannot be combined with other Match "
	    "attributes");
	check(CONF_SSH, "flag", 1, "");
	check(CONF_SSH, "!flag", 0, "");
	check(CONF_SSH, "!name no flag", 1, "");
	check(CONF_SSH, "name yes !name yes", 0, "");
	check(CONF_SSH, "", ERR_CONFIG, "cfg line 3: Missing Match criteria");
	check(CONF_SSH, "flag name", ERR_CONFIG,
	    "cfg line 3: Missing Match criteria for name");
	check(CONF_SSH, "!name", ERR_CONFIG,
	    "cfg line 3: Missing Match criteria for name");
	/* An unknown name takes an argument: missing, then unknown. */
	check(CONF_SSH, "nosuch", ERR_CONFIG,
	    "cfg line 3: Missing Match criteria for nosuch");
	check(CONF_SSH, "!nosuch x", ERR_CONFIG,
	    "cfg line 3: Unsupported Match attribute nosuch");
	/* Every criterion is tried; each is told whether the line held. */
	CHECK(walk(CONF_SSH, "count a name no count b flag", &x, &msg) == 0);
	CHECK(x.calls == 4);
	CHECK(x.counted == 1);
	CHECK_STR(msg, "");
	x_free(msg);
}

int
main(void)
{
	log_init("test_conf_match", LOG_LEVEL_INFO, 0, 1);
	test_sshd();
	test_ssh();
	return TEST_DONE();
}
