/*
 * fuzz_agentd.c: ssh-agent's request handling (src/client/agentd.c)
 * fed one client's byte stream. Each input starts with a fresh agent
 * that holds the fixed keys of fuzz_keys.h (user1 ed25519 and its
 * certificate cert1, user2 ECDSA, hostrsa RSA), added through the same
 * requests a client sends, so the recorded seeds' sign and remove
 * requests find them. The first byte of the input sets the size of the
 * pieces the rest is handed over in (framing split anywhere); the
 * confirmation prompt answers by the input's length, the clock and the
 * unlock pause are fakes. Whatever the bytes, agentd_input must return
 * cleanly, and an error means only "close this client".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "agentd.h"
#include "cert.h"
#include "err.h"
#include "fuzz_keys.h"
#include "key.h"
#include "key_int.h"
#include "log.h"
#include "sbuf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sbuf *preload;	/* framed ADD requests */
static int answer;

static uint64_t fz_now(void) { return 5000; }
static void fz_delay(unsigned long usec) { (void)usec; }

static int
fz_confirm(void *arg, const char *prompt)
{
	(void)arg;
	(void)prompt;
	return answer;
}

static struct key *
load(const char *text)
{
	struct sbuf *b = sbuf_from(text, strlen(text));
	struct key *k = NULL;

	if (key_parse_private(b, NULL, &k, NULL) != 0)
		abort();
	sbuf_free(b);
	return k;
}

/* Frame an ADD request for k (or its certificate c) into preload. */
static void
add_request(const struct key *k, const struct key_cert *c)
{
	struct sbuf *m = sbuf_new(), *priv = sbuf_new(), *blob = sbuf_new();
	int i;

	sbuf_put_u8(m, SSH_AGENTC_ADD_IDENTITY);
	key_private_to_sbuf(k, priv);
	if (c != NULL) {
		sbuf_put_cstring(m, cert_type_name(k));
		cert_to_blob(c, blob);
		sbuf_put_stringb(m, blob);
		sbuf_get_string(priv, NULL, NULL);	/* type */
		for (i = 0; k->type != KEY_ED25519 && i < 2; i++)
			sbuf_get_string(priv, NULL, NULL);
	}
	sbuf_putb(m, priv);
	sbuf_put_cstring(m, c != NULL ? "cert" : "key");
	sbuf_put_stringb(preload, m);
	sbuf_free(m);
	sbuf_free(priv);
	sbuf_free(blob);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct key *user1, *user2, *rsa;
	struct key_cert *cert1 = NULL;
	const char *p = fz_pub_cert1;

	(void)argc;
	(void)argv;
	log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	preload = sbuf_new();
	user1 = load(fz_key_user1);
	user2 = load(fz_key_user2);
	rsa = load(fz_key_hostrsa);
	if (cert_read_public_text(&p, &cert1) != 0)
		abort();
	add_request(user1, NULL);
	add_request(user1, cert1);
	add_request(user2, NULL);
	add_request(rsa, NULL);
	key_free(user1);
	key_free(user2);
	key_free(rsa);
	cert_free(cert1);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* No module is allowed: smartcard requests never start a helper. */
	struct agentd_config cfg = { .now = fz_now, .delay = fz_delay,
	    .confirm = fz_confirm, .allowed_providers = "/nonexistent/*" };
	struct agentd_conn *c;
	struct sbuf *out;
	struct agentd *a;
	size_t step, off;

	if (size < 1 || size > 300000)
		return 0;
	answer = size & 1;
	step = data[0] == 0 ? size : data[0];
	agentd_new(&cfg, &a);
	c = agentd_conn_new();
	out = sbuf_new();
	if (agentd_input(a, c, sbuf_ptr(preload), sbuf_len(preload),
	    out) != 0 || agentd_count(a) != 4)
		abort();
	agentd_conn_free(c);
	c = agentd_conn_new();
	for (off = 1; off < size; off += step) {
		if (agentd_input(a, c, data + off,
		    size - off < step ? size - off : step, out) != 0)
			break;
		sbuf_reset(out);
	}
	(void)agentd_expire(a);
	sbuf_free(out);
	agentd_conn_free(c);
	agentd_free(a);
	return 0;
}
