/*
 * fwd_agent.c: the server's side of agent forwarding (see fwd_agent.h).
 *
 * The listener lives in a directory of its own made as mkdtemp(3) does
 * (mode 0700, ten random characters in the name), so only the user (and root) can reach the socket; the
 * socket's name carries this process's id, as OpenSSH's does. After
 * privilege separation this process is the user, so both belong to the
 * user from the start. When it is root serving another user (a server
 * run without separation, or a test), they are made as root and then
 * given to the user, the socket before its directory.
 *
 * Each accepted connection opens an auth-agent@openssh.com channel
 * (no type-specific fields) through fwd.c's second channel shape: the
 * socket is attached when the client confirms, and closed when it
 * refuses, so a client that will not serve its agent only ends that
 * local connection.
 *
 * Removal: the directory stays open while we listen, and the socket is
 * removed through that descriptor, so a directory later swapped for a
 * link elsewhere cannot make us unlink another file of that name; the
 * directory itself is removed only while its path still names the one
 * we made (rmdir removes nothing but an empty directory anyway).
 *
 * A process killed before it could remove them leaves both behind;
 * fwd_agent_sweep() lets whoever saw it die (sshd's monitor, through a
 * child that is the user) find them by the dead process's id.
 */
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "authopts.h"
#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "fwd_agent.h"
#include "log.h"
#include "mem.h"
#include "session.h"
#include "servconf.h"

/* The socket is the user's alone (its directory already is). */
#define FWD_AGENT_SOCK_MASK	0177
/* Random characters in the directory's name, and tries at a free one. */
#define FWD_AGENT_RANDOM	10
#define FWD_AGENT_TRIES		64

struct fwd_agent {
	char *dir;			/* TMPDIR/ssh-XXXXXXXXXX */
	char *name;			/* agent.PID, inside dir */
	char *path;			/* dir/name */
	int dirfd;			/* dir, open while we listen */
	int fd;				/* the listening socket */
	int watched;
};

const char *
fwd_agent_refusal(const struct servconf *sc, const struct authopts *opts)
{
	if (sc->disable_forwarding)
		return "DisableForwarding";
	if (!sc->allow_agent_forwarding)
		return "AllowAgentForwarding";
	if (opts != NULL && !opts->permit_agent_forwarding)
		return opts->restricted ? "restrict" : "no-agent-forwarding";
	return NULL;
}

static const struct chan_ops agent_ops = {
	.type = "auth-agent@openssh.com",
	.opened = fwd_chan_opened,
	.free = fwd_chan_free,
};

/* The socket is readable: a local client wants the agent. */
static void
accept_cb(struct chan_set *cs, int lfd, short revents, void *arg)
{
	int fd;

	(void)revents;
	(void)arg;
	if ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK |
	    SOCK_CLOEXEC)) == -1) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_error("accept from auth socket: %s",
			    strerror(errno));
		return;
	}
	log_debug("auth socket: new connection, opening %s", agent_ops.type);
	if (fwd_chan_open_fd(cs, &agent_ops, fd, NULL) != 0)
		log_info("%s: cannot open a channel", agent_ops.type);
}

/*
 * mkdtemp(3) with every one of the name's last FWD_AGENT_RANDOM
 * characters random, as OpenSSH's directories are named (glibc's draws
 * only six): dir ends in that many 'X's, replaced in place. 0, or
 * ERR_SYSTEM with errno set.
 */
static int
make_private_dir(char *dir)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[FWD_AGENT_RANDOM * 2];
	char *p = dir + strlen(dir) - FWD_AGENT_RANDOM;
	size_t i, j;
	int try;

	for (try = 0; try < FWD_AGENT_TRIES; try++) {
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return ERR_SYSTEM;
		/* Bytes past a multiple of 62 are skipped: no bias. */
		for (i = j = 0; i < sizeof(rnd) && j < FWD_AGENT_RANDOM; i++)
			if (rnd[i] < 248)
				p[j++] = set[rnd[i] % 62];
		if (j < FWD_AGENT_RANDOM)
			continue;
		if (mkdir(dir, 0700) == 0)
			return 0;
		if (errno != EEXIST)
			return ERR_SYSTEM;
	}
	errno = EEXIST;
	return ERR_SYSTEM;
}

/* Remove the socket and the directory (fds already closed or not). */
static void
remove_files(struct fwd_agent *fa)
{
	struct stat a, b;

	if (fa->dirfd == -1)
		return;
	if (unlinkat(fa->dirfd, fa->name, 0) != 0 && errno != ENOENT)
		log_debug("unlink %s: %s", fa->path, strerror(errno));
	if (fstat(fa->dirfd, &a) == 0 &&
	    lstat(fa->dir, &b) == 0 && S_ISDIR(b.st_mode) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	    rmdir(fa->dir) != 0)
		log_debug("rmdir %s: %s", fa->dir, strerror(errno));
	close(fa->dirfd);
	fa->dirfd = -1;
}

