/*
 * sftp_client.h: the client side of SFTP version 3.
 *
 * A connection speaks to a server over two descriptors (the ssh child's
 * stdout and stdin, or a socketpair in the tests). Requests are queued
 * and sent while replies are read, so a pipelined transfer never
 * deadlocks against a server that answers as it reads. Every reply is
 * hostile: it is parsed through the sbuf getters, its length capped at
 * SFTP_MAX_MSG_LENGTH before it is buffered, its id matched against a
 * request that is outstanding and its type against what that request
 * may be answered with; anything else ends the connection
 * (ERR_PROTOCOL).
 *
 * Return values: 0 on success; a negative ERR_* when the connection
 * cannot go on (I/O error, protocol violation); a positive SSH2_FX_*
 * status code when the server refused the request (sftp_client_errmsg()
 * words it as OpenSSH's client does).
 */
#ifndef MOAT_SFTP_CLIENT_H
#define MOAT_SFTP_CLIENT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "sftp_proto.h"

struct sftp_conn;

/* Extensions the client knows, as bits of sftp_client_has(). */
enum {
	SFTP_EXT_POSIX_RENAME = 1 << 0,
	SFTP_EXT_STATVFS = 1 << 1,
	SFTP_EXT_FSTATVFS = 1 << 2,
	SFTP_EXT_HARDLINK = 1 << 3,
	SFTP_EXT_FSYNC = 1 << 4,
	SFTP_EXT_LSETSTAT = 1 << 5,
	SFTP_EXT_LIMITS = 1 << 6,
	SFTP_EXT_EXPAND_PATH = 1 << 7,
	SFTP_EXT_COPY_DATA = 1 << 8,
	SFTP_EXT_HOME_DIR = 1 << 9,
	SFTP_EXT_USERS_GROUPS = 1 << 10,
};

#define SFTP_DEFAULT_BUFLEN	32768
#define SFTP_DEFAULT_NREQS	64
/* A handle longer than this is refused (OpenSSH's servers send 4 bytes). */
#define SFTP_MAX_HANDLE		256
/* Cap on the names one READDIR reply (or a whole listing) may hold. */
#define SFTP_MAX_NAMES		(1024 * 1024)

struct sftp_client_opts {
	uint32_t buflen;	/* 0: default, or larger if limits allow */
	uint32_t num_requests;	/* 0: SFTP_DEFAULT_NREQS */
	uint64_t limit_kbps;	/* bandwidth cap in Kbit/s, 0: none */
};

struct sftp_handle {
	unsigned char *data;
	size_t len;
};

struct sftp_name {
	char *filename;
	char *longname;
	struct sftp_attrs a;
};

struct sftp_statvfs {
	uint64_t bsize, frsize, blocks, bfree, bavail, files, ffree, favail;
	uint64_t fsid, flag, namemax;
};

/* Progress of a transfer: bytes done so far (from offset 0). */
typedef void sftp_progress_fn(void *arg, uint64_t done);

/*
 * Send INIT, read VERSION (and ask limits@openssh.com when offered).
 * The descriptors stay the caller's (made non-blocking). *cp is freed
 * with sftp_client_free.
 */
int sftp_client_init(int in_fd, int out_fd, const struct sftp_client_opts *o,
    struct sftp_conn **cp);
void sftp_client_free(struct sftp_conn *c);
uint32_t sftp_client_version(const struct sftp_conn *c);
int sftp_client_has(const struct sftp_conn *c, unsigned int ext);
uint32_t sftp_client_buflen(const struct sftp_conn *c);
/* "No such file or directory"... as OpenSSH's client words a status. */
const char *sftp_client_errmsg(int r);

int sftp_client_realpath(struct sftp_conn *c, const char *path, char **outp);
int sftp_client_expand_path(struct sftp_conn *c, const char *path,
    char **outp);
int sftp_client_home(struct sftp_conn *c, char **outp);
/* follow: STAT, else LSTAT. */
int sftp_client_stat(struct sftp_conn *c, const char *path, int follow,
    struct sftp_attrs *a);
int sftp_client_setstat(struct sftp_conn *c, const char *path,
    const struct sftp_attrs *a);
