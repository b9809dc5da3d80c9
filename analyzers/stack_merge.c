// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks merged by what a report prints of them (stack_merge.h): the row of a key is
 * found by its numbers (thread ids, frame counts) and its frames' names, each name
 * stored once and a stack kept as their ids.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/stack_merge.h"

/* ft_smerge_init - no rows yet; 0 or -1 out of memory */
int ft_smerge_init(struct ft_smerge *m)
{
	memset(m, 0, sizeof(*m));
	return ft_intern_init(&m->rows) || ft_intern_init(&m->names) ? -1 : 0;
}

/* ft_smerge_fini - free the rows */
void ft_smerge_fini(struct ft_smerge *m)
{
	ft_intern_fini(&m->rows);
	ft_intern_fini(&m->names);
	free(m->first);
	free(m->sum);
	free(m->buf);
	memset(m, 0, sizeof(*m));
}

/* room - the key buffer holds @words; false out of memory */
static bool room(struct ft_smerge *m, size_t words)
{
	uint64_t *b;

	if (words <= m->bufcap)
		return true;
	b = realloc(m->buf, 2 * words * sizeof(*b));
	if (!b)
		return false;
	m->buf = b;
	m->bufcap = 2 * words;
	return true;
}

/* grow_rows - room for row @row in first and sum; false out of memory */
static bool grow_rows(struct ft_smerge *m, uint32_t row)
{
	uint32_t cap = m->cap ? m->cap : 256;
	uint32_t *first;
	uint64_t (*sum)[2];

	if (row < m->cap)
		return true;
	while (cap <= row)
		cap *= 2;
	first = realloc(m->first, cap * sizeof(*first));
	if (first)
		m->first = first;
	sum = first ? realloc(m->sum, cap * sizeof(*sum)) : NULL;
	if (!sum)
		return false;
	memset(sum + m->cap, 0, (cap - m->cap) * sizeof(*sum));
	m->sum = sum;
	m->cap = cap;
	return true;
}

/* name_id - the id of name @s among the names seen (each stored once); -1 out of memory */
static long name_id(struct ft_smerge *m, const char *s)
{
	size_t len = strlen(s), words = len / 8 + 1;	/* its NUL, zero padding */

	if (!room(m, words))
		return -1;
	m->buf[words - 1] = 0;
	memcpy(m->buf, s, len);
	return ft_intern_put(&m->names, m->buf, (uint32_t)words);
}

/**
 * ft_smerge_add - key @key, printed as the numbers @head (@nh) and the frames @f (@nf),
 * its sums @a and @b added to its row. Returns the row (the first key of a new row
 * is @key), or -1 out of memory.
 */
long ft_smerge_add(struct ft_smerge *m, const int64_t *head, int nh, const char *const *f,
		   int nf, uint32_t key, uint64_t a, uint64_t b)
{
	uint32_t before = m->rows.n, words = (uint32_t)(nh + 1 + nf);
	uint64_t *k;
	long row, id;
	int i;

	k = malloc(words * sizeof(*k));
	if (!k)
		return -1;
	if (nh)
		memcpy(k, head, nh * sizeof(*head));
	k[nh] = (uint64_t)nf;
	for (i = 0; i < nf; i++) {
		id = name_id(m, f[i]);
		if (id < 0) {
			free(k);
			return -1;
		}
		k[nh + 1 + i] = (uint64_t)id;
	}
	row = ft_intern_put(&m->rows, k, words);
	free(k);
	if (row < 0 || !grow_rows(m, (uint32_t)row))
		return -1;
	if ((uint32_t)row >= before)
		m->first[row] = key;
	m->sum[row][0] += a;
	m->sum[row][1] += b;
	return row;
}
