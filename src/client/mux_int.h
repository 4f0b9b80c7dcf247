/*
 * mux_int.h: what mux_master.c and mux_msess.c share: one client of the
 * control socket, and the master's state. Not for other modules.
 */
#ifndef MOAT_MUX_INT_H
#define MOAT_MUX_INT_H

#include "ev.h"
#include "mux.h"

struct mux_sess;
struct mux_proxy;

struct mux_conn {
	struct mux_master *mm;
	int fd;
	struct sbuf *in;		/* bytes of a message not yet whole */
	int hello;			/* the client's hello came */
	struct mux_sess *sess;		/* its session or -W, if any */
	struct mux_proxy *px;		/* proxy mode, if asked */
	struct mux_conn *next;
};

struct mux_master {
	const struct client_opts *o;
	char *host;
	char *path;			/* the control socket; NULL: removed */
	int lfd;
	struct chan_set *cs;
	struct fwd_client *fc;
	struct agent_fwd *afwd;		/* may be NULL */
	struct x11_fwd *x11;		/* may be NULL */
	struct mux_conn *conns;
	int own_session;		/* the master's own session runs */
	int terminated;			/* -O exit */
	int stopped;			/* -O stop */
	int persist;			/* ControlPersist (mux_persist_secs) */
	struct ev_timer persist_tm;
	struct ev_timer idle_tm;		/* mux_master_check_idle() */
	uint32_t next_sid;
	void *waits;			/* -R answers clients wait for */
};

/* mux_master.c */
/* Queue a whole message (as the encoders made it) for c. */
int mux_conn_send(struct mux_conn *c, const struct sbuf *m);
/* The client is done with (its session ended): close and forget it. */
void mux_conn_close(struct mux_conn *c);
/* A session ended: maybe time to go (ControlPersist, -O stop). */
void mux_master_check_idle(struct mux_master *mm);
/* End the connection's loop. */
void mux_master_quit(struct mux_master *mm);

/*
 * mux_ask.c: 1 when the user allows a request (always, unless
 * ControlMaster is ask or autoask): the question, then what it is about
 * (NULL: the host), then "? ".
 */
int mux_allowed(struct mux_master *mm, const char *question,
    const char *what);
/* The same for a forwarding of kind 'L', 'R' or 'D'. */
struct fwd_spec;
int mux_fwd_allowed(struct mux_master *mm, int kind,
    const struct fwd_spec *f);

/* mux_msess.c: q's strings are taken; fds are the session's. */
void msess_start(struct mux_conn *c, struct mux_req *q, int fds[3]);
void msess_stdio(struct mux_conn *c, struct mux_req *q, int fds[2]);
/* The client went away: end the session's channel. */
void msess_client_gone(struct mux_sess *s);
void msess_winch(struct mux_sess *s);
/* The master is going: the session's channel goes with the set. */
void msess_detach(struct mux_sess *s);

/*
 * mux_proxy.c: c was answered MUX_S_PROXY: from now on its socket
 * carries its channels (c->px set). _client_gone: the client went or is
 * dropped (its channels are closed upstream); _detach: the master is
 * going. Both free c->px and leave c's fd to the caller.
 */
int mproxy_start(struct mux_conn *c);
void mproxy_client_gone(struct mux_proxy *px);
void mproxy_detach(struct mux_proxy *px);

#endif
