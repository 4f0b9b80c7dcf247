/*
 * test_hostfile_edit.c: hostfile_foreach() and the known_hosts rewrite
 * UpdateHostKeys uses (hostfile_replace_entries): keys added and
 * removed for one host, plain and hashed names, an address beside the
 * name, and every other line (other hosts, comments, markers, lines we
 * cannot read) kept byte for byte; FILE.old kept, no stray temporary
 * file, nothing written when nothing changes.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostfile.h"
#include "mem.h"
#include "testlib.h"

static char dir[] = "/tmp/khedit.XXXXXX";
static char *path;

/* Files in dir: known_hosts and known_hosts.old at most. */
static int
no_stray_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ok = 1;

	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, "known_hosts") == 0 ||
		    strcmp(e->d_name, "known_hosts.old") == 0)
			continue;
		fprintf(stderr, "stray file %s\n", e->d_name);
		ok = 0;
	}
	closedir(d);
	return ok;
}

static struct key *
load(const char *name)
{
	struct key *k = NULL;
	char *p = x_asprintf("data/keys/%s.pub", name);

	CHECK_OK(key_load_public(p, &k, NULL));
	x_free(p);
	return k;
}

struct seen {
	int n, comments, invalid, other, matched;
	unsigned int match[16];
	int stop_at;
};

static int
count_line(struct hostfile_line *l, void *arg)
{
	struct seen *s = arg;

	if (s->n < 16)
		s->match[s->n] = l->match;
	s->n++;
	s->comments += l->status == HOSTFILE_LINE_COMMENT;
	s->invalid += l->status == HOSTFILE_LINE_INVALID;
	s->other += l->status == HOSTFILE_LINE_OTHER;
	s->matched += l->status == HOSTFILE_LINE_MATCHED;
	return s->n == s->stop_at ? 42 : 0;
}

static void
test_foreach(const char *edt, const char *ect, const char *hashed)
{
	struct seen s;
	char *text;

	text = x_asprintf("# comment\n\n"
	    "[h]:2222 %s\n"
	    "%s %s\n"
	    "h.example,10.0.0.1 %s\n"
	    "*,![h]:2222,!10.* %s\n"
	    "@bogus [h]:2222 %s\n"
	    "[h]:2222\n"
	    "[h]:2222 ssh-foo AAAA\n", edt, hashed, ect, ect, ect, ect);
	test_write_file(path, text, 0);
	memset(&s, 0, sizeof(s));
	CHECK_OK(hostfile_foreach(path, "[h]:2222", "10.0.0.1", count_line,
	    &s));
	CHECK(s.n == 9);
	CHECK(s.comments == 2);
	CHECK(s.invalid == 3);
	CHECK(s.matched == 3);
	CHECK(s.other == 1);	/* the negated pattern */
	CHECK(s.match[2] == HOSTFILE_MATCH_HOST);
	CHECK(s.match[3] == (HOSTFILE_MATCH_HOST | HOSTFILE_MATCH_HOST_HASHED));
	CHECK(s.match[4] == HOSTFILE_MATCH_IP);
	memset(&s, 0, sizeof(s));
	s.stop_at = 3;
	CHECK(hostfile_foreach(path, "[h]:2222", NULL, count_line, &s) == 42);
	CHECK(s.n == 3);
	memset(&s, 0, sizeof(s));
	CHECK_OK(hostfile_foreach(path, NULL, NULL, count_line, &s));
	CHECK(s.matched == 0 && s.other == 4);
	CHECK_ERR(hostfile_foreach("/nonexistent/kh", "h", NULL, count_line,
	    &s), ERR_NOT_FOUND);
	x_free(text);
}

/* Add one key, drop another, keep the rest byte for byte. */
static void
test_plain(struct key *ed, struct key *ec, struct key *rsa, const char *edt,
    const char *ect, const char *rsat)
{
	struct key *keys[3];
	struct stat st1, st2;
	char *before, *after, *want, *old, *oldpath;

	before = x_asprintf("# my hosts  \n"
	    "other.example %s\n"
	    "[h]:2222 %s   trailing comment\n"
	    "@cert-authority * %s\n"
	    "@revoked [h]:2222 %s\n"
	    "garbage line here\n"
	    "\n"
	    "[h]:2222 %s\n"
	    "[other]:2222 %s", edt, ect, rsat, rsat, rsat, rsat);
	test_write_file(path, before, 0);
	keys[0] = ed;
	keys[1] = ec;
	keys[2] = NULL;
	CHECK_OK(hostfile_replace_entries(path, "[h]:2222", NULL, keys, 3, 0,
	    0));
	after = test_read_file(path);
	want = x_asprintf("# my hosts  \n"
	    "other.example %s\n"
	    "[h]:2222 %s   trailing comment\n"
	    "@cert-authority * %s\n"
	    "@revoked [h]:2222 %s\n"
	    "garbage line here\n"
	    "\n"
	    "[other]:2222 %s\n"
	    "[h]:2222 %s\n", edt, ect, rsat, rsat, rsat, edt);
	CHECK_STR(after, want);
	oldpath = x_asprintf("%s.old", path);
	old = test_read_file(oldpath);
	x_free(oldpath);
	CHECK_STR(old, before);
	CHECK(no_stray_files());
	CHECK(stat(path, &st1) == 0 && (st1.st_mode & 077) == 0);

	/* The same again: nothing to do, the file is left alone. */
	CHECK_OK(hostfile_replace_entries(path, "[h]:2222", NULL, keys, 3, 0,
	    0));
	CHECK(stat(path, &st2) == 0 && st1.st_ino == st2.st_ino);
	x_free(after);
	after = test_read_file(path);
	CHECK_STR(after, want);
	CHECK(no_stray_files());

	/* No keys: every unmarked line of the host goes. */
	CHECK_OK(hostfile_replace_entries(path, "[h]:2222", NULL, NULL, 0, 0,
	    0));
	x_free(after);
	after = test_read_file(path);
	x_free(want);
	want = x_asprintf("# my hosts  \n"
	    "other.example %s\n"
	    "@cert-authority * %s\n"
	    "@revoked [h]:2222 %s\n"
	    "garbage line here\n"
	    "\n"
	    "[other]:2222 %s\n", edt, rsat, rsat, rsat);
	CHECK_STR(after, want);
	(void)rsa;
	x_free(before);
	x_free(after);
	x_free(want);
	x_free(old);
}

