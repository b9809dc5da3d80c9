// SPDX-License-Identifier: GPL-2.0
/*
 * cpudist: how long tasks stay on a CPU each time they run, BCC cpudist semantics; with
 * -O how long they stay off it.
 *
 *   switch-in(T)            switch-out(T)             switch-in(T)
 *        |------ on-CPU ------|-------- off-CPU (-O) -------|
 *
 * On-CPU: from a task's switch-in on a CPU to its switch-out there. Off-CPU: from its
 * switch-out to its next switch-in, whatever it waited for (asleep or preempted). Idle
 * (pid 0) is left out. A switch the kernel did not record is rebuilt by the switch
 * chain and timed at its estimate: such a time is counted (--exact leaves it out), and
 * one the chain could not time (no evidence, or after lost events) is not measured.
 */
#include <stdlib.h>

#include "analyzers/analyzer.h"
#include "analyzers/waits.h"
#include "events/chain.h"
#include "lib/tab.h"
#include "lib/util.h"
#include "output/hset.h"
#include "output/json.h"
#include "output/metrics.h"

/* The task running on a CPU, since when. */
struct cd_cpu {
	int		tid;
	uint64_t	since;		/* 0: not known (before the trace, lost events) */
	bool		rebuilt;	/* since a rebuilt switch */
	bool		unknown;	/* since a switch that could not be placed, or a loss */
};

/* -O: a task off its CPU, since when. */
struct cd_task {
	int		tid;		/* the table's key */
	uint64_t	since;		/* 0: on a CPU, or not known */
	bool		rebuilt;
	bool		unknown;	/* off since a switch that could not be placed */
};

struct cpudist {
	const struct ft_env	*env;
	struct ft_hset		h;		/* total and per group histograms */
	struct cd_cpu		*cpu;
	struct ft_tab		tasks;		/* -O: struct cd_task */
	bool			off;		/* -O */
	bool			exact;		/* --exact */
	int			by_opt, by_clash;
	unsigned long long	estimated, left_out, unmeasured, dropped;
};

enum { OPT_EXACT = 0x100 };

static const struct option cpudist_longopts[] = {
	{ "offcpu",		no_argument, NULL, 'O' },
	{ "milliseconds",	no_argument, NULL, 'm' },
	{ "pids",		no_argument, NULL, 'P' },
	{ "tids",		no_argument, NULL, 'L' },
	{ "exact",		no_argument, NULL, OPT_EXACT },
	{ 0 }
};

/* cpudist_parse_opt - the options only cpudist has (BCC's letters) */
static int cpudist_parse_opt(void *priv, int opt, const char *arg)
{
	struct cpudist *c = priv;

	if (opt == 'P' || opt == 'L') {
		if (!c->by_opt)
			c->by_opt = opt;
		else if (opt != c->by_opt)
			c->by_clash = opt;
	}
	switch (opt) {
	case 'O': c->off = true; return 0;
	case 'm': c->h.unit = &ft_unit_ms; return 0;
	case 'P': c->h.by = FT_BY_PID; return 0;
	case 'L': c->h.by = FT_BY_TID; return 0;
	case OPT_EXACT: c->exact = true; return 0;
	}
	return -1;
}

/* cpudist_check - -P and -L exclude each other (BCC) */
static int cpudist_check(void *priv, const struct ft_env *env)
{
	struct cpudist *c = priv;

	if (c->by_clash) {
		ft_err("-%c: not allowed with -%c", c->by_clash, c->by_opt);
		return -1;
	}
	return 0;
}

