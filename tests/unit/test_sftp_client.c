/*
 * test_sftp_client.c: the SFTP client library.
 *
 * Against the real server core (in a child, over a socketpair, in a
 * fresh temporary directory): every operation and extension, and
 * pipelined transfers of a file of about a megabyte with several
 * buffer sizes and request counts (one request at a time, many, a
 * buffer that does not divide the file), resumed from the middle, and
 * one cancelled (EINTR, the connection still usable).
 *
 * Against a scripted server: a valid reply stream built by hand drives
 * a fixed series of operations to success; then the same stream cut at
 * every byte must make the series fail cleanly (no hang, no crash, no
 * leak), and replies that lie (a wrong id, more data than asked for, a
 * huge length or count, an over-long handle, success where a handle
 * was due) must each be refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "sftp_client.h"
#include "sftp_server.h"
#include "testlib.h"

static char tmpdir[64];

static pid_t
server_start(int *fdp)
{
	struct sftp_server_opts o = { "tester", tmpdir, "127.0.0.1", 0,
	    NULL, NULL };
	struct sftp_server *s;
	int sv[2], r;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		abort();
	if ((pid = fork()) == 0) {
		close(sv[0]);
		if (sftp_server_new(&o, sv[1], sv[1], &s) != 0)
			_exit(2);
		r = sftp_server_run(s);
		sftp_server_free(s);
		_exit(r == 0 ? 0 : 1);
	}
	close(sv[1]);
	*fdp = sv[0];
	return pid;
}

static int
server_end(int fd, pid_t pid)
{
	int st;

	close(fd);
	if (waitpid(pid, &st, 0) == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static char *
tpath(const char *name)
{
	return x_asprintf("%s/%s", tmpdir, name);
}

/* Upload src as remote name, download it to dst, compare. */
static void
round_trip(struct sftp_conn *c, const char *src, const char *name,
    const char *dst, size_t size)
{
	struct sftp_handle *h;
	struct sftp_attrs a;
	char *rp = tpath(name);
	uint64_t done = 0;
	int lfd, r;
	struct stat st;

	lfd = open(src, O_RDONLY);
	CHECK(lfd != -1);
	CHECK_OK(sftp_client_open(c, rp, SSH2_FXF_WRITE | SSH2_FXF_CREAT |
	    SSH2_FXF_TRUNC, NULL, &h));
	CHECK_OK(sftp_client_write_file(c, h, lfd, 0, &done, NULL, NULL));
	CHECK(done == size);
	CHECK_OK(sftp_client_close(c, h));
	close(lfd);
	CHECK_OK(sftp_client_stat(c, rp, 1, &a));
	CHECK(a.size == size);

	lfd = open(dst, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK_OK(sftp_client_open(c, rp, SSH2_FXF_READ, NULL, &h));
	r = sftp_client_read_file(c, h, lfd, 0, &done, NULL, NULL);
	CHECK_OK(r);
	CHECK(done == size);
	CHECK_OK(sftp_client_close(c, h));
	CHECK(fstat(lfd, &st) == 0 && (size_t)st.st_size == size);
	close(lfd);
	x_free(rp);
}

static int
same_files(const char *a, const char *b)
{
	char *cmd = x_asprintf("cmp -s '%s' '%s'", a, b);
	int r = system(cmd);

	x_free(cmd);
	return r == 0;
}

static void
test_transfers(void)
{
	static const struct { uint32_t buflen, nreq; } cfg[] = {
		{ 0, 0 }, { 32768, 1 }, { 1000, 64 }, { 7, 3 },
		{ 200000, 16 },
	};
	struct sftp_client_opts o;
	struct sftp_conn *c;
	struct sftp_handle *h;
	char *src = tpath("local_src"), *dst = tpath("local_dst");
	char *rp = tpath("remote");
	size_t size = 1048576 + 12345, i;
	unsigned char *data = x_malloc(size);
	uint64_t done;
	int fd, lfd;
	pid_t pid;

	for (i = 0; i < size; i++)
		data[i] = (unsigned char)(i * 7 + (i >> 11));
	lfd = open(src, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(write(lfd, data, size) == (ssize_t)size);
	close(lfd);
	for (i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
		o.buflen = cfg[i].buflen;
		o.num_requests = cfg[i].nreq;
		o.limit_kbps = 0;
		pid = server_start(&fd);
		CHECK_OK(sftp_client_init(fd, fd, &o, &c));
		if (c == NULL)
			break;
		if (cfg[i].buflen == 0)	/* limits@openssh.com raised it */
			CHECK(sftp_client_buflen(c) > 32768);
		if (cfg[i].buflen == 7 && i + 1 < sizeof(cfg) / sizeof(cfg[0]))
			size = 5000;	/* small requests: a small file */
		lfd = open(src, O_WRONLY | O_TRUNC);
		CHECK(write(lfd, data, size) == (ssize_t)size);
		close(lfd);
		round_trip(c, src, "remote", dst, size);
		CHECK(same_files(src, dst));

		/* Resume a download from the middle. */
		CHECK(truncate(dst, (off_t)(size / 3)) == 0);
		lfd = open(dst, O_WRONLY);
		CHECK_OK(sftp_client_open(c, rp, SSH2_FXF_READ, NULL, &h));
		CHECK_OK(sftp_client_read_file(c, h, lfd, size / 3, &done,
		    NULL, NULL));
		CHECK(done == size - size / 3);
		CHECK_OK(sftp_client_close(c, h));
		close(lfd);
		CHECK(same_files(src, dst));
		/* Cancelled: EINTR, and the connection goes on. */
		if (i == 0) {
			static volatile sig_atomic_t stop = 1;
			struct sftp_attrs at;

			sftp_client_set_cancel(c, &stop);
			lfd = open(dst, O_WRONLY | O_TRUNC);
			CHECK_OK(sftp_client_open(c, rp, SSH2_FXF_READ, NULL,
			    &h));
			CHECK(sftp_client_read_file(c, h, lfd, 0, &done, NULL,
			    NULL) == ERR_SYSTEM && errno == EINTR);
			CHECK(done == 0);
			CHECK_OK(sftp_client_close(c, h));
			close(lfd);
			CHECK_OK(sftp_client_stat(c, rp, 1, &at));
			sftp_client_set_cancel(c, NULL);
		}
		size = 1048576 + 12345;
		sftp_client_free(c);
		CHECK(server_end(fd, pid) == 0);
	}
	x_free(data);
	x_free(src);
	x_free(dst);
	x_free(rp);
}

static void
test_ops(void)
{
	struct sftp_conn *c;
	struct sftp_attrs a;
	struct sftp_name *names;
	struct sftp_statvfs sv;
	struct sftp_handle *h1, *h2;
	char *d = tpath("dir"), *f = tpath("dir/f"), *g = tpath("dir/g");
	char *l = tpath("dir/l"), *hl = tpath("dir/hard"), *cp = tpath("cp");
	char *s = NULL, *un[2], *gn[1];
	uint32_t ids[2] = { 0, 4000000000u }, gid0 = 0;
	size_t n = 0;
	int fd;
	pid_t pid;

	pid = server_start(&fd);
	CHECK_OK(sftp_client_init(fd, fd, NULL, &c));
	CHECK(sftp_client_version(c) == 3);
	CHECK(sftp_client_has(c, SFTP_EXT_POSIX_RENAME));
	CHECK(sftp_client_has(c, SFTP_EXT_STATVFS));
	CHECK(sftp_client_has(c, SFTP_EXT_USERS_GROUPS));
	CHECK_OK(sftp_client_realpath(c, tmpdir, &s));
	x_free(s);
	CHECK_OK(sftp_client_mkdir(c, d, NULL));
	CHECK(sftp_client_mkdir(c, d, NULL) == SSH2_FX_FAILURE);
	CHECK_OK(sftp_client_open(c, f, SSH2_FXF_WRITE | SSH2_FXF_CREAT,
	    NULL, &h1));
	CHECK_OK(sftp_client_fsync(c, h1));
	CHECK_OK(sftp_client_fstat(c, h1, &a));
	CHECK(a.size == 0);
	sftp_attrs_clear(&a);
	a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.perm = 0640;
	CHECK_OK(sftp_client_fsetstat(c, h1, &a));
	CHECK_OK(sftp_client_close(c, h1));
	CHECK_OK(sftp_client_stat(c, f, 1, &a));
	CHECK((a.perm & 0777) == 0640);
	a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.perm = 0600;
	CHECK_OK(sftp_client_setstat(c, f, &a));
	a.perm = 0604;
	CHECK_OK(sftp_client_lsetstat(c, f, &a));
	CHECK_OK(sftp_client_stat(c, f, 0, &a));
	CHECK((a.perm & 0777) == 0604);
	CHECK_OK(sftp_client_rename(c, f, g, 1));
	CHECK_OK(sftp_client_rename(c, g, f, 0));
	CHECK_OK(sftp_client_symlink(c, "f", l));
	CHECK_OK(sftp_client_readlink(c, l, &s));
	CHECK_STR(s, "f");
	x_free(s);
	CHECK_OK(sftp_client_stat(c, l, 0, &a));
	CHECK(S_ISLNK(a.perm));
	CHECK_OK(sftp_client_hardlink(c, f, hl));
	CHECK_OK(sftp_client_ls(c, d, &names, &n));
	CHECK(n == 5);		/* . .. f l hard */
	sftp_names_free(names, n);
	CHECK_OK(sftp_client_statvfs(c, d, &sv));
	CHECK(sv.blocks > 0);
	CHECK_OK(sftp_client_expand_path(c, "~", &s));
	CHECK_STR(s, tmpdir);
	x_free(s);
	CHECK(sftp_client_home(c, &s) >= 0);
	x_free(s);
	CHECK_OK(sftp_client_users_groups(c, ids, 2, &gid0, 1, un, gn));
	CHECK_STR(un[0], "root");
	CHECK(un[1] == NULL);
	CHECK(gn[0] != NULL);
	x_free(un[0]);
	x_free(gn[0]);
	/* copy-data between two handles. */
	CHECK_OK(sftp_client_open(c, f, SSH2_FXF_READ, NULL, &h1));
	CHECK_OK(sftp_client_open(c, cp, SSH2_FXF_WRITE | SSH2_FXF_CREAT,
	    NULL, &h2));
	CHECK_OK(sftp_client_copy_data(c, h1, 0, 0, h2, 0));
	CHECK_OK(sftp_client_close(c, h1));
	CHECK_OK(sftp_client_close(c, h2));
	/* Refusals come back as status codes. */
	CHECK(sftp_client_stat(c, "/nonexistent/x", 1, &a) ==
	    SSH2_FX_NO_SUCH_FILE);
	CHECK(sftp_client_open(c, "/nonexistent/x", SSH2_FXF_READ, NULL,
	    &h1) == SSH2_FX_NO_SUCH_FILE && h1 == NULL);
	CHECK(sftp_client_rmdir(c, d) == SSH2_FX_FAILURE);
	CHECK_OK(sftp_client_remove(c, l));
	CHECK_OK(sftp_client_remove(c, hl));
	CHECK_OK(sftp_client_remove(c, f));
	CHECK_OK(sftp_client_remove(c, cp));
	CHECK_OK(sftp_client_rmdir(c, d));
	CHECK_STR(sftp_client_errmsg(SSH2_FX_NO_SUCH_FILE),
	    "No such file or directory");
	sftp_client_free(c);
	CHECK(server_end(fd, pid) == 0);
	x_free(d);
	x_free(f);
	x_free(g);
	x_free(l);
	x_free(hl);
	x_free(cp);
}

/* --- the scripted server --- */

static void
pkt(struct sbuf *out, struct sbuf *p)
{
	(void)sbuf_put_u32(out, (uint32_t)sbuf_len(p));
	(void)sbuf_putb(out, p);
	sbuf_reset(p);
}

static void
put_status(struct sbuf *out, struct sbuf *p, uint32_t id, uint32_t st)
{
	(void)sbuf_put_u8(p, SSH2_FXP_STATUS);
	(void)sbuf_put_u32(p, id);
	(void)sbuf_put_u32(p, st);
	(void)sbuf_put_cstring(p, "");
	(void)sbuf_put_cstring(p, "");
	pkt(out, p);
}

/*
 * The replies to script_ops(), with these changes: lie 1 wrong id,
 * 2 too much data, 3 huge length, 4 huge NAME count, 5 long handle,
 * 6 STATUS OK for OPEN.
 */
static struct sbuf *
script_replies(int lie)
{
	struct sbuf *out = sbuf_new(), *p = sbuf_new();
	struct sftp_attrs a;
	unsigned char big[300];
	int i;

	memset(big, 'h', sizeof(big));
	sftp_attrs_clear(&a);
	(void)sbuf_put_u8(p, SSH2_FXP_VERSION);
	(void)sbuf_put_u32(p, 3);
	(void)sbuf_put_cstring(p, "posix-rename@openssh.com");
	(void)sbuf_put_cstring(p, "1");
	pkt(out, p);
	/* 0: REALPATH */
	(void)sbuf_put_u8(p, SSH2_FXP_NAME);
	(void)sbuf_put_u32(p, lie == 1 ? 9 : 0);
	(void)sbuf_put_u32(p, 1);
	(void)sbuf_put_cstring(p, "/home");
	(void)sbuf_put_cstring(p, "");
	(void)sftp_attrs_encode(p, &a);
	pkt(out, p);
	/* 1: STAT */
	a.flags = SSH2_FILEXFER_ATTR_SIZE | SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.size = 21;
	a.perm = 0100644;
	(void)sbuf_put_u8(p, SSH2_FXP_ATTRS);
	(void)sbuf_put_u32(p, 1);
	(void)sftp_attrs_encode(p, &a);
	pkt(out, p);
	/* 2: OPEN */
	if (lie == 6)
		put_status(out, p, 2, SSH2_FX_OK);
	(void)sbuf_put_u8(p, SSH2_FXP_HANDLE);
	(void)sbuf_put_u32(p, 2);
	(void)sbuf_put_string(p, big, lie == 5 ? sizeof(big) : 2);
	pkt(out, p);
	/* 3, 4: READ 16 at 0 and 16 at 16 (5 come back); 5: EOF at 21. */
	(void)sbuf_put_u8(p, SSH2_FXP_DATA);
	(void)sbuf_put_u32(p, 3);
	(void)sbuf_put_string(p, "0123456789abcdefXYZ", lie == 2 ? 17 : 16);
	pkt(out, p);
	if (lie == 3) {
		(void)sbuf_put_u32(out, 0x7fffffff);
		(void)sbuf_put_u8(out, SSH2_FXP_DATA);
	}
	(void)sbuf_put_u8(p, SSH2_FXP_DATA);
	(void)sbuf_put_u32(p, 4);
	(void)sbuf_put_string(p, "ghijk", 5);
	pkt(out, p);
	put_status(out, p, 5, SSH2_FX_EOF);
	put_status(out, p, 6, SSH2_FX_OK);		/* CLOSE */
	/* 7: OPENDIR, 8: READDIR (two names), 9: READDIR EOF, 10 CLOSE */
	(void)sbuf_put_u8(p, SSH2_FXP_HANDLE);
	(void)sbuf_put_u32(p, 7);
	(void)sbuf_put_string(p, "d1", 2);
	pkt(out, p);
	(void)sbuf_put_u8(p, SSH2_FXP_NAME);
	(void)sbuf_put_u32(p, 8);
	(void)sbuf_put_u32(p, lie == 4 ? 0xffffffff : 2);
	for (i = 0; i < 2; i++) {
		(void)sbuf_put_cstring(p, i ? "b" : "a");
		(void)sbuf_put_cstring(p, "long");
		(void)sftp_attrs_encode(p, &a);
	}
	pkt(out, p);
	put_status(out, p, 9, SSH2_FX_EOF);
	put_status(out, p, 10, SSH2_FX_OK);
	sbuf_free(p);
	return out;
}

/* The operations the script answers; 0 when all succeed. */
static int
script_ops(int fd, int lfd)
{
	struct sftp_client_opts o = { 16, 1, 0 };
	struct sftp_conn *c;
	struct sftp_handle *h = NULL;
	struct sftp_name *names = NULL;
	struct sftp_attrs a;
	uint64_t done;
	size_t n = 0;
	char *s = NULL;
	int r;

	if ((r = sftp_client_init(fd, fd, &o, &c)) != 0)
		return r;
	if ((r = sftp_client_realpath(c, ".", &s)) != 0 ||
	    (r = sftp_client_stat(c, "f", 1, &a)) != 0 ||
	    (r = sftp_client_open(c, "f", SSH2_FXF_READ, NULL, &h)) != 0)
		goto out;
	r = sftp_client_read_file(c, h, lfd, 0, &done, NULL, NULL);
	if (r == 0 && done != 21)
		r = ERR_INTERNAL;
	if (r == 0)
		r = sftp_client_close(c, h);
	else {
		x_free(h->data);
		x_free(h);
	}
	if (r == 0 && (r = sftp_client_ls(c, "d", &names, &n)) == 0 &&
	    (n != 2 || strcmp(names[1].filename, "b") != 0))
		r = ERR_INTERNAL;
	sftp_names_free(names, n);
out:
	x_free(s);
	sftp_client_free(c);
	return r;
}

/* Feed len bytes of the script, then end of file; the ops' result. */
static int
script_run(const struct sbuf *script, size_t len)
{
	char *lp = tpath("script_local");
	int sv[2], lfd, r;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		abort();
	if (write(sv[1], sbuf_ptr(script), len) != (ssize_t)len)
		abort();
	shutdown(sv[1], SHUT_WR);
	lfd = open(lp, O_RDWR | O_CREAT | O_TRUNC, 0600);
	r = script_ops(sv[0], lfd);
	close(lfd);
	close(sv[0]);
	close(sv[1]);
	x_free(lp);
	return r;
}

static void
test_script(void)
{
	struct sbuf *s = script_replies(0);
	size_t k, bad = 0;
	int lie, r;

	CHECK_OK(script_run(s, sbuf_len(s)));
	for (k = 0; k < sbuf_len(s); k++)
		if (script_run(s, k) >= 0)
			bad++;
	CHECK(bad == 0);
	sbuf_free(s);
	for (lie = 1; lie <= 6; lie++) {
		s = script_replies(lie);
		r = script_run(s, sbuf_len(s));
		if (r != ERR_PROTOCOL)
			fprintf(stderr, "lie %d: %d\n", lie, r);
		CHECK(r == ERR_PROTOCOL);
		sbuf_free(s);
	}
}

int
main(void)
{
	char *cmd;

	log_init("test_sftp_client", LOG_LEVEL_QUIET, 0, 1);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/moat-sftpc.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		abort();
	test_ops();
	test_transfers();
	test_script();
	cmd = x_asprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	x_free(cmd);
	return TEST_DONE();
}
