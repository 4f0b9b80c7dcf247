/*
 * agentdtest.h: one request to an in-process agent (agentd.h) as the
 * unit tests of the agent's protocol make it: a type byte and a body in,
 * the answer's type and what follows it out.
 */
#ifndef MOAT_AGENTDTEST_H
#define MOAT_AGENTDTEST_H

#include <stdint.h>

#include "agent.h"
#include "agentd.h"
#include "sbuf.h"

/*
 * Send one request (type, body or nothing) and return the answer's type,
 * or -1 when the handler returned an error (the agent would close the
 * connection). reply, when not NULL, gets the answer after its type byte.
 */
static inline int
agentd_req(struct agentd *a, struct agentd_conn *c, int type,
    const struct sbuf *body, struct sbuf *reply)
{
	struct sbuf *m = sbuf_new(), *out = sbuf_new();
	uint8_t t;
	int rt = -1;

	sbuf_put_u8(m, (uint8_t)type);
	if (body != NULL)
		sbuf_putb(m, body);
	if (agentd_request(a, c, sbuf_ptr(m), sbuf_len(m), out) == 0 &&
	    sbuf_get_u8(out, &t) == 0) {
		rt = t;
		if (reply != NULL)
			sbuf_putb(reply, out);
	}
	sbuf_free(m);
	sbuf_free(out);
	return rt;
}

/* How many identities the agent lists (99 when it does not answer). */
static inline uint32_t
agentd_list_count(struct agentd *a, struct agentd_conn *c)
{
	struct sbuf *r = sbuf_new();
	uint32_t n = 99;

	if (agentd_req(a, c, SSH_AGENTC_REQUEST_IDENTITIES, NULL, r) ==
	    SSH_AGENT_IDENTITIES_ANSWER)
		sbuf_get_u32(r, &n);
	sbuf_free(r);
	return n;
}

#endif
