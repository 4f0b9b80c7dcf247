/*
 * tun.h: tunnel device forwarding (the tun@openssh.com channel of
 * OpenSSH's PROTOCOL file), the parts both roles share.
 *
 * The channel open carries, after the usual fields, uint32 tunnel mode
 * (1 point-to-point, layer 3; 2 ethernet, layer 2) and uint32 the unit
 * number wanted at the receiving end (0x7fffffff: any). Once open, the
 * channel is a datagram channel: every CHANNEL_DATA holds exactly one
 * packet, and in point-to-point mode that packet starts with a uint32
 * address family in OpenBSD's numbering (2 IPv4, 24 IPv6) before the IP
 * header. Ethernet frames go as they are.
 *
 * tundev.c opens a Linux tun/tap device (/dev/net/tun, TUNSETIFF, no
 * packet information header) and parses the open's extra fields;
 * tunchan.c is the datagram I/O the channel layer hands a channel's fd
 * to once tun_chan_attach() has marked it.
 */
#ifndef MOAT_TUN_H
#define MOAT_TUN_H

#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

struct chan;
struct chan_set;

#define TUN_CHANNEL_TYPE	"tun@openssh.com"

/* Modes, as on the wire and as the Tunnel / PermitTunnel bits. */
#define TUN_MODE_NO		0
#define TUN_MODE_POINTOPOINT	1
#define TUN_MODE_ETHERNET	2

/* Unit numbers: any free unit, and the largest one that may be named. */
#define TUN_UNIT_ANY		0x7fffffffu
#define TUN_UNIT_ERR		0x7ffffffeu
#define TUN_UNIT_MAX		0x7ffffffdu

/* Address families of the point-to-point header (OpenBSD's values). */
#define TUN_AF_INET		2
#define TUN_AF_INET6		24

/* The largest packet read from or written to a device. */
#define TUN_PACKET_MAX		65536u

/* Channel datagram modes (struct chan's datagram field). */
#define CHAN_DGRAM_NONE		0	/* a byte stream */
#define CHAN_DGRAM_RAW		1	/* one packet per message */
#define CHAN_DGRAM_AF		2	/* ... after a 4-byte family */

/*
 * A unit as ssh(1) writes it: a decimal number up to TUN_UNIT_MAX or
 * "any" (in any case). 0 with *unitp, or ERR_INVALID_FORMAT.
 */
int tun_parse_unit(const char *s, uint32_t *unitp);
/*
 * "local[:remote]" (TunnelDevice, -w); a missing remote is "any".
 * 0, or ERR_INVALID_FORMAT.
 */
int tun_parse_device(const char *s, uint32_t *localp, uint32_t *remotep);

/*
 * Open a tun (point-to-point) or tap (ethernet) device, unit or any
 * free one. 0 with *fdp (non-blocking, close-on-exec) and the
 * interface's name in ifname (ifnamelen >= 16), or an error (logged at
 * debug level as OpenSSH does).
 */
int tun_dev_open(uint32_t mode, uint32_t unit, int *fdp, char *ifname,
    size_t ifnamelen);

/*
 * The fields of a tun@openssh.com open after the common ones: 0 with
 * *modep and *unitp, or an error when they are short. Values are not
 * checked here.
 */
int tun_open_parse(struct sbuf *extra, uint32_t *modep, uint32_t *unitp);
/* Append them to the CHANNEL_OPEN we send. */
int tun_open_put(struct sbuf *extra, uint32_t mode, uint32_t unit);

/*
 * Attach the device fd to c as its read and write side, one packet per
 * message, with the family header in point-to-point mode. The channel
 * owns fd from then on.
 */
void tun_chan_attach(struct chan *c, int fd, uint32_t mode);

/* tunchan.c, for chanio.c only: a datagram channel's fd I/O. */
int tun_chan_read(struct chan_set *cs, struct chan *c);
int tun_chan_write(struct chan_set *cs, struct chan *c);
int tun_chan_put(struct chan *c, const unsigned char *data, size_t len);

#endif
