/*
 * trlocal.h: a server and a client transport over one socketpair, both
 * turned by the test's own process (trpair.h forks one end instead): for
 * the unit tests that watch both ends of an exchange step by step.
 *
 * trl_open() derives the client's configuration from the server's: the
 * same algorithm lists, the client role, no host keys of its own, the
 * test's host key check and its own compression list. trl_wait_msg()
 * turns both ends until the one wanted yields a message.
 */
#ifndef MOAT_TRLOCAL_H
#define MOAT_TRLOCAL_H

#include <sys/socket.h>

#include <string.h>
#include <unistd.h>

#include "err.h"
#include "key.h"
#include "sbuf.h"
#include "transport.h"

struct trl_pair {
	struct transport *s, *c;
	int fd[2];
	struct tr_config sc;	/* the server end's, for tr_import() */
};

/* Both ends; sc's lists and host keys must outlive them. */
static inline int
trl_open(struct trl_pair *p, const struct tr_config *sc, const char *ccomp,
    int (*verify)(void *arg, const struct key *k))
{
	struct tr_config cc;

	p->s = p->c = NULL;
	p->sc = *sc;
	p->sc.server = 1;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, p->fd) != 0)
		return ERR_SYSTEM;
	cc = p->sc;
	cc.server = 0;
	cc.compression = ccomp;
	cc.hostkeys = NULL;
	cc.nhostkeys = 0;
	cc.hostkey_sign = NULL;
	cc.hostkey_verify = verify;
	p->s = tr_new(p->fd[0], p->fd[0], &p->sc);
	p->c = tr_new(p->fd[1], p->fd[1], &cc);
	return p->s && p->c ? 0 : ERR_INTERNAL;
}

static inline void
trl_close(struct trl_pair *p)
{
	tr_free(p->s);
	tr_free(p->c);
	close(p->fd[0]);
	close(p->fd[1]);
}

/* Run both ends until `want` yields a message; the other must not. */
static inline int
trl_wait_msg(struct transport *want, struct transport *other, uint8_t *type,
    struct sbuf **payload)
{
	uint8_t t2;
	struct sbuf *p2;
	int i, r;

	for (i = 0; i < 200000; i++) {
		(void)tr_fd_write(want);
		(void)tr_fd_write(other);
		r = tr_fd_read(other);
		if (r != 0 && r != ERR_AGAIN)
			return r;
		r = tr_next_message(other, &t2, &p2);
		if (r == 0)
			return ERR_PROTOCOL;	/* unexpected message */
		if (r != ERR_AGAIN)
			return r;
		r = tr_fd_read(want);
		if (r != 0 && r != ERR_AGAIN)
			return r;
		r = tr_next_message(want, type, payload);
		if (r != ERR_AGAIN)
			return r;
	}
	return ERR_CONN_TIMEOUT;
}

#endif
