/*
 * test_sftp.c: the SFTP attributes codec and the server core.
 *
 * The codec is checked by round trips and by records that lie (short,
 * truncated, too many extended pairs). The server runs in a child
 * process over a socketpair against a fresh temporary directory; the
 * parent speaks the protocol byte by byte and checks each reply: every
 * request of version 3, the OpenSSH extensions, read-only and denied
 * requests, malformed requests (answered with SSH2_FX_BAD_MESSAGE), and
 * requests that end the session (too large, before INIT).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "fdio.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "sftp_proto.h"
#include "sftp_server.h"
#include "testlib.h"

static char tmpdir[64];

struct peer {
	int fd;
	pid_t pid;
	uint32_t id;
};

static void
test_attrs(void)
{
	struct sftp_attrs a, b;
	struct sbuf *buf = sbuf_new();
	unsigned char raw[64];
	size_t n;

	sftp_attrs_clear(&a);
	a.flags = SSH2_FILEXFER_ATTR_SIZE | SSH2_FILEXFER_ATTR_UIDGID |
	    SSH2_FILEXFER_ATTR_PERMISSIONS | SSH2_FILEXFER_ATTR_ACMODTIME;
	a.size = 0x0102030405060708ULL;
	a.uid = 1000;
	a.gid = 100;
	a.perm = 0100644;
	a.atime = 1234567890;
	a.mtime = 1234567891;
	CHECK_OK(sftp_attrs_encode(buf, &a));
	CHECK(sbuf_len(buf) == 4 + 8 + 8 + 4 + 8);
	CHECK_OK(sftp_attrs_decode(buf, &b));
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(sbuf_len(buf) == 0);

	/* Only the fields the flags name; extended pairs are skipped. */
	n = test_unhex("80000004 000001ed 00000001 00000001 61 00000002 6263",
	    raw, sizeof(raw));
	sbuf_reset(buf);
	CHECK_OK(sbuf_put(buf, raw, n));
	CHECK_OK(sftp_attrs_decode(buf, &b));
	CHECK(b.perm == 0755 && sbuf_len(buf) == 0);

	/* Truncated, lying string length, too many pairs. */
	n = test_unhex("00000001 000000", raw, sizeof(raw));
	sbuf_reset(buf);
	CHECK_OK(sbuf_put(buf, raw, n));
	CHECK_ERR(sftp_attrs_decode(buf, &b), ERR_MESSAGE_INCOMPLETE);
	n = test_unhex("80000000 00000001 ffffffff 00", raw, sizeof(raw));
	sbuf_reset(buf);
	CHECK_OK(sbuf_put(buf, raw, n));
	CHECK(sftp_attrs_decode(buf, &b) != 0);
	n = test_unhex("80000000 7fffffff", raw, sizeof(raw));
	sbuf_reset(buf);
	CHECK_OK(sbuf_put(buf, raw, n));
	CHECK_ERR(sftp_attrs_decode(buf, &b), ERR_INVALID_FORMAT);
	sbuf_free(buf);

	CHECK_STR(sftp_status_message(SSH2_FX_NO_SUCH_FILE), "No such file");
	CHECK_STR(sftp_status_message(99), "Unknown error");
	CHECK(sftp_errno_to_status(ENOENT) == SSH2_FX_NO_SUCH_FILE);
	CHECK(sftp_errno_to_status(EACCES) == SSH2_FX_PERMISSION_DENIED);
	CHECK(sftp_errno_to_status(EINVAL) == SSH2_FX_BAD_MESSAGE);
	CHECK(sftp_errno_to_status(ENOSYS) == SSH2_FX_OP_UNSUPPORTED);
	CHECK(sftp_errno_to_status(EEXIST) == SSH2_FX_FAILURE);
}

