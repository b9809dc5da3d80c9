// SPDX-License-Identifier: GPL-2.0
/*
 * `ftscope flamegraph`: folded stacks in, an interactive SVG out. Reads ftscope's
 * own folded output or any stackcollapse output (perf script, bpftrace), and
 * draws differential graphs from two folded files (or difffolded's two-count
 * lines): width from the second profile, red where a frame grew, blue where it
 * shrank.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzers/output/flame.h"
#include "tracer/options.h"
#include "tracer/run.h"
#include "tracer/util.h"

enum { OPT_DIFF = 0x100, OPT_TITLE, OPT_SUBTITLE, OPT_COUNTNAME, OPT_WIDTH, OPT_INVERTED,
       OPT_COLORS };

static const struct option fg_longopts[] = {
	{ "diff",	required_argument,	NULL, OPT_DIFF },
	{ "title",	required_argument,	NULL, OPT_TITLE },
	{ "subtitle",	required_argument,	NULL, OPT_SUBTITLE },
	{ "countname",	required_argument,	NULL, OPT_COUNTNAME },
	{ "width",	required_argument,	NULL, OPT_WIDTH },
	{ "inverted",	no_argument,		NULL, OPT_INVERTED },
	{ "colors",	required_argument,	NULL, OPT_COLORS },
	{ "output",	required_argument,	NULL, 'o' },
	{ "help",	no_argument,		NULL, 'h' },
	{ 0 }
};

/* fg_usage - the command's help */
static void fg_usage(FILE *f)
{
	fputs("Usage: ftscope flamegraph [options] [FOLDED...] > out.svg\n"
	      "       ftscope flamegraph --diff BEFORE AFTER [options] > diff.svg\n\n"
	      "Folded stacks (\"frame;frame;frame COUNT\" lines) from files or standard input\n"
	      "become an interactive SVG flame graph: hover for details, click to zoom,\n"
	      "Search or Ctrl-F to highlight frames by regular expression.\n\n"
	      "  --diff BEFORE AFTER  differential graph: widths from AFTER, red = grew,\n"
	      "                       blue = shrank (lines with two counts work without it)\n"
	      "  --title TEXT         title (default \"Flame Graph\")\n"
	      "  --subtitle TEXT      second title line\n"
	      "  --countname NAME     unit of the counts (default samples)\n"
	      "  --width PX           image width (default 1200)\n"
	      "  --inverted           icicle graph: roots at the top\n"
	      "  --colors hot|io      palette: hot (CPU, default) or io (off-CPU, blues)\n"
	      "  -o, --output FILE    write FILE instead of standard output\n\n"
	      "EXAMPLES:\n"
	      "  ftscope offcpu -f -d 5 > off.folded && ftscope flamegraph --colors io off.folded > off.svg\n"
	      "  perf script | stackcollapse-perf.pl | ftscope flamegraph > cpu.svg\n"
	      "  ftscope flamegraph --diff before.folded after.folded > diff.svg\n", f);
}

/* Every input line, kept until the graph's kind is known. */
struct lines {
	char	**l;
	bool	*before;
	size_t	n, cap;
};

/* read_lines - append the lines of @path ("-": standard input) */
static int read_lines(struct lines *ls, const char *path, bool before)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		ft_err("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (ls->n == ls->cap) {
			size_t ncap = ls->cap ? ls->cap * 2 : 1024;
			char **l = realloc(ls->l, ncap * sizeof(*l));
			bool *b;

			if (!l)
				break;
			ls->l = l;
			b = realloc(ls->before, ncap * sizeof(*b));
			if (!b)
				break;
			ls->before = b;
			ls->cap = ncap;
		}
		ls->before[ls->n] = before;
		ls->l[ls->n++] = line;
		line = NULL;
		cap = 0;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return 0;
}

/* build - the graph from the lines; a file with no folded line at all is an error */
static struct ft_flame *build(struct lines *ls, bool diff, const char *what)
{
	struct ft_flame *fg;
	size_t i, good = 0;

