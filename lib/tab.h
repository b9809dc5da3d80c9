/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ft_tab: records of one fixed size kept per int key (tid, pid, cpu: 0 .. INT_MAX - 1),
 * created zeroed on first use, in one array that can be sorted and walked. Each record
 * starts with its int key. Pointers into the table are valid until the next ft_tab_get.
 */
#ifndef FTSCOPE_LIB_TAB_H
#define FTSCOPE_LIB_TAB_H

#include <stddef.h>
#include <stdint.h>

#include "lib/pidset.h"

/*
 * Keys 0 .. FT_TAB_DIRECT - 1 (every pid and tid the kernel hands out: pid_max is at
 * most 2^22) are found through a two-level direct index, no hashing or probing: a
 * directory of leaves of FT_TAB_LEAF slots, each the record's position + 1 (0: none).
 * Other keys go through the ft_imap.
 */
#define FT_TAB_LEAF_BITS	10
#define FT_TAB_LEAF		(1u << FT_TAB_LEAF_BITS)
#define FT_TAB_DIRECT		(1u << 22)

struct ft_tab {
	uint32_t	**dir;		/* FT_TAB_DIRECT / FT_TAB_LEAF leaves, made on use */
	struct ft_imap	index;		/* other keys -> position in rec */
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
	const uint32_t *leaf;
	uint64_t *pos;
	uint32_t slot;

	if ((unsigned int)key < FT_TAB_DIRECT) {
		leaf = t->dir ? t->dir[(unsigned int)key >> FT_TAB_LEAF_BITS] : NULL;
		slot = leaf ? leaf[key & (FT_TAB_LEAF - 1)] : 0;
		return slot ? ft_tab_at(t, slot - 1) : NULL;
	}
	pos = ft_imap_get(&t->index, key);
	return pos ? ft_tab_at(t, *pos) : NULL;
}

/* ft_tab_get - the record of @key, made zeroed when missing; NULL on ENOMEM */
static inline void *ft_tab_get(struct ft_tab *t, int key)
{
	void *r = ft_tab_find(t, key);

	return r ? r : ft_tab_add(t, key);
}

#endif
