/*
 * ptyrecords.c: a monitor's login records of a user's ptys (see
 * ptyrecords.h).
 */
#include <sys/stat.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "loginrec.h"
#include "mem.h"
#include "ptyrecords.h"

struct ptyrecords {
	char *ttys[PTYREC_MAX_TTYS];	/* login records written */
	unsigned logins;
};

struct ptyrecords *
ptyrecords_new(void)
{
	return x_calloc(1, sizeof(struct ptyrecords));
}

void
ptyrecords_free(struct ptyrecords *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < PTYREC_MAX_TTYS; i++)
		x_free(r->ttys[i]);
	x_free(r);
}

/*
 * A pty of the user's: "/dev/pts/N", a character device the user owns
 * (the post-auth process opened it as the user).
 */
static int
users_pty(const struct passwd *pw, const char *tty)
{
	struct stat st;
	const char *p;

	if (strncmp(tty, "/dev/pts/", 9) != 0 || tty[9] == '\0')
		return 0;
	for (p = tty + 9; *p != '\0'; p++)
		if (*p < '0' || *p > '9' || p - tty > 16)
			return 0;
	return stat(tty, &st) == 0 && S_ISCHR(st.st_mode) &&
	    st.st_uid == pw->pw_uid;
}

/*
 * A process whose real uid is the user's (its /proc directory may be
 * root's: a process that changed its uid is not dumpable).
 */
static int
users_process(const struct passwd *pw, uint32_t pid)
{
	char path[64], line[256];
	unsigned long uid;
	FILE *f;
	int ok = 0;

	if (pid < 2)
		return 0;
	snprintf(path, sizeof(path), "/proc/%lu/status", (unsigned long)pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Uid: %lu", &uid) == 1) {
			ok = uid == (unsigned long)pw->pw_uid;
			break;
		}
	fclose(f);
	return ok;
}

/* The slot holding tty, or PTYREC_MAX_TTYS. */
static size_t
slot_of(const struct ptyrecords *r, const char *tty)
{
	size_t i;

	for (i = 0; i < PTYREC_MAX_TTYS; i++)
		if (r->ttys[i] != NULL && strcmp(r->ttys[i], tty) == 0)
			break;
	return i;
}

int
ptyrecords_login(struct ptyrecords *r, const struct passwd *pw,
    const char *client, const char *tty, uint32_t pid)
{
	size_t i;

	for (i = 0; i < PTYREC_MAX_TTYS && r->ttys[i] != NULL; i++)
		;
	if (i == PTYREC_MAX_TTYS || slot_of(r, tty) != PTYREC_MAX_TTYS ||
	    ++r->logins > PTYREC_MAX_LOGINS || !users_pty(pw, tty) ||
	    !users_process(pw, pid))
		return ERR_PERMISSION_DENIED;
	/*
	 * The tty is the user's login from here on, whether or not every
	 * file took its record (a system without utmp, say): the logout
	 * that frees it must still be accepted, or the next session given
	 * the same pty number would be refused.
	 */
	r->ttys[i] = x_strdup(tty);
	if (geteuid() == 0)
		(void)loginrec_login(loginrec_system_files(), tty, (pid_t)pid,
		    pw->pw_name, pw->pw_uid, client, client);
	return 0;
}

int
ptyrecords_logout(struct ptyrecords *r, const char *tty)
{
	size_t i = slot_of(r, tty);

	if (i == PTYREC_MAX_TTYS)
		return ERR_NOT_FOUND;
	(void)loginrec_logout(loginrec_system_files(), tty);
	x_free(r->ttys[i]);
	r->ttys[i] = NULL;
	return 0;
}

void
ptyrecords_logout_all(struct ptyrecords *r)
{
	size_t i;

	for (i = 0; i < PTYREC_MAX_TTYS; i++)
		if (r->ttys[i] != NULL)
			(void)ptyrecords_logout(r, r->ttys[i]);
}
