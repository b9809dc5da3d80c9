// SPDX-License-Identifier: GPL-2.0
/*
 * Switch-chain repair.
 *
 * Every record on a CPU is made by the task running there (common_pid; an interrupt
 * is charged to the task it interrupted). So between two sched_switch records of a
 * CPU all records carry one pid: the previous switch's next_pid. A record from any
 * other pid means a switch was not delivered. Seen on a 6.18 VM: CPU 1 never records
 * the switch out of idle, so a woken task's first record already follows idle's:
 *
 *   <idle>  [001] 340.654  sched_waking: pid=2263      (last record of idle: lo)
 *   <idle>  [001] 340.660  sched_wakeup: pid=2263
 *   sleep   [001] 340.849  sched_waking: pid=2262      (first record of 2263: hi)
 *
 * The missing switch idle -> 2263 lies in (lo, hi]. We synthesise it, with ts = hi (its
 * place in the stream) and ts_lo = lo, mark it, count it, and hand it on before the
 * record that revealed it. It happened after ts_min, the latest record proving it had
 * not happened yet: lo, or the task's last switch, wakeup or migration anywhere (a task
 * starts on a CPU only after it left another, was woken or was moved). Its estimate,
 * ts_est (estimate()), uses delays learned from the switches the kernel did record:
 * when the revealing record is the task's return to user space (rseq_update), that
 * long before it; else, on a CPU idle since the task was woken, as long after the
 * wakeup as an idle CPU took. When nothing says when (the task before was seen running
 * after that, its last evidence is its own switch-out to sleep, or no idle delay was
 * learned yet), ts_est is hi or ts_min and the switch is marked unproven: no wait ends
 * at it.
 * A task seen on a CPU while the chain has it running on another has that run ended
 * (ft_chain_split). Lost events break chains the same way; such a switch is marked
 * after_loss.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/chain.h"

/* What a rebuilt switch names idle: as long as a record's comm field. */
static const char swapper_comm[FT_TASK_COMM_LEN] = "swapper";

/**
 * ft_chain_init - start with every CPU's current task unknown
 * @traced: for an in-kernel pid-filtered stream, says which pids the kernel records;
 * breaks by other pids are expected there and are not repaired.
 */
int ft_chain_init(struct ft_chain *c, int ncpus, const struct ft_imap *traced)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->cpu = calloc(ncpus, sizeof(*c->cpu));
	c->repaired_cpu = calloc(ncpus, sizeof(*c->repaired_cpu));
	c->leaf = calloc(FT_CHAIN_PIDS / FT_CHAIN_LEAF, sizeof(*c->leaf));
	if (!c->cpu || !c->repaired_cpu || !c->leaf) {
		ft_chain_fini(c);
		errno = ENOMEM;
		return -1;
	}
	c->ncpus = ncpus;
	c->traced = traced;
	for (i = 0; i < ncpus; i++)
		c->cpu[i].cur = -1;
	return 0;
}

/* ft_chain_fini - free the per-CPU and per-task state */
void ft_chain_fini(struct ft_chain *c)
{
	unsigned int i;

	for (i = 0; c->leaf && i < FT_CHAIN_PIDS / FT_CHAIN_LEAF; i++)
		free(c->leaf[i]);
	free(c->leaf);
	free(c->cpu);
	free(c->repaired_cpu);
	memset(c, 0, sizeof(*c));
}

/**
 * ft_chain_grow - make the leaf of @pid (0 <= @pid < FT_CHAIN_PIDS) and return its
 * entry; NULL without memory (its evidence is then not kept)
 */
struct ft_chain_task *ft_chain_grow(struct ft_chain *c, int pid)
{
	struct ft_chain_task *leaf = malloc(FT_CHAIN_LEAF * sizeof(*leaf));
	unsigned int i;

	if (!leaf)
		return NULL;
	for (i = 0; i < FT_CHAIN_LEAF; i++) {
		leaf[i].ts = 0;
		leaf[i].cpu = -1;
		leaf[i].asleep = false;
		leaf[i].woken = false;
		leaf[i].dsleep = false;
	}
	c->leaf[(unsigned int)pid >> FT_CHAIN_LEAF_BITS] = leaf;
	c->nleaves++;
	return &leaf[pid & (FT_CHAIN_LEAF - 1)];
}

