/* sshd.h: state of the server program, shared by its source files. */
#ifndef MOAT_SSHD_H
#define MOAT_SSHD_H

#include <limits.h>
#include <netdb.h>

#include "cert.h"
#include "installdirs.h"
#include "key.h"
#include "servconf.h"

#define SSHD_CONFIG_DEFAULT MOAT_SSHDIR "/sshd_config"
#define SSHD_RESTART	2	/* listen_loop(): SIGHUP, exec ourselves */
#define MAX_LISTEN	64
/* The one byte a connection process sends its listener: authenticated. */
#define SSHD_STARTUP_AUTHENTICATED 0x01

/*
 * Each connection process is sshd executed anew (sshd -R, an option
 * for sshd's own use), so that it gets an address-space layout of its
 * own rather than a copy of the listener's. It finds the accepted
 * socket, the startup pipe's write end and the configuration the
 * listener read on these descriptors; 0-2 are the listener's
 * (/dev/null, or the log under -e).
 */
#define SSHD_REXEC_SOCK_FD	3
#define SSHD_REXEC_PIPE_FD	4
/* The listener's record of the configuration files (conftape.h). */
#define SSHD_REXEC_CONF_FD	5
/*
 * The exit status of a connection process that could not start (the
 * exec failed, or the configuration or host keys no longer load): the
 * server's fault, so it earns the client no penalty (penalty.h).
 */
#define SSHD_EXIT_NOT_STARTED	0

struct server {
	struct servconf *sc;
	struct key *hostkeys[SC_MAX_LIST];	/* private */
	struct key *hostpub[SC_MAX_LIST];	/* public halves */
	struct key_cert *hostcerts[SC_MAX_LIST]; /* HostCertificate, or NULL */
	size_t nhostkeys;
	int default_hostkeys;		/* no HostKey line: quieter */
	int log_stderr;
	int debug;				/* -d: no LoginGraceTime */
	int sandbox_flags;			/* sandbox_apply()'s */
	/* The listener's: what each connection process runs (-R first). */
	char **rexec_argv;
	char rexec_cwd[PATH_MAX];	/* sshd's start directory; "": none */
	int conf_fd;			/* conftape.h's memfd, or -1 */
};

struct conn_info {
	char raddr[NI_MAXHOST];
	char laddr[NI_MAXHOST];
	int rport, lport;
	char desc[NI_MAXHOST + 16];
};

struct listener {
	int fds[MAX_LISTEN];
	size_t nfds;
};

/* hostkeys.c: HostKey and HostCertificate; ERR_CONFIG when none loads. */
int load_hostkeys(struct server *s);

/* sshd.c */
void describe_peer(int fd, struct conn_info *ci);
/*
 * The transport's host key signer (tr_config.hostkey_sign, with a
 * struct hostkey_signer as its arg): the authority signs with the
 * number of pub among s's host keys.
 */
struct authority;
struct hostkey_signer {
	struct server *s;
	struct authority *auth;
};
int sshd_hostkey_sign(void *arg, const struct key *pub, const char *sigalg,
    const unsigned char *data, size_t dlen, struct sbuf *sig);
/*
 * Serve one connection on fds in/out; returns the process exit status
 * (penalty.h's SSHD_EXIT_* when it ended before authentication).
 * authpipe: the startup pipe's write end, or -1.
 */
int serve_connection(struct server *s, int in, int out, int authpipe);

/*
 * privsep.c: privilege separation of one connection.
 *
 * privsep_preauth: run the pre-authentication half of a connection on
 * in/out in a sandboxed child (which closes authpipe, the listener's;
 * -1: none), answering it as its monitor with local (which the monitor
 * *mp then owns; monitor_free() it). tc: the transport settings of this
 * process, whose signer is local's. 0 when a user was authenticated:
 * *statep is the child's transport state (the monitor's record of the
 * login: monitor_take_result()). Otherwise the pre-auth exit status for
 * the listener (penalty.h), with *statep NULL.
 *
 * privsep_postauth: carry the connection on from state (freed) in a
 * process that runs as res->pw (with its ChrootDirectory) and holds no
 * host private key, serving it as m until it ends; its exit status.
 */
struct tr_config;
struct auth_conn;
struct auth_result;
struct authority;
struct monitor;
struct sbuf;
int privsep_preauth(struct server *s, int in, int out, int authpipe,
    const struct tr_config *tc, const struct auth_conn *ac,
    struct authority *local, struct monitor **mp, struct sbuf **statep);
int privsep_postauth(struct server *s, int in, int out,
    const struct tr_config *tc, struct monitor *m, struct sbuf *state,
    struct auth_result *res, const struct conn_info *ci);

/*
 * notify.c: tell the service manager at $NOTIFY_SOCKET (if set) the
 * state, e.g. "READY=1"; sshd_notify_reloading() sends RELOADING=1 with
 * the MONOTONIC_USEC= systemd asks for. Failures are logged only.
 */
void sshd_notify(const char *state);
void sshd_notify_reloading(void);

/* listen.c: accept and fork until a signal; 0, 1 or SSHD_RESTART. */
int listen_loop(struct server *s, struct listener *l);

#endif
