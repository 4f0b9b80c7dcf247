/*
 * tun_server.c: tun@openssh.com channels opened by the client
 * (tun_server.h, tun.h).
 *
 * The checks and the words follow OpenSSH's sshd: a mode other than
 * point-to-point or ethernet, or one PermitTunnel does not allow, is
 * refused with a debug message to the client ("Unsupported tunnel
 * device mode.", "Server has rejected tunnel device forwarding"), and
 * so is every mode under DisableForwarding or a key's "restrict" (which
 * OpenSSH's sshd means to refuse too, but forgets on the way); a
 * key's tunnel="n" forces unit n, and a request naming another unit is
 * refused; a device that cannot be opened draws "Failed to open the
 * tunnel device.". Each refusal is an OPEN_FAILURE "connect failed",
 * "open failed", as sshd's.
 */
#include <stdio.h>
#include <string.h>

#include "authopts.h"
#include "channel.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "transport.h"
#include "tun.h"
#include "tun_server.h"

struct tun_server {
	const struct servconf *sc;
	const struct authopts *opts;
	char *ifnames;			/* "tun0,tun1"; NULL: none yet */
};

/* SSH_MSG_DEBUG, not shown unless the client logs at debug level. */
static void
send_debug(struct chan_set *cs, const char *text)
{
	struct sbuf *b = tr_msg_start(chan_set_transport(cs), SSH2_MSG_DEBUG);

	if (b == NULL || sbuf_put_u8(b, 0) != 0 ||
	    sbuf_put_cstring(b, text) != 0 || sbuf_put_cstring(b, "") != 0 ||
	    tr_msg_send(chan_set_transport(cs)) != 0)
		log_debug("tunnel: cannot send debug message");
}

static void
add_ifname(struct tun_server *ts, const char *name)
{
	size_t len = ts->ifnames == NULL ? 0 : strlen(ts->ifnames);
	size_t n = len + 1 + strlen(name) + 1;
	char *s = x_malloc(n);

	snprintf(s, n, "%s%s%s", len ? ts->ifnames : "", len ? "," : "",
	    name);
	x_free(ts->ifnames);
	ts->ifnames = s;
}

/* Which unit to open, or TUN_UNIT_ERR when the key forbids unit. */
static uint32_t
forced_unit(const struct tun_server *ts, uint32_t unit)
{
	int forced = ts->opts != NULL ? ts->opts->force_tun_device : -1;

	if (forced < 0)
		return unit;
	if (unit != TUN_UNIT_ANY && unit != (uint32_t)forced) {
		log_debug("tunnel: unit %u requested, key forces %d", unit,
		    forced);
		return TUN_UNIT_ERR;
	}
	return (uint32_t)forced;
}

static int
tun_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	struct tun_server *ts = c->type_arg;
	uint32_t mode, unit;
	char ifname[32];
	int fd, r;

	/* sshd's answer to every channel type but direct-tcpip. */
	*reasonp = SSH2_OPEN_CONNECT_FAILED;
	*descp = "open failed";
	if ((r = tun_open_parse(extra, &mode, &unit)) != 0)
		return r;
	if (mode != TUN_MODE_POINTOPOINT && mode != TUN_MODE_ETHERNET) {
		send_debug(cs, "Unsupported tunnel device mode.");
		r = ERR_INVALID_FORMAT;
	} else if ((ts->sc->permit_tunnel & (int)mode) == 0 ||
	    ts->sc->disable_forwarding ||
	    (ts->opts != NULL && ts->opts->restricted)) {
		send_debug(cs, "Server has rejected tunnel device forwarding");
		r = ERR_PERMISSION_DENIED;
	} else if ((unit = forced_unit(ts, unit)) == TUN_UNIT_ERR ||
	    tun_dev_open(mode, unit, &fd, ifname, sizeof(ifname)) != 0) {
		send_debug(cs, "Failed to open the tunnel device.");
		r = ERR_PERMISSION_DENIED;
	}
	if (r != 0) {
		chan_log_refusal(cs, LOG_LEVEL_DEBUG1,
		    "server_input_channel_open: failure %s", TUN_CHANNEL_TYPE);
		return r;
	}
	log_debug("Tunnel forwarding using interface %s", ifname);
	add_ifname(ts, ifname);
	tun_chan_attach(c, fd, mode);
	return 0;
}

static const struct chan_ops tun_ops = {
	.type = TUN_CHANNEL_TYPE,
	.open = tun_open,
};

int
tun_server_setup(struct chan_set *cs, const struct servconf *sc,
    const struct authopts *opts, struct tun_server **tsp)
{
	struct tun_server *ts = x_calloc(1, sizeof(*ts));
	int r;

	ts->sc = sc;
	ts->opts = opts;
	if ((r = chan_set_register(cs, &tun_ops, ts)) != 0) {
		x_free(ts);
		*tsp = NULL;
		return r;
	}
	*tsp = ts;
	return 0;
}

void
tun_server_free(struct tun_server *ts)
{
	if (ts == NULL)
		return;
	x_free(ts->ifnames);
	x_free(ts);
}

const char *
tun_server_ifnames(const struct tun_server *ts)
{
	return ts != NULL ? ts->ifnames : NULL;
}
