// SPDX-License-Identifier: GPL-2.0
/*
 * latency: perf sched latency. Per task (merged by comm, or per pid with --pids or
 * a -p/-t filter): run time, the number of scheduling delays measured, their
 * average, maximum (with when it started and ended) and, beyond perf, the 99th
 * percentile. A delay runs from a wakeup, or from a preemption, to the next
 * switch-in (analyzers/waits.c). --why splits each task's maximum delay into what
 * ran on its CPU meanwhile (analyzers/why.c).
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "analyzers/waits.h"
#include "analyzers/why.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "output/hist.h"
#include "output/json.h"
#include "output/metrics.h"

enum sort_key { SK_PID, SK_AVG, SK_MAX, SK_COUNT, SK_RUNTIME, SK_NKEYS };

struct lat_group {
	int		key;		/* tid; in the merged table a hash of the comm */
	int		pid;		/* first tid of the group */
	unsigned int	ntasks;
	char		comm[FT_TASK_COMM_LEN + 1];
	char		label[12];	/* pid as text, the --pids series' label */
	char		mcomm[FT_TASK_COMM_LEN + 1];	/* comm when first exported: kept */
	uint64_t	runtime, max, max_start, max_end;
	uint64_t	rebuilt;	/* runs that start or end at a rebuilt switch */
	struct ft_hist	hist;		/* delays: count, sum and p99 */
	struct ft_wait	maxw;		/* --why: the maximum delay */
	struct ft_why_expl *why;	/* --why: its parts (owned by the thread's record) */
};

struct latency {
	const struct ft_env	*env;
	bool			per_pid;
	bool			exact;		/* --exact */
	enum sort_key		sort[SK_NKEYS];
	int			nsort;
	struct ft_waits		waits;
	struct ft_tab		groups;		/* tid -> struct lat_group */
	struct ft_tab		merged;		/* comm key -> struct lat_group, at report */
	uint64_t		*tprev;		/* per CPU: last switch, 0 unknown */
	bool			*tprev_rebuilt;	/* per CPU: that switch was rebuilt */
	bool			oom;
	bool			why_on;		/* --why */
	struct ft_why		why;
};

enum { OPT_PIDS = 0x100, OPT_WHY };

static const struct option latency_longopts[] = {
	{ "sort",	required_argument, NULL, 's' },
	{ "pids",	no_argument,       NULL, OPT_PIDS },
	{ "why",	no_argument,       NULL, OPT_WHY },
	FT_EXACT_LONGOPT,
	{ 0 }
};

/* parse_sort - "key[,key...]" among pid, avg, max, switch/count, runtime */
static int parse_sort(struct latency *l, const char *arg)
{
	static const char *const names[] = { "pid", "avg", "max", "switch", "runtime", "count" };
	char *copy = strdup(arg), *tok, *save = NULL;
	int i, ret = 0;

	l->nsort = 0;
	for (tok = strtok_r(copy, ", ", &save); tok && !ret; tok = strtok_r(NULL, ", ", &save)) {
		for (i = 0; i < 6 && strcmp(tok, names[i]); i++)
			;
		if (i == 6 || l->nsort == SK_NKEYS)
			ret = -1;
		else
			l->sort[l->nsort++] = i == 5 ? SK_COUNT : i == 3 ? SK_COUNT : (enum sort_key)i;
	}
	free(copy);
	if (!l->nsort)
		ret = -1;
	return ret;
}

/* latency_parse_opt - -s KEYS, --pids, --why */
static int latency_parse_opt(void *priv, int opt, const char *arg)
{
	struct latency *l = priv;

	switch (opt) {
	case 's':
		if (parse_sort(l, arg)) {
			ft_err("bad sort key list '%s': use pid, avg, max, count (or switch), runtime",
			       arg);
			return FT_OPT_REPORTED;
		}
		return 0;
	case FT_OPT_EXACT:
		l->exact = true;
		return 0;
	case OPT_PIDS:
		l->per_pid = true;
		return 0;
	case OPT_WHY:
		l->why_on = true;
		return 0;
	}
	return -1;
}

