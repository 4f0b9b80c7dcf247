/*
 * fwd_stream.c: the server's side of Unix-domain socket forwarding
 * (OpenSSH's PROTOCOL, "stream local forwarding"), see fwd_server.h.
 *
 * direct-streamlocal@openssh.com (the client's -L to a socket path): the
 * open hook checks the rules, connects to the path and hands the socket
 * to the channel layer, which moves the bytes as for direct-tcpip.
 * streamlocal-forward@openssh.com (the client's -R from a socket path):
 * the global request checks the rules and binds the path; each accepted
 * connection opens a forwarded-streamlocal@openssh.com channel towards
 * the client. cancel-streamlocal-forward@openssh.com closes the listener
 * and removes its socket file; so does the end of the connection.
 *
 * Identity: this process is root while it serves a user, but a socket
 * must be reached, and a listening socket created, with the user's
 * rights (connect(2) and bind(2) check the effective uid, and the new
 * socket file is owned by whoever binds it). So each connect, bind and
 * unlink runs in a short-lived child that takes the user's groups, gid
 * and uid (and ChrootDirectory, as the user's sessions do), does the one
 * call under umask StreamLocalBindMask, and passes the socket back over
 * a socketpair with SCM_RIGHTS. When we already are the user, the call
 * is made in place. Sockets are non-blocking from the start: a peer with
 * a full backlog fails the open rather than stalling the connection.
 *
 * The listeners, the accept path and the registration are fwd_listen.c's,
 * shared with TCP forwarding; this file has what is the sockets' own.
 *
 * Removal is guarded: a listener's file is unlinked only while the path
 * still names the socket we bound (same device and inode), so a file put
 * there later is left alone.
 *
 * Refusals follow OpenSSH 9.2: a refused direct-streamlocal gets
 * OPEN_FAILURE "connect failed" / "open failed", a refused
 * streamlocal-forward REQUEST_FAILURE; the log line names the rule.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "authopts.h"
#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "fwd_listen.h"
#include "fwd_server.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "session_priv.h"


enum sock_op { OP_CONNECT, OP_LISTEN, OP_UNLINK };

/* What the child reports besides the socket. */
struct op_result {
	int err;		/* errno of the failed step; 0: done */
	dev_t dev;		/* the bound socket file (OP_LISTEN) */
	ino_t ino;
};

/* A streamlocal-forward listener (the item of its fwd_listen entry). */
struct stream_listen {
	char *path;
	int fd;
	dev_t dev;
	ino_t ino;
};

struct fwd_stream {
	struct fwd_lset stream;
};

const char *
fwd_stream_refusal(const struct servconf *sc, const struct authopts *opts,
    int remote)
{
	if (sc->disable_forwarding)
		return "DisableForwarding";
	if ((sc->allow_streamlocal_forwarding & (remote ? 1 : 2)) == 0)
		return "AllowStreamLocalForwarding";
	if (opts != NULL && !opts->permit_port_forwarding)
		return opts->restricted ? "restrict" : "no-port-forwarding";
	return NULL;
}

/* ---- one socket call as the current identity ---- */

/*
 * Do op on path; returns the socket (connected or listening) or -1 with
 * res->err set to the errno: socket(2)'s contract, not an error code,
 * as the child sends the two back side by side. OP_UNLINK gives no
 * socket (-1 always) and removes path only while it is the socket
 * res->dev/res->ino names.
 */
static int
sock_op_here(enum sock_op op, const char *path, int mask, int unlink_first,
    struct op_result *res)
{
	struct stat st;
	int fd;

	res->err = 0;
	if (op == OP_UNLINK) {
		if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) &&
		    st.st_dev == res->dev && st.st_ino == res->ino &&
		    unlink(path) != 0)
			res->err = errno;
		return -1;
	}
	if (op == OP_CONNECT) {
		if ((fd = fwd_unix_connect_fd(path)) == -1)
			res->err = errno;
		return fd;
	}
	/* Only a stale socket is removed, never another kind of file. */
	if (unlink_first && lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		(void)unlink(path);
	if ((fd = fwd_unix_listen_fd(path, mask)) == -1) {
		res->err = errno;
		return -1;
	}
	if (lstat(path, &st) != 0) {
		res->err = errno;
		(void)unlink(path);
		close(fd);
		return -1;
	}
	res->dev = st.st_dev;
	res->ino = st.st_ino;
	return fd;
}

/* ---- the same call in a child running as the user ---- */

