// SPDX-License-Identifier: GPL-2.0
/*
 * Common options, parsed once for every analyzer; the analyzer's own options are
 * merged into the same getopt_long table and handed to its parse_opt.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzers/analyzer.h"
#include "cmd/options.h"
#include "events/source.h"
#include "lib/httpd.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "tracer/command.h"

enum {
	OPT_JSON = 0x1000, OPT_HELP, OPT_PMU, OPT_KEEP_CMD, OPT_CLOCK, OPT_CGROUP,
	OPT_PROM, OPT_PROM_FILE, OPT_MAX_SERIES, OPT_HEATMAP, OPT_HEATMAP_COLS,
	OPT_HEATMAP_WIDTH, OPT_MMAP, OPT_REALTIME, OPT_FLIGHT, OPT_TRIGGER, OPT_AFTER,
	OPT_TRIGGER_MAX, OPT_FLIGHT_SIZE,
};

static const char common_short[] = "p:t:C:ad:Tb:i:B:o:vh";
static const struct option common_long[] = {
	{ "pid",	required_argument, NULL, 'p' },
	{ "tid",	required_argument, NULL, 't' },
	{ "cpu",	required_argument, NULL, 'C' },
	{ "all-cpus",	no_argument,       NULL, 'a' },
	{ "duration",	required_argument, NULL, 'd' },
	{ "timestamp",	no_argument,       NULL, 'T' },
	{ "buffer",	required_argument, NULL, 'b' },
	{ "input",	required_argument, NULL, 'i' },
	{ "instance",	required_argument, NULL, 'B' },
	{ "output",	required_argument, NULL, 'o' },
	{ "json",	no_argument,       NULL, OPT_JSON },
	{ "pmu",	required_argument, NULL, OPT_PMU },
	{ "keep-command", no_argument,     NULL, OPT_KEEP_CMD },
	{ "clock",	required_argument, NULL, OPT_CLOCK },
	{ "cgroup",	required_argument, NULL, OPT_CGROUP },
	{ "mmap",	no_argument,       NULL, OPT_MMAP },
	{ "realtime",	required_argument, NULL, OPT_REALTIME },
	{ "verbose",	no_argument,       NULL, 'v' },
	{ "help",	no_argument,       NULL, 'h' },
};
/* the histogram analyzers' exports (struct ft_cli's exports) */
static const struct option export_long[] = {
	{ "prometheus",		required_argument, NULL, OPT_PROM },
	{ "prometheus-file",	required_argument, NULL, OPT_PROM_FILE },
	{ "max-series",		required_argument, NULL, OPT_MAX_SERIES },
	{ "heatmap",		required_argument, NULL, OPT_HEATMAP },
	{ "heatmap-cols",	required_argument, NULL, OPT_HEATMAP_COLS },
	{ "heatmap-width",	required_argument, NULL, OPT_HEATMAP_WIDTH },
};
/* the flight recorder, for the analyzers that measure latencies (struct ft_cli's latency) */
static const struct option flight_long[] = {
	{ "flight",		required_argument, NULL, OPT_FLIGHT },
	{ "trigger",		required_argument, NULL, OPT_TRIGGER },
	{ "after",		required_argument, NULL, OPT_AFTER },
	{ "trigger-max",	required_argument, NULL, OPT_TRIGGER_MAX },
	{ "flight-size",	required_argument, NULL, OPT_FLIGHT_SIZE },
};

