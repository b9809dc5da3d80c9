// SPDX-License-Identifier: GPL-2.0
/*
 * ft_unwind against the test's own design: chains of functions built without frame
 * pointers (two callers of one leaf; a callback from libc's twalk; a call through
 * anonymous code that keeps a frame pointer, as JIT code does), each capturing its
 * registers and copying its stack at the innermost point as the kernel does for a
 * sample. The walk must give exactly the designed frames, then cmocka's, main,
 * __libc_start_call_main and _start, named from the ELF files' own symbols (libc's
 * static functions from the libc6-dbg file where installed; else only libc's file is
 * checked). A copy read one word off must not give them.
 */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <search.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "events/cfi.h"
#include "events/unwind.h"
#include "tests/unit/uw_maps.h"

#ifdef __SANITIZE_ADDRESS__
/*
 * __asan_default_options - no fake stacks: with detect_stack_use_after_return (on by
 * default in Debian 13's gcc 14; ASAN_OPTIONS can set it on Debian 12) the chains'
 * frames live in ASan's heap, not on the stack this test copies: test_chains faults
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_stack_use_after_return=0";
}
#endif

#define COPY	16384		/* bytes of stack copied, as a sample's STACK_USER */
#define NOFP	__attribute__((noinline, optimize("omit-frame-pointer")))

/* One capture: the registers at the innermost point and the stack above them. */
struct capture {
	uint64_t	r[FT_UREG_N];
	uint64_t	sp;
	size_t		size;
	unsigned char	stack[COPY];
};

static struct capture caps[7];
static uint64_t stack_end;		/* the end of the [stack] mapping */
static volatile int sink;

/* registers into c->r (DWARF numbering), rip the address after the lea */
#define CAPTURE(c) asm volatile("lea 0(%%rip), %%rax\n\t"	\
				"mov %%rax, 128(%0)\n\t"	\
				"mov %%rsp, 56(%0)\n\t"		\
				"mov %%rbp, 48(%0)\n\t"		\
				"mov %%rbx, 24(%0)\n\t"		\
				"mov %%r12, 96(%0)\n\t"		\
				"mov %%r13, 104(%0)\n\t"	\
				"mov %%r14, 112(%0)\n\t"	\
				"mov %%r15, 120(%0)\n\t"	\
				: : "r"((c)->r) : "rax", "memory")

/* take_stack - copy the stack from the captured rsp, as the kernel's STACK_USER does */
__attribute__((noinline, no_sanitize_address)) static void take_stack(struct capture *c)
{
	const volatile uint64_t *p = (const volatile uint64_t *)(uintptr_t)c->r[FT_UREG_SP];
	uint64_t *q = (uint64_t *)c->stack;
	size_t i;

	c->sp = c->r[FT_UREG_SP];
	c->size = stack_end - c->sp < COPY ? stack_end - c->sp : COPY;
	for (i = 0; i < c->size / 8; i++)
		q[i] = p[i];	/* not memcpy: ASan would see its own redzones */
}

/* inner - the innermost point of every chain: values live across a call, so it saves registers */
NOFP static int inner(int a, int tag)
{
	int x = a * 3 + tag, y = a ^ 0x55, z = a + 7, w = a * a;

	CAPTURE(&caps[tag]);
	take_stack(&caps[tag]);
	return x + y + z + w + sink;
}

/* mid - inner's first caller */
NOFP static int mid(int a)
{
	int r = inner(a + 1, 1);

	sink += r;
	return r * 2 + a;
}

/* run_a - the chain run_a -> mid -> inner */
NOFP static int run_a(int a)
{
	int r = mid(a * 2);

	sink += r;
	return r + 1;
}

/* run_b - inner's second caller: run_b -> inner */
NOFP static int run_b(int a)
{
	int r = inner(a, 2);

	sink += r;
	return r - 1;
}

static bool twalk_done;

/* action - twalk's callback: inner from a node two deep, once */
NOFP static void action(const void *node, VISIT v, int depth)
{
	if (depth == 2 && !twalk_done) {
		twalk_done = true;
		sink += inner(depth, 3);
	}
}

