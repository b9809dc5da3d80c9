// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu: where threads block, BCC offcputime semantics, from ftrace alone.
 *
 *   switch-out(T, S|D...)  + kernel_stack + user_stack    ...    switch-in(T)
 *        |----------------------- off-CPU time of T ------------------|
 *
 * The stacks are those of the instance's stacktrace and userstacktrace options:
 * the kernel records them right after the sched_switch, on the same CPU, in the
 * context of the task switching out. A switch-in the kernel did not record (idle
 * on some CPUs) is rebuilt by the switch chain, and the period ends at its estimate:
 * near the task's wakeup or migration (wakeups are always recorded), else the task's
 * first record there, an upper bound. Both kinds are counted. With
 * --wakers, the sched_waking that ends a period is followed by the waker's stacks (or,
 * with --stacks perf, has its sample: offcpu_perf.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/offcpu_int.h"
#include "analyzers/stack_syms.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "output/flame.h"

enum {
	OPT_DELIMITED = 0x100, OPT_STATE, OPT_SVG, OPT_WAKERS, OPT_STACKS, OPT_PPROF,
	OPT_CALL_GRAPH, OPT_CHAIN, OPT_CHAIN_DEPTH, OPT_LOCKS,
};

static const struct option offcpu_longopts[] = {
	{ "folded",		no_argument,		NULL, 'f' },
	{ "user-threads-only",	no_argument,		NULL, 'u' },
	{ "kernel-threads-only", no_argument,		NULL, 'k' },
	{ "user-stacks-only",	no_argument,		NULL, 'U' },
	{ "kernel-stacks-only",	no_argument,		NULL, 'K' },
	{ "min-block-time",	required_argument,	NULL, 'm' },
	{ "max-block-time",	required_argument,	NULL, 'M' },
	{ "delimited",		no_argument,		NULL, OPT_DELIMITED },
	{ "state",		required_argument,	NULL, OPT_STATE },
	{ "svg",		required_argument,	NULL, OPT_SVG },
	{ "pprof",		required_argument,	NULL, OPT_PPROF },
	{ "wakers",		no_argument,		NULL, OPT_WAKERS },
	{ "stacks",		required_argument,	NULL, OPT_STACKS },
	{ "call-graph",		required_argument,	NULL, OPT_CALL_GRAPH },
	{ "chain",		no_argument,		NULL, OPT_CHAIN },
	{ "chain-depth",	required_argument,	NULL, OPT_CHAIN_DEPTH },
	{ "freq",		required_argument,	NULL, 'F' },
	{ "locks",		no_argument,		NULL, OPT_LOCKS },
	{ 0 }
};

/* parse_states - "SD", "R", "all": the switch-out states that start a period */
static int parse_states(struct offcpu *o, const char *arg)
{
	const char *p;

	memset(o->state_on, 0, sizeof(o->state_on));
	o->states_set = true;
	if (!strcmp(arg, "all")) {
		memset(o->state_on, 1, sizeof(o->state_on));
		return 0;
	}
	for (p = arg; *p; p++) {
		if (*p == ',' || *p == '|')
			continue;
		if (!strchr("RSDTtXZPIWKN", *p))
			return -1;
		o->state_on[(unsigned char)*p] = true;
	}
	return p == arg ? -1 : 0;
}

/* offcpu_parse_opt - the options only offcpu has */
static int offcpu_parse_opt(void *priv, int opt, const char *arg)
{
	struct offcpu *o = priv;
	long v;

	switch (opt) {
	case 'f': o->folded = true; return 0;
	case 'u': o->user_threads = true; return 0;
	case 'k': o->kernel_threads = true; return 0;
	case 'U': o->ustack_only = true; return 0;
	case 'K': o->kstack_only = true; return 0;
	case OPT_DELIMITED: o->delimited = true; return 0;
	case OPT_WAKERS: o->wakers = true; return 0;
	case OPT_LOCKS: o->locks.on = true; return 0;
	case OPT_SVG: o->svg_path = arg; return 0;
	case OPT_PPROF: o->pprof.path = arg; return 0;
	case OPT_STATE: return parse_states(o, arg);
	case OPT_STACKS: return offcpu_stacks_opt(o, arg);
	case OPT_CALL_GRAPH: return offcpu_callgraph_opt(o, arg);
	case OPT_CHAIN: o->chain_on = true; return 0;
	case OPT_CHAIN_DEPTH:
		o->chain_on = true;
		if (ft_parse_long(arg, 1, OFFCPU_CHAIN_MAX, &v))
			return -1;
		o->chain_depth = (int)v;
		return 0;
	case 'F':
		if (ft_parse_long(arg, 1, 100000, &v))
			return -1;
		o->creq.freq = (uint64_t)v;
		return 0;
	case 'm':
	case 'M':
		if (ft_parse_long(arg, 0, 1000L * 1000 * 1000 * 3600, &v))
			return -1;
		*(opt == 'm' ? &o->min_ns : &o->max_ns) = (uint64_t)v * 1000;
		o->min_set |= opt == 'm';
		return 0;
	}
	return -1;
}

