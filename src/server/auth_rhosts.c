/*
 * auth_rhosts.c: the files behind hostbased authentication: the
 * rhosts-style trust files (hosts.equiv, shosts.equiv, ~/.shosts,
 * ~/.rhosts) and the known_hosts files holding client host keys.
 *
 * rhosts_line_match() decides one line; rhosts_scan() takes the first
 * line that decides. hostbased_rhosts_ok() walks the files in OpenSSH's
 * order with its ownership and mode rules, and hostbased_key_known()
 * looks the client host key up with hostfile_lookup(). Files in the
 * user's home are opened with the user's effective ids when we run as
 * root, as sshd reads them.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "auth_hostbased.h"
#include "err.h"
#include "hostfile.h"
#include "log.h"
#include "mem.h"

#define RH_MAX_LINE	1024
#define RH_MAX_GROUPS	1024

const struct hostbased_paths hostbased_system_paths = {
	"/etc/hosts.equiv",
	"/etc/ssh/shosts.equiv",
	"/etc/ssh/ssh_known_hosts",
	"/etc/ssh/ssh_known_hosts2",
};

/* Strip a leading '+' or '-'; sets *neg on '-'. */
static const char *
rh_sign(const char *f, int *neg)
{
	if (*f == '-') {
		*neg = 1;
		return f + 1;
	}
	return *f == '+' ? f + 1 : f;
}

int
rhosts_line_match(const char *line, const struct rhosts_query *q)
{
	char buf[RH_MAX_LINE], *fields[3], *cp, *tok;
	const char *host, *user;
	int nf = 0, neg = 0;

	if (strlen(line) >= sizeof(buf))
		return 0;
	strcpy(buf, line);
	buf[strcspn(buf, "\r\n")] = '\0';
	cp = buf + strspn(buf, " \t");
	if (*cp == '#' || *cp == '\0' || strncmp(cp, "NO_PLUS", 7) == 0)
		return 0;
	while (nf < 3 && (tok = strsep(&cp, " \t")) != NULL)
		if (*tok != '\0')
			fields[nf++] = tok;
	if (nf == 3)
		return 0;		/* garbage after the user */
	host = rh_sign(fields[0], &neg);
	user = nf == 2 ? rh_sign(fields[1], &neg) : q->server_user;
	if (*host == '\0' || *user == '\0')
		return 0;		/* wildcards are not honoured */
	if (*host == '@') {
		if (!innetgr(host + 1, q->host, NULL, NULL) &&
		    !innetgr(host + 1, q->addr, NULL, NULL))
			return 0;
	} else if (strcasecmp(host, q->host) != 0 &&
	    strcmp(host, q->addr) != 0)
		return 0;
	if (*user == '@') {
		if (!innetgr(user + 1, NULL, q->client_user, NULL))
			return 0;
	} else if (strcmp(user, q->client_user) != 0)
		return 0;
	return neg ? -1 : 1;
}

int
rhosts_scan(FILE *f, const struct rhosts_query *q)
{
	char line[RH_MAX_LINE];
	int r;

	while (fgets(line, sizeof(line), f) != NULL) {
		if ((r = rhosts_line_match(line, q)) == -1) {
			log_debug("Matched negative entry");
			return 0;
		}
		if (r == 1)
			return 1;
	}
	return 0;
}

/* Saved identity while acting as the user. */
struct rh_ident {
	int changed;
	uid_t euid;
	gid_t egid;
	gid_t groups[RH_MAX_GROUPS];
	int ngroups;
};

/* Back to our own identity; ERR_SYSTEM (logged) if that fails. */
static int
rh_restore(struct rh_ident *s)
{
	if (!s->changed)
		return 0;
	s->changed = 0;
	if (seteuid(s->euid) != 0 || setegid(s->egid) != 0 ||
	    setgroups((size_t)s->ngroups, s->groups) != 0) {
		log_error("cannot restore privileges: %s", strerror(errno));
		return ERR_SYSTEM;
	}
	return 0;
}

