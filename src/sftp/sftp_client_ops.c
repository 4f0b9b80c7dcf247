/*
 * sftp_client_ops.c: the client's one-request operations: paths,
 * attributes, handles, directory listings and the OpenSSH extensions.
 *
 * Each sends one request and waits for the reply to it (see
 * sftp_client_int.h for the checks a reply goes through). A directory
 * listing is read a batch at a time, the count of each batch bounded by
 * the bytes the reply holds and the whole listing by SFTP_MAX_NAMES.
 */
#include <string.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "sftp_client_int.h"

/*
 * -vv: the request going out, as OpenSSH's sftp words it; ext names an
 * extended request, a and b its paths (either may be NULL).
 */
static void
say_sending(uint8_t type, const char *ext, const char *a, const char *b)
{
	static const struct {
		uint8_t type;
		const char *name;
	} names[] = {
		{ SSH2_FXP_OPEN, "OPEN" }, { SSH2_FXP_SETSTAT, "SETSTAT" },
		{ SSH2_FXP_REMOVE, "REMOVE" }, { SSH2_FXP_MKDIR, "MKDIR" },
		{ SSH2_FXP_RMDIR, "RMDIR" }, { SSH2_FXP_REALPATH, "REALPATH" },
		{ SSH2_FXP_STAT, "STAT" }, { SSH2_FXP_RENAME, "RENAME" },
		{ SSH2_FXP_SYMLINK, "SYMLINK" },
	};
	const char *what = NULL;
	char *head;
	size_t i;

	if (log_level() < LOG_LEVEL_DEBUG2)
		return;
	for (i = 0; ext == NULL && i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type)
			what = names[i].name;
	if (ext == NULL && what == NULL)
		return;
	head = ext != NULL ? x_asprintf("EXTENDED(%s)", ext) : x_strdup(what);
	if (a == NULL)
		log_debug2("Sending SSH2_FXP_%s", head);
	else if (b == NULL)
		log_debug2("Sending SSH2_FXP_%s \"%s\"", head, a);
	else
		log_debug2("Sending SSH2_FXP_%s \"%s\" to \"%s\"", head, a, b);
	x_free(head);
}

/* Send c->req and wait for a STATUS to it. */
static int
send_status(struct sftp_conn *c, uint32_t id)
{
	int r;

	if ((r = sc_send(c)) != 0)
		return r;
	return sc_expect_status(c, id);
}

/* A request that takes one path and is answered with a STATUS. */
static int
path_status(struct sftp_conn *c, uint8_t type, const char *path)
{
	uint32_t id;
	int r;

	say_sending(type, NULL, path, NULL);
	if ((r = sc_begin(c, type, &id)) != 0 ||
	    (r = sc_put_path(c, path)) != 0)
		return r;
	return send_status(c, id);
}

/* A request that takes one path and is answered with one name. */
static int
path_name(struct sftp_conn *c, uint8_t type, const char *ext,
    const char *path, char **outp)
{
	uint32_t id;
	int r;

	*outp = NULL;
	say_sending(type, ext, path, NULL);
	if ((r = ext ? sc_begin_ext(c, ext, &id) : sc_begin(c, type, &id)) ||
	    (r = sc_put_path(c, path)) != 0 || (r = sc_send(c)) != 0 ||
	    (r = sc_flush(c)) != 0)
		return r;
	return sc_expect_name1(c, id, outp);
}

int
sftp_client_realpath(struct sftp_conn *c, const char *path, char **outp)
{
	return path_name(c, SSH2_FXP_REALPATH, NULL, path, outp);
}

int
sftp_client_expand_path(struct sftp_conn *c, const char *path, char **outp)
{
	if (!(c->exts & SFTP_EXT_EXPAND_PATH))
		return sftp_client_realpath(c, path, outp);
	return path_name(c, 0, "expand-path@openssh.com", path, outp);
}

int
sftp_client_home(struct sftp_conn *c, char **outp)
{
	uint32_t id;
	int r;

	*outp = NULL;
	if (!(c->exts & SFTP_EXT_HOME_DIR))
		return SSH2_FX_OP_UNSUPPORTED;
	if ((r = sc_begin_ext(c, "home-directory", &id)) != 0 ||
	    (r = sc_put_path(c, "")) != 0 || (r = sc_send(c)) != 0 ||
	    (r = sc_flush(c)) != 0)
		return r;
	return sc_expect_name1(c, id, outp);
}

