/*
 * ttyraw.c: the local terminal's raw mode (see ttyraw.h): nothing of line
 * editing or signals is kept, every byte goes to the server. The modes
 * sent in "pty-req" are encoded by src/conn/ttymodes.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <termios.h>
#include <unistd.h>

#include "err.h"
#include "ttyraw.h"

int
ttyraw_enter(struct ttyraw *tr, int fd)
{
	struct termios raw;

	tr->fd = fd;
	tr->active = 0;
	if (tcgetattr(fd, &tr->saved) == -1)
		return ERR_SYSTEM;
	raw = tr->saved;
	raw.c_iflag |= IGNPAR;
	raw.c_iflag &= ~(tcflag_t)(ISTRIP | INLCR | IGNCR | ICRNL | IXON |
	    IXANY | IXOFF);
#ifdef IUCLC
	raw.c_iflag &= ~(tcflag_t)IUCLC;
#endif
	raw.c_lflag &= ~(tcflag_t)(ISIG | ICANON | ECHO | ECHOE | ECHOK |
	    ECHONL | IEXTEN);
	raw.c_oflag &= ~(tcflag_t)OPOST;
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(fd, TCSADRAIN, &raw) == -1)
		return ERR_SYSTEM;
	tr->active = 1;
	return 0;
}

void
ttyraw_leave(struct ttyraw *tr)
{
	if (!tr->active)
		return;
	(void)tcsetattr(tr->fd, TCSADRAIN, &tr->saved);
	tr->active = 0;
}
