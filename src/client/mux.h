/*
 * mux.h: connection sharing (ControlMaster, ControlPath, ControlPersist,
 * ssh -M -S -O), the protocol of OpenSSH's PROTOCOL.mux, version 4.
 *
 *   mux_wire.c    message framing, the request parser (hostile bytes
 *                 from whoever reaches the socket), fd passing
 *   mux_master.c  the master: the control socket, its clients, and the
 *                 requests other than sessions
 *   mux_msess.c   the master's sessions for its clients: a session (or
 *                 -W direct-tcpip) channel on the shared connection,
 *                 wired to the fds the client passed, escapes and all
 *   mux_client.c  ssh as a client of a master: sessions, -W, -O
 *   mux_proxy*.c  the master's clients in proxy mode (mux_proxy.h)
 *
 * Every message on the socket is a uint32 length and that many bytes,
 * the first four being the message type. A new session is followed by
 * the client's three descriptors, each sent alone with one byte of data
 * (SCM_RIGHTS), as OpenSSH does.
 */
#ifndef MOAT_MUX_H
#define MOAT_MUX_H

#include <stddef.h>
#include <stdint.h>

#include "client.h"

struct sbuf;
struct chan_set;
struct fwd_client;
struct agent_fwd;
struct x11_fwd;
struct transport;

#define MUX_VERSION		4
#define MUX_MSG_HELLO		0x00000001u
#define MUX_C_NEW_SESSION	0x10000002u
#define MUX_C_ALIVE_CHECK	0x10000004u
#define MUX_C_TERMINATE		0x10000005u
#define MUX_C_OPEN_FWD		0x10000006u
#define MUX_C_CLOSE_FWD		0x10000007u
#define MUX_C_NEW_STDIO_FWD	0x10000008u
#define MUX_C_STOP_LISTENING	0x10000009u
#define MUX_C_PROXY		0x1000000fu
#define MUX_S_OK		0x80000001u
#define MUX_S_PERMISSION_DENIED	0x80000002u
#define MUX_S_FAILURE		0x80000003u
#define MUX_S_EXIT_MESSAGE	0x80000004u
#define MUX_S_ALIVE		0x80000005u
#define MUX_S_SESSION_OPENED	0x80000006u
#define MUX_S_REMOTE_PORT	0x80000007u
#define MUX_S_TTY_ALLOC_FAIL	0x80000008u
#define MUX_S_PROXY		0x8000000fu

#define MUX_FWD_LOCAL		1
#define MUX_FWD_REMOTE		2
#define MUX_FWD_DYNAMIC		3
/* A port of (uint32_t)-2: the host field is a socket path. */
#define MUX_FWD_PATH_PORT	0xfffffffeu
/* No escape character. */
#define MUX_NO_ESCAPE		0xffffffffu

/* Largest message either side accepts. */
#define MUX_MAX_MSG		(256u * 1024)
/* Most environment strings one session request may carry. */
#define MUX_MAX_ENV		256

/* ControlMaster values (readconf's enum). */
enum { MUX_NO = 0, MUX_YES = 1, MUX_ASK = 2, MUX_AUTO = 3, MUX_AUTOASK = 4 };

/* ssh -O commands. */
enum mux_cmd {
	MUXC_NONE = 0, MUXC_CHECK, MUXC_FORWARD, MUXC_CANCEL, MUXC_EXIT,
	MUXC_STOP, MUXC_PROXY,
};

/* One request from a client, parsed (mux_wire.c). Strings are owned. */
struct mux_req {
	uint32_t type;
	uint32_t rid;			/* request id; none in a hello */
	uint32_t version;		/* hello */
	/* MUX_C_NEW_SESSION */
	int want_tty, want_x11, want_agent, subsystem;
	uint32_t escape_char;
	char *term;
	char *command;
	char *env[MUX_MAX_ENV];		/* "NAME=value" */
	size_t nenv;
	/* MUX_C_OPEN_FWD / MUX_C_CLOSE_FWD (ftype) and _NEW_STDIO_FWD */
	uint32_t ftype;
	char *listen_host;
	uint32_t listen_port;
	char *connect_host;
	uint32_t connect_port;
};

