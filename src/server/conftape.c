/*
 * conftape.c: record and replay the configuration's files (conftape.h).
 * The entries are kept as an array in both modes; a tape is small (a
 * few files) and looked up a handful of times, so lookups are linear.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "conftape.h"
#include "log.h"
#include "err.h"
#include "mem.h"
#include "sbuf.h"

#define TAPE_MAX	(64u << 20)	/* bytes in all */
#define TAPE_GLOB_MAX	65536u		/* paths from one glob */

struct tape_entry {
	char kind;		/* 'F' or 'G' */
	char *key;		/* path or pattern */
	char *text;		/* 'F' */
	size_t len;
	char **paths;		/* 'G' */
	size_t n;
};

struct conftape {
	struct tape_entry *e;
	size_t n;
	int replay;
};

struct conftape *
conftape_new(void)
{
	return x_calloc(1, sizeof(struct conftape));
}

void
conftape_free(struct conftape *t)
{
	size_t i, j;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++) {
		x_free(t->e[i].key);
		x_free(t->e[i].text);
		for (j = 0; j < t->e[i].n; j++)
			x_free(t->e[i].paths[j]);
		x_free(t->e[i].paths);
	}
	x_free(t->e);
	x_free(t);
}

int
conftape_replaying(const struct conftape *t)
{
	return t->replay;
}

static struct tape_entry *
add(struct conftape *t, char kind, const char *key)
{
	struct tape_entry *e;

	t->e = x_reallocarray(t->e, t->n + 1, sizeof(*t->e));
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->key = x_strdup(key);
	return e;
}

void
conftape_add_file(struct conftape *t, const char *path, const char *text,
    size_t len)
{
	struct tape_entry *e = add(t, 'F', path);

	e->text = x_malloc(len + 1);
	memcpy(e->text, text, len);
	e->text[len] = '\0';
	e->len = len;
}

void
conftape_add_glob(struct conftape *t, const char *pattern,
    char *const *paths, size_t n)
{
	struct tape_entry *e = add(t, 'G', pattern);
	size_t i;

	e->paths = x_calloc(n + 1, sizeof(*e->paths));
	for (i = 0; i < n; i++)
		e->paths[i] = x_strdup(paths[i]);
	e->n = n;
}

static const struct tape_entry *
find(const struct conftape *t, char kind, const char *key)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].kind == kind && strcmp(t->e[i].key, key) == 0)
			return &t->e[i];
	return NULL;
}

const char *
conftape_file(const struct conftape *t, const char *path, size_t *lenp)
{
	const struct tape_entry *e = find(t, 'F', path);

	if (e == NULL)
		return NULL;
	*lenp = e->len;
	return e->text;
}

int
conftape_glob(const struct conftape *t, const char *pattern,
    char ***pathsp, size_t *np)
{
	const struct tape_entry *e = find(t, 'G', pattern);

	if (e == NULL)
		return ERR_NOT_FOUND;
	*pathsp = e->paths;
	*np = e->n;
	return 0;
}

/* One entry from b; 0, or ERR_INVALID_FORMAT if it does not parse. */
static int
parse_entry(struct conftape *t, struct sbuf *b)
{
	struct tape_entry *e;
	unsigned char *text = NULL;
	char *key = NULL;
	uint8_t kind;
	uint32_t n, i;
	size_t len;

	if (sbuf_get_u8(b, &kind) != 0 || (kind != 'F' && kind != 'G') ||
	    sbuf_get_cstring(b, &key, NULL) != 0)
		return ERR_INVALID_FORMAT;
	if (kind == 'F') {
		if (sbuf_get_string(b, &text, &len) != 0) {
			x_free(key);
			return ERR_INVALID_FORMAT;
		}
		conftape_add_file(t, key, (const char *)text, len);
		x_free(text);
		x_free(key);
		return 0;
	}
	if (sbuf_get_u32(b, &n) != 0 || n > TAPE_GLOB_MAX) {
		x_free(key);
		return ERR_INVALID_FORMAT;
	}
	e = add(t, 'G', key);
	x_free(key);
	e->paths = x_calloc((size_t)n + 1, sizeof(*e->paths));
	for (i = 0; i < n; i++) {
		if (sbuf_get_cstring(b, &e->paths[i], NULL) != 0)
			return ERR_INVALID_FORMAT;
		e->n = i + 1;
	}
	return 0;
}

struct conftape *
conftape_parse(const unsigned char *p, size_t len)
{
	struct conftape *t = conftape_new();
	struct sbuf *b = sbuf_from(p, len);

	t->replay = 1;
	while (sbuf_len(b) > 0)
		if (parse_entry(t, b) != 0) {
			sbuf_free(b);
			conftape_free(t);
			return NULL;
		}
	sbuf_free(b);
	return t;
}

static int
serialise(const struct conftape *t, struct sbuf *b)
{
	const struct tape_entry *e;
	size_t i, j;
	int r = 0;

	for (i = 0; r == 0 && i < t->n; i++) {
		e = &t->e[i];
		if ((r = sbuf_put_u8(b, (uint8_t)e->kind)) != 0 ||
		    (r = sbuf_put_cstring(b, e->key)) != 0)
			break;
		if (e->kind == 'F') {
			r = sbuf_put_string(b, e->text, e->len);
			continue;
		}
		r = sbuf_put_u32(b, (uint32_t)e->n);
		for (j = 0; r == 0 && j < e->n; j++)
			r = sbuf_put_cstring(b, e->paths[j]);
	}
	return r;
}

int
conftape_to_memfd(const struct conftape *t)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *p;
	size_t left;
	ssize_t w;
	int fd = -1;

	if (sbuf_set_max_size(b, TAPE_MAX) != 0 || serialise(t, b) != 0) {
		log_error("configuration record: too large");
		goto out;
	}
	if ((fd = memfd_create("sshd_config", MFD_CLOEXEC |
	    MFD_ALLOW_SEALING)) == -1) {
		log_error("configuration record: memfd_create: %s",
		    strerror(errno));
		goto out;
	}
	p = sbuf_ptr(b);
	left = sbuf_len(b);
	while (left > 0) {
		if ((w = write(fd, p, left)) < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		left -= (size_t)w;
	}
	if (left > 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK |
	    F_SEAL_GROW | F_SEAL_WRITE) == -1) {
		log_error("configuration record: %s", strerror(errno));
		close(fd);
		fd = -1;
	}
 out:
	sbuf_free(b);
	return fd;
}

struct conftape *
conftape_read_fd(int fd)
{
	struct conftape *t;
	struct stat st;
	unsigned char *buf;
	size_t got = 0;
	ssize_t n;

	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (unsigned long long)st.st_size > TAPE_MAX)
		return NULL;
	buf = x_malloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		n = pread(fd, buf + got, (size_t)st.st_size - got,
		    (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	t = got == (size_t)st.st_size ? conftape_parse(buf, got) : NULL;
	x_free(buf);
	return t;
}
