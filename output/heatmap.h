/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency heat maps (Brendan Gregg's): time across in columns, the histogram's log2
 * rows up, each cell coloured by its count, as one interactive SVG (hover: the cell's
 * time range, latency range and count; click: zoom in time). The columns come from
 * snapshots of an analyzer's first metric, summed over its series, taken as the
 * records' time crosses each column's end; a column holds the difference.
 */
#ifndef FTSCOPE_OUTPUT_HEATMAP_H
#define FTSCOPE_OUTPUT_HEATMAP_H

#include <stdint.h>

struct ft_heatmap;
struct ft_metrics;

struct ft_heatmap_opts {
	const char	*path;		/* FILE.svg */
	const char	*title;		/* "runqlat" */
	unsigned int	max_cols;	/* at most this many columns (0: 100) */
	uint64_t	width_ns;	/* fixed column width (0: the smallest 2^k ms that fits) */
};

struct ft_heatmap *ft_heatmap_new(const struct ft_heatmap_opts *o);
void ft_heatmap_free(struct ft_heatmap *h);
/* the sink for an emission, between ft_heatmap_begin and ft_heatmap_take/fold */
struct ft_metrics *ft_heatmap_metrics(struct ft_heatmap *h);
void ft_heatmap_begin(struct ft_heatmap *h);
/*
 * ft_heatmap_take - the emission is the state at trace time @ts (the first record at
 * or past the boundary last returned, or the end): close the columns before it.
 * Returns the next column boundary (the first call starts the map at @ts).
 */
uint64_t ft_heatmap_take(struct ft_heatmap *h, uint64_t ts);
/* the analyzer is about to reset its histograms: the emission becomes the base */
void ft_heatmap_fold(struct ft_heatmap *h);
/* write the SVG (after a last take at the end); 0, or -1 after one error line */
int ft_heatmap_write(struct ft_heatmap *h);

#endif
