// SPDX-License-Identifier: GPL-2.0
/*
 * funclat: function latency, BCC funclatency semantics, plus funcslower's list.
 *
 * Entries and returns come from kprobe/kretprobe, uprobe/uretprobe, syscalls
 * sys_enter_/sys_exit_ events or the function_graph tracer (tracer/probes.c). Each
 * thread keeps a stack of open calls, so nested and recursive calls pair with their
 * own returns (BCC's -l); function_graph returns carry calltime and rettime and need
 * no pairing. After lost events every open call is dropped, not mismeasured.
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "lib/tab.h"
#include "lib/util.h"
#include "output/hset.h"
#include "output/json.h"

#define FSTACK_DEPTH	32

struct fstack {
	int		key;		/* tid */
	int		depth;
	struct {
		int		func;
		uint64_t	ts;
	} call[FSTACK_DEPTH];
};

struct funclat {
	const struct ft_env	*env;
	struct ft_func_req	req;		/* the patterns, method and limit */
	const struct ft_funcs	*fns;		/* as resolved (set at init) */
	const struct ft_unit	*unit;
	bool			per_func;	/* -F */
	double			min_us;		/* --min-us: list slower calls */
	bool			min_set;	/* --min-us given (0 lists every call) */
	bool			listed;		/* the list's header was printed */
	struct ft_hset		h;		/* per function (key: its index), and the total */
	struct ft_tab		threads;	/* tid -> struct fstack */
	uint64_t		t0;
	unsigned long long	unpaired, dropped, too_deep;
	struct ft_tp		ren;		/* task_rename: the names of the listed tasks */
};

enum { OPT_MIN_US = 0x100, OPT_METHOD, OPT_MAX_FUNCS };

static const struct option funclat_longopts[] = {
	{ "microseconds",	no_argument,	   NULL, 'u' },
	{ "milliseconds",	no_argument,	   NULL, 'm' },
	{ "function",		no_argument,	   NULL, 'F' },
	{ "nested",		no_argument,	   NULL, 'l' },
	{ "min-us",		required_argument, NULL, OPT_MIN_US },
	{ "method",		required_argument, NULL, OPT_METHOD },
	{ "max-funcs",		required_argument, NULL, OPT_MAX_FUNCS },
	{ 0 }
};

/* funclat_parse_opt - the options only funclat has */
static int funclat_parse_opt(void *priv, int opt, const char *arg)
{
	struct funclat *f = priv;

	switch (opt) {
	case 'u': f->unit = &ft_unit_us; return 0;
	case 'm': f->unit = &ft_unit_ms; return 0;
	case 'F': f->per_func = true; return 0;
	case 'l': return 0;	/* calls always pair through a per-thread stack */
	case OPT_MIN_US:
		if (ft_parse_double(arg, 0, 1e12, &f->min_us))
			return -1;
		f->min_set = true;
		return 0;
	case OPT_MAX_FUNCS:
		return ft_func_req_max(&f->req, arg);
	case OPT_METHOD:
		if (!strcmp(arg, "auto"))
			f->req.method = FT_FM_AUTO;
		else if (!strcmp(arg, "graph") || !strcmp(arg, "function_graph"))
			f->req.method = FT_FM_GRAPH;
		else if (!strcmp(arg, "kprobe"))
			f->req.method = FT_FM_KPROBE;
		else
			return -1;
		return 0;
	}
	return -1;
}

/* funclat_arg - a pattern */
static int funclat_arg(void *priv, const char *arg)
{
	return ft_func_req_arg(&((struct funclat *)priv)->req, arg);
}

/* funclat_functions - what the tracer must set up */
static const struct ft_func_req *funclat_functions(void *priv)
{
	struct funclat *f = priv;

	return &f->req;
}

