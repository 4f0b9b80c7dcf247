/*
 * test_agent.c: the ssh-agent client (src/client/agent.c) against a
 * fake agent in a forked child.
 *
 * The good agent holds an Ed25519 and an RSA key and signs with the
 * algorithm the request's flags ask for (RSA: 4 rsa-sha2-512, 2
 * rsa-sha2-256, else ssh-rsa), so the signatures are checked with
 * key_verify(). The scripted agent reads one request and answers with
 * fixed bytes: FAILURE, bad lengths, truncated or surplus-laden
 * answers, lies about counts and algorithms. Each must give an error,
 * never a crash or a hang.
 */
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

static struct key *ed_key, *rsa_key;

static int
read_n(int fd, unsigned char *p, size_t n)
{
	ssize_t r;

	while (n > 0) {
		if ((r = read(fd, p, n)) <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* One request frame's body into b; -1 at EOF. */
static int
read_request(int fd, struct sbuf *b)
{
	unsigned char lb[4], *d;
	uint32_t len;

	if (read_n(fd, lb, 4) != 0)
		return -1;
	len = (uint32_t)lb[0] << 24 | (uint32_t)lb[1] << 16 |
	    (uint32_t)lb[2] << 8 | lb[3];
	if (len > 1024 * 1024 || sbuf_reserve(b, len, &d) != 0)
		return -1;
	return read_n(fd, d, len);
}

static void
send_frame(int fd, struct sbuf *body)
{
	struct sbuf *f = sbuf_new();

	sbuf_put_stringb(f, body);
	if (write(fd, sbuf_ptr(f), sbuf_len(f)) < 0)
		_exit(3);
	sbuf_free(f);
}

/* The good agent: list and sign until EOF. */
static void
good_agent(int fd)
{
	struct sbuf *req = sbuf_new(), *ans = sbuf_new(), *kb = sbuf_new();
	const unsigned char *blob, *data;
	size_t bloblen, dlen;
	struct key *k, *which;
	uint32_t flags;
	uint8_t type;

	for (;;) {
		sbuf_reset(req);
		sbuf_reset(ans);
		if (read_request(fd, req) != 0 || sbuf_get_u8(req, &type) != 0)
			_exit(0);
		if (type == SSH_AGENTC_REQUEST_IDENTITIES) {
			sbuf_put_u8(ans, SSH_AGENT_IDENTITIES_ANSWER);
			sbuf_put_u32(ans, 2);
			sbuf_reset(kb);
			key_to_blob(ed_key, kb);
			sbuf_put_stringb(ans, kb);
			sbuf_put_cstring(ans, "ed-comment");
			sbuf_reset(kb);
			key_to_blob(rsa_key, kb);
			sbuf_put_stringb(ans, kb);
			sbuf_put_cstring(ans, "rsa-comment");
		} else if (type == SSH_AGENTC_SIGN_REQUEST &&
		    sbuf_get_string_direct(req, &blob, &bloblen) == 0 &&
		    sbuf_get_string_direct(req, &data, &dlen) == 0 &&
		    sbuf_get_u32(req, &flags) == 0 &&
		    key_from_blob(blob, bloblen, &k) == 0) {
			which = key_equal_public(k, ed_key) ? ed_key : rsa_key;
			key_free(k);
			sbuf_reset(kb);
			key_sign(which, which->type != KEY_RSA ? NULL :
			    (flags & SSH_AGENT_RSA_SHA2_512) ? "rsa-sha2-512" :
			    (flags & SSH_AGENT_RSA_SHA2_256) ? "rsa-sha2-256" :
			    "ssh-rsa", data, dlen, kb);
			sbuf_put_u8(ans, SSH_AGENT_SIGN_RESPONSE);
			sbuf_put_stringb(ans, kb);
		} else
			sbuf_put_u8(ans, SSH_AGENT_FAILURE);
		send_frame(fd, ans);
	}
}

/* The scripted agent: one request, then these raw bytes, then EOF. */
static void
raw_agent(int fd, const unsigned char *raw, size_t len)
{
	struct sbuf *req = sbuf_new();

	if (read_request(fd, req) == 0 && len > 0 &&
	    write(fd, raw, len) < 0)
		_exit(3);
	_exit(0);
}

static pid_t
spawn(int *fdp, const unsigned char *raw, size_t len)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		abort();
	if ((pid = fork()) == 0) {
		close(sv[0]);
		if (raw == NULL)
			good_agent(sv[1]);
		raw_agent(sv[1], raw, len);
	}
	close(sv[1]);
	*fdp = sv[0];
	return pid;
}

static void
reap(int fd, pid_t pid)
{
	int st;

	agent_close(fd);
	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
}

/* list against a scripted answer given in hex; returns the result. */
static int
list_raw(const char *hex, size_t *np)
{
	unsigned char raw[512];
	struct agent_identity *ids = NULL;
	size_t len = test_unhex(hex, raw, sizeof(raw));
	pid_t pid;
	int fd, r;

	pid = spawn(&fd, raw, len);
	r = agent_list(fd, &ids, np);
	if (r != 0)
		CHECK(ids == NULL && *np == 0);
	agent_identities_free(ids, *np);
	reap(fd, pid);
	return r;
}

static int
sign_raw(const char *hex)
{
	unsigned char raw[512], data[] = "data";
	struct sbuf *sig = sbuf_new(), *kb = sbuf_new();
	size_t len = test_unhex(hex, raw, sizeof(raw));
	pid_t pid;
	int fd, r;

	key_to_blob(rsa_key, kb);
	pid = spawn(&fd, raw, len);
	r = agent_sign(fd, sbuf_ptr(kb), sbuf_len(kb), data, sizeof(data),
	    "rsa-sha2-512", sig);
	if (r != 0)
		CHECK(sbuf_len(sig) == 0);
	reap(fd, pid);
	sbuf_free(sig);
	sbuf_free(kb);
	return r;
}

static void
test_good(void)
{
	static const unsigned char data[] = "to be signed";
	static const char *const algs[] = {
		"rsa-sha2-512", "rsa-sha2-256", "ssh-rsa" };
	struct agent_identity *ids = NULL;
	struct sbuf *sig;
	size_t n = 0, i;
	pid_t pid;
	int fd;

	pid = spawn(&fd, NULL, 0);
	CHECK_OK(agent_list(fd, &ids, &n));
	CHECK(n == 2);
	if (n != 2)
		goto out;
	CHECK(ids[0].cert == NULL && key_equal_public(ids[0].key, ed_key));
	CHECK(key_equal_public(ids[1].key, rsa_key));
	CHECK_STR(ids[0].comment, "ed-comment");
	CHECK_STR(ids[1].comment, "rsa-comment");
	sig = sbuf_new();
	CHECK_OK(agent_sign(fd, ids[0].blob, ids[0].bloblen, data,
	    sizeof(data), "ssh-ed25519", sig));
	CHECK_OK(key_verify(ed_key, sbuf_ptr(sig), sbuf_len(sig), data,
	    sizeof(data), "ssh-ed25519"));
	for (i = 0; i < 3; i++) {
		sbuf_reset(sig);
		CHECK_OK(agent_sign(fd, ids[1].blob, ids[1].bloblen, data,
		    sizeof(data), algs[i], sig));
		CHECK_OK(key_verify(rsa_key, sbuf_ptr(sig), sbuf_len(sig),
		    data, sizeof(data), algs[i]));
	}
	/* The wrong data does not verify: the signature is real. */
	CHECK(key_verify(rsa_key, sbuf_ptr(sig), sbuf_len(sig), data,
	    sizeof(data) - 1, NULL) != 0);
	sbuf_free(sig);
 out:
	agent_identities_free(ids, n);
	reap(fd, pid);
}

/* The same good agent over a Unix socket in a temporary directory. */
static void
test_unix_socket(void)
{
	char dir[] = "/tmp/test_agent.XXXXXX", *path;
	struct agent_identity *ids = NULL;
	struct sockaddr_un sun;
	size_t n = 0;
	pid_t pid;
	int ls, fd, c;

	if (mkdtemp(dir) == NULL)
		abort();
	path = x_asprintf("%s/agent.sock", dir);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, path);
	ls = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(bind(ls, (struct sockaddr *)&sun, sizeof(sun)) == 0);
	CHECK(listen(ls, 1) == 0);
	if ((pid = fork()) == 0) {
		if ((c = accept(ls, NULL, NULL)) == -1)
			_exit(1);
		good_agent(c);
	}
	close(ls);
	CHECK_OK(agent_connect(path, &fd));
	CHECK_OK(agent_list(fd, &ids, &n));
	CHECK(n == 2);
	agent_identities_free(ids, n);
	reap(fd, pid);
	unlink(path);
	rmdir(dir);
	CHECK_ERR(agent_connect(path, &fd), ERR_SYSTEM);
	CHECK(fd == -1);
	x_free(path);
	path = x_malloc(200);
	memset(path, 'a', 199);
	path[199] = '\0';
	CHECK_ERR(agent_connect(path, &fd), ERR_INVALID_ARGUMENT);
	x_free(path);
}

static void
test_malformed(void)
{
	size_t n = 99;

	/* FAILURE, and the extended failure */
	CHECK_ERR(list_raw("00000001 05", &n), ERR_PERMISSION_DENIED);
	CHECK_ERR(list_raw("00000001 1e", &n), ERR_PERMISSION_DENIED);
	/* zero length, over the 256 KiB cap, a huge length */
	CHECK_ERR(list_raw("00000000", &n), ERR_PROTOCOL);
	CHECK_ERR(list_raw("00040001 0c", &n), ERR_PROTOCOL);
	CHECK_ERR(list_raw("ffffffff 0c", &n), ERR_PROTOCOL);
	/* EOF before the length, and inside the body */
	CHECK(list_raw("", &n) != 0);
	CHECK(list_raw("000000", &n) != 0);
	CHECK(list_raw("00000010 0c 00000001", &n) != 0);
	/* unexpected message type */
	CHECK_ERR(list_raw("00000005 63 00000000", &n), ERR_PROTOCOL);
	/* no count */
	CHECK_ERR(list_raw("00000001 0c", &n), ERR_PROTOCOL);
	/* count of 5 with one (unparsable) entry; a huge count */
	CHECK_ERR(list_raw("0000000e 0c 00000005 00000001 41 00000000", &n),
	    ERR_PROTOCOL);
	CHECK_ERR(list_raw("00000005 0c ffffffff", &n), ERR_PROTOCOL);
	/* a blob string longer than the message */
	CHECK_ERR(list_raw("0000000e 0c 00000001 000000ff 41 00000000", &n),
	    ERR_PROTOCOL);
	/* comment missing */
	CHECK_ERR(list_raw("0000000a 0c 00000001 00000001 41", &n),
	    ERR_PROTOCOL);
	/* trailing bytes after the last entry */
	CHECK_ERR(list_raw("0000000f 0c 00000001 00000001 41 00000000 ff",
	    &n), ERR_PROTOCOL);
	/* an unknown key type is skipped, not an error */
	CHECK_OK(list_raw("00000018 0c 00000001 0000000b 0000000773736" \
	    "82d647373 00000000", &n));
	CHECK(n == 0);
	/* no keys at all (what a locked OpenSSH agent answers) */
	CHECK_OK(list_raw("00000005 0c 00000000", &n));
	CHECK(n == 0);

	CHECK_ERR(sign_raw("00000001 05"), ERR_PERMISSION_DENIED);
	CHECK_ERR(sign_raw("00000001 66"), ERR_PERMISSION_DENIED);
	CHECK(sign_raw("") != 0);
	CHECK_ERR(sign_raw("00000001 0e"), ERR_PROTOCOL);
	CHECK_ERR(sign_raw("00000001 0c"), ERR_PROTOCOL);
	/* signature string longer than the message */
	CHECK_ERR(sign_raw("00000009 0e 000000ff 00000001"), ERR_PROTOCOL);
	/* ssh-rsa (SHA-1) when rsa-sha2-512 was asked for */
	CHECK_ERR(sign_raw("00000019 0e 00000014 00000007 7373682d727361 "
	    "00000005 0102030405"), ERR_PROTOCOL);
	/* the right name but surplus after the signature string */
	CHECK_ERR(sign_raw("0000001f 0e 00000019 0000000c "
	    "7273612d736861322d353132 00000005 0102030405 00"),
	    ERR_PROTOCOL);
	/* an answer that is just the name, no signature: still refused */
	CHECK(sign_raw("00000015 0e 00000010 0000000c "
	    "7273612d736861322d353132") != 0);
}

static void
test_pure(void)
{
	char *p = NULL;

	CHECK(agent_sign_flags("rsa-sha2-512") == SSH_AGENT_RSA_SHA2_512);
	CHECK(agent_sign_flags("rsa-sha2-256") == SSH_AGENT_RSA_SHA2_256);
	CHECK(agent_sign_flags("ssh-rsa") == 0);
	CHECK(agent_sign_flags("ssh-ed25519") == 0);

	setenv("SSH_AUTH_SOCK", "/env/sock", 1);
	setenv("MY_AGENT", "/my/sock", 1);
	CHECK_OK(agent_socket_path(NULL, &p));
	CHECK_STR(p, "/env/sock");
	x_free(p);
	CHECK_OK(agent_socket_path("SSH_AUTH_SOCK", &p));
	CHECK_STR(p, "/env/sock");
	x_free(p);
	CHECK_OK(agent_socket_path("none", &p));
	CHECK(p == NULL);
	CHECK_OK(agent_socket_path("$MY_AGENT", &p));
	CHECK_STR(p, "/my/sock");
	x_free(p);
	CHECK_OK(agent_socket_path("$NO_SUCH_VAR_HERE", &p));
	CHECK(p == NULL);
	CHECK_OK(agent_socket_path("/a/path", &p));
	CHECK_STR(p, "/a/path");
	x_free(p);
	unsetenv("SSH_AUTH_SOCK");
	CHECK_OK(agent_socket_path(NULL, &p));
	CHECK(p == NULL);
	setenv("SSH_AUTH_SOCK", "", 1);
	CHECK_OK(agent_socket_path(NULL, &p));
	CHECK(p == NULL);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	if (key_generate(KEY_ED25519, 0, &ed_key) != 0 ||
	    key_generate(KEY_RSA, 2048, &rsa_key) != 0)
		return 1;
	test_pure();
	test_good();
	test_unix_socket();
	test_malformed();
	key_free(ed_key);
	key_free(rsa_key);
	return TEST_DONE();
}
