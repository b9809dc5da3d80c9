// SPDX-License-Identifier: GPL-2.0
/*
 * ft_tab: per-key records in one growable array, found through an ft_imap.
 */
#include <stdlib.h>
#include <string.h>

#include "events/tab.h"

/* ft_tab_init - an empty table of @size-byte records */
int ft_tab_init(struct ft_tab *t, size_t size)
{
	memset(t, 0, sizeof(*t));
	t->size = size;
	return ft_imap_init(&t->index, 64);
}

/* ft_tab_fini - free the table */
void ft_tab_fini(struct ft_tab *t)
{
	ft_imap_fini(&t->index);
	free(t->rec);
	memset(t, 0, sizeof(*t));
}

/* ft_tab_add - a zeroed record for @key, which has none yet; NULL on ENOMEM */
void *ft_tab_add(struct ft_tab *t, int key)
{
	char *r;

	if (t->n == t->cap) {
		unsigned int cap = t->cap ? t->cap * 2 : 64;

		r = realloc(t->rec, (size_t)cap * t->size);
		if (!r)
			return NULL;
		t->rec = r;
		t->cap = cap;
	}
	if (!ft_imap_put(&t->index, key, t->n))
		return NULL;
	r = ft_tab_at(t, t->n++);
	memset(r, 0, t->size);
	memcpy(r, &key, sizeof(key));
	return r;
}

/* ft_tab_sort - order the records with @cmp and re-index them */
void ft_tab_sort(struct ft_tab *t, int (*cmp)(const void *, const void *))
{
	unsigned int i;
	int key;

	if (t->n > 1)
		qsort(t->rec, t->n, t->size, cmp);
	for (i = 0; i < t->n; i++) {
		memcpy(&key, ft_tab_at(t, i), sizeof(key));
		*ft_imap_get(&t->index, key) = i;
	}
}

/* ft_tab_clear - forget every record, keep the memory */
void ft_tab_clear(struct ft_tab *t)
{
	ft_imap_clear(&t->index);
	t->n = 0;
}
