/*
 * servconf_extra.c: the sshd_config keywords whose values follow rules
 * of their own, and those we accept without acting on them.
 *
 * Each parser checks a line's arguments as OpenSSH 9.2 (Debian's sshd)
 * checks them and logs a refusal in its wording, so "sshd -t" fails on
 * the same lines with the same messages: FingerprintHash (a digest
 * name), IPQoS (one or two DSCP/ToS names or numbers 0..255),
 * ChannelTimeout (type=interval words, or "none" alone),
 * UnusedConnectionTimeout (an interval or "none") and PubkeyAuthOptions
 * (none, touch-required, verify-required). Keywords of features we do
 * not have (Kerberos, a host key agent, a security key provider) get
 * their value checked too, then an "Unsupported option" line, as an
 * OpenSSH built without them prints. GSSAPI's are checked as Debian's
 * sshd checks them; a value that would turn GSSAPI on (GSSAPIAuthentication
 * or GSSAPIKeyExchange yes) is refused, so sshd does not start with a
 * method or key exchange the administrator asked for missing; the
 * rest is accepted quietly, since it means nothing with GSSAPI off.
 * The sshd -T lines of these keywords are printed here as well.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "servconf_int.h"

#define FIELD(sc, off, T) ((T *)(void *)((char *)(sc) + (off)))

static const struct conf_enum fp_names[] = {
	{ "MD5", KEY_FP_MD5 }, { "SHA1", KEY_FP_SHA1 },
	{ "SHA256", KEY_FP_SHA256 }, { "SHA384", KEY_FP_SHA384 },
	{ "SHA512", KEY_FP_SHA512 }, { NULL, 0 } };

static const struct conf_enum pkopt_names[] = {
	{ "touch-required", SC_PKOPT_TOUCH },
	{ "verify-required", SC_PKOPT_VERIFY }, { NULL, 0 } };

/* "type=interval": a type and an interval conf_parse_time() takes. */
static int
valid_channel_timeout(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq != NULL && eq != s && conf_parse_time(eq + 1) >= 0;
}

/* The GSSAPI key exchange methods Debian's sshd knows (name prefixes). */
static const char *const gss_kex_names[] = {
	"gss-gex-sha1-", "gss-group1-sha1-", "gss-group14-sha1-",
	"gss-group14-sha256-", "gss-group16-sha512-", "gss-nistp256-sha256-",
	"gss-curve25519-sha256-", NULL };

static int
valid_gss_kex(const char *list)
{
	char *copy = x_strdup(list), *p = copy, *w;
	size_t i;
	int ok = *list != '\0';

	while (ok && (w = strsep(&p, ",")) != NULL) {
		for (i = 0; gss_kex_names[i] != NULL; i++)
			if (strcmp(w, gss_kex_names[i]) == 0)
				break;
		if (!(ok = gss_kex_names[i] != NULL))
			log_error("Unsupported KEX algorithm \"%.100s\"", w);
	}
	x_free(copy);
	return ok;
}

/* A GSSAPI keyword (see the top of the file): 0, or refused. */
static int
gssapi_keyword(int kind, char **argv, const char *src, int line)
{
	int v;

	if (kind == SC_UNSUPP_GSS_KEX) {
		if (valid_gss_kex(argv[1]))
			return 0;
		log_error("%s line %d: Bad GSSAPI KexAlgorithms '%s'.", src,
		    line, argv[1]);
		return ERR_CONFIG;
	}
	if (conf_enum_lookup(conf_yesno, argv[1], &v) != 0) {
		log_error("%s line %d: unsupported option \"%s\".", src, line,
		    argv[1]);
		return ERR_CONFIG;
	}
	if (kind == SC_UNSUPP_GSS_ON && v) {
		log_error("%s line %d: %s yes: this sshd has no GSSAPI "
		    "support; set it to \"no\" or remove the line.", src, line,
		    argv[0]);
		return ERR_CONFIG;
	}
	return 0;
}

