/*
 * ssh-sk-helper: the one process that loads a FIDO security key
 * middleware library (SecurityKeyProvider, sk_api.h), or runs the
 * built-in one on libfido2 (provider "internal", fido.h), so that the
 * library's code and whatever it does to memory stay out of ssh,
 * ssh-agent and ssh-keygen. They start it with a socketpair on stdin
 * and stdout and send it requests (sk_proto.h); it answers each and
 * exits at the end of its input.
 *
 * The library may write to stdout (debug output): our replies go to a
 * copy of the original stdout, and stdout itself is pointed at stderr
 * before the library is loaded.
 *
 * usage: ssh-sk-helper [-v]...
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "err.h"
#include "fdio.h"
#include "fido.h"
#include "fido_conv.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "sk_api.h"
#include "sk_proto.h"
#include "spawn.h"

/* A loaded middleware. */
struct provider {
	void *dl;
	sk_enroll_fn *enroll;
	sk_sign_fn *sign;
	sk_load_resident_keys_fn *load_resident;
};

static void
provider_close(struct provider *p)
{
	if (p->dl != NULL)
		dlclose(p->dl);
	memset(p, 0, sizeof(*p));
}

static int
provider_open(const char *path, struct provider *p)
{
	sk_api_version_fn *version;
	uint32_t v;

	memset(p, 0, sizeof(*p));
	if (strcasecmp(path, "internal") == 0) {
#ifdef MOAT_HAVE_FIDO2
		p->enroll = skf_enroll;
		p->sign = skf_sign;
		p->load_resident = skf_load_resident;
		return 0;
#else
		log_error("internal security key support not enabled");
		return SSH_SK_ERR_UNSUPPORTED;
#endif
	}
	if ((p->dl = dlopen(path, RTLD_NOW)) == NULL) {
		log_error("Provider \"%s\" dlopen failed: %s", path,
		    dlerror());
		return SSH_SK_ERR_GENERAL;
	}
	version = (sk_api_version_fn *)dlsym(p->dl, "sk_api_version");
	p->enroll = (sk_enroll_fn *)dlsym(p->dl, "sk_enroll");
	p->sign = (sk_sign_fn *)dlsym(p->dl, "sk_sign");
	p->load_resident = (sk_load_resident_keys_fn *)dlsym(p->dl,
	    "sk_load_resident_keys");
	if (version == NULL || p->enroll == NULL || p->sign == NULL ||
	    p->load_resident == NULL) {
		log_error("Provider \"%s\" lacks a security key function",
		    path);
		provider_close(p);
		return SSH_SK_ERR_GENERAL;
	}
	v = version();
	if ((v & SSH_SK_VERSION_MAJOR_MASK) !=
	    (SSH_SK_VERSION_MAJOR & SSH_SK_VERSION_MAJOR_MASK)) {
		log_error("Provider \"%s\" implements unsupported version "
		    "0x%08lx (supported: 0x%08lx)", path, (unsigned long)v,
		    (unsigned long)SSH_SK_VERSION_MAJOR);
		provider_close(p);
		return SSH_SK_ERR_GENERAL;
	}
	return 0;
}

/* The NULL-terminated option list: device, and user for enrollment. */
static void
make_options(const struct skh_request *q, struct sk_option opt[2],
    struct sk_option *list[3])
{
	size_t n = 0;

	memset(opt, 0, 2 * sizeof(*opt));
	if (*q->device != '\0') {
		opt[n].name = (char *)"device";
		opt[n].value = q->device;
		list[n] = &opt[n];
		n++;
	}
	if (q->type == SKH_ENROLL && *q->user != '\0') {
		opt[n].name = (char *)"user";
		opt[n].value = q->user;
		list[n] = &opt[n];
		n++;
	}
	list[n] = NULL;
}

static int
put_bytes(struct sbuf *b, const uint8_t *p, size_t len)
{
	return sbuf_put_string(b, p != NULL ? p : (const uint8_t *)"",
	    p != NULL ? len : 0);
}

static int
put_enrolled(struct sbuf *b, const struct sk_enroll_response *e)
{
	int r;

	if ((r = sbuf_put_u8(b, e->flags)) != 0 ||
	    (r = put_bytes(b, e->public_key, e->public_key_len)) != 0 ||
	    (r = put_bytes(b, e->key_handle, e->key_handle_len)) != 0)
		return r;
	return 0;
}

static int
do_enroll(const struct provider *p, const struct skh_request *q,
    struct sk_option **opts, struct sbuf *out)
{
	struct sk_enroll_response *e = NULL;
	int r;

	if ((r = p->enroll(q->alg, q->data, q->datalen, q->application,
	    q->flags, *q->pin != '\0' ? q->pin : NULL, opts, &e)) != 0)
		return r < 0 ? r : SSH_SK_ERR_GENERAL;
	if (e == NULL)
		return SSH_SK_ERR_GENERAL;
	if (sbuf_put_u8(out, SKH_OK) != 0 || put_enrolled(out, e) != 0 ||
	    put_bytes(out, e->signature, e->signature_len) != 0 ||
	    put_bytes(out, e->attestation_cert,
	    e->attestation_cert_len) != 0 ||
	    put_bytes(out, e->authdata, e->authdata_len) != 0)
		r = SSH_SK_ERR_GENERAL;
	skf_enroll_free(e);
	return r;
}

