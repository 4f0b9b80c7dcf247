/*
 * fuzz_mux.c: the master's parser of control socket requests
 * (mux_frame, mux_parse_request), the bytes any process of the user's
 * that reaches ControlPath may send. Whatever the input: no crash, a
 * refused request leaves nothing owned behind, and an accepted one
 * re-encodes (sessions and forwardings) to bytes that parse to the same
 * fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mux.h"
#include "sbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

static int
same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a == NULL || *a == '\0') && (b == NULL || *b == '\0');
	return strcmp(a, b) == 0;
}

static void
roundtrip(const struct mux_req *q)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *body;
	struct mux_req q2;
	size_t len, i;
	int r;

	if (q->type == MUX_C_NEW_SESSION)
		r = mux_put_session(b, q);
	else
		r = mux_put_fwd(b, q);
	REQUIRE(r == 0);
	REQUIRE(mux_frame(b, &body, &len) == 0);
	REQUIRE(mux_parse_request(body, len, &q2) == 0);
	REQUIRE(q2.type == q->type && q2.rid == q->rid);
	if (q->type == MUX_C_NEW_SESSION) {
		REQUIRE(q2.want_tty == q->want_tty && q2.nenv == q->nenv);
		REQUIRE(q2.escape_char == q->escape_char);
		REQUIRE(same(q2.term, q->term) &&
		    same(q2.command, q->command));
		for (i = 0; i < q->nenv; i++)
			REQUIRE(strcmp(q2.env[i], q->env[i]) == 0);
	} else {
		REQUIRE(q2.ftype == q->ftype &&
		    q2.listen_port == q->listen_port &&
		    q2.connect_port == q->connect_port);
		REQUIRE(same(q2.listen_host, q->listen_host) &&
		    same(q2.connect_host, q->connect_host));
	}
	mux_req_clear(&q2);
	sbuf_free(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf *in;
	const unsigned char *body;
	struct mux_req q;
	size_t len;

	/* As the master reads: a frame, then the request in it. */
	if ((in = sbuf_from(data, size)) == NULL)
		return 0;
	if (mux_frame(in, &body, &len) == 0) {
		REQUIRE(len <= size - 4);
		if (mux_parse_request(body, len, &q) == 0 &&
		    (q.type == MUX_C_NEW_SESSION ||
		    q.type == MUX_C_OPEN_FWD || q.type == MUX_C_CLOSE_FWD))
			roundtrip(&q);
		mux_req_clear(&q);
	}
	sbuf_free(in);
	/* And the bytes taken as a body directly. */
	if (mux_parse_request(data, size, &q) == 0 &&
	    (q.type == MUX_C_NEW_SESSION || q.type == MUX_C_OPEN_FWD ||
	    q.type == MUX_C_CLOSE_FWD))
		roundtrip(&q);
	mux_req_clear(&q);
	return 0;
}
