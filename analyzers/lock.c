// SPDX-License-Identifier: GPL-2.0
/*
 * lock: kernel lock contention, as perf lock contention reports it, from
 * lock:contention_begin (lock_addr, flags) and lock:contention_end (lock_addr, ret).
 *
 *   contention_begin(tid, addr)   ... spinning, or asleep ...   contention_end(tid, addr)
 *            |-------------------------- wait ---------------------------|
 *
 * A wait belongs to a task, not a CPU: a mutex or rwsem waiter sleeps and may end its
 * wait on another CPU. A begin opens a wait of its task (common_pid; the idle tasks,
 * pid 0, one per CPU) on its lock address; the end of that task on that address closes
 * it. A task may wait on several locks at once (a mutex's wait_lock spinlock inside
 * the mutex wait, a spinlock in an interrupt): up to NEST of them. A second begin on
 * an address already waited for (a mutex's optimistic spin, then its sleep) keeps the
 * first, as perf does. Rows are per lock type and caller (the first kernel frame
 * outside the locking code, from the kernel stack ftrace writes after the begin),
 * per lock address (-l) or per thread (--threads). What cannot be paired (an end
 * without its begin, a wait open at the end, waits under way when events were lost)
 * is counted and said under the report, never timed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/lock_int.h"
#include "analyzers/stack_syms.h"
#include "lib/util.h"

static const char *const key_names[] = { "wait_total", "contended", "wait_max", "wait_min",
					 "avg_wait", "p99", NULL };

enum { OPT_THREADS = 0x100, OPT_TOP, OPT_STACK, OPT_DIST };

static const struct option lock_longopts[] = {
	{ "lock-addr",		no_argument,	   NULL, 'l' },
	{ "threads",		no_argument,	   NULL, OPT_THREADS },
	{ "type-filter",	required_argument, NULL, 'Y' },
	{ "lock-filter",	required_argument, NULL, 'L' },
	{ "entries",		required_argument, NULL, 'E' },
	{ "top",		required_argument, NULL, OPT_TOP },
	{ "key",		required_argument, NULL, 'k' },
	{ "stack",		no_argument,	   NULL, OPT_STACK },
	{ "dist",		no_argument,	   NULL, OPT_DIST },
	{ 0 }
};

/* parse_types - -Y: a comma list of type names (rwsem:R) or groups (rwsem); 0 or -1 */
static int parse_types(struct lock *x, const char *arg)
{
	char *s = strdup(arg), *save = NULL, *w;
	int i, ret = 0;

	for (w = s ? strtok_r(s, ",", &save) : NULL; w && !ret; w = strtok_r(NULL, ",", &save)) {
		unsigned int m = 0;

		for (i = 0; i < NTYPES - 1; i++)
			if (!strcmp(w, lk_types[i].name) || !strcmp(w, lk_types[i].group))
				m |= 1u << i;
		if (!m) {
			ft_err("-Y %s: no lock type %s (spinlock, mutex, rwsem, rwsem:R, rwsem:W, "
			       "rwlock, semaphore, rt-mutex, percpu-rwsem, ...)", arg, w);
			ret = FT_OPT_REPORTED;
		}
		x->type_mask |= m;
	}
	free(s);
	return s ? ret : -1;
}

/* lock_parse_opt - perf lock contention's options (its -t is --threads here) */
static int lock_parse_opt(void *priv, int opt, const char *arg)
{
	struct lock *x = priv;
	long v;
	int i;

	switch (opt) {
	case 'l': x->mode = BY_ADDR; return 0;
	case OPT_THREADS: x->threads_opt = true; return 0;
	case 'Y': return parse_types(x, arg);
	case 'L':
		free(x->addr_arg);
		x->addr_arg = strdup(arg);
		return x->addr_arg ? 0 : -1;
	case 'E':
	case OPT_TOP:
		if (ft_parse_long(arg, 1, 1000000, &v))
			return -1;
		x->top = (int)v;
		return 0;
	case 'k':
		for (i = 0; key_names[i]; i++)
			if (!strcmp(arg, key_names[i])) {
				x->key = i;
				return 0;
			}
		return -1;
	case OPT_STACK: x->stacks = true; return 0;
	case OPT_DIST: x->dist = true; return 0;
	}
	return -1;
}

