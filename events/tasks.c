// SPDX-License-Identifier: GPL-2.0
/*
 * The task table.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/tasks.h"
#include "events/tep.h"
#include "events/tp.h"

/* numeric_dir - the number a /proc directory entry is named by, or 0 */
static int numeric_dir(const struct dirent *d)
{
	return isdigit((unsigned char)d->d_name[0]) ? atoi(d->d_name) : 0;
}

/* proc_each - @fn(@ctx, TID, TGID) for every thread that lives now (/proc/PID/task/TID) */
static void proc_each(void (*fn)(void *ctx, int tid, int tgid), void *ctx)
{
	struct dirent *p, *k;
	DIR *dp, *dk;
	char path[64];
	int pid, tid;

	dp = opendir("/proc");
	while (dp && (p = readdir(dp))) {
		if (!(pid = numeric_dir(p)))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		dk = opendir(path);
		while (dk && (k = readdir(dk)))
			if ((tid = numeric_dir(k)))
				fn(ctx, tid, pid);
		if (dk)
			closedir(dk);
	}
	if (dp)
		closedir(dp);
}

/* set_tgid - proc_each and ft_tasks_tgids callback: @tid is a thread of @tgid */
static void set_tgid(void *ctx, int tid, int tgid)
{
	struct ft_task *e = ft_tab_get(ctx, tid);

	if (e && !e->tgid)
		e->tgid = tgid;
}

/* scan_proc - every thread that lives now, with its process (kept after it ends) */
static void scan_proc(struct ft_tasks *t)
{
	proc_each(set_tgid, &t->tab);
}

/* add_line - proc_each callback: a "TID TGID" line appended to the FILE @ctx */
static void add_line(void *ctx, int tid, int tgid)
{
	fprintf(ctx, "%d %d\n", tid, tgid);
}

/**
 * ft_tasks_proc_text - the threads that live now, one "TID TGID" line each, for a
 * recording (malloc'd; NULL on ENOMEM)
 */
char *ft_tasks_proc_text(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	proc_each(add_line, f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* ft_tasks_tgids - a recording's "TID TGID" lines (ft_tasks_proc_text's): the processes
 * of the threads that lived when it began. Returns 0, -1 on ENOMEM. */
int ft_tasks_tgids(struct ft_tasks *t, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	char line[48];
	int tid, tgid;

	t->has_tgids = true;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (nl - p >= (long)sizeof(line))
			continue;
		memcpy(line, p, nl - p);
		line[nl - p] = 0;
		if (sscanf(line, "%d %d", &tid, &tgid) == 2 && tid > 0 && tgid > 0) {
			if (!ft_tab_get(&t->tab, tid))
				return -1;
			set_tgid(&t->tab, tid, tgid);
		}
	}
	return 0;
}

/*
 * ft_tasks_init - an empty table; @use_proc (live): filled with the threads that live
 * now and their processes, and /proc read for what no event names
 */
int ft_tasks_init(struct ft_tasks *t, bool use_proc)
{
	t->use_proc = use_proc;
	t->has_saved = false;
	t->saved_text = NULL;
	t->has_tgids = false;
	if (ft_tab_init(&t->tab, sizeof(struct ft_task)))
		return -1;
	if (use_proc)
		scan_proc(t);
	return 0;
}

/* ft_tasks_fini - free the table */
void ft_tasks_fini(struct ft_tasks *t)
{
	ft_tab_fini(&t->tab);
	if (t->has_saved)
		ft_tab_fini(&t->saved);
	t->has_saved = false;
}

/*
 * ft_tasks_saved - a file's saved_cmdlines ("PID COMM" lines): the names of tasks no
 * event names, as /proc gives them live. @text must live as long as @t; it is parsed
 * the first time a task needs it. Returns 0.
 */
int ft_tasks_saved(struct ft_tasks *t, const char *text, size_t len)
{
	t->saved_text = text;
	t->saved_len = len;
	return 0;
}