static void
child_run(int sp, const struct passwd *pw, const char *chroot_path,
    enum sock_op op, const char *path, int mask, int unlink_first,
    struct op_result *res)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct msghdr msg;
	struct iovec iov;
	const char *what;
	int fd = -1;

	if (sess_become_user(pw, chroot_path, &what) != 0)
		res->err = errno != 0 ? errno : EPERM;
	else
		fd = sock_op_here(op, path, mask, unlink_first, res);
	memset(&msg, 0, sizeof(msg));
	memset(&cm, 0, sizeof(cm));
	iov.iov_base = res;
	iov.iov_len = sizeof(*res);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (fd != -1) {
		msg.msg_control = cm.buf;
		msg.msg_controllen = sizeof(cm.buf);
		CMSG_FIRSTHDR(&msg)->cmsg_level = SOL_SOCKET;
		CMSG_FIRSTHDR(&msg)->cmsg_type = SCM_RIGHTS;
		CMSG_FIRSTHDR(&msg)->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), &fd, sizeof(int));
	}
	while (sendmsg(sp, &msg, MSG_NOSIGNAL) == -1 && errno == EINTR)
		;
	_exit(0);
}

/*
 * The child's answer: res and, when it sent one, the socket; -1 when
 * there is none (res->err then says why: the child's errno, or the
 * receive's).
 */
