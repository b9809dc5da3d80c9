/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A round's mapping records (MMAP2, COMM, FORK) of every CPU's ring, copied and put
 * in time order before they are applied: a process that execs on one CPU and maps
 * its libraries on another must see the exec first (the rings are walked one CPU
 * after the other).
 */
#ifndef FTSCOPE_TRACER_SAMPLE_SIDE_H
#define FTSCOPE_TRACER_SAMPLE_SIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_event_header;
struct ft_smaps;

/* One kept record: its time (the sample_id trailer's), where its copy is, its order. */
struct ft_side_rec {
	uint64_t	ts;
	size_t		off;
	uint32_t	seq;
};

struct ft_side_queue {
	unsigned char		*buf;		/* the records' copies, 8-byte aligned */
	size_t			len, cap;
	struct ft_side_rec	*rec;
	size_t			n, ncap;
};

bool ft_side_is(const struct perf_event_header *h);
void ft_side_record(struct ft_smaps *m, const struct perf_event_header *h);
int ft_sideq_add(struct ft_side_queue *q, const struct perf_event_header *h);
void ft_sideq_sort(struct ft_side_queue *q);
const struct perf_event_header *ft_sideq_get(const struct ft_side_queue *q, size_t i);
void ft_sideq_reset(struct ft_side_queue *q);
void ft_sideq_free(struct ft_side_queue *q);

#endif
