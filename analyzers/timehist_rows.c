// SPDX-License-Identifier: GPL-2.0
/*
 * timehist's rows other than the switch rows (timehist.c's print_row): -w's wakeups,
 * -M's migrations, lost events; and --json's rows (without -s): each a JSON line of its
 * own as the run goes (jq filters a long run), the summary's line at the end. A row
 * has "type":"row" and its "event": "switch" (perf's columns, in ns), "wakeup" (-w),
 * "migration" (-M) or "lost"; a switch row whose run starts or ends at a rebuilt switch
 * has "rebuilt" true.
 */
#include "analyzers/timehist_int.h"
#include "analyzers/timehist_out.h"
#include "events/tasks.h"
#include "output/json.h"

/* begin - a row's line: its event, time and CPU */
static void begin(struct timehist *th, struct ft_json *j, const char *event, uint64_t ts,
		  int cpu)
{
	ft_json_row(j, th->env->out, "timehist");
	ft_json_str(j, "event", event);
	ft_json_u64(j, "time_ns", ts);
	ft_json_i64(j, "cpu", cpu);
}

/* task - "comm", "tid" and "pid" of @tid under @prefix ("", "next_", "wakee_") */
static void task(struct timehist *th, struct ft_json *j, const char *prefix, int tid)
{
	char key[16];

	snprintf(key, sizeof(key), "%scomm", prefix);
	ft_json_str(j, key, tid ? ft_tasks_comm(th->env->tasks, tid) : "<idle>");
	snprintf(key, sizeof(key), "%stid", prefix);
	ft_json_i64(j, key, tid);
	snprintf(key, sizeof(key), "%spid", prefix);
	ft_json_i64(j, key, tid > 0 ? ft_tasks_tgid(th->env->tasks, tid) : 0);
}

/* th_json_switch - a switch row at @t: the outgoing task's wait, delay and run time */
void th_json_switch(struct timehist *th, const struct ft_event *ev, uint64_t t,
		    const struct th_task *tr, bool rebuilt)
{
	char state[2] = { ev->sw.prev_pid ? ev->sw.state : 'I', 0 };
	struct ft_json j;

	begin(th, &j, "switch", t, ev->cpu);
	task(th, &j, "", ev->sw.prev_pid);
	ft_json_u64(&j, "wait_ns", tr->dt_sleep + tr->dt_iowait + tr->dt_preempt);
	ft_json_u64(&j, "delay_ns", tr->dt_delay);
	/* false: a delay ended at a switch-in rebuilt with no record of when (0 above) */
	ft_json_bool(&j, "delay_measured", !tr->dt_unmeasured);
	ft_json_u64(&j, "run_ns", tr->dt_run);
	ft_json_str(&j, "state", state);
	ft_json_bool(&j, "preempted", ev->sw.preempt);
	if (th->next)
		task(th, &j, "next_", ev->sw.next_pid);
	ft_json_bool(&j, "rebuilt", rebuilt);
	ft_json_obj_end(&j);
}

/* json_wakeup - a -w row: the task whose record it is woke the wakee */
static void json_wakeup(struct timehist *th, const struct ft_event *ev)
{
	struct ft_json j;

	begin(th, &j, "wakeup", ev->ts, ev->cpu);
	task(th, &j, "", ev->common_pid);
	task(th, &j, "wakee_", ev->wk.pid);
	ft_json_obj_end(&j);
}

/* json_migration - a -M row: the task moved from one CPU to another */
static void json_migration(struct timehist *th, const struct ft_event *ev)
{
	struct ft_json j;

	begin(th, &j, "migration", ev->ts, ev->cpu);
	task(th, &j, "", ev->mig.pid);
	ft_json_i64(&j, "orig_cpu", ev->mig.orig_cpu);
	ft_json_i64(&j, "dest_cpu", ev->mig.dest_cpu);
	ft_json_obj_end(&j);
}

/* json_lost - events lost on a CPU (-1: how many is not known) */
static void json_lost(struct timehist *th, const struct ft_event *ev)
{
	struct ft_json j;

	begin(th, &j, "lost", ev->ts, ev->cpu);
	ft_json_i64(&j, "lost", ev->lost > 0 ? ev->lost : -1);
	ft_json_obj_end(&j);
}

/*
 * print_event_prefix - the start of a -w or -M row: time, CPU, the CPU column with
 * @mark (-V), the task the event ran in, and blanks under the three times
 */
static void print_event_prefix(struct timehist *th, const struct ft_event *ev, char mark)
{
	char name[64];
	int i;

	th_print_time_now(th, ev->ts, ev->cpu);
	if (th->visual) {
		fputc(' ', th->env->out);
		for (i = 0; i < th->env->ncpus; i++)
			fputc(i == ev->cpu ? mark : ' ', th->env->out);
		fputc(' ', th->env->out);
	}
	if (ev->common_pid)
		th_commstr(th, ev->common_pid, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "swapper");
	fprintf(th->env->out, " %-*s ", TH_COMM_WIDTH, name);
	fprintf(th->env->out, "  %9s  %9s  %9s ", "", "", "");
}

/* print_wakeup - a -w row: the waker, then "awakened: task" */
static void print_wakeup(struct timehist *th, const struct ft_event *ev)
{
	char name[64];

	print_event_prefix(th, ev, ' ');
	th_commstr(th, ev->wk.pid, name, sizeof(name));
	fprintf(th->env->out, "awakened: %s\n", name);
}

/* th_row_wakeup - a -w row, text or JSON */
void th_row_wakeup(struct timehist *th, const struct ft_event *ev)
{
	if (th->rows)
		print_wakeup(th, ev);
	else if (th->json_rows)
		json_wakeup(th, ev);
}

/* th_row_migration - a -M row, text or JSON */
void th_row_migration(struct timehist *th, const struct ft_event *ev)
{
	char name[64];

	if (th->json_rows)
		json_migration(th, ev);
	if (!th->rows)
		return;
	print_event_prefix(th, ev, 'm');
	th_commstr(th, ev->mig.pid, name, sizeof(name));
	fprintf(th->env->out, "migrated: %s cpu %d => %d\n", name, ev->mig.orig_cpu, ev->mig.dest_cpu);
}

/* th_row_lost - the row of events lost on a CPU, text or JSON */
void th_row_lost(struct timehist *th, const struct ft_event *ev)
{
	if (th->json_rows)
		json_lost(th, ev);
	if (!th->rows)
		return;
	th_print_time_now(th, ev->ts, ev->cpu);
	if (ev->lost > 0)
		fprintf(th->env->out, " lost %lld events on cpu %d\n", ev->lost, ev->cpu);
	else
		fprintf(th->env->out, " lost events on cpu %d\n", ev->cpu);
}
