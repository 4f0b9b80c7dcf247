/*
 * tun_client.c: -w, Tunnel and TunnelDevice (tun_client.h, tun.h).
 *
 * The words are ssh(1)'s: "Bad tun device" for a unit it cannot read,
 * "Tunnel device open failed." when the local device cannot be opened
 * (then "Could not request tunnel forwarding."), "Tunnel forwarding
 * failed" when the server refuses its end. With ExitOnForwardFailure
 * each ends the connection with status 255; without it the connection
 * goes on without a tunnel.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "channel.h"
#include "client.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"
#include "tun.h"
#include "tun_client.h"

struct tun_client {
	const struct client_opts *o;
	struct chan_set *cs;
	int fd;				/* the local device until confirmed */
	int failed;			/* ExitOnForwardFailure hit */
};

int
tun_client_option(struct client_opts *o, const char *arg)
{
	uint32_t local, remote;
	int r;

	/* -w turns tunnelling on unless Tunnel was given before it. */
	if (o->tunnel == -1)
		o->tunnel = TUN_MODE_POINTOPOINT;
	if ((r = tun_parse_device(arg, &local, &remote)) != 0) {
		fprintf(stderr, "Bad tun device '%s'\n", arg);
		return r;
	}
	o->tun_local = (int)local;
	o->tun_remote = (int)remote;
	return 0;
}

int
tun_config_device(struct client_opts *o, const char *arg, const char *src,
    int line)
{
	uint32_t local, remote;

	if (tun_parse_device(arg, &local, &remote) != 0) {
		log_error("%s line %d: Bad tun device.", src, line);
		return ERR_CONFIG;
	}
	if (o->tun_local == -1) {
		o->tun_local = (int)local;
		o->tun_remote = (int)remote;
	}
	return 0;
}

/* A unit as -G shows it; -1 is the unset default, any. */
static void
dump_unit(FILE *f, int unit)
{
	if (unit < 0 || (uint32_t)unit == TUN_UNIT_ANY)
		fputs("any", f);
	else
		fprintf(f, "%d", unit);
}

void
tun_dump_device(const struct client_opts *o, FILE *f)
{
	fputs("tunneldevice ", f);
	dump_unit(f, o->tun_local);
	fputc(':', f);
	dump_unit(f, o->tun_remote);
	fputc('\n', f);
}

struct tun_client *
tun_client_new(const struct client_opts *o)
{
	struct tun_client *tc = x_calloc(1, sizeof(*tc));

	tc->o = o;
	tc->fd = -1;
	return tc;
}

static void
tun_fail(struct tun_client *tc)
{
	if (tc->o->exit_on_forward_failure <= 0)
		return;
	tc->failed = 1;
	(void)tr_flush(chan_set_transport(tc->cs));
	conn_stop(tc->cs);
}

static const char *
open_reason_text(uint32_t reason)
{
	switch (reason) {
	case SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED:
		return "administratively prohibited";
	case SSH2_OPEN_CONNECT_FAILED:
		return "connect failed";
	case SSH2_OPEN_UNKNOWN_CHANNEL_TYPE:
		return "unknown channel type";
	case SSH2_OPEN_RESOURCE_SHORTAGE:
		return "resource shortage";
	default:
		return "unknown reason";
	}
}

static void
tun_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct tun_client *tc = c->ctx;
	uint32_t mode = (uint32_t)tc->o->tunnel;

	(void)cs;
	if (!ok) {
		log_info("channel %u: open failed: %s%s%s", c->local_id,
		    open_reason_text(c->open_reason),
		    c->open_desc != NULL ? ": " : "",
		    c->open_desc != NULL ? c->open_desc : "");
		log_error("Tunnel forwarding failed");
		tun_fail(tc);
		return;
	}
	log_debug("ssh_tun_confirm: tunnel forward established, id=%u",
	    c->local_id);
	tun_chan_attach(c, tc->fd, mode);
	tc->fd = -1;
}

static void
tun_chan_free(struct chan_set *cs, struct chan *c)
{
	struct tun_client *tc = c->ctx;

	(void)cs;
	if (tc != NULL && tc->fd != -1) {
		close(tc->fd);
		tc->fd = -1;
	}
}

static const struct chan_ops tun_ops = {
	.type = TUN_CHANNEL_TYPE,
	.opened = tun_opened,
	.free = tun_chan_free,
};

/* Open the local device and ask for the server's end. */
static int
request_tun(struct tun_client *tc)
{
	const struct client_opts *o = tc->o;
	uint32_t mode = (uint32_t)o->tunnel;
	uint32_t local = o->tun_local < 0 ? TUN_UNIT_ANY :
	    (uint32_t)o->tun_local;
	uint32_t remote = o->tun_remote < 0 ? TUN_UNIT_ANY :
	    (uint32_t)o->tun_remote;
	char ifname[32];
	struct sbuf *extra;
	struct chan *c;
	int r;

	log_debug("Requesting tun unit %d in mode %u", (int)local, mode);
	if (tun_dev_open(mode, local, &tc->fd, ifname, sizeof(ifname)) != 0) {
		log_error("Tunnel device open failed.");
		return ERR_SYSTEM;
	}
	log_debug("Tunnel forwarding using interface %s", ifname);
	extra = sbuf_new();
	r = tun_open_put(extra, mode, remote);
	if (r == 0)
		r = chan_open(tc->cs, &tun_ops, tc, extra, &c);
	sbuf_free(extra);
	if (r != 0) {
		close(tc->fd);
		tc->fd = -1;
	}
	return r;
}

int
tun_client_setup(struct chan_set *cs, struct tun_client *tc)
{
	tc->cs = cs;
	if (tc->o->tunnel <= TUN_MODE_NO)
		return 0;
	if (request_tun(tc) == 0)
		return 0;
	log_error("Could not request tunnel forwarding.");
	/* The connection ends here, with status 255 and nothing more said. */
	tun_fail(tc);
	return 0;
}

int
tun_client_status(const struct tun_client *tc, int status)
{
	return tc != NULL && tc->failed ? 255 : status;
}

void
tun_client_free(struct tun_client *tc)
{
	if (tc == NULL)
		return;
	if (tc->fd != -1)
		close(tc->fd);
	x_free(tc);
}
