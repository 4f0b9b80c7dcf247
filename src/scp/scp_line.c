/*
 * scp_line.c: the pure pieces of the rcp protocol, kept apart so the
 * unit test and the fuzz target can compile them alone.
 *
 * A sink reads control records from a server it does not trust: "C",
 * "D" (mode, size, name), "E" and "T" (times), one a line. The parser
 * takes exactly what the protocol allows (four octal digits of mode,
 * decimal sizes and times that do not overflow, one space between
 * fields) and hands back a name that still has to pass scp_name_ok():
 * no "/" and not "..", so a record can only ever name an entry of the
 * directory being written (CVE-2019-6111), and at the top of a
 * transfer it must match what was asked for. The remote path is given
 * to the far end through a shell: scp_shell_quote() keeps that shell
 * from seeing anything but one word (CVE-2020-15778), glob characters
 * apart.
 */
#include <fnmatch.h>
#include <stdint.h>
#include <string.h>

#include "err.h"
#include "mem.h"
#include "scp.h"

/* Decimal digits up to a delimiter; ERR_INVALID_FORMAT on none or overflow. */
static int
get_num(const char **pp, uint64_t max, uint64_t *v)
{
	const char *p = *pp;
	uint64_t n = 0;

	if (*p < '0' || *p > '9')
		return ERR_INVALID_FORMAT;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > (max - (uint64_t)(*p - '0')) / 10)
			return ERR_INVALID_FORMAT;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	*v = n;
	*pp = p;
	return 0;
}

static int
parse_times(const char *p, struct scp_rec *r, const char **why)
{
	uint64_t v[4];
	static const char *const what[4] = {
		"mtime.sec not delimited", "mtime.usec not delimited",
		"atime.sec not delimited", "atime.usec not delimited",
	};
	int i;

	for (i = 0; i < 4; i++) {
		if (get_num(&p, i % 2 ? 999999 : INT64_MAX, &v[i]) != 0 ||
		    *p++ != (i == 3 ? '\0' : ' ')) {
			*why = what[i];
			return ERR_INVALID_FORMAT;
		}
	}
	r->mtime = (int64_t)v[0];
	r->atime = (int64_t)v[2];
	return 0;
}

int
scp_parse_record(const char *line, struct scp_rec *r, const char **why)
{
	const char *p = line + 1;
	uint64_t size;
	int i;

	memset(r, 0, sizeof(*r));
	r->type = line[0];
	switch (line[0]) {
	case 'E':
		if (line[1] != '\0') {
			*why = "unexpected data after E";
			return ERR_INVALID_FORMAT;
		}
		return 0;
	case 'T':
		return parse_times(p, r, why);
	case 'C':
	case 'D':
		break;
	default:
		*why = "expected control record";
		return ERR_INVALID_FORMAT;
	}
	for (i = 0; i < 4; i++, p++) {
		if (*p < '0' || *p > '7') {
			*why = "bad mode";
			return ERR_INVALID_FORMAT;
		}
		r->mode = (r->mode << 3) | (uint32_t)(*p - '0');
	}
	if (*p++ != ' ') {
		*why = "mode not delimited";
		return ERR_INVALID_FORMAT;
	}
	if (get_num(&p, INT64_MAX, &size) != 0) {
		*why = "size out of range";
		return ERR_INVALID_FORMAT;
	}
	if (*p++ != ' ') {
		*why = "size not delimited";
		return ERR_INVALID_FORMAT;
	}
	r->size = size;
	r->name = p;
	return 0;
}

int
scp_name_ok(const char *name, char *const *pats, size_t npats,
    const char **why)
{
	size_t i;

	if (*name == '\0' || strchr(name, '/') != NULL ||
	    strcmp(name, "..") == 0) {
		*why = "unexpected filename";
		return ERR_INVALID_FORMAT;
	}
	if (npats == 0)
		return 0;
	for (i = 0; i < npats; i++)
		if (strcmp(pats[i], name) == 0 ||
		    fnmatch(pats[i], name, 0) == 0)
			return 0;
	*why = "filename does not match request";
	return ERR_INVALID_FORMAT;
}

void
scp_free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x_free(v[i]);
	x_free(v);
}

#define MAX_PATTERNS	1024

static void
push(char ***v, size_t *n, char *s)
{
	*v = x_reallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

/* Expand the first {a,b,...} of s (nesting honoured) into *v; words
 * without braces go in as they are. */
static int
expand(const char *s, char ***v, size_t *n, int depth)
{
	const char *open = NULL, *close = NULL, *p, *start;
	int level = 0, r;

	if (depth > 32 || *n >= MAX_PATTERNS)
		return ERR_INVALID_FORMAT;
	for (p = s; *p != '\0'; p++) {
		if (*p == '\\' && p[1] != '\0') {
			p++;
			continue;
		}
		if (*p == '{' && level++ == 0 && open == NULL)
			open = p;
		else if (*p == '}' && level > 0 && --level == 0 &&
		    open != NULL) {
			close = p;
			break;
		}
	}
	if (open == NULL || close == NULL) {
		push(v, n, x_strdup(s));
		return 0;
	}
	start = open + 1;
	level = 0;
	for (p = start; p <= close; p++) {
		if (*p == '\\' && p < close - 1) {
			p++;
			continue;
		}
		if (*p == '{')
			level++;
		else if (*p == '}' && p != close)
			level--;
		if ((*p == ',' && level == 0) || p == close) {
			char *w = x_asprintf("%.*s%.*s%s", (int)(open - s), s,
			    (int)(p - start), start, close + 1);

			r = expand(w, v, n, depth + 1);
			x_free(w);
			if (r != 0)
				return r;
			start = p + 1;
		}
	}
	return 0;
}

int
scp_patterns(const char *path, char ***pats, size_t *npats)
{
	char *t = x_strdup(*path ? path : "."), *b;
	size_t l = strlen(t);
	int r;

	while (l > 1 && t[l - 1] == '/')
		t[--l] = '\0';
	b = strrchr(t, '/');
	b = b != NULL && b[1] != '\0' ? b + 1 : t;
	*pats = NULL;
	*npats = 0;
	r = expand(b, pats, npats, 0);
	x_free(t);
	if (r != 0) {
		scp_free_strv(*pats, *npats);
		*pats = NULL;
		*npats = 0;
	}
	return r;
}

char *
scp_shell_quote(const char *path)
{
	size_t l = strlen(path), o = 0, i = 0;
	char *out = x_malloc(4 * l + 3);
	int quoted = 0;

	/* ~ or ~user at the start: the remote shell's home expansion. */
	if (path[0] == '~') {
		for (i = 1; path[i] != '\0' && path[i] != '/'; i++)
			if (strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    path[i]) == NULL)
				break;
		if (path[i] == '\0' || path[i] == '/') {
			memcpy(out, path, i);
			o = i;
		} else
			i = 0;
	}
	for (; i < l; i++) {
		char ch = path[i];

		if (strchr("*?[]", ch) != NULL || ch == '\'') {
			if (quoted)
				out[o++] = '\'';
			quoted = 0;
			if (ch == '\'')
				out[o++] = '\\';
			out[o++] = ch;
			continue;
		}
		if (!quoted)
			out[o++] = '\'';
		quoted = 1;
		out[o++] = ch;
	}
	if (quoted)
		out[o++] = '\'';
	if (o == 0) {
		out[o++] = '\'';
		out[o++] = '\'';
	}
	out[o] = '\0';
	return out;
}
