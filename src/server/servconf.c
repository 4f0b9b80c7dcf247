/*
 * servconf.c: reading sshd_config into struct servconf.
 *
 * A line is split into a keyword (up to blank or '=') and arguments
 * (blank-separated, "double" or 'single' quoted, '#' starting a comment),
 * looked up in the keyword table (servconf_kw.c) and handed to its type's
 * parser. Include expands glob patterns in place, relative names under
 * /etc/ssh. A Match line opens a block: the lines after it are checked
 * (allowed there, well-formed) and kept as text; servconf_apply_match()
 * parses the text of the blocks that match a connection into a fresh
 * config and copies every field those lines set over a copy of the
 * global one, so within the overlay the first value wins too, while a
 * Match value beats a global one. Errors are logged with file and line
 * and counted; parsing goes on so every bad line is reported.
 */
#include <sys/types.h>

#include <errno.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <unistd.h>

#include "conf_include.h"
#include "conf_match.h"
#include "conftape.h"
#include "err.h"
#include "installdirs.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "servconf_int.h"

#define SSH_DIR		MOAT_SSHDIR

struct servconf *
servconf_new(void)
{
	struct servconf *sc = x_calloc(1, sizeof(*sc));
	struct sc_priv *p = x_calloc(1, sizeof(*p));

	p->cur_block = -1;
	sc->priv = p;
	return sc;
}

static void
free_blocks(struct sc_priv *p)
{
	size_t i, j;

	for (i = 0; i < p->nblocks; i++) {
		for (j = 0; j < p->blocks[i].ncriteria; j++)
			x_free(p->blocks[i].criteria[j]);
		x_free(p->blocks[i].criteria);
		for (j = 0; j < p->blocks[i].nlines; j++) {
			x_free(p->blocks[i].lines[j].text);
			x_free(p->blocks[i].lines[j].source);
		}
		x_free(p->blocks[i].lines);
	}
	x_free(p->blocks);
	p->blocks = NULL;
	p->nblocks = 0;
	x_free(p->am_source);
	p->am_source = NULL;
}

void
servconf_free(struct servconf *sc)
{
	size_t i;

	if (sc == NULL)
		return;
	for (i = 0; i < sc_nkeywords; i++)
		sc_kw_free_value(sc, &sc_keywords[i]);
	if (sc->priv != NULL)
		free_blocks(sc->priv);
	x_free(sc->priv);
	x_free(sc);
}

static int process_file(struct servconf *, const char *, int);

/*
 * The files an Include pattern names, in *pathsp and *np: glob(3)'s
 * answer (in g, recorded on a recording tape), or the one recorded on a
 * replaying tape. glob's result: 0, GLOB_NOMATCH or an error.
 */
static int
include_glob(void *ctx, const char *pat, glob_t *g, char ***pathsp,
    size_t *np)
{
	struct sc_priv *p = ((struct servconf *)ctx)->priv;
	int r;

	*pathsp = NULL;
	*np = 0;
	if (p->tape != NULL && conftape_replaying(p->tape)) {
		if (conftape_glob(p->tape, pat, pathsp, np) != 0)
			return GLOB_ABORTED;	/* not what the listener read */
		return *np == 0 ? GLOB_NOMATCH : 0;
	}
	r = glob(pat, GLOB_TILDE, NULL, g);
	if (r == 0) {
		*pathsp = g->gl_pathv;
		*np = g->gl_pathc;
	}
	if (p->tape != NULL && (r == 0 || r == GLOB_NOMATCH))
		conftape_add_glob(p->tape, pat, *pathsp, *np);
	return r;
}

static int
include_read(void *ctx, const char *path)
{
	return process_file(ctx, path, 0);
}

static int
include_files(struct servconf *sc, const struct conf_at *at)
{
	struct sc_priv *p = sc->priv;
	const struct conf_include inc = { CONF_SSHD, SSH_DIR, &p->depth,
	    NULL, include_glob, include_read, sc };

	return conf_include(&inc, at);
}

