/*
 * monitor_wire.c: the frames of monitor.h and the encodings of the
 * authority's answers (a passwd entry, authorized_keys restrictions).
 * Both sides decode with the same functions, and neither trusts the
 * other's lengths: strings are bounded by the frame, arrays by
 * MON_MAX_ARRAY, and a frame by MON_MAX_FRAME.
 */
#include <stdint.h>
#include <string.h>

#include "authopts.h"
#include "err.h"
#include "fdio.h"
#include "mem.h"
#include "monitor.h"
#include "auth.h"

#define MON_MAX_ARRAY	1024

int
mon_send(int fd, uint8_t type, const struct sbuf *body)
{
	size_t n = body != NULL ? sbuf_len(body) : 0;
	unsigned char hdr[5];
	struct sbuf *f;
	int r;

	if (n + 1 > MON_MAX_FRAME)
		return ERR_NO_BUFFER_SPACE;
	sbuf_store_u32(hdr, (uint32_t)(n + 1));
	hdr[4] = type;
	/* One write: the peer never sees a header without its body. */
	f = sbuf_new();
	if ((r = sbuf_put(f, hdr, sizeof(hdr))) == 0 && n > 0)
		r = sbuf_put(f, sbuf_ptr(body), n);
	if (r == 0)
		r = fd_write_full(fd, sbuf_ptr(f), sbuf_len(f));
	sbuf_free(f);
	return r;
}

