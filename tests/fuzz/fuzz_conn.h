/*
 * fuzz_conn.h: the harness fuzz_session and fuzz_fwd share: the server
 * after authentication, session_serve() as sshd calls it, fed a client's
 * messages through the stand-in transport (fuzz_fake_tr.h), with no child
 * process and no network (fuzz_sys.h).
 *
 * Input: one byte that picks a configuration (sshd_config lines and the
 * authorized_keys options of the key that logged in, from the including
 * target's table fz_variants), then the client's messages as records
 * (see fuzz_fake_tr.h). session_serve() runs its connection loop until
 * they run out; everything it opened must be closed by then.
 *
 * With FUZZ_LOG set in the environment the server's log goes to stderr
 * (to see what an input does); otherwise to /dev/null, still formatted.
 *
 * The user is the one the fuzzer runs as, with a scratch directory for
 * home (holding .ssh/environment for PermitUserEnvironment); the client
 * is 127.0.0.1 port 40000. The server's host keys are fuzz_keys.h's
 * host, user2 and hostrsa (ed25519, ECDSA, RSA), so a seed can ask it
 * to prove them (hostkeys-prove-00@openssh.com).
 *
 * What the server sends is checked against the channel rules of RFC 4254
 * (fz_conn_out below): for each channel of the client, no DATA beyond the
 * window the client gave (its open or confirmation, then its
 * WINDOW_ADJUSTs) nor beyond its maximum packet, nothing after our EOF
 * but requests and CLOSE, and nothing at all after our CLOSE, until the
 * client opens a channel under that number again. A channel number the
 * client uses twice at once is left unchecked.
 */
#ifndef MOAT_FUZZ_CONN_H
#define MOAT_FUZZ_CONN_H

#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "authopts.h"
#include "channel.h"
#include "fuzz_fake_tr.h"
#include "fuzz_keys.h"
#include "fuzz_sys.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "session.h"

struct fz_variant {
	const char *conf[16];		/* sshd_config lines; NULL ends */
	const char *opts;		/* authorized_keys options; NULL */
};

/* The including target's table. */
static const struct fz_variant fz_variants[];
static const size_t fz_nvariants;

static struct servconf **fz_sc;
static struct authopts **fz_opts;
static struct passwd fz_pw;

/* ---- the channel checks ---- */

#define FZ_NCH	512			/* channel numbers checked */

static struct fz_ch {
	unsigned int open:1;		/* confirmed, either way */
	unsigned int dup:1;		/* the client reused the number */
	unsigned int eof:1;		/* we sent EOF */
	unsigned int close:1;		/* we sent CLOSE */
	unsigned int want:1;		/* an open not yet settled */
	unsigned int has_local:1;	/* local is known */
	uint32_t window, maxpacket;	/* what the client gave */
	uint32_t local;			/* our number for it */
} fz_ch[FZ_NCH];
/* Our channel number -> the client's, for its adjusts; -1: none. */
static int32_t fz_local2remote[FZ_NCH];

static void
fz_conn_reset(void)
{
	size_t i;

	memset(fz_ch, 0, sizeof(fz_ch));
	for (i = 0; i < FZ_NCH; i++)
		fz_local2remote[i] = -1;
}

static void
fz_violation(const char *what, uint32_t id)
{
	fprintf(stderr, "fuzz: server broke the channel rules: %s "
	    "(client channel %u)\n", what, id);
	abort();
}

