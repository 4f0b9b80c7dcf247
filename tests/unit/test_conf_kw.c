/*
 * test_conf_kw.c: the keyword row type shared by sshd_config and
 * ssh_config: lookup in any case, the int-valued types with their checks
 * and refusals, integer rows' ranges, the refusal messages in sshd's and
 * ssh's wording, and the generic -T/-G printer for every dump kind,
 * including the order a listing gives and its function steps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_kw.h"
#include "conftest.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"

struct opts {
	int flag, num, mode, level, fac, pick;
	char *str, *path;
	char *list[4];
	size_t nlist;
};

static const struct conf_enum pick_tab[] = {
	{ "one", 1 }, { "uno", 1 }, { "two", 2 }, { NULL, 0 } };

static const struct conf_range range = { 1, 1000 };

#define F(m) offsetof(struct opts, m)
static const struct conf_kw rows[] = {
	{ "flag", CK_FLAG, CKF_MATCH, F(flag), 0, NULL, 1, CKD_YN },
	{ "tflag", CK_FLAG, 0, F(flag), 0, conf_truefalse, 0, CKD_NO },
	{ "num", CK_INT, 0, F(num), 0, NULL, 3, CKD_INT },
	{ "time", CK_TIME, 0, F(num), 0, NULL, 0, CKD_NO },
	{ "mode", CK_MODE, 0, F(mode), 0, NULL, 0, CKD_OCTAL },
	{ "level", CK_LOGLEVEL, 0, F(level), 0, NULL, 0, CKD_LOGLEVEL },
	{ "fac", CK_FACILITY, 0, F(fac), 0, NULL, 0, CKD_FACILITY },
	{ "pick", CK_ENUM, 0, F(pick), 0, pick_tab, 0, CKD_ENUM },
	{ "str", CK_STR, CKF_NONE, F(str), 0, NULL, 0, CKD_STR },
	{ "path", CK_STR, 0, F(path), 0, NULL, 0, CKD_STROPT },
	{ "list", CK_LIST, CKF_ACCUM, F(list), F(nlist), NULL, 0, CKD_LINES },
	{ "line", CK_LIST, CKF_ACCUM, F(list), F(nlist), NULL, 0, CKD_LINE },
	{ "old", CK_DEPRECATED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "gone", CK_UNSUPPORTED, 0, 0, 0, NULL, 0, CKD_NO },
	{ "quiet", CK_IGNORE, 0, 0, 0, NULL, 0, CKD_NO },
	{ "odd", CK_CUSTOM + 3, 0, 0, 0, NULL, 0, CKD_NO },
	{ "range", CK_INT, 0, F(num), 0, &range, 0, CKD_INT },
	{ "port", CK_PORT, 0, F(num), 0, &conf_range_port, 0, CKD_INT },
};
static const struct conf_kw_table table = { rows,
    sizeof(rows) / sizeof(rows[0]) };

static void
test_find(void)
{
	CHECK(conf_kw_find(&table, "FLAG") == &rows[0]);
	CHECK(conf_kw_find(&table, "Line") == &rows[11]);
	CHECK(conf_kw_find(&table, "nosuch") == NULL);
	CHECK(conf_kw_find(&table, "") == NULL);
	CHECK(conf_kw_is_noted(conf_kw_find(&table, "old")));
	CHECK(conf_kw_is_noted(conf_kw_find(&table, "gone")));
	CHECK(conf_kw_is_noted(conf_kw_find(&table, "quiet")));
	CHECK(!conf_kw_is_noted(conf_kw_find(&table, "odd")));
	CHECK(!conf_kw_is_noted(conf_kw_find(&table, "flag")));
}

static int
val(const char *name, const char *word, int *vp, const char **whyp)
{
	return conf_kw_int(conf_kw_find(&table, name), word, vp, whyp);
}

static void
test_int(void)
{
	const char *why;
	int v = -7;

	CHECK_OK(val("flag", "YES", &v, &why));
	CHECK(v == 1);
	CHECK_ERR(val("flag", "true", &v, &why), ERR_CONFIG);
	CHECK_OK(val("tflag", "true", &v, &why));
	CHECK(v == 1);
	CHECK_OK(val("tflag", "no", &v, &why));
	CHECK(v == 0);
	CHECK_OK(val("num", "42", &v, &why));
	CHECK(v == 42);
	CHECK_ERR(val("num", "-1", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "too small");
	CHECK_ERR(val("num", "99999999999", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "too large");
	CHECK_ERR(val("num", "4x", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "invalid");
	CHECK_OK(val("time", "1h30m", &v, &why));
	CHECK(v == 5400);
	CHECK_ERR(val("time", "1q", &v, &why), ERR_CONFIG);
	CHECK_OK(val("mode", "022", &v, &why));
	CHECK(v == 022);
	CHECK_ERR(val("mode", "1777", &v, &why), ERR_CONFIG);
	CHECK_OK(val("level", "debug2", &v, &why));
	CHECK(v == log_level_from_name("DEBUG2"));
	CHECK_ERR(val("level", "loud", &v, &why), ERR_CONFIG);
	CHECK_OK(val("fac", "LOCAL3", &v, &why));
	CHECK_ERR(val("fac", "local9", &v, &why), ERR_CONFIG);
	CHECK_OK(val("pick", "Uno", &v, &why));
	CHECK(v == 1);
	CHECK_ERR(val("pick", "three", &v, &why), ERR_CONFIG);
	CHECK_ERR(val("str", "x", &v, &why), ERR_INTERNAL);
	CHECK_ERR(val("odd", "x", &v, &why), ERR_INTERNAL);
}

static void
test_range(void)
{
	const char *why;
	int v = -7;

	CHECK_OK(val("range", "1", &v, &why));
	CHECK(v == 1);
	CHECK_OK(val("range", "1000", &v, &why));
	CHECK(v == 1000);
	CHECK_ERR(val("range", "0", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "too small");
	CHECK_ERR(val("range", "1001", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "too large");
	CHECK(v == 1000);	/* left alone when refused */
	CHECK_OK(val("port", "65535", &v, &why));
	CHECK(v == 65535);
	CHECK_ERR(val("port", "65536", &v, &why), ERR_CONFIG);
	CHECK_ERR(val("port", "0", &v, &why), ERR_CONFIG);
	CHECK_ERR(val("port", "22x", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "invalid");
	/* No range: 0..INT_MAX. */
	CHECK_OK(val("num", "0", &v, &why));
	CHECK(v == 0);
}

