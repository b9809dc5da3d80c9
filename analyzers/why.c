// SPDX-License-Identifier: GPL-2.0
/*
 * --why: per CPU, a flat timeline of what ran, as a ring of segments, each from its
 * start to the next one's. A CPU runs one thing at a time: a hard interrupt handler
 * (irq:irq_handler_entry/exit) over a softirq (irq:softirq_entry/exit) over the task
 * switched in (sched_switch, 0 idle); every change starts a segment. Time nothing
 * names is unknown, with its reason: before the first switch seen or the oldest
 * segment kept, after lost events until the next switch, or between the last record
 * proving a rebuilt switch had not happened yet and its estimate. A window splits
 * into parts by summing the segments' overlaps with it, so the parts add up to it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/waits.h"
#include "analyzers/why.h"
#include "events/tasks.h"
#include "lib/tab.h"
#include "lib/util.h"
#include "output/json.h"

#define RING		16384u		/* segments kept per CPU (a power of 2) */
#define NAMES		256		/* hard interrupt handler names */
/* Distinct parts summed per window: a growing array (a busy CPU's long wait has many). */
struct parts {
	struct ft_why_part	*p;
	int			n, cap;
};

/* One segment: from start to the next segment's start. */
struct seg {
	uint64_t	start;
	int		id, base;	/* base: the task under it (-1: unknown) */
	short		prio;
	unsigned char	kind, flags;
};

/* A task's last prio in a record (a rebuilt switch has none). */
struct prio {
	int	pid;		/* the table's key */
	int	prio;		/* prio + 1000, 0 none yet, PRIO_DEAD: the task exited */
};

#define PRIO_DEAD	INT_MIN
#define DEAD_MIN	1024	/* exited tasks' entries before the table is rebuilt */

struct ft_why_cpu {
	struct seg	*ring;
	uint64_t	n;		/* segments ever started */
	uint64_t	last_ts;	/* its last record */
	struct seg	task;		/* the base: task, idle or unknown (start unused) */
	int		hard, soft;	/* the handler (names index) and vector; -1 none */
	int		hard_under;	/* the handler a system vector came in, -1 none */
};

static const char *const vec_names[] = {
	"hi", "timer", "net_tx", "net_rx", "block", "irq_poll", "tasklet", "sched",
	"hrtimer", "rcu",
};

static const char *const reasons[] = {
	[FT_WHY_BEFORE]		= "unknown: before the kept history",
	[FT_WHY_LOST]		= "unknown: events lost",
	[FT_WHY_REBUILT]	= "unknown: switch not recorded (rebuilt)",
	[FT_WHY_FILTERED]	= "unknown: tasks the trace did not follow (-p/-t/command)",
};

/* x86's system vectors: interrupts with events of their own, not irq_handler_entry's */
static const char *const sysvec[FT_WHY_NVEC] = {
	"local_timer", "reschedule", "call_function", "call_function_single", "irq_work",
};

/* ft_why_tracepoints - the interrupt events, optional (a trace without them says so) */
struct ft_tp *ft_why_tracepoints(struct ft_why *y)
{
	static char names[FT_WHY_NVEC][2][32];
	int i, k;

	y->hentry = (struct ft_tp){ .system = "irq", .name = "irq_handler_entry",
				    .field = { "irq", "name" }, .optional = true };
	y->hexit = (struct ft_tp){ .system = "irq", .name = "irq_handler_exit",
				   .field = { "irq" }, .optional = true };
	y->sentry = (struct ft_tp){ .system = "irq", .name = "softirq_entry",
				    .field = { "vec" }, .optional = true };
	y->sexit = (struct ft_tp){ .system = "irq", .name = "softirq_exit",
				   .field = { "vec" }, .optional = true };
	y->hentry.next = &y->hexit;
	y->hexit.next = &y->sentry;
	y->sentry.next = &y->sexit;
	for (i = 0; i < FT_WHY_NVEC; i++)
		for (k = 0; k < 2; k++) {
			struct ft_tp *tp = &y->vec[i][k];

			snprintf(names[i][k], sizeof(names[i][k]), "%s_%s", sysvec[i],
				 k ? "exit" : "entry");
			*tp = (struct ft_tp){ .system = "irq_vectors", .name = names[i][k],
					      .field = { "vector" }, .optional = true };
			tp->next = y->sexit.next;
			y->sexit.next = tp;
		}
	return &y->hentry;
}

