/*
 * sftp_client_xfer.c: pipelined file transfers for the SFTP client.
 *
 * Up to c->num_requests READ or WRITE requests of c->buflen bytes are
 * outstanding at once, each remembered in a slot (id, offset, length).
 * A reply must carry the id of an outstanding slot and be DATA or
 * STATUS (reads) or STATUS (writes); DATA may not be longer than was
 * asked for, and a short read is asked again for the rest. On the first
 * error no new request is sent, but the outstanding ones are still
 * collected, so the connection stays usable. The lowest offset that was
 * not written at the destination ("hole") tells the caller how far a
 * later resume may start.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp_client_int.h"

#define MAX_SLOTS	4096

struct slot {
	uint32_t id;
	uint64_t off;
	uint32_t len;
	int used;
};

struct xfer {
	struct sftp_conn *c;
	const struct sftp_handle *h;
	int fd;
	uint64_t start, next, hole, bytes;
	struct slot *slots;
	size_t nslots, busy;
	int err;		/* first error: <0 ERR_*, >0 status */
	int local_errno;	/* a local read/write failed */
	int eof;
	struct timespec t0;
};

static void
xfer_init(struct xfer *x, struct sftp_conn *c, const struct sftp_handle *h,
    int fd, uint64_t offset)
{
	memset(x, 0, sizeof(*x));
	x->c = c;
	x->h = h;
	x->fd = fd;
	x->start = x->next = offset;
	x->hole = UINT64_MAX;
	x->nslots = c->num_requests > MAX_SLOTS ? MAX_SLOTS :
	    c->num_requests ? c->num_requests : 1;
	x->slots = x_calloc(x->nslots, sizeof(*x->slots));
	clock_gettime(CLOCK_MONOTONIC, &x->t0);
}

static void
fail_at(struct xfer *x, uint64_t off, int err)
{
	if (off < x->hole)
		x->hole = off;
	if (x->err == 0)
		x->err = err;
}

static struct slot *
free_slot(struct xfer *x)
{
	size_t i;

	/* Interrupted: no new request; the outstanding ones drain. */
	if (x->c->cancel != NULL && *x->c->cancel && x->err == 0) {
		x->local_errno = EINTR;
		fail_at(x, x->next, ERR_SYSTEM);
		return NULL;
	}

	for (i = 0; i < x->nslots; i++)
		if (!x->slots[i].used)
			return &x->slots[i];
	return NULL;
}

static struct slot *
find_slot(struct xfer *x, uint32_t id)
{
	size_t i;

	for (i = 0; i < x->nslots; i++)
		if (x->slots[i].used && x->slots[i].id == id)
			return &x->slots[i];
	return NULL;
}

