/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms as series, the way an analyzer hands them to the exports (Prometheus,
 * heat maps): a metric name ("runqlat": ftscope_runqlat_seconds), labels that tell
 * its series apart (comm, pid, tid, cpu, function, ...) and the histogram itself.
 * An export is a sink: its hist() gets every series of one emission, in the order the
 * analyzer walks them; what it keeps of them is its own business. Series of one
 * emission with the same name and label set add up to one (an analyzer may hand over
 * each thread of a command under the command's label).
 */
#ifndef FTSCOPE_OUTPUT_METRICS_H
#define FTSCOPE_OUTPUT_METRICS_H

#include "output/hist.h"

/* One label of a series; values are copied by the sink when it keeps them. */
struct ft_label {
	const char	*name;
	const char	*value;
};

#define FT_METRIC_MAX_LABELS	4

struct ft_metrics {
	/* one series: @name (letters, digits, '_'), @nl labels, its histogram in @u's rows */
	void	(*hist)(struct ft_metrics *m, const char *name, const struct ft_label *l,
			int nl, const struct ft_hist *h, const struct ft_unit *u);
};

/* ft_metrics_hist - hand one series to the sink */
static inline void ft_metrics_hist(struct ft_metrics *m, const char *name,
				   const struct ft_label *l, int nl, const struct ft_hist *h,
				   const struct ft_unit *u)
{
	m->hist(m, name, l, nl, h, u);
}

#endif
