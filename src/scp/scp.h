/*
 * scp.h: what the parts of the scp program share.
 *
 * main.c parses the command line and decides, for each source, which
 * way the copy goes; scp_sftp.c copies over SFTP (the default);
 * scp_legacy.c speaks the old rcp protocol (-O, and the remote end's
 * hidden -t/-f); scp_line.c holds the pure pieces: the parser of that
 * protocol's control lines, the sink's checks of the names a server
 * sends, and the quoting of a remote path for the shell.
 */
#ifndef MOAT_SCP_H
#define MOAT_SCP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sftp_client.h"
#include "sftp_prog.h"

struct scp {
	int recurse, preserve, quiet, verbose, batch;
	int strict;		/* check received names (not -T) */
	int legacy;		/* -O */
	int through_local;	/* remote to remote: -3 (default) or -R */
	int targetdir;		/* -d: the target must be a directory */
	int remote;		/* running as the far end (-t/-f) */
	int errs;		/* exit status 1 when set */
	uint64_t limit_kbps;	/* -l */
	struct sftp_client_opts so;
	char **ssh;		/* ssh program and its options */
	size_t nssh;
	const char *port;	/* -P */
	const char *sftp_direct; /* -D */
	const char *ssh_program; /* -S */
	char **pass_flags;	/* flags for a remote scp (-R copies) */
	size_t npass;
};

/* A remote operand split: [user@]host:path. */
struct rpath {
	char *user, *host, *path;
	char *port;		/* from an scp:// address; NULL: -P's */
};

/* main.c */
/* Run ssh to host with a remote command or subsystem; 0 or -1. */
int scp_connect(struct scp *g, const struct rpath *r, const char *cmd,
    int subsystem, int *in_fd, int *out_fd, pid_t *pid);
int scp_wait(pid_t pid);
/* "scp: " and the message on stderr; counts an error. */
void scp_err(struct scp *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* scp_line.c: the rcp protocol's control records. */
#define SCP_LINE_MAX	2048
struct scp_rec {
	char type;		/* 'C', 'D', 'E' or 'T' */
	uint32_t mode;		/* C, D: permission bits */
	uint64_t size;		/* C */
	int64_t mtime, atime;	/* T */
	const char *name;	/* C, D: into the line */
};
/* line: one record without its '\n'; *why: the protocol error. */
int scp_parse_record(const char *line, struct scp_rec *r, const char **why);
/* A name the sink may accept: not empty, "." or "..", no '/', and,
 * with patterns, matching one of them. */
int scp_name_ok(const char *name, char *const *pats, size_t npats,
    const char **why);
/* The patterns a request for path allows ({a,b} expanded) */
int scp_patterns(const char *path, char ***pats, size_t *npats);
void scp_free_strv(char **v, size_t n);
/* path quoted for a POSIX shell; glob characters and a leading
 * ~user stay as they are, so the remote shell still expands them. */
char *scp_shell_quote(const char *path);

/* A rate limit on a stream of bytes (-l). */
struct bwlimit {
	uint64_t kbps, bytes;
	double start;
};
void bwlimit_init(struct bwlimit *b, uint64_t kbps);
void bwlimit_account(struct bwlimit *b, size_t n);

/* scp_legacy.c: the source, and the I/O both ends use. */
int legacy_write_all(int fd, const void *p, size_t n);
size_t legacy_read_full(int fd, void *p, size_t n);
int legacy_read_line(int fd, char *buf, size_t cap);
/* An error: to the peer on wr (unless -1) as a 1 record, and here on
 * stderr unless this is the far end. */
void legacy_run_err(struct scp *g, int wr, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void legacy_lost(const struct scp *g) __attribute__((noreturn));
int legacy_response(struct scp *g, int rd);
/*
 * The bytes of one file, in pieces, as both ends count them: the
 * progress meter (on a terminal, not at the far end) and the -l limit.
 * while ((n = legacy_copy_next(&c)) > 0) { move n bytes;
 * legacy_copy_done(&c, n); } -- the meter ends with the last piece.
 */
#define LEGACY_CHUNK	32768
struct legacy_copy {
	struct progress pm;
	struct bwlimit bw;
	uint64_t size, done;
	int meter;
};
void legacy_copy_start(struct legacy_copy *c, const struct scp *g,
    const char *name, uint64_t size);
size_t legacy_copy_next(struct legacy_copy *c);
void legacy_copy_done(struct legacy_copy *c, size_t n);
const char *legacy_last_part(const char *p);
int legacy_source(struct scp *g, int rd, int wr, char **files, size_t n);
/* scp_sink.c: request is the remote path asked for (its last part
 * gives the names allowed at the top), NULL: any name. */
int legacy_sink(struct scp *g, int rd, int wr, const char *target,
    const char *request);

/* scp_sftp.c */
int sftp_upload(struct scp *g, char **src, size_t n, const struct rpath *t);
int sftp_download(struct scp *g, const struct rpath *s, const char *target);
int sftp_remote2remote(struct scp *g, const struct rpath *s,
    const struct rpath *t);

#endif
