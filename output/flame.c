// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graph writer. Stacks (root first) merge into a tree of frames; each
 * frame is drawn as wide as its value, its children on top (or below, inverted).
 * The SVG carries its own small script: hover shows a frame's details, a click
 * zooms into it, Ctrl-F or the Search button highlights frames by regex and
 * sums their share, Escape resets.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/intern.h"
#include "output/flame.h"

#define FRAME_H		16
#define FONT_SIZE	12
#define FONT_W		0.59	/* average glyph width per font-size unit */
#define PAD		10
#define TOP		48	/* title, subtitle, buttons */
#define BOTTOM		34	/* details line */
#define MIN_PX		0.1	/* narrower frames are not drawn */

struct node {
	uint32_t	name;		/* offset in names */
	uint32_t	child, next;	/* first child, next sibling (0: none; 0 is the root) */
	double		a, b;		/* value before, value (after) */
	unsigned char	kind;
};

struct ft_flame {
	struct node	*n;
	uint32_t	count, cap;
	struct ft_names	names;
	bool		diff;
	double		max_delta;
};

/* new_node - a zeroed frame named @s; index or 0 when out of memory */
static uint32_t new_node(struct ft_flame *fg, const char *s, unsigned char kind)
{
	long name = ft_names_add(&fg->names, s, strlen(s));

	if (name < 0)
		return 0;
	if (fg->count == fg->cap) {
		uint32_t cap = fg->cap ? fg->cap * 2 : 1024;
		struct node *n = realloc(fg->n, cap * sizeof(*n));

		if (!n)
			return 0;
		fg->n = n;
		fg->cap = cap;
	}
	memset(&fg->n[fg->count], 0, sizeof(*fg->n));
	fg->n[fg->count].name = (uint32_t)name;
	fg->n[fg->count].kind = kind;
	return fg->count++;
}

/* ft_flame_new - an empty graph with its root frame "all"; @diff: two values per stack */
struct ft_flame *ft_flame_new(bool diff)
{
	struct ft_flame *fg = calloc(1, sizeof(*fg));

	if (!fg)
		return NULL;
	fg->diff = diff;
	if (new_node(fg, "all", FT_FRAME_META) != 0 || !fg->count) {
		ft_flame_free(fg);
		return NULL;
	}
	return fg;
}

/* ft_flame_free - free the graph */
void ft_flame_free(struct ft_flame *fg)
{
	if (!fg)
		return;
	free(fg->n);
	free(fg->names.buf);
	free(fg);
}

/* ft_flame_is_diff - does the graph hold two values per frame? */
bool ft_flame_is_diff(const struct ft_flame *fg)
{
	return fg->diff;
}

/* child_of - the child of @parent named @s, made when missing; 0 when out of memory */
static uint32_t child_of(struct ft_flame *fg, uint32_t parent, const char *s, unsigned char kind)
{
	uint32_t c, *link = &fg->n[parent].child;

	for (c = *link; c; c = fg->n[c].next) {
		if (!strcmp(fg->names.buf + fg->n[c].name, s))
			return c;
		link = &fg->n[c].next;
	}
	c = new_node(fg, s, kind);
	if (c) {
		/* the array may have moved: find the link again */
		link = &fg->n[parent].child;
		while (*link)
			link = &fg->n[*link].next;
		*link = c;
	}
	return c;
}

/**
 * ft_flame_add - add one stack, root first, with its value (and its value before,
 * for a differential graph). Returns 0 or -1 when out of memory.
 */
int ft_flame_add(struct ft_flame *fg, const char *const *frames, const unsigned char *kinds,
		 int n, double before, double after)
{
	uint32_t cur = 0;
	int i;

	fg->n[0].a += before;
	fg->n[0].b += after;
	for (i = 0; i < n; i++) {
		cur = child_of(fg, cur, frames[i], kinds ? kinds[i] : FT_FRAME_USER);
		if (!cur)
			return -1;
		fg->n[cur].a += before;
		fg->n[cur].b += after;
	}
	return 0;
}

/* trailing_number - split " N" off the end of @s; true when there was one */
static bool trailing_number(char *s, double *v)
{
	char *sp = strrchr(s, ' '), *end;

	if (!sp || sp == s)
		return false;
	*v = strtod(sp + 1, &end);
	if (end == sp + 1 || *end || !isfinite(*v) || *v < 0)
		return false;
	while (sp > s && sp[-1] == ' ')
		sp--;
	*sp = 0;
	return true;
}

/**
 * ft_folded_split - split the counts off one folded line "a;b;c N", leaving the
 * stack in @line; with @diff also "a;b;c BEFORE AFTER", and a single N counts as
 * before when @before. Returns 0, or 1 for a line that is not folded stacks.
 */
