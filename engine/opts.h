/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run is asked: targets, CPUs, buffer, clock, duration, input, output and
 * exports. Filled from the command line by cmd/options.c; the engine hands the tracer
 * its part (struct ft_trace_desc, ft_trace_desc_of).
 */
#ifndef FTSCOPE_ENGINE_OPTS_H
#define FTSCOPE_ENGINE_OPTS_H

#include <stdbool.h>

#include "engine/flight.h"

struct ft_trace_desc;

struct ft_opts {
	int		*pids;		/* -p PID[,PID]: processes (all their threads) */
	int		npids;
	int		*tids;		/* -t TID[,TID]: single threads */
	int		ntids;
	bool		*cpu_on;	/* -C CPUS: which CPUs to trace (NULL: all) */
	const char	*cpu_arg;	/* -C's text, parsed once -i is known */
	int		ncpus;		/* possible CPUs on this machine (or in the input) */
	bool		all;		/* -a */
	double		duration;	/* -d SECONDS, 0: until Ctrl-C / command exit */
	double		interval;	/* positional interval in seconds, 0: one report */
	long		count;		/* positional count, 0: unlimited */
	bool		timestamps;	/* -T */
	unsigned int	buffer_kb;	/* -b KB per CPU, 0: default */
	bool		json;		/* --json */
	char		**cmd;		/* -- command [args] */
	const char	*input;		/* -i FILE: a trace.dat or a capture directory */
	const char	*instance;	/* -B NAME: the buffer of a trace.dat to read */
	const char	*clock;		/* --clock NAME: a live run's trace clock (mono) */
	const char	*cgroup;	/* --cgroup PATH: the processes in that cgroup */
	int		*cg_pids;	/* ... as read when the run starts */
	int		ncg;
	const char	*output;	/* -o DIR (capture) */
	const char	*pmu;		/* --pmu LIST: counters over the trace window */
	bool		keep_cmd;	/* --keep-command: leave the command running at the end */
	bool		mmap;		/* --mmap: read the buffers mapped (else read()) */
	int		rt_prio;	/* --realtime PRIO: the reader's SCHED_FIFO priority (0: none) */
	bool		verbose;	/* -v: how the buffers are read, the reader's counts */
	/* exports of histogram analyzers (engine/export.c) */
	const char	*prom_addr;	/* --prometheus [ADDR:]PORT: serve /metrics there */
	const char	*prom_file;	/* --prometheus-file PATH: rewritten every interval */
	unsigned int	max_series;	/* --max-series N: then one "other" series (0: 1000) */
	const char	*heatmap;	/* --heatmap FILE.svg */
	unsigned int	heatmap_cols;	/* --heatmap-cols N: at most N columns (0: 100) */
	double		heatmap_width;	/* --heatmap-width SECS: the columns' width (0: auto) */
	struct ft_flight_opts flight;	/* --flight SECS ... (engine/flight.c) */
};

void ft_trace_desc_of(struct ft_trace_desc *d, const struct ft_opts *o);

#endif
