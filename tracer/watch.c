// SPDX-License-Identifier: GPL-2.0
/*
 * The end of a run's targets. A run on -p and -t alone ends once every process and
 * thread they name has exited, as perf record -p and perf stat -p do (children they
 * leave behind are not waited for); with -a, -C or --cgroup it runs on to its
 * duration or a signal. A process is watched through a pidfd, which polls readable
 * once its last thread has exited (zombie or reaped alike), so that the loop wakes at
 * once; a -t thread, or a process where pidfd_open fails (kernels before 5.3), is
 * looked up in /proc at each round: gone when missing or exiting (PF_EXITING).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "tracer/command.h"
#include "tracer/desc.h"
#include "tracer/watch.h"

/* add - one target; its pidfd unless it is a thread; 0 or -1 (out of memory) */
static int add(struct ft_watch *w, int pid, bool thread)
{
	struct ft_watched *t = realloc(w->t, (w->n + 1) * sizeof(*w->t));

	if (!t)
		return -1;
	w->t = t;
	t = &w->t[w->n++];
	*t = (struct ft_watched){ .pid = pid, .fd = -1, .thread = thread };
	if (!thread) {
		t->fd = (int)syscall(SYS_pidfd_open, pid, 0);
		t->gone = t->fd < 0 && errno == ESRCH;
	}
	return 0;
}

/**
 * ft_watch_open - what the run's end waits for: the command @child_pid (> 0), which
 * only wakes the loop (its reaping ends the run), or the processes of -p and threads
 * of -t when nothing else (-a, -C, --cgroup) asks for more
 * Returns 0, or -1 after printing one line.
 */
int ft_watch_open(struct ft_watch *w, const struct ft_trace_desc *d, int child_pid)
{
	int i, err = 0;

	*w = (struct ft_watch){ 0 };
	if (child_pid > 0) {
		err = add(w, child_pid, false);
	} else if ((d->npids || d->ntids) && !d->all && !d->cpus_named && !d->ncg) {
		w->ends = true;
		for (i = 0; !err && i < d->npids; i++)
			err = add(w, d->pids[i], false);
		for (i = 0; !err && i < d->ntids; i++)
			err = add(w, d->tids[i], true);
	}
	if (err) {
		ft_err("out of memory");
		ft_watch_close(w);
		return -1;
	}
	return 0;
}

/* ft_watch_pollfds - the pidfds of the targets not seen gone, into @pfd; how many */
int ft_watch_pollfds(const struct ft_watch *w, struct pollfd *pfd, int max)
{
	int i, n = 0;

	for (i = 0; i < w->n && n < max; i++)
		if (w->t[i].fd >= 0 && !w->t[i].gone)
			pfd[n++] = (struct pollfd){ .fd = w->t[i].fd, .events = POLLIN };
	return n;
}

/* process_gone - without a pidfd: has every thread of process @pid begun to exit? */
static bool process_gone(int pid)
{
	int *tids = NULL, n = 0, i;
	bool gone = true;

	if (ft_pid_threads(pid, &tids, &n))
		return true;
	for (i = 0; gone && i < n; i++)
		gone = ft_pid_exiting(tids[i]);
	free(tids);
	return gone;
}

/* target_gone - has @t exited? A pidfd found readable is closed: it stays so */
static bool target_gone(struct ft_watched *t)
{
	struct pollfd pfd = { .fd = t->fd, .events = POLLIN };

	if (t->gone)
		return true;
	if (t->fd >= 0)
		t->gone = poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLIN | POLLHUP));
	else
		t->gone = t->thread ? ft_pid_exiting(t->pid) : process_gone(t->pid);
	if (t->gone && t->fd >= 0) {
		close(t->fd);
		t->fd = -1;
	}
	return t->gone;
}

/* ft_watch_gone - true when the run is to end: every -p process and -t thread has exited */
bool ft_watch_gone(struct ft_watch *w)
{
	int i, gone = 0;

	if (!w->ends)
		return false;
	for (i = 0; i < w->n; i++)
		gone += target_gone(&w->t[i]);
	return gone == w->n;
}

/* ft_watch_close - the pidfds closed */
void ft_watch_close(struct ft_watch *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (w->t[i].fd >= 0)
			close(w->t[i].fd);
	free(w->t);
	*w = (struct ft_watch){ 0 };
}