/* cmp_int - tsearch's order */
static int cmp_int(const void *a, const void *b)
{
	return (int)(intptr_t)a - (int)(intptr_t)b;
}

/* nofree - tdestroy's callback: the keys are numbers */
static void nofree(void *p)
{
}

/* via_twalk - the chain via_twalk -> libc's twalk (and its recursion) -> action -> inner */
NOFP static int via_twalk(void)
{
	void *root = NULL;
	intptr_t i;

	for (i = 1; i <= 15; i++)
		tsearch((void *)i, &root, cmp_int);
	twalk(root, action);
	tdestroy(root, nofree);
	sink++;
	return 0;
}

/* jit_callee - called from the anonymous stub; rbp garbage below it (saved, restored by CFI) */
NOFP static void jit_callee(void)
{
	asm volatile("mov $5, %%ebp" : : : "rbp");
	sink += inner(5, 4);
}

/* push rbp; mov rbp, rsp; call *rdi; pop rbp; ret: code with a frame pointer and no CFI */
static const unsigned char stub_code[] = { 0x55, 0x48, 0x89, 0xe5, 0xff, 0xd7, 0x5d, 0xc3 };
static void (*stub)(void (*fn)(void));

static jmp_buf back;

/* dies - a function that does not return: its caller's call is its last instruction */
NOFP __attribute__((noreturn)) static void dies(void)
{
	sink += inner(6, 5);
	longjmp(back, 1);
}

/* ends_in_call - the chain ends_in_call -> dies -> inner: the return address is past its end */
NOFP static void ends_in_call(int a)
{
	sink += a;
	dies();
}

/* ud2_first - a function whose first instruction raises SIGILL: the signal frame's pc is exact */
void ud2_first(void);
asm(".text\n"
    ".type ud2_first, @function\n"
    "ud2_first:\n"
    ".cfi_startproc\n"
    "ud2\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size ud2_first, .-ud2_first\n");

static sigjmp_buf back_sig;

/* on_sigill - the handler: inner from it, then out by siglongjmp */
NOFP static void on_sigill(int sig)
{
	sink += inner(7, 6);
	siglongjmp(back_sig, 1);
}

/* sig_caller - the chain sig_caller -> ud2_first, SIGILL -> on_sigill -> inner */
NOFP static void sig_caller(void)
{
	ud2_first();
	sink++;
}

/* via_jit - the chain via_jit -> anonymous stub -> jit_callee -> inner */
NOFP static int via_jit(void)
{
	stub(jit_callee);
	sink++;
	return 0;
}

/*
 * One step of a designed chain: a function (or any), a file (or any), once or several
 * times; @exact: named by its address, not the one before (after a signal frame).
 */
struct pat {
	const char	*fn, *file;
	bool		many, exact;
};

/* fn_is - @name is @want, or one of gcc's clones of it (want.constprop.0) */
static bool fn_is(const char *name, const char *want)
{
	size_t n = strlen(want);

	return name && !strncmp(name, want, n) && (!name[n] || name[n] == '.');
}

/* pat_is - frame @f fits step @p; a libc name is checked only where libc's symbols are known */
static bool pat_is(const struct pat *p, const struct fname *f)
{
	if (p->file && strncmp(f->file, p->file, strlen(p->file)))
		return false;
	if (!p->fn)
		return true;
	if (p->file && !f->full)
		return true;
	return fn_is(f->fn, p->fn);
}