static int
user_in_groups(const char *user, const char *list)
{
	struct passwd *pw;
	struct group *gr;
	gid_t groups[256];
	int n = 256, i, r, got = 0;

	if (user == NULL || (pw = getpwnam(user)) == NULL)
		return 0;
	if (getgrouplist(user, pw->pw_gid, groups, &n) < 0)
		n = 256;
	for (i = 0; i < n; i++) {
		if ((gr = getgrgid(groups[i])) == NULL)
			continue;
		if ((r = match_pattern_list(gr->gr_name, list, 0)) == -1)
			return 0;
		if (r == 1)
			got = 1;
	}
	return got;
}

enum { MC_USER, MC_GROUP, MC_HOST, MC_ADDRESS, MC_LOCALADDRESS,
	MC_LOCALPORT, MC_RDOMAIN };

/* sshd_config's Match criteria ("all" is conf_match's own). */
static const struct conf_crit sc_crits[] = {
	{ "user", MC_USER, 1 }, { "group", MC_GROUP, 1 },
	{ "host", MC_HOST, 1 }, { "address", MC_ADDRESS, 1 },
	{ "localaddress", MC_LOCALADDRESS, 1 },
	{ "localport", MC_LOCALPORT, 1 }, { "rdomain", MC_RDOMAIN, 1 },
	{ NULL, 0, 0 } };

/* A criterion's argument, checked when the file is read. */
static int
match_check(void *ctx, const struct conf_crit *c, const char *arg,
    int so_far, const struct conf_at *at)
{
	char *ep;
	long v;

	switch (c->id) {
	case MC_ADDRESS:
	case MC_LOCALADDRESS:
		if (match_addr_list(NULL, arg) == -2) {
			log_error("%s line %d: Invalid Match address "
			    "argument '%s'", at->src, at->line, arg);
			return ERR_CONFIG;
		}
		return 1;
	case MC_LOCALPORT:
		v = strtol(arg, &ep, 10);
		if (*arg == '\0' || *ep != '\0' || v < 1 || v > 65535)
			return CONF_MATCH_BAD_ARG;
		return 1;
	default:
		return 1;
	}
}

/* A criterion against a connection (ctx); the rest is not tried once
 * one fails. */
static int
match_conn_test(void *ctx, const struct conf_crit *c, const char *v,
    int so_far, const struct conf_at *at)
{
	const struct match_conn *mc = ctx;

	if (!so_far)
		return 0;
	switch (c->id) {
	case MC_USER:
		return mc->user && match_pattern_list(mc->user, v, 0) == 1;
	case MC_GROUP:
		return user_in_groups(mc->user, v);
	case MC_HOST:
		return mc->host && match_pattern_list(mc->host, v, 1) == 1;
	case MC_ADDRESS:
		return match_addr_list(mc->address, v) == 1;
	case MC_LOCALADDRESS:
		return match_addr_list(mc->laddress, v) == 1;
	case MC_LOCALPORT:
		return mc->lport == atoi(v);
	default:	/* MC_RDOMAIN */
		return mc->rdomain &&
		    match_pattern_list(mc->rdomain, v, 0) == 1;
	}
}

static int
block_matches(const struct sc_block *b, const struct match_conn *c)
{
	const struct conf_match m = { CONF_SSHD, sc_crits, match_conn_test,
	    (void *)(uintptr_t)c };
	struct conf_at at = { b->criteria, (int)b->ncriteria, NULL, NULL, 0 };

	return conf_match(&m, &at) == 1;
}

static void
block_add_line(struct sc_block *b, const char *text, const char *src,
    int line)
{
	b->lines = x_reallocarray(b->lines, b->nlines + 1, sizeof(*b->lines));
	b->lines[b->nlines].text = x_strdup(text);
	b->lines[b->nlines].source = x_strdup(src);
	b->lines[b->nlines++].lineno = line;
}

