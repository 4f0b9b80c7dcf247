/*
 * sftp_req.c: the requests of SFTP version 3 itself.
 *
 * Each handler reads its fields through the sbuf getters (a parse failure
 * returns nonzero and the loop answers SSH2_FX_BAD_MESSAGE), acts with the
 * matching system call and queues one reply; a failed call answers the
 * status its errno maps to. Log lines use OpenSSH's wording and levels.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "sftp_server_int.h"

#define READDIR_BATCH	100	/* entries per NAME reply, as OpenSSH */

static const struct {
	uint32_t pflag;
	const char *word;
} open_words[] = {
	{ SSH2_FXF_READ, "READ" },
	{ SSH2_FXF_WRITE, "WRITE" },
	{ SSH2_FXF_APPEND, "APPEND" },
	{ SSH2_FXF_CREAT, "CREATE" },
	{ SSH2_FXF_TRUNC, "TRUNCATE" },
	{ SSH2_FXF_EXCL, "EXCL" },
};

static int
open_flags(uint32_t pflags)
{
	int flags;

	if ((pflags & SSH2_FXF_READ) && (pflags & SSH2_FXF_WRITE))
		flags = O_RDWR;
	else if (pflags & SSH2_FXF_WRITE)
		flags = O_WRONLY;
	else
		flags = O_RDONLY;
	if (pflags & SSH2_FXF_APPEND)
		flags |= O_APPEND;
	if (pflags & SSH2_FXF_CREAT)
		flags |= O_CREAT;
	if (pflags & SSH2_FXF_TRUNC)
		flags |= O_TRUNC;
	if (pflags & SSH2_FXF_EXCL)
		flags |= O_EXCL;
	return flags;
}

int
sftp_req_open(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sftp_attrs a;
	char *path = NULL, words[64] = "";
	uint32_t pflags, status = SSH2_FX_FAILURE;
	mode_t mode;
	size_t i;
	int flags, fd, h, r;

	if ((r = sftp_get_path(req, &path)) != 0 ||
	    (r = sbuf_get_u32(req, &pflags)) != 0 ||
	    (r = sftp_attrs_decode(req, &a)) != 0)
		goto out;
	flags = open_flags(pflags);
	mode = (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) ?
	    (mode_t)(a.perm & 07777) : 0666;
	for (i = 0; i < sizeof(open_words) / sizeof(open_words[0]); i++) {
		if ((pflags & open_words[i].pflag) == 0)
			continue;
		if (words[0] != '\0')
			strcat(words, ",");
		strcat(words, open_words[i].word);
	}
	log_info("open \"%s\" flags %s mode 0%o", path, words, (unsigned)mode);
	if (s->readonly && ((flags & O_ACCMODE) != O_RDONLY ||
	    (flags & (O_CREAT | O_TRUNC)) != 0)) {
		log_verbose("Refusing open request in read-only mode");
		status = SSH2_FX_PERMISSION_DENIED;
	} else if ((fd = open(path, flags | O_NOCTTY, mode)) == -1) {
		status = sftp_errno_to_status(errno);
	} else if ((h = sftp_handle_new(s, HANDLE_FILE, path, fd, NULL,
	    flags)) < 0) {
		close(fd);
	} else {
		sftp_send_handle(s, id, h);
		goto out;
	}
	sftp_send_status(s, id, status);
 out:
	x_free(path);
	return r;
}

int
sftp_req_close(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	int h, r;

	if ((r = sftp_get_handle(req, &h)) != 0)
		return r;
	log_debug3("request %u: close handle %d", id, h);
	if (sftp_handle_get(s, h, HANDLE_FILE) == NULL &&
	    sftp_handle_get(s, h, HANDLE_DIR) == NULL) {
		sftp_send_status(s, id, SSH2_FX_NO_SUCH_FILE);
		return 0;
	}
	sftp_handle_close(s, h);
	sftp_send_status(s, id, SSH2_FX_OK);
	return 0;
}

