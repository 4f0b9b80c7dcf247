/*
 * servconftest.h: the sshd -T line of one keyword, for the sshd_config
 * tests that check settings through the dump.
 */
#ifndef MOAT_SERVCONFTEST_H
#define MOAT_SERVCONFTEST_H

#include <stdio.h>
#include <stdlib.h>

#include "conftest.h"
#include "servconf.h"

/* The dump's line for keyword kw (caller frees), or NULL. */
static inline char *
dump_line(const struct servconf *sc, const char *kw)
{
	char *buf = NULL, *out;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	servconf_dump(sc, f);
	fclose(f);
	out = conftest_line(buf, kw, 0);
	free(buf);
	return out;
}

#endif
