/*
 * scp_sftp.c: copies over SFTP, scp's default protocol since OpenSSH 9.
 *
 * One SFTP connection per remote operand (two for a copy between
 * remote hosts through this one, where each file passes through an
 * unlinked temporary file, since the library's pipelined engine reads
 * and writes a seekable descriptor). A remote source whose last part
 * holds glob characters is matched against its directory's listing;
 * a leading "~/" is the home directory (expand-path@openssh.com when
 * the server has it). Messages are those of OpenSSH's scp.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
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

struct sconn {
	struct sftp_conn *c;
	int in, out;
	pid_t pid;
};

static void
__attribute__((noreturn))
conn_lost(void)
{
	fprintf(stderr, "scp: Connection closed\r\n");
	exit(255);
}

static int
sconn_open(struct scp *g, const struct rpath *r, struct sconn *sc)
{
	memset(sc, 0, sizeof(*sc));
	if (scp_connect(g, r, "sftp", 1, &sc->in, &sc->out, &sc->pid) != 0)
		return -1;
	if (sftp_client_init(sc->in, sc->out, &g->so, &sc->c) != 0) {
		close(sc->in);
		close(sc->out);
		(void)scp_wait(sc->pid);
		conn_lost();
	}
	return 0;
}

static void
sconn_close(struct sconn *sc)
{
	sftp_client_free(sc->c);
	close(sc->in);
	close(sc->out);
	(void)scp_wait(sc->pid);
}

static char *
remote_prepare(struct sconn *sc, const char *path)
{
	char *out;

	if (*path == '\0')
		return x_strdup(".");
	if (path[0] != '~' || (path[1] != '\0' && path[1] != '/'))
		return x_strdup(path);
	if (sftp_client_has(sc->c, SFTP_EXT_EXPAND_PATH) &&
	    sftp_client_expand_path(sc->c, path, &out) == 0)
		return out;
	return x_strdup(path[1] == '\0' ? "." : path[2] ? path + 2 : ".");
}

static int
remote_stat(struct sconn *sc, const char *path, struct sftp_attrs *a)
{
	int r = sftp_client_stat(sc->c, path, 1, a);

	if (r < 0)
		conn_lost();
	return r;
}

static int
remote_is_dir(struct sconn *sc, const char *path)
{
	struct sftp_attrs a;

	return remote_stat(sc, path, &a) == 0 &&
	    (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) && S_ISDIR(a.perm);
}

static char *
base_name(const char *path)
{
	char *t = x_strdup(path), *b, *r;
	size_t l = strlen(t);

	while (l > 1 && t[l - 1] == '/')
		t[--l] = '\0';
	b = strrchr(t, '/');
	r = x_strdup(b != NULL && b[1] != '\0' ? b + 1 : t);
	x_free(t);
	return r;
}

static char *
join(const char *dir, const char *name)
{
	size_t l = strlen(dir);

	return x_asprintf("%s%s%s", dir, l > 0 && dir[l - 1] == '/' ? "" :
	    "/", name);
}

/* The entries of the remote directory src: 0, or -1 after a message. */
static int
remote_list(struct scp *g, struct sconn *sc, const char *src,
    struct sftp_name **e, size_t *n)
{
	int r;

	if ((r = sftp_client_ls(sc->c, src, e, n)) < 0)
		conn_lost();
	if (r > 0) {
		scp_err(g, "%s: Failed to get directory contents", src);
		return -1;
	}
	return 0;
}

/* The directory dst made unless there is one: 0, or -1 after a message.
 * It is made writable by its owner, to be filled first. */
static int
remote_mkdir(struct scp *g, struct sconn *sc, const char *dst, mode_t mode)
{
	struct sftp_attrs a;
	int r;

	if (remote_is_dir(sc, dst))
		return 0;
	sftp_attrs_clear(&a);
	a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.perm = (mode & 0777) | 0700;
	if ((r = sftp_client_mkdir(sc->c, dst, &a)) < 0)
		conn_lost();
	if (r > 0) {
		scp_err(g, "remote mkdir \"%s\": %s", dst,
		    sftp_client_errmsg(r));
		return -1;
	}
	return 0;
}

/*
 * One file's bytes between the handle h and fd, through xfer (the
 * library's read or write of a whole file), with the progress meter
 * named after src when stdout is a terminal; xfer's value.
 */
