// SPDX-License-Identifier: GPL-2.0
/*
 * `ftscope flamegraph`: stacks in, an interactive SVG out. Reads folded stacks
 * (ftscope's own, any stackcollapse output), bpftrace map output and perf script
 * output (cmd/fold*.c: it tells which and reads it here), and draws differential
 * graphs from two inputs (or
 * difffolded's two-count lines): width from the second profile, red where a
 * frame grew, blue where it shrank. --folded prints the stacks instead.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "cmd/fold.h"
#include "cmd/options.h"
#include "lib/util.h"
#include "output/flame.h"

enum { OPT_DIFF = 0x100, OPT_TITLE, OPT_SUBTITLE, OPT_COUNTNAME, OPT_WIDTH, OPT_INVERTED,
       OPT_COLORS, OPT_FORMAT };

static const struct option fg_longopts[] = {
	{ "diff",	required_argument,	NULL, OPT_DIFF },
	{ "title",	required_argument,	NULL, OPT_TITLE },
	{ "subtitle",	required_argument,	NULL, OPT_SUBTITLE },
	{ "countname",	required_argument,	NULL, OPT_COUNTNAME },
	{ "width",	required_argument,	NULL, OPT_WIDTH },
	{ "inverted",	no_argument,		NULL, OPT_INVERTED },
	{ "colors",	required_argument,	NULL, OPT_COLORS },
	{ "format",	required_argument,	NULL, OPT_FORMAT },
	{ "folded",	no_argument,		NULL, 'f' },
	{ "output",	required_argument,	NULL, 'o' },
	{ "help",	no_argument,		NULL, 'h' },
	{ 0 }
};

/* fg_usage - the command's help */
static void fg_usage(FILE *f)
{
	fputs("Usage: ftscope flamegraph [options] [INPUT...] > out.svg\n"
	      "       ftscope flamegraph --diff BEFORE AFTER [options] > diff.svg\n\n"
	      "Stacks from files or standard input become an interactive SVG flame graph:\n"
	      "hover for details, click to zoom, Search or Ctrl-F to highlight frames by\n"
	      "regular expression. Inputs are read as they stream (memory holds the distinct\n"
	      "stacks, not the input); each one's format is told from its first lines:\n"
	      "  folded     \"frame;frame;frame COUNT\" lines (ftscope offcpu -f, stackcollapse)\n"
	      "  bpftrace   map output with stacks in the keys: @[kstack]: N,\n"
	      "             @[kstack, ustack, comm]: N, @name[comm, ustack, kstack]: N\n"
	      "  perf       perf script output with callchains (perf record -g), one count\n"
	      "             a sample, the first event only\n"
	      "A line none of them explains is an error.\n\n"
	      "  --diff BEFORE AFTER  differential graph: widths from AFTER, red = grew,\n"
	      "                       blue = shrank (lines with two counts work without it)\n"
	      "  --format FORMAT      read the inputs as folded, bpftrace or perf (default auto)\n"
	      "  -f, --folded         print the stacks read as folded stacks (sorted, equal\n"
	      "                       ones merged) instead of a graph\n"
	      "  --title TEXT         title (default \"Flame Graph\")\n"
	      "  --subtitle TEXT      second title line\n"
	      "  --countname NAME     unit of the counts (default samples)\n"
	      "  --width PX           image width (default 1200)\n"
	      "  --inverted           icicle graph: roots at the top\n"
	      "  --colors hot|io      palette: hot (CPU, default) or io (off-CPU, blues)\n"
	      "  -o, --output FILE    write FILE instead of standard output\n\n"
	      "EXAMPLES:\n"
	      "  ftscope offcpu -f -d 5 > off.folded && ftscope flamegraph --colors io off.folded > off.svg\n"
	      "  perf record -g -a -- sleep 5 && perf script | ftscope flamegraph > cpu.svg\n"
	      "  bpftrace -e 'profile:hz:99 { @[kstack, ustack, comm] = count(); }' > bt.out\n"
	      "  ftscope flamegraph bt.out > bt.svg; ftscope flamegraph -f bt.out > bt.folded\n"
	      "  ftscope flamegraph --diff before.folded after.folded > diff.svg\n", f);
}

/*
 * detect - the format of an input, from its head (before ft_fold_next
 * has handed out any of it): bpftrace map output when a line is bpftrace's, else
 * perf script when the first line with content is a sample's header, else folded
 * stacks.
 */
