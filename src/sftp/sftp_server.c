/*
 * sftp_server.c: the SFTP server's loop, request table, handles, replies.
 *
 * The loop polls the input for requests while the output queue is short
 * and the output for writability while it holds replies, so a client that
 * writes many requests before reading any still makes progress. Each
 * complete request is parsed from a read-only view of the input buffer
 * (no copy) and dispatched through one table row per request: its name
 * (for -p/-P and the logs), its packet type or extension name, the
 * extension version advertised in VERSION, whether it writes (refused
 * under -R), and its handler. A handle on the wire is a 4-byte index into
 * a table whose size is bounded by the descriptors the process may open.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "sbuf.h"
#include "sftp_server_int.h"

#define HANDLES_CAP	65536		/* whatever the descriptor limit */
#define OUT_HIGH	(4 * SFTP_MAX_MSG_LENGTH) /* stop reading above */
#define READ_CHUNK	(64 * 1024)

struct sftp_request {
	const char *name;	/* as -p/-P/-Q name it */
	uint8_t type;		/* packet type, or SSH2_FXP_EXTENDED */
	const char *ext;	/* extension name, or NULL */
	const char *ext_version; /* advertised in VERSION, or NULL */
	int does_write;
	sftp_handler *fn;
};

static const struct sftp_request requests[] = {
	{ "open", SSH2_FXP_OPEN, NULL, NULL, 0, sftp_req_open },
	{ "close", SSH2_FXP_CLOSE, NULL, NULL, 0, sftp_req_close },
	{ "read", SSH2_FXP_READ, NULL, NULL, 0, sftp_req_read },
	{ "write", SSH2_FXP_WRITE, NULL, NULL, 1, sftp_req_write },
	{ "lstat", SSH2_FXP_LSTAT, NULL, NULL, 0, sftp_req_lstat },
	{ "fstat", SSH2_FXP_FSTAT, NULL, NULL, 0, sftp_req_fstat },
	{ "setstat", SSH2_FXP_SETSTAT, NULL, NULL, 1, sftp_req_setstat },
	{ "fsetstat", SSH2_FXP_FSETSTAT, NULL, NULL, 1, sftp_req_fsetstat },
	{ "opendir", SSH2_FXP_OPENDIR, NULL, NULL, 0, sftp_req_opendir },
	{ "readdir", SSH2_FXP_READDIR, NULL, NULL, 0, sftp_req_readdir },
	{ "remove", SSH2_FXP_REMOVE, NULL, NULL, 1, sftp_req_remove },
	{ "mkdir", SSH2_FXP_MKDIR, NULL, NULL, 1, sftp_req_mkdir },
	{ "rmdir", SSH2_FXP_RMDIR, NULL, NULL, 1, sftp_req_rmdir },
	{ "realpath", SSH2_FXP_REALPATH, NULL, NULL, 0, sftp_req_realpath },
	{ "stat", SSH2_FXP_STAT, NULL, NULL, 0, sftp_req_stat },
	{ "rename", SSH2_FXP_RENAME, NULL, NULL, 1, sftp_req_rename },
	{ "readlink", SSH2_FXP_READLINK, NULL, NULL, 0, sftp_req_readlink },
	{ "symlink", SSH2_FXP_SYMLINK, NULL, NULL, 1, sftp_req_symlink },
	{ "posix-rename", SSH2_FXP_EXTENDED, "posix-rename@openssh.com", "1",
	    1, sftp_ext_posix_rename },
	{ "statvfs", SSH2_FXP_EXTENDED, "statvfs@openssh.com", "2",
	    0, sftp_ext_statvfs },
	{ "fstatvfs", SSH2_FXP_EXTENDED, "fstatvfs@openssh.com", "2",
	    0, sftp_ext_fstatvfs },
	{ "hardlink", SSH2_FXP_EXTENDED, "hardlink@openssh.com", "1",
	    1, sftp_ext_hardlink },
	{ "fsync", SSH2_FXP_EXTENDED, "fsync@openssh.com", "1",
	    1, sftp_ext_fsync },
	{ "lsetstat", SSH2_FXP_EXTENDED, "lsetstat@openssh.com", "1",
	    1, sftp_ext_lsetstat },
	{ "limits", SSH2_FXP_EXTENDED, "limits@openssh.com", "1",
	    0, sftp_ext_limits },
	{ "expand-path", SSH2_FXP_EXTENDED, "expand-path@openssh.com", "1",
	    0, sftp_ext_expand_path },
	{ "copy-data", SSH2_FXP_EXTENDED, "copy-data", "1",
	    1, sftp_ext_copy_data },
	{ "home-directory", SSH2_FXP_EXTENDED, "home-directory", "1",
	    0, sftp_ext_home_directory },
	{ "users-groups-by-id", SSH2_FXP_EXTENDED,
	    "users-groups-by-id@openssh.com", "1", 0, sftp_ext_users_groups },
};
#define NREQUESTS (sizeof(requests) / sizeof(requests[0]))