static int
child_answer(int sp, struct op_result *res)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct cmsghdr *ch;
	struct msghdr msg;
	struct iovec iov;
	ssize_t n;
	int fd = -1;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = res;
	iov.iov_len = sizeof(*res);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cm.buf;
	msg.msg_controllen = sizeof(cm.buf);
	while ((n = recvmsg(sp, &msg, MSG_CMSG_CLOEXEC)) == -1 &&
	    errno == EINTR)
		;
	if (n != (ssize_t)sizeof(*res)) {
		res->err = n == -1 ? errno : EPIPE;
		return -1;
	}
	for (ch = CMSG_FIRSTHDR(&msg); ch != NULL; ch = CMSG_NXTHDR(&msg, ch))
		if (ch->cmsg_level == SOL_SOCKET &&
		    ch->cmsg_type == SCM_RIGHTS &&
		    ch->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(ch), sizeof(int));
	if (fd != -1 && res->err != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * Run op on path as the user: in place when we are the user already,
 * else in a child. Returns the socket or -1 (a descriptor, not an error
 * code; res->err holds the errno).
 */
static int
sock_op_as_user(const struct fwd_lset *fst, enum sock_op op, const char *path,
    struct op_result *res)
{
	const struct passwd *pw = fst->pw;
	char *chroot_path = NULL;
	int sp[2], fd, status;
	pid_t pid;

	if (op != OP_UNLINK)
		memset(res, 0, sizeof(*res));
	res->err = 0;
	if (geteuid() != 0 || pw->pw_uid == 0)
		return sock_op_here(op, path, fst->sc->streamlocal_bind_mask,
		    fst->sc->streamlocal_bind_unlink, res);
	if (fst->sc->chroot_directory != NULL &&
	    sess_chroot_path(fst->sc->chroot_directory, pw,
	    &chroot_path) != 0) {
		res->err = EACCES;
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) != 0) {
		res->err = errno;
		x_free(chroot_path);
		return -1;
	}
	if ((pid = fork()) == -1) {
		res->err = errno;
		close(sp[0]);
		close(sp[1]);
		x_free(chroot_path);
		return -1;
	}
	if (pid == 0) {
		close(sp[0]);
		child_run(sp[1], pw, chroot_path, op, path,
		    fst->sc->streamlocal_bind_mask,
		    fst->sc->streamlocal_bind_unlink, res);
	}
	close(sp[1]);
	fd = child_answer(sp[0], res);
	close(sp[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	x_free(chroot_path);
	return fd;
}

/* ---- direct-streamlocal@openssh.com ---- */

static int
direct_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	struct fwd_lset *fst = c->type_arg;
	struct op_result res;
	char *path = NULL, *orig = NULL;
	uint32_t oport;
	const char *rule;
	int fd, r;

	*reasonp = SSH2_OPEN_CONNECT_FAILED;
	if ((r = sbuf_get_cstring(extra, &path, NULL)) != 0 ||
	    (r = sbuf_get_cstring(extra, &orig, NULL)) != 0 ||
	    (r = sbuf_get_u32(extra, &oport)) != 0) {
		*descp = "bad request";
		goto out;
	}
	log_debug("server_request_direct_streamlocal: originator %s port %u, "
	    "target %s", orig, oport, path);
	if ((rule = fwd_stream_refusal(fst->sc, fst->opts, 0)) != NULL) {
		chan_log_refusal(cs, LOG_LEVEL_INFO, "refused streamlocal "
		    "port forward: originator %.100s port %u, target %.100s "
		    "(%s)", orig, oport, path, rule);
		*descp = "open failed";
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if ((fd = sock_op_as_user(fst, OP_CONNECT, path, &res)) == -1) {
		chan_log_refusal(cs, LOG_LEVEL_INFO, "connect_to path %.100s: "
		    "%s", path, strerror(res.err));
		*descp = "open failed";
		r = ERR_SYSTEM;
		goto out;
	}
	log_debug("channel %u: connected to %s", c->local_id, path);
	chan_set_fds(c, fd, fd, -1, CHAN_EFD_NONE, 0);
	r = 0;
 out:
	x_free(path);
	x_free(orig);
	return r;
}

static const struct chan_ops direct_ops = {
	.type = "direct-streamlocal@openssh.com",
	.open = direct_open,
};

/* ---- streamlocal-forward@openssh.com ---- */

static const struct chan_ops forwarded_ops = {
	.type = "forwarded-streamlocal@openssh.com",
	.opened = fwd_chan_opened,
	.free = fwd_chan_free,
};

static int
put_extra(struct fwd_lset *fst, void *item, int fd, struct sbuf *extra)
{
	struct stream_listen *sl = item;
	int r;

	log_debug("forwarded-streamlocal: listen path %s", sl->path);
	if ((r = sbuf_put_cstring(extra, sl->path)) != 0)
		return r;
	return sbuf_put_cstring(extra, "");
}

/* Stop listening; remove the socket file when it is still ours. */
static void
listener_close(struct fwd_lset *fst, void *item)
{
	struct stream_listen *sl = item;
	struct op_result res;

	if (sl->fd != -1) {
		close(sl->fd);
		memset(&res, 0, sizeof(res));
		res.dev = sl->dev;
		res.ino = sl->ino;
		(void)sock_op_as_user(fst, OP_UNLINK, sl->path, &res);
		if (res.err != 0)
			log_debug("unlink %s: %s", sl->path,
			    strerror(res.err));
	}
	x_free(sl->path);
	x_free(sl);
}

static int
global_forward(struct chan_set *cs, void *arg, struct sbuf *body,
    struct sbuf *reply)
{
	struct fwd_lset *fst = arg;
	struct stream_listen *sl = NULL;
	struct op_result res;
	const char *rule;
	char *path = NULL;
	int r;

	(void)reply;
	if ((r = sbuf_get_cstring(body, &path, NULL)) != 0)
		goto out;
	log_debug("server_input_global_request: streamlocal-forward listen "
	    "path %s", path);
	if ((rule = fwd_stream_refusal(fst->sc, fst->opts, 1)) != NULL) {
		chan_log_refusal(cs, LOG_LEVEL_INFO, "refused streamlocal "
		    "remote forward: listen path %.100s (%s)", path, rule);
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if ((r = fwd_lset_room(cs, fst)) != 0)
		goto out;
	sl = x_calloc(1, sizeof(*sl));
	if ((sl->fd = sock_op_as_user(fst, OP_LISTEN, path, &res)) == -1) {
		chan_log_refusal(cs, LOG_LEVEL_INFO, "streamlocal-forward: "
		    "cannot listen on path %.100s: %s", path,
		    strerror(res.err));
		r = ERR_SYSTEM;
		goto out;
	}
	sl->dev = res.dev;
	sl->ino = res.ino;
	sl->path = path;
	path = NULL;
	if ((r = fwd_lset_add(cs, fst, sl, &sl->fd, 1)) != 0)
		goto out;
	log_debug("Remote forwarding listening on path %s.", sl->path);
	sl = NULL;
 out:
	if (sl != NULL)
		listener_close(fst, sl);
	x_free(path);
	return r;
}

/* Does listener item answer cancel-streamlocal-forward for path key? */
static int
path_match(const void *item, const void *key)
{
	const struct stream_listen *sl = item;

	return strcmp(sl->path, key) == 0;
}

static int
global_cancel(struct chan_set *cs, void *arg, struct sbuf *body,
    struct sbuf *reply)
{
	struct fwd_lset *fst = arg;
	char *path = NULL;
	size_t i;
	int r;

	(void)reply;
	if ((r = sbuf_get_cstring(body, &path, NULL)) != 0 ||
	    (r = fwd_lset_find(fst, path_match, path, &i)) != 0)
		goto out;
	log_debug("cancel-streamlocal-forward: listen path %s", path);
	fwd_lset_remove(cs, fst, i);
 out:
	x_free(path);
	return r;
}

/* The row fwd_listen.c works from, in struct fwd_kind's order. */
static const struct fwd_kind stream_kind = {
	"streamlocal-forward", "forwarded-streamlocal", &direct_ops,
	&forwarded_ops, "streamlocal-forward@openssh.com", global_forward,
	"cancel-streamlocal-forward@openssh.com", global_cancel, put_extra,
	listener_close
};

int
fwd_stream_setup(struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, const struct passwd *pw, const char *raddr,
    int rport, struct fwd_stream **out)
{
	struct fwd_stream *fst = x_calloc(1, sizeof(*fst));
	int r;

	*out = NULL;
	if ((r = fwd_lset_setup(&fst->stream, &stream_kind, cs, sc, opts, pw,
	    raddr, rport)) != 0) {
		x_free(fst);
		return r;
	}
	*out = fst;
	return 0;
}

void
fwd_stream_free(struct fwd_stream *fst)
{
	if (fst == NULL)
		return;
	fwd_lset_clear(&fst->stream);
	x_free(fst);
}
