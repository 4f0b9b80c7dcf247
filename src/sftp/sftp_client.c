/*
 * sftp_client.c: the client connection: INIT/VERSION, the framing of
 * requests and replies, and the checks every reply goes through.
 *
 * Both descriptors are made non-blocking and pumped with poll(): queued
 * requests are written while replies are read, so any number of
 * requests may be queued before a reply is waited for. A reply's length
 * is checked against SFTP_MAX_MSG_LENGTH before its bytes are kept, and
 * read from the input only as far as that length says; c->pkt is a
 * read-only view of one reply's bytes in the input buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp_client_int.h"

#define READ_CHUNK	(64 * 1024)
#define IN_HIGH		(2 * SFTP_MAX_MSG_LENGTH)	/* stop reading above */
#define MAX_EXTENSIONS	1024
#define OUT_HIGH	(2 * SFTP_MAX_MSG_LENGTH)	/* flush above */

static const struct {
	const char *name;
	const char *version;
	unsigned int bit;
} known_exts[] = {
	{ "posix-rename@openssh.com", "1", SFTP_EXT_POSIX_RENAME },
	{ "statvfs@openssh.com", "2", SFTP_EXT_STATVFS },
	{ "fstatvfs@openssh.com", "2", SFTP_EXT_FSTATVFS },
	{ "hardlink@openssh.com", "1", SFTP_EXT_HARDLINK },
	{ "fsync@openssh.com", "1", SFTP_EXT_FSYNC },
	{ "lsetstat@openssh.com", "1", SFTP_EXT_LSETSTAT },
	{ "limits@openssh.com", "1", SFTP_EXT_LIMITS },
	{ "expand-path@openssh.com", "1", SFTP_EXT_EXPAND_PATH },
	{ "copy-data", "1", SFTP_EXT_COPY_DATA },
	{ "home-directory", "1", SFTP_EXT_HOME_DIR },
	{ "users-groups-by-id@openssh.com", "1", SFTP_EXT_USERS_GROUPS },
};

int
sc_begin(struct sftp_conn *c, uint8_t type, uint32_t *idp)
{
	int r;

	(void)sbuf_consume(c->req, sbuf_len(c->req));	/* no wipe: not secret */
	if ((r = sbuf_put_u8(c->req, type)) != 0)
		return r;
	if (idp == NULL)
		return 0;
	*idp = c->next_id++;
	return sbuf_put_u32(c->req, *idp);
}

int
sc_begin_ext(struct sftp_conn *c, const char *ext, uint32_t *idp)
{
	int r;

	if ((r = sc_begin(c, SSH2_FXP_EXTENDED, idp)) != 0)
		return r;
	return sbuf_put_cstring(c->req, ext);
}

int
sc_put_path(struct sftp_conn *c, const char *path)
{
	return sbuf_put_cstring(c->req, path);
}

int
sc_put_handle(struct sftp_conn *c, const struct sftp_handle *h)
{
	return sbuf_put_string(c->req, h->data, h->len);
}

int
sc_send(struct sftp_conn *c)
{
	int r;

	if (sbuf_len(c->req) > SFTP_MAX_MSG_LENGTH)
		return ERR_INVALID_ARGUMENT;
	if ((r = sbuf_put_u32(c->out, (uint32_t)sbuf_len(c->req))) != 0 ||
	    (r = sbuf_putb(c->out, c->req)) != 0)
		return r;
	/* Many queued WRITEs: send them now rather than grow the queue. */
	if (sbuf_len(c->out) > OUT_HIGH)
		return sc_flush(c);
	return 0;
}

/*
 * The current reply is a view into c->in (no copy); its bytes are
 * consumed only when the next reply is wanted or more input is read,
 * either of which may move c->in's storage.
 */
static int
release_pkt(struct sftp_conn *c)
{
	if (c->pkt_len > 0) {
		(void)sbuf_consume(c->in, c->pkt_len);
		c->pkt_len = 0;
	}
	sbuf_free(c->pkt);
	c->pkt = sbuf_from("", 0);
	return c->pkt == NULL ? ERR_ALLOC : 0;
}

