/*
 * ttyraw.h: the local terminal for an interactive session: RFC 4254
 * section 8 encoding of the termios settings for "pty-req", and raw
 * mode on and off.
 */
#ifndef MOAT_TTYRAW_H
#define MOAT_TTYRAW_H

#include <termios.h>

#include "ttymodes.h"


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
