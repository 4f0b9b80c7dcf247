/*
 * fuzz_muxproxy.c: what the master reads from a control connection in
 * proxy mode (ssh -O proxy): the framing (muxp_frame) and the parser
 * of one message (muxp_parse), the bytes any process of the user's that
 * reaches ControlPath may send. The input is taken as the stream a
 * downstream writes. Whatever it is: no crash, no read outside the
 * packet, and a message that parses re-encodes with other ids
 * (muxp_put_fields, framed by muxp_start/muxp_end) to a packet that
 * frames and parses to the same type, kind, name and trailing fields,
 * with the new ids.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mux_proxy.h"
#include "sbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

#define NEW_ID		0x01020304u
#define NEW_SENDER	0x0a0b0c0du

static void
roundtrip(const struct muxp_msg *m)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *pay;
	struct muxp_msg m2;
	size_t start, len, used;
	int ids = m->kind == MUXP_OPEN || m->kind == MUXP_OPEN_REPLY ||
	    m->kind == MUXP_CHAN;

	REQUIRE(muxp_start(b, m->type, &start) == 0);
	REQUIRE(muxp_put_fields(b, m, NEW_ID, NEW_SENDER) == 0);
	REQUIRE(muxp_end(b, start) == 0);
	REQUIRE(muxp_frame(sbuf_ptr(b), sbuf_len(b), &pay, &len,
	    &used) == 0);
	REQUIRE(used == sbuf_len(b));
	REQUIRE(muxp_parse(pay, len, &m2) == 0);
	REQUIRE(m2.type == m->type && m2.kind == m->kind);
	REQUIRE(m2.want_reply == m->want_reply);
	REQUIRE(m2.namelen == m->namelen &&
	    (m->namelen == 0 || memcmp(m2.name, m->name, m->namelen) == 0));
	REQUIRE(m2.restlen == m->restlen &&
	    (m->restlen == 0 || memcmp(m2.rest, m->rest, m->restlen) == 0));
	if (ids)
		REQUIRE(m2.id == NEW_ID);
	if (m->type == 91)	/* OPEN_CONFIRMATION */
		REQUIRE(m2.sender == NEW_SENDER);
	sbuf_free(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned char *pay;
	struct muxp_msg m;
	size_t len, used, off = 0;
	int r;

	/* As the master reads a downstream: packet after packet. */
	while ((r = muxp_frame(data + off, size - off, &pay, &len,
	    &used)) == 0) {
		REQUIRE(used <= size - off && len + 5 == used);
		REQUIRE(pay == data + off + 5);
		if (muxp_parse(pay, len, &m) == 0) {
			REQUIRE(m.rest >= pay && m.rest + m.restlen ==
			    pay + len);
			roundtrip(&m);
		}
		off += used;
	}
	REQUIRE(r == ERR_AGAIN || r == ERR_PACKET_TOO_LARGE ||
	    r == ERR_INVALID_FORMAT);
	/* And the bytes taken as one payload directly. */
	if (muxp_parse(data, size, &m) == 0)
		roundtrip(&m);
	return 0;
}
