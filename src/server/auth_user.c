/*
 * auth_user.c: who may log in at all: OpenSSH's account checks (login
 * shell, DenyUsers, AllowUsers, DenyGroups, AllowGroups, the server's own
 * user when not root), and owned copies of passwd entries.
 *
 * The checks run in OpenSSH's order and log its lines, so existing log
 * watchers keep matching: the first refusal logs why and ends the check.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <grp.h>
#include <pwd.h>
#include <shadow.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "log.h"
#include "match.h"
#include "mem.h"

#define AUTH_MAX_GROUPS	1024

struct passwd *
auth_pw_dup(const struct passwd *pw)
{
	struct passwd *c = x_calloc(1, sizeof(*c));

	*c = *pw;
	c->pw_name = x_strdup(pw->pw_name ? pw->pw_name : "");
	c->pw_passwd = x_strdup(pw->pw_passwd ? pw->pw_passwd : "*");
	c->pw_gecos = x_strdup(pw->pw_gecos ? pw->pw_gecos : "");
	c->pw_dir = x_strdup(pw->pw_dir ? pw->pw_dir : "/");
	c->pw_shell = x_strdup(pw->pw_shell ? pw->pw_shell : "");
	return c;
}

void
auth_pw_free(struct passwd *pw)
{
	if (pw == NULL)
		return;
	x_free(pw->pw_name);
	if (pw->pw_passwd != NULL)
		x_freezero(pw->pw_passwd, strlen(pw->pw_passwd));
	x_free(pw->pw_gecos);
	x_free(pw->pw_dir);
	x_free(pw->pw_shell);
	x_free(pw);
}

static int
in_patterns(char *const *pats, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (match_pattern(name, pats[i]))
			return 1;
	return 0;
}

/* DenyGroups then AllowGroups; 1 if allowed. */
static int
groups_allowed(const struct servconf *sc, const struct passwd *pw,
    const char *host)
{
	gid_t *gids;
	struct group *gr;
	int n = AUTH_MAX_GROUPS, i, deny = 0, allow = 0, named = 0;

	if (sc->ndeny_groups == 0 && sc->nallow_groups == 0)
		return 1;
	gids = x_calloc((size_t)n, sizeof(*gids));
	if (getgrouplist(pw->pw_name, pw->pw_gid, gids, &n) < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		if ((gr = getgrgid(gids[i])) == NULL)
			continue;
		named++;
		if (in_patterns(sc->deny_groups, sc->ndeny_groups,
		    gr->gr_name))
			deny = 1;
		if (in_patterns(sc->allow_groups, sc->nallow_groups,
		    gr->gr_name))
			allow = 1;
	}
	x_free(gids);
	if (named == 0) {
		log_info("User %s from %s not allowed because not in any "
		    "group", pw->pw_name, host);
		return 0;
	}
	if (deny) {
		log_info("User %s from %s not allowed because a group is "
		    "listed in DenyGroups", pw->pw_name, host);
		return 0;
	}
	if (sc->nallow_groups > 0 && !allow) {
		log_info("User %s from %s not allowed because none of user's "
		    "groups are listed in AllowGroups", pw->pw_name, host);
		return 0;
	}
	return 1;
}

/*
 * Without PAM, as OpenSSH: a locked password ("!" or "*LK*") locks the
 * account for every method, and a past shadow expiry date ends it.
 * Only root can read the shadow file; otherwise the passwd field decides.
 */
static int
account_usable(const struct passwd *pw)
{
	struct spwd *sp = NULL;
	const char *hash = pw->pw_passwd;
	long today = (long)(time(NULL) / 86400);

	if (geteuid() == 0 && (sp = getspnam(pw->pw_name)) != NULL)
		hash = sp->sp_pwdp;
	if (sp != NULL && sp->sp_expire != -1 && today > sp->sp_expire) {
		log_info("Account %s has expired", pw->pw_name);
		return 0;
	}
	if (hash != NULL && (strncmp(hash, "!", 1) == 0 ||
	    strncmp(hash, "*LK*", 4) == 0)) {
		log_info("User %s not allowed because account is locked",
		    pw->pw_name);
		return 0;
	}
	return 1;
}

int
auth_user_allowed(const struct servconf *sc, const struct passwd *pw,
    const char *remote_host, const char *remote_addr)
{
	const char *shell, *host = remote_host ? remote_host : remote_addr;
	struct stat st;
	size_t i;
	int hit;

	if (geteuid() != 0 && pw->pw_uid != getuid()) {
		log_info("User %s from %s not allowed because the server is "
		    "not running as root", pw->pw_name, host);
		return 0;
	}
	if (!sc->use_pam && !account_usable(pw))
		return 0;
	shell = (pw->pw_shell == NULL || *pw->pw_shell == '\0') ?
	    "/bin/sh" : pw->pw_shell;
	if (stat(shell, &st) != 0) {
		log_info("User %s not allowed because shell %s does not "
		    "exist", pw->pw_name, shell);
		return 0;
	}
	if (!S_ISREG(st.st_mode) ||
	    (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) == 0) {
		log_info("User %s not allowed because shell %s is not "
		    "executable", pw->pw_name, shell);
		return 0;
	}
	for (i = 0; i < sc->ndeny_users; i++) {
		if (match_user(pw->pw_name, host, remote_addr,
		    sc->deny_users[i]) == 1) {
			log_info("User %s from %s not allowed because listed "
			    "in DenyUsers", pw->pw_name, host);
			return 0;
		}
	}
	if (sc->nallow_users > 0) {
		for (hit = 0, i = 0; i < sc->nallow_users && !hit; i++)
			hit = match_user(pw->pw_name, host, remote_addr,
			    sc->allow_users[i]) == 1;
		if (!hit) {
			log_info("User %s from %s not allowed because not "
			    "listed in AllowUsers", pw->pw_name, host);
			return 0;
		}
	}
	return groups_allowed(sc, pw, host);
}