int
mon_recv(int fd, uint8_t *typep, struct sbuf *body)
{
	unsigned char hdr[5], *p;
	uint32_t len;
	int r;

	sbuf_reset(body);
	*typep = 0;
	if ((r = fd_read_full(fd, hdr, sizeof(hdr))) != 0)
		return r;
	len = (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 |
	    (uint32_t)hdr[2] << 8 | hdr[3];
	if (len < 1 || len > MON_MAX_FRAME)
		return ERR_INVALID_FORMAT;
	*typep = hdr[4];
	if (len == 1)
		return 0;
	if ((r = sbuf_reserve(body, len - 1, &p)) != 0)
		return r;
	if ((r = fd_read_full(fd, p, len - 1)) != 0)
		return r == ERR_CONN_CLOSED ? ERR_INVALID_FORMAT : r;
	return 0;
}

void
mon_log_sink(int level, const char *text, void *fdp)
{
	int fd = *(const int *)fdp;
	struct sbuf *b = sbuf_new();
	uint8_t t;

	if (sbuf_put_u8(b, (uint8_t)level) == 0 &&
	    sbuf_put_cstring(b, text) == 0 &&
	    mon_send(fd, MON_LOG, b) == 0)
		(void)mon_recv(fd, &t, b);
	sbuf_free(b);
}

int
mon_err(uint32_t e)
{
	/* The ERR_* codes are small negative numbers (err.h). */
	return e == 0 ? 0 : e <= 1000 ? -(int)e : ERR_PROTOCOL;
}

int
mon_put_passwd(struct sbuf *b, const struct passwd *pw)
{
	int r;

	if ((r = sbuf_put_cstring(b, pw->pw_name)) != 0 ||
	    (r = sbuf_put_u32(b, (uint32_t)pw->pw_uid)) != 0 ||
	    (r = sbuf_put_u32(b, (uint32_t)pw->pw_gid)) != 0 ||
	    (r = sbuf_put_cstring(b, pw->pw_gecos ? pw->pw_gecos : "")) != 0 ||
	    (r = sbuf_put_cstring(b, pw->pw_dir)) != 0 ||
	    (r = sbuf_put_cstring(b, pw->pw_shell)) != 0)
		return r;
	return 0;
}

int
mon_get_passwd(struct sbuf *b, struct passwd **pwp)
{
	struct passwd pw;
	char *name = NULL, *gecos = NULL, *dir = NULL, *shell = NULL;
	uint32_t uid, gid;
	int r;

	*pwp = NULL;
	memset(&pw, 0, sizeof(pw));
	if ((r = sbuf_get_cstring(b, &name, NULL)) != 0 ||
	    (r = sbuf_get_u32(b, &uid)) != 0 ||
	    (r = sbuf_get_u32(b, &gid)) != 0 ||
	    (r = sbuf_get_cstring(b, &gecos, NULL)) != 0 ||
	    (r = sbuf_get_cstring(b, &dir, NULL)) != 0 ||
	    (r = sbuf_get_cstring(b, &shell, NULL)) != 0)
		goto out;
	pw.pw_name = name;
	pw.pw_passwd = (char *)"*";
	pw.pw_uid = (uid_t)uid;
	pw.pw_gid = (gid_t)gid;
	pw.pw_gecos = gecos;
	pw.pw_dir = dir;
	pw.pw_shell = shell;
	*pwp = auth_pw_dup(&pw);
 out:
	x_free(name);
	x_free(gecos);
	x_free(dir);
	x_free(shell);
	return r;
}

static int
put_array(struct sbuf *b, char *const *a, size_t n)
{
	size_t i;
	int r;

	if ((r = sbuf_put_u32(b, (uint32_t)n)) != 0)
		return r;
	for (i = 0; i < n; i++)
		if ((r = sbuf_put_cstring(b, a[i])) != 0)
			return r;
	return 0;
}

static int
get_array(struct sbuf *b, char ***ap, size_t *np)
{
	uint32_t n, i;
	int r;

	if ((r = sbuf_get_u32(b, &n)) != 0)
		return r;
	if (n > MON_MAX_ARRAY || n > sbuf_len(b) / 4)
		return ERR_INVALID_FORMAT;
	if (n == 0)
		return 0;
	*ap = x_calloc(n, sizeof(**ap));
	for (i = 0; i < n; i++) {
		if ((r = sbuf_get_cstring(b, &(*ap)[i], NULL)) != 0)
			return r;
		*np = i + 1;
	}
	return 0;
}

/* An optional string: bool present, string. */
static int
put_opt(struct sbuf *b, const char *s)
{
	int r;

	if ((r = sbuf_put_u8(b, s != NULL)) != 0)
		return r;
	return sbuf_put_cstring(b, s != NULL ? s : "");
}

static int
get_opt(struct sbuf *b, char **sp)
{
	int present, r;
	char *s = NULL;

	if ((r = sbuf_get_bool(b, &present)) != 0 ||
	    (r = sbuf_get_cstring(b, &s, NULL)) != 0)
		return r;
	if (present)
		*sp = s;
	else
		x_free(s);
	return 0;
}

int
mon_put_authopts(struct sbuf *b, const struct authopts *o)
{
	int flags[] = { o->permit_port_forwarding, o->permit_agent_forwarding,
	    o->permit_x11_forwarding, o->permit_pty, o->permit_user_rc,
	    o->restricted, o->cert_authority, o->no_touch_required,
	    o->verify_required };
	size_t i;
	int r;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if ((r = sbuf_put_u8(b, flags[i] != 0)) != 0)
			return r;
	if ((r = sbuf_put_u32(b, (uint32_t)o->force_tun_device)) != 0 ||
	    (r = sbuf_put_u64(b, o->valid_before)) != 0 ||
	    (r = put_opt(b, o->force_command)) != 0 ||
	    (r = put_opt(b, o->required_from_host_keys)) != 0 ||
	    (r = put_opt(b, o->cert_principals)) != 0 ||
	    (r = put_array(b, o->env, o->nenv)) != 0 ||
	    (r = put_array(b, o->permitopen, o->npermitopen)) != 0 ||
	    (r = put_array(b, o->permitlisten, o->npermitlisten)) != 0)
		return r;
	return 0;
}

int
mon_get_authopts(struct sbuf *b, struct authopts **op)
{
	struct authopts *o = authopts_new();
	int *flags[] = { &o->permit_port_forwarding, &o->permit_agent_forwarding,
	    &o->permit_x11_forwarding, &o->permit_pty, &o->permit_user_rc,
	    &o->restricted, &o->cert_authority, &o->no_touch_required,
	    &o->verify_required };
	uint32_t tun;
	size_t i;
	int r;

	*op = NULL;
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if ((r = sbuf_get_bool(b, flags[i])) != 0)
			goto fail;
	if ((r = sbuf_get_u32(b, &tun)) != 0 ||
	    (r = sbuf_get_u64(b, &o->valid_before)) != 0 ||
	    (r = get_opt(b, &o->force_command)) != 0 ||
	    (r = get_opt(b, &o->required_from_host_keys)) != 0 ||
	    (r = get_opt(b, &o->cert_principals)) != 0 ||
	    (r = get_array(b, &o->env, &o->nenv)) != 0 ||
	    (r = get_array(b, &o->permitopen, &o->npermitopen)) != 0 ||
	    (r = get_array(b, &o->permitlisten, &o->npermitlisten)) != 0)
		goto fail;
	if ((int32_t)tun < -1) {
		r = ERR_INVALID_FORMAT;
		goto fail;
	}
	o->force_tun_device = (int32_t)tun;
	*op = o;
	return 0;
 fail:
	authopts_free(o);
	return r;
}
