// SPDX-License-Identifier: GPL-2.0
/*
 * ft_tab: per-key records in one growable array, found through a direct index
 * (pids) or an ft_imap (other keys).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tab.h"

/* ft_tab_init - an empty table of @size-byte records */
int ft_tab_init(struct ft_tab *t, size_t size)
{
	memset(t, 0, sizeof(*t));
	t->size = size;
	return ft_imap_init(&t->index, 64);
}

/* dir_slot - @key's slot in the direct index (key < FT_TAB_DIRECT), made on use; NULL on ENOMEM */
static uint32_t *dir_slot(struct ft_tab *t, unsigned int key)
{
	uint32_t **leaf;

	if (!t->dir) {
		t->dir = calloc(FT_TAB_DIRECT / FT_TAB_LEAF, sizeof(*t->dir));
		if (!t->dir)
			return NULL;
	}
	leaf = &t->dir[key >> FT_TAB_LEAF_BITS];
	if (!*leaf) {
		*leaf = calloc(FT_TAB_LEAF, sizeof(**leaf));
		if (!*leaf)
			return NULL;
	}
	return *leaf + (key & (FT_TAB_LEAF - 1));
}

/* set_pos - index @key at position @i; false on ENOMEM */
static bool set_pos(struct ft_tab *t, int key, unsigned int i)
{
	uint32_t *slot;

	if ((unsigned int)key >= FT_TAB_DIRECT)
		return ft_imap_put(&t->index, key, i) != NULL;
	slot = dir_slot(t, key);
	if (!slot)
		return false;
	*slot = i + 1;
	return true;
}

/* free_dir - free the direct index */
static void free_dir(struct ft_tab *t)
{
	unsigned int i;

	if (!t->dir)
		return;
	for (i = 0; i < FT_TAB_DIRECT / FT_TAB_LEAF; i++)
		free(t->dir[i]);
	free(t->dir);
	t->dir = NULL;
}

/* ft_tab_fini - free the table */
void ft_tab_fini(struct ft_tab *t)
{
	free_dir(t);
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
	if (!set_pos(t, key, t->n))
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
		set_pos(t, key, i);	/* the key is indexed: no memory is taken */
	}
}

/* ft_tab_clear - forget every record, keep the memory */
void ft_tab_clear(struct ft_tab *t)
{
	unsigned int i;

	ft_imap_clear(&t->index);
	if (t->dir)
		for (i = 0; i < FT_TAB_DIRECT / FT_TAB_LEAF; i++)
			if (t->dir[i])
				memset(t->dir[i], 0, FT_TAB_LEAF * sizeof(*t->dir[i]));
	t->n = 0;
}
