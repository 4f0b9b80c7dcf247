/*
 * msgdump.c: records what a real client sends, for the fuzz seeds. It
 * is linked only into the sshd that mkseeds.sh builds for recording,
 * with -Wl,--wrap=tr_next_message,--wrap=tr_wait_message: every message
 * the transport hands to the layers above (after decryption, type byte
 * first) is appended to the file $MOAT_MSGDUMP.PID of the process that
 * received it -- one file per connection, since sshd serves each in a
 * child of its own -- as a record "uint16 length, message", the format
 * the upper-layer fuzz targets read. Nothing else changes: the wrapped
 * functions call the real ones and return what they return. A message
 * longer than 65535 bytes is cut (seeds are kept small anyway).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sbuf.h"
#include "transport.h"

int __real_tr_next_message(struct transport *t, uint8_t *typep,
    struct sbuf **payloadp);
int __real_tr_wait_message(struct transport *t, uint8_t *typep,
    struct sbuf **payloadp, int timeout_ms);
int __wrap_tr_next_message(struct transport *t, uint8_t *typep,
    struct sbuf **payloadp);
int __wrap_tr_wait_message(struct transport *t, uint8_t *typep,
    struct sbuf **payloadp, int timeout_ms);

static void
dump(uint8_t type, const struct sbuf *payload)
{
	static pid_t owner;
	static int fd = -1;
	const char *base = getenv("MOAT_MSGDUMP");
	unsigned char hdr[3];
	size_t len = 1 + sbuf_len(payload);
	char path[512];

	if (base == NULL)
		return;
	if (fd == -1 || owner != getpid()) {
		if (fd != -1)
			close(fd);
		owner = getpid();
		snprintf(path, sizeof(path), "%s.%ld", base, (long)owner);
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		    0600);
		if (fd == -1)
			return;
	}
	if (len > 0xffff)
		len = 0xffff;
	hdr[0] = (unsigned char)(len >> 8);
	hdr[1] = (unsigned char)len;
	hdr[2] = type;
	if (write(fd, hdr, 3) != 3 ||
	    write(fd, sbuf_ptr(payload), len - 1) != (ssize_t)(len - 1))
		return;
}

int
__wrap_tr_next_message(struct transport *t, uint8_t *typep,
    struct sbuf **payloadp)
{
	int r = __real_tr_next_message(t, typep, payloadp);

	if (r == 0)
		dump(*typep, *payloadp);
	return r;
}

int
__wrap_tr_wait_message(struct transport *t, uint8_t *typep,
    struct sbuf **payloadp, int timeout_ms)
{
	int r = __real_tr_wait_message(t, typep, payloadp, timeout_ms);

	if (r == 0)
		dump(*typep, *payloadp);
	return r;
}
