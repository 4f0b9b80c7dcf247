/*
 * vis.c: what sftp writes reaches the terminal through one of two
 * filters, so no name a server sends can move the cursor, retitle the
 * window or forge a line, whichever message it ends up in.
 *
 * They encode as OpenSSH's sftp does, so the bytes match its output:
 *
 * - Standard output (listings, "Fetching ..." lines, the echo of a
 *   batch line): printable ASCII, tab, newline and carriage return go
 *   out as they are, and so does a printable multibyte character when
 *   the locale is UTF-8; every other byte becomes a three-digit octal
 *   escape (\ooo). A backslash stays one backslash.
 * - Standard error (messages): byte by byte, printable ASCII, space,
 *   tab, newline, carriage return, backspace and bell as they are, a
 *   backslash doubled, everything else (UTF-8 too) in octal.
 *
 * Output is formatted first and encoded after, so a padded column is
 * as wide in bytes as the raw name, as in OpenSSH's listings.
 */
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "mem.h"
#include "sftp.h"

struct vis_stream {
	int fd;
	int err;			/* the standard error's encoding */
	int utf8;			/* the locale's characters are UTF-8 */
	unsigned char carry[MB_LEN_MAX];	/* a character cut short */
	size_t ncarry;
};

static int
put_raw(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static size_t
octal(char *o, unsigned char c)
{
	o[0] = '\\';
	o[1] = (char)('0' + (c >> 6));
	o[2] = (char)('0' + ((c >> 3) & 7));
	o[3] = (char)('0' + (c & 7));
	return 4;
}

/* One byte as standard error shows it. */
static size_t
enc_err(char *o, unsigned char c)
{
	if (c == '\\') {
		o[0] = o[1] = '\\';
		return 2;
	}
	if ((c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\b' || c == '\a') {
		o[0] = (char)c;
		return 1;
	}
	return octal(o, c);
}

/*
 * The bytes p[0..n) as standard output shows them into o (room for
 * 4 * n bytes); how many were used (fewer only when a character is cut
 * short at the end and more may follow).
 */
static size_t
enc_out(const struct vis_stream *s, const unsigned char *p, size_t n,
    char *o, size_t *olen, int final)
{
	size_t i = 0, k, j, len;
	mbstate_t st;
	wchar_t wc;

	*olen = 0;
	while (i < n) {
		if (p[i] < 0x80) {
			if ((p[i] >= 0x20 && p[i] < 0x7f) || p[i] == '\t' ||
			    p[i] == '\n' || p[i] == '\r')
				o[(*olen)++] = (char)p[i];
			else
				*olen += octal(o + *olen, p[i]);
			i++;
			continue;
		}
		len = 1;
		if (s->utf8) {
			memset(&st, 0, sizeof(st));
			k = mbrtowc(&wc, (const char *)p + i, n - i, &st);
			if (k == (size_t)-2 && !final)
				return i;	/* the rest comes later */
			if (k != (size_t)-1 && k != (size_t)-2 && k > 0 &&
			    iswprint((wint_t)wc)) {
				memcpy(o + *olen, p + i, k);
				*olen += k;
				i += k;
				continue;
			}
			if (k != (size_t)-1 && k != (size_t)-2 && k > 0)
				len = k;	/* unprintable: every byte */
		}
		for (j = 0; j < len; j++)
			*olen += octal(o + *olen, p[i + j]);
		i += len;
	}
	return i;
}

static ssize_t
vis_write(void *cookie, const char *buf, size_t size)
{
	struct vis_stream *s = cookie;
	unsigned char *in;
	size_t n, used, olen, i;
	char *o;
	int r;

	n = s->ncarry + size;
	in = x_malloc(n);
	memcpy(in, s->carry, s->ncarry);
	memcpy(in + s->ncarry, buf, size);
	o = x_malloc(4 * n + 1);
	if (s->err) {
		for (i = olen = 0; i < n; i++)
			olen += enc_err(o + olen, in[i]);
		used = n;
	} else
		used = enc_out(s, in, n, o, &olen, 0);
	s->ncarry = n - used;
	if (s->ncarry > sizeof(s->carry))	/* cannot be: one character */
		s->ncarry = 0;
	memcpy(s->carry, in + used, s->ncarry);
	r = put_raw(s->fd, o, olen);
	x_free(o);
	x_free(in);
	return r == 0 ? (ssize_t)size : -1;
}

static int
vis_close(void *cookie)
{
	struct vis_stream *s = cookie;
	char o[4 * MB_LEN_MAX];
	size_t olen;

	if (s->ncarry > 0) {
		enc_out(s, s->carry, s->ncarry, o, &olen, 1);
		(void)put_raw(s->fd, o, olen);
		s->ncarry = 0;
	}
	return 0;
}

static FILE *
vis_open(int fd, int err, int utf8)
{
	/* One of each for the life of the process: nothing to free. */
	static struct vis_stream streams[2];
	cookie_io_functions_t io = { NULL, vis_write, NULL, vis_close };
	struct vis_stream *s = &streams[err ? 1 : 0];

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->err = err;
	s->utf8 = utf8;
	return fopencookie(s, "w", io);
}

/*
 * stdout and stderr become the filters; the terminal's own streams
 * (for the line editor, which writes control sequences on purpose) are
 * left in *rawout and *rawerr.
 */
void
vis_streams(FILE **rawout, FILE **rawerr)
{
	FILE *o, *e;
	int utf8;

	*rawout = stdout;
	*rawerr = stderr;
	/* Characters as the locale has them, when it is UTF-8. */
	if (setlocale(LC_CTYPE, "") == NULL ||
	    strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		setlocale(LC_CTYPE, "C");
	utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if ((o = vis_open(STDOUT_FILENO, 0, utf8)) == NULL ||
	    (e = vis_open(STDERR_FILENO, 1, utf8)) == NULL) {
		if (o != NULL)
			fclose(o);
		return;		/* then the plain streams */
	}
	setvbuf(o, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	setvbuf(e, NULL, _IONBF, 0);
	stdout = o;
	stderr = e;
}
