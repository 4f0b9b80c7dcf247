/*
 * fuzz_p11helper.c: the caller's side of ssh-pkcs11-helper: reading its
 * answers (p11_client.c). The first byte picks the request: bit 0 clear
 * opens the module (the answer: a key list or a failure), set signs
 * with an ECDSA key or, with bit 1, an RSA key (the answer: a
 * signature, a PIN request or a failure). The rest is what the
 * "helper" says, put into a socketpair before the request, then end of
 * file. Whatever it says, the calls must return cleanly, and a
 * signature is taken only when it verifies.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "p11_client.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct key *ec_key, *rsa_key;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	signal(SIGPIPE, SIG_IGN);
	if (key_generate(KEY_ECDSA, 256, &ec_key) != 0 ||
	    key_generate(KEY_RSA, 1024, &rsa_key) != 0)
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned char msg[] = "data to sign";
	struct p11_helper h;
	struct p11_key *keys = NULL;
	struct sbuf *sig;
	char *why = NULL;
	size_t n = 0, off = 0;
	ssize_t w;
	int sv[2], r;

	/* More than a socket buffer would block the single thread. */
	if (size < 1 || size > 65536)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 0;
	while (off < size - 1) {
		w = write(sv[1], data + 1 + off, size - 1 - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	(void)shutdown(sv[1], SHUT_WR);
	memset(&h, 0, sizeof(h));
	h.fd = sv[0];
	h.pid = -1;
	h.provider = (char *)"fuzz";
	if ((data[0] & 1) == 0) {
		r = p11_helper_open(&h, "", &keys, &n, &why);
		if (r == 0 && n > P11_MAX_KEYS)
			abort();
		p11_keys_free(keys, n);
		x_free(why);
	} else {
		sig = sbuf_new();
		r = p11_helper_sign(&h, (data[0] & 2) ? rsa_key : ec_key,
		    (data[0] & 2) ? "rsa-sha2-256" : NULL, msg, sizeof(msg),
		    NULL, sig, &why);
		if (r == 0 && sbuf_len(sig) == 0)
			abort();
		sbuf_free(sig);
		x_free(why);
	}
	if (h.fd != -1)
		close(h.fd);
	close(sv[1]);
	return 0;
}
