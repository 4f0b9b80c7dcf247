/*
 * test_loginrec.c: login records against temporary utmp, wtmp and
 * lastlog files: the fields of a login and a logout, the utmp slot reused
 * for the same line, lastlog at uid * sizeof(struct lastlog), the
 * "Last login" line (ctime format, in UTC here), ut_id and ut_line, and
 * that missing files are reported and never created; btmp records of
 * failed logins (every field, appended, the name cut but not terminated
 * at UT_NAMESIZE) and the files they are not written to (missing, open
 * to others, group-executable, not root's nor ours).
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <lastlog.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <utmpx.h>

#include "loginrec.h"
#include "testlib.h"

static char dir[] = "/tmp/moat-loginrec.XXXXXX";
static char p_utmp[64], p_wtmp[64], p_lastlog[64], p_btmp[64];

static void
make_empty(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd != -1);
	if (fd != -1)
		close(fd);
}

/* Seconds now, from the clock loginrec_login() stamps records with. */
static time_t
now_tv(void)
{
	struct timeval tv;

	(void)gettimeofday(&tv, NULL);
	return tv.tv_sec;
}

/* Read every record of a utmp-format file; returns the count. */
static size_t
read_records(const char *path, struct utmpx *recs, size_t max)
{
	size_t n = 0;
	ssize_t got;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		return 0;
	while (n < max &&
	    (got = read(fd, &recs[n], sizeof(recs[n]))) ==
	    (ssize_t)sizeof(recs[n]))
		n++;
	close(fd);
	return n;
}

static off_t
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

static void
test_names(void)
{
	char id[5];

	CHECK_STR(loginrec_line("/dev/pts/3"), "pts/3");
	CHECK_STR(loginrec_line("pts/3"), "pts/3");
	CHECK_STR(loginrec_line("/dev/tty1"), "tty1");
	loginrec_id("pts/0", id);
	CHECK_STR(id, "ts/0");
	loginrec_id("pts/12", id);
	CHECK_STR(id, "s/12");
	loginrec_id("tty1", id);
	CHECK_STR(id, "tty1");
	loginrec_id("x", id);
	CHECK_STR(id, "x");
}

static void
test_format(void)
{
	char buf[128];

	/* 1700000000 is Tue Nov 14 22:13:20 2023 UTC. */
	CHECK_OK(loginrec_format_last(1700000000, "192.0.2.5", buf,
	    sizeof(buf)));
	CHECK_STR(buf, "Last login: Tue Nov 14 22:13:20 2023 from "
	    "192.0.2.5\r\n");
	CHECK_OK(loginrec_format_last(1700000000, "", buf, sizeof(buf)));
	CHECK_STR(buf, "Last login: Tue Nov 14 22:13:20 2023\r\n");
	/* A day below 10 is padded with a space, as ctime does. */
	CHECK_OK(loginrec_format_last(1701600000, NULL, buf, sizeof(buf)));
	CHECK_STR(buf, "Last login: Sun Dec  3 10:40:00 2023\r\n");
	CHECK_OK(loginrec_format_last(0, "192.0.2.5", buf, sizeof(buf)));
	CHECK_STR(buf, "");
	CHECK_ERR(loginrec_format_last(1700000000, "192.0.2.5", buf, 20),
	    ERR_NO_BUFFER_SPACE);
	CHECK_STR(buf, "");
}

