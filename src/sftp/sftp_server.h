/*
 * sftp_server.h: the SFTP (version 3) server core behind sftp-server.
 *
 * A server reads requests from one descriptor and writes replies to
 * another (stdin and stdout in the program, a socketpair in the tests).
 * It answers one request at a time in arrival order, buffering both
 * directions and polling so a client that pipelines many requests never
 * deadlocks against it. A request longer than SFTP_MAX_MSG_LENGTH ends
 * the session, as OpenSSH's server does.
 *
 * The server acts on the file system as the process's own user; it
 * neither changes user nor confines paths (sshd already did the former,
 * ChrootDirectory the latter).
 */
#ifndef MOAT_SFTP_SERVER_H
#define MOAT_SFTP_SERVER_H

#include <stddef.h>

struct sftp_server;

struct sftp_server_opts {
	const char *user;	/* local user, for logs and "~" */
	const char *home;	/* that user's home directory */
	const char *client_addr; /* for the session log lines */
	int readonly;		/* refuse every request that writes */
	const char *allowed;	/* comma list of request names, or NULL */
	const char *denied;	/* comma list of request names, or NULL */
};

/* The options are copied; *sp is freed with sftp_server_free(). */
int sftp_server_new(const struct sftp_server_opts *o, int in_fd, int out_fd,
    struct sftp_server **sp);
void sftp_server_free(struct sftp_server *s);
/*
 * Serve until the client closes its end: 0 then; ERR_PROTOCOL for a
 * request the session cannot go on after (too large, before INIT), or
 * ERR_SYSTEM for an I/O error. Open handles are closed either way.
 */
int sftp_server_run(struct sftp_server *s);

/*
 * The sftp-server(8) command line: flags as OpenSSH's, then serve stdin
 * and stdout as pw (its name and home; the process already runs as that
 * user). argv[0]'s last component names the program in usage and logs
 * ("sftp-server", "internal-sftp"). Returns the exit status; it exits
 * nothing itself.
 */
struct passwd;
int sftp_server_main(int argc, char **argv, const struct passwd *pw);

/* Request names for -p/-P/-Q requests, in OpenSSH's order; NULL past end. */
const char *sftp_server_request_name(size_t i);

#endif
