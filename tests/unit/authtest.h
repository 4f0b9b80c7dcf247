/*
 * authtest.h: helpers for the unit tests of authorized_keys files and
 * the commands that stand in for them.
 *
 * test_keygen() has ssh-keygen make a key pair in a scratch directory
 * and loads its public half (two checks: the command and the load).
 * test_log_holds() searches the log file the test logs to for a string,
 * says what the log held when it is missing, and empties the log so the
 * next search sees only what came after.
 */
#ifndef MOAT_AUTHTEST_H
#define MOAT_AUTHTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "key.h"
#include "mem.h"
#include "testlib.h"

/* DIR/NAME and DIR/NAME.pub of TYPE ("ed25519", "rsa -b 2048"...),
 * no passphrase, commented NAME: the public key, or NULL. */
static inline struct key *
test_keygen(const char *dir, const char *name, const char *type)
{
	char cmd[1024], path[400];
	struct key *k = NULL;
	char *comment = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "ssh-keygen -q -t %s -N '' -C %s -f %s "
	    "</dev/null >/dev/null 2>&1", type, name, path);
	CHECK(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/%s.pub", dir, name);
	CHECK_OK(key_load_public(path, &k, &comment));
	x_free(comment);
	return k;
}

/* Whether the log file at path holds s; empties the log. */
static inline int
test_log_holds(const char *path, const char *s)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "r");
	int hit;

	if (f == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	hit = strstr(buf, s) != NULL;
	if (!hit)
		fprintf(stderr, "log lacks \"%s\":\n%s", s, buf);
	truncate(path, 0);
	return hit;
}

#endif