static void
test_login_logout(void)
{
	struct loginrec_files f = { p_utmp, p_wtmp, p_lastlog, p_btmp };
	struct loginrec_last last;
	struct utmpx recs[8], *u;
	unsigned char a6[16];
	uint32_t a4;
	char msg[256];
	time_t t0, t1;
	size_t n;

	make_empty(p_utmp);
	make_empty(p_wtmp);
	make_empty(p_lastlog);

	CHECK_OK(loginrec_last_message(&f, 1000, msg, sizeof(msg)));
	CHECK_STR(msg, "");

	/*
	 * The record is stamped with gettimeofday(); bracket it with the
	 * same clock. time() reads the coarse clock, which can lag it by a
	 * tick and so fail this test across a second boundary.
	 */
	t0 = now_tv();
	CHECK_OK(loginrec_login(&f, "/dev/pts/7", 4242, "alice", 1000,
	    "192.0.2.5", "192.0.2.5"));
	t1 = now_tv();

	/* utmp: one live entry with every field login(1) fills. */
	n = read_records(p_utmp, recs, 8);
	CHECK(n == 1);
	u = &recs[0];
	CHECK(u->ut_type == USER_PROCESS);
	CHECK(u->ut_pid == 4242);
	CHECK_STR(u->ut_line, "pts/7");
	CHECK(memcmp(u->ut_id, "ts/7", 4) == 0);
	CHECK_STR(u->ut_user, "alice");
	CHECK_STR(u->ut_host, "192.0.2.5");
	(void)inet_pton(AF_INET, "192.0.2.5", &a4);
	CHECK(memcmp(&u->ut_addr_v6[0], &a4, 4) == 0);
	CHECK(u->ut_addr_v6[1] == 0 && u->ut_addr_v6[3] == 0);
	CHECK(u->ut_tv.tv_sec >= t0 && u->ut_tv.tv_sec <= t1);

	/* wtmp: the same record appended. */
	n = read_records(p_wtmp, recs, 8);
	CHECK(n == 1);
	CHECK(recs[0].ut_type == USER_PROCESS);
	CHECK_STR(recs[0].ut_user, "alice");
	CHECK_STR(recs[0].ut_line, "pts/7");

	/* lastlog: the record at uid 1000, zeros (never) before it. */
	CHECK(file_size(p_lastlog) == 1001 * (off_t)sizeof(struct lastlog));
	CHECK_OK(loginrec_lastlog_read(p_lastlog, 1000, &last));
	CHECK(last.when >= t0 && last.when <= t1);
	CHECK_STR(last.line, "pts/7");
	CHECK_STR(last.host, "192.0.2.5");
	CHECK_OK(loginrec_lastlog_read(p_lastlog, 5, &last));
	CHECK(last.when == 0);
	CHECK_OK(loginrec_lastlog_read(p_lastlog, 2000, &last));
	CHECK(last.when == 0);
	CHECK_OK(loginrec_last_message(&f, 1000, msg, sizeof(msg)));
	CHECK(strncmp(msg, "Last login: ", 12) == 0);
	CHECK(strstr(msg, " from 192.0.2.5\r\n") != NULL);
	CHECK_OK(loginrec_last_message(&f, 1001, msg, sizeof(msg)));
	CHECK_STR(msg, "");

	/* A second login on another line, from an IPv6 address. */
	CHECK_OK(loginrec_login(&f, "pts/8", 4343, "bob", 1001,
	    "2001:db8::1", "2001:db8::1"));
	n = read_records(p_utmp, recs, 8);
	CHECK(n == 2);
	(void)inet_pton(AF_INET6, "2001:db8::1", a6);
	CHECK(n == 2 && memcmp(recs[1].ut_addr_v6, a6, 16) == 0);

	/* Logout: the utmp entry dies in place, wtmp gets a record. */
	CHECK_OK(loginrec_logout(&f, "/dev/pts/7"));
	n = read_records(p_utmp, recs, 8);
	CHECK(n == 2);
	CHECK(recs[0].ut_type == DEAD_PROCESS);
	CHECK_STR(recs[0].ut_line, "pts/7");
	CHECK(memcmp(recs[0].ut_id, "ts/7", 4) == 0);
	CHECK(recs[0].ut_pid == 4242);
	CHECK_STR(recs[0].ut_user, "");
	CHECK_STR(recs[0].ut_host, "");
	CHECK(recs[1].ut_type == USER_PROCESS);
	CHECK_STR(recs[1].ut_user, "bob");
	n = read_records(p_wtmp, recs, 8);
	CHECK(n == 3);
	u = &recs[2];
	CHECK(u->ut_type == DEAD_PROCESS);
	CHECK_STR(u->ut_line, "pts/7");
	CHECK(u->ut_pid == getpid());
	CHECK_STR(u->ut_user, "");
	CHECK_STR(u->ut_host, "");

	/* The line's next login reuses its utmp slot. */
	CHECK_OK(loginrec_login(&f, "/dev/pts/7", 4444, "carol", 1002,
	    "192.0.2.6", "192.0.2.6"));
	n = read_records(p_utmp, recs, 8);
	CHECK(n == 2);
	CHECK(recs[0].ut_type == USER_PROCESS);
	CHECK(recs[0].ut_pid == 4444);
	CHECK_STR(recs[0].ut_user, "carol");

	/* A login overwrites the user's lastlog record. */
	CHECK_OK(loginrec_login(&f, "/dev/pts/9", 4545, "alice", 1000,
	    "192.0.2.7", NULL));
	CHECK_OK(loginrec_lastlog_read(p_lastlog, 1000, &last));
	CHECK_STR(last.line, "pts/9");
	CHECK_STR(last.host, "192.0.2.7");
}

