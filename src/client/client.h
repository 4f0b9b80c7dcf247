/*
 * client.h: the client's settings (ssh_config plus the command line) and
 * the entry points of the client layers, so the pieces of ssh(1) can be
 * written and tested apart:
 *
 *   readconf.c     ssh_config parsing -> struct client_opts     (config)
 *   clientauth.c   ssh-userauth, client role                    (auth)
 *   clientsess.c   session channel, tty, escapes, exit status   (session)
 *   src/ssh/       main(): command line, connect, host key check
 *
 * Values are OpenSSH's: -1 (or NULL) means "not set yet"; first value
 * obtained wins (command line first, then ~/.ssh/config, then
 * /etc/ssh/ssh_config); readconf_finish() fills in defaults.
 * Ownership: every string and array belongs to the struct;
 * client_opts_free() frees them.
 */
#ifndef MOAT_CLIENT_H
#define MOAT_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "key.h"

struct transport;
struct chan_set;
struct chan;
struct sbuf;
struct winsize;
struct termios;
struct fwd_client;
struct agent_fwd;
struct x11_fwd;

/* XAuthLocation's default, as Debian's ssh has it. */
#define CLIENT_XAUTH_PATH	"/usr/bin/xauth"

#define CO_MAX_LIST 64

enum strict_hostkey {
	SHK_UNSET = -1, SHK_NO = 0, SHK_YES, SHK_ASK, SHK_ACCEPT_NEW,
};

enum request_tty {
	RTTY_UNSET = -1, RTTY_NO = 0, RTTY_YES, RTTY_FORCE, RTTY_AUTO,
};

/* SessionType (-N is none, -s subsystem). */
enum session_type {
	ST_UNSET = -1, ST_NONE = 0, ST_SUBSYSTEM, ST_DEFAULT,
};


/*
 * PubkeyAuthentication: yes, or (OpenSSH 8.9+) unbound, which never
 * signs publickey-hostbound-v00@openssh.com, or host-bound, which
 * signs it where the server offers it (as yes does).
 */
enum { PUBKEY_AUTH_YES = 1, PUBKEY_AUTH_UNBOUND, PUBKEY_AUTH_HOSTBOUND };