int
sftp_client_readlink(struct sftp_conn *c, const char *path, char **outp)
{
	return path_name(c, SSH2_FXP_READLINK, NULL, path, outp);
}

int
sftp_client_stat(struct sftp_conn *c, const char *path, int follow,
    struct sftp_attrs *a)
{
	uint32_t id;
	int r;

	sftp_attrs_clear(a);
	if (follow)
		say_sending(SSH2_FXP_STAT, NULL, path, NULL);
	if ((r = sc_begin(c, follow ? SSH2_FXP_STAT : SSH2_FXP_LSTAT,
	    &id)) != 0 || (r = sc_put_path(c, path)) != 0 ||
	    (r = sbuf_put_u32(c->req, 0)) != 0 || (r = sc_send(c)) != 0 ||
	    (r = sc_flush(c)) != 0)
		return r;
	return sc_expect_attrs(c, id, a);
}

int
sftp_client_setstat(struct sftp_conn *c, const char *path,
    const struct sftp_attrs *a)
{
	uint32_t id;
	int r;

	say_sending(SSH2_FXP_SETSTAT, NULL, path, NULL);
	if ((r = sc_begin(c, SSH2_FXP_SETSTAT, &id)) != 0 ||
	    (r = sc_put_path(c, path)) != 0 ||
	    (r = sftp_attrs_encode(c->req, a)) != 0)
		return r;
	return send_status(c, id);
}

int
sftp_client_lsetstat(struct sftp_conn *c, const char *path,
    const struct sftp_attrs *a)
{
	uint32_t id;
	int r;

	if (!(c->exts & SFTP_EXT_LSETSTAT))
		return SSH2_FX_OP_UNSUPPORTED;
	if ((r = sc_begin_ext(c, "lsetstat@openssh.com", &id)) != 0 ||
	    (r = sc_put_path(c, path)) != 0 ||
	    (r = sftp_attrs_encode(c->req, a)) != 0)
		return r;
	return send_status(c, id);
}

int
sftp_client_remove(struct sftp_conn *c, const char *path)
{
	return path_status(c, SSH2_FXP_REMOVE, path);
}

int
sftp_client_rmdir(struct sftp_conn *c, const char *path)
{
	return path_status(c, SSH2_FXP_RMDIR, path);
}

int
sftp_client_mkdir(struct sftp_conn *c, const char *path,
    const struct sftp_attrs *a)
{
	struct sftp_attrs none;
	uint32_t id;
	int r;

	if (a == NULL) {
		sftp_attrs_clear(&none);
		a = &none;
	}
	say_sending(SSH2_FXP_MKDIR, NULL, path, NULL);
	if ((r = sc_begin(c, SSH2_FXP_MKDIR, &id)) != 0 ||
	    (r = sc_put_path(c, path)) != 0 ||
	    (r = sftp_attrs_encode(c->req, a)) != 0)
		return r;
	return send_status(c, id);
}

/* A request (plain or extended) with two paths, answered by STATUS. */
static int
two_paths(struct sftp_conn *c, uint8_t type, const char *ext, const char *a,
    const char *b)
{
	uint32_t id;
	int r;

	say_sending(type, ext, a, b);
	if ((r = ext ? sc_begin_ext(c, ext, &id) : sc_begin(c, type, &id)) ||
	    (r = sc_put_path(c, a)) != 0 || (r = sc_put_path(c, b)) != 0)
		return r;
	return send_status(c, id);
}

int
sftp_client_rename(struct sftp_conn *c, const char *from, const char *to,
    int posix)
{
	if (posix && (c->exts & SFTP_EXT_POSIX_RENAME))
		return two_paths(c, 0, "posix-rename@openssh.com", from, to);
	return two_paths(c, SSH2_FXP_RENAME, NULL, from, to);
}

