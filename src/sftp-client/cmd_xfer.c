/*
 * cmd_xfer.c: get, put, reget, reput (and -r for whole trees).
 *
 * Remote sources are globbed on the server, local ones with glob(3);
 * several sources need a directory as destination. A file moves through
 * the library's pipelined engine; -a (or reget/reput) resumes at the
 * size the destination already has, -p copies mode and times, -f asks
 * for an fsync at the end. Messages are OpenSSH's sftp's.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp.h"

struct xopts {
	int resume, preserve, fsync, recurse;
};

static void
get_opts(struct sftp_ctx *x, int resume, struct xopts *o)
{
	o->resume = resume || has_flag(x, 'a') || x->global_a;
	o->preserve = has_flag(x, 'p') || has_flag(x, 'P') || x->global_p;
	o->fsync = has_flag(x, 'f') || x->global_f;
	o->recurse = has_flag(x, 'r') || has_flag(x, 'R') || x->global_r;
}

static char *
base_name(const char *path)
{
	char *t = x_strdup(path), *b;
	size_t l = strlen(t);

	while (l > 1 && t[l - 1] == '/')
		t[--l] = '\0';
	b = x_strdup(basename(t));
	x_free(t);
	return b;
}

static char *
join(const char *dir, const char *name)
{
	size_t l = strlen(dir);

	if (l > 0 && dir[l - 1] == '/')
		return x_asprintf("%s%s", dir, name);
	return x_asprintf("%s/%s", dir, name);
}

/* The meter names the file by its last component, as OpenSSH's. */
static const char *
last_name(const char *path)
{
	const char *p = strrchr(path, '/');

	return p != NULL && p[1] != '\0' ? p + 1 : path;
}

static int
local_is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
download_file(struct sftp_ctx *x, const char *src, const char *dst,
    const struct xopts *o)
{
	struct sftp_handle *h;
	struct sftp_attrs a;
	struct stat st;
	uint64_t off = 0, done = 0;
	int fd, r, ret = -1, meter;
	mode_t mode = 0666;
	struct progress pm;

	log_debug2("do_download: download remote \"%s\" to local \"%s\"",
	    src, dst);
	if ((r = sftp_client_open(x->c, src, SSH2_FXF_READ, NULL, &h)) != 0) {
		if (r < 0)
			conn_lost(r);
		fprintf(stderr, "remote open(\"%s\"): %s\r\n", src,
		    sftp_client_errmsg(r));
		return -1;
	}
	if ((r = sftp_client_fstat(x->c, h, &a)) < 0)
		conn_lost(r);
	if (r == 0 && (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS))
		mode = a.perm & 0777;
	fd = open(dst, O_WRONLY | O_CREAT | (o->resume ? 0 : O_TRUNC),
	    mode | S_IWUSR);
	if (fd == -1) {
		fprintf(stderr, "open local \"%s\": %s\r\n", dst,
		    strerror(errno));
		goto out;
	}
	if (o->resume) {
		if (fstat(fd, &st) == -1)
			goto out;
		off = (uint64_t)st.st_size;
		if ((a.flags & SSH2_FILEXFER_ATTR_SIZE) && a.size <= off) {
			if (a.size == off)
				fprintf(stderr, "File \"%s\" was not "
				    "modified\r\n", dst);
			else
				fprintf(stderr, "Unable to resume download "
				    "of \"%s\": local file is larger than "
				    "remote\r\n", dst);
			ret = a.size == off ? 0 : -1;
			goto out;
		}
	}
	meter = x->progress && isatty(STDOUT_FILENO);
	if (meter)
		progress_start(&pm, last_name(src), (a.flags & SSH2_FILEXFER_ATTR_SIZE) ?
		    a.size : 0, off);
	r = sftp_client_read_file(x->c, h, fd, off, &done,
	    meter ? progress_update : NULL, &pm);
	if (meter)
		progress_end(&pm);
	if (r < 0 && r != ERR_SYSTEM)
		conn_lost(r);
	if (r == ERR_SYSTEM) {
		fprintf(stderr, "write local \"%s\": %s\r\n", dst,
		    strerror(errno));
		goto out;
	}
	if (r > 0) {
		fprintf(stderr, "read remote \"%s\" : %s\r\n", src,
		    sftp_client_errmsg(r));
		goto out;
	}
	if (ftruncate(fd, (off_t)(off + done)) == -1) {
		fprintf(stderr, "local ftruncate \"%s\": %s\r\n", dst,
		    strerror(errno));
		goto out;
	}
	if (o->preserve && (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS))
		(void)fchmod(fd, a.perm & 07777);
	if (o->preserve && (a.flags & SSH2_FILEXFER_ATTR_ACMODTIME)) {
		struct timeval tv[2];

		tv[0].tv_sec = a.atime;
		tv[1].tv_sec = a.mtime;
		tv[0].tv_usec = tv[1].tv_usec = 0;
		if (futimes(fd, tv) == -1)
			fprintf(stderr, "Can't set times on \"%s\": %s\r\n",
			    dst, strerror(errno));
	}
	if (o->fsync && fsync(fd) == -1)
		fprintf(stderr, "fsync \"%s\": %s\r\n", dst, strerror(errno));
	ret = 0;
out:
	if (fd != -1)
		close(fd);
	if ((r = sftp_client_close(x->c, h)) < 0)
		conn_lost(r);
	return ret;
}

