/*
 * readconf.c: ssh_config(5) for the client: command-line options, the
 * user's ~/.ssh/config and the system /etc/ssh/ssh_config, read in that
 * order into one struct client_opts where the first value obtained wins.
 *
 * A file is read line by line; "Host" and "Match" lines switch whether
 * the following lines apply (Host patterns against the host named on the
 * command line, Match criteria against the values known so far),
 * "Include" reads more files in place (a glob; relative names are under
 * ~/.ssh for user files and /etc/ssh for system files). Every other line
 * goes through the keyword table in readconf_kw.c. readconf_finish()
 * fills in the defaults, expands ~ and %-tokens and resolves the
 * algorithm lists.
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "conf_include.h"
#include "conf_match.h"
#include "err.h"
#include "installdirs.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "readconf_int.h"



static int load_file(struct client_opts *o, const char *path, int user_file);

struct client_opts *
client_opts_new(void)
{
	struct client_opts *o = x_calloc(1, sizeof(*o));
	struct rc_priv *p = x_calloc(1, sizeof(*p));
	struct passwd *pw;
	int *ints[] = {
		&o->port, &o->identities_only, &o->strict_host_key_checking,
		&o->hash_known_hosts, &o->check_host_ip, &o->connect_timeout,
		&o->server_alive_interval, &o->server_alive_count_max,
		&o->request_tty, &o->log_level, &o->batch_mode,
		&o->pubkey_authentication, &o->password_authentication,
		&o->kbd_interactive_authentication,
		&o->number_of_password_prompts, &o->escape_char,
		&o->compression, &o->address_family, &o->forward_agent,
		&o->tcp_keep_alive, &o->exit_on_forward_failure,
		&o->clear_all_forwardings, &o->control_master,
		&o->gateway_ports, &o->streamlocal_bind_mask,
		&o->streamlocal_bind_unlink, &o->visual_host_key, &o->update_host_keys,
		&o->verify_host_key_dns,
		&o->hostbased_authentication, &o->enable_ssh_keysign,
		&o->enable_escape_commandline, &o->warn_weak_crypto,
		&o->add_keys_to_agent, &o->add_keys_to_agent_lifespan,
		&o->connection_attempts, &o->stdin_null, &o->fork_after_auth,
		&o->session_type, &o->permit_local_command,
		&o->no_host_auth_localhost, &o->canonicalize_hostname,
		&o->canonicalize_fallback_local, &o->canonicalize_max_dots,
		&o->fingerprint_hash, &o->syslog_facility, &o->required_rsa_size,
		&o->forward_x11, &o->forward_x11_trusted, &o->forward_x11_timeout,
		&o->proxy_use_fdpass, &o->obscure_keystroke_timing,
		&o->tunnel, &o->tun_local, &o->tun_remote,
	};
	size_t i;

	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		*ints[i] = -1;
	o->rekey_bytes = UINT64_MAX;
	/* -1 is IPQoS "none": unset is -2. */
	o->ipqos_interactive = o->ipqos_bulk = -2;
	if ((pw = getpwuid(getuid())) != NULL) {
		p->local_user = x_strdup(pw->pw_name);
		p->home = x_strdup(pw->pw_dir);
	} else {
		p->local_user = x_asprintf("%lu", (unsigned long)getuid());
		p->home = x_strdup(getenv("HOME") ? getenv("HOME") : "/");
	}
	p->active = 1;
	o->priv = p;
	return o;
}

static void
free_arr(char **arr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x_free(arr[i]);
}

