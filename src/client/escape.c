/*
 * escape.c: the escape-sequence state machine and its help text (see
 * escape.h). The commands are a table: the key, the action and the help
 * line; help lists the rows in order.
 */
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "mem.h"

static const struct {
	int key;
	enum esc_action action;
	const char *keyname;	/* as shown in help */
	const char *help;
} esc_cmds[] = {
	{ '.', ESC_DISCONNECT, ".",
	    "terminate connection (and any multiplexed sessions)" },
	{ 'B', ESC_BREAK, "B", "send a BREAK to the remote system" },
	{ 'C', ESC_COMMAND, NULL, NULL },	/* not offered */
	{ 'R', ESC_REKEY, "R", "request rekey" },
	{ 'V', ESC_VERBOSE_DOWN, "V/v",
	    "decrease/increase verbosity (LogLevel)" },
	{ 'v', ESC_VERBOSE_UP, NULL, NULL },
	{ 'Z' - 64, ESC_SUSPEND, "^Z", "suspend ssh" },
	{ '#', ESC_LIST, "#", "list forwarded connections" },
	{ '&', ESC_BACKGROUND, "&",
	    "background ssh (when waiting for connections to terminate)" },
	{ '?', ESC_HELP, "?", "this message" },
};
#define NCMDS (sizeof(esc_cmds) / sizeof(esc_cmds[0]))

void
esc_init(struct esc_state *e, int escape_char)
{
	e->escape_char = escape_char;
	e->line_start = 1;
	e->pending = 0;
}

size_t
esc_feed(struct esc_state *e, const unsigned char *in, size_t len,
    struct sbuf *out, enum esc_action *actionp)
{
	size_t i, k;
	unsigned char ch;

	*actionp = ESC_NONE;
	for (i = 0; i < len; i++) {
		ch = in[i];
		if (e->escape_char < 0) {
			sbuf_put_u8(out, ch);
			continue;
		}
		if (e->pending) {
			e->pending = 0;
			for (k = 0; k < NCMDS; k++) {
				if (esc_cmds[k].key == ch) {
					*actionp = esc_cmds[k].action;
					/* A command leaves us at a line start. */
					e->line_start = 1;
					return i + 1;
				}
			}
			if (ch != (unsigned char)e->escape_char)
				sbuf_put_u8(out, (uint8_t)e->escape_char);
			sbuf_put_u8(out, ch);
			e->line_start = ch == '\r' || ch == '\n';
			continue;
		}
		if (e->line_start && ch == (unsigned char)e->escape_char) {
			e->pending = 1;
			e->line_start = 0;
			continue;
		}
		sbuf_put_u8(out, ch);
		e->line_start = ch == '\r' || ch == '\n';
	}
	return len;
}

const char *
esc_char_name(int ch, char buf[8])
{
	if (ch >= 0 && ch < 32)
		snprintf(buf, 8, "^%c", ch + 64);
	else if (ch == 127)
		snprintf(buf, 8, "^?");
	else
		snprintf(buf, 8, "%c", ch);
	return buf;
}

char *
esc_help(int escape_char)
{
	struct sbuf *b = sbuf_new();
	char name[8], *s;
	size_t i;

	esc_char_name(escape_char, name);
	sbuf_putf(b, "Supported escape sequences:\r\n");
	for (i = 0; i < NCMDS; i++) {
		if (esc_cmds[i].help == NULL)
			continue;
		sbuf_putf(b, " %s%-3s - %s\r\n", name, esc_cmds[i].keyname,
		    esc_cmds[i].help);
	}
	sbuf_putf(b, " %s%s   - send the escape character by typing it "
	    "twice\r\n", name, name);
	sbuf_putf(b, "(Note that escapes are only recognized immediately "
	    "after newline.)\r\n");
	s = x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
	sbuf_free(b);
	return s;
}
