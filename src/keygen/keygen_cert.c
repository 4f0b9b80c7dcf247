/*
 * keygen_cert.c: ssh-keygen -s (sign public keys into certificates with
 * -I -h -n -V -z -O) and -L (print a certificate, in OpenSSH's layout).
 *
 * -s names the CA's private key; with -U it names the CA's public key
 * (or a file it is found from, as OpenSSH finds public keys) and the
 * ssh-agent holding the private half signs, as in OpenSSH.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "agent.h"
#include "cert.h"
#include "err.h"
#include "keygen.h"
#include "mem.h"
#include "sbuf.h"

static const char *const default_exts[] = {
	"permit-X11-forwarding", "permit-agent-forwarding",
	"permit-port-forwarding", "permit-pty", "permit-user-rc",
};
#define NDEFAULT_EXTS (sizeof(default_exts) / sizeof(default_exts[0]))

/* -O flags that toggle one extension: name, extension, set. */
static const struct {
	const char *opt;
	const char *ext;
	int set;
} ext_flags[] = {
	{ "no-x11-forwarding", "permit-X11-forwarding", 0 },
	{ "permit-x11-forwarding", "permit-X11-forwarding", 1 },
	{ "no-agent-forwarding", "permit-agent-forwarding", 0 },
	{ "permit-agent-forwarding", "permit-agent-forwarding", 1 },
	{ "no-port-forwarding", "permit-port-forwarding", 0 },
	{ "permit-port-forwarding", "permit-port-forwarding", 1 },
	{ "no-pty", "permit-pty", 0 },
	{ "permit-pty", "permit-pty", 1 },
	{ "no-user-rc", "permit-user-rc", 0 },
	{ "permit-user-rc", "permit-user-rc", 1 },
	{ "no-touch-required", "no-touch-required", 1 },
};

static const char *
short_type(const struct key *k)
{
	return key_short_name(k);
}