/*
 * offcpu_events - the stacks the options ask for, and the wakeups: where the kernel did
 * not record a switch-in, a period ends near the task's wakeup (events/chain.c), else
 * at its first record there, which may come much later (twice the off-CPU time of a
 * cold `find` was measured so). With perf samples neither ftrace's stacks nor wakeups
 * are recorded, as before the wakeups came (a sampled switch-out went unmatched in 2
 * of 6 make checks with them, never in 30 runs alone; cause not found); reading a file
 * by default, what the file has is read.
 */
static void offcpu_events(void *priv, unsigned int *need, unsigned int *want)
{
	struct offcpu *o = priv;
	bool ftrace = !o->stacks_perf && !(o->stacks_auto && o->auto_live);
	unsigned int *stacks = o->stacks_auto ? want : need;

	if (o->chain_on)	/* a chain is made of wakeups */
		*need |= FT_NEED(FT_EV_WAKING) | FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW);

	if (ftrace && !o->ustack_only)
		*stacks |= FT_NEED(FT_EV_KSTACK);
	if (ftrace && !o->kstack_only)
		*stacks |= FT_NEED(FT_EV_USTACK);
	if (ftrace || o->wakers || (o->stacks_auto && !o->auto_live))
		*want |= FT_NEED(FT_EV_WAKING) | FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW);
}

/* offcpu_check - the options against each other */
static int offcpu_check(void *priv, const struct ft_env *env)
{
	struct offcpu *o = priv;

	if (o->user_threads && o->kernel_threads) {
		ft_err("-u and -k exclude each other");
		return -1;
	}
	if (o->ustack_only && o->kstack_only) {
		ft_err("-U and -K exclude each other");
		return -1;
	}
	if (o->max_ns && o->max_ns < o->min_ns) {
		ft_err("--max-block-time is below --min-block-time");
		return -1;
	}
	if (!o->chain_on && o->creq.freq) {
		ft_err("-F sets --chain's on-CPU samples: not without --chain");
		return -1;
	}
	if (o->chain_on)
		return offcpu_chain_check(o, env);
	return offcpu_perf_check(o, env);
}

/**
 * offcpu_track_init - the tracking's tables, for offcpu and for an analyzer that
 * drives it (profile --offcpu), after the options are set. Returns 0 or -1 after
 * one error line.
 */
int offcpu_track_init(struct offcpu *o, const struct ft_env *env)
{
	int i;

	o->env = env;
	o->pend = malloc(env->ncpus * sizeof(*o->pend));
	o->pend_waker = calloc(env->ncpus, sizeof(*o->pend_waker));
	if (!o->pend || !o->pend_waker || ft_tab_init(&o->tasks, sizeof(struct offcpu_task)) ||
	    ft_intern_init(&o->kst) || ft_intern_init(&o->ust) || ft_intern_init(&o->keys) ||
	    ft_usyms_for(&o->usyms, env) || offcpu_lock_init(o)) {
		ft_err("out of memory");
		return -1;
	}
	for (i = 0; i < env->ncpus; i++)
		o->pend[i] = -1;
	return offcpu_perf_init(o);
}

static void offcpu_fini(void *priv);

/*
 * offcpu_init - defaults the options left open, the SVG and pprof files, empty
 * tables; on a failure, what it opened abandoned and what it allocated freed
 */
