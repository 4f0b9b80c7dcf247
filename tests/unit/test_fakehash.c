/*
 * test_fakehash.c: the stand-in setting for password checks with no real
 * hash (fakehash.c). For each method libxcrypt offers, a hash made here
 * with some cost is turned into a setting that must keep the method and
 * cost, carry a fresh salt, and hash without error; and the choice of
 * which account to imitate is checked on shadow-format text: the form
 * most accounts share, ties to the first, locked hashes only when
 * nothing is usable, the passwd file when the shadow file is unreadable,
 * libxcrypt's default when nothing at all is usable. Needs no root.
 */
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fakehash.h"
#include "mem.h"
#include "testlib.h"

/* A hash of "pw" with a gensalt setting for prefix and count. */
static char *
make_hash(const char *prefix, unsigned long count)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data cd;
	const char *h;

	memset(&cd, 0, sizeof(cd));
	if (crypt_gensalt_rn(prefix, count, NULL, 0, setting,
	    sizeof(setting)) == NULL)
		return NULL;
	h = crypt_r("pw", setting, &cd);
	return h == NULL || h[0] == '*' ? NULL : x_strdup(h);
}

/*
 * prefix/count make a stored hash whose first formlen characters are its
 * method and cost: the setting must begin with them, differ after them
 * (a fresh salt), and crypt with them. formlen -1: the stored hash is
 * the setting as it is.
 */
static void
check_method(const char *prefix, unsigned long count, int formlen)
{
	char out[CRYPT_OUTPUT_SIZE], out2[CRYPT_OUTPUT_SIZE];
	char *stored = make_hash(prefix, count);
	struct crypt_data cd;
	const char *h;

	CHECK(stored != NULL);
	if (stored == NULL) {
		fprintf(stderr, "no hash for %s %lu\n", prefix, count);
		return;
	}
	CHECK(fakehash_usable(stored));
	CHECK_OK(fakehash_setting(stored, out, sizeof(out)));
	CHECK_OK(fakehash_setting(stored, out2, sizeof(out2)));
	if (formlen < 0) {
		CHECK_STR(out, stored);
	} else {
		/* Same form; a salt of its own each time. */
		CHECK(strncmp(out, stored, (size_t)formlen) == 0);
		CHECK(strlen(out) > (size_t)formlen);
		/* (DES salts are 12 bits: they may meet by chance.) */
		CHECK(formlen == 0 || strncmp(out, stored, strlen(out)) != 0);
		CHECK(formlen == 0 || strcmp(out, out2) != 0);
		if (strncmp(out, stored, (size_t)formlen) != 0)
			fprintf(stderr, "%s -> %s\n", stored, out);
	}
	memset(&cd, 0, sizeof(cd));
	h = crypt_r("guess", out, &cd);
	CHECK(h != NULL && h[0] != '*');
	/* A whole stored hash as the setting: a new hash of its length. */
	if (h != NULL && formlen < 0)
		CHECK(strlen(h) == strlen(stored) && strcmp(h, stored) != 0);
	else if (h != NULL)
		CHECK(strncmp(h, out, strlen(out)) == 0);
	x_free(stored);
}

#define SCRYPT "$7$CU..../....9xngkCE0BEb9RxIeNleWp1$" \
	"umyStqtie6DIxQgz4WyTW.dPkLHJgc2QBV.PK6Vr053"
#define SUNMD5 "$md5,rounds=43133$/uDoPsEF$$W3UH0TMkfIc4205.Q2XEH0"

static void
test_methods(void)
{
	char out[CRYPT_OUTPUT_SIZE];

	check_method("$y$", 1, 7);		/* $y$j75$ */
	check_method("$y$", 3, 7);		/* $y$j7T$ */
	check_method("$gy$", 1, 8);
	check_method("$6$", 0, 3);
	check_method("$6$", 12345, 16);		/* $6$rounds=12345$ */
	check_method("$5$", 6000, 15);
	check_method("$1$", 0, 3);
	check_method("$sha1", 4, 8);		/* $sha1$4$ */
	check_method("$2b$", 6, 7);
	check_method("$2y$", 4, 7);
	check_method("$2a$", 5, 7);
	check_method("", 0, 0);			/* traditional DES */
	check_method("$3$", 0, -1);		/* not taken apart */
	/* (scrypt and Sun MD5 are slow to make here: hashes of "pw".) */
	CHECK_OK(fakehash_setting(SCRYPT, out, sizeof(out)));
	CHECK_STR(out, SCRYPT);
	CHECK_OK(fakehash_setting(SUNMD5, out, sizeof(out)));
	CHECK_STR(out, SUNMD5);

	CHECK(!fakehash_usable(""));
	CHECK(!fakehash_usable("*"));
	CHECK(!fakehash_usable("!"));
	CHECK(!fakehash_usable("!$6$abc$def"));
	CHECK(!fakehash_usable("x"));
	CHECK(!fakehash_usable("*LK*"));
	CHECK(!fakehash_usable("abcdefghij"));
	CHECK(fakehash_usable("abcdefghijklm"));
	CHECK_ERR(fakehash_setting("!$6$abc$def", out, sizeof(out)),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(fakehash_setting("$6$abcdefgh$xyz", out, 5),
	    ERR_NO_BUFFER_SPACE);
	/* Malformed "$6$" hashes are imitated as they stand. */
	CHECK_OK(fakehash_setting("$6$nosalt", out, sizeof(out)));
	CHECK_STR(out, "$6$nosalt");
	CHECK_OK(fakehash_setting("$6$$hash", out, sizeof(out)));
	CHECK_STR(out, "$6$$hash");
}

/* fakehash_pick over text; the picked hash or "(none)" compared. */
static void
check_pick(const char *text, const char *want)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char *got = NULL;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	CHECK_OK(fakehash_pick(f, &got));
	CHECK_STR(got != NULL ? got : "(none)", want);
	fclose(f);
	if (got != NULL)
		x_freezero(got, strlen(got) + 1);
}