/* The client's messages, as the server gets them. */
static void
fz_conn_in(uint8_t type, const struct sbuf *msg)
{
	struct sbuf *b = sbuf_from(sbuf_ptr(msg), sbuf_len(msg));
	uint32_t a, id, win, maxp, local;
	struct fz_ch *c;

	if (b == NULL)
		abort();
	switch (type) {
	case SSH2_MSG_CHANNEL_OPEN:
		if (sbuf_get_string_direct(b, NULL, NULL) != 0 ||
		    sbuf_get_u32(b, &id) != 0 || sbuf_get_u32(b, &win) != 0 ||
		    sbuf_get_u32(b, &maxp) != 0 || id >= FZ_NCH)
			break;
		c = &fz_ch[id];
		if ((c->open && !c->close) || c->want)
			c->dup = 1;
		c->want = 1;
		c->has_local = 0;
		c->window = win;
		c->maxpacket = maxp;
		break;
	case SSH2_MSG_CHANNEL_OPEN_CONFIRMATION:
		/* To one of our opens: recipient ours, sender theirs. */
		if (sbuf_get_u32(b, &local) != 0 || sbuf_get_u32(b, &id) != 0 ||
		    sbuf_get_u32(b, &win) != 0 || sbuf_get_u32(b, &maxp) != 0 ||
		    id >= FZ_NCH || local >= FZ_NCH)
			break;
		c = &fz_ch[id];
		if ((c->open && !c->close) || c->want)
			c->dup = 1;
		/* Counted only if the server takes it (see fz_conn_out). */
		c->want = 1;
		c->window = win;
		c->maxpacket = maxp;
		c->local = local;
		c->has_local = 1;
		/* Its adjusts may come before we send it anything. */
		fz_local2remote[local] = (int32_t)id;
		break;
	case SSH2_MSG_CHANNEL_WINDOW_ADJUST:
		if (sbuf_get_u32(b, &local) != 0 || sbuf_get_u32(b, &a) != 0 ||
		    local >= FZ_NCH || fz_local2remote[local] < 0)
			break;
		c = &fz_ch[fz_local2remote[local]];
		c->window = a > UINT32_MAX - c->window ? UINT32_MAX :
		    c->window + a;
		break;
	}
	sbuf_free(b);
}

static void
fz_ch_opened(struct fz_ch *c, uint32_t id)
{
	c->want = 0;
	c->open = 1;
	c->eof = c->close = 0;
	if (c->has_local && c->local < FZ_NCH)
		fz_local2remote[c->local] = (int32_t)id;
}

/* Everything the server sends. */
static void
fz_conn_out(struct transport *t, const struct sbuf *m)
{
	struct sbuf *b = sbuf_from(sbuf_ptr(m), sbuf_len(m));
	const unsigned char *d;
	uint32_t id, local, code;
	size_t len;
	uint8_t type;
	struct fz_ch *c;

	if (b == NULL || sbuf_get_u8(b, &type) != 0)
		abort();
	if (type == SSH2_MSG_CHANNEL_OPEN) {
		/* Ours: the client's confirmation names the window. */
		sbuf_free(b);
		return;
	}
	if (type < SSH2_MSG_CHANNEL_OPEN_CONFIRMATION ||
	    type > SSH2_MSG_CHANNEL_FAILURE ||
	    sbuf_get_u32(b, &id) != 0 || id >= FZ_NCH) {
		sbuf_free(b);
		return;
	}
	c = &fz_ch[id];
	if (c->dup) {
		sbuf_free(b);
		return;
	}
	switch (type) {
	case SSH2_MSG_CHANNEL_OPEN_CONFIRMATION:
		if (!c->want || sbuf_get_u32(b, &local) != 0)
			break;		/* an answer to an open we missed */
		c->local = local;
		c->has_local = 1;
		fz_ch_opened(c, id);
		break;
	case SSH2_MSG_CHANNEL_OPEN_FAILURE:
		c->want = 0;
		break;
	default:
		if (!c->open || (c->close && c->want)) {
			/*
			 * An open of ours the client confirmed (or one of
			 * its opens still pending): the window it gave
			 * counts from the first message to it.
			 */
			if (!c->want)
				break;
			fz_ch_opened(c, id);
		}
		if (c->close)
			fz_violation("a message after CLOSE", id);
		if (type == SSH2_MSG_CHANNEL_CLOSE) {
			c->close = 1;
			break;
		}
		if (type == SSH2_MSG_CHANNEL_EOF) {
			if (c->eof)
				fz_violation("EOF twice", id);
			c->eof = 1;
			break;
		}
		if (type != SSH2_MSG_CHANNEL_DATA &&
		    type != SSH2_MSG_CHANNEL_EXTENDED_DATA)
			break;
		if (c->eof)
			fz_violation("data after EOF", id);
		if (type == SSH2_MSG_CHANNEL_EXTENDED_DATA &&
		    sbuf_get_u32(b, &code) != 0)
			abort();
		if (sbuf_get_string_direct(b, &d, &len) != 0)
			abort();
		if (len > c->maxpacket)
			fz_violation("a packet over the maximum", id);
		if (len > c->window)
			fz_violation("data beyond the window", id);
		c->window -= (uint32_t)len;
		break;
	}
	sbuf_free(b);
}

