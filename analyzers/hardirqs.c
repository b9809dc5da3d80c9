// SPDX-License-Identifier: GPL-2.0
/*
 * hardirqs: time and count per hard interrupt handler, as BCC's hardirqs, from
 * irq:irq_handler_entry (irq, name) and irq:irq_handler_exit (irq, ret).
 *
 *   irq_handler_entry(cpu, irq, name)   irq_handler_exit(cpu, irq)
 *            |------------ handler time ------------|
 *
 * An entry is paired with the next exit on the same CPU for the same irq: handlers
 * run with interrupts off and do not nest on one CPU (since 2.6.35, IRQF_DISABLED
 * gone). A shared line calls each of its handlers between its own entry and exit.
 * Handlers are keyed by name, as BCC does. Counts come from entries; times from
 * paired entry/exit. An exit with no open entry on its CPU (the trace began inside
 * the handler) is counted apart, and an open entry is forgotten on a CPU that lost
 * events. The interrupts belong to no task: the whole system is traced, -C selects
 * CPUs and a command only bounds the run.
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "output/hist.h"
#include "output/json.h"
#include "output/metrics.h"

/* One handler (an irqaction's name), over all CPUs. */
struct handler {
	char			*name;
	int			irq;		/* the last line it was seen on */
	unsigned long long	count;		/* entries */
	struct ft_hist		hist;		/* paired handler times */
};

/* The handler running on a CPU. */
struct running {
	uint64_t	ts;
	int		irq, h;		/* h: index in handlers, -1 when none runs */
};

struct hardirqs {
	const struct ft_env	*env;
	struct ft_tp		entry, exit;
	const struct ft_unit	*unit;
	bool			count, dist;
	struct handler		*h;
	int			nh, cap;
	struct running		*run;		/* per CPU */
	int			ncpus;
	unsigned long long	unpaired;	/* exits without their entry */
	unsigned long long	dropped;	/* entries forgotten after lost events */
	unsigned long long	overrun;	/* entries followed by another entry */
};

enum { OPT_COUNT = 0x100, OPT_DIST };

static const struct option hardirqs_longopts[] = {
	{ "nanoseconds",	no_argument, NULL, 'N' },
	{ "count",		no_argument, NULL, OPT_COUNT },
	{ "dist",		no_argument, NULL, OPT_DIST },
	{ 0 }
};

/* hardirqs_parse_opt - -N, --count, --dist (BCC's -N, -C, -d) */
static int hardirqs_parse_opt(void *priv, int opt, const char *arg)
{
	struct hardirqs *x = priv;

	(void)arg;
	switch (opt) {
	case 'N': x->unit = &ft_unit_ns; return 0;
	case OPT_COUNT: x->count = true; return 0;
	case OPT_DIST: x->dist = true; return 0;
	}
	return -1;
}

/* hardirqs_check - --count or --dist, not both */
static int hardirqs_check(void *priv, const struct ft_env *env)
{
	struct hardirqs *x = priv;

	if (x->count && x->dist) {
		ft_err("--count and --dist exclude each other");
		return -1;
	}
	return 0;
}

/* hardirqs_tracepoints - the handler's entry and exit (works on a zeroed priv) */
static struct ft_tp *hardirqs_tracepoints(void *priv)
{
	struct hardirqs *x = priv;

	x->entry = (struct ft_tp){ .system = "irq", .name = "irq_handler_entry",
				   .field = { "irq", "name" } };
	x->exit = (struct ft_tp){ .system = "irq", .name = "irq_handler_exit",
				  .field = { "irq" } };
	x->entry.next = &x->exit;
	return &x->entry;
}

/* hardirqs_init - no handler known, none running */
static int hardirqs_init(void *priv, const struct ft_env *env)
{
	struct hardirqs *x = priv;
	int i;

	x->env = env;
	if (!x->unit)
		x->unit = &ft_unit_us;
	x->ncpus = env->ncpus > 0 ? env->ncpus : 1;
	x->run = malloc(x->ncpus * sizeof(*x->run));
	if (!x->run) {
		ft_err("out of memory");
		return -1;
	}
	for (i = 0; i < x->ncpus; i++)
		x->run[i].h = -1;
	return 0;
}

/* handler_find - the handler @name (@len bytes) on line @irq, added when new; -1: no memory */
static int handler_find(struct hardirqs *x, int irq, const char *name, int len)
{
	struct handler *n;
	int i;

	for (i = 0; i < x->nh; i++)
		if (!strncmp(x->h[i].name, name, len) && !x->h[i].name[len]) {
			x->h[i].irq = irq;
			return i;
		}
	if (x->nh == x->cap) {
		n = realloc(x->h, (x->cap ? x->cap * 2 : 16) * sizeof(*n));
		if (!n)
			return -1;
		x->h = n;
		x->cap = x->cap ? x->cap * 2 : 16;
	}
	n = &x->h[x->nh];
	memset(n, 0, sizeof(*n));
	n->name = strndup(name, len);
	if (!n->name)
		return -1;
	n->irq = irq;
	return x->nh++;
}

