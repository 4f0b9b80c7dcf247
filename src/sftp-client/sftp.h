/*
 * sftp.h: what the parts of the sftp program share.
 *
 * main.c parses the command line, starts the server (ssh's sftp
 * subsystem, or a program given with -D) and reads commands; cmd.c
 * splits a command line into words and runs it; cmd_ls.c lists and
 * globs; cmd_xfer.c moves files. A command returns 0 or -1 (it has said
 * why on stderr); a lost connection ends the program at once.
 */
#ifndef MOAT_SFTP_PROG_H
#define MOAT_SFTP_PROG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "sftp_client.h"
#include "sftp_prog.h"

struct sftp_ctx {
	struct sftp_conn *c;
	char *rcwd;		/* remote working directory */
	int quiet;		/* no "Fetching ..." lines (-q, -b) */
	int batch;
	int progress;		/* progress meter on */
	int global_a, global_f, global_p, global_r; /* -a -f -p -r */
	const char *echo;	/* batch mode: the line to echo */
	char flags[64];		/* the current command's option letters */
	const char *rest;	/* the line after the command's name */
	unsigned long num;	/* its numeric argument (chmod...) */
};

/* One word of a command line: as typed with quotes and escapes
 * removed, and as a glob pattern (quoted metacharacters escaped). */
struct word {
	char *text;
	char *pat;
};

/* Split a line into words; -1 with a message on bad quoting. */
int split_words(const char *line, struct word **wp, size_t *np);
void free_words(struct word *w, size_t n);

/* Run one command line (without a leading '-'); 1 means quit. */
int shell_escape(const char *cmd);
int has_flag(const struct sftp_ctx *x, char c);
int run_command(struct sftp_ctx *x, const char *line);

/* For completion: the i-th command's name (NULL past the last), and
 * what its argno-th argument (from 1) names: 'r' a remote path, 'l' a
 * local one, 0 neither. */
const char *command_name(size_t i);
int command_argkind(const char *name, int argno);

/* Line editing on a terminal (edit.c): -1 when there is none. */
int edit_start(struct sftp_ctx *x, FILE *out, FILE *err);
/* The next line without its newline (free it), NULL at the end. */
char *edit_read(void);
void edit_end(void);

/* Ends the program with "Connection closed" after a fatal error. */
void conn_lost(int r);
/* path made absolute against the remote working directory. */
char *rpath_abs(const struct sftp_ctx *x, const char *path);
int rpath_is_dir(struct sftp_ctx *x, const char *path);

/* Remote glob of pattern (absolute): sorted matches (dirs marked with
 * a trailing '/' when mark). nocheck: no match gives the pattern. */
int rglob(struct sftp_ctx *x, const char *pat, int mark, int nocheck,
    char ***outp, size_t *np);
void free_strv(char **v, size_t n);
int has_glob(const char *pat);
/* stdout and stderr encode what they carry as OpenSSH's sftp shows
 * it (vis.c); the terminal's own streams are left in *rawout, *rawerr. */
void vis_streams(FILE **rawout, FILE **rawerr);
/* The pattern with its escapes removed. */
char *unescape(const char *pat);

int cmd_ls(struct sftp_ctx *x, int argc, struct word *w);
int cmd_lls(struct sftp_ctx *x, int argc, struct word *w);
int cmd_df(struct sftp_ctx *x, int argc, struct word *w);
int cmd_get(struct sftp_ctx *x, int argc, struct word *w, int resume);
int cmd_put(struct sftp_ctx *x, int argc, struct word *w, int resume);

/* The fetch of host:path given on the command line. */
int fetch_direct(struct sftp_ctx *x, const char *rpath, const char *local);

#endif
