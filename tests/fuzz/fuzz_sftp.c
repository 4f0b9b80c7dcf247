/*
 * fuzz_sftp.c: sftp-server's reading of what a client sends.
 *
 * Even first byte: the rest is one attribute block for
 * sftp_attrs_decode(), re-encoded when it decodes. Odd: the rest is the
 * client's whole byte stream after a valid INIT, served by a read-only
 * server (no request may change the file system the fuzzer runs on)
 * from a temporary directory holding a file, a directory and a symlink.
 * Replies go to /dev/null. Whatever arrives, the server must answer or
 * end the session cleanly.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "sbuf.h"
#include "sftp_proto.h"
#include "sftp_server.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int devnull = -1;
static char dir[] = "/tmp/moat-fuzz-sftp.XXXXXX";

/* The directory goes when the fuzzer exits (a read-only server adds
 * nothing to it). */
static void
remove_dir(void)
{
	(void)unlink("link");
	(void)unlink("file");
	(void)rmdir("dir");
	(void)chdir("/");
	(void)rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd;

	(void)argc;
	(void)argv;
	log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	if (mkdtemp(dir) == NULL || chdir(dir) != 0)
		abort();
	atexit(remove_dir);
	if ((fd = open("file", O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1 ||
	    write(fd, "some bytes\n", 11) != 11)
		abort();
	close(fd);
	if (mkdir("dir", 0755) != 0 || symlink("file", "link") != 0)
		abort();
	if ((devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		abort();
	return 0;
}

static void
attrs_once(const uint8_t *data, size_t size)
{
	struct sbuf *in = sbuf_from(data, size), *out = sbuf_new();
	struct sftp_attrs a;

	sftp_attrs_clear(&a);
	if (in != NULL && out != NULL && sftp_attrs_decode(in, &a) == 0)
		(void)sftp_attrs_encode(out, &a);
	sftp_attrs_clear(&a);
	sbuf_free(in);
	sbuf_free(out);
}

static void
serve_once(const uint8_t *data, size_t size)
{
	static const unsigned char init[] = { 0, 0, 0, 5, 1, 0, 0, 0, 3 };
	struct sftp_server_opts o;
	struct sftp_server *s = NULL;
	int fd;

	if ((fd = memfd_create("sftp-in", MFD_CLOEXEC)) == -1)
		abort();
	if (write(fd, init, sizeof(init)) != (ssize_t)sizeof(init) ||
	    (size > 0 && write(fd, data, size) != (ssize_t)size) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	memset(&o, 0, sizeof(o));
	o.user = "fuzz";
	o.home = ".";
	o.client_addr = "127.0.0.1";
	o.readonly = 1;
	if (sftp_server_new(&o, fd, devnull, &s) == 0) {
		(void)sftp_server_run(s);
		sftp_server_free(s);
	}
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] & 1)
		serve_once(data + 1, size - 1);
	else
		attrs_once(data + 1, size - 1);
	return 0;
}
