/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile: on-CPU samples per (thread, kernel stack, user stack), and with
 * --offcpu the off-CPU periods of offcpu's tracking in the same profile. Its
 * private state, shared by the options and tracking (profile.c) and the reports
 * (profile_report.c).
 */
#ifndef FTSCOPE_ANALYZERS_PROFILE_INT_H
#define FTSCOPE_ANALYZERS_PROFILE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyzers/offcpu_int.h"

/* The parts of a key; stack ids are id + 1 in the offcpu part's kst and ust, 0 none. */
enum { PK_TID, PK_TGID, PK_KST, PK_UST, PK_MARK, PK_LEN };

/* PK_MARK: 0 on-CPU samples; off-CPU time: its state letter (--state), else this. */
#define PROFILE_OFFCPU	'o'

/* Samples and value of one key: summed periods (events, or ns); off-CPU: ns. */
struct profile_sum {
	uint64_t	samples, value;
};

/* What the totals cannot show, since the last report. */
struct profile_notes {
	unsigned long long	samples, idle;
	unsigned long long	ustack_early;	/* frame-pointer walk left executable memory */
	unsigned long long	ustack_unmapped;	/* the process's maps were never read */
	unsigned long long	periods;	/* --offcpu: off-CPU periods */
	unsigned long long	clamped;	/* ... ended at the thread's next sample */
	uint64_t		on_value, off_ns;
};

struct profile {
	struct offcpu		oc;		/* tracking (--offcpu), stacks and symbols */
	const struct ft_env	*env;
	/* options */
	struct ft_sample_req	req;
	/* --offcpu where a process is chosen, live: every sched_switch sampled beside
	   (req.second), the off-CPU stacks matched as offcpu's (offcpu_perf.c), unless
	   declined (a recording, a kernel that refuses): then ftrace's */
	struct ft_sample_req	sw;
	bool			sw_on;
	bool			freq_set, period_set, event_set;
	bool			folded, offcpu, state;
	bool			ustack_only, kstack_only;	/* -u, -k */
	long			top;
	long			max_rate;	/* live -F: kernel.perf_event_max_sample_rate */
	const char		*svg_path;
	struct ft_outfile	svg;		/* --svg FILE, open from init on */
	/* totals */
	struct ft_tab		seen;		/* tid -> struct profile_thread */
	struct ft_intern	keys;
	struct profile_sum	*sum;		/* per key id */
	uint32_t		vcap;
	struct profile_notes	n;
};

/* A sampled thread: its name as its samples last gave it (the kernel's records). */
struct profile_thread {
	int		tid;
	char		comm[16];
	uint64_t	*ran;		/* --offcpu: times of its samples, from [head] on not yet
					   past a period (sorted when a period needs them) */
	uint32_t	head, nran, capran;
	bool		unsorted;
};

const char *profile_comm(struct profile *p, int tid);
const struct ft_sample_req *profile_req(const struct profile *p);
void profile_print(struct profile *p, struct ft_report *r);

#endif
