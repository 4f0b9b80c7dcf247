/*
 * cmd_ls.c: remote globbing and the listing commands (ls, lls, df).
 *
 * A remote glob walks the pattern a component at a time: a component
 * with metacharacters is matched (fnmatch, a leading dot only
 * explicitly) against the listing of each directory found so far, one
 * without is taken as it is and checked at the end. ls prints as
 * OpenSSH's sftp does: a directory's entries sorted by name (or size,
 * time, none) in columns as wide as the longest name allows, or long
 * lines with the link count shown as "?"; the owner and group names
 * come from users-groups-by-id@openssh.com when the server has it, and
 * otherwise the line is the server's own longname, as OpenSSH's shows.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp.h"

#define MAX_GLOB	100000	/* matches of one pattern */

void
free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x_free(v[i]);
	x_free(v);
}

int
has_glob(const char *pat)
{
	for (; *pat != '\0'; pat++) {
		if (*pat == '\\' && pat[1] != '\0')
			pat++;
		else if (strchr("*?[", *pat) != NULL)
			return 1;
	}
	return 0;
}

char *
unescape(const char *pat)
{
	char *out = x_malloc(strlen(pat) + 1), *o = out;

	for (; *pat != '\0'; pat++) {
		if (*pat == '\\' && pat[1] != '\0')
			pat++;
		*o++ = *pat;
	}
	*o = '\0';
	return out;
}

