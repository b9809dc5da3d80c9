// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu --stacks perf: the blocked periods' stacks from perf_event_open samples of
 * sched:sched_switch (period 1, callchains up to 127 frames) instead of ftrace's
 * stacktrace/userstacktrace records (8 user frames).
 *
 *   CPU c:  sample(tid T, ts t1)                         perf ring, drained first
 *           sched_switch(prev T, ts t0)                  trace, merged 20 ms later
 *           |t1 - t0| <= MATCH_NS: the sample is the stack T blocks on
 *
 * Both fire in the same tracepoint call, in the context of the task switching out,
 * on the same CPU and the same clock (the trace's), microseconds apart. Samples
 * arrive ahead of the records (live, each round drains the rings before the merge;
 * from a file, all of them first), in time order per CPU: each CPU keeps a queue,
 * and a switch-out takes the sample of its task nearest in time within MATCH_NS,
 * dropping the older ones, which no later record can match. Or earlier, back to the
 * CPU's switch before it: a sample there is of the task switching out, which ran
 * since (its sample comes first where another perf session's probe came before
 * ftrace's on the tracepoint: 27-47 us before beside perf record -g -a, and a vCPU
 * the host preempts in between parts them by milliseconds).
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/offcpu_int.h"
#include "lib/util.h"
#include "output/json.h"

/*
 * Largest gap between a switch's sample and its record that still pairs them.
 * Measured (docs/offcpu.md): the sample comes 0.5-17 us after the record idle
 * (3 x 3 s whole system), 0.5-57 us beside perf bench sched messaging -g 2
 * (222 870 pairs, 99.9% within 2.9 us), never before it. Wider lets a switch whose
 * sample is missing take its task's sample of an earlier switch on that CPU (seen
 * with 5 ms: -307 us, a preemption's stack).
 */
#define MATCH_NS	(100 * 1000ULL)

/* User stacks of --stacks perf: CFI unwinding of a stack copy (docs/offcpu.md: its cost) */
#define DEFAULT_CALLGRAPH	FT_CG_DWARF

/* Queue length per CPU: live, what one round brings; from a file, all of them. */
#define QUEUE_LIVE	(1U << 16)
#define QUEUE_FILE	(1U << 21)

/* A sample waiting for its switch-out record; stack ids are id + 1, 0 none. */
struct psample {
	uint64_t	ts;
	int		tid;		/* -1: taken */
	int		tgid;
	uint32_t	kst, ust;
	uint8_t		nk, nu;		/* frames taken (capped at 255) */
	uint8_t		early;		/* the user walk ended at code without FPs */
	uint8_t		unmapped;	/* the process's maps were never read */
};

/* One CPU's samples, oldest first (a ring of cap entries). */
struct pqueue {
	struct psample	*s;
	uint64_t	first;		/* time of the CPU's first sample, 0 none yet */
	uint64_t	since, last;	/* the CPU's switch records: the one before, the last */
	uint32_t	head, n, cap;
};

/*
 * A switch-out no sample matched within MATCH_NS. Its sample may still come later (a
 * slow machine: QEMU's TCG took 2.3 ms for the first sample of a run): a task cannot
 * switch out again before it switches in, so the first sample of its thread on that
 * CPU after the switch-out and before its switch-in is the one (offcpu_perf_late).
 */
struct plate {
	int		tid, cpu;
	uint64_t	ts;		/* the switch-out */
	bool		before;		/* counted as before sampling began */
	bool		found;		/* s holds the sample, taken from a queue's head */
	struct psample	s;
};

/* Unmatched switch-outs waited for at once; more are left unmatched. */
#define LATE_MAX	64

struct offcpu_perf {
	struct pqueue	*q;
	struct pqueue	*wq;		/* --wakers: the sched_waking samples, per CPU */
	int		ncpus;
	uint32_t	max;		/* QUEUE_LIVE or QUEUE_FILE */
	uint64_t	fr[FT_SAMPLE_MAX_STACK];
	struct plate	late[LATE_MAX];
	int		nlate;
};

/**
 * offcpu_stacks_opt - --stacks ftrace|perf
 * Returns 0, or FT_OPT_REPORTED after one error line.
 */
int offcpu_stacks_opt(struct offcpu *o, const char *arg)
{
	if (strcmp(arg, "ftrace") && strcmp(arg, "perf")) {
		ft_err("--stacks takes ftrace or perf, not '%s'", arg);
		return FT_OPT_REPORTED;
	}
	o->stacks_perf = !strcmp(arg, "perf");
	o->stacks_set = true;
	return 0;
}

/**
 * offcpu_callgraph_opt - --call-graph fp|dwarf[,SIZE]: how the user stacks of perf
 * samples are taken (--stacks perf, which it implies)
 * Returns 0, or FT_OPT_REPORTED after one error line.
 */
int offcpu_callgraph_opt(struct offcpu *o, const char *arg)
{
	return ft_sample_callgraph_opt(&o->sreq, arg) ? FT_OPT_REPORTED : 0;
}

/* offcpu_perf_check - --stacks, --call-graph and --wakers against each other; -1 printed */
int offcpu_perf_check(struct offcpu *o, const struct ft_env *env)
{
	bool chosen;

	if (o->sreq.callgraph && o->stacks_set && !o->stacks_perf) {
		ft_err("--call-graph shapes the stacks of perf samples: not with --stacks ftrace");
		return -1;
	}
	if (o->sreq.callgraph && !env->live) {
		ft_err("--call-graph chooses how a live run samples: a file (-i) holds the "
		       "stacks it was recorded with");
		return -1;
	}
	if (o->sreq.callgraph)
		o->stacks_perf = true;
	/* the default: whole user stacks where a process is chosen (a whole system's
	   every switch copying 8 KB of stack costs too much) or a file may hold them;
	   with --wakers live only (a file keeps no waker samples: its ftrace stacks) */
	chosen = (env->task_filter || env->command) && !env->all && !env->cpu_on;
	if (!o->stacks_set && !o->stacks_perf && !o->kstack_only &&
	    (o->wakers ? env->live && chosen && !o->ustack_only : !env->live || chosen)) {
		o->stacks_auto = true;
		o->auto_live = env->live;
	}
	/* the wakers' stacks from samples of sched_waking beside the switches' */
	o->wakers_perf = o->wakers && (o->stacks_perf || o->stacks_auto);
	return 0;
}

/* offcpu_sampling - perf stacks asked for or by default: every sched_switch, stacks */
const struct ft_sample_req *offcpu_sampling(void *priv)
{
	struct offcpu *o = priv;

	if (o->chain_on)	/* its on-CPU samples */
		return o->chain_sampled ? &o->creq : NULL;
	if (!o->stacks_perf && !o->stacks_auto)
		return NULL;
	o->sreq.event = "sched:sched_switch";
	o->sreq.freq = 0;
	o->sreq.period = 1;
	o->sreq.user = !o->kstack_only;
	o->sreq.kernel = !o->ustack_only;
	o->sreq.optional = o->stacks_auto;
	if (!o->sreq.callgraph)
		o->sreq.callgraph = DEFAULT_CALLGRAPH;
	o->sreq.second = NULL;
	if (o->wakers_perf) {	/* any task's waking of a target, per CPU */
		o->wreq = (struct ft_sample_req){ .event = "sched:sched_waking", .period = 1,
						  .user = o->sreq.user,
						  .kernel = o->sreq.kernel,
						  .callgraph = o->sreq.callgraph,
						  .stack_user = o->sreq.stack_user,
						  .pid_field = "pid" };
		o->sreq.second = &o->wreq;
	}
	return &o->sreq;
}

/* offcpu_second_declined - the wakings' samples not taken: wakers without stacks */
void offcpu_second_declined(void *priv, const char *why)
{
	struct offcpu *o = priv;

	o->wakers_perf = false;
	if (o->stacks_auto) {	/* the default: ftrace's stacks for both, as asked for none */
		offcpu_sampling_declined(priv, why);
		return;
	}
	ft_err("offcpu --wakers: no waker stacks (they come from samples of sched_waking): %s",
	       why);
}

/* offcpu_sampling_declined - the default's samples not taken: ftrace's stacks */
void offcpu_sampling_declined(void *priv, const char *why)
{
	struct offcpu *o = priv;

	if (o->chain_on) {
		offcpu_chain_declined(o, why);
		return;
	}
	if (o->auto_live)
		ft_err("offcpu's stacks from ftrace (frame pointers, 8 user frames): %s", why);
	o->stacks_auto = false;
	o->wakers_perf &= o->stacks_perf;
}

/* offcpu_perf_init - the queues; a file's samples must be of sched_switch */
int offcpu_perf_init(struct offcpu *o)
{
	const struct ft_sample_req *r = o->env->sampled;
	struct offcpu_perf *p;

	o->stacks_perf |= o->stacks_auto;	/* not declined: taken */
	if (!o->stacks_perf)
		return 0;
	/* profile's samples are its own: the switches' ride beside them (req.second) */
	if (r && !o->period_cb &&
	    (!r->event || strcmp(r->event, "sched:sched_switch") || r->period != 1)) {
		ft_err("the samples kept are not of every sched:sched_switch (%s): "
		       "record with ftscope offcpu --stacks perf -o FILE",
		       r->event ? r->event : "cpu-clock");
		return -1;
	}
	p = calloc(1, sizeof(*p));
	if (p)
		p->q = calloc(o->env->ncpus, sizeof(*p->q));
	if (!p || !p->q) {
		free(p);
		ft_err("out of memory");
		return -1;
	}
	if (o->wakers_perf && (!r || !r->second)) {	/* a file keeps one event */
		ft_err("offcpu --wakers: no waker stacks: a recording keeps the samples of "
		       "sched_switch alone");
		o->wakers_perf = false;
	}
	if (o->wakers_perf)
		p->wq = calloc(o->env->ncpus, sizeof(*p->wq));
	if (o->wakers_perf && !p->wq) {
		free(p->q);
		free(p);
		ft_err("out of memory");
		return -1;
	}
	p->ncpus = o->env->ncpus;
	p->max = o->env->live ? QUEUE_LIVE : QUEUE_FILE;
	o->perf = p;
	return 0;
}

/* q_at - the @i-th oldest sample of @q */
static struct psample *q_at(struct pqueue *q, uint32_t i)
{
	return &q->s[(q->head + i) % q->cap];
}

/* q_push - room for one more sample at the tail: grows, or drops the oldest at @max */
static struct psample *q_push(struct offcpu *o, struct pqueue *q, uint32_t max)
{
	if (q->n == q->cap && q->cap < max) {
		uint32_t cap = q->cap ? q->cap * 2 : 256, i;
		struct psample *s = malloc(cap * sizeof(*s));

		if (!s)
			return NULL;
		for (i = 0; i < q->n; i++)
			s[i] = *q_at(q, i);
		free(q->s);
		q->s = s;
		q->cap = cap;
		q->head = 0;
	}
	if (q->n == q->cap) {
		o->sn.samples_dropped += q_at(q, 0)->tid >= 0;
		q->head = (q->head + 1) % q->cap;
		q->n--;
	}
	return q_at(q, q->n++);
}

/* user_stack - the user frames of @s as FT_UFRAME frames, interned (id + 1) */
static uint32_t user_stack(struct offcpu *o, const struct ft_sample *s, struct psample *e)
{
	const uint64_t *ip = s->ip + s->nk;
	int n;
	long id;

	n = ft_usyms_frames(&o->usyms, s->pid, ip, s->nu, o->perf->fr);
	e->early = n < s->nu && ft_usyms_known(&o->usyms, s->pid);
	e->unmapped = !ft_usyms_known(&o->usyms, s->pid);
	e->nu = n > 255 ? 255 : n;
	id = n ? ft_intern_put(&o->ust, o->perf->fr, n) : -1;
	return (uint32_t)(id + 1);
}

/* offcpu_sample - one sample of a switch: its stacks interned now, queued on its CPU */
void offcpu_sample(void *priv, const struct ft_sample *s)
{
	struct offcpu *o = priv;
	struct pqueue *q;
	struct psample *e;
	long id;

	if (o->chain) {
		offcpu_chain_sample(o, s);
		return;
	}
	/* not by env->traced: a new thread's samples come before its fork record; a
	   waking's waker may be the idle task (an interrupt's) */
	if (!o->perf || s->tid < 0 || (!s->tid && !s->event) || s->cpu < 0 ||
	    s->cpu >= o->perf->ncpus || (s->event && !o->perf->wq))
		return;
	q = s->event ? &o->perf->wq[s->cpu] : &o->perf->q[s->cpu];
	if (!q->first)
		q->first = s->ts;
	e = q_push(o, q, o->perf->max);
	if (!e)
		return;
	memset(e, 0, sizeof(*e));
	e->ts = s->ts;
	e->tid = s->tid;
	e->tgid = s->pid;
	if (s->nk) {
		id = ft_intern_put(&o->kst, s->ip, (uint32_t)s->nk);
		e->kst = (uint32_t)(id + 1);
		e->nk = s->nk > 255 ? 255 : s->nk;
	}
	if (s->maps)		/* the kernel's word on its mappings, before its frames */
		ft_usyms_add_maps(&o->usyms, s->maps, s->maps_len);
	if (s->nu && s->pid > 0) {
		ft_usyms_note(&o->usyms, s->pid);
		e->ust = user_stack(o, s, e);
	}
}

/* took - the notes of a sample that became a period's stacks (@late: after MATCH_NS) */
static void took(struct offcpu *o, const struct psample *e, uint64_t ts, bool late)
{
	struct offcpu_stack_notes *sn = &o->sn;
	uint64_t d = e->ts > ts ? e->ts - ts : ts - e->ts;

	sn->sampled++;
	if (late) {
		sn->late++;
		if (d > sn->late_ns)
			sn->late_ns = d;
	} else if (d > sn->match_ns) {
		sn->match_ns = d;
	}
	if (e->nk > sn->kdepth)
		sn->kdepth = e->nk;
	if (e->nu > sn->udepth)
		sn->udepth = e->nu;
	if (e->ust) {
		sn->ustack_early += e->early;
		sn->ustack_unmapped += e->unmapped;
		sn->ustack_limit += e->nu >= FT_SAMPLE_MAX_STACK;
	}
}

/* give - sample @e's stacks to a period (into @kst, @ust, @tgid), taken from its queue */
static void give(struct psample *e, uint32_t *kst, uint32_t *ust, int *tgid)
{
	*kst = e->kst;
	*ust = e->ust;
	if (e->tgid > 0)
		*tgid = e->tgid;
	e->tid = -1;
}

/* wait_late - an unmatched switch-out @ev: its sample is looked for until its switch-in
   (a thread's older entry, whose switch-in was never seen, is replaced) */
static void wait_late(struct offcpu_perf *p, const struct ft_event *ev, bool before)
{
	int i;

	for (i = 0; i < p->nlate && p->late[i].tid != ev->sw.prev_pid; i++)
		;
	if (i == LATE_MAX)
		return;
	p->nlate += i == p->nlate;
	p->late[i] = (struct plate){ .tid = ev->sw.prev_pid, .cpu = ev->cpu, .ts = ev->ts,
				     .before = before };
}

/* offcpu_perf_lost - events were lost: no switch-out waits for a late sample any more,
   and no CPU's last switch is known */
void offcpu_perf_lost(struct offcpu *o)
{
	int i;

	if (!o->perf)
		return;
	o->perf->nlate = 0;
	for (i = 0; i < o->perf->ncpus; i++)
		o->perf->q[i].since = o->perf->q[i].last = 0;
}

/* offcpu_perf_switch - a switch record on its CPU, or a rebuilt switch-out of a task (its
   sample, from before the record that revealed it, is not a later switch-out's): the
   window's start */
void offcpu_perf_switch(struct offcpu *o, const struct ft_event *ev)
{
	struct pqueue *q;

	if (!o->perf || ev->cpu < 0 || ev->cpu >= o->perf->ncpus)
		return;
	q = &o->perf->q[ev->cpu];
	q->since = q->last;
	q->last = ev->ts;
}

/* keep_late - a sample leaving @cpu's queue: an unmatched switch-out's, kept for it */
static void keep_late(struct offcpu_perf *p, int cpu, const struct psample *e)
{
	int i;

	for (i = 0; e->tid >= 0 && i < p->nlate; i++) {
		struct plate *l = &p->late[i];

		if (!l->found && l->tid == e->tid && l->cpu == cpu && e->ts + MATCH_NS >= l->ts) {
			l->s = *e;
			l->found = true;
			return;
		}
	}
}

/**
 * offcpu_perf_late - the switch-in at @end of @tid, whose switch-out at @start found no
 * sample: its sample if it came late (the first of @tid on that CPU from the switch-out
 * on, before @end), into @kst, @ust, @tgid. @guard: @end is a record of the thread's
 * own that may have a sample of its own (its next switch-out, where its switch-in went
 * unseen; the record that proved a rebuilt one), stamped up to MATCH_NS either side of
 * it (before it where perf's probe runs first): the search stops MATCH_NS before @end
 */
void offcpu_perf_late(struct offcpu *o, int tid, uint64_t start, uint64_t end, bool guard,
		      uint32_t *kst, uint32_t *ust, int *tgid)
{
	struct offcpu_perf *p = o->perf;
	struct psample *e = NULL;
	struct plate *l = NULL;
	uint32_t i;
	int k;

	for (k = 0; p && k < p->nlate && !l; k++)
		if (p->late[k].tid == tid)
			l = &p->late[k];
	if (!l)
		return;
	if (guard)
		end = end > MATCH_NS ? end - MATCH_NS : 0;
	if (l->ts != start) {	/* another period's: its switch-in was not seen */
		*l = p->late[--p->nlate];
		return;
	}
	if (l->found) {
		e = &l->s;
	} else {
		struct pqueue *q = &p->q[l->cpu];

		for (i = 0; i < q->n && q_at(q, i)->ts < end && !e; i++)
			if (q_at(q, i)->tid == tid && q_at(q, i)->ts + MATCH_NS >= l->ts)
				e = q_at(q, i);
	}
	if (e && e->ts < end) {
		took(o, e, l->ts, true);
		give(e, kst, ust, tgid);
		/* counted unmatched at the switch-out: not if an interval report has
		   reset the counts since (that interval said it unmatched) */
		if (l->before && o->sn.before_sampling)
			o->sn.before_sampling--;
		else if (!l->before && o->sn.no_sample)
			o->sn.no_sample--;
	}
	*l = p->late[--p->nlate];
}

/*
 * nearest - the sample of @tid in @q nearest in time to @ts within MATCH_NS (before it,
 * back to @since too, when later: the switch before on that CPU), or NULL; the older
 * ones, which no later record can match, dropped (with @late: one an unmatched
 * switch-out on @cpu waits for kept, keep_late)
 */
static struct psample *nearest(struct pqueue *q, uint64_t ts, int tid,
				struct offcpu_perf *late, int cpu, uint64_t since)
{
	uint64_t lo = ts > MATCH_NS ? ts - MATCH_NS : 0, bd = UINT64_MAX;
	struct psample *e, *best = NULL;
	uint32_t i;

	if (since && since < lo)
		lo = since + 1;
	while (q->n && (q_at(q, 0)->tid < 0 || q_at(q, 0)->ts < lo)) {
		if (late)
			keep_late(late, cpu, q_at(q, 0));
		q->head = (q->head + 1) % q->cap;
		q->n--;
	}
	for (i = 0; i < q->n && (e = q_at(q, i))->ts <= ts + MATCH_NS; i++) {
		uint64_t d = e->ts > ts ? e->ts - ts : ts - e->ts;

		if (e->tid == tid && d < bd) {
			best = e;
			bd = d;
		}
	}
	return best;
}

/*
 * offcpu_perf_waker - --wakers: the stacks of waking @ev's waker (its sample on this
 * CPU nearest in time) into @kst, @ust, @tgid; a wakeup of another kind has none
 */
void offcpu_perf_waker(struct offcpu *o, const struct ft_event *ev, uint32_t *kst,
		       uint32_t *ust, int *tgid)
{
	struct psample *e;

	if (!o->perf || !o->perf->wq || ev->cpu < 0 || ev->cpu >= o->perf->ncpus ||
	    ev->type != FT_EV_WAKING)
		return;
	e = nearest(&o->perf->wq[ev->cpu], ev->ts, ev->common_pid, NULL, 0, 0);
	if (!e) {
		o->sn.waker_no_sample++;
		return;
	}
	o->sn.waker_sampled++;
	give(e, kst, ust, tgid);
}

/*
 * offcpu_perf_stacks - a counted switch-out @ev: the stacks of its sample (the one
 * of prev on this CPU nearest in time, within MATCH_NS) into @kst, @ust, @tgid
 */
void offcpu_perf_stacks(struct offcpu *o, const struct ft_event *ev, uint32_t *kst,
			uint32_t *ust, int *tgid)
{
	struct pqueue *q;
	struct psample *best;
	bool before;

	if (!o->perf || ev->cpu < 0 || ev->cpu >= o->perf->ncpus)
		return;
	q = &o->perf->q[ev->cpu];
	/* older ones match no record from here on: records come in time order (a late
	   sample of an unmatched switch-out is kept for its switch-in) */
	best = nearest(q, ev->ts, ev->sw.prev_pid, o->perf, ev->cpu, q->since);
	if (!best) {
		/* a task's exit (X, Z) comes after perf closed its events: no period follows */
		if (ev->sw.state == 'X' || ev->sw.state == 'Z')
			return;
		/* before the first sample on this CPU: a command before its exec */
		before = !q->first || ev->ts + MATCH_NS < q->first;
		if (before)
			o->sn.before_sampling++;
		else
			o->sn.no_sample++;
		wait_late(o->perf, ev, before);
		return;
	}
	took(o, best, ev->ts, false);
	give(best, kst, ust, tgid);
}

/* offcpu_perf_notes - where the stacks came from, how deep, what was missing */
void offcpu_perf_notes(struct offcpu *o, FILE *f)
{
	const struct offcpu_stack_notes *sn = &o->sn;
	bool dwarf = o->env->sampled && o->env->sampled->callgraph == FT_CG_DWARF;

	fprintf(f, "offcpu: stacks from perf samples of sched_switch: %llu of %llu switch-outs "
		"matched (within %llu us), deepest %d user and %d kernel frames (at most %d)\n",
		sn->sampled, sn->sampled + sn->no_sample + sn->before_sampling,
		(unsigned long long)(sn->match_ns + 999) / 1000, sn->udepth, sn->kdepth,
		FT_SAMPLE_MAX_STACK);
	if (dwarf && o->env->samples)
		ft_sample_unwind_note(f, "offcpu", o->env->sampled, o->env->samples);
	if (sn->ustack_early || sn->ustack_limit)
		fprintf(f, "offcpu: user stacks (%s): %llu end early at %s, "
			"%llu reach %d frames (deeper frames cut)\n",
			dwarf ? "CFI" : "frame-pointer walk", sn->ustack_early,
			dwarf ? "an address in no file mapping" :
			"code built without frame pointers", sn->ustack_limit,
			FT_SAMPLE_MAX_STACK);
	if (sn->late)
		fprintf(f, "offcpu: %llu of them matched late: their samples came up to %llu us "
			"after the switch-out, before the thread ran again\n", sn->late,
			(unsigned long long)(sn->late_ns + 999) / 1000);
	if (sn->no_sample || sn->before_sampling)
		fprintf(f, "offcpu: %llu switch-outs without their sample (none within %llu us), "
			"%llu more before sampling began: no stacks\n", sn->no_sample,
			MATCH_NS / 1000, sn->before_sampling);
	if (o->perf->wq)
		fprintf(f, "offcpu: wakers' stacks from perf samples of sched_waking: %llu of %llu "
			"wakings matched\n", sn->waker_sampled,
			sn->waker_sampled + sn->waker_no_sample);
	if (sn->samples_dropped)
		fprintf(f, "offcpu: %llu samples dropped before a record could match them "
			"(queue of %u a CPU full)\n", sn->samples_dropped, o->perf->max);
}

/* offcpu_perf_json - the same as JSON fields */
void offcpu_perf_json(struct offcpu *o, struct ft_json *j)
{
	ft_json_str(j, "stack_source", "perf");
	ft_json_u64(j, "switch_outs_sampled", o->sn.sampled);
	ft_json_u64(j, "switch_outs_without_sample", o->sn.no_sample);
	ft_json_u64(j, "switch_outs_before_sampling", o->sn.before_sampling);
	ft_json_u64(j, "switch_outs_matched_late", o->sn.late);
	ft_json_u64(j, "deepest_user_stack", (uint64_t)o->sn.udepth);
	ft_json_u64(j, "deepest_kernel_stack", (uint64_t)o->sn.kdepth);
	ft_json_u64(j, "user_stacks_at_limit", o->sn.ustack_limit);
	ft_json_u64(j, "samples_dropped", o->sn.samples_dropped);
	if (o->perf && o->perf->wq) {
		ft_json_u64(j, "wakings_sampled", o->sn.waker_sampled);
		ft_json_u64(j, "wakings_without_sample", o->sn.waker_no_sample);
	}
	if (o->env->samples && ft_sample_unwound(o->env->samples)) {
		int i;

		ft_json_obj_begin(j, "user_stacks_unwound");
		for (i = 0; i < FT_UNWIND_NEND; i++)
			ft_json_u64(j, ft_sample_unwind_key(i), o->env->samples->unwound[i]);
		ft_json_obj_end(j);
	}
}

/* offcpu_perf_fini - free the queues */
void offcpu_perf_fini(struct offcpu *o)
{
	int i;

	if (!o->perf)
		return;
	for (i = 0; i < o->perf->ncpus; i++) {
		free(o->perf->q[i].s);
		if (o->perf->wq)
			free(o->perf->wq[i].s);
	}
	free(o->perf->wq);
	free(o->perf->q);
	free(o->perf);
	o->perf = NULL;
}