int
sftp_client_hardlink(struct sftp_conn *c, const char *from, const char *to)
{
	if (!(c->exts & SFTP_EXT_HARDLINK))
		return SSH2_FX_OP_UNSUPPORTED;
	return two_paths(c, 0, "hardlink@openssh.com", from, to);
}

int
sftp_client_symlink(struct sftp_conn *c, const char *target,
    const char *link_path)
{
	return two_paths(c, SSH2_FXP_SYMLINK, NULL, target, link_path);
}

int
sftp_client_statvfs(struct sftp_conn *c, const char *path,
    struct sftp_statvfs *st)
{
	uint64_t *f[] = { &st->bsize, &st->frsize, &st->blocks, &st->bfree,
	    &st->bavail, &st->files, &st->ffree, &st->favail, &st->fsid,
	    &st->flag, &st->namemax };
	uint32_t id;
	uint8_t type;
	size_t i;
	int r, status;

	memset(st, 0, sizeof(*st));
	if (!(c->exts & SFTP_EXT_STATVFS))
		return SSH2_FX_OP_UNSUPPORTED;
	say_sending(0, "statvfs@openssh.com", path, NULL);
	if ((r = sc_begin_ext(c, "statvfs@openssh.com", &id)) != 0 ||
	    (r = sc_put_path(c, path)) != 0 || (r = sc_send(c)) != 0 ||
	    (r = sc_flush(c)) != 0 || (r = sc_reply(c, &type, &id)) != 0)
		return r;
	if (id != c->next_id - 1)
		return ERR_PROTOCOL;
	if (type == SSH2_FXP_STATUS) {
		if ((r = sc_parse_status(c, &status)) != 0)
			return r;
		return status == SSH2_FX_OK ? ERR_PROTOCOL : status;
	}
	if (type != SSH2_FXP_EXTENDED_REPLY)
		return ERR_PROTOCOL;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (sbuf_get_u64(c->pkt, f[i]) != 0)
			return ERR_PROTOCOL;
	return 0;
}

static int
open_common(struct sftp_conn *c, uint8_t type, const char *path,
    uint32_t pflags, const struct sftp_attrs *a, struct sftp_handle **hp)
{
	struct sftp_attrs none;
	uint32_t id;
	int r;

	*hp = NULL;
	say_sending(type, NULL, path, NULL);	/* OPENDIR: none */
	if ((r = sc_begin(c, type, &id)) != 0 ||
	    (r = sc_put_path(c, path)) != 0)
		return r;
	if (type == SSH2_FXP_OPEN) {
		if (a == NULL) {
			sftp_attrs_clear(&none);
			a = &none;
		}
		if ((r = sbuf_put_u32(c->req, pflags)) != 0 ||
		    (r = sftp_attrs_encode(c->req, a)) != 0)
			return r;
	}
	if ((r = sc_send(c)) != 0 || (r = sc_flush(c)) != 0)
		return r;
	return sc_expect_handle(c, id, hp);
}

int
sftp_client_open(struct sftp_conn *c, const char *path, uint32_t pflags,
    const struct sftp_attrs *a, struct sftp_handle **hp)
{
	return open_common(c, SSH2_FXP_OPEN, path, pflags, a, hp);
}

int
sftp_client_opendir(struct sftp_conn *c, const char *path,
    struct sftp_handle **hp)
{
	return open_common(c, SSH2_FXP_OPENDIR, path, 0, NULL, hp);
}

/* A request whose only argument is the handle, answered by STATUS. */
static int
handle_status(struct sftp_conn *c, uint8_t type, const char *ext,
    const struct sftp_handle *h)
{
	uint32_t id;
	int r;

	if ((r = ext ? sc_begin_ext(c, ext, &id) : sc_begin(c, type, &id)) ||
	    (r = sc_put_handle(c, h)) != 0)
		return r;
	return send_status(c, id);
}

int
sftp_client_close(struct sftp_conn *c, struct sftp_handle *h)
{
	int r;

	if (h == NULL)
		return 0;
	r = handle_status(c, SSH2_FXP_CLOSE, NULL, h);
	x_free(h->data);
	x_free(h);
	return r;
}

