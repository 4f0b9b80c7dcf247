/*
 * fuzz_agent.c: the ssh-agent client's reading of an agent's answers.
 * The first byte picks the request (even: list identities; odd: sign
 * with an ed25519 or, when bit 1 is set, an RSA algorithm; with bit 2
 * set, ssh-add's requests instead: even lock, odd remove all); the
 * rest is what the "agent" says, put into a socketpair before the
 * request is made, then end of file. Whatever it says, each call must
 * return cleanly (an error or a well-formed result).
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"
#include "err.h"
#include "log.h"
#include "sbuf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char blob[] = "not-a-real-key-blob";
	struct agent_identity *ids = NULL;
	struct sbuf *sig;
	size_t nids = 0, off = 0;
	ssize_t n;
	int sv[2];

	/* More than a socket buffer would block the single thread. */
	if (size < 1 || size > 65536)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 0;
	while (off < size - 1) {
		n = write(sv[1], data + 1 + off, size - 1 - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	(void)shutdown(sv[1], SHUT_WR);
	if ((data[0] & 4) != 0) {
		if ((data[0] & 1) == 0)
			(void)agent_lock(sv[0], 1, "password");
		else
			(void)agent_remove_all(sv[0]);
	} else if ((data[0] & 1) == 0) {
		if (agent_list(sv[0], &ids, &nids) == 0)
			agent_identities_free(ids, nids);
	} else {
		sig = sbuf_new();
		(void)agent_sign(sv[0], blob, sizeof(blob) - 1,
		    (const unsigned char *)"data", 4,
		    (data[0] & 2) ? "rsa-sha2-512" : "ssh-ed25519", sig);
		sbuf_free(sig);
	}
	close(sv[0]);
	close(sv[1]);
	return 0;
}
