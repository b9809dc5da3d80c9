// SPDX-License-Identifier: GPL-2.0
/*
 * softirqs: time per soft interrupt vector, as BCC's softirqs, from irq:softirq_entry
 * and irq:softirq_exit (vec); and, where the kernel has irq:softirq_raise, the
 * latency from a vector's raise to the start of its handler.
 *
 *   softirq_raise(cpu, v)  ...  softirq_entry(cpu, v)          softirq_exit(cpu, v)
 *        |--- raise -> entry ---|------------ handler time ------------|
 *
 * Softirqs do not nest on one CPU: an entry is paired with the next exit on the same
 * CPU for the same vector (its time includes the hard interrupts that hit it, as in
 * BCC). A raise marks the vector pending on its own CPU (raise_softirq always does):
 * the first raise not yet served starts the latency, the next entry of that vector on
 * that CPU ends it. The kernel clears a CPU's whole pending mask before it runs the
 * vectors it read (handle_softirqs), with interrupts on again before the first entry:
 * a raise of a vector still waiting in that batch is for the next one (the restart,
 * or ksoftirqd). So the last raise that came while the vector was pending is kept; an
 * entry with nothing pending takes it (seen on 6.18, 5 times in 16 runs of 2000
 * writes: SCHED raised again before its entry, then entered twice, the second 7-22 us
 * after that raise); a raise after the entry drops it (a repeat from before the
 * clear). Entries with no raise seen (raised before the trace began) are counted
 * apart. A CPU that lost events forgets what was open on it.
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "analyzers/irqs.h"
#include "lib/util.h"
#include "output/hset.h"
#include "output/json.h"

/* Vectors: the kernel's order (include/linux/interrupt.h), BCC's lower-case names. */
#define NVEC	16
static const char *const vec_names[] = {
	"hi", "timer", "net_tx", "net_rx", "block", "irq_poll", "tasklet", "sched",
	"hrtimer", "rcu",
};
#define NNAMED	((int)(sizeof(vec_names) / sizeof(vec_names[0])))

/* One CPU: the vector running, the first unserved raise of each vector, and repeats. */
struct cpu_state {
	uint64_t	ts;		/* entry of the running vector */
	int		vec;		/* -1: none runs */
	uint32_t	pending;	/* vectors raised and not yet entered */
	uint64_t	raised[NVEC];	/* their first raise */
	uint32_t	again;		/* pending vectors raised again */
	uint32_t	next;		/* entered vectors whose repeat may start the next run */
	uint64_t	repeat[NVEC];	/* the last raise of those (again | next) */
};

struct softirqs {
	struct ft_irq_opts	o;		/* first: ft_irq_parse_opt's */
	const struct ft_env	*env;
	struct ft_tp		entry, exit, raise;
	bool			no_raise;
	bool			have_raise;	/* the trace has softirq_raise */
	struct ft_hset		time;		/* handler times per vector, n[0] entries */
	struct ft_hset		wait;		/* raise -> entry per vector */
	struct cpu_state	*cpu;
	int			ncpus;
	unsigned long long	unpaired;	/* exits without their entry */
	unsigned long long	overrun;	/* entries without their exit */
	unsigned long long	unraised;	/* entries with no raise seen */
	unsigned long long	dropped;	/* forgotten after lost events */
	unsigned long long	badvec;		/* vectors >= NVEC */
};

static const struct option softirqs_longopts[] = {
	FT_IRQ_LONGOPTS,
	{ "no-raise",		no_argument, NULL, FT_IRQ_OPT_NEXT },
	{ 0 }
};

/* softirqs_parse_opt - hardirqs' options (BCC's -N, -C, -d), and --no-raise */
static int softirqs_parse_opt(void *priv, int opt, const char *arg)
{
	struct softirqs *x = priv;

	if (opt != FT_IRQ_OPT_NEXT)
		return ft_irq_parse_opt(priv, opt, arg);
	x->no_raise = true;
	return 0;
}

/* softirqs_tracepoints - entry and exit; raise when the kernel has it (zeroed priv: all) */
static struct ft_tp *softirqs_tracepoints(void *priv)
{
	struct softirqs *x = priv;

