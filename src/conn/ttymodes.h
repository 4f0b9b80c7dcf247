/*
 * ttymodes.h: terminal modes of "pty-req" (RFC 4254 section 8), encoded
 * by the client and applied by the server; one table serves both.
 */
#ifndef MOAT_TTYMODES_H
#define MOAT_TTYMODES_H

#include <stddef.h>
#include <stdint.h>
#include <termios.h>

#include "sbuf.h"

/* Append the encoded modes of tio (speeds first, TTY_OP_END last). */
int ttymodes_encode(const struct termios *tio, struct sbuf *out);
/*
 * Apply encoded modes to tio. Unknown opcodes are skipped; returns
 * ERR_MESSAGE_INCOMPLETE if an argument is cut short (what came before
 * is applied).
 */
int ttymodes_apply(struct termios *tio, const unsigned char *modes,
    size_t len);
/* Baud rate to a B* speed code; ERR_NOT_FOUND if not a standard rate. */
int ttymodes_speed(uint32_t bps, speed_t *codep);

#endif