struct client_opts {
	char *host_arg;			/* host as given on the command line */
	char *hostname;			/* HostName, %h expanded */
	int port;
	char *user;
	char *identity_files[CO_MAX_LIST];	/* ~ and %d %u %l %h %r expanded */
	size_t nidentity_files;
	int identity_files_explicit[CO_MAX_LIST]; /* from -i or IdentityFile */
	char *certificate_files[CO_MAX_LIST];
	size_t ncertificate_files;
	int identities_only;
	char *identity_agent;		/* NULL: $SSH_AUTH_SOCK; "none"... */
	char *security_key_provider;	/* path, "$VAR" or "internal" */
	char *ciphers, *macs, *kex_algorithms, *hostkey_algorithms;
	char *pubkey_accepted_algorithms;	/* resolved (+,-,^ applied) */
	int strict_host_key_checking;		/* enum strict_hostkey */
	char *user_known_hosts_files[CO_MAX_LIST];
	size_t nuser_known_hosts_files;
	char *global_known_hosts_files[CO_MAX_LIST];
	size_t nglobal_known_hosts_files;
	int hash_known_hosts;
	int check_host_ip;
	char *proxy_command;		/* "none" means none */
	char *proxy_jump;
	int connect_timeout;		/* seconds; -1: none */
	int server_alive_interval;
	int server_alive_count_max;
	char *send_env[CO_MAX_LIST];	/* patterns */
	size_t nsend_env;
	char *set_env[CO_MAX_LIST];	/* NAME=value */
	size_t nset_env;
	int request_tty;		/* enum request_tty */
	int log_level;
	int batch_mode;
	char *preferred_authentications;
	int pubkey_authentication;	/* 0, or PUBKEY_AUTH_* */
	int password_authentication;
	int kbd_interactive_authentication;
	int number_of_password_prompts;
	int escape_char;		/* -1 unset, -2 "none", else the char */
	uint64_t rekey_bytes;
	uint32_t rekey_seconds;
	int compression;
	int address_family;		/* AF_UNSPEC/AF_INET/AF_INET6 */
	int forward_agent;
	/* ForwardAgent as a path or "$VAR" (~ and %-tokens expanded). */
	char *forward_agent_sock;
	/* ForwardX11, ForwardX11Trusted, ForwardX11Timeout (s), XAuthLocation. */
	int forward_x11, forward_x11_trusted, forward_x11_timeout;
	char *xauth_location;
	/* AddKeysToAgent: 0 no, 1 yes, 2 ask, 3 confirm; lifetime in s. */
	int add_keys_to_agent;
	int add_keys_to_agent_lifespan;
	int tcp_keep_alive;
	char *remote_command;
	int exit_on_forward_failure;
	/* Tunnel (TUN_MODE_*) and TunnelDevice (units; -1: any). */
	int tunnel, tun_local, tun_remote;
	int clear_all_forwardings;
	int enable_escape_commandline;	/* ~C */
	int warn_weak_crypto;		/* WarnWeakCrypto: 1 yes, 0 no */
	int kex_algorithms_given;	/* KexAlgorithms set, not default */
	char *local_forwards[CO_MAX_LIST];	/* as written; forwarding issue */
	size_t nlocal_forwards;
	char *remote_forwards[CO_MAX_LIST];
	size_t nremote_forwards;
	char *dynamic_forwards[CO_MAX_LIST];
	size_t ndynamic_forwards;
	char *control_path;
	int control_master;		/* MUX_NO.. (mux.h) */
	char *control_persist;		/* "yes", "no" or a time; NULL: no */
	char *bind_address;
	int gateway_ports;
	int streamlocal_bind_mask;	/* umask for -L socket paths (0177) */
	int streamlocal_bind_unlink;	/* remove a file in the way first */
	int visual_host_key;
	int update_host_keys;		/* 0 no, 1 yes, 2 ask */
	int verify_host_key_dns;	/* parsed; only UpdateHostKeys reads it */
	char *host_key_alias;
	int hostbased_authentication;
	int enable_ssh_keysign;		/* parsed and shown; ssh-keysign acts */
	char *hostbased_accepted_algorithms;	/* resolved */
	char *stdio_forward_host;	/* -W host:port; NULL: none */
	int stdio_forward_port;
	char *ignore_unknown;		/* IgnoreUnknown: keyword patterns */
	int connection_attempts;	/* tries, a second apart (1) */
	int stdin_null;			/* StdinNull, -n, -f */
	int fork_after_auth;		/* ForkAfterAuthentication, -f */
	int session_type;		/* enum session_type */
	char *local_command;		/* LocalCommand, tokens unexpanded */
	int permit_local_command;
	char *known_hosts_command;	/* tokens unexpanded */
	char *revoked_host_keys;	/* ~ and tokens unexpanded */
	char *pkcs11_provider;		/* PKCS11Provider, -I; "none": off */
	int no_host_auth_localhost;	/* NoHostAuthenticationForLocalhost */
	int canonicalize_hostname;	/* 0 no, 1 yes, 2 always */
	char *canonical_domains[CO_MAX_LIST];
	size_t ncanonical_domains;
	int canonicalize_fallback_local;
	int canonicalize_max_dots;
	char *canonical_cnames[CO_MAX_LIST];	/* "sources:targets" */
	size_t ncanonical_cnames;
	int fingerprint_hash;		/* enum key_fp_hash */
	int syslog_facility;		/* LOG_USER... for -y */
	int required_rsa_size;		/* RSA host and user keys (1024) */
	char *ca_signature_algorithms;	/* resolved; of host cert CAs */
	int ipqos_interactive;		/* IP_TOS with a pty; -1: none */
	int ipqos_bulk;			/* without one */
	/* PermitRemoteOpen: "any", "none" or host:port (* for either). */
	char *permit_remote_open[CO_MAX_LIST];
	size_t npermit_remote_open;
	char *log_verbose;		/* LogVerbose as written (rest of line) */
	char *tag;			/* Tag, -P: for "Match tagged" */
	char *kbd_interactive_devices;	/* keyboard-interactive submethods */
	char *bind_interface;		/* BindInterface, -B: its address */
	/* ChannelTimeout: "type=interval" words, checked; none: empty. */
	char *channel_timeouts[CO_MAX_LIST];
	size_t nchannel_timeouts;
	int proxy_use_fdpass;		/* ProxyCommand hands back a socket */
	/* ObscureKeystrokeTiming: 0 no, -2 yes, else the interval (ms). */
	int obscure_keystroke_timing;

	void *priv;			/* private to readconf.c */
};

/* ---- readconf.c ---- */
struct client_opts *client_opts_new(void);
void client_opts_free(struct client_opts *o);
/*
 * One "Keyword value" line (-o, or a config file line); source names it
 * in errors. host/orig host for Host and Match come from o->host_arg.
 */
int readconf_parse_line(struct client_opts *o, const char *line,
    const char *source, int lineno);