/* saved_comm - @tid's name in the file's saved_cmdlines, or NULL */
static const char *saved_comm(struct ft_tasks *t, int tid)
{
	char *copy, *line, *save = NULL, comm[FT_TASK_COMM_LEN + 1];
	struct ft_task *e;
	int id;

	if (!t->has_saved && t->saved_text) {
		if (ft_tab_init(&t->saved, sizeof(struct ft_task)))
			return NULL;
		t->has_saved = true;
		copy = strndup(t->saved_text, t->saved_len);
		for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
		     line = strtok_r(NULL, "\n", &save))
			if (sscanf(line, "%d %16[^\n]", &id, comm) == 2 && id > 0 &&
			    (e = ft_tab_get(&t->saved, id)))
				snprintf(e->comm, sizeof(e->comm), "%s", comm);
		free(copy);
	}
	e = t->has_saved ? ft_tab_find(&t->saved, tid) : NULL;
	return e ? e->comm : NULL;
}

/**
 * ft_tasks_note - remember @comm (a FT_TASK_COMM_LEN field, maybe unterminated) for @tid
 * Returns the entry, or NULL on ENOMEM.
 */
struct ft_task *ft_tasks_note(struct ft_tasks *t, int tid, const char *comm)
{
	struct ft_task *e = ft_tab_get(&t->tab, tid);

	if (e && comm && comm[0]) {
		size_t n = strnlen(comm, FT_TASK_COMM_LEN);

		memcpy(e->comm, comm, n);
		e->comm[n] = 0;
		e->comm_from = 0;
	}
	return e;
}

/*
 * note_proc_comm - name @tid from /proc/TID/comm when live, else @fallback, else
 * from a file's saved_cmdlines
 */
static struct ft_task *note_proc_comm(struct ft_tasks *t, int tid, const char *fallback)
{
	char path[64], *comm = NULL;
	struct ft_task *e;

	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	if (t->use_proc && tid > 0)
		comm = ft_read_file(path, 64, NULL);
	if (comm)
		comm[strcspn(comm, "\n")] = 0;
	if (!comm && !fallback)
		fallback = saved_comm(t, tid);
	e = ft_tasks_note(t, tid, comm && comm[0] ? comm : fallback);
	free(comm);
	return e;
}

/*
 * ft_tasks_comm - the comm last seen for @tid, "<idle>" for 0; live, /proc's for a
 * task no event named; "?" when it cannot be known
 */
const char *ft_tasks_comm(struct ft_tasks *t, int tid)
{
	struct ft_task *e;

	if (tid == 0)
		return "<idle>";
	e = ft_tab_find(&t->tab, tid);
	if (!e || !e->comm[0])
		e = note_proc_comm(t, tid, NULL);
	return e && e->comm[0] ? e->comm : "?";
}

/* proc_status - a number field ("Tgid:", "PPid:") of /proc/TID/status, -1 when gone */
static int proc_status(int tid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen)) {
			v = atoi(line + klen);
			break;
		}
	fclose(f);
	return v;
}

/*
 * name_process - give process @tgid a comm: its main thread's own (/proc live, a file's
 * saved_cmdlines), else that of its thread of lowest tid that was looked up (@tid's
 * @comm when lower than the last), whatever the order of the lookups
 */
static void name_process(struct ft_tasks *t, int tgid, int tid, const char *comm)
{
	struct ft_task *p = ft_tab_get(&t->tab, tgid);

	if (p && !p->comm[0])
		p = note_proc_comm(t, tgid, NULL);
	if (p && (!p->comm[0] || (p->comm_from && tid <= p->comm_from))) {
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
		p->comm_from = tid;
	}
}

/**
 * ft_tasks_tgid - the process of thread @tid: from the table (/proc at the start,
 * task_newtask since), else from /proc on first use when live, else the tid itself
 * (marked tgid_guessed)
 */
