// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus exposition (output/prom.h). A stub until the exporter lands.
 */
#include <stdlib.h>

#include "output/metrics.h"
#include "output/prom.h"

struct ft_prom {
	struct ft_metrics	sink;
};

/* sink_hist - a series: dropped (stub) */
static void sink_hist(struct ft_metrics *m, const char *name, const struct ft_label *l,
		      int nl, const struct ft_hist *h, const struct ft_unit *u)
{
	(void)m; (void)name; (void)l; (void)nl; (void)h; (void)u;
}

/* ft_prom_new - an empty exposition */
struct ft_prom *ft_prom_new(unsigned int max_series)
{
	struct ft_prom *p = calloc(1, sizeof(*p));

	(void)max_series;
	if (p)
		p->sink.hist = sink_hist;
	return p;
}

/* ft_prom_free - free everything */
void ft_prom_free(struct ft_prom *p)
{
	free(p);
}

/* ft_prom_metrics - the sink */
struct ft_metrics *ft_prom_metrics(struct ft_prom *p)
{
	return &p->sink;
}

/* ft_prom_begin - a new emission */
void ft_prom_begin(struct ft_prom *p)
{
	(void)p;
}

/* ft_prom_fold - the emission becomes the base */
void ft_prom_fold(struct ft_prom *p)
{
	(void)p;
}

/* ft_prom_counters - the run's counters */
void ft_prom_counters(struct ft_prom *p, unsigned long long events,
		      const unsigned long long *lost_cpu, int ncpus)
{
	(void)p; (void)events; (void)lost_cpu; (void)ncpus;
}

/* ft_prom_render - the text */
int ft_prom_render(struct ft_prom *p, bool openmetrics, char **buf, size_t *len)
{
	(void)p; (void)openmetrics;
	*buf = calloc(1, 1);
	*len = 0;
	return *buf ? 0 : -1;
}
