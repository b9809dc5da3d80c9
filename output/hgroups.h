/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A latency histogram in total and, optionally, one per process, thread or CPU
 * (BCC's -P, -L and per-CPU views), printed and written as JSON the same way by
 * every analyzer.
 */
#ifndef FTSCOPE_OUTPUT_HGROUPS_H
#define FTSCOPE_OUTPUT_HGROUPS_H

#include <stdio.h>

#include "lib/tab.h"
#include "output/hist.h"

struct ft_json;
struct ft_label;
struct ft_metrics;
struct ft_tasks;

enum ft_group_by { FT_BY_NONE, FT_BY_PID, FT_BY_TID, FT_BY_CPU };

struct ft_hgroups {
	enum ft_group_by	by;
	const struct ft_unit	*unit;
	struct ft_hist		total;
	struct ft_tab		groups;		/* key -> struct ft_hgroup */
	struct ft_tasks		*tasks;
	unsigned long long	oom;		/* values missing from their group */
};

struct ft_hgroup {
	int		key;
	struct ft_hist	hist;
	char		comm[17];	/* its name when its series was first exported: a series
					   keeps its labels while the group lives, or its counts
					   would move to another */
};

int ft_hgroups_init(struct ft_hgroups *g, struct ft_tasks *tasks);
void ft_hgroups_fini(struct ft_hgroups *g);
void ft_hgroups_add_group(struct ft_hgroups *g, int tid, int cpu, const char *comm,
			  uint64_t ns);

/* ft_hgroups_add - one value of thread @tid (comm as its event names it), seen on @cpu */
static inline void ft_hgroups_add(struct ft_hgroups *g, int tid, int cpu, const char *comm,
				  uint64_t ns)
{
	ft_hist_add(&g->total, g->unit, ns);
	if (g->by != FT_BY_NONE)
		ft_hgroups_add_group(g, tid, cpu, comm, ns);
}
void ft_hgroups_print(struct ft_hgroups *g, FILE *f);
void ft_hgroups_json(struct ft_hgroups *g, struct ft_json *j);
void ft_hgroups_reset(struct ft_hgroups *g);
void ft_hgroups_metrics(struct ft_hgroups *g, struct ft_metrics *m, const char *name,
			const struct ft_label *extra, int nextra);

#endif
