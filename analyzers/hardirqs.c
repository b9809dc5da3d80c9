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
#include "analyzers/irqs.h"
#include "lib/util.h"
#include "output/hset.h"
#include "output/json.h"

/*
 * The handlers (an irqaction's name, over all CPUs) are the members of a set: key the
 * last line each was seen on, n[0] its entries, hist its paired handler times.
 */

/* The handler running on a CPU. */
struct running {
	uint64_t	ts;
	int		irq, h;		/* h: index in the set, -1 when none runs */
};

struct hardirqs {
	struct ft_irq_opts	o;		/* first: ft_irq_parse_opt's */
	const struct ft_env	*env;
	struct ft_tp		entry, exit;
	struct ft_hset		h;
	struct running		*run;		/* per CPU */
	int			ncpus;
	unsigned long long	unpaired;	/* exits without their entry */
	unsigned long long	dropped;	/* entries forgotten after lost events */
	unsigned long long	overrun;	/* entries followed by another entry */
};

static const struct option hardirqs_longopts[] = {
	FT_IRQ_LONGOPTS,
	{ 0 }
};

/* ft_irq_parse_opt - -N, --count, --dist (BCC's -N, -C, -d): hardirqs' and softirqs' */
int ft_irq_parse_opt(void *priv, int opt, const char *arg)
{
	struct ft_irq_opts *o = priv;

	switch (opt) {
	case 'N': o->unit = &ft_unit_ns; return 0;
	case FT_IRQ_OPT_COUNT: o->count = true; return 0;
	case FT_IRQ_OPT_DIST: o->dist = true; return 0;
	}
	return -1;
}

/* ft_irq_check - --count or --dist, not both */
int ft_irq_check(void *priv, const struct ft_env *env)
{
	const struct ft_irq_opts *o = priv;

	if (o->count && o->dist) {
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
	if (!x->o.unit)
		x->o.unit = &ft_unit_us;
	x->ncpus = env->ncpus > 0 ? env->ncpus : 1;
	x->run = malloc(x->ncpus * sizeof(*x->run));
	if (!x->run) {
		ft_err("out of memory");
		return -1;
	}
	for (i = 0; i < x->ncpus; i++)
		x->run[i].h = -1;
	x->h = (struct ft_hset){ .unit = x->o.unit, .label = "hardirq", .name_key = "name",
				 .key_key = "irq", .counts = true,
				 .style = FT_HS_TIGHT | (x->o.count ? FT_HS_COUNT : 0) };
	return 0;
}

/* entry - a handler starts on ev->cpu: the handler of its name, its line the last seen */
static void entry(struct hardirqs *x, const struct ft_event *ev, struct running *r)
{
	int irq = (int)ft_tp_num(ev, &x->entry, 0), len = 0;
	const char *name = ft_tp_str(ev, &x->entry, 1, &len);
	struct ft_hentry *e;

	if (!len) {
		name = "?";
		len = 1;
	}
	e = ft_hset_name(&x->h, name, len);
	if (!e && !(e = ft_hset_new(&x->h, irq, name, len))) {
		x->dropped++;
		return;
	}
	e->key = irq;
	e->n[0]++;
	if (r->h >= 0)
		x->overrun++;
	r->ts = ev->ts;
	r->irq = irq;
	r->h = e - x->h.e;
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
	ft_hist_add(&x->h.e[r->h].hist, x->o.unit, ev->ts > r->ts ? ev->ts - r->ts : 0);
	ft_env_latency(x->env, ev->ts > r->ts ? ev->ts - r->ts : 0, ev->ts, 0, ev->cpu);
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

/* by_value - ascending by what the row shows (BCC's order), then by name */
static int by_value(const void *a, const void *b, void *s)
{
	const struct ft_hentry *p = *(struct ft_hentry *const *)a;
	const struct ft_hentry *q = *(struct ft_hentry *const *)b;
	unsigned long long u = ft_hset_row(s, p), v = ft_hset_row(s, q);

	if (u != v)
		return u < v ? -1 : 1;
	return strcmp(p->name, q->name);
}

/* by_name - the histograms' order, BCC's (sorted keys) */
static int by_name(const void *a, const void *b, void *priv)
{
	return strcmp((*(struct ft_hentry *const *)a)->name, (*(struct ft_hentry *const *)b)->name);
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

/* hardirqs_report - the handlers seen */
static void hardirqs_report(void *priv, struct ft_report *r)
{
	struct hardirqs *x = priv;
	struct ft_hview v;

	/* BCC lists the keys its map holds */
	if (ft_hset_view(&x->h, &v, ft_hset_shown, x->o.dist ? by_name : by_value)) {
		ft_err("out of memory");
		return;
	}
	if (r->json) {
		ft_json_str(r->json, "unit", x->o.unit->short_name);
		ft_hset_json(&x->h, r->json, "hardirqs", &v);
		ft_json_u64(r->json, "unpaired_exits", x->unpaired);
		ft_json_u64(r->json, "unpaired_entries", x->overrun);
		ft_json_u64(r->json, "dropped_after_loss", x->dropped);
	} else {
		if (x->o.dist)
			ft_hset_print(&x->h, r->f, &v);
		else
			ft_hset_print_totals(&x->h, r->f, &v, "HARDIRQ", 26);
		print_notes(x, r->f);
	}
	free(v.e);
}

/* hardirqs_reset - everything starts again per interval */
static void hardirqs_reset(void *priv)
{
	struct hardirqs *x = priv;

	ft_hset_reset(&x->h, false);
	x->unpaired = x->overrun = x->dropped = 0;
}

/*
 * hardirqs_metrics - the handler times as series of ftscope_hardirqs_seconds, one per
 * handler timed, labelled irq="NAME" (the histograms of --dist)
 */
static void hardirqs_metrics(void *priv, struct ft_metrics *m)
{
	struct hardirqs *x = priv;

	ft_hset_metrics(&x->h, m, "hardirqs", "irq", ft_hset_timed, NULL, 0);
}

/* hardirqs_fini - the handlers and the per-CPU state */
static void hardirqs_fini(void *priv)
{
	struct hardirqs *x = priv;

	ft_hset_fini(&x->h);
	free(x->run);
	x->run = NULL;
}

const struct ft_analyzer ft_hardirqs = {
	.cli = {
		.name		= "hardirqs",
		.latency	= "handler run",
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
		.parse_opt	= ft_irq_parse_opt,
		.check		= ft_irq_check,
	},
	.priv_size	= sizeof(struct hardirqs),
	.whole_system	= true,
	.tracepoints	= hardirqs_tracepoints,
	.init		= hardirqs_init,
	.event		= hardirqs_event,
	.report		= hardirqs_report,
	.reset		= hardirqs_reset,
	.metrics	= hardirqs_metrics,
	.fini		= hardirqs_fini,
};
