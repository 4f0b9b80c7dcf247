/*
 * loginrec.c: utmp, wtmp and lastlog records of pty sessions (see
 * loginrec.h).
 *
 * utmp goes through glibc's utmpx calls (utmpxname, pututxline,
 * getutxline), which lock the file and find the slot by ut_id; wtmp
 * records are appended with updwtmpx; lastlog is a flat file of struct
 * lastlog indexed by uid, read and written with pread/pwrite. Records
 * are filled the way login(1) and sshd fill them: ut_line is the tty
 * without "/dev/", ut_id its last four characters, ut_host the remote
 * host, ut_addr_v6 the remote address. A logout turns the utmp entry
 * into a DEAD_PROCESS with no user or host, and appends a DEAD_PROCESS
 * record for the line, carrying only our pid and the time, to wtmp.
 *
 * A failed login is appended to btmp by hand (one write of a struct
 * utmpx on a descriptor opened for appending), as Debian's sshd does it:
 * LOGIN_PROCESS, line "ssh:notty", no ut_id, the name that was tried, and
 * the time in whole seconds. An IPv4 peer seen through an IPv6 socket is
 * stored as the IPv4 address. Since btmp tells which names are tried
 * (sometimes a password typed as a name), a file that others could read
 * or that is not root's is left alone.
 *
 * A missing file means the system keeps no such record: that is logged
 * at debug level only, and no file is ever created here.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <lastlog.h>
#include <paths.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <utmpx.h>

#include "err.h"
#include "fdio.h"
#include "log.h"
#include "loginrec.h"

static const struct loginrec_files system_files = {
	_PATH_UTMP, _PATH_WTMP, _PATH_LASTLOG, _PATH_BTMP
};

const struct loginrec_files *
loginrec_system_files(void)
{
	return &system_files;
}

const char *
loginrec_line(const char *tty)
{
	if (strncmp(tty, "/dev/", 5) == 0)
		return tty + 5;
	return tty;
}

void
loginrec_id(const char *line, char id[5])
{
	size_t n = strlen(line);

	if (n > 4)
		line += n - 4;
	memset(id, 0, 5);
	memcpy(id, line, n > 4 ? 4 : n);
}

/* A fixed-size record field: zero-filled, not terminated when full. */
static void
put_field(char *dst, size_t size, const char *src)
{
	size_t n = src != NULL ? strlen(src) : 0;

	memset(dst, 0, size);
	if (n > size)
		n = size;
	if (n > 0)
		memcpy(dst, src, n);
}

/* A fixed-size record field as a C string. */
static void
get_field(char *dst, size_t dstsize, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (n >= dstsize)
		n = dstsize - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int
loginrec_format_last(time_t when, const char *host, char *buf, size_t len)
{
	char date[64];
	int n;

	if (len == 0)
		return ERR_NO_BUFFER_SPACE;
	buf[0] = '\0';
	if (when == 0)
		return 0;
	if (ctime_r(&when, date) == NULL)
		return ERR_INVALID_ARGUMENT;
	date[strcspn(date, "\n")] = '\0';
	if (host == NULL || *host == '\0')
		n = snprintf(buf, len, "Last login: %s\r\n", date);
	else
		n = snprintf(buf, len, "Last login: %s from %s\r\n", date,
		    host);
	if (n < 0 || (size_t)n >= len) {
		buf[0] = '\0';
		return ERR_NO_BUFFER_SPACE;
	}
	return 0;
}

/* Does path exist? A missing file is a record the system does not keep. */
static int
file_present(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		return 1;
	if (errno == ENOENT)
		log_debug("%s does not exist: no record there", path);
	else
		log_error("%s: %s", path, strerror(errno));
	return 0;
}

int
loginrec_lastlog_read(const char *path, uid_t uid, struct loginrec_last *out)
{
	struct lastlog ll;
	ssize_t n;
	int fd, saved;

	memset(out, 0, sizeof(*out));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return ERR_SYSTEM;
	n = pread(fd, &ll, sizeof(ll), (off_t)uid * (off_t)sizeof(ll));
	saved = errno;
	close(fd);
	errno = saved;
	if (n < 0)
		return ERR_SYSTEM;
	if (n != (ssize_t)sizeof(ll))
		return 0;	/* past the end: never logged in */
	out->when = (time_t)ll.ll_time;
	get_field(out->line, sizeof(out->line), ll.ll_line,
	    sizeof(ll.ll_line));
	get_field(out->host, sizeof(out->host), ll.ll_host,
	    sizeof(ll.ll_host));
	return 0;
}

int
loginrec_last_message(const struct loginrec_files *f, uid_t uid,
    char *buf, size_t len)
{
	struct loginrec_last last;
	int r;

	if (len > 0)
		buf[0] = '\0';
	if ((r = loginrec_lastlog_read(f->lastlog, uid, &last)) != 0) {
		if (errno != ENOENT)
			log_debug("%s: %s", f->lastlog, strerror(errno));
		return r;
	}
	return loginrec_format_last(last.when, last.host, buf, len);
}

static int
lastlog_write(const char *path, uid_t uid, time_t when, const char *line,
    const char *host)
{
	struct lastlog ll;
	int fd, r = 0;

	if (!file_present(path))
		return ERR_NOT_FOUND;
	memset(&ll, 0, sizeof(ll));
	ll.ll_time = when;
	put_field(ll.ll_line, sizeof(ll.ll_line), line);
	put_field(ll.ll_host, sizeof(ll.ll_host), host);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1 ||
	    pwrite(fd, &ll, sizeof(ll), (off_t)uid * (off_t)sizeof(ll)) !=
	    (ssize_t)sizeof(ll)) {
		log_error("%s: write for uid %lu: %s", path,
		    (unsigned long)uid, strerror(errno));
		r = ERR_SYSTEM;
	}
	if (fd != -1)
		close(fd);
	return r;
}

