// SPDX-License-Identifier: GPL-2.0
/*
 * --call-graph dwarf, the sampler's side: the tail of a PERF_RECORD_SAMPLE with
 * PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER (after the callchain)
 *
 *   u64 abi                      0: no user registers (a kernel thread)
 *   u64 regs[popcount(mask)]     if abi: in ascending bit order of sample_regs_user
 *   u64 size                     the bytes the kernel reserved for the copy
 *   u8  data[size]               if size: the stack from the sample's rsp up
 *   u64 dyn_size                 if size: the bytes really copied (the copy stops at
 *                                a page it cannot read without faulting)
 *
 * handed to the unwinder (events/unwind.h) with the registers in DWARF's numbering,
 * and the sampled process's file mappings (tracer/sample_maps.c) for its code.
 */
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>
#ifdef __x86_64__
#include <asm/perf_regs.h>
#endif

#include "tracer/sample_unwind.h"

#ifdef __x86_64__
/* The registers sampled, in perf's bit order (the record's), as DWARF numbers. The
   DS/ES/FS/GS bits give EINVAL on x86-64; flags, cs and ss no CFI rule reads. */
static const struct { unsigned char perf, dwarf; } uregs[] = {
	{ PERF_REG_X86_AX, 0 }, { PERF_REG_X86_BX, 3 }, { PERF_REG_X86_CX, 2 },
	{ PERF_REG_X86_DX, 1 }, { PERF_REG_X86_SI, 4 }, { PERF_REG_X86_DI, 5 },
	{ PERF_REG_X86_BP, FT_UREG_BP }, { PERF_REG_X86_SP, FT_UREG_SP },
	{ PERF_REG_X86_IP, FT_UREG_IP }, { PERF_REG_X86_R8, 8 }, { PERF_REG_X86_R9, 9 },
	{ PERF_REG_X86_R10, 10 }, { PERF_REG_X86_R11, 11 }, { PERF_REG_X86_R12, 12 },
	{ PERF_REG_X86_R13, 13 }, { PERF_REG_X86_R14, 14 }, { PERF_REG_X86_R15, 15 },
};
#define NUREGS	(sizeof(uregs) / sizeof(uregs[0]))
#endif

/* The sampled process and the sample's time, for the unwinder's questions about its code. */
struct ucode_ctx {
	struct ft_smaps	*maps;
	int		pid;
	uint64_t	ts;
};

/* ft_sampler_uregs_mask - sample_regs_user: AX..IP and R8-R15 (0xff01ff), 0 off x86-64 */
uint64_t ft_sampler_uregs_mask(void)
{
	uint64_t mask = 0;
#ifdef __x86_64__
	unsigned int i;

	for (i = 0; i < NUREGS; i++)
		mask |= 1ULL << uregs[i].perf;
#endif
	return mask;
}

/*
 * ucode - ft_ucode_fn: the file mapping of the sampled process at @addr at the sample's
 * time (a path "": the file mapped is replaced on disk and gone, its CFI unknown)
 */
static int ucode(void *ctx, uint64_t addr, struct ft_ucode *out)
{
	struct ucode_ctx *c = ctx;
	struct ft_smaps_hit h;

	if (ft_smaps_find(c->maps, c->pid, addr, c->ts, &h))
		return -1;
	out->path = h.path ? h.path : "";
	out->start = h.start;
	out->end = h.end;
	out->pgoff = h.pgoff;
	return 0;
}

/**
 * ft_sampler_tail - the registers (@nregs of them when the abi says there are) and the
 * stack copy of a record's tail [@p, @end) into @t; false when it is malformed
 */
bool ft_sampler_tail(const unsigned char *p, const unsigned char *end, unsigned int nregs,
		     struct ft_sample_tail *t)
{
	uint64_t size, dyn = 0;

	if (!ft_take8(&p, end, &t->abi))
		return false;
	t->regs = p;
	if (t->abi && (uint64_t)(end - p) / 8 < nregs)
		return false;
	if (t->abi)
		p += 8 * (size_t)nregs;
	if (!ft_take8(&p, end, &size))
		return false;
	t->stack = p;
	if (size) {
		if (size > (uint64_t)(end - p) || (uint64_t)(end - p) - size < 8)
			return false;
		memcpy(&dyn, p + size, 8);
	}
	t->size = dyn < size ? dyn : size;
	return true;
}

/**
 * ft_sampler_unwind - the user frames of a sample of @pid at time @ts from the record's
 * tail [@p, @end) into @ip (at most FT_SAMPLE_MAX_STACK), why the walk ended counted;
 * a walk that stopped short ends in its marker (FT_UNWIND_MARK | why, events/unwind.h).
 * Returns the number of frames (0: no user registers), or -1 for a malformed tail.
 */
int ft_sampler_unwind(struct ft_sampler *sp, int pid, uint64_t ts, const unsigned char *p,
		      const unsigned char *end, uint64_t *ip)
{
#ifdef __x86_64__
	static struct ucode_ctx c;
	struct ft_uregs r = { .have = 0 };
	struct ft_ustack st = { 0 };
	enum ft_unwind_end why = FT_UNWIND_DONE;
	struct ft_sample_tail t;
	unsigned int i;
	int n;

	if (!ft_sampler_tail(p, end, NUREGS, &t))
		return -1;
	if (!t.abi)
		return 0;
	for (i = 0; i < NUREGS; i++) {
		memcpy(&r.r[uregs[i].dwarf], t.regs + 8 * i, 8);
		r.have |= 1U << uregs[i].dwarf;
	}
	st.data = t.size ? t.stack : NULL;
	st.size = t.size;
	st.sp = r.r[FT_UREG_SP];
	if (t.abi != PERF_SAMPLE_REGS_ABI_64 || !sp->unw)
		return 0;	/* a 32-bit process: its registers are not these */
	c.maps = &sp->maps;
	c.pid = pid;
	c.ts = ts;
	/* room for the marker of a walk that stopped short */
	n = ft_unwind(sp->unw, &r, &st, ucode, &c, ip, FT_SAMPLE_MAX_STACK - 1, &why);
	if (n < 0)
		n = 0;
	if (why >= FT_UNWIND_NEND)
		why = FT_UNWIND_BADCFI;
	sp->counts.unwound[why]++;
	if (n && why != FT_UNWIND_DONE)
		ip[n++] = FT_UNWIND_MARK | why;
	return n;
#else
	return 0;
#endif
}
