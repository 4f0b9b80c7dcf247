/*
 * edit.c: the interactive prompt's line editor (libedit): history,
 * ~/.editrc, and tab completion.
 *
 * Tab on the first word completes a command's name; on a later word a
 * remote or a local path, as the command's table entry says for that
 * argument (see command_argkind). The word is read as split_words
 * reads it (quotes, backslashes); what is added goes in quoted the way
 * the word is being typed: backslashes outside quotes, so a name with
 * spaces or glob characters comes back as that one name. One match is
 * completed and closed (a space, or nothing after a directory's '/');
 * several are listed and their common start is added.
 *
 * Without libedit (or not on a terminal) the caller reads plain lines.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "mem.h"
#include "sftp.h"

#ifdef HAVE_LIBEDIT
#include <histedit.h>

#define HISTORY_SIZE	100

static EditLine *el;
static History *hist;
static struct sftp_ctx *ctx;

static char *
prompt(EditLine *e)
{
	(void)e;
	return "sftp> ";
}

/* The line up to the cursor as split_words sees it. */
struct cline {
	char first[32];		/* the command */
	int nwords;		/* complete words before the current one */
	int argno;		/* current word's place among non-option args */
	char quote;		/* quote open at the cursor, or 0 */
	char *cur;		/* current word, quotes and escapes removed */
};

static void
scan_line(const char *s, size_t len, struct cline *cl)
{
	size_t i, n = 0;
	int inword = 0, opt = 0;
	char q = 0;

	memset(cl, 0, sizeof(*cl));
	cl->cur = x_malloc(len + 1);
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (q == 0 && (c == ' ' || c == '\t')) {
			if (!inword)
				continue;
			cl->cur[n] = '\0';
			if (cl->nwords == 0)
				snprintf(cl->first, sizeof(cl->first), "%s",
				    cl->cur);
			else if (!opt)
				cl->argno++;
			cl->nwords++;
			inword = 0;
			n = 0;
			continue;
		}
		if (!inword)
			opt = c == '-';
		inword = 1;
		if (q == 0 && (c == '\'' || c == '"'))
			q = c;
		else if (q != 0 && c == q)
			q = 0;
		else if (c == '\\' && q != '\'' && i + 1 < len)
			cl->cur[n++] = s[++i];
		else
			cl->cur[n++] = c;
	}
	cl->cur[n] = '\0';
	cl->quote = q;
	cl->argno++;
}

