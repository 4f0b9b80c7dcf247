/*
 * auth_passwd.c: checking a password against the system's hash.
 *
 * The hash is looked up in the shadow file (getspnam, which needs root)
 * and falls back to the passwd entry. The candidate is hashed with
 * crypt_r() using the stored hash as the setting and the results are
 * compared in constant time. Whenever there is nothing real to compare
 * against (unknown user, user not allowed, locked account, no password,
 * unreadable shadow file) a hash is computed anyway, with the method and
 * cost most of the system's accounts use and a fresh salt (fakehash.c),
 * so that the time taken does not tell an attacker which case he hit.
 * That setting is made first on every call, whoever the user is.
 */
#include <crypt.h>
#include <errno.h>
#include <pwd.h>
#include <shadow.h>
#include <string.h>

#include "auth.h"
#include "err.h"
#include "fakehash.h"
#include "log.h"
#include "mem.h"

/* Hash password with the fake setting and throw the result away. */
static void
burn_time(const char *password, const char *setting, struct crypt_data *cd)
{
	(void)crypt_r(password, setting, cd);
}

int
auth_passwd_check(const struct passwd *pw, int valid, const char *password,
    int permit_empty)
{
	struct crypt_data *cd = x_calloc(1, sizeof(*cd));
	struct spwd *sp;
	const char *hash = NULL, *got;
	char *stored = NULL, fake[CRYPT_OUTPUT_SIZE];
	size_t len;
	int r = ERR_PERMISSION_DENIED;

	fakehash_system("/etc/shadow", "/etc/passwd", fake, sizeof(fake));
	if (valid) {
		errno = 0;
		if ((sp = getspnam(pw->pw_name)) != NULL)
			hash = sp->sp_pwdp;
		else {
			if (errno == EACCES)
				log_debug("cannot read the shadow password "
				    "of %s: not running as root",
				    pw->pw_name);
			hash = pw->pw_passwd;
		}
		/* getspnam's storage is static: copy it. */
		if (hash != NULL)
			stored = x_strdup(hash);
	}
	if (stored == NULL) {
		burn_time(password, fake, cd);
		goto out;
	}
	if (*stored == '\0') {
		/* No password set: only the empty password, if allowed. */
		burn_time(password, fake, cd);
		if (*password == '\0' && permit_empty)
			r = 0;
		goto out;
	}
	if (!fakehash_usable(stored)) {
		/* Locked, shadowed out of reach, or not a crypt hash. */
		burn_time(password, fake, cd);
		goto out;
	}
	if (*password == '\0' && !permit_empty) {
		burn_time(password, fake, cd);
		goto out;
	}
	got = crypt_r(password, stored, cd);
	len = strlen(stored);
	if (got != NULL && got[0] != '*' && strlen(got) == len &&
	    x_ct_eq(got, stored, len))
		r = 0;
 out:
	x_wipe(fake, sizeof(fake));
	if (stored != NULL)
		x_freezero(stored, strlen(stored));
	x_freezero(cd, sizeof(*cd));
	return r;
}
