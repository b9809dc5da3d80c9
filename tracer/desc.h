/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a live run asks of the tracer: the tasks, the CPUs, the instance's buffer and
 * clock, and how its rings are read. The engine fills it from the options
 * (ft_trace_desc_of); the tracer sees nothing else of the command line.
 */
#ifndef FTSCOPE_TRACER_DESC_H
#define FTSCOPE_TRACER_DESC_H

#include <stdbool.h>

struct ft_trace_desc {
	const int	*pids;		/* processes (all their threads) */
	int		npids;
	const int	*tids;		/* single threads */
	int		ntids;
	const int	*cg_pids;	/* a cgroup's processes, as read when the run starts */
	int		ncg;
	const char	*cgroup;	/* ... the cgroup, for messages */
	char		**cmd;		/* the command the run starts, or NULL */
	bool		all;		/* every task, beside the command */
	const bool	*cpu_on;	/* which CPUs to trace (NULL: all) */
	bool		cpus_named;	/* CPUs were named (-C), even all of them */
	int		ncpus;		/* possible CPUs */
	const char	*clock;		/* the trace clock (NULL: mono) */
	unsigned int	buffer_kb;	/* per CPU, 0: the kernel's */
	bool		mmap;		/* read the buffers mapped (else read()) */
	int		rt_prio;	/* the reader's SCHED_FIFO priority (0: none) */
	bool		verbose;	/* say how the buffers are read, the reader's counts */
};

#endif
