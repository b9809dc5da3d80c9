// SPDX-License-Identifier: GPL-2.0
/*
 * lock's report: the run's rows (per type and stack, address or thread) merged by what
 * the report shows (the caller: the first frame of the stack outside the tracing code,
 * __sched_text and __lock_text, as perf lock contention names it), sorted by -k, in
 * perf's table with a p99 column, --dist histograms, JSON, and the exports' series.
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/lock_int.h"
#include "analyzers/stack_syms.h"
#include "events/tasks.h"
#include "lib/util.h"
#include "output/json.h"
#include "output/metrics.h"

/* lock_find_sym - ft_kallsyms_each callback: -L's names and the locking code's sections */
int lock_find_sym(void *ctx, uint64_t addr, char type, const char *name, bool module)
{
	struct sym_find *f = ctx;
	struct lock *x = f->x;
	int i;

	if (!strcmp(name, "__sched_text_start"))
		x->sched[0] = addr;
	else if (!strcmp(name, "__sched_text_end"))
		x->sched[1] = addr;
	else if (!strcmp(name, "__lock_text_start"))
		x->locks[0] = addr;
	else if (!strcmp(name, "__lock_text_end"))
		x->locks[1] = addr;
	for (i = 0; i < f->n; i++)
		if (f->names[i] && !strcmp(f->names[i], name)) {
			x->addrs[i] = addr;
			f->names[i] = NULL;
		}
	return 0;
}

/* in_sym - bsearch's order of address @key against kallsyms symbol @elem (to the next) */
static int in_sym(const void *key, const void *elem)
{
	uint64_t a = *(const uint64_t *)key;
	const struct ft_sym *s = elem;

	return a < s->addr ? -1 : a - s->addr >= s->size;
}

/* func_at - the kernel function holding @addr and its start; NULL when none */
static const char *func_at(const struct ft_ksyms *k, uint64_t addr, uint64_t *start)
{
	const struct ft_sym *s = k->st.n ? bsearch(&addr, k->st.sym, k->st.n, sizeof(*s), in_sym)
					 : NULL;

	if (!s)
		return NULL;
	*start = s->addr;
	return k->st.names.buf + s->name;
}

/* in_lock_code - is @addr in the locking code (__sched_text, __lock_text)? */
static bool in_lock_code(const struct lock *x, uint64_t addr)
{
	return (addr >= x->sched[0] && addr < x->sched[1]) ||
	       (addr >= x->locks[0] && addr < x->locks[1]);
}

/* caller - the first frame of stack @id outside the tracing and locking code, or 0 */
static uint64_t caller(struct lock *x, uint32_t id)
{
	const char *names[MAX_FRAMES];
	uint64_t addr[MAX_FRAMES];
	int i, n = ft_kstack_names(&x->ksyms, &x->kst, id, true, names, addr, MAX_FRAMES);

	for (i = 0; i < n; i++)
		if (!in_lock_code(x, i ? addr[i] - 1 : addr[i]))
			return addr[i];
	return 0;
}

/* name_addr - "function+0xOFF" of kernel address @a into @buf ("Unknown" for 0) */
static void name_addr(struct lock *x, uint64_t a, char *buf, size_t len)
{
	uint64_t start = 0;
	const char *f = a ? func_at(&x->ksyms, a - 1, &start) : NULL;

	if (!f)
		snprintf(buf, len, "%s", a ? "[unknown]" : "Unknown");
	else if (a > start)
		snprintf(buf, len, "%s+%#llx", f, (unsigned long long)(a - start));
	else
		snprintf(buf, len, "%s", f);
}

/* Data symbols (static locks) by address, for -l's symbol column. */
struct data_sym {
	struct lk_out	*out;
	uint32_t	n;
};

/* name_lock - ft_kallsyms_each callback: a symbol at a row's lock address names it */
static int name_lock(void *ctx, uint64_t addr, char type, const char *name, bool module)
{
	struct data_sym *d = ctx;
	uint32_t i;

	for (i = 0; i < d->n; i++)
		if (d->out[i].what == addr && !d->out[i].name[0])
			snprintf(d->out[i].name, sizeof(d->out[i].name), "%s", name);
	return 0;
}

