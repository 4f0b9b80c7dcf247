/*
 * add.h: what the files of ssh-add share: its settings, the messages
 * it prints in OpenSSH's words, and its parts: asking for passphrases
 * (add_pass.c), keys and certificates from files into and out of the
 * agent (add_keys.c), destination constraints (add_dest.c), and the
 * command line (main.c).
 */
#ifndef MOAT_ADD_H
#define MOAT_ADD_H

#include <stdint.h>

#include "key.h"
#include "sbuf.h"

struct add_opts {
	int fd;				/* the agent connection */
	int key_only;			/* -k: no certificates */
	int quiet;			/* -q */
	int confirm;			/* -c */
	uint32_t lifetime;		/* -t, seconds; 0: none */
	uint32_t maxsign;		/* -M; 0: none */
	char **hostfiles;		/* -H, in order */
	size_t nhostfiles;
	struct sbuf *dest;		/* -h constraints, encoded; or NULL */
	enum key_fp_hash fp_hash;	/* -E */
	char *pass;			/* the last passphrase that worked */
	const char *sk_provider;	/* -S, else $SSH_SK_PROVIDER, else
					   "internal" */
};

/* A line as OpenSSH's log writes one to standard error ("\r\n"). */
void add_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, then exit 255 (OpenSSH's fatal()). */
void add_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
/* OpenSSH's words for an agent call's error. */
const char *add_agent_err(int r);
/* OpenSSH's words for an error loading a private key file. */
const char *add_file_err(int r);

/* ---- add_pass.c ---- */
/*
 * Ask as OpenSSH's ssh-add does: through the askpass program when
 * standard input is no terminal and a display is set (or as
 * SSH_ASKPASS_REQUIRE says), else on the terminal with echo off, else
 * prompt on standard error and read standard input. Never NULL: "" when
 * there is no answer. Free with add_pass_free().
 */
char *add_read_pass(const char *prompt);
void add_pass_free(char *p);

/* ---- add_dest.c ---- */
/*
 * Append one -h constraint "[from>][user@]host" to o->dest, with the
 * host keys of the hosts it names; a bad one is fatal, in OpenSSH's
 * words.
 */
void add_dest_constraint(struct add_opts *o, const char *spec);

/* ---- add_keys.c ---- */
/* Each 0 or -1, having said why. */
int add_file(struct add_opts *o, const char *path);
int add_delete_file(struct add_opts *o, const char *path);
int add_test_key(struct add_opts *o, const char *path);
int add_list(struct add_opts *o, int fingerprints);
int add_delete_all(struct add_opts *o);
int add_lock(struct add_opts *o, int lock);

/* ---- add_sk.c ---- */
/* -K: the authenticator's resident keys into the agent; 0 or -1. */
int add_resident(struct add_opts *o);

/* ---- add_card.c ---- */
/* -s (add 1) or -e provider; 0 or -1, having said why. */
int add_card(struct add_opts *o, const char *provider, int add);

#endif
