/*
 * test_conf.c: the configuration tokenizer in both dialects (sshd's
 * backslash escapes and truncation, ssh's '#' first argument and runs of
 * '='), the raw rest of a line, and the shared value parsers: times,
 * sizes, integers with OpenSSH's refusal words, modes and word tables.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "mem.h"
#include "testlib.h"

/* Split text in dialect flags; the words joined by '|', or "ERR". */
static char *
split(const char *text, int flags, char **restp)
{
	char *buf = x_strdup(text), *out = x_strdup("");
	struct conf_line l;
	int i;

	*restp = NULL;
	if (conf_split(text, buf, flags, &l) != 0) {
		conf_line_clear(&l);
		x_free(buf);
		x_free(out);
		return x_strdup("ERR");
	}
	for (i = 0; i < l.argc; i++) {
		char *n = x_asprintf("%s%s%s", out, i ? "|" : "", l.argv[i]);

		x_free(out);
		out = n;
	}
	if (l.rest != NULL)
		*restp = x_strdup(l.rest);
	conf_line_clear(&l);
	x_free(buf);
	return out;
}

static void
check_split(const char *text, int flags, const char *want,
    const char *want_rest)
{
	char *rest, *got = split(text, flags, &rest);

	CHECK_STR(got, want);
	if (want_rest != NULL)
		CHECK_STR(rest, want_rest);
	else
		CHECK(rest == NULL);
	x_free(got);
	x_free(rest);
}

static void
test_split(void)
{
	check_split("", CONF_LEX_SSHD, "", NULL);
	check_split("   # comment", CONF_LEX_SSH, "", NULL);
	check_split("Port 22", CONF_LEX_SSHD, "Port|22", "22");
	check_split("Port=22", CONF_LEX_SSHD, "Port|22", "22");
	check_split("  Port =  22  \r\n", CONF_LEX_SSH, "Port|22", "22");
	check_split("ForceCommand echo \"a b\" # x", CONF_LEX_SSHD,
	    "ForceCommand|echo|a b", "echo \"a b\" # x");
	check_split("SetEnv 'A=1 2' B=\"x\"y", CONF_LEX_SSHD,
	    "SetEnv|A=1 2|B=xy", "'A=1 2' B=\"x\"y");
	check_split("Banner \"unbalanced", CONF_LEX_SSHD, "ERR", NULL);
	check_split("Banner 'unbalanced", CONF_LEX_SSH, "ERR", NULL);
	/* sshd unescapes \" and \\ in quotes; ssh keeps them. */
	check_split("Banner \"a\\\"b\"", CONF_LEX_SSHD, "Banner|a\"b",
	    "\"a\\\"b\"");
	check_split("Banner \"a\\\\b\"", CONF_LEX_SSH, "Banner|a\\\\b",
	    "\"a\\\\b\"");
	/* '#' as the first argument: a comment for sshd, a word for ssh. */
	check_split("EscapeChar #", CONF_LEX_SSHD, "EscapeChar", "#");
	check_split("EscapeChar # x", CONF_LEX_SSH, "EscapeChar|#|x", "# x");
	check_split("SendEnv A #B", CONF_LEX_SSH, "SendEnv|A", "A #B");
	/* One '=' separates for sshd; ssh takes a run of them. */
	check_split("Port == 22", CONF_LEX_SSHD, "Port|=|22", "= 22");
	check_split("Port == 22", CONF_LEX_SSH, "Port|22", "22");
	/* Quotes in the keyword group for ssh only. */
	check_split("\"Host\" x", CONF_LEX_SSH, "Host|x", "x");
	check_split("\"Port\" 2", CONF_LEX_SSHD, "\"Port\"|2", "2");
}

static void
test_many_words(void)
{
	char *line = x_strdup("K"), *n, *rest, *got;
	int i, words;

	for (i = 0; i < CONF_MAX_ARGS + 5; i++) {
		n = x_asprintf("%s w", line);
		x_free(line);
		line = n;
	}
	got = split(line, CONF_LEX_SSH, &rest);
	CHECK_STR(got, "ERR");
	x_free(got);
	x_free(rest);
	got = split(line, CONF_LEX_SSHD, &rest);
	for (words = 1, n = got; (n = strchr(n, '|')) != NULL; n++)
		words++;
	CHECK(words == CONF_MAX_ARGS - 1);
	x_free(got);
	x_free(rest);
	x_free(line);
}

