/*
 * fuzz_fwd.c: the server's forwarding: the global requests tcpip-forward,
 * cancel-tcpip-forward, streamlocal-forward@openssh.com and
 * cancel-streamlocal-forward@openssh.com, the channels direct-tcpip and
 * direct-streamlocal@openssh.com and tun@openssh.com the client opens
 * (PermitTunnel, tunnel="n"; no device is made, see fuzz_sys.h), and the
 * forwarded-tcpip / forwarded-streamlocal@openssh.com channels the server
 * opens for a connection to a listener (and the client's answers to
 * them), under the rules of the configurations below (first byte).
 *
 * Nothing is bound, listened on or connected to: fuzz_sys.h makes every
 * socket one end of a socketpair and pretends to bind, listen and
 * connect by rules the port or path steers; each listener has one
 * connection waiting, and each connected socket a greeting to read, so
 * data flows both ways. The harness is fuzz_conn.h.
 */
#include "fuzz_conn.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct fz_variant fz_variants[] = {
	{ { "AllowTcpForwarding yes", "GatewayPorts clientspecified",
	    "AllowStreamLocalForwarding yes", "StreamLocalBindUnlink yes",
	    "PermitTunnel yes", NULL },
	    NULL },
	{ { "AllowTcpForwarding local",
	    "PermitOpen 127.0.0.1:8080 [::1]:* localhost:22 *:4",
	    "PermitListen 8000 localhost:9000", "GatewayPorts yes",
	    "AllowStreamLocalForwarding remote",
	    "PermitTunnel point-to-point", NULL },
	    "permitopen=\"127.0.0.1:*\",permitlisten=\"127.0.0.1:7000\","
	    "tunnel=\"3\"" },
	{ { "AllowTcpForwarding remote", "AllowStreamLocalForwarding local",
	    "PermitListen any", "PermitOpen none", "GatewayPorts no",
	    "StreamLocalBindMask 0077", NULL },
	    "restrict,port-forwarding" },
	{ { "DisableForwarding yes", NULL }, NULL },
	{ { "AllowTcpForwarding yes", "PermitOpen any", "PermitListen *:*",
	    NULL },
	    "no-port-forwarding" },
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
