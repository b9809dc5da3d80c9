/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stacks from ftrace's kernel_stack and user_stack records, interned as they come
 * and named at the report: shared by offcpu, profile and hist's stack keys.
 */
#ifndef FTSCOPE_ANALYZERS_STACK_SYMS_H
#define FTSCOPE_ANALYZERS_STACK_SYMS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyzers/analyzer.h"
#include "events/decode.h"
#include "events/syms.h"
#include "lib/intern.h"

/* What ft_ustack_put saw of a user stack, for the notes under a report. */
struct ft_ustack_seen {
	bool	early;		/* the frame-pointer walk left mapped code: frames cut */
	bool	unmapped;	/* the process's maps were never read */
	bool	full;		/* the kernel's 8 entries all used: deeper frames cut */
};

int ft_usyms_for(struct ft_usyms *u, const struct ft_env *env);
long ft_kstack_put(struct ft_intern *kst, const struct ft_stack *st);
long ft_ustack_put(struct ft_usyms *u, struct ft_intern *ust, int tgid,
		   const struct ft_stack *st, struct ft_ustack_seen *seen);
void ft_ksyms_need(struct ft_ksyms *k, const char *kallsyms);
int ft_kstack_names(const struct ft_ksyms *k, const struct ft_intern *kst, uint32_t id,
		    bool strip_trace, const char **out, uint64_t *addr, int max);
int ft_ustack_names(struct ft_usyms *u, const struct ft_intern *ust, int tgid, uint32_t id,
		    const char **out, uint64_t *frame, int max);

void ft_stack_print(FILE *f, const char *const *k, int nk, const char *const *u, int nu);

#endif
