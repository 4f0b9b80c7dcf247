/*
 * sftp_client_int.h: what the client's files share: the connection and
 * the helpers that send a request and read the one reply it may get.
 *
 * A request is built in c->req (type, id, fields) and queued with
 * sc_send(), which frames it into c->out. sc_reply() pumps both
 * directions until one whole reply sits in c->pkt, with its type and id
 * already read; the caller parses the rest of c->pkt before the next
 * sc_reply(), sc_flush() or sc_send() (c->pkt is a view into the input
 * buffer, which they may move). The sc_expect_* helpers check that the
 * reply answers the id given and is of a type that request may be
 * answered with.
 */
#ifndef MOAT_SFTP_CLIENT_INT_H
#define MOAT_SFTP_CLIENT_INT_H

#include <signal.h>
#include <stdint.h>

#include "sbuf.h"
#include "sftp_client.h"

struct sftp_conn {
	int in_fd, out_fd;
	int in_eof;		/* the server closed its end */
	uint32_t version;
	unsigned int exts;	/* SFTP_EXT_* the server offered */
	uint32_t next_id;
	uint32_t buflen;	/* bytes per READ/WRITE request */
	uint32_t num_requests;	/* outstanding READ/WRITE requests */
	uint64_t limit_kbps;
	uint64_t lim_write;	/* limits@openssh.com, 0 when unknown */
	volatile sig_atomic_t *cancel; /* set: stop the transfer */
	struct sbuf *req;	/* request being built */
	struct sbuf *out;	/* framed requests not yet written */
	struct sbuf *in;	/* bytes read, not yet parsed */
	struct sbuf *pkt;	/* view of the current reply in c->in */
	size_t pkt_len;		/* its bytes in c->in, framing included */
};

/* Start a request in c->req; *idp is its id (NULL for INIT). */
int sc_begin(struct sftp_conn *c, uint8_t type, uint32_t *idp);
/* Start an SSH2_FXP_EXTENDED request named ext. */
int sc_begin_ext(struct sftp_conn *c, const char *ext, uint32_t *idp);
/* Queue c->req; written when a reply is waited for or the queue is
 * long (then replies are read meanwhile, and c->pkt is gone). */
int sc_send(struct sftp_conn *c);
/* Write everything queued (reading replies meanwhile). */
int sc_flush(struct sftp_conn *c);
/* Next reply: *typep, and *idp (unless it is VERSION); rest in c->pkt. */
int sc_reply(struct sftp_conn *c, uint8_t *typep, uint32_t *idp);
/* The status of a STATUS reply already in c->pkt (0 for OK). */
int sc_parse_status(struct sftp_conn *c, int *statusp);
/* Reply to id must be STATUS: its status (0 for OK). */
int sc_expect_status(struct sftp_conn *c, uint32_t id);
int sc_expect_handle(struct sftp_conn *c, uint32_t id,
    struct sftp_handle **hp);
int sc_expect_attrs(struct sftp_conn *c, uint32_t id, struct sftp_attrs *a);
/* NAME with exactly one entry: its file name (caller frees). */
int sc_expect_name1(struct sftp_conn *c, uint32_t id, char **namep);
/* A path argument as an SSH string. */
int sc_put_path(struct sftp_conn *c, const char *path);
int sc_put_handle(struct sftp_conn *c, const struct sftp_handle *h);

#endif
