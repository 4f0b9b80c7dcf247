/*
 * servconf.h: sshd_config, parsed and resolved.
 *
 * Keywords are OpenSSH's, case-insensitive; for most keywords the first
 * value obtained wins (later lines and Match blocks do not override a
 * value already set); unknown keywords and bad values are errors with
 * file:line. Include is expanded in place (glob, relative to /etc/ssh).
 * Match blocks are kept and applied per connection by
 * servconf_apply_match(), which copies the global settings and overlays
 * the matching blocks' settings.
 *
 * Ownership: servconf_new() returns a struct the caller frees with
 * servconf_free(); all strings and arrays inside belong to it.
 */
#ifndef MOAT_SERVCONF_H
#define MOAT_SERVCONF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SC_MAX_LIST 256

#define SC_PKOPT_TOUCH	0x01	/* PubkeyAuthOptions touch-required */
#define SC_PKOPT_VERIFY	0x02	/* PubkeyAuthOptions verify-required */

enum permit_root {
	PERMIT_ROOT_NO, PERMIT_ROOT_FORCED_ONLY /* forced-commands-only */,
	PERMIT_ROOT_NO_PASSWORD /* prohibit-password, without-password */,
	PERMIT_ROOT_YES,
};

enum ignore_rhosts {
	IGNORE_RHOSTS_NO, IGNORE_RHOSTS_YES,
	IGNORE_RHOSTS_SHOSTS /* shosts-only: read .shosts, not .rhosts */,
};

struct sc_listen {
	char *addr;		/* NULL: any */
	int port;		/* 0: the Port values */
};

struct sc_subsystem {
	char *name;
	char *command;		/* full command line */
};

/*
 * PerSourcePenalties: seconds (fractions allowed) a source is refused
 * after each kind of ending, as OpenSSH 9.8+ keeps them.
 */
struct sc_penalties {
	int enabled;
	double crash, authfail, noauth, invaliduser, grace_exceeded;
	double refuseconnection, max, min;
	int max_sources4, max_sources6;
	int overflow_deny_all4, overflow_deny_all6;	/* 0: permissive */
};

struct match_conn {		/* what a Match block is tested against */
	const char *user;
	const char *host;	/* reverse-resolved name, or address */
	const char *address;
	const char *laddress;
	int lport;		/* 0: not known */
	const char *rdomain;	/* routing domain, or NULL for none */
};

struct servconf {
	int ports[SC_MAX_LIST];
	size_t nports;
	struct sc_listen listen[SC_MAX_LIST];
	size_t nlisten;
	int address_family;		/* AF_UNSPEC, AF_INET, AF_INET6 */
	char *hostkeys[SC_MAX_LIST];
	size_t nhostkeys;
	char *pid_file;
	int log_level;			/* enum log_level */
	int log_level_matched;		/* a Match block set log_level */
	int log_facility;		/* LOG_AUTH ... */
	/* Final algorithm lists, after +,-,^ against the defaults. */
	char *ciphers;
	char *macs;
	char *kex_algorithms;
	char *hostkey_algorithms;
	char *pubkey_accepted_algorithms;
	uint64_t rekey_bytes;		/* 0: default */
	uint32_t rekey_seconds;		/* 0: none */
	int login_grace_time;		/* seconds; 0: none */
	int max_auth_tries;
	int max_sessions;
	int max_startups_begin, max_startups_rate, max_startups_max;
	int per_source_max_startups;	/* INT_MAX: none */
	int per_source_masklen4, per_source_masklen6;	/* NetBlockSize */
	struct sc_penalties penalties;	/* PerSourcePenalties */
	char *penalty_exempt;		/* address list; NULL: none */
	enum permit_root permit_root_login;
	int pubkey_authentication;
	int password_authentication;
	int kbd_interactive_authentication;
	int permit_empty_passwords;
	/*
	 * PermitUserEnvironment: 1 for "yes" or a pattern list, 0 for "no";
	 * the pattern list of names allowed (NULL: every name).
	 */
	int permit_user_environment;
	char *permit_user_env_allowlist;
	char *authorized_keys_files[SC_MAX_LIST];	/* %h %u %% unexpanded */
	size_t nauthorized_keys_files;
	int strict_modes;
	char *allow_users[SC_MAX_LIST];
	size_t nallow_users;
	char *deny_users[SC_MAX_LIST];
	size_t ndeny_users;
	char *allow_groups[SC_MAX_LIST];
	size_t nallow_groups;
	char *deny_groups[SC_MAX_LIST];
	size_t ndeny_groups;
	struct sc_subsystem subsystems[SC_MAX_LIST];
	size_t nsubsystems;
	char *force_command;		/* NULL: none */
	int permit_tty;
	int print_motd;
	int print_last_log;
	char *banner;			/* path; NULL: none */
	int client_alive_interval;	/* seconds; 0: off */
	int client_alive_count_max;
	int tcp_keep_alive;
	char *set_env[SC_MAX_LIST];	/* NAME=value */
	size_t nset_env;
	char *accept_env[SC_MAX_LIST];	/* patterns */
	size_t naccept_env;
	char *chroot_directory;		/* NULL: none */
	int use_pam;
	char *pam_service_name;		/* PAMServiceName; default "sshd" */
	char *moduli_file;		/* NULL: /etc/ssh/moduli */
	char *version_addendum;		/* NULL: none */
	int use_dns;
	int allow_tcp_forwarding;	/* FWD_ALLOW_* bits: 1 remote, 2 local */
	int x11_forwarding;
	int x11_display_offset;		/* first display number tried */
	int x11_use_localhost;
	char *xauth_location;		/* default /usr/bin/xauth */
	int allow_agent_forwarding;
	int gateway_ports;
	int permit_tunnel;
	int compression;
	char *authorized_keys_command;
	char *authorized_keys_command_user;
	int authorized_keys_command_timeout;	/* seconds; 0: none */
	char *trusted_user_ca_keys;
	char *revoked_keys;
	char *authorized_principals_file;	/* %h %u %%; NULL: none */
	char *authorized_principals_command;	/* NULL: none */
	char *authorized_principals_command_user;
	char *host_certificates[SC_MAX_LIST];
	size_t nhost_certificates;
	char *authentication_methods;	/* NULL: any */
	char *permit_open[SC_MAX_LIST];	/* host:port, "any", "none" */
	size_t npermit_open;
	char *permit_listen[SC_MAX_LIST];	/* [host:]port, "any", "none" */
	size_t npermit_listen;
	int disable_forwarding;
	int allow_streamlocal_forwarding;	/* as allow_tcp_forwarding */
	int streamlocal_bind_mask;	/* umask for bound sockets; 0177 */
	int streamlocal_bind_unlink;	/* remove a stale socket first */
	/* Hostbased authentication (auth_hostbased.c). */
	int hostbased_authentication;
	char *hostbased_accepted_algorithms;
	int hostbased_uses_name_from_packet_only;
	int ignore_rhosts;		/* enum ignore_rhosts */
	int ignore_user_known_hosts;
	/* Keys, logging, sessions (servconf_more.c parses the odd ones). */
	int required_rsa_size;		/* bits; user keys below are refused */
	int fingerprint_hash;		/* enum key_fp_hash, for log lines */
	int permit_user_rc;		/* run ~/.ssh/rc */
	int expose_auth_info;		/* $SSH_USER_AUTH */
	int refuse_connection;		/* RefuseConnection: end at the user lookup */
	char *log_verbose;		/* LogVerbose as written; NULL: none */
	char *ca_signature_algorithms;	/* of certificate CA signatures */
	int pubkey_auth_options;	/* SC_PKOPT_* bits */
	int unused_connection_timeout;	/* seconds; 0: none */
	char *channel_timeouts[SC_MAX_LIST];	/* "type=seconds" as written */
	size_t nchannel_timeouts;
	int ipqos_interactive, ipqos_bulk;	/* IP_TOS values; -1: none */
	int debian_banner;		/* accepted; our banner has no tag */

