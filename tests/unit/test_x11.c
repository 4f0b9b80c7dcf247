/*
 * test_x11.c: the X11 connection setup message ssh(1) reads on a
 * forwarded channel (x11auth.c) and the fake cookie swapped for the
 * real one; the server's checks on x11-req words (x11fwd.c); DISPLAY's
 * screen number; connecting to a display and the errors for one that
 * cannot be reached.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"
#include "x11auth.h"
#include "x11fwd.h"
#include "x11srv.h"

static const char proto[] = "MIT-MAGIC-COOKIE-1";	/* 18: pad 2 */

/* A setup message as an X library writes it, in either byte order. */
static size_t
make_setup(unsigned char *m, int msb, const char *name,
    const unsigned char *data, size_t dlen)
{
	size_t nlen = strlen(name), off;

	memset(m, 0xee, 512);	/* padding bytes are not looked at */
	m[0] = msb ? 'B' : 'l';
	m[1] = 0;
	if (msb) {
		m[2] = 0; m[3] = 11; m[4] = 0; m[5] = 0;
		m[6] = (unsigned char)(nlen >> 8); m[7] = (unsigned char)nlen;
		m[8] = (unsigned char)(dlen >> 8); m[9] = (unsigned char)dlen;
	} else {
		m[2] = 11; m[3] = 0; m[4] = 0; m[5] = 0;
		m[6] = (unsigned char)nlen; m[7] = (unsigned char)(nlen >> 8);
		m[8] = (unsigned char)dlen; m[9] = (unsigned char)(dlen >> 8);
	}
	m[10] = m[11] = 0;
	memcpy(m + 12, name, nlen);
	off = 12 + ((nlen + 3) & ~(size_t)3);
	memcpy(m + off, data, dlen);
	return off + ((dlen + 3) & ~(size_t)3);
}

static void
test_parse(void)
{
	unsigned char m[512], fake[16], real[16];
	struct x11_setup st;
	size_t len, i;
	int msb;

	memset(fake, 0xfa, sizeof(fake));
	memset(real, 0x5e, sizeof(real));
	for (msb = 0; msb <= 1; msb++) {
		len = make_setup(m, msb, proto, fake, sizeof(fake));
		CHECK(len == 12 + 20 + 16);
		CHECK_OK(x11_setup_parse(m, len, &st));
		CHECK(st.name_off == 12 && st.name_len == 18);
		CHECK(st.data_off == 32 && st.data_len == 16);
		CHECK(st.total == len);
		/* Every shorter prefix asks for more, never reads past it. */
		for (i = 0; i < len; i++)
			CHECK_ERR(x11_setup_parse(m, i, &st), ERR_AGAIN);
		/* What follows the message is the X client's next request. */
		CHECK_OK(x11_setup_parse(m, len + 40, &st));
		CHECK(st.total == len);
	}
	/* Neither 'B' nor 'l': refused as soon as the first byte is in. */
	m[0] = 'x';
	CHECK_ERR(x11_setup_parse(m, 1, &st), ERR_INVALID_FORMAT);
	CHECK_ERR(x11_setup_parse(m, 48, &st), ERR_INVALID_FORMAT);
	CHECK_ERR(x11_setup_parse(m, 0, &st), ERR_AGAIN);
	/* The largest lengths: the total fits, nothing is read early. */
	memset(m, 0xff, 12);
	m[0] = 'B';
	CHECK_ERR(x11_setup_parse(m, 12, &st), ERR_AGAIN);
}

