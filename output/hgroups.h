/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A latency histogram in total and, optionally, one per process, thread or CPU
 * (BCC's -P, -L and per-CPU views): a labelled set (output/hset.h) keyed by pid, tid
 * or cpu, printed and written as JSON the same way by every analyzer. Set by and
 * unit (microseconds by default) before ft_hgroups_init.
 */
#ifndef FTSCOPE_OUTPUT_HGROUPS_H
#define FTSCOPE_OUTPUT_HGROUPS_H

#include <stdio.h>

#include "output/hset.h"

struct ft_label;

int ft_hgroups_init(struct ft_hset *g, struct ft_tasks *tasks);
void ft_hgroups_add_group(struct ft_hset *g, int tid, int cpu, const char *comm, uint64_t ns);

/* ft_hgroups_add - one value of thread @tid (comm as its event names it), seen on @cpu */
static inline void ft_hgroups_add(struct ft_hset *g, int tid, int cpu, const char *comm,
				  uint64_t ns)
{
	ft_hist_add(&g->total, g->unit, ns);
	if (g->by != FT_BY_NONE)
		ft_hgroups_add_group(g, tid, cpu, comm, ns);
}
void ft_hgroups_print(struct ft_hset *g, FILE *f);
void ft_hgroups_json(struct ft_hset *g, struct ft_json *j);
void ft_hgroups_reset(struct ft_hset *g);
void ft_hgroups_metrics(struct ft_hset *g, struct ft_metrics *m, const char *name,
			const struct ft_label *extra, int nextra);

#endif
