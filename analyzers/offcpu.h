/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu: blocked time per (thread, kernel stack, user stack), with the waker's
 * stacks under --wakers. Tracking in offcpu.c, the reports in offcpu_report.c.
 */
#ifndef FTSCOPE_ANALYZERS_OFFCPU_H
#define FTSCOPE_ANALYZERS_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyzers/analyzer.h"
#include "analyzers/waits.h"
#include "events/syms.h"
#include "lib/intern.h"
#include "lib/tab.h"

/* The parts of an aggregation key (an interned array); stack ids are id + 1, 0 none. */
enum { K_TID, K_TGID, K_KST, K_UST, K_WTID, K_WTGID, K_WKST, K_WUST, K_LEN };

/* Stack quality, counted over the blocked periods' own stacks. */
struct offcpu_stack_notes {
	unsigned long long	periods, no_kstack, no_ustack;
	unsigned long long	ustack_early;	/* frame-pointer walk left executable memory */
	unsigned long long	ustack_full;	/* all 8 entries used: deeper frames cut */
	unsigned long long	ustack_unmapped;	/* the process's maps were never read */
	unsigned long long	waker_no_kstack;	/* --wakers: the kernel gave no waker stack */
	/* --stacks perf (offcpu_perf.c) */
	unsigned long long	sampled;	/* switch-outs matched with their sample */
	unsigned long long	no_sample;	/* ... that matched none */
	unsigned long long	before_sampling; /* ... none: before sampling began */
	unsigned long long	ustack_limit;	/* user stacks at the 127-frame limit */
	unsigned long long	samples_dropped; /* unmatched samples dropped, queue full */
	uint64_t		match_ns;	/* largest |sample - record| time matched */
	int			kdepth, udepth;	/* deepest kernel and user stacks taken */
};

/* Blocked time and periods of one key. */
struct offcpu_sum {
	uint64_t	ns, n;
};

struct offcpu {
	const struct ft_env	*env;
	/* options */
	bool			folded, delimited, wakers;
	bool			user_threads, kernel_threads;	/* -u, -k */
	bool			ustack_only, kstack_only;	/* -U, -K */
	bool			state_on[128];			/* switch-out states counted */
	bool			states_set, min_set;
	uint64_t		min_ns, max_ns;
	const char		*svg_path;
	FILE			*svg;
	bool			stacks_perf;	/* --stacks perf: stacks from samples */
	struct ft_sample_req	sreq;
	struct offcpu_perf	*perf;		/* ... their queues (offcpu_perf.c) */
	/* tracking */
	struct ft_tab		tasks;		/* tid -> struct offcpu_task */
	int			*pend;		/* per CPU: task whose stacks come next, -1 */
	bool			*pend_waker;	/* ... as its waker's stacks */
	struct ft_intern	kst, ust, keys;
	struct offcpu_sum	*sum;		/* per key id */
	uint32_t		vcap;
	struct ft_wait_notes	notes;		/* bounded: ended at a rebuilt switch-in */
	unsigned long long	unseen_in;	/* ended at a switch-out: upper bounds */
	struct offcpu_stack_notes sn;
	/* report */
	struct ft_ksyms		ksyms;
	struct ft_usyms		usyms;
};

void offcpu_print(struct offcpu *o, struct ft_report *r);

/* --stacks perf: stacks from perf_event_open samples of sched_switch (offcpu_perf.c) */
int offcpu_stacks_opt(struct offcpu *o, const char *arg);
const struct ft_sample_req *offcpu_sampling(void *priv);
void offcpu_sample(void *priv, const struct ft_sample *s);
int offcpu_perf_init(struct offcpu *o);
void offcpu_perf_stacks(struct offcpu *o, const struct ft_event *ev, uint32_t *kst,
			uint32_t *ust, int *tgid);
void offcpu_perf_notes(struct offcpu *o, FILE *f);
void offcpu_perf_json(struct offcpu *o, struct ft_json *j);
void offcpu_perf_fini(struct offcpu *o);

#endif