const char *
sftp_server_request_name(size_t i)
{
	return i < NREQUESTS ? requests[i].name : NULL;
}

int
sftp_server_new(const struct sftp_server_opts *o, int in_fd, int out_fd,
    struct sftp_server **sp)
{
	struct sftp_server *s;
	struct rlimit rl;

	*sp = NULL;
	if (o->user == NULL || o->home == NULL)
		return ERR_INVALID_ARGUMENT;
	s = x_calloc(1, sizeof(*s));
	s->in_fd = in_fd;
	s->out_fd = out_fd;
	s->in = sbuf_new();
	s->out = sbuf_new();
	s->reply = sbuf_new();
	s->readonly = o->readonly;
	s->user = x_strdup(o->user);
	s->home = x_strdup(o->home);
	s->client_addr = x_strdup(o->client_addr ? o->client_addr : "UNKNOWN");
	s->allowed = o->allowed ? x_strdup(o->allowed) : NULL;
	s->denied = o->denied ? x_strdup(o->denied) : NULL;
	s->max_handles = 100;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 5)
		s->max_handles = rl.rlim_cur - 5 > HANDLES_CAP ?
		    HANDLES_CAP : (size_t)(rl.rlim_cur - 5);
	*sp = s;
	return 0;
}

void
sftp_server_free(struct sftp_server *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nhandles; i++)
		sftp_handle_close(s, (int)i);
	x_free(s->handles);
	sbuf_free(s->in);
	sbuf_free(s->out);
	sbuf_free(s->reply);
	x_free(s->user);
	x_free(s->home);
	x_free(s->client_addr);
	x_free(s->allowed);
	x_free(s->denied);
	x_free(s);
}

/* Replies: built in s->reply, then queued as one length-prefixed packet. */

struct sbuf *
sftp_reply_begin(struct sftp_server *s, uint8_t type, uint32_t id)
{
	sbuf_reset(s->reply);
	(void)sbuf_put_u8(s->reply, type);
	if (type != SSH2_FXP_VERSION)
		(void)sbuf_put_u32(s->reply, id);
	return s->reply;
}

void
sftp_reply_end(struct sftp_server *s)
{
	if (sbuf_put_stringb(s->out, s->reply) != 0)
		log_error("sftp: reply of %zu bytes dropped",
		    sbuf_len(s->reply));
	sbuf_reset(s->reply);
}

void
sftp_send_status(struct sftp_server *s, uint32_t id, uint32_t status)
{
	struct sbuf *b;

	log_debug3("request %u: sent status %u", id, status);
	if (log_level() > LOG_LEVEL_VERBOSE ||
	    (status != SSH2_FX_OK && status != SSH2_FX_EOF))
		log_info("sent status %s", sftp_status_message(status));
	b = sftp_reply_begin(s, SSH2_FXP_STATUS, id);
	(void)sbuf_put_u32(b, status);
	(void)sbuf_put_cstring(b, sftp_status_message(status));
	(void)sbuf_put_cstring(b, "");
	sftp_reply_end(s);
}

void
sftp_send_errno(struct sftp_server *s, uint32_t id, int errnum)
{
	sftp_send_status(s, id, sftp_errno_to_status(errnum));
}

void
sftp_send_handle(struct sftp_server *s, uint32_t id, int h)
{
	struct sbuf *b;

	log_debug("request %u: sent handle handle %d", id, h);
	b = sftp_reply_begin(s, SSH2_FXP_HANDLE, id);
	(void)sbuf_put_u32(b, 4);
	(void)sbuf_put_u32(b, (uint32_t)h);
	sftp_reply_end(s);
}

void
sftp_send_data(struct sftp_server *s, uint32_t id, const void *data,
    size_t len)
{
	struct sbuf *b;

	log_debug("request %u: sent data len %zu", id, len);
	b = sftp_reply_begin(s, SSH2_FXP_DATA, id);
	(void)sbuf_put_string(b, data, len);
	sftp_reply_end(s);
}

void
sftp_send_attrs(struct sftp_server *s, uint32_t id, const struct sftp_attrs *a)
{
	struct sbuf *b;

	log_debug("request %u: sent attrib have 0x%x", id, a->flags);
	b = sftp_reply_begin(s, SSH2_FXP_ATTRS, id);
	(void)sftp_attrs_encode(b, a);
	sftp_reply_end(s);
}

void
sftp_send_name1(struct sftp_server *s, uint32_t id, const char *name)
{
	struct sftp_attrs a;
	struct sbuf *b;

	log_debug("request %u: sent names count 1", id);
	sftp_attrs_clear(&a);
	b = sftp_reply_begin(s, SSH2_FXP_NAME, id);
	(void)sbuf_put_u32(b, 1);
	(void)sbuf_put_cstring(b, name);
	(void)sbuf_put_cstring(b, name);
	(void)sftp_attrs_encode(b, &a);
	sftp_reply_end(s);
}