/* lock_check - -l and --threads exclude each other; --stack is of the callers' rows */
static int lock_check(void *priv, const struct ft_env *env)
{
	struct lock *x = priv;

	if (x->threads_opt && x->mode == BY_ADDR) {
		ft_err("--threads and -l exclude each other (perf lock contention's rule)");
		return -1;
	}
	if (x->threads_opt)
		x->mode = BY_TASK;
	if (x->stacks && x->mode != BY_CALLER) {
		ft_err("--stack shows the callers' stacks: not with %s",
		       x->mode == BY_ADDR ? "-l" : "--threads");
		return -1;
	}
	return 0;
}

/* lock_tracepoints - the contention's begin and end (works on a zeroed priv) */
static struct ft_tp *lock_tracepoints(void *priv)
{
	struct lock *x = priv;

	x->begin = (struct ft_tp){ .system = "lock", .name = "contention_begin",
				   .field = { "lock_addr", "flags" } };
	x->end = (struct ft_tp){ .system = "lock", .name = "contention_end",
				 .field = { "lock_addr" } };
	x->begin.next = &x->end;
	return &x->begin;
}

/* lock_events - the callers come from the begins' kernel stacks; forks name threads */
static void lock_events(void *priv, unsigned int *need, unsigned int *want)
{
	struct lock *x = priv;

	*want |= FT_NEED(FT_EV_FORK);
	if (x->mode == BY_CALLER)
		*want |= FT_NEED(FT_EV_KSTACK);
}

/* parse_addrs - -L: addresses (hex) or kernel symbols, comma separated; 0 or -1 */
static int parse_addrs(struct lock *x)
{
	struct sym_find f = { .x = x };
	char *s = x->addr_arg, *save = NULL, *w, *names[64], *end;
	int i;

	if (!s)
		return 0;
	x->addrs = calloc(64, sizeof(*x->addrs));
	if (!x->addrs) {
		ft_err("out of memory");
		return -1;
	}
	for (w = s ? strtok_r(s, ",", &save) : NULL; w; w = strtok_r(NULL, ",", &save)) {
		if (x->naddrs == 64) {
			ft_err("-L: at most 64 locks");
			return -1;
		}
		errno = 0;
		x->addrs[x->naddrs] = strtoull(w, &end, 16);
		names[x->naddrs++] = *end || errno || end == w ? w : NULL;
	}
	f.names = names;
	f.n = x->naddrs;
	ft_kallsyms_each(x->env->kallsyms, lock_find_sym, &f);
	x->sections = true;
	for (i = 0; i < x->naddrs; i++)
		if (names[i]) {
			ft_err("-L %s: no kernel symbol of that name", names[i]);
			return -1;
		}
	return 0;
}

static void lock_fini(void *priv);

/*
 * lock_init - no task waits yet; -L's locks. On failure everything is freed (the
 * pipeline calls fini only after an init that succeeded)
 */
static int lock_init(void *priv, const struct ft_env *env)
{
	struct lock *x = priv;

	x->env = env;
	x->rows = (struct ft_hset){ .unit = &ft_unit_us };
	x->cpu = calloc(env->ncpus > 0 ? env->ncpus : 1, sizeof(*x->cpu));
	if (!x->cpu || ft_tab_init(&x->tasks, sizeof(struct lk_task)) ||
	    ft_intern_init(&x->keys) || ft_intern_init(&x->kst)) {
		ft_err("out of memory");
		lock_fini(x);
		return -1;
	}
	if (parse_addrs(x)) {
		lock_fini(x);
		return -1;
	}
	return 0;
}

/* task_key - the table's key of a record's task: its tid, an idle task its CPU's */
static int task_key(const struct ft_event *ev)
{
	return ev->common_pid > 0 ? ev->common_pid : (int)FT_TAB_DIRECT + ev->cpu;
}

/* find - the wait of @t on @addr, or -1 */
static int find(const struct lk_task *t, uint64_t addr)
{
	int i;

	for (i = t->n - 1; i >= 0; i--)
		if (t->w[i].addr == addr)
			return i;
	return -1;
}

