// SPDX-License-Identifier: GPL-2.0
/*
 * timehist: one row per context switch, perf sched timehist semantics.
 *
 * A row describes the task switched out at time t on a CPU:
 *
 *            t = time of this switch-out
 *        tprev = time of the CPU's previous switch, which switched this task in
 *    last_time = time the task was last switched out (anywhere)
 *        ready = the first wakeup since last_time, or last_time itself when the
 *                task was preempted (switched out runnable)
 *
 *   -----|------------|------------|------------|------
 *      last         ready        tprev          t
 *      time
 *
 *        |-------- wait -----------|
 *                     |- sch delay |-- run time -|
 *
 *   run time  = t - tprev
 *   wait time = tprev - last_time, filed as sleep, iowait (D) or preempt (R)
 *   sch delay = tprev - ready
 *
 * perf 6.1 decodes prev_state with its own letter table, which on kernels >= 4.14
 * takes a preempted task for 'W' and so loses its sch delay; ftscope takes the
 * letters and the preempt bit from the event's own print fmt.
 *
 * The kernel does not always record a switch (a 6.18 VM never records CPU 1's
 * switch out of idle). The switch chain (events/chain.c) rebuilds them and estimates
 * when they happened (ft_switch_time: the chain's estimate, within [ts_min, ts]): a
 * row whose run starts or ends at such a switch is marked '^', and the summary counts
 * such runs per task and how far their switches can be from the estimate. Lost events
 * are printed where they happen, and the CPU's previous switch is then unknown (no run
 * time on its next row).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/timehist_int.h"
#include "analyzers/timehist_out.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "output/json.h"
#include "output/line.h"

/* timehist_init - per-CPU state, and the header unless only a summary is wanted */
static int timehist_init(void *priv, const struct ft_env *env)
{
	struct timehist *th = priv;
	int i;

	th->env = env;
	th->idle = calloc(env->ncpus, sizeof(*th->idle));
	th->tprev = calloc(env->ncpus, sizeof(*th->tprev));
	th->cpu_text = calloc(env->ncpus, sizeof(*th->cpu_text));
	th->cpu_len = calloc(env->ncpus, 1);
	/* a row: about 250 bytes at most, and one column per CPU under -V */
	th->row_max = 512 + env->ncpus;
	th->out_cap = th->row_max * 4 > 32768 ? th->row_max * 4 : 32768;
	th->out = malloc(th->out_cap);
	if (!th->idle || !th->tprev || !th->cpu_text || !th->cpu_len || !th->out ||
	    ft_tab_init(&th->tasks, sizeof(struct th_task))) {
		ft_err("out of memory");
		return -1;
	}
	for (i = 0; i < env->ncpus; i++)
		th->cpu_len[i] = th_put_cpu(th->cpu_text[i], i) - th->cpu_text[i];
	th->rows = !th->summary_only && !env->json;
	th->json_rows = !th->summary_only && env->json;
	th->totals = th->summary || th->idle_hist || env->json;
	if (th->rows)
		th_header(th, th->env->out);
	return 0;
}

/* in_window - is @ts inside --time? */
static inline bool in_window(const struct timehist *th, uint64_t ts)
{
	return ts >= th->t_start && (!th->t_stop || ts <= th->t_stop);
}

/* shown - are rows and totals of @tid wanted (idle and untraced tasks are not, under -p) */
static inline bool shown(const struct timehist *th, int tid)
{
	if (!th->env->traced)
		return true;
	return tid && ft_env_traced(th->env, tid);
}

/*
 * task - the record of @tid (the CPU's own idle task for 0); NULL for a tid no task has
 * (a damaged record's -1: not a lack of memory)
 */
static struct th_task *task(struct timehist *th, int tid, int cpu)
{
	struct th_task *tr;

	if (tid == 0)
		return &th->idle[cpu];
	if (tid < 0)
		return NULL;
	tr = ft_tab_get(&th->tasks, tid);
	if (!tr)
		th->oom = true;
	return tr;
}