/* cpudist_init - the per-CPU state, empty histograms */
static int cpudist_init(void *priv, const struct ft_env *env)
{
	struct cpudist *c = priv;

	c->env = env;
	c->cpu = calloc(env->ncpus, sizeof(*c->cpu));
	if (!c->cpu || ft_tab_init(&c->tasks, sizeof(struct cd_task)) ||
	    ft_hgroups_init(&c->h, env->tasks)) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/*
 * add - a time of task @tid from @since to @t on @cpu, which starts or ends at a
 * rebuilt switch when @rebuilt: counted, left out (--exact), or not measured (@unknown)
 */
static void add(struct cpudist *c, int tid, int cpu, uint64_t since,
		uint64_t t, bool rebuilt, bool unknown)
{
	if (!since && !unknown)
		return;		/* began before the trace: no time of this run */
	if (unknown || !since || t < since) {
		c->unmeasured++;
		return;
	}
	if (rebuilt && c->exact) {
		c->left_out++;
		return;
	}
	c->estimated += rebuilt;
	ft_hgroups_add(&c->h, tid, cpu, t - since);
}

/* on_switch - the task switched out ends its time on the CPU (or -O the one switched in its time off) */
static void on_switch(struct cpudist *c, const struct ft_event *ev)
{
	struct cd_cpu *cc = &c->cpu[ev->cpu];
	int prev = ev->sw.prev_pid, next = ev->sw.next_pid;
	bool rebuilt = ev->sw.synth, unknown = rebuilt && (ev->sw.unproven || ev->sw.after_loss);
	uint64_t t = ft_switch_time(ev);
	struct cd_task *tk;

	if (!c->off && prev && cc->tid == prev && ft_env_traced(c->env, prev))
		add(c, prev, ev->cpu, cc->since, t, rebuilt || cc->rebuilt,
		    unknown || cc->unknown);
	if (c->off && prev && ft_env_traced(c->env, prev) && (tk = ft_tab_get(&c->tasks, prev))) {
		tk->since = unknown ? 0 : t;
		tk->rebuilt = rebuilt;
		tk->unknown = unknown;
	}
	if (c->off && next && (tk = ft_tab_find(&c->tasks, next)) && (tk->since || tk->unknown)) {
		add(c, next, ev->cpu, tk->since, t, rebuilt || tk->rebuilt,
		    unknown || tk->unknown);
		tk->since = 0;
		tk->unknown = false;
	}
	cc->tid = next;
	cc->since = unknown ? 0 : t;
	cc->rebuilt = rebuilt;
	cc->unknown = unknown;
}

/* on_lost - the CPU's task is not known until its next switch; -O: no time off is whole */
static void on_lost(struct cpudist *c, int cpu)
{
	unsigned int i;

	c->cpu[cpu].since = 0;
	c->cpu[cpu].unknown = true;	/* the stay under way: not measured */
	for (i = 0; i < c->tasks.n; i++) {
		struct cd_task *tk = ft_tab_at(&c->tasks, i);

		c->dropped += !!tk->since;
		tk->since = 0;
		tk->unknown = false;
	}
}

/* cpudist_event - one record, in time order */
static void cpudist_event(void *priv, const struct ft_event *ev)
{
	struct cpudist *c = priv;

	if (ev->type == FT_EV_SWITCH)
		on_switch(c, ev);
	else if (ev->type == FT_EV_LOST)
		on_lost(c, ev->cpu);
}

/* notes - what could not be measured exactly, under the histograms */
static void notes(struct cpudist *c, FILE *f)
{
	const char *what = c->off ? "off-CPU" : "on-CPU";

	if (c->estimated)
		fprintf(f, "cpudist: %llu %s times start or end at a switch the kernel did not "
			"record, timed at the chain's estimate (--exact leaves them out)\n",
			c->estimated, what);
	if (c->left_out)
		fprintf(f, "cpudist: %llu %s times at a switch the kernel did not record left out "
			"(--exact)\n", c->left_out, what);
	if (c->unmeasured)
		fprintf(f, "cpudist: %llu %s times not measured: they began before lost events, "
			"or at a switch the kernel did not record and left no evidence of when\n",
			c->unmeasured, what);
	if (c->dropped)
		fprintf(f, "cpudist: %llu off-CPU times dropped after lost events\n", c->dropped);
}

/* cpudist_report - histograms in BCC's layout, each with its summary line, then the notes */
static void cpudist_report(void *priv, struct ft_report *rep)
{
	struct cpudist *c = priv;

	if (rep->json) {
		ft_json_str(rep->json, "time", c->off ? "off-cpu" : "on-cpu");
		ft_hgroups_json(&c->h, rep->json);
		ft_json_u64(rep->json, "estimated", c->estimated);
		ft_json_u64(rep->json, "left_out_exact", c->left_out);
		ft_json_u64(rep->json, "unmeasured", c->unmeasured);
		ft_json_u64(rep->json, "dropped_after_loss", c->dropped);
	} else {
		ft_hgroups_print(&c->h, rep->f);
		notes(c, rep->f);
	}
}

/* cpudist_reset - the next interval's histograms and notes */
static void cpudist_reset(void *priv)
{
	struct cpudist *c = priv;

	c->estimated = c->left_out = c->unmeasured = c->dropped = 0;
	ft_hgroups_reset(&c->h);
}

/* cpudist_metrics - the histograms as series of ftscope_cpudist_seconds */
static void cpudist_metrics(void *priv, struct ft_metrics *m)
{
	struct cpudist *c = priv;

	ft_hgroups_metrics(&c->h, m, c->off ? "cpudist_offcpu" : "cpudist", NULL, 0);
}

/* cpudist_fini - free everything */
static void cpudist_fini(void *priv)
{
	struct cpudist *c = priv;

	free(c->cpu);
	ft_tab_fini(&c->tasks);
	ft_hset_fini(&c->h);
}

const struct ft_analyzer ft_cpudist = {
	.cli = {
		.name		= "cpudist",
		.summary	= "on-CPU (or -O off-CPU) time per stay, as BCC's cpudist",
		.usage		= "  -O, --offcpu         off-CPU time: switch-out to the next switch-in\n"
				  "  -m, --milliseconds   histogram in milliseconds (default microseconds)\n"
				  "  -P, --pids           one histogram per process\n"
				  "  -L, --tids           one histogram per thread\n"
				  "      --exact          leave out times that start or end at a switch\n"
				  "                       the kernel did not record (timed at the chain's\n"
				  "                       estimate)\n",
		.examples	= "  ftscope cpudist -d 5           # on-CPU time per stay, whole system\n"
				  "  ftscope cpudist -O -P -d 5     # off-CPU time per process\n"
				  "  ftscope cpudist -L -- make -j2 # per thread, of a build\n",
		.shortopts	= "OmPL",
		.longopts	= cpudist_longopts,
		.parse_opt	= cpudist_parse_opt,
		.check		= cpudist_check,
	},
	.need		= FT_NEED(FT_EV_SWITCH),
	.want		= FT_NEED(FT_EV_NEWTASK),	/* -P: a new thread's process */
	.priv_size	= sizeof(struct cpudist),
	.init		= cpudist_init,
	.event		= cpudist_event,
	.report		= cpudist_report,
	.reset		= cpudist_reset,
	.metrics	= cpudist_metrics,
	.fini		= cpudist_fini,
};