static const char common_usage[] =
	"Common options:\n"
	"  -p, --pid PID[,PID]   trace these processes (all their threads, and new ones)\n"
	"  -t, --tid TID[,TID]   trace these threads only\n"
	"      --cgroup PATH     trace the processes of this cgroup (as perf -G: PATH under\n"
	"                        /sys/fs/cgroup or a hierarchy there, or absolute), with their\n"
	"                        new threads and children; ones that join it later are not seen\n"
	"  -C, --cpu CPUS        trace these CPUs only (e.g. 0,2-3)\n"
	"  -a, --all-cpus        every task (the default; with -- CMD, while it runs)\n"
	"  -d, --duration SECS   stop after SECS seconds\n"
	"  -T, --timestamp       print a timestamp before each interval report\n"
	"  -b, --buffer KB       ring-buffer size per CPU, in KB\n"
	"      --clock NAME      the trace clock: mono (default, CLOCK_MONOTONIC), perf (perf's:\n"
	"                        the times perf sched prints), boot, global, local, ... (the\n"
	"                        kernel's trace_clock list); a file keeps the one it was made with\n"
	"      --realtime PRIO   run at SCHED_FIFO priority PRIO (1-99, as perf record -r) until\n"
	"                        the buffers are drained: writers at normal priority cannot\n"
	"                        starve the reader, which then takes a CPU from them\n"
	"      --mmap            read the ring buffers mapped into ftscope (Linux 6.10+) instead\n"
	"                        of with read(); where the kernel cannot map them, read() them\n"
	"                        (not with record, which splices them)\n"
	"  -v, --verbose         say how the buffers are read, and the reader's counts at the end\n";
/* what an analyzer reads and writes besides (a recorder has its own -o and no -i) */
static const char file_usage[] =
	"  -o, --output FILE     also save the run's events as a trace.dat (trace-cmd's format)\n"
	"  -i, --input FILE      analyze a trace.dat (ftscope -o, ftscope record, trace-cmd record)\n"
	"                        instead of tracing\n"
	"  -B, --instance NAME   with -i: read the buffer of instance NAME (trace-cmd record -B;\n"
	"                        top: the top one; default: the top one, or the first instance\n"
	"                        with events when it holds none)\n";
static const char export_usage[] =
	"Exports (docs/export.md):\n"
	"      --prometheus [ADDR:]PORT  serve the histograms, cumulative, at\n"
	"                        http://ADDR:PORT/metrics (ADDR: 127.0.0.1) until the run ends\n"
	"      --prometheus-file PATH  the same text, replaced every interval and at the end\n"
	"                        (node_exporter's textfile collector)\n"
	"      --max-series N    at most N series per metric, the rest in one \"other\" (1000)\n"
	"      --heatmap FILE.svg  a latency heat map: time across, the histogram's rows up\n"
	"      --heatmap-cols N  at most N columns (default 100), each 2^k ms wide\n"
	"      --heatmap-width SECS  columns SECS wide instead\n";
static const char flight_usage[] =
	"Flight recorder (docs/record.md):\n"
	"      --flight SECS     keep the run's last SECS of events (pages, as -o saves them)\n"
	"                        in memory; written to -o FILE at the end, or with --trigger\n"
	"      --trigger MS      when a latency the analyzer measures exceeds MS (or 500us,\n"
	"                        2s; record: 'ANALYZER>20ms'): its SECS before and --after\n"
	"                        after it, as FILE, then FILE.1, ...\n"
	"      --after SECS      what a triggered file keeps after the latency (default 1)\n"
	"      --trigger-max N   end the run after N files (default 1; 0: keep going)\n"
	"      --flight-size MB  the memory the kept pages take at most (default 256)\n";
static const char common_tail[] =
	"      --json            print the report as JSON\n"
	"      --pmu LIST        count these events (see ftscope stat --help) over the trace\n"
	"  -h, --help            this help\n"
	"  interval [count]      report every interval seconds, count times (as BCC tools)\n"
	"  -- command [args]     run command, trace it and its children until it exits; when\n"
	"                        the run ends first (-d, count, Ctrl-C), end it with SIGTERM\n"
	"                        (SIGKILL 2 s later); its own children are not signalled\n"
	"      --keep-command    leave the command running when the run ends first\n";