/**
 * ft_chain_gap_add - one more delay of @ns seen where the kernel recorded the switch;
 * the median is found again after each of the first 32 (from the FT_GAP_MIN-th) and
 * then every 32nd
 */
void ft_chain_gap_add(struct ft_chain_gap *g, uint64_t ns)
{
	uint64_t slot = ns / FT_GAP_NS, half, sum = 0;
	unsigned int i;

	g->n[slot < FT_GAP_SLOTS ? slot : FT_GAP_SLOTS - 1]++;
	g->count++;
	if (g->count < FT_GAP_MIN || (g->count > 32 && g->count % 32))
		return;
	half = (g->count + 1) / 2;
	for (i = 0; i < FT_GAP_SLOTS && sum + g->n[i] < half; i++)
		sum += g->n[i];
	g->median = (uint64_t)i * FT_GAP_NS + FT_GAP_NS / 2;
}

/* rebuilt - a sched_switch @prev -> @next on @cpu that the kernel did not record */
static void rebuilt(struct ft_event *synth, const struct ft_event *ev, int cpu, int prev,
		    int next, const char *next_comm)
{
	memset(synth, 0, sizeof(*synth));
	synth->ts = ev->ts;
	synth->cpu = cpu;
	synth->type = FT_EV_SWITCH;
	synth->id = -1;
	synth->common_pid = prev;
	synth->sw.prev_pid = prev;
	synth->sw.next_pid = next;
	/* idle is always runnable; any other task's state is unknown */
	synth->sw.prev_state = prev == 0 ? 0 : -1;
	synth->sw.state = prev == 0 ? 'R' : '?';
	synth->sw.prev_comm = prev == 0 ? swapper_comm : "";
	synth->sw.next_comm = next == 0 ? swapper_comm : next_comm;
	synth->sw.synth = true;
}

/**
 * ft_chain_split - @ev on its CPU shows @pid there while the chain still has it
 * running on another CPU, whose switch-out was not recorded: end that run (the task
 * leaves for idle) at its last evidence. Returns the number of switches rebuilt.
 */
int ft_chain_split(struct ft_chain *c, const struct ft_event *ev, int pid,
		   struct ft_event *synth)
{
	struct ft_chain_task *t = ft_chain_task(c, pid);
	struct ft_chain_cpu *cy = &c->cpu[t->cpu];
	uint64_t est;

	if (cy->cur != pid)
		return 0;
	est = t->ts > cy->last_ts ? t->ts : cy->last_ts;
	rebuilt(synth, ev, t->cpu, pid, 0, "");
	synth->sw.after_loss = cy->lost;
	synth->sw.ts_lo = cy->last_ts;
	synth->sw.ts_est = est < ev->ts ? est : ev->ts;
	synth->sw.ts_min = synth->sw.ts_est;
	cy->cur = 0;
	cy->last_ts = synth->sw.ts_est;
	cy->idle_since = synth->sw.ts_est;
	cy->in_ts = 0;
	t->ts = synth->sw.ts_est;	/* it runs elsewhere only after that */
	t->cpu = -1;
	t->asleep = false;
	t->woken = false;
	c->split++;
	return 1;
}

/**
 * ft_chain_first - the first record on a CPU whose task was unknown came from @pid:
 * @pid runs there; a run the chain still has for it on another CPU has ended.
 * Returns the number of switches rebuilt into @synth.
 */
int ft_chain_first(struct ft_chain *c, const struct ft_event *ev, int pid,
		   struct ft_event *synth)
{
	struct ft_chain_task *t;
	int n = 0;

	if (c->traced && !ft_imap_get(c->traced, pid))
		return 0;	/* a filtered stream does not follow it */
	t = ft_chain_task(c, pid);
	if (!t)
		return 0;
	if (t->cpu >= 0 && t->cpu != ev->cpu)
		n = ft_chain_split(c, ev, pid, synth);
	t->ts = ev->ts;
	t->cpu = ev->cpu;
	t->asleep = false;
	t->woken = false;
	return n;
}