/* ---- set-up and one input ---- */

static void
fz_conn_init(void)
{
	struct passwd *me = getpwuid(geteuid());
	const char *err = NULL;
	char path[400];
	struct transport *t;
	size_t i, j;
	FILE *f;

	/* Formatted at every level, shown with FUZZ_LOG set. */
	log_init("fuzz", LOG_LEVEL_DEBUG3, 0, 0);
	if (log_to_file(getenv("FUZZ_LOG") ? "/dev/stderr" : "/dev/null") != 0)
		log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	if (me == NULL)
		abort();
	fz_sys_make_scratch();
	snprintf(path, sizeof(path), "%s/.ssh", fz_sys_scratch);
	(void)mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.ssh/environment", fz_sys_scratch);
	if ((f = fopen(path, "w")) != NULL) {
		fputs("# user environment\nFUZZ_HOME_VAR=1\nPATH=/x\n"
		    "=bad\nLONG=", f);
		for (i = 0; i < 100; i++)
			fputs("0123456789", f);
		fputs("\n", f);
		fclose(f);
	}
	fz_pw = *me;
	fz_pw.pw_name = x_strdup(me->pw_name);
	fz_pw.pw_passwd = (char *)"x";
	fz_pw.pw_gecos = (char *)"fuzz";
	fz_pw.pw_dir = fz_sys_scratch;
	fz_pw.pw_shell = (char *)"/bin/sh";

	fz_sc = x_calloc(fz_nvariants, sizeof(*fz_sc));
	fz_opts = x_calloc(fz_nvariants, sizeof(*fz_opts));
	for (i = 0; i < fz_nvariants; i++) {
		fz_sc[i] = servconf_new();
		for (j = 0; fz_variants[i].conf[j] != NULL; j++)
			if (servconf_parse_line(fz_sc[i],
			    fz_variants[i].conf[j], "fuzz", (int)j + 1) != 0) {
				fprintf(stderr, "fuzz: bad line %s\n",
				    fz_variants[i].conf[j]);
				abort();
			}
		if (servconf_finish(fz_sc[i]) != 0)
			abort();
		if (fz_variants[i].opts == NULL)
			continue;
		/* As at the front of an authorized_keys line. */
		snprintf(path, sizeof(path), "%s ssh-ed25519",
		    fz_variants[i].opts);
		if (authopts_parse(path, &fz_opts[i], NULL, &err) != 0) {
			fprintf(stderr, "fuzz: bad options %s: %s\n",
			    fz_variants[i].opts, err);
			abort();
		}
	}
	/* The stand-in transport's eventfd, made before any input. */
	t = fz_tr_new(NULL, 0);
	tr_free(t);
	fz_tr_add_hostkey(fz_key_host);
	fz_tr_add_hostkey(fz_key_user2);
	fz_tr_add_hostkey(fz_key_hostrsa);
	fz_out = fz_conn_out;
	fz_in = fz_conn_in;
}

static void
fz_conn_run(const uint8_t *data, size_t size)
{
	struct transport *t;
	size_t v;

	if (size == 0)
		return;
	v = data[0] % fz_nvariants;
	fz_conn_reset();
	fz_sys_begin_input();
	t = fz_tr_new(data + 1, size - 1);
	(void)session_serve(t, fz_sc[v], &fz_pw, fz_opts[v], "127.0.0.1",
	    40000);
	tr_free(t);
	fz_sys_end_input();
}

#endif