/* One line; returns 0 or ERR_CONFIG (already logged). */
static int
process_line(struct servconf *sc, const char *text, const char *src,
    int line)
{
	struct sc_priv *p = sc->priv;
	const struct conf_kw *kw;
	struct sc_block *b;
	struct servconf *scratch;
	char *buf = x_strdup(text), **argv, *rest;
	struct conf_line l;
	const struct conf_match check = { CONF_SSHD, sc_crits, match_check,
	    NULL };
	struct conf_at at;
	int argc, r = ERR_CONFIG, i;

	if (conf_split(text, buf, CONF_LEX_SSHD, &l) != 0) {
		log_error("%s line %d: invalid quotes", src, line);
		goto out;
	}
	if ((argc = l.argc) == 0) {
		r = 0;
		goto out;
	}
	argv = l.argv;
	rest = l.rest;
	if ((kw = sc_kw_find(argv[0])) == NULL) {
		log_error("%s: line %d: Bad configuration option: %s", src,
		    line, argv[0]);
		goto out;
	}
	if (kw->type == T_MATCH) {
		if (p->match_mode) {
			log_error("%s line %d: Match inside Match", src, line);
			goto out;
		}
		at = (struct conf_at){ argv + 1, argc - 1, rest, src, line };
		if (conf_match(&check, &at) < 0)
			goto out;
		p->blocks = x_reallocarray(p->blocks, p->nblocks + 1,
		    sizeof(*p->blocks));
		b = &p->blocks[p->nblocks];
		memset(b, 0, sizeof(*b));
		b->criteria = x_calloc((size_t)argc, sizeof(char *));
		for (i = 1; i < argc; i++)
			b->criteria[b->ncriteria++] = x_strdup(argv[i]);
		p->cur_block = (int)p->nblocks++;
		r = 0;
		goto out;
	}
	if ((p->cur_block >= 0 || p->match_mode) &&
	    !(kw->flags & KWF_MATCH)) {
		log_error("%s line %d: Directive '%s' is not allowed within a "
		    "Match block", src, line, argv[0]);
		goto out;
	}
	if (kw->type == T_INCLUDE) {
		at = (struct conf_at){ argv, argc, rest, src, line };
		r = include_files(sc, &at);
		goto out;
	}
	if (p->cur_block >= 0) {
		/* Check it now; keep the text for servconf_apply_match(). */
		scratch = servconf_new();
		((struct sc_priv *)scratch->priv)->match_mode = 1;
		r = sc_kw_apply(scratch, kw, argv, argc, rest, src, line);
		servconf_free(scratch);
		if (r == 0)
			block_add_line(&p->blocks[p->cur_block], text, src,
			    line);
		goto out;
	}
	r = sc_kw_apply(sc, kw, argv, argc, rest, src, line);
 out:
	if (r != 0)
		p->errors++;
	conf_line_clear(&l);
	x_free(buf);
	return r;
}

