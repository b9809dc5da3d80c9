// SPDX-License-Identifier: GPL-2.0
/*
 * perf script output as stacks, folded as stackcollapse-perf.pl folds it. Each
 * sample is a header line, then its callchain, one frame a line, leaf first, and
 * a blank line:
 *
 *	bk-sleeper 4242/4243 [001] 5210.123456:     250000 cpu-clock:ppp:
 *		ffffffff8a3c1d2e do_nanosleep+0x5e ([kernel.kallsyms])
 *		    7f621c830545 clock_nanosleep+0x45 (/usr/lib/x86_64-linux-gnu/libc.so.6)
 *		    55c1fab362c3 [unknown] (/tmp/blocker)
 *
 * The folded stack is comm;root;...;leaf, counted once per sample (perf's period
 * is not used). Offsets are dropped, "[unknown]" becomes the module's name, C++
 * argument lists go, as stackcollapse-perf.pl tidies them. Samples of the first
 * event only are drawn: counts of different events do not add up.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/fold.h"
#include "lib/util.h"

/* Where a header's fields are, as offsets in its line. */
struct header {
	int	comm, comm_len;		/* the command name, maybe with spaces */
	int	ev, ev_len;		/* the event, without its ':' (-1: none) */
	int	rest;			/* what follows the event (-1: nothing) */
};

struct sample {
	const char	*frames[FT_FOLD_MAX_FRAMES];	/* comm, then leaf first */
	int		n;
	const char	*event;
	size_t		line;
};

struct reader {
	struct ft_fold			*fo;
	struct ft_fold_in		*in;		/* holds the open sample's lines */
	struct sample			s;
	bool				open;		/* in a sample */
	char				*event;		/* the event drawn (a copy) */
	size_t				samples, other;
};

/* span - @len characters of @s are all from @set */
static bool span(const char *s, int len, const char *set)
{
	return len > 0 && (int)strspn(s, set) >= len;
}

/* is_pid - "4242" or "4242/4243" */
static bool is_pid(const char *s, int len)
{
	const char *slash = memchr(s, '/', len);

	if (!slash)
		return span(s, len, "0123456789");
	return span(s, slash - s, "0123456789") &&
	       span(slash + 1, len - (slash + 1 - s), "0123456789");
}

/* is_cpu - "[001]" */
static bool is_cpu(const char *s, int len)
{
	return len > 2 && s[0] == '[' && s[len - 1] == ']' && span(s + 1, len - 2, "0123456789");
}

/* is_time - "5210.123456:" */
static bool is_time(const char *s, int len)
{
	const char *dot = memchr(s, '.', len);

	return dot && s[len - 1] == ':' && span(s, dot - s, "0123456789") &&
	       span(dot + 1, len - (dot + 1 - s) - 1, "0123456789");
}

/* tokens - where the blank-separated words of @l are: start and length, at most @max */
static int tokens(const char *l, int *at, int *len, int max)
{
	int n = 0, i = 0;

	while (n < max) {
		i += strspn(l + i, " \t\r\n");
		if (!l[i])
			break;
		at[n] = i;
		len[n] = strcspn(l + i, " \t\r\n");
		i += len[n++];
	}
	return n;
}

/* header - parse "comm pid/tid [cpu] time: period event: ..."; false when it is not one */
static bool header(const char *l, struct header *h)
{
	int at[32], len[32], n = tokens(l, at, len, 32), i, k, end;

	for (i = 1; i + 1 < n; i++)
		if (is_pid(l + at[i], len[i]) &&
		    (is_cpu(l + at[i + 1], len[i + 1]) || is_time(l + at[i + 1], len[i + 1])))
			break;
	if (i + 1 >= n)
		return false;
	h->comm = at[0];
	h->comm_len = at[i - 1] + len[i - 1] - at[0];
	k = i + 1;
	if (k < n && is_cpu(l + at[k], len[k]))
		k++;
	if (k < n && is_time(l + at[k], len[k]))
		k++;
	if (k < n && span(l + at[k], len[k], "0123456789"))
		k++;				/* the period */
	h->ev = -1;
	if (k < n && l[at[k] + len[k] - 1] == ':') {
		h->ev = at[k];
		h->ev_len = len[k] - 1;
		k++;
	}
	end = at[k - 1] + len[k - 1];
	end += strspn(l + end, " \t\r\n");
	h->rest = l[end] ? end : -1;
	return true;
}

/* ft_fold_perf_header - is @line a perf script sample's header? */
bool ft_fold_perf_header(const char *line)
{
	struct header h;

	return header(line, &h);
}

/* unknown - "[unknown]" in module @dso: "[dso's file name]", written over @sym */
static const char *unknown(char *sym, const char *dso)
{
	const char *base;
	size_t len;

	if (!dso || !*dso || !strcmp(dso, "[unknown]"))
		return "[unknown]";
	if (dso[0] == '[')
		return dso;
	base = strrchr(dso, '/') ? strrchr(dso, '/') + 1 : dso;
	len = strlen(base);
	memmove(sym + 1, base, len);	/* base lies after "[unknown] (" */
	sym[0] = '[';
	sym[len + 1] = ']';
	sym[len + 2] = 0;
	return sym;
}