/* ft_why_init - every CPU's history empty, its task unknown */
int ft_why_init(struct ft_why *y, const struct ft_env *env)
{
	int i;

	y->env = env;
	y->ncpus = env->ncpus > 0 ? env->ncpus : 1;
	y->cpu = calloc(y->ncpus, sizeof(*y->cpu));
	y->names = calloc(NAMES, sizeof(*y->names));
	if (!y->cpu || !y->names || ft_tab_init(&y->prios, sizeof(struct prio)))
		return -1;
	for (i = 0; i < y->ncpus; i++) {
		y->cpu[i].task = (struct seg){ .kind = FT_WHY_UNKNOWN, .id = FT_WHY_BEFORE,
					       .base = -1 };
		y->cpu[i].hard = y->cpu[i].soft = y->cpu[i].hard_under = -1;
	}
	return 0;
}

/* ft_why_fini - free the rings */
void ft_why_fini(struct ft_why *y)
{
	int i;

	for (i = 0; y->cpu && i < y->ncpus; i++)
		free(y->cpu[i].ring);
	free(y->cpu);
	free(y->names);
	ft_tab_fini(&y->prios);
	y->cpu = NULL;
	y->names = NULL;
}

/* last_seg - the open segment of @c, or NULL */
static struct seg *last_seg(struct ft_why_cpu *c)
{
	return c->n ? &c->ring[(c->n - 1) & (RING - 1)] : NULL;
}

/* push - @c runs its top context from @t on: a handler, a vector, or its task */
static void push(struct ft_why_cpu *c, uint64_t t)
{
	struct seg s = c->task, *l;

	s.base = c->task.kind == FT_WHY_TASK || c->task.kind == FT_WHY_IDLE ? c->task.id : -1;
	if (c->hard >= 0)
		s = (struct seg){ .kind = FT_WHY_HARDIRQ, .id = c->hard, .base = s.base };
	else if (c->soft >= 0)
		s = (struct seg){ .kind = FT_WHY_SOFTIRQ, .id = c->soft, .base = s.base };
	if (!c->ring && !(c->ring = malloc(RING * sizeof(*c->ring))))
		return;
	l = last_seg(c);
	if (l && t < l->start)
		t = l->start;
	s.start = t;
	if (l && l->kind == s.kind && l->id == s.id && l->base == s.base && l->flags == s.flags)
		return;
	if (l && l->start == t) {	/* the last one lasted no time */
		*l = s;
		return;
	}
	c->ring[c->n++ & (RING - 1)] = s;
}

/* note_prio - @pid's prio in a record; its last known for a rebuilt switch (-999: none) */
static int note_prio(struct ft_why *y, int pid, int prio, bool known)
{
	struct prio *p = pid > 0 ? ft_tab_get(&y->prios, pid) : NULL;

	if (!p)
		return known ? prio : -999;
	if (p->prio == PRIO_DEAD) {	/* a pid used again */
		p->prio = 0;
		y->dead--;
	}
	if (known)
		p->prio = prio + 1000;	/* 0: none yet */
	return p->prio ? p->prio - 1000 : -999;
}

/*
 * forget_prio - @pid exited (its last switch out): its entry goes, the table rebuilt
 * with the living tasks' once the exited ones are DEAD_MIN and half of it, so that a
 * run with short-lived processes keeps a table of the tasks that live
 */
static void forget_prio(struct ft_why *y, int pid)
{
	struct prio *p = pid > 0 ? ft_tab_find(&y->prios, pid) : NULL, *keep, *q;
	unsigned int i, n = 0;

	if (!p || p->prio == PRIO_DEAD)
		return;
	p->prio = PRIO_DEAD;
	if (++y->dead < DEAD_MIN || y->dead * 2 < y->prios.n)
		return;
	keep = malloc((y->prios.n - y->dead) * sizeof(*keep) + 1);
	if (!keep)
		return;		/* kept as they are */
	for (i = 0; i < y->prios.n; i++)
		if ((q = ft_tab_at(&y->prios, i))->prio != PRIO_DEAD)
			keep[n++] = *q;
	ft_tab_clear(&y->prios);
	for (i = 0; i < n; i++)
		if ((q = ft_tab_add(&y->prios, keep[i].pid)))
			q->prio = keep[i].prio;
	y->dead = 0;
	free(keep);
}

