// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup: wakeup latency, from sched_waking (sched_wakeup when the kernel lacks it)
 * to the woken task's switch-in; preemptions are not wakeups and are left out
 * (runqlat counts both). Beyond the histogram (BCC layout, -P/-L per process or
 * thread): the N slowest wakeups with waker and CPUs (--top), each wakeup slower
 * than a threshold as it happens (--min-us, runqslower's layout plus the waker),
 * and who wakes whom (--wakers). --why splits each of the slowest waits into what ran
 * on its CPU meanwhile (analyzers/why.c).
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "analyzers/waits.h"
#include "analyzers/why.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "output/hset.h"
#include "output/json.h"
#include "output/metrics.h"

/* A waker -> wakee pair. */
struct pair {
	int		key;		/* hash of (waker, wakee), probed on collision */
	int		waker, wakee;
	uint64_t	count, sum, max;
};

/* One of the slowest wakeups, with the names as they were then. */
struct slow {
	struct ft_wait	w;
	char		comm[FT_TASK_COMM_LEN + 1], waker[FT_TASK_COMM_LEN + 1];
	struct ft_why_expl *why;	/* --why: its CPU's parts, the woken CPU's (owned by
					   the slot, reused) */
};

struct wakeup {
	const struct ft_env	*env;
	struct ft_hset		h;
	struct ft_waits		waits;
	long			top;		/* --top N, 0: off */
	struct slow		*slow;		/* the top N, slowest first */
	long			nslow;
	long long		min_us;		/* --min-us N */
	bool			min_set;
	bool			wakers;
	bool			exact;		/* --exact */
	long			wakers_top;	/* --wakers-top N: pairs printed, 0: all */
	bool			wakers_top_set;
	struct ft_tab		pairs;		/* key -> struct pair */
	bool			oom;
	bool			why_on;		/* --why */
	struct ft_why		why;
};

enum { OPT_TOP = 0x100, OPT_MIN_US, OPT_WAKERS, OPT_WAKERS_TOP, OPT_WHY };

/* The slowest wakeups --why explains without --top. */
#define WHY_TOP	10

/* Pairs --wakers prints unless --wakers-top says otherwise (BCC's tools cap theirs). */
#define WAKERS_TOP	20

static const struct option wakeup_longopts[] = {
	{ "milliseconds",	no_argument,       NULL, 'm' },
	{ "microseconds",	no_argument,       NULL, 'u' },
	{ "pids",		no_argument,       NULL, 'P' },
	{ "tids",		no_argument,       NULL, 'L' },
	{ "top",		required_argument, NULL, OPT_TOP },
	{ "min-us",		required_argument, NULL, OPT_MIN_US },
	{ "wakers",		no_argument,       NULL, OPT_WAKERS },
	{ "wakers-top",		required_argument, NULL, OPT_WAKERS_TOP },
	{ "why",		no_argument,       NULL, OPT_WHY },
	FT_EXACT_LONGOPT,
	{ 0 }
};

/* wakeup_parse_opt - units, grouping, --top, --min-us, --wakers, --wakers-top */
static int wakeup_parse_opt(void *priv, int opt, const char *arg)
{
	struct wakeup *w = priv;
	long v;

	switch (opt) {
	case 'm': w->h.unit = &ft_unit_ms; return 0;
	case 'u': w->h.unit = &ft_unit_us; return 0;
	case 'P': w->h.by = FT_BY_PID; return 0;
	case 'L': w->h.by = FT_BY_TID; return 0;
	case OPT_WAKERS: w->wakers = true; return 0;
	case OPT_WHY: w->why_on = true; return 0;
	case FT_OPT_EXACT: w->exact = true; return 0;
	case OPT_WAKERS_TOP:
		if (ft_parse_long(arg, 0, 10000000, &w->wakers_top)) {
			ft_err("bad --wakers-top '%s': want a count, 0 for all", arg);
			return FT_OPT_REPORTED;
		}
		w->wakers = w->wakers_top_set = true;
		return 0;
	case OPT_TOP:
		if (ft_parse_long(arg, 1, 100000, &w->top)) {
			ft_err("bad --top '%s': want a count from 1 to 100000", arg);
			return FT_OPT_REPORTED;
		}
		return 0;
	case OPT_MIN_US:
		if (ft_parse_long(arg, 0, 3600L * 1000000, &v)) {
			ft_err("bad --min-us '%s': want microseconds, 0 or more", arg);
			return FT_OPT_REPORTED;
		}
		w->min_us = v;
		w->min_set = true;
		return 0;
	}
	return -1;
}

/* wakeup_check - --why explains the slowest: --top 10 unless told */
static int wakeup_check(void *priv, const struct ft_env *env)
{
	struct wakeup *w = priv;

	(void)env;
	if (w->why_on && !w->top)
		w->top = WHY_TOP;
	return 0;
}

/* wakeup_tracepoints - the interrupt events, with --why */
static struct ft_tp *wakeup_tracepoints(void *priv)
{
	struct wakeup *w = priv;

	return w->why_on ? ft_why_tracepoints(&w->why) : NULL;
}

/* comm_copy - a task's comm, now */
static void comm_copy(struct wakeup *w, int tid, char *buf)
{
	snprintf(buf, FT_TASK_COMM_LEN + 1, "%s",
		 tid == 0 ? "swapper" : ft_tasks_comm(w->env->tasks, tid));
}

/* keep_slow - insert into the top N, slowest first; --why explains it */
static void keep_slow(struct wakeup *w, const struct ft_wait *x)
{
	uint64_t d = x->end - x->start;
	struct ft_why_expl *why;
	long i;

	if (w->nslow == w->top) {
		const struct ft_wait *last = &w->slow[w->nslow - 1].w;

		if (d <= last->end - last->start)
			return;
		w->nslow--;
	}
	why = w->slow[w->nslow].why;	/* the slot the shift frees */
	for (i = w->nslow; i > 0; i--) {
		const struct ft_wait *o = &w->slow[i - 1].w;

		if (o->end - o->start >= d)
			break;
		w->slow[i] = w->slow[i - 1];
	}
	w->slow[i].w = *x;
	comm_copy(w, x->tid, w->slow[i].comm);
	comm_copy(w, x->waker, w->slow[i].waker);
	w->slow[i].why = why;
	if (w->why_on)
		ft_why_wait(&w->why, x, &w->slow[i].why);
	w->nslow++;
}

/* pair_key - a positive key for (waker, wakee) */
static int pair_key(int waker, int wakee)
{
	uint64_t h = ((uint64_t)(uint32_t)waker << 32 | (uint32_t)wakee) * 0x9e3779b97f4a7c15ULL;

	return (int)(h >> 33) | 1;
}

/* add_pair - account a wakeup to its waker -> wakee pair */
static void add_pair(struct wakeup *w, const struct ft_wait *x)
{
	int key = pair_key(x->waker, x->tid);
	struct pair *p;

	while ((p = ft_tab_find(&w->pairs, key)) && (p->waker != x->waker || p->wakee != x->tid))
		key = (key + 2) & 0x7fffffff;
	p = ft_tab_get(&w->pairs, key);
	if (!p) {
		w->oom = true;
		return;
	}
	p->waker = x->waker;
	p->wakee = x->tid;
	p->count++;
	p->sum += x->end - x->start;
	if (x->end - x->start > p->max)
		p->max = x->end - x->start;
}

/* print_slow_header - runqslower's columns, then the waker's */
static void print_slow_header(FILE *f)
{
	fprintf(f, "%-15s %-16s %-7s %14s  %-16s %-7s %4s %4s %4s\n", "TIME", "COMM", "TID",
		"LAT(us)", "WAKER", "WTID", "WCPU", "TCPU", "CPU");
}

/* print_slow - one slow wakeup: time, task, latency, waker, waking/target/run CPUs */
static void print_slow(FILE *f, const struct ft_wait *x, const char *comm, const char *waker)
{
	fprintf(f, "%15.6f %-16s %-7d %14llu  %-16s %-7d %4d %4d %4d%s\n", x->end / 1e9, comm,
		x->tid, (unsigned long long)((x->end - x->start) / 1000), waker, x->waker,
		x->waker_cpu, x->target_cpu, x->cpu, x->bounded ? " ^" : "");
}

/* json_wait - a wakeup's fields, as print_slow's columns */
static void json_wait(struct ft_json *j, const struct ft_wait *x, const char *comm,
		      const char *waker)
{
	ft_json_u64(j, "time_ns", x->end);
	ft_json_str(j, "comm", comm);
	ft_json_i64(j, "tid", x->tid);
	ft_json_u64(j, "latency_ns", x->end - x->start);
	ft_json_str(j, "waker_comm", waker);
	ft_json_i64(j, "waker", x->waker);
	ft_json_i64(j, "waker_cpu", x->waker_cpu);
	ft_json_i64(j, "target_cpu", x->target_cpu);
	ft_json_i64(j, "cpu", x->cpu);
	ft_json_bool(j, "estimated", x->bounded);
}

/* on_wait - one finished wait after a wakeup (waits.wakeups: no preemption's) */
static void on_wait(void *ctx, const struct ft_wait *x)
{
	struct wakeup *w = ctx;
	char comm[FT_TASK_COMM_LEN + 1], waker[FT_TASK_COMM_LEN + 1];

	ft_hgroups_add(&w->h, x->tid, x->cpu, x->end - x->start);
	ft_env_latency(w->env, x->end - x->start, x->end, x->tid, x->cpu);
	if (w->top)
		keep_slow(w, x);
	if (w->wakers)
		add_pair(w, x);
	if (w->min_set && (long long)((x->end - x->start) / 1000) >= w->min_us) {
		comm_copy(w, x->tid, comm);
		comm_copy(w, x->waker, waker);
		if (w->env->json) {	/* a line of its own as it comes */
			struct ft_json j;

			ft_json_row(&j, w->env->out, "wakeup");
			json_wait(&j, x, comm, waker);
			ft_json_obj_end(&j);
		} else {
			print_slow(w->env->out, x, comm, waker);
		}
	}
}

/* wakeup_init - tables; the streaming header for --min-us */
static int wakeup_init(void *priv, const struct ft_env *env)
{
	struct wakeup *w = priv;

	w->env = env;
	if (w->top)
		w->slow = calloc(w->top, sizeof(*w->slow));
	if ((w->top && !w->slow) || ft_hgroups_init(&w->h, env->tasks) ||
	    (w->why_on && ft_why_init(&w->why, env)) ||
	    ft_tab_init(&w->pairs, sizeof(struct pair)) ||
	    ft_waits_init(&w->waits, env, on_wait, w)) {
		ft_err("out of memory");
		return -1;
	}
	w->waits.notes.exact = w->exact;
	w->waits.wakeups = true;	/* its notes count the waits it measures */
	if (w->min_set && !env->json)
		print_slow_header(w->env->out);
	return 0;
}

/* wakeup_event - names from the records, waits through the tracker */
static void wakeup_event(void *priv, const struct ft_event *ev)
{
	struct wakeup *w = priv;

	if (w->why_on)	/* first: the window of a wait ending here is complete */
		ft_why_event(&w->why, ev);
	ft_waits_event(&w->waits, ev);
}

/* cmp_pair - busiest pair first, then by waker and wakee */
static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->waker != y->waker)
		return x->waker < y->waker ? -1 : 1;
	return (x->wakee > y->wakee) - (x->wakee < y->wakee);
}

