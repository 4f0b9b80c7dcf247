/*
 * trpair.h: the two ends of an SSH transport over a socketpair, for the
 * unit tests that run one side in a forked child.
 *
 * trp_end() opens one end with fixed algorithms (curve25519-sha256,
 * ssh-ed25519, aes128-ctr, hmac-sha2-256): the server end offers and
 * signs with an Ed25519 host key (struct trp_host, made by the test), the
 * client end accepts whatever host key it is shown. trp_start() forks:
 * the child opens its end, runs a function on it, frees the end and
 * exits with the function's value; the parent gets the other end. trp_finish() frees the
 * parent's end and reaps the child, returning its exit status.
 */
#ifndef MOAT_TRPAIR_H
#define MOAT_TRPAIR_H

#include <sys/socket.h>
#include <sys/wait.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "key.h"
#include "transport.h"

struct trp_host {
	struct key *key;	/* private: signs the exchange hash */
	struct key *pub;	/* what the server offers */
	/* When set, the exchange hash is signed through this instead. */
	int (*sign)(void *arg, const char *sigalg, const unsigned char *data,
	    size_t dlen, struct sbuf *sig);
	void *sign_arg;
};

/* A child on one end, the parent on the other. */
struct trp_peer {
	pid_t pid;
	int fd;			/* the parent's end of the socketpair */
	struct transport *t;	/* the parent's transport on fd */
};

/* The child's work on its end; its value is the child's exit status. */
typedef int (*trp_child_fn)(struct transport *t, void *arg);

static inline int
trp_sign(void *arg, const struct key *pub, const char *sigalg,
    const unsigned char *data, size_t dlen, struct sbuf *sig)
{
	const struct trp_host *h = arg;

	if (h->sign != NULL)
		return h->sign(h->sign_arg, sigalg, data, dlen, sig);
	return key_sign(h->key, sigalg, data, dlen, sig);
}

static inline int
trp_accept(void *arg, const struct key *k)
{
	return 0;
}

/* One end on fd; a server end speaks for h, which must outlive it. */
static inline struct transport *
trp_end(int fd, int server, struct trp_host *h)
{
	struct tr_config c;

	memset(&c, 0, sizeof(c));
	c.server = server;
	c.kex_algs = "curve25519-sha256";
	c.hostkey_algs = "ssh-ed25519";
	c.ciphers = "aes128-ctr";
	c.macs = "hmac-sha2-256";
	if (server) {
		c.hostkeys = &h->pub;
		c.nhostkeys = 1;
		c.hostkey_sign = trp_sign;
		c.hostkey_arg = h;
		c.peer_desc = "127.0.0.1 port 1234";
	} else
		c.hostkey_verify = trp_accept;
	return tr_new(fd, fd, &c);
}

/*
 * Fork a child running fn(its end, arg) in the server role when
 * child_server is set, else the client role; the parent's end (the other
 * role) is p->t. 0, or ERR_SYSTEM when no socketpair or child was made.
 */
static inline int
trp_start(struct trp_peer *p, struct trp_host *h, int child_server,
    trp_child_fn fn, void *arg)
{
	struct transport *t;
	int sv[2];

	memset(p, 0, sizeof(*p));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return ERR_SYSTEM;
	fflush(stdout);
	fflush(stderr);
	if ((p->pid = fork()) == -1) {
		close(sv[0]);
		close(sv[1]);
		return ERR_SYSTEM;
	}
	if (p->pid == 0) {
		int r;

		close(sv[0]);
		t = trp_end(sv[1], child_server, h);
		r = fn(t, arg);
		tr_free(t);
		_exit(r);
	}
	close(sv[1]);
	p->fd = sv[0];
	p->t = trp_end(sv[0], !child_server, h);
	return 0;
}

/* Free the parent's end, reap the child: its exit status, or -1. */
static inline int
trp_finish(struct trp_peer *p)
{
	int status;

	tr_free(p->t);
	close(p->fd);
	if (waitpid(p->pid, &status, 0) != p->pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif
