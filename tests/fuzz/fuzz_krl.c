/*
 * fuzz_krl.c: the KRL parser (RevokedKeys files are untrusted input to
 * sshd's check of every key).
 *
 * The input is parsed as a binary KRL. A KRL that parses must dump,
 * serialize, and parse again to an equal dump below the header (the
 * writer may choose other encodings and stamps its own generation time,
 * but must keep the contents), and answer lookups for a fixed key
 * without error other than "revoked".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "key.h"
#include "krl.h"
#include "sbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

static struct key *probe;

/* The dump's contents: what follows the header's blank line. */
static const char *
body_of(const struct sbuf *d, size_t *lenp)
{
	const char *p = (const char *)sbuf_ptr(d);
	const char *e = memmem(p, sbuf_len(d), "\n\n", 2);

	if (e == NULL) {
		*lenp = 0;
		return "";
	}
	*lenp = sbuf_len(d) - (size_t)(e - p);
	return e;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	REQUIRE(key_generate(KEY_ED25519, 0, &probe) == 0);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf *in = sbuf_from(data, size), *d1, *d2, *ser;
	struct krl *krl = NULL, *again = NULL;
	int r;

	if (krl_parse(in, &krl) != 0) {
		REQUIRE(krl == NULL);
		sbuf_free(in);
		return 0;
	}
	r = krl_check_key(krl, probe, NULL);
	REQUIRE(r == 0 || r == ERR_KEY_REVOKED);
	d1 = sbuf_new();
	d2 = sbuf_new();
	ser = sbuf_new();
	REQUIRE(krl_dump(krl, d1) == 0);
	REQUIRE(krl_serialize(krl, ser) == 0);
	REQUIRE(krl_parse(ser, &again) == 0);
	REQUIRE(krl_dump(again, d2) == 0);
	{
		size_t l1, l2;
		const char *b1 = body_of(d1, &l1), *b2 = body_of(d2, &l2);

		REQUIRE(l1 == l2 && memcmp(b1, b2, l1) == 0);
	}
	krl_free(again);
	krl_free(krl);
	sbuf_free(d1);
	sbuf_free(d2);
	sbuf_free(ser);
	sbuf_free(in);
	return 0;
}