int ft_folded_split(char *line, bool diff, bool before, double *a, double *b)
{
	line[strcspn(line, "\r\n")] = 0;
	if (!trailing_number(line, b) || line[strspn(line, ";")] == 0)
		return 1;
	if (!diff || !trailing_number(line, a)) {
		*a = before ? *b : 0;
		*b = before ? 0 : *b;
	}
	return 0;
}

/**
 * ft_flame_add_stack - one folded stack "a;b;c" (cut up in place) with its values.
 * Kernel frames may carry "_[k]", off-CPU marks "_[o]"; frames after "--" are a waker's.
 * Returns 0, or -1 when out of memory.
 */
int ft_flame_add_stack(struct ft_flame *fg, char *stack, double before, double after)
{
	const char *frames[1024];
	unsigned char kinds[1024];
	bool waker = false;
	char *p, *save;
	int n = 0;

	for (p = strtok_r(stack, ";", &save); p && n < 1024; p = strtok_r(NULL, ";", &save)) {
		size_t len = strlen(p);
		bool meta = !strcmp(p, "--") || !strcmp(p, "-");

		waker |= !strcmp(p, "--");
		frames[n] = p;
		kinds[n++] = meta ? FT_FRAME_META : waker ? FT_FRAME_WAKER :
			     len > 4 && !strcmp(p + len - 4, "_[k]") ? FT_FRAME_KERNEL :
			     len > 4 && !strcmp(p + len - 4, "_[o]") ? FT_FRAME_OFFCPU : FT_FRAME_USER;
	}
	return ft_flame_add(fg, frames, kinds, n, before, after);
}

/**
 * ft_folded_is_diff - does a folded line carry two counts (difffolded output)?
 */
bool ft_folded_is_diff(const char *line)
{
	char buf[8192];
	double v;

	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "\r\n")] = 0;
	return trailing_number(buf, &v) && trailing_number(buf, &v) && strchr(buf, ';');
}

/* ft_xml_put - @s with XML's special characters escaped (control bytes but tab left out) */
void ft_xml_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

/* name_hash - a stable number in [0, 1) from a frame name (FNV-1a) */
static double name_hash(const char *s, uint32_t seed)
{
	uint32_t h = 2166136261u ^ seed;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return (h % 1000) / 1000.0;
}

/* colour - fill of a frame: palette and kind, or change for differential graphs */
static void colour(const struct ft_flame *fg, const struct node *nd, enum ft_flame_palette pal,
		   char *buf, size_t len)
{
	const char *name = fg->names.buf + nd->name;
	double v1 = name_hash(name, 0), v2 = name_hash(name, 7919);
	int r, g, b;

	if (fg->diff) {
		double d = fg->max_delta > 0 ? (nd->b - nd->a) / fg->max_delta : 0;

		r = d < 0 ? (int)(250 + 200 * d) : 255;
		g = (int)(250 - 200 * fabs(d));
		b = d > 0 ? (int)(250 - 200 * d) : 255;
	} else if (nd->kind == FT_FRAME_META) {
		r = g = b = 200;
	} else if (nd->kind == FT_FRAME_WAKER) {
		r = 150 + (int)(60 * v1); g = 110 + (int)(50 * v2); b = 225;
	} else if (nd->kind == FT_FRAME_OFFCPU) {
		r = 20 + (int)(40 * v1); g = 60 + (int)(40 * v2); b = 190 + (int)(40 * v1);
	} else if (pal == FT_PALETTE_IO) {
		r = nd->kind == FT_FRAME_KERNEL ? 40 + (int)(50 * v1) : 70 + (int)(60 * v1);
		g = nd->kind == FT_FRAME_KERNEL ? 150 + (int)(60 * v2) : 110 + (int)(60 * v2);
		b = 195 + (int)(55 * v1);
	} else {
		r = nd->kind == FT_FRAME_KERNEL ? 230 : 200 + (int)(55 * v1);
		g = nd->kind == FT_FRAME_KERNEL ? 130 + (int)(70 * v2) : 50 + (int)(170 * v2);
		b = (int)(50 * v1);
	}
	snprintf(buf, len, "rgb(%d,%d,%d)", r, g, b);
}

/* max_depth - the deepest frame under @i that is drawn; also the largest change */
static int max_depth(struct ft_flame *fg, uint32_t i, double min_value)
{
	int d = 0, cd;
	uint32_t c;

	if (fabs(fg->n[i].b - fg->n[i].a) > fg->max_delta && i)
		fg->max_delta = fabs(fg->n[i].b - fg->n[i].a);
	for (c = fg->n[i].child; c; c = fg->n[c].next)
		if (fg->n[c].b >= min_value && (cd = max_depth(fg, c, min_value) + 1) > d)
			d = cd;
	return d;
}

