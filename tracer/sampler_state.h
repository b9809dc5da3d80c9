/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling stage's state as the files that make it share it: the sampler
 * (tracer/sampler.c), what it opens (sampler_event.c), the second event
 * (sampler_second.c) and the user-stack unwinding (sample_unwind.c).
 */
#ifndef FTSCOPE_TRACER_SAMPLER_STATE_H
#define FTSCOPE_TRACER_SAMPLER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/sample.h"
#include "events/unwind.h"
#include "tracer/sample_maps.h"
#include "tracer/sample_side.h"

struct ft_sampler {
	struct ft_sample_req	req;
	char			name[128];	/* the event, as printed */
	uint32_t		type;
	uint64_t		config, config1, config2;
	int			*fd;		/* ncpus x ntgt, -1 when not open */
	int			ntgt, ncpus;
	void			**ring;		/* per CPU: the mapping, or NULL */
	size_t			ring_len;	/* bytes mapped: one meta page + data */
	unsigned int		ring_pages;	/* data pages of a ring */
	unsigned char		*wrap;		/* a record that wraps the ring, copied */
	uint64_t		*ip;		/* FT_SAMPLE_MAX_STACK frames of one sample */
	bool			on_exec;
	bool			entry_probe;	/* a uprobe at a function's entry */
	bool			*hup;		/* per event (as fd): its task is gone, it hung up */
	uint64_t		*side;		/* per CPU: mapping records walked up to here */
	struct ft_side_queue	sideq;		/* ... this round's, put in time order */
	uint16_t		max_stack;	/* frames asked for, a side */
	const char		*clock;		/* the trace clock (--clock), NULL: mono */
	struct ft_sample_counts	counts;
	struct ft_smaps		maps;		/* the sampled processes' file mappings */
	bool			maps_on;
	bool			dwarf;		/* user stacks copied and unwound by CFI */
	struct ft_unwinder	*unw;		/* ... the unwinder, for the sampler's life */
	/* the request's second event (req.second: profile --offcpu's sched_switch), on
	   the same rings; its samples are event 1, known by their PERF_SAMPLE_IDENTIFIER */
	struct ft_sample_req	req2;
	char			name2[128];
	uint32_t		type2;
	uint64_t		config_2;
	int			*fd2;		/* ncpus x ntgt, -1 when not open, then the
					   per-CPU ones of new tids (refilter) */
	int			nfd2;
	size_t			capfd2, capid2;
	uint64_t		*id2;		/* their ids (PERF_EVENT_IOC_ID), sorted */
	int			nid2;
	char			*filter2;	/* req2.pid_field's filter on the targets */
	int			*ftid;		/* ... their tids, and their threads' and children's */
	int			nftid;		/* ... as FORK records bring them */
	size_t			capftid;
	int			ftid_done;	/* ... those filtered by open events */
	int			nrefilter;	/* rounds that opened events for new tids */
	bool			refilter_off;	/* no more: the run ends, or an open failed */
};

#endif
