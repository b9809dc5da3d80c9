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
 * latency is an upper bound and is counted as such. After lost events on a CPU,
 * pending wakeups bound for that CPU are dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "analyzers/output/hist.h"
#include "analyzers/output/json.h"
#include "events/chain.h"
#include "events/pidset.h"
#include "events/tab.h"
#include "events/tasks.h"
#include "tracer/options.h"
#include "tracer/util.h"

enum group_by { BY_NONE, BY_PID, BY_TID, BY_CPU };

struct group {
	int		key;
	struct ft_hist	hist;
};

struct runqlat {
	const struct ft_env	*env;
	const struct ft_unit	*unit;
	enum group_by		by;
	struct ft_imap		start;		/* tid -> (ts << 12) | (cpu + 1) */
	struct ft_hist		total;
	struct ft_tab		groups;		/* key -> struct group */
	unsigned long long	dropped;	/* pending wakeups dropped after a loss */
	unsigned long long	unpaired;	/* switch-ins after lost events: not measured */
	unsigned long long	bounded;	/* latencies ending at a reconstructed switch-in */
};

enum { OPT_PER_CPU = 0x100 };

static const struct option runqlat_longopts[] = {
	{ "milliseconds",	no_argument, NULL, 'm' },
	{ "microseconds",	no_argument, NULL, 'u' },
	{ "pids",		no_argument, NULL, 'P' },
	{ "tids",		no_argument, NULL, 'L' },
	{ "per-cpu",		no_argument, NULL, OPT_PER_CPU },
	{ 0 }
};

/* pack - a pending start: time and the CPU it is expected to run on */
static inline uint64_t pack(uint64_t ts, int cpu)
{
	return (ts << 12) | (uint64_t)((cpu + 1) & 0xfff);
}

/* runqlat_parse_opt - the options only runqlat has */
static int runqlat_parse_opt(void *priv, int opt, const char *arg)
{
	struct runqlat *r = priv;

	switch (opt) {
	case 'm': r->unit = &ft_unit_ms; return 0;
	case 'u': r->unit = &ft_unit_us; return 0;
	case 'P': r->by = BY_PID; return 0;
	case 'L': r->by = BY_TID; return 0;
	case OPT_PER_CPU: r->by = BY_CPU; return 0;
	}
	return -1;
}

