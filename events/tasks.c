// SPDX-License-Identifier: GPL-2.0
/*
 * The task table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/tasks.h"
#include "events/tep.h"

/* ft_tasks_init - an empty table; @use_proc: tgids may be read from /proc */
int ft_tasks_init(struct ft_tasks *t, bool use_proc)
{
	memset(t, 0, sizeof(*t));
	t->use_proc = use_proc;
	return ft_imap_init(&t->index, 256);
}

/* ft_tasks_fini - free the table */
void ft_tasks_fini(struct ft_tasks *t)
{
	ft_imap_fini(&t->index);
	free(t->task);
	memset(t, 0, sizeof(*t));
}

/* lookup - the entry of @tid, created empty when missing */
static struct ft_task *lookup(struct ft_tasks *t, int tid)
{
	uint64_t *slot = ft_imap_get(&t->index, tid);
	struct ft_task *nt;

	if (slot)
		return &t->task[*slot];
	if (t->n == t->cap) {
		unsigned int cap = t->cap ? t->cap * 2 : 256;

		nt = realloc(t->task, cap * sizeof(*nt));
		if (!nt)
			return NULL;
		t->task = nt;
		t->cap = cap;
	}
	if (!ft_imap_put(&t->index, tid, t->n))
		return NULL;
	nt = &t->task[t->n++];
	nt->comm[0] = 0;
	nt->tgid = -1;
	return nt;
}

/**
 * ft_tasks_note - remember @comm (a FT_TASK_COMM_LEN field, maybe unterminated) for @tid
 * Returns the entry, or NULL on ENOMEM.
 */
struct ft_task *ft_tasks_note(struct ft_tasks *t, int tid, const char *comm)
{
	struct ft_task *e = lookup(t, tid);

	if (e && comm && comm[0]) {
		memcpy(e->comm, comm, strnlen(comm, FT_TASK_COMM_LEN));
		e->comm[strnlen(comm, FT_TASK_COMM_LEN)] = 0;
	}
	return e;
}

/* ft_tasks_comm - the comm last seen for @tid, "<idle>" for 0, "?" when never seen */
const char *ft_tasks_comm(struct ft_tasks *t, int tid)
{
	uint64_t *slot;

	if (tid == 0)
		return "<idle>";
	slot = ft_imap_get(&t->index, tid);
	return slot && t->task[*slot].comm[0] ? t->task[*slot].comm : "?";
}

/* proc_tgid - Tgid from /proc/TID/status, -1 when the thread is gone */
static int proc_tgid(int tid)
{
	char path[64], line[256];
	int tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = atoi(line + 5);
			break;
		}
	fclose(f);
	return tgid;
}

/* name_process - give process @tgid a comm: its own from /proc, else @fallback's */
static void name_process(struct ft_tasks *t, int tgid, const char *fallback)
{
	struct ft_task *p = lookup(t, tgid);
	char path[64], *comm;

	if (!p || p->comm[0])
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", tgid);
	comm = t->use_proc ? ft_read_file(path, 64, NULL) : NULL;
	if (comm)
		comm[strcspn(comm, "\n")] = 0;
	ft_tasks_note(t, tgid, comm && comm[0] ? comm : fallback);
	free(comm);
}

/**
 * ft_tasks_tgid - the process of thread @tid; read from /proc on first use when live,
 * the tid itself when it cannot be known
 */
int ft_tasks_tgid(struct ft_tasks *t, int tid)
{
	struct ft_task *e = lookup(t, tid);

	if (!e)
		return tid;
	if (e->tgid < 0) {
		char comm[sizeof(e->comm)];
		int tgid = t->use_proc ? proc_tgid(tid) : -1;

		e->tgid = tgid < 0 ? tid : tgid;
		tgid = e->tgid;
		if (tgid != tid) {
			/* name_process may grow the table: e must not be used after it */
			memcpy(comm, e->comm, sizeof(comm));
			name_process(t, tgid, comm);
		}
		return tgid;
	}
	return e->tgid;
}