/* update_runtime - the row's deltas for a task switched out at @t, in at @tprev */
static void update_runtime(struct th_task *tr, uint64_t t, uint64_t tprev)
{
	uint64_t wait;

	tr->dt_run = tr->dt_delay = tr->dt_sleep = tr->dt_iowait = tr->dt_preempt = 0;
	tr->dt_unmeasured = false;
	if (!tprev)
		return;
	tr->dt_run = t - tprev;
	/* a switch-in rebuilt with no record of when ends no delay (as latency's waits) */
	if (tr->ready.since && tr->ready.since <= tprev) {
		tr->dt_unmeasured = tr->in_unknown;
		if (!tr->in_unknown)
			tr->dt_delay = tprev - tr->ready.since;
	}
	if (tr->last_time && tr->last_time <= tprev) {
		wait = tprev - tr->last_time;
		if (tr->last_state == 'R')
			tr->dt_preempt = wait;
		else if (tr->last_state == 'D')
			tr->dt_iowait = wait;
		else
			tr->dt_sleep = wait;
	}
}

/* account - add the row's deltas to the task's totals */
static void account(struct th_task *tr)
{
	ft_stats_add(&tr->run, tr->dt_run);
	tr->sleep += tr->dt_sleep;
	tr->iowait += tr->dt_iowait;
	tr->preempt += tr->dt_preempt;
	tr->delay += tr->dt_delay;
}

/*
 * print_row - one switch row at @t, perf's layout; '^' when its run starts or ends at
 * a rebuilt switch. @e is the outgoing task's entry in the task table (NULL: look it
 * up when needed).
 */
static void print_row(struct timehist *th, const struct ft_event *ev, uint64_t t,
		      struct th_task *tr, const struct ft_task *e, bool rebuilt)
{
	int prev = ev->sw.prev_pid, ncpus = th->env->ncpus;
	char *d = th_put_time(th, th_row_begin(th), t, ev->cpu);
	struct ft_line name;

	if (th->visual) {
		*d++ = ' ';
		memset(d, ' ', ncpus);
		if (ev->cpu >= 0 && ev->cpu < ncpus)
			d[ev->cpu] = prev ? 's' : 'i';
		d += ncpus;
		*d++ = ' ';
	}
	*d = ' ';
	d = th_put_name(th, d + 1, tr, prev, e);
	*d = ' ';
	d = th_put_ms(d + 1, tr->dt_sleep + tr->dt_iowait + tr->dt_preempt);
	d = th_put_ms(d, tr->dt_delay);
	d = th_put_ms(d, tr->dt_run);
	if (th->state) {
		memcpy(d, "     ", 5);
		d[5] = prev ? ev->sw.state : 'I';
		d[6] = ' ';
		d += 7;
	}
	if (th->next) {
		ft_line_init(&name);
		ft_line_str(&name, "next: ", 0);
		if (ev->sw.next_comm[0])
			ft_line_strn(&name, ev->sw.next_comm,
				     strnlen(ev->sw.next_comm, FT_TASK_COMM_LEN), 0);
		else
			ft_line_str(&name, ft_tasks_comm(th->env->tasks, ev->sw.next_pid), 0);
		ft_line_c(&name, '[');
		ft_line_u(&name, ev->sw.next_pid, 0, 0);
		ft_line_c(&name, ']');
		th_pad_name(&name);
		*d = ' ';
		memcpy(d + 1, name.buf, name.len);
		d += 1 + name.len;
	}
	if (rebuilt) {
		memcpy(d, " ^", 2);
		d += 2;
	}
	*d++ = '\n';
	th_row_end(th, d);
}

/* note_rebuilt - a row of @tr whose run starts or ends at a rebuilt switch: how far off */
static void note_rebuilt(struct th_task *tr, const struct ft_event *ev, uint64_t t)
{
	tr->rebuilt++;
	if (tr->in_rebuilt) {
		tr->run_under += tr->in_slack;
		tr->run_over += tr->in_early;
	}
	if (ev->sw.synth) {
		tr->run_over += ev->ts - t;
		tr->run_under += t - ev->sw.ts_min;
	}
}

/* rebuilt_in - the task switched in by rebuilt switch @ev: its run starts at @t */
static void rebuilt_in(struct timehist *th, const struct ft_event *ev, uint64_t t)
{
	struct th_task *nt = task(th, ev->sw.next_pid, ev->cpu);

	if (nt) {
		nt->in_rebuilt = true;
		nt->in_unknown = ev->sw.after_loss || ev->sw.unproven;
		nt->in_slack = ev->ts - t;
		nt->in_early = t - ev->sw.ts_min;
	}
}