/* Layout of one write. */
struct svg {
	FILE				*f;
	const struct ft_flame_opts	*o;
	double				scale, min_value, total;
	int				width, height, depth;
};

/* frame - one frame and, left to right, its children */
static void frame(struct ft_flame *fg, struct svg *s, uint32_t i, int depth, double x)
{
	const struct node *nd = &fg->n[i];
	const char *name = fg->names.buf + nd->name;
	double w = nd->b * s->scale;
	int y = s->o->inverted ? TOP + depth * FRAME_H :
				 s->height - BOTTOM - (depth + 1) * FRAME_H;
	size_t fit = w > 6 ? (size_t)((w - 6) / (FONT_SIZE * FONT_W)) : 0;
	char fill[32];
	uint32_t c;

	colour(fg, nd, s->o->palette, fill, sizeof(fill));
	fputs("<g class=\"f\" data-n=\"", s->f);
	ft_xml_put(s->f, name);
	fputs("\"><title>", s->f);
	ft_xml_put(s->f, name);
	if (fg->diff)
		fprintf(s->f, " (%.15g %s, before %.15g, %+.2f%%)", nd->b, s->o->countname, nd->a,
			nd->a > 0 ? 100.0 * (nd->b - nd->a) / nd->a : 100.0);
	else
		fprintf(s->f, " (%.15g %s, %.2f%%)", nd->b, s->o->countname,
			s->total > 0 ? 100.0 * nd->b / s->total : 0);
	fprintf(s->f, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\"/><text x=\"%.2f\" y=\"%d\">", x, y, w, FRAME_H - 1, fill, x + 3,
		y + FRAME_H - 4);
	if (fit >= 3) {
		char label[512];

		snprintf(label, sizeof(label), "%s", name);
		if (strlen(label) > fit && fit < sizeof(label))
			strcpy(label + fit - 2, "..");
		ft_xml_put(s->f, label);
	}
	fputs("</text></g>\n", s->f);
	for (c = nd->child; c; c = fg->n[c].next) {
		if (fg->n[c].b >= s->min_value)
			frame(fg, s, c, depth + 1, x);
		x += fg->n[c].b * s->scale;
	}
}

/* The script: hover details, click to zoom, search; written for this file's layout. */
static const char script[] =
"var W, PAD = " "10" ", frames = [];\n"
"function init() {\n"
"  W = +document.documentElement.getAttribute('width');\n"
"  var gs = document.getElementById('frames').children;\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i], r = g.getElementsByTagName('rect')[0];\n"
"    var f = { g: g, r: r, t: g.getElementsByTagName('text')[0], name: g.getAttribute('data-n'),\n"
"              x: +r.getAttribute('x'), w: +r.getAttribute('width'), y: +r.getAttribute('y'),\n"
"              fill: r.getAttribute('fill'),\n"
"              info: g.getElementsByTagName('title')[0].textContent };\n"
"    frames.push(f);\n"
"    g.addEventListener('click', zoom.bind(null, f));\n"
"    g.addEventListener('mouseover', details.bind(null, f.info));\n"
"    g.addEventListener('mouseout', details.bind(null, ' '));\n"
"  }\n"
"  document.getElementById('unzoom').addEventListener('click', unzoom);\n"
"  document.getElementById('search').addEventListener('click', ask);\n"
"  window.addEventListener('keydown', function (e) {\n"
"    if ((e.ctrlKey || e.metaKey) && e.key == 'f') { e.preventDefault(); ask(); }\n"
"    if (e.key == 'Escape') { unzoom(); search(''); }\n"
"  });\n"
"}\n"
"function details(s) { document.getElementById('details').textContent = s; }\n"
"function label(f, w) {\n"
"  var n = Math.floor((w - 6) / (12 * 0.59));\n"
"  if (n < 3) return '';\n"
"  return f.name.length <= n ? f.name : f.name.substr(0, n - 2) + '..';\n"
"}\n"
"function place(f, x, w, show, op) {\n"
"  f.g.style.display = show ? '' : 'none';\n"
"  if (!show) return;\n"
"  f.r.setAttribute('x', x.toFixed(2)); f.r.setAttribute('width', w.toFixed(2));\n"
"  f.t.setAttribute('x', (x + 3).toFixed(2)); f.t.textContent = label(f, w);\n"
"  f.g.style.opacity = op;\n"
"}\n"
"function zoom(z) {\n"
"  var s = (W - 2 * PAD) / z.w, e = 0.01;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i], above = INVERTED ? f.y >= z.y : f.y <= z.y;\n"
"    if (above && f.x >= z.x - e && f.x + f.w <= z.x + z.w + e)\n"
"      place(f, PAD + (f.x - z.x) * s, f.w * s, true, 1);\n"
"    else if (!above && f.x <= z.x + e && f.x + f.w >= z.x + z.w - e)\n"
"      place(f, PAD, W - 2 * PAD, true, 0.6);\n"
"    else\n"
"      place(f, 0, 0, false, 1);\n"
"  }\n"
"  document.getElementById('unzoom').style.display = '';\n"
"}\n"
"function unzoom() {\n"
"  for (var i = 0; i < frames.length; i++) place(frames[i], frames[i].x, frames[i].w, true, 1);\n"
"  document.getElementById('unzoom').style.display = 'none';\n"
"}\n"
"function ask() { var t = prompt('Search frames (regular expression)', ''); if (t != null) search(t); }\n"
"function search(term) {\n"
"  var re = null, spans = [], sum = 0, end = -1;\n"
"  try { if (term) re = new RegExp(term); } catch (err) { details('bad expression: ' + err.message); return; }\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i], hit = re && re.test(f.name);\n"
"    f.r.setAttribute('fill', hit ? 'rgb(230,0,230)' : f.fill);\n"
"    if (hit) spans.push([f.x, f.x + f.w]);\n"
"  }\n"
"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
"  for (var j = 0; j < spans.length; j++) {\n"
"    var a = Math.max(spans[j][0], end);\n"
"    if (spans[j][1] > a) sum += spans[j][1] - a;\n"
"    end = Math.max(end, spans[j][1]);\n"
"  }\n"
"  document.getElementById('matched').textContent =\n"
"    re ? 'Matched: ' + (100 * sum / (W - 2 * PAD)).toFixed(2) + '%' : ' ';\n"
"}\n";