int
sftp_client_fsync(struct sftp_conn *c, const struct sftp_handle *h)
{
	if (!(c->exts & SFTP_EXT_FSYNC))
		return SSH2_FX_OP_UNSUPPORTED;
	return handle_status(c, 0, "fsync@openssh.com", h);
}

int
sftp_client_fstat(struct sftp_conn *c, const struct sftp_handle *h,
    struct sftp_attrs *a)
{
	uint32_t id;
	int r;

	sftp_attrs_clear(a);
	if ((r = sc_begin(c, SSH2_FXP_FSTAT, &id)) != 0 ||
	    (r = sc_put_handle(c, h)) != 0 || (r = sc_send(c)) != 0 ||
	    (r = sc_flush(c)) != 0)
		return r;
	return sc_expect_attrs(c, id, a);
}

int
sftp_client_fsetstat(struct sftp_conn *c, const struct sftp_handle *h,
    const struct sftp_attrs *a)
{
	uint32_t id;
	int r;

	if ((r = sc_begin(c, SSH2_FXP_FSETSTAT, &id)) != 0 ||
	    (r = sc_put_handle(c, h)) != 0 ||
	    (r = sftp_attrs_encode(c->req, a)) != 0)
		return r;
	return send_status(c, id);
}

int
sftp_client_copy_data(struct sftp_conn *c, const struct sftp_handle *rh,
    uint64_t roff, uint64_t rlen, const struct sftp_handle *wh,
    uint64_t woff)
{
	uint32_t id;
	int r;

	if (!(c->exts & SFTP_EXT_COPY_DATA))
		return SSH2_FX_OP_UNSUPPORTED;
	if ((r = sc_begin_ext(c, "copy-data", &id)) != 0 ||
	    (r = sc_put_handle(c, rh)) != 0 ||
	    (r = sbuf_put_u64(c->req, roff)) != 0 ||
	    (r = sbuf_put_u64(c->req, rlen)) != 0 ||
	    (r = sc_put_handle(c, wh)) != 0 ||
	    (r = sbuf_put_u64(c->req, woff)) != 0)
		return r;
	return send_status(c, id);
}

/* The entries of a NAME reply in c->pkt, appended to *names. */
static int
parse_names(struct sftp_conn *c, struct sftp_name **names, size_t *n)
{
	struct sftp_name *e;
	uint32_t count, i;

	if (sbuf_get_u32(c->pkt, &count) != 0)
		return ERR_PROTOCOL;
	/* Each entry takes at least 4 + 4 + 4 bytes on the wire. */
	if (count > sbuf_len(c->pkt) / 12 || *n + count > SFTP_MAX_NAMES)
		return ERR_PROTOCOL;
	if (count == 0)
		return 0;
	*names = x_reallocarray(*names, *n + count, sizeof(**names));
	for (i = 0; i < count; i++) {
		e = &(*names)[*n];
		memset(e, 0, sizeof(*e));
		if (sbuf_get_cstring(c->pkt, &e->filename, NULL) != 0 ||
		    sbuf_get_cstring(c->pkt, &e->longname, NULL) != 0 ||
		    sftp_attrs_decode(c->pkt, &e->a) != 0) {
			x_free(e->filename);
			x_free(e->longname);
			return ERR_PROTOCOL;
		}
		(*n)++;
	}
	return 0;
}

int
sftp_client_readdir(struct sftp_conn *c, const struct sftp_handle *h,
    struct sftp_name **names, size_t *n)
{
	uint32_t id, rid;
	uint8_t type;
	int r, st;

	if ((r = sc_begin(c, SSH2_FXP_READDIR, &id)) != 0 ||
	    (r = sc_put_handle(c, h)) != 0 || (r = sc_send(c)) != 0 ||
	    (r = sc_flush(c)) != 0 || (r = sc_reply(c, &type, &rid)) != 0)
		return r;
	if (rid != id)
		return ERR_PROTOCOL;
	if (type == SSH2_FXP_STATUS) {
		if ((r = sc_parse_status(c, &st)) != 0)
			return r;
		return st == SSH2_FX_OK ? ERR_PROTOCOL : st;
	}
	if (type != SSH2_FXP_NAME)
		return ERR_PROTOCOL;
	return parse_names(c, names, n);
}

