/*
 * fuzz_session.c: the server after authentication: the connection layer
 * (channel open, data, window adjust, EOF, close, requests, global
 * requests) and the session channel's requests: pty-req with its modes,
 * env, exec, shell, subsystem, window-change, signal, and
 * auth-agent-req@openssh.com with the auth-agent@openssh.com channels
 * its socket opens towards the client (the first variant allows agent
 * forwarding; the others refuse it by AllowAgentForwarding, a restrict
 * key or DisableForwarding), and x11-req (the first variant allows X11
 * forwarding with no xauth program, so an accepted request stops short
 * of listening; the others refuse it). The harness is
 * fuzz_conn.h: a stand-in transport, no child process (fork fails, so
 * exec, shell and subsystem run their preparation and then fail), no
 * network. The first byte picks one of the configurations below.
 */
#include "fuzz_conn.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct fz_variant fz_variants[] = {
	{ { "PermitTTY yes", "AcceptEnv LANG LC_* FUZZ*", "SetEnv FOO=bar",
	    "Subsystem sftp /usr/lib/openssh/sftp-server",
	    "Subsystem isftp internal-sftp", "PermitUserEnvironment yes",
	    "MaxSessions 4", "AllowTcpForwarding yes",
	    "AllowStreamLocalForwarding yes", "PrintLastLog yes",
	    "X11Forwarding yes", "XAuthLocation /nonexistent/xauth", NULL },
	    NULL },
	{ { "ForceCommand /bin/echo forced", "PermitTTY no", "MaxSessions 1",
	    "AcceptEnv *", "ClientAliveInterval 1", "ClientAliveCountMax 0",
	    NULL },
	    "restrict,pty,command=\"echo hi\",environment=\"A=B\"" },
	{ { "ChrootDirectory /nonexistent/%u", "PermitUserEnvironment no",
	    "Subsystem sftp /usr/lib/openssh/sftp-server -l INFO",
	    "AllowAgentForwarding no", NULL },
	    "no-pty,no-port-forwarding,permitopen=\"127.0.0.1:8080\"" },
	{ { "MaxSessions 10", "AcceptEnv LANG", "SetEnv TERM=x LANG=y",
	    "DisableForwarding yes", NULL },
	    "environment=\"LANG=C\",from=\"127.0.0.1\"" },
};
static const size_t fz_nvariants = sizeof(fz_variants) / sizeof(fz_variants[0]);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_conn_init();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_conn_run(data, size);
	return 0;
}
