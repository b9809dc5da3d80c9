// SPDX-License-Identifier: GPL-2.0
/*
 * Latency heat maps (output/heatmap.h). A stub until the heat map lands.
 */
#include <stdlib.h>

#include "lib/util.h"
#include "output/heatmap.h"
#include "output/metrics.h"

struct ft_heatmap {
	struct ft_metrics	sink;
	const char		*path;
};

/* sink_hist - a series: dropped (stub) */
static void sink_hist(struct ft_metrics *m, const char *name, const struct ft_label *l,
		      int nl, const struct ft_hist *h, const struct ft_unit *u)
{
	(void)m; (void)name; (void)l; (void)nl; (void)h; (void)u;
}

/* ft_heatmap_new - an empty map */
struct ft_heatmap *ft_heatmap_new(const struct ft_heatmap_opts *o)
{
	struct ft_heatmap *h = calloc(1, sizeof(*h));

	if (!h) {
		ft_err("out of memory");
		return NULL;
	}
	h->sink.hist = sink_hist;
	h->path = o->path;
	return h;
}

/* ft_heatmap_free - free everything */
void ft_heatmap_free(struct ft_heatmap *h)
{
	free(h);
}

/* ft_heatmap_metrics - the sink */
struct ft_metrics *ft_heatmap_metrics(struct ft_heatmap *h)
{
	return &h->sink;
}

/* ft_heatmap_begin - a new emission */
void ft_heatmap_begin(struct ft_heatmap *h)
{
	(void)h;
}

/* ft_heatmap_take - the columns up to @ts */
uint64_t ft_heatmap_take(struct ft_heatmap *h, uint64_t ts)
{
	(void)h; (void)ts;
	return UINT64_MAX;
}

/* ft_heatmap_fold - the emission becomes the base */
void ft_heatmap_fold(struct ft_heatmap *h)
{
	(void)h;
}

/* ft_heatmap_write - the SVG (stub: refused) */
int ft_heatmap_write(struct ft_heatmap *h)
{
	ft_err("--heatmap %s: not built yet", h->path);
	return -1;
}
