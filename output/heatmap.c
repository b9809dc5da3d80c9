// SPDX-License-Identifier: GPL-2.0
/*
 * Latency heat maps (output/heatmap.h): the columns, then their SVG (below). Each
 * emission of the analyzer's series is summed into one log2 histogram (the first
 * metric's series only); with what earlier intervals held before their reset (base),
 * it is the cumulative count per row at the emission's time. A column is the
 * cumulative count at its end less that at its start (obase, kept for the column
 * still open). A value is attributed to the time of the record that completes it:
 * records come in time order, and a take at trace time ts sees every record before ts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/util.h"
#include "output/flame.h"
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

/*
 * The SVG. Time across (seconds from the map's start), the log2 rows up from the
 * lowest to the highest that holds a value, each cell a <rect class="cell"> coloured
 * by its count on a sequential scale (white: none) with its numbers in data
 * attributes and a <title>; under each column a <rect class="col">. A small script
 * shows a cell's details on hover and zooms in time on a click (Reset Zoom, or
 * Escape, shows the whole run).
 */
#define WIDTH		1200
#define LEFT		130	/* row labels */
#define RIGHT		20
#define TOP		62	/* title, subtitle, Reset Zoom */
#define PLOT_W		(WIDTH - LEFT - RIGHT)
#define BOTTOM		118	/* time axis, legend, details */
#define LEGEND_N	10

/* What the drawing needs, worked out once. */
struct svg {
	FILE				*f;
	const struct ft_heatmap_view	*v;
	int				lo, hi;		/* the rows drawn (log2 slots) */
	uint64_t			max, total;
	int				ch, height;	/* a row's height, the picture's */
	double				cw;		/* a column's width */
};

/*
 * The script: hover details, click to zoom in time; written for this file's layout.
 * Once every handler is bound, the root's data-bound holds the number of rects bound.
 */
static const char script[] =
"var L, PW, SPAN, V0, V1, items = [];\n"
"function init() {\n"
"  var s = document.documentElement;\n"
"  L = +s.getAttribute('data-left'); PW = +s.getAttribute('data-plot-width');\n"
"  SPAN = +s.getAttribute('data-span'); V0 = 0; V1 = SPAN;\n"
"  var rs = document.querySelectorAll('rect.col, rect.cell');\n"
"  for (var i = 0; i < rs.length; i++) {\n"
"    var r = rs[i], o = { r: r, t0: +r.getAttribute('data-t0'), t1: +r.getAttribute('data-t1'),\n"
"                         info: r.getElementsByTagName('title')[0].textContent };\n"
"    items.push(o);\n"
"    r.addEventListener('mouseover', details.bind(null, o.info));\n"
"    r.addEventListener('mouseout', details.bind(null, ' '));\n"
"    r.addEventListener('click', zoom.bind(null, o));\n"
"  }\n"
"  document.getElementById('unzoom').addEventListener('click', view.bind(null, 0, SPAN));\n"
"  window.addEventListener('keydown', function (e) { if (e.key == 'Escape') view(0, SPAN); });\n"
"  s.setAttribute('data-bound', items.length);\n"
"}\n"
"function details(s) { document.getElementById('details').textContent = s; }\n"
"function zoom(o) {\n"
"  var w = o.t1 - o.t0, s = Math.max((V1 - V0) / 4, 9 * w), m = (o.t0 + o.t1) / 2;\n"
"  var a = m - s / 2, b = m + s / 2;\n"
"  if (a < 0) { b -= a; a = 0; }\n"
"  if (b > SPAN) { a = Math.max(0, a - (b - SPAN)); b = SPAN; }\n"
"  view(a, b);\n"
"}\n"
"function view(a, b) {\n"
"  var k = PW / (b - a);\n"
"  V0 = a; V1 = b;\n"
"  for (var i = 0; i < items.length; i++) {\n"
"    var o = items[i], x0 = Math.max(o.t0, a), x1 = Math.min(o.t1, b);\n"
"    o.r.style.display = x1 > x0 ? '' : 'none';\n"
"    if (x1 <= x0) continue;\n"
"    o.r.setAttribute('x', (L + (x0 - a) * k).toFixed(3));\n"
"    o.r.setAttribute('width', ((x1 - x0) * k).toFixed(3));\n"
"  }\n"
"  ticks(a, b);\n"
"  document.getElementById('unzoom').style.display = a > 0 || b < SPAN ? '' : 'none';\n"
"}\n"
"function step(span) {\n"
"  var s = Math.pow(10, Math.floor(Math.log10(span / 10))), m = [1, 2, 5, 10];\n"
"  for (var i = 0; i < m.length; i++) if (span / (s * m[i]) <= 10) return s * m[i];\n"
"  return s * 10;\n"
"}\n"
"function ticks(a, b) {\n"
"  var g = document.getElementById('xticks'), ns = 'http://www.w3.org/2000/svg';\n"
"  var y = +g.getAttribute('data-y'), st = step(b - a), k = PW / (b - a);\n"
"  while (g.firstChild) g.removeChild(g.firstChild);\n"
"  for (var t = Math.ceil(a / st - 1e-9) * st; t <= b + st * 1e-9; t += st) {\n"
"    var x = L + (t - a) * k, l = document.createElementNS(ns, 'line'),\n"
"        tx = document.createElementNS(ns, 'text');\n"
"    l.setAttribute('x1', x); l.setAttribute('x2', x); l.setAttribute('y1', y);\n"
"    l.setAttribute('y2', y + 5); l.setAttribute('stroke', '#000'); g.appendChild(l);\n"
"    tx.setAttribute('x', x); tx.setAttribute('y', y + 17); tx.setAttribute('class', 'tick');\n"
"    tx.textContent = +t.toPrecision(10); g.appendChild(tx);\n"
"  }\n"
"}\n";