static int
do_sign(const struct provider *p, const struct skh_request *q,
    struct sk_option **opts, struct sbuf *out)
{
	struct sk_sign_response *s = NULL;
	int r;

	if ((r = p->sign(q->alg, q->data, q->datalen, q->application,
	    q->key_handle, q->khlen, q->flags,
	    *q->pin != '\0' ? q->pin : NULL, opts, &s)) != 0)
		return r < 0 ? r : SSH_SK_ERR_GENERAL;
	if (s == NULL)
		return SSH_SK_ERR_GENERAL;
	if (sbuf_put_u8(out, SKH_OK) != 0 ||
	    sbuf_put_u8(out, s->flags) != 0 ||
	    sbuf_put_u32(out, s->counter) != 0 ||
	    put_bytes(out, s->sig_r, s->sig_r_len) != 0 ||
	    put_bytes(out, s->sig_s, s->sig_s_len) != 0)
		r = SSH_SK_ERR_GENERAL;
	free(s->sig_r);
	free(s->sig_s);
	free(s);
	return r;
}

static int
do_load_resident(const struct provider *p, const struct skh_request *q,
    struct sk_option **opts, struct sbuf *out)
{
	struct sk_resident_key **rks = NULL;
	size_t n = 0, i;
	int r;

	if ((r = p->load_resident(*q->pin != '\0' ? q->pin : NULL, opts,
	    &rks, &n)) != 0) {
		log_error("Provider \"%s\" returned failure %d", q->provider,
		    r);
		return r < 0 ? r : SSH_SK_ERR_GENERAL;
	}
	if (rks == NULL && n != 0)
		return SSH_SK_ERR_GENERAL;
	if (sbuf_put_u8(out, SKH_OK) != 0 ||
	    sbuf_put_u32(out, (uint32_t)n) != 0)
		r = SSH_SK_ERR_GENERAL;
	for (i = 0; i < n; i++) {
		if (rks[i] == NULL) {
			r = SSH_SK_ERR_GENERAL;
			continue;
		}
		if (r == 0 && (sbuf_put_u32(out, rks[i]->alg) != 0 ||
		    sbuf_put_cstring(out, rks[i]->application != NULL ?
		    rks[i]->application : "") != 0 ||
		    put_enrolled(out, &rks[i]->key) != 0 ||
		    put_bytes(out, rks[i]->user_id, rks[i]->user_id_len) != 0))
			r = SSH_SK_ERR_GENERAL;
		skf_enroll_free_parts(&rks[i]->key);
		free(rks[i]->application);
		free(rks[i]->user_id);
		free(rks[i]);
	}
	free(rks);
	return r;
}

/* One request in body; the reply (without its length) into out. */
static void
serve(struct sbuf *body, struct sbuf *out)
{
	struct skh_request q;
	struct provider p;
	struct sk_option opt[2], *list[3];
	int r;

	memset(&p, 0, sizeof(p));
	if (skh_request_get(body, &q) != 0) {
		r = SSH_SK_ERR_GENERAL;
		log_error("ssh-sk-helper: malformed request");
		goto out;
	}
	if ((r = provider_open(q.provider, &p)) != 0)
		goto out;
	make_options(&q, opt, list);
	switch (q.type) {
	case SKH_ENROLL:
		r = do_enroll(&p, &q, list, out);
		break;
	case SKH_SIGN:
		r = do_sign(&p, &q, list, out);
		break;
	default:
		r = do_load_resident(&p, &q, list, out);
		break;
	}
 out:
	if (r != 0) {
		sbuf_reset(out);
		if (r >= 0 || r < -1000)
			r = SSH_SK_ERR_GENERAL;
		(void)sbuf_put_u8(out, SKH_FAIL);
		(void)sbuf_put_u32(out, (uint32_t)-r);
	}
	provider_close(&p);
	skh_request_free(&q);
}

int
main(int argc, char **argv)
{
	struct sbuf *body, *out;
	enum log_level level = LOG_LEVEL_ERROR;
	int ch, fdin = STDIN_FILENO, fdout, r;

	while ((ch = getopt(argc, argv, "v")) != -1) {
		if (ch == 'v' && level < LOG_LEVEL_DEBUG3)
			level++;
		else if (ch != 'v') {
			fprintf(stderr, "usage: ssh-sk-helper [-v]\n");
			return 1;
		}
	}
	log_init("ssh-sk-helper", level, LOG_AUTH, 1);
	if ((fdout = dup(STDOUT_FILENO)) < 0 ||
	    dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		log_error("ssh-sk-helper: dup: %s", strerror(errno));
		return 1;
	}
	for (;;) {
		body = sbuf_new();
		out = sbuf_new();
		if ((r = msg_read_framed(fdin, SKH_MAX_MSG, body)) == 0) {
			serve(body, out);
			r = msg_write_framed(fdout, out);
		}
		sbuf_wipe(body);
		sbuf_free(body);
		sbuf_free(out);
		if (r != 0)
			break;
	}
	if (r != ERR_EOF && r != ERR_CONN_CLOSED)
		log_debug("ssh-sk-helper: %s", err_str(r));
	return r == ERR_EOF || r == ERR_CONN_CLOSED ? 0 : 1;
}
