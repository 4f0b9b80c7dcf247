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
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "cert.h"
#include "err.h"
#include "keygen.h"
#include "mem.h"
#include "sbuf.h"

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

	r = key_load_private(path, "", 1, kp, commentp);
	if (r == ERR_KEY_BAD_PERMISSIONS && report)
		kg_warn_perms(path);
	if (r == ERR_KEY_WRONG_PASSPHRASE) {
		typed = pass != NULL ? x_strdup(pass) :
		    kg_read_passphrase("Enter passphrase: ");
		r = key_load_private(path, typed, 1, kp, commentp);
		kg_free_passphrase(typed);
	}
	if (r != 0 && report)
		kg_error("Load key \"%s\": %s", path,
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
	return r;
}

/* The default key file for -t's type (id_rsa without one). */
static const char *
default_key_name(const struct kg_opts *o)
{
	enum key_type type = KEY_RSA;
	int nid;

	if (o->type != NULL && strcasecmp(o->type, "ecdsa") == 0)
		return "id_ecdsa";
	if (o->type != NULL && strcasecmp(o->type, "ed25519") == 0)
		return "id_ed25519";
	if (o->type != NULL && kg_sk_type(o->type, &type) == 0)
		return type == KEY_ECDSA_SK ? "id_ecdsa_sk" : "id_ed25519_sk";
	if (o->type != NULL && key_type_from_name(o->type, &type, &nid) != 0)
		type = KEY_RSA;
	return type == KEY_ECDSA ? "id_ecdsa" : type == KEY_ED25519 ?
	    "id_ed25519" : "id_rsa";
}

static char *asked_file;	/* kg_need_file's answer, kept to the end */

const char *
kg_need_file(struct kg_opts *o, const char *prompt)
{
	struct passwd *pw = getpwuid(getuid());
	char buf[1024];

	if (o->file != NULL)
		return o->file;
	x_free(asked_file);
	asked_file = x_asprintf("%s/.ssh/%s", pw != NULL ? pw->pw_dir : ".",
	    default_key_name(o));
	printf("%s (%s): ", prompt, asked_file);
	fflush(stdout);
	if (fgets(buf, sizeof(buf), stdin) == NULL)
		exit(1);
	buf[strcspn(buf, "\n")] = '\0';
	if (buf[0] != '\0') {
		x_free(asked_file);
		asked_file = x_strdup(buf);
	}
	o->file = asked_file;
	return o->file;
}

/*
 * The first public key (or certificate: *is_cert) in a text file, and
 * the rest of its line as the comment (the file's name when empty).
 */
static int
load_text(const char *path, struct key **kp, int *is_cert,
    char **commentp)
{
	char *text = NULL, *line, *next;
	const char *cp;
	struct key_cert *c;
	int r;

	if ((r = kg_read_file(path, &text, NULL)) != 0)
		return r;
	r = ERR_INVALID_FORMAT;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strncmp(line, "-----BEGIN", 10) == 0)
			break;	/* a private key: no public one here */
		cp = line + strspn(line, " \t");
		if ((r = key_read_public_text(&cp, kp)) != 0) {
			cp = line + strspn(line, " \t");
			if ((r = cert_read_public_text(&cp, &c)) != 0)
				continue;
			*kp = c->key;
			c->key = NULL;
			cert_free(c);
			*is_cert = 1;
		}
		if (commentp != NULL)
			*commentp = *cp != '\0' && *cp != '\r' ?
			    x_strndup(cp, strcspn(cp, "\r")) : x_strdup(path);
		break;
	}
	x_free(text);
	return r;
}

int
kg_load_public_any(const char *path, struct key **kp, int *is_cert,
    char **commentp)
{
	char *pub;
	int r;

	*is_cert = 0;
	if (commentp != NULL)
		*commentp = NULL;
	if (load_text(path, kp, is_cert, commentp) == 0)
		return 0;
	pub = x_asprintf("%s.pub", path);
	r = load_text(pub, kp, is_cert, commentp);
	x_free(pub);
	if (r == 0 || key_load_private_public(path, kp) == 0)
		return 0;
	return ERR_NOT_FOUND;
}

int
kg_stat_file(const struct kg_opts *o, const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		return 0;
	kg_error("%s: %s: %s", o->prog, path, strerror(errno));
	return -1;
}

void
kg_make_ssh_dir(const char *path, int notify)
{
	struct passwd *pw = getpwuid(getuid());
	struct stat st;
	char *dir;
	size_t len;

	if (pw == NULL)
		return;
	dir = x_asprintf("%s/.ssh", pw->pw_dir);
	len = strlen(dir);
	if (strncmp(path, dir, len) != 0 || path[len] != '/') {
		x_free(dir);
		return;		/* not a key of the user's ~/.ssh */
	}
	if (stat(dir, &st) == 0)
		;
	else if (errno != ENOENT)
		kg_error("Could not stat %s: %s", dir, strerror(errno));
	else if (mkdir(dir, 0700) != 0)
		kg_error("Could not create directory '%.200s' (%s).", dir,
		    strerror(errno));
	else if (notify)
		kg_error("Created directory '%s'.", dir);
	x_free(dir);
}

int
kg_agent_holds(int fd, const struct sbuf *blob)
{
	struct agent_identity *ids = NULL;
	size_t n = 0, i;
	int found = 0;

	if (agent_list(fd, &ids, &n) != 0)
		return 0;
	for (i = 0; i < n && !found; i++)
		found = ids[i].bloblen == sbuf_len(blob) &&
		    memcmp(ids[i].blob, sbuf_ptr(blob), ids[i].bloblen) == 0;
	agent_identities_free(ids, n);
	return found;
}
