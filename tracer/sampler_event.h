/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the sampling stage opens (tracer/sampler_event.c): the request resolved to an
 * event, the perf clock of a trace clock, one event opened and its ring mapped.
 */
#ifndef FTSCOPE_TRACER_SAMPLER_EVENT_H
#define FTSCOPE_TRACER_SAMPLER_EVENT_H

#include <stdbool.h>

#include "tracer/sampler_state.h"

int ft_sampler_clock(const char *name, int *id);
int ft_sampler_resolve(struct ft_sampler *sp, const struct ft_sample_req *req);
int ft_sampler_open_one(struct ft_sampler *sp, int pid, int cpu, bool inherit, bool second);
int ft_sampler_map_cpu(struct ft_sampler *sp, int cpu, int fd, int first);

#endif
