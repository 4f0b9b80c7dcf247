/*
 * sftp_ext.c: the OpenSSH extensions to SFTP version 3.
 *
 * Each is an SSH2_FXP_EXTENDED request named by a string; the server
 * advertises them (name and version) in its VERSION reply, and the
 * handlers here answer with a status, a NAME or an EXTENDED_REPLY as
 * OpenSSH's PROTOCOL file gives for each: posix-rename, statvfs and
 * fstatvfs, hardlink, fsync, lsetstat, limits, expand-path, copy-data,
 * home-directory and users-groups-by-id.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>
#include <sys/statvfs.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "sftp_server_int.h"

#define COPY_CHUNK	(64 * 1024)
#define MAX_IDS		65536	/* ids in one users-groups-by-id request */

/* Two paths, then act on them with fn (rename or link). */
static int
two_paths(struct sftp_server *s, uint32_t id, struct sbuf *req,
    const char *what, int (*fn)(const char *, const char *))
{
	char *oldp = NULL, *newp = NULL;
	int r;

	if ((r = sftp_get_path(req, &oldp)) == 0 &&
	    (r = sftp_get_path(req, &newp)) == 0) {
		log_info("%s old \"%s\" new \"%s\"", what, oldp, newp);
		sftp_send_errno(s, id, fn(oldp, newp) == -1 ? errno : 0);
	}
	x_free(oldp);
	x_free(newp);
	return r;
}

int
sftp_ext_posix_rename(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	return two_paths(s, id, req, "posix-rename", rename);
}

int
sftp_ext_hardlink(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	return two_paths(s, id, req, "hardlink", link);
}

static void
send_statvfs(struct sftp_server *s, uint32_t id, const struct statvfs *st)
{
	struct sbuf *b;
	uint64_t flag = 0;

	if (st->f_flag & ST_RDONLY)
		flag |= SSH2_FXE_STATVFS_ST_RDONLY;
	if (st->f_flag & ST_NOSUID)
		flag |= SSH2_FXE_STATVFS_ST_NOSUID;
	b = sftp_reply_begin(s, SSH2_FXP_EXTENDED_REPLY, id);
	(void)sbuf_put_u64(b, st->f_bsize);
	(void)sbuf_put_u64(b, st->f_frsize);
	(void)sbuf_put_u64(b, st->f_blocks);
	(void)sbuf_put_u64(b, st->f_bfree);
	(void)sbuf_put_u64(b, st->f_bavail);
	(void)sbuf_put_u64(b, st->f_files);
	(void)sbuf_put_u64(b, st->f_ffree);
	(void)sbuf_put_u64(b, st->f_favail);
	(void)sbuf_put_u64(b, st->f_fsid);
	(void)sbuf_put_u64(b, flag);
	(void)sbuf_put_u64(b, st->f_namemax);
	sftp_reply_end(s);
}

int
sftp_ext_statvfs(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct statvfs st;
	char *path;
	int r;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	log_info("statvfs \"%s\"", path);
	if (statvfs(path, &st) == -1)
		sftp_send_errno(s, id, errno);
	else
		send_statvfs(s, id, &st);
	x_free(path);
	return 0;
}

/* The descriptor of an open file handle, or -1. */
static int
file_fd(struct sftp_server *s, int h, const char **namep)
{
	struct sftp_handle *hp;

	if ((hp = sftp_handle_get(s, h, HANDLE_FILE)) == NULL)
		return -1;
	if (namep != NULL)
		*namep = hp->name;
	return hp->fd;
}

int
sftp_ext_fstatvfs(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct statvfs st;
	const char *name;
	int h, fd, r;

	if ((r = sftp_get_handle(req, &h)) != 0)
		return r;
	if ((fd = file_fd(s, h, &name)) == -1) {
		sftp_send_status(s, id, SSH2_FX_FAILURE);
		return 0;
	}
	log_debug("request %u: fstatvfs \"%s\" (handle %d)", id, name, h);
	if (fstatvfs(fd, &st) == -1)
		sftp_send_errno(s, id, errno);
	else
		send_statvfs(s, id, &st);
	return 0;
}