/* on_switch - the next task runs from the switch's time (a rebuilt one's estimate) */
static void on_switch(struct ft_why *y, struct ft_why_cpu *c, const struct ft_event *ev)
{
	int next = ev->sw.next_pid;
	uint64_t t = ft_switch_time(ev), lo = ev->sw.ts_min;
	struct seg *l = last_seg(c);

	if (ev->sw.synth && lo < t && (!l || lo > l->start)) {
		c->task = (struct seg){ .kind = FT_WHY_UNKNOWN, .base = -1,
					.id = ev->sw.after_loss ? FT_WHY_LOST : FT_WHY_REBUILT };
		push(c, lo);
	}
	if (!ev->sw.synth)
		note_prio(y, ev->sw.prev_pid, ev->sw.prev_prio, true);
	if (!ev->sw.synth && (ev->sw.state == 'X' || ev->sw.state == 'Z' ||
			       ev->sw.state == 'x'))
		forget_prio(y, ev->sw.prev_pid);
	/* no switch inside a handler: an exit missed (events enabled one by one) ends here */
	c->hard = c->soft = c->hard_under = -1;
	c->task = (struct seg){ .kind = next ? FT_WHY_TASK : FT_WHY_IDLE, .id = next,
				.prio = (short)note_prio(y, next, ev->sw.next_prio, !ev->sw.synth),
				.flags = ev->sw.synth ? FT_WHY_SYNTH : 0 };
	if (y->env->filtered_stream && (!next || !ft_env_traced(y->env, next)))
		c->task = (struct seg){ .kind = FT_WHY_UNKNOWN, .id = FT_WHY_FILTERED, .base = -1 };
	push(c, t);
}

/* handler - the names index of hard interrupt handler @s (the last slot: all beyond) */
static int handler(struct ft_why *y, const char *s, int len)
{
	char name[FT_WHY_NAME];
	int i;

	snprintf(name, sizeof(name), "%.*s", len ? len : 1, len ? s : "?");
	for (i = 0; i < y->nnames; i++)
		if (!strcmp(y->names[i], name))
			return i;
	if (y->nnames == NAMES)
		return NAMES - 1;
	snprintf(y->names[y->nnames], FT_WHY_NAME, "%s", y->nnames == NAMES - 1 ? "others" : name);
	return y->nnames++;
}

/* sysvec_at - the system vector event @ev is: 2 * vector + 1 for an exit, or -1 */
static int sysvec_at(const struct ft_why *y, const struct ft_event *ev)
{
	int i;

	for (i = 0; i < FT_WHY_NVEC * 2; i++)
		if (ft_tp_is(ev, &y->vec[i / 2][i % 2]))
			return i;
	return -1;
}

/* on_tp - an interrupt handler or a softirq vector starts or ends */
static void on_tp(struct ft_why *y, struct ft_why_cpu *c, const struct ft_event *ev)
{
	const char *s;
	int i, len = 0;

	if (ft_tp_is(ev, &y->hentry)) {
		s = ft_tp_str(ev, &y->hentry, 1, &len);
		c->hard = handler(y, s, len);
	} else if (ft_tp_is(ev, &y->hexit)) {
		c->hard = -1;
	} else if (ft_tp_is(ev, &y->sentry)) {
		c->soft = (int)ft_tp_num(ev, &y->sentry, 0);
	} else if (ft_tp_is(ev, &y->sexit)) {
		c->soft = -1;
	} else if ((i = sysvec_at(y, ev)) >= 0) {
		/* a system vector may come in a device handler: back to it at its exit */
		s = sysvec[i / 2];
		if (!(i % 2))
			c->hard_under = c->hard;
		c->hard = i % 2 ? c->hard_under : handler(y, s, (int)strlen(s));
		if (i % 2)
			c->hard_under = -1;
	} else {
		return;
	}
	push(c, ev->ts);
}

