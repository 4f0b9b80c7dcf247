/*
 * authopts.h: restrictions attached to an authentication: the options of
 * an authorized_keys line (sshd(8) AUTHORIZED_KEYS FILE FORMAT), and later
 * certificate options. The session layer enforces them.
 *
 * Ownership: authopts_new() / authopts_parse() / authopts_dup() return a
 * struct the caller frees with authopts_free(); every string and array
 * inside belongs to it.
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
	char **permitlisten;		/* permitlisten="[host:]port", as given */
	size_t npermitlisten;
	char *required_from_host_keys;	/* from="pattern-list" */
	uint64_t valid_before;		/* expiry-time; 0: none */
	int cert_authority;		/* cert-authority */
	char *cert_principals;		/* principals="..." */
	int no_touch_required;
	int verify_required;
	int force_tun_device;		/* tunnel="n"; -1: none */
};

/* Everything permitted, no forced command. */
struct authopts *authopts_new(void);
/*
 * Parse the option string at the front of an authorized_keys line.
 *
 * opts points at the first option (leading blanks are skipped). Options
 * are comma-separated keywords (case-insensitive), some with a
 * ="value"; a value is double-quoted and may hold blanks, commas and \"
 * (which stands for a quote; any other backslash is kept as is). The
 * options end at the first blank outside quotes. The caller decides
 * whether a line has options at all (e.g. by trying to read a key type
 * at the front first): a key type here is an unknown option.
 *
 * On success returns 0, *outp is a new struct (everything permitted
 * unless an option says otherwise; "restrict" turns everything off and
 * later options turn single things back on) and *endp points at the
 * field after the options, past the blanks (the key type).
 * On error returns ERR_INVALID_FORMAT, *outp is NULL and *errstrp (a
 * static string) says why: unknown option, missing or unterminated
 * quote, bad expiry-time/permitopen/permitlisten/environment/tunnel,
 * duplicate command/from/principals/tunnel, nothing after the options.
 * endp and errstrp may be NULL.
 *
 * expiry-time: YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z], local time unless Z;
 * valid_before is that time in seconds since the epoch. With several,
 * the earliest wins. environment: the first value of a name wins.
 */
int authopts_parse(const char *opts, struct authopts **outp,
    const char **endp, const char **errstrp);
/* Deep copy. */
int authopts_dup(const struct authopts *o, struct authopts **outp);
/*
 * The restrictions of a login by two keys (AuthenticationMethods
 * "publickey,publickey"): a of the keys before, b of the one after,
 * joined as OpenSSH joins them: a permission holds only when both grant
 * it, a requirement ("restrict", verify-required) when either asks, the
 * earliest expiry, a's forced tunnel unit, lists and from= when it has
 * them, else b's. Two different forced commands do not join:
 * ERR_PERMISSION_DENIED. cert-authority and principals are not kept.
 */
int authopts_merge(const struct authopts *a, const struct authopts *b,
    struct authopts **outp);
/*
 * Parse an expiry-time value as above into seconds since the epoch;
 * ERR_INVALID_FORMAT if it is not one.
 */
int authopts_parse_time(const char *s, uint64_t *tp);
void authopts_free(struct authopts *o);

struct key_cert;
/*
 * Narrow o by a user certificate's options (PROTOCOL.certkeys): each
 * permit-* extension the certificate lacks turns that permission off;
 * force-command becomes the forced command (refused if o already forces
 * a different one); source-address is handed back in *source_addrp
 * (caller frees; NULL when absent) for the caller to match against the
 * client's address. no_touch_required stays on only when both o and
 * the certificate (extension no-touch-required) allow it; the critical
 * option verify-required turns verify_required on. Any unknown critical
 * option refuses: ERR_KEY_CERT_INVALID with the reason in *errstrp
 * (static). A caller with no options of its own for the certificate
 * (TrustedUserCAKeys without principals files) sets no_touch_required
 * first so that the certificate alone decides.
 */
int authopts_apply_cert(struct authopts *o, const struct key_cert *c,
    char **source_addrp, const char **errstrp);

#endif