/* put_secs - @ns as seconds, exactly: "1.5", "0.000125" */
static void put_secs(FILE *f, uint64_t ns)
{
	char frac[16];
	int n;

	n = snprintf(frac, sizeof(frac), "%09llu", (unsigned long long)(ns % 1000000000));
	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = 0;
	fprintf(f, "%llu%s%s", (unsigned long long)(ns / 1000000000), n ? "." : "", frac);
}

/* slot_lo, slot_hi - the values of log2 slot @s, BCC's "2 -> 3" (slot 1: "0 -> 1") */
static unsigned long long slot_lo(int s)
{
	return s <= 1 ? 0 : 1ULL << (s - 1);
}

static unsigned long long slot_hi(int s)
{
	return s >= 64 ? ~0ULL : (1ULL << s) - 1;
}

/* colour - the fill of a cell of @c values, the most being @max: white, then YlOrRd */
static void colour(uint64_t c, uint64_t max, char *buf, size_t len)
{
	static const unsigned char stop[5][3] = {
		{ 255, 237, 160 }, { 254, 178, 76 }, { 253, 141, 60 }, { 240, 59, 32 },
		{ 189, 0, 38 },
	};
	double t = max > 1 ? (double)(c - 1) / (double)(max - 1) * 4 : 0;
	int i = t >= 4 ? 3 : (int)t, k, rgb[3];

	if (!c) {
		snprintf(buf, len, "#ffffff");
		return;
	}
	t -= i;
	for (k = 0; k < 3; k++)
		rgb[k] = (int)(stop[i][k] + (stop[i + 1][k] - stop[i][k]) * t + 0.5);
	snprintf(buf, len, "rgb(%d,%d,%d)", rgb[0], rgb[1], rgb[2]);
}

/* tick_step - the time axis' step for @span seconds: 1, 2 or 5 x 10^k, ten ticks at most */
static double tick_step(double span)
{
	static const double m[] = { 1, 2, 5, 10 };
	double s = 1;
	size_t i;

	while (s * 10 > span / 10)
		s /= 10;
	while (s * 10 <= span / 10)
		s *= 10;
	for (i = 0; i < 4; i++)
		if (span / (s * m[i]) <= 10)
			return s * m[i];
	return s * 10;
}