int
sftp_req_read(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	static const size_t maxlen = SFTP_MAX_READ_LENGTH;
	struct sftp_handle *hp;
	unsigned char *buf = NULL;
	uint64_t off;
	uint32_t len;
	ssize_t n;
	int h, r;

	if ((r = sftp_get_handle(req, &h)) != 0 ||
	    (r = sbuf_get_u64(req, &off)) != 0 ||
	    (r = sbuf_get_u32(req, &len)) != 0)
		return r;
	if ((hp = sftp_handle_get(s, h, HANDLE_FILE)) == NULL) {
		sftp_send_status(s, id, SSH2_FX_FAILURE);
		return 0;
	}
	log_debug("request %u: read \"%s\" (handle %d) off %llu len %u",
	    id, hp->name, h, (unsigned long long)off, len);
	if (len > maxlen)
		len = maxlen;
	if (off > (uint64_t)INT64_MAX) {
		sftp_send_status(s, id, SSH2_FX_BAD_MESSAGE);
		return 0;
	}
	buf = x_malloc(len ? len : 1);
	n = pread(hp->fd, buf, len, (off_t)off);
	if (n == -1)
		sftp_send_errno(s, id, errno);
	else if (n == 0)
		sftp_send_status(s, id, SSH2_FX_EOF);
	else {
		sftp_send_data(s, id, buf, (size_t)n);
		hp->bytes_read += (uint64_t)n;
	}
	x_free(buf);
	return 0;
}

int
sftp_req_write(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sftp_handle *hp;
	const unsigned char *data;
	uint64_t off;
	size_t len;
	ssize_t n;
	int h, r;

	if ((r = sftp_get_handle(req, &h)) != 0 ||
	    (r = sbuf_get_u64(req, &off)) != 0 ||
	    (r = sbuf_get_string_direct(req, &data, &len)) != 0)
		return r;
	if ((hp = sftp_handle_get(s, h, HANDLE_FILE)) == NULL) {
		sftp_send_status(s, id, SSH2_FX_FAILURE);
		return 0;
	}
	log_debug("request %u: write \"%s\" (handle %d) off %llu len %zu",
	    id, hp->name, h, (unsigned long long)off, len);
	if (off > (uint64_t)INT64_MAX) {
		sftp_send_status(s, id, SSH2_FX_BAD_MESSAGE);
		return 0;
	}
	if (hp->flags & O_APPEND)
		n = write(hp->fd, data, len);
	else
		n = pwrite(hp->fd, data, len, (off_t)off);
	if (n == -1) {
		log_error("write: %s", strerror(errno));
		sftp_send_errno(s, id, errno);
		return 0;
	}
	hp->bytes_written += (uint64_t)n;
	sftp_send_status(s, id, (size_t)n == len ? SSH2_FX_OK :
	    SSH2_FX_FAILURE);
	return 0;
}

static int
do_stat(struct sftp_server *s, uint32_t id, struct sbuf *req, int follow)
{
	struct sftp_attrs a;
	struct stat st;
	char *path;
	int r;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	log_verbose("%sstat name \"%s\"", follow ? "" : "l", path);
	if ((follow ? stat(path, &st) : lstat(path, &st)) == -1) {
		sftp_send_errno(s, id, errno);
	} else {
		sftp_attrs_from_stat(&a, &st);
		sftp_send_attrs(s, id, &a);
	}
	x_free(path);
	return 0;
}

int
sftp_req_stat(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	return do_stat(s, id, req, 1);
}

int
sftp_req_lstat(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	return do_stat(s, id, req, 0);
}

/* The descriptor behind a file or directory handle, or -1. */
static int
handle_fd(struct sftp_server *s, int h, const char **namep)
{
	struct sftp_handle *hp;

	if ((hp = sftp_handle_get(s, h, HANDLE_FILE)) != NULL) {
		*namep = hp->name;
		return hp->fd;
	}
	if ((hp = sftp_handle_get(s, h, HANDLE_DIR)) != NULL) {
		*namep = hp->name;
		return dirfd(hp->dir);
	}
	return -1;
}

