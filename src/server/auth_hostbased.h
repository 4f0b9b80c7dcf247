/*
 * auth_hostbased.h: the pieces of hostbased authentication (RFC 4252
 * section 9) that decide whether a client host and user may log in as
 * a local user: rhosts-style files (auth_rhosts.c), the client host's
 * key in known_hosts files, and the client host name (auth_hostbased.c,
 * and authority_keys.c for the name the authority trusts).
 *
 * The method handler itself is auth_m_hostbased() in auth_int.h.
 */
#ifndef MOAT_AUTH_HOSTBASED_H
#define MOAT_AUTH_HOSTBASED_H

#include <pwd.h>
#include <stdio.h>

#include "key.h"
#include "servconf.h"

/* Who is asking, for one rhosts-style file. */
struct rhosts_query {
	const char *host;		/* client host name */
	const char *addr;		/* client address (or the name again) */
	const char *client_user;	/* user name on the client host */
	const char *server_user;	/* local account; for host-only lines */
};

/*
 * One line of a hosts.equiv/shosts.equiv/.rhosts/.shosts file:
 * "[+|-][@]host [[+|-][@]user]". A host-only line names the local
 * account's own name as the user. '-' on either field makes a matching
 * line a denial; "@name" is a netgroup. Blank lines, '#' comments,
 * "NO_PLUS" lines, lines with more than two fields and bare "+" (any
 * host or user) are skipped. The host compares case-insensitively with
 * q->host or exactly with q->addr; the user exactly.
 * Returns 1 (the line lets the client in), -1 (a denial matched) or 0
 * (the line does not decide).
 */
int rhosts_line_match(const char *line, const struct rhosts_query *q);

/* The first deciding line of f wins: 1 if it allows, 0 otherwise. */
int rhosts_scan(FILE *f, const struct rhosts_query *q);

/* Files the server consults; tests point them elsewhere. */
struct hostbased_paths {
	const char *hosts_equiv;		/* /etc/hosts.equiv */
	const char *shosts_equiv;		/* /etc/ssh/shosts.equiv */
	const char *known_hosts;		/* /etc/ssh/ssh_known_hosts */
	const char *known_hosts2;		/* /etc/ssh/ssh_known_hosts2 */
};
extern const struct hostbased_paths hostbased_system_paths;

/*
 * OpenSSH's rhosts check for pw: the system equivalence files (not for
 * root), then ~/.shosts and ~/.rhosts as IgnoreRhosts allows. With
 * StrictModes the home directory and the user's files must be owned by
 * the user or root and not writable by group or others. User files are
 * read with the user's identity when running as root. 1 if some file
 * lets q in; 0 otherwise (refusals logged in OpenSSH's words).
 */
int hostbased_rhosts_ok(const struct servconf *sc, const struct passwd *pw,
    const struct rhosts_query *q, const struct hostbased_paths *paths);

/*
 * Whether key is the known host key of host: the system known_hosts
 * file, then (unless IgnoreUserKnownHosts) ~/.ssh/known_hosts; failing
 * any entry, the "2" files. @revoked wins. 1 if known; 0 otherwise.
 */
int hostbased_key_known(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const char *host,
    const struct hostbased_paths *paths);

/* The client's host name without one trailing dot (caller frees). */
char *hostbased_clean_name(const char *chost);

/*
 * The name of addr as OpenSSH's sshd checks hostbased logins: with
 * use_dns, the reverse name when it maps back to addr (lower-cased),
 * else the address itself. Caller frees.
 */
char *hostbased_canonical_name(const char *addr, int use_dns);

#endif