int
sftp_client_ls(struct sftp_conn *c, const char *path,
    struct sftp_name **names, size_t *n)
{
	struct sftp_handle *h;
	int r, rc;

	*names = NULL;
	*n = 0;
	if ((r = sftp_client_opendir(c, path, &h)) != 0)
		return r;
	while ((r = sftp_client_readdir(c, h, names, n)) == 0)
		;
	if (r == SSH2_FX_EOF)
		r = 0;
	if (r < 0) {
		/* The connection is gone: no CLOSE to wait for. */
		x_free(h->data);
		x_free(h);
	} else if ((rc = sftp_client_close(c, h)) != 0 && r == 0)
		r = rc;
	if (r != 0) {
		sftp_names_free(*names, *n);
		*names = NULL;
		*n = 0;
	}
	return r;
}

void
sftp_names_free(struct sftp_name *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		x_free(names[i].filename);
		x_free(names[i].longname);
	}
	x_free(names);
}

/* A string holding n names, each set in out[] ("" as NULL). */
static int
parse_id_names(struct sbuf *b, size_t n, char **out)
{
	const unsigned char *p;
	struct sbuf *v;
	size_t len, i;
	char *name;
	int r = 0;

	if (sbuf_get_string_direct(b, &p, &len) != 0)
		return ERR_PROTOCOL;
	if ((v = sbuf_from(p, len)) == NULL)
		return ERR_ALLOC;
	for (i = 0; i < n; i++) {
		if (sbuf_get_cstring(v, &name, NULL) != 0) {
			r = ERR_PROTOCOL;
			break;
		}
		if (*name == '\0') {
			x_free(name);
			name = NULL;
		}
		out[i] = name;
	}
	if (r == 0 && sbuf_len(v) != 0)
		r = ERR_PROTOCOL;
	sbuf_free(v);
	return r;
}

static int
put_ids(struct sbuf *b, const uint32_t *ids, size_t n)
{
	struct sbuf *v = sbuf_new();
	size_t i;
	int r = 0;

	for (i = 0; i < n && r == 0; i++)
		r = sbuf_put_u32(v, ids[i]);
	if (r == 0)
		r = sbuf_put_stringb(b, v);
	sbuf_free(v);
	return r;
}

int
sftp_client_users_groups(struct sftp_conn *c, const uint32_t *uids,
    size_t nu, const uint32_t *gids, size_t ng, char **unames, char **gnames)
{
	uint32_t id, rid;
	uint8_t type;
	size_t i;
	int r, st;

	memset(unames, 0, nu * sizeof(*unames));
	memset(gnames, 0, ng * sizeof(*gnames));
	if (!(c->exts & SFTP_EXT_USERS_GROUPS))
		return SSH2_FX_OP_UNSUPPORTED;
	if (nu > SFTP_MAX_IDS || ng > SFTP_MAX_IDS)
		return ERR_INVALID_ARGUMENT;
	say_sending(0, "users-groups-by-id@openssh.com", NULL, NULL);
	if ((r = sc_begin_ext(c, "users-groups-by-id@openssh.com", &id)) ||
	    (r = put_ids(c->req, uids, nu)) != 0 ||
	    (r = put_ids(c->req, gids, ng)) != 0 || (r = sc_send(c)) != 0 ||
	    (r = sc_flush(c)) != 0 || (r = sc_reply(c, &type, &rid)) != 0)
		return r;
	if (rid != id)
		return ERR_PROTOCOL;
	if (type == SSH2_FXP_STATUS) {
		if ((r = sc_parse_status(c, &st)) != 0)
			return r;
		return st == SSH2_FX_OK ? ERR_PROTOCOL : st;
	}
	if (type != SSH2_FXP_EXTENDED_REPLY)
		return ERR_PROTOCOL;
	if ((r = parse_id_names(c->pkt, nu, unames)) == 0)
		r = parse_id_names(c->pkt, ng, gnames);
	if (r != 0) {
		for (i = 0; i < nu; i++) {
			x_free(unames[i]);
			unames[i] = NULL;
		}
		for (i = 0; i < ng; i++) {
			x_free(gnames[i]);
			gnames[i] = NULL;
		}
	}
	return r;
}
