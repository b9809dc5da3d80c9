// SPDX-License-Identifier: GPL-2.0
/*
 * timehist's row text: perf sched timehist's header, "comm[tid/pid]" names (made again
 * only when a task's comm or process changed), and the queue of rows handed to the
 * output 32 KB at a time (at once when live).
 */
#include <stdio.h>
#include <string.h>

#include "analyzers/timehist_out.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "output/line.h"

/* dots - a run of @n dashes */
static void dots(FILE *f, int n)
{
	while (n-- > 0)
		fputc('-', f);
}

/* th_header - perf's three header lines: names, units (and the trace clock), rule */
void th_header(struct timehist *th, FILE *f)
{
	int ncpus = th->env->ncpus, i;
	char ck[32];

	fprintf(f, "%15s %6s ", "time", "cpu");
	if (th->visual) {
		fputc(' ', f);
		for (i = 0; i < ncpus; i++)
			fprintf(f, "%x", i & 15);
		fputc(' ', f);
	}
	fprintf(f, " %-*s  %9s  %9s  %9s", TH_COMM_WIDTH, "task name", "wait time", "sch delay",
		"run time");
	if (th->state)
		fprintf(f, "  %s", "state");
	snprintf(ck, sizeof(ck), "clock %s", th->env->clock);	/* the time column's unit */
	fprintf(f, "\n%15.15s %-6s ", ck, "");
	if (th->visual)
		fprintf(f, " %*s ", ncpus, "");
	fprintf(f, " %-*s  %9s  %9s  %9s", TH_COMM_WIDTH, "[tid/pid]", "(msec)", "(msec)", "(msec)");
	if (th->state)
		fprintf(f, "  %5s", "");
	fputc('\n', f);
	dots(f, 15);
	fputc(' ', f);
	dots(f, 6);
	fputc(' ', f);
	if (th->visual) {
		fputc(' ', f);
		dots(f, ncpus);
		fputc(' ', f);
	}
	fputc(' ', f);
	dots(f, TH_COMM_WIDTH);
	for (i = 0; i < 3; i++) {
		fputs("  ", f);
		dots(f, 9);
	}
	if (th->state) {
		fputs("  ", f);
		dots(f, 5);
	}
	fputc('\n', f);
}

/* th_put_cpu - " [%04d] " at @d; returns the end */
char *th_put_cpu(char *d, unsigned int cpu)
{
	memcpy(d, " [", 2);
	d = ft_put_u(d + 2, cpu, 4, 0);
	memcpy(d, "] ", 2);
	return d + 2;
}

/* commstr - "comm[tid]" or "comm[tid/pid]", "<idle>" for the idle task, into @l */
static void commstr(struct timehist *th, int tid, struct ft_line *l)
{
	int pid;

	if (tid == 0) {
		ft_line_str(l, "<idle>", 0);
		return;
	}
	pid = ft_tasks_tgid(th->env->tasks, tid);
	ft_line_str(l, ft_tasks_comm(th->env->tasks, tid), 0);
	ft_line_c(l, '[');
	ft_line_u(l, tid, 0, 0);
	if (pid != tid) {
		ft_line_c(l, '/');
		ft_line_u(l, pid, 0, 0);
	}
	ft_line_c(l, ']');
}

/*
 * th_put_name - "comm[tid/pid]" of @tid, whose records are @tr and @e (the task table's,
 * or NULL), padded to TH_COMM_WIDTH at @d: made again only when the task's comm or
 * tgid changed, else one fixed-size copy. Returns the end.
 */
char *th_put_name(struct timehist *th, char *d, struct th_task *tr, int tid,
		      const struct ft_task *e)
{
	struct ft_line name;

	if (tid == 0) {
		memcpy(d, "<idle>                        ", TH_COMM_WIDTH);
		return d + TH_COMM_WIDTH;
	}
	if (!e)
		e = ft_tab_find(&th->env->tasks->tab, tid);
	if (e && e->comm[0] && e->tgid > 0 && tr->name_len && tr->name_tgid == e->tgid &&
	    !memcmp(tr->name_comm, e->comm, sizeof(e->comm))) {
		memcpy(d, tr->name, sizeof(tr->name));
		return d + tr->name_len;
	}
	ft_line_init(&name);
	commstr(th, tid, &name);
	th_pad_name(&name);
	memcpy(d, name.buf, name.len);
	/* commstr read /proc or the file's cmdlines when it had to: look again */
	e = ft_tab_find(&th->env->tasks->tab, tid);
	tr->name_len = 0;
	if (e && e->comm[0] && e->tgid > 0 && name.len <= sizeof(tr->name)) {
		memcpy(tr->name, name.buf, name.len);
		tr->name_len = name.len;
		tr->name_tgid = e->tgid;
		memcpy(tr->name_comm, e->comm, sizeof(e->comm));
	}
	return d + name.len;
}

/* th_commstr - the same as a string */
void th_commstr(struct timehist *th, int tid, char *buf, size_t len)
{
	struct ft_line l;

	ft_line_init(&l);
	commstr(th, tid, &l);
	snprintf(buf, len, "%.*s", (int)l.len, l.buf);
}

/* th_rows_flush - hand the queued rows to the output (before anything else is printed there) */
void th_rows_flush(struct timehist *th)
{
	if (th->out_len)
		fwrite_unlocked(th->out, 1, th->out_len, th->env->out);
	th->out_len = 0;
}

/* th_print_time_now - the start of a row, written at once (the rest of such rows is printf's) */
void th_print_time_now(struct timehist *th, uint64_t ts, int cpu)
{
	th_row_end(th, th_put_time(th, th_row_begin(th), ts, cpu));
	th_rows_flush(th);
}

