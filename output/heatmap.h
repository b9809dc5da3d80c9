/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency heat maps (Brendan Gregg's): time across in columns, the histogram's log2
 * rows up, each cell coloured by its count, as one interactive SVG (hover: the cell's
 * time range, latency range and count; click: zoom in time). The columns come from
 * snapshots of an analyzer's first metric, summed over its series, taken as the
 * records' time crosses each column's end; a column holds the difference.
 *
 * Columns are aligned to the map's start (the first record). Without a fixed width
 * they start 1 ms wide and, whenever one more would pass the most allowed, each
 * neighbouring pair merges into one twice as wide: the map always has the smallest
 * 2^k ms width that fits the run in max_cols columns. A fixed width keeps at most
 * FT_HEATMAP_MAX_FIXED columns: values past the last are counted, not drawn.
 */
#ifndef FTSCOPE_OUTPUT_HEATMAP_H
#define FTSCOPE_OUTPUT_HEATMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output/hist.h"

#define FT_HEATMAP_COLS		100	/* columns at most, by default */
#define FT_HEATMAP_MAX_FIXED	10000	/* columns of a fixed width at most (5 MB) */

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

/* The map as it stands, for the writer and the tests. */
struct ft_heatmap_view {
	const char	*title;		/* the analyzer's name */
	const char	*metric;	/* the metric drawn (NULL: none came) */
	const char	*unit;		/* its rows' unit: "usecs" */
	uint64_t	start_ns;	/* trace time of the first column's start */
	uint64_t	end_ns;		/* of the last take */
	uint64_t	width_ns;	/* of each column */
	unsigned int	ncols;
	const uint64_t	(*col)[FT_LOG2_SLOTS];	/* ncols columns: counts per log2 slot */
	uint64_t	undrawn;	/* values past the last column of a fixed width */
	bool		fixed;		/* --heatmap-width */
};

/*
 * ft_heatmap_view - the columns closed so far; with @close, the column still open
 * (the one the last take fell in) closes first, for good: call it at the end only
 */
void ft_heatmap_view(struct ft_heatmap *h, bool close, struct ft_heatmap_view *v);
int ft_heatmap_svg(const struct ft_heatmap_view *v, FILE *f);

#endif
