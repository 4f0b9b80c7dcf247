/*
 * test_hostfile.c: known_hosts matching, hashing and lookup.
 * The hashed-name vector was computed independently as
 * base64(HMAC-SHA1(key = bytes 0..19, "[example.org]:2222")).
 */
#include <stdio.h>
#include <unistd.h>

#include "hostfile.h"
#include "mem.h"
#include "testlib.h"

int
main(void)
{
	unsigned char salt[20];
	struct key *ed = NULL, *ec = NULL, *rsa = NULL, **cas = NULL;
	struct hostfile_result res;
	char *s, *edt, *ect, *rsat, *text, *h, path[] = "/tmp/khtestXXXXXX";
	const char *paths[2];
	size_t i, ncas = 0;
	int fd;

	for (i = 0; i < sizeof(salt); i++)
		salt[i] = (unsigned char)i;
	s = hostfile_host_name("example.org", 2222);
	CHECK_STR(s, "[example.org]:2222");
	h = hostfile_hash_name(s, salt, sizeof(salt));
	CHECK_STR(h, "|1|AAECAwQFBgcICQoLDA0ODxAREhM=|"
	    "FECgIuoZ4Lo/BCx3pa8UOUgvG+o=");
	CHECK(hostfile_match_hosts(h, s) == 1);
	CHECK(hostfile_match_hosts(h, "example.org") == 0);
	x_free(s);
	s = hostfile_host_name("example.org", 22);
	CHECK_STR(s, "example.org");
	x_free(s);
	CHECK(hostfile_match_hosts("a,*.example.org", "x.example.org") == 1);
	CHECK(hostfile_match_hosts("*.example.org,!bad.example.org",
	    "bad.example.org") == 0);
	CHECK(hostfile_match_hosts("a,b", "c") == 0);
	CHECK(hostfile_match_hosts("|1|garbage", "c") == 0);

	CHECK_OK(key_load_public("data/keys/ed25519.pub", &ed, NULL));
	CHECK_OK(key_load_public("data/keys/ecdsa256.pub", &ec, NULL));
	CHECK_OK(key_load_public("data/keys/rsa2048.pub", &rsa, NULL));
	edt = key_public_text(ed);
	ect = key_public_text(ec);
	rsat = key_public_text(rsa);
	text = x_asprintf("# comment\n"
	    "alpha,10.1.1.1 %s\n"
	    "%s %s\n"
	    "@revoked beta %s\n"
	    "beta %s\n"
	    "@cert-authority *.corp %s\n"
	    "@revoked *.corp %s\n"
	    "@cert-authority *.corp %s\n"
	    "garbage line\n", edt, h, ect, rsat, rsat, ect, ect, edt);
	fd = mkstemp(path);
	close(fd);
	test_write_file(path, text, 0);
	paths[0] = "/nonexistent/known_hosts";
	paths[1] = path;

	CHECK_OK(hostfile_lookup(paths, 2, "alpha", 22, ed, &res));
	CHECK(res.status == HOST_OK);
	CHECK(res.match.line == 2);
	hostfile_result_clear(&res);
	CHECK_OK(hostfile_lookup(paths, 2, "ALPHA", 22, ed, &res));
	CHECK(res.status == HOST_OK);
	hostfile_result_clear(&res);
	CHECK_OK(hostfile_lookup(paths, 2, "example.org", 2222, ec, &res));
	CHECK(res.status == HOST_OK);
	CHECK(res.match.line == 3);
	hostfile_result_clear(&res);
	CHECK_OK(hostfile_lookup(paths, 2, "example.org", 22, ec, &res));
	CHECK(res.status == HOST_NEW);
	hostfile_result_clear(&res);
	CHECK_OK(hostfile_lookup(paths, 2, "beta", 22, rsa, &res));
	CHECK(res.status == HOST_REVOKED);
	CHECK(res.match.line == 4);
	hostfile_result_clear(&res);
	/* Another ECDSA key for the hashed host: changed. */
	{
		struct key *other = NULL;

		CHECK_OK(key_generate(KEY_ECDSA, 256, &other));
		CHECK_OK(hostfile_lookup(paths, 2, "example.org", 2222,
		    other, &res));
		CHECK(res.status == HOST_CHANGED);
		CHECK(res.match.key != NULL &&
		    key_equal_public(res.match.key, ec));
		hostfile_result_clear(&res);
		/* Add it, hashed, and find it. */
		CHECK_OK(hostfile_add(path, "New.Host", 2022, other, 1));
		CHECK_OK(hostfile_lookup(paths, 2, "new.host", 2022, other,
		    &res));
		CHECK(res.status == HOST_OK);
		CHECK(res.match.line == 10);
		hostfile_result_clear(&res);
		key_free(other);
	}
	CHECK_OK(hostfile_lookup_ca(paths, 2, "www.corp", 22, &cas, &ncas));
	CHECK(ncas == 1);
	CHECK(ncas == 1 && key_equal_public(cas[0], ed));
	hostfile_keys_free(cas, ncas);
	CHECK_OK(hostfile_lookup_ca(paths, 2, "www.other", 22, &cas, &ncas));
	CHECK(ncas == 0);
	hostfile_keys_free(cas, ncas);

	unlink(path);
	x_free(text);
	x_free(h);
	x_free(edt);
	x_free(ect);
	x_free(rsat);
	key_free(ed);
	key_free(ec);
	key_free(rsa);
	return TEST_DONE();
}