static void
push(char ***v, size_t *n, char *s)
{
	*v = x_reallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Matches of one component under every prefix in cur, into next. */
static int
glob_step(struct sftp_ctx *x, char **cur, size_t ncur, const char *comp,
    int last, char ***next, size_t *nnext)
{
	struct sftp_name *e;
	size_t i, j, ne;
	char *lit;
	int r;

	for (i = 0; i < ncur; i++) {
		const char *sep = strcmp(cur[i], "/") == 0 ? "" : "/";

		if (!has_glob(comp)) {
			lit = unescape(comp);
			push(next, nnext, x_asprintf("%s%s%s", cur[i], sep,
			    lit));
			x_free(lit);
			continue;
		}
		if ((r = sftp_client_ls(x->c, cur[i], &e, &ne)) < 0)
			conn_lost(r);
		if (r > 0)
			continue;
		for (j = 0; j < ne && *nnext < MAX_GLOB; j++) {
			if (strcmp(e[j].filename, ".") == 0 ||
			    strcmp(e[j].filename, "..") == 0 ||
			    strchr(e[j].filename, '/') != NULL)
				continue;
			if (fnmatch(comp, e[j].filename, FNM_PERIOD) != 0)
				continue;
			/* A directory is needed for what follows. */
			if (!last && (!(e[j].a.flags &
			    SSH2_FILEXFER_ATTR_PERMISSIONS) ||
			    (!S_ISDIR(e[j].a.perm) && !S_ISLNK(e[j].a.perm))))
				continue;
			push(next, nnext, x_asprintf("%s%s%s", cur[i], sep,
			    e[j].filename));
		}
		sftp_names_free(e, ne);
	}
	return 0;
}

int
rglob(struct sftp_ctx *x, const char *pat, int mark, int nocheck,
    char ***outp, size_t *np)
{
	char **cur = NULL, **next, *copy, *comp, *save = NULL;
	size_t ncur = 0, nnext, i, keep = 0;
	struct sftp_attrs a;
	int r;

	*outp = NULL;
	*np = 0;
	push(&cur, &ncur, x_strdup("/"));
	copy = x_strdup(pat);
	for (comp = strtok_r(copy, "/", &save); comp != NULL;
	    comp = strtok_r(NULL, "/", &save)) {
		char *rest = save;

		next = NULL;
		nnext = 0;
		glob_step(x, cur, ncur, comp, rest == NULL ||
		    rest[strspn(rest, "/")] == '\0', &next, &nnext);
		free_strv(cur, ncur);
		cur = next;
		ncur = nnext;
	}
	x_free(copy);
	/* Keep what exists (a literal component may name nothing); a
	 * link is followed only to see whether it leads to a directory. */
	for (i = 0; i < ncur; i++) {
		if ((r = sftp_client_stat(x->c, cur[i], 0, &a)) < 0)
			conn_lost(r);
		if (r != 0) {
			log_debug("stat remote: %s", sftp_client_errmsg(r));
			x_free(cur[i]);
			continue;
		}
		if (mark && (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) &&
		    S_ISLNK(a.perm) &&
		    (r = sftp_client_stat(x->c, cur[i], 1, &a)) < 0)
			conn_lost(r);
		if (mark && (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) &&
		    S_ISDIR(a.perm) && strcmp(cur[i], "/") != 0) {
			char *m = x_asprintf("%s/", cur[i]);

			x_free(cur[i]);
			cur[i] = m;
		}
		cur[keep++] = cur[i];
	}
	ncur = keep;
	if (ncur == 0 && nocheck)
		push(&cur, &ncur, unescape(pat));
	if (ncur > 1)
		qsort(cur, ncur, sizeof(*cur), cmp_str);
	*outp = cur;
	*np = ncur;
	return 0;
}

/* Sizes as OpenSSH's -h shows them: three digits and a unit. */
static void
fmt_scaled(unsigned long long v, char out[16])
{
	static const char units[] = "BKMGTPE";
	double d = (double)v;
	size_t u = 0;

	while (d >= 1024 && u + 1 < sizeof(units) - 1) {
		d /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(out, 16, "%lluB", v);
	else if (d < 99.95)
		snprintf(out, 16, "%.1f%c", d, units[u]);
	else
		snprintf(out, 16, "%.0f%c", d, units[u]);
}

static void
mode_str(uint32_t m, char out[11])
{
	const char *rwx = "rwxrwxrwx";
	int i;

	out[0] = S_ISDIR(m) ? 'd' : S_ISLNK(m) ? 'l' : S_ISCHR(m) ? 'c' :
	    S_ISBLK(m) ? 'b' : S_ISFIFO(m) ? 'p' : S_ISSOCK(m) ? 's' :
	    S_ISREG(m) ? '-' : '?';
	for (i = 0; i < 9; i++)
		out[i + 1] = (m & (0400 >> i)) ? rwx[i] : '-';
	if (m & S_ISUID)
		out[3] = (m & 0100) ? 's' : 'S';
	if (m & S_ISGID)
		out[6] = (m & 0010) ? 's' : 'S';
	if (m & S_ISVTX)
		out[9] = (m & 0001) ? 't' : 'T';
	out[10] = '\0';
}

struct entry {
	char *show;		/* name as printed */
	size_t width;		/* its length for the columns */
	struct sftp_attrs a;
	char *longname;		/* the server's, when names are unknown */
	char *user, *group;
	size_t idx;
};

static void
print_long(const struct entry *e, int si)
{
	char mode[11], tbuf[32], ubuf[16], gbuf[16], sz[24];
	const char *u = e->user, *g = e->group;
	time_t now = time(NULL), mt = e->a.mtime;
	const time_t half_year = 365 * 24 * 60 * 60 / 2;
	struct tm tm;

	mode_str(e->a.perm, mode);
	if (u == NULL) {
		snprintf(ubuf, sizeof(ubuf), "%u", e->a.uid);
		u = ubuf;
	}
	if (g == NULL) {
		snprintf(gbuf, sizeof(gbuf), "%u", e->a.gid);
		g = gbuf;
	}
	if (localtime_r(&mt, &tm) == NULL)
		strcpy(tbuf, "????????????");
	else if (mt > now - half_year && mt < now + half_year)
		strftime(tbuf, sizeof(tbuf), "%b %e %H:%M", &tm);
	else
		strftime(tbuf, sizeof(tbuf), "%b %e  %Y", &tm);
	if (si)
		fmt_scaled(e->a.size, sz);
	else
		snprintf(sz, sizeof(sz), "%llu", (unsigned long long)e->a.size);
	printf("%s    ? %-8s %-8s %8s %s %s\n", mode, u, g, sz, tbuf, e->show);
}

/* Owner and group names for the entries, when the server tells them. */
static void
lookup_names(struct sftp_ctx *x, struct entry *e, size_t n)
{
	uint32_t *uids, *gids;
	char **un, **gn;
	size_t i, cnt;
	int r;

	if (!sftp_client_has(x->c, SFTP_EXT_USERS_GROUPS) || n == 0)
		return;
	for (i = 0; i < n; i += cnt) {
		size_t j;

		cnt = n - i > SFTP_MAX_IDS ? SFTP_MAX_IDS : n - i;
		uids = x_calloc(cnt, sizeof(*uids));
		gids = x_calloc(cnt, sizeof(*gids));
		un = x_calloc(cnt, sizeof(*un));
		gn = x_calloc(cnt, sizeof(*gn));
		for (j = 0; j < cnt; j++) {
			uids[j] = e[i + j].a.uid;
			gids[j] = e[i + j].a.gid;
		}
		r = sftp_client_users_groups(x->c, uids, cnt, gids, cnt, un,
		    gn);
		if (r < 0)
			conn_lost(r);
		for (j = 0; j < cnt; j++) {
			e[i + j].user = un[j];
			e[i + j].group = gn[j];
		}
		x_free(uids);
		x_free(gids);
		x_free(un);
		x_free(gn);
	}
}

static const struct sftp_ctx *sort_ctx;

static int
cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int r = 0;

	if (has_flag(sort_ctx, 'S')) {
		if (a->a.size != b->a.size)
			r = a->a.size > b->a.size ? -1 : 1;
	} else if (has_flag(sort_ctx, 't')) {
		if (a->a.mtime != b->a.mtime)
			r = a->a.mtime > b->a.mtime ? -1 : 1;
	} else
		r = strcmp(a->show, b->show);
	if (r == 0)
		r = a->idx < b->idx ? -1 : a->idx > b->idx;
	return has_flag(sort_ctx, 'r') ? -r : r;
}

static void
print_entries(struct sftp_ctx *x, struct entry *e, size_t n)
{
	struct winsize ws;
	size_t i, maxw = 0, width = 80, cols, colspace;
	int lng = has_flag(x, 'l') || has_flag(x, 'n');

	if (n > 1 && (!has_flag(x, 'f') || has_flag(x, 'S') ||
	    has_flag(x, 't'))) {
		sort_ctx = x;
		qsort(e, n, sizeof(*e), cmp_entry);
	}
	if (lng) {
		lookup_names(x, e, n);
		for (i = 0; i < n; i++) {
			/* A server without users-groups-by-id: its own
			 * `ls -l` line, which has the names. */
			if (e[i].longname != NULL && !has_flag(x, 'n') &&
			    !has_flag(x, 'h') &&
			    !sftp_client_has(x->c, SFTP_EXT_USERS_GROUPS)) {
				printf("%s\n", e[i].longname);
				continue;
			}
			print_long(&e[i], has_flag(x, 'h'));
		}
		return;
	}
	if (has_flag(x, '1')) {
		for (i = 0; i < n; i++)
			printf("%s\n", e[i].show);
		return;
	}
	if (ioctl(fileno(stdin), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		width = ws.ws_col;
	for (i = 0; i < n; i++)
		if (e[i].width > maxw)
			maxw = e[i].width;
	colspace = maxw + 2 < width ? maxw + 2 : width;
	cols = width / colspace ? width / colspace : 1;
	colspace = width / cols;
	for (i = 0; i < n; i++) {
		printf("%-*s", (int)colspace, e[i].show);
		if ((i + 1) % cols == 0)
			printf("\n");
	}
	if (n % cols != 0)
		printf("\n");
}

static void
free_entries(struct entry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		x_free(e[i].show);
		x_free(e[i].longname);
		x_free(e[i].user);
		x_free(e[i].group);
	}
	x_free(e);
}

/* The entries of directory abs, shown under prefix ("" for none). */
static int
ls_dir(struct sftp_ctx *x, const char *abs, const char *prefix)
{
	struct sftp_name *names;
	struct entry *e;
	size_t n, i, k = 0;
	int r;

	if ((r = sftp_client_ls(x->c, abs, &names, &n)) < 0)
		conn_lost(r);
	if (r > 0) {
		fprintf(stderr, "Couldn't read directory: %s\r\n",
		    sftp_client_errmsg(r));
		return -1;
	}
	e = x_calloc(n ? n : 1, sizeof(*e));
	for (i = 0; i < n; i++) {
		const char *f = names[i].filename;

		if (f[0] == '.' && !has_flag(x, 'a'))
			continue;
		e[k].show = x_asprintf("%s%s", prefix, f);
		e[k].longname = x_strdup(names[i].longname);
		e[k].width = strlen(e[k].show);
		e[k].a = names[i].a;
		e[k].idx = k;
		k++;
	}
	print_entries(x, e, k);
	free_entries(e, k);
	sftp_names_free(names, n);
	return 0;
}

/* What a match is shown as: relative to the working directory when
 * the pattern was. */
static char *
strip_cwd(const struct sftp_ctx *x, const char *path, int relative)
{
	size_t l = strlen(x->rcwd);

	if (relative && strncmp(path, x->rcwd, l) == 0) {
		if (strcmp(x->rcwd, "/") == 0)
			return x_strdup(path + 1);
		if (path[l] == '/')
			return x_strdup(path + l + 1);
	}
	return x_strdup(path);
}

static int
ls_glob(struct sftp_ctx *x, const char *abs, const char *typed)
{
	struct entry *e;
	char **m, *un;
	size_t n, i;
	int r, rel = typed[0] != '/';

	rglob(x, abs, 1, 0, &m, &n);
	if (n == 0) {
		un = unescape(abs);
		fprintf(stderr, "Can't ls: \"%s\" not found\r\n", un);
		x_free(un);
		free_strv(m, n);
		return -1;
	}
	if (n == 1 && m[0][strlen(m[0]) - 1] == '/' && has_glob(typed)) {
		char *show = strip_cwd(x, m[0], rel);

		r = ls_dir(x, m[0], show);
		x_free(show);
		free_strv(m, n);
		return r;
	}
	e = x_calloc(n, sizeof(*e));
	for (i = 0; i < n; i++) {
		e[i].show = strip_cwd(x, m[i], rel);
		e[i].width = strlen(m[i]);
		e[i].idx = i;
		if (has_flag(x, 'l') || has_flag(x, 'n')) {
			r = sftp_client_stat(x->c, m[i], 0, &e[i].a);
			if (r < 0)
				conn_lost(r);
		}
	}
	print_entries(x, e, n);
	free_entries(e, n);
	free_strv(m, n);
	return 0;
}

int
cmd_ls(struct sftp_ctx *x, int argc, struct word *w)
{
	char *abs, *prefix;
	int r;

	if (argc < 2)
		return ls_dir(x, x->rcwd, "");
	abs = rpath_abs(x, w[1].pat);
	if (!has_glob(w[1].pat)) {
		char *un = unescape(abs);

		if (rpath_is_dir(x, un)) {
			size_t l = strlen(w[1].text);

			prefix = x_asprintf("%s%s", w[1].text,
			    l > 0 && w[1].text[l - 1] == '/' ? "" : "/");
			r = ls_dir(x, un, prefix);
			x_free(prefix);
			x_free(un);
			x_free(abs);
			return r;
		}
		x_free(un);
	}
	r = ls_glob(x, abs, w[1].pat);
	x_free(abs);
	return r;
}

int
cmd_lls(struct sftp_ctx *x, int argc, struct word *w)
{
	char *cmd = x_asprintf("ls%s", x->rest ? x->rest : "");
	int r = shell_escape(cmd);

	x_free(cmd);
	return r;
}

int
cmd_df(struct sftp_ctx *x, int argc, struct word *w)
{
	struct sftp_statvfs st;
	char *abs = argc > 1 ? rpath_abs(x, w[1].text) : x_strdup(x->rcwd);
	unsigned long long f, total, root, avail;
	char a[16], b[16], c[16], d[16];
	int r;

	r = sftp_client_statvfs(x->c, abs, &st);
	x_free(abs);
	if (r < 0)
		conn_lost(r);
	if (r > 0)	/* OpenSSH's says nothing here either */
		return -1;
	if (has_flag(x, 'i')) {
		printf("%11s %11s %11s %11s %12s\n", "Inodes", "Used", "Avail",
		    "(root)", "%Capacity");
		printf("%11llu %11llu %11llu %11llu %11llu%%\n",
		    (unsigned long long)st.files,
		    (unsigned long long)(st.files - st.ffree),
		    (unsigned long long)st.favail,
		    (unsigned long long)st.ffree, st.files ?
		    (unsigned long long)(100 * (st.files - st.ffree) /
		    st.files) : 0);
		return 0;
	}
	f = st.frsize ? st.frsize : st.bsize;
	total = st.blocks * f;
	root = st.bfree * f;
	avail = st.bavail * f;
	if (has_flag(x, 'h')) {
		fmt_scaled(total, a);
		fmt_scaled(total - root, b);
		fmt_scaled(avail, c);
		fmt_scaled(root, d);
		printf("%8s %8s %8s %8s %12s\n", "Size", "Used", "Avail",
		    "(root)", "%Capacity");
		printf("%7sB %7sB %7sB %7sB %11llu%%\n", a, b, c, d,
		    st.blocks ? (unsigned long long)(100 * (st.blocks -
		    st.bfree) / st.blocks) : 0);
		return 0;
	}
	printf("%12s %12s %12s %12s %12s\n", "Size", "Used", "Avail",
	    "(root)", "%Capacity");
	printf("%12llu %12llu %12llu %12llu %11llu%%\n", total / 1024,
	    (total - root) / 1024, avail / 1024, root / 1024, st.blocks ?
	    (unsigned long long)(100 * (st.blocks - st.bfree) / st.blocks) :
	    0);
	return 0;
}
