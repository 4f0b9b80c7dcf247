/*
 * sftp_server_int.h: what the server's source files share (not an API).
 *
 * sftp_server.c owns the loop, the handle table and the reply helpers;
 * sftp_req.c holds the protocol's own requests and sftp_ext.c the
 * OpenSSH extensions. A handler reads its fields from the request buffer
 * and queues exactly one reply; it returns nonzero only when the request
 * did not parse, and the loop then answers SSH2_FX_BAD_MESSAGE.
 */
#ifndef MOAT_SFTP_SERVER_INT_H
#define MOAT_SFTP_SERVER_INT_H

#include <dirent.h>
#include <stdint.h>

#include "sftp_proto.h"
#include "sftp_server.h"

struct sbuf;

enum { HANDLE_UNUSED = 0, HANDLE_FILE, HANDLE_DIR };

struct sftp_handle {
	int use;		/* HANDLE_* */
	int fd;			/* HANDLE_FILE */
	DIR *dir;		/* HANDLE_DIR */
	char *name;		/* the path it was opened by */
	int flags;		/* open(2) flags */
	uint64_t bytes_read, bytes_written;
};

struct sftp_server {
	int in_fd, out_fd;
	struct sbuf *in, *out, *reply;
	int readonly;
	char *user, *home, *client_addr, *allowed, *denied;
	int init_done;
	uint32_t client_version;
	struct sftp_handle *handles;
	size_t nhandles;	/* slots allocated */
	size_t max_handles;
};

typedef int sftp_handler(struct sftp_server *s, uint32_t id, struct sbuf *req);

/* Replies. */
void sftp_send_status(struct sftp_server *s, uint32_t id, uint32_t status);
void sftp_send_errno(struct sftp_server *s, uint32_t id, int errnum);
void sftp_send_handle(struct sftp_server *s, uint32_t id, int h);
void sftp_send_data(struct sftp_server *s, uint32_t id,
    const void *data, size_t len);
void sftp_send_attrs(struct sftp_server *s, uint32_t id,
    const struct sftp_attrs *a);
/* One NAME entry (name, longname = name, empty attrs). */
void sftp_send_name1(struct sftp_server *s, uint32_t id, const char *name);
/* Start a reply of this type; the caller appends fields then calls end. */
struct sbuf *sftp_reply_begin(struct sftp_server *s, uint8_t type,
    uint32_t id);
void sftp_reply_end(struct sftp_server *s);

/* Handles. */
int sftp_handle_new(struct sftp_server *s, int use, const char *name,
    int fd, DIR *dir, int flags);
/* Read a handle string; NULL when it names no open handle of that use. */
int sftp_get_handle(struct sbuf *req, int *hp);
struct sftp_handle *sftp_handle_get(struct sftp_server *s, int h, int use);
void sftp_handle_close(struct sftp_server *s, int h);
/* Read a path string (no NUL inside); caller frees. */
int sftp_get_path(struct sbuf *req, char **pathp);

/* Apply SETSTAT-style attributes to a path (follow: not for lsetstat). */
int sftp_apply_attrs(const char *name, int fd, const struct sftp_attrs *a,
    int follow);
/*
 * SETSTAT (follow) or lsetstat@openssh.com (not; a size is refused):
 * the path and attributes from req, applied, the status sent.
 */
int sftp_setstat_path(struct sftp_server *s, uint32_t id, struct sbuf *req,
    int follow);

/* sftp_req.c */
sftp_handler sftp_req_open, sftp_req_close, sftp_req_read, sftp_req_write,
    sftp_req_lstat, sftp_req_fstat, sftp_req_setstat, sftp_req_fsetstat,
    sftp_req_opendir, sftp_req_readdir, sftp_req_remove, sftp_req_mkdir,
    sftp_req_rmdir, sftp_req_realpath, sftp_req_stat, sftp_req_rename,
    sftp_req_readlink, sftp_req_symlink;
/* sftp_ext.c */
sftp_handler sftp_ext_posix_rename, sftp_ext_statvfs, sftp_ext_fstatvfs,
    sftp_ext_hardlink, sftp_ext_fsync, sftp_ext_lsetstat, sftp_ext_limits,
    sftp_ext_expand_path, sftp_ext_copy_data, sftp_ext_home_directory,
    sftp_ext_users_groups;

/* A path with a missing last component resolved as far as it exists. */
int sftp_realpath(const char *path, char **outp);

#endif
