/*
 * authclient.h: what the scripted ssh-userauth clients of the unit tests
 * share (test_auth.c, authserve.h): the server's log, and waiting for one
 * message of a given type.
 */
#ifndef MOAT_AUTHCLIENT_H
#define MOAT_AUTHCLIENT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "sbuf.h"
#include "transport.h"

static char logpath[300];	/* the server's log, set by the test */

/* Whether the log holds s; when not, the log is shown. */
static inline int
logged(const char *s)
{
	static char buf[262144];
	size_t n;
	FILE *f = fopen(logpath, "r");

	if (f == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	if (strstr(buf, s) != NULL)
		return 1;
	fprintf(stderr, "log lacks \"%s\":\n%s", s, buf);
	return 0;
}

/* The next message, which must be of type want (10 s at most). */
static inline int
c_expect(struct transport *t, uint8_t want, struct sbuf **pp)
{
	uint8_t type;
	int r;

	if ((r = tr_wait_message(t, &type, pp, 10000)) != 0)
		return r;
	if (type != want) {
		fprintf(stderr, "client: got message %u, wanted %u\n", type,
		    want);
		return ERR_PROTOCOL;
	}
	return 0;
}

#endif
