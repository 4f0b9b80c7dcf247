/*
 * clienthostkeys.c: UpdateHostKeys (see clienthostkeys.h), step by step
 * as OpenSSH's client does it, with its log lines:
 *
 *  1. hostkeys-00 arrives: keep the keys HostKeyAlgorithms allows
 *     (unknown types and certificates skipped, a key twice is an error).
 *  2. Read the user's known_hosts files for this host's lines: which of
 *     the server's keys are there already, and which keys the lines hold
 *     that the server no longer lists (deprecated). Give up when a line
 *     for the host has a marker or a pattern (wildcards, more than two
 *     names), when one of the keys appears under another name, or when
 *     a deprecated key is also recorded for other names.
 *  3. New keys: ask the server to prove them (hostkeys-prove-00); each
 *     signature must verify over hkproof_data(), RSA ones with an
 *     rsa-sha2 algorithm (or the exchange's own RSA algorithm), or
 *     nothing is written.
 *  4. Say what changes ("Learned new hostkey", "Deprecating obsolete
 *     hostkey"), ask when UpdateHostKeys=ask, and rewrite the files with
 *     hostfile_replace_entries(): new keys go to the first file, hashed
 *     when HashKnownHosts is on; deprecated ones leave every file.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "cert.h"
#include "channel.h"
#include "clienthostkeys.h"
#include "err.h"
#include "hkproof.h"
#include "hostcheck.h"
#include "hostfile.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport.h"

#define ASK_PROMPT	"Accept updated hostkeys? (yes/no): "

struct client_hostkeys {
	struct client_opts *o;
	char *host_str;		/* the host as known_hosts names it */
	struct transport *t;
	const char *files[CO_MAX_LIST];	/* the user's known_hosts files */
	size_t nfiles;
	client_prompt_fn prompt;
	void *prompt_arg;
	int seen;		/* hostkeys-00 taken once */
	int complete;		/* nothing more to do on this connection */

	/* The update under way. */
	struct key **keys;	/* the server's keys we consider */
	unsigned int *match;	/* per key: HOSTFILE_MATCH_* found */
	int *verified;		/* per key: proven by the server */
	size_t nkeys, nnew, nincomplete;
	struct key **old;	/* known for the host, no longer listed */
	size_t nold;
	int complex_hostspec;	/* marker, wildcard or long host list */
	int other_name_seen;	/* a server key known under another name */
	int old_key_seen;	/* a deprecated key known elsewhere too */
};

static void
clear_update(struct client_hostkeys *h)
{
	hostfile_keys_free(h->keys, h->nkeys);
	hostfile_keys_free(h->old, h->nold);
	x_free(h->match);
	x_free(h->verified);
	h->keys = h->old = NULL;
	h->match = NULL;
	h->verified = NULL;
	h->nkeys = h->nnew = h->nincomplete = h->nold = 0;
	h->complex_hostspec = h->other_name_seen = h->old_key_seen = 0;
}