/* All of path, in *textp (NUL-terminated) and *lenp; 0, or ERR_CONFIG (errno). */
static int
read_whole(const char *path, char **textp, size_t *lenp)
{
	FILE *f;
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	int saved;

	if ((f = fopen(path, "r")) == NULL)
		return ERR_CONFIG;
	do {
		if (cap - len < 4096) {
			cap = cap == 0 ? 8192 : cap * 2;
			text = x_reallocarray(text, cap, 1);
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		saved = errno;
		fclose(f);
		x_free(text);
		errno = saved;
		return ERR_CONFIG;
	}
	fclose(f);
	text[len] = '\0';
	*textp = text;
	*lenp = len;
	return 0;
}

/*
 * The text of path: from the replaying tape, or from the file (then put
 * on a recording tape). *ownedp is what the caller frees. NULL: logged.
 */
static const char *
file_text(struct sc_priv *p, const char *path, char **ownedp, size_t *lenp)
{
	const char *text;

	*ownedp = NULL;
	if (p->tape != NULL && conftape_replaying(p->tape)) {
		if ((text = conftape_file(p->tape, path, lenp)) == NULL)
			log_error("%s: not among the files the listener read",
			    path);
		return text;
	}
	if (read_whole(path, ownedp, lenp) != 0) {
		log_error("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (p->tape != NULL)
		conftape_add_file(p->tape, path, *ownedp, *lenp);
	return *ownedp;
}

/* Read one file; a Match opened inside it ends with it. */
static int
process_file(struct servconf *sc, const char *path, int top)
{
	struct sc_priv *p = sc->priv;
	const char *text, *nl;
	char *owned, *line;
	size_t len, pos, n;
	int lineno = 0, saved = p->cur_block, before = p->errors;

	if ((text = file_text(p, path, &owned, &len)) == NULL) {
		if (!top)
			p->errors++;
		return top ? ERR_SYSTEM : ERR_CONFIG;
	}
	for (pos = 0; pos < len; pos += n + 1) {
		nl = memchr(text + pos, '\n', len - pos);
		n = nl != NULL ? (size_t)(nl - (text + pos)) : len - pos;
		line = x_memdup(text + pos, n + 1);
		line[n] = '\0';
		while (n > 0 && line[n - 1] == '\r')
			line[--n] = '\0';
		process_line(sc, line, path, ++lineno);
		x_free(line);
	}
	x_free(owned);
	p->cur_block = saved;
	return p->errors == before ? 0 : ERR_CONFIG;
}

void
servconf_set_tape(struct servconf *sc, struct conftape *tape)
{
	struct sc_priv *p = sc->priv;

	p->tape = tape;
}

int
servconf_load(struct servconf *sc, const char *path)
{
	struct sc_priv *p = sc->priv;
	int r;

	if ((r = process_file(sc, path, 1)) == ERR_SYSTEM)
		return r;
	if (p->errors > 0) {
		log_error("%s: terminating, %d bad configuration options",
		    path, p->errors);
		return ERR_CONFIG;
	}
	return 0;
}

int
servconf_parse_line(struct servconf *sc, const char *line,
    const char *source, int lineno)
{
	return process_line(sc, line, source, lineno) == 0 ? 0 : ERR_CONFIG;
}

struct int_default {
	size_t off;
	int value;
};

#define D(m, v) { offsetof(struct servconf, m), (v) }
static const struct int_default int_defaults[] = {
	D(log_level, LOG_LEVEL_INFO), D(log_facility, LOG_AUTH),
	D(login_grace_time, 120), D(max_auth_tries, 6), D(max_sessions, 10),
	D(permit_root_login, PERMIT_ROOT_NO_PASSWORD),
	D(pubkey_authentication, 1), D(password_authentication, 1),
	D(kbd_interactive_authentication, 1), D(strict_modes, 1),
	D(permit_tty, 1), D(print_motd, 1), D(print_last_log, 1),
	D(client_alive_count_max, 3), D(tcp_keep_alive, 1),
	D(allow_tcp_forwarding, 3), D(allow_agent_forwarding, 1),
	D(allow_streamlocal_forwarding, 3), D(streamlocal_bind_mask, 0177),
	D(compression, 1), D(authorized_keys_command_timeout, 30),
	D(ignore_rhosts, IGNORE_RHOSTS_YES), D(permit_user_rc, 1),
	D(debian_banner, 1), D(x11_display_offset, 10), D(x11_use_localhost, 1),
};
#undef D

static struct servconf *servconf_copy(const struct servconf *src);

/* The switch that enables each AuthenticationMethods method. */
static const struct {
	const char *name;
	size_t off;		/* (size_t)-1: not available */
} am_switches[] = {
	{ "publickey", offsetof(struct servconf, pubkey_authentication) },
	{ "password", offsetof(struct servconf, password_authentication) },
	{ "keyboard-interactive",
	    offsetof(struct servconf, kbd_interactive_authentication) },
	{ "hostbased", offsetof(struct servconf, hostbased_authentication) },
	{ "gssapi-with-mic", (size_t)-1 },
};

/*
 * Every method named in sc's AuthenticationMethods must be enabled
 * under sc; a disabled one is an error at src:line. 0 or ERR_CONFIG (logged).
 */
static int
check_auth_methods(const struct servconf *sc, const char *src, int line)
{
	char *dup, *cp, *m, *colon;
	size_t i;
	int bad = 0, on;

	if (sc->authentication_methods == NULL)
		return 0;
	dup = x_strdup(sc->authentication_methods);
	for (cp = dup; (m = strsep(&cp, " \t,")) != NULL;) {
		if (*m == '\0')
			continue;
		if ((colon = strchr(m, ':')) != NULL)
			*colon = '\0';
		for (i = 0, on = 0; i < sizeof(am_switches) /
		    sizeof(am_switches[0]); i++)
			if (strcmp(am_switches[i].name, m) == 0)
				on = am_switches[i].off != (size_t)-1 &&
				    *(const int *)(const void *)
				    ((const char *)sc + am_switches[i].off);
		if (!on) {
			log_error("%s line %d: Disabled method \"%s\" in "
			    "AuthenticationMethods \"%s\"", src ? src : "?",
			    line, m, sc->authentication_methods);
			bad = 1;
		}
	}
	x_free(dup);
	return bad ? ERR_CONFIG : 0;
}

/* The same for each Match block that sets AuthenticationMethods, with
 * the global settings and that block's. */
static int
check_match_auth_methods(const struct servconf *sc)
{
	const struct sc_priv *p = sc->priv;
	const struct sc_block *b;
	struct servconf *m, *out;
	struct sc_priv *mp;
	size_t i, j, k;
	int bad = 0;

	for (i = 0; i < p->nblocks; i++) {
		b = &p->blocks[i];
		m = servconf_new();
		mp = m->priv;
		mp->match_mode = 1;
		for (j = 0; j < b->nlines; j++)
			process_line(m, b->lines[j].text, b->lines[j].source,
			    b->lines[j].lineno);
		if (mp->am_source == NULL) {
			servconf_free(m);
			continue;
		}
		out = servconf_copy(sc);
		for (k = 0; k < sc_nkeywords; k++) {
			if (sc_keywords[k].type == T_IGNORE ||
			    sc_keywords[k].type == T_UNSUPP ||
			    sc_keywords[k].type == T_DEPRECATED ||
			    sc_keywords[k].type == T_INCLUDE ||
			    sc_keywords[k].type == T_MATCH ||
			    !sc_is_set(m, sc_keywords[k].off))
				continue;
			sc_kw_copy_value(out, m, &sc_keywords[k]);
		}
		if (check_auth_methods(out, mp->am_source, mp->am_line) != 0)
			bad = 1;
		servconf_free(out);
		servconf_free(m);
	}
	return bad ? ERR_CONFIG : 0;
}

int
servconf_finish(struct servconf *sc)
{
	struct sc_priv *p = sc->priv;
	size_t i;
	char *s;
	int r;

	for (i = 0; i < sizeof(int_defaults) / sizeof(int_defaults[0]); i++)
		if (!sc_is_set(sc, int_defaults[i].off))
			*(int *)(void *)((char *)sc + int_defaults[i].off) =
			    int_defaults[i].value;
	if (!sc_is_set(sc, offsetof(struct servconf, max_startups_begin))) {
		sc->max_startups_begin = 10;
		sc->max_startups_rate = 30;
		sc->max_startups_max = 100;
	}
	sc_persource_finish(sc);
	sc_extra_defaults(sc);
	if (!sc_is_set(sc, offsetof(struct servconf, pid_file)))
		sc->pid_file = x_strdup("/run/sshd.pid");
	if (sc->pam_service_name == NULL)
		sc->pam_service_name = x_strdup("sshd");
	if (sc->xauth_location == NULL)
		sc->xauth_location = x_strdup("/usr/bin/xauth");
	if (sc->nports == 0)
		sc->ports[sc->nports++] = 22;
	if (sc->nhostkeys == 0) {
		sc->hostkeys[sc->nhostkeys++] =
		    x_strdup(SSH_DIR "/ssh_host_rsa_key");
		sc->hostkeys[sc->nhostkeys++] =
		    x_strdup(SSH_DIR "/ssh_host_ecdsa_key");
		sc->hostkeys[sc->nhostkeys++] =
		    x_strdup(SSH_DIR "/ssh_host_ed25519_key");
	}
	if (!sc_is_set(sc, offsetof(struct servconf,
	    authorized_keys_files))) {
		sc->authorized_keys_files[sc->nauthorized_keys_files++] =
		    x_strdup(".ssh/authorized_keys");
		sc->authorized_keys_files[sc->nauthorized_keys_files++] =
		    x_strdup(".ssh/authorized_keys2");
	}
	for (i = 0; i < sc_nkeywords; i++) {
		const struct conf_kw *kw = &sc_keywords[i];
		char **fp = (char **)(void *)((char *)sc + kw->off);

		if (kw->type != T_ALGS || *fp != NULL)
			continue;
		if ((r = sc_algs_default(kw, &s)) != 0)
			return r;
		*fp = s;
	}
	if (check_auth_methods(sc, p->am_source, p->am_line) != 0 ||
	    check_match_auth_methods(sc) != 0)
		return ERR_CONFIG;
	return 0;
}

static struct servconf *
servconf_copy(const struct servconf *src)
{
	struct servconf *dst = servconf_new();
	const struct sc_priv *sp = src->priv;
	struct sc_priv *dp = dst->priv;
	size_t i;

	for (i = 0; i < sc_nkeywords; i++)
		sc_kw_copy_value(dst, src, &sc_keywords[i]);
	memcpy(dp->set, sp->set, sizeof(dp->set));
	dst->log_level_matched = src->log_level_matched;
	return dst;
}

struct servconf *
servconf_dup(const struct servconf *sc)
{
	return servconf_copy(sc);
}

size_t
servconf_nblocks(const struct servconf *sc)
{
	return ((const struct sc_priv *)sc->priv)->nblocks;
}

int
servconf_match_tests(const struct servconf *sc, const char *attr)
{
	const struct sc_priv *p = sc->priv;
	size_t i, j;

	for (i = 0; i < p->nblocks; i++)
		for (j = 0; j + 1 < p->blocks[i].ncriteria; j += 2)
			if (strcasecmp(p->blocks[i].criteria[j], attr) == 0)
				return 1;
	return 0;
}

int
servconf_match_blocks(const struct servconf *sc,
    const struct match_conn *conn, uint32_t **blocksp, size_t *np)
{
	const struct sc_priv *p = sc->priv;
	size_t i;

	*blocksp = x_calloc(p->nblocks + 1, sizeof(**blocksp));
	*np = 0;
	for (i = 0; i < p->nblocks; i++)
		if (block_matches(&p->blocks[i], conn))
			(*blocksp)[(*np)++] = (uint32_t)i;
	return 0;
}

int
servconf_apply_blocks(const struct servconf *sc, const uint32_t *blocks,
    size_t n, struct servconf **outp)
{
	const struct sc_priv *p = sc->priv;
	const struct sc_block *b;
	struct servconf *out, *m;
	size_t i, j;
	int bad = 0;

	*outp = NULL;
	for (i = 0; i < n; i++)
		if (blocks[i] >= p->nblocks || (i > 0 &&
		    blocks[i] <= blocks[i - 1]))
			return ERR_INVALID_ARGUMENT;
	out = servconf_copy(sc);
	m = servconf_new();
	((struct sc_priv *)m->priv)->match_mode = 1;
	for (i = 0; i < n; i++) {
		b = &p->blocks[blocks[i]];
		log_debug2("connection matched the Match block %u",
		    blocks[i] + 1);
		for (j = 0; j < b->nlines; j++)
			if (process_line(m, b->lines[j].text,
			    b->lines[j].source, b->lines[j].lineno) != 0)
				bad = 1;
	}
	for (i = 0; !bad && i < sc_nkeywords; i++) {
		if (sc_keywords[i].type == T_IGNORE ||
		    sc_keywords[i].type == T_UNSUPP ||
		    sc_keywords[i].type == T_DEPRECATED ||
		    sc_keywords[i].type == T_INCLUDE ||
		    sc_keywords[i].type == T_MATCH ||
		    !sc_is_set(m, sc_keywords[i].off))
			continue;
		sc_kw_copy_value(out, m, &sc_keywords[i]);
		sc_mark_set(out, sc_keywords[i].off);
	}
	out->log_level_matched = sc_is_set(m,
	    offsetof(struct servconf, log_level));
	servconf_free(m);
	if (bad) {
		servconf_free(out);
		return ERR_CONFIG;
	}
	*outp = out;
	return 0;
}

int
servconf_apply_match(const struct servconf *sc, const struct match_conn *conn,
    struct servconf **outp)
{
	uint32_t *blocks;
	size_t n;
	int r;

	*outp = NULL;
	if ((r = servconf_match_blocks(sc, conn, &blocks, &n)) != 0)
		return r;
	r = servconf_apply_blocks(sc, blocks, n, outp);
	x_free(blocks);
	return r;
}
