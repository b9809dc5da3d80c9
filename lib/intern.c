// SPDX-License-Identifier: GPL-2.0
/*
 * Interning of u64 arrays: open addressing over ids, arrays in one pool.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/intern.h"

/* hash - mix the words of an array (splitmix-style finaliser per word) */
static uint64_t hash(const uint64_t *v, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
	uint32_t i;

	for (i = 0; i < n; i++) {
		h ^= v[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
		h *= 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
	}
	return h;
}

/* ft_intern_init - an empty table */
int ft_intern_init(struct ft_intern *t)
{
	memset(t, 0, sizeof(*t));
	t->mask = 255;
	t->slot = calloc(t->mask + 1, sizeof(*t->slot));
	return t->slot ? 0 : -1;
}

/* ft_intern_fini - free everything */
void ft_intern_fini(struct ft_intern *t)
{
	free(t->pool);
	free(t->off);
	free(t->len);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ft_intern_clear - no arrays any more, the memory kept for the next ones */
void ft_intern_clear(struct ft_intern *t)
{
	if (t->slot)
		memset(t->slot, 0, ((size_t)t->mask + 1) * sizeof(*t->slot));
	t->used = 0;
	t->n = 0;
}

/* rehash - double the hash table */
static int rehash(struct ft_intern *t)
{
	uint32_t mask = t->mask * 2 + 1, i, *slot = calloc((size_t)mask + 1, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < t->n; i++) {
		uint64_t h = hash(t->pool + t->off[i], t->len[i]);

		while (slot[h & mask])
			h++;
		slot[h & mask] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->mask = mask;
	return 0;
}

/* grow - room for one more id and @n more words */
static int grow(struct ft_intern *t, uint32_t n)
{
	if (t->used + n > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		uint64_t *p;

		while (cap < t->used + n)
			cap *= 2;
		p = realloc(t->pool, cap * sizeof(*p));
		if (!p)
			return -1;
		t->pool = p;
		t->cap = cap;
	}
	if (t->n == t->ncap) {
		uint32_t ncap = t->ncap ? t->ncap * 2 : 256;
		size_t *off = realloc(t->off, ncap * sizeof(*off));
		uint32_t *len;

		if (!off)
			return -1;
		t->off = off;
		len = realloc(t->len, ncap * sizeof(*len));
		if (!len)
			return -1;
		t->len = len;
		t->ncap = ncap;
	}
	return 0;
}

/* probe - the id of array @v[0..n), or -1 with *@h at the empty slot it would take */
static long probe(const struct ft_intern *t, const uint64_t *v, uint32_t n, uint64_t *h)
{
	uint32_t id;

	for (*h = hash(v, n);; (*h)++) {
		id = t->slot[*h & t->mask];
		if (!id)
			return -1;
		id--;
		if (t->len[id] == n && (!n || !memcmp(t->pool + t->off[id], v, n * sizeof(*v))))
			return id;
	}
}

/**
 * ft_intern_find - the id of array @v[0..n), or -1 when it was never added
 */
long ft_intern_find(const struct ft_intern *t, const uint64_t *v, uint32_t n)
{
	uint64_t h;

	return probe(t, v, n, &h);
}

/**
 * ft_intern_put - the id of array @v[0..n), adding it when new
 * Returns the id, or -1 when out of memory.
 */
long ft_intern_put(struct ft_intern *t, const uint64_t *v, uint32_t n)
{
	uint64_t h;
	long id = probe(t, v, n, &h);

	if (id >= 0)
		return id;
	if (grow(t, n))
		return -1;
	id = t->n++;
	t->off[id] = t->used;
	t->len[id] = n;
	if (n)
		memcpy(t->pool + t->used, v, n * sizeof(*v));
	t->used += n;
	t->slot[h & t->mask] = id + 1;
	if (t->n * 2 > t->mask && rehash(t))
		return -1;
	return id;
}

/**
 * ft_names_add - append @len bytes of @s and a NUL
 * Returns the name's offset, or -1 when out of memory.
 */
long ft_names_add(struct ft_names *nm, const char *s, size_t len)
{
	if (nm->used + len + 1 > nm->cap) {
		size_t ncap = nm->cap ? nm->cap * 2 : 4096;
		char *p;

		while (ncap < nm->used + len + 1)
			ncap *= 2;
		p = realloc(nm->buf, ncap);
		if (!p)
			return -1;
		nm->buf = p;
		nm->cap = ncap;
	}
	memcpy(nm->buf + nm->used, s, len);
	nm->buf[nm->used + len] = 0;
	nm->used += len + 1;
	return (long)(nm->used - len - 1);
}