int
sftp_ext_fsync(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	int h, fd, r;

	if ((r = sftp_get_handle(req, &h)) != 0)
		return r;
	log_debug3("request %u: fsync (handle %d)", id, h);
	if ((fd = file_fd(s, h, NULL)) == -1)
		sftp_send_status(s, id, SSH2_FX_NO_SUCH_FILE);
	else
		sftp_send_errno(s, id, fsync(fd) == -1 ? errno : 0);
	return 0;
}

int
sftp_ext_lsetstat(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	return sftp_setstat_path(s, id, req, 0);
}

int
sftp_ext_limits(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sbuf *b;

	log_debug("request %u: limits", id);
	b = sftp_reply_begin(s, SSH2_FXP_EXTENDED_REPLY, id);
	(void)sbuf_put_u64(b, SFTP_MAX_MSG_LENGTH);
	(void)sbuf_put_u64(b, SFTP_MAX_READ_LENGTH);
	(void)sbuf_put_u64(b, SFTP_MAX_READ_LENGTH);
	(void)sbuf_put_u64(b, s->max_handles);
	sftp_reply_end(s);
	return 0;
}

/* "~", "~/x", "~user/x" to a path; *outp is set (caller frees). */
static int
tilde_expand(const struct sftp_server *s, const char *path, char **outp)
{
	const char *rest, *home = s->home;
	struct passwd *pw;
	char *user;

	*outp = NULL;
	if (path[0] != '~') {
		*outp = x_strdup(path);
		return 0;
	}
	rest = strchr(path, '/');
	if (rest == NULL)
		rest = path + strlen(path);
	if (rest > path + 1) {
		user = x_strndup(path + 1, (size_t)(rest - path - 1));
		pw = getpwnam(user);
		x_free(user);
		if (pw == NULL)
			return ENOENT;
		home = pw->pw_dir;
	}
	while (*rest == '/')
		rest++;
	*outp = *rest ? x_asprintf("%s%s%s", home,
	    strcmp(home, "/") ? "/" : "", rest) : x_strdup(home);
	return 0;
}

int
sftp_ext_expand_path(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	char *path, *exp = NULL, *res = NULL;
	int r, e;

	if ((r = sftp_get_path(req, &path)) != 0)
		return r;
	log_verbose("expand-path \"%s\"", path);
	if ((e = tilde_expand(s, *path ? path : ".", &exp)) == 0)
		e = sftp_realpath(exp, &res);
	if (e != 0)
		sftp_send_errno(s, id, e);
	else
		sftp_send_name1(s, id, res);
	x_free(res);
	x_free(exp);
	x_free(path);
	return 0;
}

