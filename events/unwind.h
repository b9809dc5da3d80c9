/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User stacks by call frame information (issue unwind): from the registers and the
 * copy of the user stack the kernel took at a perf sample (PERF_SAMPLE_REGS_USER,
 * PERF_SAMPLE_STACK_USER), walk the frames with each binary's .eh_frame (and
 * .debug_frame when present), per frame: CFI where the binary has it, the frame
 * pointer where it has not and the chain is sound. Tables are built once per binary
 * and kept. Interface fixed first so that the sampler (tracer/) and the unwinder
 * (events/unwind.c, events/cfi.c) are built side by side.
 */
#ifndef FTSCOPE_EVENTS_UNWIND_H
#define FTSCOPE_EVENTS_UNWIND_H

#include <stddef.h>
#include <stdint.h>

/* The registers the unwinder reads, in DWARF's x86-64 numbering (0 rax .. 7 rsp,
 * 8-15 r8-r15, 16 rip). @have: a bit for each register the sample holds. */
#define FT_UREG_BX	3
#define FT_UREG_BP	6
#define FT_UREG_SP	7
#define FT_UREG_IP	16
#define FT_UREG_N	17

struct ft_uregs {
	uint64_t	r[FT_UREG_N];
	uint32_t	have;		/* 1 << n for each r[n] set */
};

/* The copy of the user stack: @size bytes from address @sp (the sample's rsp). */
struct ft_ustack {
	uint64_t		sp;
	const unsigned char	*data;
	size_t			size;
};

/*
 * Where the code at an address comes from: a file mapping of the sampled process, or the
 * path "[vdso]" for the vDSO (the unwinder reads the kernel's from its own process).
 */
struct ft_ucode {
	const char	*path;		/* the file as the process maps it (its /proc/PID/root view) */
	uint64_t	start, end;	/* the executable mapping holding the address */
	uint64_t	pgoff;		/* its offset in the file */
};

/* The process's mapping holding @addr into @out: 0, or -1 (anonymous, unknown). */
typedef int (*ft_ucode_fn)(void *ctx, uint64_t addr, struct ft_ucode *out);

/* Why a walk ended (ft_unwind's *why). */
enum ft_unwind_end {
	FT_UNWIND_DONE,		/* the outermost frame: rip undefined, or a zero return */
	FT_UNWIND_MAX,		/* @max frames */
	FT_UNWIND_STACK,	/* a read beyond the stack copy (the copy was too small) */
	FT_UNWIND_NOMAP,	/* an address in no file mapping (JIT, or maps not known) */
	FT_UNWIND_NOCFI,	/* no CFI for the address and no sound frame pointer */
	FT_UNWIND_BADCFI,	/* a rule the unwinder does not take, or a damaged table */
	FT_UNWIND_LOOP,		/* the stack pointer did not grow: stopped */
	FT_UNWIND_NEND		/* how many reasons: a new one goes above */
};

/*
 * A walk that ended before the outermost frame (any reason but FT_UNWIND_DONE) is
 * marked by one more user "address" after its frames (ft_sampler_unwind), so that a
 * cut stack is told from a whole one through recordings and every printer:
 * FT_UNWIND_MARK | why. No address has it: it is non-canonical on x86-64 (above the
 * user range of 5-level paging, below the kernel's), and below perf's PERF_CONTEXT_*.
 */
#define FT_UNWIND_MARK		0x8000000000000000ULL
#define FT_UNWIND_IS_MARK(a)	(((a) & ~0xffULL) == FT_UNWIND_MARK)

struct ft_unwinder;

/* What an unwinder keeps (ft_unwinder_stats). */
struct ft_unwinder_stats {
	size_t		paths;		/* as ft_ucode_fn named the files */
	size_t		files;		/* distinct files (device, inode, mtime) */
	size_t		no_table;	/* of them: unreadable, not ELF */
	size_t		rows, bytes;	/* the tables' rows and memory */
	size_t		damaged;	/* CIEs and FDEs the tables could not read */
};

struct ft_unwinder *ft_unwinder_new(void);
void ft_unwinder_free(struct ft_unwinder *u);
void ft_unwinder_stats(const struct ft_unwinder *u, struct ft_unwinder_stats *s);
void ft_unwinder_damaged(const struct ft_unwinder *u,
			 void (*fn)(void *ctx, const char *path, unsigned int n), void *ctx);
/*
 * ft_unwind - the user frames of one sample, leaf first, into @ip (at most @max; the
 * first is the sample's rip; return addresses as they are, not minus one). Returns
 * the number of frames; *@why says why it ended.
 */
int ft_unwind(struct ft_unwinder *u, const struct ft_uregs *regs, const struct ft_ustack *st,
	      ft_ucode_fn code, void *ctx, uint64_t *ip, int max, enum ft_unwind_end *why);

#endif