/* s as it must be typed inside quote q (0: none). */
static char *
quote_text(const char *s, char q)
{
	char *out = x_malloc(2 * strlen(s) + 1), *o = out;
	const char *special = q == '"' ? "\"\\" : q == '\'' ? "" :
	    " \t'\"\\*?[]";

	for (; *s != '\0'; s++) {
		if (strchr(special, *s) != NULL && *special != '\0')
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* The pattern that matches names starting with s (metacharacters in
 * s escaped). */
static char *
prefix_pattern(const char *s)
{
	char *out = x_malloc(2 * strlen(s) + 2), *o = out;

	for (; *s != '\0'; s++) {
		if (strchr("*?[]\\", *s) != NULL)
			*o++ = '\\';
		*o++ = *s;
	}
	*o++ = '*';
	*o = '\0';
	return out;
}

static size_t
common_len(char **v, size_t n)
{
	size_t len = strlen(v[0]), i, k;

	for (i = 1; i < n; i++) {
		for (k = 0; k < len && v[i][k] == v[0][k]; k++)
			;
		len = k;
	}
	return len;
}

/* The last component of a match, with its trailing '/' if any. */
static const char *
last_part(const char *m)
{
	size_t len = strlen(m);
	const char *p;

	if (len > 1 && m[len - 1] == '/')
		len--;
	for (p = m + len; p > m && p[-1] != '/'; p--)
		;
	return p;
}

/* Several matches: their names in columns under the line. */
static void
list_matches(char **v, size_t n, int names_only)
{
	struct winsize ws;
	size_t i, w = 0, cols, width = 80;
	const char *s;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		width = ws.ws_col;
	for (i = 0; i < n; i++) {
		s = names_only ? last_part(v[i]) : v[i];
		if (strlen(s) > w)
			w = strlen(s);
	}
	cols = width / (w + 2);
	if (cols == 0)
		cols = 1;
	printf("\n");
	for (i = 0; i < n; i++) {
		s = names_only ? last_part(v[i]) : v[i];
		printf("%-*s", (int)(w + 2), s);
		if ((i + 1) % cols == 0 || i + 1 == n)
			printf("\n");
	}
	fflush(stdout);
}

/*
 * Complete cl->cur from the candidates v (each the whole word as it
 * would be, unquoted); a directory ends in '/' and stays open.
 */
static unsigned char
complete_from(struct cline *cl, char **v, size_t n, int names_only)
{
	size_t have = strlen(cl->cur), len;
	char *add, *q, close[3];
	int k = 0;

	if (n == 0)
		return CC_ERROR;
	len = common_len(v, n);
	if (len < have)
		len = have;
	add = x_malloc(len - have + 1);
	memcpy(add, v[0] + have, len - have);
	add[len - have] = '\0';
	q = quote_text(add, cl->quote);
	if (*q != '\0' && el_insertstr(el, q) == -1) {
		x_free(q);
		x_free(add);
		return CC_ERROR;
	}
	x_free(q);
	x_free(add);
	if (n > 1) {
		list_matches(v, n, names_only);
		return CC_REDISPLAY;
	}
	if (v[0][strlen(v[0]) - 1] == '/')
		return CC_REFRESH;
	if (cl->quote != 0)
		close[k++] = cl->quote;
	close[k++] = ' ';
	close[k] = '\0';
	el_insertstr(el, close);
	return CC_REFRESH;
}

static unsigned char
complete_command(struct cline *cl)
{
	char **v = NULL;
	const char *name;
	size_t i, n = 0, have = strlen(cl->cur);
	unsigned char r;

	for (i = 0; (name = command_name(i)) != NULL; i++) {
		if (strncmp(name, cl->cur, have) != 0)
			continue;
		v = x_reallocarray(v, n + 1, sizeof(*v));
		v[n++] = x_strdup(name);
	}
	r = complete_from(cl, v, n, 0);
	free_strv(v, n);
	return r;
}

/* Remote matches as typed: the word's directory part and each name. */
static unsigned char
complete_remote(struct cline *cl)
{
	char *pat = prefix_pattern(cl->cur), *abs = rpath_abs(ctx, pat);
	const char *slash = strrchr(cl->cur, '/');
	size_t dirlen = slash != NULL ? (size_t)(slash - cl->cur) + 1 : 0;
	char **m = NULL;
	size_t n = 0, i;
	unsigned char r;

	if (rglob(ctx, abs, 1, 0, &m, &n) != 0)
		n = 0;
	for (i = 0; i < n; i++) {
		char *t = x_asprintf("%.*s%s", (int)dirlen, cl->cur,
		    last_part(m[i]));

		x_free(m[i]);
		m[i] = t;
	}
	r = complete_from(cl, m, n, 1);
	free_strv(m, n);
	x_free(abs);
	x_free(pat);
	return r;
}

static unsigned char
complete_local(struct cline *cl)
{
	char *pat = prefix_pattern(cl->cur);
	glob_t g;
	unsigned char r = CC_ERROR;

	memset(&g, 0, sizeof(g));
	if (glob(pat, GLOB_MARK, NULL, &g) == 0)
		r = complete_from(cl, g.gl_pathv, g.gl_pathc, 1);
	globfree(&g);
	x_free(pat);
	return r;
}

static unsigned char
complete(EditLine *e, int ch)
{
	const LineInfo *li = el_line(e);
	struct cline cl;
	unsigned char r = CC_ERROR;
	int kind;

	(void)ch;
	scan_line(li->buffer, (size_t)(li->cursor - li->buffer), &cl);
	if (li->buffer[strspn(li->buffer, " \t")] == '!')
		;	/* a shell command: nothing of ours */
	else if (cl.nwords == 0)
		r = complete_command(&cl);
	else if ((kind = command_argkind(cl.first, cl.argno)) == 'r')
		r = complete_remote(&cl);
	else if (kind == 'l')
		r = complete_local(&cl);
	x_free(cl.cur);
	return r;
}

int
edit_start(struct sftp_ctx *x, FILE *out, FILE *err)
{
	HistEvent ev;

	ctx = x;
	if ((el = el_init("sftp", stdin, out, err)) == NULL)
		return -1;
	if ((hist = history_init()) == NULL) {
		el_end(el);
		el = NULL;
		return -1;
	}
	history(hist, &ev, H_SETSIZE, HISTORY_SIZE);
	el_set(el, EL_HIST, history, hist);
	el_set(el, EL_PROMPT, prompt);
	el_set(el, EL_EDITOR, "emacs");
	el_set(el, EL_TERMINAL, NULL);
	el_set(el, EL_SIGNAL, 1);
	/*
	 * The name OpenSSH's sftp gives it, so an ~/.editrc binds it.
	 * Given wide: the narrow el_set copies both strings and never
	 * frees the copies.
	 */
	el_wset(el, EL_ADDFN, L"ftp-complete",
	    L"Context sensitive argument completion", complete);
	el_set(el, EL_BIND, "^I", "ftp-complete", NULL);
	el_source(el, NULL);
	return 0;
}

char *
edit_read(void)
{
	const char *s;
	HistEvent ev;
	int len;
	char *line;

	if ((s = el_gets(el, &len)) == NULL || len <= 0)
		return NULL;
	line = x_malloc((size_t)len + 1);
	memcpy(line, s, (size_t)len);
	line[len] = '\0';
	line[strcspn(line, "\r\n")] = '\0';
	if (line[strspn(line, " \t")] != '\0')
		history(hist, &ev, H_ENTER, line);
	return line;
}

void
edit_end(void)
{
	if (el != NULL)
		el_end(el);
	if (hist != NULL)
		history_end(hist);
	el = NULL;
	hist = NULL;
}

#else

int
edit_start(struct sftp_ctx *x, FILE *out, FILE *err)
{
	(void)x;
	(void)out;
	(void)err;
	return -1;
}

char *
edit_read(void)
{
	return NULL;
}

void
edit_end(void)
{
}

#endif