/* Act as pw when we are root and pw is not. */
static int
rh_become(const struct passwd *pw, struct rh_ident *s)
{
	gid_t ug[RH_MAX_GROUPS];
	int nug = RH_MAX_GROUPS;

	s->changed = 0;
	if (geteuid() != 0 || pw->pw_uid == 0)
		return 0;
	s->euid = geteuid();
	s->egid = getegid();
	if ((s->ngroups = getgroups(RH_MAX_GROUPS, s->groups)) < 0)
		return ERR_SYSTEM;
	if (getgrouplist(pw->pw_name, pw->pw_gid, ug, &nug) < 0) {
		ug[0] = pw->pw_gid;
		nug = 1;
	}
	s->changed = 1;
	if (setgroups((size_t)nug, ug) != 0 || setegid(pw->pw_gid) != 0 ||
	    seteuid(pw->pw_uid) != 0) {
		log_error("cannot act as user %s: %s", pw->pw_name,
		    strerror(errno));
		(void)rh_restore(s);
		return ERR_SYSTEM;
	}
	return 0;
}

static int
owner_mode_ok(const struct stat *st, const struct passwd *pw)
{
	return (st->st_uid == 0 || st->st_uid == pw->pw_uid) &&
	    (st->st_mode & 022) == 0;
}

/* Scan one file (a regular file only); 1 if it lets q in. */
static int
rh_check_file(const char *path, const struct rhosts_query *q)
{
	struct stat st;
	FILE *f;
	int fd, ok;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)) == -1)
		return 0;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		log_info("User %s hosts file %s is not a regular file",
		    q->server_user, path);
		close(fd);
		return 0;
	}
	if (fcntl(fd, F_SETFL, 0) == -1 || (f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return 0;
	}
	ok = rhosts_scan(f, q);
	fclose(f);
	return ok;
}

static const char *const user_files[] = { ".shosts", ".rhosts" };
#define NUSER_FILES (sizeof(user_files) / sizeof(user_files[0]))

/* Whether IgnoreRhosts leaves the user's file name to be read. */
static int
user_file_allowed(int ignore, const char *name)
{
	if (ignore == IGNORE_RHOSTS_YES)
		return 0;
	if (ignore == IGNORE_RHOSTS_SHOSTS)
		return strcmp(name, ".shosts") == 0;
	return 1;
}

static int
rh_user_files(const struct servconf *sc, const struct passwd *pw,
    const struct rhosts_query *q)
{
	char path[PATH_MAX];
	struct stat st;
	size_t i;

	if (stat(pw->pw_dir, &st) == -1) {
		log_info("Rhosts authentication refused for %s: no home "
		    "directory %s", pw->pw_name, pw->pw_dir);
		return 0;
	}
	if (sc->strict_modes && !owner_mode_ok(&st, pw)) {
		log_info("Rhosts authentication refused for %s: bad ownership "
		    "or modes for home directory.", pw->pw_name);
		return 0;
	}
	for (i = 0; i < NUSER_FILES; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", pw->pw_dir,
		    user_files[i]) >= sizeof(path))
			continue;
		if (stat(path, &st) == -1) {
			log_debug3("auth_rhosts2: stat %s: %s", path,
			    strerror(errno));
			continue;
		}
		if (sc->strict_modes && !owner_mode_ok(&st, pw)) {
			log_info("Rhosts authentication refused for %s: bad "
			    "modes for %s", pw->pw_name, path);
			continue;
		}
		if (!user_file_allowed(sc->ignore_rhosts, user_files[i])) {
			log_debug3("Server has been configured to ignore %s.",
			    user_files[i]);
			continue;
		}
		if (rh_check_file(path, q)) {
			log_debug3("Accepted by %s.", user_files[i]);
			return 1;
		}
	}
	return 0;
}

