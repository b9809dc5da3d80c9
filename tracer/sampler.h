/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling stage: perf_event_open with PERF_SAMPLE_CALLCHAIN (and with
 * --call-graph dwarf the user registers and a copy of the user stack, unwound here
 * by events/unwind.h), one mmap ring per CPU (the events of every target on a CPU
 * write to that CPU's ring), drained by the run's rounds. Lost records and
 * throttling are counted, and why each unwound user stack ended.
 */
#ifndef FTSCOPE_TRACER_SAMPLER_H
#define FTSCOPE_TRACER_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "events/sample.h"
#include "tracer/sampler_state.h"

struct ft_trace_desc;
struct pollfd;

typedef void (*ft_sample_fn)(void *ctx, const struct ft_sample *s);

int ft_sampler_open(struct ft_sampler *sp, const struct ft_trace_desc *d, const int *pids,
		    int npids);
void ft_sampler_enable(struct ft_sampler *sp);
void ft_sampler_disable(struct ft_sampler *sp);
int ft_sampler_pollfds(const struct ft_sampler *sp, struct pollfd *pfd, int max);
int ft_sampler_drain(struct ft_sampler *sp, uint64_t upto, ft_sample_fn fn, void *ctx);
void ft_sampler_hangup(struct ft_sampler *sp, int fd);
void ft_sampler_close(struct ft_sampler *sp);

#endif
