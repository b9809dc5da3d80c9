/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread facts remembered while tracing (threads exit before the report):
 * comm from the events themselves, tgid from /proc when the thread is first seen.
 */
#ifndef FTSCOPE_EVENTS_TASKS_H
#define FTSCOPE_EVENTS_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "events/decode.h"
#include "lib/tab.h"

struct ft_task {
	int	tid;
	int	tgid;		/* 0 until known */
	int	ppid;		/* 0 until known, -1 when it cannot be */
	char	comm[FT_TASK_COMM_LEN + 1];
};

struct ft_tasks {
	struct ft_tab	tab;		/* tid -> struct ft_task */
	bool		use_proc;	/* live: read /proc/TID/status for tgids */
	struct ft_tab	saved;		/* offline: a file's saved_cmdlines, where live reads
					   /proc for a task no event named (parsed when first
					   needed) */
	const char	*saved_text;	/* the text, until then */
	size_t		saved_len;
	bool		has_saved;
};

int ft_tasks_init(struct ft_tasks *t, bool use_proc);
void ft_tasks_fini(struct ft_tasks *t);
struct ft_task *ft_tasks_note(struct ft_tasks *t, int tid, const char *comm);
const char *ft_tasks_comm(struct ft_tasks *t, int tid);
int ft_tasks_tgid(struct ft_tasks *t, int tid);
int ft_tasks_ppid(struct ft_tasks *t, int tid);
void ft_tasks_fork(struct ft_tasks *t, int parent, int child, const char *comm);
int ft_tasks_saved(struct ft_tasks *t, const char *text, size_t len);

/**
 * ft_tasks_note_field - ft_tasks_note for an event's comm (FT_TASK_COMM_LEN bytes, see
 * struct ft_switch): the bytes are kept as they are, so a comm seen again costs one
 * compare. Returns the entry, or NULL on ENOMEM. Inline: two per sched_switch.
 */
static inline struct ft_task *ft_tasks_note_field(struct ft_tasks *t, int tid, const char *comm)
{
	struct ft_task *e = ft_tab_get(&t->tab, tid);

	if (e && comm[0] && memcmp(e->comm, comm, FT_TASK_COMM_LEN)) {
		memcpy(e->comm, comm, FT_TASK_COMM_LEN);
		e->comm[FT_TASK_COMM_LEN] = 0;
	}
	return e;
}

#endif