/* header - the SVG's opening, its style, script, title and subtitle */
static void header(struct svg *s)
{
	const struct ft_heatmap_view *v = s->v;
	FILE *f = s->f;

	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"onload=\"init()\" xmlns=\"http://www.w3.org/2000/svg\" data-left=\"%d\" "
		"data-plot-width=\"%d\" data-span=\"", WIDTH, s->height, WIDTH, s->height, LEFT,
		PLOT_W);
	put_secs(f, (uint64_t)v->ncols * v->width_ns);
	fprintf(f, "\" data-start-ns=\"%llu\" data-end-ns=\"%llu\" data-width-ns=\"%llu\" "
		"data-cols=\"%u\" data-total=\"%llu\" data-undrawn=\"%llu\" data-metric=\"",
		(unsigned long long)v->start_ns, (unsigned long long)v->end_ns,
		(unsigned long long)v->width_ns, v->ncols, (unsigned long long)s->total,
		(unsigned long long)v->undrawn);
	ft_xml_put(f, v->metric ? v->metric : "");
	fputs("\" data-unit=\"", f);
	ft_xml_put(f, v->unit ? v->unit : "");
	fputs("\">\n<!-- written by ftscope -->\n<style type=\"text/css\">\n"
	      "text { font-family: Verdana, sans-serif; font-size: 11px; fill: #000; }\n"
	      "#title { text-anchor: middle; font-size: 17px; }\n"
	      "#subtitle { text-anchor: middle; fill: #555; font-size: 12px; }\n"
	      ".tick { text-anchor: middle; } .row { text-anchor: end; }\n"
	      "rect.cell:hover, rect.col:hover { stroke: #000; stroke-width: 0.7; }\n"
	      "rect.cell, rect.col, .btn { cursor: pointer; }\n</style>\n"
	      "<script type=\"text/ecmascript\"><![CDATA[\n", f);
	fputs(script, f);
	fprintf(f, "]]></script>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#f6f6f6\"/>\n<text id=\"title\" x=\"%d\" y=\"22\">", WIDTH, s->height,
		WIDTH / 2);
	ft_xml_put(f, v->title);
	fputs(" latency heat map</text>\n", f);
	fprintf(f, "<text id=\"subtitle\" x=\"%d\" y=\"40\">", WIDTH / 2);
	if (v->metric && s->total)
		fprintf(f, "ftscope_%s: %llu values in %u columns of %.6g s; rows: %s (log2)",
			v->metric, (unsigned long long)s->total, v->ncols, v->width_ns / 1e9,
			v->unit);
	fputs("</text>\n<text id=\"unzoom\" class=\"btn\" x=\"10\" y=\"22\" "
	      "style=\"display:none\">Reset Zoom</text>\n", f);
}

/* columns - the time axis' columns, white beneath the cells */
static void columns(struct svg *s)
{
	const struct ft_heatmap_view *v = s->v;
	unsigned int c;
	int r;

	fputs("<g id=\"cols\">\n", s->f);
	for (c = 0; c < v->ncols; c++) {
		uint64_t n = 0;

		for (r = s->lo; r <= s->hi; r++)
			n += v->col[c][r];
		fprintf(s->f, "<rect class=\"col\" x=\"%.3f\" y=\"%d\" width=\"%.3f\" height=\"%d\" "
			"fill=\"#ffffff\" data-col=\"%u\" data-t0=\"", LEFT + c * s->cw, TOP, s->cw,
			s->ch * (s->hi - s->lo + 1), c);
		put_secs(s->f, c * v->width_ns);
		fputs("\" data-t1=\"", s->f);
		put_secs(s->f, (c + 1) * v->width_ns);
		fprintf(s->f, "\" data-total=\"%llu\"><title>", (unsigned long long)n);
		put_secs(s->f, c * v->width_ns);
		fputs(" - ", s->f);
		put_secs(s->f, (c + 1) * v->width_ns);
		fprintf(s->f, " s: %llu values</title></rect>\n", (unsigned long long)n);
	}
	fputs("</g>\n", s->f);
}

/* cell - one cell that holds values: column @c, row (slot) @r */
static void cell(struct svg *s, unsigned int c, int r)
{
	const struct ft_heatmap_view *v = s->v;
	uint64_t n = v->col[c][r];
	char fill[32];

	colour(n, s->max, fill, sizeof(fill));
	fprintf(s->f, "<rect class=\"cell\" x=\"%.3f\" y=\"%d\" width=\"%.3f\" height=\"%d\" "
		"fill=\"%s\" data-col=\"%u\" data-row=\"%d\" data-count=\"%llu\" data-t0=\"",
		LEFT + c * s->cw, TOP + (s->hi - r) * s->ch, s->cw, s->ch, fill, c, r,
		(unsigned long long)n);
	put_secs(s->f, c * v->width_ns);
	fputs("\" data-t1=\"", s->f);
	put_secs(s->f, (c + 1) * v->width_ns);
	fprintf(s->f, "\" data-lo=\"%llu\" data-hi=\"%llu\"><title>", slot_lo(r), slot_hi(r));
	put_secs(s->f, c * v->width_ns);
	fputs(" - ", s->f);
	put_secs(s->f, (c + 1) * v->width_ns);
	fprintf(s->f, " s, %llu -> %llu %s: %llu</title></rect>\n", slot_lo(r), slot_hi(r),
		v->unit, (unsigned long long)n);
}

