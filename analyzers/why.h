/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --why: what a CPU did while a task waited for it. Fed every record, it keeps per
 * CPU a bounded timeline of what ran (a task, the idle task, a hard interrupt
 * handler, a softirq vector, or nothing known), and splits any recent window of a
 * CPU into parts that add up to the window exactly (docs/explain.md).
 */
#ifndef FTSCOPE_ANALYZERS_WHY_H
#define FTSCOPE_ANALYZERS_WHY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyzers/analyzer.h"
#include "lib/tab.h"

#define FT_WHY_PARTS	8	/* parts kept per window; the last may gather the rest */
#define FT_WHY_NAME	24
#define FT_WHY_NVEC	5	/* x86 system vectors with events (irq_vectors) */

enum ft_why_kind {
	FT_WHY_TASK, FT_WHY_IDLE, FT_WHY_HARDIRQ, FT_WHY_SOFTIRQ, FT_WHY_UNKNOWN,
	FT_WHY_OTHER,		/* id more parts, each smaller than the ones kept */
};

/* Why time is unknown (an FT_WHY_UNKNOWN part's id). */
enum ft_why_reason { FT_WHY_BEFORE, FT_WHY_LOST, FT_WHY_REBUILT, FT_WHY_FILTERED };

#define FT_WHY_AT_WAKEUP	1	/* a task running when the window began */
#define FT_WHY_SYNTH		2	/* a task switched in at a rebuilt switch */

/* One part of a window: who and how long. */
struct ft_why_part {
	uint64_t	ns;
	int		id;		/* pid, irq line, vector, reason, parts gathered */
	short		prio;		/* a task's kernel prio, from its records; -999 none */
	unsigned char	kind, flags;
	char		name[FT_WHY_NAME];
};

/* A window of a CPU, explained; the parts' ns add up to end - start. */
struct ft_why_expl {
	int			cpu;	/* -1: not explained */
	int			n;
	struct ft_why_part	part[FT_WHY_PARTS];	/* largest first */
};

struct ft_why_cpu;

struct ft_why {
	const struct ft_env	*env;
	struct ft_tp		hentry, hexit, sentry, sexit;
	struct ft_tp		vec[FT_WHY_NVEC][2];	/* irq_vectors: entry, exit */
	struct ft_why_cpu	*cpu;
	int			ncpus;
	char			(*names)[FT_WHY_NAME];	/* hard interrupt handlers seen */
	int			nnames;
	struct ft_tab		prios;		/* pid -> struct prio */
	unsigned int		dead;		/* entries of prios of tasks that exited */
};

struct ft_tp *ft_why_tracepoints(struct ft_why *y);
int ft_why_init(struct ft_why *y, const struct ft_env *env);
void ft_why_fini(struct ft_why *y);
void ft_why_event(struct ft_why *y, const struct ft_event *ev);
void ft_why_explain(struct ft_why *y, int cpu, uint64_t start, uint64_t end,
		    struct ft_why_expl *x);
void ft_why_print(FILE *f, const struct ft_why_expl *x, uint64_t wait, const char *head);
void ft_why_json(struct ft_json *j, const char *key, const struct ft_why_expl *x);
void ft_why_notes(FILE *f, const char *who, const struct ft_why *y);
void ft_why_notes_json(struct ft_json *j, const struct ft_why *y);

struct ft_wait;
bool ft_why_wait(struct ft_why *y, const struct ft_wait *w, struct ft_why_expl **x);
void ft_why_wait_print(FILE *f, const struct ft_wait *w, const struct ft_why_expl *x);
void ft_why_wait_json(struct ft_json *j, const struct ft_why_expl *x);

#endif