/*
 * What conf_kw_value() logs refusing word for row name, written in the
 * file as kwd, in dialect d ("" when it takes the word).
 */
static char *
refusal(const char *name, const char *kwd, const char *word, int d)
{
	struct conftest_log c = { 0, "" };
	char *argv[3] = { (char *)kwd, (char *)word, NULL };
	const struct conf_at at = { argv, 2, word, "cfg", 4 };
	int v;

	log_set_sink(conftest_catch, &c);
	if (conf_kw_value(conf_kw_find(&table, name), &at, d, word, &v) == 0)
		CHECK(c.n == 0);
	else
		CHECK(c.n == 1);
	log_set_sink(NULL, NULL);
	return x_strdup(c.text);
}

static void
check_refusal(const char *name, const char *kwd, const char *word, int d,
    const char *want)
{
	char *got = refusal(name, kwd, word, d);

	CHECK_STR(got, want);
	x_free(got);
}

/* Each program's wording, as OpenSSH's sshd -t and ssh -G give it. */
static void
test_messages(void)
{
	struct conftest_log c = { 0, "" };
	char *argv[3] = { (char *)"Range", (char *)"1", NULL };
	const struct conf_at at = { argv, 3, "1 2", "cfg", 5 };

	check_refusal("num", "Num", "7", CONF_SSHD, "");
	check_refusal("num", "Num", "-1", CONF_SSHD,
	    "cfg line 4: Num integer value too small.");
	check_refusal("num", "Num", "-1", CONF_SSH,
	    "cfg line 4: integer value too small.");
	check_refusal("range", "RANGE", "2000", CONF_SSHD,
	    "cfg line 4: RANGE integer value too large.");
	check_refusal("port", "Port", "0", CONF_SSHD,
	    "cfg line 4: Badly formatted port number.");
	check_refusal("port", "Port", "x", CONF_SSH,
	    "cfg line 4: Bad port 'x'.");
	check_refusal("flag", "Flag", "maybe", CONF_SSHD,
	    "cfg line 4: unsupported option \"maybe\".");
	check_refusal("flag", "Flag", "maybe", CONF_SSH,
	    "cfg line 4: unsupported option \"maybe\".");
	check_refusal("pick", "Pick", "three", CONF_SSHD,
	    "cfg line 4: unsupported option \"three\".");
	check_refusal("pick", "Pick", "three", CONF_SSH,
	    "cfg line 4: unsupported option \"three\".");
	check_refusal("time", "Time", "1q", CONF_SSHD,
	    "cfg line 4: invalid time value.");
	check_refusal("time", "Time", "1q", CONF_SSH,
	    "cfg line 4: invalid time value.");
	check_refusal("mode", "Mode", "9", CONF_SSHD,
	    "cfg line 4: Invalid Mode.");
	check_refusal("mode", "Mode", "9", CONF_SSH, "cfg line 4: Bad mask.");
	check_refusal("level", "Level", "loud", CONF_SSHD,
	    "cfg line 4: unsupported log level 'loud'");
	check_refusal("level", "Level", "loud", CONF_SSH,
	    "cfg line 4: unsupported log level 'loud'");
	check_refusal("fac", "Fac", "local9", CONF_SSH,
	    "cfg line 4: unsupported log facility 'local9'");
	check_refusal("fac", "Fac", "local9", CONF_SSHD,
	    "cfg line 4: unsupported log facility 'local9'");
	/* Extra words: sshd names the keyword as written, ssh as the row. */
	log_set_sink(conftest_catch, &c);
	CHECK_ERR(conf_kw_extra_args(conf_kw_find(&table, "range"), &at,
	    CONF_SSHD), ERR_CONFIG);
	CHECK_STR(c.text, "cfg line 5: keyword Range extra arguments at end "
	    "of line");
	CHECK_ERR(conf_kw_extra_args(conf_kw_find(&table, "range"), &at,
	    CONF_SSH), ERR_CONFIG);
	CHECK_STR(c.text, "cfg line 5: keyword range extra arguments at end "
	    "of line");
	CHECK(c.n == 2);
	log_set_sink(NULL, NULL);
}