/* usage - the help of one analyzer: synopsis, its options, common options, examples */
static void usage(const struct ft_cli *a, FILE *f)
{
	if (a->help) {
		fputs(a->help, f);
		return;
	}
	fprintf(f, "Usage: ftscope %s [options]%s%s [interval [count]] [-- command [args]]\n\n%s.\n\n",
		a->name, a->synopsis ? " " : "", a->synopsis ? a->synopsis : "", a->summary);
	if (a->usage && a->usage[0])
		fprintf(f, "Options:\n%s\n", a->usage);
	fprintf(f, "%s%s%s%s%s\nEXAMPLES:\n%s", common_usage, a->recorder ? "" : file_usage,
		a->exports ? export_usage : "", a->latency ? flight_usage : "", common_tail,
		a->examples ? a->examples : "");
}

/* common_has - whether a common or export option answers to @val or is called --@name */
static bool common_has(int val, const char *name)
{
	const struct option *t[] = { common_long, export_long, flight_long };
	const size_t n[] = { sizeof(common_long) / sizeof(common_long[0]),
			     sizeof(export_long) / sizeof(export_long[0]),
			     sizeof(flight_long) / sizeof(flight_long[0]) };
	size_t i, j;

	for (j = 0; j < 3; j++)
		for (i = 0; i < n[j]; i++)
			if (t[j][i].val == val || (name && !strcmp(t[j][i].name, name)))
				return true;
	return false;
}

/**
 * ft_cli_clash - an option of @a's that a common one would take before its parse_opt
 * saw it: a letter, a long option's value or its name. Returns 0, or -1 after one line.
 */
int ft_cli_clash(const struct ft_cli *a)
{
	const char *c;
	int i;

	for (c = a->shortopts; c && *c; c++)
		if (*c != ':' && common_has(*c, NULL)) {
			ft_err("%s: its option -%c is a common one", a->name, *c);
			return -1;
		}
	for (i = 0; a->longopts && a->longopts[i].name; i++)
		if (common_has(a->longopts[i].val, a->longopts[i].name)) {
			ft_err("%s: its option --%s is a common one", a->name, a->longopts[i].name);
			return -1;
		}
	return 0;
}

/*
 * build_tables - common plus analyzer options, as one short string and one long
 * table; NULL after one line when they clash or memory is short
 */
static struct option *build_tables(const struct ft_cli *a, char *shortopts, size_t len)
{
	size_t nc = sizeof(common_long) / sizeof(common_long[0]), na = 0;
	size_t ne = a->exports ? sizeof(export_long) / sizeof(export_long[0]) : 0;
	size_t nf = a->latency ? sizeof(flight_long) / sizeof(flight_long[0]) : 0;
	struct option *lo;

	if (ft_cli_clash(a))
		return NULL;
	while (a->longopts && a->longopts[na].name)
		na++;
	lo = calloc(nc + ne + nf + na + 1, sizeof(*lo));
	if (!lo) {
		ft_err("out of memory");
		return NULL;
	}
	memcpy(lo, common_long, sizeof(common_long));
	if (ne)
		memcpy(lo + nc, export_long, sizeof(export_long));
	if (nf)
		memcpy(lo + nc + ne, flight_long, sizeof(flight_long));
	if (na)
		memcpy(lo + nc + ne + nf, a->longopts, na * sizeof(*lo));
	/* '+': stop at the first word that is no option (glibc skips it before ':') */
	snprintf(shortopts, len, "%s:%s%s", a->command_words ? "+" : "", common_short,
		 a->shortopts ? a->shortopts : "");
	return lo;
}

/*
 * parse_trigger - --trigger [ANALYZER>]VALUE[ns|us|ms|s] (milliseconds without a
 * unit): the value into @f, the analyzer (record's form) kept; 0, or 1 when bad
 */