	if (!diff && ls->n && ft_folded_is_diff(ls->l[0]))
		diff = true;
	fg = ft_flame_new(diff);
	if (!fg) {
		ft_err("out of memory");
		return NULL;
	}
	for (i = 0; i < ls->n; i++) {
		int r = ft_flame_add_folded(fg, ls->l[i], ls->before[i]);

		if (r < 0) {
			ft_err("out of memory");
			ft_flame_free(fg);
			return NULL;
		}
		good += !r;
	}
	if (ls->n && !good) {
		ft_err("%s holds no folded stacks (\"frame;frame COUNT\" lines)", what);
		ft_flame_free(fg);
		return NULL;
	}
	return fg;
}

/**
 * ft_cmd_flamegraph - `ftscope flamegraph`
 * Returns the exit status.
 */
int ft_cmd_flamegraph(int argc, char **argv)
{
	struct ft_flame_opts fo = { .countname = "samples" };
	struct lines ls = { 0 };
	const char *before = NULL, *out = NULL;
	struct ft_flame *fg = NULL;
	int opt, ret = FT_EXIT_USAGE;
	FILE *f = stdout;
	long v;
	size_t i;

	ft_set_prog("ftscope flamegraph");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", fg_longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_DIFF: before = optarg; break;
		case OPT_TITLE: fo.title = optarg; break;
		case OPT_SUBTITLE: fo.subtitle = optarg; break;
		case OPT_COUNTNAME: fo.countname = optarg; break;
		case OPT_INVERTED: fo.inverted = true; break;
		case 'o': out = optarg; break;
		case 'h': fg_usage(stdout); return FT_EXIT_OK;
		case OPT_WIDTH:
			if (ft_parse_long(optarg, 200, 100000, &v)) {
				ft_err("invalid value '%s' for --width (200 to 100000)", optarg);
				return FT_EXIT_USAGE;
			}
			fo.width = (int)v;
			break;
		case OPT_COLORS:
			if (strcmp(optarg, "hot") && strcmp(optarg, "io")) {
				ft_err("unknown palette '%s' (hot or io)", optarg);
				return FT_EXIT_USAGE;
			}
			fo.palette = strcmp(optarg, "io") ? FT_PALETTE_HOT : FT_PALETTE_IO;
			break;
		case ':':
			ft_err("option '%s' needs a value", argv[optind - 1]);
			return FT_EXIT_USAGE;
		default:
			ft_err("unknown option '%s' (see ftscope flamegraph --help)", argv[optind - 1]);
			return FT_EXIT_USAGE;
		}
	}
	if (before && optind + 1 != argc) {
		ft_err("--diff takes two files: BEFORE AFTER");
		return FT_EXIT_USAGE;
	}
	ret = FT_EXIT_ERR;
	if (before && read_lines(&ls, before, true))
		goto out;
	if (optind == argc && read_lines(&ls, "-", false))
		goto out;
	for (i = optind; i < (size_t)argc; i++)
		if (read_lines(&ls, argv[i], false))
			goto out;
	fg = build(&ls, before != NULL, before ? "the input" : optind < argc ? argv[optind] :
		   "standard input");
	if (!fg)
		goto out;
	if (!fo.title)
		fo.title = ft_flame_is_diff(fg) ? "Differential Flame Graph" : "Flame Graph";
	if (out && !(f = fopen(out, "we"))) {
		ft_err("cannot write %s: %s", out, strerror(errno));
		goto out;
	}
	opt = ft_flame_write(fg, f, &fo);
	if (out && fclose(f))
		opt = -1;
	if (opt) {
		ft_err("cannot write %s: %s", out ? out : "standard output", strerror(errno));
		if (out)
			unlink(out);
		goto out;
	}
	ret = FT_EXIT_OK;
out:
	for (i = 0; i < ls.n; i++)
		free(ls.l[i]);
	free(ls.l);
	free(ls.before);
	ft_flame_free(fg);
	return ret;
}
