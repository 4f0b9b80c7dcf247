/*
 * fwd_listen.h: what the server's two kinds of forwarding have in
 * common, TCP (fwd_server.c: direct-tcpip, tcpip-forward) and Unix
 * sockets (fwd_stream.c: direct-streamlocal@openssh.com,
 * streamlocal-forward@openssh.com): the rules a connection's forwarding
 * runs under, the registration of one channel type and two global
 * requests, the listeners the client asked for with add / find / remove
 * / free-all, and the accept path that opens a channel towards the
 * client for each connection a listener takes.
 *
 * A kind is one table row (struct fwd_kind); what differs between the
 * kinds (parsing, matching, binding, the extra fields of the channel
 * open) stays in the kind's own file and reaches this one through the
 * row's hooks.
 *
 * Ownership: struct fwd_lset lives inside its kind's state; the strings
 * and structs given to fwd_lset_setup() must outlive it. An item handed
 * to fwd_lset_add() belongs to the set from then on (kind->close frees
 * it); on error it stays the caller's.
 */
#ifndef MOAT_FWD_LISTEN_H
#define MOAT_FWD_LISTEN_H

#include <stddef.h>

#include "channel.h"
#include "fwd.h"

struct servconf;
struct authopts;
struct passwd;
struct fwd_lset;

#define FWD_LSET_MAX	64	/* listeners per kind and connection */

struct fwd_kind {
	const char *name;		/* for the log: "tcpip-forward" */
	const char *chan_name;		/* and: "forwarded-tcpip" */
	const struct chan_ops *direct;	/* the channel the client opens */
	const struct chan_ops *forwarded; /* ours, per accepted connection */
	const char *forward_req;	/* the global requests and their */
	chan_global_fn forward;		/* handlers (arg: the fwd_lset) */
	const char *cancel_req;
	chan_global_fn cancel;
	/*
	 * A listener took connection fd: log it and append the open's extra
	 * fields to extra. Non-zero: no channel (fd is closed).
	 */
	int (*put_extra)(struct fwd_lset *set, void *item, int fd,
	    struct sbuf *extra);
	/* Close item's sockets (already unwatched) and free it. */
	void (*close)(struct fwd_lset *set, void *item);
};

struct fwd_listen;

/* One kind of forwarding on one connection. */
struct fwd_lset {
	const struct fwd_kind *kind;
	const struct servconf *sc;
	const struct authopts *opts;
	const struct passwd *pw;
	const char *raddr;		/* the client, for the log */
	int rport;
	struct fwd_listen *ls[FWD_LSET_MAX];
	size_t nls;
};

/*
 * Fill set and register kind's channel type and global requests on cs,
 * each with set as its argument.
 */
int fwd_lset_setup(struct fwd_lset *set, const struct fwd_kind *kind,
    struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, const struct passwd *pw, const char *raddr,
    int rport);
/* Close every listener (cs is gone by now: nothing is unwatched). */
void fwd_lset_clear(struct fwd_lset *set);

/* 0 while another listener fits, else logs and ERR_NO_BUFFER_SPACE. */
int fwd_lset_room(struct chan_set *cs, const struct fwd_lset *set);
/*
 * Watch item's listening sockets fds[0..nfds) for connections and keep
 * it. On error nothing is watched and item stays the caller's.
 */
int fwd_lset_add(struct chan_set *cs, struct fwd_lset *set, void *item,
    const int *fds, size_t nfds);
/*
 * The first listener for which match(item, key) is non-zero: 0 with its
 * index in *idxp, or ERR_NOT_FOUND.
 */
int fwd_lset_find(const struct fwd_lset *set,
    int (*match)(const void *item, const void *key), const void *key,
    size_t *idxp);
/* Stop watching listener idx, close and forget it. */
void fwd_lset_remove(struct chan_set *cs, struct fwd_lset *set, size_t idx);

#endif