static int parse_trigger(struct ft_flight_opts *f, const char *arg)
{
	static const struct { const char *unit; double ms; } units[] = {
		{ "ns", 1e-6 }, { "us", 1e-3 }, { "ms", 1 }, { "s", 1e3 }, { "", 1 },
	};
	const char *gt = strrchr(arg, '>'), *v = gt ? gt + 1 : arg;
	char num[32];
	size_t i, n = strspn(v, "0123456789.");

	if (gt && ((size_t)(gt - arg) >= sizeof(f->trigger_of) || gt == arg))
		return 1;
	if (gt)
		snprintf(f->trigger_of, sizeof(f->trigger_of), "%.*s", (int)(gt - arg), arg);
	if (!n || n >= sizeof(num))
		return 1;
	snprintf(num, sizeof(num), "%.*s", (int)n, v);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(v + n, units[i].unit))
			break;
	if (i == sizeof(units) / sizeof(units[0]) ||
	    ft_parse_double(num, 1e-6, 3.6e9, &f->trigger_ms))
		return 1;
	f->trigger_ms *= units[i].ms;
	return 0;
}

/* parse_flight - one flight recorder option; -1 when @opt is none, 0 ok, 1 bad value */
static int parse_flight(struct ft_flight_opts *f, int opt, const char *arg)
{
	switch (opt) {
	case OPT_FLIGHT: return ft_parse_double(arg, 0.001, 86400, &f->keep_s) ? 1 : 0;
	case OPT_TRIGGER: return parse_trigger(f, arg);
	case OPT_AFTER:
		f->after_set = true;
		return ft_parse_double(arg, 0, 3600, &f->after_s) ? 1 : 0;
	case OPT_TRIGGER_MAX:
		f->max_set = true;
		return ft_parse_long(arg, 0, 1000000, &f->max_files) ? 1 : 0;
	case OPT_FLIGHT_SIZE: return ft_parse_long(arg, 1, 1L << 20, &f->size_mb) ? 1 : 0;
	}
	return -1;
}

/* parse_common - one common option; -1 when @opt is not common, 0 ok, 1 bad value */
static int parse_common(struct ft_opts *o, int opt, const char *arg)
{
	long v;

	switch (opt) {
	case 'p': return ft_parse_pids(arg, &o->pids, &o->npids) ? 1 : 0;
	case 't': return ft_parse_pids(arg, &o->tids, &o->ntids) ? 1 : 0;
	case 'C': o->cpu_arg = arg; return 0;
	case 'a': o->all = true; return 0;
	case 'd': return ft_parse_double(arg, 0.001, 1e7, &o->duration) ? 1 : 0;
	case 'T': o->timestamps = true; return 0;
	case 'b':
		if (ft_parse_long(arg, 4, 4L << 20, &v))
			return 1;
		o->buffer_kb = (unsigned int)v;
		return 0;
	case 'i': o->input = arg; return 0;
	case 'B': o->instance = arg; return 0;
	case 'o': o->output = arg; return 0;
	case OPT_JSON: o->json = true; return 0;
	case OPT_PMU: o->pmu = arg; return 0;
	case OPT_KEEP_CMD: o->keep_cmd = true; return 0;
	case OPT_CLOCK: o->clock = arg; return 0;
	case OPT_CGROUP: o->cgroup = arg; return 0;
	case OPT_MMAP: o->mmap = true; return 0;
	case OPT_REALTIME:
		if (ft_parse_long(arg, 1, 99, &v))
			return 1;
		o->rt_prio = (int)v;
		return 0;
	case 'v': o->verbose = true; return 0;
	case OPT_PROM: o->prom_addr = arg; return 0;
	case OPT_PROM_FILE: o->prom_file = arg; return 0;
	case OPT_MAX_SERIES:
		if (ft_parse_long(arg, 1, 1000000, &v))
			return 1;
		o->max_series = (unsigned int)v;
		return 0;
	case OPT_HEATMAP: o->heatmap = arg; return 0;
	case OPT_HEATMAP_COLS:
		if (ft_parse_long(arg, 1, 10000, &v))
			return 1;
		o->heatmap_cols = (unsigned int)v;
		return 0;
	case OPT_HEATMAP_WIDTH:
		return ft_parse_double(arg, 0.000001, 1e6, &o->heatmap_width) ? 1 : 0;
	}
	return parse_flight(&o->flight, opt, arg);
}

