/*
 * auth_subproc.h: helper programs run during authentication
 * (AuthorizedKeysCommand): path checks, argument splitting, running as
 * another user with a deadline and an output cap.
 */
#ifndef MOAT_AUTH_SUBPROC_H
#define MOAT_AUTH_SUBPROC_H

#include <pwd.h>
#include <stddef.h>

#include "sbuf.h"

/*
 * Split a command line into a NULL-terminated argv (caller frees with
 * subproc_argv_free()): blanks separate words, "..." and '...' quote,
 * a backslash escapes the next character. ERR_INVALID_FORMAT for an
 * unterminated quote, an empty line or too many words.
 */
int subproc_split(const char *s, char ***argvp);
void subproc_argv_free(char **argv);

/*
 * Whether path may be run by root: absolute, a regular file, owned by
 * root and not group/world-writable, and so every directory above it.
 * 0 if so; ERR_KEY_BAD_PERMISSIONS with the reason in err otherwise.
 */
int subproc_safe_path(const char *path, char *err, size_t errlen);

/*
 * Run argv[0] (an absolute path) with argv as runas (when we are root),
 * stdin and stderr on /dev/null, in its own session, environment PATH
 * only. Returns 0 and *outp (caller frees) holding its standard output
 * when it exited with status 0 within timeout seconds (0: no limit)
 * and printed at most maxout bytes. Otherwise the program is killed if
 * still running, the reason is logged prefixed by tag, and the result
 * is ERR_CONN_TIMEOUT, ERR_NO_BUFFER_SPACE, ERR_PERMISSION_DENIED
 * (non-zero exit or signal) or ERR_SYSTEM.
 */
int subproc_run(const char *tag, char **argv, const struct passwd *runas,
    int timeout, size_t maxout, struct sbuf **outp);

#endif
