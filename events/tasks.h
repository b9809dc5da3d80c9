/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread facts remembered while tracing (threads exit before the report):
 * comm from the events themselves, tgid from /proc when the thread is first seen.
 */
#ifndef FTSCOPE_EVENTS_TASKS_H
#define FTSCOPE_EVENTS_TASKS_H

#include <stdbool.h>

#include "events/decode.h"
#include "events/pidset.h"

struct ft_task {
	char	comm[FT_TASK_COMM_LEN + 1];
	int	tgid;		/* -1 until known */
};

struct ft_tasks {
	struct ft_imap	index;	/* tid -> slot in task[] */
	struct ft_task	*task;
	unsigned int	n, cap;
	bool		use_proc;	/* live: read /proc/TID/status for tgids */
};

int ft_tasks_init(struct ft_tasks *t, bool use_proc);
void ft_tasks_fini(struct ft_tasks *t);
struct ft_task *ft_tasks_note(struct ft_tasks *t, int tid, const char *comm);
const char *ft_tasks_comm(struct ft_tasks *t, int tid);
int ft_tasks_tgid(struct ft_tasks *t, int tid);

#endif
