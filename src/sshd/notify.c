/*
 * notify.c: sshd's word to its service manager, in systemd's notify
 * protocol (sd_notify(3)) without libsystemd: one datagram of
 * NAME=value lines to the AF_UNIX socket that $NOTIFY_SOCKET names, a
 * path, or an abstract name when it starts with '@' (the '@' stands for
 * the leading NUL, and the name's length is exactly what follows it).
 *
 * The listener sends READY=1 once its sockets listen; on SIGHUP,
 * RELOADING=1 with MONOTONIC_USEC= (CLOCK_MONOTONIC in microseconds,
 * which systemd needs to tell this reload from an older one) just
 * before it executes itself again, and the new image sends READY=1
 * once it listens anew; STOPPING=1 when a signal ends it. Like Debian's
 * OpenSSH it does so whenever the variable is set, with or without -D.
 *
 * Nothing is sent when the variable is unset or empty. A socket that
 * cannot be reached is logged and otherwise ignored: the server works
 * the same without a manager. The send never blocks. Connection
 * processes drop the variable (listen.c): only the listener speaks
 * for the service.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sshd.h"

/* The manager's address from $NOTIFY_SOCKET; 0, or -1 if unusable. */
static int
notify_addr(const char *name, struct sockaddr_un *sun, socklen_t *lenp)
{
	size_t len = strlen(name);

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (name[0] == '@') {
		/* Abstract: a NUL, then the name, not NUL-terminated. */
		if (len < 2 || len > sizeof(sun->sun_path))
			return -1;
		memcpy(sun->sun_path + 1, name + 1, len - 1);
		*lenp = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
		    len);
		return 0;
	}
	if (name[0] != '/' || len >= sizeof(sun->sun_path))
		return -1;
	memcpy(sun->sun_path, name, len);
	*lenp = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + 1);
	return 0;
}

void
sshd_notify(const char *state)
{
	const char *name = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sun;
	socklen_t len;
	int fd;

	if (name == NULL || name[0] == '\0')
		return;
	if (notify_addr(name, &sun, &len) != 0) {
		log_error("NOTIFY_SOCKET \"%.200s\" is not an AF_UNIX socket "
		    "name", name);
		return;
	}
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0)) == -1) {
		log_error("notify: socket: %s", strerror(errno));
		return;
	}
	if (sendto(fd, state, strlen(state), MSG_NOSIGNAL,
	    (struct sockaddr *)&sun, len) == -1)
		log_error("notify: socket \"%.200s\": %s", name,
		    strerror(errno));
	else
		log_debug("notify: socket \"%.200s\" notified %s", name, state);
	close(fd);
}

void
sshd_notify_reloading(void)
{
	struct timespec ts;
	char msg[64];

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
		sshd_notify("RELOADING=1");
		return;
	}
	snprintf(msg, sizeof(msg), "RELOADING=1\nMONOTONIC_USEC=%llu",
	    (unsigned long long)ts.tv_sec * 1000000ULL +
	    (unsigned long long)ts.tv_nsec / 1000ULL);
	sshd_notify(msg);
}