static void
test_missing_files(void)
{
	char mu[80], mw[80], ml[80], mb[80], msg[64];
	struct loginrec_files f = { mu, mw, ml, mb };

	snprintf(mu, sizeof(mu), "%s/no-utmp", dir);
	snprintf(mw, sizeof(mw), "%s/no-wtmp", dir);
	snprintf(ml, sizeof(ml), "%s/no-lastlog", dir);
	snprintf(mb, sizeof(mb), "%s/no-btmp", dir);
	CHECK_ERR(loginrec_login(&f, "/dev/pts/1", 1, "alice", 1000,
	    "192.0.2.5", "192.0.2.5"), ERR_NOT_FOUND);
	CHECK_ERR(loginrec_logout(&f, "/dev/pts/1"), ERR_NOT_FOUND);
	CHECK(access(mu, F_OK) != 0);
	CHECK(access(mw, F_OK) != 0);
	CHECK(access(ml, F_OK) != 0);
	CHECK_ERR(loginrec_failed(&f, "alice", "192.0.2.5", "192.0.2.5"),
	    ERR_NOT_FOUND);
	CHECK(access(mb, F_OK) != 0);
	CHECK(loginrec_last_message(&f, 1000, msg, sizeof(msg)) != 0);
	CHECK_STR(msg, "");
}

