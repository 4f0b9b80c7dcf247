/*
 * penalty.h: PerSourcePenalties, the listener's table of source address
 * blocks it refuses for a while (OpenSSH 9.8+ semantics).
 *
 * A connection process that ends badly earns its source a penalty of
 * some seconds, by kind (penalty_for_status()). Penalties for one block
 * (the address masked to PerSourceNetBlockSize) add up, capped at max,
 * and are enforced only once more than min is outstanding; entries
 * drop out when they expire. IPv4 and IPv6 have separate tables, each
 * holding at most max-sources entries: past that, "permissive" drops the
 * entries closest to expiry and "deny-all" refuses every connection of
 * that family (the exempt ones aside) and records no more. Addresses
 * on PerSourcePenaltyExemptList are never penalised nor refused.
 *
 * Each table is a hash (linear probing, randomly keyed so that chosen
 * addresses cannot pile into one chain) of indexes into a dense entry
 * array, plus a binary min-heap of the same indexes by expiry: lookup,
 * insert, expiry and eviction are O(1) or O(log n), so a flood of
 * addresses costs the listener little. Times are the caller's
 * monotonic clock in microseconds, which lets tests drive the clock.
 */
#ifndef MOAT_PENALTY_H
#define MOAT_PENALTY_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#include "servconf.h"

/*
 * How a connection process tells its listener why it ended before
 * authenticating: its exit status (OpenSSH's values). Any other nonzero
 * status counts as "noauth"; death by a crash signal as "crash".
 */
#define SSHD_EXIT_LOGIN_GRACE	3	/* LoginGraceTime passed */
#define SSHD_EXIT_CHILD_CRASH	4	/* a pre-auth helper crashed */
#define SSHD_EXIT_AUTH_ATTEMPTED 5	/* authentication tried and failed */
#define SSHD_EXIT_CONFIG_REFUSED 6	/* RefuseConnection */
#define SSHD_EXIT_INVALID_USER	7	/* only an unknown user was named */
#define SSHD_EXIT_NOAUTH	255	/* left without trying */

enum penalty_kind {
	PENALTY_NONE, PENALTY_CRASH, PENALTY_AUTHFAIL, PENALTY_NOAUTH,
	PENALTY_INVALIDUSER, PENALTY_REFUSECONNECTION, PENALTY_GRACE,
	PENALTY_NKINDS
};

/* An address masked to its block: family and 4 or 16 bytes. */
struct penalty_addr {
	int af;			/* AF_INET, AF_INET6 */
	unsigned char b[16];
};

struct penalties;

/* 1 for the signals OpenSSH counts as a crash (SEGV, BUS, ILL...). */
int penalty_signal_is_crash(int sig);
/* The penalty a connection process earned, from its wait status. */
enum penalty_kind penalty_for_status(int wstatus);
/* "penalty: failed authentication" etc.; NULL for PENALTY_NONE. */
const char *penalty_reason(enum penalty_kind kind);

/*
 * sa (AF_INET or AF_INET6) masked to bits4 / bits6 leading bits into
 * *out; ERR_INVALID_ARGUMENT for another family.
 */
int penalty_addr_block(const struct sockaddr *sa, socklen_t salen,
    int bits4, int bits6, struct penalty_addr *out);
int penalty_addr_eq(const struct penalty_addr *a, const struct penalty_addr *b);

/*
 * A table for sc's PerSourcePenalties, PerSourceNetBlockSize and
 * PerSourcePenaltyExemptList (copied). Never NULL; with penalties off
 * it refuses nothing and records nothing. Free with penalties_free().
 */
struct penalties *penalties_new(const struct servconf *sc);
void penalties_free(struct penalties *p);

/*
 * May a connection from sa be served at now_us? 1 if so; 0 if it is
 * refused, *reasonp then saying why (OpenSSH's words, e.g. "penalty:
 * failed authentication" or "too many penalised addresses").
 */
int penalties_allow(struct penalties *p, const struct sockaddr *sa,
    socklen_t salen, int64_t now_us, const char **reasonp);
/* Record a penalty of kind against sa's block at now_us (logged). */
void penalties_add(struct penalties *p, const struct sockaddr *sa,
    socklen_t salen, int64_t now_us, enum penalty_kind kind);
/* Entries held for af (AF_INET or AF_INET6), expired ones included. */
size_t penalties_count(const struct penalties *p, int af);

#endif
