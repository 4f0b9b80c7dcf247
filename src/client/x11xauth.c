/*
 * x11xauth.c: what X11 forwarding in ssh(1) needs from the local X
 * setup: the real cookie, read from xauth(1), and a connection to the
 * display.
 *
 * xauth is run directly (no shell) with its output read through a pipe
 * and its errors sent to /dev/null. For an untrusted forwarding (-X
 * with ForwardX11Trusted no) the X server is asked for a new cookie of
 * its SECURITY extension's untrusted kind, with "generate ... untrusted
 * timeout N", written to a file in a private temporary directory, read
 * back from there and removed: clients using it cannot touch the
 * windows of trusted ones, and the X server forgets it N seconds after
 * its last use. A display given as ":D" is looked up as "unix:D", the
 * name xauth files local displays under.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "x11fwd.h"

/* Enough for the lines of one display's entry. */
#define XAUTH_OUT_MAX	8192
#define XAUTH_MAX_ARGS	12
/* Added to ForwardX11Timeout so the cookie outlives our refusals. */
#define XAUTH_TIMEOUT_SLACK	60
#define X11_BASE_PORT	6000
#define X11_UNIX_DIR	"/tmp/.X11-unix"

/* Run xauth with argv, its output in out (NUL-terminated). */
static int
run_xauth(char *const argv[], char *out, size_t outsz)
{
	int p[2], fd, status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(p, O_CLOEXEC) != 0)
		return ERR_SYSTEM;
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return ERR_SYSTEM;
	}
	if (pid == 0) {
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			(void)dup2(fd, STDIN_FILENO);
			(void)dup2(fd, STDERR_FILENO);
		}
		(void)dup2(p[1], STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while (got + 1 < outsz) {
		n = read(p[0], out + got, outsz - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	out[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	return 0;
}

/* Only the characters a display name or path holds go to xauth. */
static int
safe_word(const char *s)
{
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && strchr("._:/-", *s) == NULL)
			return 0;
	return 1;
}

static int
unhex(const char *hex, unsigned char *out, size_t max, size_t *lenp)
{
	size_t n = strlen(hex), i;
	unsigned int v;

	if (n == 0 || n % 2 != 0 || n / 2 > max)
		return ERR_INVALID_FORMAT;
	for (i = 0; i < n / 2; i++) {
		if (!isxdigit((unsigned char)hex[2 * i]) ||
		    !isxdigit((unsigned char)hex[2 * i + 1]) ||
		    sscanf(hex + 2 * i, "%2x", &v) != 1)
			return ERR_INVALID_FORMAT;
		out[i] = (unsigned char)v;
	}
	*lenp = n / 2;
	return 0;
}

/* "name  proto  hexdata" from the first line of xauth list. */
static int
parse_list(const char *out, char proto[X11_PROTO_MAX],
    unsigned char data[X11_COOKIE_MAX], size_t *lenp)
{
	char name[256], p[X11_PROTO_MAX], hex[2 * X11_COOKIE_MAX + 1];

	if (sscanf(out, "%255s %63s %512s", name, p, hex) != 3)
		return ERR_NOT_FOUND;
	if (unhex(hex, data, X11_COOKIE_MAX, lenp) != 0)
		return ERR_INVALID_FORMAT;
	memcpy(proto, p, sizeof(p));
	return 0;
}

static int
untrusted_cookie(const char *xauth, const char *display,
    const char *xdisplay, int timeout, char *out, size_t outsz)
{
	char dir[] = "/tmp/ssh-XXXXXXXXXX", *file, tmo[32];
	char *argv[XAUTH_MAX_ARGS];
	int n = 0;

	if (mkdtemp(dir) == NULL) {
		log_error("mkdtemp: %s", strerror(errno));
		return ERR_SYSTEM;
	}
	file = x_asprintf("%s/xauthfile", dir);
	argv[n++] = (char *)xauth;
	argv[n++] = "-f";
	argv[n++] = file;
	argv[n++] = "generate";
	argv[n++] = (char *)display;
	argv[n++] = "MIT-MAGIC-COOKIE-1";
	argv[n++] = "untrusted";
	if (timeout > 0) {
		snprintf(tmo, sizeof(tmo), "%d", timeout +
		    XAUTH_TIMEOUT_SLACK);
		argv[n++] = "timeout";
		argv[n++] = tmo;
	}
	argv[n] = NULL;
	log_debug2("x11_get_proto: %s -f %s generate %s MIT-MAGIC-COOKIE-1 "
	    "untrusted%s%s", xauth, file, display, timeout > 0 ?
	    " timeout " : "", timeout > 0 ? tmo : "");
	(void)run_xauth(argv, out, outsz);
	argv[3] = "list";
	argv[4] = (char *)xdisplay;
	argv[5] = NULL;
	(void)run_xauth(argv, out, outsz);
	(void)unlink(file);
	(void)rmdir(dir);
	x_free(file);
	return 0;
}

int
x11_xauth_cookie(const char *xauth_path, const char *display,
    int trusted, int timeout, char proto[X11_PROTO_MAX],
    unsigned char data[X11_COOKIE_MAX], size_t *lenp)
{
	char out[XAUTH_OUT_MAX], *xdisplay, *argv[4];
	struct stat st;
	int r;

	if (xauth_path == NULL || stat(xauth_path, &st) != 0) {
		log_debug("No xauth program.");
		return ERR_NOT_FOUND;
	}
	if (!safe_word(display)) {
		log_debug("x11_get_proto: DISPLAY '%s' invalid; ignoring",
		    display);
		return ERR_INVALID_ARGUMENT;
	}
	xdisplay = display[0] == ':' ? x_asprintf("unix%s", display) :
	    x_strdup(display);
	if (!trusted)
		r = untrusted_cookie(xauth_path, display, xdisplay, timeout,
		    out, sizeof(out));
	else {
		argv[0] = (char *)xauth_path;
		argv[1] = "list";
		argv[2] = xdisplay;
		argv[3] = NULL;
		r = run_xauth(argv, out, sizeof(out));
	}
	x_free(xdisplay);
	if (r != 0)
		return r;
	return parse_list(out, proto, data, lenp);
}

int
x11_display_screen(const char *display)
{
	const char *colon = strrchr(display, ':'), *dot;

	if (colon == NULL || (dot = strchr(colon, '.')) == NULL)
		return 0;
	return atoi(dot + 1);
}

/*
 * The display number after the last ':' (up to a '.'): 0 to 10000, or
 * -1 when there is none (a number, not an error code).
 */
static int
display_number(const char *display, const char **colonp)
{
	const char *colon = strrchr(display, ':'), *p;
	long v = 0;

	*colonp = colon;
	if (colon == NULL || colon[1] == '\0' || colon[1] == '.')
		return -1;
	for (p = colon + 1; *p != '\0' && *p != '.'; p++) {
		if (!isdigit((unsigned char)*p) || v > 10000)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v > 10000 ? -1 : (int)v;
}

/* The local display's socket: 0 and *fdp, or ERR_SYSTEM (logged). */
static int
connect_unix(int num, int *fdp)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/X%d", X11_UNIX_DIR,
	    num);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		log_error("socket: %.100s", strerror(errno));
		return ERR_SYSTEM;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		log_error("connect %.100s: %.100s", sun.sun_path,
		    strerror(errno));
		close(fd);
		return ERR_SYSTEM;
	}
	*fdp = fd;
	return 0;
}

