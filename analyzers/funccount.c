// SPDX-License-Identifier: GPL-2.0
/*
 * funccount: calls per kernel function, as BCC's funccount, from the function
 * tracer's own records (ftrace:function) in the run's instance, filtered in the
 * kernel with set_ftrace_filter to the functions the patterns match. Each record is
 * one call; the report lists the functions by count, ascending, as BCC does.
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "output/json.h"

struct funccount {
	const struct ft_env	*env;
	struct ft_func_req	req;		/* the patterns, method and limit */
	const struct ft_funcs	*fns;		/* as resolved (set at init) */
	long			top;		/* --top N: the N most called (0: all) */
	unsigned long long	*count;		/* per function */
	unsigned long long	unknown;	/* records whose ip is none of ours */
};

enum { OPT_TOP = 0x100, OPT_MAX_FUNCS };

static const struct option funccount_longopts[] = {
	{ "top",	required_argument, NULL, OPT_TOP },
	{ "max-funcs",	required_argument, NULL, OPT_MAX_FUNCS },
	{ 0 }
};

/* funccount_parse_opt - the options only funccount has */
static int funccount_parse_opt(void *priv, int opt, const char *arg)
{
	struct funccount *f = priv;

	switch (opt) {
	case OPT_TOP:
		return ft_parse_long(arg, 1, 1000000, &f->top) ? -1 : 0;
	case OPT_MAX_FUNCS:
		return ft_func_req_max(&f->req, arg);
	}
	return -1;
}

/* funccount_arg - a pattern */
static int funccount_arg(void *priv, const char *arg)
{
	return ft_func_req_arg(&((struct funccount *)priv)->req, arg);
}

/* funccount_functions - the function tracer, filtered to the patterns */
static const struct ft_func_req *funccount_functions(void *priv)
{
	struct funccount *f = priv;

	f->req.method = FT_FM_FUNCTION;
	return &f->req;
}

/* funccount_init - one counter per function */
static int funccount_init(void *priv, const struct ft_env *env)
{
	struct funccount *f = priv;

	f->env = env;
	f->fns = env->funcs;
	f->count = calloc(f->fns->n ? f->fns->n : 1, sizeof(*f->count));
	if (!f->count) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/* funccount_event - one call */
static void funccount_event(void *priv, const struct ft_event *ev)
{
	struct funccount *f = priv;
	int func;

	if (ev->type != FT_EV_FUNC || ev->fc.kind != FT_FC_FUNCTION)
		return;
	func = ft_funcs_find(f->fns, ev->fc.ip);
	if (func >= 0 && func < f->fns->n)
		f->count[func]++;
	else
		f->unknown++;
}

/* by_count - ascending by count (@counts), then by function index (BCC's order, stable) */
static int by_count(const void *a, const void *b, void *counts)
{
	const unsigned long long *c = counts;
	int x = *(const int *)a, y = *(const int *)b;

	if (c[x] != c[y])
		return c[x] < c[y] ? -1 : 1;
	return x - y;
}

/* funccount_report - "FUNC COUNT" rows, ascending */
static void funccount_report(void *priv, struct ft_report *r)
{
	struct funccount *f = priv;
	int *order = malloc((f->fns->n ? f->fns->n : 1) * sizeof(*order)), i, n = 0, from;

	if (!order) {
		ft_err("out of memory");
		return;
	}
	for (i = 0; i < f->fns->n; i++)
		if (f->count[i])
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), by_count, f->count);
	from = f->top && n > f->top ? n - (int)f->top : 0;
	if (r->json) {
		ft_json_arr_begin(r->json, "functions");
		for (i = from; i < n; i++) {
			ft_json_obj_begin(r->json, NULL);
			ft_json_str(r->json, "name", f->fns->fn[order[i]].name);
			ft_json_u64(r->json, "count", f->count[order[i]]);
			ft_json_obj_end(r->json);
		}
		ft_json_arr_end(r->json);
		ft_json_u64(r->json, "unmatched", f->unknown);
	} else {
		fprintf(r->f, "%-36s %8s\n", "FUNC", "COUNT");
		for (i = from; i < n; i++)
			fprintf(r->f, "%-36s %8llu\n", f->fns->fn[order[i]].name, f->count[order[i]]);
		if (r->final)
			fprintf(r->f, "funccount: %d functions matched, %d called%s\n", f->fns->n, n,
				f->unknown ? "; some records named no traced function" : "");
	}
	free(order);
}

/* funccount_reset - the next interval's counts */
static void funccount_reset(void *priv)
{
	struct funccount *f = priv;

	memset(f->count, 0, f->fns->n * sizeof(*f->count));
	f->unknown = 0;
}

/* funccount_fini - the counters */
static void funccount_fini(void *priv)
{
	struct funccount *f = priv;

	free(f->count);
	f->count = NULL;
}

/* funccount_free - the patterns */
static void funccount_free(void *priv)
{
	ft_func_req_free(&((struct funccount *)priv)->req);
}

const struct ft_analyzer ft_funccount = {
	.cli = {
		.name		= "funccount",
		.summary	= "calls per kernel function, from the function tracer (BCC funccount)",
		.synopsis	= "PATTERN...",
		.usage		= "  PATTERN...           kernel functions: a name or a glob (vfs_*, tcp_send*)\n"
				  "  --top N              only the N most called\n"
				  "  --max-funcs N        refuse patterns matching more than N functions (256)\n",
		.examples	= "  ftscope funccount 'vfs_*' -d 5           # calls of the VFS functions, 5 s\n"
				  "  ftscope funccount 'tcp_*' 1 10            # per second, 10 times\n"
				  "  ftscope funccount --top 5 'ext4_*' -- make  # the 5 most called, during a build\n",
		.shortopts	= "",
		.longopts	= funccount_longopts,
		.parse_opt	= funccount_parse_opt,
		.arg		= funccount_arg,
	},
	.priv_size	= sizeof(struct funccount),
	.functions	= funccount_functions,
	.init		= funccount_init,
	.event		= funccount_event,
	.report		= funccount_report,
	.reset		= funccount_reset,
	.fini		= funccount_fini,
	.free		= funccount_free,
};