static void
test_ls(void)
{
	struct stat st;
	char *l;

	memset(&st, 0, sizeof(st));
	st.st_mode = S_IFDIR | 0755;
	st.st_nlink = 2;
	st.st_size = 4096;
	st.st_mtime = 86400 * 365;	/* long ago: the year is shown */
	l = sftp_ls_long("dir", &st, "alice", NULL, 0);
	CHECK_STR(l, "drwxr-xr-x    2 alice    0            4096 Jan  1  1971 dir");
	x_free(l);
	st.st_mode = S_IFREG | 04754;
	st.st_size = 123456789;
	l = sftp_ls_long("f", &st, "averyverylongname", "g", 1);
	CHECK_STR(l, "-rwsr-xr--    2 averyverylongname g            118M Jan  1  1971 f");
	x_free(l);
}

/* A server in a child; opts may be NULL for the defaults. */
static void
peer_start(struct peer *p, const struct sftp_server_opts *opts)
{
	struct sftp_server_opts o = { "tester", tmpdir, "127.0.0.1", 0,
	    NULL, NULL };
	struct sftp_server *s;
	int sv[2], r;

	if (opts != NULL)
		o = *opts;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		abort();
	p->id = 1;
	if ((p->pid = fork()) == 0) {
		close(sv[0]);
		if (sftp_server_new(&o, sv[1], sv[1], &s) != 0)
			_exit(2);
		r = sftp_server_run(s);
		sftp_server_free(s);
		_exit(r == 0 ? 0 : r == ERR_PROTOCOL ? 11 : 1);
	}
	close(sv[1]);
	p->fd = sv[0];
}