/* frame - "ffffffff8a3c1d2e do_nanosleep+0x5e ([kernel.kallsyms])" as a frame, or NULL */
static const char *frame(char *s)
{
	size_t tok;
	char *sym, *dso, *p;
	uint64_t addr;

	s = ft_fold_trim(s);
	tok = strcspn(s, " \t");
	if (!ft_fold_hex(s, tok, &addr))
		return NULL;
	sym = ft_fold_trim(s + tok);
	dso = ft_fold_dso(sym);
	ft_fold_strip_offset(sym);
	if (!*sym || !strcmp(sym, "[unknown]"))
		return unknown(sym, dso);
	/* "ns::f(int) const" is ns::f; Go's "net/http.(*Client).Do" keeps its parentheses */
	for (p = sym; !strstr(sym, ".(") && (p = strchr(p, '(')); p += 21) {
		if (strncmp(p, "(anonymous namespace)", 21)) {
			if (p > sym)
				*p = 0;
			break;
		}
	}
	ft_fold_tidy(sym);
	return sym;
}

/* add - one more frame of the sample */
static int add(struct reader *r, const char *f)
{
	if (r->s.n == FT_FOLD_MAX_FRAMES)
		return ft_fold_err(r->in, r->in->lineno, "the sample at line %zu has more than %d "
				   "frames", r->s.line, FT_FOLD_MAX_FRAMES);
	r->s.frames[r->s.n++] = f;
	return 0;
}

/* end - the sample is complete: comm;root;...;leaf, once */
static int end(struct reader *r)
{
	const char *out[FT_FOLD_MAX_FRAMES];
	int i;

	r->open = false;
	if (!r->event && !(r->event = strdup(r->s.event))) {
		ft_err("out of memory");
		return -1;
	}
	if (strcmp(r->event, r->s.event)) {
		r->other++;
		return 0;
	}
	out[0] = r->s.frames[0];
	for (i = 1; i < r->s.n; i++)
		out[i] = r->s.frames[r->s.n - i];
	r->samples++;
	if (ft_fold_add_frames(r->fo, out, r->s.n, 1, r->in->before)) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/* start - a header line begins a sample; without a callchain its own ip may follow */
static int start(struct reader *r, char *l, const struct header *h)
{
	char *comm = l + h->comm, *p;
	const char *f;

	ft_fold_drop(r->in, true);	/* the samples before are in the table */
	r->open = true;
	r->s.n = 0;
	r->s.line = r->in->lineno;
	r->s.event = "";
	if (h->rest >= 0 && (f = frame(l + h->rest)) && add(r, f))
		return -1;
	if (h->ev >= 0) {
		l[h->ev + h->ev_len] = 0;
		r->s.event = l + h->ev;
	}
	comm[h->comm_len] = 0;
	for (p = comm; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
	ft_fold_tidy(comm);
	if (r->s.n)		/* the ip came first: the comm goes before it */
		r->s.frames[1] = r->s.frames[0];
	r->s.frames[0] = comm;
	r->s.n++;
	return 0;
}

/* line - one line of perf script output */
static int line(struct reader *r, char *l)
{
	const char *f;
	struct header h;

	if (!r->open)
		ft_fold_drop(r->in, true);	/* no line before this one is needed */
	if (l[0] == '#')
		return 0;
	if (!l[strspn(l, " \t\r\n")])
		return r->open ? end(r) : 0;
	if (header(l, &h)) {
		if (r->open && end(r))
			return -1;
		return start(r, l, &h);
	}
	if (r->open && isspace((unsigned char)l[0]) && (f = frame(l)))
		return add(r, f);
	l[strcspn(l, "\r\n")] = 0;
	return ft_fold_err(r->in, r->in->lineno, "neither a perf script sample's header (\"comm "
			   "pid [cpu] time: event:\") nor a frame (\"addr sym (dso)\"): '%.60s'",
			   ft_fold_trim(l));
}

/**
 * ft_fold_perf - add the samples of perf script output. Returns 0, or -1 after an
 * error line.
 */
int ft_fold_perf(struct ft_fold *fo, struct ft_fold_in *in)
{
	struct reader rd = { .fo = fo, .in = in }, *r = &rd;
	int ret = 0, got = 0;
	char *l;

	while (!ret && (got = ft_fold_next(in, &l)) > 0)
		ret = line(r, l);
	if (got < 0)
		ret = -1;
	if (!ret && r->open)
		ret = end(r);
	if (!ret && !r->samples) {
		ft_err("%s holds no perf script samples (\"comm pid [cpu] time: event:\" lines)",
		       in->what);
		ret = -1;
	}
	if (!ret && r->other)
		ft_err("note: %s: drew the %zu samples of %s, left out %zu of other events",
		       in->what, r->samples, r->event, r->other);
	free(r->event);
	return ret;
}
