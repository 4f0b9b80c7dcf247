/*
 * hostkeys.c: sshd's host keys and certificates, loaded at start-up by
 * the listener and again by each connection's process.
 *
 * A key that does not load is reported as OpenSSH reports it, at ERROR
 * for a HostKey line and DEBUG1 for a default file; sshd goes on while
 * one key remains. The log is still as the command line set it when
 * this runs (sshd.c: setup_config()), as in OpenSSH, so the file's
 * LogLevel does not hide these lines nor show more.
 */
#include <sys/stat.h>

#include "cert.h"
#include "err.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "servconf.h"
#include "sshd.h"

/* HostCertificate: each is paired with the host key it certifies. */
static void
load_hostcerts(struct server *s)
{
	const struct servconf *sc = s->sc;
	struct key_cert *c;
	size_t i, j;
	int r;

	for (j = 0; j < sc->nhost_certificates; j++) {
		if ((r = cert_load_public(sc->host_certificates[j], &c,
		    NULL)) != 0) {
			log_error("Could not load host certificate \"%s\": %s",
			    sc->host_certificates[j], err_str(r));
			continue;
		}
		for (i = 0; i < s->nhostkeys; i++)
			if (s->hostcerts[i] == NULL &&
			    key_equal_public(s->hostpub[i], c->key))
				break;
		if (i == s->nhostkeys || c->type != CERT_TYPE_HOST) {
			log_error("Certificate for %s doesn't match any "
			    "private key", sc->host_certificates[j]);
			cert_free(c);
			continue;
		}
		s->hostcerts[i] = c;
		log_debug("host certificate: #%zu type %s %s", i,
		    cert_type_name(c->key), c->key_id);
	}
}

/*
 * RequiredRSASize applies to host keys too: a smaller RSA key is left
 * out with OpenSSH's error line, and sshd starts only if another key
 * remains.
 */
static int
hostkey_too_small(const struct servconf *sc, const char *path,
    const struct key *k)
{
	if (k->type != KEY_RSA ||
	    key_bits(k) >= (unsigned int)sc->required_rsa_size)
		return 0;
	log_error("main: Host key %s: Invalid key length", path);
	return 1;
}

/*
 * Why a host key did not load, in OpenSSH's words: a missing file says
 * nothing more; a file others may read gets the warning box ssh-keygen
 * shows; a bad one names the reason as OpenSSH's error strings do. At
 * level ll (ERROR for HostKey lines, DEBUG1 for the default files).
 */
static void
hostkey_load_failed(const char *path, int r, int ll)
{
	struct stat st;
	unsigned int mode = 0;
	const char *why;

	if (r == ERR_SYSTEM)
		return;
	if (r == ERR_KEY_BAD_PERMISSIONS) {
		if (stat(path, &st) == 0)
			mode = (unsigned int)st.st_mode & 0777;
		log_error("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"
		    "@@@@@@@@");
		log_error("@         WARNING: UNPROTECTED PRIVATE KEY FILE!  "
		    "        @");
		log_error("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"
		    "@@@@@@@@");
		log_error("Permissions 0%3.3o for '%s' are too open.", mode,
		    path);
		log_error("It is required that your private key files are "
		    "NOT accessible by others.");
		log_error("This private key will be ignored.");
		why = "bad permissions";
	} else if (r == ERR_KEY_WRONG_PASSPHRASE)
		why = "incorrect passphrase supplied to decrypt private key";
	else if (r == ERR_KEY_UNKNOWN_CIPHER)
		why = "unknown or unsupported cipher";
	else if (r == ERR_KEY_TYPE_UNKNOWN)
		why = "unknown or unsupported key type";
	else
		/* Not a key OpenSSH's own format holds: libcrypto's turn. */
		why = "error in libcrypto";
	log_msg(ll, "Unable to load host key \"%s\": %s", path, why);
}

int
load_hostkeys(struct server *s)
{
	const struct servconf *sc = s->sc;
	int ll = s->default_hostkeys ? LOG_LEVEL_DEBUG1 : LOG_LEVEL_ERROR;
	size_t i;
	char *fp;
	int r;

	for (i = 0; i < sc->nhostkeys && s->nhostkeys < SC_MAX_LIST; i++) {
		struct key *k = NULL, *pub = NULL;

		if ((r = key_load_private(sc->hostkeys[i], NULL, 1, &k,
		    NULL)) != 0) {
			hostkey_load_failed(sc->hostkeys[i], r, ll);
			log_msg(ll, "Unable to load host key: %s",
			    sc->hostkeys[i]);
			continue;
		}
		if (hostkey_too_small(sc, sc->hostkeys[i], k)) {
			key_free(k);
			continue;
		}
		if ((r = key_demote(k, &pub)) != 0) {
			key_free(k);
			continue;
		}
		s->hostkeys[s->nhostkeys] = k;
		s->hostpub[s->nhostkeys] = pub;
		s->nhostkeys++;
		fp = key_fingerprint(pub, (enum key_fp_hash)sc->fingerprint_hash);
		log_debug("private host key #%zu: %s %s", i, key_type_name(k),
		    fp != NULL ? fp : "");
		x_free(fp);
	}
	if (s->nhostkeys == 0) {
		log_info("sshd: no hostkeys available -- exiting.");
		return ERR_CONFIG;
	}
	load_hostcerts(s);
	return 0;
}
