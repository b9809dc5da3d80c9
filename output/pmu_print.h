/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter values as perf stat prints them: scaling for multiplexed counters, the
 * derived metric after '#', text, CSV and JSON. Pure functions of the values, so
 * they are tested with fabricated readings.
 */
#ifndef FTSCOPE_OUTPUT_PMU_PRINT_H
#define FTSCOPE_OUTPUT_PMU_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ft_json;

enum ft_pmu_state {
	FT_PMU_COUNTED,
	FT_PMU_NOT_COUNTED,	/* opened, but never ran in the window */
	FT_PMU_NOT_SUPPORTED,	/* this machine cannot count it */
};

/* One counter over one window: its raw reading and the times the kernel gives. */
struct ft_pmu_count {
	const char		*name;		/* as the user spelled it */
	uint32_t		type;		/* perf_event_attr type and config */
	uint64_t		config;
	enum ft_pmu_state	state;
	uint64_t		raw;		/* summed over tasks or CPUs */
	uint64_t		enabled_ns;
	uint64_t		running_ns;
};

/* The derived value perf prints after '#'. */
struct ft_pmu_metric {
	double		value;
	const char	*unit;		/* "CPUs utilized", "K/sec", "of all branches" ... */
	bool		percent;	/* print as "%7.2f%%" */
};

/* How a report is laid out. */
struct ft_pmu_fmt {
	const char	*csv_sep;	/* -x SEP, or NULL for the text layout */
	bool		perf_json;	/* -j: perf stat -j's JSON lines */
	const double	*noise;		/* -r: each counter's spread in %, or NULL */
	bool		interval;	/* lines start with the time since start */
	double		time_s;		/* that time */
};

double ft_pmu_scaled(const struct ft_pmu_count *c);
double ft_pmu_pct_running(const struct ft_pmu_count *c);
bool ft_pmu_is_clock(const struct ft_pmu_count *c);
bool ft_pmu_metric(const struct ft_pmu_count *c, int i, int n, uint64_t elapsed_ns,
		   struct ft_pmu_metric *m);
void ft_pmu_print(FILE *f, const struct ft_pmu_count *c, int n, uint64_t elapsed_ns,
		  const struct ft_pmu_fmt *fmt);
void ft_pmu_json(struct ft_json *j, const struct ft_pmu_count *c, int n, uint64_t elapsed_ns);

#endif