	x->entry = (struct ft_tp){ .system = "irq", .name = "softirq_entry",
				   .field = { "vec" } };
	x->exit = (struct ft_tp){ .system = "irq", .name = "softirq_exit",
				  .field = { "vec" } };
	x->raise = (struct ft_tp){ .system = "irq", .name = "softirq_raise",
				   .field = { "vec" }, .optional = true };
	x->entry.next = &x->exit;
	if (!x->no_raise)
		x->exit.next = &x->raise;
	return &x->entry;
}

/* vec_name - BCC's name of vector @v, or "vec N" beyond the known ones */
static const char *vec_name(int v, char *buf, size_t len)
{
	if (v < NNAMED)
		return vec_names[v];
	snprintf(buf, len, "vec %d", v);
	return buf;
}

/* softirqs_init - nothing running, nothing pending */
static int softirqs_init(void *priv, const struct ft_env *env)
{
	struct softirqs *x = priv;
	int i;

	x->env = env;
	if (!x->o.unit)
		x->o.unit = &ft_unit_us;
	x->have_raise = !x->no_raise && x->raise.id >= 0;
	x->ncpus = env->ncpus > 0 ? env->ncpus : 1;
	x->cpu = calloc(x->ncpus, sizeof(*x->cpu));
	if (!x->cpu) {
		ft_err("out of memory");
		return -1;
	}
	for (i = 0; i < x->ncpus; i++)
		x->cpu[i].vec = -1;
	x->time = (struct ft_hset){ .unit = x->o.unit, .label = "softirq", .name_key = "name",
				    .key_key = "vec", .counts = true,
				    .style = FT_HS_TIGHT | (x->o.count ? FT_HS_COUNT : 0) };
	x->wait = (struct ft_hset){ .unit = x->o.unit, .label = "softirq raise -> entry",
				    .name_key = "name", .key_key = "vec" };
	for (i = 0; i < NVEC; i++) {
		char buf[16];

		if (!ft_hset_new(&x->time, i, vec_name(i, buf, sizeof(buf)), -1) ||
		    !ft_hset_new(&x->wait, i, x->time.e[i].name, -1)) {
			ft_err("out of memory");
			return -1;
		}
	}
	return 0;
}

/* vec_of - the record's vector, or -1 (counted) when out of range */
static int vec_of(struct softirqs *x, const struct ft_event *ev, const struct ft_tp *tp)
{
	long long v = ft_tp_num(ev, tp, 0);

	if (v < 0 || v >= NVEC) {
		x->badvec++;
		return -1;
	}
	return (int)v;
}

/* entry - vector @v starts on this CPU: its raise latency ends */
static void entry(struct softirqs *x, const struct ft_event *ev, struct cpu_state *c, int v)
{
	x->time.e[v].n[0]++;
	if (c->vec >= 0)
		x->overrun++;
	c->vec = v;
	c->ts = ev->ts;
	if (!x->have_raise)
		return;
	if (c->pending & (1u << v)) {
		c->pending &= ~(1u << v);
		/* a repeat may have come after the kernel cleared its mask: keep it */
		c->next = (c->next & ~(1u << v)) | (c->again & (1u << v));
		c->again &= ~(1u << v);
		ft_hist_add(&x->wait.e[v].hist, x->o.unit,
			    ev->ts > c->raised[v] ? ev->ts - c->raised[v] : 0);
	} else if (c->next & (1u << v)) {
		c->next &= ~(1u << v);
		ft_hist_add(&x->wait.e[v].hist, x->o.unit,
			    ev->ts > c->repeat[v] ? ev->ts - c->repeat[v] : 0);
	} else {
		x->unraised++;
	}
}

/* pend - vector @v raised on this CPU: pending from its first raise, repeats kept */
static void pend(struct cpu_state *c, const struct ft_event *ev, int v)
{
	if (c->pending & (1u << v)) {
		c->again |= 1u << v;
		c->repeat[v] = ev->ts;
		return;
	}
	c->pending |= 1u << v;
	c->raised[v] = ev->ts;	/* a kept repeat then goes at the entry: it was before the clear */
}

/* leave - vector @v returns on this CPU: its time, when its entry is the one open */
static void leave(struct softirqs *x, const struct ft_event *ev, struct cpu_state *c, int v)
{
	if (c->vec != v) {
		x->unpaired++;
		c->vec = -1;
		return;
	}
	ft_hist_add(&x->time.e[v].hist, x->o.unit, ev->ts > c->ts ? ev->ts - c->ts : 0);
	ft_env_latency(x->env, ev->ts > c->ts ? ev->ts - c->ts : 0, ev->ts, 0, ev->cpu);
	c->vec = -1;
}

