/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's session as the session (tracer/session.c), its readers (tracer/reader.c)
 * and CPU hotplug (tracer/hotplug.c) share it: the instance, its per-CPU files and
 * the counts the readers keep.
 */
#ifndef FTSCOPE_TRACER_SESSION_STATE_H
#define FTSCOPE_TRACER_SESSION_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "events/page.h"

struct tracefs_instance;
struct tracefs_cpu;
struct ft_ringmap;

struct ft_session {
	struct tracefs_instance	*inst;
	char			name[64];
	int			ncpus;
	const bool		*cpu_on;
	int			*fd;		/* per-CPU trace_pipe_raw, -1 when not read */
	int			*stats_fd;	/* per-CPU stats, opened once and pread (-1) */
	struct tracefs_cpu	**tcpu;
	struct ft_ringmap	*map;		/* per-CPU mapped ring buffers, NULL: read() */
	int			map_errno;	/* why a CPU could not be mapped (0: none) */
	int			map_unmapped;	/* CPUs read() because they could not be */
	bool			splice;		/* a recording: pages spliced to its file */
	bool			realtime;	/* the reader runs at SCHED_FIFO (--realtime) */
	struct ft_page_fmt	pf;
	unsigned long long	*lost_base;	/* stats when tracing started */
	unsigned long long	*lost_seen;	/* losses already handed to the merge */
	unsigned int		enabled;	/* FT_NEED() of the events enabled */
	unsigned long long	pages;
	unsigned long long	rounds, wakeups;	/* reader rounds; polls a buffer ended */
	unsigned long long	calls;		/* read(), GET_READER or splice calls */
	uint64_t		complete_to;	/* after a round: all CPUs read up to here */
	int			uevent_fd;	/* CPU hotplug's uevents, fd + 1 (0: none) */
	unsigned int		*offline;	/* per CPU: times it went offline */
	bool			*online_again;	/* per CPU: back online since it last went */
	bool			uevents_lost;	/* the uevent socket overflowed (ENOBUFS) */
};

#endif
