/*
 * servconf_copy.c: freeing and copying one keyword's value.
 *
 * A Match overlay copies exactly the fields its lines set over a copy
 * of the global settings, and servconf_free() frees every field; both
 * go keyword by keyword through the table, and these two functions know
 * how each value type is stored (an int, a string, an array and its
 * count, a pair of fields).
 */
#include <string.h>

#include "mem.h"
#include "servconf_int.h"

#define FIELD(sc, off, T) ((T *)(void *)((char *)(sc) + (off)))

void
sc_kw_free_value(struct servconf *sc, const struct conf_kw *kw)
{
	char **arr;
	size_t i, *np;

	switch (kw->type) {
	case T_STR: case T_REST: case T_ALGS: case T_AUTHMETHODS:
		x_free(*FIELD(sc, kw->off, char *));
		*FIELD(sc, kw->off, char *) = NULL;
		break;
	case T_USERENV:
		x_free(*FIELD(sc, kw->cnt_off, char *));
		*FIELD(sc, kw->cnt_off, char *) = NULL;
		break;
	case T_STRARR: case T_SETENV:
		arr = FIELD(sc, kw->off, char *);
		np = FIELD(sc, kw->cnt_off, size_t);
		for (i = 0; i < *np; i++)
			x_free(arr[i]);
		*np = 0;
		break;
	case T_LISTEN:
		for (i = 0; i < sc->nlisten; i++)
			x_free(sc->listen[i].addr);
		sc->nlisten = 0;
		break;
	case T_SUBSYS:
		for (i = 0; i < sc->nsubsystems; i++) {
			x_free(sc->subsystems[i].name);
			x_free(sc->subsystems[i].command);
		}
		sc->nsubsystems = 0;
		break;
	case T_PERSOURCE:
		sc_persource_free(sc, kw);
		break;
	case T_CHANTIMEOUT:
		sc_extra_free(sc, kw);
		break;
	default:
		break;
	}
}

/* Replace dst's value for kw with a deep copy of src's. */
void
sc_kw_copy_value(struct servconf *dst, const struct servconf *src,
    const struct conf_kw *kw)
{
	const char *const *sarr;
	char **darr;
	const char *s;
	size_t i, n;

	switch (kw->type) {
	case T_FLAG: case T_INT: case T_TIME: case T_ENUM: case T_LOGLEVEL:
	case T_FACILITY: case T_MODE:
		*FIELD(dst, kw->off, int) = *FIELD(src, kw->off, const int);
		break;
	case T_REKEY:
		dst->rekey_bytes = src->rekey_bytes;
		dst->rekey_seconds = src->rekey_seconds;
		break;
	case T_USERENV:
		sc_kw_free_value(dst, kw);
		*FIELD(dst, kw->off, int) = *FIELD(src, kw->off, const int);
		s = *FIELD(src, kw->cnt_off, char *const);
		*FIELD(dst, kw->cnt_off, char *) = s ? x_strdup(s) : NULL;
		break;
	case T_STARTUPS:
		dst->max_startups_begin = src->max_startups_begin;
		dst->max_startups_rate = src->max_startups_rate;
		dst->max_startups_max = src->max_startups_max;
		break;
	case T_PORT:
		memcpy(dst->ports, src->ports, sizeof(dst->ports));
		dst->nports = src->nports;
		break;
	case T_STR: case T_REST: case T_ALGS: case T_AUTHMETHODS:
		sc_kw_free_value(dst, kw);
		s = *FIELD(src, kw->off, char *const);
		*FIELD(dst, kw->off, char *) = s ? x_strdup(s) : NULL;
		break;
	case T_STRARR: case T_SETENV:
		sc_kw_free_value(dst, kw);
		sarr = (const char *const *)FIELD(src, kw->off, char *const);
		darr = FIELD(dst, kw->off, char *);
		n = *FIELD(src, kw->cnt_off, const size_t);
		for (i = 0; i < n; i++)
			darr[i] = x_strdup(sarr[i]);
		*FIELD(dst, kw->cnt_off, size_t) = n;
		break;
	case T_LISTEN:
		sc_kw_free_value(dst, kw);
		for (i = 0; i < src->nlisten; i++) {
			dst->listen[i].addr = src->listen[i].addr ?
			    x_strdup(src->listen[i].addr) : NULL;
			dst->listen[i].port = src->listen[i].port;
		}
		dst->nlisten = src->nlisten;
		break;
	case T_SUBSYS:
		sc_kw_free_value(dst, kw);
		for (i = 0; i < src->nsubsystems; i++) {
			dst->subsystems[i].name =
			    x_strdup(src->subsystems[i].name);
			dst->subsystems[i].command =
			    x_strdup(src->subsystems[i].command);
		}
		dst->nsubsystems = src->nsubsystems;
		break;
	case T_PERSOURCE:
		sc_persource_copy(dst, src, kw);
		break;
	case T_FPHASH: case T_IPQOS: case T_CHANTIMEOUT: case T_TIMENONE:
	case T_PKOPTS:
		sc_extra_copy(dst, src, kw);
		break;
	default:
		break;
	}
}
