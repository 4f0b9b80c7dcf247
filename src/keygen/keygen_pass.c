/*
 * keygen_pass.c: passphrases in ssh-keygen: asking for one, and the two
 * modes that change what protects or labels a private key, -p (its
 * passphrase) and -c (its comment).
 *
 * A passphrase is asked for as OpenSSH's ssh-keygen asks: through the
 * askpass program ($SSH_ASKPASS, else /usr/bin/ssh-askpass, given the
 * prompt as its argument; the first line of its output is the answer)
 * when standard input is not a terminal and $DISPLAY is set, or always
 * with SSH_ASKPASS_REQUIRE=force, or whenever $DISPLAY is set with
 * "prefer", and never with "never". Otherwise on the controlling
 * terminal, echo off; without one, the prompt goes to standard error
 * and the line comes from standard input, read a byte at a time so that
 * what follows stays there. A failed askpass or end of input is an
 * empty answer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "keygen.h"
#include "mem.h"
#include "readpass.h"

char *
kg_read_passphrase(const char *prompt)
{
	const char *prog = getenv("SSH_ASKPASS");
	const char *display = getenv("DISPLAY");
	char *ans;
	int r;

	/* As OpenSSH's ssh-keygen: an empty SSH_ASKPASS is run, and fails. */
	if (prog == NULL)
		prog = READPASS_DEFAULT_ASKPASS;
	if (readpass_use_askpass(getenv("SSH_ASKPASS_REQUIRE"),
	    isatty(STDIN_FILENO), display != NULL && *display != '\0'))
		r = readpass_askpass(prog, prompt, 0, &ans);
	else
		r = readpass_tty(prompt, RP_STDIN | RP_HOLD_SIGNALS, &ans);
	return r == 0 ? ans : x_strdup("");
}

void
kg_free_passphrase(char *p)
{
	if (p != NULL)
		x_freezero(p, strlen(p));
}

