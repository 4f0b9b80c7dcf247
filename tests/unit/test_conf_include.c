/*
 * test_conf_include.c: Include as both configuration files read it:
 * patterns relative to the base directory, absolute and '~' ones, glob
 * order, a pattern that matches nothing, the nesting limit, a reader
 * that fails (ssh stops there, sshd goes on and fails at the end), a
 * replacement for glob(3), and every message in each program's wording.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_include.h"
#include "conftest.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"

struct rd {
	struct conf_include inc;
	int depth;
	char seen[512];		/* base names read, ' '-separated */
	int fail_on_b;		/* reading b.conf fails */
	int nest;		/* a.conf includes itself: too deep */
};

static int
read_file(void *ctx, const char *path)
{
	struct rd *r = ctx;
	const char *base = strrchr(path, '/') + 1;
	char *argv[3] = { (char *)"Include", (char *)"a.conf", NULL };
	const struct conf_at at = { argv, 2, "a.conf", path, 1 };

	if (strlen(r->seen) + strlen(base) + 2 < sizeof(r->seen)) {
		strcat(r->seen, base);
		strcat(r->seen, " ");
	}
	if (r->fail_on_b && strcmp(base, "b.conf") == 0)
		return ERR_CONFIG;
	if (r->nest && strcmp(base, "a.conf") == 0)
		return conf_include(&r->inc, &at);
	return 0;
}

static int
tilde(void *ctx, const char *name, char **outp)
{
	if (strncmp(name, "~/", 2) != 0)
		return ERR_CONFIG;
	*outp = x_asprintf("%s/%s", conftest_dir, name + 2);
	return 0;
}

/* A record in place of glob(3): "rec*" names c.conf then a.conf. */
static int
recorded(void *ctx, const char *pat, glob_t *g, char ***pathsp, size_t *np)
{
	static char *paths[2];
	static char a[128], c[128];

	snprintf(a, sizeof(a), "%s/a.conf", conftest_dir);
	snprintf(c, sizeof(c), "%s/c.conf", conftest_dir);
	paths[0] = c;
	paths[1] = a;
	if (strstr(pat, "rec") == NULL) {
		*np = 0;
		return GLOB_NOMATCH;
	}
	*pathsp = paths;
	*np = 2;
	return 0;
}

static void
setup(struct rd *r, int dialect)
{
	memset(r, 0, sizeof(*r));
	r->inc.dialect = dialect;
	r->inc.base = conftest_dir;
	r->inc.depth = &r->depth;
	r->inc.read = read_file;
	r->inc.ctx = r;
}

/* Include with the words of line; *msgp the last error logged. */
static int
include(struct rd *r, const char *line, char **msgp)
{
	struct conftest_log c = { 0, "" };
	char *copy = x_strdup(line), *argv[8];
	struct conf_at at = { argv, 0, line, "cfg", 7 };
	int ret;

	at.argc = conftest_words(copy, argv, 8);
	log_set_sink(conftest_catch, &c);
	ret = conf_include(&r->inc, &at);
	log_set_sink(NULL, NULL);
	*msgp = x_strdup(c.text);
	x_free(copy);
	return ret;
}

static void
test_both(int d)
{
	struct rd r;
	char *msg, *abs;

	setup(&r, d);
	CHECK_OK(include(&r, "Include *.conf", &msg));
	CHECK_STR(r.seen, "a.conf b.conf c.conf ");
	CHECK(r.depth == 0);
	x_free(msg);
	setup(&r, d);
	CHECK_OK(include(&r, "Include none*.conf c.conf", &msg));
	CHECK_STR(r.seen, "c.conf ");
	CHECK_STR(msg, "");
	x_free(msg);
	setup(&r, d);
	abs = x_asprintf("Include %s/b.conf", conftest_dir);
	CHECK_OK(include(&r, abs, &msg));
	CHECK_STR(r.seen, "b.conf ");
	x_free(abs);
	x_free(msg);
	setup(&r, d);
	CHECK_ERR(include(&r, "Include", &msg), ERR_CONFIG);
	CHECK_STR(msg, d == CONF_SSH ? "cfg line 7: Include: Missing argument" :
	    "cfg line 7: Include missing argument.");
	x_free(msg);
	/* a.conf includes itself until the limit. */
	setup(&r, d);
	r.nest = 1;
	CHECK_ERR(include(&r, "Include a.conf", &msg), ERR_CONFIG);
	abs = x_asprintf("%s/a.conf line 1: Include nested too deep%s",
	    conftest_dir, d == CONF_SSHD ? "ly" : "");
	CHECK_STR(msg, abs);
	x_free(abs);
	CHECK(r.depth == 0);
	CHECK(strlen(r.seen) == CONF_MAX_DEPTH * strlen("a.conf "));
	x_free(msg);
	/* The replacement for glob(3), in its order. */
	setup(&r, d);
	r.inc.glob = recorded;
	CHECK_OK(include(&r, "Include rec*", &msg));
	CHECK_STR(r.seen, "c.conf a.conf ");
	x_free(msg);
}

static void
test_failures(void)
{
	struct rd r;
	char *msg;

	/* ssh: the first failing file ends the Include. */
	setup(&r, CONF_SSH);
	r.fail_on_b = 1;
	CHECK_ERR(include(&r, "Include *.conf c.conf", &msg), ERR_CONFIG);
	CHECK_STR(r.seen, "a.conf b.conf ");
	x_free(msg);
	/* sshd: every file is read, the Include fails at the end. */
	setup(&r, CONF_SSHD);
	r.fail_on_b = 1;
	CHECK_ERR(include(&r, "Include *.conf c.conf", &msg), ERR_CONFIG);
	CHECK_STR(r.seen, "a.conf b.conf c.conf c.conf ");
	x_free(msg);
	/* '~': the caller's rule for ssh, GLOB_TILDE for sshd. */
	setup(&r, CONF_SSH);
	r.inc.tilde = tilde;
	CHECK_OK(include(&r, "Include ~/b.conf", &msg));
	CHECK_STR(r.seen, "b.conf ");
	x_free(msg);
	CHECK_ERR(include(&r, "Include ~nobody-xyz/b.conf a.conf", &msg),
	    ERR_CONFIG);
	CHECK_STR(r.seen, "b.conf ");
	x_free(msg);
}

int
main(void)
{
	char *p;

	log_init("test_conf_include", LOG_LEVEL_INFO, 0, 1);
	if (conftest_mkdir("confinc") != 0)
		return 1;
	x_free(conftest_write("a.conf", "", 0600));
	x_free(conftest_write("b.conf", "", 0600));
	x_free(conftest_write("c.conf", "", 0600));
	p = conftest_write("d.txt", "", 0600);	/* not a *.conf */
	x_free(p);
	test_both(CONF_SSHD);
	test_both(CONF_SSH);
	test_failures();
	conftest_rmdir();
	return TEST_DONE();
}