/* ft_why_event - one record: switches, interrupts, losses */
void ft_why_event(struct ft_why *y, const struct ft_event *ev)
{
	struct ft_why_cpu *c;

	if (ev->cpu < 0 || ev->cpu >= y->ncpus)
		return;
	c = &y->cpu[ev->cpu];
	switch (ev->type) {
	case FT_EV_SWITCH:
		on_switch(y, c, ev);
		break;
	case FT_EV_TP:
		on_tp(y, c, ev);
		break;
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		note_prio(y, ev->wk.pid, ev->wk.prio, true);
		break;
	case FT_EV_LOST:	/* unknown from its last record to the next switch */
		c->task = (struct seg){ .kind = FT_WHY_UNKNOWN, .id = FT_WHY_LOST, .base = -1 };
		c->hard = c->soft = -1;
		push(c, c->last_ts);
		break;
	default:
		break;
	}
	if (ev->ts > c->last_ts)
		c->last_ts = ev->ts;
}

/*
 * add - @ns more of a part like @s (the part's key: kind, id; a task's prio and flags);
 * out of memory, the last part becomes "more parts" and takes it (the sum stays whole)
 */
static void add(struct parts *a, const struct seg *s, uint64_t ns)
{
	struct ft_why_part *p;
	int i;

	for (i = 0; i < a->n; i++)
		if (a->p[i].kind == s->kind && a->p[i].id == s->id)
			break;
	if (i == a->n && a->n == a->cap &&
	    (p = realloc(a->p, (a->cap ? 2 * a->cap : 64) * sizeof(*p)))) {
		a->p = p;
		a->cap = a->cap ? 2 * a->cap : 64;
	}
	if (i == a->n && a->n < a->cap) {
		a->p[a->n++] = (struct ft_why_part){ .kind = s->kind, .id = s->id, .prio = s->prio };
	} else if (i == a->n) {
		if (!a->n)
			return;
		i = a->n - 1;
		a->p[i].id = a->p[i].kind == FT_WHY_OTHER ? a->p[i].id + 1 : 2;
		a->p[i].kind = FT_WHY_OTHER;
	}
	a->p[i].ns += ns;
	a->p[i].flags |= s->flags;
}

/* cmp_part - largest first */
static int cmp_part(const void *a, const void *b)
{
	const struct ft_why_part *x = a, *y = b;

	return (x->ns < y->ns) - (x->ns > y->ns);
}

/* name - a part's name: comm[pid], handler, vector, reason */
static void name(struct ft_why *y, struct ft_why_part *p)
{
	switch (p->kind) {
	case FT_WHY_TASK:
		snprintf(p->name, FT_WHY_NAME, "%s", ft_tasks_comm(y->env->tasks, p->id));
		break;
	case FT_WHY_IDLE:
		snprintf(p->name, FT_WHY_NAME, "idle");
		break;
	case FT_WHY_HARDIRQ:
		snprintf(p->name, FT_WHY_NAME, "%s", y->names[p->id]);
		break;
	case FT_WHY_SOFTIRQ:
		if (p->id >= 0 && p->id < (int)(sizeof(vec_names) / sizeof(vec_names[0])))
			snprintf(p->name, FT_WHY_NAME, "%s", vec_names[p->id]);
		else
			snprintf(p->name, FT_WHY_NAME, "vec %d", p->id);
		break;
	case FT_WHY_UNKNOWN:
		snprintf(p->name, FT_WHY_NAME, "%s", p->id == FT_WHY_LOST ? "lost" :
			 p->id == FT_WHY_REBUILT ? "rebuilt" :
			 p->id == FT_WHY_FILTERED ? "not_followed" : "before");
		break;
	}
}

