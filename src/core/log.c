/*
 * log.c: the log sink; see log.h.
 *
 * A line is formatted once into a fixed buffer, then every byte that is
 * not printable ASCII (or a tab) is written as a \ooo octal escape and a
 * backslash as two, as OpenSSH writes its logs: peer-supplied strings end
 * up in logs, and must neither end a line early nor forge one. It is
 * written with a single write(2) so lines from several processes do not
 * interleave.
 *
 * Every call carries its place (file, function, line), looked at only
 * when LogVerbose patterns are set: a level filter that passes nothing
 * costs one comparison, as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"

static struct {
	char ident[64];
	char prefix[64];
	int level;
	int facility;
	int to_stderr;
	int fd;			/* log file, or -1 */
	int syslog_open;
	void (*sink)(int, const char *, void *);	/* log_set_sink() */
	void *sink_arg;
	int in_sink;
	char *verbose;		/* LogVerbose patterns, or NULL */
} L = { "moat", "", LOG_LEVEL_INFO, LOG_AUTH, 1, -1, 0, NULL, NULL, 0,
    NULL };

static const char *level_names[] = {
	"QUIET", "FATAL", "ERROR", "INFO", "VERBOSE", "DEBUG1", "DEBUG2",
	"DEBUG3"
};

static const struct {
	const char *name;
	int value;
} facilities[] = {
	{ "DAEMON", LOG_DAEMON }, { "USER", LOG_USER }, { "AUTH", LOG_AUTH },
	{ "AUTHPRIV", LOG_AUTHPRIV }, { "LOCAL0", LOG_LOCAL0 },
	{ "LOCAL1", LOG_LOCAL1 }, { "LOCAL2", LOG_LOCAL2 },
	{ "LOCAL3", LOG_LOCAL3 }, { "LOCAL4", LOG_LOCAL4 },
	{ "LOCAL5", LOG_LOCAL5 }, { "LOCAL6", LOG_LOCAL6 },
	{ "LOCAL7", LOG_LOCAL7 },
};

void
log_init(const char *progname, int level, int facility, int to_stderr)
{
	const char *slash = progname ? strrchr(progname, '/') : NULL;

	snprintf(L.ident, sizeof(L.ident), "%s",
	    slash ? slash + 1 : (progname ? progname : "moat"));
	L.level = level;
	L.facility = facility;
	L.to_stderr = to_stderr;
	if (L.syslog_open) {
		closelog();
		L.syslog_open = 0;
	}
	/*
	 * Set the ident and LOG_PID now (no socket is opened yet): PAM
	 * modules log through syslog(3) too, and a line of theirs before
	 * our first would otherwise carry no PID, unlike OpenSSH's.
	 */
	if (!to_stderr) {
		openlog(L.ident, LOG_PID, L.facility);
		L.syslog_open = 1;
	}
}

int
log_level(void)
{
	return L.level;
}

void
log_set_level(int level)
{
	L.level = level;
}

int
log_to_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

	if (fd == -1)
		return ERR_SYSTEM;
	if (L.fd != -1)
		close(L.fd);
	L.fd = fd;
	return 0;
}

void
log_set_sink(void (*fn)(int level, const char *text, void *arg), void *arg)
{
	L.sink = fn;
	L.sink_arg = arg;
}

void
log_relay(int level, const unsigned char *text, size_t len)
{
	char buf[LOG_RECORD_MAX + 1];

	if (level < LOG_LEVEL_FATAL || level > LOG_LEVEL_DEBUG3)
		return;
	if (len > LOG_RECORD_MAX)
		len = LOG_RECORD_MAX;
	memcpy(buf, text, len);
	buf[len] = '\0';
	log_msg(level, "%s", buf);
}

void
log_set_prefix(const char *prefix)
{
	snprintf(L.prefix, sizeof(L.prefix), "%s", prefix ? prefix : "");
}

int
log_level_from_name(const char *name)
{
	size_t i;

	if (strcasecmp(name, "DEBUG") == 0)
		return LOG_LEVEL_DEBUG1;
	for (i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
		if (strcasecmp(name, level_names[i]) == 0)
			return (int)i;
	return -1;
}

const char *
log_level_name(int level)
{
	if (level < 0 || level > LOG_LEVEL_DEBUG3)
		return "UNKNOWN";
	return level_names[level];
}

int
log_facility_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(facilities) / sizeof(facilities[0]); i++)
		if (strcasecmp(name, facilities[i].name) == 0)
			return facilities[i].value;
	return -1;
}

const char *
log_facility_name(int facility)
{
	size_t i;

	for (i = 0; i < sizeof(facilities) / sizeof(facilities[0]); i++)
		if (facilities[i].value == facility)
			return facilities[i].name;
	return "UNKNOWN";
}

static int
syslog_priority(int level)
{
	switch (level) {
	case LOG_LEVEL_FATAL: return LOG_CRIT;
	case LOG_LEVEL_ERROR: return LOG_ERR;
	case LOG_LEVEL_INFO:
	case LOG_LEVEL_VERBOSE: return LOG_INFO;
	default: return LOG_DEBUG;
	}
}

