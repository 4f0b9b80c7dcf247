/*
 * ttyraw.c: terminal modes for "pty-req" and the local raw mode (see
 * ttyraw.h).
 *
 * Encoding: each opcode is a table row naming a control character or a
 * flag bit of one of the four flag words; speeds are sent in bits per
 * second (TTY_OP_ISPEED/OSPEED). Raw mode is cfmakeraw()'s, keeping
 * nothing of line editing or signals: every byte goes to the server.
 */
#include <stddef.h>
#include <stdint.h>
#include <termios.h>
#include <unistd.h>

#include "err.h"
#include "ttyraw.h"

#define TTY_OP_END	0
#define TTY_OP_ISPEED	128
#define TTY_OP_OSPEED	129

enum tm_kind { TM_CC, TM_IFLAG, TM_LFLAG, TM_OFLAG, TM_CFLAG };

static const struct {
	uint8_t op;
	enum tm_kind kind;
	tcflag_t v;		/* flag bit, or index into c_cc */
} modes[] = {
	{ 1, TM_CC, VINTR }, { 2, TM_CC, VQUIT }, { 3, TM_CC, VERASE },
	{ 4, TM_CC, VKILL }, { 5, TM_CC, VEOF }, { 6, TM_CC, VEOL },
	{ 7, TM_CC, VEOL2 }, { 8, TM_CC, VSTART }, { 9, TM_CC, VSTOP },
	{ 10, TM_CC, VSUSP },
#ifdef VDSUSP
	{ 11, TM_CC, VDSUSP },
#endif
	{ 12, TM_CC, VREPRINT }, { 13, TM_CC, VWERASE }, { 14, TM_CC, VLNEXT },
#ifdef VSWTC
	{ 16, TM_CC, VSWTC },
#endif
#ifdef VSTATUS
	{ 17, TM_CC, VSTATUS },
#endif
	{ 18, TM_CC, VDISCARD },
	{ 30, TM_IFLAG, IGNPAR }, { 31, TM_IFLAG, PARMRK },
	{ 32, TM_IFLAG, INPCK }, { 33, TM_IFLAG, ISTRIP },
	{ 34, TM_IFLAG, INLCR }, { 35, TM_IFLAG, IGNCR },
	{ 36, TM_IFLAG, ICRNL },
#ifdef IUCLC
	{ 37, TM_IFLAG, IUCLC },
#endif
	{ 38, TM_IFLAG, IXON }, { 39, TM_IFLAG, IXANY },
	{ 40, TM_IFLAG, IXOFF },
#ifdef IMAXBEL
	{ 41, TM_IFLAG, IMAXBEL },
#endif
#ifdef IUTF8
	{ 42, TM_IFLAG, IUTF8 },
#endif
	{ 50, TM_LFLAG, ISIG }, { 51, TM_LFLAG, ICANON },
#ifdef XCASE
	{ 52, TM_LFLAG, XCASE },
#endif
	{ 53, TM_LFLAG, ECHO }, { 54, TM_LFLAG, ECHOE },
	{ 55, TM_LFLAG, ECHOK }, { 56, TM_LFLAG, ECHONL },
	{ 57, TM_LFLAG, NOFLSH }, { 58, TM_LFLAG, TOSTOP },
	{ 59, TM_LFLAG, IEXTEN },
#ifdef ECHOCTL
	{ 60, TM_LFLAG, ECHOCTL },
#endif
#ifdef ECHOKE
	{ 61, TM_LFLAG, ECHOKE },
#endif
#ifdef PENDIN
	{ 62, TM_LFLAG, PENDIN },
#endif
	{ 70, TM_OFLAG, OPOST },
#ifdef OLCUC
	{ 71, TM_OFLAG, OLCUC },
#endif
	{ 72, TM_OFLAG, ONLCR }, { 73, TM_OFLAG, OCRNL },
	{ 74, TM_OFLAG, ONOCR }, { 75, TM_OFLAG, ONLRET },
	{ 90, TM_CFLAG, CS7 }, { 91, TM_CFLAG, CS8 },
	{ 92, TM_CFLAG, PARENB }, { 93, TM_CFLAG, PARODD },
};

static const struct {
	speed_t code;
	uint32_t bps;
} speeds[] = {
	{ B0, 0 }, { B50, 50 }, { B75, 75 }, { B110, 110 }, { B134, 134 },
	{ B150, 150 }, { B200, 200 }, { B300, 300 }, { B600, 600 },
	{ B1200, 1200 }, { B1800, 1800 }, { B2400, 2400 }, { B4800, 4800 },
	{ B9600, 9600 }, { B19200, 19200 }, { B38400, 38400 },
	{ B57600, 57600 }, { B115200, 115200 }, { B230400, 230400 },
};

static uint32_t
speed_bps(speed_t code)
{
	size_t i;

	for (i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].code == code)
			return speeds[i].bps;
	return 9600;
}

int
ttymodes_encode(const struct termios *tio, struct sbuf *out)
{
	tcflag_t word;
	uint32_t arg;
	size_t i;
	int r;

	if ((r = sbuf_put_u8(out, TTY_OP_ISPEED)) != 0 ||
	    (r = sbuf_put_u32(out, speed_bps(cfgetispeed(tio)))) != 0 ||
	    (r = sbuf_put_u8(out, TTY_OP_OSPEED)) != 0 ||
	    (r = sbuf_put_u32(out, speed_bps(cfgetospeed(tio)))) != 0)
		return r;
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		switch (modes[i].kind) {
		case TM_CC:
			arg = tio->c_cc[modes[i].v];
			if (arg == _POSIX_VDISABLE)
				arg = 255;
			break;
		default:
			word = modes[i].kind == TM_IFLAG ? tio->c_iflag :
			    modes[i].kind == TM_LFLAG ? tio->c_lflag :
			    modes[i].kind == TM_OFLAG ? tio->c_oflag :
			    tio->c_cflag;
			/* CS7/CS8 are values of the CSIZE field. */
			if (modes[i].kind == TM_CFLAG &&
			    (modes[i].v == CS7 || modes[i].v == CS8))
				arg = (word & CSIZE) == modes[i].v;
			else
				arg = (word & modes[i].v) != 0;
			break;
		}
		if ((r = sbuf_put_u8(out, modes[i].op)) != 0 ||
		    (r = sbuf_put_u32(out, arg)) != 0)
			return r;
	}
	return sbuf_put_u8(out, TTY_OP_END);
}

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