/* lsetstat@openssh.com: the link itself, not what it points at. */
int sftp_client_lsetstat(struct sftp_conn *c, const char *path,
    const struct sftp_attrs *a);
int sftp_client_remove(struct sftp_conn *c, const char *path);
int sftp_client_mkdir(struct sftp_conn *c, const char *path,
    const struct sftp_attrs *a);
int sftp_client_rmdir(struct sftp_conn *c, const char *path);
/* posix: posix-rename@openssh.com when the server has it. */
int sftp_client_rename(struct sftp_conn *c, const char *from, const char *to,
    int posix);
int sftp_client_hardlink(struct sftp_conn *c, const char *from,
    const char *to);
/* Sent target first, as OpenSSH's server expects (see PROTOCOL). */
int sftp_client_symlink(struct sftp_conn *c, const char *target,
    const char *link_path);
int sftp_client_readlink(struct sftp_conn *c, const char *path, char **outp);
int sftp_client_statvfs(struct sftp_conn *c, const char *path,
    struct sftp_statvfs *st);

/* Handles: *hp is freed by sftp_client_close (also on failure). */
int sftp_client_open(struct sftp_conn *c, const char *path, uint32_t pflags,
    const struct sftp_attrs *a, struct sftp_handle **hp);
int sftp_client_opendir(struct sftp_conn *c, const char *path,
    struct sftp_handle **hp);
int sftp_client_close(struct sftp_conn *c, struct sftp_handle *h);
int sftp_client_fstat(struct sftp_conn *c, const struct sftp_handle *h,
    struct sftp_attrs *a);
int sftp_client_fsetstat(struct sftp_conn *c, const struct sftp_handle *h,
    const struct sftp_attrs *a);
int sftp_client_fsync(struct sftp_conn *c, const struct sftp_handle *h);
/* Append the next batch of names to *names (*n of them); SSH2_FX_EOF
 * at the end of the directory. */
int sftp_client_readdir(struct sftp_conn *c, const struct sftp_handle *h,
    struct sftp_name **names, size_t *n);
/* The whole directory, in the server's order. */
int sftp_client_ls(struct sftp_conn *c, const char *path,
    struct sftp_name **names, size_t *n);
void sftp_names_free(struct sftp_name *names, size_t n);
/*
 * users-groups-by-id@openssh.com: unames[i] (gnames[i]) is set to the
 * name of uids[i] (gids[i]) or NULL when the server has none (caller
 * frees each). At most SFTP_MAX_IDS of each.
 */
#define SFTP_MAX_IDS	1024
int sftp_client_users_groups(struct sftp_conn *c, const uint32_t *uids,
    size_t nu, const uint32_t *gids, size_t ng, char **unames, char **gnames);
/* copy-data: rlen 0 copies to the end of the source. */
int sftp_client_copy_data(struct sftp_conn *c, const struct sftp_handle *rh,
    uint64_t roff, uint64_t rlen, const struct sftp_handle *wh,
    uint64_t woff);

/*
 * Pipelined transfers of an open remote file from / to a local
 * descriptor, starting at offset (the same on both sides). A download
 * ends at the server's EOF; an upload at the local end of file. *done
 * is the byte count written at the destination contiguously from
 * offset (valid on failure too, for a later resume). ERR_SYSTEM (errno
 * set) is a local read or write that failed: the connection is still
 * usable, and so it is after a refusal (a positive status).
 */
int sftp_client_read_file(struct sftp_conn *c, const struct sftp_handle *h,
    int local_fd, uint64_t offset, uint64_t *done,
    sftp_progress_fn *progress, void *arg);
int sftp_client_write_file(struct sftp_conn *c, const struct sftp_handle *h,
    int local_fd, uint64_t offset, uint64_t *done,
    sftp_progress_fn *progress, void *arg);
/*
 * While *flag is non-zero (a signal handler sets it), a transfer sends
 * no new request, collects the outstanding ones and returns ERR_SYSTEM
 * with errno EINTR. NULL: never.
 */
void sftp_client_set_cancel(struct sftp_conn *c, volatile sig_atomic_t *flag);

#endif