/* comm_key - a positive key for a comm string (FNV-1a) */
static int comm_key(const char *comm)
{
	uint32_t h = 2166136261u;

	for (; *comm; comm++)
		h = (h ^ (unsigned char)*comm) * 16777619u;
	return (int)(h & 0x7fffffff) | 1;
}

/*
 * clear_groups - forget every record of @t, freeing their histograms, and their
 * --why parts when @own (the threads' table; the merged one borrows them)
 */
static void clear_groups(struct ft_tab *t, bool own)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		struct lat_group *g = ft_tab_at(t, i);

		ft_hist_fini(&g->hist);
		if (own)
			free(g->why);
	}
	ft_tab_clear(t);
}

/*
 * group_of - the record of thread @tid, made on first use; NULL for a tid no task has
 * (a damaged record's -1: not a lack of memory)
 */
static struct lat_group *group_of(struct latency *l, int tid)
{
	struct lat_group *g = tid < 0 ? NULL : ft_tab_get(&l->groups, tid);

	if (!g) {
		l->oom |= tid >= 0;
		return NULL;
	}
	if (!g->ntasks) {
		g->ntasks = 1;
		g->pid = tid;
		snprintf(g->label, sizeof(g->label), "%d", tid);
	}
	return g;
}

/* merge_add - fold thread record @g into @m */
static void merge_add(struct lat_group *m, const struct lat_group *g)
{
	if (g->hist.count && (!m->hist.count || g->max > m->max)) {
		m->max = g->max;
		m->max_start = g->max_start;
		m->max_end = g->max_end;
		m->maxw = g->maxw;
		m->why = g->why;
	}
	ft_hist_merge(&m->hist, &g->hist);
	m->runtime += g->runtime;
	m->rebuilt += g->rebuilt;
	if (!m->ntasks++ || g->pid < m->pid)
		m->pid = g->pid;
}

/*
 * rows - the table to print: threads named by their comm now (after any exec), or
 * merged by that comm as perf does; NULL on ENOMEM
 */
static struct ft_tab *rows(struct latency *l)
{
	unsigned int i;

	for (i = 0; i < l->groups.n; i++) {
		struct lat_group *g = ft_tab_at(&l->groups, i);

		snprintf(g->comm, sizeof(g->comm), "%s", ft_tasks_comm(l->env->tasks, g->pid));
	}
	if (l->per_pid)
		return &l->groups;
	clear_groups(&l->merged, false);
	for (i = 0; i < l->groups.n; i++) {
		struct lat_group *g = ft_tab_at(&l->groups, i), *m;
		int key = comm_key(g->comm);

		/* another comm with the same hash: probe on */
		while ((m = ft_tab_find(&l->merged, key)) && strcmp(m->comm, g->comm))
			key = (key + 2) & 0x7fffffff;
		m = ft_tab_get(&l->merged, key);
		if (!m)
			return NULL;
		if (!m->ntasks)
			memcpy(m->comm, g->comm, sizeof(m->comm));
		merge_add(m, g);
	}
	return &l->merged;
}

/* on_wait - one measured delay */
static void on_wait(void *ctx, const struct ft_wait *w)
{
	struct latency *l = ctx;
	struct lat_group *g = group_of(l, w->tid);
	uint64_t d = w->end - w->start;

	if (!g)
		return;
	ft_hist_add(&g->hist, &ft_unit_us, d);
	ft_env_latency(l->env, d, w->end, w->tid, w->cpu);
	if (d > g->max || g->hist.count == 1) {
		g->max = d;
		g->max_start = w->start;
		g->max_end = w->end;
		if (l->why_on) {	/* now: the window just ended, still in the timeline */
			g->maxw = *w;
			ft_why_wait(&l->why, w, &g->why);
		}
	}
}