void
client_opts_free(struct client_opts *o)
{
	struct rc_priv *p;
	char **strs[] = {
		&o->host_arg, &o->hostname, &o->user, &o->ciphers, &o->macs,
		&o->kex_algorithms, &o->hostkey_algorithms,
		&o->pubkey_accepted_algorithms, &o->proxy_command,
		&o->proxy_jump, &o->preferred_authentications,
		&o->remote_command, &o->control_path, &o->control_persist, &o->bind_address,
		&o->host_key_alias, &o->stdio_forward_host,
		&o->hostbased_accepted_algorithms, &o->identity_agent,
		&o->forward_agent_sock, &o->xauth_location,
		&o->ignore_unknown, &o->local_command,
		&o->known_hosts_command, &o->revoked_host_keys,
		&o->ca_signature_algorithms, &o->pkcs11_provider,
		&o->security_key_provider, &o->log_verbose, &o->tag,
		&o->kbd_interactive_devices,
		&o->bind_interface,
	};
	size_t i;

	if (o == NULL)
		return;
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		x_free(*strs[i]);
	free_arr(o->identity_files, o->nidentity_files);
	free_arr(o->certificate_files, o->ncertificate_files);
	free_arr(o->user_known_hosts_files, o->nuser_known_hosts_files);
	free_arr(o->global_known_hosts_files, o->nglobal_known_hosts_files);
	free_arr(o->send_env, o->nsend_env);
	free_arr(o->set_env, o->nset_env);
	free_arr(o->local_forwards, o->nlocal_forwards);
	free_arr(o->remote_forwards, o->nremote_forwards);
	free_arr(o->dynamic_forwards, o->ndynamic_forwards);
	free_arr(o->canonical_domains, o->ncanonical_domains);
	free_arr(o->canonical_cnames, o->ncanonical_cnames);
	free_arr(o->permit_remote_open, o->npermit_remote_open);
	free_arr(o->channel_timeouts, o->nchannel_timeouts);
	if ((p = o->priv) != NULL) {
		x_free(p->match_host);
		x_free(p->local_user);
		x_free(p->home);
		free_arr(p->ident_written, p->nident_written);
		free_arr(p->cert_written, p->ncert_written);
		x_free(p);
	}
	x_free(o);
}

static const char *
cur_host(const struct client_opts *o)
{
	return o->hostname != NULL ? o->hostname :
	    (o->host_arg != NULL ? o->host_arg : "");
}

static int
run_exec(const struct client_opts *o, const char *cmd)
{
	char *ex = NULL;
	pid_t pid;
	int st, r;

	if ((r = readconf_expand(o, cmd, &ex)) != 0)
		return r;
	log_debug("Executing command: '%s'", ex);
	if ((pid = fork()) == -1) {
		x_free(ex);
		return ERR_SYSTEM;
	}
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", ex, (char *)NULL);
		_exit(127);
	}
	x_free(ex);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return ERR_SYSTEM;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

enum { MC_CANONICAL, MC_FINAL, MC_HOST, MC_ORIGINALHOST, MC_USER,
	MC_TAGGED, MC_LOCALUSER, MC_EXEC };

/* ssh_config's Match criteria ("all" is conf_match's own). */
static const struct conf_crit rc_crits[] = {
	{ "canonical", MC_CANONICAL, 0 }, { "final", MC_FINAL, 0 },
	{ "host", MC_HOST, 1 }, { "originalhost", MC_ORIGINALHOST, 1 },
	{ "user", MC_USER, 1 }, { "tagged", MC_TAGGED, 1 },
	{ "localuser", MC_LOCALUSER, 1 }, { "exec", MC_EXEC, 1 },
	{ NULL, 0, 0 } };

/* One criterion of a Match line against what is known so far. */
static int
match_test(void *ctx, const struct conf_crit *c, const char *arg,
    int so_far, const struct conf_at *at)
{
	struct client_opts *o = ctx;
	struct rc_priv *p = o->priv;

	switch (c->id) {
	case MC_FINAL:
		/*
		 * Both match on the second pass only. "final" seen anywhere
		 * (negated, or on a line that fails) asks for that pass even
		 * without canonicalisation.
		 */
		p->want_final = 1;
		/* FALLTHROUGH */
	case MC_CANONICAL:
		return p->canonical_pass;
	case MC_HOST:
		return match_pattern_list(cur_host(o), arg, 1) == 1;
	case MC_ORIGINALHOST:
		return match_pattern_list(o->host_arg ? o->host_arg : "", arg,
		    1) == 1;
	case MC_USER:
		return match_pattern_list(o->user != NULL ? o->user :
		    p->local_user, arg, 0) == 1;
	case MC_TAGGED:
		return o->tag != NULL &&
		    match_pattern_list(o->tag, arg, 0) == 1;
	case MC_LOCALUSER:
		return match_pattern_list(p->local_user, arg, 0) == 1;
	default:	/* MC_EXEC: OpenSSH skips exec once the line is false */
		return so_far ? run_exec(o, arg) : 0;
	}
}