/*
 * TCP port 6000+num of host, each address in turn: 0 and *fdp, or
 * (logged) ERR_NOT_FOUND for a name that does not resolve, ERR_SYSTEM
 * when no address answered.
 */
static int
connect_tcp(const char *host, int num, int *fdp)
{
	struct addrinfo hints, *ai, *a;
	char port[16];
	int fd = -1, e, saved = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%d", X11_BASE_PORT + num);
	if ((e = getaddrinfo(host, port, &hints, &ai)) != 0) {
		log_error("%.100s: unknown host. (%s)", host, gai_strerror(e));
		return ERR_NOT_FOUND;
	}
	for (a = ai; a != NULL; a = a->ai_next) {
		if ((fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
		    a->ai_protocol)) == -1) {
			saved = errno;
			continue;
		}
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
			break;
		saved = errno;
		log_debug2("connect %.100s port %s: %.100s", host, port,
		    strerror(saved));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd == -1) {
		/* freeaddrinfo() may have changed errno: the connect's. */
		errno = saved;
		log_error("connect %.100s port %s: %.100s", host, port,
		    strerror(saved));
		return ERR_SYSTEM;
	}
	*fdp = fd;
	return 0;
}

int
x11_display_connect(const char *display, int *fdp)
{
	const char *colon;
	char *host;
	int num, r;

	*fdp = -1;
	if ((num = display_number(display, &colon)) < 0) {
		log_error("Could not parse display number from DISPLAY: "
		    "%.100s", display);
		return ERR_INVALID_FORMAT;
	}
	if (colon == display || (colon - display == 4 &&
	    strncmp(display, "unix", 4) == 0))
		return connect_unix(num, fdp);
	host = x_strndup(display, (size_t)(colon - display));
	r = connect_tcp(host, num, fdp);
	x_free(host);
	return r;
}
