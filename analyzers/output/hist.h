/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histograms: BCC's log2 layout for display, plus a log-linear table
 * (8 sub-buckets per power of two, < 6.25% error) for percentiles.
 */
#ifndef FTSCOPE_OUTPUT_HIST_H
#define FTSCOPE_OUTPUT_HIST_H

#include <stdint.h>
#include <stdio.h>

#define FT_LOG2_SLOTS	65
#define FT_LINLOG_SLOTS	496

struct ft_json;

struct ft_hist {
	uint64_t	log2[FT_LOG2_SLOTS];	/* by value in display units, BCC's slots */
	uint64_t	fine[FT_LINLOG_SLOTS];	/* by value in ns */
	uint64_t	count;
	uint64_t	sum_ns;
	uint64_t	min_ns, max_ns;
};

/* Display unit of a histogram: divisor from ns and the label BCC prints. */
struct ft_unit {
	uint64_t	div;
	const char	*label;		/* "usecs", "msecs", "nsecs" */
	const char	*short_name;	/* "us", "ms", "ns" */
};

extern const struct ft_unit ft_unit_ns, ft_unit_us, ft_unit_ms;

void ft_hist_add(struct ft_hist *h, const struct ft_unit *u, uint64_t ns);
void ft_hist_reset(struct ft_hist *h);
void ft_hist_merge(struct ft_hist *dst, const struct ft_hist *src);
uint64_t ft_hist_percentile(const struct ft_hist *h, double p);
void ft_hist_print_log2(FILE *f, const struct ft_hist *h, const char *label);
void ft_hist_print_summary(FILE *f, const struct ft_hist *h, const struct ft_unit *u);
void ft_hist_json(struct ft_json *j, const char *key, const struct ft_hist *h,
		  const struct ft_unit *u);

#endif
