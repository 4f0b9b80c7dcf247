/*
 * authinfo.h: sshd's ExposeAuthInfo. The text lists the authentication
 * methods that succeeded, one line each in the order they did, in
 * OpenSSH's format:
 *
 *   publickey ssh-ed25519 AAAAC3Nz...        (the key or certificate)
 *   password
 *   keyboard-interactive/pam
 *   hostbased ssh-ed25519 AAAA... client user "u", client host "h"
 *
 * The monitor, which gave the answers, writes the text; the user's
 * process puts it in a file of the user's and names the file to the
 * sessions in SSH_USER_AUTH, and removes it when the connection ends.
 */
#ifndef MOAT_AUTHINFO_H
#define MOAT_AUTHINFO_H

#include <stddef.h>

struct sbuf;

/* Where the file goes: a literal /tmp, as OpenSSH (inside a chroot too). */
#define AUTHINFO_DIR	"/tmp"

/*
 * Append the line of one method that succeeded to text: method as
 * AuthenticationMethods names it ("keyboard-interactive:pam" is
 * written keyboard-interactive/pam), then when blob is not NULL the key
 * in public-key-line form (the type name the blob starts with, base64
 * of the blob), then when info is not NULL a space and info.
 * ERR_INVALID_FORMAT (nothing appended) for a blob that does not start
 * with a plausible type name, or a method or info that would break the
 * line apart.
 */
int authinfo_add(struct sbuf *text, const char *method,
    const unsigned char *blob, size_t bloblen, const char *info);

/*
 * Write len bytes of text to a new file DIR/sshauth.<15 random
 * characters>, created 0600 by the calling process (run it as the
 * user), never replacing a file. 0 and *pathp (caller frees), or an
 * error, logged in OpenSSH's words.
 */
int authinfo_write(const char *dir, const char *text, size_t len,
    char **pathp);

#endif