/* print_pairs - who wakes whom: the most frequent pairs, and how many more there are */
static void print_pairs(struct wakeup *w, FILE *f)
{
	long top = w->wakers_top_set ? w->wakers_top : WAKERS_TOP;
	unsigned int i, n = w->pairs.n;

	if (top && (unsigned long)top < n)
		n = (unsigned int)top;
	fprintf(f, "\n%-16s %-7s    %-16s %-7s %8s %12s %12s\n", "WAKER", "PID", "WAKEE", "PID",
		"COUNT", "AVG(us)", "MAX(us)");
	for (i = 0; i < n; i++) {
		struct pair *p = ft_tab_at(&w->pairs, i);
		char a[FT_TASK_COMM_LEN + 1], b[FT_TASK_COMM_LEN + 1];

		comm_copy(w, p->waker, a);
		comm_copy(w, p->wakee, b);
		fprintf(f, "%-16s %-7d -> %-16s %-7d %8llu %12.1f %12.1f\n", a, p->waker, b,
			p->wakee, (unsigned long long)p->count, p->sum / 1e3 / p->count,
			p->max / 1e3);
	}
	if (n < w->pairs.n)
		fprintf(f, "... %u more pairs (--wakers-top 0 prints all)\n",
			w->pairs.n - n);
}

