// SPDX-License-Identifier: GPL-2.0
/*
 * Waits for a CPU, from ready to the next switch-in, for latency and wakeup: each
 * task's readiness follows analyzers/ready.h under perf sched latency's rule (the
 * first wakeup after a switch-out; none while it runs). After lost events on a CPU,
 * tasks waiting for that CPU are forgotten; a switch-in rebuilt across a loss ends
 * no wait (its time is unknown); one rebuilt otherwise ends it at the chain's estimate
 * (where run times start too), counted, or left out with --exact.
 */
#include <string.h>

#include "analyzers/ready.h"
#include "analyzers/waits.h"
#include "events/chain.h"
#include "output/json.h"

/* Per-task state: whether and since when it is ready (analyzers/ready.h). */
struct wtask {
	int		tid;		/* the table's key */
	struct ft_ready	r;
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
	if (t)
		ft_ready_wakeup(&t->r, ev, FT_READY_FIRST);
}

/* on_switch - the outgoing task may be ready (preempted); the incoming one's wait ends */
static void on_switch(struct ft_waits *w, const struct ft_event *ev)
{
	int prev = ev->sw.prev_pid, next = ev->sw.next_pid;
	enum ft_ready_end end;
	struct ft_wait done;
	struct wtask *t;

	if (wanted(w, prev) && (t = ft_tab_get(&w->tasks, prev)))
		ft_ready_out(&t->r, ev, FT_READY_FIRST);
	if (!wanted(w, next) || !(t = ft_tab_get(&w->tasks, next)))
		return;
	end = ft_ready_in(&t->r, ev, &done.start, &done.end);
	if (end == FT_READY_NONE || (w->wakeups && t->r.preempted))	/* not noted either */
		return;
	if (end == FT_READY_UNKNOWN) {
		ft_wait_notes_unknown(&w->notes, ev);
		return;
	}
	if (!ft_wait_notes_keep(&w->notes, ev))
		return;
	done.tid = next;
	done.preempted = t->r.preempted;
	done.waker = t->r.waker;
	done.waker_cpu = t->r.waker_cpu;
	done.target_cpu = t->r.target_cpu;
	done.cpu = ev->cpu;
	done.bounded = ev->sw.synth;
	w->done(w->ctx, &done);
}

/* drop_cpu - forget the waits of tasks bound for @cpu: events were lost there */
static void drop_cpu(struct ft_waits *w, int cpu)
{
	unsigned int i;

	for (i = 0; i < w->tasks.n; i++) {
		struct ft_ready *r = &((struct wtask *)ft_tab_at(&w->tasks, i))->r;

		w->notes.dropped += ft_ready_drop(r, cpu) && !(w->wakeups && r->preempted);
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

/*
 * ft_wait_notes_keep - a wait ends at switch-in @ev: false when it is left out (rebuilt,
 * under --exact); counts the rebuilt ones either way
 */
bool ft_wait_notes_keep(struct ft_wait_notes *n, const struct ft_event *ev)
{
	if (!ev->sw.synth)
		return true;
	if (n->exact) {
		n->left_out++;
		return false;
	}
	n->bounded++;
	return true;
}

/* ft_wait_notes_reset - the counts of a new interval; the setting stays */
void ft_wait_notes_reset(struct ft_wait_notes *n)
{
	bool exact = n->exact;

	memset(n, 0, sizeof(*n));
	n->exact = exact;
}

/* ft_wait_notes_unknown - a wait that ends at switch-in @ev of unknown time: not measured */
void ft_wait_notes_unknown(struct ft_wait_notes *n, const struct ft_event *ev)
{
	n->unpaired++;
	n->unlearned += ev->sw.unlearned && !ev->sw.after_loss;
}

/* ft_wait_notes_print - the lines under a report: estimated waits, losses */
void ft_wait_notes_print(FILE *f, const char *who, const struct ft_wait_notes *n)
{
	if (n->bounded)
		fprintf(f, "%s: %llu latencies end at a switch-in the kernel did not record, "
			"timed at the chain's estimate (--exact leaves them out)\n",
			who, n->bounded);
	if (n->left_out)
		fprintf(f, "%s: %llu latencies that end at a switch-in the kernel did not record "
			"left out (--exact)\n", who, n->left_out);
	if (n->dropped)
		fprintf(f, "%s: %llu pending wakeups dropped after lost events\n", who, n->dropped);
	if (n->unpaired)
		fprintf(f, "%s: %llu switch-ins the kernel did not record not measured: after lost "
			"events, or with no record of when\n", who, n->unpaired);
	if (n->unlearned)
		fprintf(f, "%s: %llu of them before the delay an idle CPU takes a woken task was "
			"learned (%d recorded ones needed)\n", who, n->unlearned, FT_GAP_MIN);
}

/* ft_wait_notes_json - the same as JSON fields */
void ft_wait_notes_json(struct ft_json *j, const struct ft_wait_notes *n)
{
	ft_json_u64(j, "estimated", n->bounded);
	ft_json_u64(j, "left_out_exact", n->left_out);
	ft_json_u64(j, "dropped_after_loss", n->dropped);
	ft_json_u64(j, "unmeasured", n->unpaired);
	ft_json_u64(j, "unmeasured_before_learned", n->unlearned);
}
