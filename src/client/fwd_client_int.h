/*
 * fwd_client_int.h: what fwd_client.c (forwardings set up at login)
 * and fwd_client_live.c (added and cancelled while connected: ~C and
 * mux clients) share. Not for other modules.
 */
#ifndef MOAT_FWD_CLIENT_INT_H
#define MOAT_FWD_CLIENT_INT_H

#include "fwd.h"
#include "fwd_client.h"

#define FC_MAX	(3 * CO_MAX_LIST)

struct cl_fwd {
	struct fwd_client *fc;
	struct fwd_spec spec;
	int kind;			/* 'L', 'R', 'D' */
	int allocated;			/* -R 0: the port the server chose */
	int canceled;			/* ~C -K: gone (kept for replies due) */
	struct fwd_listener l;
	fwd_client_done_fn done;	/* a mux client's -R: who hears */
	void *done_arg;
};

struct fwd_client {
	const struct client_opts *o;
	struct chan_set *cs;
	struct cl_fwd *f[FC_MAX];
	size_t n;
	int failed;
	int stdio_ok;			/* -W channel was opened */
	struct socks_rev *rsocks;	/* -R dynamic: relays under way */
};

/* A written forwarding ("[bind:]port:host:hostport", ...) into f. */
int fc_parse_written(const char *w, int dynamic, struct fwd_spec *f);
/* -L/-D: listen for f; ExitOnForwardFailure decides what failing does. */
int fc_setup_listener(struct fwd_client *fc, struct cl_fwd *f);
/* -R: ask the server to listen for f (the answer comes later). */
int fc_request_remote(struct fwd_client *fc, struct cl_fwd *f);

#endif