/* report_json - histograms, slowest wakeups, pairs */
static void report_json(struct wakeup *w, struct ft_json *j)
{
	unsigned int i;
	long k;

	ft_hgroups_json(&w->h, j);
	ft_json_arr_begin(j, "slowest");
	for (k = 0; k < w->nslow; k++) {
		const struct slow *s = &w->slow[k];

		ft_json_obj_begin(j, NULL);
		json_wait(j, &s->w, s->comm, s->waker);
		if (w->why_on)
			ft_why_wait_json(j, s->why);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_arr_begin(j, "wakers");
	for (i = 0; i < w->pairs.n; i++) {
		struct pair *p = ft_tab_at(&w->pairs, i);

		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "waker", p->waker);
		ft_json_str(j, "waker_comm", p->waker ? ft_tasks_comm(w->env->tasks, p->waker) :
			    "swapper");
		ft_json_i64(j, "wakee", p->wakee);
		ft_json_str(j, "wakee_comm", ft_tasks_comm(w->env->tasks, p->wakee));
		ft_json_u64(j, "count", p->count);
		ft_json_u64(j, "sum_ns", p->sum);
		ft_json_u64(j, "max_ns", p->max);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_wait_notes_json(j, &w->waits.notes);
	if (w->why_on)
		ft_why_notes_json(j, &w->why);
}

/* wakeup_report - histogram(s), then the slowest and the pairs when asked */
static void wakeup_report(void *priv, struct ft_report *r)
{
	struct wakeup *w = priv;
	long k;

	if (w->oom)
		ft_err("out of memory: some waker pairs are missing");
	ft_tab_sort(&w->pairs, cmp_pair);
	if (r->json) {
		report_json(w, r->json);
		return;
	}
	if (w->min_set)
		fputc('\n', r->f);
	ft_hgroups_print(&w->h, r->f);
	if (w->top) {
		fprintf(r->f, "\n%ld slowest wakeups:\n", w->nslow);
		print_slow_header(r->f);
		for (k = 0; k < w->nslow; k++) {
			print_slow(r->f, &w->slow[k].w, w->slow[k].comm, w->slow[k].waker);
			if (w->why_on)
				ft_why_wait_print(r->f, &w->slow[k].w, w->slow[k].why);
		}
	}
	if (w->wakers)
		print_pairs(w, r->f);
	ft_wait_notes_print(r->f, "wakeup", &w->waits.notes);
	if (w->why_on)
		ft_why_notes(r->f, "wakeup", &w->why);
}

/* wakeup_reset - the next interval's histograms, slowest wakeups, pairs and notes */
static void wakeup_reset(void *priv)
{
	struct wakeup *w = priv;

	ft_hgroups_reset(&w->h);
	ft_tab_clear(&w->pairs);
	w->nslow = 0;
	ft_wait_notes_reset(&w->waits.notes);
}

/* wakeup_metrics - the histograms as series of ftscope_wakeup_seconds */
static void wakeup_metrics(void *priv, struct ft_metrics *m)
{
	struct wakeup *w = priv;

	ft_hgroups_metrics(&w->h, m, "wakeup", NULL, 0);
}

/* wakeup_fini - free everything */
static void wakeup_fini(void *priv)
{
	struct wakeup *w = priv;
	long k;

	for (k = 0; w->slow && k < w->top; k++)
		free(w->slow[k].why);
	if (w->why_on)
		ft_why_fini(&w->why);
	ft_waits_fini(&w->waits);
	ft_hset_fini(&w->h);
	ft_tab_fini(&w->pairs);
	free(w->slow);
}

const struct ft_analyzer ft_wakeup = {
	.cli = {
		.name		= "wakeup",
		.latency	= "wait",
		.summary	= "wakeup latency: histogram, slowest wakeups, who wakes whom",
		.usage		= "  -m, --milliseconds   histogram in milliseconds\n"
				  "  -u, --microseconds   histogram in microseconds (default)\n"
				  "  -P, --pids           one histogram per process\n"
				  "  -L, --tids           one histogram per thread\n"
				  "      --top N          the N slowest wakeups: task, waker, waking CPU,\n"
				  "                       target CPU, CPU it ran on\n"
				  "      --min-us N       print each wakeup of N us or more as it happens\n"
				  "      --wakers         waker -> wakee pairs: count, average and max latency\n"
				  "                       (the 20 most frequent; --json has all)\n"
				  "      --wakers-top N   with --wakers: the N most frequent pairs, 0: all\n"
				  "      --why            under each of the slowest (--top, default 10): what\n"
				  "                       ran on its CPU while it waited (docs/explain.md)\n"
				  FT_EXACT_USAGE,
		.examples	= "  ftscope wakeup -d 5                   # histogram of the whole system\n"
				  "  ftscope wakeup --min-us 1000          # every wakeup slower than 1 ms\n"
				  "  ftscope wakeup --top 10 --wakers -- make   # a build: worst 10, pairs\n",
		.shortopts	= "muPL",
		.longopts	= wakeup_longopts,
		.parse_opt	= wakeup_parse_opt,
		.check		= wakeup_check,
	},
	.need		= FT_NEED(FT_EV_SWITCH),
	.want		= FT_NEED(FT_EV_WAKING) | FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW),
	.priv_size	= sizeof(struct wakeup),
	.tracepoints	= wakeup_tracepoints,
	.init		= wakeup_init,
	.event		= wakeup_event,
	.report		= wakeup_report,
	.reset		= wakeup_reset,
	.metrics	= wakeup_metrics,
	.fini		= wakeup_fini,
};
