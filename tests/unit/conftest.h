/*
 * conftest.h: what the configuration tests (ssh_config, sshd_config)
 * share: a private directory for the files they write, the line of one
 * keyword in a -G / -T dump, a line split into words, and the messages
 * the code under test logs.
 */
#ifndef MOAT_CONFTEST_H
#define MOAT_CONFTEST_H

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mem.h"

static char conftest_dir[64];

/* A fresh /tmp/moat-<name>-XXXXXX for this run; 0, or -1 (reported). */
static inline int
conftest_mkdir(const char *name)
{
	snprintf(conftest_dir, sizeof(conftest_dir), "/tmp/moat-%s-XXXXXX",
	    name);
	if (mkdtemp(conftest_dir) == NULL) {
		perror("mkdtemp");
		return -1;
	}
	return 0;
}

/* The directory and all that was written in it, removed. */
static inline void
conftest_rmdir(void)
{
	char *cmd = x_asprintf("rm -rf %s", conftest_dir);

	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", conftest_dir);
	x_free(cmd);
}

/*
 * text in the file name of the directory, then chmod mode unless 0; its
 * path (x_free). A file that cannot be written ends the test: nothing
 * after it would mean anything.
 */
static inline char *
conftest_write(const char *name, const char *text, unsigned int mode)
{
	char *path = x_asprintf("%s/%s", conftest_dir, name);
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
	if (mode != 0)
		chmod(path, (mode_t)mode);
	return path;
}

/*
 * The line of dump text that starts with keyword kw and a space (x_free),
 * or NULL; with value_only, what follows the space.
 */
static inline char *
conftest_line(const char *text, const char *kw, int value_only)
{
	size_t n = strlen(kw);
	const char *p, *end;

	for (p = text; p != NULL && *p != '\0'; p = end ? end + 1 : NULL) {
		end = strchr(p, '\n');
		if (strncmp(p, kw, n) == 0 && p[n] == ' ') {
			if (value_only)
				p += n + 1;
			return end ? x_strndup(p, (size_t)(end - p)) :
			    x_strdup(p);
		}
	}
	return NULL;
}

/* Split line (changed in place) at blanks into argv[0..], NULL after;
 * at most max - 1 words. Returns their count. */
static inline int
conftest_words(char *line, char **argv, int max)
{
	char *w;
	int n = 0;

	while ((w = strsep(&line, " ")) != NULL && n < max - 1)
		if (*w != '\0')
			argv[n++] = w;
	argv[n] = NULL;
	return n;
}

/* What was logged while a conftest_log was the sink (log_set_sink). */
struct conftest_log {
	int n;				/* messages */
	char text[LOG_RECORD_MAX];	/* the last one */
};

static inline void
conftest_catch(int level, const char *text, void *arg)
{
	struct conftest_log *c = arg;

	c->n++;
	snprintf(c->text, sizeof(c->text), "%s", text);
}

#endif