/* runqlat_init - empty maps and histograms */
static int runqlat_init(void *priv, const struct ft_env *env)
{
	struct runqlat *r = priv;

	r->env = env;
	if (!r->unit)
		r->unit = &ft_unit_us;
	if (ft_imap_init(&r->start, 1024) || ft_tab_init(&r->groups, sizeof(struct group))) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/* group_hist - the histogram of a group key, created on first use */
static struct ft_hist *group_hist(struct runqlat *r, int key)
{
	struct group *g = ft_tab_get(&r->groups, key);

	return g ? &g->hist : NULL;
}

/* enqueue - task @pid became runnable at @ts, to run on @cpu */
static void enqueue(struct runqlat *r, int pid, uint64_t ts, int cpu)
{
	if (!pid || (r->env->traced && !r->env->traced(r->env, pid)))
		return;
	ft_imap_put(&r->start, pid, pack(ts, cpu));
}

/* switch_in - task ev->sw.next_pid got the CPU: its latency ends here */
static void switch_in(struct runqlat *r, const struct ft_event *ev)
{
	int pid = ev->sw.next_pid, key;
	uint64_t *st = ft_imap_get(&r->start, pid), t_in, t0, ns;
	struct ft_hist *h;

	if (!st)
		return;
	t0 = *st >> 12;
	ft_imap_del(&r->start, pid);
	if (ev->sw.synth && ev->sw.after_loss) {
		r->unpaired++;
		return;
	}
	/* a reconstructed switch-in is timed at the first record that proves it: an upper bound */
	if (ev->sw.synth)
		r->bounded++;
	t_in = ev->ts;
	ns = t_in > t0 ? t_in - t0 : 0;
	ft_hist_add(&r->total, r->unit, ns);
	if (r->by == BY_NONE)
		return;
	if (r->by == BY_CPU) {
		key = ev->cpu;
	} else {
		ft_tasks_note(r->env->tasks, pid, ev->sw.next_comm);
		key = r->by == BY_PID ? ft_tasks_tgid(r->env->tasks, pid) : pid;
	}
	h = group_hist(r, key);
	if (h)
		ft_hist_add(h, r->unit, ns);
}

/* drop_cpu - forget pending starts bound for @cpu (events were lost there) */
static void drop_cpu(struct runqlat *r, int cpu)
{
	struct ft_imap_slot *s;
	unsigned int n = 0, i;
	int *keys = malloc(r->start.count * sizeof(*keys) + 1);

	if (!keys) {
		ft_imap_clear(&r->start);	/* cannot be selective: forget them all */
		return;
	}
	/* collect first: deleting shifts entries under the iterator */
	ft_imap_for_each(&r->start, s)
		if ((int)(s->val & 0xfff) - 1 == cpu)
			keys[n++] = s->key - 1;
	for (i = 0; i < n; i++)
		ft_imap_del(&r->start, keys[i]);
	r->dropped += n;
	free(keys);
}

/* runqlat_event - one record, in time order */
static void runqlat_event(void *priv, const struct ft_event *ev)
{
	struct runqlat *r = priv;

	switch (ev->type) {
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		enqueue(r, ev->wk.pid, ev->ts, ev->wk.target_cpu >= 0 ? ev->wk.target_cpu : ev->cpu);
		break;
	case FT_EV_SWITCH:
		/* preempted while runnable: back on the run queue now */
		if (ev->sw.prev_pid && ev->sw.state == 'R' && !ev->sw.synth)
			enqueue(r, ev->sw.prev_pid, ev->ts, ev->cpu);
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

/* cmp_group - order groups by key */
static int cmp_group(const void *a, const void *b)
{
	const struct group *ga = a, *gb = b;

	return (ga->key > gb->key) - (ga->key < gb->key);
}

/* group_title - "pid = 1234 comm", "tid = ...", "cpu = N" */
static void group_title(struct runqlat *r, const struct group *g, char *buf, size_t len)
{
	static const char *const name[] = { "", "pid", "tid", "cpu" };

	if (r->by == BY_CPU)
		snprintf(buf, len, "cpu = %d", g->key);
	else
		snprintf(buf, len, "%s = %d %s", name[r->by], g->key,
			 ft_tasks_comm(r->env->tasks, g->key));
}

/* runqlat_json - the same data as the text report */
static void runqlat_json(struct runqlat *r, struct ft_json *j)
{
	static const char *const by[] = { "none", "pid", "tid", "cpu" };
	unsigned int i;

	ft_json_str(j, "group_by", by[r->by]);
	ft_hist_json(j, "total", &r->total, r->unit);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < r->groups.n && r->by != BY_NONE; i++) {
		struct group *g = ft_tab_at(&r->groups, i);

		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, by[r->by], g->key);
		if (r->by != BY_CPU)
			ft_json_str(j, "comm", ft_tasks_comm(r->env->tasks, g->key));
		ft_hist_json(j, "hist", &g->hist, r->unit);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_u64(j, "dropped_after_loss", r->dropped);
	ft_json_u64(j, "unmeasured_after_loss", r->unpaired);
	ft_json_u64(j, "upper_bounds", r->bounded);
}

/* runqlat_report - histograms in BCC's layout, each followed by its summary line */
static void runqlat_report(void *priv, struct ft_report *rep)
{
	struct runqlat *r = priv;
	char title[64];
	unsigned int i;

	ft_tab_sort(&r->groups, cmp_group);
	if (rep->json) {
		runqlat_json(r, rep->json);
		goto done;
	}
	if (r->by == BY_NONE) {
		ft_hist_print_log2(rep->f, &r->total, r->unit->label);
		ft_hist_print_summary(rep->f, &r->total, r->unit);
	}
	for (i = 0; i < r->groups.n; i++) {
		struct group *g = ft_tab_at(&r->groups, i);

		group_title(r, g, title, sizeof(title));
		fprintf(rep->f, "\n%s\n", title);
		ft_hist_print_log2(rep->f, &g->hist, r->unit->label);
		ft_hist_print_summary(rep->f, &g->hist, r->unit);
	}
	if (r->bounded)
		fprintf(rep->f, "runqlat: %llu latencies end at a switch-in the kernel did not record; "
			"they are upper bounds\n", r->bounded);
	if (r->dropped || r->unpaired)
		fprintf(rep->f, "runqlat: %llu pending wakeups dropped and %llu switch-ins not measured "
			"after lost events\n", r->dropped, r->unpaired);
done:
	if (rep->interval) {
		r->bounded = r->dropped = r->unpaired = 0;
		ft_hist_reset(&r->total);
		for (i = 0; i < r->groups.n; i++)
			ft_hist_reset(&((struct group *)ft_tab_at(&r->groups, i))->hist);
	}
}

/* runqlat_fini - free everything */
static void runqlat_fini(void *priv)
{
	struct runqlat *r = priv;

	ft_imap_fini(&r->start);
	ft_tab_fini(&r->groups);
}

const struct ft_analyzer ft_runqlat = {
	.name		= "runqlat",
	.summary	= "run-queue (scheduler) latency histogram, as BCC's runqlat",
	.usage		= "  -m, --milliseconds   histogram in milliseconds\n"
			  "  -u, --microseconds   histogram in microseconds (default)\n"
			  "  -P, --pids           one histogram per process\n"
			  "  -L, --tids           one histogram per thread\n"
			  "      --per-cpu        one histogram per CPU\n",
	.examples	= "  ftscope runqlat                # whole system until Ctrl-C\n"
			  "  ftscope runqlat -d 5           # whole system for 5 seconds\n"
			  "  ftscope runqlat 1 10 -T        # ten 1-second histograms, timestamped\n"
			  "  ftscope runqlat -m -P -p 1234  # per-thread-group histogram of pid 1234, ms\n"
			  "  ftscope runqlat -L -- make -j2 # per-thread histograms of a build\n"
			  "  ftscope runqlat --json -d 2    # the same data as JSON\n",
	.shortopts	= "muPL",
	.longopts	= runqlat_longopts,
	.need		= FT_NEED(FT_EV_SWITCH) | FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW),
	.priv_size	= sizeof(struct runqlat),
	.parse_opt	= runqlat_parse_opt,
	.init		= runqlat_init,
	.event		= runqlat_event,
	.report		= runqlat_report,
	.fini		= runqlat_fini,
};