static void
test_btmp(void)
{
	struct loginrec_files f = { p_utmp, p_wtmp, p_lastlog, p_btmp };
	struct utmpx recs[8], *u;
	unsigned char a6[16];
	char longname[41];
	uint32_t a4;
	time_t t0, t1;
	size_t n;

	make_empty(p_btmp);
	t0 = time(NULL);
	CHECK_OK(loginrec_failed(&f, "mallory", "192.0.2.9", "192.0.2.9"));
	t1 = time(NULL);
	n = read_records(p_btmp, recs, 8);
	CHECK(n == 1);
	u = &recs[0];
	CHECK(u->ut_type == LOGIN_PROCESS);
	CHECK(u->ut_pid == getpid());
	CHECK_STR(u->ut_line, "ssh:notty");
	CHECK(memcmp(u->ut_id, "\0\0\0\0", 4) == 0);
	CHECK_STR(u->ut_user, "mallory");
	CHECK_STR(u->ut_host, "192.0.2.9");
	(void)inet_pton(AF_INET, "192.0.2.9", &a4);
	CHECK(memcmp(&u->ut_addr_v6[0], &a4, 4) == 0);
	CHECK(u->ut_addr_v6[1] == 0 && u->ut_addr_v6[2] == 0 &&
	    u->ut_addr_v6[3] == 0);
	CHECK(u->ut_tv.tv_sec >= t0 && u->ut_tv.tv_sec <= t1);
	CHECK(u->ut_tv.tv_usec == 0);
	CHECK(u->ut_session == 0);
	CHECK(u->ut_exit.e_termination == 0 && u->ut_exit.e_exit == 0);

	/* Appended; a long name fills ut_user with no terminator. */
	memset(longname, 'x', 40);
	longname[40] = '\0';
	CHECK_OK(loginrec_failed(&f, longname, "host.example", NULL));
	/* IPv6, and IPv4 seen through an IPv6 socket. */
	CHECK_OK(loginrec_failed(&f, "eve", "2001:db8::7", "2001:db8::7"));
	CHECK_OK(loginrec_failed(&f, "eve", "::ffff:192.0.2.9",
	    "::ffff:192.0.2.9"));
	n = read_records(p_btmp, recs, 8);
	CHECK(n == 4);
	CHECK(file_size(p_btmp) == 4 * (off_t)sizeof(struct utmpx));
	if (n == 4) {
		CHECK(memcmp(recs[1].ut_user, longname,
		    sizeof(recs[1].ut_user)) == 0);
		CHECK(sizeof(recs[1].ut_user) == 32);
		CHECK_STR(recs[1].ut_host, "host.example");
		CHECK(memcmp(recs[1].ut_addr_v6, "\0\0\0\0\0\0\0\0"
		    "\0\0\0\0\0\0\0\0", 16) == 0);
		(void)inet_pton(AF_INET6, "2001:db8::7", a6);
		CHECK(memcmp(recs[2].ut_addr_v6, a6, 16) == 0);
		CHECK(memcmp(&recs[3].ut_addr_v6[0], &a4, 4) == 0);
		CHECK(recs[3].ut_addr_v6[1] == 0 &&
		    recs[3].ut_addr_v6[2] == 0 && recs[3].ut_addr_v6[3] == 0);
		CHECK_STR(recs[3].ut_host, "::ffff:192.0.2.9");
	}

	/* A file others may read, or group-executable: left alone. */
	CHECK(chmod(p_btmp, 0604) == 0);
	CHECK_ERR(loginrec_failed(&f, "eve", "192.0.2.9", "192.0.2.9"),
	    ERR_PERMISSION_DENIED);
	CHECK(chmod(p_btmp, 0670) == 0);
	CHECK_ERR(loginrec_failed(&f, "eve", "192.0.2.9", "192.0.2.9"),
	    ERR_PERMISSION_DENIED);
	CHECK(file_size(p_btmp) == 4 * (off_t)sizeof(struct utmpx));
	/* Group read and write are fine (root:utmp 0660 is usual). */
	CHECK(chmod(p_btmp, 0660) == 0);
	CHECK_OK(loginrec_failed(&f, "eve", "192.0.2.9", "192.0.2.9"));
	CHECK(file_size(p_btmp) == 5 * (off_t)sizeof(struct utmpx));
	/* Owned by someone else (only root can give it away). */
	if (geteuid() == 0) {
		CHECK(chown(p_btmp, 1, (gid_t)-1) == 0);
		CHECK_ERR(loginrec_failed(&f, "eve", "192.0.2.9",
		    "192.0.2.9"), ERR_PERMISSION_DENIED);
		CHECK(file_size(p_btmp) == 5 * (off_t)sizeof(struct utmpx));
	}
	CHECK_STR(loginrec_system_files()->btmp, "/var/log/btmp");
}

int
main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(p_utmp, sizeof(p_utmp), "%s/utmp", dir);
	snprintf(p_wtmp, sizeof(p_wtmp), "%s/wtmp", dir);
	snprintf(p_lastlog, sizeof(p_lastlog), "%s/lastlog", dir);
	snprintf(p_btmp, sizeof(p_btmp), "%s/btmp", dir);
	test_names();
	test_format();
	test_login_logout();
	test_missing_files();
	test_btmp();
	unlink(p_btmp);
	unlink(p_utmp);
	unlink(p_wtmp);
	unlink(p_lastlog);
	rmdir(dir);
	return TEST_DONE();
}
