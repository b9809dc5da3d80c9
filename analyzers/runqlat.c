// SPDX-License-Identifier: GPL-2.0
/*
 * runqlat: run-queue latency, BCC runqlat semantics.
 *
 * A task becomes runnable at sched_wakeup / sched_wakeup_new, or when it is
 * switched out while still runnable (preempted); its run-queue latency ends at its
 * next switch-in. Idle (pid 0) is ignored.
 *
 *   wakeup(T)           switch-in(T)                 preempted: switch-out(T, R)
 *      |--- runq latency ---|  ... runs ...  --> T back on the run queue --> ...
 *
 * Switch-ins the kernel did not record are reconstructed by the switch chain
 * (events/chain.c), so a wakeup is never paired with a much later switch-in; their
 * latency ends at the chain's estimate and is counted (--exact leaves it out). After
 * lost events on a CPU, pending wakeups bound for that CPU are dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "analyzers/ready.h"
#include "analyzers/waits.h"
#include "events/chain.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "lib/pidset.h"
#include "lib/util.h"
#include "output/hset.h"
#include "output/json.h"
#include "output/metrics.h"

struct runqlat {
	const struct ft_env	*env;
	struct ft_hset		h;		/* total and per group histograms */
	struct ft_tab		tasks;		/* struct rq_task: readiness per traced task */
	struct ft_wait_notes	notes;		/* estimated, unmeasured, losses */
	int			by_opt;		/* the first grouping option given (-P, -L,
						   --per-cpu), 0 for none */
	int			by_clash;	/* a second, different one */
	unsigned int		unknown_process; /* -P: its threads of no known process, each
						    a process of its own (this interval's) */
};

enum { OPT_PER_CPU = 0x100 };

static const struct option runqlat_longopts[] = {
	{ "milliseconds",	no_argument, NULL, 'm' },
	{ "microseconds",	no_argument, NULL, 'u' },
	{ "pids",		no_argument, NULL, 'P' },
	{ "tids",		no_argument, NULL, 'L' },
	{ "per-cpu",		no_argument, NULL, OPT_PER_CPU },
	FT_EXACT_LONGOPT,
	{ 0 }
};

/* A traced task: ready since when (BCC's rule: the last wakeup, or its preemption). */
struct rq_task {
	int		tid;		/* the table's key */
	struct ft_ready	r;
	bool		guessed;	/* -P: counted in this interval's unknown_process */
};

/* by_name - a grouping option as a usage error names it */
static const char *by_name(int opt)
{
	return opt == 'P' ? "-P/--pids" : opt == 'L' ? "-L/--tids" : "--per-cpu";
}

/* runqlat_parse_opt - the options only runqlat has */
static int runqlat_parse_opt(void *priv, int opt, const char *arg)
{
	struct runqlat *r = priv;

	if (opt == 'P' || opt == 'L' || opt == OPT_PER_CPU) {
		if (!r->by_opt)
			r->by_opt = opt;
		else if (opt != r->by_opt && !r->by_clash)
			r->by_clash = opt;
	}
	switch (opt) {
	case 'm': r->h.unit = &ft_unit_ms; return 0;
	case 'u': r->h.unit = &ft_unit_us; return 0;
	case 'P': r->h.by = FT_BY_PID; return 0;
	case 'L': r->h.by = FT_BY_TID; return 0;
	case OPT_PER_CPU: r->h.by = FT_BY_CPU; return 0;
	case FT_OPT_EXACT: r->notes.exact = true; return 0;
	}
	return -1;
}

/* runqlat_check - one grouping at most: -P, -L and --per-cpu exclude each other (BCC) */
static int runqlat_check(void *priv, const struct ft_env *env)
{
	struct runqlat *r = priv;

	if (r->by_clash) {
		ft_err("%s: not allowed with %s", by_name(r->by_clash), by_name(r->by_opt));
		return -1;
	}
	return 0;
}

