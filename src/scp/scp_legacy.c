/*
 * scp_legacy.c: the old rcp protocol (scp -O, and the far end's -t/-f).
 *
 * The sink starts with a 0 byte; the source then sends, per file, an
 * optional "T mtime 0 atime 0" record, a "C mode size name" record, the
 * bytes and a 0 byte; a directory is "D mode 0 name", its entries, and
 * "E". Every record is answered: 0, or 1 (an error, the message follows
 * on one line) or 2 (a fatal one). The sink writes only inside its
 * target: the names it is sent pass scp_name_ok() (scp_line.c) before
 * anything is created, and a name that breaks the rules ends the copy
 * with OpenSSH's messages.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "err.h"
#include "mem.h"
#include "scp.h"
#include "sftp_prog.h"

#define MAX_DEPTH	256

int
legacy_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, c, n)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Up to n bytes; fewer only at end of input or on an error. */
size_t
legacy_read_full(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if ((r = read(fd, c + got, n - got)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* One line without its '\n'; ERR_CONN_CLOSED at the end of input,
 * ERR_INVALID_FORMAT when it does not fit. */
int
legacy_read_line(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	char ch;

	for (;;) {
		if (legacy_read_full(fd, &ch, 1) != 1)
			return ERR_CONN_CLOSED;
		if (ch == '\n')
			break;
		if (n + 1 >= cap)
			return ERR_INVALID_FORMAT;
		buf[n++] = ch;
	}
	buf[n] = '\0';
	return 0;
}

/* An error: to the peer as a 1 record, here on stderr (not as the far
 * end, whose stderr the user sees through ssh anyway). */
void
legacy_run_err(struct scp *g, int wr, const char *fmt, ...)
{
	va_list ap;
	char *m;

	g->errs++;
	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) == -1)
		m = NULL;
	va_end(ap);
	if (m == NULL)
		return;
	if (wr != -1) {
		char *rec = x_asprintf("\001scp: %s\n", m);

		(void)legacy_write_all(wr, rec, strlen(rec));
		x_free(rec);
	}
	if (!g->remote)
		fprintf(stderr, "%s\n", m);
	free(m);
}

void
legacy_lost(const struct scp *g)
{
	if (!g->remote)
		fprintf(stderr, "lost connection\n");
	exit(1);
}

/* The peer's answer: 0, or -1 after an error it reported. */
int
legacy_response(struct scp *g, int rd)
{
	char ch, buf[SCP_LINE_MAX];
	int r;

	if (legacy_read_full(rd, &ch, 1) != 1)
		legacy_lost(g);
	if (ch == 0)
		return 0;
	r = legacy_read_line(rd, buf, sizeof(buf));
	if (r == ERR_CONN_CLOSED)
		legacy_lost(g);
	if (ch != 1 && ch != 2) {
		/* Not an answer: show what came, as text. */
		fprintf(stderr, "%c%s\n", ch, r == 0 ? buf : "");
		g->errs++;
		return -1;
	}
	if (!g->remote)
		fprintf(stderr, "%s\n", r == 0 ? buf : "(message too long)");
	g->errs++;
	if (ch == 2)
		exit(1);
	return -1;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
bwlimit_init(struct bwlimit *b, uint64_t kbps)
{
	b->kbps = kbps;
	b->bytes = 0;
	b->start = now_s();
}

/* Sleep until n more bytes are within the rate (Kbit/s). */
void
bwlimit_account(struct bwlimit *b, size_t n)
{
	double due, t;

	if (b->kbps == 0)
		return;
	b->bytes += n;
	due = b->start + (double)b->bytes * 8.0 / ((double)b->kbps * 1024.0);
	t = now_s();
	if (due > t) {
		struct timespec ts;
		double d = due - t;

		ts.tv_sec = (time_t)d;
		ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
			;
	}
}

void
legacy_copy_start(struct legacy_copy *c, const struct scp *g,
    const char *name, uint64_t size)
{
	c->size = size;
	c->done = 0;
	c->meter = !g->quiet && !g->remote && isatty(STDOUT_FILENO);
	if (c->meter)
		progress_start(&c->pm, name, size, 0);
	bwlimit_init(&c->bw, g->limit_kbps);
}

size_t
legacy_copy_next(struct legacy_copy *c)
{
	uint64_t left = c->size - c->done;

	if (left == 0 && c->meter) {
		progress_end(&c->pm);
		c->meter = 0;
	}
	return left < LEGACY_CHUNK ? (size_t)left : LEGACY_CHUNK;
}

void
legacy_copy_done(struct legacy_copy *c, size_t n)
{
	c->done += n;
	bwlimit_account(&c->bw, n);
	if (c->meter)
		progress_update(&c->pm, c->done);
}

const char *
legacy_last_part(const char *p)
{
	const char *s = strrchr(p, '/');

	return s != NULL && s[1] != '\0' ? s + 1 : p;
}

static void send_one(struct scp *g, int rd, int wr, const char *name,
    int depth);

static int
send_times(struct scp *g, int rd, int wr, const struct stat *st)
{
	char *t = x_asprintf("T%lld 0 %lld 0\n", (long long)st->st_mtime,
	    (long long)st->st_atime);
	int r = legacy_write_all(wr, t, strlen(t));

	x_free(t);
	if (r != 0)
		legacy_lost(g);
	return legacy_response(g, rd);
}

static void
send_dir(struct scp *g, int rd, int wr, const char *name,
    const struct stat *st, int depth)
{
	DIR *d;
	struct dirent *e;
	char *rec, *path;

	if (depth > MAX_DEPTH) {
		legacy_run_err(g, wr, "%s: Maximum directory depth exceeded",
		    name);
		return;
	}
	if ((d = opendir(name)) == NULL) {
		legacy_run_err(g, wr, "%s: %s", name, strerror(errno));
		return;
	}
	if (g->preserve && send_times(g, rd, wr, st) != 0) {
		closedir(d);
		return;
	}
	rec = x_asprintf("D%04o 0 %.1024s\n",
	    (unsigned)(st->st_mode & 06777), legacy_last_part(name));
	if (legacy_write_all(wr, rec, strlen(rec)) != 0)
		legacy_lost(g);
	x_free(rec);
	if (legacy_response(g, rd) != 0) {
		closedir(d);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (strlen(name) + strlen(e->d_name) + 2 > 4096) {
			legacy_run_err(g, wr, "%s/%s: name too long", name,
			    e->d_name);
			continue;
		}
		path = x_asprintf("%s/%s", name, e->d_name);
		send_one(g, rd, wr, path, depth + 1);
		x_free(path);
	}
	closedir(d);
	if (legacy_write_all(wr, "E\n", 2) != 0)
		legacy_lost(g);
	(void)legacy_response(g, rd);
}

/* The bytes of one open file, exactly size of them (zeros after a
 * read error, which is reported when they are through). */
static int
send_data(struct scp *g, int wr, int fd, const char *name, uint64_t size)
{
	static char buf[LEGACY_CHUNK];
	struct legacy_copy c;
	size_t want;
	int rerr = 0;
	ssize_t n;

	legacy_copy_start(&c, g, legacy_last_part(name), size);
	while ((want = legacy_copy_next(&c)) > 0) {
		n = 0;
		if (rerr == 0) {
			n = (ssize_t)legacy_read_full(fd, buf, want);
			if ((size_t)n < want)
				rerr = errno != 0 ? errno : EIO;
		}
		if ((size_t)n < want)
			memset(buf + n, 0, want - (size_t)n);
		if (legacy_write_all(wr, buf, want) != 0)
			legacy_lost(g);
		legacy_copy_done(&c, want);
	}
	return rerr;
}

static void
send_one(struct scp *g, int rd, int wr, const char *name, int depth)
{
	struct stat st;
	char *rec, *n = x_strdup(name);
	size_t l = strlen(n);
	int fd, rerr;

	while (l > 1 && n[l - 1] == '/')
		n[--l] = '\0';
	if ((fd = open(n, O_RDONLY | O_NONBLOCK)) == -1 ||
	    fstat(fd, &st) == -1) {
		legacy_run_err(g, wr, "%s: %s", n, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode) && g->recurse) {
		close(fd);
		fd = -1;
		send_dir(g, rd, wr, n, &st, depth);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		legacy_run_err(g, wr, "%s: not a regular file", n);
		goto out;
	}
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (g->preserve && send_times(g, rd, wr, &st) != 0)
		goto out;
	rec = x_asprintf("C%04o %lld %s\n", (unsigned)(st.st_mode & 06777),
	    (long long)st.st_size, legacy_last_part(n));
	if (legacy_write_all(wr, rec, strlen(rec)) != 0)
		legacy_lost(g);
	x_free(rec);
	if (legacy_response(g, rd) != 0)
		goto out;
	errno = 0;
	rerr = send_data(g, wr, fd, n, (uint64_t)st.st_size);
	if (rerr == 0) {
		if (legacy_write_all(wr, "", 1) != 0)
			legacy_lost(g);
	} else
		legacy_run_err(g, wr, "%s: %s", n, strerror(rerr));
	(void)legacy_response(g, rd);
out:
	if (fd != -1)
		close(fd);
	x_free(n);
}

int
legacy_source(struct scp *g, int rd, int wr, char **files, size_t n)
{
	size_t i;

	if (legacy_response(g, rd) != 0)
		return -1;
	for (i = 0; i < n; i++)
		send_one(g, rd, wr, files[i], 0);
	return g->errs ? -1 : 0;
}
