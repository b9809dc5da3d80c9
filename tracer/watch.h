/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end of a run's targets: the processes of -p and the threads of -t, whose exit
 * ends a run (as perf record -p and perf stat -p end), and the command, whose exit
 * wakes the loop at once.
 */
#ifndef FTSCOPE_TRACER_WATCH_H
#define FTSCOPE_TRACER_WATCH_H

#include <poll.h>
#include <stdbool.h>

struct ft_trace_desc;

struct ft_watched {
	int	pid;		/* a -p process, a -t thread, or the command */
	int	fd;		/* its pidfd (polls readable once it has exited), or -1 */
	bool	thread;		/* -t: one thread, looked up in /proc */
	bool	gone;
};

struct ft_watch {
	struct ft_watched	*t;
	int			n;
	bool			ends;	/* the run ends once all are gone (-p/-t alone) */
};

int ft_watch_open(struct ft_watch *w, const struct ft_trace_desc *d, int child_pid);
int ft_watch_pollfds(const struct ft_watch *w, struct pollfd *pfd, int max);
bool ft_watch_gone(struct ft_watch *w);
void ft_watch_close(struct ft_watch *w);

#endif
