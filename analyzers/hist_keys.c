// SPDX-License-Identifier: GPL-2.0
/*
 * hist's key table: a record's key (its words) interned to a dense id, at most
 * --max-keys of them, and each key's count and --value totals. hist.c counts a record
 * here at once, hist_stack.c once its stacks have come.
 */
#include "analyzers/hist_int.h"
#include "lib/util.h"

/* key_id - the id of the key of words @w; -1 when the table is full */
static long key_id(struct hist *h, const uint64_t *w, uint32_t n)
{
	long id = ft_intern_find(&h->in, w, n);

	if (id >= 0)
		return id;
	if (h->in.n >= (uint32_t)h->max_keys)
		return -1;
	return ft_intern_put(&h->in, w, n);
}

/* entry - the totals of key @id, the table grown to hold it; NULL on ENOMEM */
static struct hent *entry(struct hist *h, long id)
{
	if (ft_grow_at((void **)&h->ent, sizeof(*h->ent), id, &h->ncap))
		return NULL;
	return &h->ent[id];
}

/* hist_count_words - one record that passed the filter: its key's words @w, its value @x */
void hist_count_words(struct hist *h, const uint64_t *w, uint32_t n, int64_t x)
{
	long id = key_id(h, w, n);
	struct hent *e = id >= 0 ? entry(h, id) : NULL;

	if (!e) {
		if (id >= 0 || h->in.n < (uint32_t)h->max_keys)
			h->oom++;
		else
			h->dropped++;
		return;
	}
	h->hits++;
	e->count++;
	if (h->val_slot < 0)
		return;
	if (e->count == 1 || x < e->min)
		e->min = x;
	if (e->count == 1 || x > e->max)
		e->max = x;
	e->sum += x;
	if (x < 0 && !h->slot[h->val_slot].is_unsigned)
		e->neg++;
	else
		ft_hist_add(&e->h, &ft_unit_ns, (uint64_t)x);
}
