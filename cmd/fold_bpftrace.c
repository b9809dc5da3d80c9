// SPDX-License-Identifier: GPL-2.0
/*
 * bpftrace map output as stacks. bpftrace prints a map entry whose key holds
 * stacks over several lines: "@name[" and the key's parts joined by ", ", where a
 * stack part is a newline and then one frame per line (indented, leaf first) and
 * the entry ends with "]: COUNT":
 *
 *	@off[bk-sleeper,
 *	    0x7f621c830545
 *	    main+52
 *	,
 *	    schedule+35
 *	    entry_SYSCALL_64_after_hwframe+118
 *	]: 1003889
 *
 * Frames come in bpftrace's stack modes: "func+12" (with "@file:line" when bpftrace
 * shows debug info), "0x7f..." unresolved, "ffffffff81... func+12" (perf), a bare
 * address (raw). Offsets and debug info are dropped. The folded stack is the key's
 * other parts (comm, pid) as root frames, in key order, then its stacks, each root
 * first: user stacks before kernel stacks where addresses or the kernel's entry
 * points tell them apart, else in reverse key order, as stackcollapse-bpftrace.pl
 * reads @[kstack, ustack, comm] (the key, top to bottom, is one stack, leaf first).
 * Other output (printf lines, maps without stacks in their keys) is skipped.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/fold.h"
#include "lib/util.h"

#define MAX_PARTS	32

enum { RANK_USER, RANK_UNKNOWN, RANK_KERNEL };

/* One part of a key: a stack (its frames) or another value (one frame). */
struct part {
	bool	stack;
	int	first, n;	/* in frames[] */
	int	kaddr, uaddr;	/* frames at kernel and user addresses */
};

struct reader {
	struct ft_fold			*fo;
	struct ft_fold_in		*in;		/* holds the open entry's lines */
	size_t				lineno, start;	/* this line, the entry's first */
	const char			*map;		/* this entry's map */
	char				*key_map;	/* the stacks' map (a copy) */
	int				map_len, key_map_len;
	size_t				key_map_line;
	bool				open;		/* inside a key */
	size_t				entries;
	struct part			parts[MAX_PARTS];
	int				nparts;
	const char			*frames[FT_FOLD_MAX_FRAMES];
	int				nframes;
};

/* entry_start - where "[" is in a line "@name[...", or -1 */
static int entry_start(const char *l)
{
	int i = 1;

	if (l[0] != '@')
		return -1;
	while (isalnum((unsigned char)l[i]) || l[i] == '_')
		i++;
	return l[i] == '[' ? i : -1;
}

/**
 * ft_fold_bpftrace_line - is @line bpftrace's own: a map entry "@name[" or
 * "Attaching N probes..."?
 */
bool ft_fold_bpftrace_line(const char *line)
{
	return entry_start(line) >= 0 ||
	       (!strncmp(line, "Attaching ", 10) && strstr(line, " probe"));
}

/* closing - the "]" of a "]: VALUE" or "]:" that ends @l, or NULL */
static char *closing(char *l)
{
	char *p = l, *last = NULL;

	while ((p = strstr(p, "]:"))) {
		if (!p[2] || p[2] == ' ')
			last = p;
		p += 2;
	}
	return last;
}

/* new_part - one more part of the key; NULL (after an error line) past MAX_PARTS */
static struct part *new_part(struct reader *r, bool stack)
{
	struct part *p;

	if (r->nparts == MAX_PARTS) {
		ft_fold_err(r->in, r->lineno, "the key of @%.*s[ (line %zu) has more than %d parts",
			    r->map_len, r->map, r->start, MAX_PARTS);
		return NULL;
	}
	p = &r->parts[r->nparts++];
	*p = (struct part){ .stack = stack, .first = r->nframes };
	return p;
}

/* add_frame - one frame for the last part */
static int add_frame(struct reader *r, const char *f)
{
	if (r->nframes == FT_FOLD_MAX_FRAMES)
		return ft_fold_err(r->in, r->lineno, "the key of @%.*s[ (line %zu) has more than "
				   "%d frames", r->map_len, r->map, r->start, FT_FOLD_MAX_FRAMES);
	r->frames[r->nframes++] = f;
	r->parts[r->nparts - 1].n++;
	return 0;
}

/*
 * add_values - the key's parts in @s that are not stacks, "comm" or "comm, 123",
 * cut up in place; an empty part is a stack bpftrace could not look up
 */
