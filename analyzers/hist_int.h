/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist's private state, shared by hist.c (options, records) and hist_report.c (the
 * report: tables, histograms, JSON).
 */
#ifndef FTSCOPE_ANALYZERS_HIST_INT_H
#define FTSCOPE_ANALYZERS_HIST_INT_H

#include "analyzers/analyzer.h"
#include "analyzers/hist_filter.h"
#include "analyzers/hist_span.h"
#include "lib/intern.h"
#include "output/hist.h"

#define HIST_KEYS	4			/* fields of one key */
#define HIST_SLOTS	(HIST_KEYS + 1 + HF_MAX_NAMES)
#define HIST_STR_MAX	256			/* bytes of a string key kept */
#define HIST_WORDS	(HIST_KEYS * (1 + HIST_STR_MAX / 8))

/* Where a slot's value comes from. */
enum { SRC_FIELD, SRC_MAYBE, SRC_COMM, SRC_PID, SRC_CPU };

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
	uint32_t		ncap;
	int			self;		/* live: our pid, whose reads of the trace are
						   records too (left out) */
	uint64_t		hits, filtered, dropped, oom, own;
};

void hist_report(void *priv, struct ft_report *rep);
void hist_reset(struct hist *h);

#endif