int
sftp_ext_copy_data(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sftp_handle *rh, *wh;
	unsigned char *buf = NULL;
	uint64_t roff, rlen, woff, done = 0, want;
	ssize_t n, w;
	int rhi, whi, r, e = 0;

	if ((r = sftp_get_handle(req, &rhi)) != 0 ||
	    (r = sbuf_get_u64(req, &roff)) != 0 ||
	    (r = sbuf_get_u64(req, &rlen)) != 0 ||
	    (r = sftp_get_handle(req, &whi)) != 0 ||
	    (r = sbuf_get_u64(req, &woff)) != 0)
		return r;
	rh = sftp_handle_get(s, rhi, HANDLE_FILE);
	wh = sftp_handle_get(s, whi, HANDLE_FILE);
	if (rh == NULL || wh == NULL || roff > (uint64_t)INT64_MAX ||
	    woff > (uint64_t)INT64_MAX || (wh->flags & O_ACCMODE) ==
	    O_RDONLY || (rh->flags & O_ACCMODE) == O_WRONLY ||
	    (rhi == whi && (rlen == 0 || (roff < woff + rlen &&
	    woff < roff + rlen)))) {
		sftp_send_status(s, id, SSH2_FX_FAILURE);
		return 0;
	}
	log_debug("request %u: copy-data from \"%s\" (handle %d) off %llu "
	    "len %llu to \"%s\" (handle %d) off %llu", id, rh->name, rhi,
	    (unsigned long long)roff, (unsigned long long)rlen, wh->name, whi,
	    (unsigned long long)woff);
	buf = x_malloc(COPY_CHUNK);
	while (rlen == 0 || done < rlen) {
		want = COPY_CHUNK;
		if (rlen != 0 && rlen - done < want)
			want = rlen - done;
		n = pread(rh->fd, buf, (size_t)want, (off_t)(roff + done));
		if (n == -1) {
			e = errno;
			break;
		}
		if (n == 0)
			break;
		rh->bytes_read += (uint64_t)n;
		if ((w = pwrite(wh->fd, buf, (size_t)n,
		    (off_t)(woff + done))) == -1) {
			e = errno;
			break;
		}
		wh->bytes_written += (uint64_t)w;
		done += (uint64_t)w;
		if (w != n) {
			e = EIO;
			break;
		}
	}
	x_free(buf);
	sftp_send_errno(s, id, e);
	return 0;
}

int
sftp_ext_home_directory(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct passwd *pw;
	char *user;
	int r;

	if ((r = sftp_get_path(req, &user)) != 0)
		return r;
	log_debug("request %u: home-directory \"%s\"", id, user);
	if ((pw = getpwnam(*user ? user : s->user)) == NULL)
		sftp_send_status(s, id, SSH2_FX_FAILURE);
	else
		sftp_send_name1(s, id, pw->pw_dir);
	x_free(user);
	return 0;
}

/* Names for each uint32 id in ids, one string each ("" when unknown). */
static int
names_for_ids(struct sbuf *ids, struct sbuf *out, int groups, uint32_t *np)
{
	struct passwd *pw;
	struct group *gr;
	const char *name;
	uint32_t v, n = 0;
	int r;

	*np = 0;
	if (sbuf_len(ids) % 4 != 0 || sbuf_len(ids) / 4 > MAX_IDS)
		return ERR_INVALID_FORMAT;
	while (sbuf_len(ids) > 0) {
		if ((r = sbuf_get_u32(ids, &v)) != 0)
			return r;
		name = NULL;
		if (groups && (gr = getgrgid(v)) != NULL)
			name = gr->gr_name;
		else if (!groups && (pw = getpwuid(v)) != NULL)
			name = pw->pw_name;
		if (name != NULL)
			n++;
		if ((r = sbuf_put_cstring(out, name ? name : "")) != 0)
			return r;
	}
	*np = n;
	return 0;
}

int
sftp_ext_users_groups(struct sftp_server *s, uint32_t id, struct sbuf *req)
{
	struct sbuf *uids = sbuf_new(), *gids = sbuf_new();
	struct sbuf *un = sbuf_new(), *gn = sbuf_new(), *b;
	uint32_t nu = 0, ng = 0;
	int r;

	if ((r = sbuf_get_stringb(req, uids)) != 0 ||
	    (r = sbuf_get_stringb(req, gids)) != 0 ||
	    (r = names_for_ids(uids, un, 0, &nu)) != 0 ||
	    (r = names_for_ids(gids, gn, 1, &ng)) != 0)
		goto out;
	log_verbose("users-groups-by-id: %u users, %u groups", nu, ng);
	b = sftp_reply_begin(s, SSH2_FXP_EXTENDED_REPLY, id);
	(void)sbuf_put_stringb(b, un);
	(void)sbuf_put_stringb(b, gn);
	sftp_reply_end(s);
 out:
	sbuf_free(uids);
	sbuf_free(gids);
	sbuf_free(un);
	sbuf_free(gn);
	return r;
}
