// SPDX-License-Identifier: GPL-2.0
/*
 * Latency heat maps (output/heatmap.h): the columns. Each emission of the analyzer's
 * series is summed into one log2 histogram (the first metric's series only); with
 * what earlier intervals held before their reset (base), it is the cumulative count
 * per row at the emission's time. A column is the cumulative count at its end less
 * that at its start (obase, kept for the column still open). A value is attributed
 * to the time of the record that completes it: records come in time order, and a
 * take at trace time ts sees every record before ts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/util.h"
#include "output/heatmap.h"
#include "output/metrics.h"

#define MS	1000000ull

typedef uint64_t row_t[FT_LOG2_SLOTS];

struct ft_heatmap {
	struct ft_metrics	sink;
	char			*path, *title;
	struct ft_outfile	out;		/* opened at the start: a bad path fails early */
	unsigned int		max_cols;
	uint64_t		fixed_ns;	/* 0: 2^k ms, merged as the run grows */
	char			metric[64];	/* the first metric name emitted ("" until one) */
	const char		*unit;		/* its rows' label */
	row_t			cur;		/* the emission being summed */
	row_t			base;		/* what the analyzer held before its resets */
	row_t			last;		/* cumulative at the last take */
	row_t			obase;		/* cumulative at the open column's start */
	row_t			*col;		/* the columns closed */
	unsigned int		ncols, cap;
	bool			started, full, closed;
	uint64_t		start, width, end;
};

/* sink_hist - a series: summed when it is of the map's metric */
static void sink_hist(struct ft_metrics *m, const char *name, const struct ft_label *l,
		      int nl, const struct ft_hist *hs, const struct ft_unit *u)
{
	struct ft_heatmap *h = (struct ft_heatmap *)m;
	int i;

	(void)l; (void)nl;
	if (!h->metric[0]) {
		snprintf(h->metric, sizeof(h->metric), "%s", name);
		h->unit = u->label;
	}
	if (strcmp(name, h->metric))
		return;
	for (i = 0; i < FT_LOG2_SLOTS; i++)
		h->cur[i] += hs->log2[i];
}

/* ft_heatmap_new - an empty map, its file open; NULL after one error line */
struct ft_heatmap *ft_heatmap_new(const struct ft_heatmap_opts *o)
{
	struct ft_heatmap *h = calloc(1, sizeof(*h));

	if (!h || !(h->path = strdup(o->path)) || !(h->title = strdup(o->title))) {
		ft_err("out of memory");
		goto fail;
	}
	if (ft_outfile_open(&h->out, h->path)) {
		ft_err("--heatmap %s: %s", o->path, strerror(errno));
		goto fail;
	}
	h->sink.hist = sink_hist;
	h->max_cols = o->max_cols ? o->max_cols : FT_HEATMAP_COLS;
	h->fixed_ns = o->width_ns;
	return h;
fail:
	if (h) {
		free(h->path);
		free(h->title);
	}
	free(h);
	return NULL;
}

/* ft_heatmap_free - free everything; a file never written leaves the path as it was */
void ft_heatmap_free(struct ft_heatmap *h)
{
	ft_outfile_abandon(&h->out);
	free(h->col);
	free(h->path);
	free(h->title);
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
	memset(h->cur, 0, sizeof(h->cur));
}

/* push - close the open column at cumulative @cum; false when out of memory */
static bool push(struct ft_heatmap *h, const row_t cum)
{
	int i;

	if (h->ncols == h->cap) {
		unsigned int cap = h->cap ? h->cap * 2 : 64;
		row_t *c = realloc(h->col, cap * sizeof(*c));

		if (!c)
			return false;
		h->col = c;
		h->cap = cap;
	}
	for (i = 0; i < FT_LOG2_SLOTS; i++) {
		h->col[h->ncols][i] = cum[i] - h->obase[i];
		h->obase[i] = cum[i];
	}
	h->ncols++;
	return true;
}

/*
 * merge - neighbouring pairs of columns become one twice as wide; with an odd count
 * the last closed one pairs with the open one, which then starts where it started
 */
