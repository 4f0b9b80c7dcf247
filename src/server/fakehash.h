/*
 * fakehash.h: the hash a password check computes when there is no real
 * one to compare against (unknown user, locked account, user not
 * allowed), made to cost what checking a real account's password costs.
 *
 * The method and cost imitated are those of the system's accounts: of
 * the usable hashes in the shadow file (the passwd file when the shadow
 * file cannot be read), the form (method and cost parameters) most
 * accounts share, ties going to the form seen first; locked hashes
 * ("!" + hash) count only when no account has a usable one; with none
 * at all, libxcrypt's default method. The setting hashed has that form
 * and a fresh random salt. See fakehash.c.
 */
#ifndef MOAT_FAKEHASH_H
#define MOAT_FAKEHASH_H

#include <stddef.h>
#include <stdio.h>

/*
 * 1 if a stored hash (shadow or passwd field) is one a password can be
 * checked against: not empty, not locked ("!..."), not "*..." or "x",
 * and either "$id$..." or 13 characters of traditional DES.
 */
int fakehash_usable(const char *stored);

/*
 * Read shadow- or passwd-format lines from f and choose the stored hash
 * whose form to imitate (the rule above). *outp: a copy of that hash,
 * freed by the caller with x_freezero(); NULL when no line has a usable
 * or locked hash. 0, or ERR_SYSTEM on a read error.
 */
int fakehash_pick(FILE *f, char **outp);

/*
 * Into out (outlen bytes; CRYPT_OUTPUT_SIZE is always enough): a crypt
 * setting with the method and cost parameters of the usable hash stored
 * and a fresh random salt. For methods whose layout is not taken apart
 * here, the stored hash itself (same cost, its own salt).
 * ERR_INVALID_FORMAT if stored is not usable, ERR_NO_BUFFER_SPACE.
 */
int fakehash_setting(const char *stored, char *out, size_t outlen);

/*
 * The setting a fake check hashes with: picked from shadow_path, or
 * from passwd_path when shadow_path cannot be opened, and made by
 * fakehash_setting(); libxcrypt's default method when nothing is
 * usable. Reads the files on every call, whoever the user is, so the
 * choice costs the same for every attempt. Always fills out (at least
 * CRYPT_GENSALT_OUTPUT_SIZE bytes).
 */
void fakehash_system(const char *shadow_path, const char *passwd_path,
    char *out, size_t outlen);

#endif
