/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU queues of raw sub-buffers, walked with ft_page_cursor (checked record
 * for record against libtraceevent's kbuffer in the tests) and merged across CPUs
 * by timestamp. The source (live reader or file) only queues pages.
 */
#ifndef FTSCOPE_EVENTS_MERGE_H
#define FTSCOPE_EVENTS_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "events/page.h"

struct ft_pagebuf {
	struct ft_pagebuf	*next;
	long long		loss;	/* events lost before this page: 0 none, -1 unknown count */
	unsigned int		len;
	unsigned int		size;	/* record bytes, from the header (ft_merge_page_put) */
	uint64_t		ts;	/* time of the first record, from the header */
	const unsigned char	*page;	/* the sub-buffer: data, or memory the source keeps
					   mapped while the merge runs (ft_merge_page_map) */
	unsigned char		data[];
};

/* One record, or a loss marker (data NULL, lost != 0), as the merge hands it on. */
struct ft_raw {
	uint64_t	ts;
	int		cpu;
	int		size;
	const void	*data;
	long long	lost;
};

/* Records handed on per call, in time order. */
#define FT_MERGE_BATCH	256

/* Receives @n records (and loss markers) in time order. */
typedef void (*ft_raw_fn)(void *ctx, const struct ft_raw *raw, unsigned int n);
/* Sees every page as it is queued (e.g. to save a capture). */
typedef void (*ft_page_tap_fn)(void *ctx, int cpu, const void *page, unsigned int len);

struct ft_cpu_stream {
	struct ft_pagebuf	*head, *tail;
	struct ft_page_cursor	cur;		/* over head, when loaded */
	bool			loaded;
	bool			has_cur;
	long long		pending_loss;	/* for the next page queued */
	uint64_t		newest;		/* first-record time of the last page queued: every
						   record of this CPU before it is queued too */
	uint64_t		last_ts;
	unsigned long long	events, pages, bad_pages;
	unsigned long long	marked_lost;	/* losses the pages' headers counted */
};

struct ft_merge {
	struct ft_page_fmt	pf;
	int			ncpus;
	struct ft_cpu_stream	*cpu;
	struct ft_pagebuf	*free_list;
	ft_raw_fn		emit;
	void			*ctx;
	ft_page_tap_fn		tap;
	void			*tap_ctx;
	unsigned long long	events;
	struct ft_raw		*batch;		/* records not yet handed on */
	unsigned int		nbatch;
	int			*heap;		/* CPUs with a record, earliest first */
	int			nheap;
	uint64_t		last_ts;	/* newest timestamp emitted */
	unsigned long long	unordered;	/* records older than one already emitted */
};

int ft_merge_init(struct ft_merge *m, const struct ft_page_fmt *pf, int ncpus,
		  ft_raw_fn emit, void *ctx);
void ft_merge_fini(struct ft_merge *m);
struct ft_pagebuf *ft_merge_page_get(struct ft_merge *m);
void ft_merge_page_put(struct ft_merge *m, int cpu, struct ft_pagebuf *pg, unsigned int len);
void ft_merge_page_map(struct ft_merge *m, int cpu, struct ft_pagebuf *pg, const void *page,
		       unsigned int len);
void ft_merge_page_recycle(struct ft_merge *m, struct ft_pagebuf *pg);
void ft_merge_loss(struct ft_merge *m, int cpu, long long count);
unsigned long long ft_merge_run(struct ft_merge *m, uint64_t watermark);
void ft_merge_flush_losses(struct ft_merge *m);

#endif
