// SPDX-License-Identifier: GPL-2.0
/*
 * timehist summaries in perf's layout: Runtime summary, Wait-time summary (--state),
 * Idle-time summary (-I), then Idle stats per CPU and the totals; and the same as
 * JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/timehist_int.h"
#include "analyzers/timehist_out.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "output/json.h"

/* cmp_tid - order tasks by tid */
static int cmp_tid(const void *a, const void *b)
{
	const struct th_task *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* ms - print nanoseconds as perf's print_sched_time does */
static void ms(FILE *f, uint64_t ns, int width)
{
	fprintf(f, "%*llu.%03llu ", width, (unsigned long long)(ns / 1000000),
		(unsigned long long)(ns % 1000000 / 1000));
}

/* wanted - does a task belong in the summary being printed? */
static bool wanted(const struct timehist *th, const struct th_task *tr)
{
	return th->idle_hist ? tr->idle.n > 0 : tr->run.n > 0;
}

/* print_task - one line of the summary */
static void print_task(struct timehist *th, FILE *f, const struct th_task *tr)
{
	const struct ft_stats *s = th->idle_hist ? &tr->idle : &tr->run;
	char name[64];

	th_commstr(th, tr->tid, name, sizeof(name));
	fprintf(f, "%*s   %5d  %9llu ", TH_COMM_WIDTH, name,
		ft_tasks_ppid(th->env->tasks, tr->tid),
		(unsigned long long)s->n);
	ms(f, s->sum, 8);
	if (th->state && !th->idle_hist) {
		ms(f, tr->sleep, 6);
		fputc(' ', f);
		ms(f, tr->iowait, 6);
		fputc(' ', f);
		ms(f, tr->preempt, 6);
		fputc(' ', f);
		ms(f, tr->delay, 6);
	} else {
		ms(f, s->min, 6);
		fputc(' ', f);
		ms(f, (uint64_t)s->mean, 6);
		fputc(' ', f);
		ms(f, s->max, 6);
		fprintf(f, "  %5.2f   %5llu", ft_stats_rel_stddev(s),
			(unsigned long long)tr->migrations);
	}
	if (tr->rebuilt && !th->idle_hist)
		fprintf(f, "  ^%llu", (unsigned long long)tr->rebuilt);
	fputc('\n', f);
}

/* print_tasks - the live or the terminated tasks; returns how many were printed */
static unsigned int print_tasks(struct timehist *th, FILE *f, bool dead, uint64_t *count,
				uint64_t *run)
{
	unsigned int i, n = 0;

	for (i = 0; i < th->tasks.n; i++) {
		struct th_task *tr = ft_tab_at(&th->tasks, i);

		if (tr->dead != dead || !wanted(th, tr))
			continue;
		print_task(th, f, tr);
		n++;
		th->tasks_rebuilt += tr->rebuilt > 0;
		*count += tr->run.n;
		*run += tr->run.sum;
	}
	return n;
}

/* rebuilt_note - which run times rest on switches the kernel did not record */
static void rebuilt_note(struct timehist *th, FILE *f)
{
	uint64_t under = 0, over = 0, runs = 0;
	unsigned int i;

	if (!th->tasks_rebuilt || th->idle_hist)
		return;
	for (i = 0; i < th->tasks.n; i++) {
		const struct th_task *tr = ft_tab_at(&th->tasks, i);

		if (!wanted(th, tr))
			continue;
		runs += tr->rebuilt;
		under += tr->run_under;
		over += tr->run_over;
	}
	fprintf(f, "\n^N: N runs of the task start or end at a switch the kernel did not record "
		"(%llu runs of %llu tasks),\n    timed at the chain's estimate; their run times "
		"may be at most\n    ", (unsigned long long)runs,
		(unsigned long long)th->tasks_rebuilt);
	ms(f, under, 0);
	fputs("ms less and ", f);
	ms(f, over, 0);
	fputs("ms more in all\n", f);
}

/* th_summary - perf's summary after the rows */
void th_summary(struct timehist *th, FILE *f)
{
	const bool *cpu_on = th->env->cpu_on;
	uint64_t span = th->hist_end - th->hist_start, count = 0, run = 0;
	unsigned int tasks, dead;
	int cpu;

	ft_tab_sort(&th->tasks, cmp_tid);
	th->tasks_rebuilt = 0;
	if (th->idle_hist) {
		fprintf(f, "\nIdle-time summary\n%*s  parent  sched-out  ", TH_COMM_WIDTH, "comm");
		fprintf(f, "  idle-time   min-idle    avg-idle    max-idle  stddev  migrations\n");
	} else if (th->state) {
		fprintf(f, "\nWait-time summary\n%*s  parent   sched-in  ", TH_COMM_WIDTH, "comm");
		fprintf(f, "   run-time      sleep      iowait     preempt       delay\n");
	} else {
		fprintf(f, "\nRuntime summary\n%*s  parent   sched-in  ", TH_COMM_WIDTH, "comm");
		fprintf(f, "   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	}
	fprintf(f, "%*s            (count)  ", TH_COMM_WIDTH, "");
	fprintf(f, "     (msec)     (msec)      (msec)      (msec)       %s\n",
		th->state && !th->idle_hist ? "(msec)" : "%");
	fprintf(f, "%.117s\n", "-----------------------------------------------------------------"
		"------------------------------------------------------------");
	tasks = print_tasks(th, f, false, &count, &run);
	if (!tasks)
		fprintf(f, "<no still running tasks>\n");
	fprintf(f, "\nTerminated tasks:\n");
	dead = print_tasks(th, f, true, &count, &run);
	if (!dead)
		fprintf(f, "<no terminated tasks>\n");
	tasks += dead;
	fprintf(f, "\nIdle stats:\n");
	for (cpu = 0; cpu < th->env->ncpus; cpu++) {
		const struct th_task *idle = &th->idle[cpu];

		if (cpu_on && !cpu_on[cpu])
			continue;
		if (th->env->filtered_stream) {
			fprintf(f, "    CPU %2d idle time not known (tasks filtered)\n", cpu);
			continue;
		}
		count += idle->run.n;
		if (idle->run.sum) {
			fprintf(f, "    CPU %2d idle for ", cpu);
			ms(f, idle->run.sum, 6);
			fprintf(f, " msec  (%6.2f%%)\n", span ? 100.0 * idle->run.sum / span : 0.0);
		} else if (th->tprev[cpu]) {
			/* switches there, none from idle: busy all along (perf's text says
			   "idle entire time window" for this too) */
			fprintf(f, "    CPU %2d idle for ", cpu);
			ms(f, 0, 6);
			fprintf(f, " msec  (%6.2f%%)\n", 0.0);
		} else {
			fprintf(f, "    CPU %2d idle entire time window\n", cpu);
		}
	}
	fprintf(f, "\n    Total number of unique tasks: %u\n", tasks);
	fprintf(f, "Total number of context switches: %llu\n", (unsigned long long)count);
	fprintf(f, "           Total run time (msec): ");
	ms(f, run, 2);
	fprintf(f, "\n    Total scheduling time (msec): ");
	ms(f, span, 2);
	fprintf(f, " (x %d)\n", th->env->ncpus);
	rebuilt_note(th, f);
}

/* th_summary_json - per task totals, idle per CPU, rebuilt rows */
void th_summary_json(struct timehist *th, struct ft_json *j)
{
	unsigned int i;
	int cpu;

	ft_tab_sort(&th->tasks, cmp_tid);
	ft_json_arr_begin(j, "tasks");
	for (i = 0; i < th->tasks.n; i++) {
		struct th_task *tr = ft_tab_at(&th->tasks, i);

		if (!tr->run.n && !tr->idle.n)
			continue;
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "tid", tr->tid);
		ft_json_i64(j, "pid", ft_tasks_tgid(th->env->tasks, tr->tid));
		ft_json_str(j, "comm", ft_tasks_comm(th->env->tasks, tr->tid));
		ft_json_bool(j, "terminated", tr->dead);
		ft_json_u64(j, "sched_in", tr->run.n);
		ft_json_u64(j, "run_ns", tr->run.sum);
		ft_json_u64(j, "min_run_ns", tr->run.min);
		ft_json_u64(j, "max_run_ns", tr->run.max);
		ft_json_u64(j, "sleep_ns", tr->sleep);
		ft_json_u64(j, "iowait_ns", tr->iowait);
		ft_json_u64(j, "preempt_ns", tr->preempt);
		ft_json_u64(j, "delay_ns", tr->delay);
		ft_json_u64(j, "migrations", tr->migrations);
		ft_json_u64(j, "rebuilt_runs", tr->rebuilt);
		ft_json_u64(j, "run_min_ns", tr->run.sum - (tr->run_under < tr->run.sum ?
							     tr->run_under : tr->run.sum));
		ft_json_u64(j, "run_max_ns", tr->run.sum + tr->run_over);
		if (th->idle_hist)
			ft_json_u64(j, "idle_before_ns", tr->idle.sum);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_arr_begin(j, "idle_ns_per_cpu");
	for (cpu = 0; cpu < th->env->ncpus; cpu++)
		ft_json_u64(j, NULL, th->idle[cpu].run.sum);
	ft_json_arr_end(j);
	ft_json_u64(j, "span_ns", th->hist_end - th->hist_start);
	ft_json_u64(j, "rows_rebuilt", th->rows_rebuilt);
	ft_json_u64(j, "delays_unmeasured", th->delays_unknown);
}

/* reset_totals - forget a task's totals, keeping what its next row needs */
static void reset_totals(struct th_task *tr)
{
	memset(&tr->run, 0, sizeof(tr->run));
	memset(&tr->idle, 0, sizeof(tr->idle));
	tr->sleep = tr->iowait = tr->preempt = tr->delay = 0;
	tr->migrations = tr->rebuilt = tr->run_under = tr->run_over = 0;
}

/*
 * th_summary_reset - timehist's reset, the next interval: totals of every task and
 * idle CPU at zero, its span from the last switch seen; rows' state (last switch,
 * wakeup, rebuilt run) carries over, so a run across the boundary counts where it ends
 */
void th_summary_reset(void *priv)
{
	struct timehist *th = priv;
	unsigned int i;
	int cpu;

	for (i = 0; i < th->tasks.n; i++)
		reset_totals(ft_tab_at(&th->tasks, i));
	for (cpu = 0; cpu < th->env->ncpus; cpu++)
		reset_totals(&th->idle[cpu]);
	th->hist_start = th->hist_end;
	th->rows_rebuilt = 0;
	th->delays_unknown = 0;
	th->tasks_rebuilt = 0;
}
