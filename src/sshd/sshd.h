/* sshd.h: state of the server program, shared by its source files. */
#ifndef MOAT_SSHD_H
#define MOAT_SSHD_H

#include <netdb.h>

#include "cert.h"
#include "key.h"
#include "servconf.h"

#define SSHD_CONFIG_DEFAULT "/etc/ssh/sshd_config"
#define SSHD_RESTART	2	/* listen_loop(): SIGHUP, exec ourselves */

struct server {
	struct servconf *sc;
	struct key *hostkeys[SC_MAX_LIST];	/* private */
	struct key *hostpub[SC_MAX_LIST];	/* public halves */
	struct key_cert *hostcerts[SC_MAX_LIST]; /* HostCertificate, or NULL */
	size_t nhostkeys;
	int log_stderr;
	int debug;				/* -d: no LoginGraceTime */
};

struct conn_info {
	char raddr[NI_MAXHOST];
	char laddr[NI_MAXHOST];
	int rport, lport;
	char desc[NI_MAXHOST + 16];
};

#endif