/*
 * Parse one message body (type first, after the length) into q.
 * ERR_INVALID_FORMAT (or a getter's error) for anything malformed or
 * unknown; q is cleared and may be cleared again either way.
 */
int mux_parse_request(const unsigned char *p, size_t len, struct mux_req *q);
void mux_req_clear(struct mux_req *q);
/* Encoders: the whole message, length first, appended to b. */
int mux_put_hello(struct sbuf *b);
int mux_put_session(struct sbuf *b, const struct mux_req *q);
int mux_put_fwd(struct sbuf *b, const struct mux_req *q);
int mux_put_stdio_fwd(struct sbuf *b, const struct mux_req *q);
int mux_put_simple(struct sbuf *b, uint32_t type, uint32_t rid);
int mux_put_u32s(struct sbuf *b, uint32_t type, uint32_t a, uint32_t c);
int mux_put_status(struct sbuf *b, uint32_t type, uint32_t rid,
    const char *reason);
/*
 * Cut one whole message from the front of in (bytes read so far):
 * 0 and a view of its body (*bodyp, *lenp, valid until in changes;
 * consume 4 + *lenp when done), ERR_AGAIN for more, ERR_PACKET_TOO_LARGE.
 */
int mux_frame(const struct sbuf *in, const unsigned char **bodyp,
    size_t *lenp);

/* Blocking I/O on a socket (either side); poll()s when non-blocking. */
int mux_write_all(int fd, const void *p, size_t len);
/* Read one message body into b (reset first): 0, ERR_EOF, or errors. */
int mux_read_msg(int fd, struct sbuf *b);
/* One descriptor with one byte of data (received by fd_recv_fd). */
int mux_send_fd(int sock, int fd);

/* ---- mux_master.c ---- */
struct mux_master;
/*
 * The master for o (ControlPath already expanded; o outlives it): bind
 * the control socket. NULL (after OpenSSH's message) when it cannot be
 * had, and the connection goes on without sharing.
 */
struct mux_master *mux_master_new(const struct client_opts *o,
    const char *host);
/*
 * Once the connection is up: watch the socket in cs's loop. afwd and
 * x11 (either may be NULL) serve the clients' sessions that ask for
 * agent or X11 forwarding, as they serve the master's own.
 */
int mux_master_setup(struct mux_master *mm, struct chan_set *cs,
    struct fwd_client *fc, struct agent_fwd *afwd, struct x11_fwd *x11,
    int own_session);
/* The loop ended (the session's after_loop hook, arg the master). */
void mux_master_detach(void *arg);
/* SIGWINCH came: window sizes of the sessions with a tty (arg: mm). */
void mux_master_winch(void *arg);
/* Stop listening (remove the socket) and free. */
void mux_master_free(struct mux_master *mm);
/* Stop listening and remove the socket (-O stop). */
void mux_master_close_listener(struct mux_master *mm);
/* In a process that is not the master: close, remove nothing, free. */
void mux_master_forget(struct mux_master *mm);
/* Whether the loop was ended by a client's -O exit. */
int mux_master_terminated(const struct mux_master *mm);
/* ControlPersist: 0 no, -1 yes (for ever), else seconds. */
int mux_persist_secs(const struct client_opts *o);

/* ---- mux_client.c ---- */
/*
 * As a client of a master at o->control_path: with cmd MUXC_NONE run
 * the session (or -W) there. Returns the exit status, or -1 when there
 * is no master to use (the caller connects on its own).
 */
struct ssh_mux_args {
	enum mux_cmd cmd;
	const char *command;	/* NULL: shell */
	int subsystem;
	int want_tty;
	int stdin_null;
	int no_command;
	int force;		/* whatever ControlMaster says (persist) */
};
int mux_client(const struct client_opts *o, const struct ssh_mux_args *a);
/*
 * ssh -O proxy: connect to the master at o->control_path, say hello and
 * ask for proxy mode (MUX_C_PROXY). The socket, in proxy mode from now
 * on (for tr_new_plain()), or -1 after OpenSSH's message.
 */
int mux_client_proxy(const struct client_opts *o);
/* "check" -> MUXC_CHECK...; MUXC_NONE for an unknown word. */
enum mux_cmd mux_cmd_from_name(const char *s);

#endif
