/*
 * authopts.h: restrictions attached to an authentication: the options of
 * an authorized_keys line (sshd(8) AUTHORIZED_KEYS FILE FORMAT), and later
 * certificate options. The session layer enforces them.
 *
 * Ownership: authopts_new() / authopts_parse() return a struct the caller
 * frees with authopts_free().
 */
#ifndef MOAT_AUTHOPTS_H
#define MOAT_AUTHOPTS_H

#include <stddef.h>
#include <stdint.h>

struct authopts {
	int permit_port_forwarding;
	int permit_agent_forwarding;
	int permit_x11_forwarding;
	int permit_pty;
	int permit_user_rc;
	int restricted;			/* "restrict" was given */
	char *force_command;		/* command="..."; NULL: none */
	char **env;			/* environment="NAME=value" */
	size_t nenv;
	char **permitopen;		/* permitopen="host:port" */
	size_t npermitopen;
	char **permitlisten;
	size_t npermitlisten;
	char *required_from_host_keys;	/* from="pattern-list" */
	uint64_t valid_before;		/* expiry-time; 0: none */
	int cert_authority;		/* cert-authority */
	char *cert_principals;		/* principals="..." */
	int no_touch_required;
	int verify_required;
};

/* Everything permitted, no forced command. */
struct authopts *authopts_new(void);
/*
 * Parse the option string at the front of an authorized_keys line.
 * On success *endp points at the key type field after the options.
 * On error *errstrp (static) says why.
 */
int authopts_parse(const char *opts, struct authopts **outp,
    const char **endp, const char **errstrp);
void authopts_free(struct authopts *o);

#endif