int ft_tasks_tgid(struct ft_tasks *t, int tid)
{
	struct ft_task *e = ft_tab_get(&t->tab, tid);
	char comm[FT_TASK_COMM_LEN + 1];
	int tgid;

	if (!e)
		return tid;
	if (tid == 0)
		return e->tgid;
	if (e->tgid <= 0) {
		tgid = t->use_proc ? proc_status(tid, "Tgid:") : -1;
		e->tgid_guessed = tgid <= 0;
		e->tgid = tgid <= 0 ? tid : tgid;
	}
	tgid = e->tgid;
	/* a process whose main thread no source named takes a thread's comm */
	if (tgid != tid && e->comm[0]) {
		struct ft_task *p = ft_tab_find(&t->tab, tgid);

		if (!p || !p->comm[0] || (p->comm_from && tid <= p->comm_from)) {
			/* name_process may grow the table: e must not be used after it */
			memcpy(comm, e->comm, sizeof(comm));
			name_process(t, tgid, tid, comm);
		}
	}
	return tgid;
}

/* ft_tasks_ppid - the parent of @tid: from a fork event, else /proc when live; -1 unknown */
int ft_tasks_ppid(struct ft_tasks *t, int tid)
{
	struct ft_task *e = ft_tab_get(&t->tab, tid);

	if (!e)
		return -1;
	if (!e->ppid)
		e->ppid = t->use_proc && tid ? proc_status(tid, "PPid:") : -1;
	return e->ppid;
}

/* ft_tasks_fork - @parent made @child: remember the parent and the child's comm */
void ft_tasks_fork(struct ft_tasks *t, int parent, int child, const char *comm)
{
	struct ft_task *e = ft_tasks_note(t, child, comm);

	if (e && !e->ppid)
		e->ppid = parent;
}

/**
 * ft_tasks_newtask - @creator cloned @child (task:task_newtask): with CLONE_THREAD
 * (@thread) the child is a thread of the creator's process, else a process of its own
 */
void ft_tasks_newtask(struct ft_tasks *t, int creator, int child, bool thread,
		      const char *comm)
{
	int tgid = thread ? ft_tasks_tgid(t, creator) : child;
	struct ft_task *e = ft_tasks_note(t, child, comm);

	if (e && tgid > 0) {
		e->tgid = tgid;
		e->tgid_guessed = false;	/* a reused tid: its process is told now */
	}
}

/*
 * ft_tasks_rename_tp - declare task:task_rename in @tp (optional): exec and prctl rename
 * tasks between switches, and an analyzer without switches learns names from it. The
 * pipeline notes the renames (ft_tasks_rename_find): the analyzer only asks for them.
 */
void ft_tasks_rename_tp(struct ft_tp *tp)
{
	tp->system = "task";
	tp->name = "task_rename";
	tp->field[0] = "pid";
	tp->field[1] = "newcomm";
	tp->optional = true;
	tp->opt_fields = true;
}

/* ft_tasks_rename - a task_rename record (@tp, ft_tasks_rename_tp's) names its task */
void ft_tasks_rename(struct ft_tasks *t, const struct ft_event *ev, const struct ft_tp *tp)
{
	char comm[FT_TASK_COMM_LEN + 1];
	const char *s;
	int len;

	if (!ft_tp_is(ev, tp) || !ft_tp_has(ev, tp, 0))
		return;
	s = ft_tp_str(ev, tp, 1, &len);
	len = len < FT_TASK_COMM_LEN ? len : FT_TASK_COMM_LEN;
	memcpy(comm, s, len);
	comm[len] = 0;
	ft_tasks_note(t, (int)ft_tp_num(ev, tp, 0), comm);
}

/*
 * ft_tasks_rename_find - the task_rename declaration (ft_tasks_rename_tp's) among the
 * resolved @tps, or NULL when no analyzer reads renames or the trace lacks them
 */
const struct ft_tp *ft_tasks_rename_find(const struct ft_tp *tps)
{
	for (; tps; tps = tps->next)
		if (tps->id >= 0 && !strcmp(tps->system, "task") &&
		    !strcmp(tps->name, "task_rename") && tps->field[0] &&
		    !strcmp(tps->field[0], "pid") && tps->field[1] &&
		    !strcmp(tps->field[1], "newcomm") && !tps->field[2])
			return tps;
	return NULL;
}
