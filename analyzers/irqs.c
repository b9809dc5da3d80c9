// SPDX-License-Identifier: GPL-2.0
/*
 * The options hardirqs and softirqs share (analyzers/irqs.h): their state begins with
 * a struct ft_irq_opts.
 */
#include "analyzers/irqs.h"
#include "lib/util.h"

/* ft_irq_parse_opt - -N, --count, --dist (BCC's -N, -C, -d) */
int ft_irq_parse_opt(void *priv, int opt, const char *arg)
{
	struct ft_irq_opts *o = priv;

	switch (opt) {
	case 'N': o->unit = &ft_unit_ns; return 0;
	case FT_IRQ_OPT_COUNT: o->count = true; return 0;
	case FT_IRQ_OPT_DIST: o->dist = true; return 0;
	}
	return -1;
}

/* ft_irq_check - --count or --dist, not both */
int ft_irq_check(void *priv, const struct ft_env *env)
{
	const struct ft_irq_opts *o = priv;

	if (o->count && o->dist) {
		ft_err("--count and --dist exclude each other");
		return -1;
	}
	return 0;
}