/* Evaluate a Match line; 1 matches, 0 not, or an error. */
static int
match_line(struct client_opts *o, const struct conf_at *at)
{
	const struct conf_match m = { CONF_SSH, rc_crits, match_test, o };
	struct conf_at crit = *at;
	int r;

	crit.argv++;
	crit.argc--;
	if ((r = conf_match(&m, &crit)) < 0)
		return r;
	log_debug2("%s line %d: Match %s", at->src, at->line,
	    r ? "applies" : "does not apply");
	return r;
}

static int
host_line(struct client_opts *o, char **argv, int argc)
{
	const struct rc_priv *p = o->priv;
	const char *h = p->match_host != NULL ? p->match_host :
	    (o->host_arg != NULL ? o->host_arg : "");
	int i, any = 0, r;

	for (i = 1; i < argc; i++) {
		r = match_pattern_list(h, argv[i], 1);
		if (r == -1)
			return 0;
		if (r == 1)
			any = 1;
	}
	return any;
}

/* Host or Match: whether the lines after it apply. */
static int
switch_line(struct client_opts *o, const struct conf_at *at)
{
	struct rc_priv *p = o->priv;
	int r;

	if (tolower((unsigned char)at->argv[0][0]) == 'h') {
		if (at->argc < 2) {
			log_error("%s line %d: Missing argument.", at->src,
			    at->line);
			return ERR_CONFIG;
		}
		p->active = host_line(o, at->argv, at->argc);
		return 0;
	}
	if ((r = match_line(o, at)) < 0)
		return r;
	p->active = r;
	return 0;
}

/* The reader of an Include in the user's (or the system) file. */
struct rc_include {
	struct client_opts *o;
	int user_file;
};

static int
include_tilde(void *ctx, const char *name, char **outp)
{
	const struct rc_include *ri = ctx;

	return readconf_tilde(ri->o, name, outp) != 0 ? ERR_CONFIG : 0;
}

static int
include_read(void *ctx, const char *path)
{
	const struct rc_include *ri = ctx;
	struct rc_priv *p = ri->o->priv;
	int saved = p->active, r;

	r = load_file(ri->o, path, ri->user_file != 0);
	p->active = saved;
	return r == ERR_NOT_FOUND ? 0 : r;	/* gone since the glob */
}

/* Include: relative names under ~/.ssh (user file) or /etc/ssh. */
static int
include_line(struct client_opts *o, const struct conf_at *at, int user_file)
{
	struct rc_priv *p = o->priv;
	struct rc_include ri = { o, user_file };
	char *base = user_file ? x_asprintf("%s/.ssh", p->home) :
	    x_strdup(MOAT_SSHDIR);
	const struct conf_include inc = { CONF_SSH, base, &p->depth,
	    include_tilde, NULL, include_read, &ri };
	int r = 0;

	if (at->argc < 2 || p->active)
		r = conf_include(&inc, at);
	x_free(base);
	return r;
}

/*
 * A keyword we accept and ignore (kw, its row: noted as OpenSSH notes a
 * deprecated or unsupported one, quiet otherwise), one not in the table that
 * IgnoreUnknown (set by an earlier line) names, or an error. OpenSSH names it in lower
 * case in both messages and matches the patterns against that.
 */
static int
unknown_keyword(const struct client_opts *o, const struct conf_kw *kw,
    char **argv, int argc, const char *src, int line)
{
	char *lower = x_strdup(argv[0]), *c;
	int r = 0;

	for (c = lower; *c != '\0'; c++)
		*c = (char)tolower((unsigned char)*c);
	if (kw != NULL && kw->type == CK_DEPRECATED)
		log_debug("%s line %d: Deprecated option \"%s\"", src, line,
		    lower);
	else if (kw != NULL && kw->type == CK_UNSUPPORTED)
		/* OpenSSH's wording and level: seen without -v. */
		log_error("%s line %d: Unsupported option \"%s\"", src, line,
		    lower);
	else if (kw != NULL)	/* CK_IGNORE: quiet, as OpenSSH is */
		r = rc_kw_ignored_check(lower, argv, argc, src, line);
	else if (o->ignore_unknown != NULL &&
	    match_pattern_list(lower, o->ignore_unknown, 1) == 1)
		log_debug("%s line %d: Ignored unknown option \"%s\"", src,
		    line, lower);
	else {
		log_error("%s: line %d: Bad configuration option: %s", src,
		    line, lower);
		r = ERR_CONFIG;
	}
	x_free(lower);
	return r;
}

