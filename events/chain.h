/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The switch chain: which task runs on each CPU, kept in one place for every
 * scheduler analyzer, with repair of switch-ins the kernel did not deliver.
 */
#ifndef FTSCOPE_EVENTS_CHAIN_H
#define FTSCOPE_EVENTS_CHAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "events/decode.h"
#include "events/pidset.h"

struct ft_chain_cpu {
	int		cur;		/* task running here, -1 unknown */
	uint64_t	last_ts;	/* last record known to come from cur */
	bool		lost;		/* events were lost since last_ts */
};

struct ft_chain {
	int			ncpus;
	struct ft_chain_cpu	*cpu;
	const struct ft_imap	*traced;	/* a filtered stream's pids; NULL: whole system */
	unsigned long long	repaired;	/* switch-ins reconstructed */
	unsigned long long	*repaired_cpu;
	unsigned long long	resynced;	/* breaks by untraced tasks in a filtered stream */
};

int ft_chain_init(struct ft_chain *c, int ncpus, const struct ft_imap *traced);
void ft_chain_fini(struct ft_chain *c);
bool ft_chain_repair(struct ft_chain *c, struct ft_chain_cpu *cc, const struct ft_event *ev,
		     int pid, struct ft_event *synth);

/*
 * ft_chain_step - record @ev on its CPU came from @pid and leaves @next running there
 * (a sched_switch's prev and next; the same task for any other record)
 */
static inline bool ft_chain_step(struct ft_chain *c, const struct ft_event *ev, int pid,
				 int next, struct ft_event *synth)
{
	struct ft_chain_cpu *cc;
	bool made;

	if ((unsigned int)ev->cpu >= (unsigned int)c->ncpus)
		return false;
	cc = &c->cpu[ev->cpu];
	made = cc->cur >= 0 && pid != cc->cur && ft_chain_repair(c, cc, ev, pid, synth);
	cc->cur = next;
	cc->last_ts = ev->ts;
	cc->lost = false;
	return made;
}

/**
 * ft_chain_feed - follow @ev; when it reveals a missing switch-in, fill @synth
 * with the reconstructed sched_switch (deliver it before @ev) and return true.
 */
static inline bool ft_chain_feed(struct ft_chain *c, const struct ft_event *ev,
				 struct ft_event *synth)
{
	if (ev->type == FT_EV_SWITCH)
		return ft_chain_step(c, ev, ev->sw.prev_pid, ev->sw.next_pid, synth);
	if (ev->type != FT_EV_LOST)
		return ft_chain_step(c, ev, ev->common_pid, ev->common_pid, synth);
	if ((unsigned int)ev->cpu < (unsigned int)c->ncpus)
		c->cpu[ev->cpu].lost = true;
	return false;
}

#endif
