/*
 * test_clienthostbased.c: the client's side of the ssh-keysign helper.
 *
 * The request and reply framing against bytes seen from OpenSSH's client
 * and helper (length, version 2, fd 3, data / version 2, signature), the
 * client host name (always with a trailing dot), and a whole exchange
 * with a stand-in helper script that checks it got a socket at fd 3 and
 * the request's exact size, then answers.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clienthostbased.h"
#include "err.h"
#include "mem.h"
#include "testlib.h"

static void
test_framing(void)
{
	static const unsigned char want[] = {
		0, 0, 0, 12, 2, 0, 0, 0, 3, 0, 0, 0, 3, 'a', 'b', 'c' };
	static const unsigned char good[] = { 2, 0, 0, 0, 3, 's', 'i', 'g' };
	static const unsigned char badv[] = { 1, 0, 0, 0, 3, 's', 'i', 'g' };
	static const unsigned char extra[] = {
		2, 0, 0, 0, 3, 's', 'i', 'g', 0 };
	static const unsigned char shortb[] = { 2, 0, 0, 0, 4, 's', 'i', 'g' };
	static const unsigned char empty[] = { 2, 0, 0, 0, 0 };
	struct sbuf *b = sbuf_new(), *sig = sbuf_new(), *in;

	CHECK_OK(hb_keysign_request(b, (const unsigned char *)"abc", 3));
	CHECK(sbuf_len(b) == sizeof(want));
	CHECK_MEM(sbuf_ptr(b), want, sizeof(want));

	in = sbuf_from(good, sizeof(good));
	CHECK_OK(hb_keysign_reply(in, sig));
	CHECK(sbuf_len(sig) == 3 && memcmp(sbuf_ptr(sig), "sig", 3) == 0);
	sbuf_free(in);
	in = sbuf_from(badv, sizeof(badv));
	CHECK_ERR(hb_keysign_reply(in, sig), ERR_PROTOCOL);
	sbuf_free(in);
	in = sbuf_from(extra, sizeof(extra));
	CHECK_ERR(hb_keysign_reply(in, sig), ERR_PROTOCOL);
	sbuf_free(in);
	in = sbuf_from(empty, sizeof(empty));
	CHECK_ERR(hb_keysign_reply(in, sig), ERR_PROTOCOL);
	sbuf_free(in);
	in = sbuf_from(shortb, sizeof(shortb));
	CHECK(hb_keysign_reply(in, sig) != 0);
	sbuf_free(in);
	sbuf_free(b);
	sbuf_free(sig);
}

static void
test_local_name(void)
{
	struct sockaddr_in sin;
	char *name = NULL, host[256];
	int p[2], s;

	/* Not a socket: the machine's name. */
	CHECK(pipe(p) == 0);
	CHECK_OK(hb_local_name(p[0], &name));
	CHECK(gethostname(host, sizeof(host)) == 0);
	host[sizeof(host) - 1] = '\0';
	CHECK(name != NULL && strncmp(name, host, strlen(host)) == 0 &&
	    strcmp(name + strlen(host), ".") == 0);
	x_free(name);
	close(p[0]);
	close(p[1]);

	/* A socket on 127.0.0.1: its reverse name, with the dot. */
	CHECK((s = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK(bind(s, (struct sockaddr *)&sin, sizeof(sin)) == 0);
	name = NULL;
	CHECK_OK(hb_local_name(s, &name));
	CHECK(name != NULL && strlen(name) > 1 &&
	    name[strlen(name) - 1] == '.' && name[strlen(name) - 2] != '.');
	x_free(name);
	close(s);
}

/* A stand-in helper: checks fd 3 and the request size, then answers. */
static void
test_exchange(void)
{
	char path[] = "/tmp/moat-keysign-XXXXXX";
	struct sbuf *sig = sbuf_new();
	FILE *f;
	int fd, sp[2];

	CHECK((fd = mkstemp(path)) >= 0);
	CHECK((f = fdopen(fd, "w")) != NULL);
	fprintf(f, "#!/bin/sh\n"
	    "readlink /proc/$$/fd/3 | grep -q '^socket:' || exit 2\n"
	    "n=$(head -c 16 | wc -c)\n"
	    "[ \"$n\" = 16 ] || exit 3\n"
	    "printf '\\000\\000\\000\\010\\002\\000\\000\\000\\003sig'\n");
	fclose(f);
	CHECK(chmod(path, 0700) == 0);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
	CHECK_OK(hb_keysign(path, sp[0], (const unsigned char *)"abc", 3,
	    sig));
	CHECK(sbuf_len(sig) == 3 && memcmp(sbuf_ptr(sig), "sig", 3) == 0);

	/* A helper that refuses (exits without answering). */
	CHECK((f = fopen(path, "w")) != NULL);
	fprintf(f, "#!/bin/sh\nexit 1\n");
	fclose(f);
	sbuf_reset(sig);
	CHECK(hb_keysign(path, sp[0], (const unsigned char *)"abc", 3,
	    sig) != 0);
	CHECK(sbuf_len(sig) == 0);
	/* No helper at all. */
	CHECK(hb_keysign("/nonexistent/ssh-keysign", sp[0],
	    (const unsigned char *)"abc", 3, sig) != 0);
	unlink(path);
	close(sp[0]);
	close(sp[1]);
	sbuf_free(sig);
}

int
main(void)
{
	test_framing();
	test_local_name();
	test_exchange();
	return TEST_DONE();
}