/* first_seg - the index of the segment of @c holding @t, or the oldest kept after it */
static uint64_t first_seg(const struct ft_why_cpu *c, uint64_t t)
{
	uint64_t lo = c->n > RING ? c->n - RING : 0, hi = c->n;

	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (c->ring[mid & (RING - 1)].start <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* sum - the parts of [start, end) on @c into @agg; the task under @start, or -1 */
static int sum(struct ft_why_cpu *c, uint64_t start, uint64_t end, struct parts *agg)
{
	static const struct seg before = { .kind = FT_WHY_UNKNOWN, .id = FT_WHY_BEFORE };
	uint64_t i = c->n && c->ring ? first_seg(c, start) : 0, t = start;
	int at = -1;

	for (; i < c->n && t < end; i++) {
		const struct seg *s = &c->ring[i & (RING - 1)];
		uint64_t b = i + 1 < c->n ? c->ring[(i + 1) & (RING - 1)].start : end;

		if (s->start > t) {	/* older than all it keeps */
			add(agg, &before, (s->start < end ? s->start : end) - t);
			t = s->start;
		}
		if (b > end)
			b = end;
		if (b <= t)
			continue;
		if (s->start <= start)
			at = s->base;
		add(agg, s, b - t);
		t = b;
	}
	if (t < end)
		add(agg, &before, end - t);
	return at;
}

/* ft_why_explain - what @cpu did in [@start, @end), largest parts first, into @x */
void ft_why_explain(struct ft_why *y, int cpu, uint64_t start, uint64_t end,
		    struct ft_why_expl *x)
{
	struct parts a = { 0 };
	struct ft_why_part *agg;
	int n, i, at;

	memset(x, 0, sizeof(*x));
	x->cpu = cpu;
	if (cpu < 0 || cpu >= y->ncpus || end <= start) {
		x->cpu = -1;
		return;
	}
	at = sum(&y->cpu[cpu], start, end, &a);
	agg = a.p;
	n = a.n;
	for (i = 0; i < n; i++)
		if (agg[i].kind == FT_WHY_TASK && agg[i].id == at)
			agg[i].flags |= FT_WHY_AT_WAKEUP;
	qsort(agg, n, sizeof(agg[0]), cmp_part);
	for (i = 0; i < n; i++) {
		if (i == FT_WHY_PARTS - 1 && n > FT_WHY_PARTS) {
			x->part[i] = (struct ft_why_part){ .kind = FT_WHY_OTHER };
			for (; i < n; i++) {
				x->part[FT_WHY_PARTS - 1].ns += agg[i].ns;
				x->part[FT_WHY_PARTS - 1].id += agg[i].kind == FT_WHY_OTHER ?
								agg[i].id : 1;
			}
			x->n = FT_WHY_PARTS;
			break;
		}
		x->part[i] = agg[i];
		name(y, &x->part[i]);
		x->n = i + 1;
	}
	free(agg);
}

/* prio_str - a kernel prio as people read it: rt N, nice N, deadline */
static const char *prio_str(int prio, char *buf, size_t len)
{
	if (prio == -999)
		return "prio unknown";
	if (prio < 0)
		return "deadline";
	if (prio < 100)
		snprintf(buf, len, "rt %d", 99 - prio);
	else
		snprintf(buf, len, "nice %d", prio - 120);
	return buf;
}

/* print_part - one part: time, share, who */
static void print_part(FILE *f, const struct ft_why_part *p, uint64_t wait, const char *head)
{
	char pb[16];

	fprintf(f, "%s%12llu us %5.1f%%  ", head, (unsigned long long)(p->ns / 1000),
		wait ? 100.0 * p->ns / wait : 0.0);
	switch (p->kind) {
	case FT_WHY_TASK:
		fprintf(f, "%s[%d] %s, %s%s\n", p->name, p->id, prio_str(p->prio, pb, sizeof(pb)),
			p->flags & FT_WHY_AT_WAKEUP ? "running at the wakeup" : "came in during it",
			p->flags & FT_WHY_SYNTH ? " (a switch rebuilt)" : "");
		break;
	case FT_WHY_IDLE:
		fprintf(f, "idle\n");
		break;
	case FT_WHY_HARDIRQ:
		fprintf(f, "hardirq %s\n", p->name);
		break;
	case FT_WHY_SOFTIRQ:
		fprintf(f, "softirq %s\n", p->name);
		break;
	case FT_WHY_UNKNOWN:
		fprintf(f, "%s\n", reasons[p->id]);
		break;
	default:
		fprintf(f, "%d more parts\n", p->id);
	}
}

/* ft_why_print - the parts of @x under a row, each line starting with @head */
void ft_why_print(FILE *f, const struct ft_why_expl *x, uint64_t wait, const char *head)
{
	int i;

	for (i = 0; i < x->n; i++)
		print_part(f, &x->part[i], wait, head);
}

/* ft_why_json - the parts of @x as an array @key */
void ft_why_json(struct ft_json *j, const char *key, const struct ft_why_expl *x)
{
	static const char *const kinds[] = { "task", "idle", "hardirq", "softirq", "unknown",
					     "more" };
	int i;

	ft_json_arr_begin(j, key);
	for (i = 0; i < x->n; i++) {
		const struct ft_why_part *p = &x->part[i];

		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "kind", kinds[p->kind]);
		ft_json_u64(j, "ns", p->ns);
		if (p->kind == FT_WHY_TASK) {
			ft_json_str(j, "comm", p->name);
			ft_json_i64(j, "pid", p->id);
			ft_json_i64(j, "prio", p->prio);
			ft_json_bool(j, "at_wakeup", p->flags & FT_WHY_AT_WAKEUP);
			ft_json_bool(j, "rebuilt_switch", p->flags & FT_WHY_SYNTH);
		} else if (p->kind == FT_WHY_OTHER) {
			ft_json_i64(j, "parts", p->id);
		} else if (p->kind != FT_WHY_IDLE) {
			ft_json_str(j, "name", p->name);
		}
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* ft_why_notes - one line when the trace lacks the interrupt events */
void ft_why_notes(FILE *f, const char *who, const struct ft_why *y)
{
	if (y->hentry.id < 0 || y->hexit.id < 0)
		fprintf(f, "%s --why: the trace has no irq:irq_handler_entry/exit: hard interrupt "
			"time is counted in the task it interrupted\n", who);
	if (y->sentry.id < 0 || y->sexit.id < 0)
		fprintf(f, "%s --why: the trace has no irq:softirq_entry/exit: softirq time is "
			"counted in the task it interrupted\n", who);
}

/* woken_cpu - the CPU a wait began on, when not the one it ran on: chosen or waking, or -1 */
static int woken_cpu(const struct ft_wait *w)
{
	int c = w->target_cpu >= 0 ? w->target_cpu : w->waker_cpu;

	return c >= 0 && c != w->cpu ? c : -1;
}

/*
 * ft_why_wait - explain wait @w into *@x (allocated when NULL, two windows): the CPU it
 * ran on, and the one it was woken for when it moved; false when out of memory
 */
bool ft_why_wait(struct ft_why *y, const struct ft_wait *w, struct ft_why_expl **x)
{
	int c = woken_cpu(w);

	if (!*x && !(*x = malloc(2 * sizeof(**x))))
		return false;
	ft_why_explain(y, w->cpu, w->start, w->end, &(*x)[0]);
	(*x)[1].cpu = -1;
	(*x)[1].n = 0;
	if (c >= 0)
		ft_why_explain(y, c, w->start, w->end, &(*x)[1]);
	return true;
}

/* ft_why_wait_print - the parts of a wait under its row; the woken CPU's after them */
void ft_why_wait_print(FILE *f, const struct ft_wait *w, const struct ft_why_expl *x)
{
	uint64_t d = w->end - w->start;

	if (!x)
		return;
	ft_why_print(f, &x[0], d, "    ");
	if (x[1].cpu < 0)
		return;
	fprintf(f, "    meanwhile on CPU %d, %s:\n", x[1].cpu, w->target_cpu >= 0 ?
		"the one the wakeup chose" : "where the wakeup ran");
	ft_why_print(f, &x[1], d, "      ");
}

/* ft_why_wait_json - "why" (and "why_woken_cpu" when it moved) in a wait's object */
void ft_why_wait_json(struct ft_json *j, const struct ft_why_expl *x)
{
	if (!x)
		return;
	ft_why_json(j, "why", &x[0]);
	if (x[1].cpu >= 0) {
		ft_json_i64(j, "why_woken_cpu", x[1].cpu);
		ft_why_json(j, "why_woken", &x[1]);
	}
}

/* ft_why_notes_json - whether the trace had the interrupt events, as JSON fields */
void ft_why_notes_json(struct ft_json *j, const struct ft_why *y)
{
	ft_json_bool(j, "why_hardirq_events", y->hentry.id >= 0 && y->hexit.id >= 0);
	ft_json_bool(j, "why_softirq_events", y->sentry.id >= 0 && y->sexit.id >= 0);
}