static void merge(struct ft_heatmap *h)
{
	unsigned int n = h->ncols, j;
	int i;

	if (n & 1) {
		n--;
		for (i = 0; i < FT_LOG2_SLOTS; i++)
			h->obase[i] -= h->col[n][i];
	}
	for (j = 0; j < n / 2; j++)
		for (i = 0; i < FT_LOG2_SLOTS; i++)
			h->col[j][i] = h->col[2 * j][i] + h->col[2 * j + 1][i];
	h->ncols = n / 2;
	h->width *= 2;
}

/* ft_heatmap_take - the state at @ts: close the columns that end at or before it */
uint64_t ft_heatmap_take(struct ft_heatmap *h, uint64_t ts)
{
	uint64_t idx;
	int i;

	for (i = 0; i < FT_LOG2_SLOTS; i++)
		h->last[i] = h->base[i] + h->cur[i];
	h->end = ts;
	if (!h->started) {
		h->started = true;
		h->start = ts;
		h->width = h->fixed_ns ? h->fixed_ns : MS;
		memcpy(h->obase, h->last, sizeof(h->obase));
		return ts + h->width;
	}
	if (h->full || h->closed)
		return UINT64_MAX;
	idx = ts > h->start ? (ts - h->start) / h->width : 0;
	while (!h->fixed_ns && idx >= h->max_cols) {
		merge(h);
		idx = (ts - h->start) / h->width;
	}
	if (h->fixed_ns && idx >= FT_HEATMAP_MAX_FIXED) {
		idx = FT_HEATMAP_MAX_FIXED;
		h->full = true;
	}
	while (h->ncols < idx) {
		if (!push(h, h->last)) {
			ft_err("--heatmap: out of memory: the map ends at column %u", h->ncols);
			h->full = true;
			break;
		}
	}
	return h->full ? UINT64_MAX : h->start + (idx + 1) * h->width;
}

/* ft_heatmap_fold - the analyzer resets its histograms: keep what they held */
void ft_heatmap_fold(struct ft_heatmap *h)
{
	int i;

	for (i = 0; i < FT_LOG2_SLOTS; i++)
		h->base[i] += h->cur[i];
	memset(h->cur, 0, sizeof(h->cur));
}

/* ft_heatmap_view - the map as it stands (@close: the open column closes first) */
void ft_heatmap_view(struct ft_heatmap *h, bool close, struct ft_heatmap_view *v)
{
	int i;

	if (close && h->started && !h->full && !h->closed) {
		if (push(h, h->last))
			h->closed = true;
		else
			ft_err("--heatmap: out of memory: the last column is missing");
	}
	memset(v, 0, sizeof(*v));
	v->title = h->title;
	v->metric = h->metric[0] ? h->metric : NULL;
	v->unit = h->unit;
	v->start_ns = h->start;
	v->end_ns = h->end;
	v->width_ns = h->width;
	v->ncols = h->ncols;
	v->col = (const uint64_t (*)[FT_LOG2_SLOTS])h->col;
	v->fixed = h->fixed_ns != 0;
	if (h->full && !h->closed)
		for (i = 0; i < FT_LOG2_SLOTS; i++)
			v->undrawn += h->last[i] - h->obase[i];
}

/* ft_heatmap_write - the SVG into the file opened at the start; 0, or -1 after one line */
int ft_heatmap_write(struct ft_heatmap *h)
{
	struct ft_heatmap_view v;
	int err;

	ft_heatmap_view(h, true, &v);
	if (v.undrawn)
		ft_err("--heatmap: %llu values after %.6g s are not drawn: a map of %.6g s columns "
		       "holds %u of them", (unsigned long long)v.undrawn,
		       (double)v.ncols * v.width_ns / 1e9, v.width_ns / 1e9, FT_HEATMAP_MAX_FIXED);
	if (ft_heatmap_svg(&v, h->out.f)) {
		err = errno ? errno : EIO;
		ft_outfile_abandon(&h->out);
	} else {
		err = ft_outfile_commit(&h->out) ? errno : 0;
	}
	if (!err)
		return 0;
	ft_err("--heatmap %s: %s", h->path, strerror(err));
	return -1;
}
