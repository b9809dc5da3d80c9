/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyzer interface, all an analyzer sees of the layers above events/. An
 * analyzer declares its command line (struct ft_cli) and the events it reads (the
 * scheduler's by FT_NEED, any tracepoint by name through events/tp.h, functions
 * through events/funcs.h) and implements init, event, report (and reset, for interval
 * reports) and fini. It never touches tracefs: records come decoded, in time order,
 * with the switch chain already repaired. Adding one means its own file and one
 * X(NAME) line in registry.c (docs/design.md, "Adding an analyzer").
 */
#ifndef FTSCOPE_ANALYZERS_ANALYZER_H
#define FTSCOPE_ANALYZERS_ANALYZER_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "events/decode.h"
#include "events/funcs.h"
#include "events/sample.h"
#include "events/tp.h"
#include "lib/parse.h"
#include "lib/pidset.h"

struct ft_json;
struct ft_metrics;
struct ft_tasks;
struct ft_blob;

/* What the pipeline offers an analyzer. */
/* A latency an analyzer measured, for the flight recorder's trigger (ft_env_latency). */
struct ft_latency {
	uint64_t	ts;		/* when it ended, on the trace clock */
	uint64_t	ns;
	int		tid, cpu;	/* the task it is of (0: none), the CPU it ended on */
};

struct ft_env {
	FILE			*out;		/* where rows printed while events flow go */
	bool			json;		/* --json: the report is written as JSON */
	bool			exports;	/* --prometheus, --prometheus-file or --heatmap (check) */
	const bool		*cpu_on;	/* -C: the CPUs reported (NULL: all) */
	bool			task_filter;	/* -p/-t: the tasks were chosen */
	bool			command;	/* -- COMMAND: the run follows it */
	bool			all;		/* -a: every CPU, the command or not */
	struct ft_tasks		*tasks;		/* comm and tgid per tid */
	const struct ft_funcs	*funcs;		/* the functions probed, resolved (functions) */
	const struct ft_imap	*traced;	/* the pids a filtered trace records; NULL:
						   the whole system */
	bool			filtered_stream; /* the kernel recorded only the traced
						   tasks (else traced filters the report) */
	bool			live;		/* false when reading a capture */
	unsigned int		have;		/* FT_NEED() of the event types the trace has */
	int			ncpus;		/* CPUs of the trace */
	const char		*kallsyms;	/* the traced kernel's symbols: /proc/kallsyms live,
						   a copy of a trace.dat's own offline */
	const struct ft_blob	*procmaps;	/* offline: the file's maps of the traced */
	int			nprocmaps;	/* processes (PROCMAPS), for user stacks */
	const struct ft_blob	*cmdlines;	/* offline: the file's saved_cmdlines, or NULL */
	const struct ft_blob	*tgids;		/* offline: the file's task table, or NULL */
	char			clock[16];	/* the trace clock of the times: "mono", "perf" */
	const struct ft_sample_counts *samples;	/* sampling: what the rings gave and lost */
	const struct ft_sample_req *sampled;	/* what was sampled: the request with its
						   defaults, or a file's (-i) */
	/* --trigger: each latency measured goes here (NULL: none asked for) */
	void			(*latency)(void *ctx, const struct ft_latency *l);
	void			*latency_ctx;
};

/* ft_env_latency - a latency of @ns ending at @ts, of task @tid on @cpu, for --trigger */
static inline void ft_env_latency(const struct ft_env *env, uint64_t ns, uint64_t ts, int tid,
				  int cpu)
{
	struct ft_latency l;

	if (!env->latency)	/* no --flight: nothing built */
		return;
	l = (struct ft_latency){ .ts = ts, .ns = ns, .tid = tid, .cpu = cpu };
	env->latency(env->latency_ctx, &l);
}

/* ft_env_traced - does the trace follow @pid (always, for a whole-system trace)? */
static inline bool ft_env_traced(const struct ft_env *env, int pid)
{
	return !env->traced || ft_imap_get(env->traced, pid);
}

/*
 * ft_env_wakeup - is @ev the wakeup record that counts? sched_waking and
 * sched_wakeup_new always; sched_wakeup only when the trace has no sched_waking
 * (otherwise it repeats the waking of the same wakeup)
 */
static inline bool ft_env_wakeup(const struct ft_env *env, const struct ft_event *ev)
{
	switch (ev->type) {
	case FT_EV_WAKING:
	case FT_EV_WAKEUP_NEW:
		return true;
	case FT_EV_WAKEUP:
		return !(env->have & FT_NEED(FT_EV_WAKING));
	default:
		return false;
	}
}