/* Put ut into the utmp file at path (its slot is found by ut_id). */
static int
utmp_put(const char *path, const struct utmpx *ut)
{
	int r = 0;

	if (!file_present(path))
		return ERR_NOT_FOUND;
	if (utmpxname(path) != 0) {
		log_error("utmpxname %s: %s", path, strerror(errno));
		return ERR_SYSTEM;
	}
	setutxent();
	if (pututxline(ut) == NULL) {
		log_error("%s: cannot write the entry for %.*s: %s", path,
		    (int)sizeof(ut->ut_line), ut->ut_line, strerror(errno));
		r = ERR_SYSTEM;
	}
	endutxent();
	return r;
}

static int
wtmp_append(const char *path, const struct utmpx *ut)
{
	if (!file_present(path))
		return ERR_NOT_FOUND;
	if (access(path, W_OK) != 0) {
		log_error("%s: %s", path, strerror(errno));
		return ERR_SYSTEM;
	}
	updwtmpx(path, ut);
	return 0;
}

static void
set_now(struct utmpx *ut, time_t *nowp)
{
	struct timeval tv;

	(void)gettimeofday(&tv, NULL);
	ut->ut_tv.tv_sec = tv.tv_sec;
	ut->ut_tv.tv_usec = tv.tv_usec;
	if (nowp != NULL)
		*nowp = tv.tv_sec;
}

static void
set_addr(struct utmpx *ut, const char *addr)
{
	struct in_addr a4;
	struct in6_addr a6;

	memset(ut->ut_addr_v6, 0, sizeof(ut->ut_addr_v6));
	if (addr == NULL)
		return;
	if (inet_pton(AF_INET, addr, &a4) == 1)
		memcpy(ut->ut_addr_v6, &a4, sizeof(a4));
	else if (inet_pton(AF_INET6, addr, &a6) == 1)
		memcpy(ut->ut_addr_v6, &a6, sizeof(a6));
}

int
loginrec_login(const struct loginrec_files *f, const char *tty, pid_t pid,
    const char *user, uid_t uid, const char *host, const char *addr)
{
	const char *line = loginrec_line(tty);
	struct utmpx ut;
	char id[5];
	time_t now;
	int r, e;

	memset(&ut, 0, sizeof(ut));
	ut.ut_type = USER_PROCESS;
	ut.ut_pid = pid;
	put_field(ut.ut_line, sizeof(ut.ut_line), line);
	loginrec_id(line, id);
	put_field(ut.ut_id, sizeof(ut.ut_id), id);
	put_field(ut.ut_user, sizeof(ut.ut_user), user);
	put_field(ut.ut_host, sizeof(ut.ut_host), host);
	set_addr(&ut, addr);
	set_now(&ut, &now);
	/* Try all three; report the first failure. */
	r = utmp_put(f->utmp, &ut);
	if ((e = wtmp_append(f->wtmp, &ut)) != 0 && r == 0)
		r = e;
	if ((e = lastlog_write(f->lastlog, uid, now, line, host)) != 0 &&
	    r == 0)
		r = e;
	return r;
}