int
sftp_req_fstat(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sftp_attrs a;
	struct stat st;
	const char *name = NULL;
	int h, fd, r;

	if ((r = sftp_get_handle(req, &h)) != 0)
		return r;
	if ((fd = handle_fd(s, h, &name)) == -1) {
		sftp_send_status(s, id, SSH2_FX_FAILURE);
		return 0;
	}
	log_verbose("fstat \"%s\" fd %d", name, fd);
	if (fstat(fd, &st) == -1) {
		sftp_send_errno(s, id, errno);
		return 0;
	}
	sftp_attrs_from_stat(&a, &st);
	sftp_send_attrs(s, id, &a);
	return 0;
}

int
sftp_apply_attrs(const char *name, int fd, const struct sftp_attrs *a,
    int follow)
{
	struct timespec ts[2];
	char tbuf[32];
	time_t t;
	struct tm tm;
	int nofollow = follow ? 0 : AT_SYMLINK_NOFOLLOW;

	if (a->flags & SSH2_FILEXFER_ATTR_SIZE) {
		log_info("set \"%s\" size %llu", name,
		    (unsigned long long)a->size);
		if (a->size > (uint64_t)INT64_MAX)
			return EINVAL;
		if ((fd >= 0 ? ftruncate(fd, (off_t)a->size) :
		    truncate(name, (off_t)a->size)) == -1)
			return errno;
	}
	if (a->flags & SSH2_FILEXFER_ATTR_PERMISSIONS) {
		log_info("set \"%s\" mode %04o", name, a->perm & 07777);
		if ((fd >= 0 ? fchmod(fd, a->perm & 07777) :
		    fchmodat(AT_FDCWD, name, a->perm & 07777, nofollow)) == -1)
			return errno;
	}
	if (a->flags & SSH2_FILEXFER_ATTR_ACMODTIME) {
		t = (time_t)a->mtime;
		if (localtime_r(&t, &tm) != NULL)
			strftime(tbuf, sizeof(tbuf), "%Y%m%d-%H:%M:%S", &tm);
		else
			snprintf(tbuf, sizeof(tbuf), "%u", a->mtime);
		log_info("set \"%s\" modtime %s", name, tbuf);
		ts[0].tv_sec = (time_t)a->atime;
		ts[1].tv_sec = (time_t)a->mtime;
		ts[0].tv_nsec = ts[1].tv_nsec = 0;
		if ((fd >= 0 ? futimens(fd, ts) :
		    utimensat(AT_FDCWD, name, ts, nofollow)) == -1)
			return errno;
	}
	if (a->flags & SSH2_FILEXFER_ATTR_UIDGID) {
		log_info("set \"%s\" owner %lu group %lu", name,
		    (unsigned long)a->uid, (unsigned long)a->gid);
		if ((fd >= 0 ? fchown(fd, a->uid, a->gid) :
		    fchownat(AT_FDCWD, name, a->uid, a->gid, nofollow)) == -1)
			return errno;
	}
	return 0;
}

int
sftp_setstat_path(struct sftp_server *s, uint32_t id, struct sbuf *req,
    int follow)
{
	struct sftp_attrs a;
	char *path;
	int r;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	if ((r = sftp_attrs_decode(req, &a)) == 0) {
		log_debug("request %u: %s name \"%s\"", id,
		    follow ? "setstat" : "lsetstat", path);
		/* A size means nothing for a link. */
		if (!follow && (a.flags & SSH2_FILEXFER_ATTR_SIZE))
			sftp_send_status(s, id, SSH2_FX_BAD_MESSAGE);
		else
			sftp_send_errno(s, id,
			    sftp_apply_attrs(path, -1, &a, follow));
	}
	x_free(path);
	return r;
}

int
sftp_req_setstat(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	return sftp_setstat_path(s, id, req, 1);
}

int
sftp_req_fsetstat(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sftp_attrs a;
	const char *name = NULL;
	int h, fd, r;

	if ((r = sftp_get_handle(req, &h)) != 0 ||
	    (r = sftp_attrs_decode(req, &a)) != 0)
		return r;
	if ((fd = handle_fd(s, h, &name)) == -1) {
		sftp_send_status(s, id, SSH2_FX_FAILURE);
		return 0;
	}
	log_debug("request %u: fsetstat handle %d", id, h);
	sftp_send_errno(s, id, sftp_apply_attrs(name, fd, &a, 1));
	return 0;
}