static int offcpu_init(void *priv, const struct ft_env *env)
{
	struct offcpu *o = priv;

	if (!o->states_set) {
		/* every sleeping state, not preemption */
		memset(o->state_on, 1, sizeof(o->state_on));
		o->state_on['R'] = false;
	}
	if (!o->min_set)
		o->min_ns = 1000;	/* BCC's default: periods under 1 us are noise */
	if (o->svg_path) {
		if (ft_outfile_open(&o->svg, o->svg_path)) {
			ft_err("cannot write %s: %s", o->svg_path, strerror(errno));
			return -1;
		}
	}
	if (offcpu_pprof_open(o) || offcpu_track_init(o, env) ||
	    (o->chain_on && offcpu_chain_init(o))) {
		offcpu_fini(o);
		return -1;
	}
	return 0;
}

/* is_kthread - a kernel thread: kthreadd or one of its children */
static bool is_kthread(struct offcpu *o, int tid)
{
	return tid == 2 || ft_tasks_ppid(o->env->tasks, tid) == 2;
}

/* counted - does a switch-out of @tid in this state start a period? */
static bool counted(struct offcpu *o, const struct ft_event *ev)
{
	int tid = ev->sw.prev_pid;
	char st = ev->sw.preempt ? 'R' : ev->sw.state;

	if (!tid || ev->sw.synth || !ft_env_traced(o->env, tid))
		return false;
	if (!o->state_on[(unsigned char)st])
		return false;
	if (o->user_threads || o->kernel_threads)
		return is_kthread(o, tid) == o->kernel_threads;
	return true;
}

/* note_stacks - the stack quality of one counted period */
static void note_stacks(struct offcpu *o, const struct offcpu_task *t)
{
	o->sn.periods++;
	o->sn.no_kstack += !t->kst && !o->ustack_only;
	o->sn.no_ustack += !t->ust && !o->kstack_only && t->tgid;
	o->sn.waker_no_kstack += o->wakers && t->r.waker >= 0 && !t->wkst && !o->ustack_only;
	o->locks.marked += !!t->lock;
}

/*
 * add - one finished period of @t: total per (thread, stacks, waker), or its chain's
 * pieces; false when -m/-M leave it out (the notes count the periods shown)
 */
static bool add(struct offcpu *o, struct offcpu_task *t, uint64_t ns, bool bound)
{
	uint64_t key[K_LEN] = { 0 };

	if (ns < o->min_ns || (o->max_ns && ns > o->max_ns))
		return false;
	if (o->period_cb) {
		struct offcpu_period p = {
			.tid = t->tid, .tgid = t->tgid, .kst = t->kst, .ust = t->ust,
			.state = t->state, .ns = ns, .start = t->start, .bound = bound,
		};

		note_stacks(o, t);
		o->period_cb(o->period_ctx, &p);
		return true;
	}
	key[K_TID] = t->tid;
	key[K_TGID] = t->tgid;
	key[K_KST] = t->kst;
	key[K_UST] = t->ust;
	key[K_LOCK] = t->lock;
	if (o->wakers && t->r.waker >= 0) {
		key[K_WTID] = t->r.waker + 1;
		key[K_WTGID] = t->wtgid;
		key[K_WKST] = t->wkst;
		key[K_WUST] = t->wust;
	}
	if (!bound)	/* an upper bound fires no --trigger */
		ft_env_latency(o->env, ns, t->start + ns, t->tid, -1);
	if (o->chain)
		offcpu_chain_period(o, key, K_WTID, t->tid, t->start, t->start + ns);
	else if (offcpu_sum_put(o, key, o->wakers ? K_LEN : K_WTID, ns, 1) < 0)
		return false;
	note_stacks(o, t);
	return true;
}