static enum ft_fold_format detect(const struct ft_fold_in *in)
{
	size_t i;

	for (i = 0; i < in->nhead; i++)
		if (ft_fold_bpftrace_line(in->head[i]))
			return FT_FOLD_BPFTRACE;
	for (i = 0; i < in->nhead; i++)
		if (ft_fold_content(in->head[i]))
			return ft_fold_perf_header(in->head[i]) ? FT_FOLD_PERF : FT_FOLD_FOLDED;
	return FT_FOLD_FOLDED;
}

/*
 * parse_format - the value of --format: folded, bpftrace or perf.
 * Returns 0, or -1 for another word.
 */
static int parse_format(const char *s, enum ft_fold_format *f)
{
	static const char *const names[] = { "auto", "folded", "bpftrace", "perf" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*f = (enum ft_fold_format)i;
			return 0;
		}
	}
	return -1;
}

/* blank - a line of white space only */
static bool blank(const char *s)
{
	return !s[strspn(s, " \t\r\n")];
}

/* frames - how many frames a folded stack has */
static size_t frames(const char *stack)
{
	size_t n = 0;

	for (; *stack; stack++)
		n += *stack == ';';
	return n + 1;
}

/* read_folded - folded stacks, one "frame;frame COUNT" line each (blank lines skipped) */
static int read_folded(struct ft_fold *fo, struct ft_fold_in *in)
{
	size_t good = 0;
	double a, b;
	char *l;
	int got;

	while ((got = ft_fold_next(in, &l)) > 0) {
		ft_fold_drop(in, true);		/* each line stands alone */
		if (blank(l))
			continue;
		if (ft_folded_split(l, in->diff, in->before, &a, &b))
			return ft_fold_err(in, in->lineno, "not folded stacks (\"frame;frame COUNT\"), "
					   "bpftrace map output or perf script output: '%.60s'", l);
		if (frames(l) > FT_FOLD_MAX_FRAMES)
			return ft_fold_err(in, in->lineno, "a stack of more than %d frames",
					   FT_FOLD_MAX_FRAMES);
		if (ft_fold_add(fo, l, a, b)) {
			ft_err("out of memory");
			return -1;
		}
		good++;
	}
	if (got < 0)
		return -1;
	if (in->lineno && !good) {
		ft_err("%s holds no folded stacks (\"frame;frame COUNT\" lines)", in->what);
		return -1;
	}
	return 0;
}

/*
 * read_stacks - add the stacks of one input, read as format @f (FT_FOLD_AUTO:
 * told from its first lines). Returns 0, or -1 after an error line.
 */
static int read_stacks(struct ft_fold *fo, struct ft_fold_in *in, enum ft_fold_format f)
{
	if (f == FT_FOLD_AUTO) {
		f = detect(in);
		in->watch = f != FT_FOLD_BPFTRACE;
	}
	switch (f) {
	case FT_FOLD_BPFTRACE:
		return ft_fold_bpftrace(fo, in);
	case FT_FOLD_PERF:
		return ft_fold_perf(fo, in);
	default:
		return read_folded(fo, in);
	}
}

/*
 * read_input - the stacks of one input into @fo, read a line at a time. The first
 * input's first line tells whether the graph is differential when --diff does not:
 * two counts.
 */
static int read_input(struct ft_fold *fo, const char *path, bool before, bool *diff,
		      enum ft_fold_format fmt)
{
	struct ft_fold_in in = { .what = strcmp(path, "-") ? path : "standard input",
				 .before = before, .bpftrace_line = ft_fold_bpftrace_line,
				 .detect = detect };
	int ret;

	ret = ft_fold_open(&in, path);
	if (!ret) {
		if (!fo->n && !*diff && in.nhead && ft_folded_is_diff(in.head[0]))
			*diff = true;
		in.diff = *diff;
		ret = read_stacks(fo, &in, fmt);
	}
	ft_fold_close(&in);
	return ret;
}

/* build - the graph of the stacks read (their strings are cut up) */
static struct ft_flame *build(struct ft_fold *fo, bool diff)
{
	struct ft_flame *fg = ft_flame_new(diff);
	size_t i;