/**
 * ft_flame_write - the graph as an interactive SVG
 * Returns 0, or -1 when writing failed (errno set).
 */
int ft_flame_write(struct ft_flame *fg, FILE *f, const struct ft_flame_opts *o)
{
	struct svg s = { .f = f, .o = o };

	s.width = o->width > 0 ? o->width : 1200;
	s.total = fg->n[0].b;
	s.scale = s.total > 0 ? (s.width - 2.0 * PAD) / s.total : 0;
	s.min_value = s.scale > 0 ? MIN_PX / s.scale : 1;
	fg->max_delta = 0;
	s.depth = s.total > 0 ? max_depth(fg, 0, s.min_value) + 1 : 0;
	s.height = TOP + BOTTOM + (s.depth ? s.depth : 1) * FRAME_H + 8;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"onload=\"init()\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<!-- written by ftscope -->\n"
		"<style type=\"text/css\">\n"
		"text { font-family: Verdana, sans-serif; font-size: %dpx; fill: #000; }\n"
		"#title { text-anchor: middle; font-size: 17px; }\n"
		"#subtitle { text-anchor: middle; fill: #555; }\n"
		".f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
		".f, .btn { cursor: pointer; }\n"
		"</style>\n<script type=\"text/ecmascript\"><![CDATA[\nvar INVERTED = %s;\n%s]]></script>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f6f6f6\"/>\n",
		s.width, s.height, s.width, s.height, FONT_SIZE, o->inverted ? "true" : "false",
		script, s.width, s.height);
	fprintf(f, "<text id=\"title\" x=\"%d\" y=\"22\">", s.width / 2);
	ft_xml_put(f, o->title ? o->title : "Flame Graph");
	fputs("</text>\n", f);
	if (o->subtitle) {
		fprintf(f, "<text id=\"subtitle\" x=\"%d\" y=\"38\">", s.width / 2);
		ft_xml_put(f, o->subtitle);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text id=\"unzoom\" class=\"btn\" x=\"%d\" y=\"22\" style=\"display:none\">"
		"Reset Zoom</text>\n<text id=\"search\" class=\"btn\" x=\"%d\" y=\"22\">Search</text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n<g id=\"frames\">\n",
		PAD, s.width - PAD - 60, PAD, s.height - 12, s.width - PAD - 120, s.height - 12);
	if (s.total > 0)
		frame(fg, &s, 0, 0, PAD);
	fputs("</g>\n</svg>\n", f);
	return fflush(f) || ferror(f) ? -1 : 0;
}

/*
 * ft_flame_finish - write @fg into the open @out and put it in place; on a failure
 * the path is left as it was. Returns 0, or -1 with errno set. Nothing open after.
 */
int ft_flame_finish(struct ft_flame *fg, struct ft_outfile *out, const struct ft_flame_opts *o)
{
	int err;

	if (!ft_flame_write(fg, out->f, o))
		return ft_outfile_commit(out);
	err = errno ? errno : EIO;
	ft_outfile_abandon(out);
	errno = err;
	return -1;
}
