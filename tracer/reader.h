/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session's per-CPU readers: trace_pipe_raw read() in rounds, or the rings mapped
 * (tracer/ringmap.c), poll() between rounds, and the losses from per-CPU stats.
 */
#ifndef FTSCOPE_TRACER_READER_H
#define FTSCOPE_TRACER_READER_H

#include <poll.h>
#include <stdbool.h>

struct ft_merge;
struct ft_session;
struct ft_trace_desc;

int ft_reader_setup(struct ft_session *s, const struct ft_trace_desc *d, bool splice);
void ft_reader_realtime_end(struct ft_session *s);
void ft_reader_counts(const struct ft_session *s);
void ft_reader_unmap(struct ft_session *s);
void ft_reader_wait(struct ft_session *s, int timeout_ms, struct pollfd *extra, int nextra);
long ft_reader_round(struct ft_session *s, struct ft_merge *m);
int ft_reader_losses(struct ft_session *s, struct ft_merge *m);
unsigned long long ft_session_lost(const struct ft_session *s, int cpu);
unsigned long long ft_session_read_events(const struct ft_session *s, int cpu);

#endif