/* matches - the walk's frames are exactly the chain @p (@np steps) */
static bool matches(const uint64_t *ip, int n, const struct pat *p, int np, bool print)
{
	int i, k = 0, seen = 0;
	bool ok = true;

	for (i = 0; i < n; i++) {
		struct fname f = name_of(i ? ip[i] - 1 : ip[i]), fx = name_of(ip[i]);

		/* a step of several frames ends where the next step's first frame is */
		if (k + 1 < np && p[k].many && seen &&
		    pat_is(&p[k + 1], p[k + 1].exact ? &fx : &f))
			k++, seen = 0;
		if (k < np && p[k].exact)
			f = fx;
		if (print)
			print_message("  #%d %#lx %s (%s)\n", i, (unsigned long)ip[i],
				      f.fn ? f.fn : "?", f.file);
		if (ok && k < np && pat_is(&p[k], &f)) {
			seen++;
			if (!p[k].many)
				k++, seen = 0;
			continue;
		}
		ok = false;
	}
	return ok && (k == np || (k == np - 1 && p[k].many && seen));
}

#define HAVE	(1u << FT_UREG_IP | 1u << FT_UREG_SP | 1u << FT_UREG_BP | 1u << 3 | 0xfu << 12)

/* walk - ft_unwind of capture @c, its copy read @shift bytes off */
static int walk(struct ft_unwinder *u, const struct capture *c, int64_t shift, size_t size,
		uint64_t *ip, int max, enum ft_unwind_end *why)
{
	struct ft_uregs regs;
	struct ft_ustack st = { c->sp + shift, c->stack, size };

	memcpy(regs.r, c->r, sizeof(regs.r));
	regs.have = HAVE;
	return ft_unwind(u, &regs, &st, ucode, NULL, ip, max, why);
}

/* The chains as designed: leaf first; test_chains called by cmocka, called by main. */
#define F(fn)		{ fn, NULL, false, false }
#define IN(file, many)	{ NULL, file, many, false }
static const struct pat chains[7][10] = {
	[1] = { F("inner"), F("mid"), F("run_a"), F("test_chains") },
	[2] = { F("inner"), F("run_b"), F("test_chains") },
	[3] = { F("inner"), F("action"), IN("libc.so", true), F("via_twalk"), F("test_chains") },
	[4] = { F("inner"), F("jit_callee"), IN("[anon]", false), F("via_jit"), F("test_chains") },
	[5] = { F("inner"), F("dies"), F("ends_in_call"), F("test_chains") },
	[6] = { F("inner"), F("on_sigill"), IN("libc.so", false),
		{ "ud2_first", NULL, false, true }, F("sig_caller"), F("test_chains") },
};
static const struct pat tail[] = {
	IN("libcmocka", true), F("main"), { "__libc_start_call_main", "libc.so", false, false },
	IN("libc.so", false), F("_start"),
};

/* chain - the chain of capture @tag with the common tail; its number of steps */
static int chain(int tag, struct pat *p)
{
	int n = 0;

	while (chains[tag][n].fn || chains[tag][n].file)
		p[n] = chains[tag][n], n++;
	memcpy(p + n, tail, sizeof(tail));
	return n + (int)(sizeof(tail) / sizeof(tail[0]));
}

/* prologue_fp - whether a function starts by setting up a frame pointer */
static bool prologue_fp(const void *fn)
{
	const unsigned char *p = fn;

	if (!memcmp(p, "\xf3\x0f\x1e\xfa", 4))	/* endbr64 */
		p += 4;
	return !memcmp(p, "\x55\x48\x89\xe5", 4);
}