/*
 * moved - in a pid-filtered stream, where the kernel records a task's migration only
 * when the task that moves it is traced: @tid's record at @ts puts it on @cpu; a CPU
 * other than its last record's is a migration not recorded (perf counts the events;
 * two moves between records count as one); @tr is @tid's record, NULL when it has none
 */
static void moved(struct timehist *th, struct th_task *tr, int tid, int cpu, uint64_t ts)
{
	if (!th->env->filtered_stream || tid <= 0 || cpu < 0 || !tr)
		return;
	if (tr->dead) {		/* the tid's next task may start anywhere */
		tr->cpu_seen = 0;
		return;
	}
	if (tr->cpu_seen && tr->cpu_seen != cpu + 1 && in_window(th, ts) && shown(th, tid))
		tr->migrations++;
	tr->cpu_seen = cpu + 1;
}

/* on_switch - close the outgoing task's row (out of line: wakeups dispatch lighter) */
static __attribute__((noinline)) void on_switch(struct timehist *th, const struct ft_event *ev)
{
	int prev = ev->sw.prev_pid, next = ev->sw.next_pid;
	uint64_t t = ft_switch_time(ev), tprev = th->tprev[ev->cpu];
	bool in = in_window(th, t), rebuilt, show;
	const struct ft_task *e;
	struct th_task *tr;

	/* named by the pipeline; valid until the next lookup in that table */
	e = ft_tab_find(&th->env->tasks->tab, prev);
	if (in && tprev && tprev < th->t_start)
		tprev = th->t_start;
	tr = task(th, prev, ev->cpu);
	if (!tr)
		return;
	update_runtime(tr, t, tprev);
	rebuilt = ev->sw.synth || (tr->in_rebuilt && tprev);
	show = shown(th, prev);
	/* idle time is known wherever the kernel recorded every task, -p on a file or not */
	if (in && (show || (!prev && !th->env->filtered_stream)) &&
	    (!th->env->cpu_on || th->env->cpu_on[ev->cpu])) {
		if (th->totals) {
			account(tr);
			if (rebuilt && show)
				note_rebuilt(tr, ev, t);
		}
		/* the parent is read from /proc while the task lives (cached in the task table) */
		if ((th->summary || th->idle_hist) && prev) {
			ft_tasks_ppid(th->env->tasks, prev);
			e = NULL;	/* it may have grown the table */
		}
		if (rebuilt && show)
			th->rows_rebuilt++;
		if (show && tr->dt_unmeasured)
			th->delays_unknown++;
		/* -I: the idle periods' rows alone, as perf's --idle-hist */
		if (show && th->rows && (!th->idle_hist || prev == 0))
			print_row(th, ev, t, tr, e, rebuilt);
		else if (show && th->json_rows && (!th->idle_hist || prev == 0))
			th_json_switch(th, ev, t, tr, rebuilt);
		if (!th->hist_start)
			th->hist_start = t;
		/* a rebuilt switch comes at its record, timed earlier */
		if (t > th->hist_end)
			th->hist_end = t;
	}
	/* -I: an idle period is charged to the task that ends it */
	if (in && th->idle_hist && prev == 0 && next && shown(th, next)) {
		struct th_task *nt = task(th, next, ev->cpu);

		/* tr is this CPU's idle record, outside the table: still valid */
		if (nt)
			ft_stats_add(&nt->idle, tr->dt_run);
		if (th->summary || th->idle_hist)
			ft_tasks_ppid(th->env->tasks, next);
	}
	tr->last_time = t;
	tr->last_state = ev->sw.preempt ? 'R' : ev->sw.state;
	ft_ready_out(&tr->ready, ev, FT_READY_PERF);	/* at t when preempted */
	tr->dead = ev->sw.state == 'X' || ev->sw.state == 'Z' || ev->sw.state == 'x';
	tr->in_rebuilt = tr->in_unknown = false;
	th->tprev[ev->cpu] = t;
	moved(th, tr, prev, ev->cpu, t);
	/* last: they may move tr */
	if (ev->sw.synth)
		rebuilt_in(th, ev, t);
	if (th->env->filtered_stream && next > 0)
		moved(th, task(th, next, ev->cpu), next, ev->cpu, t);
}

