// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu --chain: the critical path of each blocked period (docs/explain.md).
 *
 * Every thread's recent states are kept as a timeline of segments: running (from a
 * switch-in), runnable (from a wakeup or a preemption), blocked (from a switch-out to
 * sleep, with the stacks ftrace recorded after it and, once woken, the waker), or
 * unknown (after lost events). At a period's end its window is walked:
 *
 *   victim A   |--- blocked (stacks) ------------------|-- runnable --|
 *   waker B    |-- blocked: woken by C --|-- running --|
 *   C          |-- running --|
 *
 * the victim's blocked part goes to what its waker did over the same time: running
 * (split over the waker's on-CPU samples there: their stacks), runnable, or blocked,
 * then to the waker's waker over that part, up to --chain-depth wakers. Interrupts,
 * the idle task and time without records are named as such, never guessed. Each piece
 * is a key: the victim's part of offcpu's key, then one link of CL_LEN per element.
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/offcpu_int.h"
#include "analyzers/stack_syms.h"
#include "events/sample.h"
#include "lib/util.h"

/* Segments kept per thread: older time is "before the kept history". */
#define CHAIN_SEGS	1024
/* Samples kept per thread live (a file's are all kept: they come before its records). */
#define CHAIN_SMPS	8192

enum { CS_RUN, CS_READY, CS_BLOCKED, CS_LOST };

/* One state of a thread from t0 to the next segment's t0. */
struct chain_seg {
	uint64_t	t0;
	uint32_t	kst, ust;	/* blocked: the switch-out's stacks (id + 1, 0 none) */
	int		waker;		/* blocked: the waker's tid once woken, -1 not yet */
	unsigned char	kind, ctx;	/* ctx: the wakeup's FT_CTX_ bits */
};

/* One on-CPU sample of a thread: its stacks. */
struct chain_smp {
	uint64_t	ts;
	uint32_t	kst, ust;
};

/* One thread's timeline (a ring) and samples (sorted by time). */
struct chain_task {
	int			tid;
	int			tgid;
	struct chain_seg	*seg;
	uint32_t		cap, n, head;	/* head: the next slot written */
	struct chain_smp	*smp;
	uint32_t		scap, sn;
};

struct offcpu_chain {
	struct ft_tab		tasks;		/* tid -> struct chain_task */
	int			*pend;		/* per CPU: tid whose switch-out stacks come */
	bool			keep_all;	/* a file: every sample kept */
	uint64_t		fr[FT_SAMPLE_MAX_STACK];
	/* the period being explained */
	uint64_t		key[K_WTID + CL_LEN * (OFFCPU_CHAIN_MAX + 2)];
	uint64_t		period;		/* its number: each key counts it once */
	struct offcpu_chain_notes notes;
};

/* seg_at - segment @i of @ct, oldest first */
static struct chain_seg *seg_at(const struct chain_task *ct, uint32_t i)
{
	return &ct->seg[(ct->head + ct->cap - ct->n + i) % ct->cap];
}

/* seg_push - a new state of @ct from @t0 (never before the last one's); NULL out of memory */
static struct chain_seg *seg_push(struct chain_task *ct, uint64_t t0, int kind)
{
	struct chain_seg *s;

	if (ct->n == ct->cap && ct->cap < CHAIN_SEGS) {	/* full: double, oldest at head */
		uint32_t cap = ct->cap ? ct->cap * 2 : 16;

		s = realloc(ct->seg, cap * sizeof(*s));
		if (!s)
			return NULL;
		if (ct->cap)
			memcpy(s + ct->cap, s, ct->head * sizeof(*s));
		ct->head += ct->cap;
		ct->seg = s;
		ct->cap = cap;
		ct->head %= cap;
	}
	if (ct->n && t0 < seg_at(ct, ct->n - 1)->t0)
		t0 = seg_at(ct, ct->n - 1)->t0;
	s = &ct->seg[ct->head];
	ct->head = (ct->head + 1) % ct->cap;
	ct->n += ct->n < ct->cap;
	*s = (struct chain_seg){ .t0 = t0, .kind = (unsigned char)kind, .waker = -1 };
	return s;
}

/* task_of - @tid's timeline, made on first use; NULL for the idle task or out of memory */
static struct chain_task *task_of(struct offcpu *o, int tid)
{
	struct chain_task *ct;

	if (tid <= 0)
		return NULL;
	ct = ft_tab_get(&o->chain->tasks, tid);
	if (ct && !ct->tgid)
		ct->tgid = ft_tasks_tgid(o->env->tasks, tid);
	return ct;
}

/* last_seg - @ct's current state, NULL when none */
static struct chain_seg *last_seg(const struct chain_task *ct)
{
	return ct && ct->n ? seg_at(ct, ct->n - 1) : NULL;
}

/* on_switch - the previous task leaves its CPU, blocked or runnable; the next runs */
static void on_switch(struct offcpu *o, const struct ft_event *ev)
{
	struct offcpu_chain *c = o->chain;
	uint64_t t = ft_switch_time(ev);
	struct chain_task *ct;
	bool ready = ev->sw.preempt || ev->sw.state == 'R';

	if (!ev->sw.synth)
		c->pend[ev->cpu] = -1;
	if ((ct = task_of(o, ev->sw.prev_pid)) &&
	    seg_push(ct, t, ready ? CS_READY : CS_BLOCKED) && !ready && !ev->sw.synth)
		c->pend[ev->cpu] = ct->tid;
	if ((ct = task_of(o, ev->sw.next_pid)))
		seg_push(ct, t, CS_RUN);
}

/* on_wake - a blocked thread's first wakeup names its waker and makes it runnable */
static void on_wake(struct offcpu *o, const struct ft_event *ev)
{
	struct chain_task *ct = ft_tab_find(&o->chain->tasks, ev->wk.pid);
	struct chain_seg *s = last_seg(ct);

	if (!s || s->kind != CS_BLOCKED)
		return;
	s->waker = ev->common_pid;
	s->ctx = ev->wk.ctx;
	seg_push(ct, ev->ts, CS_READY);
}

/* on_stack - a stack after a switch-out: the blocked segment's */
static void on_stack(struct offcpu *o, const struct ft_event *ev)
{
	struct offcpu_chain *c = o->chain;
	struct chain_task *ct = c->pend[ev->cpu] > 0 ?
				ft_tab_find(&c->tasks, c->pend[ev->cpu]) : NULL;
	struct chain_seg *s = last_seg(ct);
	struct ft_ustack_seen seen;
	long id;

	if (!s || s->kind != CS_BLOCKED)
		return;
	if (ev->type == FT_EV_KSTACK) {	/* ids + 1 both */
		id = ft_kstack_put(&o->kst, &ev->stack);
		s->kst = (uint32_t)(id < 0 ? 0 : id);
		return;
	}
	c->pend[ev->cpu] = -1;		/* the user stack comes last */
	if (ev->stack.n && ev->stack.tgid)
		ct->tgid = ev->stack.tgid;
	id = ev->stack.n ? ft_ustack_put(&o->usyms, &o->ust, ct->tgid, &ev->stack, &seen) : 0;
	s->ust = (uint32_t)(id < 0 ? 0 : id);
}

/* on_lost - after lost events no thread's state is known until its next switch */
static void on_lost(struct offcpu *o, const struct ft_event *ev)
{
	struct offcpu_chain *c = o->chain;
	unsigned int i;

	for (i = 0; i < c->tasks.n; i++)
		seg_push(ft_tab_at(&c->tasks, i), ev->ts, CS_LOST);
	for (i = 0; i < (unsigned int)o->env->ncpus; i++)
		c->pend[i] = -1;
}

/* offcpu_chain_event - one record, in time order, before offcpu's own tracking */
void offcpu_chain_event(struct offcpu *o, const struct ft_event *ev)
{
	switch (ev->type) {
	case FT_EV_SWITCH:
		on_switch(o, ev);
		return;
	case FT_EV_KSTACK:
	case FT_EV_USTACK:
		on_stack(o, ev);
		return;
	case FT_EV_LOST:
		on_lost(o, ev);
		return;
	default:
		if (ev->type != FT_EV_UNKNOWN && ev->cpu >= 0 && ev->cpu < o->env->ncpus)
			o->chain->pend[ev->cpu] = -1;
		if (ft_env_wakeup(o->env, ev))
			on_wake(o, ev);
		return;
	}
}

/* smp_add - a sample into @ct's, in time order; the oldest half dropped when full live */
static void smp_add(struct offcpu_chain *c, struct chain_task *ct, const struct chain_smp *e)
{
	uint32_t i;

	if (ct->sn == ct->scap) {
		uint32_t cap = ct->scap ? ct->scap * 2 : 64;
		struct chain_smp *p;

		if (!c->keep_all && ct->scap >= CHAIN_SMPS) {
			ct->sn /= 2;
			memmove(ct->smp, ct->smp + ct->scap - ct->sn, ct->sn * sizeof(*p));
		} else if ((p = realloc(ct->smp, cap * sizeof(*p)))) {
			ct->smp = p;
			ct->scap = cap;
		} else {
			return;
		}
	}
	for (i = ct->sn; i && ct->smp[i - 1].ts > e->ts; i--)
		;
	memmove(ct->smp + i + 1, ct->smp + i, (ct->sn - i) * sizeof(*e));
	ct->smp[i] = *e;
	ct->sn++;
}

/* offcpu_chain_sample - one on-CPU sample: its stacks interned, kept with its thread */
void offcpu_chain_sample(struct offcpu *o, const struct ft_sample *s)
{
	struct offcpu_chain *c = o->chain;
	struct chain_smp e = { .ts = s->ts };
	struct chain_task *ct;
	long id;
	int n;

	if (!o->chain_sampled || s->tid <= 0 || s->event || !(ct = task_of(o, s->tid)))
		return;
	c->notes.samples++;
	if (s->pid > 0)
		ct->tgid = s->pid;
	if (s->nk) {
		id = ft_intern_put(&o->kst, s->ip, (uint32_t)s->nk);
		e.kst = (uint32_t)(id + 1);
	}
	if (s->maps)		/* the kernel's word on its mappings, before its frames */
		ft_usyms_add_maps(&o->usyms, s->maps, s->maps_len);
	if (s->nu && s->pid > 0) {
		ft_usyms_note(&o->usyms, s->pid);
		n = ft_usyms_frames(&o->usyms, s->pid, s->ip + s->nk, s->nu, c->fr);
		id = n ? ft_intern_put(&o->ust, c->fr, (uint32_t)n) : -1;
		e.ust = (uint32_t)(id + 1);
	}
	smp_add(c, ct, &e);
}

/* emit - the piece [a, b) of the period under the key built up to @len */
static void emit(struct offcpu *o, int len, uint64_t a, uint64_t b)
{
	struct offcpu_chain *c = o->chain;
	long id;

	if (b <= a)
		return;
	id = offcpu_sum_put(o, c->key, (uint32_t)len, b - a, 0);
	if (id < 0 || o->sum[id].period == c->period)
		return;
	o->sum[id].period = c->period;	/* the period counted once per key */
	o->sum[id].n++;
}

/* add_link - a link of kind @code at @len: its thread and stacks; the new length */
static int add_link(struct offcpu *o, int len, int code, int tid, int tgid, uint32_t kst,
		uint32_t ust)
{
	uint64_t *k = o->chain->key + len;

	k[CL_CODE] = (uint64_t)code;
	k[CL_TID] = (uint64_t)(int64_t)tid;
	k[CL_TGID] = (uint64_t)(int64_t)tgid;
	k[CL_KST] = kst;
	k[CL_UST] = ust;
	return len + CL_LEN;
}

/* unknown - [a, b) named by @why, a thread's (@tid) or none's */
static void unknown(struct offcpu *o, int len, int why, int tid, uint64_t a, uint64_t b)
{
	if (b <= a)
		return;
	o->chain->notes.unknown_ns[why] += b - a;
	emit(o, add_link(o, len, CL_UNKNOWN, why, tid, 0, 0), a, b);
}

/* running - [a, b) of @ct on a CPU, split evenly over its samples there: their stacks */
static void running(struct offcpu *o, int len, const struct chain_task *ct, uint64_t a,
		    uint64_t b)
{
	uint32_t lo = 0, hi = ct->sn, i, n;
	uint64_t t = a, step;

	while (lo < hi) {	/* the first sample at or after a */
		uint32_t mid = (lo + hi) / 2;

		if (ct->smp[mid].ts < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (n = 0; lo + n < ct->sn && ct->smp[lo + n].ts < b; n++)
		;
	if (!n) {
		o->chain->notes.unsampled_ns += b - a;
		emit(o, add_link(o, len, CL_RUN, ct->tid, ct->tgid, 0, 0), a, b);
		return;
	}
	step = (b - a) / n;
	for (i = 0; i < n; i++, t += step) {
		const struct chain_smp *s = &ct->smp[lo + i];

		emit(o, add_link(o, len, CL_RUN, ct->tid, ct->tgid, s->kst, s->ust), t,
		     i == n - 1 ? b : t + step);
	}
}

static void explain(struct offcpu *o, int tid, uint64_t a, uint64_t b, int depth, int len);

/*
 * blocked - [a, b) of @ct blocked in segment @s (the next one's kind @next, -1 none):
 * to its waker's doings then, under a link of its stacks (none for the victim: its own
 * are the key's first part); lost events after it name its time lost
 */
static void blocked(struct offcpu *o, int len, const struct chain_task *ct,
		    const struct chain_seg *s, int next, uint64_t a, uint64_t b, int depth)
{
	if (depth)
		len = add_link(o, len, CL_BLOCKED, ct->tid, ct->tgid, s->kst, s->ust);
	if (next < 0 || s->waker < 0) {	/* still blocked, or its wakeup not seen */
		unknown(o, len, next == CS_LOST ? OFFCPU_CHAIN_LOST : OFFCPU_CHAIN_NO_WAKEUP,
			ct->tid, a, b);
	} else if (s->ctx) {
		emit(o, add_link(o, len, CL_IRQ, s->ctx, -1, 0, 0), a, b);
	} else if (!s->waker) {
		emit(o, add_link(o, len, CL_IDLE, 0, 0, 0, 0), a, b);
	} else if (depth >= o->chain_depth) {
		emit(o, len, a, b);	/* the chain ends at this link's stacks */
	} else {
		explain(o, s->waker, a, b, depth + 1, len);
	}
}

/* explain - what thread @tid did over [a, b), the key built up to @len, @depth wakers deep */
static void explain(struct offcpu *o, int tid, uint64_t a, uint64_t b, int depth, int len)
{
	struct chain_task *ct = ft_tab_find(&o->chain->tasks, tid);
	uint32_t i;

	if (!ct || !ct->n) {
		unknown(o, len, ft_env_traced(o->env, tid) ? OFFCPU_CHAIN_NO_RECORD :
			OFFCPU_CHAIN_NOT_FOLLOWED, tid, a, b);
		return;
	}
	if (seg_at(ct, 0)->t0 > a) {
		unknown(o, len, OFFCPU_CHAIN_HISTORY, tid, a,
			seg_at(ct, 0)->t0 < b ? seg_at(ct, 0)->t0 : b);
		a = seg_at(ct, 0)->t0;
	}
	for (i = 0; i < ct->n && a < b; i++) {
		const struct chain_seg *s = seg_at(ct, i);
		bool open = i + 1 == ct->n;
		uint64_t end = open ? b : seg_at(ct, i + 1)->t0;
		uint64_t y = end < b ? end : b;

		if (end <= a)
			continue;
		switch (s->kind) {
		case CS_RUN:
			running(o, len, ct, a, y);
			break;
		case CS_READY:
			emit(o, add_link(o, len, CL_READY, depth ? tid : -1, ct->tgid, 0, 0), a, y);
			break;
		case CS_BLOCKED:
			blocked(o, len, ct, s, open ? -1 : seg_at(ct, i + 1)->kind, a, y, depth);
			break;
		default:
			unknown(o, len, OFFCPU_CHAIN_LOST, tid, a, y);
		}
		a = y;
	}
}

/*
 * offcpu_chain_period - a blocked period of the victim (its key's first @vlen entries
 * in @vkey) from @start to @end, explained into keys; its total is the period's
 */
void offcpu_chain_period(struct offcpu *o, const uint64_t *vkey, int vlen, int tid,
			 uint64_t start, uint64_t end)
{
	struct offcpu_chain *c = o->chain;

	memcpy(c->key, vkey, vlen * sizeof(*vkey));
	c->period++;
	c->notes.periods++;
	explain(o, tid, start, end, 0, vlen);
}

/*
 * offcpu_chain_check - --chain against the other options, its defaults: the switch-out
 * stacks ftrace's, the on-CPU samples cpu-clock at -F (997) with whole user stacks
 * where a process is chosen (the kernel's frame-pointer walk for a whole system, as
 * offcpu's default); a file's own when they are cpu-clock. 0, or -1 printed.
 */
int offcpu_chain_check(struct offcpu *o, const struct ft_env *env)
{
	bool chosen = (env->task_filter || env->command) && !env->all && !env->cpu_on;

	if (o->wakers) {
		ft_err("--chain and --wakers exclude each other: the chain names the wakers");
		return -1;
	}
	if (o->stacks_perf || o->sreq.callgraph) {
		ft_err("--chain takes the switch-out stacks from ftrace: not with --stacks perf "
		       "or --call-graph");
		return -1;
	}
	if (!o->chain_depth)
		o->chain_depth = 3;
	o->creq = (struct ft_sample_req){
		.freq = o->creq.freq ? o->creq.freq : 997, .user = !o->kstack_only,
		.kernel = !o->ustack_only, .callgraph = chosen ? FT_CG_DWARF : FT_CG_FP,
		.optional = true,
	};
	o->chain_sampled = true;	/* unless declined: none, or a file's of another event */
	return 0;
}

/* offcpu_chain_declined - no on-CPU samples: running links without their stacks */
void offcpu_chain_declined(struct offcpu *o, const char *why)
{
	ft_err("offcpu --chain: running links without stacks: %s", why);
	o->chain_sampled = false;
}

/* offcpu_chain_init - the timelines; 0, or -1 out of memory */
int offcpu_chain_init(struct offcpu *o)
{
	struct offcpu_chain *c = calloc(1, sizeof(*c));
	int i;

	o->chain = c;
	if (!c || !(c->pend = malloc(o->env->ncpus * sizeof(*c->pend))) ||
	    ft_tab_init(&c->tasks, sizeof(struct chain_task)))
		return -1;
	for (i = 0; i < o->env->ncpus; i++)
		c->pend[i] = -1;
	c->keep_all = !o->env->live;
	return 0;
}

/* offcpu_chain_notes - what the chain could not name, for the report */
const struct offcpu_chain_notes *offcpu_chain_notes(const struct offcpu *o)
{
	return &o->chain->notes;
}

/* offcpu_chain_reset - the next interval's notes (the timelines stay) */
void offcpu_chain_reset(struct offcpu *o)
{
	if (o->chain)
		memset(&o->chain->notes, 0, sizeof(o->chain->notes));
}

/* offcpu_chain_fini - free the timelines (again: nothing) */
void offcpu_chain_fini(struct offcpu *o)
{
	struct offcpu_chain *c = o->chain;
	unsigned int i;

	if (!c)
		return;
	for (i = 0; i < c->tasks.n; i++) {
		struct chain_task *ct = ft_tab_at(&c->tasks, i);

		free(ct->seg);
		free(ct->smp);
	}
	ft_tab_fini(&c->tasks);
	free(c->pend);
	FT_FREE(o->chain);
}
