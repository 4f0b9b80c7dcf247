/*
 * test_log.c: the log sink's escaping (log_escape) and a whole line as it
 * reaches a log file: peer bytes shown as OpenSSH shows them (\ooo octal,
 * backslash doubled), never a raw newline, and a capped user name that
 * leaves "from ADDR port N" on the line. LogVerbose: the lines it names
 * pass the level with their place, the others do not.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "log.h"
#include "testlib.h"

static void
test_escape(void)
{
	char out[64];

	CHECK(log_escape(out, sizeof(out), "plain text\tok") == 13);
	CHECK_STR(out, "plain text\tok");
	log_escape(out, sizeof(out), "a\nb\rc\001d\033e\177f");
	CHECK_STR(out, "a\\012b\\015c\\001d\\033e\\177f");
	log_escape(out, sizeof(out), "back\\slash \xc3\xa9");
	CHECK_STR(out, "back\\\\slash \\303\\251");
	/* An escape that does not fit whole is left out, not cut. */
	CHECK(log_escape(out, 6, "ab\001") == 2);
	CHECK_STR(out, "ab");
	CHECK(log_escape(out, 7, "ab\001") == 6);
	CHECK_STR(out, "ab\\001");
	CHECK(log_escape(out, 1, "abc") == 0);
	CHECK_STR(out, "");
}

static void
test_line(void)
{
	char path[] = "/tmp/test_log.XXXXXX", buf[4096], user[1500];
	ssize_t n;
	int fd;

	if ((fd = mkstemp(path)) == -1) {
		CHECK(0);
		return;
	}
	close(fd);
	memset(user, 'u', sizeof(user) - 1);
	user[sizeof(user) - 1] = '\0';
	log_init("test_log", LOG_LEVEL_INFO, 0, 1);
	CHECK_OK(log_to_file(path));
	log_info("Invalid user %.100s from %s port %d", user, "192.0.2.7",
	    2222);
	log_info("Invalid user %.100s from %s port %d", "x\ny from 10.0.0.1",
	    "192.0.2.7", 2223);
	fd = open(path, O_RDONLY);
	n = fd == -1 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd != -1)
		close(fd);
	unlink(path);
	CHECK(n > 0);
	buf[n > 0 ? n : 0] = '\0';
	/* The user cut to 100 characters; the address kept. */
	memset(user, 'u', 100);
	snprintf(user + 100, sizeof(user) - 100, " from 192.0.2.7 port 2222\n"
	    "Invalid user x\\012y from 10.0.0.1 from 192.0.2.7 port 2223\n");
	CHECK(strncmp(buf, "Invalid user ", 13) == 0);
	CHECK_STR(buf + 13, user);
}

struct caught {
	int n, level;
	char text[LOG_RECORD_MAX];
};

static void
catch(int level, const char *text, void *arg)
{
	struct caught *c = arg;

	c->n++;
	c->level = level;
	snprintf(c->text, sizeof(c->text), "%s", text);
}

static void
test_verbose(void)
{
	struct caught c = { 0, -1, "" };
	char want[256];
	int line;

	log_init("test_log", LOG_LEVEL_INFO, 0, 1);
	log_set_sink(catch, &c);
	log_debug("not shown");
	CHECK(c.n == 0);
	CHECK_OK(log_set_verbose("other.c:*:* test_log.c:test_verb*:*,x"));
	line = __LINE__ + 1;
	log_debug2("shown %d", 7);
	CHECK(c.n == 1);
	CHECK(c.level == LOG_LEVEL_INFO);
	snprintf(want, sizeof(want),
	    "debug2: test_log.c:test_verbose():%d (pid=%ld): shown 7", line,
	    (long)getpid());
	CHECK_STR(c.text, want);
	/* A line the level passes anyway keeps its level and no tag. */
	line = __LINE__ + 1;
	log_info("info");
	CHECK(c.n == 2 && c.level == LOG_LEVEL_INFO);
	snprintf(want, sizeof(want), "test_log.c:test_verbose():%d (pid=%ld): "
	    "info", line, (long)getpid());
	CHECK_STR(c.text, want);
	/* A line pattern that names another line. */
	CHECK_OK(log_set_verbose("test_log.c:test_verbose:1"));
	log_debug("not shown");
	CHECK(c.n == 2);
	CHECK_OK(log_set_verbose("none"));
	log_debug("not shown");
	log_info("plain");
	CHECK(c.n == 3);
	CHECK_STR(c.text, "plain");
	log_set_sink(NULL, NULL);
}

int
main(void)
{
	test_escape();
	test_line();
	test_verbose();
	printf("%d passed, %d failed\n", test_passed, test_failed);
	return test_failed != 0;
}