int
hostbased_rhosts_ok(const struct servconf *sc, const struct passwd *pw,
    const struct rhosts_query *q, const struct hostbased_paths *paths)
{
	struct rh_ident id;
	struct stat st;
	char path[PATH_MAX];
	size_t i;
	int any = 0, ok;

	log_debug2("auth_rhosts2: clientuser %s hostname %s ipaddr %s",
	    q->client_user, q->host, q->addr);
	/* Nothing to read: say no before any more work. */
	if (rh_become(pw, &id) != 0)
		return 0;
	for (i = 0; i < NUSER_FILES && !any; i++)
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", pw->pw_dir,
		    user_files[i]) < sizeof(path) && stat(path, &st) == 0)
			any = 1;
	if (rh_restore(&id) != 0)
		return 0;
	if (!any && stat(paths->hosts_equiv, &st) == -1 &&
	    stat(paths->shosts_equiv, &st) == -1) {
		log_debug3("auth_rhosts2: no hosts access files exist");
		return 0;
	}
	if (pw->pw_uid == 0)
		log_debug3("auth_rhosts2: root user, ignoring system hosts "
		    "files");
	else {
		if (rh_check_file(paths->hosts_equiv, q)) {
			log_debug("Accepted for %s [%s] by %s.", q->host,
			    q->addr, paths->hosts_equiv);
			return 1;
		}
		if (rh_check_file(paths->shosts_equiv, q)) {
			log_debug("Accepted for %s [%s] by %s.", q->host,
			    q->addr, paths->shosts_equiv);
			return 1;
		}
	}
	if (rh_become(pw, &id) != 0)
		return 0;
	ok = rh_user_files(sc, pw, q);
	if (rh_restore(&id) != 0)
		return 0;
	return ok;
}

/* One round: a system file and maybe the user's; the lookup status. */
static enum hostfile_status
key_in_files(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const char *host, const char *sysfile,
    const char *userfile)
{
	struct hostfile_result res;
	struct rh_ident id;
	struct stat st;
	const char *paths[2];
	char *upath = NULL;
	size_t n = 0;
	enum hostfile_status status = HOST_NEW;

	paths[n++] = sysfile;
	if (userfile != NULL) {
		upath = x_asprintf("%s/%s", pw->pw_dir, userfile);
		if (rh_become(pw, &id) != 0) {
			x_free(upath);
			return HOST_NEW;
		}
		if (sc->strict_modes && stat(upath, &st) == 0 &&
		    !owner_mode_ok(&st, pw))
			log_info("Authentication refused for %s: bad owner or "
			    "modes for %s", pw->pw_name, upath);
		else
			paths[n++] = upath;
		if (rh_restore(&id) != 0) {
			x_free(upath);
			return HOST_NEW;
		}
	}
	memset(&res, 0, sizeof(res));
	if (n == 2 && rh_become(pw, &id) != 0) {
		x_free(upath);
		return HOST_NEW;
	}
	if (hostfile_lookup(paths, n, host, 22, key, &res) == 0)
		status = res.status;
	if (n == 2 && rh_restore(&id) != 0)
		status = HOST_NEW;
	if (status == HOST_REVOKED)
		log_error("WARNING: revoked key for %s attempted "
		    "authentication", host);
	else if (status == HOST_OK)
		log_debug("check_key_in_hostfiles: key for %s found at %s:%lu",
		    host, res.match.path ? res.match.path : "?",
		    res.match.line);
	else
		log_debug("check_key_in_hostfiles: key for host %s not found",
		    host);
	hostfile_result_clear(&res);
	x_free(upath);
	return status;
}

int
hostbased_key_known(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const char *host,
    const struct hostbased_paths *paths)
{
	enum hostfile_status st;

	st = key_in_files(sc, pw, key, host, paths->known_hosts,
	    sc->ignore_user_known_hosts ? NULL : ".ssh/known_hosts");
	if (st == HOST_NEW)
		st = key_in_files(sc, pw, key, host, paths->known_hosts2,
		    sc->ignore_user_known_hosts ? NULL : ".ssh/known_hosts2");
	return st == HOST_OK;
}
