/*
 * targets.c: what ssh-keyscan is asked to scan, one item (an argument,
 * or a line of a -f file) at a time.
 *
 * An item that is an address range in CIDR notation, "192.0.2.0/28" or
 * "2001:db8::/120", or one bare address, stands for each address in the
 * range in turn; the range's host bits must be zero, or the item is
 * taken for a host name, as OpenSSH takes it. Anything else is
 * "addrlist [namelist]": addresses or names to connect to, tried in
 * order, and the names to print the keys under (by default the list
 * itself). Ranges are walked as the scan takes them, never held whole.
 */
#include <sys/socket.h>

#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "keyscan.h"
#include "log.h"
#include "mem.h"

#define WHITE	" \t\r\n"

static void
trim_end(char *s)
{
	char *end = s + strlen(s);

	while (end > s && strchr(WHITE, end[-1]) != NULL)
		*--end = '\0';
}

char *
ks_file_line(char *line)
{
	line[strcspn(line, "#")] = '\0';
	line += strspn(line, WHITE);
	trim_end(line);
	return *line == '\0' ? NULL : line;
}

/* A numeric address (IPv4 in any form inet_aton takes, or IPv6). */
static int
parse_addr(const char *s, int *familyp, unsigned char *addr)
{
	struct addrinfo hints, *res = NULL;

	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_NUMERICHOST;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(s, NULL, &hints, &res) != 0 || res == NULL)
		return -1;
	*familyp = res->ai_family;
	if (res->ai_family == AF_INET)
		memcpy(addr, &((struct sockaddr_in *)res->ai_addr)->sin_addr,
		    4);
	else if (res->ai_family == AF_INET6)
		memcpy(addr, &((struct sockaddr_in6 *)res->ai_addr)->sin6_addr,
		    16);
	else
		*familyp = -1;
	freeaddrinfo(res);
	return *familyp == -1 ? -1 : 0;
}

/*
 * "addr[/bits]" with no host bits set: the first and last addresses of
 * the range into first and last (4 or 16 bytes, *lenp).
 */
static int
parse_cidr(const char *item, int *familyp, unsigned char *first,
    unsigned char *last, size_t *lenp)
{
	char *s = x_strdup(item), *slash, *end;
	unsigned long bits;
	size_t len, i;
	int r = -1;

	if ((slash = strchr(s, '/')) != NULL)
		*slash++ = '\0';
	if (strpbrk(s, WHITE) != NULL || parse_addr(s, familyp, first) != 0)
		goto out;
	len = *familyp == AF_INET ? 4 : 16;
	bits = len * 8;
	if (slash != NULL) {
		if (*slash < '0' || *slash > '9')
			goto out;
		bits = strtoul(slash, &end, 10);
		if (*end != '\0' || bits > len * 8)
			goto out;
	}
	for (i = 0; i < len; i++) {
		unsigned int keep = bits >= (i + 1) * 8 ? 8 :
		    bits > i * 8 ? (unsigned int)(bits - i * 8) : 0;
		unsigned char mask = (unsigned char)(0xff00u >> keep);

		if (first[i] & ~mask)
			goto out;		/* host bits set */
		last[i] = first[i] | (unsigned char)~mask;
	}
	*lenp = len;
	r = 0;
 out:
	x_free(s);
	return r;
}

/* Each address of the range, first to last. */
static void
walk_range(int family, unsigned char *a, const unsigned char *last,
    size_t len, ks_target_fn fn, void *arg)
{
	char text[INET6_ADDRSTRLEN];
	size_t i;

	for (;;) {
		if (inet_ntop(family, a, text, sizeof(text)) == NULL)
			return;
		log_debug("CIDR expand: address %s", text);
		fn(text, text, arg);
		if (memcmp(a, last, len) == 0)
			return;
		for (i = len; i-- > 0; )	/* a + 1, big-endian */
			if (++a[i] != 0)
				break;
	}
}

void
ks_item(const char *item, ks_target_fn fn, void *arg)
{
	unsigned char first[16], last[16];
	char *copy, *addrs, *names;
	size_t len;
	int family;

	if (parse_cidr(item, &family, first, last, &len) == 0) {
		log_debug("CIDR range %s", item);
		walk_range(family, first, last, len, fn, arg);
		return;
	}
	copy = x_strdup(item);
	addrs = copy + strspn(copy, WHITE);
	names = addrs + strcspn(addrs, WHITE);
	if (*names != '\0') {
		*names++ = '\0';
		names += strspn(names, WHITE);
		trim_end(names);
	}
	if (*addrs != '\0')
		fn(addrs, *names != '\0' ? names : addrs, arg);
	x_free(copy);
}
