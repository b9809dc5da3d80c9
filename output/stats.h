/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running statistics (Welford): count, sum, min, max, mean and the spread, with
 * perf's "stddev %" (the standard deviation of the mean, relative to the mean).
 */
#ifndef FTSCOPE_OUTPUT_STATS_H
#define FTSCOPE_OUTPUT_STATS_H

#include <math.h>
#include <stdint.h>

struct ft_stats {
	uint64_t	n, sum, min, max;
	double		mean, m2;
};

/* ft_stats_add - account one value */
static inline void ft_stats_add(struct ft_stats *s, uint64_t v)
{
	double d = (double)v - s->mean;

	s->n++;
	s->sum += v;
	if (s->n == 1 || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->mean += d / (double)s->n;
	s->m2 += d * ((double)v - s->mean);
}

/* ft_stats_rel_stddev - 100 * stddev of the mean / mean, as perf prints it */
static inline double ft_stats_rel_stddev(const struct ft_stats *s)
{
	double var_mean;

	if (s->n < 2 || s->mean == 0)
		return 0;
	var_mean = s->m2 / (double)(s->n - 1) / (double)s->n;
	return 100.0 * sqrt(var_mean) / s->mean;
}

#endif