/* Root serving another user: hand the socket, then the directory over. */
static int
give_to_user(struct fwd_agent *fa, const struct passwd *pw)
{
	if (geteuid() != 0 || pw->pw_uid == geteuid())
		return 0;
	if (fchownat(fa->dirfd, fa->name, pw->pw_uid, pw->pw_gid,
	    AT_SYMLINK_NOFOLLOW) != 0 ||
	    fchown(fa->dirfd, pw->pw_uid, pw->pw_gid) != 0) {
		log_error("agent forwarding: chown %s: %s", fa->path,
		    strerror(errno));
		return ERR_SYSTEM;
	}
	return 0;
}

int
fwd_agent_listen(struct chan_set *cs, const struct passwd *pw,
    const char *tmpdir, struct fwd_agent **out)
{
	struct fwd_agent *fa = x_calloc(1, sizeof(*fa));
	int r = ERR_SYSTEM;

	*out = NULL;
	fa->dirfd = fa->fd = -1;
	fa->dir = x_asprintf("%s/ssh-XXXXXXXXXX", tmpdir);
	fa->name = x_asprintf("agent.%ld", (long)getpid());
	if (make_private_dir(fa->dir) != 0) {
		int e = errno;

		/* OpenSSH's words, to the log and to the client. */
		log_error("Agent forwarding disabled: mkdtemp() failed: %s",
		    strerror(e));
		session_debug_to_client(cs, "Agent forwarding disabled: "
		    "mkdtemp() failed: %.100s", strerror(e));
		goto out;
	}
	fa->path = x_asprintf("%s/%s", fa->dir, fa->name);
	if ((fa->dirfd = open(fa->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		log_error("agent forwarding: open %s: %s", fa->dir,
		    strerror(errno));
		(void)rmdir(fa->dir);
		goto out;
	}
	if ((fa->fd = fwd_unix_listen_fd(fa->path,
	    FWD_AGENT_SOCK_MASK)) == -1) {
		log_error("agent forwarding: listen on %s: %s", fa->path,
		    strerror(errno));
		goto out;
	}
	if ((r = give_to_user(fa, pw)) != 0)
		goto out;
	if ((r = chan_set_watch(cs, fa->fd, POLLIN, accept_cb, fa)) != 0)
		goto out;
	fa->watched = 1;
	log_debug("agent forwarding: listening on %s", fa->path);
	*out = fa;
	return 0;
 out:
	fwd_agent_free(NULL, fa);
	return r;
}

const char *
fwd_agent_path(const struct fwd_agent *fa)
{
	return fa->path;
}

void
fwd_agent_free(struct chan_set *cs, struct fwd_agent *fa)
{
	if (fa == NULL)
		return;
	if (fa->fd != -1) {
		if (fa->watched && cs != NULL)
			chan_set_unwatch(cs, fa->fd);
		close(fa->fd);
	}
	remove_files(fa);
	x_free(fa->dir);
	x_free(fa->name);
	x_free(fa->path);
	x_free(fa);
}

/* Whether name is "ssh-" and FWD_AGENT_RANDOM letters or digits. */
static int
sweep_name(const char *name)
{
	size_t i;

	if (strncmp(name, "ssh-", 4) != 0 ||
	    strlen(name) != 4 + FWD_AGENT_RANDOM)
		return 0;
	for (i = 4; name[i] != '\0'; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= 'A' && name[i] <= 'Z') ||
		    (name[i] >= '0' && name[i] <= '9')))
			return 0;
	return 1;
}

int
fwd_agent_sweep(const char *tmpdir, long pid)
{
	struct dirent *de;
	struct stat st;
	char sock[32];
	DIR *d;
	int fd, n = 0;

	snprintf(sock, sizeof(sock), "agent.%ld", pid);
	if ((d = opendir(tmpdir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (!sweep_name(de->d_name))
			continue;
		if ((fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1)
			continue;
		if (fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
		    (st.st_mode & 07777) == 0700 &&
		    fstatat(fd, sock, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISSOCK(st.st_mode) && unlinkat(fd, sock, 0) == 0) {
			log_debug("removed %s/%s/%s, left by a process that "
			    "died", tmpdir, de->d_name, sock);
			n++;
			(void)unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
		}
		close(fd);
	}
	closedir(d);
	return n;
}