/* lock_out_free - the last merge's rows */
void lock_out_free(struct lock *x)
{
	uint32_t i;

	for (i = 0; x->out && i < x->nout; i++)
		ft_hist_fini(&x->out[i].h);
	free(x->out);
	x->out = NULL;
	x->nout = 0;
}

/* merge - the run's rows merged into the report's (x->out): by caller, address, thread */
static int merge(struct lock *x)
{
	struct ft_intern in;
	uint32_t i, n;
	uint64_t k[3];
	long id;

	lock_out_free(x);
	x->out = calloc(x->rows.n + 1, sizeof(*x->out));
	if (!x->out || ft_intern_init(&in))
		return -1;
	if (x->mode == BY_CALLER)
		ft_ksyms_need(&x->ksyms, x->env->kallsyms);
	if (x->mode == BY_CALLER && !x->sections)
		ft_kallsyms_each(x->env->kallsyms, lock_find_sym, &(struct sym_find){ .x = x });
	x->sections = true;
	for (i = 0; i < x->rows.n; i++) {
		const uint64_t *rk = ft_intern_get(&x->keys, i, &n);
		struct lk_out *o;

		if (!x->rows.e[i].hist.count)
			continue;
		k[0] = rk[0];
		k[1] = x->mode == BY_CALLER ? caller(x, (uint32_t)rk[1]) : rk[1];
		k[2] = x->stacks ? rk[1] : 0;
		id = ft_intern_put(&in, k, 3);
		if (id < 0)
			break;
		o = &x->out[id];
		if ((uint32_t)id == x->nout) {
			x->nout++;
			o->type = x->mode == BY_TASK ? -1 : (int)k[0];
			o->what = k[1];
			o->stack = (uint32_t)k[2];
		}
		ft_hist_merge(&o->h, &x->rows.e[i].hist);
	}
	ft_intern_fini(&in);
	for (i = 0; i < x->nout; i++)
		if (x->mode == BY_CALLER)
			name_addr(x, x->out[i].what, x->out[i].name, sizeof(x->out[i].name));
		else if (x->mode == BY_TASK)
			snprintf(x->out[i].name, sizeof(x->out[i].name), "%s",
				 ft_tasks_comm(x->env->tasks, (int)x->out[i].what));
	if (x->mode == BY_ADDR)
		ft_kallsyms_each(x->env->kallsyms, name_lock,
				 &(struct data_sym){ .out = x->out, .n = x->nout });
	return 0;
}

/* value - what row @o is sorted by (-k) */
static uint64_t value(const struct lock *x, const struct lk_out *o)
{
	switch (x->key) {
	case K_CONTENDED: return o->h.count;
	case K_MAX: return o->h.max_ns;
	case K_MIN: return o->h.min_ns;
	case K_AVG: return o->h.count ? o->h.sum_ns / o->h.count : 0;
	case K_P99: return ft_hist_percentile(&o->h, 0.99);
	default: return o->h.sum_ns;
	}
}

/* by_key - the largest first (perf's order), then by name */
static int by_key(const void *a, const void *b, void *priv)
{
	const struct lk_out *p = a, *q = b;
	uint64_t u = value(priv, p), v = value(priv, q);

	if (u != v)
		return u > v ? -1 : 1;
	if (p->what != q->what)
		return p->what < q->what ? -1 : 1;
	return p->type - q->type;
}

/* print_time - perf's time column: 2 decimals in the largest unit that fits, width @w */
static void print_time(FILE *f, uint64_t ns, int w)
{
	static const struct { double base; const char *unit; } t[] = {
		{ 3600e9, "h " }, { 60e9, "m " }, { 1e9, "s " }, { 1e6, "ms" }, { 1e3, "us" },
	};
	int i;

	for (i = 0; i < 5; i++)
		if (ns >= t[i].base) {
			fprintf(f, "%*.2f %s ", w - 3, ns / t[i].base, t[i].unit);
			return;
		}
	fprintf(f, "%*llu %s ", w - 3, (unsigned long long)ns, "ns");
}

/*
 * print_stack - --stack: the row's kernel stack under it, perf -v's layout; as JSON
 * (@j) the array "stack" of its frames, innermost first
 */
