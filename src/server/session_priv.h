/*
 * session_priv.h: state shared by session.c (the channel type) and
 * sesschild.c (starting the child). Not for other modules.
 */
#ifndef MOAT_SESSION_PRIV_H
#define MOAT_SESSION_PRIV_H

#include <netdb.h>
#include <sys/ioctl.h>
#include <sys/types.h>

#include "session.h"

struct chan_set;
struct chan;
struct fwd_agent;
struct tun_server;
struct x11_srv;

/* One connection. */
struct sess_conn {
	struct chan_set *cs;
	const struct servconf *sc;
	const struct passwd *pw;
	const struct authopts *opts;
	const char *raddr;
	int rport;
	char laddr[NI_MAXHOST];
	int lport;
	int sockfd;			/* the connection's socket, for IPQoS */
	int nsessions;
	int next_id;			/* session number for logs */
	struct fwd_agent *agent;	/* agent forwarding's listener */
	int agent_asked;		/* auth-agent-req@openssh.com seen */
	struct tun_server *tun;		/* tunnels, for SSH_TUNNEL */
};

/* One session channel. */
struct session {
	struct sess_conn *conn;
	struct chan *c;
	int id;
	pid_t pid;			/* 0: no child (yet, or reaped) */
	int started;			/* exec/shell/subsystem done */
	int is_subsystem;		/* started by a subsystem request */
	int exit_sent;
	int ptyfd, ttyfd;		/* -1: no pty */
	char ttyname[64];
	int logged_in;			/* utmp/wtmp hold our login on it */
	struct winsize ws;
	char *term;
	struct sess_env env;		/* accepted "env" requests */
	char *chroot_path;		/* checked ChrootDirectory, or NULL */
	int internal_sftp;		/* SESS_ISFTP_* */
	struct x11_srv *x11;		/* X11 forwarding's listener */
};

/* What the child does with an internal-sftp command. */
#define SESS_ISFTP_NO		0	/* nothing: it is run by the shell */
#define SESS_ISFTP_RUN		1	/* serve SFTP in the child itself */
#define SESS_ISFTP_REFUSE	2	/* forced, but not a subsystem */

/* Whether command is "internal-sftp", alone or with arguments. */
int sess_is_internal_sftp(const char *command);

/*
 * Start the child for s: command (NULL: login shell), with
 * original_command set as SSH_ORIGINAL_COMMAND when not NULL. On success
 * s->pid is set and the channel's fds are attached.
 */
/* session_set_recorder()'s, for the pty sessions' login records. */
extern struct session_recorder sess_recorder;

int sess_spawn(struct session *s, const char *command,
    const char *original_command);

#endif
