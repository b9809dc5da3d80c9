/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What hardirqs and softirqs share: BCC's -N, --count and --dist (struct ft_irq_opts,
 * the first member of each one's state, so that hardirqs.c's parse_opt and check
 * serve both).
 */
#ifndef FTSCOPE_ANALYZERS_IRQS_H
#define FTSCOPE_ANALYZERS_IRQS_H

#include "analyzers/analyzer.h"

struct ft_irq_opts {
	const struct ft_unit	*unit;		/* -N: ns (init: microseconds if unset) */
	bool			count, dist;	/* --count, --dist */
};

enum { FT_IRQ_OPT_COUNT = 0x100, FT_IRQ_OPT_DIST, FT_IRQ_OPT_NEXT };

#define FT_IRQ_LONGOPTS \
	{ "nanoseconds",	no_argument, NULL, 'N' }, \
	{ "count",		no_argument, NULL, FT_IRQ_OPT_COUNT }, \
	{ "dist",		no_argument, NULL, FT_IRQ_OPT_DIST }

int ft_irq_parse_opt(void *priv, int opt, const char *arg);
int ft_irq_check(void *priv, const struct ft_env *env);

#endif
