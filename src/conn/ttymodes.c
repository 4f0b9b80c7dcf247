/*
 * ttymodes.c: the encoded terminal modes of a "pty-req" (RFC 4254
 * section 8, RFC 8160 for IUTF8), both ways: the client encodes its
 * termios, the server applies the string to the pty.
 *
 * The string is a run of (opcode byte, uint32 argument) pairs ended by
 * TTY_OP_END (0). Opcodes 1..159 carry a uint32; the first opcode from
 * 160 up ends the parse, since its argument size is unknown. Each opcode
 * is one table row: a control character, a flag bit in one of the four
 * flag words, or a speed (sent in bits per second). Opcodes this system
 * lacks are skipped. A disabled control character travels as 255.
 */
#include <stddef.h>
#include <stdint.h>
#include <termios.h>
#include <unistd.h>

#include "err.h"
#include "sbuf.h"
#include "ttymodes.h"

#define TTY_OP_END	0
#define TTY_OP_ISPEED	128
#define TTY_OP_OSPEED	129

enum tm_kind { TM_CC, TM_IFLAG, TM_LFLAG, TM_OFLAG, TM_CFLAG };

static const struct {
	uint8_t op;
	enum tm_kind kind;
	tcflag_t bit;		/* flag bit, or index into c_cc */
} tty_modes[] = {
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
	uint32_t bps;
	speed_t code;
} tty_speeds[] = {
	{ 0, B0 }, { 50, B50 }, { 75, B75 }, { 110, B110 }, { 134, B134 },
	{ 150, B150 }, { 200, B200 }, { 300, B300 }, { 600, B600 },
	{ 1200, B1200 }, { 1800, B1800 }, { 2400, B2400 }, { 4800, B4800 },
	{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 },
	{ 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
};

static uint32_t
speed_bps(speed_t code)
{
	size_t i;

	for (i = 0; i < sizeof(tty_speeds) / sizeof(tty_speeds[0]); i++)
		if (tty_speeds[i].code == code)
			return tty_speeds[i].bps;
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
	for (i = 0; i < sizeof(tty_modes) / sizeof(tty_modes[0]); i++) {
		switch (tty_modes[i].kind) {
		case TM_CC:
			arg = tio->c_cc[tty_modes[i].bit];
			if (arg == _POSIX_VDISABLE)
				arg = 255;
			break;
		default:
			word = tty_modes[i].kind == TM_IFLAG ? tio->c_iflag :
			    tty_modes[i].kind == TM_LFLAG ? tio->c_lflag :
			    tty_modes[i].kind == TM_OFLAG ? tio->c_oflag :
			    tio->c_cflag;
			/* CS7/CS8 are values of the CSIZE field. */
			if (tty_modes[i].kind == TM_CFLAG &&
			    (tty_modes[i].bit == CS7 || tty_modes[i].bit == CS8))
				arg = (word & CSIZE) == tty_modes[i].bit;
			else
				arg = (word & tty_modes[i].bit) != 0;
			break;
		}
		if ((r = sbuf_put_u8(out, tty_modes[i].op)) != 0 ||
		    (r = sbuf_put_u32(out, arg)) != 0)
			return r;
	}
	return sbuf_put_u8(out, TTY_OP_END);
}

int
ttymodes_speed(uint32_t bps, speed_t *codep)
{
	size_t i;

	for (i = 0; i < sizeof(tty_speeds) / sizeof(tty_speeds[0]); i++) {
		if (tty_speeds[i].bps == bps) {
			*codep = tty_speeds[i].code;
			return 0;
		}
	}
	return ERR_NOT_FOUND;
}

static void
apply_one(struct termios *tio, size_t row, uint32_t arg)
{
	tcflag_t *word = NULL;

	switch (tty_modes[row].kind) {
	case TM_CC:
		tio->c_cc[tty_modes[row].bit] =
		    arg == 255 ? _POSIX_VDISABLE : (cc_t)arg;
		return;
	case TM_IFLAG:
		word = &tio->c_iflag;
		break;
	case TM_LFLAG:
		word = &tio->c_lflag;
		break;
	case TM_OFLAG:
		word = &tio->c_oflag;
		break;
	case TM_CFLAG:
		word = &tio->c_cflag;
		break;
	}
	/* CS7 and CS8 are values of the CSIZE field, not bits. */
	if (tty_modes[row].kind == TM_CFLAG &&
	    (tty_modes[row].bit == CS7 || tty_modes[row].bit == CS8)) {
		if (arg)
			*word = (*word & ~(tcflag_t)CSIZE) | tty_modes[row].bit;
		return;
	}
	if (arg)
		*word |= tty_modes[row].bit;
	else
		*word &= ~tty_modes[row].bit;
}

int
ttymodes_apply(struct termios *tio, const unsigned char *modes, size_t len)
{
	struct sbuf *b;
	uint8_t op;
	uint32_t arg;
	speed_t sp;
	size_t i;
	int r = 0;

	if (len == 0)
		return 0;
	if ((b = sbuf_from(modes, len)) == NULL)
		return ERR_ALLOC;
	while (sbuf_len(b) > 0) {
		if ((r = sbuf_get_u8(b, &op)) != 0)
			break;
		if (op == TTY_OP_END || op >= 160)
			break;
		if ((r = sbuf_get_u32(b, &arg)) != 0)
			break;
		if (op == TTY_OP_ISPEED || op == TTY_OP_OSPEED) {
			if (ttymodes_speed(arg, &sp) != 0)
				continue;
			if (op == TTY_OP_ISPEED)
				(void)cfsetispeed(tio, sp);
			else
				(void)cfsetospeed(tio, sp);
			continue;
		}
		for (i = 0; i < sizeof(tty_modes) / sizeof(tty_modes[0]); i++)
			if (tty_modes[i].op == op)
				apply_one(tio, i, arg);
	}
	sbuf_free(b);
	return r;
}