void
kg_warn_perms(const char *path)
{
	struct stat st;
	unsigned int mode = 0;

	if (stat(path, &st) == 0)
		mode = (unsigned int)st.st_mode & 0777;
	kg_error("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	kg_error("@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @");
	kg_error("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	kg_error("Permissions 0%3.3o for '%s' are too open.", mode, path);
	kg_error("It is required that your private key files are NOT "
	    "accessible by others.");
	kg_error("This private key will be ignored.");
}

/* Two answers that must agree; NULL when they do not. */
static char *
ask_twice(const char *prompt)
{
	char *a = kg_read_passphrase(prompt);
	char *b = kg_read_passphrase("Enter same passphrase again: ");
	int same = strcmp(a, b) == 0;

	kg_free_passphrase(b);
	if (same)
		return a;
	kg_free_passphrase(a);
	return NULL;
}

char *
kg_new_passphrase(const struct kg_opts *o)
{
	char *p;

	if (o->old_pass != NULL)
		return x_strdup(o->old_pass);
	if (o->new_pass != NULL)
		return x_strdup(o->new_pass);
	while ((p = ask_twice("Enter passphrase (empty for no passphrase): "))
	    == NULL)
		printf("Passphrases do not match.  Try again.\n");
	return p;
}

/*
 * The private key at path opened as -p and -c open it: without a
 * passphrase, else with -P's (or with alt's, -c taking -N too), else
 * with one asked for. *passp gets the passphrase that worked.
 */
static int
open_key(const struct kg_opts *o, const char *path, const char *alt,
    const char *prompt, struct key **kp, char **commentp, char **passp)
{
	int r;

	*passp = NULL;
	r = key_load_private(path, "", 1, kp, commentp);
	if (r == ERR_KEY_BAD_PERMISSIONS)
		kg_warn_perms(path);
	if (r == 0)
		*passp = x_strdup("");
	else if (r == ERR_KEY_WRONG_PASSPHRASE) {
		*passp = o->old_pass != NULL ? x_strdup(o->old_pass) :
		    alt != NULL ? x_strdup(alt) : kg_read_passphrase(prompt);
		r = key_load_private(path, *passp, 1, kp, commentp);
	}
	if (r != 0) {
		kg_free_passphrase(*passp);
		*passp = NULL;
	}
	return r;
}

static const char *
err_text(int r)
{
	return r == ERR_SYSTEM ? strerror(errno) : err_str(r);
}

int
kg_change_pass(struct kg_opts *o)
{
	const char *path = kg_need_file(o, "Enter file in which the key is");
	struct key *k = NULL;
	char *comment = NULL, *old = NULL, *pass;
	struct stat st;
	int r;

	if (stat(path, &st) != 0) {
		kg_error("%s: %s", path, strerror(errno));
		return 255;
	}
	if ((r = open_key(o, path, NULL, "Enter old passphrase: ", &k,
	    &comment, &old)) != 0) {
		kg_error("Failed to load key %s: %s", path, err_text(r));
		return 255;
	}
	kg_free_passphrase(old);
	if (comment != NULL)
		printf("Key has comment '%s'\n", comment);
	if (o->new_pass != NULL)
		pass = x_strdup(o->new_pass);
	else if ((pass = ask_twice("Enter new passphrase (empty for no "
	    "passphrase): ")) == NULL) {
		printf("Pass phrases do not match.  Try again.\n");
		r = 1;
		goto out;
	}
	r = key_save_private_as(k, path, pass, comment, o->rounds,
	    kg_private_format(o));
	kg_free_passphrase(pass);
	if (r != 0) {
		kg_error("Saving key \"%s\" failed: %s", path, err_text(r));
		r = 1;
		goto out;
	}
	printf("Your identification has been saved with the new "
	    "passphrase.\n");
 out:
	x_free(comment);
	key_free(k);
	return r;
}

/* The new comment: -C's, or a line from standard input (NULL at EOF). */
static char *
new_comment(const struct kg_opts *o)
{
	char buf[1024];

	if (o->comment != NULL)
		return x_strdup(o->comment);
	printf("New comment: ");
	fflush(stdout);
	if (fgets(buf, sizeof(buf), stdin) == NULL)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return x_strdup(buf);
}

/* Write the key and its .pub with comment c: 0, or an exit status. */
static int
save_commented(const struct kg_opts *o, const char *path,
    const struct key *k, const char *pass, const char *c)
{
	char *pub;
	int r;

	if ((r = key_save_private_as(k, path, pass, c, o->rounds,
	    kg_private_format(o))) != 0) {
		kg_error("Saving key \"%s\" failed: %s", path, err_text(r));
		return 1;
	}
	pub = x_asprintf("%s.pub", path);
	r = key_save_public(k, pub, c);
	if (r != 0)
		kg_error("Unable to save public key to %s: %s", pub,
		    err_text(r));
	x_free(pub);
	return r != 0 ? 255 : 0;
}

int
kg_change_comment(struct kg_opts *o)
{
	const char *path = kg_need_file(o, "Enter file in which the key is");
	struct key *k = NULL;
	char *comment = NULL, *pass = NULL, *c = NULL;
	struct stat st;
	int r;

	if (stat(path, &st) != 0) {
		kg_error("%s: %s", path, strerror(errno));
		return 255;
	}
	if ((r = open_key(o, path, o->new_pass, "Enter passphrase: ", &k,
	    &comment, &pass)) != 0) {
		kg_error("Cannot load private key \"%s\": %s", path,
		    err_text(r));
		return 255;
	}
	/* A PEM key has no room for one, and -m asks for PEM. */
	if (k->type != KEY_ED25519 &&
	    kg_private_format(o) != KEY_FILE_OPENSSH) {
		kg_error("Comments are only supported for keys stored in the "
		    "new format (-o).");
		r = 1;
		goto out;
	}
	if (comment != NULL)
		printf("Old comment: %s\n", comment);
	else
		printf("No existing comment\n");
	if ((c = new_comment(o)) == NULL) {
		r = 1;
		goto out;
	}
	if (comment != NULL && strcmp(comment, c) == 0) {
		printf("No change to comment\n");
		r = 0;
		goto out;
	}
	if ((r = save_commented(o, path, k, pass, c)) != 0)
		goto out;
	if (*c == '\0')
		printf("Comment removed\n");
	else
		printf("Comment '%s' applied\n", c);
 out:
	kg_free_passphrase(pass);
	x_free(comment);
	x_free(c);
	key_free(k);
	return r;
}
