/*
 * keygen_util.c: small helpers of ssh-keygen: whole-file reads and
 * writes, private key loading with the -P passphrase (or a prompt on a
 * terminal), and error output.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "keygen.h"
#include "mem.h"

#define KG_FILE_MAX	(512u * 1024 * 1024)

char *
kg_default_comment(void)
{
	struct passwd *pw = getpwuid(getuid());
	char host[256];

	if (gethostname(host, sizeof(host)) != 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	return x_asprintf("%s@%s", pw != NULL ? pw->pw_name : "user", host);
}

void
kg_err(const struct kg_opts *o, const char *fmt, ...)
{
	va_list ap;

	(void)o;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
kg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\r\n", stderr);
}

int
kg_read_file(const char *path, char **textp, size_t *lenp)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd;

	*textp = NULL;
	if (lenp != NULL)
		*lenp = 0;
	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ERR_SYSTEM;
	for (;;) {
		if (cap - len < 4096) {
			if (cap >= KG_FILE_MAX) {
				close(fd);
				x_free(buf);
				return ERR_NO_BUFFER_SPACE;
			}
			cap = cap == 0 ? 8192 : cap * 2;
			buf = x_reallocarray(buf, cap + 1, 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			x_free(buf);
			return ERR_SYSTEM;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (buf == NULL)
		buf = x_malloc(1);
	buf[len] = '\0';
	*textp = buf;
	if (lenp != NULL)
		*lenp = len;
	return 0;
}

int
kg_write_file(const char *path, const void *p, size_t len, int mode)
{
	const unsigned char *cp = p;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    mode)) < 0)
		return ERR_SYSTEM;
	while (len > 0) {
		if ((n = write(fd, cp, len)) < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return ERR_SYSTEM;
		}
		cp += n;
		len -= (size_t)n;
	}
	if (close(fd) != 0)
		return ERR_SYSTEM;
	return 0;
}

int
kg_confirm_overwrite(const char *path)
{
	struct stat st;
	char ans[3];

	if (stat(path, &st) != 0)
		return 1;
	printf("%s already exists.\nOverwrite (y/n)? ", path);
	fflush(stdout);
	if (fgets(ans, sizeof(ans), stdin) == NULL)
		return 0;
	return ans[0] == 'y' || ans[0] == 'Y';
}

int
kg_load_private(const char *path, const char *pass, struct key **kp,
    char **commentp, int report)
{
	char *typed;
	int r;

	r = key_load_private(path, pass != NULL ? pass : "", 1, kp, commentp);
	if (r == ERR_KEY_WRONG_PASSPHRASE && pass == NULL &&
	    isatty(STDIN_FILENO) &&
	    (typed = getpass("Enter passphrase: ")) != NULL) {
		r = key_load_private(path, typed, 1, kp, commentp);
		x_wipe(typed, strlen(typed));
	}
	if (r != 0 && report) {
		if (r == ERR_SYSTEM)
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
		else
			fprintf(stderr, "Load key \"%s\": %s\n", path,
			    err_str(r));
	}
	return r;
}