/* on_wakeup - the first wakeup since a task's switch-out starts its sch delay */
static void on_wakeup(struct timehist *th, const struct ft_event *ev)
{
	struct th_task *tr;

	if (!ev->wk.pid)
		return;
	tr = task(th, ev->wk.pid, ev->cpu);
	if (!tr)
		return;
	ft_ready_wakeup(&tr->ready, ev, FT_READY_PERF);
	moved(th, tr, ev->wk.pid, ev->wk.target_cpu, ev->ts);
	if (th->wakeups && in_window(th, ev->ts) &&
	    (shown(th, ev->wk.pid) || shown(th, ev->common_pid)))
		th_row_wakeup(th, ev);
}

/* on_migrate - count the migration; a -M row */
static void on_migrate(struct timehist *th, const struct ft_event *ev)
{
	struct th_task *tr = ev->mig.pid ? task(th, ev->mig.pid, ev->cpu) : NULL;

	if (!tr)
		return;
	/* recorded: counted here, and no record after it on that CPU counts it again */
	tr->cpu_seen = ev->mig.dest_cpu + 1;
	if (!in_window(th, ev->ts) || !shown(th, ev->mig.pid))
		return;
	tr->migrations++;
	if (th->migrations)
		th_row_migration(th, ev);
}

/* timehist_event - one record, in time order */
static void timehist_event(void *priv, const struct ft_event *ev)
{
	struct timehist *th = priv;

	switch (ev->type) {
	case FT_EV_SWITCH:
		on_switch(th, ev);
		break;
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		if (ft_env_wakeup(th->env, ev))
			on_wakeup(th, ev);
		break;
	case FT_EV_MIGRATE:
		on_migrate(th, ev);
		break;
	case FT_EV_LOST:
		th->tprev[ev->cpu] = 0;
		th_row_lost(th, ev);
		break;
	default:
		break;
	}
}

/*
 * timehist_report - the summary (-s, -S, -I) at the end, or of each interval (BCC's
 * interval mode: every report covers its interval alone, the last one too)
 */
static void timehist_report(void *priv, struct ft_report *r)
{
	struct timehist *th = priv;

	th_rows_flush(th);
	if (!r->final && !r->interval)
		return;
	if (th->oom && r->final)
		ft_err("out of memory: some tasks are missing from the results");
	if (r->json) {
		th_summary_json(th, r->json);
		return;
	}
	if (th->summary || th->idle_hist)
		th_summary(th, r->f);
	if (th->rows_rebuilt && th->rows)
		fprintf(r->f, "\n^ %llu rows start or end at a switch the kernel did not record, "
			"timed at the chain's estimate (design.md)\n",
			th->rows_rebuilt);
	if (th->delays_unknown)
		fprintf(r->f, "%s%llu delays not measured: they end at a switch-in the kernel did "
			"not record, with no record of when (after lost events, or no evidence)\n",
			th->rows_rebuilt && th->rows ? "" : "\n", th->delays_unknown);
}

/* timehist_fini - free the tables */
static void timehist_fini(void *priv)
{
	struct timehist *th = priv;

	th_rows_flush(th);
	ft_tab_fini(&th->tasks);
	free(th->idle);
	free(th->tprev);
	free(th->cpu_text);
	free(th->cpu_len);
	free(th->out);
}

const struct ft_analyzer ft_timehist = {
	.cli = {
		.name		= "timehist",
		.summary	= "one row per context switch: wait, sch delay, run time (perf sched timehist)",
		.usage		= th_usage,
		.examples	= th_examples,
		.shortopts	= "sSwMnVI",
		.longopts	= th_longopts,
		.parse_opt	= th_parse_opt,
	},
	.need		= FT_NEED(FT_EV_SWITCH),
	.want		= FT_NEED(FT_EV_WAKING) | FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW) |
			  FT_NEED(FT_EV_MIGRATE) | FT_NEED(FT_EV_FORK) | FT_NEED(FT_EV_NEWTASK),
	.priv_size	= sizeof(struct timehist),
	.init		= timehist_init,
	.event		= timehist_event,
	.report		= timehist_report,
	.reset		= th_summary_reset,
	.fini		= timehist_fini,
};
