/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sample's user registers and stack copy, and --call-graph dwarf's unwinding of
 * them (tracer/sample_unwind.c).
 */
#ifndef FTSCOPE_TRACER_SAMPLE_UNWIND_H
#define FTSCOPE_TRACER_SAMPLE_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "tracer/sampler_state.h"

/* ft_take8 - the next u64 of a record into *@v; false past its @end */
static inline bool ft_take8(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	if (end - *p < 8)
		return false;
	__builtin_memcpy(v, *p, 8);
	*p += 8;
	return true;
}

/* A sample's PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER (after the callchain). */
struct ft_sample_tail {
	uint64_t		abi;		/* 0: no user registers (a kernel thread) */
	const unsigned char	*regs;		/* the registers if abi, in the mask's order */
	const unsigned char	*stack;		/* the copy, from the sample's rsp up */
	uint64_t		size;		/* its bytes really copied (dyn_size) */
};

bool ft_sampler_tail(const unsigned char *p, const unsigned char *end, unsigned int nregs,
		     struct ft_sample_tail *t);

/* --call-graph dwarf (tracer/sample_unwind.c) */
uint64_t ft_sampler_uregs_mask(void);
int ft_sampler_unwind(struct ft_sampler *sp, int pid, uint64_t ts, const unsigned char *p,
		      const unsigned char *end, uint64_t *ip);

#endif
