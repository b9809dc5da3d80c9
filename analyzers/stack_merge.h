/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stacks merged by what a report prints of them: two keys whose stacks differ in
 * addresses (two places in one function, kernel frames of the tracing code dropped,
 * two threads of one comm in folded output) but print the same become one row, with
 * the sums of both.
 */
#ifndef FTSCOPE_ANALYZERS_STACK_MERGE_H
#define FTSCOPE_ANALYZERS_STACK_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/intern.h"

struct ft_smerge {
	struct ft_intern	names;		/* a frame's name -> its id */
	struct ft_intern	rows;		/* numbers and name ids -> row */
	uint32_t		*first;		/* row -> the first key of it */
	uint64_t		(*sum)[2];	/* row -> two sums */
	uint32_t		cap;
	uint64_t		*buf;		/* a name being looked up */
	size_t			bufcap;
};

int ft_smerge_init(struct ft_smerge *m);
void ft_smerge_fini(struct ft_smerge *m);
long ft_smerge_add(struct ft_smerge *m, const int64_t *head, int nh, const char *const *f,
		   int nf, uint32_t key, uint64_t a, uint64_t b);

#endif