/*
 * A config file (Host/Match applied against o->host_arg, Include).
 * user_file: 0 for a system file (relative Include under /etc/ssh), 1
 * for a user file (-F; relative Include under ~/.ssh), 2 for a user file
 * whose owner and mode are checked as well (~/.ssh/config).
 * ERR_NOT_FOUND if the file does not exist.
 */
int readconf_load(struct client_opts *o, const char *path, int user_file);
/*
 * One keyword with one value taken as is (no word splitting), from the
 * command line (-l, -p, -i, -c, -m, -J...); first value wins as usual.
 */
int readconf_set(struct client_opts *o, const char *keyword,
    const char *value);
/*
 * Expand %-tokens in s (caller frees *outp): %% %h (hostname) %p (port)
 * %r (remote user) %n (host as given) %u and %l (local user and local
 * host name) %d (home) %i (uid) %L (short local host name).
 * ERR_CONFIG on an unknown token.
 */
int readconf_expand(const struct client_opts *o, const char *s,
    char **outp);
/*
 * readconf_expand() with more tokens: %X for each character X of keys
 * is vals[index] (taken as is, '%' and all).
 */
int readconf_expand_more(const struct client_opts *o, const char *s,
    const char *keys, const char *const *vals, char **outp);
/* "~/x" and "~user/x" to a path (caller frees *outp). */
int readconf_tilde(const struct client_opts *o, const char *s, char **outp);
/* FingerprintHash: the hash for fingerprints ssh shows. */
enum key_fp_hash client_fp_hash(const struct client_opts *o);
/* The local user name (owned by o). */
const char *readconf_local_user(const struct client_opts *o);
/*
 * Read the files again after the host name was canonicalised: Host and
 * "Match host" now see host, "Match canonical" matches; what is already
 * set stays (first value wins) and list entries are not repeated.
 */
void readconf_canonical_pass(struct client_opts *o, const char *host);
/*
 * 1 if the files read so far hold a "Match final" line: the second pass
 * is then made whether or not the name was canonicalised.
 */
int readconf_wants_final_pass(const struct client_opts *o);

/* ---- canon.c ---- */
/*
 * Hostname canonicalisation (CanonicalizeHostname and its family, read
 * before readconf_finish()): *hostp (lower case, HostName applied) is
 * replaced by its canonical name when it is an address written another
 * way, or when a name with at most CanonicalizeMaxDots dots resolves
 * under one of CanonicalDomains, following a CNAME that
 * CanonicalizePermittedCNAMEs allows. direct: no ProxyCommand/ProxyJump.
 * ERR_NOT_FOUND when the name must resolve and does not (logged as
 * OpenSSH's ssh does).
 */
int client_canonicalize(const struct client_opts *o, char **hostp,
    int direct);

/* Defaults, token expansion, algorithm lists; call once after loading. */
int readconf_finish(struct client_opts *o, const char *local_user);
/* ssh -G: every setting, lower-case keywords, OpenSSH's format. */
void readconf_dump(const struct client_opts *o, FILE *f);

/* ---- clientauth.c ---- */
/*
 * Run ssh-userauth on t (SERVICE_REQUEST, then methods in
 * PreferredAuthentications order: publickey with the agent's keys and
 * the identity files, keyboard-interactive, password; partial success
 * followed).
 * Prompts go to /dev/tty (or SSH_ASKPASS); none in BatchMode.
 * 0 once authenticated; ERR_PERMISSION_DENIED when every method is
 * exhausted (the caller prints "Permission denied (...)"), or an error.
 */
int client_auth(struct transport *t, const struct client_opts *o,
    const char *user, const char *host_for_prompts);

/*
 * Answer one prompt: *answerp gets a new string the caller wipes and
 * frees. echo is 0 for secrets; CLIENT_PROMPT_CONFIRM asks a yes/no
 * question (echoed; through the askpass whenever a display allows it,
 * with SSH_ASKPASS_PROMPT=confirm, as ssh(1) asks for permission).
 * ERR_PERMISSION_DENIED when no answer can be had (BatchMode, no tty
 * and no usable askpass, the user gave up).
 */
#define CLIENT_PROMPT_CONFIRM	2
typedef int (*client_prompt_fn)(void *arg, const char *prompt, int echo,
    char **answerp);

/*
 * client_auth_ex(): client_auth() with hooks and results.
 *   prompt        NULL: client_read_passphrase() (tests answer here)
 *   last_methods  out: the server's last "authentications that can
 *                 continue" list, e.g. "publickey,password", set on
 *                 ERR_PERMISSION_DENIED (and kept otherwise); the caller
 *                 frees it. main prints "Permission denied (%s)."
 *   method        out: the method that completed authentication
 *                 (caller frees); NULL on failure.
 * a may be NULL (then it is client_auth()).
 */
