/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The switch chain: which task runs on each CPU, kept in one place for every
 * scheduler analyzer, with repair of switches the kernel did not deliver.
 */
#ifndef FTSCOPE_EVENTS_CHAIN_H
#define FTSCOPE_EVENTS_CHAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "events/decode.h"
#include "lib/pidset.h"

/* Most switches one record can reveal: a switch-in on its CPU, and a run elsewhere
 * ended for each of its two tasks. */
#define FT_CHAIN_MAX_SYNTH	3

struct ft_chain_cpu {
	int		cur;		/* task running here, -1 unknown */
	uint64_t	last_ts;	/* last record known to come from cur */
	uint64_t	in_ts;		/* cur's recorded switch-in, while no record of it
					   followed yet; 0 otherwise */
	uint64_t	idle_since;	/* its last switch to idle */
	bool		in_idle;	/* in_ts's switch came from idle */
	bool		lost;		/* events were lost since last_ts */
};

/*
 * A delay the chain learns from switches the kernel did record, to time those it did
 * not: a histogram of FT_GAP_SLOTS slots of FT_GAP_NS, its median kept current once
 * FT_GAP_MIN were seen (0 before: a few may all be one exec's long way back).
 */
#define FT_GAP_NS	250
#define FT_GAP_SLOTS	512
#define FT_GAP_MIN	16

struct ft_chain_gap {
	unsigned int		n[FT_GAP_SLOTS];	/* the last slot holds every longer one */
	unsigned long long	count;
	uint64_t		median;		/* ns; 0 before FT_GAP_MIN were seen */
};

/* What the chain knows of one task, by pid. */
struct ft_chain_task {
	uint64_t	ts;		/* its last switch, wakeup or migration */
	int		cpu;		/* CPU the chain has it running on, -1 none */
	bool		asleep;		/* ts is a switch-out to sleep: when it became
					   ready again is unknown */
	bool		woken;		/* ts is a wakeup */
	bool		dsleep;		/* its last switch-out was to an uninterruptible
					   sleep (D): the kernel work it slept inside goes
					   on after its wakeup, so its return to user space
					   does not time its switch-in */
};

/*
 * Tasks by pid, in leaves of FT_CHAIN_LEAF made on first use (16 KB each) under a
 * directory that spans every pid the kernel gives (pid_max is at most 2^22): a pid of
 * four million costs one leaf, not a table up to it.
 */
#define FT_CHAIN_LEAF_BITS	10
#define FT_CHAIN_LEAF		(1u << FT_CHAIN_LEAF_BITS)
#define FT_CHAIN_PIDS		(1u << 22)

struct ft_chain {
	int			ncpus;
	struct ft_chain_cpu	*cpu;
	struct ft_chain_task	**leaf;		/* FT_CHAIN_PIDS / FT_CHAIN_LEAF, made on use */
	unsigned int		nleaves;	/* leaves made */
	const struct ft_imap	*traced;	/* a filtered stream's pids; NULL: whole system */
	unsigned long long	repaired;	/* switch-ins reconstructed */
	unsigned long long	*repaired_cpu;
	unsigned long long	split;		/* runs ended: the task showed up on another CPU */
	unsigned long long	resynced;	/* breaks by untraced tasks in a filtered stream */
	struct ft_chain_gap	resume[2];	/* recorded switch-in -> the task's return to
						   user space, its first record after it;
						   [1]: switches from idle (measured here
						   after a task 1-2 us, after idle 3-7) */
	struct ft_chain_gap	idle_in;	/* wakeup of a task while its CPU idles ->
						   its recorded switch-in there */
};

int ft_chain_init(struct ft_chain *c, int ncpus, const struct ft_imap *traced);
void ft_chain_fini(struct ft_chain *c);
int ft_chain_repair(struct ft_chain *c, struct ft_chain_cpu *cc, const struct ft_event *ev,
		    int pid, struct ft_event *synth);
int ft_chain_first(struct ft_chain *c, const struct ft_event *ev, int pid,
		   struct ft_event *synth);
int ft_chain_split(struct ft_chain *c, const struct ft_event *ev, int pid,
		   struct ft_event *synth);
struct ft_chain_task *ft_chain_grow(struct ft_chain *c, int pid);
void ft_chain_gap_add(struct ft_chain_gap *g, uint64_t ns);

/* ft_chain_task - what the chain knows of @pid; NULL for a pid it does not follow */
static inline __attribute__((always_inline))
struct ft_chain_task *ft_chain_task(struct ft_chain *c, int pid)
{
	struct ft_chain_task *leaf;

	if ((unsigned int)pid >= FT_CHAIN_PIDS)
		return NULL;
	leaf = c->leaf[(unsigned int)pid >> FT_CHAIN_LEAF_BITS];
	if (leaf)
		return &leaf[pid & (FT_CHAIN_LEAF - 1)];
	return ft_chain_grow(c, pid);
}

