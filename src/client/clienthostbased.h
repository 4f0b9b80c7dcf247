/*
 * clienthostbased.h: the client side of hostbased authentication
 * (RFC 4252 section 9) and its helper, ssh-keysign.
 *
 * The machine's host keys are readable by root only, so the client asks
 * the setuid helper ssh-keysign to sign. The helper gets a socketpair end
 * as stdin and stdout and the connection's socket at fd 3, and reads one
 * message:
 *
 *   uint32 length, byte version (2), uint32 fd (3), string data
 *
 * where data is exactly what the hostbased signature covers; it checks
 * the data (user name = the caller, client host = the reverse name of
 * the socket's local address plus ".") and answers
 *
 *   uint32 length, byte version (2), string signature blob
 *
 * The method itself (the table row in clientauth.c) is in
 * clienthostbased.c; these pieces are apart so tests can drive them.
 */
#ifndef MOAT_CLIENTHOSTBASED_H
#define MOAT_CLIENTHOSTBASED_H

#include <stddef.h>

#include "sbuf.h"

#define HB_KEYSIGN_VERSION	2
#define HB_KEYSIGN_FD		3	/* the connection, in the helper */
#define HB_KEYSIGN_MAX_REPLY	(64 * 1024)

/* The request message for data (with its length prefix) into out. */
int hb_keysign_request(struct sbuf *out, const unsigned char *data,
    size_t dlen);
/*
 * A reply body (after the length prefix) to its signature blob,
 * appended to sig. ERR_PROTOCOL on a wrong version or trailing bytes.
 */
int hb_keysign_reply(struct sbuf *body, struct sbuf *sig);
/*
 * The client host name sent: the reverse name of sock's local address
 * (as the helper computes it), else gethostname(), with a trailing dot.
 * Caller frees *namep.
 */
int hb_local_name(int sock, char **namep);
/*
 * Run the helper at path for one signature over data, handing it sock
 * at fd 3. An error when it cannot run or refuses (it says why on
 * stderr).
 */
int hb_keysign(const char *path, int sock, const unsigned char *data,
    size_t dlen, struct sbuf *sig);
/*
 * The first helper found: ours in the install prefix's libexec, ours
 * beside the running ssh, then OpenSSH's usual places; NULL if none.
 * Only a setuid-root helper counts, unless the caller is root.
 * Caller frees.
 */
char *hb_keysign_path(void);

#endif
