/*
 * fuzz_readconf.c: ssh_config, the client's dialect of the configuration
 * files (readconf.c, readconf_kw.c, readconf_finish.c, readconf_dump.c).
 *
 * The input is one configuration file. Its first line also goes through
 * readconf_parse_line() first, as -o does (where Host, Match and Include
 * are refused). Then the file is read by readconf_load() against a fixed
 * destination host, as ssh -F reads one: Host and Match blocks, first
 * value wins, every keyword's parser; then readconf_finish() fills in
 * defaults, expands tokens and resolves the algorithm lists, and the
 * result is dumped as ssh -G would, into /dev/null.
 *
 * Lines that would reach outside the process are dropped before the file
 * is read: Include (files of this machine) and Match lines naming exec
 * (a shell command). A line is judged by its letters alone, lower-cased,
 * so no quoting or escaping can hide either word from the filter.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "client.h"
#include "fuzz_log.h"
#include "log.h"
#include "mem.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	devnull = fz_log_to_null();
	return 0;
}

/* Whether a line could include a file or run a command. */
static int
unsafe(const char *line)
{
	char *l = x_malloc(strlen(line) + 1);
	size_t n = 0;
	int r;

	for (; *line != '\0'; line++)
		if (isalpha((unsigned char)*line))
			l[n++] = (char)tolower((unsigned char)*line);
	l[n] = '\0';
	r = strncmp(l, "include", 7) == 0 ||
	    (strncmp(l, "match", 5) == 0 && strstr(l, "exec") != NULL);
	x_free(l);
	return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct client_opts *o = client_opts_new();
	char *text = x_strndup((const char *)data, size), *line, *nl, *path;
	int fd, first = 1;

	o->host_arg = x_strdup("fuzz.example.org");
	if ((fd = memfd_create("fuzz_readconf", MFD_CLOEXEC)) == -1)
		abort();
	for (line = text; line != NULL; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		if (first) {
			(void)readconf_parse_line(o, line, "command-line", 0);
			first = 0;
		}
		if (unsafe(line))
			continue;
		if (write(fd, line, strlen(line)) == -1 ||
		    write(fd, "\n", 1) == -1)
			abort();
	}
	path = x_asprintf("/proc/self/fd/%d", fd);
	if (readconf_load(o, path, 1) == 0 &&
	    readconf_finish(o, "fuzzuser") == 0)
		readconf_dump(o, devnull);
	x_free(path);
	close(fd);
	client_opts_free(o);
	x_free(text);
	return 0;
}