/*
 * check_flight - the flight recorder's options against each other, -o and -i, its
 * defaults filled in; 0, or -1 after one line
 */
static int check_flight(struct ft_opts *o, const struct ft_cli *a)
{
	struct ft_flight_opts *f = &o->flight;
	long mem_mb;

	if (f->trigger_of[0] && !a->recorder) {
		ft_err("--trigger takes the latency %s measures, e.g. 20ms: ANALYZER>VALUE is "
		       "record's", a->name);
		return -1;
	}
	if (a->recorder && f->trigger_ms && !f->trigger_of[0]) {
		ft_err("record --trigger takes the analyzer that measures: ANALYZER>VALUE, "
		       "e.g. 'runqlat>20ms'");
		return -1;
	}
	if (!f->keep_s && (f->trigger_ms || f->after_set || f->max_set || f->size_mb)) {
		ft_err("--trigger, --after, --trigger-max and --flight-size shape --flight SECS: "
		       "give it");
		return -1;
	}
	if (!f->keep_s)
		return 0;
	if (!o->output) {
		ft_err("--flight needs -o FILE: where the kept window is written");
		return -1;
	}
	if (o->input) {
		ft_err("--flight keeps a live run's last seconds: not with -i");
		return -1;
	}
	if (!f->trigger_ms && (f->after_set || f->max_set)) {
		ft_err("--after and --trigger-max shape what --trigger MS writes: give it");
		return -1;
	}
	if (!f->after_set)
		f->after_s = 1;
	if (!f->max_set)
		f->max_files = 1;
	mem_mb = sysconf(_SC_PHYS_PAGES) / (1048576 / sysconf(_SC_PAGESIZE));
	if (!f->size_mb) {	/* 256, a quarter of a small machine's memory */
		f->size_mb = 256;
		if (mem_mb > 0 && mem_mb / 4 < f->size_mb)
			f->size_mb = mem_mb / 4 > o->ncpus ? mem_mb / 4 : o->ncpus;
	}
	if (mem_mb > 0 && f->size_mb > mem_mb) {
		ft_err("--flight-size %ld MB is more than this machine's memory (%ld MB)",
		       f->size_mb, mem_mb);
		return -1;
	}
	if (f->size_mb < o->ncpus) {
		ft_err("--flight-size %ld MB cannot keep a window of %d CPUs: at least %d MB",
		       f->size_mb, o->ncpus, o->ncpus);
		return -1;
	}
	return 0;
}

/* check_exports - the export options against each other and -i; 0, or -1 after one line */
static int check_exports(const struct ft_opts *o)
{
	if (o->prom_addr && o->input) {
		ft_err("--prometheus serves a live run: with -i, use --prometheus-file");
		return -1;
	}
	if (o->prom_addr && ft_httpd_spec_check(o->prom_addr))
		return -1;
	if ((o->heatmap_cols || o->heatmap_width) && !o->heatmap) {
		ft_err("--heatmap-cols and --heatmap-width shape a --heatmap FILE.svg: give one");
		return -1;
	}
	if (o->heatmap_cols && o->heatmap_width) {
		ft_err("--heatmap-cols and --heatmap-width: give one of them");
		return -1;
	}
	if (o->max_series && !o->prom_addr && !o->prom_file) {
		ft_err("--max-series bounds --prometheus or --prometheus-file: give one");
		return -1;
	}
	return 0;
}

/* ft_cli_check - the command's own check, told the common options @o that concern it */
int ft_cli_check(const struct ft_cli *a, void *priv, const struct ft_opts *o)
{
	struct ft_env env = { .json = o->json, .live = !o->input, .cpu_on = o->cpu_on,
			      .task_filter = o->npids || o->ntids, .command = o->cmd,
			      .all = o->all,
			      .exports = o->prom_addr || o->prom_file || o->heatmap };

	return a->check(priv, &env);
}