/* latency_init - tables; per pid when the run is filtered to pids or tids */
static int latency_init(void *priv, const struct ft_env *env)
{
	struct latency *l = priv;

	l->env = env;
	if (env->task_filter)
		l->per_pid = true;
	if (!l->nsort) {
		l->sort[0] = SK_AVG;
		l->sort[1] = SK_MAX;
		l->sort[2] = SK_COUNT;
		l->sort[3] = SK_RUNTIME;
		l->nsort = 4;
	}
	l->tprev = calloc(env->ncpus, sizeof(*l->tprev));
	l->tprev_rebuilt = calloc(env->ncpus, sizeof(*l->tprev_rebuilt));
	if (!l->tprev || !l->tprev_rebuilt || ft_tab_init(&l->groups, sizeof(struct lat_group)) ||
	    ft_tab_init(&l->merged, sizeof(struct lat_group)) ||
	    (l->why_on && ft_why_init(&l->why, env)) ||
	    ft_waits_init(&l->waits, env, on_wait, l)) {
		ft_err("out of memory");
		return -1;
	}
	l->waits.notes.exact = l->exact;
	return 0;
}

/*
 * latency_event - run time at each switch-out (a rebuilt switch at the chain's
 * estimate); delays through the wait tracker
 */
static void latency_event(void *priv, const struct ft_event *ev)
{
	struct latency *l = priv;
	uint64_t t;
	int prev;

	if (l->why_on)	/* first: the window of a delay ending here is complete */
		ft_why_event(&l->why, ev);
	if (ev->type == FT_EV_SWITCH) {
		prev = ev->sw.prev_pid;
		t = ft_switch_time(ev);
		if (prev && l->tprev[ev->cpu] &&
		    ft_env_traced(l->env, prev)) {
			struct lat_group *g = group_of(l, prev);

			if (g) {
				g->runtime += t - l->tprev[ev->cpu];
				g->rebuilt += ev->sw.synth || l->tprev_rebuilt[ev->cpu];
			}
		}
		l->tprev[ev->cpu] = t;
		l->tprev_rebuilt[ev->cpu] = ev->sw.synth;
	} else if (ev->type == FT_EV_LOST) {
		l->tprev[ev->cpu] = 0;
	}
	ft_waits_event(&l->waits, ev);
}

static enum sort_key *sort_keys;
static int sort_nkeys;

/* cmp_key - compare two groups on one key: pid ascending, the rest descending */
static int cmp_key(const struct lat_group *a, const struct lat_group *b, enum sort_key k)
{
	double x, y;

	switch (k) {
	case SK_PID:
		return (a->pid > b->pid) - (a->pid < b->pid);
	case SK_AVG:
		x = a->hist.count ? (double)a->hist.sum_ns / a->hist.count : 0;
		y = b->hist.count ? (double)b->hist.sum_ns / b->hist.count : 0;
		break;
	case SK_MAX:
		x = a->max;
		y = b->max;
		break;
	case SK_COUNT:
		x = a->hist.count;
		y = b->hist.count;
		break;
	default:
		x = a->runtime;
		y = b->runtime;
		break;
	}
	return (x < y) - (x > y);
}

/* cmp_groups - the -s order, then pid */
static int cmp_groups(const void *a, const void *b)
{
	int i, c;

	for (i = 0; i < sort_nkeys; i++) {
		c = cmp_key(a, b, sort_keys[i]);
		if (c)
			return c;
	}
	return cmp_key(a, b, SK_PID);
}

/* secs - a trace time as perf prints it: seconds with 6 decimals */
static double secs(uint64_t ns)
{
	return ns / 1e9;
}

