// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping records of one drain round, in time order (tracer/sample_side.h).
 * Each carries the sample_id trailer (sample_id_all): its time is the trailer's
 * u64 at @trailer bytes from the record's end. Records of one CPU come in time
 * order; ties keep the order they were read in.
 */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tracer/sample_side.h"

/**
 * ft_sideq_add - keep a copy of record @h, stamped with its trailer's time (0 where the
 * record is too short to hold one: it then sorts first)
 * Returns 0, or -1 when out of memory (the record is then not kept).
 */
int ft_sideq_add(struct ft_side_queue *q, const struct perf_event_header *h, size_t trailer)
{
	size_t size = (h->size + 7u) & ~(size_t)7;
	struct ft_side_rec *r;

	if (ft_grow((void **)&q->buf, 1, q->len, size, &q->cap) ||
	    ft_grow((void **)&q->rec, sizeof(*q->rec), q->n, 1, &q->ncap))
		return -1;
	r = &q->rec[q->n];
	r->ts = 0;
	if (h->size >= sizeof(*h) + trailer && trailer >= 8)
		memcpy(&r->ts, (const unsigned char *)h + h->size - trailer, 8);
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
