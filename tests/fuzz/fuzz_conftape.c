/*
 * fuzz_conftape.c: the record of sshd's configuration files that a
 * listener hands each connection process (conftape.h). The input is the
 * record's bytes. One that parses is replayed as sshd -R does: loaded as
 * /etc/ssh/sshd_config with every file and Include glob taken from the
 * record, never from this machine's disk, then finished and dumped as
 * sshd -T would, into /dev/null. It must also survive the trip through
 * a sealed memfd unchanged: the copy read back holds the same text for
 * the top file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conftape.h"
#include "fuzz_log.h"
#include "log.h"
#include "servconf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)
#define TOP		"/etc/ssh/sshd_config"

static FILE *devnull;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fz_log_to_null();
	return 0;
}

/* The memfd round trip: the top file's text comes back the same. */
static void
round_trip(const struct conftape *t)
{
	struct conftape *back;
	const char *a, *b;
	size_t alen = 0, blen = 0;
	int fd;

	if ((fd = conftape_to_memfd(t)) == -1)
		return;		/* too large: refused, as it should be */
	back = conftape_read_fd(fd);
	close(fd);
	REQUIRE(back != NULL);
	a = conftape_file(t, TOP, &alen);
	b = conftape_file(back, TOP, &blen);
	REQUIRE((a == NULL) == (b == NULL));
	REQUIRE(a == NULL || (alen == blen && memcmp(a, b, alen) == 0));
	conftape_free(back);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conftape *t = conftape_parse(data, size);
	struct servconf *sc;

	if (t == NULL)
		return 0;
	REQUIRE(conftape_replaying(t));
	sc = servconf_new();
	servconf_set_tape(sc, t);
	if (servconf_load(sc, TOP) == 0 && servconf_finish(sc) == 0)
		servconf_dump(sc, devnull);
	servconf_set_tape(sc, NULL);
	servconf_free(sc);
	round_trip(t);
	conftape_free(t);
	return 0;
}