static void print_stack(struct lock *x, FILE *f, struct ft_json *j, uint32_t id)
{
	const char *names[MAX_FRAMES];
	uint64_t addr[MAX_FRAMES];
	int i, n = ft_kstack_names(&x->ksyms, &x->kst, id, true, names, addr, MAX_FRAMES);

	if (j)
		ft_json_arr_begin(j, "stack");
	for (i = 0; i < n; i++)
		if (j)
			ft_json_str(j, NULL, names[i]);
		else
			fprintf(f, "\t\t\t%#llx  %s\n", (unsigned long long)addr[i], names[i]);
	if (j)
		ft_json_arr_end(j);
}

/* print_table - perf lock contention's table, with a p99 column after avg wait */
static void print_table(struct lock *x, FILE *f, uint32_t n)
{
	static const char *const head[] = { "  %10s   %s\n\n", "  %16s   %s\n\n",
					     "  %10s   %s\n\n" };
	static const char *const cols[][2] = { { "type", "caller" }, { "address", "symbol" },
					       { "pid", "comm" } };
	uint32_t i;

	fprintf(f, "%10s %12s %12s %12s %12s ", "contended", "total wait", "max wait",
		"avg wait", "p99 wait");
	fprintf(f, head[x->mode], cols[x->mode][0], cols[x->mode][1]);
	for (i = 0; i < n; i++) {
		struct lk_out *o = &x->out[i];

		fprintf(f, "%10llu ", (unsigned long long)o->h.count);
		print_time(f, o->h.sum_ns, 12);
		print_time(f, o->h.max_ns, 12);
		print_time(f, o->h.sum_ns / o->h.count, 12);
		print_time(f, ft_hist_percentile(&o->h, 0.99), 12);
		if (x->mode == BY_CALLER)
			fprintf(f, "  %10s   %s\n", lk_types[o->type].name, o->name);
		else if (x->mode == BY_ADDR)
			fprintf(f, "  %016llx   %s (%s)\n", (unsigned long long)o->what, o->name,
				lk_types[o->type].name);
		else
			fprintf(f, "  %10d   %s\n", (int)o->what, o->name);
		if (x->stacks)
			print_stack(x, f, NULL, o->stack);
	}
}

/* print_dist - --dist: each row's histogram under "lock = TYPE NAME" */
static void print_dist(struct lock *x, FILE *f, uint32_t n)
{
	struct ft_hset s = { .unit = &ft_unit_us };
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct lk_out *o = &x->out[i];

		if (x->mode == BY_ADDR)
			fprintf(f, "%slock = %s %016llx %s\n", i ? "\n" : "", lk_types[o->type].name,
				(unsigned long long)o->what, o->name);
		else if (x->mode == BY_TASK)
			fprintf(f, "%stid = %d %s\n", i ? "\n" : "", (int)o->what, o->name);
		else
			fprintf(f, "%slock = %s %s\n", i ? "\n" : "", lk_types[o->type].name, o->name);
		ft_hset_print_hist(&s, f, &o->h);
	}
}

/* print_notes - what could not be timed, under the report */
static void print_notes(const struct lock *x, FILE *f, unsigned long long open)
{
	if (x->unpaired)
		fprintf(f, "lock: %llu ends without their begin (the wait began before the trace, "
			"or its begin was lost): not timed\n", x->unpaired);
	if (open)
		fprintf(f, "lock: %llu waits still under way at the end: not timed\n", open);
	if (x->dropped)
		fprintf(f, "lock: %llu waits under way when events were lost: not timed\n",
			x->dropped);
	if (x->too_deep)
		fprintf(f, "lock: %llu begins while the task already waited for %d locks: not "
			"followed\n", x->too_deep, NEST);
	if (x->repeated)
		fprintf(f, "lock: %llu begins repeated on a lock the task already waited for (a "
			"mutex spins, then sleeps): one wait, from the first\n", x->repeated);
	if (x->no_stack)
		fprintf(f, "lock: %llu waits came without their kernel stack: caller Unknown\n",
			x->no_stack);
}

/* still_open - the waits under way (not lost) */
static unsigned long long still_open(const struct lock *x)
{
	unsigned long long n = 0;
	unsigned int i;

	for (i = 0; i < x->tasks.n; i++) {
		const struct lk_task *t = ft_tab_at(&x->tasks, i);
		int j;

		for (j = 0; j < t->n; j++)
			n += !t->w[j].lost;
	}
	return n;
}