#define Y1 "$y$j9T$saltsaltsaltsaltsalt1$hashhashhashhashhashhashhashhashhash"
#define Y2 "$y$j9T$saltsaltsaltsaltsalt2$hashhashhashhashhashhashhashhashhash"
#define YF "$y$jFT$saltsaltsaltsaltsalt3$hashhashhashhashhashhashhashhashhash"
#define S1 "$6$salt1$hash1"
#define S2 "$6$salt2$hash2"
#define SR "$6$rounds=9000$salt3$hash3"
#define B1 "$2b$05$abcdefghijklmnopqrstuvhashhashhashhashhashhashhashhash1"
#define B2 "$2b$05$abcdefghijklmnopqrstuwhashhashhashhashhashhashhashhash2"

static void
test_pick(void)
{
	check_pick("", "(none)");
	check_pick("root:*:19000:0:99999:7:::\ndaemon:!:19000::::::\n"
	    "x:x:1:1::/:/bin/sh\n+nis::::::::\n", "(none)");
	/* The form most hashes share, whichever came first. */
	check_pick("a:" S1 ":1::::::\nb:" Y1 ":1::::::\nc:" Y2 ":1::::::\n",
	    Y1);
	/* Forms differ by cost too: two $y$j9T$ against one $y$jFT$. */
	check_pick("a:" YF ":1::::::\nb:" Y1 ":1::::::\nc:" Y2 ":1::::::\n",
	    Y1);
	/* $6$ with and without rounds= are different forms. */
	check_pick("a:" SR "::\nb:" S1 "::\nc:" S2 "::\n", S1);
	/* A tie: the form seen first. */
	check_pick("a:" B1 ":1::::::\nb:" S1 ":1::::::\nc:" S2 ":1::::::\n"
	    "d:" B2 ":1::::::\n", B1);
	check_pick("a:" S1 ":1::::::\nb:" B1 ":1::::::\n", S1);
	/* Locked hashes count only when nothing is usable. */
	check_pick("a:!" Y1 ":1::::::\nb:!!" Y2 ":1::::::\nc:" S1
	    ":1::::::\n", S1);
	check_pick("a:!" Y1 ":1::::::\nb:!!" Y2 ":1::::::\nc:!" S1
	    ":1::::::\nd:*:1::::::\n", Y1);
	/* passwd format; a line with no newline at the end. */
	check_pick("u:" S1 ":1000:1000::/home/u:/bin/sh", S1);
	/* DES hashes form one form of their own. */
	check_pick("a:abcdefghijklm:1::\nb:nopqrstuvwxyz:1::\nc:" S1 "::\n",
	    "abcdefghijklm");
}

static void
test_system(void)
{
	char dir[] = "/tmp/moat-fakehash-XXXXXX";
	char shadow[64], passwd[64], out[CRYPT_OUTPUT_SIZE];
	char def[CRYPT_GENSALT_OUTPUT_SIZE], *end;

	if (mkdtemp(dir) == NULL) {
		CHECK(0);
		return;
	}
	snprintf(shadow, sizeof(shadow), "%s/shadow", dir);
	snprintf(passwd, sizeof(passwd), "%s/passwd", dir);
	/* No files at all: libxcrypt's default method and cost. */
	CHECK(crypt_gensalt_rn(NULL, 0, NULL, 0, def, sizeof(def)) != NULL);
	if ((end = strrchr(def, '$')) != NULL)
		end[1] = '\0';
	fakehash_system(shadow, passwd, out, sizeof(out));
	CHECK(strncmp(out, def, strlen(def)) == 0);
	CHECK(strlen(out) > strlen(def));
	/* No shadow file: the passwd file's hashes. */
	test_write_file(passwd, "u:" SR ":1000:1000::/:/bin/sh\n", 0);
	fakehash_system(shadow, passwd, out, sizeof(out));
	CHECK(strncmp(out, "$6$rounds=9000$", 15) == 0);
	/* The shadow file when there is one, even with "x" in passwd. */
	test_write_file(shadow, "u:" B1 ":1::::::\n", 0);
	fakehash_system(shadow, passwd, out, sizeof(out));
	CHECK(strncmp(out, "$2b$05$", 7) == 0 && strlen(out) == 29);
	/* A shadow file with nothing usable: the default again. */
	test_write_file(shadow, "u:*:1::::::\n", 0);
	fakehash_system(shadow, passwd, out, sizeof(out));
	CHECK(strncmp(out, def, strlen(def)) == 0);
	unlink(shadow);
	unlink(passwd);
	rmdir(dir);
}

int
main(void)
{
	test_methods();
	test_pick();
	test_system();
	return TEST_DONE();
}
