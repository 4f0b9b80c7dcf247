/*
 * fwd_unix.c: the Unix-domain socket ends of the client's forwardings
 * (OpenSSH's PROTOCOL, "stream local forwarding"), see fwd_client.h.
 *
 * A LocalForward from a socket path listens here under the umask
 * StreamLocalBindMask (so the file gets mode 0666 & ~mask), after
 * removing whatever file is in the way when StreamLocalBindUnlink is
 * set; the file is left behind at exit, as ssh(1) leaves it. A
 * forwarding to a socket path connects here at once (a Unix connect
 * does not wait on the network): the socket is non-blocking, so a
 * listener with a full backlog fails the open rather than stalling the
 * connection. A channel to the server's socket path carries the path,
 * an empty reserved string and a reserved 0 (direct-streamlocal).
 *
 * Failures are logged in ssh(1)'s words.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "fwd_client.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"

int
fwd_unix_listen(const char *path, int mask, int unlink_first, int *fdp)
{
	if (unlink_first && unlink(path) != 0 && errno != ENOENT)
		log_error("unlink(%s): %.100s", path, strerror(errno));
	if ((*fdp = fwd_unix_listen_fd(path, mask)) == -1) {
		log_error("unix_listener: cannot bind to path %s: %s", path,
		    strerror(errno));
		return ERR_SYSTEM;
	}
	return 0;
}

int
fwd_unix_connect(const char *path, int *fdp)
{
	if ((*fdp = fwd_unix_connect_fd(path)) == -1) {
		log_error("connect to %s port -2 failed: %s", path,
		    strerror(errno));
		return ERR_SYSTEM;
	}
	return 0;
}

int
fwd_unix_attach(struct chan *c, const char *path, uint32_t *reasonp,
    const char **descp)
{
	int fd;

	if (fwd_unix_connect(path, &fd) != 0) {
		*reasonp = SSH2_OPEN_CONNECT_FAILED;
		*descp = "open failed";
		return ERR_SYSTEM;
	}
	log_debug("channel %u: connected to %s", c->local_id, path);
	chan_set_fds(c, fd, fd, -1, CHAN_EFD_NONE, 0);
	return 0;
}

static const struct chan_ops direct_stream_ops = {
	.type = "direct-streamlocal@openssh.com",
	.opened = fwd_chan_opened,
	.free = fwd_chan_free,
};

int
fwd_unix_open_direct(struct chan_set *cs, int fd, const char *path)
{
	struct sbuf *extra = sbuf_new();
	int r;

	if ((r = sbuf_put_cstring(extra, path)) != 0 ||
	    (r = sbuf_put_cstring(extra, "")) != 0 ||
	    (r = sbuf_put_u32(extra, 0)) != 0) {
		close(fd);
		goto out;
	}
	r = fwd_chan_open_fd(cs, &direct_stream_ops, fd, extra);
 out:
	sbuf_free(extra);
	return r;
}