/* opt_name - how the user spelled option @opt, for error lines */
static void opt_name(int opt, const struct option *lo, char *buf, size_t len)
{
	int i;

	if (opt <= 0xff) {
		snprintf(buf, len, "-%c", opt);
		return;
	}
	for (i = 0; lo[i].name; i++)
		if (lo[i].val == opt) {
			snprintf(buf, len, "--%s", lo[i].name);
			return;
		}
	snprintf(buf, len, "an option");
}

/* split_command - `-- command [args]`: @o->cmd, and *@nargs the words before it */
static int split_command(struct ft_opts *o, const struct ft_cli *a, int argc, char **argv,
			 int *nargs)
{
	int i;

	*nargs = argc;
	for (i = 1; i < argc && !a->command_words; i++)
		if (!strcmp(argv[i], "--")) {
			*nargs = i;
			if (i + 1 >= argc) {
				ft_err("'--' must be followed by a command");
				return FT_EXIT_USAGE;
			}
			o->cmd = argv + i + 1;
			break;
		}
	return FT_PARSE_RUN;
}

/* parse_flags - the options of @argv's first @nargs words: common ones, then @a's */
static int parse_flags(struct ft_opts *o, const struct ft_cli *a, void *priv, int nargs,
		       char **argv, const char *shortopts, const struct option *lo)
{
	char name[64];
	int opt, r;

	optind = 0;	/* glibc: 0 resets getopt completely, as each parse must */
	opterr = 0;
	while ((opt = getopt_long(nargs, argv, shortopts, lo, NULL)) != -1) {
		if (opt == 'h') {
			usage(a, stdout);
			return FT_EXIT_OK;
		}
		if (opt == '?' || opt == ':') {
			if (optopt)
				opt_name(optopt, lo, name, sizeof(name));
			else
				snprintf(name, sizeof(name), "%s", argv[optind - 1]);
			/* getopt gives a long option's own value when it was given "=value" */
			ft_err(opt == ':' ? "option %s needs a value (see --help)" :
			       optopt > 0xff ? "option %s takes no value (see --help)" :
			       "unknown option %s (see --help)", name);
			return FT_EXIT_USAGE;
		}
		r = parse_common(o, opt, optarg);
		if (r < 0)
			r = a->parse_opt ? a->parse_opt(priv, opt, optarg) : -1;
		if (r == FT_OPT_REPORTED)
			return FT_EXIT_USAGE;
		if (r) {
			opt_name(opt, lo, name, sizeof(name));
			ft_err("invalid value '%s' for %s", optarg ? optarg : "", name);
			return FT_EXIT_USAGE;
		}
	}
	return FT_PARSE_RUN;
}

/*
 * parse_words - what follows the options: a command (perf stat's way), @a's own
 * words, then interval and count
 */
static int parse_words(struct ft_opts *o, const struct ft_cli *a, void *priv, int argc,
		       char **argv, int nargs)
{
	int i, npos = 0;
	double num;
	long cnt;

	if (a->command_words && optind < argc) {
		o->cmd = argv + optind;
		nargs = optind;
	} else if (a->command_words && optind > 1 && !strcmp(argv[optind - 1], "--")) {
		ft_err("'--' must be followed by a command");
		return FT_EXIT_USAGE;
	}
	for (i = optind; i < nargs; i++, npos++) {
		if (a->arg && ft_parse_double(argv[i], 0.001, 1e7, &num)) {
			if (a->arg(priv, argv[i]))
				return FT_EXIT_USAGE;
			npos--;
			continue;
		}
		if (npos == 0 && ft_parse_double(argv[i], 0.001, 1e7, &o->interval)) {
			ft_err("invalid interval '%s' (seconds)", argv[i]);
			return FT_EXIT_USAGE;
		}
		if (npos == 1) {
			if (ft_parse_long(argv[i], 1, LONG_MAX, &cnt)) {
				ft_err("invalid count '%s'", argv[i]);
				return FT_EXIT_USAGE;
			}
			o->count = cnt;
		}
		if (npos > 1) {
			ft_err("unexpected argument '%s' (see --help)", argv[i]);
			return FT_EXIT_USAGE;
		}
	}
	return FT_PARSE_RUN;
}

