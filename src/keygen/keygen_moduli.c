/*
 * keygen_moduli.c: ssh-keygen -M generate and -M screen, the two steps
 * that make Diffie-Hellman groups for /etc/ssh/moduli (moduli(5)).
 *
 * generate sieves a window of numbers q (moduli_sieve) and writes each
 * one left, whose q and 2q + 1 have no small factor, as a candidate
 * line (type 4, tests 0x02). screen reads candidate or moduli lines
 * from -f (or standard input), keeps those whose p = 2q + 1 and q pass
 * libcrypto's primality test and more Miller-Rabin rounds with a
 * generator of the whole group (moduli_screen), and appends them to the
 * output, so that a stopped run loses nothing already written. With
 * -O checkpoint=FILE the number of the last line screened is kept in
 * FILE after every line (written aside, then renamed over it), and a
 * run started again with the same FILE goes on after that line.
 *
 * The options, messages and exit statuses are OpenSSH's. Where OpenSSH
 * gives up on a malformed candidate line (exit 255) this skips the
 * line, as it does every line it cannot use.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/bn.h>

#include "err.h"
#include "keygen.h"
#include "mem.h"
#include "moduli.h"

#define FATAL		255
#define DEFAULT_BITS	3072		/* OpenSSH's, when -O bits is absent */
#define MEMORY_MIN	8		/* MiB, the range OpenSSH takes */
#define MEMORY_MAX	127
#define SIEVE_LIMIT	(1u << 24)	/* sieve by the primes below this */
#define DEFAULT_ROUNDS	100

struct gen_job {
	FILE *out;
	uint32_t bits;
	uint32_t memory;	/* MiB; 0: sized from bits */
	BIGNUM *start;		/* NULL: random */
	uint32_t nprimes;	/* set by the sieve before the first q */
	uint32_t found;
	time_t stamp;
	int failed;
};

struct screen_job {
	const struct kg_opts *o;
	FILE *in, *out;
	unsigned long lines, start_line, skip;
	const char *checkpoint;
	uint32_t generator;	/* 0: the one each prime takes */
	uint32_t rounds;
	unsigned long lineno;
	uint32_t count, found;
	BN_CTX *ctx;
};