static int
metered(struct scp *g, struct sconn *sc, struct sftp_handle *h, int fd,
    const char *src, uint64_t size, uint64_t *done,
    int (*xfer)(struct sftp_conn *, const struct sftp_handle *, int,
    uint64_t, uint64_t *, sftp_progress_fn *, void *))
{
	struct progress pm;
	int r, meter = !g->quiet && isatty(STDOUT_FILENO);
	char *name = base_name(src);

	if (meter)
		progress_start(&pm, name, size, 0);
	r = xfer(sc->c, h, fd, 0, done, meter ? progress_update : NULL, &pm);
	if (meter)
		progress_end(&pm);
	x_free(name);
	return r;
}

/* A file of the connection into fd: 0, or -1 after a message. */
static int
fetch_fd(struct scp *g, struct sconn *sc, const char *src, int fd,
    struct sftp_attrs *a)
{
	struct sftp_handle *h;
	uint64_t done = 0;
	int r;

	if ((r = sftp_client_open(sc->c, src, SSH2_FXF_READ, NULL, &h)) != 0) {
		if (r < 0)
			conn_lost();
		scp_err(g, "%s: %s", src, sftp_client_errmsg(r));
		return -1;
	}
	if ((r = sftp_client_fstat(sc->c, h, a)) < 0)
		conn_lost();
	if (r != 0)
		sftp_attrs_clear(a);
	r = metered(g, sc, h, fd, src, (a->flags & SSH2_FILEXFER_ATTR_SIZE) ?
	    a->size : 0, &done, sftp_client_read_file);
	if (r < 0 && r != ERR_SYSTEM)
		conn_lost();
	if (r == ERR_SYSTEM)
		scp_err(g, "write local: %s", strerror(errno));
	else if (r > 0)
		scp_err(g, "read remote \"%s\": %s", src,
		    sftp_client_errmsg(r));
	else if (ftruncate(fd, (off_t)done) == -1) {
		scp_err(g, "local ftruncate: %s", strerror(errno));
		r = -1;
	}
	if (sftp_client_close(sc->c, h) < 0)
		conn_lost();
	return r == 0 ? 0 : -1;
}

/* fd (mode and times from st) to the file dst of the connection. */
static int
send_fd(struct scp *g, struct sconn *sc, int fd, const struct stat *st,
    const char *src, const char *dst)
{
	struct sftp_handle *h;
	struct sftp_attrs a;
	uint64_t done = 0;
	int r;

	sftp_attrs_clear(&a);
	a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.perm = st->st_mode & 0777;
	if ((r = sftp_client_open(sc->c, dst, SSH2_FXF_WRITE | SSH2_FXF_CREAT |
	    SSH2_FXF_TRUNC, &a, &h)) != 0) {
		if (r < 0)
			conn_lost();
		scp_err(g, "dest open \"%s\": %s", dst, sftp_client_errmsg(r));
		return -1;
	}
	r = metered(g, sc, h, fd, src, (uint64_t)st->st_size, &done,
	    sftp_client_write_file);
	if (r < 0 && r != ERR_SYSTEM)
		conn_lost();
	if (r == ERR_SYSTEM)
		scp_err(g, "read local \"%s\": %s", src, strerror(errno));
	else if (r > 0)
		scp_err(g, "write remote \"%s\": %s", dst,
		    sftp_client_errmsg(r));
	if (r == 0 && g->preserve) {
		a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS |
		    SSH2_FILEXFER_ATTR_ACMODTIME;
		a.perm = st->st_mode & 07777;
		a.atime = (uint32_t)st->st_atime;
		a.mtime = (uint32_t)st->st_mtime;
		if ((r = sftp_client_fsetstat(sc->c, h, &a)) < 0)
			conn_lost();
		if (r > 0)
			scp_err(g, "remote fsetstat \"%s\": %s", dst,
			    sftp_client_errmsg(r));
	}
	if ((r = sftp_client_close(sc->c, h)) < 0)
		conn_lost();
	return r == 0 ? 0 : -1;
}

static void upload(struct scp *g, struct sconn *sc, const char *src,
    const char *dst, int depth);

