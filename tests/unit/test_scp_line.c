/*
 * test_scp_line.c: the pure pieces of scp's old rcp protocol
 * (src/scp/scp_line.c): the parser of the control records a server
 * sends, the sink's checks of the names in them (CVE-2019-6111: a
 * server may not write outside the target, nor send files that were
 * not asked for), the patterns a request allows, and the quoting of a
 * remote path for the far end's shell (CVE-2020-15778). scp is a
 * program, not part of the library, so the file is compiled in here.
 */
#include <string.h>

#include "testlib.h"

#include "../../src/scp/scp_line.c"

static void
test_records(void)
{
	struct scp_rec r;
	const char *why = NULL;

	CHECK_OK(scp_parse_record("C0644 12345 file name", &r, &why));
	CHECK(r.type == 'C');
	CHECK(r.mode == 0644);
	CHECK(r.size == 12345);
	CHECK_STR(r.name, "file name");
	CHECK_OK(scp_parse_record("D2755 0 dir", &r, &why));
	CHECK(r.type == 'D' && r.mode == 02755);
	CHECK_STR(r.name, "dir");
	CHECK_OK(scp_parse_record("C0600 9223372036854775807 x", &r, &why));
	CHECK(r.size == 9223372036854775807ULL);
	CHECK_OK(scp_parse_record("T1577934245 0 1796414516 0", &r, &why));
	CHECK(r.type == 'T' && r.mtime == 1577934245 &&
	    r.atime == 1796414516);
	CHECK_OK(scp_parse_record("E", &r, &why));
	CHECK(r.type == 'E');

	CHECK_ERR(scp_parse_record("C0648 1 x", &r, &why),
	    ERR_INVALID_FORMAT);
	CHECK_STR(why, "bad mode");
	CHECK_ERR(scp_parse_record("C064 1 x", &r, &why), ERR_INVALID_FORMAT);
	CHECK_ERR(scp_parse_record("C06444 1 x", &r, &why),
	    ERR_INVALID_FORMAT);
	CHECK_STR(why, "mode not delimited");
	CHECK_ERR(scp_parse_record("C0644 1x x", &r, &why),
	    ERR_INVALID_FORMAT);
	CHECK_STR(why, "size not delimited");
	CHECK_ERR(scp_parse_record("C0644 -1 x", &r, &why),
	    ERR_INVALID_FORMAT);
	CHECK_STR(why, "size out of range");
	CHECK_ERR(scp_parse_record("C0644 9223372036854775808 x", &r, &why),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(scp_parse_record("C0644 99999999999999999999999 x", &r,
	    &why), ERR_INVALID_FORMAT);
	CHECK_ERR(scp_parse_record("C0644  x", &r, &why), ERR_INVALID_FORMAT);
	CHECK_ERR(scp_parse_record("T1 0 2", &r, &why), ERR_INVALID_FORMAT);
	CHECK_STR(why, "atime.sec not delimited");
	CHECK_ERR(scp_parse_record("T1 1000000 2 0", &r, &why),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(scp_parse_record("T1 0 2 0 ", &r, &why),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(scp_parse_record("Tx 0 2 0", &r, &why), ERR_INVALID_FORMAT);
	CHECK_STR(why, "mtime.sec not delimited");
	CHECK_ERR(scp_parse_record("Ex", &r, &why), ERR_INVALID_FORMAT);
	CHECK_ERR(scp_parse_record("X0644 1 x", &r, &why),
	    ERR_INVALID_FORMAT);
	CHECK_STR(why, "expected control record");
	CHECK_ERR(scp_parse_record("", &r, &why), ERR_INVALID_FORMAT);
}

static void
test_names(void)
{
	char *pats[2] = { "*.txt", "exact" };
	char **p = NULL;
	size_t n = 0;
	const char *why = NULL;

	/* Never outside the target, whatever was asked for. */
	CHECK_ERR(scp_name_ok("..", NULL, 0, &why), ERR_INVALID_FORMAT);
	CHECK_STR(why, "unexpected filename");
	CHECK_ERR(scp_name_ok("../x", NULL, 0, &why), ERR_INVALID_FORMAT);
	CHECK_ERR(scp_name_ok("a/b", NULL, 0, &why), ERR_INVALID_FORMAT);
	CHECK_ERR(scp_name_ok("/etc", NULL, 0, &why), ERR_INVALID_FORMAT);
	CHECK_ERR(scp_name_ok("", NULL, 0, &why), ERR_INVALID_FORMAT);
	CHECK_ERR(scp_name_ok("..", pats, 2, &why), ERR_INVALID_FORMAT);
	CHECK_OK(scp_name_ok("...", NULL, 0, &why));
	CHECK_OK(scp_name_ok(".profile", NULL, 0, &why));
	/* Only what the request names. */
	CHECK_OK(scp_name_ok("a.txt", pats, 2, &why));
	CHECK_OK(scp_name_ok("exact", pats, 2, &why));
	CHECK_ERR(scp_name_ok(".bashrc", pats, 2, &why), ERR_INVALID_FORMAT);
	CHECK_STR(why, "filename does not match request");
	CHECK_ERR(scp_name_ok("exact2", pats, 2, &why), ERR_INVALID_FORMAT);

	CHECK_OK(scp_patterns("/home/u/file.c", &p, &n));
	CHECK(n == 1);
	if (n == 1)
		CHECK_STR(p[0], "file.c");
	CHECK_OK(scp_name_ok("file.c", p, n, &why));
	CHECK_ERR(scp_name_ok("file.h", p, n, &why), ERR_INVALID_FORMAT);
	scp_free_strv(p, n);
	CHECK_OK(scp_patterns("dir/", &p, &n));
	CHECK(n == 1 && strcmp(p[0], "dir") == 0);
	scp_free_strv(p, n);
	CHECK_OK(scp_patterns("", &p, &n));
	CHECK(n == 1 && strcmp(p[0], ".") == 0);
	scp_free_strv(p, n);
	CHECK_OK(scp_patterns("/x/{a,b{1,2}}.c", &p, &n));
	CHECK(n == 3);
	if (n == 3) {
		CHECK_STR(p[0], "a.c");
		CHECK_STR(p[1], "b1.c");
		CHECK_STR(p[2], "b2.c");
	}
	CHECK_OK(scp_name_ok("b2.c", p, n, &why));
	CHECK_ERR(scp_name_ok("b3.c", p, n, &why), ERR_INVALID_FORMAT);
	scp_free_strv(p, n);
	CHECK_OK(scp_patterns("un{closed", &p, &n));
	CHECK(n == 1 && strcmp(p[0], "un{closed") == 0);
	scp_free_strv(p, n);
	CHECK_OK(scp_patterns("{}", &p, &n));
	scp_free_strv(p, n);
}

static void
test_quote(void)
{
	char *q;

	q = scp_shell_quote("plain");
	CHECK_STR(q, "'plain'");
	x_free(q);
	q = scp_shell_quote("a b;rm -rf $HOME`x`$(y)|&\n");
	CHECK_STR(q, "'a b;rm -rf $HOME`x`$(y)|&\n'");
	x_free(q);
	q = scp_shell_quote("it's");
	CHECK_STR(q, "'it'\\''s'");
	x_free(q);
	q = scp_shell_quote("/d/*.t?t");
	CHECK_STR(q, "'/d/'*'.t'?'t'");
	x_free(q);
	q = scp_shell_quote("~/x y");
	CHECK_STR(q, "~'/x y'");
	x_free(q);
	q = scp_shell_quote("~bob");
	CHECK_STR(q, "~bob");
	x_free(q);
	q = scp_shell_quote("~$(id)/x");
	CHECK_STR(q, "'~$(id)/x'");
	x_free(q);
	q = scp_shell_quote("");
	CHECK_STR(q, "''");
	x_free(q);
}

int
main(void)
{
	test_records();
	test_names();
	test_quote();
	return TEST_DONE();
}
