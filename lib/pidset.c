// SPDX-License-Identifier: GPL-2.0
/*
 * ft_imap implementation.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pidset.h"

/**
 * ft_imap_init - an empty map with room for about @capacity keys before it grows
 * Returns 0 or -1 (ENOMEM).
 */
int ft_imap_init(struct ft_imap *m, unsigned int capacity)
{
	unsigned int n = 16;

	while (n < capacity * 2)
		n <<= 1;
	m->slot = calloc(n, sizeof(*m->slot));
	m->mask = n - 1;
	m->count = 0;
	return m->slot ? 0 : -1;
}

/* ft_imap_of_ids - a new table holding the ids of @a and @b (value 1); 0, or -1 (ENOMEM) */
int ft_imap_of_ids(struct ft_imap *m, const int *a, int na, const int *b, int nb)
{
	int i;

	if (ft_imap_init(m, 64))
		return -1;
	for (i = 0; i < na + nb; i++)
		if (!ft_imap_put(m, i < na ? a[i] : b[i - na], 1))
			return -1;
	return 0;
}

/* cmp_int - ascending ints, for qsort */
static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* ft_imap_keys - the keys of @m, ascending, malloc'ed in *@keys; their count, or -1 (ENOMEM) */
int ft_imap_keys(const struct ft_imap *m, int **keys)
{
	unsigned int i;
	int n = 0;

	*keys = malloc((m->count ? m->count : 1) * sizeof(**keys));
	if (!*keys)
		return -1;
	for (i = 0; m->slot && i <= m->mask; i++)
		if (m->slot[i].key)
			(*keys)[n++] = m->slot[i].key - 1;
	qsort(*keys, n, sizeof(**keys), cmp_int);
	return n;
}

/* ft_imap_fini - free the table */
void ft_imap_fini(struct ft_imap *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

/* ft_imap_clear - forget every key, keep the table */
void ft_imap_clear(struct ft_imap *m)
{
	if (m->slot)
		memset(m->slot, 0, (m->mask + 1) * sizeof(*m->slot));
	m->count = 0;
}

/* grow - double the table and rehash */
static int grow(struct ft_imap *m)
{
	struct ft_imap old = *m;
	unsigned int i;

	m->slot = calloc((old.mask + 1) * 2, sizeof(*m->slot));
	if (!m->slot) {
		*m = old;
		return -1;
	}
	m->mask = old.mask * 2 + 1;
	m->count = 0;
	for (i = 0; i <= old.mask; i++)
		if (old.slot[i].key)
			ft_imap_put(m, old.slot[i].key - 1, old.slot[i].val);
	free(old.slot);
	return 0;
}

/**
 * ft_imap_put_any - ft_imap_put for any case: probing, growing
 * Returns a pointer to the stored value, or NULL on ENOMEM.
 */
uint64_t *ft_imap_put_any(struct ft_imap *m, int key, uint64_t val)
{
	unsigned int i;

	if (key < 0 || key == 0x7fffffff) {
		errno = EINVAL;
		return NULL;
	}
	if ((m->count + 1) * 4 > (m->mask + 1) * 3 && grow(m))
		return NULL;
	for (i = ft_imap_hash(key) & m->mask; m->slot[i].key; i = (i + 1) & m->mask)
		if (m->slot[i].key == key + 1)
			goto set;
	m->slot[i].key = key + 1;
	m->count++;
set:
	m->slot[i].val = val;
	return &m->slot[i].val;
}

/**
 * ft_imap_del - remove @key, shifting later entries of its probe run back
 * Returns true when the key was there.
 */
bool ft_imap_del(struct ft_imap *m, int key)
{
	return ft_imap_take(m, key, NULL);
}

/**
 * ft_imap_take_any - ft_imap_take for any case: remove @key in one probe, shifting
 * later entries of its probe run back. Returns true when the key was there.
 */
bool ft_imap_take_any(struct ft_imap *m, int key, uint64_t *val)
{
	unsigned int i, j, home;

	if (!m->slot)
		return false;
	for (i = ft_imap_hash(key) & m->mask; m->slot[i].key; i = (i + 1) & m->mask)
		if (m->slot[i].key == key + 1)
			break;
	if (!m->slot[i].key)
		return false;
	if (val)
		*val = m->slot[i].val;
	for (j = (i + 1) & m->mask; m->slot[j].key; j = (j + 1) & m->mask) {
		home = ft_imap_hash(m->slot[j].key - 1) & m->mask;
		/* move j into the hole at i unless its home lies cyclically in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->slot[i] = m->slot[j];
			i = j;
		}
	}
	m->slot[i].key = 0;
	m->count--;
	return true;
}
