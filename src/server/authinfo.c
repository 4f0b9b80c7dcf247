/*
 * authinfo.c: the text and the file of ExposeAuthInfo (see authinfo.h).
 *
 * Each line is built by the monitor from what it checked itself: the
 * key blob it verified a signature with, the client user and host of a
 * hostbased login. Those bytes came from the client all the same, so a
 * line is only written when it stays one line: a type name of the
 * characters key type names use, no newline in the extra text.
 */
#include <sys/random.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "authinfo.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"

#define TYPE_MAX	64	/* longer than any key type name */
#define RANDOM_CHARS	15
#define TRIES		100

static int
type_ok(const unsigned char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > TYPE_MAX)
		return 0;
	for (i = 0; i < len; i++) {
		if ((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9'))
			continue;
		if (s[i] == '\0' || strchr("@.-_", s[i]) == NULL)
			return 0;
	}
	return 1;
}

static int
word_ok(const char *s)
{
	return *s != '\0' && strpbrk(s, " \t\r\n") == NULL;
}

int
authinfo_add(struct sbuf *text, const char *method,
    const unsigned char *blob, size_t bloblen, const char *info)
{
	const unsigned char *type = NULL;
	struct sbuf *key = NULL, *line;
	size_t tlen = 0;
	const char *colon;
	char *b64 = NULL;
	int r;

	if (!word_ok(method) ||
	    (info != NULL && strpbrk(info, "\r\n") != NULL))
		return ERR_INVALID_FORMAT;
	if (blob != NULL) {
		key = sbuf_from(blob, bloblen);
		r = sbuf_peek_string_direct(key, &type, &tlen);
		if (r != 0 || !type_ok(type, tlen)) {
			sbuf_free(key);
			return ERR_INVALID_FORMAT;
		}
		b64 = sbuf_to_b64(key, 0);
	}
	/* AuthenticationMethods' "method:submethod" is "method/sub" here. */
	line = sbuf_new();
	if ((colon = strchr(method, ':')) != NULL)
		r = sbuf_putf(line, "%.*s/%s", (int)(colon - method), method,
		    colon + 1);
	else
		r = sbuf_putf(line, "%s", method);
	if (r == 0 && blob != NULL)
		r = sbuf_putf(line, " %.*s %s", (int)tlen, (const char *)type,
		    b64);
	if (r == 0 && info != NULL)
		r = sbuf_putf(line, " %s", info);
	if (r == 0 && (r = sbuf_put_u8(line, '\n')) == 0)
		r = sbuf_putb(text, line);
	sbuf_free(line);
	sbuf_free(key);
	x_free(b64);
	return r;
}

/* RANDOM_CHARS letters and digits, as a template's X's are filled. */
static int
random_name(char *out)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[RANDOM_CHARS];
	size_t i;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return ERR_SYSTEM;
	/* 62 does not divide 256: a bias of under 2%, for a name. */
	for (i = 0; i < sizeof(rnd); i++)
		out[i] = chars[rnd[i] % (sizeof(chars) - 1)];
	out[RANDOM_CHARS] = '\0';
	return 0;
}

/* All of p[0..len) to fd: 0, or ERR_SYSTEM. */
static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, p, len)) < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = EIO;	/* no progress and no errno */
		if (n <= 0)
			return ERR_SYSTEM;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
authinfo_write(const char *dir, const char *text, size_t len, char **pathp)
{
	char name[RANDOM_CHARS + 1], *path = NULL;
	int fd = -1, i;

	*pathp = NULL;
	for (i = 0; i < TRIES && fd == -1; i++) {
		x_free(path);
		path = NULL;
		if (random_name(name) != 0)
			break;
		path = x_asprintf("%s/sshauth.%s", dir, name);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
		if (fd == -1 && errno != EEXIST)
			break;
	}
	if (fd == -1) {
		log_error("prepare_auth_info_file: mkstemp: %s",
		    strerror(errno));
		x_free(path);
		return ERR_SYSTEM;
	}
	if (write_all(fd, text, len) != 0) {
		log_error("prepare_auth_info_file: write: %s",
		    strerror(errno));
		goto fail;
	}
	if (close(fd) != 0) {
		fd = -1;
		log_error("prepare_auth_info_file: close: %s",
		    strerror(errno));
		goto fail;
	}
	*pathp = path;
	return 0;
 fail:
	if (fd != -1)
		close(fd);
	(void)unlink(path);
	x_free(path);
	return ERR_SYSTEM;
}
