/*
 * scp_sink.c: the receiving end of the rcp protocol (scp -O from a
 * remote host, and the far end's -t).
 *
 * Records come from a peer that may be hostile. Each is parsed by
 * scp_parse_record(); a C or D record's name must pass scp_name_ok()
 * (at the top against the patterns of the request, at every level
 * against "/" and ".."), so nothing is ever written outside the target.
 * Failures to write a file are reported to the peer and the copy goes
 * on; a protocol error ends the program, as OpenSSH's does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "err.h"
#include "mem.h"
#include "scp.h"
#include "sftp_prog.h"

#define MAX_DEPTH	256

struct sink {
	struct scp *g;
	int rd, wr;
	char **pats;
	size_t npats;
	mode_t mask;
};

static void
__attribute__((noreturn))
screwup(struct sink *s, const char *why)
{
	legacy_run_err(s->g, s->wr, "protocol error: %s", why);
	exit(1);
}

static void
ack(struct sink *s)
{
	if (legacy_write_all(s->wr, "", 1) != 0)
		legacy_lost(s->g);
}

static void
set_times(struct sink *s, const char *path, const struct scp_rec *t)
{
	struct timeval tv[2];

	tv[0].tv_sec = (time_t)t->atime;
	tv[1].tv_sec = (time_t)t->mtime;
	tv[0].tv_usec = tv[1].tv_usec = 0;
	if (utimes(path, tv) == -1)
		legacy_run_err(s->g, s->wr, "%s: set times: %s", path,
		    strerror(errno));
}

/* size bytes of the peer's into fd (drained, not written, once a write
 * failed); the errno of that failure or 0. */
static int
receive_data(struct sink *s, int fd, const char *name, uint64_t size)
{
	static char buf[LEGACY_CHUNK];
	struct legacy_copy c;
	size_t want;
	int werr = 0;

	legacy_copy_start(&c, s->g, name, size);
	while ((want = legacy_copy_next(&c)) > 0) {
		if (legacy_read_full(s->rd, buf, want) != want)
			legacy_lost(s->g);
		if (werr == 0 && legacy_write_all(fd, buf, want) != 0)
			werr = errno;
		legacy_copy_done(&c, want);
	}
	return werr;
}

static void
sink_file(struct sink *s, const char *path, const struct scp_rec *rc,
    const struct scp_rec *times)
{
	struct stat st;
	mode_t mode = (mode_t)rc->mode;
	int fd, werr, exists = stat(path, &st) == 0;

	if (!s->g->preserve)
		mode &= ~s->mask;
	if ((fd = open(path, O_WRONLY | O_CREAT, mode)) == -1) {
		legacy_run_err(s->g, s->wr, "%s: %s", path, strerror(errno));
		return;
	}
	ack(s);
	werr = receive_data(s, fd, legacy_last_part(path), rc->size);
	if (werr == 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    ftruncate(fd, (off_t)rc->size) == -1)
		werr = errno;
	if (s->g->preserve || !exists)
		(void)fchmod(fd, mode);
	if (close(fd) == -1 && werr == 0)
		werr = errno;
	(void)legacy_response(s->g, s->rd);	/* the source's end mark */
	if (times != NULL)
		set_times(s, path, times);
	if (werr != 0)
		legacy_run_err(s->g, s->wr, "%s: %s", path, strerror(werr));
	else
		ack(s);
}

static void sink_loop(struct sink *s, const char *target, int depth);

static void
sink_dir(struct sink *s, const char *path, const struct scp_rec *rc,
    const struct scp_rec *times, int depth)
{
	struct stat st;
	mode_t mode = (mode_t)rc->mode;
	int made = 0;

	if (!s->g->recurse)
		screwup(s, "received directory without -r");
	if (depth >= MAX_DEPTH)
		screwup(s, "directory depth exceeded");
	if (!s->g->preserve)
		mode &= ~s->mask;
	if (stat(path, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			legacy_run_err(s->g, s->wr, "%s: %s", path,
			    strerror(ENOTDIR));
			return;
		}
		if (s->g->preserve)
			(void)chmod(path, mode);
	} else {
		if (mkdir(path, mode | S_IRWXU) == -1) {
			legacy_run_err(s->g, s->wr, "%s: %s", path,
			    strerror(errno));
			return;
		}
		made = 1;
	}
	ack(s);
	sink_loop(s, path, depth + 1);
	if (times != NULL)
		set_times(s, path, times);
	if (made)
		(void)chmod(path, mode);
}

/* Records into target (a directory, or at the top a file name) until
 * "E" or the end of input. */
static void
sink_loop(struct sink *s, const char *target, int depth)
{
	char line[SCP_LINE_MAX];
	struct scp_rec rc, times;
	struct stat st;
	const char *why;
	char *path;
	int r, have_times = 0, isdir;

	isdir = stat(target, &st) == 0 && S_ISDIR(st.st_mode);
	for (;;) {
		if ((r = legacy_read_line(s->rd, line, sizeof(line))) ==
		    ERR_CONN_CLOSED) {
			if (depth > 0)
				legacy_lost(s->g);
			return;
		}
		if (r != 0)
			screwup(s, "line too long");
		if (line[0] == '\001' || line[0] == '\002') {
			s->g->errs++;
			if (!s->g->remote)
				fprintf(stderr, "%s\n", line + 1);
			if (line[0] == '\002')
				exit(1);
			continue;
		}
		if (line[0] == '\0')
			screwup(s, "unexpected <newline>");
		if (scp_parse_record(line, &rc, &why) != 0)
			screwup(s, why);
		if (rc.type == 'E') {
			ack(s);
			return;
		}
		if (rc.type == 'T') {
			times = rc;
			have_times = 1;
			ack(s);
			continue;
		}
		r = scp_name_ok(rc.name, depth == 0 ? s->pats : NULL,
		    depth == 0 ? s->npats : 0, &why);
		if (r != 0 && strcmp(why, "unexpected filename") == 0) {
			legacy_run_err(s->g, s->wr,
			    "error: unexpected filename: %s", rc.name);
			exit(1);
		}
		if (r != 0)
			screwup(s, why);
		path = isdir ? x_asprintf("%s%s%s", target,
		    strcmp(target, "/") == 0 ? "" : "/", rc.name) :
		    x_strdup(target);
		if (rc.type == 'D')
			sink_dir(s, path, &rc, have_times ? &times : NULL,
			    depth);
		else
			sink_file(s, path, &rc, have_times ? &times : NULL);
		have_times = 0;
		x_free(path);
	}
}

int
legacy_sink(struct scp *g, int rd, int wr, const char *target,
    const char *request)
{
	struct sink s;
	struct stat st;

	memset(&s, 0, sizeof(s));
	s.g = g;
	s.rd = rd;
	s.wr = wr;
	s.mask = umask(0);
	(void)umask(s.mask);
	if (request != NULL && g->strict &&
	    scp_patterns(request, &s.pats, &s.npats) != 0) {
		fprintf(stderr, "could not expand pattern\n");
		g->errs++;
		return -1;
	}
	if (g->targetdir && (stat(target, &st) != 0 || !S_ISDIR(st.st_mode))) {
		legacy_run_err(g, wr, "%s: %s", target, strerror(ENOTDIR));
		exit(1);
	}
	ack(&s);
	sink_loop(&s, target, 0);
	scp_free_strv(s.pats, s.npats);
	return g->errs ? -1 : 0;
}
