/*
 * fuzz_kexinit_client.c: the client's incoming side of the transport.
 * The input is what a server sends: preamble lines and banner, KEXINIT,
 * the KEX replies with host key and signature (raw mode), or, after a
 * real key exchange, a script of encrypted messages such as ext-info
 * and rekey KEXINITs (scripted mode), before the login or after it
 * (after-login mode: the client then starts key exchanges of its own);
 * see fuzz_tr.h.
 */
#include "fuzz_tr.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_init();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_transport(0, data, size);
	return 0;
}