/* drop - wait @i of @t is over */
static void drop(struct lk_task *t, int i)
{
	memmove(&t->w[i], &t->w[i + 1], (t->n - i - 1) * sizeof(t->w[0]));
	t->n--;
}

/* push - record @ev waits for its stack: a begin of task @key on @addr, or (-1) another */
static void push(struct lock *x, const struct ft_event *ev, int key, uint64_t addr)
{
	struct lk_cpu *c = &x->cpu[ev->cpu];

	if (x->mode != BY_CALLER)
		return;
	if (c->depth == NEST) {		/* the outermost's stack will not come */
		memmove(c->p, c->p + 1, (NEST - 1) * sizeof(c->p[0]));
		c->depth--;
	}
	c->p[c->depth].key = key;
	c->p[c->depth++].addr = addr;
}

/* on_begin - a task starts waiting for a lock: its wait opens, its stack comes next */
static void on_begin(struct lock *x, const struct ft_event *ev)
{
	uint64_t addr = (uint64_t)ft_tp_num(ev, &x->begin, 0);
	struct lk_task *t = ft_tab_get(&x->tasks, task_key(ev));
	int i;

	push(x, ev, -1, 0);
	if (!t) {
		x->too_deep++;
		return;
	}
	i = find(t, addr);
	if (i >= 0 && !t->w[i].lost) {
		x->repeated++;		/* the mutex spun, now sleeps: one wait */
		return;
	}
	if (i >= 0) {
		x->dropped++;		/* its end was among the lost */
		drop(t, i);
	}
	if (t->n == NEST) {
		x->too_deep++;
		return;
	}
	t->w[t->n++] = (struct lk_wait){ .addr = addr, .since = ev->ts,
					 .type = lk_type_of((unsigned int)ft_tp_num(ev, &x->begin, 1)) };
	if (x->mode == BY_CALLER) {
		x->cpu[ev->cpu].p[x->cpu[ev->cpu].depth - 1].key = t->key;
		x->cpu[ev->cpu].p[x->cpu[ev->cpu].depth - 1].addr = addr;
	}
}

/* kept - does the report take a wait of type @type on @addr (-Y, -L)? */
static bool kept(const struct lock *x, int type, uint64_t addr)
{
	int i;

	if (x->type_mask && !(x->type_mask & (1u << type)))
		return false;
	for (i = 0; i < x->naddrs; i++)
		if (x->addrs[i] == addr)
			return true;
	return !x->naddrs;
}

/* on_end - a task has the lock: its wait is timed into its row */
static void on_end(struct lock *x, const struct ft_event *ev)
{
	uint64_t addr = (uint64_t)ft_tp_num(ev, &x->end, 0), k[2];
	struct lk_task *t = ft_tab_find(&x->tasks, task_key(ev));
	struct ft_hentry *e;
	struct lk_wait w;
	int i = t ? find(t, addr) : -1;
	long id;

	if (i < 0) {
		x->unpaired++;
		return;
	}
	w = t->w[i];
	drop(t, i);
	if (w.lost) {
		x->dropped++;
		return;
	}
	if (!kept(x, w.type, addr)) {
		x->filtered++;
		return;
	}
	x->no_stack += x->mode == BY_CALLER && !w.stack;
	k[0] = x->mode == BY_TASK ? 0 : w.type;
	k[1] = x->mode == BY_CALLER ? w.stack : x->mode == BY_ADDR ? addr : (uint64_t)ev->common_pid;
	id = ft_intern_put(&x->keys, k, 2);
	if (id < 0)
		return;
	if ((uint32_t)id == x->rows.n && !ft_hset_new(&x->rows, (int)id, NULL, 0))
		return;
	e = &x->rows.e[id];
	e->n[0]++;
	ft_hist_add(&e->hist, x->rows.unit, ev->ts > w.since ? ev->ts - w.since : 0);
}