/* Hashed names: kept as they are; new entries hashed too. */
static void
test_hashed(struct key *ed, struct key *ec, struct key *rsa,
    const char *edt, const char *ect, const char *rsat)
{
	struct key *keys[2] = { ec, ed };
	char *h1 = hostfile_hash_name("[h]:2222", NULL, 0);
	char *h2 = hostfile_hash_name("[h]:2222", NULL, 0);
	char *before, *after, *line, *save = NULL;
	int n = 0, found_ed = 0;

	before = x_asprintf("%s %s\n%s %s\nother %s\n", h1, ect, h2, rsat,
	    edt);
	test_write_file(path, before, 0);
	CHECK_OK(hostfile_replace_entries(path, "[h]:2222", NULL, keys, 2, 1,
	    0));
	after = test_read_file(path);
	CHECK(strstr(after, "[h]") == NULL);
	CHECK(strstr(after, rsat) == NULL);
	for (line = strtok_r(after, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save), n++) {
		char *sp = strchr(line, ' ');

		if (n == 0)
			CHECK(strncmp(line, h1, strlen(h1)) == 0);
		if (n == 1)
			CHECK(strncmp(line, "other ", 6) == 0);
		if (n == 2 && sp != NULL) {
			*sp = '\0';
			CHECK(strncmp(line, "|1|", 3) == 0);
			CHECK(hostfile_match_hosts(line, "[h]:2222") == 1);
			found_ed = strcmp(sp + 1, edt) == 0;
		}
	}
	CHECK(n == 3);
	CHECK(found_ed);
	(void)rsa;
	x_free(h1);
	x_free(h2);
	x_free(before);
	x_free(after);
}

/* An address beside the name: "name,addr", or two hashed lines. */
static void
test_address(struct key *ed, struct key *ec, const char *edt,
    const char *ect)
{
	struct key *keys[2] = { ed, ec };
	char *after, *want, *save = NULL, *l1, *l2;

	test_write_file(path, "", 0);
	CHECK_OK(hostfile_replace_entries(path, "H.Example", "10.0.0.1",
	    keys, 1, 0, 0));
	after = test_read_file(path);
	want = x_asprintf("h.example,10.0.0.1 %s\n", edt);
	CHECK_STR(after, want);
	x_free(after);
	x_free(want);

	/* ec known under the name only: the address gets its own line. */
	want = x_asprintf("h.example %s\n", ect);
	test_write_file(path, want, 0);
	x_free(want);
	CHECK_OK(hostfile_replace_entries(path, "h.example", "10.0.0.1",
	    keys + 1, 1, 0, 0));
	after = test_read_file(path);
	want = x_asprintf("h.example %s\n10.0.0.1 %s\n", ect, ect);
	CHECK_STR(after, want);
	x_free(after);
	x_free(want);

	test_write_file(path, "", 0);
	CHECK_OK(hostfile_replace_entries(path, "h.example", "10.0.0.1",
	    keys, 1, 1, 0));
	after = test_read_file(path);
	l1 = strtok_r(after, " \n", &save);
	(void)strtok_r(NULL, "\n", &save);
	l2 = strtok_r(NULL, " \n", &save);
	CHECK(l1 != NULL && hostfile_match_hosts(l1, "h.example") == 1);
	CHECK(l2 != NULL && hostfile_match_hosts(l2, "10.0.0.1") == 1);
	x_free(after);
}

int
main(void)
{
	struct key *ed, *ec, *rsa;
	char *edt, *ect, *rsat, *hashed;

	if (mkdtemp(dir) == NULL)
		return 1;
	path = x_asprintf("%s/known_hosts", dir);
	ed = load("ed25519");
	ec = load("ecdsa256");
	rsa = load("rsa2048");
	edt = key_public_text(ed);
	ect = key_public_text(ec);
	rsat = key_public_text(rsa);
	hashed = hostfile_hash_name("[h]:2222", NULL, 0);

	test_foreach(edt, ect, hashed);
	test_plain(ed, ec, rsa, edt, ect, rsat);
	test_hashed(ed, ec, rsa, edt, ect, rsat);
	test_address(ed, ec, edt, ect);

	/* A file that is not there is an error, and leaves nothing behind. */
	unlink(path);
	CHECK(hostfile_replace_entries(path, "h", NULL, &ed, 1, 0, 0) != 0);
	CHECK(access(path, F_OK) != 0);
	CHECK(no_stray_files());

	x_free(edt);
	x_free(ect);
	x_free(rsat);
	x_free(hashed);
	key_free(ed);
	key_free(ec);
	key_free(rsa);
	{
		char *old = x_asprintf("%s.old", path);

		unlink(old);
		x_free(old);
	}
	unlink(path);
	rmdir(dir);
	x_free(path);
	return TEST_DONE();
}