/* on_switch - a period ends at the switch-in, another starts at the switch-out */
static void on_switch(struct offcpu *o, const struct ft_event *ev)
{
	struct offcpu_task *t;

	/* a rebuilt switch-out of a task moves the window too: its sample is that one's */
	if (o->stacks_perf && (!ev->sw.synth || ev->sw.prev_pid > 0))
		offcpu_perf_switch(o, ev);
	if (ev->sw.next_pid && (t = ft_tab_find(&o->tasks, ev->sw.next_pid)) && t->start) {
		if (o->stacks_perf && !t->kst && !t->ust)	/* its sample came late? */
			offcpu_perf_late(o, t->tid, t->start, ft_switch_time(ev), ev->sw.synth,
					 &t->kst, &t->ust, &t->tgid);
		if (ev->sw.synth && ev->sw.after_loss) {
			o->notes.unpaired++;
		} else {
			uint64_t end = ft_switch_time(ev);	/* a rebuilt one's estimate */

			if (add(o, t, end > t->start ? end - t->start : 0, ev->sw.synth))
				o->notes.bounded += ev->sw.synth;
		}
		t->start = 0;
	}
	if (ev->sw.synth)
		return;
	o->pend[ev->cpu] = -1;
	/*
	 * A task switched out while its period is still open was switched in unseen,
	 * and the chain could not rebuild it (the first record of a CPU, whose current
	 * task was unknown): its period ended before now, an upper bound
	 */
	t = ft_tab_find(&o->tasks, ev->sw.prev_pid);
	if (t && t->start && ev->sw.prev_pid) {
		if (o->stacks_perf && !t->kst && !t->ust)
			offcpu_perf_late(o, t->tid, t->start, ev->ts, true, &t->kst, &t->ust,
					 &t->tgid);
		o->unseen_in += add(o, t, ev->ts > t->start ? ev->ts - t->start : 0, true);
		t->start = 0;
	}
	if (!counted(o, ev))
		return;
	t = ft_tab_get(&o->tasks, ev->sw.prev_pid);
	if (!t)
		return;
	if (ev->sw.prev_comm[0])	/* a period is named as its switch-out names it */
		memcpy(t->comm, ev->sw.prev_comm, FT_TASK_COMM_LEN);
	t->start = ev->ts;
	t->state = ev->sw.preempt ? 'R' : ev->sw.state;
	t->lock = o->locks.on ? offcpu_lock_mark(o, t->tid) : 0;
	t->kst = t->ust = t->wkst = t->wust = 0;
	/* the period's waker is the first wakeup from here (a runnable task, --state R, gets
	   none: try_to_wake_up returns before tracing one) */
	ft_ready_out(&t->r, ev, FT_READY_FIRST);
	t->wtgid = 0;
	if (!t->tgid)
		t->tgid = ft_tasks_tgid(o->env->tasks, t->tid);
	if (o->stacks_perf) {
		offcpu_perf_stacks(o, ev, &t->kst, &t->ust, &t->tgid);
		return;
	}
	o->pend[ev->cpu] = t->tid;
	o->pend_waker[ev->cpu] = false;
}

/* on_wake - the first wakeup of a blocked task: its waker's stacks come next */
static void on_wake(struct offcpu *o, const struct ft_event *ev)
{
	struct offcpu_task *t = ft_tab_find(&o->tasks, ev->wk.pid);

	if (!t || !t->start || !ft_ready_wakeup(&t->r, ev, FT_READY_FIRST))
		return;
	t->wtgid = ev->common_pid ? ft_tasks_tgid(o->env->tasks, ev->common_pid) : 0;
	if (o->wakers_perf) {	/* its sample of sched_waking */
		offcpu_perf_waker(o, ev, &t->wkst, &t->wust, &t->wtgid);
		return;
	}
	o->pend[ev->cpu] = t->tid;
	o->pend_waker[ev->cpu] = true;
}

/* on_stack - a kernel or user stack for the task pending on this CPU */
static void on_stack(struct offcpu *o, const struct ft_event *ev)
{
	struct ft_ustack_seen seen;
	struct offcpu_task *t;
	bool waker = o->pend_waker[ev->cpu];
	int tgid;
	long id;

	if (o->pend[ev->cpu] < 0 || !(t = ft_tab_find(&o->tasks, o->pend[ev->cpu])))
		return;
	if (ev->type == FT_EV_KSTACK) {
		id = ft_kstack_put(&o->kst, &ev->stack);
		*(waker ? &t->wkst : &t->kst) = (uint32_t)(id < 0 ? 0 : id);
		return;
	}
	o->pend[ev->cpu] = -1;	/* the user stack comes last */
	tgid = ev->stack.tgid ? ev->stack.tgid : (waker ? t->wtgid : t->tgid);
	if (!ev->stack.n)
		return;
	id = ft_ustack_put(&o->usyms, &o->ust, tgid, &ev->stack, &seen);
	if (!waker) {
		t->tgid = tgid;
		o->sn.ustack_early += seen.early;
		o->sn.ustack_unmapped += seen.unmapped;
		o->sn.ustack_full += seen.full;
	} else {
		t->wtgid = tgid;
	}
	*(waker ? &t->wust : &t->ust) = (uint32_t)(id < 0 ? 0 : id);
}

