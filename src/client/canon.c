/*
 * canon.c: hostname canonicalisation for ssh(1) (ssh_config(5):
 * CanonicalizeHostname, CanonicalDomains, CanonicalizeFallbackLocal,
 * CanonicalizeMaxDots, CanonicalizePermittedCNAMEs).
 *
 * An address is always written back in its numeric form ("127.1" becomes
 * "127.0.0.1"). With canonicalisation on, a name ending in '.' is looked
 * up as it is; a name with no more dots than CanonicalizeMaxDots is
 * tried under each of CanonicalDomains in turn ("name.domain."), the
 * first that resolves winning. A CNAME the resolver reports replaces the
 * name when a CanonicalizePermittedCNAMEs rule allows both the name and
 * the target. Nothing found: the name stays as it was, or, with
 * CanonicalizeFallbackLocal off, ssh stops. Names that go to a proxy are
 * left alone unless CanonicalizeHostname is "always".
 */
#include <sys/socket.h>

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"

/*
 * A numeric address: its canonical text in out; 0, or
 * ERR_INVALID_FORMAT when name is not one (a host name, then).
 */
static int
numeric_form(const char *name, char *out, size_t outlen)
{
	struct addrinfo hints, *res = NULL;
	int r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return ERR_INVALID_FORMAT;
	r = getnameinfo(res->ai_addr, res->ai_addrlen, out, outlen, NULL, 0,
	    NI_NUMERICHOST) == 0 ? 0 : ERR_INVALID_FORMAT;
	freeaddrinfo(res);
	return r;
}

/*
 * Look name up; 0 and its canonical name (the CNAME target, if any) in
 * cname, or ERR_NOT_FOUND. logerr: say why at ERROR, else at DEBUG.
 */
static int
lookup(const struct client_opts *o, const char *name, int logerr,
    char *cname, size_t clen)
{
	struct addrinfo hints, *res = NULL;
	int gr;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = o->address_family > 0 ? o->address_family :
	    AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_CANONNAME;
	log_debug3("resolve_host: lookup %s", name);
	if ((gr = getaddrinfo(name, "22", &hints, &res)) != 0) {
		log_msg(logerr ? LOG_LEVEL_ERROR : LOG_LEVEL_DEBUG1,
		    "ssh: Could not resolve hostname %s: %s", name,
		    gai_strerror(gr));
		return ERR_NOT_FOUND;
	}
	cname[0] = '\0';
	if (res->ai_canonname != NULL)
		snprintf(cname, clen, "%s", res->ai_canonname);
	freeaddrinfo(res);
	return 0;
}

/* A CNAME a rule allows replaces *namep; 1 if it did. */
static int
follow_cname(const struct client_opts *o, char **namep, const char *cname,
    int direct)
{
	char *src, *colon;
	size_t i;
	int ok;

	if (o->ncanonical_cnames == 0 || cname[0] == '\0' ||
	    strcmp(*namep, cname) == 0 || o->canonicalize_hostname <= 0 ||
	    (!direct && o->canonicalize_hostname != 2))
		return 0;
	log_debug2("check_follow_cname: check \"%s\" CNAME \"%s\"", *namep,
	    cname);
	for (i = 0; i < o->ncanonical_cnames; i++) {
		src = x_strdup(o->canonical_cnames[i]);
		if ((colon = strchr(src, ':')) == NULL) {
			x_free(src);
			continue;
		}
		*colon = '\0';
		ok = match_pattern_list(*namep, src, 1) == 1 &&
		    match_pattern_list(cname, colon + 1, 1) == 1;
		x_free(src);
		if (!ok)
			continue;
		log_verbose("Canonicalized DNS aliased hostname \"%s\" => "
		    "\"%s\"", *namep, cname);
		x_free(*namep);
		*namep = x_strdup(cname);
		return 1;
	}
	return 0;
}

/* The suffixes of CanonicalDomains; 1 if one gave a name. */
static int
try_domains(const struct client_opts *o, char **hostp, int direct)
{
	char cname[NI_MAXHOST], *full;
	size_t i;

	for (i = 0; i < o->ncanonical_domains; i++) {
		full = x_asprintf("%s.%s.", *hostp, o->canonical_domains[i]);
		log_debug3("resolve_canonicalize: attempting \"%s\" => "
		    "\"%s\"", *hostp, full);
		if (lookup(o, full, 0, cname, sizeof(cname)) != 0) {
			x_free(full);
			continue;
		}
		full[strlen(full) - 1] = '\0';
		if (!follow_cname(o, &full, cname, direct))
			log_debug("Canonicalized hostname \"%s\" => \"%s\"",
			    *hostp, full);
		x_free(*hostp);
		*hostp = full;
		return 1;
	}
	return 0;
}

static int
canonicalize_name(const struct client_opts *o, char **hostp, int direct)
{
	char cname[NI_MAXHOST], *full;
	const char *c;
	int ndots = 0;

	if ((*hostp)[0] != '\0' && (*hostp)[strlen(*hostp) - 1] == '.') {
		log_debug3("resolve_canonicalize: name is fully qualified");
		if (lookup(o, *hostp, 0, cname, sizeof(cname)) == 0) {
			full = x_strndup(*hostp, strlen(*hostp) - 1);
			if (!follow_cname(o, &full, cname, direct))
				log_debug("Canonicalized hostname \"%s\" => "
				    "\"%s\"", *hostp, full);
			x_free(*hostp);
			*hostp = full;
			return 1;
		}
	} else {
		for (c = *hostp; *c != '\0'; c++)
			ndots += *c == '.';
		/* (read before the defaults are filled in: 1 when unset) */
		if (ndots > (o->canonicalize_max_dots < 0 ? 1 :
		    o->canonicalize_max_dots)) {
			log_debug3("resolve_canonicalize: not canonicalizing "
			    "hostname \"%s\" (max dots %d)", *hostp,
			    o->canonicalize_max_dots < 0 ? 1 :
			    o->canonicalize_max_dots);
			return 0;
		}
		if (try_domains(o, hostp, direct))
			return 1;
	}
	if (o->canonicalize_fallback_local == 0) {
		log_error("ssh: Could not resolve host \"%s\"", *hostp);
		return ERR_NOT_FOUND;
	}
	log_debug2("resolve_canonicalize: host %s not found in any suffix",
	    *hostp);
	return 0;
}

int
client_canonicalize(const struct client_opts *o, char **hostp, int direct)
{
	char num[NI_MAXHOST], cname[NI_MAXHOST];
	int r = 0;

	if (numeric_form(*hostp, num, sizeof(num)) == 0) {
		log_debug2("resolve_canonicalize: hostname %.100s is address",
		    *hostp);
		if (strcasecmp(*hostp, num) != 0) {
			x_free(*hostp);
			*hostp = x_strdup(num);
		}
		return 0;
	}
	if (o->canonicalize_hostname > 0 &&
	    (direct || o->canonicalize_hostname == 2))
		r = canonicalize_name(o, hostp, direct);
	if (r < 0)
		return r;
	/* CNAMEs alone: the name as given, the resolver's search rules. */
	if (r == 0 && o->ncanonical_cnames != 0 &&
	    (direct || o->canonicalize_hostname == 2)) {
		if (lookup(o, *hostp, direct, cname, sizeof(cname)) != 0)
			return direct ? ERR_NOT_FOUND : 0;
		follow_cname(o, hostp, cname, direct);
	}
	return 0;
}
