/*
 * escape.h: ssh(1)'s escape sequences (~. ~^Z ~# ~& ~? ~v ~V ~R ~B ~C
 * ~~), a pure state machine over the bytes typed on the local tty.
 *
 * The escape character counts only at the start of a line (the first
 * byte of the session, or after \r or \n). It is held back; the next
 * byte decides: a known command is an action, the escape character
 * again sends it once, anything else sends both bytes.
 */
#ifndef MOAT_ESCAPE_H
#define MOAT_ESCAPE_H

#include <stddef.h>

#include "sbuf.h"

enum esc_action {
	ESC_NONE = 0,
	ESC_DISCONNECT,		/* ~. */
	ESC_SUSPEND,		/* ~^Z */
	ESC_LIST,		/* ~# */
	ESC_BACKGROUND,		/* ~& */
	ESC_HELP,		/* ~? */
	ESC_VERBOSE_UP,		/* ~v */
	ESC_VERBOSE_DOWN,	/* ~V */
	ESC_REKEY,		/* ~R */
	ESC_BREAK,		/* ~B */
	ESC_COMMAND,		/* ~C */
};

struct esc_state {
	int escape_char;	/* -2 ("none"): no escapes */
	int line_start;
	int pending;		/* escape character seen, held back */
};

void esc_init(struct esc_state *e, int escape_char);
/*
 * Feed typed bytes. Bytes for the peer are appended to out. Stops right
 * after the first action (*actionp, else ESC_NONE) and returns how many
 * input bytes were used; call again with the rest.
 */
size_t esc_feed(struct esc_state *e, const unsigned char *in, size_t len,
    struct sbuf *out, enum esc_action *actionp);
/* "~?" help text, \r\n line ends (caller frees). */
char *esc_help(int escape_char);
/* How OpenSSH shows an escape character: "~", "^Z"... (static). */
const char *esc_char_name(int ch, char buf[8]);

#endif
