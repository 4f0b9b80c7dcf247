/*
 * ptyrecords.h: the login records (utmp, wtmp) a monitor writes for the
 * pty sessions of a user's process that cannot write them itself.
 *
 * The process asking is the user's and so not trusted: a login record
 * is written only for "/dev/pts/N", a character device the user owns,
 * for a process whose real uid is the user's, for a tty not recorded
 * already, at most PTYREC_MAX_TTYS at a time and PTYREC_MAX_LOGINS over
 * the connection; a logout only for a tty recorded here.
 */
#ifndef MOAT_PTYRECORDS_H
#define MOAT_PTYRECORDS_H

#include <pwd.h>
#include <stdint.h>

#define PTYREC_MAX_TTYS		64
#define PTYREC_MAX_LOGINS	4096

struct ptyrecords;

struct ptyrecords *ptyrecords_new(void);
/* Frees; writes no records (see ptyrecords_logout_all()). */
void ptyrecords_free(struct ptyrecords *r);
/*
 * The login of pw on tty, session leader pid, from client: 0 (the
 * records written as far as the system has the files, when running as
 * root), or ERR_PERMISSION_DENIED when any rule above refuses it.
 */
int ptyrecords_login(struct ptyrecords *r, const struct passwd *pw,
    const char *client, const char *tty, uint32_t pid);
/* 0, or ERR_NOT_FOUND for a tty not recorded here. */
int ptyrecords_logout(struct ptyrecords *r, const char *tty);
/* The logout of every tty still recorded. */
void ptyrecords_logout_all(struct ptyrecords *r);

#endif
