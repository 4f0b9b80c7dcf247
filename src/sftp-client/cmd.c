/*
 * cmd.c: sftp's command lines: words, the command table, and the
 * commands that are one request each (cd, mkdir, rm, rename, ln,
 * chmod...).
 *
 * A line is split into words as a shell would for quotes and
 * backslashes; each word is kept as typed-without-quotes (for names)
 * and as a glob pattern in which quoted metacharacters stay escaped.
 * Messages are worded as OpenSSH's sftp words them; a usage error is
 * reported before the command is echoed in batch mode, as there.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp.h"

#define GLOB_META	"*?[]\\"

void
free_words(struct word *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		x_free(w[i].text);
		x_free(w[i].pat);
	}
	x_free(w);
}

/* Append c to the word's two forms; quoted: metacharacters escaped. */
static void
add_char(char *text, size_t *tl, char *pat, size_t *pl, char c, int quoted)
{
	text[(*tl)++] = c;
	if (quoted && strchr(GLOB_META, c) != NULL)
		pat[(*pl)++] = '\\';
	pat[(*pl)++] = c;
}

int
split_words(const char *line, struct word **wp, size_t *np)
{
	size_t len = strlen(line), tl, pl, n = 0;
	struct word *w = NULL;
	const char *p = line;
	char q, *text, *pat;

	*wp = NULL;
	*np = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (*p == '\0')
			break;
		text = x_malloc(len + 1);
		pat = x_malloc(2 * len + 1);
		tl = pl = 0;
		q = 0;
		for (; *p != '\0'; p++) {
			if (q == 0 && strchr(" \t\r\n", *p) != NULL)
				break;
			if (q == 0 && (*p == '\'' || *p == '"')) {
				q = *p;
			} else if (q != 0 && *p == q) {
				q = 0;
			} else if (*p == '\\' && q != '\'') {
				if (p[1] == '\0') {
					p++;	/* a trailing one: dropped */
					break;
				}
				p++;
				add_char(text, &tl, pat, &pl, *p, 1);
			} else
				add_char(text, &tl, pat, &pl, *p, q != 0);
		}
		text[tl] = pat[pl] = '\0';
		w = x_reallocarray(w, n + 1, sizeof(*w));
		w[n].text = text;
		w[n++].pat = pat;
		if (q != 0) {
			fprintf(stderr, "Unterminated quoted argument\r\n");
			free_words(w, n);
			return -1;
		}
	}
	*wp = w;
	*np = n;
	return 0;
}

void
conn_lost(int r)
{
	fprintf(stderr, "Connection closed\r\n");
	exit(255);
}

char *
rpath_abs(const struct sftp_ctx *x, const char *path)
{
	if (path[0] == '/')
		return x_strdup(path);
	if (strcmp(x->rcwd, "/") == 0)
		return x_asprintf("/%s", path);
	return x_asprintf("%s/%s", x->rcwd, path);
}

int
rpath_is_dir(struct sftp_ctx *x, const char *path)
{
	struct sftp_attrs a;
	int r;

	if ((r = sftp_client_stat(x->c, path, 1, &a)) < 0)
		conn_lost(r);
	if (r > 0)
		log_debug("stat remote: %s", sftp_client_errmsg(r));
	return r == 0 && (a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) &&
	    S_ISDIR(a.perm);
}

/* Report a server refusal (r > 0): fmt's text, ": ", the status. A
 * lost connection (r < 0) ends the program. */
