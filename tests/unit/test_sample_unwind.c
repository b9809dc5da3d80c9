// SPDX-License-Identifier: GPL-2.0
/*
 * --call-graph dwarf, the sampler's side (tracer/sample_unwind.c, events/sample.c):
 * the tail of a sample (abi, registers in perf's order, the stack copy and its
 * dyn_size) handed to the unwinder with the registers in DWARF's numbering and only
 * the bytes really copied; the code callback answering from the process's mappings;
 * every truncation of a tail refused; the --call-graph option's values. The unwinder
 * is a stand-in here that records what it was given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <linux/perf_event.h>
#include <asm/perf_regs.h>

#include "events/sample.h"
#include "tracer/sample_unwind.h"
#include "tracer/sampler.h"

/* What the stand-in unwinder was handed, and what it asked of the code callback. */
static struct ft_uregs got_regs;
static struct ft_ustack got_stack;
static int calls, code_rc;
static struct ft_ucode got_code;
static char got_path[4200];

struct ft_unwinder { int unused; };

/* ft_unwinder_new - the stand-in */
struct ft_unwinder *ft_unwinder_new(void)
{
	return calloc(1, sizeof(struct ft_unwinder));
}

/* ft_unwinder_free - the stand-in */
void ft_unwinder_free(struct ft_unwinder *u)
{
	free(u);
}

/* How the stand-in's walks end, and the room it was given. */
static enum ft_unwind_end stub_why = FT_UNWIND_DONE;
static int got_max;

/* ft_unwind - the stand-in: records its input, asks where rip is, gives two frames */
int ft_unwind(struct ft_unwinder *u, const struct ft_uregs *regs, const struct ft_ustack *st,
	      ft_ucode_fn code, void *ctx, uint64_t *ip, int max, enum ft_unwind_end *why)
{
	calls++;
	got_regs = *regs;
	got_stack = *st;
	code_rc = code(ctx, regs->r[FT_UREG_IP], &got_code);
	if (!code_rc)
		snprintf(got_path, sizeof(got_path), "%s", got_code.path);
	got_max = max;
	ip[0] = regs->r[FT_UREG_IP];
	ip[1] = 0x4242;
	*why = stub_why;
	return max >= 2 ? 2 : 1;
}

/*
 * The registers sampled, checked against two sources other than the code's table: the
 * kernel's uapi enum (asm/perf_regs.h: the bit of each register, so the record's order)
 * and the x86-64 psABI's DWARF numbers (its figure "DWARF Register Number Mapping": rax 0,
 * rdx 1, rcx 2, rbx 3, rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15, the return address 16),
 * listed here in the psABI's order by name.
 */
static const struct { int perf, dwarf; } abi[] = {
	{ PERF_REG_X86_AX, 0 }, { PERF_REG_X86_DX, 1 }, { PERF_REG_X86_CX, 2 },
	{ PERF_REG_X86_BX, 3 }, { PERF_REG_X86_SI, 4 }, { PERF_REG_X86_DI, 5 },
	{ PERF_REG_X86_BP, 6 }, { PERF_REG_X86_SP, 7 }, { PERF_REG_X86_R8, 8 },
	{ PERF_REG_X86_R9, 9 }, { PERF_REG_X86_R10, 10 }, { PERF_REG_X86_R11, 11 },
	{ PERF_REG_X86_R12, 12 }, { PERF_REG_X86_R13, 13 }, { PERF_REG_X86_R14, 14 },
	{ PERF_REG_X86_R15, 15 }, { PERF_REG_X86_IP, 16 },
};
#define NABI	(sizeof(abi) / sizeof(abi[0]))

/* abi_mask - the perf bits of the registers above */
static uint64_t abi_mask(void)
{
	uint64_t m = 0;
	unsigned int i;

	for (i = 0; i < NABI; i++)
		m |= 1ULL << abi[i].perf;
	return m;
}

/* reg_at - the offset in a tail of perf register @bit: after abi, in ascending bit order */
static size_t reg_at(int bit)
{
	return 8 + 8 * (size_t)__builtin_popcountll(abi_mask() & ((1ULL << bit) - 1));
}

/* tail - a record's tail: abi, the registers (perf's bit n holds 0x1000 + n, rsp and rip
   real ones) in the uapi enum's order, a copy of @size bytes of which @dyn were copied;
   returns its length */
static size_t tail(unsigned char *buf, uint64_t abi_v, uint64_t size, uint64_t dyn)
{
	size_t off = 0;
	uint64_t v;
	int bit;

	memcpy(buf, &abi_v, 8);
	off = 8;
	for (bit = 0; abi_v && bit < 64; bit++) {
		if (!(abi_mask() >> bit & 1))
			continue;
		v = 0x1000 + bit;
		if (bit == PERF_REG_X86_SP)
			v = 0x7ffd0000;
		if (bit == PERF_REG_X86_IP)
			v = 0x401000;		/* rip: in the mapped file below */
		memcpy(buf + off, &v, 8);
		off += 8;
	}
	memcpy(buf + off, &size, 8);
	off += 8;
	for (v = 0; v < size; v++)
		buf[off + v] = (unsigned char)v;
	off += size;
	if (size) {
		memcpy(buf + off, &dyn, 8);
		off += 8;
	}
	return off;
}

