/*
 * loginrec.h: the login records of a pty session, as login(1) keeps them.
 *
 * At login a USER_PROCESS entry goes into utmp (who(1) lists it while the
 * session runs) and into wtmp (last(1)), and the user's lastlog record
 * (a struct lastlog at offset uid * sizeof(struct lastlog)) gets the
 * time, line and remote host. At logout the utmp entry becomes a
 * DEAD_PROCESS and wtmp gets a logout record for the line. Before the
 * login is written, the old lastlog record gives the "Last login: ..."
 * line sshd prints on the terminal.
 *
 * A failed login (a wrong password or keyboard-interactive answer, a user
 * name that does not exist) goes into btmp (lastb(1)) as a LOGIN_PROCESS
 * entry on line "ssh:notty", the way Debian's sshd keeps them.
 *
 * The files are named by a struct loginrec_files so tests can use
 * temporary ones; loginrec_system_files() gives the system's. Writing the
 * system files needs root: callers check that. Every function tries all
 * of its files, logs each failure, and returns the first error.
 */
#ifndef MOAT_LOGINREC_H
#define MOAT_LOGINREC_H

#include <sys/types.h>
#include <stddef.h>
#include <time.h>
#include <utmp.h>

struct loginrec_files {
	const char *utmp;
	const char *wtmp;
	const char *lastlog;
	const char *btmp;	/* failed logins */
};

/* One user's lastlog record; when == 0: never logged in. */
struct loginrec_last {
	time_t when;
	char line[UT_LINESIZE + 1];
	char host[UT_HOSTSIZE + 1];
};

#ifndef _PATH_BTMP
#define _PATH_BTMP	"/var/log/btmp"
/*
 * Record a failed login in f->btmp: a LOGIN_PROCESS entry with ut_user
 * the name tried (cut at UT_NAMESIZE, existing or not), ut_line
 * "ssh:notty", ut_id empty, ut_pid our pid, ut_host host, ut_addr_v6 the
 * numeric addr (NULL or not numeric: zeros), the time in whole seconds.
 * The record is appended only to a file that exists (ERR_NOT_FOUND
 * otherwise, logged at debug level: no file is created) and that is
 * owned by root or by us and has no group-execute or other permission
 * bits (ERR_PERMISSION_DENIED otherwise, logged). Callers write the
 * system's file only when running as root.
 */
int loginrec_failed(const struct loginrec_files *f, const char *user,
    const char *host, const char *addr);

#endif

/* _PATH_UTMP, _PATH_WTMP, _PATH_LASTLOG, _PATH_BTMP (static storage). */
const struct loginrec_files *loginrec_system_files(void);

/* The utmp line of a tty: "/dev/pts/3" gives "pts/3" (a pointer into tty). */
const char *loginrec_line(const char *tty);

/* ut_id for a line: its last four characters (all of a shorter line). */
void loginrec_id(const char *line, char id[5]);

/*
 * "Last login: <ctime> from <host>\r\n" (without " from <host>" when host
 * is empty) into buf, or "" when when == 0. ERR_NO_BUFFER_SPACE if it
 * does not fit (buf is then "").
 */
int loginrec_format_last(time_t when, const char *host, char *buf,
    size_t len);

/* Read uid's lastlog record from path; a missing record reads as never. */
int loginrec_lastlog_read(const char *path, uid_t uid,
    struct loginrec_last *out);

/*
 * The "Last login" line for uid from f->lastlog, as it is before this
 * login is recorded; buf is "" when there is none (or it cannot be read).
 */
int loginrec_last_message(const struct loginrec_files *f, uid_t uid,
    char *buf, size_t len);

/*
 * Record a login on tty ("/dev/pts/N" or "pts/N") by process pid for
 * user/uid from host (ut_host, ll_host); addr is the numeric remote
 * address for ut_addr_v6 (NULL or not numeric: zeros).
 */
int loginrec_login(const struct loginrec_files *f, const char *tty,
    pid_t pid, const char *user, uid_t uid, const char *host,
    const char *addr);

/* Record the end of the login on tty in utmp and wtmp. */
int loginrec_logout(const struct loginrec_files *f, const char *tty);

/*
 * Record a failed login in f->btmp: a LOGIN_PROCESS entry with ut_user
 * the name tried (cut at UT_NAMESIZE, existing or not), ut_line
 * "ssh:notty", ut_id empty, ut_pid our pid, ut_host host, ut_addr_v6 the
 * numeric addr (NULL or not numeric: zeros), the time in whole seconds.
 * The record is appended only to a file that exists (ERR_NOT_FOUND
 * otherwise, logged at debug level: no file is created) and that is
 * owned by root or by us and has no group-execute or other permission
 * bits (ERR_PERMISSION_DENIED otherwise, logged). Callers write the
 * system's file only when running as root.
 */
int loginrec_failed(const struct loginrec_files *f, const char *user,
    const char *host, const char *addr);

#endif
