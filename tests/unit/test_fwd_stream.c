/*
 * test_fwd_stream.c: which rule refuses a Unix-socket forwarding
 * (fwd_stream_refusal): AllowStreamLocalForwarding's four values per
 * direction, DisableForwarding, and the authorized_keys options
 * no-port-forwarding and restrict as parsed from real option strings,
 * with PermitOpen/PermitListen (TCP only) left out of it as in OpenSSH.
 */
#include <string.h>

#include "authopts.h"
#include "fwd_server.h"
#include "servconf.h"
#include "testlib.h"

static void
test_allow_values(void)
{
	static const struct {
		int allow;		/* as parsed: yes 3, remote 1, local 2 */
		int local_ok, remote_ok;
	} rows[] = {
		{ 3, 1, 1 }, { 0, 0, 0 }, { 2, 1, 0 }, { 1, 0, 1 },
	};
	struct servconf sc;
	struct authopts *o = authopts_new();
	char *pl[] = { "none" };
	size_t i;

	memset(&sc, 0, sizeof(sc));
	/* TCP rules do not touch socket forwarding. */
	sc.allow_tcp_forwarding = 0;
	sc.permit_open[0] = pl[0];
	sc.npermit_open = 1;
	sc.permit_listen[0] = pl[0];
	sc.npermit_listen = 1;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *l, *r;

		sc.allow_streamlocal_forwarding = rows[i].allow;
		l = fwd_stream_refusal(&sc, o, 0);
		r = fwd_stream_refusal(&sc, o, 1);
		CHECK(rows[i].local_ok ? l == NULL :
		    l != NULL && strcmp(l, "AllowStreamLocalForwarding") == 0);
		CHECK(rows[i].remote_ok ? r == NULL :
		    r != NULL && strcmp(r, "AllowStreamLocalForwarding") == 0);
		/* No key options at all (e.g. password login). */
		CHECK((fwd_stream_refusal(&sc, NULL, 0) == NULL) ==
		    rows[i].local_ok);
	}
	sc.npermit_open = sc.npermit_listen = 0;
	sc.allow_streamlocal_forwarding = 3;
	sc.disable_forwarding = 1;
	CHECK_STR(fwd_stream_refusal(&sc, o, 0), "DisableForwarding");
	CHECK_STR(fwd_stream_refusal(&sc, NULL, 1), "DisableForwarding");
	authopts_free(o);
}

static void
test_key_options(void)
{
	struct servconf sc;
	struct authopts *o = NULL;

	memset(&sc, 0, sizeof(sc));
	sc.allow_streamlocal_forwarding = 3;
	CHECK_OK(authopts_parse("no-port-forwarding ssh-ed25519 AAAA", &o, NULL, NULL));
	CHECK_STR(fwd_stream_refusal(&sc, o, 0), "no-port-forwarding");
	CHECK_STR(fwd_stream_refusal(&sc, o, 1), "no-port-forwarding");
	authopts_free(o);
	CHECK_OK(authopts_parse("restrict ssh-ed25519 AAAA", &o, NULL, NULL));
	CHECK_STR(fwd_stream_refusal(&sc, o, 0), "restrict");
	CHECK_STR(fwd_stream_refusal(&sc, o, 1), "restrict");
	authopts_free(o);
	CHECK_OK(authopts_parse("restrict,port-forwarding ssh-ed25519 AAAA",
	    &o, NULL, NULL));
	CHECK(fwd_stream_refusal(&sc, o, 0) == NULL);
	CHECK(fwd_stream_refusal(&sc, o, 1) == NULL);
	/* DisableForwarding beats a key that allows it. */
	sc.disable_forwarding = 1;
	CHECK_STR(fwd_stream_refusal(&sc, o, 0), "DisableForwarding");
	authopts_free(o);
}

int
main(void)
{
	test_allow_values();
	test_key_options();
	return TEST_DONE();
}
