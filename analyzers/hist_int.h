/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist's private state, shared by hist.c (options, records), hist_keys.c (the key
 * table), hist_stack.c (stack keys) and hist_report.c (the
 * report: tables, histograms, JSON).
 */
#ifndef FTSCOPE_ANALYZERS_HIST_INT_H
#define FTSCOPE_ANALYZERS_HIST_INT_H

#include "analyzers/analyzer.h"
#include "analyzers/hist_filter.h"
#include "analyzers/hist_span.h"
#include "events/syms.h"
#include "lib/file.h"
#include "lib/intern.h"
#include "output/hist.h"

#define HIST_KEYS	4			/* fields of one key */
#define HIST_SLOTS	(HIST_KEYS + 1 + HF_MAX_NAMES)
#define HIST_STR_MAX	256			/* bytes of a string key kept */
#define HIST_WORDS	(HIST_KEYS * (1 + HIST_STR_MAX / 8))

/* Where a slot's value comes from. */
enum { SRC_FIELD, SRC_MAYBE, SRC_COMM, SRC_PID, SRC_CPU, SRC_KSTACK, SRC_USTACK };

/* A user stack key's number: the process (for its frames' names) and the stack's id + 1. */
#define HIST_USTACK(tgid, id)	(((uint64_t)(uint32_t)(tgid) << 32) | (uint32_t)(id))

struct slot {
	const char	*name;
	int		src, k;		/* SRC_FIELD, SRC_MAYBE: field k of tp, or of tpx */
	bool		in_x;		/* (when in_x) */
	bool		is_str, is_unsigned;
	const struct ft_tp_field *fmt;	/* the event's field, or NULL (comm, pid, cpu) */
};

/* One key's totals: its count, and the --value histogram. */
struct hent {
	uint64_t	count;
	int64_t		sum, min, max;
	uint64_t	neg;		/* negative values: in count and sum, not the histogram */
	struct ft_hist	h;
};

/*
 * A record waiting for its stacks (ftrace writes them after it, on its CPU): one hist
 * counts (the key's words with the stack words left 0, where those are, the --value),
 * or another, whose stacks are only to be passed over.
 */
struct hist_pend {
	bool		counted, kdone;
	uint32_t	n;
	int		kpos, upos;	/* word of kstack, ustack; -1: not in the key */
	int		pid;
	int64_t		val;
	uint64_t	w[HIST_WORDS];
};

/*
 * The records of one CPU waiting for their stacks, innermost last: an interrupt's record
 * made between a record and its stacks has its stacks written first.
 */
#define HIST_NEST	6
struct hist_cpu {
	int			depth;
	struct hist_pend	e[HIST_NEST];
};

/* Stack keys (hist_stack.c): the stacks interned, their names, what was missing. */
struct hist_stacks {
	bool			on, kernel, user;
	bool			ustack_seen;	/* the trace writes user stacks */
	bool			folded;		/* -f: folded lines */
	const char		*svg_path;
	struct ft_outfile	svg;
	struct hist_cpu		*cpu;		/* per CPU: records waiting */
	struct ft_intern	kst, ust;
	struct ft_ksyms		ksyms;
	struct ft_usyms		usyms;
	uint64_t		no_kstack, no_ustack, ust_early, ust_full, ust_unmapped;
};

struct hist {
	struct hist_span	*span;		/* --from/--to: hist_span.c does the rest */
	const struct ft_env	*env;
	char			*event, *sys, *ev;	/* -e, split at ':' */
	char			*keyarg, *keys[HIST_KEYS];
	int			nkeys;
	const char		*value, *filter_text;
	struct hist_filter	flt;
	long			top, max_keys;
	bool			offline, comm;
	bool			raw;		/* --raw: numbers, not names */
	struct slot		slot[HIST_SLOTS];
	int			nslots, key_slot[HIST_KEYS], val_slot;
	struct ft_tp		tp, tpx, ren;	/* the event; its comm/pid/cpu if any; renames */
	struct ft_intern	in;
	struct hent		*ent;
	size_t			ncap;
	int			self;		/* live: our pid, whose reads of the trace are
						   records too (left out) */
	uint64_t		hits, filtered, dropped, oom, own;
	struct hist_stacks	st;
};

/* One field of a key, decoded from its interned words. */
struct kpart {
	bool		is_str;
	long long	num;
	const char	*s;
	int		len;
};

void hist_report(struct hist *h, struct ft_report *rep);
void hist_reset(struct hist *h);
void hist_key_parts(const struct hist *h, uint32_t id, struct kpart *p);
bool hist_key_num(const struct hist *h, int i, long long num, char *buf, int len);
void hist_print_totals(const struct hist *h, FILE *f, uint32_t shown, uint32_t keys);
void hist_json_head(const struct hist *h, struct ft_json *j);
int hist_by_count(const void *a, const void *b, void *ctx);
void hist_print_value(const struct hist *h, FILE *f, const struct hent *e);
void hist_json_value(const struct hent *e, struct ft_json *j);
void hist_json_key(const struct hist *h, struct ft_json *j, int i, const struct kpart *p);
void hist_count_words(struct hist *h, const uint64_t *w, uint32_t n, int64_t x);

/* Stack keys (hist_stack.c). */
bool hist_stack_slot(struct hist *h, const char *name, int *src);
int hist_stack_check(struct hist *h);
int hist_stack_init(struct hist *h);
bool hist_stack_event(struct hist *h, const struct ft_event *ev);
void hist_stack_hold(struct hist *h, const struct ft_event *ev, const uint64_t *w, uint32_t n,
		     const int *pos, int64_t x);
void hist_stack_flush(struct hist *h);
void hist_stack_report(struct hist *h, struct ft_report *rep);
void hist_stack_reset(struct hist *h);
void hist_stack_fini(struct hist *h);

#endif
