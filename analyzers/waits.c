// SPDX-License-Identifier: GPL-2.0
/*
 * Waits for a CPU: from ready (wakeup or preemption) to the next switch-in.
 *
 *   switch-out(T, S)   waking(T) by W on cpu a    switch-in(T) on cpu b
 *        |---- sleeping ----|------- wait (delay) -------|
 *
 *   switch-out(T, R+)                              switch-in(T)
 *        |-------------- wait (preempted) --------------|
 *
 * Only the first wakeup after a switch-out counts (later ones find the task already
 * ready); a wakeup of a task that is running is no wait. After lost events on a CPU,
 * tasks waiting for that CPU are forgotten; a switch-in rebuilt across a loss ends
 * no wait (its time is unknown), one rebuilt otherwise is an upper bound, or, with
 * at_estimate (latency, whose run times start there too), ends at the chain's estimate.
 */
#include <string.h>

#include "output/json.h"
#include "analyzers/waits.h"

/* Per-task state: the wait being built, in the ft_wait itself (start 0: not ready). */
struct wtask {
	struct ft_wait	w;
	bool		on_cpu;		/* switched in and not yet out */
};

/* ft_waits_init - follow waits, handing each finished one to @done */
int ft_waits_init(struct ft_waits *w, const struct ft_env *env, ft_wait_fn done, void *ctx)
{
	memset(w, 0, sizeof(*w));
	w->env = env;
	w->done = done;
	w->ctx = ctx;
	return ft_tab_init(&w->tasks, sizeof(struct wtask));
}

/* ft_waits_fini - free the task table */
void ft_waits_fini(struct ft_waits *w)
{
	ft_tab_fini(&w->tasks);
}

/* wanted - is @tid a task the trace follows (never idle)? */
static bool wanted(const struct ft_waits *w, int tid)
{
	return tid > 0 && ft_env_traced(w->env, tid);
}

/* on_wakeup - the first wakeup of a switched-out task makes it ready */
static void on_wakeup(struct ft_waits *w, const struct ft_event *ev)
{
	struct wtask *t;

	if (!wanted(w, ev->wk.pid))
		return;
	t = ft_tab_get(&w->tasks, ev->wk.pid);
	if (!t || t->on_cpu || t->w.start)
		return;
	t->w.start = ev->ts;
	t->w.preempted = false;
	t->w.waker = ev->common_pid;
	t->w.waker_cpu = ev->cpu;
	t->w.target_cpu = ev->wk.target_cpu;
}

/* on_switch - the outgoing task may be ready (preempted); the incoming one's wait ends */
static void on_switch(struct ft_waits *w, const struct ft_event *ev)
{
	int prev = ev->sw.prev_pid, next = ev->sw.next_pid;
	struct wtask *t;

	if (wanted(w, prev) && (t = ft_tab_get(&w->tasks, prev))) {
		t->on_cpu = false;
		t->w.start = 0;
		if (ev->sw.state == 'R' && !ev->sw.synth) {
			t->w.start = ev->ts;
			t->w.preempted = true;
			t->w.waker = -1;
			t->w.waker_cpu = t->w.target_cpu = ev->cpu;
		}
	}
	if (!wanted(w, next) || !(t = ft_tab_get(&w->tasks, next)))
		return;
	t->on_cpu = true;
	if (!t->w.start)
		return;
	if (ev->sw.synth && ev->sw.after_loss) {
		w->notes.unpaired++;
	} else {
		uint64_t end = w->at_estimate ? ft_switch_time(ev) : ev->ts;

		t->w.end = end > t->w.start ? end : t->w.start;
		t->w.cpu = ev->cpu;
		t->w.bounded = ev->sw.synth;
		w->notes.bounded += ev->sw.synth;
		w->done(w->ctx, &t->w);
	}
	t->w.start = 0;
}

/* drop_cpu - forget the waits of tasks bound for @cpu: events were lost there */
static void drop_cpu(struct ft_waits *w, int cpu)
{
	unsigned int i;

	for (i = 0; i < w->tasks.n; i++) {
		struct wtask *t = ft_tab_at(&w->tasks, i);
		int to = t->w.target_cpu >= 0 ? t->w.target_cpu : t->w.waker_cpu;

		if (t->w.start && to == cpu) {
			t->w.start = 0;
			w->notes.dropped++;
		}
	}
}

/* ft_waits_event - follow one record */
void ft_waits_event(struct ft_waits *w, const struct ft_event *ev)
{
	switch (ev->type) {
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		if (ft_env_wakeup(w->env, ev))
			on_wakeup(w, ev);
		break;
	case FT_EV_SWITCH:
		on_switch(w, ev);
		break;
	case FT_EV_LOST:
		drop_cpu(w, ev->cpu);
		break;
	default:
		break;
	}
}

/* ft_wait_notes_print - the lines under a report: upper bounds, losses */
void ft_wait_notes_print(FILE *f, const char *who, const struct ft_wait_notes *n)
{
	if (n->bounded)
		fprintf(f, "%s: %llu latencies end at a switch-in the kernel did not record; "
			"%s\n", who, n->bounded, n->estimated ?
			"timed at the chain's estimate, as run times are" : "they are upper bounds");
	if (n->dropped || n->unpaired)
		fprintf(f, "%s: %llu pending wakeups dropped and %llu switch-ins not measured "
			"after lost events\n", who, n->dropped, n->unpaired);
}

/* ft_wait_notes_json - the same as JSON fields */
void ft_wait_notes_json(struct ft_json *j, const struct ft_wait_notes *n)
{
	ft_json_u64(j, "upper_bounds", n->bounded);
	if (n->estimated)
		ft_json_u64(j, "bounds_at_estimate", 1);
	ft_json_u64(j, "dropped_after_loss", n->dropped);
	ft_json_u64(j, "unmeasured_after_loss", n->unpaired);
}
