/*
 * fuzz_ttymodes.c: the terminal modes of a "pty-req" (ttymodes_apply),
 * the string a client sends and the server applies to the pty.
 *
 * The input is the modes string itself. It is applied to the termios a
 * fresh Linux pty starts with; what comes out is encoded again
 * (ttymodes_encode), and that encoding, applied to the same starting
 * termios and encoded once more, must come out the same: every mode the
 * encoder writes, the decoder must read back to the same value, speeds
 * included. CSIZE must stay CS7 or CS8 (the pty starts with CS8 and no
 * opcode can ask for less).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>

#include "err.h"
#include "sbuf.h"
#include "ttymodes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a new pty on Linux starts with (stty -a on /dev/pts/N). */
static void
base_termios(struct termios *t)
{
	memset(t, 0, sizeof(*t));
	t->c_iflag = ICRNL | IXON | IUTF8;
	t->c_oflag = OPOST | ONLCR;
	t->c_cflag = CS8 | CREAD;
	t->c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | IEXTEN |
	    ECHOCTL | ECHOKE;
	t->c_cc[VINTR] = 3;
	t->c_cc[VQUIT] = 28;
	t->c_cc[VERASE] = 127;
	t->c_cc[VKILL] = 21;
	t->c_cc[VEOF] = 4;
	t->c_cc[VSTART] = 17;
	t->c_cc[VSTOP] = 19;
	t->c_cc[VSUSP] = 26;
	t->c_cc[VREPRINT] = 18;
	t->c_cc[VWERASE] = 23;
	t->c_cc[VLNEXT] = 22;
	t->c_cc[VDISCARD] = 15;
	t->c_cc[VMIN] = 1;
	(void)cfsetispeed(t, B38400);
	(void)cfsetospeed(t, B38400);
}

static struct sbuf *
encode(const struct termios *t)
{
	struct sbuf *b = sbuf_new();

	if (ttymodes_encode(t, b) != 0)
		abort();
	return b;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct termios t1, t2;
	struct sbuf *e1, *e2;
	int r;

	base_termios(&t1);
	r = ttymodes_apply(&t1, data, size);
	if (r != 0 && r != ERR_MESSAGE_INCOMPLETE)
		abort();
	if ((t1.c_cflag & CSIZE) != CS7 && (t1.c_cflag & CSIZE) != CS8)
		abort();
	e1 = encode(&t1);
	base_termios(&t2);
	if (ttymodes_apply(&t2, sbuf_ptr(e1), sbuf_len(e1)) != 0)
		abort();
	e2 = encode(&t2);
	if (!sbuf_equal(e1, e2)) {
		fprintf(stderr, "fuzz: modes do not survive a round trip\n");
		abort();
	}
	if (cfgetispeed(&t1) != cfgetispeed(&t2) ||
	    cfgetospeed(&t1) != cfgetospeed(&t2))
		abort();
	sbuf_free(e1);
	sbuf_free(e2);
	return 0;
}
