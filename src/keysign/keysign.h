/*
 * keysign.h: ssh-keysign, the setuid helper that signs hostbased
 * requests (RFC 4252 section 9) with the machine's host keys for ssh(1).
 * The protocol between them is in src/client/clienthostbased.h.
 *
 * The program (keysign.c) opens the host keys while privileged, drops
 * privileges for good, and only then reads anything the caller sent.
 * What it is asked to sign is checked here, by a pure function the unit
 * tests drive directly.
 */
#ifndef MOAT_KEYSIGN_H
#define MOAT_KEYSIGN_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"
#include "sbuf.h"

/* Largest request message accepted (after its length prefix). */
#define KS_MAX_REQUEST		(64 * 1024 + 16)
/* Largest host key file read. */
#define KS_MAX_KEYFILE		(1024 * 1024)

/*
 * The request message after its length prefix:
 *
 *   byte version (2), uint32 fd (3), string data
 *
 * with nothing after; *datap points into msg. ERR_INVALID_FORMAT when it
 * does not parse, ERR_PROTOCOL for another version, ERR_INVALID_ARGUMENT
 * for another fd (*verp and *fdp say what was sent).
 */
int ks_parse_message(struct sbuf *msg, unsigned int *verp, uint32_t *fdp,
    const unsigned char **datap, size_t *dlenp);

/*
 * Check that data is a hostbased USERAUTH_REQUEST the caller may have
 * signed:
 *
 *   string session id (20, 32, 48 or 64 bytes), byte 50, string user,
 *   string "ssh-connection", string "hostbased", string algorithm,
 *   string key blob, string client host, string client user
 *
 * and nothing after. The client host must equal lhost (the local name
 * with its trailing dot; case does not matter), the client user must be
 * luser, the key blob must be exactly that of one of keys[0..nkeys) and
 * the algorithm one we sign with that key (no SHA-1 "ssh-rsa").
 * On success *idxp is that key and *algp the algorithm (caller frees).
 * ERR_INVALID_FORMAT when data does not parse, ERR_NOT_FOUND for a key
 * not among keys, ERR_PERMISSION_DENIED for any other mismatch.
 */
int ks_check_request(const unsigned char *data, size_t dlen,
    const char *luser, const char *lhost, struct key *const *keys,
    size_t nkeys, size_t *idxp, char **algp);

#endif
