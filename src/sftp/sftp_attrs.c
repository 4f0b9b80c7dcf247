/*
 * sftp_attrs.c: the ATTRS record, status words and `ls -l` lines.
 *
 * ATTRS is a flags word followed by just the fields the flags name, in a
 * fixed order: size (uint64), uid and gid, permissions, atime and mtime,
 * then extended (name, data) pairs. Decoding reads only through the sbuf
 * getters; extended pairs are skipped without allocating and their count
 * is capped, so a lying count fails as soon as the bytes run out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "err.h"
#include "mem.h"
#include "sbuf.h"
#include "sftp_proto.h"

void
sftp_attrs_clear(struct sftp_attrs *a)
{
	memset(a, 0, sizeof(*a));
}

void
sftp_attrs_from_stat(struct sftp_attrs *a, const struct stat *st)
{
	sftp_attrs_clear(a);
	a->flags = SSH2_FILEXFER_ATTR_SIZE | SSH2_FILEXFER_ATTR_UIDGID |
	    SSH2_FILEXFER_ATTR_PERMISSIONS | SSH2_FILEXFER_ATTR_ACMODTIME;
	a->size = (uint64_t)st->st_size;
	a->uid = (uint32_t)st->st_uid;
	a->gid = (uint32_t)st->st_gid;
	a->perm = (uint32_t)st->st_mode;
	a->atime = (uint32_t)st->st_atime;
	a->mtime = (uint32_t)st->st_mtime;
}

void
sftp_attrs_to_stat(const struct sftp_attrs *a, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	if (a->flags & SSH2_FILEXFER_ATTR_SIZE)
		st->st_size = (off_t)a->size;
	if (a->flags & SSH2_FILEXFER_ATTR_UIDGID) {
		st->st_uid = a->uid;
		st->st_gid = a->gid;
	}
	if (a->flags & SSH2_FILEXFER_ATTR_PERMISSIONS)
		st->st_mode = a->perm;
	if (a->flags & SSH2_FILEXFER_ATTR_ACMODTIME) {
		st->st_atime = a->atime;
		st->st_mtime = a->mtime;
	}
}

int
sftp_attrs_encode(struct sbuf *b, const struct sftp_attrs *a)
{
	uint32_t flags = a->flags & ~SSH2_FILEXFER_ATTR_EXTENDED;
	int r;

	if ((r = sbuf_put_u32(b, flags)) != 0)
		return r;
	if ((flags & SSH2_FILEXFER_ATTR_SIZE) &&
	    (r = sbuf_put_u64(b, a->size)) != 0)
		return r;
	if ((flags & SSH2_FILEXFER_ATTR_UIDGID) &&
	    ((r = sbuf_put_u32(b, a->uid)) != 0 ||
	    (r = sbuf_put_u32(b, a->gid)) != 0))
		return r;
	if ((flags & SSH2_FILEXFER_ATTR_PERMISSIONS) &&
	    (r = sbuf_put_u32(b, a->perm)) != 0)
		return r;
	if ((flags & SSH2_FILEXFER_ATTR_ACMODTIME) &&
	    ((r = sbuf_put_u32(b, a->atime)) != 0 ||
	    (r = sbuf_put_u32(b, a->mtime)) != 0))
		return r;
	return 0;
}

int
sftp_attrs_decode(struct sbuf *b, struct sftp_attrs *a)
{
	uint32_t n, i;
	int r;

	sftp_attrs_clear(a);
	if ((r = sbuf_get_u32(b, &a->flags)) != 0)
		return r;
	if ((a->flags & SSH2_FILEXFER_ATTR_SIZE) &&
	    (r = sbuf_get_u64(b, &a->size)) != 0)
		return r;
	if ((a->flags & SSH2_FILEXFER_ATTR_UIDGID) &&
	    ((r = sbuf_get_u32(b, &a->uid)) != 0 ||
	    (r = sbuf_get_u32(b, &a->gid)) != 0))
		return r;
	if ((a->flags & SSH2_FILEXFER_ATTR_PERMISSIONS) &&
	    (r = sbuf_get_u32(b, &a->perm)) != 0)
		return r;
	if ((a->flags & SSH2_FILEXFER_ATTR_ACMODTIME) &&
	    ((r = sbuf_get_u32(b, &a->atime)) != 0 ||
	    (r = sbuf_get_u32(b, &a->mtime)) != 0))
		return r;
	if (a->flags & SSH2_FILEXFER_ATTR_EXTENDED) {
		if ((r = sbuf_get_u32(b, &n)) != 0)
			return r;
		if (n > SFTP_MAX_ATTR_EXTENDED)
			return ERR_INVALID_FORMAT;
		for (i = 0; i < n; i++) {
			if ((r = sbuf_get_string_direct(b, NULL, NULL)) != 0 ||
			    (r = sbuf_get_string_direct(b, NULL, NULL)) != 0)
				return r;
		}
	}
	return 0;
}

static const char *const status_words[SSH2_FX_MAX + 1] = {
	"Success",
	"End of file",
	"No such file",
	"Permission denied",
	"Failure",
	"Bad message",
	"No connection",
	"Connection lost",
	"Operation unsupported",
};

const char *
sftp_status_message(uint32_t status)
{
	if (status > SSH2_FX_MAX)
		return "Unknown error";
	return status_words[status];
}

static const struct {
	int errnum;
	uint32_t status;
} errno_map[] = {
	{ 0, SSH2_FX_OK },
	{ ENOENT, SSH2_FX_NO_SUCH_FILE },
	{ ENOTDIR, SSH2_FX_NO_SUCH_FILE },
	{ EBADF, SSH2_FX_NO_SUCH_FILE },
	{ ELOOP, SSH2_FX_NO_SUCH_FILE },
	{ EPERM, SSH2_FX_PERMISSION_DENIED },
	{ EACCES, SSH2_FX_PERMISSION_DENIED },
	{ EFAULT, SSH2_FX_PERMISSION_DENIED },
	{ ENAMETOOLONG, SSH2_FX_BAD_MESSAGE },
	{ EINVAL, SSH2_FX_BAD_MESSAGE },
	{ ENOSYS, SSH2_FX_OP_UNSUPPORTED },
};

uint32_t
sftp_errno_to_status(int errnum)
{
	size_t i;

	for (i = 0; i < sizeof(errno_map) / sizeof(errno_map[0]); i++)
		if (errno_map[i].errnum == errnum)
			return errno_map[i].status;
	return SSH2_FX_FAILURE;
}

/* The ten characters of `ls -l`'s mode column. */
static void
mode_string(mode_t m, char out[11])
{
	static const struct { mode_t type; char c; } types[] = {
		{ S_IFDIR, 'd' }, { S_IFCHR, 'c' }, { S_IFBLK, 'b' },
		{ S_IFREG, '-' }, { S_IFLNK, 'l' }, { S_IFSOCK, 's' },
		{ S_IFIFO, 'p' },
	};
	size_t i;

	out[0] = '?';
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if ((m & S_IFMT) == types[i].type)
			out[0] = types[i].c;
	out[1] = (m & S_IRUSR) ? 'r' : '-';
	out[2] = (m & S_IWUSR) ? 'w' : '-';
	out[3] = (m & S_ISUID) ? ((m & S_IXUSR) ? 's' : 'S') :
	    ((m & S_IXUSR) ? 'x' : '-');
	out[4] = (m & S_IRGRP) ? 'r' : '-';
	out[5] = (m & S_IWGRP) ? 'w' : '-';
	out[6] = (m & S_ISGID) ? ((m & S_IXGRP) ? 's' : 'S') :
	    ((m & S_IXGRP) ? 'x' : '-');
	out[7] = (m & S_IROTH) ? 'r' : '-';
	out[8] = (m & S_IWOTH) ? 'w' : '-';
	out[9] = (m & S_ISVTX) ? ((m & S_IXOTH) ? 't' : 'T') :
	    ((m & S_IXOTH) ? 'x' : '-');
	out[10] = '\0';
}