/* test_chains - every designed chain, exactly, to _start */
static void test_chains(void **state)
{
	const void *nofp[] = { inner, mid, run_a, run_b, action, via_twalk, jit_callee, via_jit,
			       dies, ends_in_call, on_sigill, sig_caller };
	struct sigaction sa, old;
	struct ft_unwinder *u = ft_unwinder_new();
	enum ft_unwind_end why;
	struct ft_cfi self;
	const struct ft_cfi_row *row;
	const struct map *m;
	uint64_t ip[64], v;
	struct pat p[16];
	int tag, n, np;
	size_t i;

	read_maps();
	m = map_of((uintptr_t)&tag);
	assert_non_null(m);
	stack_end = m->end;
	stub = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	assert_true(stub != MAP_FAILED);
	memcpy((void *)stub, stub_code, sizeof(stub_code));
	sink += run_a(3);
	sink += run_b(4);
	sink += via_twalk();
	sink += via_jit();
	if (!setjmp(back))
		ends_in_call(7);
	sa.sa_handler = on_sigill;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	assert_int_equal(sigaction(SIGILL, &sa, &old), 0);
	if (!sigsetjmp(back_sig, 1))
		sig_caller();
	assert_int_equal(sigaction(SIGILL, &old, NULL), 0);
	read_maps();
	/* built without frame pointers, in both builds: no rbp prologue, leaf's CFA off rsp */
	for (i = 0; i < sizeof(nofp) / sizeof(nofp[0]); i++)
		assert_false(prologue_fp(nofp[i]));
	m = map_of(caps[1].r[FT_UREG_IP]);
	assert_int_equal(ft_cfi_load(&self, m->path, 0), 0);
	assert_int_equal(ft_cfi_vaddr(&self, caps[1].r[FT_UREG_IP] - m->start + m->pgoff, &v), 0);
	row = ft_cfi_find(&self, v);
	assert_non_null(row);
	print_message("leaf at the capture: CFA %s+%d\n", row->cfa_reg == 7 ? "rsp" : "?",
		      row->cfa_off);
	assert_int_equal(row->cfa_kind, FT_CFA_REG);
	assert_int_equal(row->cfa_reg, 7);
	ft_cfi_free(&self);
	for (tag = 1; tag <= 6; tag++) {
		n = walk(u, &caps[tag], 0, caps[tag].size, ip, 64, &why);
		np = chain(tag, p);
		print_message("chain %d: %d frames, end %d\n", tag, n, why);
		assert_true(matches(ip, n, p, np, true));
		assert_int_equal(why, FT_UNWIND_DONE);
		assert_int_equal(ip[0], caps[tag].r[FT_UREG_IP]);
	}
	ft_unwinder_free(u);
}

/* test_word_off - the stack copy read one word off (either way) gives no designed chain */
static void test_word_off(void **state)
{
	struct ft_unwinder *u = ft_unwinder_new();
	enum ft_unwind_end why;
	uint64_t ip[64];
	struct pat p[16];
	int tag, n, np, k;

	for (tag = 1; tag <= 6; tag++)
		for (k = -1; k <= 1; k += 2) {
			n = walk(u, &caps[tag], 8 * k, caps[tag].size, ip, 64, &why);
			np = chain(tag, p);
			print_message("chain %d read %+d bytes off: %d frames, end %d\n", tag,
				      8 * k, n, why);
			assert_false(matches(ip, n, p, np, false));
		}
	ft_unwinder_free(u);
}

/* test_ends - each way a walk ends: max, a copy too small, no rip, an address in no file */
static void test_ends(void **state)
{
	struct ft_unwinder *u = ft_unwinder_new();
	struct ft_uregs regs = { .have = 0 };
	struct ft_ustack st = { 0 };
	enum ft_unwind_end why;
	uint64_t ip[64], full[64];
	int n;

	n = walk(u, &caps[3], 0, caps[3].size, full, 64, &why);
	assert_true(n > 8);
	assert_int_equal(walk(u, &caps[3], 0, caps[3].size, ip, 3, &why), 3);
	assert_int_equal(why, FT_UNWIND_MAX);
	assert_memory_equal(ip, full, 3 * sizeof(*ip));
	assert_int_equal(walk(u, &caps[3], 0, 8, ip, 64, &why), 1);	/* leaf's frame is larger */
	assert_int_equal(why, FT_UNWIND_STACK);
	assert_int_equal(walk(u, &caps[3], 0, 0, ip, 64, &why), 1);
	assert_int_equal(why, FT_UNWIND_STACK);
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 64, &why), 0);
	regs.r[FT_UREG_IP] = 0x1000;
	regs.r[FT_UREG_SP] = caps[3].sp;
	regs.r[FT_UREG_BP] = caps[3].sp + 1;	/* not a frame pointer */
	regs.have = HAVE;
	st = (struct ft_ustack){ caps[3].sp, caps[3].stack, caps[3].size };
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 64, &why), 1);
	assert_int_equal(why, FT_UNWIND_NOMAP);
	ft_unwinder_free(u);
}