/* mmap - a MMAP2 record of process 0x7ffffff0 (gone) at time @ts, no file identity */
static void mmap_at(struct ft_smaps *m, uint64_t ts, uint64_t addr, uint64_t len, uint64_t pgoff,
		    const char *path)
{
	struct ft_smaps_rec r = { .ts = ts, .addr = addr, .len = len, .pgoff = pgoff,
				  .path = path };

	ft_smaps_mmap(m, 0x7ffffff0, &r);
}

/* sampler - a sampler with an unwinder and one process (pid 0x7ffffff0, gone) mapped */
static void sampler(struct ft_sampler *sp)
{
	memset(sp, 0, sizeof(*sp));
	assert_int_equal(ft_smaps_init(&sp->maps), 0);
	sp->maps_on = true;
	sp->unw = ft_unwinder_new();
	mmap_at(&sp->maps, 0, 0x401000, 0x2000, 0x1000, "/usr/bin/prog");
}

/* done - free what sampler() made */
static void done(struct ft_sampler *sp)
{
	ft_smaps_fini(&sp->maps);
	ft_unwinder_free(sp->unw);
}

/* the registers arrive in DWARF's slots, the copy is dyn_size bytes from rsp */
static void test_unwind_regs(void **state)
{
	unsigned char buf[1024];
	struct ft_sampler sp;
	uint64_t ip[FT_SAMPLE_MAX_STACK];
	size_t len = tail(buf, PERF_SAMPLE_REGS_ABI_64, 64, 40);
	int i;

	sampler(&sp);
	calls = 0;
	stub_why = FT_UNWIND_STACK;
	/* a walk stopped beyond the copy: its two frames, then its marker */
	assert_int_equal(ft_sampler_unwind(&sp, 0x7ffffff0, 0, buf, buf + len, ip), 3);
	stub_why = FT_UNWIND_DONE;
	assert_int_equal(ip[2], FT_UNWIND_MARK | FT_UNWIND_STACK);
	assert_true(FT_UNWIND_IS_MARK(ip[2]) && !FT_UNWIND_IS_MARK(ip[1]));
	assert_int_equal(got_max, FT_SAMPLE_MAX_STACK - 1);	/* room for the marker */
	assert_int_equal(calls, 1);
	assert_int_equal(ip[0], 0x401000);
	assert_int_equal(ft_sampler_uregs_mask(), abi_mask());
	for (i = 0; i < (int)NABI; i++) {
		if (abi[i].dwarf != FT_UREG_SP && abi[i].dwarf != FT_UREG_IP)
			assert_int_equal(got_regs.r[abi[i].dwarf], 0x1000 + abi[i].perf);
		assert_true(got_regs.have & (1U << abi[i].dwarf));
	}
	assert_int_equal(got_regs.r[FT_UREG_SP], 0x7ffd0000);
	assert_int_equal(got_stack.sp, 0x7ffd0000);
	assert_int_equal(got_stack.size, 40);	/* dyn_size, not size */
	assert_ptr_equal(got_stack.data, buf + 8 + NABI * 8 + 8);
	assert_int_equal(got_stack.data[0], 0);
	assert_int_equal(got_stack.data[39], 39);
	/* the code at rip: the mapping and its file offset, as the process names the file */
	assert_int_equal(code_rc, 0);
	assert_string_equal(got_path, "/usr/bin/prog");
	assert_int_equal(got_code.start, 0x401000);
	assert_int_equal(got_code.end, 0x403000);
	assert_int_equal(got_code.pgoff, 0x1000);
	assert_int_equal(sp.counts.unwound[FT_UNWIND_STACK], 1);
	done(&sp);
}

/* no user registers (a kernel thread), a 32-bit process, no copy: no frames, no call */
static void test_unwind_none(void **state)
{
	unsigned char buf[1024];
	struct ft_sampler sp;
	uint64_t ip[FT_SAMPLE_MAX_STACK];
	size_t len;

	sampler(&sp);
	calls = 0;
	len = tail(buf, 0, 0, 0);
	assert_int_equal(ft_sampler_unwind(&sp, 1, 0, buf, buf + len, ip), 0);
	len = tail(buf, PERF_SAMPLE_REGS_ABI_32, 64, 64);
	assert_int_equal(ft_sampler_unwind(&sp, 1, 0, buf, buf + len, ip), 0);
	assert_int_equal(calls, 0);
	/* an empty copy: the unwinder still has the registers (rip is a frame) */
	len = tail(buf, PERF_SAMPLE_REGS_ABI_64, 0, 0);
	assert_int_equal(ft_sampler_unwind(&sp, 0x7ffffff0, 0, buf, buf + len, ip), 2);
	assert_int_equal(got_stack.size, 0);
	/* a copy longer than its reservation is cut to the reservation */
	len = tail(buf, PERF_SAMPLE_REGS_ABI_64, 16, 4096);
	assert_int_equal(ft_sampler_unwind(&sp, 0x7ffffff0, 0, buf, buf + len, ip), 2);
	assert_int_equal(got_stack.size, 16);
	done(&sp);
}