/* ctime(3)'s stamp, as OpenSSH starts its progress lines. */
static void
progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void
progress(const char *fmt, ...)
{
	char buf[64];
	time_t now = time(NULL);
	va_list ap;

	if (ctime_r(&now, buf) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fprintf(stderr, "%s ", buf);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\r\n", stderr);
}

static void
debug(const struct kg_opts *o, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
debug(const struct kg_opts *o, int level, const char *fmt, ...)
{
	va_list ap;

	if (o->verbose < level)
		return;
	fprintf(stderr, "debug%d: ", level);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\r\n", stderr);
}

/*
 * OpenBSD's strtonum(3), which OpenSSH's options go through: the whole
 * text a decimal in [lo, hi], else *whyp says "invalid", "too small" or
 * "too large".
 */
static long long
str_to_num(const char *s, long long lo, long long hi, const char **whyp)
{
	char *ep;
	long long v;

	*whyp = NULL;
	errno = 0;
	v = strtoll(s, &ep, 10);
	if (ep == s || *ep != '\0')
		*whyp = "invalid";
	else if ((v == LLONG_MIN && errno == ERANGE) || v < lo)
		*whyp = "too small";
	else if ((v == LLONG_MAX && errno == ERANGE) || v > hi)
		*whyp = "too large";
	return *whyp == NULL ? v : 0;
}

/* The value of "name=value" when opt has that name, else NULL. */
static const char *
opt_value(const char *opt, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(opt, name, n) != 0 || opt[n] != '=')
		return NULL;
	return opt + n + 1;
}

int
kg_moduli_op(const char *op)
{
	if (strcmp(op, "generate") == 0 || strcmp(op, "screen") == 0)
		return 0;
	kg_error("Unsupported moduli option %s", op);
	return -1;
}

/* -O memory=: OpenSSH's checks and words. */
static int
parse_memory(const char *v, uint32_t *mp)
{
	char *ep;
	long long m;

	errno = 0;
	m = strtoll(v, &ep, 10);
	if (ep == v || *ep != '\0') {
		kg_error("Memory limit is invalid: %s", v);
		return -1;
	}
	if (m < 1) {
		kg_error("Memory limit is too small: %s", v);
		return -1;
	}
	if ((m == LLONG_MAX && errno == ERANGE) || m > UINT32_MAX) {
		kg_error("Memory limit is too large: %s", v);
		return -1;
	}
	*mp = (uint32_t)m;
	return 0;
}

/*
 * -O start=: hex digits only. (OpenSSH takes whatever prefix of the text
 * BN_hex2bn reads, so "-5" or "0x10" start somewhere unintended.)
 */
static int
parse_start(const char *v, BIGNUM **bnp)
{
	size_t n = strlen(v);

	if (n == 0 || n > MODULI_BITS_MAX / 4 ||
	    strspn(v, "0123456789abcdefABCDEF") != n ||
	    BN_hex2bn(bnp, v) != (int)n) {
		kg_error("Invalid start point.");
		return -1;
	}
	return 0;
}

static int
gen_options(const struct kg_opts *o, struct gen_job *j)
{
	const char *v, *why;
	size_t i;

	for (i = 0; i < o->ncertopts; i++) {
		const char *opt = o->certopts[i];

		if ((v = opt_value(opt, "bits")) != NULL) {
			j->bits = (uint32_t)str_to_num(v, 1, INT_MAX, &why);
			if (why != NULL) {
				kg_error("Invalid number: %s (%s)", v, why);
				return -1;
			}
		} else if ((v = opt_value(opt, "memory")) != NULL) {
			if (parse_memory(v, &j->memory) != 0)
				return -1;
		} else if ((v = opt_value(opt, "start")) != NULL) {
			if (parse_start(v, &j->start) != 0)
				return -1;
		} else {
			kg_error("Option \"%s\" is unsupported for moduli "
			    "generation", opt);
			return -1;
		}
	}
	return 0;
}

/* Each candidate the sieve leaves, as a line of the output. */
static int
gen_write(const BIGNUM *q, void *arg)
{
	struct gen_job *j = arg;
	char *line;
	int r;

	if (j->found == 0)
		j->stamp = time(NULL);
	r = moduli_format_line(j->stamp, MODULI_TYPE_SOPHIE_GERMAIN,
	    MODULI_TESTS_SIEVE, j->nprimes, 0, q, &line);
	if (r != 0)
		return r;
	if (fputs(line, j->out) == EOF)
		j->failed = errno != 0 ? errno : EIO;
	x_free(line);
	j->found++;
	return j->failed ? ERR_SYSTEM : 0;
}

/*
 * Numbers in the window: bits^2 by default (a 512 KiB bit array at 2048
 * bits, about 38,000 candidates), at most MEMORY_MAX MiB of bits; or
 * -O memory MiB of bits, with OpenSSH's note when that is more or less.
 */
static uint64_t
gen_window(const struct gen_job *j)
{
	uint64_t want = (uint64_t)j->bits * j->bits;
	uint64_t have = (uint64_t)j->memory << 23;

	if (want > (uint64_t)MEMORY_MAX << 23)
		want = (uint64_t)MEMORY_MAX << 23;
	if (j->memory == 0)
		return want;
	if (have > want)
		kg_error("Increased memory: %u MB; need %llu bytes",
		    j->memory, (unsigned long long)(want / 8));
	else if (have < want)
		kg_error("Decreased memory: %u MB; want %llu bytes",
		    j->memory, (unsigned long long)(want / 8));
	return have;
}

/* A random start: bits - 1 bits, the top one set. */
static int
gen_start(struct gen_job *j)
{
	if (j->start != NULL)
		return 0;
	if ((j->start = BN_new()) == NULL ||
	    !BN_rand(j->start, (int)j->bits - 1, BN_RAND_TOP_ONE,
	    BN_RAND_BOTTOM_ANY))
		return ERR_LIBCRYPTO;
	return 0;
}

static int
gen_run(struct gen_job *j)
{
	uint64_t window;
	time_t t0 = time(NULL);
	int r;

	if (j->memory != 0 &&
	    (j->memory < MEMORY_MIN || j->memory > MEMORY_MAX)) {
		kg_error("Invalid memory amount (min %d, max %d)",
		    MEMORY_MIN, MEMORY_MAX);
		return -1;
	}
	if (j->bits < MODULI_BITS_MIN) {
		kg_error("Too few bits: %u < %u", j->bits, MODULI_BITS_MIN);
		return -1;
	}
	if (j->bits > MODULI_BITS_MAX) {
		kg_error("Too many bits: %u > %u", j->bits, MODULI_BITS_MAX);
		return -1;
	}
	window = gen_window(j);
	if (gen_start(j) != 0)
		return -1;
	progress("Sieve next %llu plus %u-bit", (unsigned long long)window,
	    j->bits - 1);
	r = moduli_sieve(j->bits - 1, j->start, window, SIEVE_LIMIT,
	    gen_write, j, &j->nprimes);
	if (r != 0) {
		if (j->failed)
			kg_error("Write to modulus candidate file failed: %s",
			    strerror(j->failed));
		return -1;
	}
	progress("Sieved with %u small primes in %lld seconds", j->nprimes,
	    (long long)(time(NULL) - t0));
	progress("Found %u candidates", j->found);
	return 0;
}

static int
moduli_generate(struct kg_opts *o)
{
	struct gen_job j;
	int r = FATAL;

	memset(&j, 0, sizeof(j));
	j.bits = DEFAULT_BITS;
	if (gen_options(o, &j) != 0)
		goto out;
	if ((j.out = fopen(o->args[0], "w")) == NULL) {
		kg_error("Couldn't open modulus candidate file \"%s\": %s",
		    o->args[0], strerror(errno));
		goto out;
	}
	if (gen_run(&j) != 0) {
		kg_error("modulus candidate generation failed");
		goto out;
	}
	if (fclose(j.out) != 0) {
		j.out = NULL;
		kg_error("Write to modulus candidate file failed: %s",
		    strerror(errno));
		goto out;
	}
	j.out = NULL;
	r = 0;
 out:
	if (j.out != NULL)
		fclose(j.out);
	BN_free(j.start);
	return r;
}

static int
screen_options(const struct kg_opts *o, struct screen_job *j)
{
	const char *v, *why;
	size_t i;

	for (i = 0; i < o->ncertopts; i++) {
		const char *opt = o->certopts[i];

		/* lines and start-line: strtoul(3), as OpenSSH reads them. */
		if ((v = opt_value(opt, "lines")) != NULL) {
			j->lines = strtoul(v, NULL, 10);
		} else if ((v = opt_value(opt, "start-line")) != NULL) {
			j->start_line = strtoul(v, NULL, 10);
		} else if ((v = opt_value(opt, "checkpoint")) != NULL) {
			j->checkpoint = v;
		} else if ((v = opt_value(opt, "generator")) != NULL) {
			j->generator = (uint32_t)str_to_num(v, 1, UINT32_MAX,
			    &why);
			if (why != NULL) {
				kg_error("Generator invalid: %s (%s)", v, why);
				return -1;
			}
		} else if ((v = opt_value(opt, "prime-tests")) != NULL) {
			j->rounds = (uint32_t)str_to_num(v, 1, INT_MAX, &why);
			if (why != NULL) {
				kg_error("Invalid number: %s (%s)", v, why);
				return -1;
			}
		} else {
			kg_error("Option \"%s\" is unsupported for moduli "
			    "screening", opt);
			return -1;
		}
	}
	return 0;
}

/*
 * The checkpoint: the number of lines screened so far, a decimal on the
 * first line. 0 when there is none to read.
 */
static unsigned long
checkpoint_read(const char *path)
{
	char buf[64];
	unsigned long long v;
	char *ep;
	FILE *f;
	int ok;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (ok) {
		errno = 0;
		v = strtoull(buf, &ep, 10);
		ok = buf[0] >= '0' && buf[0] <= '9' && errno == 0 &&
		    v <= ULONG_MAX && (*ep == '\0' || *ep == '\n' ||
		    *ep == ' ' || *ep == '\t' || *ep == '\r');
	}
	if (!ok) {
		kg_error("Failed to load checkpoint from '%s'", path);
		return 0;
	}
	kg_error("Loaded checkpoint from '%s' line %llu", path, v);
	return (unsigned long)v;
}

/*
 * Record that lineno lines are done: written beside the checkpoint and
 * renamed over it, so a reader sees the old number or the new one,
 * never a torn one. A failure is reported and screening goes on.
 */
static void
checkpoint_write(const char *path, unsigned long lineno)
{
	char *tmp = x_asprintf("%s.XXXXXXXXXX", path), num[32];
	int fd, n;

	if ((fd = mkstemp(tmp)) == -1) {
		kg_error("mkstemp(%s): %s", tmp, strerror(errno));
		x_free(tmp);
		return;
	}
	n = snprintf(num, sizeof(num), "%lu\n", lineno);
	if (write(fd, num, (size_t)n) != n || close(fd) != 0 ||
	    rename(tmp, path) != 0) {
		kg_error("write checkpoint %s: %s", path, strerror(errno));
		unlink(tmp);
	}
	x_free(tmp);
}

/*
 * The next line into buf (cap bytes): its length, cap + 1 when it was
 * longer (the rest is read and dropped), or -1 at the end of input.
 */
static long
read_line(FILE *f, char *buf, size_t cap)
{
	size_t n = 0;
	int c, any = 0;

	while ((c = getc(f)) != EOF) {
		any = 1;
		if (n < cap)
			buf[n] = (char)c;
		n += n <= cap;
		if (c == '\n')
			break;
	}
	if (!any)
		return -1;
	return (long)n;
}

/*
 * A line passed: append it to the output at once. The rounds of a
 * group screened before add up (OpenSSH's sum wraps at 2^32; this one
 * stops there); a candidate's tries field counted sieving primes.
 */
static int
screen_keep(struct screen_job *j, const struct moduli_entry *e,
    const BIGNUM *p, uint32_t g)
{
	uint32_t tries = j->rounds;
	char *line;
	int r;

	if (e->type != MODULI_TYPE_SOPHIE_GERMAIN)
		tries = e->tries > UINT32_MAX - tries ? UINT32_MAX :
		    e->tries + tries;
	r = moduli_format_line(time(NULL), MODULI_TYPE_SAFE,
	    e->tests | MODULI_TESTS_MILLER_RABIN, tries, g, p, &line);
	if (r != 0)
		return r;
	if (fputs(line, j->out) == EOF || fflush(j->out) == EOF)
		r = ERR_SYSTEM;
	x_free(line);
	j->found++;
	return r;
}

static const char *
verdict_str(int v)
{
	switch (v) {
	case MODULI_Q_FIRST:	return "q failed first possible prime test";
	case MODULI_P_COMPOSITE: return "p is not prime";
	case MODULI_Q_COMPOSITE: return "q is not prime";
	case MODULI_G_BAD:	return "generator does not generate the group";
	default:		return "is a safe prime";
	}
}

/* Screen the candidate e (the line j->lineno). */
static int
screen_entry(struct screen_job *j, const struct moduli_entry *e)
{
	const struct kg_opts *o = j->o;
	BIGNUM *p, *q;
	uint32_t g;
	int r;

	debug(o, 2, "%10lu: (%u)%s", j->lineno, e->type,
	    e->type == MODULI_TYPE_SOPHIE_GERMAIN ? " Sophie-Germain" :
	    e->type == MODULI_TYPE_SAFE ? " Safe" : "");
	if ((r = moduli_entry_pq(e, &p, &q)) != 0)
		return r;
	if ((g = moduli_pick_generator(p)) == 0 ||
	    (j->generator != 0 && g != j->generator)) {
		debug(o, 2, "%10lu: %s", j->lineno, g == 0 ?
		    "no known generator" : "not the generator wanted");
		goto out;
	}
	j->count++;
	r = moduli_screen(p, q, g, j->rounds, j->ctx);
	if (r < 0)
		goto out;
	if (r == MODULI_Q_COMPOSITE || r == MODULI_G_BAD || r == MODULI_SAFE)
		debug(o, 1, "%10lu: p is almost certainly prime", j->lineno);
	if (r == MODULI_SAFE) {
		debug(o, 1, "%10lu: q is almost certainly prime", j->lineno);
		r = screen_keep(j, e, p, g);
	} else {
		debug(o, 1, "%10lu: %s", j->lineno, verdict_str(r));
		r = 0;
	}
 out:
	BN_free(p);
	BN_free(q);
	return r;
}

/* One line read: screen it when it is in the range asked for. */
static int
screen_line(struct screen_job *j, const char *buf, long len)
{
	struct moduli_entry e;
	int r;

	r = moduli_parse_line(buf, (size_t)len, &e);
	if (r > 0) {
		debug(j->o, 2, "%10lu: %s", j->lineno, moduli_skip_str(r));
		return 0;
	}
	if (r == 0)
		r = screen_entry(j, &e);
	moduli_entry_clear(&e);
	return r;
}

static int
screen_loop(struct screen_job *j)
{
	char *buf = x_malloc(MODULI_LINE_MAX + 1);
	unsigned long end = j->start_line + j->lines;
	long len;
	int r = 0;

	if (end < j->start_line)
		end = ULONG_MAX;
	while ((len = read_line(j->in, buf, MODULI_LINE_MAX)) >= 0) {
		j->lineno++;
		if (j->lineno <= j->skip)
			continue;
		if (j->lines != 0 && j->lineno > end)
			break;
		if ((r = screen_line(j, buf, len)) != 0)
			break;
		if (j->checkpoint != NULL)
			checkpoint_write(j->checkpoint, j->lineno);
	}
	x_free(buf);
	return r;
}

/* The lines a regular file holds (for -v); 0 when it cannot tell. */
static unsigned long
count_lines(FILE *f)
{
	unsigned long n = 0;
	struct stat st;
	int c, last = '\n';

	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	while ((c = getc(f)) != EOF) {
		n += c == '\n';
		last = c;
	}
	rewind(f);
	return n + (last != '\n');
}

static void
screen_announce(struct screen_job *j)
{
	unsigned long end = j->start_line + j->lines;

	if (j->lines == 0 && j->o->verbose > 0) {
		end = count_lines(j->in);
		debug(j->o, 1, "input file has %lu lines", end);
	}
	if (j->o->verbose > 1) {
		char buf[64];
		time_t now = time(NULL);

		if (ctime_r(&now, buf) == NULL)
			buf[0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		debug(j->o, 2, "%s Final %u Miller-Rabin trials (%x generator)",
		    buf, j->rounds, j->generator);
	}
	debug(j->o, 1, "process from line %lu to line %lu", j->skip, end);
}

static int
screen_open(struct screen_job *j, const char *in, const char *out)
{
	if (in == NULL || strcmp(in, "-") == 0)
		j->in = stdin;
	else if ((j->in = fopen(in, "r")) == NULL) {
		kg_error("Couldn't open modulus candidate file \"%s\": %s",
		    in, strerror(errno));
		return -1;
	}
	/* Appended to, never truncated (OpenSSH 6.2, bz#1957). */
	if ((j->out = fopen(out, "a")) == NULL) {
		kg_error("Couldn't open moduli file \"%s\": %s", out,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
moduli_screen_run(struct kg_opts *o)
{
	struct screen_job j;
	time_t t0 = time(NULL);
	int r = FATAL;

	memset(&j, 0, sizeof(j));
	j.o = o;
	j.rounds = DEFAULT_ROUNDS;
	if (screen_options(o, &j) != 0 ||
	    screen_open(&j, o->file, o->args[0]) != 0)
		goto out;
	if ((j.ctx = BN_CTX_new()) == NULL)
		goto out;
	j.skip = j.start_line;
	if (j.checkpoint != NULL) {
		unsigned long done = checkpoint_read(j.checkpoint);

		if (done > j.skip)
			j.skip = done;
	}
	screen_announce(&j);
	if (screen_loop(&j) != 0) {
		kg_error("modulus screening failed");
		goto out;
	}
	if (j.checkpoint != NULL)
		unlink(j.checkpoint);
	progress("Found %u safe primes of %u candidates in %lld seconds",
	    j.found, j.count, (long long)(time(NULL) - t0));
	r = 0;
 out:
	if (j.in != NULL && j.in != stdin)
		fclose(j.in);
	if (j.out != NULL && fclose(j.out) != 0 && r == 0) {
		kg_error("Write to moduli file failed: %s", strerror(errno));
		r = FATAL;
	}
	BN_CTX_free(j.ctx);
	return r;
}

int
kg_moduli(struct kg_opts *o)
{
	if (o->nargs < 1) {
		kg_error("No output file specified");
		return FATAL;
	}
	if (o->nargs > 1) {
		kg_error("Too many output files specified");
		return FATAL;
	}
	if (strcmp(o->moduli_op, "generate") == 0)
		return moduli_generate(o);
	return moduli_screen_run(o);
}