/* lost - events were lost on this CPU: forget what was open there */
static void lost(struct softirqs *x, struct cpu_state *c)
{
	x->dropped += (c->vec >= 0) + __builtin_popcount(c->pending);
	c->vec = -1;
	c->pending = c->again = c->next = 0;
}

/* softirqs_event - one record, in time order */
static void softirqs_event(void *priv, const struct ft_event *ev)
{
	struct softirqs *x = priv;
	struct cpu_state *c;
	int v;

	if (ev->cpu < 0 || ev->cpu >= x->ncpus)
		return;
	c = &x->cpu[ev->cpu];
	if (ev->type == FT_EV_LOST) {
		lost(x, c);
	} else if (ft_tp_is(ev, &x->entry)) {
		if ((v = vec_of(x, ev, &x->entry)) >= 0)
			entry(x, ev, c, v);
	} else if (ft_tp_is(ev, &x->exit)) {
		if ((v = vec_of(x, ev, &x->exit)) >= 0)
			leave(x, ev, c, v);
	} else if (x->have_raise && ft_tp_is(ev, &x->raise)) {
		if ((v = vec_of(x, ev, &x->raise)) >= 0)
			pend(c, ev, v);
	}
}

/* by_value - ascending by what the row shows (BCC's order), then by vector */
static int by_value(const void *a, const void *b, void *s)
{
	const struct ft_hentry *p = *(struct ft_hentry *const *)a;
	const struct ft_hentry *q = *(struct ft_hentry *const *)b;
	unsigned long long u = ft_hset_row(s, p), v = ft_hset_row(s, q);

	if (u != v)
		return u < v ? -1 : 1;
	return p->key - q->key;
}

/* entered - a vector entered or timed: the series exported */
static bool entered(const struct ft_hset *s, const struct ft_hentry *e)
{
	return e->n[0] || e->hist.count;
}

/* print_notes - the lines under a report: what could not be paired */
static void print_notes(const struct softirqs *x, FILE *f)
{
	if (x->unpaired || x->overrun)
		fprintf(f, "softirqs: %llu exits without their entry, %llu entries without their "
			"exit (the trace began or ended inside a handler, or events were lost)\n",
			x->unpaired, x->overrun);
	if (x->dropped)
		fprintf(f, "softirqs: %llu handlers or raises not timed after lost events\n",
			x->dropped);
	if (x->badvec)
		fprintf(f, "softirqs: %llu records with a vector above %d ignored\n", x->badvec,
			NVEC - 1);
}

/* print_raise - the raise -> entry latency per vector: a table, or histograms with --dist */
static void print_raise(const struct softirqs *x, FILE *f, const struct ft_hview *w)
{
	double d = (double)x->o.unit->div;
	char head[3][24];
	unsigned int i;

	if (x->o.dist) {
		ft_hset_print(&x->wait, f, w);
	} else if (w->n) {
		snprintf(head[0], sizeof(head[0]), "AVG_%s", x->o.unit->label);
		snprintf(head[1], sizeof(head[1]), "P99_%s", x->o.unit->label);
		snprintf(head[2], sizeof(head[2]), "MAX_%s", x->o.unit->label);
		fprintf(f, "\n%-16s %11s %11s %11s %11s\n", "RAISE->ENTRY", "COUNT", head[0],
			head[1], head[2]);
	}
	for (i = 0; !x->o.dist && i < w->n; i++) {
		const struct ft_hist *h = &w->e[i]->hist;

		fprintf(f, "%-16s %11llu %11.1f %11.1f %11.1f\n", w->e[i]->name,
			(unsigned long long)h->count, h->sum_ns / h->count / d,
			ft_hist_percentile(h, 0.99) / d, h->max_ns / d);
	}
	if (x->unraised)
		fprintf(f, "softirqs: %llu entries with no raise seen (raised before the trace "
			"began)\n", x->unraised);
}

/* softirqs_json - one object per vector, then the raise latencies */
static void softirqs_json(const struct softirqs *x, struct ft_json *j, const struct ft_hview *v,
			  const struct ft_hview *w)
{
	ft_json_str(j, "unit", x->o.unit->short_name);
	ft_hset_json(&x->time, j, "softirqs", v);
	if (x->have_raise) {
		ft_hset_json(&x->wait, j, "raise_to_entry", w);
		ft_json_u64(j, "unraised_entries", x->unraised);
	}
	ft_json_u64(j, "unpaired_exits", x->unpaired);
	ft_json_u64(j, "unpaired_entries", x->overrun);
	ft_json_u64(j, "dropped_after_loss", x->dropped);
	ft_json_u64(j, "bad_vectors", x->badvec);
}

