/*
 * log.h: the log sink, the one piece of global state below the programs.
 *
 * Levels and their names are OpenSSH's (QUIET FATAL ERROR INFO VERBOSE
 * DEBUG1 DEBUG2 DEBUG3), so LogLevel and syslog filters carry over, and
 * messages use OpenSSH's wording where one exists, so fail2ban rules match.
 * Output goes to syslog by default, to stderr when asked (-e, -d, -D), or
 * to a file (-E).
 *
 * Every line is escaped on its way out (see log_escape). A string the
 * peer chose (a user name, a method name) is logged through "%.100s", as
 * OpenSSH does, so that it cannot push what follows it -- above all
 * "from ADDR port N" -- off the end of the line.
 */
#ifndef MOAT_LOG_H
#define MOAT_LOG_H

#include <stdarg.h>
#include <stddef.h>

enum log_level {
	LOG_LEVEL_QUIET = 0,
	LOG_LEVEL_FATAL,
	LOG_LEVEL_ERROR,
	LOG_LEVEL_INFO,
	LOG_LEVEL_VERBOSE,
	LOG_LEVEL_DEBUG1,
	LOG_LEVEL_DEBUG2,
	LOG_LEVEL_DEBUG3,
};

/*
 * progname: syslog ident; level: enum log_level; facility: a LOG_* syslog
 * facility; to_stderr: log to stderr instead of syslog.
 */
void log_init(const char *progname, int level, int facility, int to_stderr);
int log_level(void);
void log_set_level(int level);
/* Send logs to this file (appended) instead; returns 0 or ERR_SYSTEM. */
int log_to_file(const char *path);
/* Prefix every line (e.g. a process role); NULL clears. */
void log_set_prefix(const char *prefix);

/*
 * A sandboxed process cannot reach syslog or grow a log file: from
 * log_set_sink(fn, arg) on, every message that passes the level filter
 * goes to fn instead, unescaped (at most LOG_RECORD_MAX bytes), for it
 * to hand to the process that logs for it (fn is not re-entered: a
 * message logged inside fn is dropped). That process logs what it
 * receives with log_relay(), which trusts nothing: a level out of range
 * drops the message, the text is cut at its first NUL or at
 * LOG_RECORD_MAX bytes and escaped like any other line.
 */
#define LOG_RECORD_MAX	1024
void log_set_sink(void (*fn)(int level, const char *text, void *arg),
    void *arg);
void log_relay(int level, const unsigned char *text, size_t len);

/* Level from its name, case-insensitive ("DEBUG" means DEBUG1); -1 if bad. */
int log_level_from_name(const char *name);
const char *log_level_name(int level);
/* Syslog facility from its name ("AUTH", "LOCAL0"...); -1 if bad. */
int log_facility_from_name(const char *name);
const char *log_facility_name(int facility);

/*
 * Copy src into dst (dsize bytes, NUL-terminated) as a log line shows it:
 * printable ASCII and tab as they are, a backslash doubled, every other
 * byte as a backslash and three octal digits. Stops before an escape
 * that would not fit whole. Returns the length written.
 */
size_t log_escape(char *dst, size_t dsize, const char *src);

/*
 * LogVerbose: patterns ("FILE:FUNCTION:LINE" globs, comma-separated
 * lists, several separated by blanks; NULL or "none" clears) naming
 * log calls to print whatever the level. Such a line carries its place,
 * "debug1: kex.c:kex_send():120 (pid=N): text", and goes out at INFO if
 * its own level is filtered out. Returns 0 (the patterns are copied).
 * The place is only looked at when patterns are set.
 */
int log_set_verbose(const char *patterns);

/* Every log macro passes its place: the file's base name, function, line. */
#ifdef __FILE_NAME__
#define LOG_HERE	__FILE_NAME__, __func__, __LINE__
#else
#define LOG_HERE	__FILE__, __func__, __LINE__
#endif

void log_at(int level, const char *file, const char *func, int line,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void log_vat(int level, const char *file, const char *func, int line,
    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

#define log_msg(level, ...) log_at(level, LOG_HERE, __VA_ARGS__)
#define log_vmsg(level, fmt, ap) log_vat(level, LOG_HERE, fmt, ap)

#define log_fatal(...)   log_at(LOG_LEVEL_FATAL, LOG_HERE, __VA_ARGS__)
#define log_error(...)   log_at(LOG_LEVEL_ERROR, LOG_HERE, __VA_ARGS__)
#define log_info(...)    log_at(LOG_LEVEL_INFO, LOG_HERE, __VA_ARGS__)
#define log_verbose(...) log_at(LOG_LEVEL_VERBOSE, LOG_HERE, __VA_ARGS__)
#define log_debug(...)   log_at(LOG_LEVEL_DEBUG1, LOG_HERE, __VA_ARGS__)
#define log_debug2(...)  log_at(LOG_LEVEL_DEBUG2, LOG_HERE, __VA_ARGS__)
#define log_debug3(...)  log_at(LOG_LEVEL_DEBUG3, LOG_HERE, __VA_ARGS__)

#endif