static int
parse_line(struct client_opts *o, const char *text, const char *src,
    int line, int in_file, int user_file)
{
	struct rc_priv *p = o->priv;
	char *buf = x_strdup(text);
	const struct conf_kw *kw;
	struct conf_line l;
	struct conf_at at;
	int r = 0;

	if ((r = conf_split(text, buf, CONF_LEX_SSH, &l)) != 0) {
		log_error("%s line %d: invalid quotes", src, line);
		goto out;
	}
	if (l.argc == 0)
		goto out;
	at = (struct conf_at){ l.argv, l.argc, l.rest, src, line };
	if (strcasecmp(l.argv[0], "host") == 0 ||
	    strcasecmp(l.argv[0], "match") == 0 ||
	    strcasecmp(l.argv[0], "include") == 0) {
		if (!in_file) {
			log_error("%s: %s is not allowed here", src,
			    tolower((unsigned char)l.argv[0][0]) == 'i' ?
			    "Include" : l.argv[0]);
			r = ERR_CONFIG;
		} else if (tolower((unsigned char)l.argv[0][0]) == 'i')
			r = include_line(o, &at, user_file);
		else
			r = switch_line(o, &at);
		goto out;
	}
	if ((kw = rc_kw_find(l.argv[0])) == NULL || conf_kw_is_noted(kw)) {
		r = unknown_keyword(o, kw, l.argv, l.argc, src, line);
		goto out;
	}
	if (p->active)
		r = rc_kw_apply(o, kw, l.argv, l.argc,
		    l.rest != NULL ? l.rest : "", src, line);
 out:
	conf_line_clear(&l);
	x_free(buf);
	if (r != 0)
		p->errors++;
	return r;
}

int
readconf_parse_line(struct client_opts *o, const char *line,
    const char *source, int lineno)
{
	return parse_line(o, line, source, lineno, 0, 0);
}

int
readconf_set(struct client_opts *o, const char *keyword, const char *value)
{
	const struct conf_kw *kw = rc_kw_find(keyword);
	char *argv[2];

	if (kw == NULL || conf_kw_is_noted(kw))
		return ERR_INVALID_ARGUMENT;
	argv[0] = (char *)keyword;
	argv[1] = (char *)value;
	return rc_kw_apply(o, kw, argv, 2, value, "command-line", 0);
}

static int
load_file(struct client_opts *o, const char *path, int user_file)
{
	struct rc_priv *p = o->priv;
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, r = 0, bad = 0;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return errno == ENOENT ? ERR_NOT_FOUND : ERR_SYSTEM;
	if (user_file == 2 && fstat(fileno(f), &st) == 0 &&
	    ((st.st_uid != 0 && st.st_uid != getuid()) ||
	    (st.st_mode & 022) != 0)) {
		log_error("Bad owner or permissions on %s", path);
		fclose(f);
		return ERR_CONFIG;
	}
	log_debug("Reading configuration data %s", path);
	p->active = 1;
	while (getline(&line, &cap, f) != -1) {
		lineno++;
		if ((r = parse_line(o, line, path, lineno, 1, user_file)) != 0)
			bad++;
	}
	free(line);
	fclose(f);
	p->active = 1;
	if (bad) {
		log_error("%s: terminating, %d bad configuration options",
		    path, bad);
		return ERR_CONFIG;
	}
	return 0;
}

void
readconf_canonical_pass(struct client_opts *o, const char *host)
{
	struct rc_priv *p = o->priv;

	x_free(p->match_host);
	p->match_host = x_strdup(host);
	p->canonical_pass = 1;
	x_free(o->hostname);
	o->hostname = x_strdup(host);
}

int
readconf_wants_final_pass(const struct client_opts *o)
{
	const struct rc_priv *p = o->priv;

	return p->want_final;
}

int
readconf_load(struct client_opts *o, const char *path, int user_file)
{
	struct rc_priv *p = o->priv;
	int r, saved = p->active;

	r = load_file(o, path, user_file);
	p->active = saved;
	return r;
}
