/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timehist's private state, shared by the event side (timehist.c), the options
 * (timehist_cli.c), the rows (timehist_rows.c, timehist_out.c) and the summaries
 * (timehist_summary.c).
 */
#ifndef FTSCOPE_ANALYZERS_TIMEHIST_INT_H
#define FTSCOPE_ANALYZERS_TIMEHIST_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyzers/analyzer.h"
#include "analyzers/ready.h"
#include "lib/tab.h"
#include "output/line.h"
#include "output/stats.h"

/* perf's default width of the task name column */
#define TH_COMM_WIDTH	30

/* One task (or one CPU's idle task) as timehist follows it. */
struct th_task {
	int		tid;
	char		last_state;	/* state letter at the last switch-out */
	bool		dead;		/* last switched out as X or Z */
	uint64_t	last_time;	/* last switch-out, 0 when never seen */
	struct ft_ready	ready;		/* since the first wakeup since then, or the switch-out
					   when preempted (perf's rule, analyzers/ready.h) */
	/* the row being printed */
	uint64_t	dt_run, dt_delay, dt_sleep, dt_iowait, dt_preempt;
	bool		dt_unmeasured;	/* its delay ended at in_unknown's switch-in: not counted */
	/* totals */
	struct ft_stats	run;		/* n: sched-in count */
	struct ft_stats	idle;		/* -I: idle periods this task ended */
	uint64_t	sleep, iowait, preempt, delay;
	uint64_t	migrations;
	int		cpu_seen;	/* filtered streams: 1 + the CPU its last record put it
					   on, 0 before any (moved()) */
	/* runs that start or end at a rebuilt switch: their count, and how far the run
	 * time can be off (the switches lie between their estimate and their record) */
	bool		in_rebuilt;	/* the current run began at a rebuilt switch */
	bool		in_unknown;	/* ... whose time nothing recorded tells: no delay */
	uint64_t	in_slack;	/* its record - estimate */
	uint64_t	in_early;	/* estimate - the earliest it can have been */
	uint64_t	rebuilt;
	uint64_t	run_under, run_over;	/* run time could be this much less, more */
	/* print_row: the task's "comm[tid/pid]", while its comm and tgid are these */
	char		name[48];
	unsigned char	name_len;		/* 0: not made yet */
	int		name_tgid;
	char		name_comm[FT_TASK_COMM_LEN + 1];
};

struct timehist {
	const struct ft_env	*env;
	bool			summary_only, summary, wakeups, migrations, next;
	bool			state, visual, idle_hist;
	bool			rows;			/* rows are printed (not -s, not --json) */
	bool			json_rows;		/* --json without -s: rows as JSON lines */
	bool			totals;			/* per-task totals are printed (-s, -S, -I, --json) */
	uint64_t		t_start, t_stop;	/* --time window, 0: open */
	struct ft_tab		tasks;			/* tid -> struct th_task */
	struct th_task		*idle;			/* per CPU */
	uint64_t		*tprev;			/* per CPU: last switch, 0 unknown */
	uint64_t		hist_start, hist_end;
	unsigned long long	rows_rebuilt;		/* rows whose run rests on a rebuilt switch */
	unsigned long long	delays_unknown;		/* rows whose delay ends at such a switch
							   with no record of when: not counted */
	unsigned long long	tasks_rebuilt;		/* summary: tasks with such runs */
	uint64_t		sec;			/* put_time: the seconds in sec_text */
	char			sec_text[48];		/* "%8llu." (and ft_put_u's room) */
	unsigned int		sec_len;		/* 0: not made yet */
	char			(*cpu_text)[16];	/* per CPU: " [%04d] " */
	unsigned char		*cpu_len;
	char			*out;			/* rows not yet handed to stdio */
	size_t			out_len, out_cap;
	size_t			row_max;		/* room a row may need */
	bool			oom;
};

/* timehist_rows.c: -w, -M and lost rows; --json's rows */
void th_json_switch(struct timehist *th, const struct ft_event *ev, uint64_t t,
		    const struct th_task *tr, bool rebuilt);
void th_row_wakeup(struct timehist *th, const struct ft_event *ev);
void th_row_migration(struct timehist *th, const struct ft_event *ev);
void th_row_lost(struct timehist *th, const struct ft_event *ev);
void th_summary(struct timehist *th, FILE *f);
void th_summary_json(struct timehist *th, struct ft_json *j);
void th_summary_reset(void *priv);

/* timehist_cli.c: the options, their help and examples */
extern const struct option th_longopts[];
extern const char th_usage[], th_examples[];
int th_parse_opt(void *priv, int opt, const char *arg);

#endif