static int add_values(struct reader *r, char *s)
{
	char *next;

	do {
		struct part *p;

		next = strstr(s, ", ");
		if (next)
			*next = 0;
		p = new_part(r, !*s);
		if (!p)
			return -1;
		if (*s) {
			ft_fold_tidy(s);
			if (add_frame(r, s))
				return -1;
		}
		s = next ? next + 2 : NULL;
	} while (s);
	return 0;
}

/* frame - a frame line's function: no address (perf mode), offset or debug info */
static const char *frame(char *l, struct part *p)
{
	char *s = ft_fold_trim(l), *at;
	size_t tok = strcspn(s, " \t");
	uint64_t addr;

	if (ft_fold_hex(s, tok, &addr)) {
		if (addr >> 63)
			p->kaddr++;
		else if (addr >= 0x1000)
			p->uaddr++;
		/* perf mode: "ffffffffb4019501 do_mmap+1", maybe " (module)" after it */
		if (s[tok]) {
			s = ft_fold_trim(s + tok);
			ft_fold_dso(s);
		}
	}
	/* debug info: "do_nanosleep+94@kernel/time/hrtimer.c:2045" */
	at = strrchr(s, '@');
	if (at && at > s && strchr(at, ':') && isdigit((unsigned char)s[strlen(s) - 1]))
		*at = 0;
	ft_fold_strip_offset(s);
	ft_fold_tidy(s);
	return *s ? s : "[unknown]";
}

/* kernel_root - is @f a root frame only kernel stacks have (entry points)? */
static bool kernel_root(const char *f)
{
	static const char *const roots[] = {
		"entry_SYSCALL_64_after_hwframe", "entry_SYSCALL_64", "entry_INT80_compat",
		"entry_SYSENTER_compat_after_hwframe", "entry_SYSCALL_compat_after_hwframe",
		"ret_from_fork", "ret_from_fork_asm", "secondary_startup_64",
		"secondary_startup_64_no_verify", "common_startup_64", "x86_64_start_kernel",
		"start_kernel", "kernel_init", "cpu_startup_entry",
	};
	size_t i;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strcmp(f, roots[i]))
			return true;
	/* x86 interrupt and exception entries, arm64 exception vectors */
	return !strncmp(f, "asm_", 4) || !strncmp(f, "el0t_", 5) || !strncmp(f, "el1h_", 5);
}

/* rank - where a stack goes: user stacks first (rootward), kernel stacks last */
static int rank(const struct reader *r, const struct part *p)
{
	if (p->kaddr && !p->uaddr)
		return RANK_KERNEL;
	if (p->uaddr && !p->kaddr)
		return RANK_USER;
	if (p->n && kernel_root(r->frames[p->first + p->n - 1]))
		return RANK_KERNEL;
	return RANK_UNKNOWN;
}