/* One poll turn: write what the output takes, read what has come. */
static int
pump(struct sftp_conn *c)
{
	struct pollfd pfd[2];
	unsigned char *p;
	nfds_t n = 0;
	ssize_t got;
	int r, want_in = sbuf_len(c->in) < IN_HIGH && !c->in_eof;

	if (want_in) {
		pfd[n].fd = c->in_fd;
		pfd[n++].events = POLLIN;
	}
	if (sbuf_len(c->out) > 0) {
		pfd[n].fd = c->out_fd;
		pfd[n++].events = POLLOUT;
	}
	if (n == 0)
		return c->in_eof ? ERR_CONN_CLOSED : ERR_INTERNAL;
	if ((r = release_pkt(c)) != 0)
		return r;
	if (poll(pfd, n, -1) == -1)
		return errno == EINTR ? 0 : ERR_SYSTEM;
	if (sbuf_len(c->out) > 0) {
		got = write(c->out_fd, sbuf_ptr(c->out), sbuf_len(c->out));
		if (got == -1 && errno != EAGAIN && errno != EINTR)
			return errno == EPIPE ? ERR_CONN_CLOSED : ERR_SYSTEM;
		if (got > 0 && (r = sbuf_consume(c->out, (size_t)got)) != 0)
			return r;
	}
	if (!want_in || !(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
		return 0;
	if ((r = sbuf_reserve(c->in, READ_CHUNK, &p)) != 0)
		return r;
	got = read(c->in_fd, p, READ_CHUNK);
	(void)sbuf_consume_end(c->in, READ_CHUNK - (got > 0 ? (size_t)got : 0));
	if (got == 0)
		c->in_eof = 1;	/* an error only when a reply is missing */
	if (got == -1 && errno != EAGAIN && errno != EINTR)
		return ERR_SYSTEM;
	return 0;
}

int
sc_flush(struct sftp_conn *c)
{
	int r;

	while (sbuf_len(c->out) > 0)
		if ((r = pump(c)) != 0)
			return r;
	return 0;
}

int
sc_reply(struct sftp_conn *c, uint8_t *typep, uint32_t *idp)
{
	const unsigned char *p;
	uint32_t len;
	int r;

	if ((r = release_pkt(c)) != 0)
		return r;
	for (;;) {
		if (sbuf_len(c->in) >= 4) {
			p = sbuf_ptr(c->in);
			len = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			    (uint32_t)p[2] << 8 | p[3];
			if (len > SFTP_MAX_MSG_LENGTH || len < 1) {
				log_error("Received message too long %u", len);
				return ERR_PROTOCOL;
			}
			if (sbuf_len(c->in) >= 4 + (size_t)len)
				break;
		}
		if (c->in_eof)
			return ERR_CONN_CLOSED;
		if ((r = pump(c)) != 0)
			return r;
	}
	sbuf_free(c->pkt);
	if ((c->pkt = sbuf_from(sbuf_ptr(c->in) + 4, len)) == NULL)
		return ERR_ALLOC;
	c->pkt_len = 4 + (size_t)len;
	if ((r = sbuf_get_u8(c->pkt, typep)) != 0)
		return r;
	if (*typep == SSH2_FXP_VERSION)
		return idp == NULL ? 0 : ERR_PROTOCOL;
	if (idp == NULL)
		return ERR_PROTOCOL;
	if ((r = sbuf_get_u32(c->pkt, idp)) != 0)
		return ERR_PROTOCOL;
	return 0;
}

/* A reply of this id and type, or a STATUS (its status in *statusp). */
static int
reply_for(struct sftp_conn *c, uint32_t id, uint8_t want, int *statusp)
{
	uint8_t type;
	uint32_t rid;
	int r;

	*statusp = -1;
	if ((r = sc_reply(c, &type, &rid)) != 0)
		return r;
	if (rid != id) {
		log_error("ID mismatch (%u != %u)", rid, id);
		return ERR_PROTOCOL;
	}
	if (type == SSH2_FXP_STATUS) {
		if ((r = sc_parse_status(c, statusp)) != 0)
			return r;
		/* A success where data was due is no answer. */
		return *statusp == SSH2_FX_OK && want != SSH2_FXP_STATUS ?
		    ERR_PROTOCOL : 0;
	}
	if (type != want) {
		log_error("Expected SSH2_FXP type %u, got %u", want, type);
		return ERR_PROTOCOL;
	}
	return 0;
}

int
sc_parse_status(struct sftp_conn *c, int *statusp)
{
	uint32_t st;
	int r;

	if ((r = sbuf_get_u32(c->pkt, &st)) != 0)
		return ERR_PROTOCOL;
	/* The message and language tag (v3 servers may leave them out)
	 * are not shown: OpenSSH's client words the code itself. */
	if (st > 0x7fffffff)
		return ERR_PROTOCOL;
	*statusp = (int)st;
	return 0;
}

int
sc_expect_status(struct sftp_conn *c, uint32_t id)
{
	int r, st;

	if ((r = sc_flush(c)) != 0 ||
	    (r = reply_for(c, id, SSH2_FXP_STATUS, &st)) != 0)
		return r;
	return st;
}

int
sc_expect_handle(struct sftp_conn *c, uint32_t id, struct sftp_handle **hp)
{
	const unsigned char *p;
	size_t len;
	int r, st;

	*hp = NULL;
	if ((r = reply_for(c, id, SSH2_FXP_HANDLE, &st)) != 0)
		return r;
	if (st >= 0)
		return st;
	if ((r = sbuf_get_string_direct(c->pkt, &p, &len)) != 0)
		return ERR_PROTOCOL;
	if (len > SFTP_MAX_HANDLE) {
		log_error("Handle too long");
		return ERR_PROTOCOL;
	}
	*hp = x_calloc(1, sizeof(**hp));
	(*hp)->data = x_memdup(len ? p : (const unsigned char *)"", len + 1);
	(*hp)->len = len;
	return 0;
}

int
sc_expect_attrs(struct sftp_conn *c, uint32_t id, struct sftp_attrs *a)
{
	int r, st;

	sftp_attrs_clear(a);
	if ((r = reply_for(c, id, SSH2_FXP_ATTRS, &st)) != 0)
		return r;
	if (st >= 0)
		return st;
	return sftp_attrs_decode(c->pkt, a) == 0 ? 0 : ERR_PROTOCOL;
}

int
sc_expect_name1(struct sftp_conn *c, uint32_t id, char **namep)
{
	struct sftp_attrs a;
	uint32_t count;
	int r, st;

	*namep = NULL;
	if ((r = reply_for(c, id, SSH2_FXP_NAME, &st)) != 0)
		return r;
	if (st >= 0)
		return st;
	if ((r = sbuf_get_u32(c->pkt, &count)) != 0 || count != 1) {
		log_error("Got multiple names (%u) from SSH_FXP_REALPATH",
		    r == 0 ? count : 0);
		return ERR_PROTOCOL;
	}
	if ((r = sbuf_get_cstring(c->pkt, namep, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(c->pkt, NULL, NULL)) != 0 ||
	    (r = sftp_attrs_decode(c->pkt, &a)) != 0) {
		x_free(*namep);
		*namep = NULL;
		return ERR_PROTOCOL;
	}
	return 0;
}

/* VERSION's extension pairs: the known ones (by name and version). */
static int
parse_version(struct sftp_conn *c)
{
	const unsigned char *name, *ver;
	size_t nlen, vlen, i, n;
	int r, known;

	if ((r = sbuf_get_u32(c->pkt, &c->version)) != 0)
		return ERR_PROTOCOL;
	log_debug2("Remote version: %u", c->version);
	for (n = 0; sbuf_len(c->pkt) > 0; n++) {
		if (n >= MAX_EXTENSIONS ||
		    (r = sbuf_get_string_direct(c->pkt, &name, &nlen)) != 0 ||
		    (r = sbuf_get_string_direct(c->pkt, &ver, &vlen)) != 0)
			return ERR_PROTOCOL;
		known = 0;
		for (i = 0; i < sizeof(known_exts) / sizeof(known_exts[0]);
		    i++) {
			if (strlen(known_exts[i].name) == nlen &&
			    memcmp(known_exts[i].name, name, nlen) == 0 &&
			    strlen(known_exts[i].version) == vlen &&
			    memcmp(known_exts[i].version, ver, vlen) == 0) {
				c->exts |= known_exts[i].bit;
				known = 1;
			}
		}
		/* The server's words, through "%.*s" (escaped by log). */
		if (known)
			log_debug2("Server supports extension \"%.*s\" "
			    "revision %.*s", (int)(nlen > 256 ? 256 : nlen),
			    name, (int)(vlen > 16 ? 16 : vlen), ver);
		else
			log_debug2("Unrecognised server extension \"%.*s\"",
			    (int)(nlen > 256 ? 256 : nlen), name);
	}
	return 0;
}

/* limits@openssh.com: a larger buffer when the caller left it to us. */
static int
ask_limits(struct sftp_conn *c, const struct sftp_client_opts *o)
{
	uint64_t lpkt, lread, lwrite, lhandles;
	uint32_t id;
	int r, st;

	if ((r = sc_begin_ext(c, "limits@openssh.com", &id)) != 0 ||
	    (r = sc_send(c)) != 0 || (r = sc_flush(c)) != 0 ||
	    (r = reply_for(c, id, SSH2_FXP_EXTENDED_REPLY, &st)) != 0)
		return r;
	if (st >= 0)
		return 0;
	if (sbuf_get_u64(c->pkt, &lpkt) != 0 ||
	    sbuf_get_u64(c->pkt, &lread) != 0 ||
	    sbuf_get_u64(c->pkt, &lwrite) != 0 ||
	    sbuf_get_u64(c->pkt, &lhandles) != 0)
		return ERR_PROTOCOL;
	c->lim_write = lwrite;
	if (o == NULL || o->buflen == 0) {
		/* Both directions must fit; never past our own cap. */
		uint64_t b = lread < lwrite ? lread : lwrite;

		if (b > SFTP_MAX_READ_LENGTH)
			b = SFTP_MAX_READ_LENGTH;
		if (b >= 512)
			c->buflen = (uint32_t)b;
	}
	return 0;
}

static void
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl != -1)
		(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int
sftp_client_init(int in_fd, int out_fd, const struct sftp_client_opts *o,
    struct sftp_conn **cp)
{
	struct sftp_conn *c;
	uint8_t type;
	int r;

	*cp = NULL;
	c = x_calloc(1, sizeof(*c));
	c->in_fd = in_fd;
	c->out_fd = out_fd;
	c->req = sbuf_new();
	c->out = sbuf_new();
	c->in = sbuf_new();
	c->pkt = sbuf_from("", 0);
	c->buflen = o && o->buflen ? o->buflen : SFTP_DEFAULT_BUFLEN;
	if (c->buflen > SFTP_MAX_READ_LENGTH)
		c->buflen = SFTP_MAX_READ_LENGTH;
	c->num_requests = o && o->num_requests ? o->num_requests :
	    SFTP_DEFAULT_NREQS;
	c->limit_kbps = o ? o->limit_kbps : 0;
	set_nonblock(in_fd);
	set_nonblock(out_fd);
	if ((r = sc_begin(c, SSH2_FXP_INIT, NULL)) != 0 ||
	    (r = sbuf_put_u32(c->req, SFTP_PROTO_VERSION)) != 0 ||
	    (r = sc_send(c)) != 0 || (r = sc_flush(c)) != 0 ||
	    (r = sc_reply(c, &type, NULL)) != 0)
		goto out;
	if (type != SSH2_FXP_VERSION) {
		log_error("Invalid packet back from SSH2_FXP_INIT (type %u)",
		    type);
		r = ERR_PROTOCOL;
		goto out;
	}
	if ((r = parse_version(c)) != 0)
		goto out;
	if ((c->exts & SFTP_EXT_LIMITS) && (r = ask_limits(c, o)) != 0)
		goto out;
	*cp = c;
	c = NULL;
out:
	sftp_client_free(c);
	return r;
}

void
sftp_client_free(struct sftp_conn *c)
{
	if (c == NULL)
		return;
	sbuf_free(c->req);
	sbuf_free(c->out);
	sbuf_free(c->in);
	sbuf_free(c->pkt);
	x_free(c);
}

uint32_t
sftp_client_version(const struct sftp_conn *c)
{
	return c->version;
}

int
sftp_client_has(const struct sftp_conn *c, unsigned int ext)
{
	return (c->exts & ext) != 0;
}

void
sftp_client_set_cancel(struct sftp_conn *c, volatile sig_atomic_t *flag)
{
	c->cancel = flag;
}

uint32_t
sftp_client_buflen(const struct sftp_conn *c)
{
	return c->buflen;
}

const char *
sftp_client_errmsg(int r)
{
	static const char *const msgs[] = {
		"No error", "End of file", "No such file or directory",
		"Permission denied", "Failure", "Bad message",
		"No connection", "Connection lost", "Operation unsupported",
	};

	if (r < 0)
		return err_str(r);
	if ((size_t)r < sizeof(msgs) / sizeof(msgs[0]))
		return msgs[r];
	return "Unknown status";
}
