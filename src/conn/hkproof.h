/*
 * hkproof.h: OpenSSH's host key rotation messages (PROTOCOL section
 * 2.5, draft-miller-sshm-hostkey-update), shared by both roles.
 *
 * After user authentication the server sends the global request
 * "hostkeys-00@openssh.com" (no reply wanted) carrying every host public
 * key it has, each as a string. A client that finds keys it does not
 * know asks "hostkeys-prove-00@openssh.com" (reply wanted) with those
 * key blobs; the server answers REQUEST_SUCCESS with one signature per
 * key, in the same order, each over
 *
 *	string	"hostkeys-prove-00@openssh.com"
 *	string	session identifier
 *	string	the key blob
 *
 * so a key is only learnt when the server holds its private half, and
 * the proof is bound to this connection.
 */
#ifndef MOAT_HKPROOF_H
#define MOAT_HKPROOF_H

#include <stddef.h>

#include "key.h"
#include "sbuf.h"

#define HKPROOF_HOSTKEYS	"hostkeys-00@openssh.com"
#define HKPROOF_PROVE		"hostkeys-prove-00@openssh.com"

/* Append to out the bytes a proof for key k signs. */
int hkproof_data(const unsigned char *sid, size_t sidlen,
    const struct key *k, struct sbuf *out);

#endif
