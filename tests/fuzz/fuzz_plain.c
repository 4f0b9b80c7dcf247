/*
 * fuzz_plain.c: the plain framing of a ControlMaster's proxy mode
 * (tr_new_plain), as ssh -O proxy reads it: what a master, or whoever
 * answers on the control socket, sends after MUX_S_PROXY.
 *
 * The first input byte sets the size of the writes the rest arrives in
 * (1 to 256 bytes, so packets are split everywhere); the rest is the
 * master's byte stream. Every message handed up is answered with a
 * CHANNEL_DATA echoing it, as a session would write to the master.
 * Whatever the input: no crash; no key exchange message (20 to 49) is
 * ever handed up; and what we sent parses back as whole plain frames
 * ("uint32 length, byte 0, payload"), at least one for each echo, with
 * no banner or KEXINIT before them. The seeds are what Debian's OpenSSH
 * 9.2 master sent for one exec (confirmation to exit-status and close),
 * in three write sizes.
 */
#include <sys/socket.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "sbuf.h"
#include "transport.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)
#define FZ_MAX_ROUNDS	20000

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_init("fuzz", LOG_LEVEL_DEBUG3, 0, 0);
	if (log_to_file("/dev/null") != 0)
		log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	return 0;
}

/* Hand up what is whole, answering each; 0 to go on. */
static int
drain(struct transport *t, size_t *sentp)
{
	struct sbuf *m, *b;
	uint8_t type;
	int r;

	for (;;) {
		if ((r = tr_next_message(t, &type, &m)) != 0)
			return r == ERR_AGAIN ? 0 : r;
		REQUIRE(type < 20 || type >= 50);
		if ((b = tr_msg_start(t, SSH2_MSG_CHANNEL_DATA)) == NULL ||
		    sbuf_put_u32(b, type) != 0 ||
		    sbuf_put_string(b, sbuf_ptr(m), sbuf_len(m)) != 0)
			abort();
		if ((r = tr_msg_send(t)) != 0)
			return r;
		(*sentp)++;
	}
}

/* What our side wrote so far, read from the peer's end into b. */
static void
collect(int fd, struct sbuf *b)
{
	unsigned char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		REQUIRE(sbuf_put(b, buf, (size_t)n) == 0);
}

/* Our side's output: whole plain frames, one for each message sent. */
static void
check_output(struct sbuf *b, size_t sent)
{
	uint32_t len;
	size_t frames = 0;
	uint8_t pad;

	while (sbuf_len(b) > 0) {
		REQUIRE(sbuf_get_u32(b, &len) == 0);
		REQUIRE(len >= 2 && len <= sbuf_len(b));
		REQUIRE(sbuf_get_u8(b, &pad) == 0 && pad == 0);
		REQUIRE(sbuf_consume(b, len - 1) == 0);
		frames++;
	}
	/*
	 * The transport's own answers (UNIMPLEMENTED to an unknown
	 * transport message, a DISCONNECT for a bad packet) come too.
	 */
	REQUIRE(frames >= sent);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tr_config cfg;
	struct transport *t;
	struct sbuf *out;
	size_t off = 1, step, sent = 0;
	ssize_t n;
	int sp[2], shut = 0, i, r;

	if (size < 1)
		return 0;
	step = (size_t)data[0] + 1;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) != 0)
		abort();
	(void)fcntl(sp[1], F_SETFL, O_NONBLOCK);
	memset(&cfg, 0, sizeof(cfg));
	cfg.server = 1;
	REQUIRE(tr_new_plain(sp[0], sp[0], &cfg) == NULL);
	cfg.server = 0;
	t = tr_new_plain(sp[0], sp[0], &cfg);
	out = sbuf_new();
	for (i = 0; i < FZ_MAX_ROUNDS; i++) {
		if (off < size) {
			n = write(sp[1], data + off,
			    size - off < step ? size - off : step);
			if (n > 0)
				off += (size_t)n;
		} else if (!shut) {
			shutdown(sp[1], SHUT_WR);
			shut = 1;
		}
		r = tr_fd_read(t);
		if (r != 0 && r != ERR_AGAIN) {
			(void)drain(t, &sent);
			break;
		}
		if (drain(t, &sent) != 0)
			break;
		(void)tr_fd_write(t);
		collect(sp[1], out);
	}
	for (i = 0; i < FZ_MAX_ROUNDS && tr_want_write(t); i++) {
		if ((r = tr_fd_write(t)) != 0 && r != ERR_AGAIN)
			abort();
		collect(sp[1], out);
	}
	REQUIRE(!tr_want_write(t));
	tr_free(t);
	close(sp[0]);
	collect(sp[1], out);
	close(sp[1]);
	check_output(out, sent);
	sbuf_free(out);
	return 0;
}