/* test_fp - the frame pointer where no CFI covers rip, only when the chain is sound */
static void test_fp(void **state)
{
	struct ft_unwinder *u = ft_unwinder_new();
	uint64_t w[64], ip[64], base = 0x7f0000001000ULL, ret = caps[1].r[FT_UREG_IP];
	struct ft_ustack st = { base, (const unsigned char *)w, sizeof(w) };
	struct ft_uregs regs = { .have = HAVE };
	enum ft_unwind_end why;
	struct { uint64_t bp, ra; int n; } c[] = {
		{ base + 16 * 8, ret, 2 },		/* sound: above sp, aligned, into code */
		{ base + 8 * 8, ret, 1 },		/* below sp */
		{ base + 16 * 8 + 4, ret, 1 },		/* not 8-aligned */
		{ base + 16 * 8, 0x1000, 1 },		/* returns into no mapping */
		{ base + 62 * 8, ret, 2 },		/* the pair is the copy's last 16 bytes */
		{ base + 63 * 8, ret, 1 },		/* the pair crosses the copy's end */
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		memset(w, 0, sizeof(w));
		regs.r[FT_UREG_IP] = 0x1000;		/* in no mapping: no CFI */
		regs.r[FT_UREG_SP] = base + 10 * 8;
		regs.r[FT_UREG_BP] = c[i].bp;
		if (c[i].bp + 8 < base + sizeof(w) && c[i].bp >= base)
			w[(c[i].bp + 8 - base) / 8] = c[i].ra;
		assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 2, &why), c[i].n);
		if (c[i].n == 2)
			assert_int_equal(ip[1], c[i].ra);
		else
			assert_int_equal(why, FT_UNWIND_NOMAP);
	}
	ft_unwinder_free(u);
}

/*
 * cfi_cases - rows written by hand (never run): +0 CFA rsp+8; +1 rsp+0; +2 an expression
 * not taken; +3 rbx+16; +4 rsp+8 with rbp saved below sp; +5 rsp+16 with rbx saved at
 * CFA-16; +6 rbx+16 (_dl_runtime_resolve_xsavec's CFA while it calls _dl_fixup)
 */
void cfi_cases(void);
asm(".text\n"
    ".type cfi_cases, @function\n"
    "cfi_cases:\n"
    ".cfi_startproc\n"
    "nop\n"
    ".cfi_def_cfa_offset 0\n"
    "nop\n"
    ".cfi_escape 0x0f, 0x01, 0x30\n"	/* def_cfa_expression: lit0 */
    "nop\n"
    ".cfi_def_cfa rbx, 16\n"
    "nop\n"
    ".cfi_def_cfa rsp, 8\n"
    ".cfi_offset rbp, -24\n"			/* below sp: an epilogue after its pop */
    "nop\n"
    ".cfi_def_cfa rsp, 16\n"
    ".cfi_offset rbx, -16\n"			/* +5: rbx pushed, at CFA-16 */
    "nop\n"
    ".cfi_def_cfa rbx, 16\n"			/* +6: CFA from rbx, as glibc's trampoline */
    "nop\n"
    "nop\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size cfi_cases, .-cfi_cases\n");

/*
 * test_rules - the ends by rule: a zero return, a CFA not above sp, a rule not taken, a CFA
 * in a register known only in the first frame
 */
