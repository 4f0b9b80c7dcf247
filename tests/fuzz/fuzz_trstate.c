/*
 * fuzz_trstate.c: tr_import(), which reads the transport state the
 * pre-authentication child hands over (a blob the privileged side must
 * treat as hostile).
 *
 * At start a real key exchange runs between a server and a client in
 * this process (one per cipher and MAC pair of fuzz_tr.h's lists), and
 * the server's state is exported: those are the valid blobs. An input
 * picks one with its first byte and edits it with the rest, records of
 * "u16 offset, u8 xor" (offsets wrap around the blob), the last record
 * shortened to a truncation if it is cut short; a first byte of 0xff
 * takes the rest of the input as the whole blob instead. Whatever is
 * imported must then export again to exactly the bytes it came from.
 */
#include "fuzz_tr.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NBLOBS	(FZ_NELEM(fz_ciphers) * 2)

static struct sbuf *blobs[NBLOBS];
static struct tr_config scfg;

/* A server and a client through their first exchange; the server's state. */
static void
make_blob(size_t i)
{
	struct tr_config cc;
	struct transport *s, *c;
	uint8_t got = 0;
	int sp[2], n, ok = 1;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) != 0)
		abort();
	fz_config(&cc, 0);
	cc.kex_algs = "curve25519-sha256";
	cc.ciphers = fz_ciphers[i / 2];
	cc.macs = fz_macs[(i % 2) * 3];
	/* Delayed compression has not begun: the state can be handed on. */
	cc.compression = i % 2 ? "zlib@openssh.com" : "none";
	s = tr_new(sp[0], sp[0], &scfg);
	c = tr_new(sp[1], sp[1], &cc);
	if (s == NULL || c == NULL)
		abort();
	tr_msg_start(c, SSH2_MSG_SERVICE_REQUEST);
	if (tr_msg_send(c) != 0)
		abort();
	for (n = 0; n < FZ_MAX_ROUNDS && got != SSH2_MSG_SERVICE_REQUEST; n++)
		if (fz_pump(s, c, &ok, &got) != 0 || !ok)
			abort();
	blobs[i] = sbuf_new();
	if (got != SSH2_MSG_SERVICE_REQUEST || tr_export(s, blobs[i]) != 0)
		abort();
	tr_free(s);
	tr_free(c);
	close(sp[0]);
	close(sp[1]);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	fz_init();
	fz_config(&scfg, 1);
	for (i = 0; i < NBLOBS; i++)
		make_blob(i);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf *b = sbuf_new(), *again = sbuf_new();
	struct transport *t;
	unsigned char *p;
	size_t len, off;

	if (size == 0)
		goto out;
	if (data[0] == 0xff) {
		if (sbuf_put(b, data + 1, size - 1) != 0)
			abort();
	} else {
		if (sbuf_putb(b, blobs[data[0] % NBLOBS]) != 0)
			abort();
		p = sbuf_mutable_ptr(b);
		len = sbuf_len(b);
		for (off = 1; off + 3 <= size; off += 3)
			p[((size_t)data[off] << 8 | data[off + 1]) % len] ^=
			    data[off + 2];
		if (off + 2 == size)	/* a cut-short record: truncate */
			(void)sbuf_consume_end(b, data[off] % len);
	}
	t = tr_import(fz_devnull, fz_devnull, &scfg, sbuf_ptr(b), sbuf_len(b));
	if (t == NULL)
		goto out;
	/* What was taken must be what is given back. */
	if (tr_export(t, again) != 0 || !sbuf_equal(b, again)) {
		fprintf(stderr, "fuzz: an imported state exports differently\n");
		abort();
	}
	tr_free(t);
 out:
	sbuf_free(b);
	sbuf_free(again);
	return 0;
}