/* json_rows - the rows as objects: type, caller/address/tid, times in ns, histogram */
static void json_rows(struct lock *x, struct ft_json *j, uint32_t n)
{
	uint32_t i;

	ft_json_arr_begin(j, "rows");
	for (i = 0; i < n; i++) {
		struct lk_out *o = &x->out[i];

		ft_json_obj_begin(j, NULL);
		if (o->type >= 0)
			ft_json_str(j, "type", lk_types[o->type].name);
		if (x->mode == BY_CALLER) {
			ft_json_str(j, "caller", o->name);
		} else if (x->mode == BY_ADDR) {
			char hex[24];	/* hex: a 64-bit address is past JSON's exact integers */

			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)o->what);
			ft_json_str(j, "address", hex);
			ft_json_str(j, "symbol", o->name);
		} else {
			ft_json_i64(j, "tid", (int)o->what);
			ft_json_str(j, "comm", o->name);
		}
		ft_json_u64(j, "contended", o->h.count);
		ft_json_u64(j, "total_ns", o->h.sum_ns);
		ft_json_u64(j, "max_ns", o->h.max_ns);
		ft_json_u64(j, "min_ns", o->h.min_ns);
		ft_json_u64(j, "avg_ns", o->h.sum_ns / o->h.count);
		ft_json_u64(j, "p99_ns", ft_hist_percentile(&o->h, 0.99));
		if (x->stacks)
			print_stack(x, NULL, j, o->stack);
		if (x->dist)
			ft_hist_json(j, "hist", &o->h, &ft_unit_us);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* json_notes - the counts the text says under the report */
static void json_notes(const struct lock *x, struct ft_json *j, unsigned long long open)
{
	ft_json_str(j, "by", x->mode == BY_CALLER ? "caller" : x->mode == BY_ADDR ? "address" :
		    "thread");
	ft_json_u64(j, "unpaired_ends", x->unpaired);
	ft_json_u64(j, "open_at_end", open);
	ft_json_u64(j, "dropped_after_loss", x->dropped);
	ft_json_u64(j, "too_deep", x->too_deep);
	ft_json_u64(j, "repeated_begins", x->repeated);
	ft_json_u64(j, "filtered", x->filtered);
	ft_json_u64(j, "without_stack", x->no_stack);
}

/* lock_report - the rows, sorted by -k, --top of them: text, --dist or JSON */
void lock_report(void *priv, struct ft_report *rep)
{
	struct lock *x = priv;
	unsigned long long open = rep->final ? still_open(x) : 0;
	uint32_t n;

	if (merge(x)) {
		ft_err("out of memory");
		rep->failed = true;
		return;
	}
	qsort_r(x->out, x->nout, sizeof(*x->out), by_key, x);
	n = x->top && (uint32_t)x->top < x->nout ? (uint32_t)x->top : x->nout;
	if (rep->json) {
		json_notes(x, rep->json, open);
		json_rows(x, rep->json, n);
	} else {
		if (x->dist)
			print_dist(x, rep->f, n);
		else
			print_table(x, rep->f, n);
		print_notes(x, rep->f, open);
	}
}

/*
 * lock_reset - the next interval's rows and counts: its keys (callers, addresses,
 * threads) start empty, as the rows of other analyzers do; the stacks' names stay
 */
void lock_reset(void *priv)
{
	struct lock *x = priv;

	ft_hset_reset(&x->rows, true);
	ft_intern_clear(&x->keys);
	x->unpaired = x->repeated = x->too_deep = x->dropped = x->no_stack = x->filtered = 0;
}

/* lock_metrics - a series of ftscope_lock_seconds per row, labelled type and caller */
void lock_metrics(void *priv, struct ft_metrics *m)
{
	struct lock *x = priv;
	static const char *const what[] = { "caller", "address", "tid" };
	char buf[24];
	uint32_t i;

	if (merge(x))
		return;
	for (i = 0; i < x->nout; i++) {
		struct lk_out *o = &x->out[i];
		struct ft_label l[2] = { { "type", o->type >= 0 ? lk_types[o->type].name : "all" },
					 { what[x->mode], o->name } };

		if (x->mode != BY_CALLER) {
			snprintf(buf, sizeof(buf), x->mode == BY_ADDR ? "%llx" : "%llu",
				 (unsigned long long)o->what);
			l[1].value = buf;
		}
		ft_metrics_hist(m, "lock", l, 2, &o->h, &ft_unit_us);
	}
}