static void test_rules(void **state)
{
	struct ft_unwinder *u = ft_unwinder_new();
	uint64_t w[16], ip[8], base = (uintptr_t)caps[1].stack, f = (uintptr_t)cfi_cases;
	struct ft_ustack st = { base, (const unsigned char *)w, sizeof(w) };
	struct ft_uregs regs = { .have = HAVE };
	enum ft_unwind_end why;

	memset(w, 0, sizeof(w));
	regs.r[FT_UREG_SP] = base;
	regs.r[FT_UREG_BP] = 1;			/* no frame pointer to fall back on */
	regs.r[FT_UREG_IP] = f;			/* the return address at rsp is zero */
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 1);
	assert_int_equal(why, FT_UNWIND_DONE);
	regs.r[FT_UREG_IP] = f + 1;
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 1);
	assert_int_equal(why, FT_UNWIND_LOOP);
	regs.r[FT_UREG_IP] = f + 2;
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 1);
	assert_int_equal(why, FT_UNWIND_BADCFI);
	/* rbx+16: rbx known in the sample; the frame it returns to (the same row) has
	   rbx unchanged (no rule saves it), so the same CFA: not above its sp */
	regs.r[FT_UREG_IP] = f + 3;
	regs.r[3] = base + 16;
	w[3] = f + 4;				/* at CFA-8 = rbx+8 */
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 2);
	assert_int_equal(ip[1], f + 4);
	assert_int_equal(why, FT_UNWIND_LOOP);
	regs.have &= ~(1u << 3);
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 1);
	assert_int_equal(why, FT_UNWIND_BADCFI);
	/* a callee that pushed rbx (+5), returning into a frame whose CFA is rbx+16 (+6):
	   rbx comes back from the callee's save, and the walk goes on to a zero return */
	memset(w, 0, sizeof(w));
	regs.have = HAVE;
	regs.r[FT_UREG_IP] = f + 5;
	regs.r[3] = 0x5a5a;			/* the callee's own rbx: not the caller's */
	w[0] = base + 48;			/* the caller's rbx, saved at CFA-16 */
	w[1] = f + 7;				/* the return, into +6 */
	w[7] = 0;				/* at the caller's CFA-8 = rbx+8: the end */
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 2);
	assert_int_equal(ip[1], f + 7);
	assert_int_equal(why, FT_UNWIND_DONE);
	w[7] = f + 5;				/* one more frame: rsp+8 (+4's row) */
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 3);
	assert_int_equal(ip[2], f + 5);
	assert_int_equal(why, FT_UNWIND_DONE);
	/* rbp outside the copy: not known, the walk goes on (here to a zero return) */
	memset(w, 0, sizeof(w));
	regs.r[FT_UREG_IP] = f + 4;
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 1);
	assert_int_equal(why, FT_UNWIND_DONE);
	ft_unwinder_free(u);
}

/* ucode_as - ucode with each path seen through @ctx: a prefix, or a file instead */
static int ucode_as(void *ctx, uint64_t addr, struct ft_ucode *out)
{
	static char path[600];
	const char *how = ctx;

	if (ucode(NULL, addr, out))
		return -1;
	if (how[0] == '+')
		snprintf(path, sizeof(path), "%s%s", how + 1, out->path);
	else
		snprintf(path, sizeof(path), "%s", how);
	out->path = path;
	return 0;
}

/* test_shared - one table per file however many paths name it; a path to no ELF file, none */
static void test_shared(void **state)
{
	struct ft_unwinder *u = ft_unwinder_new();
	struct ft_unwinder_stats s;
	struct ft_uregs regs = { .have = HAVE };
	struct ft_ustack st = { caps[1].sp, caps[1].stack, caps[1].size };
	enum ft_unwind_end why;
	uint64_t ip[64];
	int n;

	memcpy(regs.r, caps[1].r, sizeof(regs.r));
	n = ft_unwind(u, &regs, &st, ucode, NULL, ip, 64, &why);
	ft_unwinder_stats(u, &s);
	print_message("%d frames: %zu paths, %zu files, %zu rows, %zu bytes\n", n, s.paths,
		      s.files, s.rows, s.bytes);
	assert_int_equal(s.paths, 3);		/* this binary, libcmocka, libc */
	assert_int_equal(s.files, 3);
	assert_int_equal(s.no_table, 0);
	assert_int_equal(s.damaged, 0);
	assert_int_equal(ft_unwind(u, &regs, &st, ucode_as, "+/proc/self/root", ip, 64, &why), n);
	assert_int_equal(why, FT_UNWIND_DONE);
	ft_unwinder_stats(u, &s);
	assert_int_equal(s.paths, 6);
	assert_int_equal(s.files, 3);
	/* a file that is not ELF, one that is not there: no table, the walk ends there (rbp
	 * made no frame pointer: the ASan build's test_chains keeps one) */
	regs.r[FT_UREG_BP] = 1;
	assert_int_equal(ft_unwind(u, &regs, &st, ucode_as, "/proc/self/maps", ip, 64, &why), 1);
	assert_int_equal(why, FT_UNWIND_NOCFI);
	assert_int_equal(ft_unwind(u, &regs, &st, ucode_as, "/nonexistent", ip, 64, &why), 1);
	assert_int_equal(why, FT_UNWIND_NOCFI);
	ft_unwinder_stats(u, &s);
	assert_int_equal(s.paths, 8);
	assert_int_equal(s.files, 4);
	assert_int_equal(s.no_table, 1);
	ft_unwinder_free(u);
}