/* Close our end and return the child's exit status. */
static int
peer_end(struct peer *p)
{
	int st;

	close(p->fd);
	if (waitpid(p->pid, &st, 0) == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void
send_raw(struct peer *p, const struct sbuf *body)
{
	struct sbuf *b = sbuf_new();

	if (sbuf_put_stringb(b, body) != 0 ||
	    fd_write_full(p->fd, sbuf_ptr(b), sbuf_len(b)) != 0)
		abort();
	sbuf_free(b);
}

/* Read one reply packet (type byte first); NULL when the server left. */
static struct sbuf *
recv_reply(struct peer *p)
{
	unsigned char lb[4], *d;
	uint32_t len;
	struct sbuf *b;

	if (fd_read_full(p->fd, lb, 4) != 0)
		return NULL;
	len = (uint32_t)lb[0] << 24 | lb[1] << 16 | lb[2] << 8 | lb[3];
	if (len > 1024 * 1024)
		return NULL;
	b = sbuf_new();
	if (sbuf_reserve(b, len, &d) != 0 || fd_read_full(p->fd, d, len) != 0) {
		sbuf_free(b);
		return NULL;
	}
	return b;
}

/* Begin a request: type and a fresh id. */
static struct sbuf *
req(struct peer *p, uint8_t type)
{
	struct sbuf *b = sbuf_new();

	(void)sbuf_put_u8(b, type);
	(void)sbuf_put_u32(b, ++p->id);
	return b;
}

static struct sbuf *
ext(struct peer *p, const char *name)
{
	struct sbuf *b = req(p, SSH2_FXP_EXTENDED);

	(void)sbuf_put_cstring(b, name);
	return b;
}

/* Send the request, free it, return the reply checked for type and id. */
static struct sbuf *
call(struct peer *p, struct sbuf *rq, uint8_t want)
{
	struct sbuf *r;
	uint8_t type = 0;
	uint32_t id = 0;

	send_raw(p, rq);
	sbuf_free(rq);
	if ((r = recv_reply(p)) == NULL) {
		CHECK(!"no reply");
		return sbuf_new();
	}
	CHECK(sbuf_get_u8(r, &type) == 0 && type == want);
	CHECK(sbuf_get_u32(r, &id) == 0 && id == p->id);
	if (type != want)
		fprintf(stderr, "reply type %u, wanted %u\n", type, want);
	return r;
}

/* A request answered by a status: returns the code. */
static uint32_t
call_status(struct peer *p, struct sbuf *rq)
{
	struct sbuf *r = call(p, rq, SSH2_FXP_STATUS);
	uint32_t st = 999;

	(void)sbuf_get_u32(r, &st);
	sbuf_free(r);
	return st;
}

static struct sbuf *
with_path(struct sbuf *b, const char *name)
{
	char *path = x_asprintf("%s/%s", tmpdir, name);

	(void)sbuf_put_cstring(b, path);
	x_free(path);
	return b;
}

static struct sbuf *
with_2paths(struct sbuf *b, const char *a, const char *c)
{
	return with_path(with_path(b, a), c);
}

static void
put_attrs_perm(struct sbuf *b, uint32_t perm)
{
	(void)sbuf_put_u32(b, perm ? SSH2_FILEXFER_ATTR_PERMISSIONS : 0);
	if (perm)
		(void)sbuf_put_u32(b, perm);
}

static void
do_init(struct peer *p)
{
	struct sbuf *b = sbuf_new(), *r;
	uint8_t type = 0;
	uint32_t v = 0;
	char *name, *val;
	int saw_posix = 0, saw_limits = 0;

	(void)sbuf_put_u8(b, SSH2_FXP_INIT);
	(void)sbuf_put_u32(b, 3);
	send_raw(p, b);
	sbuf_free(b);
	r = recv_reply(p);
	CHECK(r != NULL);
	if (r == NULL)
		return;
	CHECK(sbuf_get_u8(r, &type) == 0 && type == SSH2_FXP_VERSION);
	CHECK(sbuf_get_u32(r, &v) == 0 && v == 3);
	while (sbuf_len(r) > 0) {
		if (sbuf_get_cstring(r, &name, NULL) != 0 ||
		    sbuf_get_cstring(r, &val, NULL) != 0)
			break;
		if (strcmp(name, "posix-rename@openssh.com") == 0)
			saw_posix = strcmp(val, "1") == 0;
		if (strcmp(name, "limits@openssh.com") == 0)
			saw_limits = 1;
		x_free(name);
		x_free(val);
	}
	CHECK(saw_posix && saw_limits && sbuf_len(r) == 0);
	sbuf_free(r);
}

/* Open a path; returns the handle bytes (4) in h. */
static int
do_open(struct peer *p, const char *name, uint32_t pflags, uint32_t h[1])
{
	struct sbuf *b = with_path(req(p, SSH2_FXP_OPEN), name), *r;
	const unsigned char *hp;
	size_t hl;
	uint8_t type = 0;
	uint32_t id;

	(void)sbuf_put_u32(b, pflags);
	put_attrs_perm(b, 0600);
	send_raw(p, b);
	sbuf_free(b);
	if ((r = recv_reply(p)) == NULL)
		return -1;
	(void)sbuf_get_u8(r, &type);
	(void)sbuf_get_u32(r, &id);
	if (type != SSH2_FXP_HANDLE ||
	    sbuf_get_string_direct(r, &hp, &hl) != 0 || hl != 4) {
		sbuf_free(r);
		return -1;
	}
	memcpy(h, hp, 4);
	sbuf_free(r);
	return 0;
}

static struct sbuf *
with_handle(struct sbuf *b, const uint32_t h[1])
{
	(void)sbuf_put_string(b, h, 4);
	return b;
}

static void
test_files(struct peer *p)
{
	struct sbuf *b, *r;
	uint32_t h[1], hd[1], st, count = 0, flags = 0, perm = 0;
	uint64_t size = 0;
	const unsigned char *d;
	unsigned char data[3000];
	size_t dl, i;
	char *name = NULL, *path;
	int saw_file = 0;
	struct stat sb;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7);
	CHECK_OK(do_open(p, "f", SSH2_FXF_WRITE | SSH2_FXF_CREAT |
	    SSH2_FXF_TRUNC, h));
	b = with_handle(req(p, SSH2_FXP_WRITE), h);
	(void)sbuf_put_u64(b, 0);
	(void)sbuf_put_string(b, data, sizeof(data));
	CHECK(call_status(p, b) == SSH2_FX_OK);
	b = with_handle(ext(p, "fsync@openssh.com"), h);
	CHECK(call_status(p, b) == SSH2_FX_OK);
	b = with_handle(req(p, SSH2_FXP_CLOSE), h);
	CHECK(call_status(p, b) == SSH2_FX_OK);
	b = with_handle(req(p, SSH2_FXP_CLOSE), h);
	CHECK(call_status(p, b) == SSH2_FX_NO_SUCH_FILE);
	path = x_asprintf("%s/f", tmpdir);
	CHECK(stat(path, &sb) == 0 && sb.st_size == 3000 &&
	    (sb.st_mode & 0777) == 0600);
	x_free(path);

	/* Read back: data, then EOF past the end. */
	CHECK_OK(do_open(p, "f", SSH2_FXF_READ, h));
	b = with_handle(req(p, SSH2_FXP_READ), h);
	(void)sbuf_put_u64(b, 1000);
	(void)sbuf_put_u32(b, 100000);
	r = call(p, b, SSH2_FXP_DATA);
	CHECK(sbuf_get_string_direct(r, &d, &dl) == 0 && dl == 2000 &&
	    memcmp(d, data + 1000, 2000) == 0);
	sbuf_free(r);
	b = with_handle(req(p, SSH2_FXP_READ), h);
	(void)sbuf_put_u64(b, 3000);
	(void)sbuf_put_u32(b, 10);
	CHECK(call_status(p, b) == SSH2_FX_EOF);
	r = call(p, with_handle(req(p, SSH2_FXP_FSTAT), h), SSH2_FXP_ATTRS);
	CHECK(sbuf_get_u32(r, &flags) == 0 &&
	    (flags & SSH2_FILEXFER_ATTR_SIZE) &&
	    sbuf_get_u64(r, &size) == 0 && size == 3000);
	sbuf_free(r);
	b = with_handle(req(p, SSH2_FXP_WRITE), h);	/* opened read-only */
	(void)sbuf_put_u64(b, 0);
	(void)sbuf_put_string(b, "x", 1);
	CHECK(call_status(p, b) == SSH2_FX_NO_SUCH_FILE);	/* EBADF */
	CHECK(call_status(p, with_handle(req(p, SSH2_FXP_CLOSE), h)) ==
	    SSH2_FX_OK);
	b = with_handle(req(p, SSH2_FXP_READ), h);	/* closed handle */
	(void)sbuf_put_u64(b, 0);
	(void)sbuf_put_u32(b, 10);
	CHECK(call_status(p, b) == SSH2_FX_FAILURE);
	CHECK(do_open(p, "missing", SSH2_FXF_READ, h) != 0);
	CHECK(do_open(p, "f", SSH2_FXF_WRITE | SSH2_FXF_CREAT |
	    SSH2_FXF_EXCL, h) != 0);

	/* setstat, stat, lstat */
	b = with_path(req(p, SSH2_FXP_SETSTAT), "f");
	put_attrs_perm(b, 0640);
	CHECK(call_status(p, b) == SSH2_FX_OK);
	r = call(p, with_path(req(p, SSH2_FXP_STAT), "f"), SSH2_FXP_ATTRS);
	CHECK(sbuf_get_u32(r, &flags) == 0 && sbuf_get_u64(r, &size) == 0 &&
	    sbuf_get_u32(r, &st) == 0 && sbuf_get_u32(r, &st) == 0 &&
	    sbuf_get_u32(r, &perm) == 0 && perm == (S_IFREG | 0640));
	sbuf_free(r);
	b = with_path(req(p, SSH2_FXP_LSTAT), "nothere");
	CHECK(call_status(p, b) == SSH2_FX_NO_SUCH_FILE);

	/* mkdir, opendir/readdir, rmdir */
	b = with_path(req(p, SSH2_FXP_MKDIR), "d");
	put_attrs_perm(b, 0700);
	CHECK(call_status(p, b) == SSH2_FX_OK);
	b = with_path(req(p, SSH2_FXP_MKDIR), "d");
	put_attrs_perm(b, 0);
	CHECK(call_status(p, b) == SSH2_FX_FAILURE);	/* EEXIST */
	send_raw(p, b = with_path(req(p, SSH2_FXP_OPENDIR), ""));
	sbuf_free(b);
	r = recv_reply(p);
	CHECK(r != NULL && sbuf_consume(r, 5) == 0 &&
	    sbuf_get_string_direct(r, &d, &dl) == 0 && dl == 4);
	if (r != NULL && dl == 4)
		memcpy(hd, d, 4);
	sbuf_free(r);
	r = call(p, with_handle(req(p, SSH2_FXP_READDIR), hd), SSH2_FXP_NAME);
	CHECK(sbuf_get_u32(r, &count) == 0 && count == 4);
	for (i = 0; i < count; i++) {
		char *ln = NULL;
		struct sftp_attrs a;

		if (sbuf_get_cstring(r, &name, NULL) != 0 ||
		    sbuf_get_cstring(r, &ln, NULL) != 0 ||
		    sftp_attrs_decode(r, &a) != 0)
			break;
		if (strcmp(name, "f") == 0) {
			saw_file = a.size == 3000 &&
			    strncmp(ln, "-rw-r-----    1 ", 16) == 0 &&
			    strstr(ln, " 3000 ") != NULL &&
			    strcmp(ln + strlen(ln) - 2, " f") == 0;
			if (!saw_file)
				fprintf(stderr, "longname: %s\n", ln);
		}
		x_free(name);
		x_free(ln);
	}
	CHECK(saw_file && sbuf_len(r) == 0);
	sbuf_free(r);
	b = with_handle(req(p, SSH2_FXP_READDIR), hd);
	CHECK(call_status(p, b) == SSH2_FX_EOF);
	CHECK(call_status(p, with_handle(req(p, SSH2_FXP_CLOSE), hd)) ==
	    SSH2_FX_OK);
	CHECK(call_status(p, with_path(req(p, SSH2_FXP_RMDIR), "d")) ==
	    SSH2_FX_OK);
	CHECK(call_status(p, with_path(req(p, SSH2_FXP_RMDIR), "d")) ==
	    SSH2_FX_NO_SUCH_FILE);
}

static void
expect_name(struct peer *p, struct sbuf *rq, const char *want)
{
	struct sbuf *r = call(p, rq, SSH2_FXP_NAME);
	uint32_t count = 0;
	char *name = NULL;

	CHECK(sbuf_get_u32(r, &count) == 0 && count == 1);
	CHECK(sbuf_get_cstring(r, &name, NULL) == 0);
	CHECK_STR(name, want);
	x_free(name);
	sbuf_free(r);
}

static void
test_names(struct peer *p)
{
	char *want, *path;
	struct sbuf *b, *r;
	uint64_t v[11];
	size_t i;
	struct stat st;

	/* rename: v3 refuses an existing target; posix-rename replaces. */
	CHECK_OK(do_open(p, "g", SSH2_FXF_WRITE | SSH2_FXF_CREAT,
	    (uint32_t[1]){ 0 }));
	CHECK(call_status(p, with_2paths(req(p, SSH2_FXP_RENAME), "f",
	    "g")) == SSH2_FX_FAILURE);
	CHECK(call_status(p, with_2paths(req(p, SSH2_FXP_RENAME), "f",
	    "f2")) == SSH2_FX_OK);
	CHECK(call_status(p, with_2paths(ext(p, "posix-rename@openssh.com"),
	    "f2", "g")) == SSH2_FX_OK);
	CHECK(call_status(p, with_2paths(ext(p, "hardlink@openssh.com"),
	    "g", "h")) == SSH2_FX_OK);
	path = x_asprintf("%s/h", tmpdir);
	CHECK(stat(path, &st) == 0 && st.st_nlink == 2 && st.st_size == 3000);
	x_free(path);

	/* symlink: OpenSSH's order, target first. */
	b = req(p, SSH2_FXP_SYMLINK);
	(void)sbuf_put_cstring(b, "g");
	CHECK(call_status(p, with_path(b, "sl")) == SSH2_FX_OK);
	expect_name(p, with_path(req(p, SSH2_FXP_READLINK), "sl"), "g");
	b = with_path(ext(p, "lsetstat@openssh.com"), "sl");
	(void)sbuf_put_u32(b, SSH2_FILEXFER_ATTR_SIZE);
	(void)sbuf_put_u64(b, 1);
	CHECK(call_status(p, b) == SSH2_FX_BAD_MESSAGE);
	b = with_path(ext(p, "lsetstat@openssh.com"), "sl");
	(void)sbuf_put_u32(b, SSH2_FILEXFER_ATTR_ACMODTIME);
	(void)sbuf_put_u32(b, 1000000);
	(void)sbuf_put_u32(b, 1000000);
	CHECK(call_status(p, b) == SSH2_FX_OK);
	path = x_asprintf("%s/sl", tmpdir);
	CHECK(lstat(path, &st) == 0 && st.st_mtime == 1000000);
	CHECK(stat(path, &st) == 0 && st.st_mtime != 1000000);
	x_free(path);
	CHECK(call_status(p, with_path(req(p, SSH2_FXP_REMOVE), "sl")) ==
	    SSH2_FX_OK);
	CHECK(call_status(p, with_path(req(p, SSH2_FXP_REMOVE), "sl")) ==
	    SSH2_FX_NO_SUCH_FILE);

	/* realpath, expand-path */
	want = x_asprintf("%s/newname", tmpdir);
	expect_name(p, with_path(req(p, SSH2_FXP_REALPATH), "./newname"),
	    want);
	x_free(want);
	b = with_path(req(p, SSH2_FXP_REALPATH), "no/such");
	CHECK(call_status(p, b) == SSH2_FX_NO_SUCH_FILE);
	b = ext(p, "expand-path@openssh.com");
	(void)sbuf_put_cstring(b, "~");
	expect_name(p, b, tmpdir);
	b = ext(p, "expand-path@openssh.com");
	(void)sbuf_put_cstring(b, "~/g");
	want = x_asprintf("%s/g", tmpdir);
	expect_name(p, b, want);
	x_free(want);

	/* statvfs and limits: fixed-size replies. */
	r = call(p, with_path(ext(p, "statvfs@openssh.com"), ""),
	    SSH2_FXP_EXTENDED_REPLY);
	for (i = 0; i < 11; i++)
		CHECK(sbuf_get_u64(r, &v[i]) == 0);
	CHECK(sbuf_len(r) == 0 && v[0] > 0 && v[10] > 0);
	sbuf_free(r);
	r = call(p, ext(p, "limits@openssh.com"), SSH2_FXP_EXTENDED_REPLY);
	for (i = 0; i < 4; i++)
		CHECK(sbuf_get_u64(r, &v[i]) == 0);
	CHECK(v[0] == 262144 && v[1] == 261120 && v[2] == 261120 && v[3] > 0);
	sbuf_free(r);
	CHECK(call_status(p, ext(p, "nosuch@example.com")) ==
	    SSH2_FX_OP_UNSUPPORTED);
	CHECK(call_status(p, req(p, 99)) == SSH2_FX_OP_UNSUPPORTED);
}

static void
test_malformed(struct peer *p)
{
	struct sbuf *b;

	/* Cut short, a lying string length, a handle of the wrong size. */
	b = req(p, SSH2_FXP_OPEN);
	(void)sbuf_put_u32(b, 10);
	(void)sbuf_put(b, "abc", 3);
	CHECK(call_status(p, b) == SSH2_FX_BAD_MESSAGE);
	b = with_path(req(p, SSH2_FXP_OPEN), "g");
	(void)sbuf_put_u32(b, SSH2_FXF_READ);
	(void)sbuf_put_u32(b, SSH2_FILEXFER_ATTR_SIZE);
	CHECK(call_status(p, b) == SSH2_FX_BAD_MESSAGE);
	b = req(p, SSH2_FXP_MKDIR);
	(void)sbuf_put_string(b, "a\0b", 3);
	put_attrs_perm(b, 0);
	CHECK(call_status(p, b) == SSH2_FX_BAD_MESSAGE);
	b = req(p, SSH2_FXP_CLOSE);
	(void)sbuf_put_cstring(b, "toolonghandle");
	CHECK(call_status(p, b) == SSH2_FX_NO_SUCH_FILE);
	b = ext(p, "users-groups-by-id@openssh.com");
	(void)sbuf_put_string(b, "abc", 3);	/* not whole uint32s */
	(void)sbuf_put_string(b, "", 0);
	CHECK(call_status(p, b) == SSH2_FX_BAD_MESSAGE);
	/* Still serving. */
	CHECK(call_status(p, with_path(req(p, SSH2_FXP_RMDIR), "none")) ==
	    SSH2_FX_NO_SUCH_FILE);
}

static void
test_session_enders(void)
{
	struct peer p;
	struct sbuf *b;
	unsigned char big[4] = { 0x00, 0x04, 0x00, 0x01 };	/* 256K+1 */

	peer_start(&p, NULL);
	do_init(&p);
	CHECK_OK(fd_write_full(p.fd, big, 4));
	CHECK(recv_reply(&p) == NULL);
	CHECK(peer_end(&p) == 11);

	peer_start(&p, NULL);
	b = with_path(req(&p, SSH2_FXP_STAT), "g");	/* before INIT */
	send_raw(&p, b);
	sbuf_free(b);
	CHECK(recv_reply(&p) == NULL);
	CHECK(peer_end(&p) == 11);

	peer_start(&p, NULL);
	do_init(&p);
	b = sbuf_new();		/* an empty packet: no type */
	send_raw(&p, b);
	sbuf_free(b);
	CHECK(recv_reply(&p) == NULL);
	CHECK(peer_end(&p) == 11);
}

static void
test_restricted(void)
{
	struct sftp_server_opts ro = { "tester", tmpdir, NULL, 1, NULL, NULL };
	struct sftp_server_opts deny = { "tester", tmpdir, NULL, 0, NULL,
	    "remove,mkdir" };
	struct sftp_server_opts allow = { "tester", tmpdir, NULL, 0,
	    "open,close,read,stat", NULL };
	struct peer p;
	uint32_t h[1];
	struct sbuf *b;

	peer_start(&p, &ro);
	do_init(&p);
	CHECK_OK(do_open(&p, "g", SSH2_FXF_READ, h));
	CHECK(do_open(&p, "g", SSH2_FXF_WRITE, h) != 0);
	CHECK(do_open(&p, "new", SSH2_FXF_READ | SSH2_FXF_CREAT, h) != 0);
	b = with_path(req(&p, SSH2_FXP_MKDIR), "ro");
	put_attrs_perm(b, 0);
	CHECK(call_status(&p, b) == SSH2_FX_PERMISSION_DENIED);
	CHECK(call_status(&p, with_path(req(&p, SSH2_FXP_REMOVE), "g")) ==
	    SSH2_FX_PERMISSION_DENIED);
	CHECK(peer_end(&p) == 0);

	peer_start(&p, &deny);
	do_init(&p);
	CHECK(call_status(&p, with_path(req(&p, SSH2_FXP_REMOVE), "g")) ==
	    SSH2_FX_PERMISSION_DENIED);
	CHECK(call_status(&p, with_path(req(&p, SSH2_FXP_RMDIR), "g")) ==
	    SSH2_FX_NO_SUCH_FILE);	/* allowed; ENOTDIR */
	CHECK(peer_end(&p) == 0);

	peer_start(&p, &allow);
	do_init(&p);
	CHECK_OK(do_open(&p, "g", SSH2_FXF_READ, h));
	CHECK(call_status(&p, with_path(req(&p, SSH2_FXP_LSTAT), "g")) ==
	    SSH2_FX_PERMISSION_DENIED);
	CHECK(peer_end(&p) == 0);
}

int
main(void)
{
	struct peer p;
	char *cmd;

	log_init("test_sftp", LOG_LEVEL_QUIET, 0, 1);
	test_attrs();
	test_ls();
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/moat-sftp.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		abort();
	peer_start(&p, NULL);
	do_init(&p);
	test_files(&p);
	test_names(&p);
	test_malformed(&p);
	CHECK(peer_end(&p) == 0);
	test_session_enders();
	test_restricted();
	cmd = x_asprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	x_free(cmd);
	return TEST_DONE();
}
