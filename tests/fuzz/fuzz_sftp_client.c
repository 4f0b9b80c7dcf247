/*
 * fuzz_sftp_client.c: the SFTP client's reading of a server's replies.
 *
 * The input is the server's whole byte stream (VERSION first). A fixed
 * series of operations runs against it: realpath, stat, an open and a
 * pipelined download (small buffer, several requests outstanding), a
 * directory listing, readlink, statvfs, users-groups-by-id, an upload
 * of a small local file, expand-path. Requests go to /dev/null; their
 * ids are 0, 1, 2... so a seed can answer them. A refusal goes on to
 * the next operation, a broken connection ends the series. Whatever
 * arrives, the client must fail cleanly: no crash, leak or hang.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp_client.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int devnull = -1, upload = -1;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	if ((devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1 ||
	    (upload = memfd_create("upload", MFD_CLOEXEC)) == -1 ||
	    write(upload, "0123456789abcdefghijklmnopqrstuvwxyz", 36) != 36)
		abort();
	return 0;
}

/* The read half of a transfer: the data goes to /dev/null. */
static int
download(struct sftp_conn *c)
{
	struct sftp_handle *h;
	uint64_t done;
	int r;

	if ((r = sftp_client_open(c, "f", SSH2_FXF_READ, NULL, &h)) != 0)
		return r;
	r = sftp_client_read_file(c, h, devnull, 0, &done, NULL, NULL);
	if (r < 0 && r != ERR_SYSTEM) {
		x_free(h->data);
		x_free(h);
		return r;
	}
	return sftp_client_close(c, h);
}

static int
upload_file(struct sftp_conn *c)
{
	struct sftp_handle *h;
	uint64_t done;
	int r;

	if ((r = sftp_client_open(c, "u", SSH2_FXF_WRITE | SSH2_FXF_CREAT,
	    NULL, &h)) != 0)
		return r;
	r = sftp_client_write_file(c, h, upload, 0, &done, NULL, NULL);
	if (r < 0 && r != ERR_SYSTEM) {
		x_free(h->data);
		x_free(h);
		return r;
	}
	return sftp_client_close(c, h);
}

static void
series(struct sftp_conn *c)
{
	struct sftp_attrs a;
	struct sftp_name *names;
	struct sftp_statvfs st;
	uint32_t ids[2] = { 0, 1 };
	char *s = NULL, *un[2], *gn[2];
	size_t n;
	int r;

	if ((r = sftp_client_realpath(c, ".", &s)) < 0)
		return;
	x_free(s);
	if (sftp_client_stat(c, "f", 1, &a) < 0 || download(c) < 0)
		return;
	if ((r = sftp_client_ls(c, "d", &names, &n)) < 0)
		return;
	if (r == 0)
		sftp_names_free(names, n);
	if ((r = sftp_client_readlink(c, "l", &s)) < 0)
		return;
	x_free(s);
	if (sftp_client_statvfs(c, "/", &st) < 0)
		return;
	if ((r = sftp_client_users_groups(c, ids, 2, ids, 2, un, gn)) < 0)
		return;
	if (r == 0) {
		x_free(un[0]);
		x_free(un[1]);
		x_free(gn[0]);
		x_free(gn[1]);
	}
	if (upload_file(c) < 0)
		return;
	if (sftp_client_expand_path(c, "~/x", &s) == 0)
		x_free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sftp_client_opts o = { 16, 3, 0 };
	struct sftp_conn *c;
	int fd;

	if ((fd = memfd_create("replies", MFD_CLOEXEC)) == -1)
		abort();
	if ((size > 0 && write(fd, data, size) != (ssize_t)size) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	if (sftp_client_init(fd, devnull, &o, &c) == 0) {
		series(c);
		sftp_client_free(c);
	}
	close(fd);
	return 0;
}
