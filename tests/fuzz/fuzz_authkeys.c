/*
 * fuzz_authkeys.c: authorized_keys lines and their options.
 *
 * The input is an authorized_keys file: it is scanned by authkeys_scan()
 * (through fmemopen) for a fixed ed25519 key, from a fixed address, so a
 * line carrying that key reaches the option checks (from=, expiry-time).
 * Each line is also given to authopts_parse() directly, and a parsed
 * result must survive authopts_dup(); authopts_parse_time() gets the
 * line too.
 */
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authkeys.h"
#include "authopts.h"
#include "err.h"
#include "key.h"
#include "log.h"
#include "mem.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* tests/unit/data/keys/ed25519.pub; the seeds use it. */
static const char fixed_text[] = "ssh-ed25519 "
    "AAAAC3NzaC1lZDI1NTE5AAAAIKMaO4VmScvrB05VMDIV6YPXneNqt8BeSq/PZekenCoC";
static struct key *fixed;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *cp = fixed_text;

	log_init("fuzz", LOG_LEVEL_DEBUG3, 0, 0);
	if (log_to_file("/dev/null") != 0)
		log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	setenv("TZ", "UTC", 1);
	if (key_read_public_text(&cp, &fixed) != 0)
		abort();
	return 0;
}

static void
check_opts(const struct authopts *o)
{
	struct authopts *d = NULL;
	size_t i;

	if (authopts_dup(o, &d) != 0 || d->nenv != o->nenv ||
	    d->npermitopen != o->npermitopen ||
	    d->npermitlisten != o->npermitlisten ||
	    d->valid_before != o->valid_before)
		abort();
	for (i = 0; i < o->nenv; i++)
		if (strcmp(o->env[i], d->env[i]) != 0)
			abort();
	authopts_free(d);
}

static void
one_line(const char *line)
{
	struct authopts *o = NULL;
	const char *end = NULL, *err = NULL;
	uint64_t t;

	if (authopts_parse(line, &o, &end, &err) == 0) {
		if (o == NULL || end == NULL || end < line ||
		    end > line + strlen(line))
			abort();
		check_opts(o);
		authopts_free(o);
	} else if (o != NULL || err == NULL)
		abort();
	(void)authopts_parse_time(line, &t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct passwd pw;
	struct authkeys_query q;
	struct authopts *o = NULL;
	char *text = x_strndup((const char *)data, size), *line, *nl;
	FILE *f;

	for (line = text; line != NULL; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		one_line(line);
	}
	x_free(text);

	memset(&pw, 0, sizeof(pw));
	pw.pw_name = (char *)"fuzz";
	pw.pw_dir = (char *)"/nonexistent";
	pw.pw_uid = 54321;
	pw.pw_gid = 54321;
	memset(&q, 0, sizeof(q));
	q.key = fixed;
	q.remote_host = "client.example.org";
	q.remote_ip = "192.0.2.7";
	q.now = 1700000000;
	if (size > 0 && (f = fmemopen((void *)data, size, "r")) != NULL) {
		if (authkeys_scan(f, "fuzz", &pw, &q, &o) == 0) {
			if (o == NULL)
				abort();
			check_opts(o);
			authopts_free(o);
		}
		fclose(f);
	}
	return 0;
}
