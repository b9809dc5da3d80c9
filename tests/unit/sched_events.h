/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-made scheduler events for the unit suites.
 */
#ifndef FTSCOPE_TESTS_UNIT_SCHED_EVENTS_H
#define FTSCOPE_TESTS_UNIT_SCHED_EVENTS_H

#include <stdint.h>

#include "events/decode.h"
#include "events/tasks.h"

/* What the test events name their tasks: as long as a record's comm field. */
static const char comm_t[FT_TASK_COMM_LEN] = "t";

/* ev_switch - a sched_switch event */
static inline struct ft_event ev_switch(uint64_t ts, int cpu, int prev, int next, char state)
{
	struct ft_event e = { .ts = ts, .cpu = cpu, .type = FT_EV_SWITCH, .common_pid = prev };

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	e.sw.state = state;
	e.sw.prev_state = state == 'R' ? 0 : 1;
	e.sw.prev_comm = e.sw.next_comm = comm_t;
	e.sw.ts_lo = ts;
	return e;
}

/* ev_wake_as - a wakeup event of @type (FT_EV_WAKEUP, FT_EV_WAKING) of @pid recorded by @by */
static inline struct ft_event ev_wake_as(int type, uint64_t ts, int cpu, int by, int pid)
{
	struct ft_event e = { .ts = ts, .cpu = cpu, .type = type, .common_pid = by };

	e.wk.pid = pid;
	e.wk.target_cpu = cpu;
	e.wk.comm = comm_t;
	return e;
}

#endif