/*
 * estimate - when the switch-in of @t that @ev reveals on CPU @cc happened, knowing it
 * came after @min; *@unproven when nothing says when in [@min, @ev]. When @ev is the
 * task's return to user space, the way back took about what it took after the switches
 * the kernel recorded from idle, or from another task, as this one: that long before
 * @ev; not after an uninterruptible sleep woken on an idle CPU, whose kernel work goes
 * on first (an exec read from disk: 396 us to user space, the switch-in 7.5 us after
 * its wakeup by bpftrace): timed as below, unproven before the idle delay is known.
 * When the CPU idled (or was silent) since @t
 * became ready, an idle CPU takes a
 * woken task about as long as it took where the kernel recorded it (unproven before
 * FT_GAP_MIN such delays were seen: then @min), a moved one at once. Otherwise (the task
 * there was still running when @t became ready, or @t's wakeup was not recorded) only
 * @ev is proof: unproven.
 */
static uint64_t estimate(const struct ft_chain *c, const struct ft_chain_cpu *cc,
			 const struct ft_chain_task *t, const struct ft_event *ev, uint64_t min,
			 bool *unproven, bool *unlearned)
{
	uint64_t at, gap;

	*unproven = *unlearned = false;
	if (ev->type == FT_EV_RESUME) {
		gap = c->resume[cc->cur == 0].median;
		at = ev->ts - (gap < ev->ts ? gap : ev->ts);
		at = at > min ? at : min;
		if (!(t && t->woken && t->dsleep && cc->cur == 0))
			return at;
		if (!c->idle_in.median) {	/* nothing learned yet says when */
			*unproven = *unlearned = min < ev->ts;
			return min;
		}
		/* the sooner of the two: an idle CPU's delay, the way back */
		return min + c->idle_in.median < at ? min + c->idle_in.median : at;
	}
	if ((t && t->asleep) || (cc->cur != 0 && min == cc->last_ts)) {
		*unproven = min < ev->ts;
		return ev->ts;
	}
	if (t && t->woken && !c->idle_in.median) {
		*unproven = *unlearned = min < ev->ts;
		return min;
	}
	at = min + (t && t->woken ? c->idle_in.median : 0);
	return at < ev->ts ? at : ev->ts;
}

/**
 * ft_chain_repair - @ev on CPU @cc came from @pid, not from the task the chain has
 * running there: fill @synth with the switches it proves and return how many, 0 when
 * the break is expected (an untraced task of a filtered stream). The switch-in came
 * after the latest record proving it had not happened yet (the CPU's last record from
 * its previous task, @pid's last switch, wakeup or migration anywhere), and is timed
 * by estimate().
 */
int ft_chain_repair(struct ft_chain *c, struct ft_chain_cpu *cc, const struct ft_event *ev,
		    int pid, struct ft_event *synth)
{
	struct ft_chain_task *t, *out = NULL;
	uint64_t est = cc->last_ts, min;
	bool unproven, unlearned;
	int n = 0;

	if (c->traced && !ft_imap_get(c->traced, pid)) {
		c->resynced++;
		return 0;
	}
	t = pid > 0 ? ft_chain_task(c, pid) : NULL;
	if (cc->cur > 0)
		out = ft_chain_task(c, cc->cur);
	if (t && t->cpu >= 0 && t->cpu != ev->cpu)
		n = ft_chain_split(c, ev, pid, synth);
	/* the latest evidence that @pid did not run here yet; estimate() takes it on */
	if (t && !t->asleep && t->ts > est)
		est = t->ts;
	min = est < ev->ts ? est : ev->ts;
	est = estimate(c, cc, t, ev, min, &unproven, &unlearned);
	rebuilt(synth + n, ev, ev->cpu, cc->cur, pid,
		ev->type == FT_EV_SWITCH ? ev->sw.prev_comm : "");
	synth[n].sw.after_loss = cc->lost;
	synth[n].sw.ts_lo = cc->last_ts;
	synth[n].sw.ts_min = min;
	synth[n].sw.ts_est = est;
	synth[n].sw.unproven = unproven;
	synth[n].sw.unlearned = unlearned;
	if (out) {
		out->ts = est;
		out->cpu = -1;
		out->woken = false;
	}
	if (pid == 0)
		cc->idle_since = est;
	if (t) {
		t->ts = ev->ts;
		t->cpu = ev->cpu;
		t->asleep = false;
		t->woken = false;
	}
	c->repaired++;
	c->repaired_cpu[ev->cpu]++;
	return n + 1;
}