/* entry - a handler starts on ev->cpu */
static void entry(struct hardirqs *x, const struct ft_event *ev, struct running *r)
{
	int irq = (int)ft_tp_num(ev, &x->entry, 0), len = 0, h;
	const char *name = ft_tp_str(ev, &x->entry, 1, &len);

	if (!len) {
		name = "?";
		len = 1;
	}
	h = handler_find(x, irq, name, len);
	if (h < 0) {
		x->dropped++;
		return;
	}
	x->h[h].count++;
	if (r->h >= 0)
		x->overrun++;
	r->ts = ev->ts;
	r->irq = irq;
	r->h = h;
}

/* leave - a handler returns on ev->cpu: its time, when its entry is the one open */
static void leave(struct hardirqs *x, const struct ft_event *ev, struct running *r)
{
	int irq = (int)ft_tp_num(ev, &x->exit, 0);

	if (r->h < 0 || r->irq != irq) {
		x->unpaired++;
		r->h = -1;
		return;
	}
	ft_hist_add(&x->h[r->h].hist, x->unit, ev->ts > r->ts ? ev->ts - r->ts : 0);
	r->h = -1;
}

/* hardirqs_event - one record, in time order */
static void hardirqs_event(void *priv, const struct ft_event *ev)
{
	struct hardirqs *x = priv;

	if (ev->cpu < 0 || ev->cpu >= x->ncpus)
		return;
	if (ev->type == FT_EV_LOST) {
		if (x->run[ev->cpu].h >= 0)
			x->dropped++;
		x->run[ev->cpu].h = -1;
	} else if (ft_tp_is(ev, &x->entry)) {
		entry(x, ev, &x->run[ev->cpu]);
	} else if (ft_tp_is(ev, &x->exit)) {
		leave(x, ev, &x->run[ev->cpu]);
	}
}

/* value - what a row shows: entries with --count, else the time in the unit */
static unsigned long long value(const struct hardirqs *x, const struct handler *h)
{
	return x->count ? h->count : h->hist.sum_ns / x->unit->div;
}

/* shown - does the report list this handler (BCC lists the keys its map holds)? */
static bool shown(const struct hardirqs *x, const struct handler *h)
{
	return x->count ? h->count > 0 : h->hist.count > 0;
}

/* by_value - ascending by what the row shows (BCC's order), then by name */
static int by_value(const void *a, const void *b, void *priv)
{
	const struct hardirqs *x = priv;
	const struct handler *p = &x->h[*(const int *)a], *q = &x->h[*(const int *)b];
	unsigned long long u = value(x, p), v = value(x, q);

	if (u != v)
		return u < v ? -1 : 1;
	return strcmp(p->name, q->name);
}

/* by_name - the histograms' order, BCC's (sorted keys) */
static int by_name(const void *a, const void *b, void *priv)
{
	const struct hardirqs *x = priv;

	return strcmp(x->h[*(const int *)a].name, x->h[*(const int *)b].name);
}

/* print_notes - the lines under a report: what could not be paired */
static void print_notes(const struct hardirqs *x, FILE *f)
{
	if (x->unpaired || x->overrun)
		fprintf(f, "hardirqs: %llu exits without their entry, %llu entries without their "
			"exit (the trace began or ended inside a handler, or events were lost)\n",
			x->unpaired, x->overrun);
	if (x->dropped)
		fprintf(f, "hardirqs: %llu handlers not timed after lost events\n", x->dropped);
}

/* hardirqs_json - one object per handler, in the text's order */
static void hardirqs_json(const struct hardirqs *x, struct ft_json *j, const int *order, int n)
{
	int i;

	ft_json_str(j, "unit", x->unit->short_name);
	ft_json_arr_begin(j, "hardirqs");
	for (i = 0; i < n; i++) {
		const struct handler *h = &x->h[order[i]];

		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "name", h->name);
		ft_json_i64(j, "irq", h->irq);
		ft_json_u64(j, "count", h->count);
		ft_json_u64(j, "total_ns", h->hist.sum_ns);
		ft_hist_json(j, "hist", &h->hist, x->unit);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_u64(j, "unpaired_exits", x->unpaired);
	ft_json_u64(j, "unpaired_entries", x->overrun);
	ft_json_u64(j, "dropped_after_loss", x->dropped);
}