struct client_auth_args {
	client_prompt_fn prompt;
	void *prompt_arg;
	char *last_methods;
	char *method;
};
int client_auth_ex(struct transport *t, const struct client_opts *o,
    const char *user, const char *host_for_prompts,
    struct client_auth_args *a);

/* ---- clientprompt.c ---- */
enum client_prompt_via { CP_NONE = 0, CP_TTY, CP_ASKPASS };
/*
 * How a prompt is answered, OpenSSH's rules (pure): BatchMode: none;
 * SSH_ASKPASS_REQUIRE (require, may be NULL) "force": askpass, "prefer":
 * askpass when a display is set, "never": never askpass; otherwise the
 * tty, or askpass when there is no tty and a display (DISPLAY or
 * WAYLAND_DISPLAY) is set.
 */
enum client_prompt_via client_prompt_via(int batch_mode, int have_tty,
    const char *require, int have_display);
/*
 * Prompt on /dev/tty (echo off unless echo) or through SSH_ASKPASS
 * (default /usr/bin/ssh-askpass), per client_prompt_via() and the
 * environment. Has the client_prompt_fn shape with arg a
 * const struct client_opts * (may be NULL).
 */
int client_read_passphrase(void *opts, const char *prompt, int echo,
    char **answerp);

/* ---- clientsess.c ---- */
/*
 * Open a session channel, request pty/env/exec|shell|subsystem per the
 * options, and pump stdin/stdout/stderr until the channel closes; escape
 * sequences on a tty. Returns the remote exit status (0..255), or
 * 255 after a connection error or a remote signal death.
 */
struct client_session_args {
	const char *command;		/* NULL: shell */
	int subsystem;			/* -s: command names a subsystem */
	int want_tty;			/* after -t/-T/RequestTTY resolution */
	int stdin_null;			/* -n */
	int no_command;			/* -N */
	int fork_after_auth;		/* -f (done by the caller) */
	/*
	 * Additions. use_fds 0: stdin/stdout/stderr (0/1/2); 1: these
	 * (tests). The fds stay the caller's (duplicated inside).
	 */
	int use_fds;
	int in_fd, out_fd, err_fd;
	const char *host;		/* for messages; NULL: o->hostname */
	/*
	 * Called once the channel set exists, before the loop runs (the
	 * forwardings, fwd_client.h); non-zero ends the session with 255.
	 */
	int (*setup)(struct chan_set *cs, void *arg);
	void *setup_arg;
	/* The forwardings the ~C command line adds to; NULL: none. */
	struct fwd_client *fwd;
	/* Agent forwarding (agentfwd.h) for the channel; NULL: none. */
	struct agent_fwd *afwd;
	/*
	 * Connection sharing (mux.h), may be NULL: after_loop runs once
	 * the loop is over, before the channels are freed; on_winch on
	 * each SIGWINCH. Both get hook_arg.
	 */
	void (*after_loop)(void *arg);
	void (*on_winch)(void *arg);
	void *hook_arg;
	/* X11 forwarding (x11fwd.h) for the channel; NULL: none. */
	struct x11_fwd *x11;
};
int client_session(struct transport *t, const struct client_opts *o,
    const struct client_session_args *a);

/*
 * Requests on an open session channel, for ssh's own session and those
 * a ControlMaster runs for its clients (mux_msess.c); each wants a
 * reply. pty-req: term, the window size ws, the modes of tio (NULL:
 * none known). The command: subsystem, else exec of command, or the
 * shell when command is NULL or empty. 0 or an error.
 */
int client_pty_request(struct chan_set *cs, struct chan *c,
    const char *term, const struct winsize *ws, const struct termios *tio);
int client_command_request(struct chan_set *cs, struct chan *c,
    const char *command, int subsystem);
/* Which request client_command_request() sends: "exec" and so on. */
const char *client_command_kind(const char *command, int subsystem);
/*
 * The server's requests that end a session: CLIENT_EXIT_STATUS (the
 * status in *statusp), CLIENT_EXIT_SIGNAL (logged), CLIENT_EXIT_OTHER
 * for eow@openssh.com (nothing to do); ERR_FEATURE_UNSUPPORTED for
 * any other name, or the getter's error for a short body.
 */
enum { CLIENT_EXIT_OTHER = 0, CLIENT_EXIT_STATUS, CLIENT_EXIT_SIGNAL };
int client_exit_request(const char *name, struct sbuf *body,
    uint32_t *statusp);

#endif