static void
test_spoof(void)
{
	unsigned char m[512], fake[16], real[16], other[16];
	struct x11_setup st;
	const char *why;
	size_t len;

	memset(fake, 0xfa, sizeof(fake));
	memset(real, 0x5e, sizeof(real));
	memcpy(other, fake, sizeof(other));
	other[15] ^= 1;

	len = make_setup(m, 0, proto, fake, sizeof(fake));
	CHECK_OK(x11_setup_parse(m, len, &st));
	CHECK_OK(x11_setup_spoof(m, &st, proto, fake, real, 16, &why));
	CHECK_MEM(m + st.data_off, real, 16);
	CHECK_MEM(m + 12, proto, 18);
	CHECK(m[30] == 0xee && m[31] == 0xee);	/* padding untouched */

	/* One bit off in the cookie: refused, nothing written. */
	len = make_setup(m, 1, proto, other, sizeof(other));
	CHECK_OK(x11_setup_parse(m, len, &st));
	CHECK_ERR(x11_setup_spoof(m, &st, proto, fake, real, 16, &why),
	    ERR_PERMISSION_DENIED);
	CHECK_STR(why, "data");
	CHECK_MEM(m + st.data_off, other, 16);

	/* A shorter cookie (the fake one's prefix) is refused too. */
	len = make_setup(m, 1, proto, fake, 8);
	CHECK_OK(x11_setup_parse(m, len, &st));
	CHECK_ERR(x11_setup_spoof(m, &st, proto, fake, real, 16, &why),
	    ERR_PERMISSION_DENIED);
	CHECK_STR(why, "data");

	/* Another protocol, or none (the real cookie must not leak). */
	len = make_setup(m, 0, "XDM-AUTHORIZATION-1", fake, 16);
	CHECK_OK(x11_setup_parse(m, len, &st));
	CHECK_ERR(x11_setup_spoof(m, &st, proto, fake, real, 16, &why),
	    ERR_PERMISSION_DENIED);
	CHECK_STR(why, "protocol");
	len = make_setup(m, 0, "", fake, 0);
	CHECK(len == 12);
	CHECK_OK(x11_setup_parse(m, len, &st));
	CHECK_ERR(x11_setup_spoof(m, &st, proto, fake, real, 16, &why),
	    ERR_PERMISSION_DENIED);
}

static void
test_words(void)
{
	CHECK(x11_srv_valid_word("MIT-MAGIC-COOKIE-1"));
	CHECK(x11_srv_valid_word("0123456789abcdef"));
	CHECK(!x11_srv_valid_word(""));
	/* A newline would add a line of the client's to xauth's input. */
	CHECK(!x11_srv_valid_word("abc\nadd evil"));
	CHECK(!x11_srv_valid_word("a b"));
	CHECK(!x11_srv_valid_word("a;b"));
	CHECK(x11_display_screen(":0") == 0);
	CHECK(x11_display_screen("localhost:10.2") == 2);
	CHECK(x11_display_screen("[::1]:3.1") == 1);
	CHECK(x11_display_screen("nodisplay") == 0);
}

/* A listener on 127.0.0.1 port 6000+n for some free n; its fd. */
static int
listen_display(int *np)
{
	struct sockaddr_in sin;
	int fd, n;

	for (n = 4000; n < 10000; n++) {
		if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
			return -1;
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_port = htons((uint16_t)(6000 + n));
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0 &&
		    listen(fd, 4) == 0) {
			*np = n;
			return fd;
		}
		close(fd);
	}
	return -1;
}

static void
test_display_connect(void)
{
	char display[64];
	int lfd, n = 0, fd = 0;

	CHECK_ERR(x11_display_connect("nodisplay", &fd), ERR_INVALID_FORMAT);
	CHECK(fd == -1);
	CHECK_ERR(x11_display_connect("host:", &fd), ERR_INVALID_FORMAT);
	CHECK_ERR(x11_display_connect(":x", &fd), ERR_INVALID_FORMAT);
	CHECK_ERR(x11_display_connect(":99999", &fd), ERR_INVALID_FORMAT);
	CHECK((lfd = listen_display(&n)) != -1);
	if (lfd == -1)
		return;
	snprintf(display, sizeof(display), "127.0.0.1:%d.0", n);
	CHECK_OK(x11_display_connect(display, &fd));
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	close(lfd);
	/* Nobody listens there now: refused, an errno to name. */
	fd = 0;
	CHECK_ERR(x11_display_connect(display, &fd), ERR_SYSTEM);
	CHECK(fd == -1);
}

int
main(void)
{
	log_init("test_x11", LOG_LEVEL_QUIET, 0, 1);
	test_parse();
	test_spoof();
	test_words();
	test_display_connect();
	return TEST_DONE();
}
