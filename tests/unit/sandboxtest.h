/*
 * sandboxtest.h: helpers for the sandbox tests (test_sandbox.c,
 * test_sandbox_drop.c).
 *
 * A case runs in a forked child (run_child) and reports a failed
 * condition with REQUIRE: a line on stderr and exit status 1, so the
 * parent judges the child by how it ended. The "work" helpers do what a
 * pre-authentication child does -- I/O on descriptors it already holds,
 * X25519 and SHA-256 against published values, allocations big and small,
 * clocks and the generator -- and fail the child when any of it does not
 * work. log_to_pipe()/logged() catch the child's log lines.
 */
#ifndef MOAT_SANDBOXTEST_H
#define MOAT_SANDBOXTEST_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "log.h"
#include "testlib.h"

/* ---- running a case in a child ---- */

/* Where a child reports: stderr, unless a case moved the log there. */
static int report_fd = 2;

/* In a child: report a failed condition and exit 1. */
static inline void
child_fail(const char *file, int line, const char *what)
{
	char buf[300];
	int saved = errno, n;

	n = snprintf(buf, sizeof(buf), "%s:%d: child: %s (errno %d %s)\n",
	    file, line, what, saved, strerrorname_np(saved) ?
	    strerrorname_np(saved) : "");
	if (n > 0)
		(void)!write(report_fd, buf, (size_t)n);
	_exit(1);
}
#define REQUIRE(c) do { \
	if (!(c)) \
		child_fail(__FILE__, __LINE__, #c); \
} while (0)

/* Fork, run fn(arg) in the child (then _exit(0)); the wait status. */
static inline int
run_child(void (*fn)(const void *), const void *arg)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	return st;
}

/* Whether the child exited 0; says how it ended otherwise. */
static inline int
exited_ok(int st)
{
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 1;
	if (st != -1 && WIFSIGNALED(st))
		fprintf(stderr, "child killed by signal %d\n", WTERMSIG(st));
	else if (st != -1)
		fprintf(stderr, "child exited %d\n", WEXITSTATUS(st));
	return 0;
}

static inline int
killed_by_sigsys(int st)
{
	return st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS;
}

/* ---- the work a pre-auth child does ---- */

/* X25519 (RFC 7748 section 6.1) and SHA-256 ("abc", FIPS 180-2). */
static inline void
crypto_work(void)
{
	static const char a_priv[] = "77076d0a7318a57d3c16c17251b26645"
	    "df4c2f87ebc0992ab177fba51db92c2a";
	static const char a_pub[] = "8520f0098930a754748b7ddcb43ef75a"
	    "0dbf3a0d26381af4eba4a98eaa9b4e6a";
	static const char abc[] = "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad";
	unsigned char priv[32], want[32], pub[32], s1[32], s2[32];
	unsigned char md[32];
	size_t len = sizeof(pub), l1 = sizeof(s1), l2 = sizeof(s2);
	unsigned int mdlen = 0;
	EVP_PKEY *a, *b = NULL;
	EVP_PKEY_CTX *ctx;

	test_unhex(a_priv, priv, sizeof(priv));
	a = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, 32);
	REQUIRE(a != NULL);
	REQUIRE(EVP_PKEY_get_raw_public_key(a, pub, &len) == 1);
	test_unhex(a_pub, want, sizeof(want));
	REQUIRE(len == 32 && memcmp(pub, want, 32) == 0);
	/* A fresh key from the generator, and the agreement both ways. */
	ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_X25519, NULL);
	REQUIRE(ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1 &&
	    EVP_PKEY_keygen(ctx, &b) == 1);
	EVP_PKEY_CTX_free(ctx);
	ctx = EVP_PKEY_CTX_new(a, NULL);
	REQUIRE(ctx != NULL && EVP_PKEY_derive_init(ctx) == 1 &&
	    EVP_PKEY_derive_set_peer(ctx, b) == 1 &&
	    EVP_PKEY_derive(ctx, s1, &l1) == 1);
	EVP_PKEY_CTX_free(ctx);
	ctx = EVP_PKEY_CTX_new(b, NULL);
	REQUIRE(ctx != NULL && EVP_PKEY_derive_init(ctx) == 1 &&
	    EVP_PKEY_derive_set_peer(ctx, a) == 1 &&
	    EVP_PKEY_derive(ctx, s2, &l2) == 1);
	EVP_PKEY_CTX_free(ctx);
	REQUIRE(l1 == 32 && l2 == 32 && memcmp(s1, s2, 32) == 0);
	EVP_PKEY_free(a);
	EVP_PKEY_free(b);
	REQUIRE(EVP_Digest("abc", 3, md, &mdlen, EVP_sha256(), NULL) == 1);
	test_unhex(abc, want, sizeof(want));
	REQUIRE(mdlen == 32 && memcmp(md, want, 32) == 0);
}

