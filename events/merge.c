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
	if (!m->cpu) {
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

/* drop_head - the head page is done: emit the loss it still carries, recycle it */
static void drop_head(struct ft_merge *m, struct ft_cpu_stream *c)
{
	struct ft_pagebuf *pg = c->head;

	if (pg->loss) {
		struct ft_raw r = { .ts = c->last_ts, .cpu = (int)(c - m->cpu), .lost = pg->loss };

		pg->loss = 0;
		m->emit(m->ctx, &r);
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

/* emit_cur - hand on the current record (after the loss marker its page carries) */
static void emit_cur(struct ft_merge *m, struct ft_cpu_stream *c, int cpu)
{
	struct ft_raw r = { .ts = c->cur.ts, .cpu = cpu };

	if (c->head->loss) {
		r.lost = c->head->loss;
		c->head->loss = 0;
		m->emit(m->ctx, &r);
		r.lost = 0;
	}
	if (r.ts < m->last_ts)
		m->unordered++;
	else
		m->last_ts = r.ts;
	r.data = c->cur.rec;
	r.size = (int)c->cur.rec_size;
	c->last_ts = r.ts;
	c->events++;
	m->events++;
	m->emit(m->ctx, &r);
	if (ft_page_next_inline(&c->cur))
		return;
	/* the page is done: on to the next one */
	if (c->cur.damaged)
		c->bad_pages++;
	drop_head(m, c);
	advance(m, c);
}

/**
 * ft_merge_run - emit, in time order, every queued record with ts <= @watermark
 * Returns the number of records emitted.
 */
unsigned long long ft_merge_run(struct ft_merge *m, uint64_t watermark)
{
	unsigned long long before = m->events;
	int i;

	for (i = 0; i < m->ncpus; i++)
		if (!m->cpu[i].has_cur)
			advance(m, &m->cpu[i]);
	for (;;) {
		int best = -1;
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
		if (second > watermark)
			second = watermark;
		/* run the earliest CPU until another one is due */
		do {
			emit_cur(m, &m->cpu[best], best);
		} while (m->cpu[best].has_cur && m->cpu[best].cur.ts <= second);
	}
	return m->events - before;
}

/* ft_merge_flush_losses - at the end: emit losses noted after the last page of a CPU */
void ft_merge_flush_losses(struct ft_merge *m)
{
	int i;

	for (i = 0; i < m->ncpus; i++) {
		struct ft_cpu_stream *c = &m->cpu[i];
		struct ft_raw r = { .ts = c->last_ts, .cpu = i, .lost = c->pending_loss };

		if (c->pending_loss) {
			c->pending_loss = 0;
			m->emit(m->ctx, &r);
		}
	}
}
