/*
 * main.c: ssh-pkcs11-helper, the one process that loads a PKCS#11
 * module for ssh, ssh-agent, ssh-add and ssh-keygen. It reads requests
 * on standard input and answers on standard output (the protocol is in
 * src/client/p11_client.h) until its caller closes the pipe; messages
 * go to standard error. A module that crashes takes only this process
 * with it.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "err.h"
#include "fdio.h"
#include "helper.h"
#include "log.h"
#include "mem.h"
#include "p11_client.h"
#include "spawn.h"

static int
put_fail(struct sbuf *out, int r, const char *why)
{
	int e;

	if ((e = sbuf_put_u8(out, P11_FAIL)) != 0 ||
	    (e = sbuf_put_u32(out, r == ERR_KEY_WRONG_PASSPHRASE ?
	    P11_FAIL_PIN : P11_FAIL_OTHER)) != 0 ||
	    (e = sbuf_put_cstring(out, why != NULL ? why : err_str(r))) != 0)
		return e;
	return 0;
}

static int
do_open(struct p11h *h, const struct p11h_request *q, struct sbuf *out)
{
	struct sbuf *blob = sbuf_new();
	char *why = NULL;
	size_t i;
	int r;

	if ((r = p11h_open(h, q->path, q->pin, &why)) != 0) {
		log_error("%s", why != NULL ? why : err_str(r));
		r = put_fail(out, r, why);
		goto out;
	}
	if ((r = sbuf_put_u8(out, P11_KEYS)) != 0 ||
	    (r = sbuf_put_u32(out, (uint32_t)h->nkeys)) != 0)
		goto out;
	for (i = 0; i < h->nkeys; i++) {
		sbuf_reset(blob);
		if ((r = key_to_blob(h->keys[i].pub, blob)) != 0 ||
		    (r = sbuf_put_stringb(out, blob)) != 0 ||
		    (r = sbuf_put_cstring(out, h->keys[i].label)) != 0)
			goto out;
	}
 out:
	x_free(why);
	sbuf_free(blob);
	return r;
}

static struct p11h_key *
find_key(struct p11h *h, const unsigned char *blob, size_t len)
{
	struct key *k;
	size_t i;

	if (key_from_blob(blob, len, &k) != 0)
		return NULL;
	for (i = 0; i < h->nkeys; i++)
		if (key_equal_public(h->keys[i].pub, k))
			break;
	key_free(k);
	return i < h->nkeys ? &h->keys[i] : NULL;
}

static int
do_sign(struct p11h *h, const struct p11h_request *q, struct sbuf *out)
{
	struct p11h_key *k;
	struct p11h_slot *s;
	struct sbuf *sig = NULL;
	int r;

	if ((k = find_key(h, q->blob, q->bloblen)) == NULL) {
		r = put_fail(out, ERR_NOT_FOUND, "key not found");
		goto out;
	}
	s = &h->slots[k->slot];
	if ((r = p11h_login(h, s, q->pin)) == ERR_PERMISSION_DENIED &&
	    *q->pin == '\0') {
		if ((r = sbuf_put_u8(out, P11_NEED_PIN)) == 0)
			r = sbuf_put_cstring(out, s->label);
		goto out;
	}
	if (r != 0) {
		r = put_fail(out, r, "C_Login failed");
		goto out;
	}
	sig = sbuf_new();
	if ((r = p11h_sign(h, k, q->data, q->dlen, q->flags, sig)) != 0) {
		r = put_fail(out, r, "signing failed");
		goto out;
	}
	if ((r = sbuf_put_u8(out, P11_SIG)) == 0)
		r = sbuf_put_stringb(out, sig);
 out:
	sbuf_free(sig);
	return r;
}

/* One framed request from fd 0 into m; ERR_EOF at a clean end. */
static int
read_request(struct sbuf *m)
{
	int r;

	sbuf_reset(m);
	r = msg_read_framed(STDIN_FILENO, P11_MAX_MSG, m);
	if (r == ERR_CONN_CLOSED && sbuf_len(m) == 0)
		return ERR_EOF;
	return r == ERR_PROTOCOL ? ERR_PACKET_TOO_LARGE : r;
}

int
main(int argc, char **argv)
{
	struct p11h h;
	struct p11h_request q;
	struct sbuf *m = sbuf_new(), *reply = sbuf_new();
	uint8_t type;
	int r, level = LOG_LEVEL_ERROR, ch;

	while ((ch = getopt(argc, argv, "v")) != -1)
		if (ch == 'v' && level < LOG_LEVEL_DEBUG3)
			level = level < LOG_LEVEL_DEBUG1 ? LOG_LEVEL_DEBUG1 :
			    level + 1;
	log_init("ssh-pkcs11-helper", level, LOG_AUTH, 1);
	signal(SIGPIPE, SIG_IGN);
	memset(&h, 0, sizeof(h));
	while ((r = read_request(m)) == 0) {
		sbuf_reset(reply);
		if (sbuf_get_u8(m, &type) != 0)
			break;
		if ((r = p11h_request_parse(type, m, &q)) != 0)
			r = put_fail(reply, ERR_INVALID_FORMAT,
			    r == ERR_FEATURE_UNSUPPORTED ? "unknown request" :
			    NULL);
		else if (type == P11_OPEN)
			r = do_open(&h, &q, reply);
		else
			r = do_sign(&h, &q, reply);
		p11h_request_clear(&q);
		sbuf_wipe(m);
		if (r != 0)
			break;
		if ((r = msg_write_framed(STDOUT_FILENO, reply)) != 0)
			break;
	}
	if (r != 0 && r != ERR_EOF)
		log_error("%s", err_str(r));
	p11h_close(&h);
	sbuf_free(m);
	sbuf_free(reply);
	return r == ERR_EOF ? 0 : 1;
}
