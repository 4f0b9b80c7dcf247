/*
 * match.h: OpenSSH-style pattern matching and algorithm lists.
 *
 * Patterns use '*' (any run) and '?' (any one character). A pattern list
 * is comma-separated; an entry starting with '!' negates: a negated match
 * anywhere in the list wins over any positive one.
 */
#ifndef MOAT_MATCH_H
#define MOAT_MATCH_H

#include <stddef.h>

/* 1 if s matches the single pattern. */
int match_pattern(const char *s, const char *pattern);
/*
 * s against a pattern list: 1 on a positive match, -1 if a negated entry
 * matched, 0 if nothing matched. dolower: compare s lower-cased.
 */
int match_pattern_list(const char *s, const char *list, int dolower);
/*
 * Host and address together (for from=, Match Host/Address): 1, 0 or -1
 * as above. Address entries may be CIDR (10.0.0.0/8, fe80::/10).
 */
int match_host_and_ip(const char *host, const char *ipaddr,
    const char *patterns);
/*
 * addr against a comma-separated list of addresses/CIDR masks (with
 * optional '!' negation): 1 match, 0 no match, -1 negated match,
 * -2 if the list is malformed.
 */
int match_addr_list(const char *addr, const char *list);
/*
 * user@host patterns (AllowUsers style): pattern "user" or "user@host";
 * 1 on match, 0 otherwise.
 */
int match_user(const char *user, const char *host, const char *ipaddr,
    const char *pattern);

/*
 * Algorithm negotiation (RFC 4253 section 7.1): the first name in the
 * client's list that is also in the server's (caller frees); NULL if none.
 */
char *match_first_common(const char *client, const char *server);
/* 1 if name is an element of the comma-separated list. */
int match_list_contains(const char *list, const char *name);

/*
 * Resolve an OpenSSH algorithm list spec against defaults and the full
 * supported list: "a,b" replaces the defaults; "+a,b" appends to them;
 * "-a*,b" removes matching entries from them; "^a,b" puts them first.
 * Names and patterns must name supported algorithms (all). On success
 * *outp is the resulting list (caller frees); ERR_INVALID_ARGUMENT if an
 * entry names no supported algorithm or the result would be empty.
 */
int match_assemble_list(const char *defaults, const char *all,
    const char *spec, char **outp);

#endif