/* axes - the rows' labels, the time axis and its ticks */
static void axes(struct svg *s)
{
	const struct ft_heatmap_view *v = s->v;
	double span = (double)v->ncols * v->width_ns / 1e9, st = tick_step(span), t;
	int r, y = TOP + s->ch * (s->hi - s->lo + 1);

	fprintf(s->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"#999\"/>\n", LEFT, TOP, PLOT_W, y - TOP);
	for (r = s->lo; r <= s->hi; r++)
		fprintf(s->f, "<text class=\"row\" x=\"%d\" y=\"%d\">%llu -> %llu</text>\n",
			LEFT - 6, TOP + (s->hi - r) * s->ch + s->ch / 2 + 4, slot_lo(r), slot_hi(r));
	fprintf(s->f, "<text x=\"10\" y=\"%d\">%s</text>\n", TOP - 6, v->unit);
	fprintf(s->f, "<g id=\"xticks\" data-y=\"%d\">\n", y);
	for (t = 0; t <= span + st * 1e-9; t += st) {
		double x = LEFT + t * PLOT_W / span;

		fprintf(s->f, "<line x1=\"%.3f\" x2=\"%.3f\" y1=\"%d\" y2=\"%d\" stroke=\"#000\"/>"
			"<text class=\"tick\" x=\"%.3f\" y=\"%d\">%.10g</text>\n", x, x, y, y + 5,
			x, y + 17, t);
	}
	fprintf(s->f, "</g>\n<text class=\"tick\" x=\"%d\" y=\"%d\">seconds from the start "
		"(trace time ", LEFT + PLOT_W / 2, y + 34);
	put_secs(s->f, v->start_ns);
	fputs(")</text>\n", s->f);
}

/* legend - the colour scale: 0 (white), then from 1 to the largest count */
static void legend(struct svg *s)
{
	int y = TOP + s->ch * (s->hi - s->lo + 1) + 48, i, x = LEFT;
	char fill[32];

	fprintf(s->f, "<g id=\"legend\">\n<text x=\"%d\" y=\"%d\" class=\"row\">count</text>\n",
		x - 6, y + 11);
	for (i = 0; i <= LEGEND_N; i++) {
		uint64_t c = i ? 1 + (s->max - 1) * (i - 1) / (LEGEND_N - 1) : 0;

		colour(c, s->max, fill, sizeof(fill));
		fprintf(s->f, "<rect x=\"%d\" y=\"%d\" width=\"40\" height=\"14\" fill=\"%s\" "
			"stroke=\"#999\" stroke-width=\"0.5\"/><text class=\"tick\" x=\"%d\" y=\"%d\">"
			"%llu</text>\n", x + i * 44, y, fill, x + i * 44 + 20, y + 27,
			(unsigned long long)c);
	}
	fputs("</g>\n", s->f);
}

/* nothing_drawn - no cell: the run measured nothing, or all of it past the last column */
static int nothing_drawn(struct svg *s)
{
	const struct ft_heatmap_view *v = s->v;
	FILE *f = s->f;

	s->height = TOP + 60;
	header(s);
	fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%d\" style=\"text-anchor:middle\">",
		WIDTH / 2, TOP + 20);
	if (v->undrawn) {
		fprintf(f, "%llu values measured, none drawn: all came after %.6g s, past the "
			"last of the %u columns of --heatmap-width %.6g s.",
			(unsigned long long)v->undrawn, (double)v->ncols * v->width_ns / 1e9,
			v->ncols, v->width_ns / 1e9);
	} else {
		fputs("No values: the run measured no ", f);
		ft_xml_put(f, v->title);
		fputs(" latency.", f);
	}
	fputs("</text>\n</svg>\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}

/**
 * ft_heatmap_svg - the map @v as an interactive SVG into @f
 * Returns 0, or -1 when writing failed (errno set).
 */
int ft_heatmap_svg(const struct ft_heatmap_view *v, FILE *f)
{
	struct svg s = { .f = f, .v = v, .lo = FT_LOG2_SLOTS, .hi = 0 };
	unsigned int c;
	int r;

	for (c = 0; c < v->ncols; c++)
		for (r = 0; r < FT_LOG2_SLOTS; r++) {
			if (!v->col[c][r])
				continue;
			s.lo = r < s.lo ? r : s.lo;
			s.hi = r > s.hi ? r : s.hi;
			s.max = v->col[c][r] > s.max ? v->col[c][r] : s.max;
			s.total += v->col[c][r];
		}
	if (!s.total)
		return nothing_drawn(&s);
	s.ch = 360 / (s.hi - s.lo + 1);
	s.ch = s.ch < 12 ? 12 : s.ch > 28 ? 28 : s.ch;
	s.height = TOP + s.ch * (s.hi - s.lo + 1) + BOTTOM;
	s.cw = (double)PLOT_W / v->ncols;
	header(&s);
	columns(&s);
	fputs("<g id=\"cells\">\n", f);
	for (c = 0; c < v->ncols; c++)
		for (r = s.lo; r <= s.hi; r++)
			if (v->col[c][r])
				cell(&s, c, r);
	fputs("</g>\n", f);
	axes(&s);
	legend(&s);
	fprintf(f, "<text id=\"details\" x=\"10\" y=\"%d\"> </text>\n</svg>\n", s.height - 10);
	return fflush(f) || ferror(f) ? -1 : 0;
}
