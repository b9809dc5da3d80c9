/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ft_imap: an open-addressing map from a non-negative int (pid, tid, cpu) to a
 * 64-bit value. Linear probing with backward-shift deletion: no tombstones.
 */
#ifndef FTSCOPE_EVENTS_PIDSET_H
#define FTSCOPE_EVENTS_PIDSET_H

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
uint64_t *ft_imap_get(const struct ft_imap *m, int key);
uint64_t *ft_imap_put(struct ft_imap *m, int key, uint64_t val);
bool ft_imap_del(struct ft_imap *m, int key);
bool ft_imap_take(struct ft_imap *m, int key, uint64_t *val);
void ft_imap_clear(struct ft_imap *m);

/* ft_imap_for_each - visit every (key, value) */
#define ft_imap_for_each(m, s) \
	for ((s) = (m)->slot; (m)->slot && (s) < (m)->slot + (m)->mask + 1; (s)++) \
		if ((s)->key)

#endif
