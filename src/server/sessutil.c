/*
 * sessutil.c: small helpers of the server's session code: the child
 * environment list, AcceptEnv and PermitUserEnvironment filtering, the
 * reading of ~/.ssh/environment, the signal names of RFC 4254
 * section 6.10 (without the "SIG" prefix), each a table row, and the
 * IPQoS marking of the connection.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "servconf.h"
#include "session.h"
#include "transport.h"

static const struct {
	const char *name;
	int sig;
} sig_names[] = {
	{ "ABRT", SIGABRT }, { "ALRM", SIGALRM }, { "FPE", SIGFPE },
	{ "HUP", SIGHUP }, { "ILL", SIGILL }, { "INT", SIGINT },
	{ "KILL", SIGKILL }, { "PIPE", SIGPIPE }, { "QUIT", SIGQUIT },
	{ "SEGV", SIGSEGV }, { "TERM", SIGTERM }, { "USR1", SIGUSR1 },
	{ "USR2", SIGUSR2 },
};

int
sess_signal_number(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(sig_names) / sizeof(sig_names[0]); i++)
		if (strcmp(sig_names[i].name, name) == 0)
			return sig_names[i].sig;
	return -1;
}

const char *
sess_signal_name(int sig)
{
	size_t i;

	for (i = 0; i < sizeof(sig_names) / sizeof(sig_names[0]); i++)
		if (sig_names[i].sig == sig)
			return sig_names[i].name;
	return "SIG@openssh.com";
}

void
sess_env_set(struct sess_env *e, const char *name, const char *value)
{
	size_t i, nlen = strlen(name);
	char *entry = x_asprintf("%s=%s", name, value);

	for (i = 0; i < e->n; i++) {
		if (strncmp(e->v[i], name, nlen) == 0 && e->v[i][nlen] == '=') {
			x_free(e->v[i]);
			e->v[i] = entry;
			return;
		}
	}
	e->v = x_reallocarray(e->v, e->n + 2, sizeof(*e->v));
	e->v[e->n++] = entry;
	e->v[e->n] = NULL;
}

int
sess_env_put(struct sess_env *e, const char *nameval)
{
	const char *eq = strchr(nameval, '=');
	char *name;

	if (eq == NULL || eq == nameval)
		return ERR_INVALID_FORMAT;
	name = x_strndup(nameval, (size_t)(eq - nameval));
	sess_env_set(e, name, eq + 1);
	x_free(name);
	return 0;
}

const char *
sess_env_get(const struct sess_env *e, const char *name)
{
	size_t i, nlen = strlen(name);

	for (i = 0; i < e->n; i++)
		if (strncmp(e->v[i], name, nlen) == 0 && e->v[i][nlen] == '=')
			return e->v[i] + nlen + 1;
	return NULL;
}

void
sess_env_free(struct sess_env *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		x_free(e->v[i]);
	x_free(e->v);
	e->v = NULL;
	e->n = 0;
}

int
sess_env_acceptable(const struct servconf *sc, const char *name)
{
	size_t i;

	if (*name == '\0' || strchr(name, '=') != NULL)
		return 0;
	for (i = 0; i < sc->naccept_env; i++)
		if (match_pattern_list(name, sc->accept_env[i], 0) == 1)
			return 1;
	return 0;
}

int
sess_user_env_allowed(const struct servconf *sc, const char *name)
{
	if (!sc->permit_user_environment)
		return 0;
	return sc->permit_user_env_allowlist == NULL ||
	    match_pattern_list(name, sc->permit_user_env_allowlist, 0) == 1;
}

void
sess_env_read_file(struct sess_env *e, const struct servconf *sc,
    const char *path, FILE *errs)
{
	FILE *f;
	char *line = NULL, *p, *eq;
	size_t cap = 0;
	ssize_t len;
	unsigned int lineno = 0;

	if (!sc->permit_user_environment || (f = fopen(path, "r")) == NULL)
		return;
	while ((len = getline(&line, &cap, f)) != -1) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		p = line + strspn(line, " \t");
		if (*p == '\0' || *p == '#')
			continue;
		if ((eq = strchr(p, '=')) == NULL) {
			if (errs != NULL)
				fprintf(errs, "Bad line %u in %.100s\n",
				    lineno, path);
			continue;
		}
		*eq = '\0';
		if (*p == '\0' || !sess_user_env_allowed(sc, p))
			continue;
		sess_env_set(e, p, eq + 1);
	}
	free(line);
	fclose(f);
}


void
session_debug_to_client(struct chan_set *cs, const char *fmt, ...)
{
	struct transport *t = cs != NULL ? chan_set_transport(cs) : NULL;
	struct sbuf *m;
	va_list ap;
	char msg[512];

	if (t == NULL)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_debug("%s", msg);
	m = tr_msg_start(t, SSH2_MSG_DEBUG);
	/* always_display false, the text, an empty language tag. */
	if (sbuf_put_u8(m, 0) == 0 && sbuf_put_cstring(m, msg) == 0 &&
	    sbuf_put_cstring(m, "") == 0)
		(void)tr_msg_send(t);
}
