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

#include "tracer/sampler.h"

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

/* The sampled process, for the unwinder's questions about its code. */
struct ucode_ctx {
	struct ft_smaps	*maps;
	int		pid;
	char		path[4096 + 32];
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

/* ucode - ft_ucode_fn: the file mapping of the sampled process at @addr */
static int ucode(void *ctx, uint64_t addr, struct ft_ucode *out)
{
	struct ucode_ctx *c = ctx;
	struct ft_smaps_hit h;

	if (ft_smaps_find(c->maps, c->pid, addr, &h))
		return -1;
	out->path = h.path;
	if (!h.own_root) {	/* the file as the process sees it (a container) */
		snprintf(c->path, sizeof(c->path), "/proc/%d/root%s", c->pid, h.path);
		out->path = c->path;
	}
	/* the whole file's range, at the address of its offset 0 */
	out->start = h.base;
	out->end = h.end;
	out->pgoff = 0;
	return 0;
}

/* take8 - the next u64 of a record, false past its end */
static bool take8(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	if (end - *p < 8)
		return false;
	memcpy(v, *p, 8);
	*p += 8;
	return true;
}

/**
 * ft_sampler_unwind - the user frames of a sample of @pid from the record's tail
 * [@p, @end) into @ip (at most FT_SAMPLE_MAX_STACK), why the walk ended counted.
 * Returns the number of frames (0: no user registers), or -1 for a malformed tail.
 */
int ft_sampler_unwind(struct ft_sampler *sp, int pid, const unsigned char *p,
		      const unsigned char *end, uint64_t *ip)
{
#ifdef __x86_64__
	static struct ucode_ctx c;
	struct ft_uregs r = { .have = 0 };
	struct ft_ustack st = { 0 };
	enum ft_unwind_end why = FT_UNWIND_DONE;
	uint64_t abi, size, dyn, v;
	unsigned int i;
	int n;

	if (!take8(&p, end, &abi))
		return -1;
	if (!abi)
		return 0;
	for (i = 0; i < NUREGS; i++) {
		if (!take8(&p, end, &v))
			return -1;
		r.r[uregs[i].dwarf] = v;
		r.have |= 1U << uregs[i].dwarf;
	}
	if (!take8(&p, end, &size))
		return -1;
	if (size) {
		if (size > (uint64_t)(end - p) || (uint64_t)(end - p) - size < 8)
			return -1;
		memcpy(&dyn, p + size, 8);
		st.data = p;
		st.size = dyn < size ? dyn : size;
	}
	st.sp = r.r[FT_UREG_SP];
	if (abi != PERF_SAMPLE_REGS_ABI_64 || !sp->unw)
		return 0;	/* a 32-bit process: its registers are not these */
	c.maps = &sp->maps;
	c.pid = pid;
	n = ft_unwind(sp->unw, &r, &st, ucode, &c, ip, FT_SAMPLE_MAX_STACK, &why);
	if (n < 0)
		n = 0;
	sp->counts.unwound[why < FT_UNWIND_NEND ? why : FT_UNWIND_BADCFI]++;
	return n;
#else
	return 0;
#endif
}
