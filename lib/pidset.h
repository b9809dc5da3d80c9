/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ft_imap: an open-addressing map from a non-negative int (pid, tid, cpu) to a
 * 64-bit value. Linear probing with backward-shift deletion: no tombstones.
 */
#ifndef FTSCOPE_LIB_PIDSET_H
#define FTSCOPE_LIB_PIDSET_H

#include <stdbool.h>
#include <stdint.h>

struct ft_imap_slot {
	int		key;	/* key + 1; 0 = empty */
	uint64_t	val;
};

struct ft_imap {
	struct ft_imap_slot	*slot;
	unsigned int		mask;	/* capacity - 1 */
	unsigned int		count;
};

int ft_imap_init(struct ft_imap *m, unsigned int capacity);
void ft_imap_fini(struct ft_imap *m);
uint64_t *ft_imap_put_any(struct ft_imap *m, int key, uint64_t val);
bool ft_imap_del(struct ft_imap *m, int key);
bool ft_imap_take_any(struct ft_imap *m, int key, uint64_t *val);
void ft_imap_clear(struct ft_imap *m);
int ft_imap_of_ids(struct ft_imap *m, const int *a, int na, const int *b, int nb);
int ft_imap_keys(const struct ft_imap *m, int **keys);

/* ft_imap_hash - spread consecutive pids over the table */
static inline unsigned int ft_imap_hash(int key)
{
	return (unsigned int)key * 2654435761u;
}

/* ft_imap_get - the value stored for @key, or NULL */
static inline uint64_t *ft_imap_get(const struct ft_imap *m, int key)
{
	unsigned int i;

	if (!m->slot)
		return NULL;
	for (i = ft_imap_hash(key) & m->mask; m->slot[i].key; i = (i + 1) & m->mask)
		if (m->slot[i].key == key + 1)
			return &m->slot[i].val;
	return NULL;
}

/**
 * ft_imap_put - set @key to @val (insert or overwrite)
 * Returns a pointer to the stored value, or NULL on ENOMEM or a bad key (EINVAL).
 * Inline when the key's home slot holds it, or is free and the table need not grow.
 */
static inline uint64_t *ft_imap_put(struct ft_imap *m, int key, uint64_t val)
{
	struct ft_imap_slot *s;

	if (m->slot && key >= 0 && key != 0x7fffffff) {
		s = m->slot + (ft_imap_hash(key) & m->mask);
		if (s->key == key + 1 || (!s->key && (m->count + 1) * 4 <= (m->mask + 1) * 3)) {
			m->count += !s->key;
			s->key = key + 1;
			s->val = val;
			return &s->val;
		}
	}
	return ft_imap_put_any(m, key, val);
}

/**
 * ft_imap_take - remove @key, its value into @val (when not NULL)
 * Returns true when the key was there. Inline when its home slot is free, or holds
 * it and no later entry of its probe run has to move back.
 */
static inline bool ft_imap_take(struct ft_imap *m, int key, uint64_t *val)
{
	unsigned int i = ft_imap_hash(key) & m->mask;
	struct ft_imap_slot *s;

	if (!m->slot)
		return false;
	s = m->slot + i;
	if (!s->key)
		return false;
	if (s->key == key + 1 && !m->slot[(i + 1) & m->mask].key) {
		if (val)
			*val = s->val;
		s->key = 0;
		m->count--;
		return true;
	}
	return ft_imap_take_any(m, key, val);
}

/* ft_imap_for_each - visit every (key, value) */
#define ft_imap_for_each(m, s) \
	for ((s) = (m)->slot; (m)->slot && (s) < (m)->slot + (m)->mask + 1; (s)++) \
		if ((s)->key)

#endif