/* One report: the final one, or one per interval. */
struct ft_report {
	FILE		*f;
	FILE		*footer;	/* set by the analyzer: where the footer goes (NULL: f) */
	struct ft_json	*json;		/* non-NULL with --json: write into the open object */
	bool		final;
	bool		interval;
	uint64_t	ts;		/* trace time of the report (ns) */
	uint64_t	start;		/* trace time of the run's first record */
	bool		failed;		/* set by the analyzer: a file it writes (--svg,
					   --pprof) could not be written; it said why. The
					   run then exits 1 */
};

/* A command's command line: its name, help text and own options (cmd/options.c). */
struct ft_cli {
	const char		*name;
	const char		*summary;	/* one line for `ftscope --help` */
	const char		*synopsis;	/* positional arguments it takes, e.g. "PATTERN..." */
	const char		*help;		/* the whole --help text, when the default does not fit */
	bool			command_words;	/* the first word that is no option starts the
						   command, "--" or not (perf stat) */
	bool			recorder;	/* -o FILE is what it writes, and -i does not apply */
	bool			exports;	/* takes --prometheus, --heatmap, ...: set by the
						   pipeline for analyzers with metrics() */
	const char		*latency;	/* what it measures ("wait"), calling
						   ft_env_latency: takes --flight, --trigger */
	const char		*usage;		/* the command's own options */
	const char		*examples;
	const char		*shortopts;	/* its own, added to the common ones */
	const struct option	*longopts;
	/* 0, -1 (the caller names the bad value) or FT_OPT_REPORTED (error printed) */
	int	(*parse_opt)(void *priv, int opt, const char *arg);
	/* optional: the parsed options against each other and the common ones (@env: only
	   json, live, cpu_on and task_filter are set), before anything is set up (so a
	   usage error comes first, root or not); 0, or -1 after one error line */
	int	(*check)(void *priv, const struct ft_env *env);
	/* optional: a positional argument that is not a number (interval, count) */
	int	(*arg)(void *priv, const char *arg);
};

struct ft_analyzer {
	struct ft_cli		cli;
	unsigned int		need;		/* FT_NEED() of required events */
	unsigned int		want;		/* FT_NEED() of events used when present */
	size_t			priv_size;
	unsigned int		max_wait_ms;	/* live: read at least this often (0: 1 s) */
	bool			whole_system;	/* what it reads belongs to no task (interrupts):
						   no pid filter; a command only bounds the run */
	/* optional: the functions it probes (after parse_opt); the tracer resolves and
	   owns the probes, and the analyzer reads the functions in env->funcs */
	const struct ft_func_req *(*functions)(void *priv);
	/* optional: the events the parsed options need, on top of need and want */
	void	(*events)(void *priv, unsigned int *need, unsigned int *want);
	/* optional: the tracepoints it reads by name (chained by next), after parse_opt;
	   the pipeline enables them live, resolves their fields in the trace's formats
	   and delivers their records (ft_tp_is) */
	struct ft_tp *(*tracepoints)(void *priv);
	/* optional: what it samples through perf_event_open (after parse_opt; NULL:
	   nothing). Samples reach sample() between records, not in time order with them,
	   but ahead: live each round drains the rings (up to now) before the records are
	   merged (up to 20 ms ago); from a file, every sample comes before the records */
	const struct ft_sample_req *(*sampling)(void *priv);
	/* its optional request (ft_sample_req.optional; the hook is needed where a request
	   can be) is not taken, for the reason @why (it prints one line); called before
	   events() live, before init() reading a file; sampling() returns NULL after */
	void	(*sampling_declined)(void *priv, const char *why);
	/* its request's second event (ft_sample_req.second) is not taken, for the reason
	   @why (it prints one line): a recording keeps one event, the kernel refuses it;
	   called before events(); sampling() returns a request without it after */
	void	(*second_declined)(void *priv, const char *why);
	void	(*sample)(void *priv, const struct ft_sample *s);
	/* returns 0, or -1 after printing one error line */
	int	(*init)(void *priv, const struct ft_env *env);
	void	(*event)(void *priv, const struct ft_event *ev);
	/* prints what it counted since the last reset (reset, not report, forgets it) */
	void	(*report)(void *priv, struct ft_report *r);
	/* optional: interval mode (r->interval), right after each report, the last one
	   too: forget what the interval counted (output/hset's ft_hset_reset and
	   ft_hgroups_reset, the notes' counts), keeping what a record still under way
	   needs; the next report covers what came after */
	void	(*reset)(void *priv);
	/* optional: its histograms as series (output/metrics.h), for the exports
	   (--prometheus, --prometheus-file, --heatmap). Called between records, whenever
	   an export needs them, and before each interval report (the exports keep what
	   reset will forget); the same series each time, with the values since the last
	   reset */
	void	(*metrics)(void *priv, struct ft_metrics *m);
	void	(*fini)(void *priv);
	/* optional: free what parse_opt and arg allocated (after fini, or without init) */
	void	(*free)(void *priv);
};

const struct ft_analyzer *ft_analyzer_find(const char *name);
extern const struct ft_analyzer *const ft_analyzers[];

#endif