size_t
log_escape(char *dst, size_t dsize, const char *src)
{
	size_t o = 0;
	const unsigned char *p;

	if (dsize == 0)
		return 0;
	for (p = (const unsigned char *)src; *p != '\0'; p++) {
		char esc[5];
		size_t n;

		if (*p == '\\') {
			esc[0] = esc[1] = '\\';
			n = 2;
		} else if ((*p >= 0x20 && *p < 0x7f) || *p == '\t') {
			esc[0] = (char)*p;
			n = 1;
		} else {
			esc[0] = '\\';
			esc[1] = (char)('0' + ((*p >> 6) & 7));
			esc[2] = (char)('0' + ((*p >> 3) & 7));
			esc[3] = (char)('0' + (*p & 7));
			n = 4;
		}
		if (o + n >= dsize)
			break;		/* never half an escape */
		memcpy(dst + o, esc, n);
		o += n;
	}
	dst[o] = '\0';
	return o;
}

int
log_set_verbose(const char *patterns)
{
	x_free(L.verbose);
	L.verbose = NULL;
	if (patterns != NULL && *patterns != '\0' &&
	    strcmp(patterns, "none") != 0)
		L.verbose = x_strdup(patterns);
	return 0;
}

/* 1 if "FILE:FUNC:LINE" matches one of the LogVerbose pattern lists. */
static int
verbose_match(const char *file, const char *func, int line)
{
	char place[256], word[256];
	const char *p = L.verbose, *slash;
	size_t n;

	if ((slash = strrchr(file, '/')) != NULL)
		file = slash + 1;
	snprintf(place, sizeof(place), "%s:%s:%d", file, func, line);
	while (*p != '\0') {
		n = strcspn(p, " \t");
		if (n > 0 && n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			if (match_pattern_list(place, word, 0) == 1)
				return 1;
		}
		p += n;
		p += strspn(p, " \t");
	}
	return 0;
}

/* One formatted line (raw, unescaped) out to the sink, a file or syslog. */
static void
emit(int level, const char *raw)
{
	char msg[2048], line[2200];
	int n;

	if (L.sink != NULL) {
		if (!L.in_sink) {
			L.in_sink = 1;
			L.sink(level, raw, L.sink_arg);
			L.in_sink = 0;
		}
		return;
	}
	(void)log_escape(msg, sizeof(msg), raw);
	if (L.fd != -1 || L.to_stderr) {
		const char *tag = level >= LOG_LEVEL_DEBUG1 ?
		    (level == LOG_LEVEL_DEBUG1 ? "debug1: " :
		    level == LOG_LEVEL_DEBUG2 ? "debug2: " : "debug3: ") : "";

		n = snprintf(line, sizeof(line), "%s%s%s\r\n", L.prefix, tag,
		    msg);
		if (n < 0)
			return;
		if ((size_t)n >= sizeof(line))
			n = sizeof(line) - 1;
		/* \r only matters on a raw tty; drop it otherwise. */
		if (L.fd != -1 || !isatty(STDERR_FILENO)) {
			line[n - 2] = '\n';
			n--;
		}
		if (write(L.fd != -1 ? L.fd : STDERR_FILENO, line, (size_t)n) < 0) {
			/* nowhere left to report it */
		}
	} else {
		/* OpenSSH tags these levels in syslog only, not on stderr. */
		const char *tag = level == LOG_LEVEL_FATAL ? "fatal: " :
		    level == LOG_LEVEL_ERROR ? "error: " :
		    level == LOG_LEVEL_DEBUG1 ? "debug1: " :
		    level == LOG_LEVEL_DEBUG2 ? "debug2: " :
		    level == LOG_LEVEL_DEBUG3 ? "debug3: " : "";

		if (!L.syslog_open) {
			openlog(L.ident, LOG_PID, L.facility);
			L.syslog_open = 1;
		}
		syslog(syslog_priority(level), "%s%s%s", L.prefix, tag, msg);
	}
}

void
log_vat(int level, const char *file, const char *func, int line,
    const char *fmt, va_list ap)
{
	char raw[LOG_RECORD_MAX], text[LOG_RECORD_MAX];
	int saved_errno = errno, forced = 0;

	if (L.level == LOG_LEVEL_QUIET)
		return;
	if (L.verbose != NULL)
		forced = verbose_match(file, func, line);
	if (level > L.level && !forced)
		return;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	if (forced) {
		/*
		 * A line LogVerbose names says where it comes from; one the
		 * level would have dropped goes out at INFO, keeping its
		 * own level's tag in the text.
		 */
		const char *tag = "";

		if (level > L.level) {
			tag = level == LOG_LEVEL_DEBUG1 ? "debug1: " :
			    level == LOG_LEVEL_DEBUG2 ? "debug2: " :
			    level == LOG_LEVEL_DEBUG3 ? "debug3: " : "";
			level = LOG_LEVEL_INFO;
		}
		/* (cut at the record size, as any other line) */
		if (snprintf(text, sizeof(text), "%s%s:%s():%d (pid=%ld): %s",
		    tag, file, func, line, (long)getpid(), raw) >= 0)
			emit(level, text);
	} else
		emit(level, raw);
	errno = saved_errno;
}

void
log_at(int level, const char *file, const char *func, int line,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vat(level, file, func, line, fmt, ap);
	va_end(ap);
}