/* runqlat_init - empty maps and histograms */
static int runqlat_init(void *priv, const struct ft_env *env)
{
	struct runqlat *r = priv;

	r->env = env;
	if (ft_tab_init(&r->tasks, sizeof(struct rq_task)) || ft_hgroups_init(&r->h, env->tasks)) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/* task - the state of traced task @pid (never idle), made on first use; NULL otherwise */
static struct rq_task *task(struct runqlat *r, int pid)
{
	return pid && ft_env_traced(r->env, pid) ? ft_tab_get(&r->tasks, pid) : NULL;
}

/* switch_in - task ev->sw.next_pid got the CPU: its latency ends here */
static void switch_in(struct runqlat *r, const struct ft_event *ev)
{
	struct rq_task *t = ft_tab_find(&r->tasks, ev->sw.next_pid);
	uint64_t t0, t_in;

	if (!t)
		return;
	switch (ft_ready_in(&t->r, ev, &t0, &t_in)) {
	case FT_READY_NONE:
		return;
	case FT_READY_UNKNOWN:
		ft_wait_notes_unknown(&r->notes, ev);
		return;
	case FT_READY_WAITED:
		break;
	}
	/* a reconstructed switch-in is timed at the chain's estimate, or left out */
	if (!ft_wait_notes_keep(&r->notes, ev))
		return;
	ft_hgroups_add(&r->h, ev->sw.next_pid, ev->cpu, t_in - t0);
	ft_env_latency(r->env, t_in - t0, t_in, ev->sw.next_pid, ev->cpu);
	/* its own count: the run's table serves report's other sections too */
	if (r->h.by == FT_BY_PID && !t->guessed &&
	    ft_tasks_guessed(r->env->tasks, ev->sw.next_pid)) {
		t->guessed = true;
		r->unknown_process++;
	}
}

/* drop_cpu - forget pending starts bound for @cpu (events were lost there) */
static void drop_cpu(struct runqlat *r, int cpu)
{
	unsigned int i;

	for (i = 0; i < r->tasks.n; i++)
		r->notes.dropped += ft_ready_drop(&((struct rq_task *)ft_tab_at(&r->tasks, i))->r, cpu);
}

/* runqlat_event - one record, in time order */
static void runqlat_event(void *priv, const struct ft_event *ev)
{
	struct runqlat *r = priv;

	struct rq_task *t;

	switch (ev->type) {
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		if ((t = task(r, ev->wk.pid)))
			ft_ready_wakeup(&t->r, ev, FT_READY_LAST);
		break;
	case FT_EV_SWITCH:
		/* preempted while runnable: back on the run queue now */
		if ((t = task(r, ev->sw.prev_pid)))
			ft_ready_out(&t->r, ev, FT_READY_LAST);
		if (ev->sw.next_pid)
			switch_in(r, ev);
		break;
	case FT_EV_LOST:
		drop_cpu(r, ev->cpu);
		break;
	default:
		break;
	}
}

/* runqlat_json - the same data as the text report */
static void runqlat_json(struct runqlat *r, struct ft_json *j)
{
	ft_hgroups_json(&r->h, j);
	ft_wait_notes_json(j, &r->notes);
	if (r->h.by == FT_BY_PID)
		ft_json_u64(j, "tasks_of_unknown_process", r->unknown_process);
}

/* runqlat_report - histograms in BCC's layout, each followed by its summary line */
static void runqlat_report(void *priv, struct ft_report *rep)
{
	struct runqlat *r = priv;

	if (rep->json) {
		runqlat_json(r, rep->json);
		return;
	}
	ft_hgroups_print(&r->h, rep->f);
	ft_wait_notes_print(rep->f, "runqlat", &r->notes);
	if (r->h.by == FT_BY_PID && r->unknown_process)
		fprintf(rep->f, "runqlat: %u tasks of no known process (%s): each counted as "
			"a process of its own (right for a single-threaded one)\n",
			r->unknown_process,
			r->env->live ? "ended before ftscope saw it" :
			r->env->tasks->has_tgids ? "not in the recording's task table" :
			"the recording keeps no task table: trace-cmd's, an older ftscope's");
}

/* runqlat_reset - the next interval's histograms and notes */
static void runqlat_reset(void *priv)
{
	struct runqlat *r = priv;

	unsigned int i;

	ft_wait_notes_reset(&r->notes);
	ft_hgroups_reset(&r->h);
	/* the tasks of no known process: each interval counts those it measured */
	r->unknown_process = 0;
	for (i = 0; i < r->tasks.n; i++)
		((struct rq_task *)ft_tab_at(&r->tasks, i))->guessed = false;
}

/* runqlat_metrics - the histograms as series of ftscope_runqlat_seconds */
static void runqlat_metrics(void *priv, struct ft_metrics *m)
{
	struct runqlat *r = priv;

	ft_hgroups_metrics(&r->h, m, "runqlat", NULL, 0);
}

/* runqlat_fini - free everything */
static void runqlat_fini(void *priv)
{
	struct runqlat *r = priv;

	ft_tab_fini(&r->tasks);
	ft_hset_fini(&r->h);
}

const struct ft_analyzer ft_runqlat = {
	.cli = {
		.name		= "runqlat",
		.latency	= "wait",
		.summary	= "run-queue (scheduler) latency histogram, as BCC's runqlat",
		.usage		= "  -m, --milliseconds   histogram in milliseconds\n"
				  "  -u, --microseconds   histogram in microseconds (default)\n"
				  "  -P, --pids           one histogram per process\n"
				  "  -L, --tids           one histogram per thread\n"
				  "      --per-cpu        one histogram per CPU (-P, -L and --per-cpu\n"
				  "                       exclude each other)\n"
				  FT_EXACT_USAGE,
		.examples	= "  ftscope runqlat                # whole system until Ctrl-C\n"
				  "  ftscope runqlat -d 5           # whole system for 5 seconds\n"
				  "  ftscope runqlat 1 10 -T        # ten 1-second histograms, timestamped\n"
				  "  ftscope runqlat -m -P -p 1234  # per-thread-group histogram of pid 1234, ms\n"
				  "  ftscope runqlat -L -- make -j2 # per-thread histograms of a build\n"
				  "  ftscope runqlat --json -d 2    # the same data as JSON\n",
		.shortopts	= "muPL",
		.longopts	= runqlat_longopts,
		.parse_opt	= runqlat_parse_opt,
		.check		= runqlat_check,
	},
	.need		= FT_NEED(FT_EV_SWITCH) | FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW),
	.want		= FT_NEED(FT_EV_NEWTASK),	/* -P: a new thread's process */
	.priv_size	= sizeof(struct runqlat),
	.init		= runqlat_init,
	.event		= runqlat_event,
	.report		= runqlat_report,
	.reset		= runqlat_reset,
	.metrics	= runqlat_metrics,
	.fini		= runqlat_fini,
};
