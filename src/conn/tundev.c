/*
 * tundev.c: opening a Linux tun/tap device for tunnel forwarding, and
 * the small parsers of unit numbers and of the channel open's fields
 * (tun.h).
 *
 * A device is made (or, when it exists and is persistent, attached to)
 * by TUNSETIFF on a descriptor of /dev/net/tun: IFF_TUN for layer 3,
 * IFF_TAP for layer 2, and IFF_NO_PI always, so a read is the bare
 * packet; the point-to-point family header of the wire is made and
 * removed by tunchan.c. Naming a unit asks for "tunN"/"tapN"; "any"
 * leaves the name to the kernel, which picks the first free one.
 * Making a device needs CAP_NET_ADMIN; attaching to a persistent one
 * needs to be its owner.
 */
#include <sys/ioctl.h>

#include <linux/if.h>
#include <linux/if_tun.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "sbuf.h"
#include "tun.h"

#define TUN_CONTROL_DEVICE	"/dev/net/tun"

int
tun_parse_unit(const char *s, uint32_t *unitp)
{
	unsigned long long v = 0;
	const char *p;

	if (strcasecmp(s, "any") == 0) {
		*unitp = TUN_UNIT_ANY;
		return 0;
	}
	if (*s == '\0')
		return ERR_INVALID_FORMAT;
	for (p = s; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return ERR_INVALID_FORMAT;
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v > TUN_UNIT_MAX)
			return ERR_INVALID_FORMAT;
	}
	*unitp = (uint32_t)v;
	return 0;
}

int
tun_parse_device(const char *s, uint32_t *localp, uint32_t *remotep)
{
	const char *colon = strchr(s, ':');
	char local[16];
	size_t n;

	if (colon == NULL) {
		*remotep = TUN_UNIT_ANY;
		return tun_parse_unit(s, localp);
	}
	n = (size_t)(colon - s);
	if (n >= sizeof(local))
		return ERR_INVALID_FORMAT;
	memcpy(local, s, n);
	local[n] = '\0';
	if (tun_parse_unit(local, localp) != 0 ||
	    tun_parse_unit(colon + 1, remotep) != 0)
		return ERR_INVALID_FORMAT;
	return 0;
}

int
tun_dev_open(uint32_t mode, uint32_t unit, int *fdp, char *ifname,
    size_t ifnamelen)
{
	struct ifreq ifr;
	int fd;

	*fdp = -1;
	if (ifnamelen > 0)
		ifname[0] = '\0';
	if ((mode != TUN_MODE_POINTOPOINT && mode != TUN_MODE_ETHERNET) ||
	    (unit != TUN_UNIT_ANY && unit > TUN_UNIT_MAX)) {
		log_debug("sys_tun_open: invalid tunnel id %x or mode %u",
		    unit, mode);
		return ERR_INVALID_ARGUMENT;
	}
	if ((fd = open(TUN_CONTROL_DEVICE, O_RDWR | O_CLOEXEC |
	    O_NONBLOCK)) == -1) {
		log_debug("sys_tun_open: failed to open tunnel control "
		    "device \"%s\": %s", TUN_CONTROL_DEVICE, strerror(errno));
		return ERR_SYSTEM;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = (short)((mode == TUN_MODE_ETHERNET ? IFF_TAP :
	    IFF_TUN) | IFF_NO_PI);
	if (unit != TUN_UNIT_ANY)
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s%u",
		    mode == TUN_MODE_ETHERNET ? "tap" : "tun", unit);
	if (ioctl(fd, TUNSETIFF, &ifr) == -1) {
		log_debug("sys_tun_open: failed to configure tunnel "
		    "(mode %u): %s", mode, strerror(errno));
		close(fd);
		return ERR_SYSTEM;
	}
	ifr.ifr_name[sizeof(ifr.ifr_name) - 1] = '\0';
	if (unit == TUN_UNIT_ANY)
		log_debug("sys_tun_open: tunnel mode %u fd %d", mode, fd);
	else
		log_debug("sys_tun_open: %s mode %u fd %d", ifr.ifr_name,
		    mode, fd);
	if (ifnamelen > 0)
		snprintf(ifname, ifnamelen, "%s", ifr.ifr_name);
	*fdp = fd;
	return 0;
}

int
tun_open_parse(struct sbuf *extra, uint32_t *modep, uint32_t *unitp)
{
	int r;

	if ((r = sbuf_get_u32(extra, modep)) != 0 ||
	    (r = sbuf_get_u32(extra, unitp)) != 0)
		return r;
	return 0;
}

int
tun_open_put(struct sbuf *extra, uint32_t mode, uint32_t unit)
{
	int r;

	if ((r = sbuf_put_u32(extra, mode)) != 0 ||
	    (r = sbuf_put_u32(extra, unit)) != 0)
		return r;
	return 0;
}
