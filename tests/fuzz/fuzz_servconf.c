/*
 * fuzz_servconf.c: sshd_config lines and the pattern matchers.
 *
 * Every line of the input goes to servconf_parse_line() of one fresh
 * config, which is then finished, matched against a fixed connection
 * (servconf_apply_match) and dumped as sshd -T would, into /dev/null.
 * Include lines are skipped: they would read files of this machine.
 *
 * The first three lines, as strings s, a and b, also drive the matchers:
 * match_pattern(s, a), match_pattern_list(s, a), match_addr_list(s, a),
 * match_host_and_ip(s, b, a), match_user(s, b, s, a),
 * match_first_common(a, b), match_list_contains(a, s), and
 * match_assemble_list() with the input's lists and with the real
 * cipher lists and s as the spec.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cipher.h"
#include "err.h"
#include "fuzz_log.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "servconf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	devnull = fz_log_to_null();
	return 0;
}

static int
is_include(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (*line == '"' || *line == '\'')	/* a quoted keyword */
		line++;
	return strncasecmp(line, "include", 7) == 0;
}

static void
matchers(const char *s, const char *a, const char *b)
{
	char *out = NULL;

	(void)match_pattern(s, a);
	(void)match_pattern_list(s, a, 0);
	(void)match_pattern_list(s, a, 1);
	(void)match_addr_list(s, a);
	(void)match_host_and_ip(s, b, a);
	(void)match_user(s, b, s, a);
	x_free(match_first_common(a, b));
	(void)match_list_contains(a, s);
	if (match_assemble_list(a, b, s, &out) == 0 && out == NULL)
		abort();
	x_free(out);
	out = NULL;
	if (match_assemble_list(cipher_default_names(), cipher_all_names(), s,
	    &out) == 0 && out == NULL)
		abort();
	x_free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct servconf *sc = servconf_new(), *m = NULL;
	struct match_conn conn;
	char *text = x_strndup((const char *)data, size), *line, *nl;
	const char *parts[3] = { "", "", "" };
	int lineno = 0;

	for (line = text; line != NULL; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		if (lineno < 3)
			parts[lineno] = line;
		lineno++;
		if (!is_include(line))
			(void)servconf_parse_line(sc, line, "fuzz", lineno);
	}
	matchers(parts[0], parts[1], parts[2]);
	if (servconf_finish(sc) == 0) {
		memset(&conn, 0, sizeof(conn));
		conn.user = "fuzz";
		conn.host = "client.example.org";
		conn.address = "192.0.2.7";
		conn.laddress = "198.51.100.1";
		conn.lport = 22;
		conn.rdomain = "fuzz";
		if (servconf_apply_match(sc, &conn, &m) == 0) {
			servconf_dump(m, devnull);
			servconf_free(m);
		}
		servconf_dump(sc, devnull);
	}
	servconf_free(sc);
	x_free(text);
	return 0;
}
