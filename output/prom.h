/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prometheus exposition of an analyzer's histograms: the series it emits (through the
 * sink, output/metrics.h) kept cumulative since the start across interval resets,
 * at most max_series per metric (the rest summed in one series whose labels say
 * "other"), rendered in the text format 0.0.4 or in OpenMetrics 1.0.0, with the
 * run's event and loss counters.
 */
#ifndef FTSCOPE_OUTPUT_PROM_H
#define FTSCOPE_OUTPUT_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ft_prom;
struct ft_metrics;

struct ft_prom *ft_prom_new(unsigned int max_series);
void ft_prom_free(struct ft_prom *p);
/* the sink an analyzer's metrics() emits into, between ft_prom_begin and render/fold */
struct ft_metrics *ft_prom_metrics(struct ft_prom *p);
void ft_prom_begin(struct ft_prom *p);
/* the analyzer is about to reset its histograms: what it emitted becomes the base */
void ft_prom_fold(struct ft_prom *p);
/* ftscope_events_total and ftscope_events_lost_total{cpu="N"}, as of now */
void ft_prom_counters(struct ft_prom *p, unsigned long long events,
		      const unsigned long long *lost_cpu, int ncpus);
/* the whole text after a begin and an emission: malloc'ed in *@buf; 0, or -1 (ENOMEM) */
int ft_prom_render(struct ft_prom *p, bool openmetrics, char **buf, size_t *len);

#endif