/* on_stack - the kernel stack of the innermost record waiting for one on its CPU */
static void on_stack(struct lock *x, const struct ft_event *ev)
{
	struct lk_cpu *c = &x->cpu[ev->cpu];
	struct lk_task *t;
	long id;
	int i;

	if (!c->depth)
		return;
	c->depth--;
	t = c->p[c->depth].key < 0 ? NULL : ft_tab_find(&x->tasks, c->p[c->depth].key);
	i = t ? find(t, c->p[c->depth].addr) : -1;
	if (i < 0)
		return;
	id = ft_kstack_put(&x->kst, &ev->stack);
	t->w[i].stack = id > 0 ? (uint32_t)id : 0;
}

/* on_lost - every wait under way may have lost its end: none of them is timed */
static void on_lost(struct lock *x)
{
	unsigned int i;
	int j;

	for (i = 0; i < x->tasks.n; i++) {
		struct lk_task *t = ft_tab_at(&x->tasks, i);

		for (j = 0; j < t->n; j++)
			t->w[j].lost = true;
	}
}

/* lock_event - one record, in time order */
static void lock_event(void *priv, const struct ft_event *ev)
{
	struct lock *x = priv;

	if (ev->cpu < 0 || ev->cpu >= x->env->ncpus)
		return;
	if (ev->type == FT_EV_KSTACK) {
		on_stack(x, ev);
		return;
	}
	if (ev->type == FT_EV_USTACK || (ev->type == FT_EV_SWITCH && ev->sw.synth))
		return;		/* no record of the kernel's, no stack */
	if (ev->type == FT_EV_LOST) {
		x->cpu[ev->cpu].depth = 0;	/* their stacks may be among the lost */
		on_lost(x);
	} else if (ft_tp_is(ev, &x->begin) && ft_env_traced(x->env, ev->common_pid)) {
		on_begin(x, ev);
	} else {
		push(x, ev, -1, 0);	/* its stack comes too */
		if (ft_tp_is(ev, &x->end) && ft_env_traced(x->env, ev->common_pid))
			on_end(x, ev);
	}
}
/* lock_fini - the tables, stacks, symbols and report rows */
static void lock_fini(void *priv)
{
	struct lock *x = priv;

	lock_out_free(x);
	free(x->cpu);
	free(x->addrs);
	ft_tab_fini(&x->tasks);
	ft_intern_fini(&x->keys);
	ft_intern_fini(&x->kst);
	ft_hset_fini(&x->rows);
	ft_ksyms_fini(&x->ksyms);
}

/* lock_free - what option parsing allocated */
static void lock_free(void *priv)
{
	free(((struct lock *)priv)->addr_arg);
}

const struct ft_analyzer ft_lock = {
	.cli = {
		.name		= "lock",
		.summary	= "kernel lock contention per type and caller (perf lock contention)",
		.usage		= "  -l, --lock-addr        rows per lock address (symbol of a static lock)\n"
				  "      --threads          rows per thread (perf's -t)\n"
				  "  -Y, --type-filter T,.. only lock types T: spinlock, mutex, rwsem,\n"
				  "                         rwsem:R, rwsem:W, rwlock, semaphore, ...\n"
				  "  -L, --lock-filter A,.. only locks at addresses A (hex) or symbols\n"
				  "  -E, --entries N        the first N rows (also --top N)\n"
				  "  -k, --key KEY          sort by wait_total (default), contended,\n"
				  "                         wait_max, wait_min, avg_wait or p99\n"
				  "      --stack            each caller's kernel stack under its row\n"
				  "      --dist             a histogram per row instead of the table\n",
		.examples	= "  ftscope lock -d 5                  # the whole system, by caller\n"
				  "  ftscope lock -l -Y mutex -- make   # mutexes a build waits for\n"
				  "  ftscope lock --stack -E 5 -p 1234  # the 5 worst callers' stacks\n",
		.shortopts	= "lY:L:E:k:",
		.longopts	= lock_longopts,
		.parse_opt	= lock_parse_opt,
		.check		= lock_check,
	},
	.priv_size	= sizeof(struct lock),
	.tracepoints	= lock_tracepoints,
	.events		= lock_events,
	.init		= lock_init,
	.event		= lock_event,
	.report		= lock_report,
	.reset		= lock_reset,
	.metrics	= lock_metrics,
	.fini		= lock_fini,
	.free		= lock_free,
};