int
loginrec_logout(const struct loginrec_files *f, const char *tty)
{
	const char *line = loginrec_line(tty);
	struct utmpx key, ut, *found;
	int r = 0, e;

	/* utmp: the line's entry, if any, becomes a dead process. */
	memset(&key, 0, sizeof(key));
	key.ut_type = USER_PROCESS;
	put_field(key.ut_line, sizeof(key.ut_line), line);
	if (file_present(f->utmp)) {
		if (utmpxname(f->utmp) != 0) {
			log_error("utmpxname %s: %s", f->utmp,
			    strerror(errno));
			r = ERR_SYSTEM;
		} else {
			setutxent();
			found = getutxline(&key);
			if (found != NULL) {
				ut = *found;
				ut.ut_type = DEAD_PROCESS;
				memset(ut.ut_user, 0, sizeof(ut.ut_user));
				memset(ut.ut_host, 0, sizeof(ut.ut_host));
				set_now(&ut, NULL);
				setutxent();
				if (pututxline(&ut) == NULL) {
					log_error("%s: cannot end the entry "
					    "for %s: %s", f->utmp, line,
					    strerror(errno));
					r = ERR_SYSTEM;
				}
			} else
				log_debug("%s: no entry for %s", f->utmp,
				    line);
			endutxent();
		}
	} else
		r = ERR_NOT_FOUND;

	/* wtmp: a logout record for the line. */
	memset(&ut, 0, sizeof(ut));
	ut.ut_type = DEAD_PROCESS;
	ut.ut_pid = getpid();
	put_field(ut.ut_line, sizeof(ut.ut_line), line);
	set_now(&ut, NULL);
	if ((e = wtmp_append(f->wtmp, &ut)) != 0 && r == 0)
		r = e;
	return r;
}

int
loginrec_failed(const struct loginrec_files *f, const char *user,
    const char *host, const char *addr)
{
	struct utmpx ut;
	struct stat st;
	struct in_addr a4;
	int fd, r = 0;

	if ((fd = open(f->btmp, O_WRONLY | O_APPEND | O_CLOEXEC |
	    O_NOCTTY)) == -1) {
		log_debug("Unable to open the btmp file %s: %s", f->btmp,
		    strerror(errno));
		return errno == ENOENT ? ERR_NOT_FOUND : ERR_SYSTEM;
	}
	if (fstat(fd, &st) == -1) {
		log_info("Couldn't stat %s: %s", f->btmp, strerror(errno));
		r = ERR_SYSTEM;
		goto out;
	}
	if ((st.st_mode & (S_IXGRP | S_IRWXO)) != 0 ||
	    (st.st_uid != 0 && st.st_uid != geteuid())) {
		log_info("Excess permission or bad ownership on file %s",
		    f->btmp);
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	memset(&ut, 0, sizeof(ut));
	ut.ut_type = LOGIN_PROCESS;
	ut.ut_pid = getpid();
	put_field(ut.ut_line, sizeof(ut.ut_line), "ssh:notty");
	put_field(ut.ut_user, sizeof(ut.ut_user), user);
	put_field(ut.ut_host, sizeof(ut.ut_host), host);
	set_addr(&ut, addr);
	if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)
	    (const void *)ut.ut_addr_v6)) {
		memcpy(&a4, (const unsigned char *)ut.ut_addr_v6 + 12,
		    sizeof(a4));
		memset(ut.ut_addr_v6, 0, sizeof(ut.ut_addr_v6));
		memcpy(ut.ut_addr_v6, &a4, sizeof(a4));
	}
	ut.ut_tv.tv_sec = time(NULL);
	if (fd_write_full(fd, &ut, sizeof(ut)) != 0) {
		log_error("Failed to write to %s: %s", f->btmp,
		    strerror(errno));
		r = ERR_SYSTEM;
	}
 out:
	close(fd);
	return r;
}
