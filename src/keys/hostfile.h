/*
 * hostfile.h: known_hosts files (sshd(8) SSH_KNOWN_HOSTS FILE FORMAT):
 * plain and hashed ("|1|salt|hash") host patterns, "[host]:port" entries,
 * wildcards and negation, and the @cert-authority and @revoked markers.
 *
 * Ownership: hostfile_lookup() fills a struct the caller clears with
 * hostfile_result_clear().
 */
#ifndef MOAT_HOSTFILE_H
#define MOAT_HOSTFILE_H

#include <stddef.h>

#include "key.h"

enum hostfile_status {
	HOST_NEW = 0,		/* no entry for this host (and key type) */
	HOST_OK,		/* an entry for this host has this key */
	HOST_CHANGED,		/* host known, with a different key of this type */
	HOST_REVOKED,		/* the key is marked @revoked */
};

struct hostfile_match {
	char *path;		/* file and line of the deciding entry */
	unsigned long line;
	struct key *key;	/* the key on that line (CHANGED: the old key) */
};

struct hostfile_result {
	enum hostfile_status status;
	struct hostfile_match match;
};

/*
 * Name of a host for lookup: "host" on port 22, "[host]:port" otherwise
 * (caller frees).
 */
char *hostfile_host_name(const char *host, int port);
/*
 * Check key for host (and optionally its address, for CheckHostIP-style
 * lookups; may be NULL) against the files, in order. @revoked anywhere
 * wins; then a matching entry with this key gives HOST_OK; else an entry
 * for the host with another key of the same type gives HOST_CHANGED.
 * Missing files are skipped.
 */
int hostfile_lookup(const char *const *paths, size_t npaths,
    const char *host, int port, const struct key *key,
    struct hostfile_result *res);
void hostfile_result_clear(struct hostfile_result *res);
/* Append "name keytype base64 [comment]" to path, hashed if asked. */
int hostfile_add(const char *path, const char *host, int port,
    const struct key *key, int hash);
/* "|1|base64(salt)|base64(HMAC-SHA1(salt, name))" for name (caller frees). */
char *hostfile_hash_name(const char *name, const unsigned char *salt,
    size_t saltlen);
/* 1 if a host-pattern field (one column, possibly hashed) matches name. */
int hostfile_match_hosts(const char *field, const char *name);

enum hostfile_marker {
	HOSTFILE_MARK_NONE = 0,
	HOSTFILE_MARK_CA,	/* @cert-authority */
	HOSTFILE_MARK_REVOKED,	/* @revoked */
};

/*
 * Split one known_hosts line in place: marker, host field (NUL-ended
 * inside line), key (caller frees) and comment (points into line, may be
 * ""). ERR_NOT_FOUND for a blank or comment line, ERR_INVALID_FORMAT or
 * a key error for a malformed one.
 */
int hostfile_parse_line(char *line, enum hostfile_marker *markp,
    char **hostsp, struct key **keyp, char **commentp);

/*
 * The @cert-authority keys that apply to host (port) in the files, in
 * file order. *casp is an array of *ncasp keys, freed with
 * hostfile_keys_free(). A key also marked @revoked for the host is left
 * out.
 */
int hostfile_lookup_ca(const char *const *paths, size_t npaths,
    const char *host, int port, struct key ***casp, size_t *ncasp);
void hostfile_keys_free(struct key **keys, size_t n);

/* ---- hostfile_edit.c: every line in turn, and rewriting a host's lines ---- */

/* How a line's host field matched (struct hostfile_line.match). */
#define HOSTFILE_MATCH_HOST		0x1	/* the host name */
#define HOSTFILE_MATCH_IP		0x2	/* the address */
#define HOSTFILE_MATCH_HOST_HASHED	0x4	/* ... through a hashed field */
#define HOSTFILE_MATCH_IP_HASHED	0x8

enum hostfile_line_status {
	HOSTFILE_LINE_COMMENT = 0,	/* blank, or a '#' comment */
	HOSTFILE_LINE_INVALID,		/* bad marker, no key, unknown key */
	HOSTFILE_LINE_OTHER,		/* an entry, not for this host */
	HOSTFILE_LINE_MATCHED,		/* an entry for the host or address */
};

struct hostfile_line {
	const char *path;
	unsigned long lineno;		/* from 1 */
	const char *line;		/* as read, without its newline */
	enum hostfile_line_status status;
	unsigned int match;		/* HOSTFILE_MATCH_*, when MATCHED */
	enum hostfile_marker marker;
	const char *hosts;		/* host field; NULL unless an entry */
	struct key *key;		/* an entry's key; fn may take it */
};

/*
 * Call fn for every line of path in order. host (a name as written in
 * the file: "[host]:port" off port 22, lower case) and ip (may be NULL)
 * decide MATCHED; host NULL matches nothing. A non-zero return from fn
 * stops the walk and is returned. ERR_NOT_FOUND if path does not exist,
 * ERR_SYSTEM if it cannot be read.
 */
typedef int (*hostfile_line_fn)(struct hostfile_line *l, void *arg);
int hostfile_foreach(const char *path, const char *host, const char *ip,
    hostfile_line_fn fn, void *arg);

/*
 * OpenSSH's hostfile_replace_entries(): rewrite path so that host (and
 * ip, when not NULL) has exactly the keys given. Lines for the host
 * without a marker whose key is not among keys are removed; lines with a
 * wanted key stay as they are; every other line (other hosts, comments,
 * @cert-authority/@revoked, unreadable lines) is kept byte for byte.
 * Wanted keys not yet present are appended ("host[,ip] key", or hashed
 * names with the address on its own line when hash is set). keys[i] may
 * be NULL (skipped); nkeys 0 only removes. The new file replaces path
 * through a temporary file and rename(), the old one kept as path.old;
 * nothing is written when nothing changes. Each change is logged at
 * VERBOSE (DEBUG1 when quiet), with OpenSSH's words.
 */
int hostfile_replace_entries(const char *path, const char *host,
    const char *ip, struct key *const *keys, size_t nkeys, int hash,
    int quiet);

#endif