/*
 * test_paths - paths no walk names any more (processes gone) are let go: 50000 walks each
 * naming a new path, one in 100 this binary's; what is kept stays bounded, the file in use too
 */
static void test_paths(void **state)
{
	struct ft_unwinder *u = ft_unwinder_new();
	uint64_t w[4] = { 0 }, ip[4];
	struct ft_ustack st = { (uintptr_t)caps[1].stack, (const unsigned char *)w, sizeof(w) };
	struct ft_uregs regs = { .have = HAVE };
	struct ft_unwinder_stats s;
	enum ft_unwind_end why;
	char path[64];
	int i;

	regs.r[FT_UREG_IP] = (uintptr_t)cfi_cases;	/* CFA rsp+8, a zero return */
	regs.r[FT_UREG_SP] = st.sp;
	regs.r[FT_UREG_BP] = 1;
	for (i = 0; i < 50000; i++) {
		snprintf(path, sizeof(path), "/nonexistent/%d", i);
		assert_int_equal(ft_unwind(u, &regs, &st, i % 100 ? ucode_as : ucode, path, ip, 4,
					   &why), 1);
		assert_int_equal(why, i % 100 ? FT_UNWIND_NOCFI : FT_UNWIND_DONE);
	}
	ft_unwinder_stats(u, &s);
	print_message("50000 walks, 49500 paths named once: %zu paths kept, %zu files\n", s.paths,
		      s.files);
	assert_true(s.paths < 40000);
	assert_int_equal(s.files, 1);
	assert_int_equal(s.no_table, 0);
	ft_unwinder_free(u);
}

/* test_vdso - a sample stopped at the vDSO's clock_gettime: its CFI, then the caller's */
static void test_vdso(void **state)
{
	struct ft_unwinder *u = ft_unwinder_new();
	uint64_t w[16], ip[8], base = (uintptr_t)caps[1].stack;
	struct ft_ustack st = { base, (const unsigned char *)w, sizeof(w) };
	struct ft_uregs regs = { .have = HAVE };
	enum ft_unwind_end why;

	memset(w, 0, sizeof(w));
	regs.r[FT_UREG_IP] = vdso_func("__vdso_clock_gettime");
	assert_true(regs.r[FT_UREG_IP] != 0);
	regs.r[FT_UREG_SP] = base;
	regs.r[FT_UREG_BP] = 1;			/* no frame pointer */
	w[0] = caps[1].r[FT_UREG_IP];		/* returns into inner, whose CFA is rsp+16 */
	assert_int_equal(ft_unwind(u, &regs, &st, ucode, NULL, ip, 8, &why), 2);
	assert_int_equal(ip[1], caps[1].r[FT_UREG_IP]);
	assert_int_equal(why, FT_UNWIND_DONE);	/* inner's return address: the zero at w[2] */
	ft_unwinder_free(u);
}

/* main - run the unwinder tests (test_chains first: the others use its captures) */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_word_off),
		cmocka_unit_test(test_ends),
		cmocka_unit_test(test_fp),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_vdso),
		cmocka_unit_test(test_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