struct client_hostkeys *
client_hostkeys_new(struct client_opts *o, const char *host, int port)
{
	struct client_hostkeys *h = x_calloc(1, sizeof(*h));
	char *p;
	size_t i;

	h->o = o;
	if (o->host_key_alias != NULL)
		h->host_str = x_strdup(o->host_key_alias);
	else
		h->host_str = hostfile_host_name(host != NULL ? host : "",
		    port);
	for (p = h->host_str; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	for (i = 0; i < o->nuser_known_hosts_files; i++)
		if (strcmp(o->user_known_hosts_files[i], "none") != 0)
			h->files[h->nfiles++] = o->user_known_hosts_files[i];
	h->prompt = client_read_passphrase;
	h->prompt_arg = o;
	return h;
}

void
client_hostkeys_free(struct client_hostkeys *h)
{
	if (h == NULL)
		return;
	clear_update(h);
	x_free(h->host_str);
	x_free(h);
}

void
client_hostkeys_set_prompt(struct client_hostkeys *h, client_prompt_fn fn,
    void *arg)
{
	h->prompt = fn;
	h->prompt_arg = arg;
}

/* OpenSSH's can_update_hostkeys(). */
static int
can_update(const struct client_hostkeys *h)
{
	if (h->complete)
		return 0;
	if (h->o->update_host_keys == 2 && h->o->batch_mode > 0)
		return 0;	/* would have to ask */
	return h->o->update_host_keys != 0 && h->nfiles > 0;
}

/* HostKeyAlgorithms allows the key (any rsa-sha2 one for RSA keys). */
static int
alg_allowed(const struct client_opts *o, const struct key *k)
{
	const char *list = o->hostkey_algorithms;

	if (list == NULL)
		return 1;
	if (k->type == KEY_RSA &&
	    (match_pattern_list("rsa-sha2-256", list, 0) == 1 ||
	    match_pattern_list("rsa-sha2-512", list, 0) == 1))
		return 1;
	return match_pattern_list(key_type_name(k), list, 0) == 1;
}

/* The type name a blob starts with, if a certificate's (caller frees). */
static char *
blob_cert_name(const unsigned char *blob, size_t len)
{
	struct sbuf *b = sbuf_from(blob, len);
	char *name = NULL;

	if (b == NULL || sbuf_get_cstring(b, &name, NULL) != 0 ||
	    cert_sigalg_base(name) == NULL) {
		x_free(name);
		name = NULL;
	}
	sbuf_free(b);
	return name;
}

/* Step 1: one key of the list; ERR_PROTOCOL ends the update. */
static int
take_key(struct client_hostkeys *h, const unsigned char *blob, size_t len)
{
	struct key *k = NULL;
	char *fp;
	size_t i;
	int r;

	if ((fp = blob_cert_name(blob, len)) != NULL) {
		log_debug3("client_input_hostkeys: %s key is a certificate; "
		    "skipping", fp);
		x_free(fp);
		return 0;
	}
	if ((r = key_from_blob(blob, len, &k)) != 0) {
		log_msg(r == ERR_KEY_TYPE_UNKNOWN ? LOG_LEVEL_DEBUG1 :
		    LOG_LEVEL_ERROR, "client_input_hostkeys: convert key: %s",
		    err_str(r));
		return 0;
	}
	fp = key_fingerprint(k, KEY_FP_SHA256);
	log_debug3("client_input_hostkeys: received %s key %s",
	    hostcheck_key_label(k), fp ? fp : "?");
	x_free(fp);
	if (!alg_allowed(h->o, k)) {
		log_debug3("client_input_hostkeys: %s key not permitted by "
		    "HostkeyAlgorithms", key_type_name(k));
		key_free(k);
		return 0;
	}
	for (i = 0; i < h->nkeys; i++) {
		if (key_equal_public(k, h->keys[i])) {
			log_error("client_input_hostkeys: received duplicated "
			    "%s host key", key_type_name(k));
			key_free(k);
			return ERR_PROTOCOL;
		}
	}
	h->keys = x_reallocarray(h->keys, h->nkeys + 1, sizeof(*h->keys));
	h->keys[h->nkeys++] = k;
	return 0;
}

/* A known_hosts field OpenSSH never writes: wildcards, 3+ names. */
static int
hostspec_is_complex(const char *hosts)
{
	const char *comma;

	if (strchr(hosts, '*') != NULL || strchr(hosts, '?') != NULL)
		return 1;
	if ((comma = strchr(hosts, ',')) == NULL)
		return 0;
	return strchr(comma + 1, ',') != NULL;
}

/* Step 2: a line of the user's known_hosts. */
static int
find_line(struct hostfile_line *l, void *arg)
{
	struct client_hostkeys *h = arg;
	size_t i;

	if (l->key == NULL)
		return 0;
	if (l->status != HOSTFILE_LINE_MATCHED) {
		for (i = 0; i < h->nkeys; i++) {
			if (!key_equal_public(l->key, h->keys[i]))
				continue;
			h->other_name_seen = 1;
			log_debug3("hostkeys_find: found %s key under "
			    "different name/addr at %s:%lu",
			    key_type_name(h->keys[i]), l->path, l->lineno);
			return 0;
		}
		return 0;
	}
	if (l->marker != HOSTFILE_MARK_NONE) {
		log_debug3("hostkeys_find: hostkeys file %s:%lu has "
		    "CA/revocation marker", l->path, l->lineno);
		h->complex_hostspec = 1;
		return 0;
	}
	if (hostspec_is_complex(l->hosts)) {
		log_debug3("hostkeys_find: hostkeys file %s:%lu complex host "
		    "specification", l->path, l->lineno);
		h->complex_hostspec = 1;
		return 0;
	}
	for (i = 0; i < h->nkeys; i++) {
		if (!key_equal_public(l->key, h->keys[i]))
			continue;
		log_debug3("hostkeys_find: found %s key at %s:%lu",
		    key_type_name(h->keys[i]), l->path, l->lineno);
		h->match[i] |= l->match;
		return 0;
	}
	log_debug3("hostkeys_find: deprecated %s key at %s:%lu",
	    key_type_name(l->key), l->path, l->lineno);
	h->old = x_reallocarray(h->old, h->nold + 1, sizeof(*h->old));
	h->old[h->nold++] = l->key;
	l->key = NULL;
	return 0;
}

/* Step 2: a deprecated key also recorded for another host. */
static int
check_old_line(struct hostfile_line *l, void *arg)
{
	struct client_hostkeys *h = arg;
	size_t i;
	int hashed;

	if (l->status == HOSTFILE_LINE_MATCHED || l->key == NULL)
		return 0;
	hashed = l->hosts != NULL && l->hosts[0] == '|';
	for (i = 0; i < h->nold; i++) {
		if (!key_equal_public(l->key, h->old[i]))
			continue;
		log_debug3("hostkeys_check_old: found deprecated %s key at "
		    "%s:%lu as %s", key_type_name(h->old[i]), l->path,
		    l->lineno, hashed ? "[HASHED]" : l->hosts);
		h->old_key_seen = 1;
		break;
	}
	return 0;
}

/* Walk the user's files with fn; logs as OpenSSH's callers do. */
static int
walk_files(struct client_hostkeys *h, const char *who, int level,
    hostfile_line_fn fn)
{
	size_t i;
	int r;

	for (i = 0; i < h->nfiles; i++) {
		log_msg(level, "%s: searching %s for %s / (none)", who,
		    h->files[i], h->host_str);
		r = hostfile_foreach(h->files[i], h->host_str, NULL, fn, h);
		if (r == ERR_NOT_FOUND) {
			log_debug("%s: hostkeys file %s does not exist", who,
			    h->files[i]);
			continue;
		}
		if (r != 0) {
			log_error("%s: hostkeys_foreach failed for %s: %s",
			    who, h->files[i], err_str(r));
			return r;
		}
	}
	return 0;
}

/* Switch the terminal to line mode while asking (it may be raw). */
static int
ask_user(struct client_hostkeys *h, char **answerp)
{
	struct termios saved, cooked;
	int fd, r, restore = 0;

	if ((fd = open("/dev/tty", O_RDWR | O_CLOEXEC)) != -1 &&
	    tcgetattr(fd, &saved) == 0 && !(saved.c_lflag & ICANON)) {
		cooked = saved;
		cooked.c_lflag |= ICANON | ECHO | ECHOE | ECHOK | ISIG;
		cooked.c_iflag |= ICRNL;
		cooked.c_oflag |= OPOST | ONLCR;
		restore = tcsetattr(fd, TCSADRAIN, &cooked) == 0;
	}
	r = h->prompt(h->prompt_arg, ASK_PROMPT, 1, answerp);
	if (restore)
		(void)tcsetattr(fd, TCSADRAIN, &saved);
	if (fd != -1)
		close(fd);
	return r;
}

/* UpdateHostKeys=ask: 1 when the user says yes. */
static int
confirm(struct client_hostkeys *h, int level)
{
	char *answer = NULL;
	int i, yes = 0;

	for (i = 0; i < 3; i++) {
		if (ask_user(h, &answer) != 0 || answer == NULL)
			break;
		if (strcasecmp(answer, "yes") == 0) {
			yes = 1;
			break;
		}
		if (strcasecmp(answer, "no") == 0)
			break;
		log_msg(level, "Please enter \"yes\" or \"no\"");
		x_free(answer);
		answer = NULL;
	}
	x_free(answer);
	return yes;
}

static void
preamble(int level, int *first, int asking)
{
	if (*first && asking) {
		log_msg(level, "The server has updated its host keys.");
		log_msg(level, "These changes were verified by the server's "
		    "existing trusted key.");
	}
	*first = 0;
}

/* Step 4: say what changes, maybe ask, and rewrite the files. */
static int
update_known_hosts(struct client_hostkeys *h)
{
	struct client_opts *o = h->o;
	int asking = o->update_host_keys == 2, first = 1, r, ret = 0;
	int level = asking ? LOG_LEVEL_INFO : LOG_LEVEL_VERBOSE;
	struct stat st;
	char *fp;
	size_t i;

	for (i = 0; i < h->nkeys + h->nold; i++) {
		const struct key *k = i < h->nkeys ? h->keys[i] :
		    h->old[i - h->nkeys];

		if (i < h->nkeys && !h->verified[i])
			continue;
		fp = key_fingerprint(k, KEY_FP_SHA256);
		preamble(level, &first, asking);
		log_msg(level, "%s hostkey: %s %s", i < h->nkeys ?
		    "Learned new" : "Deprecating obsolete",
		    hostcheck_key_label(k), fp ? fp : "?");
		x_free(fp);
	}
	if (asking && !confirm(h, level))
		o->update_host_keys = 0;
	if (o->update_host_keys == 0)
		return ERR_PERMISSION_DENIED;
	for (i = 0; i < h->nfiles; i++) {
		/* New keys go to the first file; the others only lose. */
		if (stat(h->files[i], &st) != 0) {
			if (errno == ENOENT)
				log_debug("update_known_hosts: known hosts "
				    "file %s does not exist", h->files[i]);
			else
				log_error("update_known_hosts: known hosts "
				    "file %s inaccessible: %s", h->files[i],
				    strerror(errno));
			continue;
		}
		r = hostfile_replace_entries(h->files[i], h->host_str, NULL,
		    i == 0 ? h->keys : NULL, i == 0 ? h->nkeys : 0,
		    o->hash_known_hosts > 0, 0);
		if (r != 0) {
			log_error("update_known_hosts: hostfile_replace_entries "
			    "failed for %s: %s", h->files[i], err_str(r));
			ret = r;
		}
	}
	return ret;
}

/* Step 2's verdict: 1 to go on, 0 to stop (logged). */
static int
worth_updating(struct client_hostkeys *h)
{
	if (h->nnew == 0 && h->nold == 0) {
		log_debug("client_input_hostkeys: no new or deprecated keys "
		    "from server");
		return 0;
	}
	if (h->complex_hostspec) {
		log_debug("client_input_hostkeys: CA/revocation marker, "
		    "manual host list or wildcard host pattern found, "
		    "skipping UserKnownHostsFile update");
		return 0;
	}
	if (h->other_name_seen) {
		log_debug("client_input_hostkeys: host key found matching a "
		    "different name/address, skipping UserKnownHostsFile "
		    "update");
		return 0;
	}
	if (h->nold == 0)
		return 1;
	log_debug2("check_old_keys_othernames: checking for %zu deprecated "
	    "keys", h->nold);
	if (walk_files(h, "check_old_keys_othernames", LOG_LEVEL_DEBUG3,
	    check_old_line) != 0)
		return 0;
	if (h->old_key_seen) {
		log_debug("client_input_hostkeys: key(s) for %s exist under "
		    "other names; skipping UserKnownHostsFile update",
		    h->host_str);
		return 0;
	}
	return 1;
}

int
client_hostkeys_input(struct client_hostkeys *h, struct sbuf *body,
    struct sbuf *prove)
{
	const unsigned char *blob;
	struct sbuf *kb = NULL;
	size_t len, i;
	int r = 0;

	clear_update(h);
	while (sbuf_len(body) > 0) {
		if ((r = sbuf_get_string_direct(body, &blob, &len)) != 0) {
			log_error("client_input_hostkeys: parse key: %s",
			    err_str(r));
			goto done;
		}
		if ((r = take_key(h, blob, len)) != 0)
			goto done;
	}
	if (h->nkeys == 0) {
		log_debug("client_input_hostkeys: server sent no hostkeys");
		goto done;
	}
	h->match = x_calloc(h->nkeys, sizeof(*h->match));
	h->verified = x_calloc(h->nkeys, sizeof(*h->verified));
	if ((r = walk_files(h, "client_input_hostkeys", LOG_LEVEL_DEBUG1,
	    find_line)) != 0)
		goto done;
	for (i = 0; i < h->nkeys; i++) {
		h->nnew += h->match[i] == 0;
		h->nincomplete += (h->match[i] & HOSTFILE_MATCH_HOST) == 0;
	}
	/* (The "retained" figure is OpenSSH's, wrap-around and all.) */
	log_debug3("client_input_hostkeys: %zu server keys: %zu new, %zu "
	    "retained, %zu incomplete match. %zu to remove", h->nkeys,
	    h->nnew, h->nkeys - h->nnew - h->nincomplete, h->nincomplete,
	    h->nold);
	if (!worth_updating(h))
		goto done;
	if (h->nnew == 0) {
		r = update_known_hosts(h);
		goto done;
	}
	log_debug3("client_input_hostkeys: asking server to prove ownership "
	    "for %zu keys", h->nnew);
	kb = sbuf_new();
	for (i = 0; i < h->nkeys; i++) {
		if (h->match[i] != 0)
			continue;
		sbuf_reset(kb);
		if ((r = key_to_blob(h->keys[i], kb)) != 0 ||
		    (r = sbuf_put_stringb(prove, kb)) != 0)
			goto done;
	}
	sbuf_free(kb);
	return CLIENT_HOSTKEYS_PROVE;
 done:
	sbuf_free(kb);
	clear_update(h);
	h->complete = 1;
	return r;
}

/* The algorithm an RSA proof must use; NULL: any rsa-sha2 one. */
static const char *
rsa_kex_alg(const char *kex_alg)
{
	const char *base;
	enum key_type type;
	int nid;

	if (kex_alg == NULL)
		return NULL;
	base = cert_sigalg_base(kex_alg) != NULL ? cert_sigalg_base(kex_alg) :
	    kex_alg;
	if (key_type_from_name(base, &type, &nid) != 0 || type != KEY_RSA)
		return NULL;
	return base;
}

/* Step 3: the proof of key i, next in body. */
static int
check_proof(struct client_hostkeys *h, size_t i, struct sbuf *body,
    const unsigned char *sid, size_t sidlen, const char *rsa_alg)
{
	struct sbuf *data = sbuf_new();
	const unsigned char *sig;
	const char *label = hostcheck_key_label(h->keys[i]);
	char *alg = NULL;
	size_t siglen;
	int r, rsa = h->keys[i]->type == KEY_RSA;

	if ((r = hkproof_data(sid, sidlen, h->keys[i], data)) != 0)
		goto out;
	if ((r = sbuf_get_string_direct(body, &sig, &siglen)) != 0) {
		log_error("client_global_hostkeys_prove_confirm: parse sig: "
		    "%s", err_str(r));
		goto out;
	}
	if ((r = key_sig_alg(sig, siglen, &alg)) != 0) {
		log_error("client_global_hostkeys_prove_confirm: server gave "
		    "unintelligible signature for %s key %zu: %s", label, i,
		    err_str(r));
		goto out;
	}
	if (rsa && rsa_alg == NULL &&
	    match_pattern_list(alg, "rsa-sha2-512,rsa-sha2-256", 0) != 1) {
		log_debug("client_global_hostkeys_prove_confirm: server used "
		    "untrusted RSA signature algorithm %s for key %zu, "
		    "disregarding", alg, i);
		key_free(h->keys[i]);	/* not learnt, not kept either */
		h->keys[i] = NULL;
		goto out;
	}
	log_debug3("client_global_hostkeys_prove_confirm: verify %s key %zu "
	    "using sigalg %s", label, i, alg);
	if ((r = key_verify(h->keys[i], sig, siglen, sbuf_ptr(data),
	    sbuf_len(data), rsa ? rsa_alg : NULL)) != 0) {
		log_error("client_global_hostkeys_prove_confirm: server gave "
		    "bad signature for %s key %zu: %s", label, i, err_str(r));
		goto out;
	}
	h->verified[i] = 1;
 out:
	x_free(alg);
	sbuf_free(data);
	return r;
}

int
client_hostkeys_proofs(struct client_hostkeys *h, int ok, struct sbuf *body,
    const unsigned char *sid, size_t sidlen, const char *kex_alg)
{
	const char *rsa_alg = rsa_kex_alg(kex_alg);
	size_t i;
	int r = ERR_PROTOCOL;

	if (h->keys == NULL || h->match == NULL) {
		r = ERR_INVALID_ARGUMENT;	/* no proofs were asked for */
		goto done;
	}
	if (!ok || body == NULL) {
		log_error("Server failed to confirm ownership of private host "
		    "keys");
		r = ERR_PERMISSION_DENIED;
		goto done;
	}
	for (i = 0; i < h->nkeys; i++) {
		if (h->match[i] != 0)
			continue;
		if ((r = check_proof(h, i, body, sid, sidlen, rsa_alg)) != 0)
			goto done;
	}
	if (sbuf_len(body) != 0) {
		log_error("client_global_hostkeys_prove_confirm: protocol "
		    "error");
		r = ERR_PROTOCOL;
		goto done;
	}
	r = update_known_hosts(h);
 done:
	clear_update(h);
	h->complete = 1;
	return r;
}

static void
on_proofs(struct chan_set *cs, void *arg, int ok, struct sbuf *body)
{
	struct client_hostkeys *h = arg;
	const unsigned char *sid;
	size_t sidlen;

	(void)cs;
	sid = tr_session_id(h->t, &sidlen);
	(void)client_hostkeys_proofs(h, ok, body, sid, sidlen,
	    tr_negotiated(h->t, "hostkey"));
}

/* hostkeys-00@openssh.com from the server; always "accepted". */
static int
on_hostkeys(struct chan_set *cs, void *arg, struct sbuf *body,
    struct sbuf *reply)
{
	struct client_hostkeys *h = arg;
	struct sbuf *prove, *b;
	int r;

	(void)reply;
	if (h->seen) {
		log_error("client_input_hostkeys: server already sent "
		    "hostkeys");
		(void)tr_disconnect(h->t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "server already sent hostkeys");
		return ERR_PROTOCOL;
	}
	if (!can_update(h))
		return 0;
	h->seen = 1;
	prove = sbuf_new();
	if (client_hostkeys_input(h, body, prove) == CLIENT_HOSTKEYS_PROVE) {
		if ((b = chan_global_start(cs, HKPROOF_PROVE, 1, on_proofs,
		    h)) == NULL || (r = sbuf_putb(b, prove)) != 0 ||
		    (r = chan_msg_send(cs)) != 0) {
			log_error("client_input_hostkeys: send "
			    "hostkeys-prove");
			clear_update(h);
			h->complete = 1;
		}
	}
	sbuf_free(prove);
	return 0;
}

int
client_hostkeys_setup(struct client_hostkeys *h, struct chan_set *cs,
    struct transport *t)
{
	h->t = t;
	return chan_set_global(cs, HKPROOF_HOSTKEYS, on_hostkeys, h);
}