/* emit - the finished entry as one folded stack counted @count times */
static int emit(struct reader *r, double count)
{
	const char *out[FT_FOLD_MAX_FRAMES];
	int order[MAX_PARTS], ns = 0, n = 0, i, j;

	if (!r->key_map) {
		if (!(r->key_map = strndup(r->map, r->map_len))) {
			ft_err("out of memory");
			return -1;
		}
		r->key_map_len = r->map_len;
		r->key_map_line = r->start;
	} else if (r->map_len != r->key_map_len || strncmp(r->map, r->key_map, r->map_len)) {
		return ft_fold_err(r->in, r->start, "stacks of two maps, @%.*s[ (line %zu) and "
				   "@%.*s[: keep one map in the input", r->key_map_len, r->key_map,
				   r->key_map_line, r->map_len, r->map);
	}
	/* the stacks in reverse key order, then user stacks first (a stable sort) */
	for (i = r->nparts - 1; i >= 0; i--) {
		if (!r->parts[i].stack)
			continue;
		for (j = ns; j > 0 && rank(r, &r->parts[order[j - 1]]) > rank(r, &r->parts[i]); j--)
			order[j] = order[j - 1];
		order[j] = i;
		ns++;
	}
	for (i = 0; i < r->nparts; i++)
		if (!r->parts[i].stack)
			out[n++] = r->frames[r->parts[i].first];
	for (i = 0; i < ns; i++) {
		const struct part *p = &r->parts[order[i]];

		for (j = p->n - 1; j >= 0; j--)
			out[n++] = r->frames[p->first + j];
	}
	r->entries++;
	if (ft_fold_add_frames(r->fo, out, n, count, r->in->before)) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/*
 * finish - the entry's last line: the key's values in @l before "]: COUNT" at
 * @close; after a stack, ", comm" or "comm" or nothing
 */
static int finish(struct reader *r, char *l, char *close, bool after_stack)
{
	char *v = ft_fold_trim(close + 2), *end;
	bool stacks = false;
	double count;
	int i;

	*close = 0;
	if (after_stack && *l == ',')
		l += 1 + (l[1] == ' ');
	else if (after_stack && !*l)
		l = NULL;
	if (l && add_values(r, l))
		return -1;
	r->open = false;
	for (i = 0; i < r->nparts; i++)
		stacks |= r->parts[i].stack;
	if (!stacks)		/* a map without stacks in its keys: not ours */
		return 0;
	count = strtod(v, &end);
	if (!*v || *end || !(count >= 0) || !isfinite(count))
		return ft_fold_err(r->in, r->lineno, "the value of @%.*s[ (line %zu) is not a "
				   "count: '%.40s' (flamegraph takes count(), sum() and the like)",
				   r->map_len, r->map, r->start, v);
	return emit(r, count);
}

/* stray - the error line for a line inside a key that is not one */
static int stray(struct reader *r, const char *l)
{
	if (!*l)
		return ft_fold_err(r->in, r->lineno, "blank line in the key of @%.*s[ (line %zu): "
				   "the entry is cut short", r->map_len, r->map, r->start);
	return ft_fold_err(r->in, r->lineno, "'%.60s' in the key of @%.*s[ (line %zu) is neither "
			   "a frame nor ', ' nor ']: COUNT'", l, r->map_len, r->map, r->start);
}

/* key_line - a line inside a key: a frame, ", " between parts, or the entry's end */
static int key_line(struct reader *r, char *l)
{
	char *close = isspace((unsigned char)*l) ? NULL : closing(l);
	size_t len;

	if (close)
		return finish(r, l, close, true);
	if (*l == ',') {
		/* ", " then a stack, or ", comm, " then a stack */
		l += 1 + (l[1] == ' ');
		len = strlen(l);
		if (len && l[len - 1] != ',')
			return stray(r, l);
		if (len) {
			l[len - 1] = 0;
			if (add_values(r, l))
				return -1;
		}
		return new_part(r, true) ? 0 : -1;
	}
	len = strspn(l, "0123456789abcdefABCDEF");
	if ((isspace((unsigned char)*l) && l[strspn(l, " \t")]) || (len && !l[len]))
		return add_frame(r, frame(l, &r->parts[r->nparts - 1]));
	return stray(r, l);
}

/* start - a line "@name[...": a whole entry, or the start of a key with stacks */
static int start(struct reader *r, char *l, int br)
{
	char *key = l + br + 1, *close = closing(key);
	size_t len;

	r->map = l + 1;
	r->map_len = br - 1;
	r->start = r->lineno;
	r->nparts = 0;
	r->nframes = 0;
	if (close)
		return finish(r, key, close, false);
	r->open = true;
	len = strlen(key);
	if (len && key[len - 1] != ',')
		return ft_fold_err(r->in, r->lineno, "'%.60s' is neither a map entry nor the start "
				   "of a key with stacks", l);
	if (len) {
		key[len - 1] = 0;
		if (add_values(r, ft_fold_trim(key)))
			return -1;
	}
	return new_part(r, true) ? 0 : -1;
}

/**
 * ft_fold_bpftrace - add the stacks of bpftrace's map output: the entries of the
 * one map whose keys hold stacks. Returns 0, or -1 after an error line.
 */
int ft_fold_bpftrace(struct ft_fold *fo, struct ft_fold_in *in)
{
	struct reader rd = { .fo = fo, .in = in }, *r = &rd;
	int br, ret = 0, got = 0;
	char *l;

	while (!ret && (got = ft_fold_next(in, &l)) > 0) {
		size_t len = strlen(l);

		while (len && isspace((unsigned char)l[len - 1]))
			l[--len] = 0;
		r->lineno = in->lineno;
		if (r->open) {
			ret = key_line(r, l);
			continue;
		}
		ft_fold_drop(in, true);		/* the entries before are in the table */
		if ((br = entry_start(l)) >= 0)
			ret = start(r, l, br);
		/* else printf output, histograms, "Attaching N probes...": not stacks */
	}
	if (got < 0)
		ret = -1;
	if (!ret && r->open) {
		ret = ft_fold_err(in, r->start, "the key of @%.*s[ never ends with ']: COUNT'",
				  r->map_len, r->map);
	} else if (!ret && !r->entries) {
		ft_err("%s holds no bpftrace map with stacks in its keys (@[kstack]: COUNT, "
		       "@name[comm, ustack]: COUNT)", in->what);
		ret = -1;
	}
	free(r->key_map);
	return ret;
}