int
sftp_req_opendir(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	char *path;
	DIR *d;
	int h, r;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	log_info("opendir \"%s\"", path);
	if ((d = opendir(path)) == NULL)
		sftp_send_errno(s, id, errno);
	else if ((h = sftp_handle_new(s, HANDLE_DIR, path, -1, d, 0)) < 0) {
		closedir(d);
		sftp_send_status(s, id, SSH2_FX_FAILURE);
	} else
		sftp_send_handle(s, id, h);
	x_free(path);
	return 0;
}

int
sftp_req_readdir(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sftp_handle *hp;
	struct dirent *de;
	struct stat st;
	struct sftp_attrs a;
	struct passwd *pw;
	struct group *gr;
	struct sbuf *b = NULL;
	char *path, *ln;
	uint32_t count = 0;
	int h, r;

	if ((r = sftp_get_handle(req, &h)) != 0)
		return r;
	if ((hp = sftp_handle_get(s, h, HANDLE_DIR)) == NULL) {
		sftp_send_status(s, id, SSH2_FX_FAILURE);
		return 0;
	}
	log_debug("request %u: readdir \"%s\" (handle %d)", id, hp->name, h);
	b = sbuf_new();
	while (count < READDIR_BATCH && (de = readdir(hp->dir)) != NULL) {
		path = x_asprintf("%s%s%s", hp->name,
		    strcmp(hp->name, "/") ? "/" : "", de->d_name);
		if (lstat(path, &st) == -1) {
			x_free(path);
			continue;
		}
		x_free(path);
		pw = getpwuid(st.st_uid);
		gr = getgrgid(st.st_gid);
		ln = sftp_ls_long(de->d_name, &st, pw ? pw->pw_name : NULL,
		    gr ? gr->gr_name : NULL, 0);
		sftp_attrs_from_stat(&a, &st);
		(void)sbuf_put_cstring(b, de->d_name);
		(void)sbuf_put_cstring(b, ln);
		(void)sftp_attrs_encode(b, &a);
		x_free(ln);
		count++;
	}
	if (count == 0)
		sftp_send_status(s, id, SSH2_FX_EOF);
	else {
		log_debug("request %u: sent names count %u", id, count);
		(void)sbuf_put_u32(sftp_reply_begin(s, SSH2_FXP_NAME, id),
		    count);
		(void)sbuf_putb(s->reply, b);
		sftp_reply_end(s);
	}
	sbuf_free(b);
	return 0;
}

int
sftp_req_remove(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	char *path;
	int r;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	log_info("remove name \"%s\"", path);
	sftp_send_errno(s, id, unlink(path) == -1 ? errno : 0);
	x_free(path);
	return 0;
}

int
sftp_req_mkdir(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sftp_attrs a;
	char *path;
	mode_t mode;
	int r;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	if ((r = sftp_attrs_decode(req, &a)) == 0) {
		mode = (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) ?
		    (mode_t)(a.perm & 07777) : 0777;
		log_info("mkdir name \"%s\" mode 0%o", path, (unsigned)mode);
		sftp_send_errno(s, id, mkdir(path, mode) == -1 ? errno : 0);
	}
	x_free(path);
	return r;
}

int
sftp_req_rmdir(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	char *path;
	int r;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	log_info("rmdir name \"%s\"", path);
	sftp_send_errno(s, id, rmdir(path) == -1 ? errno : 0);
	x_free(path);
	return 0;
}

