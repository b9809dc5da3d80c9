/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ft_intern: arrays of u64 (stacks, keys made of several ids) stored once and
 * named by a dense id 0, 1, 2... so that tables of totals can be plain arrays.
 */
#ifndef FTSCOPE_LIB_INTERN_H
#define FTSCOPE_LIB_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct ft_intern {
	uint64_t	*pool;		/* every array, back to back */
	size_t		used, cap;
	size_t		*off;		/* id -> start in pool */
	uint32_t	*len;		/* id -> entries */
	uint32_t	n, ncap;	/* ids */
	uint32_t	*slot;		/* hash table of id + 1, 0 empty */
	uint32_t	mask;
};

int ft_intern_init(struct ft_intern *t);
void ft_intern_fini(struct ft_intern *t);
void ft_intern_clear(struct ft_intern *t);
long ft_intern_find(const struct ft_intern *t, const uint64_t *v, uint32_t n);
long ft_intern_put(struct ft_intern *t, const uint64_t *v, uint32_t n);

/* ft_intern_get - the array of @id and its length */
static inline const uint64_t *ft_intern_get(const struct ft_intern *t, uint32_t id,
					     uint32_t *n)
{
	*n = t->len[id];
	return t->pool + t->off[id];
}

/* Strings back to back, named by their offset. */
struct ft_names {
	char	*buf;
	size_t	used, cap;
};

long ft_names_add(struct ft_names *nm, const char *s, size_t len);

#endif