static int
unsupported(const struct conf_kw *kw, char **argv, const char *src, int line)
{
	const char *what;
	int v, kind = *(const int *)kw->arg;

	if (kind == SC_UNSUPP_GSS_ON || kind == SC_UNSUPP_GSS_TUNE ||
	    kind == SC_UNSUPP_GSS_KEX)
		return gssapi_keyword(kind, argv, src, line);
	switch (kind) {
	case SC_UNSUPP_FLAG:
		if (conf_enum_lookup(conf_yesno, argv[1], &v) != 0) {
			log_error("%s line %d: unsupported option \"%s\".",
			    src, line, argv[1]);
			return ERR_CONFIG;
		}
		break;
	case SC_UNSUPP_INT:
		if (conf_parse_int_why(argv[1], &v, &what) != 0) {
			log_error("%s line %d: %s integer value %s.", src,
			    line, argv[0], what);
			return ERR_CONFIG;
		}
		break;
	default:
		break;		/* a path or a word: anything goes */
	}
	log_info("%s line %d: Unsupported option %s", src, line, argv[0]);
	return 0;
}

static int
channel_timeouts(struct servconf *sc, char **argv, int argc,
    const char *src, int line)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcasecmp(argv[i], "none") == 0) {
			if (argc > 2) {
				log_error("%s line %d: keyword %s \"none\" "
				    "argument must appear alone.", src, line,
				    argv[0]);
				return ERR_CONFIG;
			}
			continue;
		}
		if (!valid_channel_timeout(argv[i])) {
			log_error("%s line %d: invalid channel timeout %s",
			    src, line, argv[i]);
			return ERR_CONFIG;
		}
		if (i > SC_MAX_LIST) {
			log_error("%s line %d: too many %s entries.", src,
			    line, argv[0]);
			return ERR_CONFIG;
		}
	}
	for (i = 1; i < argc; i++)
		if (strcasecmp(argv[i], "none") != 0)
			sc->channel_timeouts[sc->nchannel_timeouts++] =
			    x_strdup(argv[i]);
	return 0;
}

int
sc_extra_maxargs(enum sc_type type)
{
	switch (type) {
	case T_IPQOS:
		return 3;
	case T_CHANTIMEOUT: case T_PKOPTS:
		return INT_MAX;
	default:
		return 2;
	}
}

int
sc_extra_apply(struct servconf *sc, const struct conf_kw *kw, char **argv,
    int argc, const char *src, int line)
{
	int v = 0, w = 0, i, bits = 0;
	long t;

	switch (kw->type) {
	case T_UNSUPP:
		return unsupported(kw, argv, src, line);
	case T_FPHASH:
		if (conf_enum_lookup(fp_names, argv[1], &v) != 0) {
			log_error("%s line %d: Invalid %s algorithm \"%s\".",
			    src, line, argv[0], argv[1]);
			return ERR_CONFIG;
		}
		*FIELD(sc, kw->off, int) = v;
		return 0;
	case T_IPQOS:
		for (i = 1; i < argc; i++)
			if (conf_parse_ipqos(argv[i], i == 1 ? &v : &w) != 0) {
				log_error("%s line %d: Bad IPQoS value: %s",
				    src, line, argv[i]);
				return ERR_CONFIG;
			}
		sc->ipqos_interactive = v;
		sc->ipqos_bulk = argc > 2 ? w : v;
		return 0;
	case T_CHANTIMEOUT:
		return channel_timeouts(sc, argv, argc, src, line);
	case T_TIMENONE:
		if (strcasecmp(argv[1], "none") == 0)
			t = 0;
		else if ((t = conf_parse_time(argv[1])) < 0) {
			log_error("%s line %d: invalid time value.", src,
			    line);
			return ERR_CONFIG;
		}
		*FIELD(sc, kw->off, int) = (int)t;
		return 0;
	case T_PKOPTS:
		for (i = 1; i < argc; i++) {
			if (strcasecmp(argv[i], "none") == 0)
				continue;
			if (conf_enum_lookup(pkopt_names, argv[i], &v) != 0) {
				log_error("%s line %d: unsupported %s option "
				    "%s", src, line, argv[0], argv[i]);
				return ERR_CONFIG;
			}
			bits |= v;
		}
		*FIELD(sc, kw->off, int) = bits;
		return 0;
	default:
		return ERR_CONFIG;
	}
}