/* print_json - the same rows as JSON */
static void print_json(struct latency *l, struct ft_tab *t, struct ft_json *j)
{
	unsigned int i;

	ft_json_bool(j, "per_pid", l->per_pid);
	ft_json_arr_begin(j, "tasks");
	for (i = 0; i < t->n; i++) {
		struct lat_group *g = ft_tab_at(t, i);

		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "comm", g->comm);
		ft_json_i64(j, "pid", g->pid);
		ft_json_u64(j, "tasks", g->ntasks);
		ft_json_u64(j, "runtime_ns", g->runtime);
		ft_json_u64(j, "rebuilt_runs", g->rebuilt);
		ft_json_u64(j, "count", g->hist.count);
		ft_json_u64(j, "total_ns", g->hist.sum_ns);
		ft_json_u64(j, "avg_ns", g->hist.count ? g->hist.sum_ns / g->hist.count : 0);
		ft_json_u64(j, "max_ns", g->max);
		ft_json_u64(j, "max_start_ns", g->max_start);
		ft_json_u64(j, "max_end_ns", g->max_end);
		ft_json_u64(j, "p99_ns", ft_hist_percentile(&g->hist, 0.99));
		if (l->why_on && g->hist.count)
			ft_why_wait_json(j, g->why);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_wait_notes_json(j, &l->waits.notes);
	if (l->why_on)
		ft_why_notes_json(j, &l->why);
}

/* latency_report - perf sched latency's table, with a p99 column */
static void latency_report(void *priv, struct ft_report *r)
{
	static const char rule[] = " ----------------------------------------------------------"
		"--------------------------------------------------------------------------------"
		"---------------------------\n";
	struct latency *l = priv;
	uint64_t run = 0, count = 0, rebuilt = 0, rtasks = 0;
	struct ft_tab *t = rows(l);
	unsigned int i;
	char name[48];
	FILE *f = r->f;

	if (l->oom || !t)
		ft_err("out of memory: some tasks are missing from the results");
	if (!t)
		t = &l->groups;
	sort_keys = l->sort;
	sort_nkeys = l->nsort;
	ft_tab_sort(t, cmp_groups);
	if (r->json) {
		print_json(l, t, r->json);
		return;
	}
	fprintf(f, "\n%s", rule);
	fprintf(f, "  Task                  |   Runtime ms  | Switches | Avg delay ms    | "
		"Max delay ms    | Max delay start           | Max delay end          | P99 delay ms\n");
	fputs(rule, f);
	for (i = 0; i < t->n; i++) {
		struct lat_group *g = ft_tab_at(t, i);
		int n;

		if (!g->hist.count && !g->runtime)
			continue;
		if (g->ntasks > 1)
			n = snprintf(name, sizeof(name), "  %s:(%u) ", g->comm, g->ntasks);
		else
			n = snprintf(name, sizeof(name), "  %s:%d ", g->comm, g->pid);
		fprintf(f, "%s%*s|%11.3f ms |%9llu | avg:%8.3f ms | max:%8.3f ms | "
			"max start: %12.6f s | max end: %12.6f s | p99:%8.3f ms", name,
			n < 24 ? 24 - n : 0, "", g->runtime / 1e6, (unsigned long long)g->hist.count,
			g->hist.count ? g->hist.sum_ns / 1e6 / g->hist.count : 0.0, g->max / 1e6,
			secs(g->max_start), secs(g->max_end),
			ft_hist_percentile(&g->hist, 0.99) / 1e6);
		if (g->rebuilt)
			fprintf(f, " ^%llu", (unsigned long long)g->rebuilt);
		fputc('\n', f);
		if (l->why_on && g->hist.count)
			ft_why_wait_print(f, &g->maxw, g->why);
		rebuilt += g->rebuilt;
		rtasks += g->rebuilt > 0;
		run += g->runtime;
		count += g->hist.count;
	}
	fprintf(f, " -----------------------------------------------------------------"
		"------------------------------------------------\n");
	fprintf(f, "  TOTAL:                |%11.3f ms |%9llu |\n", run / 1e6,
		(unsigned long long)count);
	fprintf(f, " ---------------------------------------------------\n");
	if (rebuilt)
		fprintf(f, "latency: ^N: the run time of %llu rows rests on N runs (%llu in all) that "
			"start or end at a switch the kernel did not record, timed at the chain's "
			"estimate\n", (unsigned long long)rtasks,
			(unsigned long long)rebuilt);
	ft_wait_notes_print(f, "latency", &l->waits.notes);
	if (l->why_on)
		ft_why_notes(f, "latency", &l->why);
}