/* Size scaled to at most four significant characters and a unit. */
static void
size_si(unsigned long long v, char out[24])
{
	static const char units[] = "BKMGTPE";
	size_t u = 0;

	while (v >= 10000 && u + 1 < sizeof(units) - 1) {
		v = (v + 512) / 1024;
		u++;
	}
	snprintf(out, 24, "%llu%c", v, units[u]);
}

char *
sftp_ls_long(const char *name, const struct stat *st, const char *user,
    const char *group, int si_units)
{
	char mode[11], ubuf[16], gbuf[16], tbuf[32], sbuf[24];
	struct tm tm;
	time_t now = time(NULL), mt = st->st_mtime;
	const time_t half_year = 365 * 24 * 60 * 60 / 2;
	int ulen, glen;

	mode_string(st->st_mode, mode);
	if (user == NULL) {
		snprintf(ubuf, sizeof(ubuf), "%u", (unsigned)st->st_uid);
		user = ubuf;
	}
	if (group == NULL) {
		snprintf(gbuf, sizeof(gbuf), "%u", (unsigned)st->st_gid);
		group = gbuf;
	}
	if (localtime_r(&mt, &tm) == NULL)
		snprintf(tbuf, sizeof(tbuf), "????????????");
	else if (mt > now - half_year && mt < now + half_year)
		strftime(tbuf, sizeof(tbuf), "%b %e %H:%M", &tm);
	else
		strftime(tbuf, sizeof(tbuf), "%b %e  %Y", &tm);
	ulen = strlen(user) > 8 ? (int)strlen(user) : 8;
	glen = strlen(group) > 8 ? (int)strlen(group) : 8;
	if (si_units) {
		size_si((unsigned long long)st->st_size, sbuf);
		return x_asprintf("%s  %3u %-*s %-*s %8s %s %s", mode,
		    (unsigned)st->st_nlink, ulen, user, glen, group, sbuf,
		    tbuf, name);
	}
	return x_asprintf("%s  %3u %-*s %-*s %8llu %s %s", mode,
	    (unsigned)st->st_nlink, ulen, user, glen, group,
	    (unsigned long long)st->st_size, tbuf, name);
}