void
sc_extra_copy(struct servconf *dst, const struct servconf *src,
    const struct conf_kw *kw)
{
	size_t i;

	switch (kw->type) {
	case T_FPHASH: case T_TIMENONE: case T_PKOPTS:
		*FIELD(dst, kw->off, int) = *FIELD(src, kw->off, const int);
		break;
	case T_IPQOS:
		dst->ipqos_interactive = src->ipqos_interactive;
		dst->ipqos_bulk = src->ipqos_bulk;
		break;
	case T_CHANTIMEOUT:
		sc_extra_free(dst, kw);
		for (i = 0; i < src->nchannel_timeouts; i++)
			dst->channel_timeouts[i] =
			    x_strdup(src->channel_timeouts[i]);
		dst->nchannel_timeouts = src->nchannel_timeouts;
		break;
	default:
		break;
	}
}

void
sc_extra_free(struct servconf *sc, const struct conf_kw *kw)
{
	size_t i;

	if (kw->type != T_CHANTIMEOUT)
		return;
	for (i = 0; i < sc->nchannel_timeouts; i++)
		x_free(sc->channel_timeouts[i]);
	sc->nchannel_timeouts = 0;
}

int
sc_extra_is_on(const struct servconf *sc, const struct conf_kw *kw)
{
	switch (kw->type) {
	case T_FLAG: case T_TIMENONE:
		return *FIELD(sc, kw->off, const int) != 0;
	case T_REST:
		return *FIELD(sc, kw->off, char *const) != NULL;
	case T_CHANTIMEOUT:
		return sc->nchannel_timeouts > 0;
	default:
		return 0;
	}
}

void
sc_extra_defaults(struct servconf *sc)
{
	if (!sc_is_set(sc, offsetof(struct servconf, required_rsa_size)))
		sc->required_rsa_size = 1024;
	if (!sc_is_set(sc, offsetof(struct servconf, ipqos_interactive))) {
		/* Debian's defaults (upstream 9.2 has af21 cs1). */
		sc->ipqos_interactive = 0x10;
		sc->ipqos_bulk = 0x08;
	}
}

const char *
sc_fingerprint_hash_name(int v)
{
	return conf_enum_name(fp_names, v);
}

void
sc_extra_dump_pkopts(const struct servconf *sc, FILE *f)
{
	const struct conf_enum *e;
	const char *sep = " ";

	fprintf(f, "pubkeyauthoptions");
	if (sc->pubkey_auth_options == 0)
		fprintf(f, " none");
	for (e = pkopt_names; e->name != NULL; e++)
		if (sc->pubkey_auth_options & e->value)
			fprintf(f, "%s%s", sep, e->name);
	fprintf(f, "\n");
}

void
sc_extra_dump_ipqos(const struct servconf *sc, FILE *f)
{
	char a[8], b[8];

	fprintf(f, "ipqos %s %s\n", conf_ipqos_name(sc->ipqos_interactive, a),
	    conf_ipqos_name(sc->ipqos_bulk, b));
}

void
sc_extra_dump_channel_timeouts(const struct servconf *sc, FILE *f)
{
	size_t i;

	if (sc->nchannel_timeouts == 0)
		return;
	fprintf(f, "channeltimeout");
	for (i = 0; i < sc->nchannel_timeouts; i++)
		fprintf(f, " %s", sc->channel_timeouts[i]);
	fprintf(f, "\n");
}
