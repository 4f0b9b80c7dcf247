/*
 * fuzz_moduli.c: the moduli/candidate line parser (ssh-keygen -M screen
 * reads candidate files from anywhere).
 *
 * The input is cut into lines at '\n' as the screen reads them, and each
 * line is parsed. A line that parses must have a number of exactly
 * size + 1 bits, give p = 2q + 1 and q, take a generator by OpenSSH's
 * rule (2, 5 or none), and format back to a line that parses to the
 * same fields and number.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "err.h"
#include "mem.h"
#include "moduli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

static void
check_entry(const struct moduli_entry *e)
{
	struct moduli_entry again;
	BIGNUM *p, *q, *chk;
	uint32_t g;
	char *line;

	REQUIRE((uint32_t)BN_num_bits(e->number) == e->size + 1);
	REQUIRE(moduli_entry_pq(e, &p, &q) == 0);
	REQUIRE((chk = BN_new()) != NULL);
	REQUIRE(BN_lshift1(chk, q) && BN_add_word(chk, 1));
	/* Types 0 and 2 of an even p lose its low bit in q. */
	REQUIRE(BN_cmp(chk, p) == 0 || !BN_is_odd(p));
	g = moduli_pick_generator(p);
	REQUIRE(g == 0 || g == 2 || g == 5);
	REQUIRE(moduli_format_line(0, e->type, e->tests, e->tries,
	    e->generator, e->number, &line) == 0);
	REQUIRE(moduli_parse_line(line, strlen(line), &again) == 0);
	REQUIRE(again.type == e->type && again.tests == e->tests &&
	    again.tries == e->tries && again.size == e->size &&
	    again.generator == e->generator &&
	    BN_cmp(again.number, e->number) == 0);
	moduli_entry_clear(&again);
	x_free(line);
	BN_free(chk);
	BN_free(p);
	BN_free(q);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nl;
	struct moduli_entry e;
	size_t len;
	int r;

	while (size > 0) {
		nl = memchr(s, '\n', size);
		len = nl != NULL ? (size_t)(nl - s) + 1 : size;
		r = moduli_parse_line(s, len, &e);
		REQUIRE(r >= 0 && r <= MODULI_SKIP_SIZE);
		REQUIRE(r != 0 || e.number != NULL);
		if (r == 0)
			check_entry(&e);
		moduli_entry_clear(&e);
		s += len;
		size -= len;
	}
	return 0;
}