/* latency_reset - the next interval's tasks and notes */
static void latency_reset(void *priv)
{
	struct latency *l = priv;

	clear_groups(&l->groups, true);
	ft_wait_notes_reset(&l->waits.notes);
}

/*
 * latency_metrics - the delays as series of ftscope_latency_seconds: labelled comm
 * (merged by comm), or comm and pid with --pids. Each thread is handed over with
 * the comm it had when first exported (kept: an exec must not move its counts to
 * another series), and the sinks add up the series of equal labels
 * (output/metrics.h): the report's merge, without its cost at every heat-map column
 */
static void latency_metrics(void *priv, struct ft_metrics *m)
{
	struct latency *l = priv;
	unsigned int i;

	for (i = 0; i < l->groups.n; i++) {
		struct lat_group *g = ft_tab_at(&l->groups, i);
		struct ft_label lb[2] = { { "comm", g->mcomm }, { "pid", g->label } };

		if (!g->hist.count && !g->runtime)
			continue;
		if (!g->mcomm[0])
			snprintf(g->mcomm, sizeof(g->mcomm), "%s",
				 ft_tasks_comm(l->env->tasks, g->pid));
		ft_metrics_hist(m, "latency", lb, l->per_pid ? 2 : 1, &g->hist, &ft_unit_us);
	}
}

/* latency_fini - free the tables */
static void latency_fini(void *priv)
{
	struct latency *l = priv;

	ft_waits_fini(&l->waits);
	clear_groups(&l->groups, true);
	clear_groups(&l->merged, false);
	ft_tab_fini(&l->groups);
	ft_tab_fini(&l->merged);
	free(l->tprev);
	free(l->tprev_rebuilt);
	if (l->why_on)
		ft_why_fini(&l->why);
}

/* latency_tracepoints - the interrupt events, with --why */
static struct ft_tp *latency_tracepoints(void *priv)
{
	struct latency *l = priv;

	return l->why_on ? ft_why_tracepoints(&l->why) : NULL;
}

const struct ft_analyzer ft_latency = {
	.cli = {
		.name		= "latency",
		.latency	= "wait",
		.summary	= "scheduling delay per task: avg, max, p99 (perf sched latency)",
		.usage		= "  -s, --sort KEYS      order by KEYS: pid, avg, max, count (or switch),\n"
				  "                       runtime (default avg,max,count,runtime)\n"
				  "      --pids           one row per thread, not per command name\n"
				  "      --why            under each task's row: what ran on the CPU during\n"
				  "                       its maximum delay (docs/explain.md)\n"
				  FT_EXACT_USAGE,
		.examples	= "  ftscope latency -d 5                 # whole system, 5 seconds\n"
				  "  ftscope latency -s max -- make -j2   # a build, worst delay first\n"
				  "  ftscope latency -p 1234              # per thread of pid 1234\n",
		.shortopts	= "s:",
		.longopts	= latency_longopts,
		.parse_opt	= latency_parse_opt,
	},
	.need		= FT_NEED(FT_EV_SWITCH),
	.want		= FT_NEED(FT_EV_WAKING) | FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW),
	.priv_size	= sizeof(struct latency),
	.tracepoints	= latency_tracepoints,
	.init		= latency_init,
	.event		= latency_event,
	.report		= latency_report,
	.reset		= latency_reset,
	.metrics	= latency_metrics,
	.fini		= latency_fini,
};