int
sftp_realpath(const char *path, char **outp)
{
	char *dir = NULL, *res = NULL;
	const char *base, *slash;
	int e = 0;

	*outp = NULL;
	if ((res = realpath(path, NULL)) != NULL) {
		*outp = x_strdup(res);
		free(res);
		return 0;
	}
	if (errno != ENOENT)
		return errno;
	/* A missing last component is allowed: resolve its parent. */
	if ((slash = strrchr(path, '/')) == NULL) {
		dir = x_strdup(".");
		base = path;
	} else {
		dir = x_strndup(path, slash == path ? 1 : (size_t)(slash - path));
		base = slash + 1;
	}
	if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		e = ENOENT;
	else if ((res = realpath(dir, NULL)) == NULL)
		e = errno;
	else {
		*outp = x_asprintf("%s%s%s", res, strcmp(res, "/") ? "/" : "",
		    base);
		free(res);
	}
	x_free(dir);
	return e;
}

int
sftp_req_realpath(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	char *path, *res = NULL;
	int r, e;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	log_verbose("realpath \"%s\"", *path ? path : ".");
	if ((e = sftp_realpath(*path ? path : ".", &res)) != 0)
		sftp_send_errno(s, id, e);
	else
		sftp_send_name1(s, id, res);
	x_free(res);
	x_free(path);
	return 0;
}

int
sftp_req_rename(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	char *oldp = NULL, *newp = NULL;
	struct stat st;
	int r, e = 0;
	uint32_t status = SSH2_FX_OK;

	if ((r = sftp_get_path(req, &oldp)) != 0 ||
	    (r = sftp_get_path(req, &newp)) != 0)
		goto out;
	log_info("rename old \"%s\" new \"%s\"", oldp, newp);
	/* Version 3: the target must not exist. Files move by link+unlink. */
	if (lstat(oldp, &st) == -1)
		e = errno;
	else if (S_ISREG(st.st_mode) && link(oldp, newp) == 0) {
		if (unlink(oldp) == -1) {
			e = errno;
			unlink(newp);
		}
	} else if (S_ISREG(st.st_mode) && errno != EOPNOTSUPP &&
	    errno != ENOSYS && errno != EXDEV && errno != EPERM &&
	    errno != EMLINK) {
		e = errno;
		status = sftp_errno_to_status(e);
	} else if (lstat(newp, &st) == 0)
		status = SSH2_FX_FAILURE;
	else if (rename(oldp, newp) == -1)
		e = errno;
	if (e != 0)
		status = sftp_errno_to_status(e);
	sftp_send_status(s, id, status);
 out:
	x_free(oldp);
	x_free(newp);
	return r;
}

int
sftp_req_readlink(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	char *path, buf[PATH_MAX];
	ssize_t n;
	int r;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	log_verbose("readlink \"%s\"", path);
	if ((n = readlink(path, buf, sizeof(buf) - 1)) == -1)
		sftp_send_errno(s, id, errno);
	else {
		buf[n] = '\0';
		sftp_send_name1(s, id, buf);
	}
	x_free(path);
	return 0;
}

/*
 * SSH_FXP_SYMLINK. The SFTP drafts put the new link's path first and
 * its target second; OpenSSH's sftp-server has always taken them the
 * other way round and keeps doing so (OpenSSH's PROTOCOL file, on SFTP),
 * and we take them as it does: target first. That is what clients send
 * without looking at the server at all -- OpenSSH's sftp, paramiko, Go's
 * pkg/sftp, libssh2 (and so curl); PuTTY's psftp makes no symlinks.
 * Clients that choose the order by the server's version string: asyncssh
 * sends the target first when that string contains "OpenSSH", which ours
 * does (see TR_VERSION); libssh only when it finds an OpenSSH version
 * number there and WinSCP only when the software version begins with
 * "OpenSSH", so those two send the link first to us, as to every server
 * they do not take for OpenSSH's, and their links come out reversed.
 * Guessing the order from the paths (which of them exists) would turn a
 * mistaken `ln -s` into a link made under the other name; we do not.
 */
int
sftp_req_symlink(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	char *target = NULL, *link_path = NULL;
	int r;

	if ((r = sftp_get_path(req, &target)) == 0 &&
	    (r = sftp_get_path(req, &link_path)) == 0) {
		log_info("symlink old \"%s\" new \"%s\"", target, link_path);
		sftp_send_errno(s, id,
		    symlink(target, link_path) == -1 ? errno : 0);
	}
	x_free(target);
	x_free(link_path);
	return r;
}