static void
fmt_time(uint64_t t, char *buf, size_t len)
{
	time_t tt = t > (uint64_t)INT32_MAX * 1000 ? (time_t)INT32_MAX * 1000 :
	    (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(buf, len, "%llu", (unsigned long long)t);
}

static char *
validity_text(const struct key_cert *c)
{
	char a[64], b[64];

	fmt_time(c->valid_after, a, sizeof(a));
	fmt_time(c->valid_before, b, sizeof(b));
	if (c->valid_after == 0 && c->valid_before == CERT_FOREVER)
		return x_strdup("forever");
	if (c->valid_after == 0)
		return x_asprintf("before %s", b);
	if (c->valid_before == CERT_FOREVER)
		return x_asprintf("after %s", a);
	return x_asprintf("from %s to %s", a, b);
}

/* A string option's value, if the data is exactly one string. */
static char *
option_string(const struct cert_option *o)
{
	struct sbuf *b = sbuf_from(o->data, o->len);
	char *s = NULL;

	if (b == NULL || sbuf_get_cstring(b, &s, NULL) != 0 ||
	    sbuf_len(b) != 0) {
		x_free(s);
		s = NULL;
	}
	sbuf_free(b);
	return s;
}

static void
print_options(const struct cert_option *o, size_t n, int critical)
{
	size_t i, j;
	char *s;

	if (n == 0) {
		printf("(none)\n");
		return;
	}
	printf("\n");
	for (i = 0; i < n; i++) {
		printf("                %s", o[i].name);
		if (critical && (strcmp(o[i].name, "force-command") == 0 ||
		    strcmp(o[i].name, "source-address") == 0) &&
		    (s = option_string(&o[i])) != NULL) {
			printf(" %s\n", s);
			x_free(s);
		} else if (o[i].len == 0 && (critical ?
		    strcmp(o[i].name, "verify-required") == 0 :
		    (strncmp(o[i].name, "permit-", 7) == 0 ||
		    strcmp(o[i].name, "no-touch-required") == 0))) {
			printf("\n");
		} else if (o[i].len == 0) {
			printf(" UNKNOWN FLAG OPTION\n");
		} else {
			printf(" UNKNOWN OPTION: ");
			for (j = 0; j < o[i].len; j++)
				printf("%02x", o[i].data[j]);
			printf(" (len %zu)\n", o[i].len);
		}
	}
}

int
kg_show_cert(struct kg_opts *o)
{
	const char *path = kg_need_file(o, "Enter file in which the key is");
	struct key_cert *c = NULL;
	char *fp, *cafp, *v;
	size_t i;
	int r;

	if (kg_stat_file(o, path) != 0)
		return 255;
	if ((r = cert_load_public(path, &c, NULL)) != 0) {
		if (r == ERR_SYSTEM) {
			kg_error("%s: %s", path, strerror(errno));
			return 255;
		}
		if (r == ERR_KEY_TYPE_UNKNOWN)
			kg_error("%s:1 is not a certificate", path);
		else
			kg_error("%s:1: invalid key: %s", path, err_str(r));
		return 1;
	}
	fp = key_fingerprint(c->key, o->fp_hash);
	cafp = key_fingerprint(c->ca_key, o->fp_hash);
	v = validity_text(c);
	printf("%s:\n", path);
	printf("        Type: %s %s certificate\n", cert_type_name(c->key),
	    c->type == CERT_TYPE_USER ? "user" : "host");
	printf("        Public key: %s-CERT %s\n", short_type(c->key), fp);
	printf("        Signing CA: %s %s (using %s)\n", short_type(c->ca_key),
	    cafp, c->sig_alg);
	printf("        Key ID: \"%s\"\n", c->key_id);
	printf("        Serial: %llu\n", (unsigned long long)c->serial);
	printf("        Valid: %s\n", v);
	printf("        Principals: ");
	if (c->nprincipals == 0)
		printf("(none)\n");
	else {
		printf("\n");
		for (i = 0; i < c->nprincipals; i++)
			printf("                %s\n", c->principals[i]);
	}
	printf("        Critical Options: ");
	print_options(c->critical, c->ncritical, 1);
	printf("        Extensions: ");
	print_options(c->extensions, c->nextensions, 0);
	x_free(fp);
	x_free(cafp);
	x_free(v);
	cert_free(c);
	return 0;
}

/* "+5m", "-1d", "20240101", "20240101123000", "always", "forever". */
static int
parse_time(const char *s, uint64_t now, int is_end, uint64_t *tp)
{
	static const struct { char c; uint64_t mult; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
		{ 'w', 604800 },
	};
	struct tm tm;
	uint64_t total = 0, v;
	char *ep;
	size_t i, len;
	int sign;

	if (strcmp(s, "always") == 0 && !is_end) {
		*tp = 0;
		return 0;
	}
	if (strcmp(s, "forever") == 0 && is_end) {
		*tp = CERT_FOREVER;
		return 0;
	}
	if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		while (*s != '\0') {
			v = strtoull(s, &ep, 10);
			if (ep == s)
				return -1;
			s = ep;
			if (*s == '\0') {
				total += v;
				break;
			}
			for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
				if (tolower((unsigned char)*s) == units[i].c)
					break;
			if (i == sizeof(units) / sizeof(units[0]))
				return -1;
			total += v * units[i].mult;
			s++;
		}
		*tp = sign < 0 ? now - total : now + total;
		return 0;
	}
	len = strlen(s);
	if (len == 16 && strncmp(s, "0x", 2) == 0) {
		*tp = strtoull(s, &ep, 16);
		return *ep == '\0' ? 0 : -1;
	}
	memset(&tm, 0, sizeof(tm));
	if ((len != 8 && len != 12 && len != 14) ||
	    strspn(s, "0123456789") != len)
		return -1;
	if (sscanf(s, "%4d%2d%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday) != 3)
		return -1;
	if (len >= 12 && sscanf(s + 8, "%2d%2d", &tm.tm_hour, &tm.tm_min) != 2)
		return -1;
	if (len == 14 && sscanf(s + 12, "%2d", &tm.tm_sec) != 1)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	*tp = (uint64_t)mktime(&tm);
	return 0;
}

static int
parse_validity(const char *spec, struct key_cert *c)
{
	uint64_t now = (uint64_t)time(NULL);
	char *copy = x_strdup(spec), *colon;
	int r = 0;

	if ((colon = strchr(copy, ':')) == NULL) {
		c->valid_after = now - now % 60 - 60;
		r = parse_time(copy, now, 1, &c->valid_before);
	} else {
		*colon = '\0';
		if (parse_time(copy, now, 0, &c->valid_after) != 0 ||
		    parse_time(colon + 1, now, 1, &c->valid_before) != 0)
			r = -1;
	}
	x_free(copy);
	if (r == 0 && c->valid_before <= c->valid_after)
		r = -1;
	return r;
}

static int
apply_option(struct key_cert *c, const char *opt)
{
	struct sbuf *b;
	const char *eq;
	char *name;
	size_t i;
	int crit;

	if (strcasecmp(opt, "clear") == 0) {
		cert_clear_options(c, 0);
		cert_clear_options(c, 1);
		return 0;
	}
	for (i = 0; i < sizeof(ext_flags) / sizeof(ext_flags[0]); i++) {
		if (strcasecmp(opt, ext_flags[i].opt) != 0)
			continue;
		if (ext_flags[i].set)
			return cert_set_option(c, 0, ext_flags[i].ext, NULL, 0);
		/* Remove: rebuild the list without it. */
		{
			struct cert_option *o = c->extensions;
			size_t j, n = c->nextensions, k = 0;

			for (j = 0; j < n; j++) {
				if (strcmp(o[j].name, ext_flags[i].ext) == 0) {
					x_free(o[j].name);
					x_free(o[j].data);
				} else
					o[k++] = o[j];
			}
			c->nextensions = k;
		}
		return 0;
	}
	if (strcasecmp(opt, "verify-required") == 0)
		return cert_set_option(c, 1, "verify-required", NULL, 0);
	if (strncasecmp(opt, "force-command=", 14) == 0 ||
	    strncasecmp(opt, "source-address=", 15) == 0) {
		eq = strchr(opt, '=');
		name = x_strndup(opt, (size_t)(eq - opt));
		for (i = 0; name[i] != '\0'; i++)
			name[i] = (char)tolower((unsigned char)name[i]);
		b = sbuf_new();
		sbuf_put_cstring(b, eq + 1);
		cert_set_option(c, 1, name, sbuf_ptr(b), sbuf_len(b));
		sbuf_free(b);
		x_free(name);
		return 0;
	}
	if (strncasecmp(opt, "extension:", 10) == 0 ||
	    strncasecmp(opt, "critical:", 9) == 0) {
		crit = tolower((unsigned char)opt[0]) == 'c';
		opt = strchr(opt, ':') + 1;
		if ((eq = strchr(opt, '=')) == NULL)
			return cert_set_option(c, crit, opt, NULL, 0);
		name = x_strndup(opt, (size_t)(eq - opt));
		b = sbuf_new();
		sbuf_put_cstring(b, eq + 1);
		cert_set_option(c, crit, name, sbuf_ptr(b), sbuf_len(b));
		sbuf_free(b);
		x_free(name);
		return 0;
	}
	return -1;
}

/* Who signs: the CA's private key, or the agent holding it (-U). */
struct ca_signer {
	struct key *key;	/* private; public when the agent signs */
	int agent_fd;		/* -1 without -U */
	struct sbuf *blob;	/* the CA key, as the agent lists it */
};

static int
agent_signs(void *arg, const unsigned char *data, size_t len,
    const char *sigalg, struct sbuf *sig)
{
	const struct ca_signer *s = arg;

	return agent_sign(s->agent_fd, sbuf_ptr(s->blob), sbuf_len(s->blob),
	    data, len, sigalg, sig);
}

/* -U: the agent, and the CA public key it must hold. 0, or -1. */
static int
ca_from_agent(const struct kg_opts *o, struct ca_signer *s)
{
	char *sock = NULL;
	int is_cert;

	(void)agent_socket_path(NULL, &sock);
	if (sock == NULL) {
		kg_error("Cannot use public key for CA signature: agent not "
		    "present");
		return -1;
	}
	if (agent_connect(sock, &s->agent_fd) != 0) {
		kg_error("Cannot use public key for CA signature: %s",
		    strerror(errno));
		x_free(sock);
		return -1;
	}
	x_free(sock);
	if (kg_load_public_any(o->ca_key, &s->key, &is_cert, NULL) != 0) {
		kg_error("Cannot load CA public key %s: %s", o->ca_key,
		    strerror(ENOENT));
		return -1;
	}
	s->blob = sbuf_new();
	if (key_to_blob(s->key, s->blob) != 0 ||
	    !kg_agent_holds(s->agent_fd, s->blob)) {
		kg_error("CA key %s not found in agent", o->ca_key);
		return -1;
	}
	return 0;
}

static int
load_ca(const struct kg_opts *o, struct ca_signer *s)
{
	memset(s, 0, sizeof(*s));
	s->agent_fd = -1;
	if (o->require_agent)
		return ca_from_agent(o, s);
	return kg_load_private(o->ca_key, o->old_pass, &s->key, NULL, 1) == 0 ?
	    0 : -1;
}

static void
ca_clear(struct ca_signer *s)
{
	agent_close(s->agent_fd);
	key_free(s->key);
	sbuf_free(s->blob);
	memset(s, 0, sizeof(*s));
}

/*
 * -t with -s names the CA's signature algorithm; its key type (a short
 * name like "rsa" counts) must be the CA's, or OpenSSH refuses.
 */
static int
check_sigalg_type(const struct kg_opts *o, const struct key *ca)
{
	enum key_type t;
	int nid;

	if (o->type == NULL)
		return 0;
	if ((strcasecmp(o->type, "rsa") == 0 && ca->type == KEY_RSA) ||
	    (strcasecmp(o->type, "ecdsa") == 0 && ca->type == KEY_ECDSA) ||
	    (strcasecmp(o->type, "ed25519") == 0 && ca->type == KEY_ED25519))
		return 0;
	if (key_type_from_name(o->type, &t, &nid) == 0 && t == ca->type)
		return 0;
	kg_error("CA key type %s doesn't match specified %s",
	    key_type_name(ca), o->type);
	return -1;
}

/* Sign c for the key at path: 0, or -1 (reported). */
static int
certify(const struct kg_opts *o, struct ca_signer *ca, struct key_cert *c,
    const char *path)
{
	int r;

	if (o->type != NULL && !key_sigalg_matches(ca->key, o->type)) {
		/* OpenSSH's reasons, which differ by the CA's type */
		kg_error("Couldn't certify key %s: %s", path,
		    ca->key->type == KEY_RSA ? "invalid argument" :
		    "signature algorithm not supported");
		return -1;
	}
	r = ca->agent_fd >= 0 ? cert_sign_with(c, ca->key, o->type,
	    agent_signs, ca) : cert_sign(c, ca->key, o->type);
	if (r != 0) {
		kg_error("Couldn't certify key %s: %s", path, err_str(r));
		return -1;
	}
	return 0;
}

static char *
cert_path(const char *pub)
{
	size_t len = strlen(pub);

	if (len > 4 && strcmp(pub + len - 4, ".pub") == 0)
		return x_asprintf("%.*s-cert.pub", (int)(len - 4), pub);
	return x_asprintf("%s-cert.pub", pub);
}

int
kg_sign_certs(struct kg_opts *o)
{
	struct ca_signer ca;
	struct key *k = NULL;
	struct key_cert *c = NULL;
	char *comment = NULL, *out = NULL, *text = NULL, *v = NULL, *list;
	char *p, *save;
	unsigned long long serial = 0;
	int i, is_cert, ret = 255;
	size_t j;
	FILE *f;

	if (load_ca(o, &ca) != 0) {
		ca_clear(&ca);
		return 255;
	}
	if (check_sigalg_type(o, ca.key) != 0) {
		ca_clear(&ca);
		return 255;
	}
	if (o->have_serial) {
		char *ep;

		errno = 0;
		serial = strtoull(o->serial, &ep, 10);
		if (*o->serial == '\0' || *ep != '\0' || errno != 0) {
			kg_error("Invalid serial number \"%s\"", o->serial);
			goto out;
		}
	}
	for (i = 0; i < o->nargs; i++) {
		if (kg_load_public_any(o->args[i], &k, &is_cert,
		    &comment) != 0) {
			kg_error("load pubkey \"%s\": %s", o->args[i],
			    strerror(ENOENT));
			goto out;
		}
		if (is_cert) {
			kg_error("do_ca_sign: key \"%s\" type %s-CERT cannot "
			    "be certified", o->args[i], short_type(k));
			goto out;
		}
		if (cert_new(k, o->host_cert ? CERT_TYPE_HOST :
		    CERT_TYPE_USER, &c) != 0)
			goto out;
		x_free(c->key_id);
		c->key_id = x_strdup(o->key_id);
		c->serial = serial;
		if (o->principals != NULL) {
			list = x_strdup(o->principals);
			for (p = strtok_r(list, ",", &save); p != NULL;
			    p = strtok_r(NULL, ",", &save))
				cert_add_principal(c, p);
			x_free(list);
		}
		if (!o->host_cert)
			for (j = 0; j < NDEFAULT_EXTS; j++)
				cert_set_option(c, 0, default_exts[j], NULL, 0);
		for (j = 0; j < o->ncertopts; j++) {
			if (apply_option(c, o->certopts[j]) != 0) {
				kg_error("Unsupported certificate option "
				    "\"%s\"", o->certopts[j]);
				goto out;
			}
		}
		if (o->validity != NULL && parse_validity(o->validity, c) != 0) {
			kg_error("Invalid certificate life specification %s",
			    o->validity);
			goto out;
		}
		if (certify(o, &ca, c, o->args[i]) != 0)
			goto out;
		out = cert_path(o->args[i]);
		text = cert_public_text(c);
		if ((f = fopen(out, "w")) == NULL) {
			kg_error("Could not open \"%s\" for writing: %s.", out,
			    strerror(errno));
			goto out;
		}
		fprintf(f, "%s%s%s\n", text, comment && *comment ? " " : "",
		    comment ? comment : "");
		fclose(f);
		if (!o->quiet) {
			v = validity_text(c);
			kg_error("Signed %s key %s: id \"%s\" serial "
			    "%llu%s%s valid %s",
			    o->host_cert ? "host" : "user", out, c->key_id,
			    serial, o->principals ? " for " : "",
			    o->principals ? o->principals : "", v);
			x_free(v);
			v = NULL;
		}
		x_free(out);
		x_free(text);
		x_free(comment);
		out = text = comment = NULL;
		cert_free(c);
		key_free(k);
		c = NULL;
		k = NULL;
	}
	ret = 0;
 out:
	x_free(out);
	x_free(text);
	x_free(comment);
	cert_free(c);
	key_free(k);
	ca_clear(&ca);
	return ret;
}