/* on_lost - after lost events no pending period can be trusted: forget them */
static void on_lost(struct offcpu *o)
{
	unsigned int i;

	for (i = 0; i < o->tasks.n; i++) {
		struct offcpu_task *t = ft_tab_at(&o->tasks, i);

		o->notes.dropped += !!t->start;
		t->start = 0;
	}
	for (i = 0; i < (unsigned int)o->env->ncpus; i++)
		o->pend[i] = -1;
	offcpu_perf_lost(o);
}

/* offcpu_track_event - one record, in time order */
void offcpu_track_event(struct offcpu *o, const struct ft_event *ev)
{
	if (o->chain)
		offcpu_chain_event(o, ev);
	switch (ev->type) {
	case FT_EV_SWITCH:
		on_switch(o, ev);
		return;
	case FT_EV_KSTACK:
	case FT_EV_USTACK:
		on_stack(o, ev);
		return;
	case FT_EV_LOST:
		on_lost(o);
		if (o->locks.on)	/* no call a record without --locks */
			offcpu_lock_event(o, ev);
		return;
	default:
		o->pend[ev->cpu] = -1;
		if (o->locks.on)
			offcpu_lock_event(o, ev);
		if (o->wakers && ft_env_wakeup(o->env, ev))
			on_wake(o, ev);
		return;
	}
}

/*
 * offcpu_track_flush - end every open period at @ts and open it again there, with
 * the same stacks (a wall-clock profile's report covers its window whole)
 */
void offcpu_track_flush(struct offcpu *o, uint64_t ts)
{
	unsigned int i;

	for (i = 0; i < o->tasks.n; i++) {
		struct offcpu_task *t = ft_tab_at(&o->tasks, i);

		if (!t->start || ts <= t->start)
			continue;
		add(o, t, ts - t->start, true);
		t->start = ts;
	}
}

/* offcpu_event - one record, in time order */
static void offcpu_event(void *priv, const struct ft_event *ev)
{
	offcpu_track_event(priv, ev);
}

/* offcpu_tracepoints - --locks: the contentions' begins and ends, when the trace has them */
static struct ft_tp *offcpu_tracepoints(void *priv)
{
	return offcpu_lock_tracepoints(priv);
}

/* offcpu_report - the stacks */
static void offcpu_report(void *priv, struct ft_report *r)
{
	offcpu_print(priv, r);
}

/* offcpu_reset - the next interval's totals and notes (the stacks' names stay) */
static void offcpu_reset(void *priv)
{
	struct offcpu *o = priv;

	if (o->sum)	/* none yet: an interval with no stack (UBSan: memset(NULL)) */
		memset(o->sum, 0, o->vcap * sizeof(*o->sum));
	memset(&o->notes, 0, sizeof(o->notes));
	o->unseen_in = 0;
	memset(&o->sn, 0, sizeof(o->sn));
	offcpu_lock_reset(o);
	offcpu_chain_reset(o);
}

/* offcpu_track_fini - free the tracking's tables and symbols (again: nothing) */
void offcpu_track_fini(struct offcpu *o)
{
	offcpu_perf_fini(o);
	offcpu_lock_fini(o);
	offcpu_chain_fini(o);
	FT_FREE(o->pend);
	FT_FREE(o->pend_waker);
	FT_FREE(o->sum);
	ft_tab_fini(&o->tasks);
	ft_intern_fini(&o->kst);
	ft_intern_fini(&o->ust);
	ft_intern_fini(&o->keys);
	ft_usyms_fini(&o->usyms);
	ft_ksyms_fini(&o->ksyms);
}

/* offcpu_fini - free everything; an unfinished SVG or pprof file leaves its path as it was */
static void offcpu_fini(void *priv)
{
	struct offcpu *o = priv;

	ft_outfile_abandon(&o->svg);
	offcpu_pprof_abandon(o);
	offcpu_track_fini(o);
}