/* softirqs_report - the vectors seen */
static void softirqs_report(void *priv, struct ft_report *r)
{
	struct softirqs *x = priv;
	struct ft_hview v = { 0 }, w = { 0 };

	if (ft_hset_view(&x->time, &v, ft_hset_shown, x->o.dist ? NULL : by_value) ||
	    ft_hset_view(&x->wait, &w, ft_hset_timed, NULL)) {
		ft_err("out of memory");
	} else if (r->json) {
		softirqs_json(x, r->json, &v, &w);
	} else {
		if (x->o.dist)
			ft_hset_print(&x->time, r->f, &v);
		else
			ft_hset_print_totals(&x->time, r->f, &v, "SOFTIRQ", 16);
		if (x->have_raise)
			print_raise(x, r->f, &w);
		print_notes(x, r->f);
	}
	free(v.e);
	free(w.e);
}

/* softirqs_reset - everything starts again per interval */
static void softirqs_reset(void *priv)
{
	struct softirqs *x = priv;

	ft_hset_reset(&x->time, false);
	ft_hset_reset(&x->wait, false);
	x->unpaired = x->overrun = x->unraised = x->dropped = x->badvec = 0;
}

/*
 * softirqs_metrics - handler times per vector timed, ftscope_softirqs_seconds
 * {vector="NAME"}; then, when the trace has softirq_raise, the raise -> entry
 * latencies as ftscope_softirqs_wait_seconds
 */
static void softirqs_metrics(void *priv, struct ft_metrics *m)
{
	struct softirqs *x = priv;

	/* entered, even if not yet timed: a vector with a raise -> entry comes here
	   first, so the main metric leads every emission that has any */
	ft_hset_metrics(&x->time, m, "softirqs", "vector", entered, NULL, 0);
	if (x->have_raise)
		ft_hset_metrics(&x->wait, m, "softirqs_wait", "vector", ft_hset_timed, NULL, 0);
}

/* softirqs_fini - the histograms and the per-CPU state */
static void softirqs_fini(void *priv)
{
	struct softirqs *x = priv;

	ft_hset_fini(&x->time);
	ft_hset_fini(&x->wait);
	free(x->cpu);
	x->cpu = NULL;
}

const struct ft_analyzer ft_softirqs = {
	.cli = {
		.name		= "softirqs",
		.latency	= "softirq run",
		.summary	= "time per soft interrupt vector, and raise -> entry latency (BCC softirqs)",
		.usage		= "  -N, --nanoseconds    times in nanoseconds (default: microseconds)\n"
				  "      --count          count handler runs instead of timing them\n"
				  "      --dist           one histogram of handler times per vector (BCC's -d)\n"
				  "      --no-raise       leave out irq:softirq_raise and the raise -> entry\n"
				  "                       latency (shown whenever the kernel has the event)\n"
				  "  BCC's -d is --dist here: -d is the duration and -C the CPUs (BCC's -c CPU),\n"
				  "  as in every ftscope command. The whole system is traced (soft interrupts\n"
				  "  belong to no task): a command only bounds the run.\n",
		.examples	= "  ftscope softirqs -d 5                # time per vector, and raise latency\n"
				  "  ftscope softirqs --dist -d 5         # histograms per vector\n"
				  "  ftscope softirqs -NT 1 10            # each second in ns, timestamped\n"
				  "  ftscope softirqs --json -- ping -c 100 -i 0.01 127.0.0.1\n"
				  "  ftscope record -o si.dat softirqs -d 5 && ftscope softirqs -i si.dat\n",
		.shortopts	= "N",
		.longopts	= softirqs_longopts,
		.parse_opt	= softirqs_parse_opt,
		.check		= ft_irq_check,
	},
	.priv_size	= sizeof(struct softirqs),
	.whole_system	= true,
	.tracepoints	= softirqs_tracepoints,
	.init		= softirqs_init,
	.event		= softirqs_event,
	.report		= softirqs_report,
	.reset		= softirqs_reset,
	.metrics	= softirqs_metrics,
	.fini		= softirqs_fini,
};
