/*
 * fuzz_sshcom.c: ssh-keygen -i's reader of ssh.com private keys (the
 * frame between the armour lines, after base64: src/keygen/
 * keygen_sshcom.c), a file a user is handed. The reader lives in the
 * ssh-keygen program, not the library, so it is compiled in here whole;
 * the PEM key it prints goes to /dev/null, its messages (kg_error) to
 * stderr only with FUZZ_LOG set.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../src/keygen/keygen_sshcom.c"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

void
kg_error(const char *fmt, ...)
{
	va_list ap;

	if (getenv("FUZZ_LOG") == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (freopen("/dev/null", "w", stdout) == NULL)
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf *b = sbuf_from(data, size);

	(void)kg_import_sshcom(b);
	sbuf_free(b);
	return 0;
}
