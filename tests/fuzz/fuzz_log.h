/*
 * fuzz_log.h: the set-up the configuration targets share. The log takes
 * every level down to DEBUG3, so its formatting runs on the hostile
 * strings too, and goes to /dev/null (quiet when that will not open);
 * the stream returned, also /dev/null, is for the dumps nobody reads.
 */
#ifndef MOAT_FUZZ_LOG_H
#define MOAT_FUZZ_LOG_H

#include <stdio.h>
#include <stdlib.h>

#include "log.h"

static inline FILE *
fz_log_to_null(void)
{
	FILE *f;

	log_init("fuzz", LOG_LEVEL_DEBUG3, 0, 0);
	if (log_to_file("/dev/null") != 0)
		log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	if ((f = fopen("/dev/null", "w")) == NULL)
		abort();
	return f;
}

#endif
