/*
 * hostcheck.h: the client's host key check, the transport's
 * hostkey_verify callback: known_hosts lookup (user files, then global),
 * StrictHostKeyChecking policy, the prompt, and adding new keys.
 */
#ifndef MOAT_HOSTCHECK_H
#define MOAT_HOSTCHECK_H

#include "client.h"

struct hostcheck_ctx {
	/*
	 * Not const: with StrictHostKeyChecking=no a changed key is let
	 * through but password and keyboard-interactive authentication are
	 * switched off here, as OpenSSH does.
	 */
	struct client_opts *o;
	const char *hostname;	/* name we connected to */
	int port;
	const char *tty_path;	/* for prompts; NULL: /dev/tty */
	int peer_local;		/* a loopback address (for
				   NoHostAuthenticationForLocalhost) */
	/*
	 * out: 1 when the key was refused; 2 when the check itself failed
	 * (KnownHostsCommand) and that has been said already.
	 */
	int refused;
	/* KnownHostsCommand's output while a check runs; internal. */
	char *cmd_path;
};

/* "ED25519", "ECDSA", "RSA": the short type name in messages. */
const char *hostcheck_key_label(const struct key *k);
/*
 * tr_config.hostkey_verify: 0 to trust the key (adding it to the first
 * user known_hosts file when policy allows), ERR_HOSTKEY_MISMATCH,
 * ERR_KEY_REVOKED or ERR_PERMISSION_DENIED to refuse; the reasons have
 * been logged. arg is a struct hostcheck_ctx.
 */
int hostcheck_verify(void *arg, const struct key *hostkey);
/*
 * tr_config.hostcert_verify: a host certificate whose CA is an
 * @cert-authority key for the host (or HostKeyAlias) is trusted when it
 * is a valid host certificate for that name; a revoked CA or key is
 * refused; with no matching CA the plain key goes through
 * hostcheck_verify().
 */
struct key_cert;
int hostcheck_verify_cert(void *arg, const struct key_cert *cert);

#endif
