/*
 * fuzz_scp_sink.c: what scp's sink makes of the records a hostile
 * server sends in the old rcp protocol (src/scp/scp_line.c, compiled
 * in whole: scp is a program, not part of the library). The input's
 * first line is the path the user asked for (its patterns are what the
 * top-level names must match); every further line is a record. A
 * record the parser accepts must hold what it promises: a mode of
 * permission bits only, a name inside the line, and a name that passes
 * the checks has no '/' and is not "..". The quoting of the request
 * for the far end's shell runs on the same path.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/scp/scp_line.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
one_record(const char *line, char **pats, size_t npats)
{
	struct scp_rec r;
	const char *why = NULL;

	if (scp_parse_record(line, &r, &why) != 0) {
		if (why == NULL)
			abort();
		return;
	}
	if (r.type != 'C' && r.type != 'D')
		return;
	if (r.mode > 07777 || r.size > INT64_MAX || r.name == NULL ||
	    r.name < line || r.name > line + strlen(line))
		abort();
	if (scp_name_ok(r.name, pats, npats, &why) == 0 &&
	    (strchr(r.name, '/') != NULL || strcmp(r.name, "..") == 0 ||
	    *r.name == '\0'))
		abort();
	(void)scp_name_ok(r.name, NULL, 0, &why);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *line, *nl, *q;
	char **pats = NULL;
	size_t npats = 0;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	line = text;
	if ((nl = strchr(line, '\n')) != NULL)
		*nl = '\0';
	q = scp_shell_quote(line);
	x_free(q);
	if (scp_patterns(line, &pats, &npats) != 0)
		npats = 0;
	while (nl != NULL) {
		line = nl + 1;
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if (strlen(line) < SCP_LINE_MAX)
			one_record(line, pats, npats);
	}
	scp_free_strv(pats, npats);
	free(text);
	return 0;
}