static int
download_dir(struct sftp_ctx *x, const char *src, const char *dst,
    const struct xopts *o, int depth)
{
	struct sftp_name *e;
	size_t n, i;
	char *s, *d, *shown;
	int r, ret = 0;

	if (depth > 64) {
		fprintf(stderr, "Maximum directory depth exceeded: %d "
		    "levels\r\n", depth);
		return -1;
	}
	shown = x_strdup(src);
	if (strlen(shown) > 1 && shown[strlen(shown) - 1] == '/')
		shown[strlen(shown) - 1] = '\0';
	printf("Retrieving %s\n", shown);
	fflush(stdout);
	if (mkdir(dst, 0777) == -1 && errno != EEXIST) {
		fprintf(stderr, "mkdir %s: %s\r\n", dst, strerror(errno));
		x_free(shown);
		return -1;
	}
	if ((r = sftp_client_ls(x->c, shown, &e, &n)) < 0)
		conn_lost(r);
	if (r > 0) {
		fprintf(stderr, "%s: Failed to get directory contents\r\n",
		    shown);
		x_free(shown);
		return -1;
	}
	for (i = 0; i < n && ret == 0; i++) {
		const char *f = e[i].filename;
		uint32_t m = e[i].a.perm;

		if (strcmp(f, ".") == 0 || strcmp(f, "..") == 0 ||
		    strchr(f, '/') != NULL)
			continue;
		s = join(shown, f);
		d = join(dst, f);
		if (S_ISDIR(m))
			ret = download_dir(x, s, d, o, depth + 1);
		else if (S_ISREG(m))
			ret = download_file(x, s, d, o);
		else
			fprintf(stderr, "download \"%s\": not a regular "
			    "file\r\n", s);
		x_free(s);
		x_free(d);
	}
	sftp_names_free(e, n);
	x_free(shown);
	return ret;
}

int
fetch_direct(struct sftp_ctx *x, const char *rpath, const char *local)
{
	struct word w[3];
	int r;

	memset(w, 0, sizeof(w));
	w[0].text = w[0].pat = (char *)"get";
	w[1].text = w[1].pat = (char *)rpath;
	w[2].text = w[2].pat = (char *)local;
	x->flags[0] = '\0';
	r = cmd_get(x, local ? 3 : 2, w, 0);
	return r;
}