/* Allocations: many small, one big (mmap), one growing (mremap). */
static inline void
memory_work(void)
{
	void *small[256];
	unsigned char *big, *grow, *p;
	size_t i, n;

	for (i = 0; i < 256; i++)
		REQUIRE((small[i] = malloc(32 + i * 97)) != NULL);
	for (i = 0; i < 256; i += 2)
		free(small[i]);
	REQUIRE((big = malloc(64u << 20)) != NULL);
	memset(big, 0xa5, 64u << 20);
	REQUIRE(big[(64u << 20) - 1] == 0xa5);
	free(big);
	REQUIRE((grow = malloc(1u << 20)) != NULL);
	memset(grow, 1, 1u << 20);
	for (n = 2u << 20; n <= 32u << 20; n *= 2) {
		REQUIRE((p = realloc(grow, n)) != NULL);
		grow = p;
		REQUIRE(grow[0] == 1);
		memset(grow + n / 2, 2, n / 2);
	}
	free(grow);
	for (i = 1; i < 256; i += 2)
		free(small[i]);
}

/* Clocks, the generator, and ids (read-only). */
static inline void
misc_work(void)
{
	struct timespec ts;
	struct timeval tv;
	unsigned char r[32];

	REQUIRE(clock_gettime(CLOCK_MONOTONIC, &ts) == 0);
	REQUIRE(clock_gettime(CLOCK_REALTIME, &ts) == 0 && ts.tv_sec > 0);
	REQUIRE(clock_gettime(CLOCK_BOOTTIME, &ts) == 0);
	REQUIRE(gettimeofday(&tv, NULL) == 0 && tv.tv_sec > 0);
	REQUIRE(time(NULL) > 0);
	REQUIRE(getrandom(r, sizeof(r), 0) == (ssize_t)sizeof(r));
	REQUIRE(getpid() > 1);
	(void)getuid();
	(void)geteuid();
	ts.tv_sec = 0;
	ts.tv_nsec = 1000000;
	REQUIRE(nanosleep(&ts, NULL) == 0);
}

/* I/O on descriptors made before the sandbox: a pipe and a socketpair. */
static inline void
io_work(const int pfd[2], const int sp[2])
{
	struct pollfd pl[2];
	struct msghdr mh;
	struct iovec iov;
	char buf[64];
	int fl;

	REQUIRE(write(pfd[1], "hello", 5) == 5);
	pl[0].fd = pfd[0];
	pl[0].events = POLLIN;
	pl[1].fd = sp[1];
	pl[1].events = POLLOUT;
	REQUIRE(poll(pl, 2, 1000) == 2);
	REQUIRE(read(pfd[0], buf, sizeof(buf)) == 5 &&
	    memcmp(buf, "hello", 5) == 0);
	REQUIRE((fl = fcntl(sp[0], F_GETFL)) != -1);
	REQUIRE(fcntl(sp[0], F_SETFL, fl | O_NONBLOCK) == 0);
	REQUIRE(recv(sp[0], buf, sizeof(buf), 0) == -1 && errno == EAGAIN);
	REQUIRE(send(sp[1], "monitor", 7, MSG_NOSIGNAL) == 7);
	REQUIRE(recv(sp[0], buf, sizeof(buf), 0) == 7);
	iov.iov_base = (void *)"request";
	iov.iov_len = 7;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	REQUIRE(sendmsg(sp[0], &mh, 0) == 7);
	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);
	REQUIRE(recvmsg(sp[1], &mh, 0) == 7 && memcmp(buf, "request", 7) == 0);
	REQUIRE(shutdown(sp[1], SHUT_WR) == 0);
	REQUIRE(read(sp[0], buf, sizeof(buf)) == 0);
}

static inline void
all_work(const int pfd[2], const int sp[2])
{
	io_work(pfd, sp);
	crypto_work();
	memory_work();
	misc_work();
}

/* ---- the log lines ---- */

/*
 * Point the log (stderr, debug3) at a pipe; *rd: its read end, made
 * non-blocking. Failures are still reported on the real stderr.
 */
static inline void
log_to_pipe(int *rd)
{
	int p[2];

	REQUIRE((report_fd = dup(2)) != -1);
	REQUIRE(pipe(p) == 0 && dup2(p[1], 2) == 2);
	REQUIRE(fcntl(p[0], F_SETFL, O_NONBLOCK) == 0);
	close(p[1]);
	log_init("test_sandbox", LOG_LEVEL_DEBUG3, 0, 1);
	*rd = p[0];
}

/* Whether what was logged so far (read once into buf) holds `want`. */
static inline int
logged(int rd, char *buf, size_t size, size_t *have, const char *want)
{
	ssize_t n;

	while (*have < size - 1 &&
	    (n = read(rd, buf + *have, size - 1 - *have)) > 0)
		*have += (size_t)n;
	buf[*have] = '\0';
	return strstr(buf, want) != NULL;
}

#endif
