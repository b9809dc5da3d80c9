/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling stage: perf_event_open with PERF_SAMPLE_CALLCHAIN (and with
 * --call-graph dwarf the user registers and a copy of the user stack, unwound here
 * by events/unwind.h), one mmap ring per CPU (the events of every target on a CPU
 * write to that CPU's ring), drained by the run's rounds. Lost records and
 * throttling are counted, and why each unwound user stack ended.
 */
#ifndef FTSCOPE_TRACER_SAMPLER_H
#define FTSCOPE_TRACER_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "events/sample.h"
#include "events/unwind.h"
#include "tracer/sample_maps.h"
#include "tracer/sample_side.h"

struct ft_trace_desc;
struct pollfd;

typedef void (*ft_sample_fn)(void *ctx, const struct ft_sample *s);

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

int ft_sampler_clock(const char *name, int *id);
int ft_sampler_resolve(struct ft_sampler *sp, const struct ft_sample_req *req);
int ft_sampler_open(struct ft_sampler *sp, const struct ft_trace_desc *d, const int *pids,
		    int npids);
void ft_sampler_enable(struct ft_sampler *sp);
void ft_sampler_disable(struct ft_sampler *sp);
int ft_sampler_pollfds(const struct ft_sampler *sp, struct pollfd *pfd, int max);
int ft_sampler_drain(struct ft_sampler *sp, uint64_t upto, ft_sample_fn fn, void *ctx);
void ft_sampler_hangup(struct ft_sampler *sp, int fd);
void ft_sampler_close(struct ft_sampler *sp);

/* Inside the stage: an event's open (sampler.c), the second event (sampler_second.c). */
int ft_sampler_open_one(struct ft_sampler *sp, int pid, int cpu, bool inherit, bool second);
int ft_sampler_map_cpu(struct ft_sampler *sp, int cpu, int fd, int first);
int ft_sampler_open_second(struct ft_sampler *sp, int i, int pid, int cpu, bool inherit,
			   int first);
int ft_sampler_alloc_second(struct ft_sampler *sp, bool per_task, const int *pids, int npids);
int ft_sampler_add_ftid(struct ft_sampler *sp, int tid);
void ft_sampler_refilter(struct ft_sampler *sp);
void ft_sampler_sort_ids(struct ft_sampler *sp);
bool ft_sampler_is_second(const struct ft_sampler *sp, uint64_t id);

/* The record readers (tracer/sample_unwind.c). */

/* ft_take8 - the next u64 of a record into *@v; false past its @end */
static inline bool ft_take8(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	if (end - *p < 8)
		return false;
	__builtin_memcpy(v, *p, 8);
	*p += 8;
	return true;
}

/* A sample's PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER (after the callchain). */
struct ft_sample_tail {
	uint64_t		abi;		/* 0: no user registers (a kernel thread) */
	const unsigned char	*regs;		/* the registers if abi, in the mask's order */
	const unsigned char	*stack;		/* the copy, from the sample's rsp up */
	uint64_t		size;		/* its bytes really copied (dyn_size) */
};

bool ft_sampler_tail(const unsigned char *p, const unsigned char *end, unsigned int nregs,
		     struct ft_sample_tail *t);

/* --call-graph dwarf (tracer/sample_unwind.c) */
uint64_t ft_sampler_uregs_mask(void);
int ft_sampler_unwind(struct ft_sampler *sp, int pid, uint64_t ts, const unsigned char *p,
		      const unsigned char *end, uint64_t *ip);

#endif