int
cmd_get(struct sftp_ctx *x, int argc, struct word *w, int resume)
{
	struct xopts o;
	char *abs = rpath_abs(x, w[1].pat), **m, *dst;
	const char *local = argc > 2 ? w[2].text : NULL;
	size_t n, i;
	int r = 0, isdir, skipped = 0;

	get_opts(x, resume, &o);
	rglob(x, abs, 1, 0, &m, &n);
	if (n == 0) {
		/* The pattern, escapes and all, as OpenSSH shows it. */
		fprintf(stderr, "File \"%s\" not found.\r\n", abs);
		x_free(abs);
		free_strv(m, n);
		return -1;
	}
	x_free(abs);
	if (n > 1 && local != NULL && !local_is_dir(local)) {
		fprintf(stderr, "Multiple source paths, but destination \"%s\" "
		    "is not a directory\r\n", local);
		free_strv(m, n);
		return -1;
	}
	for (i = 0; i < n && r == 0; i++) {
		char *b = base_name(m[i]);

		if (local != NULL && local_is_dir(local))
			dst = join(local, b);
		else
			dst = x_strdup(local != NULL ? local : b);
		x_free(b);
		isdir = m[i][strlen(m[i]) - 1] == '/';
		if (!x->quiet)
			printf("%s %s to %s\n", o.resume ? "Resuming" :
			    "Fetching", m[i], dst);
		fflush(stdout);
		if (isdir && o.recurse)
			r = download_dir(x, m[i], dst, &o, 0);
		else if (isdir) {
			/* Skipped, and the others still fetched. */
			fprintf(stderr, "download %s: not a regular file\r\n",
			    m[i]);
			skipped = 1;
		} else
			r = download_file(x, m[i], dst, &o);
		x_free(dst);
	}
	free_strv(m, n);
	return r != 0 || skipped ? -1 : 0;
}

static int
upload_file(struct sftp_ctx *x, const char *src, const char *dst,
    const struct xopts *o)
{
	struct sftp_handle *h;
	struct sftp_attrs a, ra;
	struct stat st;
	struct progress pm;
	uint64_t off = 0, done = 0;
	int fd, r, ret = -1, meter;

	log_debug2("do_upload: upload local \"%s\" to remote \"%s\"", src,
	    dst);
	if ((fd = open(src, O_RDONLY)) == -1 || fstat(fd, &st) == -1) {
		fprintf(stderr, "Couldn't open local file \"%s\" for reading: "
		    "%s\r\n", src, strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "local \"%s\" is not a regular file\r\n", src);
		close(fd);
		return -1;
	}
	if (o->resume) {
		r = sftp_client_stat(x->c, dst, 1, &ra);
		if (r < 0)
			conn_lost(r);
		if (r > 0) {
			/* Nothing to resume is an error, as OpenSSH's. */
			fprintf(stderr, "stat remote: %s\r\n",
			    sftp_client_errmsg(r));
			close(fd);
			return -1;
		}
		if (r == 0 && (ra.flags & SSH2_FILEXFER_ATTR_SIZE))
			off = ra.size;
		if (off >= (uint64_t)st.st_size && r == 0) {
			fprintf(stderr, "resume \"%s\": destination file same "
			    "size or larger\r\n", src);
			close(fd);
			return -1;
		}
	}
	sftp_attrs_clear(&a);
	a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.perm = st.st_mode & 0777;
	r = sftp_client_open(x->c, dst, SSH2_FXF_WRITE | SSH2_FXF_CREAT |
	    (o->resume ? 0 : SSH2_FXF_TRUNC), &a, &h);
	if (r != 0) {
		if (r < 0)
			conn_lost(r);
		fprintf(stderr, "dest open \"%s\": %s\r\n", dst,
		    sftp_client_errmsg(r));
		close(fd);
		return -1;
	}
	meter = x->progress && isatty(STDOUT_FILENO);
	if (meter)
		progress_start(&pm, last_name(src), (uint64_t)st.st_size, off);
	r = sftp_client_write_file(x->c, h, fd, off, &done,
	    meter ? progress_update : NULL, &pm);
	if (meter)
		progress_end(&pm);
	if (r < 0 && r != ERR_SYSTEM)
		conn_lost(r);
	if (r == ERR_SYSTEM)
		fprintf(stderr, "read local \"%s\": %s\r\n", src,
		    strerror(errno));
	else if (r > 0)
		fprintf(stderr, "write remote \"%s\": %s\r\n", dst,
		    sftp_client_errmsg(r));
	else
		ret = 0;
	if (ret == 0 && o->preserve) {
		a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS |
		    SSH2_FILEXFER_ATTR_ACMODTIME;
		a.perm = st.st_mode & 07777;
		a.atime = (uint32_t)st.st_atime;
		a.mtime = (uint32_t)st.st_mtime;
		if ((r = sftp_client_fsetstat(x->c, h, &a)) < 0)
			conn_lost(r);
	}
	if (ret == 0 && o->fsync &&
	    sftp_client_has(x->c, SFTP_EXT_FSYNC) &&
	    (r = sftp_client_fsync(x->c, h)) < 0)
		conn_lost(r);
	close(fd);
	if ((r = sftp_client_close(x->c, h)) < 0)
		conn_lost(r);
	if (r > 0 && ret == 0) {
		fprintf(stderr, "close remote \"%s\": %s\r\n", dst,
		    sftp_client_errmsg(r));
		ret = -1;
	}
	return ret;
}

