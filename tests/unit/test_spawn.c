/*
 * test_spawn.c: the socketpair spawn and the message framing that
 * ssh-sk-helper and ssh-pkcs11-helper share with their callers
 * (spawn.h).
 *
 * The spawned program starts clean whatever its caller's state: no
 * signal blocked (ssh-agent blocks SIGTERM, SIGHUP and SIGINT while it
 * waits), and no descriptor but 0-2, however high the caller's are.
 * Frames: a length of zero or above the limit is refused, a frame cut
 * short is the end of the conversation, never a short message.
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "fdio.h"
#include "sbuf.h"
#include "spawn.h"
#include "testlib.h"

#define LOW_LIMIT	64	/* the soft limit while the helper starts */

/* Run a shell command as a helper would be run; its output in out. */
static int
run_sh(const char *cmd, char *out, size_t outlen)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	size_t have = 0;
	ssize_t n;
	pid_t pid;
	int fd, st, r;

	if ((r = spawn_socketpair("/bin/sh", argv, &fd, &pid)) != 0)
		return r;
	while (have + 1 < outlen &&
	    (n = read(fd, out + have, outlen - 1 - have)) > 0)
		have += (size_t)n;
	out[have] = '\0';
	close(fd);
	if ((r = spawn_reap(pid, &st)) != 0)
		return r;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : ERR_SYSTEM;
}

static void
test_signals(void)
{
	char *argv[] = { (char *)"grep", (char *)"^SigBlk:",
	    (char *)"/proc/self/status", NULL };
	sigset_t block, old;
	char out[256];
	ssize_t n;
	pid_t pid;
	int fd, st;

	/* grep itself, not a shell: dash clears the mask it inherits. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	CHECK_OK(spawn_socketpair("/bin/grep", argv, &fd, &pid));
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0)
		return;
	n = read(fd, out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	CHECK_OK(spawn_reap(pid, &st));
	CHECK_STR(out, "SigBlk:\t0000000000000000\n");
}

/*
 * A descriptor without close-on-exec, low, and one above the soft
 * limit of the moment (made before the limit came down): neither may
 * reach the helper.
 */
static void
test_fds(void)
{
	struct rlimit rl, saved;
	char out[256], cmd[200];
	int low, high = -1;

	if ((low = open("/dev/null", O_RDONLY)) < 0 ||
	    getrlimit(RLIMIT_NOFILE, &saved) != 0) {
		CHECK(0);
		return;
	}
	if (saved.rlim_cur > LOW_LIMIT * 2 && saved.rlim_cur != RLIM_INFINITY)
		high = dup2(low, (int)saved.rlim_cur - 1);
	CHECK(high > LOW_LIMIT);
	rl = saved;
	rl.rlim_cur = LOW_LIMIT;
	CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	snprintf(cmd, sizeof(cmd), "for f in %d %d; do "
	    "[ -e /proc/$$/fd/$f ] && echo \"open $f\"; done; echo done",
	    low, high);
	CHECK_OK(run_sh(cmd, out, sizeof(out)));
	(void)setrlimit(RLIMIT_NOFILE, &saved);
	CHECK_STR(out, "done\n");
	if (high >= 0)
		close(high);
	close(low);
}

/* Raw bytes into one end, what msg_read_framed makes of them. */
static int
read_raw(const void *raw, size_t len, size_t max, struct sbuf *body)
{
	int sv[2], r;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return ERR_SYSTEM;
	if (fd_write_full(sv[0], raw, len) != 0)
		r = ERR_SYSTEM;
	else {
		close(sv[0]);
		sv[0] = -1;
		r = msg_read_framed(sv[1], max, body);
	}
	if (sv[0] != -1)
		close(sv[0]);
	close(sv[1]);
	return r;
}

static void
test_frames(void)
{
	static const unsigned char zero[] = { 0, 0, 0, 0 };
	static const unsigned char big[] = { 0, 0, 1, 1, 'x' };
	static const unsigned char cut[] = { 0, 0, 0, 9, 'a', 'b' };
	static const unsigned char good[] = { 0, 0, 0, 2, 'h', 'i' };
	struct sbuf *b = sbuf_new(), *m = sbuf_new();
	int sv[2];

	CHECK_ERR(read_raw(zero, sizeof(zero), 256, b), ERR_PROTOCOL);
	sbuf_reset(b);
	CHECK_ERR(read_raw(big, sizeof(big), 256, b), ERR_PROTOCOL);
	CHECK(sbuf_len(b) == 0);
	sbuf_reset(b);
	CHECK_ERR(read_raw(cut, sizeof(cut), 256, b), ERR_CONN_CLOSED);
	sbuf_reset(b);
	CHECK_ERR(read_raw(cut, 2, 256, b), ERR_CONN_CLOSED);
	sbuf_reset(b);
	CHECK_OK(read_raw(good, sizeof(good), 2, b));
	CHECK(sbuf_len(b) == 2 && memcmp(sbuf_ptr(b), "hi", 2) == 0);
	/* What msg_write_framed sends, msg_read_framed takes back. */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
		sbuf_reset(b);
		CHECK_OK(sbuf_put_cstring(m, "hello"));
		CHECK_OK(msg_write_framed(sv[0], m));
		CHECK_OK(msg_read_framed(sv[1], 64, b));
		CHECK(sbuf_len(b) == sbuf_len(m) &&
		    memcmp(sbuf_ptr(b), sbuf_ptr(m), sbuf_len(m)) == 0);
		close(sv[0]);
		close(sv[1]);
	}
	sbuf_free(b);
	sbuf_free(m);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_signals();
	test_fds();
	test_frames();
	return TEST_DONE();
}
