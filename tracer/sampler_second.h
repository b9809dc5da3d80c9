/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The request's second event on the same rings (tracer/sampler_second.c): profile
 * --offcpu's sched_switch, filtered on the targets and their new threads.
 */
#ifndef FTSCOPE_TRACER_SAMPLER_SECOND_H
#define FTSCOPE_TRACER_SAMPLER_SECOND_H

#include <stdbool.h>
#include <stdint.h>

#include "tracer/sampler_state.h"

int ft_sampler_open_second(struct ft_sampler *sp, int i, int pid, int cpu, bool inherit,
			   int first);
int ft_sampler_alloc_second(struct ft_sampler *sp, bool per_task, const int *pids, int npids);
int ft_sampler_add_ftid(struct ft_sampler *sp, int tid);
void ft_sampler_refilter(struct ft_sampler *sp);
void ft_sampler_sort_ids(struct ft_sampler *sp);
bool ft_sampler_is_second(const struct ft_sampler *sp, uint64_t id);

#endif
