/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread facts remembered while tracing (threads exit before the report):
 * comm from the events themselves; the process (tgid) of each thread from the kernel:
 * live, /proc/PID/task when the table is made, then task:task_newtask (a clone with
 * CLONE_THREAD joins its creator's process), never from the thread id alone.
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
	bool	tgid_guessed;	/* no source told its process: tgid is its own tid */
	int	comm_from;	/* a main thread no source named: the comm is that of its
				   thread of lowest tid (0: its own) */
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
	bool		has_tgids;	/* offline: the file has a task table */
};

int ft_tasks_init(struct ft_tasks *t, bool use_proc);
void ft_tasks_fini(struct ft_tasks *t);
struct ft_task *ft_tasks_note(struct ft_tasks *t, int tid, const char *comm);
const char *ft_tasks_comm(struct ft_tasks *t, int tid);
int ft_tasks_tgid(struct ft_tasks *t, int tid);
int ft_tasks_ppid(struct ft_tasks *t, int tid);
void ft_tasks_fork(struct ft_tasks *t, int parent, int child, const char *comm);
void ft_tasks_newtask(struct ft_tasks *t, int creator, int child, bool thread,
		      const char *comm);
int ft_tasks_saved(struct ft_tasks *t, const char *text, size_t len);
char *ft_tasks_proc_text(void);
int ft_tasks_tgids(struct ft_tasks *t, const char *text, size_t len);
struct ft_tp;
void ft_tasks_rename_tp(struct ft_tp *tp);
void ft_tasks_rename(struct ft_tasks *t, const struct ft_event *ev, const struct ft_tp *tp);
const struct ft_tp *ft_tasks_rename_find(const struct ft_tp *tps);

/**
 * ft_tasks_note_field - ft_tasks_note for an event's comm (FT_TASK_COMM_LEN bytes, see
 * struct ft_switch): the bytes are kept as they are, so a comm seen again costs one
 * compare. Returns the entry, or NULL on ENOMEM. Inline: two per sched_switch.
 */
static inline struct ft_task *ft_tasks_note_field(struct ft_tasks *t, int tid, const char *comm)
{
	struct ft_task *e = ft_tab_get(&t->tab, tid);

	if (e && comm[0]) {
		if (memcmp(e->comm, comm, FT_TASK_COMM_LEN)) {
			memcpy(e->comm, comm, FT_TASK_COMM_LEN);
			e->comm[FT_TASK_COMM_LEN] = 0;
		}
		e->comm_from = 0;	/* its own name now */
	}
	return e;
}

/*
 * ft_tasks_names - a switch names both its tasks, a wakeup its wakee, as they are at
 * the record (next first: the entries stay valid until the next lookup)
 */
static inline void ft_tasks_names(struct ft_tasks *t, const struct ft_event *ev)
{
	if (ev->type == FT_EV_SWITCH) {
		ft_tasks_note_field(t, ev->sw.next_pid, ev->sw.next_comm);
		ft_tasks_note_field(t, ev->sw.prev_pid, ev->sw.prev_comm);
	} else if (ev->type == FT_EV_WAKING || ev->type == FT_EV_WAKEUP ||
		   ev->type == FT_EV_WAKEUP_NEW) {
		ft_tasks_note_field(t, ev->wk.pid, ev->wk.comm);
	}
}

/* ft_tasks_guessed - was @tid's process never told (ft_tasks_tgid took its own tid)? */
static inline bool ft_tasks_guessed(struct ft_tasks *t, int tid)
{
	const struct ft_task *e = ft_tab_find(&t->tab, tid);

	return e && e->tgid_guessed;
}

/* ft_tasks_event - what a fork or task_newtask record tells the table (others: nothing) */
static inline void ft_tasks_event(struct ft_tasks *t, const struct ft_event *ev)
{
	if (ev->type == FT_EV_FORK)
		ft_tasks_fork(t, ev->fork.parent_pid, ev->fork.child_pid, ev->fork.child_comm);
	else if (ev->type == FT_EV_NEWTASK)
		ft_tasks_newtask(t, ev->common_pid, ev->newtask.pid, ev->newtask.thread,
				 ev->newtask.comm);
}

#endif