/* hardirqs_text - BCC's table (HARDIRQ TOTAL_usecs) or its histograms (hardirq = NAME) */
static void hardirqs_text(const struct hardirqs *x, FILE *f, const int *order, int n)
{
	char head[32];
	int i;

	snprintf(head, sizeof(head), "TOTAL_%s", x->count ? "count" : x->unit->label);
	if (!x->dist)
		fprintf(f, "%-26s %11s\n", "HARDIRQ", head);
	for (i = 0; i < n; i++) {
		const struct handler *h = &x->h[order[i]];

		if (!x->dist) {
			fprintf(f, "%-26s %11llu\n", h->name, value(x, h));
			continue;
		}
		fprintf(f, "%shardirq = %s\n", i ? "\n" : "", h->name);
		ft_hist_print_log2(f, &h->hist, x->unit->label);
		ft_hist_print_summary(f, &h->hist, x->unit);
	}
}

/* hardirqs_report - the handlers seen; everything starts again per interval */
static void hardirqs_report(void *priv, struct ft_report *r)
{
	struct hardirqs *x = priv;
	int *order = malloc((x->nh ? x->nh : 1) * sizeof(*order)), i, n = 0;

	if (!order) {
		ft_err("out of memory");
		return;
	}
	for (i = 0; i < x->nh; i++)
		if (shown(x, &x->h[i]))
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), x->dist ? by_name : by_value, x);
	if (r->json) {
		hardirqs_json(x, r->json, order, n);
	} else {
		hardirqs_text(x, r->f, order, n);
		print_notes(x, r->f);
	}
	free(order);
	if (!r->interval)
		return;
	for (i = 0; i < x->nh; i++) {
		x->h[i].count = 0;
		ft_hist_reset(&x->h[i].hist);
	}
	x->unpaired = x->overrun = x->dropped = 0;
}

/*
 * hardirqs_metrics - the handler times as series of ftscope_hardirqs_seconds, one per
 * handler timed, labelled irq="NAME" (the histograms of --dist)
 */
static void hardirqs_metrics(void *priv, struct ft_metrics *m)
{
	struct hardirqs *x = priv;
	int i;

	for (i = 0; i < x->nh; i++) {
		struct ft_label l = { "irq", x->h[i].name };

		if (x->h[i].hist.count)
			ft_metrics_hist(m, "hardirqs", &l, 1, &x->h[i].hist, x->unit);
	}
}

/* hardirqs_fini - the handlers and the per-CPU state */
static void hardirqs_fini(void *priv)
{
	struct hardirqs *x = priv;
	int i;

	for (i = 0; i < x->nh; i++) {
		free(x->h[i].name);
		ft_hist_fini(&x->h[i].hist);
	}
	free(x->h);
	free(x->run);
	x->h = NULL;
	x->run = NULL;
	x->nh = x->cap = 0;
}

const struct ft_analyzer ft_hardirqs = {
	.cli = {
		.name		= "hardirqs",
		.summary	= "time and count per hard interrupt handler, as BCC's hardirqs",
		.usage		= "  -N, --nanoseconds    times in nanoseconds (default: microseconds)\n"
				  "      --count          count handler calls instead of timing them (BCC's -C)\n"
				  "      --dist           one histogram of handler times per handler (BCC's -d)\n"
				  "  BCC's -d and -C are --dist and --count here: -d is the duration and -C\n"
				  "  the CPUs (BCC's -c CPU), as in every ftscope command. The whole system is\n"
				  "  traced (interrupts belong to no task): a command only bounds the run.\n",
		.examples	= "  ftscope hardirqs -d 5               # time per handler, 5 seconds\n"
				  "  ftscope hardirqs --count 1 10       # calls per handler, each second, 10 times\n"
				  "  ftscope hardirqs --dist -N -C 0 -d 5  # histograms in ns, CPU 0 only\n"
				  "  ftscope hardirqs --json -- dd if=/dev/vda of=/dev/null bs=1M count=100\n"
				  "  ftscope record -o irq.dat hardirqs -d 5 && ftscope hardirqs -i irq.dat\n",
		.shortopts	= "N",
		.longopts	= hardirqs_longopts,
		.parse_opt	= hardirqs_parse_opt,
		.check		= hardirqs_check,
	},
	.priv_size	= sizeof(struct hardirqs),
	.whole_system	= true,
	.tracepoints	= hardirqs_tracepoints,
	.init		= hardirqs_init,
	.event		= hardirqs_event,
	.report		= hardirqs_report,
	.metrics	= hardirqs_metrics,
	.fini		= hardirqs_fini,
};