/* every truncation of a tail is malformed (-1), read from a buffer of exactly its size */
static void test_unwind_truncated(void **state)
{
	unsigned char buf[1024], *cut;
	struct ft_sampler sp;
	uint64_t ip[FT_SAMPLE_MAX_STACK];
	size_t len = tail(buf, PERF_SAMPLE_REGS_ABI_64, 64, 64), n;

	sampler(&sp);
	for (n = 0; n < len; n++) {
		cut = malloc(n ? n : 1);
		memcpy(cut, buf, n);
		assert_int_equal(ft_sampler_unwind(&sp, 0x7ffffff0, 0, cut, cut + n, ip), -1);
		free(cut);
	}
	done(&sp);
}

/* code nowhere in the process's files: the callback says so */
static void test_unwind_unmapped(void **state)
{
	unsigned char buf[1024];
	struct ft_sampler sp;
	uint64_t ip[FT_SAMPLE_MAX_STACK], v = 0x900000;
	size_t len = tail(buf, PERF_SAMPLE_REGS_ABI_64, 8, 8);

	sampler(&sp);
	memcpy(buf + reg_at(PERF_REG_X86_IP), &v, 8);	/* rip */
	assert_int_equal(ft_sampler_unwind(&sp, 0x7ffffff0, 0, buf, buf + len, ip), 2);
	assert_int_equal(code_rc, -1);
	assert_int_equal(ft_sampler_uregs_mask(), 0xff01ff);
	done(&sp);
}

/* code in the process's [vdso] (a MMAP2 record of that name): the unwinder's own image */
static void test_unwind_vdso(void **state)
{
	unsigned char buf[1024];
	struct ft_sampler sp;
	uint64_t ip[FT_SAMPLE_MAX_STACK], v = 0x7fff1234;
	size_t len = tail(buf, PERF_SAMPLE_REGS_ABI_64, 8, 8);

	sampler(&sp);
	mmap_at(&sp.maps, 0, 0x7fff1000, 0x2000, 0, "[vdso]");
	memcpy(buf + reg_at(PERF_REG_X86_IP), &v, 8);
	assert_int_equal(ft_sampler_unwind(&sp, 0x7ffffff0, 0, buf, buf + len, ip), 2);
	assert_int_equal(code_rc, 0);
	assert_string_equal(got_path, "[vdso]");
	assert_int_equal(got_code.start, 0x7fff1000);
	assert_int_equal(got_code.end, 0x7fff3000);
	/* an exec maps a new image: the old range is forgotten */
	ft_smaps_exec(&sp.maps, 0x7ffffff0, "prog", 0);
	assert_int_equal(ft_sampler_unwind(&sp, 0x7ffffff0, 0, buf, buf + len, ip), 2);
	assert_int_equal(code_rc, -1);
	done(&sp);
}

/* --call-graph: perf's spellings; a size a multiple of 8 up to 65528, else one error */
static void test_callgraph_opt(void **state)
{
	static const char *const bad[] = {
		"dwarf,0", "dwarf,12", "dwarf,65536", "dwarf,65535", "dwarf,junk", "dwarf,",
		"dwarf,8k", "dwarf,-8", "dwarf,+8", "dwarf, 8", "lbr", "", "fp,8", "dwarfx",
		"DWARF", "dwarf,99999999999999999999999",
	};
	struct ft_sample_req r = { 0 };
	unsigned int i;

	assert_int_equal(ft_sample_callgraph_opt(&r, "fp"), 0);
	assert_int_equal(r.callgraph, FT_CG_FP);
	assert_int_equal(ft_sample_callgraph_opt(&r, "dwarf"), 0);
	assert_int_equal(r.callgraph, FT_CG_DWARF);
	assert_int_equal(r.stack_user, 0);		/* the sampler's default */
	assert_int_equal(ft_sample_callgraph_opt(&r, "dwarf,8"), 0);
	assert_int_equal(r.stack_user, 8);
	assert_int_equal(ft_sample_callgraph_opt(&r, "dwarf,65528"), 0);
	assert_int_equal(r.stack_user, 65528);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = (struct ft_sample_req){ 0 };
		assert_int_equal(ft_sample_callgraph_opt(&r, bad[i]), -1);
	}
}

/* main - the tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unwind_regs),
		cmocka_unit_test(test_unwind_none),
		cmocka_unit_test(test_unwind_truncated),
		cmocka_unit_test(test_unwind_unmapped),
		cmocka_unit_test(test_unwind_vdso),
		cmocka_unit_test(test_callgraph_opt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