static void
upload_dir(struct scp *g, struct sconn *sc, const char *src,
    const char *dst, const struct stat *st, int depth)
{
	struct sftp_attrs a;
	struct dirent *e;
	DIR *d;
	char *s, *t;
	int r;

	if (depth > MAX_DEPTH) {
		scp_err(g, "Maximum directory depth exceeded: %d levels",
		    depth);
		return;
	}
	if ((d = opendir(src)) == NULL) {
		scp_err(g, "local opendir \"%s\": %s", src, strerror(errno));
		return;
	}
	if (remote_mkdir(g, sc, dst, st->st_mode) != 0) {
		closedir(d);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		s = join(src, e->d_name);
		t = join(dst, e->d_name);
		upload(g, sc, s, t, depth + 1);
		x_free(s);
		x_free(t);
	}
	closedir(d);
	sftp_attrs_clear(&a);
	a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.perm = st->st_mode & 07777;
	if (g->preserve) {
		a.flags |= SSH2_FILEXFER_ATTR_ACMODTIME;
		a.atime = (uint32_t)st->st_atime;
		a.mtime = (uint32_t)st->st_mtime;
	}
	if ((r = sftp_client_setstat(sc->c, dst, &a)) < 0)
		conn_lost();
	if (r > 0)
		scp_err(g, "remote setstat \"%s\": %s", dst,
		    sftp_client_errmsg(r));
}

static void
upload(struct scp *g, struct sconn *sc, const char *src, const char *dst,
    int depth)
{
	struct stat st;
	int fd;

	if ((fd = open(src, O_RDONLY)) == -1 || fstat(fd, &st) == -1) {
		scp_err(g, "stat local \"%s\": %s", src, strerror(errno));
		if (fd != -1)
			close(fd);
		return;
	}
	if (S_ISDIR(st.st_mode) && g->recurse) {
		close(fd);
		upload_dir(g, sc, src, dst, &st, depth);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		scp_err(g, "local \"%s\" is not a regular file", src);
		scp_err(g, "failed to upload file %s to %s", src, dst);
		return;
	}
	if (send_fd(g, sc, fd, &st, src, dst) != 0)
		scp_err(g, "failed to upload file %s to %s", src, dst);
	close(fd);
}

int
sftp_upload(struct scp *g, char **src, size_t n, const struct rpath *t)
{
	struct sconn sc;
	char *tp, *b, *dst;
	size_t i;
	int isdir;

	if (sconn_open(g, t, &sc) != 0)
		return -1;
	tp = remote_prepare(&sc, t->path);
	isdir = remote_is_dir(&sc, tp);
	if (g->targetdir && !isdir) {
		scp_err(g, "%s: Not a directory", tp);
		goto out;
	}
	for (i = 0; i < n; i++) {
		b = base_name(src[i]);
		dst = isdir ? join(tp, b) : x_strdup(tp);
		upload(g, &sc, src[i], dst, 0);
		x_free(dst);
		x_free(b);
	}
out:
	x_free(tp);
	sconn_close(&sc);
	return g->errs ? -1 : 0;
}

static void
local_times(struct scp *g, const char *path, const struct sftp_attrs *a)
{
	struct timeval tv[2];

	if (!(a->flags & SSH2_FILEXFER_ATTR_ACMODTIME))
		return;
	tv[0].tv_sec = a->atime;
	tv[1].tv_sec = a->mtime;
	tv[0].tv_usec = tv[1].tv_usec = 0;
	if (utimes(path, tv) == -1)
		scp_err(g, "Can't set times on \"%s\": %s", path,
		    strerror(errno));
}

static void download(struct scp *g, struct sconn *sc, const char *src,
    const char *dst, int depth);