/*
 * ft_chain_step - record @ev on its CPU came from @pid and leaves @next running there
 * (a sched_switch's prev and next; the same task for any other record). Returns the
 * number of switches rebuilt into @synth.
 */
static inline __attribute__((always_inline))
int ft_chain_step(struct ft_chain *c, const struct ft_event *ev, int pid,
				int next, struct ft_event *synth)
{
	struct ft_chain_cpu *cc;
	int n = 0;

	if ((unsigned int)ev->cpu >= (unsigned int)c->ncpus)
		return 0;
	cc = &c->cpu[ev->cpu];
	if (cc->cur >= 0) {
		if (pid != cc->cur)
			n = ft_chain_repair(c, cc, ev, pid, synth);
	} else if (pid == next && pid > 0) {
		n = ft_chain_first(c, ev, pid, synth);
	}
	cc->cur = next;
	cc->last_ts = ev->ts;
	cc->in_ts = 0;
	cc->lost = false;
	return n;
}

/* ft_chain_switch - a recorded switch: its tasks' evidence, and a run elsewhere ended */
static inline __attribute__((always_inline))
int ft_chain_switch(struct ft_chain *c, const struct ft_event *ev,
				  struct ft_event *synth)
{
	int n = ft_chain_step(c, ev, ev->sw.prev_pid, ev->sw.next_pid, synth);
	int next = ev->sw.next_pid;
	struct ft_chain_task *t;

	if ((unsigned int)ev->cpu >= (unsigned int)c->ncpus)
		return n;
	if ((t = ft_chain_task(c, ev->sw.prev_pid))) {
		t->ts = ev->ts;
		t->cpu = -1;
		t->asleep = !ev->sw.preempt && ev->sw.state != 'R';
		t->dsleep = t->asleep && ev->sw.state == 'D';
		t->woken = false;
	}
	if (next > 0 && (t = ft_chain_task(c, next))) {
		if (t->cpu >= 0 && t->cpu != ev->cpu)
			n += ft_chain_split(c, ev, next, synth + n);
		/* woken while this CPU idled: how long an idle CPU takes to run a task */
		if (!n && ev->sw.prev_pid == 0 && t->woken && t->ts >= c->cpu[ev->cpu].idle_since &&
		    ev->ts >= t->ts)
			ft_chain_gap_add(&c->idle_in, ev->ts - t->ts);
		t->ts = ev->ts;
		t->cpu = ev->cpu;
		t->asleep = false;
		t->woken = false;
		c->cpu[ev->cpu].in_ts = ev->ts;
		c->cpu[ev->cpu].in_idle = ev->sw.prev_pid == 0;
	} else if (next == 0) {
		c->cpu[ev->cpu].idle_since = ev->ts;
	}
	return n;
}

/**
 * ft_chain_feed - follow @ev; when it reveals switches the kernel did not record,
 * fill @synth (room for FT_CHAIN_MAX_SYNTH) with them, to be delivered in order
 * before @ev, and return how many.
 */
static inline __attribute__((always_inline))
int ft_chain_feed(struct ft_chain *c, const struct ft_event *ev,
				struct ft_event *synth)
{
	struct ft_chain_task *t;
	int n, pid;

	switch (ev->type) {
	case FT_EV_SWITCH:
		return ft_chain_switch(c, ev, synth);
	case FT_EV_RESUME:
		/* the first record after a recorded switch-in: how long the way back takes */
		if ((unsigned int)ev->cpu < (unsigned int)c->ncpus && c->cpu[ev->cpu].in_ts &&
		    c->cpu[ev->cpu].cur == ev->common_pid && ev->ts >= c->cpu[ev->cpu].in_ts)
			ft_chain_gap_add(&c->resume[c->cpu[ev->cpu].in_idle],
					 ev->ts - c->cpu[ev->cpu].in_ts);
		return ft_chain_step(c, ev, ev->common_pid, ev->common_pid, synth);
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
	case FT_EV_MIGRATE:
		/* the task is not running where it goes next: it is woken or moved */
		n = ft_chain_step(c, ev, ev->common_pid, ev->common_pid, synth);
		pid = ev->type == FT_EV_MIGRATE ? ev->mig.pid : ev->wk.pid;
		if (pid > 0 && (t = ft_chain_task(c, pid))) {
			t->ts = ev->ts;
			t->asleep = false;
			t->woken = ev->type != FT_EV_MIGRATE;
		}
		return n;
	case FT_EV_LOST:
		/* no delay is learned across the loss */
		if ((unsigned int)ev->cpu < (unsigned int)c->ncpus) {
			c->cpu[ev->cpu].lost = true;
			c->cpu[ev->cpu].in_ts = 0;
			c->cpu[ev->cpu].idle_since = UINT64_MAX;
		}
		return 0;
	default:
		return ft_chain_step(c, ev, ev->common_pid, ev->common_pid, synth);
	}
}

#endif
