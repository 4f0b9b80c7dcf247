/*
 * sftp_progress.c: the progress meter of an interactive transfer.
 *
 * One line, redrawn at most once a second and when the transfer ends:
 * the file name, the percentage, bytes so far, the rate and the time
 * left (or, at the end, the time taken), laid out as OpenSSH's meter
 * does. The callers draw it only on a terminal (not in sftp's batch
 * mode, nor with scp -q).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sftp_prog.h"

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const units[] = { "", "KB", "MB", "GB", "TB", "PB",
    "EB" };
#define NUNITS	(sizeof(units) / sizeof(units[0]))

/* An amount in four digits and a unit: "   1  ", "5000  ", "1953KB". */
static void
fmt_size(uint64_t v, char *out, size_t len)
{
	size_t u = 0;

	while (v >= 10000 && u + 1 < NUNITS) {
		v /= 1024;
		u++;
	}
	snprintf(out, len, "%4llu%-2s", (unsigned long long)v, units[u]);
}

/* A rate per second, from KB up, one decimal: "  0.0KB", " 26.7MB". */
static void
fmt_rate(double v, char *out, size_t len)
{
	size_t u = 1;

	v /= 1024;
	while (v >= 999.95 && u + 1 < NUNITS) {
		v /= 1024;
		u++;
	}
	snprintf(out, len, "%5.1f%s", v, units[u]);
}

/*
 * "name   42%  18MB  26.7MB/s   00:03 ETA": the name in what is left
 * of the line (one column short of its width, as OpenSSH's), the
 * figures in fixed columns; at the end the time taken.
 */
static void
draw(struct progress *p, int final)
{
	struct winsize ws;
	char cur[32], rate[32], eta[32];
	double t = now_s() - p->start, r;
	int width = 80, namew, pct;
	unsigned long left;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		width = ws.ws_col;
	r = t > 0 ? (double)(p->done - p->first) / t : 0;
	pct = p->size ? (int)(p->done * 100 / p->size) : 100;
	if (pct > 100)
		pct = 100;
	fmt_size(p->done, cur, sizeof(cur));
	fmt_rate(r, rate, sizeof(rate));
	if (final)
		left = (unsigned long)t;
	else if (r > 0 && p->size > p->done)
		left = (unsigned long)((double)(p->size - p->done) / r);
	else
		left = ULONG_MAX;
	if (left >= 100 * 3600UL)
		snprintf(eta, sizeof(eta), "--:-- ETA");
	else if (left >= 3600)
		snprintf(eta, sizeof(eta), "%lu:%02lu:%02lu%s", left / 3600,
		    left / 60 % 60, left % 60, final ? "" : " ETA");
	else
		snprintf(eta, sizeof(eta), "%02lu:%02lu %s", left / 60,
		    left % 60, final ? "   " : "ETA");
	namew = width - 35;
	if (namew < 1)
		namew = 1;
	printf("\r%-*.*s %3d%% %s %s/s   %s", namew, namew, p->name, pct, cur,
	    rate, eta);
	if (final)
		printf("\n");
	fflush(stdout);
}

void
progress_start(struct progress *p, const char *name, uint64_t size,
    uint64_t done)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->size = size;
	p->done = p->first = done;
	p->start = now_s();
	p->last = p->start;
	draw(p, 0);
}

void
progress_update(void *arg, uint64_t done)
{
	struct progress *p = arg;
	double t = now_s();

	if (done > p->done)
		p->done = done;
	if (t - p->last >= 1.0) {
		p->last = t;
		draw(p, 0);
	}
}

void
progress_end(struct progress *p)
{
	draw(p, 1);
}
