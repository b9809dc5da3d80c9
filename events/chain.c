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
 * The missing switch idle -> 2263 lies in (lo, hi]. We synthesise it, with ts = hi and
 * ts_lo = lo, mark it, count it, and hand it on before the record that revealed it.
 * hi is the only time a record proves: analyzers that time the switch-in get an upper
 * bound (on that VM bpftrace, which sees the switch, puts it 8-31 us after the wakeup;
 * lo is the wakeup itself, 0 us). Lost events break chains the same way; such a
 * switch is marked after_loss.
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
	if (!c->cpu || !c->repaired_cpu) {
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

/* ft_chain_fini - free the per-CPU state */
void ft_chain_fini(struct ft_chain *c)
{
	free(c->cpu);
	free(c->repaired_cpu);
	memset(c, 0, sizeof(*c));
}

/**
 * ft_chain_repair - @ev on CPU @cc came from @pid, not from the task the chain has
 * running there: fill @synth with the reconstructed sched_switch and return true,
 * or return false when the break is expected (an untraced task of a filtered stream)
 */
bool ft_chain_repair(struct ft_chain *c, struct ft_chain_cpu *cc, const struct ft_event *ev,
		     int pid, struct ft_event *synth)
{
	if (c->traced && !ft_imap_get(c->traced, pid)) {
		c->resynced++;
		return false;
	}
	memset(synth, 0, sizeof(*synth));
	synth->ts = ev->ts;
	synth->cpu = ev->cpu;
	synth->type = FT_EV_SWITCH;
	synth->common_pid = cc->cur;
	synth->sw.prev_pid = cc->cur;
	synth->sw.next_pid = pid;
	/* idle is always runnable; any other task's state is unknown */
	synth->sw.prev_state = cc->cur == 0 ? 0 : -1;
	synth->sw.state = cc->cur == 0 ? 'R' : '?';
	synth->sw.prev_comm = cc->cur == 0 ? swapper_comm : "";
	synth->sw.next_comm = ev->type == FT_EV_SWITCH ? ev->sw.prev_comm : "";
	synth->sw.synth = true;
	synth->sw.after_loss = cc->lost;
	synth->sw.ts_lo = cc->last_ts;
	c->repaired++;
	c->repaired_cpu[ev->cpu]++;
	return true;
}