/* -l: sleep while more bits went out than the limit allows by now. */
static void
bw_limit(struct xfer *x, uint64_t n)
{
	struct timespec now, d;
	double want, spent;

	x->bytes += n;
	if (x->c->limit_kbps == 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	spent = (double)(now.tv_sec - x->t0.tv_sec) +
	    (double)(now.tv_nsec - x->t0.tv_nsec) / 1e9;
	want = (double)x->bytes * 8.0 / ((double)x->c->limit_kbps * 1024.0);
	if (want <= spent)
		return;
	want -= spent;
	d.tv_sec = (time_t)want;
	d.tv_nsec = (long)((want - (double)d.tv_sec) * 1e9);
	while (nanosleep(&d, &d) == -1 && errno == EINTR)
		;
}

static int
send_read(struct xfer *x, struct slot *s, uint64_t off, uint32_t len)
{
	struct sftp_conn *c = x->c;
	int r;

	if ((r = sc_begin(c, SSH2_FXP_READ, &s->id)) != 0 ||
	    (r = sc_put_handle(c, x->h)) != 0 ||
	    (r = sbuf_put_u64(c->req, off)) != 0 ||
	    (r = sbuf_put_u32(c->req, len)) != 0 || (r = sc_send(c)) != 0)
		return r;
	s->off = off;
	s->len = len;
	s->used = 1;
	x->busy++;
	return 0;
}

/* One reply to a READ: data written at its offset, or EOF, or error. */
static int
read_reply(struct xfer *x, sftp_progress_fn *progress, void *arg)
{
	struct sftp_conn *c = x->c;
	const unsigned char *p;
	struct slot *s;
	uint32_t id;
	uint8_t type;
	size_t len;
	ssize_t w;
	int r, st;

	if ((r = sc_reply(c, &type, &id)) != 0)
		return r;
	if ((s = find_slot(x, id)) == NULL) {
		log_error("Unexpected reply %u", id);
		return ERR_PROTOCOL;
	}
	s->used = 0;
	x->busy--;
	if (type == SSH2_FXP_STATUS) {
		if ((r = sc_parse_status(c, &st)) != 0)
			return r;
		if (st == SSH2_FX_OK)
			return ERR_PROTOCOL;
		if (st == SSH2_FX_EOF) {
			x->eof = 1;
			if (s->off < x->hole)
				x->hole = s->off;
		} else
			fail_at(x, s->off, st);
		return 0;
	}
	if (type != SSH2_FXP_DATA ||
	    sbuf_get_string_direct(c->pkt, &p, &len) != 0)
		return ERR_PROTOCOL;
	if (len > s->len || len == 0) {
		log_error("Received more data than asked for %zu > %u",
		    len, s->len);
		return ERR_PROTOCOL;
	}
	/* After an error the rest only drains: not written, not paced. */
	if (x->local_errno != 0)
		return 0;
	w = pwrite(x->fd, p, len, (off_t)s->off);
	if (w != (ssize_t)len) {
		x->local_errno = w == -1 ? errno : EIO;
		fail_at(x, s->off, ERR_SYSTEM);
		return 0;
	}
	bw_limit(x, len);
	if (progress != NULL)
		progress(arg, s->off + len);
	/* A short read: ask again for the rest (same slot). */
	if (len < s->len && x->err == 0 && !(x->eof && s->off + len >=
	    x->hole))
		return send_read(x, s, s->off + len, s->len - (uint32_t)len);
	return 0;
}

/* How far the destination holds every byte, from the start offset. */
static void
xfer_done(struct xfer *x, uint64_t *done)
{
	uint64_t end = x->hole < x->next ? x->hole : x->next;

	*done = end > x->start ? end - x->start : 0;
}

int
sftp_client_read_file(struct sftp_conn *c, const struct sftp_handle *h,
    int local_fd, uint64_t offset, uint64_t *done,
    sftp_progress_fn *progress, void *arg)
{
	struct xfer x;
	struct slot *s;
	int r = 0;

	xfer_init(&x, c, h, local_fd, offset);
	for (;;) {
		while (!x.eof && x.err == 0 && (s = free_slot(&x)) != NULL) {
			if (x.next > UINT64_MAX - c->buflen)
				break;
			if ((r = send_read(&x, s, x.next, c->buflen)) != 0)
				goto out;
			x.next += c->buflen;
		}
		if (x.busy == 0)
			break;
		if ((r = read_reply(&x, progress, arg)) != 0)
			goto out;
	}
	r = x.err;
	if (x.local_errno != 0)
		errno = x.local_errno;
out:
	xfer_done(&x, done);
	x_free(x.slots);
	return r;
}

/* The next chunk of the local file sent as a WRITE; 1 at end of file. */
static int
send_write(struct xfer *x, struct slot *s, unsigned char *buf, uint32_t max)
{
	struct sftp_conn *c = x->c;
	ssize_t n;
	int r;

	do
		n = pread(x->fd, buf, max, (off_t)x->next);
	while (n == -1 && errno == EINTR);
	if (n == -1) {
		x->local_errno = errno;
		fail_at(x, x->next, ERR_SYSTEM);
		return 0;
	}
	if (n == 0)
		return 1;
	if ((r = sc_begin(c, SSH2_FXP_WRITE, &s->id)) != 0 ||
	    (r = sc_put_handle(c, x->h)) != 0 ||
	    (r = sbuf_put_u64(c->req, x->next)) != 0 ||
	    (r = sbuf_put_string(c->req, buf, (size_t)n)) != 0 ||
	    (r = sc_send(c)) != 0)
		return r;
	s->off = x->next;
	s->len = (uint32_t)n;
	s->used = 1;
	x->busy++;
	x->next += (uint64_t)n;
	bw_limit(x, (uint64_t)n);
	return 0;
}

static int
write_reply(struct xfer *x, sftp_progress_fn *progress, void *arg)
{
	struct slot *s;
	uint32_t id;
	uint8_t type;
	int r, st;

	if ((r = sc_reply(x->c, &type, &id)) != 0)
		return r;
	if ((s = find_slot(x, id)) == NULL || type != SSH2_FXP_STATUS) {
		log_error("Unexpected reply %u (type %u)", id, type);
		return ERR_PROTOCOL;
	}
	s->used = 0;
	x->busy--;
	if ((r = sc_parse_status(x->c, &st)) != 0)
		return r;
	if (st != SSH2_FX_OK)
		fail_at(x, s->off, st);
	else if (progress != NULL)
		progress(arg, s->off + s->len);
	return 0;
}

int
sftp_client_write_file(struct sftp_conn *c, const struct sftp_handle *h,
    int local_fd, uint64_t offset, uint64_t *done,
    sftp_progress_fn *progress, void *arg)
{
	struct xfer x;
	struct slot *s;
	unsigned char *buf;
	uint32_t max = c->buflen;
	int r = 0, at_end = 0;

	if (c->lim_write != 0 && c->lim_write < max)
		max = (uint32_t)c->lim_write;
	buf = x_malloc(max);
	xfer_init(&x, c, h, local_fd, offset);
	for (;;) {
		while (!at_end && x.err == 0 && (s = free_slot(&x)) != NULL)
			if ((r = send_write(&x, s, buf, max)) < 0)
				goto out;
			else if (r == 1)
				at_end = 1;
		r = 0;
		if (x.busy == 0)
			break;
		if ((r = write_reply(&x, progress, arg)) != 0)
			goto out;
	}
	r = x.err;
	if (x.local_errno != 0)
		errno = x.local_errno;
out:
	xfer_done(&x, done);
	x_free(x.slots);
	x_free(buf);
	return r;
}
