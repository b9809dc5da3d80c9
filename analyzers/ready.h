/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ready to run: the one wakeup -> switch-in pairing of the scheduler analyzers. A task
 * becomes ready at a wakeup, or when it is switched out runnable (preempted); its next
 * switch-in (ft_ready_in) ends its wait for a CPU. timehist, which measures the delay
 * at the task's next switch-out from the CPU's previous switch (perf's way), uses the
 * wakeup and switch-out rules alone.
 *
 *   switch-out(T, S)   wakeup(T) by W on cpu a    switch-in(T) on cpu b
 *        |---- sleeping ----|------- wait (ready) --------|
 *
 *   switch-out(T, R)                              switch-in(T)
 *        |-------------- wait (preempted) --------------|
 *
 * Which wakeup makes a task ready is each peer's rule:
 *   FT_READY_FIRST  the first since its switch-out, none while it runs (perf sched
 *                   latency): latency, wakeup, offcpu's waker
 *   FT_READY_PERF   the first since its switch-out, running or not; a switch-out with
 *                   the preempt bit or rebuilt from idle counts as runnable (perf
 *                   sched timehist): timehist
 *   FT_READY_LAST   every wakeup (re)starts the wait, and one seen while the task ran
 *                   still counts after a switch-out to sleep (BCC runqlat): runqlat
 */
#ifndef FTSCOPE_ANALYZERS_READY_H
#define FTSCOPE_ANALYZERS_READY_H

#include <stdbool.h>
#include <stdint.h>

#include "analyzers/analyzer.h"

enum ft_ready_rule { FT_READY_FIRST, FT_READY_PERF, FT_READY_LAST };

struct ft_ready {
	uint64_t	since;		/* ready since (ns); 0: not ready */
	int		waker;		/* pid of the wakeup; -1 when preempted */
	int		waker_cpu;	/* CPU the wakeup (or the preemption) ran on */
	int		target_cpu;	/* CPU the wakeup chose (-1 unknown) */
	bool		preempted;	/* ready since a switch-out while runnable */
	bool		on_cpu;		/* switched in and not yet out */
};

/* How a switch-in ended a task's readiness. */
enum ft_ready_end {
	FT_READY_NONE,		/* it was not ready: no wait */
	FT_READY_UNKNOWN,	/* a switch-in rebuilt across lost events, or with no evidence
				   of when (sw.unproven): its time is unknown */
	FT_READY_WAITED,	/* a wait, from since to *end */
};

/* ft_ready_wakeup - wakeup @ev of the task, under @rule; true when it made it ready */
static inline bool ft_ready_wakeup(struct ft_ready *r, const struct ft_event *ev,
				   enum ft_ready_rule rule)
{
	if (rule != FT_READY_LAST && (r->since || (rule == FT_READY_FIRST && r->on_cpu)))
		return false;
	r->since = ev->ts;
	r->preempted = false;
	r->waker = ev->common_pid;
	r->waker_cpu = ev->cpu;
	r->target_cpu = ev->wk.target_cpu;
	return true;
}

/* ft_ready_out - switch-out @ev of the task: ready again at once when runnable */
static inline void ft_ready_out(struct ft_ready *r, const struct ft_event *ev,
				enum ft_ready_rule rule)
{
	bool runnable = rule == FT_READY_PERF ? ev->sw.preempt || ev->sw.state == 'R' :
			ev->sw.state == 'R' && !ev->sw.synth;

	r->on_cpu = false;
	if (!runnable) {
		/* BCC keeps a wakeup it saw while the task ran until its next switch-in */
		if (rule != FT_READY_LAST) {
			r->since = 0;
			r->waker = -1;
		}
		return;
	}
	r->since = ft_switch_time(ev);
	r->preempted = true;
	r->waker = -1;
	r->waker_cpu = r->target_cpu = ev->cpu;
}

/*
 * ft_ready_in - switch-in @ev of the task: its wait, from *@start to *@end, ends at the
 * record or at the chain's estimate of a rebuilt switch, never before it began
 */
static inline enum ft_ready_end ft_ready_in(struct ft_ready *r, const struct ft_event *ev,
					    uint64_t *start, uint64_t *end)
{
	uint64_t t = ft_switch_time(ev);

	*start = r->since;
	r->on_cpu = true;
	r->since = 0;
	if (!*start)
		return FT_READY_NONE;
	if (ev->sw.synth && (ev->sw.after_loss || ev->sw.unproven))
		return FT_READY_UNKNOWN;
	*end = t > *start ? t : *start;
	return FT_READY_WAITED;
}

/* ft_ready_drop - events were lost on @cpu: forget readiness bound for it; true if any */
static inline bool ft_ready_drop(struct ft_ready *r, int cpu)
{
	int to = r->target_cpu >= 0 ? r->target_cpu : r->waker_cpu;

	if (!r->since || to != cpu)
		return false;
	r->since = 0;
	return true;
}

#endif
