/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU counter stage: perf_event_open counting, per task (inherited by children)
 * or per CPU, over the same window as a trace or on its own (`ftscope stat`).
 */
#ifndef FTSCOPE_TRACER_PMU_H
#define FTSCOPE_TRACER_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output/pmu_print.h"

struct ft_json;
struct ft_trace_desc;

/* One event of the list, as parsed. */
struct ft_pmu_event {
	char		name[64];
	uint32_t	type;
	uint64_t	config;
	bool		exclude_user, exclude_kernel;
	int		leader;		/* index of its group's leader, -1 when not grouped */
	int		err;		/* why it could not be opened (0: open) */
};

/* What to count: tasks (pids, inherited by their children) or CPUs. */
struct ft_pmu_target {
	const int	*pids;
	int		npids;
	bool		enable_on_exec;	/* pids[0] is a command held before exec */
	const bool	*cpu_on;	/* per CPU when npids is 0 (NULL: every online CPU) */
	int		ncpus;
};

struct ft_pmu {
	struct ft_pmu_event	*ev;
	int			nev;
	int			*fd;		/* nev x ntgt, -1 when not open */
	int			ntgt;
	uint64_t		(*prev)[3];	/* value, enabled, running at the last read */
	struct ft_pmu_count	*count;		/* the window of the last ft_pmu_read */
	uint64_t		t_start, t_last;
	bool			on_exec;	/* counting starts when the command execs */
	char			target[128];	/* "'cmd args'", "system wide", ... */
};

int ft_pmu_event_resolve(struct ft_pmu_event *e);
int ft_pmu_can_sample(const char *tracepoint);
int ft_pmu_parse(struct ft_pmu *p, const char *list);
int ft_pmu_open_desc(struct ft_pmu *p, const struct ft_trace_desc *d, const int *pids, int npids);
void ft_pmu_enable(struct ft_pmu *p);
void ft_pmu_disable(struct ft_pmu *p);
uint64_t ft_pmu_read(struct ft_pmu *p, bool since_last);
void ft_pmu_block(struct ft_pmu *p, FILE *f, uint64_t elapsed, const struct ft_pmu_fmt *fmt,
		  const char *what);
void ft_pmu_report(struct ft_pmu *p, FILE *f, struct ft_json *j, bool since_last);
void ft_pmu_close(struct ft_pmu *p);

#endif