/* check_all - -C's CPUs, then the options against each other and the command's own check */
static int check_all(struct ft_opts *o, const struct ft_cli *a, void *priv)
{
	/* -C: this machine's CPUs live, any a capture can name with -i */
	if (o->cpu_arg && ft_parse_cpus(o->cpu_arg, o->input ? FT_FILE_MAX_CPUS : o->ncpus,
					&o->cpu_on)) {
		ft_err("invalid value '%s' for -C", o->cpu_arg);
		return FT_EXIT_USAGE;
	}
	if (o->cpu_arg && o->input)
		o->ncpus = FT_FILE_MAX_CPUS;
	if ((o->npids || o->ntids) && o->cmd) {
		ft_err("-p/-t and '-- command' cannot be combined");
		return FT_EXIT_USAGE;
	}
	if (o->cgroup && (o->input || o->cmd)) {
		ft_err("--cgroup picks the processes of a live run: not with -i or a command");
		return FT_EXIT_USAGE;
	}
	if (o->cgroup && ft_cgroup_procs(o->cgroup, &o->cg_pids, &o->ncg))
		return FT_EXIT_ERR;
	if (o->instance && !o->input) {
		ft_err("-B picks a buffer of a trace.dat: it needs -i FILE");
		return FT_EXIT_USAGE;
	}
	if (o->input && (o->cmd || o->buffer_kb || o->pmu || o->clock || ft_opts_reader(o))) {
		ft_err("-i reads a capture: it cannot be combined with -b, --clock, --pmu, "
		       "--mmap, --realtime, -v or a command");
		return FT_EXIT_USAGE;
	}
	if (o->mmap && a->recorder) {
		ft_err("--mmap: a recording splices the buffers' pages to its file; it does not map them");
		return FT_EXIT_USAGE;
	}
	if (check_exports(o) || check_flight(o, a) || (a->check && ft_cli_check(a, priv, o)))
		return FT_EXIT_USAGE;
	return FT_PARSE_RUN;
}

/**
 * ft_opts_parse - parse `ftscope NAME [options] [interval [count]] [-- cmd]`
 * @argv[0] is the analyzer name. Fills @o and, through parse_opt, @priv.
 * Returns FT_PARSE_RUN, or an exit status after printing help or one error line.
 */
int ft_opts_parse(struct ft_opts *o, const struct ft_cli *a, void *priv,
		  int argc, char **argv)
{
	char shortopts[128];
	struct option *lo;
	int nargs, ret;

	ret = split_command(o, a, argc, argv, &nargs);
	if (ret != FT_PARSE_RUN)
		return ret;
	lo = build_tables(a, shortopts, sizeof(shortopts));
	if (!lo)
		return FT_EXIT_ERR;
	ret = parse_flags(o, a, priv, nargs, argv, shortopts, lo);
	if (ret == FT_PARSE_RUN)
		ret = parse_words(o, a, priv, argc, argv, nargs);
	if (ret == FT_PARSE_RUN)
		ret = check_all(o, a, priv);
	free(lo);
	return ret;
}

/* ft_opts_reader - whether @o shapes a live run's reader: --mmap, --realtime, -v */
bool ft_opts_reader(const struct ft_opts *o)
{
	return o->mmap || o->rt_prio || o->verbose;
}

/* ft_opts_free - free what parsing allocated */
void ft_opts_free(struct ft_opts *o)
{
	free(o->pids);
	free(o->tids);
	free(o->cg_pids);
	o->cg_pids = NULL;
	free(o->cpu_on);
	o->pids = o->tids = NULL;
	o->cpu_on = NULL;
}
