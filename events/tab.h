/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ft_tab: records of one fixed size kept per int key (tid, pid, cpu), created zeroed
 * on first use, in one array that can be sorted and walked. Each record starts with
 * its int key. Pointers into the table are valid until the next ft_tab_get.
 */
#ifndef FTSCOPE_EVENTS_TAB_H
#define FTSCOPE_EVENTS_TAB_H

#include <stddef.h>

#include "events/pidset.h"

struct ft_tab {
	struct ft_imap	index;		/* key -> position in rec */
	char		*rec;
	size_t		size;		/* bytes per record, starting with int key */
	unsigned int	n, cap;
};

int ft_tab_init(struct ft_tab *t, size_t size);
void ft_tab_fini(struct ft_tab *t);
void *ft_tab_add(struct ft_tab *t, int key);
void ft_tab_sort(struct ft_tab *t, int (*cmp)(const void *, const void *));
void ft_tab_clear(struct ft_tab *t);

/* ft_tab_at - the record at position @i (0 <= i < n) */
static inline void *ft_tab_at(const struct ft_tab *t, unsigned int i)
{
	return t->rec + (size_t)i * t->size;
}

/* ft_tab_find - the record of @key, NULL when there is none */
static inline void *ft_tab_find(const struct ft_tab *t, int key)
{
	uint64_t *pos = ft_imap_get(&t->index, key);

	return pos ? ft_tab_at(t, *pos) : NULL;
}

/* ft_tab_get - the record of @key, made zeroed when missing; NULL on ENOMEM */
static inline void *ft_tab_get(struct ft_tab *t, int key)
{
	uint64_t *pos = ft_imap_get(&t->index, key);

	return pos ? ft_tab_at(t, *pos) : ft_tab_add(t, key);
}

#endif