static void
test_values(void)
{
	const char *why = NULL;
	uint64_t sz = 0;
	int v = -1;

	CHECK(conf_parse_time("90") == 90);
	CHECK(conf_parse_time("1h30m") == 5400);
	CHECK(conf_parse_time("2W") == 1209600);
	CHECK(conf_parse_time("1h30") == 3630);
	CHECK(conf_parse_time("") == -1);
	CHECK(conf_parse_time("5x") == -1);
	CHECK(conf_parse_time("-5") == -1);
	CHECK(conf_parse_time("99999999999") == -1);
	CHECK(conf_parse_time("3551w") == -1);	/* past INT_MAX */

	CHECK_OK(conf_parse_size("512K", &sz));
	CHECK(sz == 512 * 1024);
	CHECK_OK(conf_parse_size("1g", &sz));
	CHECK(sz == 1ULL << 30);
	CHECK_ERR(conf_parse_size("1Q", &sz), ERR_CONFIG);
	CHECK_ERR(conf_parse_size("+5", &sz), ERR_CONFIG);
	CHECK_ERR(conf_parse_size("99999999999999999999G", &sz), ERR_CONFIG);

	CHECK_OK(conf_parse_int("65535", &v));
	CHECK(v == 65535);
	CHECK_ERR(conf_parse_int("", &v), ERR_CONFIG);
	CHECK_ERR(conf_parse_int("1x", &v), ERR_CONFIG);
	CHECK_ERR(conf_parse_int("-1", &v), ERR_CONFIG);
	CHECK_ERR(conf_parse_int_why("x", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "invalid");
	CHECK_ERR(conf_parse_int_why("-1", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "too small");
	CHECK_ERR(conf_parse_int_why("3000000000", &v, &why), ERR_CONFIG);
	CHECK_STR(why, "too large");

	CHECK(conf_parse_mode("0077") == 077);
	CHECK(conf_parse_mode("0778") == 077);
	CHECK(conf_parse_mode("1000") == -1);
	CHECK(conf_parse_mode("x") == -1);

	CHECK_OK(conf_enum_lookup(conf_truefalse, "TRUE", &v));
	CHECK(v == 1);
	CHECK_ERR(conf_enum_lookup(conf_yesno, "true", &v), ERR_CONFIG);
	CHECK_STR(conf_enum_name(conf_yesno, 0), "no");
	CHECK_STR(conf_enum_name(conf_yesno, 7), "unknown");
}

/* IPQoS words, both configurations' reader and printer. */
static void
test_ipqos(void)
{
	char buf[8];
	int v = 0;

	CHECK_OK(conf_parse_ipqos("AF21", &v));
	CHECK(v == 0x48);
	CHECK_OK(conf_parse_ipqos("none", &v));
	CHECK(v == -1);
	CHECK_OK(conf_parse_ipqos("0x2e", &v));
	CHECK(v == 0x2e);
	CHECK_OK(conf_parse_ipqos("010", &v));	/* C base: octal */
	CHECK(v == 8);
	CHECK_ERR(conf_parse_ipqos("256", &v), ERR_CONFIG);
	CHECK_ERR(conf_parse_ipqos("-1", &v), ERR_CONFIG);
	CHECK_ERR(conf_parse_ipqos("af14", &v), ERR_CONFIG);
	CHECK_ERR(conf_parse_ipqos("", &v), ERR_CONFIG);
	CHECK_STR(conf_ipqos_name(-1, buf), "none");
	CHECK_STR(conf_ipqos_name(0x04, buf), "le");	/* not "reliability" */
	CHECK_STR(conf_ipqos_name(0x10, buf), "lowdelay");
	CHECK_STR(conf_ipqos_name(0x2e, buf), "0x2e");
}

int
main(void)
{
	test_split();
	test_many_words();
	test_values();
	test_ipqos();
	return TEST_DONE();
}