/* Handles. */

int
sftp_handle_new(struct sftp_server *s, int use, const char *name, int fd,
    DIR *dir, int flags)
{
	struct sftp_handle *h;
	size_t i, n;

	for (i = 0; i < s->nhandles; i++)
		if (s->handles[i].use == HANDLE_UNUSED)
			break;
	if (i == s->nhandles) {
		if (s->nhandles >= s->max_handles)
			return -1;
		n = s->nhandles ? s->nhandles * 2 : 16;
		if (n > s->max_handles)
			n = s->max_handles;
		s->handles = x_reallocarray(s->handles, n, sizeof(*h));
		memset(s->handles + s->nhandles, 0,
		    (n - s->nhandles) * sizeof(*h));
		s->nhandles = n;
	}
	h = &s->handles[i];
	h->use = use;
	h->fd = fd;
	h->dir = dir;
	h->name = x_strdup(name);
	h->flags = flags;
	h->bytes_read = h->bytes_written = 0;
	return (int)i;
}

int
sftp_get_handle(struct sbuf *req, int *hp)
{
	const unsigned char *p;
	size_t len;
	int r;

	*hp = -1;
	if ((r = sbuf_get_string_direct(req, &p, &len)) != 0)
		return r;
	if (len == 4) {
		uint32_t v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | p[3];
		if (v <= HANDLES_CAP)
			*hp = (int)v;
	}
	return 0;
}

struct sftp_handle *
sftp_handle_get(struct sftp_server *s, int h, int use)
{
	if (h < 0 || (size_t)h >= s->nhandles || s->handles[h].use != use)
		return NULL;
	return &s->handles[h];
}

void
sftp_handle_close(struct sftp_server *s, int h)
{
	struct sftp_handle *hp;

	if (h < 0 || (size_t)h >= s->nhandles)
		return;
	hp = &s->handles[h];
	if (hp->use == HANDLE_FILE) {
		log_info("close \"%s\" bytes read %llu written %llu", hp->name,
		    (unsigned long long)hp->bytes_read,
		    (unsigned long long)hp->bytes_written);
		close(hp->fd);
	} else if (hp->use == HANDLE_DIR) {
		log_info("closedir \"%s\"", hp->name);
		closedir(hp->dir);
	}
	x_free(hp->name);
	memset(hp, 0, sizeof(*hp));
}

int
sftp_get_path(struct sbuf *req, char **pathp)
{
	return sbuf_get_cstring(req, pathp, NULL);
}

/* Dispatch. */

static int
permitted(const struct sftp_server *s, const struct sftp_request *rq)
{
	if (s->readonly && rq->does_write) {
		log_verbose("Refusing %s request in read-only mode", rq->name);
		return 0;
	}
	if (s->denied != NULL && match_list_contains(s->denied, rq->name)) {
		log_verbose("Refusing denied %s request", rq->name);
		return 0;
	}
	if (s->allowed != NULL && !match_list_contains(s->allowed, rq->name)) {
		log_verbose("Refusing disallowed %s request", rq->name);
		return 0;
	}
	return 1;
}

static void
send_version(struct sftp_server *s)
{
	struct sbuf *b;
	size_t i;

	b = sftp_reply_begin(s, SSH2_FXP_VERSION, 0);
	(void)sbuf_put_u32(b, SFTP_PROTO_VERSION);
	for (i = 0; i < NREQUESTS; i++) {
		if (requests[i].ext_version == NULL)
			continue;
		(void)sbuf_put_cstring(b, requests[i].ext);
		(void)sbuf_put_cstring(b, requests[i].ext_version);
	}
	sftp_reply_end(s);
}

static const struct sftp_request *
find_request(uint8_t type, const unsigned char *ext, size_t extlen)
{
	size_t i;

	for (i = 0; i < NREQUESTS; i++) {
		if (requests[i].type != type)
			continue;
		if (type != SSH2_FXP_EXTENDED ||
		    (strlen(requests[i].ext) == extlen &&
		    memcmp(requests[i].ext, ext, extlen) == 0))
			return &requests[i];
	}
	return NULL;
}

