/*
 * test_authinfo.c: ExposeAuthInfo's text and file (authinfo.h): the line
 * of each method as OpenSSH writes it (checked against what Debian's
 * sshd wrote for the same key), refusals of bytes that would break a
 * line, and the file's name, mode and contents.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "authinfo.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

#define KEY_B64	"AAAAC3NzaC1lZDI1NTE5AAAAIAxXxo4vdrbxshHK0+D4GtwJ3yB3UiuvOTRfcNpZ2BaM"

static struct sbuf *
blob(const char *b64)
{
	struct sbuf *b = sbuf_new();

	CHECK_OK(sbuf_b64_decode(b, b64));
	return b;
}

static char *
text_of(const struct sbuf *b)
{
	return x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
}

static void
test_lines(void)
{
	struct sbuf *t = sbuf_new(), *k = blob(KEY_B64);
	char *s;

	CHECK_OK(authinfo_add(t, "publickey", sbuf_ptr(k), sbuf_len(k),
	    NULL));
	CHECK_OK(authinfo_add(t, "password", NULL, 0, NULL));
	CHECK_OK(authinfo_add(t, "keyboard-interactive:pam", NULL, 0, NULL));
	CHECK_OK(authinfo_add(t, "hostbased", sbuf_ptr(k), sbuf_len(k),
	    "client user \"alice\", client host \"h.example.\""));
	s = text_of(t);
	CHECK_STR(s,
	    "publickey ssh-ed25519 " KEY_B64 "\n"
	    "password\n"
	    "keyboard-interactive/pam\n"
	    "hostbased ssh-ed25519 " KEY_B64
	    " client user \"alice\", client host \"h.example.\"\n");
	x_free(s);
	sbuf_free(t);
	sbuf_free(k);
}

/* A certificate is written whole, under its own type name. */
static void
test_cert(void)
{
	struct sbuf *t = sbuf_new(), *c = sbuf_new();
	char *s, *b64, *want;

	CHECK_OK(sbuf_put_cstring(c, "ssh-ed25519-cert-v01@openssh.com"));
	CHECK_OK(sbuf_put_cstring(c, "nonce"));
	CHECK_OK(sbuf_put_u32(c, 7));
	b64 = sbuf_to_b64(c, 0);
	CHECK_OK(authinfo_add(t, "publickey", sbuf_ptr(c), sbuf_len(c),
	    NULL));
	s = text_of(t);
	want = x_asprintf("publickey ssh-ed25519-cert-v01@openssh.com %s\n",
	    b64);
	CHECK_STR(s, want);
	x_free(want);
	x_free(s);
	x_free(b64);
	sbuf_free(t);
	sbuf_free(c);
}

static void
check_refused(const char *method, const void *b, size_t len,
    const char *info)
{
	struct sbuf *t = sbuf_new();

	CHECK_ERR(authinfo_add(t, method, b, len, info), ERR_INVALID_FORMAT);
	CHECK(sbuf_len(t) == 0);
	sbuf_free(t);
}

static void
test_refused(void)
{
	static const unsigned char space[] = "\0\0\0\3a b";
	static const unsigned char newline[] = "\0\0\0\3a\nb";
	static const unsigned char nul[] = "\0\0\0\3a\0b";
	static const unsigned char empty[] = "\0\0\0\0";
	static const unsigned char cut[] = "\0\0\0\x09ssh-";
	unsigned char longname[4 + 65];

	check_refused("publickey", space, 7, NULL);
	check_refused("publickey", newline, 7, NULL);
	check_refused("publickey", nul, 7, NULL);
	check_refused("publickey", empty, 4, NULL);
	check_refused("publickey", cut, 8, NULL);
	check_refused("publickey", cut, 2, NULL);
	memset(longname, 'a', sizeof(longname));
	longname[0] = longname[1] = longname[2] = 0;
	longname[3] = 65;
	check_refused("publickey", longname, sizeof(longname), NULL);
	check_refused("hostbased", NULL, 0, "client user \"a\nb\"");
	check_refused("hostbased", NULL, 0, "x\ry");
	check_refused("pass word", NULL, 0, NULL);
	check_refused("", NULL, 0, NULL);
}

/* The name's 15 random characters: letters and digits. */
static int
name_ok(const char *path, const char *dir)
{
	const char *p;
	size_t n = strlen(dir) + strlen("/sshauth.");

	if (strncmp(path, dir, strlen(dir)) != 0 ||
	    strncmp(path + strlen(dir), "/sshauth.", 9) != 0 ||
	    strlen(path) != n + 15)
		return 0;
	for (p = path + n; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9')))
			return 0;
	return 1;
}

static void
test_file(void)
{
	char dir[64] = "/tmp/test_authinfo.XXXXXX", *a = NULL, *b = NULL;
	char *got;
	struct stat st;
	mode_t old = umask(0);

	CHECK(mkdtemp(dir) != NULL);
	CHECK_OK(authinfo_write(dir, "password\n", 9, &a));
	CHECK_OK(authinfo_write(dir, "password\n", 9, &b));
	umask(old);
	CHECK(a != NULL && b != NULL && strcmp(a, b) != 0);
	CHECK(a != NULL && name_ok(a, dir));
	CHECK(a != NULL && lstat(a, &st) == 0 && S_ISREG(st.st_mode) &&
	    (st.st_mode & 07777) == 0600 && st.st_uid == geteuid());
	got = test_read_file(a);
	CHECK_STR(got, "password\n");
	free(got);
	if (a != NULL)
		unlink(a);
	if (b != NULL)
		unlink(b);
	x_free(a);
	x_free(b);
	/* A directory that is not there: an error, no path. */
	strcat(dir, "/gone");
	a = (char *)"x";
	CHECK_ERR(authinfo_write(dir, "x\n", 2, &a), ERR_SYSTEM);
	CHECK(a == NULL);
	dir[strlen(dir) - 5] = '\0';
	CHECK(rmdir(dir) == 0);
}

int
main(void)
{
	log_init("test_authinfo", LOG_LEVEL_QUIET, 0, 1);
	test_lines();
	test_cert();
	test_refused();
	test_file();
	return TEST_DONE();
}