const struct ft_analyzer ft_offcpu = {
	.cli = {
		.name		= "offcpu",
		.latency	= "off-CPU period",
		.summary	= "off-CPU time by kernel and user stack, as BCC's offcputime",
		.usage		= "  -f, --folded         folded stacks (comm;user;kernel us) for flame graphs\n"
				  "      --svg FILE       write an interactive flame graph to FILE\n"
				  "      --pprof FILE     write a pprof profile (gzipped profile.proto) to FILE\n"
				  "  -u, --user-threads-only    user threads only\n"
				  "  -k, --kernel-threads-only  kernel threads only\n"
				  "  -U, --user-stacks-only     user stacks only\n"
				  "  -K, --kernel-stacks-only   kernel stacks only\n"
				  "  -m, --min-block-time US    count periods of at least US (default 1)\n"
				  "  -M, --max-block-time US    count periods of at most US\n"
				  "      --state LETTERS  switch-out states counted: S, D, R (preempted)...\n"
				  "                       or all (default: every state but R)\n"
				  "      --delimited      a '-' frame between kernel and user stacks\n"
				  "      --wakers         add the waker's stacks and comm (BCC offwaketime;\n"
				  "                       with perf stacks from samples of sched_waking)\n"
				  "      --locks          mark periods that block in a kernel lock's\n"
				  "                       contention with its type: [lock mutex] (Linux 5.19)\n"
				  "      --stacks SRC     where stacks come from: perf (a perf_event_open\n"
				  "                       sample of every switch: 127 frames, user stacks\n"
				  "                       unwound by CFI; the default for a command, -p\n"
				  "                       and -t) or ftrace (frame pointers, 8 user frames;\n"
				  "                       the default for the whole system, -K, --wakers\n"
				  "                       with -o or -i)\n"
				  "      --call-graph fp|dwarf[,SIZE]  perf's user stacks (implies --stacks\n"
				  "                       perf): the kernel's frame-pointer walk, or (default)\n"
				  "                       SIZE bytes of user stack copied per switch (8192;\n"
				  "                       at most 65528) and unwound by CFI (.eh_frame)\n"
				  "      --chain          each period's critical path: what its waker did\n"
				  "                       meanwhile (ran: its on-CPU stacks; blocked: its\n"
				  "                       own waker's doings...), victim;..;--;waker;..\n"
				  "      --chain-depth D  wakers followed (default 3, at most 8)\n"
				  "  -F, --freq HZ        --chain's on-CPU samples per second (default 997)\n",
		.examples	= "  ftscope offcpu -d 5                   # whole system for 5 seconds\n"
				  "  ftscope offcpu -p 1234 -f > out.folded # folded, for flamegraph.pl\n"
				  "  ftscope offcpu --svg off.svg -- ./app # flame graph of a command\n"
				  "  ftscope offcpu --pprof off.pb.gz -p 1234 -d 10  # go tool pprof off.pb.gz\n"
				  "  ftscope offcpu --state D -d 10        # uninterruptible (I/O) sleep only\n"
				  "  ftscope offcpu --wakers -f -p 1234    # who woke the blocked threads\n"
				  "  ftscope offcpu --locks -f -p 1234     # which sleeps wait for a lock\n"
				  "  ftscope offcpu --call-graph dwarf -f -d 5 # whole user stacks, whole system\n"
				  "  ftscope offcpu --chain -f -- ./app    # where blocked threads' time went\n",
		.shortopts	= "fukUKm:M:F:",
		.longopts	= offcpu_longopts,
		.parse_opt	= offcpu_parse_opt,
		.check		= offcpu_check,
	},
	.need		= FT_NEED(FT_EV_SWITCH),
	.priv_size	= sizeof(struct offcpu),
	.max_wait_ms	= 100,
	.events		= offcpu_events,
	.tracepoints	= offcpu_tracepoints,
	.sampling	= offcpu_sampling,
	.sampling_declined = offcpu_sampling_declined,
	.second_declined = offcpu_second_declined,
	.sample		= offcpu_sample,
	.init		= offcpu_init,
	.event		= offcpu_event,
	.report		= offcpu_report,
	.reset		= offcpu_reset,
	.fini		= offcpu_fini,
};
