// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping records of one drain round, in time order (tracer/sample_side.h), and
 * what each does to the processes' mappings. Each carries the sample_id trailer
 * (sample_id_all; TID, TIME, CPU, IDENTIFIER of the sampler's sample type): its time
 * is the u64 24 bytes from its end. Records of one CPU come in time order; ties keep the order
 * they were read in.
 */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "lib/util.h"
#include "tracer/sample_maps.h"
#include "tracer/sample_side.h"

/* Bytes of the sample_id trailer: TID, TIME, CPU, IDENTIFIER (u64 each) */
#define TRAILER	32

/* record_ts - the time of a non-sample record (sample_id_all: TID, TIME, CPU, IDENTIFIER at
   its end) */
static uint64_t record_ts(const unsigned char *p, const unsigned char *end)
{
	uint64_t ts;

	if (end - p < TRAILER)
		return 0;
	memcpy(&ts, end - TRAILER + 8, 8);
	return ts;
}

/* side_mmap - MMAP2: pid, tid, addr, len, pgoff, maj, min, ino, ino_generation (or a
   build ID), prot, flags, name */
static void side_mmap(struct ft_smaps *m, const struct perf_event_header *h,
		      const unsigned char *p, const unsigned char *end)
{
	struct ft_smaps_rec r = { .ts = record_ts(p, end) };
	uint32_t ids[2], mm[2];
	uint64_t v[3];

	if (end - p < 8 + 24 + 24 + 8 + 1 + TRAILER)
		return;
	memcpy(ids, p, 8);
	memcpy(v, p + 8, 24);
	r.addr = v[0];
	r.len = v[1];
	r.pgoff = v[2];
	if (!(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		memcpy(mm, p + 32, 8);
		memcpy(&r.ino, p + 40, 8);
		r.dev = makedev(mm[0], mm[1]);
	}
	p += 8 + 24 + 24 + 8;
	if (strnlen((const char *)p, end - TRAILER - p) == (size_t)(end - TRAILER - p))
		return;
	r.path = (const char *)p;
	ft_smaps_mmap(m, (int)ids[0], &r);
}

/* ft_side_record - MMAP2, COMM (exec) and FORK into the processes' mappings @m */
void ft_side_record(struct ft_smaps *m, const struct perf_event_header *h)
{
	const unsigned char *p = (const unsigned char *)(h + 1), *end = (const unsigned char *)h + h->size;
	uint32_t ids[4];
	size_t n;

	switch (h->type) {
	case PERF_RECORD_MMAP2:
		side_mmap(m, h, p, end);
		return;
	case PERF_RECORD_COMM:		/* pid, tid, comm: an exec, or a new name */
		if (end - p < 9)
			return;
		memcpy(ids, p, 8);
		n = strnlen((const char *)p + 8, end - p - 8);
		if (n == (size_t)(end - p - 8))
			return;
		ft_smaps_name(m, (int)ids[1], (const char *)p + 8);
		if ((h->misc & PERF_RECORD_MISC_COMM_EXEC) && ids[0] == ids[1])
			ft_smaps_exec(m, (int)ids[0], (const char *)p + 8,
				      record_ts(p + 8 + n, end));
		return;
	case PERF_RECORD_FORK:		/* pid, ppid, tid, ptid, time */
		if (end - p < 16)
			return;
		memcpy(ids, p, 16);
		/* a child is named as its parent, unless a name came already: its exec's
		   COMM record, read first from another CPU's ring */
		if (ft_smaps_comm(m, (int)ids[3]) && !ft_smaps_comm(m, (int)ids[2]))
			ft_smaps_name(m, (int)ids[2], ft_smaps_comm(m, (int)ids[3]));
		if (ids[0] == ids[2])	/* a process, not a thread */
			ft_smaps_fork(m, (int)ids[0], (int)ids[1]);
		return;
	default:
		return;
	}
}

/* ft_side_is - a record ft_side_record takes */
bool ft_side_is(const struct perf_event_header *h)
{
	return h->type == PERF_RECORD_MMAP2 || h->type == PERF_RECORD_COMM ||
	       h->type == PERF_RECORD_FORK;
}

/**
 * ft_sideq_add - keep a copy of record @h, stamped with its trailer's time (0 where the
 * record is too short to hold one: it then sorts first)
 * Returns 0, or -1 when out of memory (the record is then not kept).
 */
int ft_sideq_add(struct ft_side_queue *q, const struct perf_event_header *h)
{
	size_t size = (h->size + 7u) & ~(size_t)7;
	struct ft_side_rec *r;

	if (ft_grow((void **)&q->buf, 1, q->len, size, &q->cap) ||
	    ft_grow((void **)&q->rec, sizeof(*q->rec), q->n, 1, &q->ncap))
		return -1;
	r = &q->rec[q->n];
	r->ts = record_ts((const unsigned char *)(h + 1), (const unsigned char *)h + h->size);
	r->off = q->len;
	r->seq = (uint32_t)q->n;
	memcpy(q->buf + q->len, h, h->size);
	q->len += size;
	q->n++;
	return 0;
}

/* by_time - qsort order of two kept records: time, then the order they came in */
static int by_time(const void *a, const void *b)
{
	const struct ft_side_rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ft_sideq_sort - the kept records in time order */
void ft_sideq_sort(struct ft_side_queue *q)
{
	if (q->n > 1)
		qsort(q->rec, q->n, sizeof(*q->rec), by_time);
}

/* ft_sideq_get - the @i-th kept record (i < q->n), after ft_sideq_sort in time order */
const struct perf_event_header *ft_sideq_get(const struct ft_side_queue *q, size_t i)
{
	return (const struct perf_event_header *)(q->buf + q->rec[i].off);
}

/* ft_sideq_reset - empty the queue for the next round, keeping its memory */
void ft_sideq_reset(struct ft_side_queue *q)
{
	q->len = 0;
	q->n = 0;
}

/* ft_sideq_free - free the queue (idempotent) */
void ft_sideq_free(struct ft_side_queue *q)
{
	free(q->buf);
	free(q->rec);
	memset(q, 0, sizeof(*q));
}
