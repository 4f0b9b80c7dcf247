/*
 * fwd_client_live.c: forwardings added and cancelled while the
 * connection runs: the ~C command line (-L, -R, -D, -KL, -KR, -KD) and
 * a mux client's -O forward / -O cancel (fwd_client_add_spec,
 * fwd_client_cancel_spec).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "client.h"
#include "err.h"
#include "fwd_client_int.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

/* ---- ~C: the escape command line ---- */

static const char *const cmd_help[] = {
	"Commands:",
	"      -L[bind_address:]port:host:hostport    Request local forward",
	"      -R[bind_address:]port:host:hostport    Request remote forward",
	"      -D[bind_address:]port                  Request dynamic forward",
	"      -KL[bind_address:]port                 Cancel local forward",
	"      -KR[bind_address:]port                 Cancel remote forward",
	"      -KD[bind_address:]port                 Cancel dynamic forward",
};

static int
same_host(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return 1;	/* not given: any */
	return strcmp(a, b) == 0;
}

/*
 * Cancel the forwarding k names: 0, ERR_NOT_FOUND when there is none,
 * or the error sending the cancel request to the server.
 */
static int
cmd_cancel(struct fwd_client *fc, int kind, const struct fwd_spec *k)
{
	struct cl_fwd *f = NULL;
	struct sbuf *b;
	const char *h;
	size_t i, j;
	int r = 0;

	for (i = 0; i < fc->n && f == NULL; i++) {
		struct cl_fwd *x = fc->f[i];

		if (x->kind != kind || x->canceled)
			continue;
		if (k->listen_path != NULL || x->spec.listen_path != NULL) {
			if (k->listen_path != NULL &&
			    x->spec.listen_path != NULL &&
			    strcmp(k->listen_path, x->spec.listen_path) == 0)
				f = x;
			continue;
		}
		if (!same_host(k->listen_host, x->spec.listen_host))
			continue;
		if (x->spec.listen_port == k->listen_port ||
		    (kind == 'R' && x->spec.listen_port == 0 &&
		    x->allocated == k->listen_port) ||
		    (kind != 'R' && x->spec.listen_port == 0 &&
		    x->l.port == k->listen_port))
			f = x;
	}
	if (f == NULL) {
		log_info("Unknown port forwarding.");
		return ERR_NOT_FOUND;
	}
	f->canceled = 1;
	if (kind == 'R' && f->spec.listen_path != NULL) {
		if ((b = chan_global_start(fc->cs,
		    "cancel-streamlocal-forward@openssh.com", 0, NULL,
		    NULL)) == NULL)
			r = ERR_INTERNAL;	/* as in fc_request_remote() */
		else if ((r = sbuf_put_cstring(b, f->spec.listen_path)) == 0)
			r = chan_msg_send(fc->cs);
	} else if (kind == 'R') {
		h = f->spec.listen_host;
		if (h == NULL)
			h = "localhost";
		else if (strcmp(h, "*") == 0)
			h = "";
		if ((b = chan_global_start(fc->cs, "cancel-tcpip-forward", 0,
		    NULL, NULL)) == NULL)
			r = ERR_INTERNAL;
		else if ((r = sbuf_put_cstring(b, h)) == 0 &&
		    (r = sbuf_put_u32(b, (uint32_t)(f->spec.listen_port != 0 ?
		    f->spec.listen_port : f->allocated))) == 0)
			r = chan_msg_send(fc->cs);
	} else {
		for (j = 0; j < f->l.nfds; j++)
			chan_set_unwatch(fc->cs, f->l.fds[j]);
		fwd_listener_close(&f->l);
	}
	if (r != 0) {
		log_info("Unknown port forwarding.");
		return r;
	}
	log_info("Canceled forwarding.");
	return 0;
}

static void
cmd_add(struct fwd_client *fc, int kind, const char *spec)
{
	struct cl_fwd *f;
	int r;

	f = x_calloc(1, sizeof(*f));
	f->fc = fc;
	f->kind = kind;
	if (fc_parse_written(spec, kind == 'L' ? 0 : kind == 'R' ? 2 : 1,
	    &f->spec) != 0) {
		log_info("Bad %s forwarding specification.", kind == 'L' ?
		    "local" : kind == 'R' ? "remote" : "dynamic");
		x_free(f);
		return;
	}
	if (fc->n == FC_MAX) {
		fwd_spec_clear(&f->spec);
		x_free(f);
		log_info("Port forwarding failed.");
		return;
	}
	r = kind == 'R' ? fc_request_remote(fc, f) : fc_setup_listener(fc, f);
	if (r != 0) {
		fwd_spec_clear(&f->spec);
		x_free(f);
		log_info("Port forwarding failed.");
		return;
	}
	fc->f[fc->n++] = f;
	log_info("Forwarding port.");
}