/* One request from its bytes (after the length); ERR_PROTOCOL ends all. */
static int
process(struct sftp_server *s, struct sbuf *req)
{
	const struct sftp_request *rq;
	const unsigned char *ext = NULL;
	size_t extlen = 0;
	uint32_t id, version;
	uint8_t type;
	int r;

	if ((r = sbuf_get_u8(req, &type)) != 0)
		return ERR_PROTOCOL;
	if (type == SSH2_FXP_INIT) {
		if (s->init_done || sbuf_get_u32(req, &version) != 0) {
			log_error("Received %s INIT",
			    s->init_done ? "duplicate" : "malformed");
			return ERR_PROTOCOL;
		}
		log_verbose("received client version %u", version);
		s->client_version = version;
		s->init_done = 1;
		send_version(s);
		return 0;
	}
	if (!s->init_done) {
		log_error("Received %u request before init", type);
		return ERR_PROTOCOL;
	}
	if ((r = sbuf_get_u32(req, &id)) != 0)
		return ERR_PROTOCOL;
	if (type == SSH2_FXP_EXTENDED &&
	    sbuf_get_string_direct(req, &ext, &extlen) != 0) {
		sftp_send_status(s, id, SSH2_FX_BAD_MESSAGE);
		return 0;
	}
	if ((rq = find_request(type, ext, extlen)) == NULL) {
		if (type == SSH2_FXP_EXTENDED)
			log_error("Unknown extended request \"%.*s\"",
			    (int)(extlen > 100 ? 100 : extlen), ext);
		else
			log_error("Unknown message %u", type);
		sftp_send_status(s, id, SSH2_FX_OP_UNSUPPORTED);
		return 0;
	}
	log_debug3("request %u: %s", id, rq->name);
	if (!permitted(s, rq)) {
		sftp_send_status(s, id, SSH2_FX_PERMISSION_DENIED);
		return 0;
	}
	if (rq->fn(s, id, req) != 0) {
		log_error("request %u: %s: malformed request", id, rq->name);
		sbuf_reset(s->reply);
		sftp_send_status(s, id, SSH2_FX_BAD_MESSAGE);
	}
	return 0;
}

/* Handle every complete request in the input while the output is short. */
static int
process_input(struct sftp_server *s)
{
	const unsigned char *p;
	struct sbuf *req;
	uint32_t len;
	int r;

	while (sbuf_len(s->in) >= 4 && sbuf_len(s->out) < OUT_HIGH) {
		p = sbuf_ptr(s->in);
		len = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | p[3];
		if (len > SFTP_MAX_MSG_LENGTH) {
			log_error("bad message from %s local user %s",
			    s->client_addr, s->user);
			return ERR_PROTOCOL;
		}
		if (sbuf_len(s->in) - 4 < len)
			break;
		if ((req = sbuf_from(p + 4, len)) == NULL)
			return ERR_ALLOC;
		r = process(s, req);
		sbuf_free(req);
		if (r != 0)
			return r;
		if ((r = sbuf_consume(s->in, 4 + (size_t)len)) != 0)
			return r;
	}
	return 0;
}

static int
flush_output(struct sftp_server *s)
{
	ssize_t n;

	while (sbuf_len(s->out) > 0) {
		n = write(s->out_fd, sbuf_ptr(s->out), sbuf_len(s->out));
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return ERR_SYSTEM;
		(void)sbuf_consume(s->out, (size_t)n);
	}
	return 0;
}

int
sftp_server_run(struct sftp_server *s)
{
	struct pollfd pfd[2];
	unsigned char *dst;
	ssize_t n;
	int r;

	for (;;) {
		pfd[0].fd = sbuf_len(s->out) < OUT_HIGH ? s->in_fd : -1;
		pfd[0].events = POLLIN;
		pfd[1].fd = sbuf_len(s->out) > 0 ? s->out_fd : -1;
		pfd[1].events = POLLOUT;
		pfd[0].revents = pfd[1].revents = 0;
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			r = ERR_SYSTEM;
			goto out;
		}
		if (pfd[1].revents & (POLLOUT | POLLERR | POLLHUP)) {
			n = write(s->out_fd, sbuf_ptr(s->out),
			    sbuf_len(s->out));
			if (n == -1 && errno != EINTR && errno != EAGAIN) {
				log_error("write: %s", strerror(errno));
				r = ERR_SYSTEM;
				goto out;
			}
			if (n > 0)
				(void)sbuf_consume(s->out, (size_t)n);
		}
		if (pfd[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			if ((r = sbuf_reserve(s->in, READ_CHUNK, &dst)) != 0)
				goto out;
			n = read(s->in_fd, dst, READ_CHUNK);
			(void)sbuf_consume_end(s->in,
			    READ_CHUNK - (n > 0 ? (size_t)n : 0));
			if (n == 0) {
				log_debug("read eof");
				r = flush_output(s);
				goto out;
			}
			if (n == -1 && errno != EINTR && errno != EAGAIN) {
				log_error("read: %s", strerror(errno));
				r = ERR_SYSTEM;
				goto out;
			}
		}
		if ((r = process_input(s)) != 0)
			goto out;
	}
 out:
	{
		size_t i;

		for (i = 0; i < s->nhandles; i++)
			sftp_handle_close(s, (int)i);
	}
	return r;
}
