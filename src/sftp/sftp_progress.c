/*
 * sftp_progress.c: the progress meter of an interactive transfer.
 *
 * One line, redrawn at most once a second and when the transfer ends:
 * the file name, the percentage, bytes so far, the rate and the time
 * left (or, at the end, the time taken), laid out as OpenSSH's meter
 * does. The callers draw it only on a terminal (not in sftp's batch
 * mode, nor with scp -q).
 */
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

/* Bytes with a unit: "512", "20KB", "1.5MB". */
static void
fmt_bytes(double v, char *out, size_t len)
{
	static const char *units[] = { "B", "KB", "MB", "GB", "TB", "PB" };
	size_t u = 0;

	while (v >= 1024 * 1000 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	if (v >= 1000 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(out, len, "%4.0f%s", v, units[u]);
	else
		snprintf(out, len, "%4.*f%s", v < 10 ? 1 : 0, v, units[u]);
}

static void
draw(struct progress *p, int final)
{
	struct winsize ws;
	char cur[16], rate[16], eta[16];
	double t = now_s() - p->start, r = t > 0 ? (double)p->done / t : 0;
	int width = 80, namew, pct;
	unsigned long left;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		width = ws.ws_col;
	pct = p->size ? (int)(p->done * 100 / p->size) : 100;
	if (pct > 100)
		pct = 100;
	fmt_bytes((double)p->done, cur, sizeof(cur));
	fmt_bytes(r, rate, sizeof(rate));
	if (final)
		left = (unsigned long)t;
	else if (r > 0 && p->size > p->done)
		left = (unsigned long)((double)(p->size - p->done) / r);
	else
		left = 0;
	if (left >= 100 * 3600)
		snprintf(eta, sizeof(eta), "--:-- ");
	else if (left >= 3600)
		snprintf(eta, sizeof(eta), "%02lu:%02lu:%02lu", left / 3600,
		    left / 60 % 60, left % 60);
	else
		snprintf(eta, sizeof(eta), "%02lu:%02lu %s", left / 60,
		    left % 60, final ? "   " : "ETA");
	namew = width - 36;
	if (namew < 1)
		namew = 1;
	printf("\r%-*.*s %3d%% %s %s/s %s", namew, namew, p->name, pct, cur,
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
	p->done = done;
	p->start = now_s();
	p->last = 0;
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