	/* Private to servconf.c: Match blocks and parse bookkeeping. */
	void *priv;
};

struct servconf *servconf_new(void);
void servconf_free(struct servconf *sc);
/*
 * Parse a config file (following Include). On error, logs
 * "path line N: message" and returns ERR_CONFIG; errors are counted so
 * that sshd -t reports every bad line, not just the first.
 */
int servconf_load(struct servconf *sc, const char *path);
/*
 * From now on, servconf_load() (and its Includes) records every file it
 * reads on tape, or, if tape replays, reads them from it instead of
 * from disk (conftape.h). The tape stays the caller's.
 */
struct conftape;
void servconf_set_tape(struct servconf *sc, struct conftape *tape);
/* One "Keyword value" line, as from sshd -o; source names it in errors. */
int servconf_parse_line(struct servconf *sc, const char *line,
    const char *source, int lineno);
/* Fill in defaults for everything left unset (call once, after loading). */
int servconf_finish(struct servconf *sc);
/*
 * Settings for one connection: a copy of sc with the Match blocks that
 * match conn applied (caller frees with servconf_free()).
 */
int servconf_apply_match(const struct servconf *sc,
    const struct match_conn *conn, struct servconf **outp);
/*
 * The same in two steps, for a process that cannot evaluate the
 * criteria itself (the pre-auth child has no user or group database):
 * servconf_match_blocks() lists the Match blocks (numbered from 0 in
 * file order) that match conn, ascending (*blocksp: x_free());
 * servconf_apply_blocks() applies such a list to sc as
 * servconf_apply_match() does. A list that is not ascending or names a
 * block sc does not have is refused (ERR_INVALID_ARGUMENT).
 */
int servconf_match_blocks(const struct servconf *sc,
    const struct match_conn *conn, uint32_t **blocksp, size_t *np);
int servconf_apply_blocks(const struct servconf *sc, const uint32_t *blocks,
    size_t n, struct servconf **outp);
size_t servconf_nblocks(const struct servconf *sc);
/* 1 if some Match block tests attribute attr ("localport", ...). */
int servconf_match_tests(const struct servconf *sc, const char *attr);
/* A copy of the settings (not the Match blocks); servconf_free(). */
struct servconf *servconf_dup(const struct servconf *sc);
/* sshd -T: every setting, lower-case keywords, OpenSSH's format. */
void servconf_dump(const struct servconf *sc, FILE *f);

#endif