static int
same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static struct cl_fwd *
find_same(struct fwd_client *fc, int kind, const struct fwd_spec *k)
{
	size_t i;

	for (i = 0; i < fc->n; i++) {
		const struct cl_fwd *x = fc->f[i];

		if (x->kind == kind && !x->canceled &&
		    same_str(x->spec.listen_host, k->listen_host) &&
		    x->spec.listen_port == k->listen_port &&
		    same_str(x->spec.listen_path, k->listen_path) &&
		    same_str(x->spec.connect_host, k->connect_host) &&
		    x->spec.connect_port == k->connect_port &&
		    same_str(x->spec.connect_path, k->connect_path))
			return fc->f[i];
	}
	return NULL;
}

int
fwd_client_add_spec(struct fwd_client *fc, int kind, struct fwd_spec *spec,
    fwd_client_done_fn done, void *arg)
{
	struct cl_fwd *f;
	int r;

	if (fc == NULL || fc->cs == NULL) {
		fwd_spec_clear(spec);
		return ERR_INVALID_ARGUMENT;	/* no connection yet */
	}
	if (fc->n == FC_MAX) {
		fwd_spec_clear(spec);
		return ERR_NO_BUFFER_SPACE;
	}
	if ((f = find_same(fc, kind, spec)) != NULL) {
		/* Already there, as the master's own or an earlier client's. */
		fwd_spec_clear(spec);
		if (done != NULL)
			done(arg, 1, kind == 'R' ? f->allocated : 0);
		return 0;
	}
	f = x_calloc(1, sizeof(*f));
	f->fc = fc;
	f->kind = kind;
	f->spec = *spec;
	memset(spec, 0, sizeof(*spec));
	f->done = kind == 'R' ? done : NULL;
	f->done_arg = arg;
	r = kind == 'R' ? fc_request_remote(fc, f) : fc_setup_listener(fc, f);
	if (r != 0) {
		fwd_spec_clear(&f->spec);
		x_free(f);
		return r;
	}
	fc->f[fc->n++] = f;
	if (kind != 'R' && done != NULL)
		done(arg, 1, 0);
	return 0;
}

void
fwd_client_forget(struct fwd_client *fc, void *arg)
{
	size_t i;

	for (i = 0; fc != NULL && i < fc->n; i++)
		if (fc->f[i]->done_arg == arg)
			fc->f[i]->done = NULL;
}

int
fwd_client_cancel_spec(struct fwd_client *fc, int kind,
    const struct fwd_spec *k)
{
	if (fc == NULL || fc->cs == NULL)
		return ERR_NOT_FOUND;	/* no connection: nothing forwarded */
	return cmd_cancel(fc, kind, k);
}

void
fwd_client_command(struct fwd_client *fc, const char *line)
{
	struct fwd_spec k;
	const char *s = line;
	int cancel = 0, kind;
	size_t i;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-')
		s++;
	if (*s == '\0')
		return;
	if (*s == 'h' || *s == 'H' || *s == '?') {
		for (i = 0; i < sizeof(cmd_help) / sizeof(cmd_help[0]); i++)
			log_info("%s", cmd_help[i]);
		return;
	}
	if (*s == 'K') {
		cancel = 1;
		s++;
	}
	if (*s != 'L' && *s != 'R' && *s != 'D') {
		log_info("Invalid command.");
		return;
	}
	kind = *s++;
	while (isspace((unsigned char)*s))
		s++;
	if (fc == NULL || fc->cs == NULL) {
		log_info("Port forwarding failed.");
		return;
	}
	if (!cancel) {
		cmd_add(fc, kind, s);
		return;
	}
	if (fc_parse_written(s, 1, &k) != 0) {
		log_info("Bad forwarding close specification.");
		return;
	}
	(void)cmd_cancel(fc, kind, &k);
	fwd_spec_clear(&k);
}
