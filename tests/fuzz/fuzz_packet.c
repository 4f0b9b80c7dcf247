/*
 * fuzz_packet.c: the server's incoming side of the transport. The input
 * is what a client sends: banner, clear-text packets, KEXINIT, KEX
 * messages (raw mode), or, after a real key exchange, a script of
 * encrypted messages (scripted mode), before the user is authenticated
 * or after (after-login mode: a PING is answered with a PONG there, and
 * the server starts key exchanges of its own); see fuzz_tr.h.
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
	fz_transport(1, data, size);
	return 0;
}