/* funclat_init - one histogram per function, no open calls */
static int funclat_init(void *priv, const struct ft_env *env)
{
	struct funclat *f = priv;
	int i;

	f->env = env;
	f->fns = env->funcs;
	if (!f->unit)
		f->unit = &ft_unit_ns;
	f->h = (struct ft_hset){ .unit = f->unit, .label = "Function", .name_key = "name",
				 .style = FT_HS_AVG };
	for (i = 0; i < f->fns->n; i++)
		if (!ft_hset_new(&f->h, i, f->fns->fn[i].name, -1))
			break;
	if (i < f->fns->n || ft_tab_init(&f->threads, sizeof(struct fstack))) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/* json_call - a call of at least --min-us as a JSON line of its own (--json) */
static void json_call(struct funclat *f, const struct ft_event *ev, int func, uint64_t ns)
{
	struct ft_json j;

	ft_json_row(&j, f->env->out, "funclat");
	ft_json_u64(&j, "time_ns", ev->ts);
	ft_json_str(&j, "comm", ft_tasks_comm(f->env->tasks, ev->common_pid));
	ft_json_i64(&j, "tid", ev->common_pid);
	ft_json_u64(&j, "latency_ns", ns);
	if (ev->fc.has_ret)
		ft_json_i64(&j, "ret", ev->fc.ret);
	ft_json_str(&j, "func", f->fns->fn[func].name);
	ft_json_obj_end(&j);
}

/* slow_call - funcslower's line for a call of at least --min-us (--json: a row) */
static void slow_call(struct funclat *f, const struct ft_event *ev, int func, uint64_t ns)
{
	if (f->env->json) {
		json_call(f, ev, func, ns);
		return;
	}
	if (!f->listed) {
		fprintf(f->env->out, "%-10s %-16s %-7s %12s %18s %s\n", "TIME(s)", "COMM", "PID", "LAT(us)",
		       "RVAL", "FUNC");
		f->listed = true;
	}
	fprintf(f->env->out, "%-10.6f %-16.16s %-7d %12.2f ", (ev->ts - f->t0) / 1e9,
	       ft_tasks_comm(f->env->tasks, ev->common_pid), ev->common_pid, ns / 1e3);
	if (ev->fc.has_ret)
		fprintf(f->env->out, "%18lld ", ev->fc.ret);
	else
		fprintf(f->env->out, "%18s ", "-");
	fprintf(f->env->out, "%s\n", f->fns->fn[func].name);
}

/* done - one call of @func took @ns */
static void done(struct funclat *f, const struct ft_event *ev, int func, uint64_t ns)
{
	ft_hset_add(&f->h, &f->h.e[func], ns);
	ft_env_latency(f->env, ns, ev->ts, ev->common_pid, ev->cpu);
	if (f->min_set && ns >= f->min_us * 1e3)
		slow_call(f, ev, func, ns);
}

/*
 * pop - a return of @func: pop the thread's stack down to its entry and return the
 * entry's time, or 0 when the entry is not there
 */
static uint64_t pop(struct funclat *f, const struct ft_event *ev, int func)
{
	struct fstack *st = ft_tab_find(&f->threads, ev->common_pid);
	int i;

	for (i = st ? st->depth - 1 : -1; i >= 0; i--)
		if (st->call[i].func == func)
			break;
	if (i < 0)
		return 0;
	/* calls above it never returned in the trace (longjmp, lost return probe) */
	f->unpaired += st->depth - 1 - i;
	st->depth = i;
	return st->call[i].ts;
}

/* call_entry - an entry: push it on the thread's stack */
static void call_entry(struct funclat *f, const struct ft_event *ev, int func)
{
	struct fstack *st = ft_tab_get(&f->threads, ev->common_pid);

	if (!st)
		return;
	if (st->depth >= FSTACK_DEPTH) {
		f->too_deep++;
		return;
	}
	st->call[st->depth].func = func;
	st->call[st->depth++].ts = ev->ts;
}

/*
 * funclat_tracepoints - task_rename, for --min-us's COMM: an exec names the command
 * (its calls alone are traced: no switch carries its name, and it may be gone before
 * /proc is read)
 */
static struct ft_tp *funclat_tracepoints(void *priv)
{
	struct funclat *f = priv;

	if (!f->min_set)
		return NULL;
	ft_tasks_rename_tp(&f->ren);
	return &f->ren;
}

/* funclat_event - pair entries and returns */
static void funclat_event(void *priv, const struct ft_event *ev)
{
	struct funclat *f = priv;
	uint64_t t0;
	int func;

	if (ev->type == FT_EV_LOST) {
		unsigned int i;

		for (i = 0; i < f->threads.n; i++)
			f->dropped += ((struct fstack *)ft_tab_at(&f->threads, i))->depth;
		ft_tab_clear(&f->threads);
		return;
	}
	if (ev->type != FT_EV_FUNC)
		return;	/* task_rename: the pipeline notes it in the task table */
	if (!f->t0)
		f->t0 = ev->ts;
	func = ev->fc.func >= 0 ? ev->fc.func : ft_funcs_find(f->fns, ev->fc.ip);
	if (func < 0 || func >= f->fns->n)
		return;
	switch (ev->fc.kind) {
	case FT_FC_ENTRY:
	case FT_FC_GRAPH_ENTRY:
		call_entry(f, ev, func);
		break;
	case FT_FC_EXIT:
	case FT_FC_GRAPH_EXIT:
		t0 = pop(f, ev, func);
		/* function_graph's return carries its own call time: no entry needed */
		if (ev->fc.has_times)
			done(f, ev, func, ev->fc.rettime > ev->fc.calltime ?
			     ev->fc.rettime - ev->fc.calltime : 0);
		else if (t0)
			done(f, ev, func, ev->ts > t0 ? ev->ts - t0 : 0);
		else
			f->unpaired++;
		break;
	}
}

/* report_json - the same data as JSON */
static void report_json(struct funclat *f, struct ft_json *j, const struct ft_hview *all)
{
	ft_json_str(j, "method", ft_fmethod_name(f->fns->used));
	ft_hist_json(j, "total", &f->h.total, f->unit);
	ft_hset_json(&f->h, j, "functions", all);
	ft_json_u64(j, "unpaired", f->unpaired);
	ft_json_u64(j, "dropped_after_loss", f->dropped);
	ft_json_u64(j, "too_deep", f->too_deep);
}

/* funclat_report - one histogram (or one per function with -F) */
static void funclat_report(void *priv, struct ft_report *r)
{
	struct funclat *f = priv;
	struct ft_hview v;
	bool kernel = false;
	int i;

	if (ft_hset_view(&f->h, &v, r->json ? NULL : ft_hset_timed, NULL)) {
		ft_err("out of memory");
		goto done;
	}
	if (r->json) {
		report_json(f, r->json, &v);
		goto done;
	}
	if (f->listed)
		fputc('\n', r->f);
	if (f->per_func)
		ft_hset_print(&f->h, r->f, &v);
	else
		ft_hset_print_hist(&f->h, r->f, &f->h.total);
	for (i = 0; i < f->fns->n; i++)
		kernel |= f->fns->fn[i].kind == FT_FK_KERNEL;
	fprintf(r->f, "funclat: %d function%s", f->fns->n, f->fns->n == 1 ? "" : "s");
	if (kernel)
		fprintf(r->f, ", kernel ones through %s", ft_fmethod_name(f->fns->used));
	if (f->unpaired || f->dropped || f->too_deep)
		fprintf(r->f, "; %llu returns without their entry, %llu open calls dropped after lost "
			"events, %llu calls nested deeper than %d", f->unpaired, f->dropped,
			f->too_deep, FSTACK_DEPTH);
	fputc('\n', r->f);
done:
	free(v.e);
}

/* funclat_reset - the next interval's histograms and counts (calls under way stay) */
static void funclat_reset(void *priv)
{
	struct funclat *f = priv;

	ft_hset_reset(&f->h, false);
	f->unpaired = f->dropped = f->too_deep = 0;
}

/*
 * funclat_metrics - one series of ftscope_funclat_seconds per function probed,
 * labelled function="NAME" (they sum to the total the report prints without -F)
 */
static void funclat_metrics(void *priv, struct ft_metrics *m)
{
	struct funclat *f = priv;

	ft_hset_metrics(&f->h, m, "funclat", "function", NULL, NULL, 0);
}

/* funclat_fini - free everything */
static void funclat_fini(void *priv)
{
	struct funclat *f = priv;

	ft_tab_fini(&f->threads);
	ft_hset_fini(&f->h);
}

/* funclat_free - the patterns, after the run */
static void funclat_free(void *priv)
{
	struct funclat *f = priv;

	ft_func_req_free(&f->req);
}

const struct ft_analyzer ft_funclat = {
	.cli = {
		.name		= "funclat",
		.latency	= "call",
		.summary	= "function latency histograms: kernel, user and system calls (BCC funclatency)",
		.synopsis	= "PATTERN...",
		.usage		= "  PATTERN              vfs_read, vfs_* (kernel); /path/bin:func, lib:func, c:malloc\n"
				  "                       (user, globs allowed); syscall:NAME (system calls)\n"
				  "  -u, --microseconds   histogram in microseconds (default: nanoseconds)\n"
				  "  -m, --milliseconds   histogram in milliseconds\n"
				  "  -F, --function       one histogram per function\n"
				  "  -l, --nested         nested and recursive calls (always on: per-thread stack)\n"
				  "      --min-us N       list each call of N us or more, 0: all (funcslower)\n"
				  "      --method M       kernel functions: graph, kprobe or auto (default)\n"
				  "      --max-funcs N    refuse patterns matching more than N functions (256)\n",
		.examples	= "  ftscope funclat vfs_read -d 5            # kernel function, whole system\n"
				  "  ftscope funclat -u c:malloc -p 1234      # libc malloc of one process\n"
				  "  ftscope funclat -F './app:handle_*' -- ./app   # each matching function\n"
				  "  ftscope funclat syscall:nanosleep -- sleep 1\n"
				  "  ftscope funclat --min-us 1000 vfs_fsync  # list calls slower than 1 ms\n",
		.shortopts	= "umFl",
		.longopts	= funclat_longopts,
		.parse_opt	= funclat_parse_opt,
		.arg		= funclat_arg,
	},
	.need		= 0,
	.priv_size	= sizeof(struct funclat),
	.functions	= funclat_functions,
	.init		= funclat_init,
	.tracepoints	= funclat_tracepoints,
	.event		= funclat_event,
	.report		= funclat_report,
	.reset		= funclat_reset,
	.metrics	= funclat_metrics,
	.fini		= funclat_fini,
	.free		= funclat_free,
};