/* What the printer writes for o over the steps. */
static char *
dump(const struct opts *o, const struct conf_dump_step *steps, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return x_strdup("");
	conf_kw_dump(&table, steps, n, o, f);
	fclose(f);
	return buf;
}

static void
extra_lines(const void *opts, FILE *f)
{
	fprintf(f, "extra %d\n", ((const struct opts *)opts)->num + 1);
}

static void
test_dump(void)
{
	static const struct conf_dump_step steps[] = {
		{ "num", NULL }, { "flag", NULL }, { NULL, extra_lines },
		{ "mode", NULL }, { "level", NULL }, { "fac", NULL },
		{ "pick", NULL }, { "str", NULL }, { "path", NULL },
		{ "list", NULL }, { "line", NULL }, { "time", NULL },
		{ "nosuch", NULL },
	};
	struct opts o = { 1, 9, 077, 0, 0, 2, NULL, NULL, { NULL }, 0 };
	char *got;

	o.level = log_level_from_name("VERBOSE");
	o.fac = log_facility_from_name("LOCAL3");
	got = dump(&o, steps, sizeof(steps) / sizeof(steps[0]));
	CHECK_STR(got, "num 9\nflag yes\nextra 10\nmode 077\n"
	    "level VERBOSE\nfac LOCAL3\npick two\nstr none\n");
	free(got);
	o.flag = -1;	/* unset reads as no */
	o.pick = 1;
	o.str = "/a b";
	o.path = "none";
	o.list[0] = "x";
	o.list[1] = "y";
	o.nlist = 2;
	got = dump(&o, steps, sizeof(steps) / sizeof(steps[0]));
	CHECK_STR(got, "num 9\nflag no\nextra 10\nmode 077\n"
	    "level VERBOSE\nfac LOCAL3\npick one\nstr /a b\n"
	    "list x\nlist y\nline x y\n");
	free(got);
	o.path = "/p";
	got = dump(&o, &steps[8], 1);
	CHECK_STR(got, "path /p\n");
	free(got);
}

int
main(void)
{
	test_find();
	test_int();
	test_range();
	test_messages();
	test_dump();
	return TEST_DONE();
}