static int remote_err(int r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
remote_err(int r, const char *fmt, ...)
{
	va_list ap;

	if (r < 0)
		conn_lost(r);
	if (r == 0)
		return 0;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\r\n", sftp_client_errmsg(r));
	return -1;
}

static int
cmd_cd(struct sftp_ctx *x, int argc, struct word *w)
{
	struct sftp_attrs a;
	char *abs, *real = NULL;
	int r;

	if (argc < 2)
		abs = x_strdup(x->rcwd);	/* replaced below */
	else
		abs = rpath_abs(x, w[1].text);
	if (argc < 2) {
		x_free(abs);
		r = sftp_client_realpath(x->c, ".", &real);
		if (r < 0)
			conn_lost(r);
		if (r > 0)
			return -1;
		x_free(x->rcwd);
		x->rcwd = real;
		return 0;
	}
	r = sftp_client_realpath(x->c, abs, &real);
	if (r == 0)
		r = sftp_client_stat(x->c, real, 1, &a);
	if (r != 0) {
		x_free(real);
		x_free(abs);
		return remote_err(r, "stat remote");
	}
	if (!(a.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) || !S_ISDIR(a.perm)) {
		fprintf(stderr, "Can't change directory: \"%s\" is not a "
		    "directory\r\n", real);
		x_free(real);
		x_free(abs);
		return -1;
	}
	x_free(abs);
	x_free(x->rcwd);
	x->rcwd = real;
	return 0;
}

static int
cmd_lcd(struct sftp_ctx *x, int argc, struct word *w)
{
	const char *dir = argc < 2 ? getenv("HOME") : w[1].text;

	if (dir == NULL)
		dir = "/";
	if (chdir(dir) == -1) {
		fprintf(stderr, "Couldn't change local directory to \"%s\": "
		    "%s\r\n", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int
cmd_pwd(struct sftp_ctx *x, int argc, struct word *w)
{
	printf("Remote working directory: %s\n", x->rcwd);
	return 0;
}

static int
cmd_lpwd(struct sftp_ctx *x, int argc, struct word *w)
{
	char *cwd = getcwd(NULL, 0);

	if (cwd == NULL) {
		fprintf(stderr, "Couldn't get local cwd: %s\r\n",
		    strerror(errno));
		return -1;
	}
	printf("Local working directory: %s\n", cwd);
	free(cwd);
	return 0;
}

static int
cmd_mkdir(struct sftp_ctx *x, int argc, struct word *w)
{
	struct sftp_attrs a;
	char *abs = rpath_abs(x, w[1].text);
	int r;

	sftp_attrs_clear(&a);
	a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
	a.perm = 0777;
	r = sftp_client_mkdir(x->c, abs, &a);
	r = remote_err(r, "remote mkdir \"%s\"", abs);
	x_free(abs);
	return r;
}

static int
cmd_lmkdir(struct sftp_ctx *x, int argc, struct word *w)
{
	if (mkdir(w[1].text, 0777) == -1) {
		fprintf(stderr, "Couldn't create local directory \"%s\": "
		    "%s\r\n", w[1].text, strerror(errno));
		return -1;
	}
	return 0;
}

static int
cmd_rmdir(struct sftp_ctx *x, int argc, struct word *w)
{
	char *abs = rpath_abs(x, w[1].text);
	int r;

	r = sftp_client_rmdir(x->c, abs);
	r = remote_err(r, "remote rmdir \"%s\"", abs);
	x_free(abs);
	return r;
}

/* Run fn on every match of the word (a non-matching pattern itself). */
static int
for_each_match(struct sftp_ctx *x, const struct word *w,
    int (*fn)(struct sftp_ctx *, const char *, void *), void *arg)
{
	char *abs = rpath_abs(x, w->pat), **m;
	size_t n, i;
	int r = 0;

	if (rglob(x, abs, 0, 1, &m, &n) != 0) {
		x_free(abs);
		return -1;
	}
	for (i = 0; i < n && r == 0; i++)
		r = fn(x, m[i], arg);
	free_strv(m, n);
	x_free(abs);
	return r;
}

static int
rm_one(struct sftp_ctx *x, const char *path, void *arg)
{
	if (!x->quiet)
		printf("Removing %s\n", path);
	return remote_err(sftp_client_remove(x->c, path),
	    "remote delete %s", path);
}

static int
cmd_rm(struct sftp_ctx *x, int argc, struct word *w)
{
	return for_each_match(x, &w[1], rm_one, NULL);
}

static int
cmd_rename(struct sftp_ctx *x, int argc, struct word *w)
{
	char *a = rpath_abs(x, w[1].text), *b = rpath_abs(x, w[2].text);
	int r;

	/* -l: the plain RENAME, which refuses an existing target. */
	r = sftp_client_rename(x->c, a, b, !has_flag(x, 'l'));
	r = remote_err(r, "remote rename \"%s\" to \"%s\"", a, b);
	x_free(a);
	x_free(b);
	return r;
}

static int
do_symlink(struct sftp_ctx *x, const char *target, const char *link)
{
	char *b = rpath_abs(x, link);
	int r;

	r = sftp_client_symlink(x->c, target, b);
	r = remote_err(r, "remote symlink file \"%s\" to \"%s\"",
	    target, b);
	x_free(b);
	return r;
}

static int
cmd_symlink(struct sftp_ctx *x, int argc, struct word *w)
{
	return do_symlink(x, w[1].text, w[2].text);
}

static int
cmd_ln(struct sftp_ctx *x, int argc, struct word *w)
{
	char *a, *b;
	int r;

	if (has_flag(x, 's'))
		return do_symlink(x, w[1].text, w[2].text);
	a = rpath_abs(x, w[1].text);
	b = rpath_abs(x, w[2].text);
	r = sftp_client_hardlink(x->c, a, b);
	r = remote_err(r, "remote link \"%s\" to \"%s\"", a, b);
	x_free(a);
	x_free(b);
	return r;
}

/* cp/copy: the server copies with copy-data, the bytes never come here. */
static int
cmd_cp(struct sftp_ctx *x, int argc, struct word *w)
{
	char *a = rpath_abs(x, w[1].text), *b = rpath_abs(x, w[2].text);
	struct sftp_handle *rh = NULL, *wh = NULL;
	struct sftp_attrs at;
	int r, ret = -1;

	if (!sftp_client_has(x->c, SFTP_EXT_COPY_DATA)) {
		fprintf(stderr, "Server does not support copy-data "
		    "extension\r\n");
		goto out;
	}
	if ((r = sftp_client_stat(x->c, a, 1, &at)) != 0) {
		remote_err(r, "stat remote");
		goto out;
	}
	if (!(at.flags & SSH2_FILEXFER_ATTR_PERMISSIONS) ||
	    !S_ISREG(at.perm)) {
		fprintf(stderr, "Cannot copy non-regular file: %s\r\n", a);
		goto out;
	}
	at.flags &= SSH2_FILEXFER_ATTR_PERMISSIONS;
	at.perm &= 0777;
	if ((r = sftp_client_open(x->c, a, SSH2_FXF_READ, NULL, &rh)) != 0) {
		remote_err(r, "remote open(\"%s\")", a);
		goto out;
	}
	if ((r = sftp_client_open(x->c, b, SSH2_FXF_WRITE | SSH2_FXF_CREAT |
	    SSH2_FXF_TRUNC, &at, &wh)) != 0) {
		remote_err(r, "remote open(\"%s\")", b);
		goto out;
	}
	r = sftp_client_copy_data(x->c, rh, 0, 0, wh, 0);
	ret = remote_err(r, "remote copy \"%s\" to \"%s\"", a, b);
out:
	if (rh != NULL && (r = sftp_client_close(x->c, rh)) < 0)
		conn_lost(r);
	if (wh != NULL && (r = sftp_client_close(x->c, wh)) != 0) {
		if (ret == 0)
			ret = remote_err(r, "remote close \"%s\"", b);
	}
	x_free(a);
	x_free(b);
	return ret;
}

struct chattr {
	int what;		/* 'm' mode, 'u' owner, 'g' group */
	unsigned long v;
};

static int
chattr_one(struct sftp_ctx *x, const char *path, void *arg)
{
	const struct chattr *ca = arg;
	struct sftp_attrs a;
	int r;

	sftp_attrs_clear(&a);
	if (ca->what == 'm') {
		if (!x->quiet)
			printf("Changing mode on %s\n", path);
		a.flags = SSH2_FILEXFER_ATTR_PERMISSIONS;
		a.perm = (uint32_t)ca->v;
	} else {
		if ((r = sftp_client_stat(x->c, path,
		    !has_flag(x, 'h'), &a)) != 0)
			return remote_err(r, "stat %s", path);
		if (!(a.flags & SSH2_FILEXFER_ATTR_UIDGID)) {
			fprintf(stderr, "Can't get current ownership of "
			    "remote file \"%s\"\r\n", path);
			return -1;
		}
		if (!x->quiet)
			printf("Changing %s on %s\n", ca->what == 'u' ?
			    "owner" : "group", path);
		if (ca->what == 'u')
			a.uid = (uint32_t)ca->v;
		else
			a.gid = (uint32_t)ca->v;
		a.flags = SSH2_FILEXFER_ATTR_UIDGID;
	}
	/* -h: the link itself, when the server can. */
	if (has_flag(x, 'h') && sftp_client_has(x->c, SFTP_EXT_LSETSTAT))
		return remote_err(sftp_client_lsetstat(x->c, path, &a),
		    "remote lsetstat \"%s\"", path);
	return remote_err(sftp_client_setstat(x->c, path, &a),
	    "remote setstat \"%s\"", path);
}

/* chmod/chown/chgrp: the number is checked before the echo. */
static int
parse_num(const char *cmd, const char *s, int base, unsigned long max,
    unsigned long *vp)
{
	char *end;

	errno = 0;
	*vp = strtoul(s, &end, base);
	if (*s == '\0' || *end != '\0' || errno != 0 || *vp > max ||
	    *s == '-') {
		fprintf(stderr, "You must supply a numeric argument to the %s "
		    "command.\r\n", cmd);
		return -1;
	}
	return 0;
}

static int
cmd_chattr(struct sftp_ctx *x, int argc, struct word *w)
{
	struct chattr ca;

	ca.what = w[0].text[2] == 'm' ? 'm' : w[0].text[2] == 'o' ? 'u' : 'g';
	ca.v = x->num;
	return for_each_match(x, &w[2], chattr_one, &ca);
}

static int
cmd_version(struct sftp_ctx *x, int argc, struct word *w)
{
	printf("SFTP protocol version %u\n", sftp_client_version(x->c));
	return 0;
}

static int
cmd_lumask(struct sftp_ctx *x, int argc, struct word *w)
{
	umask((mode_t)(x->num & 0777));
	printf("Local umask: %03lo\n", x->num & 0777);
	return 0;
}

static int
cmd_progress(struct sftp_ctx *x, int argc, struct word *w)
{
	x->progress = !x->progress;
	printf("Progress meter %s\n", x->progress ? "enabled" : "disabled");
	return 0;
}

static const char help_text[] =
"Available commands:\n"
"bye                                Quit sftp\n"
"cd path                            Change remote directory to 'path'\n"
"chgrp [-h] grp path                Change group of file 'path' to 'grp'\n"
"chmod [-h] mode path               Change permissions of file 'path' to 'mode'\n"
"chown [-h] own path                Change owner of file 'path' to 'own'\n"
"copy oldpath newpath               Copy remote file\n"
"cp oldpath newpath                 Copy remote file\n"
"df [-hi] [path]                    Display statistics for current directory or\n"
"                                   filesystem containing 'path'\n"
"exit                               Quit sftp\n"
"get [-afpR] remote [local]         Download file\n"
"help                               Display this help text\n"
"lcd path                           Change local directory to 'path'\n"
"lls [ls-options [path]]            Display local directory listing\n"
"lmkdir path                        Create local directory\n"
"ln [-s] oldpath newpath            Link remote file (-s for symlink)\n"
"lpwd                               Print local working directory\n"
"ls [-1afhlnrSt] [path]             Display remote directory listing\n"
"lumask umask                       Set local umask to 'umask'\n"
"mkdir path                         Create remote directory\n"
"progress                           Toggle display of progress meter\n"
"put [-afpR] local [remote]         Upload file\n"
"pwd                                Display remote working directory\n"
"quit                               Quit sftp\n"
"reget [-fpR] remote [local]        Resume download file\n"
"rename oldpath newpath             Rename remote file\n"
"reput [-fpR] local [remote]        Resume upload file\n"
"rm path                            Delete remote file\n"
"rmdir path                         Remove remote directory\n"
"symlink oldpath newpath            Symlink remote file\n"
"version                            Show SFTP version\n"
"!command                           Execute 'command' in local shell\n"
"!                                  Escape to local shell\n"
"?                                  Synonym for help\n";

static int
cmd_help(struct sftp_ctx *x, int argc, struct word *w)
{
	fputs(help_text, stdout);
	return 0;
}

static int
cmd_get_(struct sftp_ctx *x, int argc, struct word *w)
{
	return cmd_get(x, argc, w, 0);
}

static int
cmd_reget(struct sftp_ctx *x, int argc, struct word *w)
{
	return cmd_get(x, argc, w, 1);
}

static int
cmd_put_(struct sftp_ctx *x, int argc, struct word *w)
{
	return cmd_put(x, argc, w, 0);
}

static int
cmd_reput(struct sftp_ctx *x, int argc, struct word *w)
{
	return cmd_put(x, argc, w, 1);
}

static const struct command {
	const char *name;
	int (*fn)(struct sftp_ctx *, int, struct word *);
	const char *flags;	/* option letters it takes */
	int nargs;		/* words needed after the options */
	const char *need;	/* message when they are missing */
	int numeric;		/* base of a first argument that is a number */
	const char *comp;	/* per argument: 'r' remote path, 'l' local
				 * (the last goes on for the rest) */
} commands[] = {
	{ "bye", NULL, "", 0, NULL, 0, "" },
	{ "exit", NULL, "", 0, NULL, 0, "" },
	{ "quit", NULL, "", 0, NULL, 0, "" },
	{ "cd", cmd_cd, "", 0, NULL, 0, "r" },
	{ "chdir", cmd_cd, "", 0, NULL, 0, "r" },
	{ "lcd", cmd_lcd, "", 0, NULL, 0, "l" },
	{ "lchdir", cmd_lcd, "", 0, NULL, 0, "l" },
	{ "pwd", cmd_pwd, "", 0, NULL, 0, "" },
	{ "lpwd", cmd_lpwd, "", 0, NULL, 0, "" },
	{ "ls", cmd_ls, "1afhlnrSt", 0, NULL, 0, "r" },
	{ "dir", cmd_ls, "1afhlnrSt", 0, NULL, 0, "r" },
	{ "lls", cmd_lls, NULL, 0, NULL, 0, "l" },
	{ "ldir", cmd_lls, NULL, 0, NULL, 0, "l" },
	{ "mkdir", cmd_mkdir, "", 1, "a path after a mkdir", 0, "r" },
	{ "lmkdir", cmd_lmkdir, "", 1, "a path after a lmkdir", 0, "l" },
	{ "rmdir", cmd_rmdir, "", 1, "a path after a rmdir", 0, "r" },
	{ "rm", cmd_rm, "", 1, "a path after a rm", 0, "r" },
	{ "rename", cmd_rename, "l", 2, "two paths after a rename", 0, "r" },
	{ "symlink", cmd_symlink, "", 2, "two paths after a symlink", 0,
	    "r" },
	{ "cp", cmd_cp, "", 2, "two paths after a cp", 0, "r" },
	{ "copy", cmd_cp, "", 2, "two paths after a copy", 0, "r" },
	{ "ln", cmd_ln, "s", 2, "two paths after a ln", 0, "r" },
	{ "chmod", cmd_chattr, "h", 2, "a path after a chmod", 8, "r" },
	{ "chown", cmd_chattr, "h", 2, "a path after a chown", 10, "r" },
	{ "chgrp", cmd_chattr, "h", 2, "a path after a chgrp", 10, "r" },
	{ "get", cmd_get_, "afpPrR", 1, "at least one path after a get", 0,
	    "rl" },
	{ "mget", cmd_get_, "afpPrR", 1, "at least one path after a mget",
	    0, "rl" },
	{ "reget", cmd_reget, "fpPrR", 1, "at least one path after a reget",
	    0, "rl" },
	{ "put", cmd_put_, "afpPrR", 1, "at least one path after a put", 0,
	    "lr" },
	{ "mput", cmd_put_, "afpPrR", 1, "at least one path after a mput",
	    0, "lr" },
	{ "reput", cmd_reput, "fpPrR", 1, "at least one path after a reput",
	    0, "lr" },
	{ "df", cmd_df, "hi", 0, NULL, 0, "r" },
	{ "version", cmd_version, "", 0, NULL, 0, "" },
	{ "lumask", cmd_lumask, "", 1, "a path after a lumask", 8, "" },
	{ "progress", cmd_progress, "", 0, NULL, 0, "" },
	{ "help", cmd_help, "", 0, NULL, 0, "" },
	{ "?", cmd_help, "", 0, NULL, 0, "" },
};

#define NCOMMANDS	(sizeof(commands) / sizeof(commands[0]))

const char *
command_name(size_t i)
{
	return i < NCOMMANDS ? commands[i].name : NULL;
}

int
command_argkind(const char *name, int argno)
{
	size_t i, len;

	for (i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, name) != 0)
			continue;
		if ((len = strlen(commands[i].comp)) == 0 || argno < 1)
			return 0;
		return commands[i].comp[(size_t)argno > len ? len - 1 :
		    (size_t)argno - 1];
	}
	return 0;
}

int
has_flag(const struct sftp_ctx *x, char c)
{
	return strchr(x->flags, c) != NULL;
}

/*
 * The options of the command (into x->flags), moving its other words
 * down; -1 with OpenSSH's message for one it does not take.
 */
static int
parse_flags(struct sftp_ctx *x, const struct command *cmd, struct word *w,
    size_t *np)
{
	size_t i = 1, j, k = 0, n = *np;
	const char *p;

	x->flags[0] = '\0';
	if (cmd->flags == NULL)
		return 0;
	for (; i < n && w[i].text[0] == '-' && w[i].text[1] != '\0'; i++) {
		if (strcmp(w[i].text, "--") == 0) {
			i++;
			break;
		}
		for (p = w[i].text + 1; *p != '\0'; p++) {
			if (strchr(cmd->flags, *p) == NULL) {
				fprintf(stderr, "%s: Invalid flag -%c\r\n",
				    cmd->name, *p);
				return -1;
			}
			if (!has_flag(x, *p) && k + 1 < sizeof(x->flags)) {
				x->flags[k++] = *p;
				x->flags[k] = '\0';
			}
		}
	}
	if (i == 1)
		return 0;
	for (j = 1; j < i; j++) {
		x_free(w[j].text);
		x_free(w[j].pat);
	}
	memmove(&w[1], &w[i], (n - i) * sizeof(*w));
	*np = n - (i - 1);
	return 0;
}

/* "!cmd" runs cmd with the user's shell; "!" alone an interactive one. */
int
shell_escape(const char *cmd)
{
	const char *sh = getenv("SHELL");
	int st;

	if (sh == NULL || *sh == '\0')
		sh = "/bin/sh";
	fflush(stdout);
	pid_t pid = fork();
	if (pid == -1) {
		fprintf(stderr, "fork: %s\r\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (*cmd == '\0')
			execl(sh, sh, (char *)NULL);
		else
			execl(sh, sh, "-c", cmd, (char *)NULL);
		fprintf(stderr, "Couldn't execute \"%s\": %s\r\n", sh,
		    strerror(errno));
		_exit(1);
	}
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(st))
		fprintf(stderr, "Shell exited abnormally\r\n");
	else if (WEXITSTATUS(st) != 0)
		fprintf(stderr, "Shell exited with status %d\r\n",
		    WEXITSTATUS(st));
	return 0;
}

/* Which command, its options and argument count, before the echo. */
static int
check_command(struct sftp_ctx *x, const struct command **cmdp,
    struct word *w, size_t *np)
{
	const struct command *cmd = NULL;
	unsigned long v = 0;
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, w[0].text) == 0)
			cmd = &commands[i];
	*cmdp = cmd;
	if (cmd == NULL) {
		fprintf(stderr, "Invalid command.\r\n");
		return -1;
	}
	if (parse_flags(x, cmd, w, np) != 0)
		return -1;
	if ((int)*np - 1 < cmd->nargs) {
		fprintf(stderr, "You must specify %s command.\r\n", cmd->need);
		return -1;
	}
	if (cmd->numeric && parse_num(cmd->name, w[1].text, cmd->numeric,
	    cmd->numeric == 8 ? 07777 : 0xffffffffUL, &v) != 0)
		return -1;
	x->num = v;
	return 0;
}

static void
echo(const struct sftp_ctx *x)
{
	if (x->echo != NULL) {
		printf("sftp> %s\n", x->echo);
		fflush(stdout);
	}
}

int
run_command(struct sftp_ctx *x, const char *line)
{
	const struct command *cmd;
	struct word *w;
	size_t n;
	int r;

	line += strspn(line, " \t");
	if (*line == '!') {
		echo(x);
		return shell_escape(line + 1);
	}
	if (split_words(line, &w, &n) != 0) {
		echo(x);
		return -1;
	}
	if (n == 0 || w[0].text[0] == '#') {
		echo(x);
		free_words(w, n);
		return 0;
	}
	x->rest = line + strcspn(line, " \t");
	r = check_command(x, &cmd, w, &n);
	echo(x);
	if (r == 0)
		r = cmd->fn == NULL ? 1 : cmd->fn(x, (int)n, w);
	free_words(w, n);
	fflush(stdout);
	return r;
}
