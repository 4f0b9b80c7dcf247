/*
 * key_text.c: public keys as text, "type base64 [comment]", the form of
 * .pub files, authorized_keys and known_hosts lines.
 *
 * Reading takes the type word, then the base64 word, decodes the blob
 * and checks that the blob's own type name equals the word in front.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

#define PUBFILE_MAX	(64 * 1024)

int
key_read_public_text(const char **cpp, struct key **keyp)
{
	const char *cp = *cpp, *word, *b64;
	char *type = NULL, *text = NULL;
	struct sbuf *blob = sbuf_new();
	size_t tlen, blen;
	int r;

	*keyp = NULL;
	while (*cp == ' ' || *cp == '\t')
		cp++;
	word = cp;
	while (*cp != '\0' && !isspace((unsigned char)*cp))
		cp++;
	tlen = (size_t)(cp - word);
	while (*cp == ' ' || *cp == '\t')
		cp++;
	b64 = cp;
	while (*cp != '\0' && !isspace((unsigned char)*cp))
		cp++;
	blen = (size_t)(cp - b64);
	if (tlen == 0 || blen == 0) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	type = x_strndup(word, tlen);
	if (keytype_by_name(type) == NULL) {
		r = ERR_KEY_TYPE_UNKNOWN;
		goto out;
	}
	text = x_strndup(b64, blen);
	if ((r = sbuf_b64_decode(blob, text)) != 0)
		goto out;
	if ((r = key_from_blob(sbuf_ptr(blob), sbuf_len(blob), keyp)) != 0)
		goto out;
	if (strcmp(key_type_name(*keyp), type) != 0) {
		key_free(*keyp);
		*keyp = NULL;
		r = ERR_KEY_TYPE_MISMATCH;
		goto out;
	}
	while (*cp == ' ' || *cp == '\t')
		cp++;
	*cpp = cp;
 out:
	x_free(type);
	x_free(text);
	sbuf_free(blob);
	return r;
}

char *
key_public_text(const struct key *k)
{
	struct sbuf *b = sbuf_new();
	char *s = NULL, *ret = NULL;

	if (key_to_blob(k, b) == 0 && (s = sbuf_to_b64(b, 0)) != NULL)
		ret = x_asprintf("%s %s", key_type_name(k), s);
	x_free(s);
	sbuf_free(b);
	return ret;
}

/* Whole small file into a NUL-terminated string. */
static int
read_text_file(const char *path, char **textp)
{
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;
	int fd, r = 0;

	*textp = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return ERR_SYSTEM;
	buf = x_malloc(PUBFILE_MAX + 1);
	for (;;) {
		if (len == PUBFILE_MAX) {
			r = ERR_INVALID_FORMAT;
			break;
		}
		n = read(fd, buf + len, PUBFILE_MAX - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = ERR_SYSTEM;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r != 0) {
		x_free(buf);
		return r;
	}
	buf[len] = '\0';
	*textp = buf;
	return 0;
}

int
key_load_public(const char *path, struct key **keyp, char **commentp)
{
	char *text = NULL, *line, *next, *end;
	const char *cp;
	int r;

	*keyp = NULL;
	if (commentp != NULL)
		*commentp = NULL;
	if ((r = read_text_file(path, &text)) != 0)
		return r;
	r = ERR_INVALID_FORMAT;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		cp = line;
		while (*cp == ' ' || *cp == '\t')
			cp++;
		if (*cp == '#' || *cp == '\0' || *cp == '\r')
			continue;
		if ((r = key_read_public_text(&cp, keyp)) != 0)
			break;
		if (commentp != NULL && *cp != '\0') {
			*commentp = x_strdup(cp);
			end = *commentp + strlen(*commentp);
			while (end > *commentp && isspace((unsigned char)end[-1]))
				*--end = '\0';
		}
		break;
	}
	x_free(text);
	return r;
}

int
key_save_public(const struct key *k, const char *path, const char *comment)
{
	char *line;
	FILE *f;
	int fd, r = 0;

	if ((line = key_public_text(k)) == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) < 0) {
		x_free(line);
		return ERR_SYSTEM;
	}
	if ((f = fdopen(fd, "w")) == NULL) {
		close(fd);
		x_free(line);
		return ERR_SYSTEM;
	}
	/* An empty comment leaves a blank after the key, as OpenSSH's. */
	if (comment != NULL)
		fprintf(f, "%s %s\n", line, comment);
	else
		fprintf(f, "%s\n", line);
	if (ferror(f))
		r = ERR_SYSTEM;
	if (fclose(f) != 0)
		r = ERR_SYSTEM;
	x_free(line);
	return r;
}