static int
upload_dir(struct sftp_ctx *x, const char *src, const char *dst,
    const struct xopts *o, int depth)
{
	struct sftp_attrs a;
	glob_t g;
	char *pat, *esc, *d;
	size_t i;
	int r, ret = 0;

	if (depth > 64) {
		fprintf(stderr, "Maximum directory depth exceeded: %d "
		    "levels\r\n", depth);
		return -1;
	}
	printf("Entering %s\n", src);
	fflush(stdout);
	sftp_attrs_clear(&a);
	a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.perm = 0777;
	if ((r = sftp_client_mkdir(x->c, dst, &a)) < 0)
		conn_lost(r);
	if (r > 0 && !rpath_is_dir(x, dst)) {
		fprintf(stderr, "remote mkdir \"%s\": %s\r\n", dst,
		    sftp_client_errmsg(r));
		return -1;
	}
	/* Every entry, dotfiles too; the directory name itself escaped. */
	esc = x_malloc(2 * strlen(src) + 1);
	for (i = 0, d = esc; src[i] != '\0'; i++) {
		if (strchr("*?[]\\", src[i]) != NULL)
			*d++ = '\\';
		*d++ = src[i];
	}
	*d = '\0';
	pat = join(esc, "{*,.[!.]*,..?*}");
	memset(&g, 0, sizeof(g));
	r = glob(pat, GLOB_BRACE | GLOB_MARK, NULL, &g);
	x_free(pat);
	x_free(esc);
	for (i = 0; r == 0 && i < g.gl_pathc && ret == 0; i++) {
		const char *p = g.gl_pathv[i];
		size_t l = strlen(p);
		char *b = base_name(p);

		d = join(dst, b);
		x_free(b);
		if (l > 0 && p[l - 1] == '/')
			ret = upload_dir(x, p, d, o, depth + 1);
		else
			ret = upload_file(x, p, d, o);
		x_free(d);
	}
	globfree(&g);
	return ret;
}

int
cmd_put(struct sftp_ctx *x, int argc, struct word *w, int resume)
{
	struct xopts o;
	struct stat st;
	char *dst, *rdst = NULL;
	glob_t g;
	size_t i;
	int r = 0, rdir = 0, skipped = 0;

	get_opts(x, resume, &o);
	memset(&g, 0, sizeof(g));
	if (glob(w[1].pat, GLOB_NOCHECK | GLOB_MARK, NULL, &g) != 0) {
		fprintf(stderr, "File \"%s\" not found.\r\n", w[1].text);
		return -1;
	}
	if (argc > 2) {
		rdst = rpath_abs(x, w[2].text);
		rdir = rpath_is_dir(x, rdst);
	} else {
		rdst = x_strdup(x->rcwd);
		rdir = 1;
	}
	if (g.gl_pathc > 1 && !rdir) {
		fprintf(stderr, "Multiple paths match, but destination \"%s\" "
		    "is not a directory\r\n", rdst);
		r = -1;
	}
	for (i = 0; r == 0 && i < g.gl_pathc; i++) {
		const char *p = g.gl_pathv[i];
		char *b;

		if (stat(p, &st) == -1) {
			fprintf(stderr, "stat %s: %s\r\n", p, strerror(errno));
			r = -1;
			break;
		}
		b = base_name(p);
		dst = rdir ? join(rdst, b) : x_strdup(rdst);
		x_free(b);
		if (!x->quiet) {
			if (o.resume)
				printf("Resuming upload of %s to %s\n", p, dst);
			else
				printf("Uploading %s to %s\n", p, dst);
		}
		fflush(stdout);
		if (S_ISDIR(st.st_mode) && o.recurse)
			r = upload_dir(x, p, dst, &o, 0);
		else if (!S_ISREG(st.st_mode)) {
			fprintf(stderr, "local \"%s\" is not a regular "
			    "file\r\n", p);
			skipped = 1;
		} else
			r = upload_file(x, p, dst, &o);
		x_free(dst);
	}
	x_free(rdst);
	globfree(&g);
	return r != 0 || skipped ? -1 : 0;
}
