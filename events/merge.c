// SPDX-License-Identifier: GPL-2.0
/*
 * CPU merge. Each CPU's pages are in time order; records go out in global time
 * order up to a watermark (everything older than the watermark has been read from
 * every CPU), so a live reader can process while it records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/merge.h"

/**
 * ft_merge_init - set up @ncpus empty queues whose records go to @emit
 * Returns 0 or -1 with errno ENOMEM.
 */
int ft_merge_init(struct ft_merge *m, const struct ft_page_fmt *pf, int ncpus,
		  ft_raw_fn emit, void *ctx)
{
	memset(m, 0, sizeof(*m));
	m->pf = *pf;
	m->ncpus = ncpus;
	m->emit = emit;
	m->ctx = ctx;
	m->cpu = calloc(ncpus, sizeof(*m->cpu));
	m->batch = malloc(FT_MERGE_BATCH * sizeof(*m->batch));
	m->heap = malloc(ncpus * sizeof(*m->heap));
	if (!m->cpu || !m->batch || !m->heap) {
		ft_merge_fini(m);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* free_pages - free a list of page buffers */
static void free_pages(struct ft_pagebuf *pg)
{
	while (pg) {
		struct ft_pagebuf *next = pg->next;

		free(pg);
		pg = next;
	}
}

/* ft_merge_fini - free the queues and pages */
void ft_merge_fini(struct ft_merge *m)
{
	int i;

	for (i = 0; m->cpu && i < m->ncpus; i++)
		free_pages(m->cpu[i].head);
	free_pages(m->free_list);
	free(m->cpu);
	free(m->batch);
	free(m->heap);
	memset(m, 0, sizeof(*m));
}

/**
 * ft_merge_page_get - a buffer for one sub-buffer, recycled when possible
 * Returns NULL on ENOMEM.
 */
struct ft_pagebuf *ft_merge_page_get(struct ft_merge *m)
{
	struct ft_pagebuf *pg = m->free_list;

	if (pg) {
		m->free_list = pg->next;
	} else {
		pg = malloc(sizeof(*pg) + m->pf.subbuf_size);
		if (!pg)
			return NULL;
	}
	pg->next = NULL;
	pg->loss = 0;
	pg->len = 0;
	pg->page = pg->data;
	return pg;
}

/* ft_merge_page_recycle - give a page buffer back */
void ft_merge_page_recycle(struct ft_merge *m, struct ft_pagebuf *pg)
{
	pg->next = m->free_list;
	m->free_list = pg;
}

/**
 * ft_merge_loss - note that @count events (-1: unknown) were lost on @cpu after the
 * pages queued so far; analyzers hear of it before the next record of that CPU.
 */
void ft_merge_loss(struct ft_merge *m, int cpu, long long count)
{
	struct ft_cpu_stream *c = &m->cpu[cpu];

	if (c->pending_loss < 0 || count < 0)
		c->pending_loss = -1;
	else
		c->pending_loss += count;
}

/**
 * ft_merge_page_put - queue a sub-buffer read from @cpu (@len bytes valid)
 * Damaged pages are counted and dropped; a page whose header says events were
 * missed carries a loss marker.
 */
void ft_merge_page_put(struct ft_merge *m, int cpu, struct ft_pagebuf *pg, unsigned int len)
{
	struct ft_cpu_stream *c = &m->cpu[cpu];
	struct ft_page_info info;

	if (m->tap)
		m->tap(m->tap_ctx, cpu, pg->page, len);
	if (len > (unsigned int)m->pf.subbuf_size || ft_page_info(&m->pf, pg->page, len, &info)) {
		c->bad_pages++;
		ft_merge_page_recycle(m, pg);
		return;
	}
	c->newest = info.timestamp;
	pg->len = len;
	pg->size = info.size;
	pg->ts = info.timestamp;
	pg->loss = c->pending_loss;
	c->pending_loss = 0;
	if (info.missed && info.missed_count > 0)
		c->marked_lost += info.missed_count;
	if (info.missed)
		pg->loss = info.missed_count > 0 && pg->loss >= 0 ? pg->loss + info.missed_count : -1;
	if (!info.size && !pg->loss) {
		ft_merge_page_recycle(m, pg);
		return;
	}
	c->pages++;
	if (c->tail)
		c->tail->next = pg;
	else
		c->head = pg;
	c->tail = pg;
}

/**
 * ft_merge_page_map - queue a sub-buffer that stays at @page (@len bytes) until the
 * merge has run past it, without copying it into @pg
 */
void ft_merge_page_map(struct ft_merge *m, int cpu, struct ft_pagebuf *pg, const void *page,
		       unsigned int len)
{
	pg->page = page;
	ft_merge_page_put(m, cpu, pg, len);
}

/* flush - hand on the records batched so far */
static void flush(struct ft_merge *m)
{
	if (m->nbatch)
		m->emit(m->ctx, m->batch, m->nbatch);
	m->nbatch = 0;
}

/* push_loss - batch a loss marker of @count events on @cpu at @ts */
static void push_loss(struct ft_merge *m, int cpu, uint64_t ts, long long count)
{
	struct ft_raw *r;

	if (m->nbatch == FT_MERGE_BATCH)
		flush(m);
	r = &m->batch[m->nbatch++];

	r->ts = ts;
	r->cpu = cpu;
	r->size = 0;
	r->data = NULL;
	r->lost = count;
}

/* drop_head - the head page is done: emit the loss it still carries, recycle it */
static void drop_head(struct ft_merge *m, struct ft_cpu_stream *c)
{
	struct ft_pagebuf *pg = c->head;

	if (pg->loss) {
		push_loss(m, (int)(c - m->cpu), c->last_ts, pg->loss);
		pg->loss = 0;
	}
	c->head = pg->next;
	if (!c->head)
		c->tail = NULL;
	ft_merge_page_recycle(m, pg);
	c->loaded = false;
}

/* advance - make c->cur the next record of this CPU, loading pages as needed */
static void advance(struct ft_merge *m, struct ft_cpu_stream *c)
{
	while (c->head) {
		if (!c->loaded) {
			ft_page_cursor_init(&c->cur, &m->pf, c->head->page, c->head->size,
					    c->head->ts);
			c->loaded = true;
		}
		if (ft_page_next(&c->cur)) {
			c->has_cur = true;
			return;
		}
		if (c->cur.damaged)
			c->bad_pages++;
		drop_head(m, c);
	}
	c->has_cur = false;
}

/*
 * run_cpu - batch the records of CPU @cpu from its current one on, up to the first
 * that is later than @until or the end of its queued pages. The cursor is a local
 * copy in the loop, so that stores to the batch cannot alias it. Inline in both merge
 * loops: it is their body.
 */
static inline __attribute__((always_inline))
void run_cpu(struct ft_merge *m, int cpu, uint64_t until)
{
	struct ft_cpu_stream *c = &m->cpu[cpu];

	do {
		struct ft_page_cursor cur = c->cur;
		struct ft_raw *r;
		uint64_t last = m->last_ts;
		unsigned int n, k = 0;
		bool more;

		/* a page's loss marker goes before its first record */
		if (c->head->loss) {
			push_loss(m, cpu, cur.ts, c->head->loss);
			c->head->loss = 0;
		}
		n = m->nbatch;
		do {
			if (n == FT_MERGE_BATCH) {
				m->nbatch = n;
				flush(m);
				n = 0;
			}
			if (cur.ts < last)
				m->unordered++;
			else
				last = cur.ts;
			r = &m->batch[n++];
			r->ts = cur.ts;
			r->cpu = cpu;
			r->size = (int)cur.rec_size;
			r->data = cur.rec;
			r->lost = 0;
			k++;
			more = ft_page_next_small(&cur);
		} while (more && cur.ts <= until);
		c->events += k;
		m->events += k;
		m->nbatch = n;
		m->last_ts = last;
		c->last_ts = r->ts;
		c->cur = cur;
		if (more)
			return;
		if (ft_page_next(&c->cur))
			continue;
		/* the page is done: on to the next one */
		if (c->cur.damaged)
			c->bad_pages++;
		drop_head(m, c);
		advance(m, c);
	} while (c->has_cur && c->cur.ts <= until);
}

/* before - does CPU @a's next record come before CPU @b's (equal times: the lower CPU)? */
static inline bool before(const struct ft_merge *m, int a, int b)
{
	uint64_t ta = m->cpu[a].cur.ts, tb = m->cpu[b].cur.ts;

	return ta < tb || (ta == tb && a < b);
}

/* sift_down - restore the heap's order below slot @i */
static void sift_down(struct ft_merge *m, int i)
{
	int *h = m->heap, n = m->nheap, t;

	for (;;) {
		int l = 2 * i + 1, s = i;

		if (l < n && before(m, h[l], h[s]))
			s = l;
		if (l + 1 < n && before(m, h[l + 1], h[s]))
			s = l + 1;
		if (s == i)
			return;
		t = h[i];
		h[i] = h[s];
		h[s] = t;
		i = s;
	}
}

/* Up to this many CPUs, finding the next one due by a scan is cheaper than a heap. */
#define SCAN_MAX_CPUS	8

/* run_scan - the merge loop for a few CPUs: each step scans them all */
static void run_scan(struct ft_merge *m, uint64_t watermark)
{
	for (;;) {
		int best = -1, i;
		uint64_t bts = 0, second = UINT64_MAX;

		for (i = 0; i < m->ncpus; i++) {
			struct ft_cpu_stream *c = &m->cpu[i];

			if (!c->has_cur)
				continue;
			if (best < 0 || c->cur.ts < bts) {
				if (best >= 0)
					second = bts;
				best = i;
				bts = c->cur.ts;
			} else if (c->cur.ts < second) {
				second = c->cur.ts;
			}
		}
		if (best < 0 || bts > watermark)
			break;
		/* run the earliest CPU until another one is due */
		run_cpu(m, best, second < watermark ? second : watermark);
	}
}

/*
 * run_heap - the merge loop for many CPUs: they are kept in a heap by their next
 * record, so a step costs a few compares, not one per CPU; equal times go to the
 * lower CPU, as in run_scan
 */
static void run_heap(struct ft_merge *m, uint64_t watermark)
{
	int i;

	m->nheap = 0;
	for (i = 0; i < m->ncpus; i++)
		if (m->cpu[i].has_cur)
			m->heap[m->nheap++] = i;
	for (i = m->nheap / 2 - 1; i >= 0; i--)
		sift_down(m, i);
	while (m->nheap) {
		int best = m->heap[0];
		uint64_t second = UINT64_MAX;

		if (m->cpu[best].cur.ts > watermark)
			break;
		/* the next CPU due is one of the root's children */
		if (m->nheap > 1)
			second = m->cpu[m->heap[1]].cur.ts;
		if (m->nheap > 2 && m->cpu[m->heap[2]].cur.ts < second)
			second = m->cpu[m->heap[2]].cur.ts;
		run_cpu(m, best, second < watermark ? second : watermark);
		if (!m->cpu[best].has_cur)
			m->heap[0] = m->heap[--m->nheap];
		sift_down(m, 0);
	}
}

/**
 * ft_merge_run - emit, in time order, every queued record with ts <= @watermark
 * Returns the number of records emitted.
 */
unsigned long long ft_merge_run(struct ft_merge *m, uint64_t watermark)
{
	unsigned long long before_run = m->events;
	int i;

	for (i = 0; i < m->ncpus; i++)
		if (!m->cpu[i].has_cur)
			advance(m, &m->cpu[i]);
	if (m->ncpus <= SCAN_MAX_CPUS)
		run_scan(m, watermark);
	else
		run_heap(m, watermark);
	flush(m);
	return m->events - before_run;
}

/* ft_merge_flush_losses - at the end: emit losses noted after the last page of a CPU */
void ft_merge_flush_losses(struct ft_merge *m)
{
	int i;

	for (i = 0; i < m->ncpus; i++) {
		struct ft_cpu_stream *c = &m->cpu[i];

		if (c->pending_loss) {
			push_loss(m, i, c->last_ts, c->pending_loss);
			c->pending_loss = 0;
		}
	}
	flush(m);
}
