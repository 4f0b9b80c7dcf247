/*
 * auth_passwd.c: checking a password against the system's hash.
 *
 * The hash is looked up in the shadow file (getspnam, which needs root)
 * and falls back to the passwd entry. The candidate is hashed with
 * crypt_r() using the stored hash as the setting and the results are
 * compared in constant time. Whenever there is nothing real to compare
 * against (unknown user, locked account, unreadable shadow file) a hash
 * with the system's default method is computed anyway, so that the time
 * taken does not tell an attacker which case he hit.
 */
#include <crypt.h>
#include <errno.h>
#include <pwd.h>
#include <shadow.h>
#include <string.h>

#include "auth.h"
#include "err.h"
#include "log.h"
#include "mem.h"

/* Hash password with a fresh default-method setting and throw it away. */
static void
burn_time(const char *password, struct crypt_data *cd)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];

	if (crypt_gensalt_rn(NULL, 0, NULL, 0, setting,
	    sizeof(setting)) == NULL)
		strcpy(setting, "$6$moatmoatmoatmoat$");
	(void)crypt_r(password, setting, cd);
}

int
auth_passwd_check(const struct passwd *pw, int valid, const char *password,
    int permit_empty)
{
	struct crypt_data *cd = x_calloc(1, sizeof(*cd));
	struct spwd *sp;
	const char *hash = NULL, *got;
	char *stored = NULL;
	size_t len;
	int r = ERR_PERMISSION_DENIED;

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
		burn_time(password, cd);
		goto out;
	}
	if (*stored == '\0') {
		/* No password set: only the empty password, if allowed. */
		burn_time(password, cd);
		if (*password == '\0' && permit_empty)
			r = 0;
		goto out;
	}
	if (*stored == '!' || *stored == '*' || strcmp(stored, "x") == 0 ||
	    (stored[0] != '$' && strlen(stored) != 13)) {
		/* Locked, shadowed out of reach, or not a crypt hash. */
		burn_time(password, cd);
		goto out;
	}
	if (*password == '\0' && !permit_empty) {
		burn_time(password, cd);
		goto out;
	}
	got = crypt_r(password, stored, cd);
	len = strlen(stored);
	if (got != NULL && got[0] != '*' && strlen(got) == len &&
	    x_ct_eq(got, stored, len))
		r = 0;
 out:
	if (stored != NULL)
		x_freezero(stored, strlen(stored));
	x_freezero(cd, sizeof(*cd));
	return r;
}
