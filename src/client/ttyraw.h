/*
 * ttyraw.h: the local terminal for an interactive session: RFC 4254
 * section 8 encoding of the termios settings for "pty-req", and raw
 * mode on and off.
 */
#ifndef MOAT_TTYRAW_H
#define MOAT_TTYRAW_H

#include <termios.h>

#include "sbuf.h"

/*
 * Append the encoded terminal modes of tio (opcode byte, uint32
 * argument ..., TTY_OP_END) to out, as a bare byte string (the caller
 * wraps it in a string). Disabled control characters are sent as 255.
 */
int ttymodes_encode(const struct termios *tio, struct sbuf *out);

struct ttyraw {
	int fd;
	int active;
	struct termios saved;
};
/* Put fd in raw mode, remembering the old settings; 0 or ERR_SYSTEM. */
int ttyraw_enter(struct ttyraw *tr, int fd);
/* Restore the saved settings, if raw mode is on. */
void ttyraw_leave(struct ttyraw *tr);

#endif
