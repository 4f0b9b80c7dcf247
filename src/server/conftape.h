/*
 * conftape.h: the configuration's files as the listener read them.
 *
 * A connection process must run with the configuration the listener
 * started with, not with whatever sshd_config holds on disk when the
 * connection comes: an administrator edits the file, checks it with
 * `sshd -t`, then reloads, and a half-finished edit must not lock every
 * new login out meanwhile (OpenSSH hands its re-executed child the same
 * text for that reason). So the listener records, while it parses, the
 * text of every file it reads and the result of every Include glob, in
 * the order of reading; the connection process replays that record
 * instead of opening files. The record travels in a sealed memfd.
 *
 * Format: a sequence of entries, each
 *   byte    'F'   string path, string text     (a file read whole)
 *   byte    'G'   string pattern, uint32 n, n x string path  (a glob)
 * with SSH's string encoding (uint32 length, bytes).
 */
#ifndef MOAT_CONFTAPE_H
#define MOAT_CONFTAPE_H

#include <stddef.h>

struct conftape;

/* An empty tape that records what is added. */
struct conftape *conftape_new(void);
/* A tape to replay, from its bytes (copied); NULL if malformed. */
struct conftape *conftape_parse(const unsigned char *p, size_t len);
void conftape_free(struct conftape *t);
/* 1 if this tape replays (conftape_parse), 0 if it records. */
int conftape_replaying(const struct conftape *t);

void conftape_add_file(struct conftape *t, const char *path,
    const char *text, size_t len);
void conftape_add_glob(struct conftape *t, const char *pattern,
    char *const *paths, size_t n);

/*
 * The text recorded for path (not NUL-terminated beyond len; it holds
 * no NUL of its own only if the file held none); NULL if none was.
 */
const char *conftape_file(const struct conftape *t, const char *path,
    size_t *lenp);
/* The paths recorded for pattern, in order; 0 and *np if it was,
 * ERR_NOT_FOUND if the pattern was never globbed. */
int conftape_glob(const struct conftape *t, const char *pattern,
    char ***pathsp, size_t *np);

/*
 * The recorded tape in a sealed, close-on-exec memfd: its fd, or -1
 * (logged). conftape_read_fd() reads one back (pread from 0: children
 * share the file offset) into a replaying tape; NULL if it fails.
 */
int conftape_to_memfd(const struct conftape *t);
struct conftape *conftape_read_fd(int fd);

#endif