	for (i = 0; fg && i < fo->n; i++) {
		if (ft_flame_add_stack(fg, fo->e[i].stack, fo->e[i].a, fo->e[i].b)) {
			ft_flame_free(fg);
			fg = NULL;
		}
	}
	if (!fg)
		ft_err("out of memory");
	return fg;
}

/* The command line. */
struct fg_args {
	struct ft_flame_opts	fo;
	const char		*before, *out;
	enum ft_fold_format	fmt;
	bool			folded;
};

/* parse_args - the options into @a; -1 after an error line, 1 when --help was printed */
static int parse_args(int argc, char **argv, struct fg_args *a)
{
	int opt;
	long v;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:fh", fg_longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_DIFF: a->before = optarg; break;
		case OPT_TITLE: a->fo.title = optarg; break;
		case OPT_SUBTITLE: a->fo.subtitle = optarg; break;
		case OPT_COUNTNAME: a->fo.countname = optarg; break;
		case OPT_INVERTED: a->fo.inverted = true; break;
		case 'o': a->out = optarg; break;
		case 'f': a->folded = true; break;
		case 'h': fg_usage(stdout); return 1;
		case OPT_WIDTH:
			if (ft_parse_long(optarg, 200, 100000, &v)) {
				ft_err("invalid value '%s' for --width (200 to 100000)", optarg);
				return -1;
			}
			a->fo.width = (int)v;
			break;
		case OPT_COLORS:
			if (strcmp(optarg, "hot") && strcmp(optarg, "io")) {
				ft_err("unknown palette '%s' (hot or io)", optarg);
				return -1;
			}
			a->fo.palette = strcmp(optarg, "io") ? FT_PALETTE_HOT : FT_PALETTE_IO;
			break;
		case OPT_FORMAT:
			if (parse_format(optarg, &a->fmt)) {
				ft_err("unknown input format '%s' (folded, bpftrace or perf)",
				       optarg);
				return -1;
			}
			break;
		case ':':
			ft_err("option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			ft_err("unknown option '%s' (see ftscope flamegraph --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (a->before && optind + 1 != argc) {
		ft_err("--diff takes two files: BEFORE AFTER");
		return -1;
	}
	return 0;
}

/*
 * write_out - the graph (or with --folded the stacks) to standard output or -o FILE
 * (lib/file.c: replaced whole, or left as it was on a failure)
 */
static int write_out(struct fg_args *a, struct ft_fold *fo, bool diff)
{
	struct ft_flame *fg = NULL;
	struct ft_outfile out = { .f = stdout };
	int r, e;

	if (!a->folded && !(fg = build(fo, diff)))
		return -1;
	if (!a->fo.title)
		a->fo.title = diff ? "Differential Flame Graph" : "Flame Graph";
	if (a->out && ft_outfile_open(&out, a->out)) {
		ft_err("cannot write %s: %s", a->out, strerror(errno));
		ft_flame_free(fg);
		return -1;
	}
	r = fg ? ft_flame_write(fg, out.f, &a->fo) : ft_fold_print(fo, out.f, diff);
	if (a->out && r) {
		e = errno;
		ft_outfile_abandon(&out);
		errno = e;
	} else if (a->out) {
		r = ft_outfile_commit(&out);
	}
	if (r)
		ft_err("cannot write %s: %s", a->out ? a->out : "standard output", strerror(errno));
	ft_flame_free(fg);
	return r;
}

/**
 * ft_cmd_flamegraph - `ftscope flamegraph`
 * Returns the exit status.
 */
int ft_cmd_flamegraph(int argc, char **argv)
{
	struct fg_args a = { .fo = { .countname = "samples" } };
	struct ft_fold fo = { 0 };
	int r, ret = FT_EXIT_ERR;
	bool diff;

	ft_set_prog("ftscope flamegraph");
	r = parse_args(argc, argv, &a);
	if (r)
		return r > 0 ? FT_EXIT_OK : FT_EXIT_USAGE;
	diff = a.before != NULL;
	if (a.before && read_input(&fo, a.before, true, &diff, a.fmt))
		goto out;
	if (optind == argc && read_input(&fo, "-", false, &diff, a.fmt))
		goto out;
	for (r = optind; r < argc; r++)
		if (read_input(&fo, argv[r], false, &diff, a.fmt))
			goto out;
	ft_fold_finish(&fo);
	if (!write_out(&a, &fo, diff))
		ret = FT_EXIT_OK;
out:
	ft_fold_free(&fo);
	return ret;
}