static void
download_dir(struct scp *g, struct sconn *sc, const char *src,
    const char *dst, const struct sftp_attrs *da, int depth)
{
	struct sftp_name *e;
	size_t n, i;
	mode_t mode = (da->flags & SSH2_FILEXFER_ATTR_PERMISSIONS) ?
	    da->perm & 07777 : 0755;
	char *s, *t;

	if (depth > MAX_DEPTH) {
		scp_err(g, "Maximum directory depth exceeded: %d levels",
		    depth);
		return;
	}
	if (mkdir(dst, mode | S_IRWXU) == -1 && errno != EEXIST) {
		scp_err(g, "mkdir %s: %s", dst, strerror(errno));
		return;
	}
	if (remote_list(g, sc, src, &e, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		const char *f = e[i].filename;

		if (strcmp(f, ".") == 0 || strcmp(f, "..") == 0)
			continue;
		if (strchr(f, '/') != NULL || *f == '\0') {
			scp_err(g, "download %s: unexpected name", src);
			continue;
		}
		s = join(src, f);
		t = join(dst, f);
		download(g, sc, s, t, depth + 1);
		x_free(s);
		x_free(t);
	}
	sftp_names_free(e, n);
	if (g->preserve) {
		(void)chmod(dst, mode);
		local_times(g, dst, da);
	} else {
		mode_t mask = umask(0);

		(void)umask(mask);
		(void)chmod(dst, mode & ~mask);
	}
}

static void
download(struct scp *g, struct sconn *sc, const char *src, const char *dst,
    int depth)
{
	struct sftp_attrs a;
	mode_t mode, mask;
	int fd, r;

	if ((r = remote_stat(sc, src, &a)) != 0) {
		scp_err(g, "%s: %s", src, sftp_client_errmsg(r));
		return;
	}
	mode = (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) ? a.perm : 0644;
	if (S_ISDIR(mode) && g->recurse) {
		download_dir(g, sc, src, dst, &a, depth);
		return;
	}
	if (!S_ISREG(mode)) {
		/* OpenSSH's glob marks a directory with a '/'. */
		scp_err(g, "download %s%s: not a regular file", src,
		    S_ISDIR(mode) && src[strlen(src) - 1] != '/' ? "/" : "");
		return;
	}
	if ((fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC,
	    (mode & 0777) | S_IWUSR)) == -1) {
		scp_err(g, "open local \"%s\": %s", dst, strerror(errno));
		return;
	}
	if (fetch_fd(g, sc, src, fd, &a) == 0) {
		if (g->preserve) {
			if (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS)
				(void)fchmod(fd, a.perm & 07777);
			local_times(g, dst, &a);
		} else {
			mask = umask(0);
			(void)umask(mask);
			(void)fchmod(fd, mode & 0777 & ~mask);
		}
	}
	close(fd);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths src names: itself, or what its last part's pattern
 * matches in its directory (sorted); none is an error. */
static int
remote_glob(struct scp *g, struct sconn *sc, const char *src, char ***out,
    size_t *nout)
{
	struct sftp_name *e;
	const char *slash = strrchr(src, '/');
	char *dir, *pat;
	size_t n, i;
	int r;

	*out = NULL;
	*nout = 0;
	pat = x_strdup(slash != NULL ? slash + 1 : src);
	if (strpbrk(pat, "*?[") == NULL) {
		*out = x_calloc(1, sizeof(**out));
		(*out)[0] = x_strdup(src);
		*nout = 1;
		x_free(pat);
		return 0;
	}
	dir = slash == NULL ? x_strdup(".") : slash == src ? x_strdup("/") :
	    x_strndup(src, (size_t)(slash - src));
	if ((r = sftp_client_ls(sc->c, dir, &e, &n)) < 0)
		conn_lost();
	for (i = 0; r == 0 && i < n; i++) {
		if (strcmp(e[i].filename, ".") == 0 ||
		    strcmp(e[i].filename, "..") == 0 ||
		    strchr(e[i].filename, '/') != NULL ||
		    fnmatch(pat, e[i].filename, FNM_PERIOD) != 0)
			continue;
		*out = x_reallocarray(*out, *nout + 1, sizeof(**out));
		(*out)[(*nout)++] = slash == NULL ? x_strdup(e[i].filename) :
		    join(dir, e[i].filename);
	}
	if (r == 0)
		sftp_names_free(e, n);
	x_free(dir);
	x_free(pat);
	if (*nout == 0) {
		scp_err(g, "%s: No such file or directory", src);
		return -1;
	}
	qsort(*out, *nout, sizeof(**out), cmp_str);
	return 0;
}

int
sftp_download(struct scp *g, const struct rpath *s, const char *target)
{
	struct sconn sc;
	struct stat st;
	char *sp, **m, *b, *dst;
	size_t n, i;
	int isdir = stat(target, &st) == 0 && S_ISDIR(st.st_mode);

	if (sconn_open(g, s, &sc) != 0)
		return -1;
	sp = remote_prepare(&sc, s->path);
	if (remote_glob(g, &sc, sp, &m, &n) == 0) {
		if (n > 1 && !isdir)
			scp_err(g, "%s: Not a directory", target);
		for (i = 0; i < n && (n == 1 || isdir); i++) {
			b = base_name(m[i]);
			dst = isdir ? join(target, b) : x_strdup(target);
			download(g, &sc, m[i], dst, 0);
			x_free(dst);
			x_free(b);
		}
		scp_free_strv(m, n);
	}
	x_free(sp);
	sconn_close(&sc);
	return g->errs ? -1 : 0;
}

/* A temporary file, already unlinked, for a file between two hosts. */
static int
tmp_fd(struct scp *g)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	path = x_asprintf("%s/scp.XXXXXXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(path)) == -1)
		scp_err(g, "mkstemp %s: %s", path, strerror(errno));
	else
		(void)unlink(path);
	x_free(path);
	return fd;
}

static void
between(struct scp *g, struct sconn *a, struct sconn *b, const char *src,
    const char *dst, int depth)
{
	struct sftp_attrs at;
	struct sftp_name *e;
	struct stat st;
	size_t n, i;
	char *s, *t;
	int r, fd;

	if ((r = remote_stat(a, src, &at)) != 0) {
		scp_err(g, "%s: %s", src, sftp_client_errmsg(r));
		return;
	}
	memset(&st, 0, sizeof(st));
	sftp_attrs_to_stat(&at, &st);
	if (!(at.flags & SSH2_FILEXFER_ATTR_PERMISSIONS))
		st.st_mode = S_IFREG | 0644;
	if (S_ISDIR(st.st_mode) && g->recurse && depth < MAX_DEPTH) {
		struct sftp_attrs da;

		if (remote_mkdir(g, b, dst, st.st_mode) != 0 ||
		    remote_list(g, a, src, &e, &n) != 0)
			return;
		for (i = 0; i < n; i++) {
			if (strcmp(e[i].filename, ".") == 0 ||
			    strcmp(e[i].filename, "..") == 0 ||
			    strchr(e[i].filename, '/') != NULL)
				continue;
			s = join(src, e[i].filename);
			t = join(dst, e[i].filename);
			between(g, a, b, s, t, depth + 1);
			x_free(s);
			x_free(t);
		}
		sftp_names_free(e, n);
		sftp_attrs_clear(&da);
		da.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
		da.perm = st.st_mode & 07777;
		if (g->preserve) {
			da.flags |= SSH2_FILEXFER_ATTR_ACMODTIME;
			da.atime = at.atime;
			da.mtime = at.mtime;
		}
		if (sftp_client_setstat(b->c, dst, &da) < 0)
			conn_lost();
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		scp_err(g, "download %s: not a regular file", src);
		return;
	}
	if ((fd = tmp_fd(g)) == -1)
		return;
	if (fetch_fd(g, a, src, fd, &at) == 0) {
		sftp_attrs_to_stat(&at, &st);
		st.st_size = lseek(fd, 0, SEEK_END);
		if (send_fd(g, b, fd, &st, src, dst) != 0)
			scp_err(g, "failed to upload file %s to %s", src, dst);
	}
	close(fd);
}

int
sftp_remote2remote(struct scp *g, const struct rpath *s,
    const struct rpath *t)
{
	struct sconn a, b;
	char *sp, *tp, **m, *base, *dst;
	size_t n, i;
	int isdir;

	if (sconn_open(g, t, &b) != 0)
		return -1;
	if (sconn_open(g, s, &a) != 0) {
		sconn_close(&b);
		return -1;
	}
	sp = remote_prepare(&a, s->path);
	tp = remote_prepare(&b, t->path);
	isdir = remote_is_dir(&b, tp);
	if (g->targetdir && !isdir)
		scp_err(g, "%s: Not a directory", tp);
	else if (remote_glob(g, &a, sp, &m, &n) == 0) {
		for (i = 0; i < n; i++) {
			base = base_name(m[i]);
			dst = isdir ? join(tp, base) : x_strdup(tp);
			between(g, &a, &b, m[i], dst, 0);
			x_free(dst);
			x_free(base);
		}
		scp_free_strv(m, n);
	}
	x_free(sp);
	x_free(tp);
	sconn_close(&a);
	sconn_close(&b);
	return g->errs ? -1 : 0;
}
