// SPDX-License-Identifier: GPL-2.0
/*
 * Damaged call frame information (events/cfi.c, events/cfi_prog.c): crafted .eh_frame
 * bytes, one class of damage each, whose rules the table must mark "not taken" (or
 * whose entries it must count damaged) instead of taking a wrong rule, putting rows
 * out of order, reading outside the section or working without end: factored offsets
 * that overflow (signed multiplication, undefined in C), an advance past the address
 * space, LEB128 numbers over 64 bits, an augmentation length past the end, a pcrel
 * DW_CFA_set_loc, CIEs re-read without end. Each of these failed on the code before
 * its fix (docs/testing.md says how it was seen).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "events/cfi.h"
#include "events/cfi_int.h"
#include "tests/unit/cfi_blob.h"

/* The CIE most tests share: "zR" pcrel sdata4, code 1, data -8, ra 16, CFA rsp+8, rip at c-8. */
#define CIE_ZR	"\x01zR\0\x01\x78\x10\x01\x1b\x0c\x07\x08\x90\x01"

/* cie_raw - a CIE (length, id 0, then @body as it is) */
static size_t cie_raw(struct blob *b, const char *body, size_t n)
{
	size_t at = b->n;

	put(b, 0, 4);
	put(b, 0, 4);
	put_bytes(b, body, n);
	put_len(b, at);
	return at;
}

/* table - the table of one CIE (@cie) and one FDE of [0x1000, 0x1100) running @prog */
static void table(struct ft_cfi *t, const char *cie, size_t cn, const char *prog, size_t pn)
{
	struct blob eh;
	struct ft_cfi_sec s;
	size_t c;
	unsigned char *p;

	memset(&eh, 0, sizeof(eh));
	eh.vaddr = 0x2000;
	c = cie_raw(&eh, cie, cn);
	eh_fde(&eh, c, 0x1000, 0x1100, prog, pn);
	p = malloc(eh.n);			/* exactly its bytes: ASan sees past them */
	assert_non_null(p);
	memcpy(p, eh.b, eh.n);
	s = (struct ft_cfi_sec){ p, eh.n, eh.vaddr };
	memset(t, 0, sizeof(*t));
	assert_int_equal(ft_cfi_build(t, &s, NULL, NULL), 0);
	free(p);
}

/* sorted - the rows strictly by address, and nothing found outside [0x1000, 0x1100) */
static void sorted(const struct ft_cfi *t)
{
	size_t i;

	for (i = 1; i < t->n; i++)
		assert_true(t->row[i].pc > t->row[i - 1].pc);
	assert_null(ft_cfi_find(t, 0xfff));
	assert_null(ft_cfi_find(t, 0x1100));
	assert_null(ft_cfi_find(t, 0x1200));
	assert_null(ft_cfi_find(t, 0x7fffffff));
}

/*
 * test_factored_overflow - an offset times the data alignment (-8) past 64 bits: the rule
 * not taken. Before: signed overflow (UBSan), wrapped to a rule that looks right (c-8,
 * rsp-16)
 */
static void test_factored_overflow(void **state)
{
	static const char prog[] =
		/* @1001 ra c+(2^61+1)*-8 */
		"\x41\x11\x10\x81\x80\x80\x80\x80\x80\x80\x80\x20"
		/* @1002 CFA rsp+(2^61+2)*-8 */
		"\x41\x12\x07\x82\x80\x80\x80\x80\x80\x80\x80\x20"
		/* @1003 CFA rsp+8, ra c+(2^63+1)*-8 */
		"\x41\x0c\x07\x08\x90\x81\x80\x80\x80\x80\x80\x80\x80\x80\x01";
	const struct ft_cfi_row *r;
	struct ft_cfi t;

	table(&t, CIE_ZR, sizeof(CIE_ZR) - 1, prog, sizeof(prog) - 1);
	sorted(&t);
	r = ft_cfi_find(&t, 0x1000);
	assert_non_null(r);
	assert_int_equal(r->cfa_kind, FT_CFA_REG);
	assert_int_equal(r->ra_kind, FT_RULE_CFA);
	assert_int_equal(r->ra_off, -8);
	r = ft_cfi_find(&t, 0x1001);
	assert_int_equal(r->cfa_kind, FT_CFA_REG);
	assert_int_equal(r->ra_kind, FT_RULE_BAD);
	r = ft_cfi_find(&t, 0x1002);
	assert_int_equal(r->cfa_kind, FT_CFA_BAD);
	r = ft_cfi_find(&t, 0x1003);
	assert_int_equal(r->cfa_kind, FT_CFA_REG);
	assert_int_equal(r->cfa_off, 8);
	assert_int_equal(r->ra_kind, FT_RULE_BAD);
	assert_int_equal(t.damaged, 0);		/* rules not taken, the program whole */
	ft_cfi_free(&t);
}

/*
 * test_advance_overflow - a code alignment of 2^64 - 0x800: one advance goes past the
 * FDE's end (no more rows). Before: the address wrapped below the FDE's start, a row went
 * out of order and addresses past every FDE found a row
 */
static void test_advance_overflow(void **state)
{
	static const char cie[] = "\x01zR\0\x80\xf0\xff\xff\xff\xff\xff\xff\xff\x01\x78\x10\x01\x1b"
				  "\x0c\x07\x08\x90\x01";
	struct ft_cfi t;

	table(&t, cie, sizeof(cie) - 1, "\x0e\x10\x41\x0e\x18", 5);
	sorted(&t);
	assert_int_equal(t.n, 2);		/* rsp+16 from 0x1000, none from 0x1100 */
	assert_int_equal(ft_cfi_find(&t, 0x10ff)->cfa_off, 16);
	ft_cfi_free(&t);
}

/*
 * test_leb_overflow - LEB128 numbers over 64 bits: a register 2^64 + 16 is not rip (the
 * program stops there, the rest not taken), nor is a CIE's return column 2^32 + 16.
 * Before: both cut to 16, and their rules taken as rip's
 */
static void test_leb_overflow(void **state)
{
	static const char prog[] = "\x41\x05\x90\x80\x80\x80\x80\x80\x80\x80\x80\x02\x03";
	static const char cie3[] = "\x03zR\0\x01\x78\x90\x80\x80\x80\x10\x01\x1b"
				   "\x0c\x07\x08\x90\x01";
	struct ft_cfi t;

	table(&t, CIE_ZR, sizeof(CIE_ZR) - 1, prog, sizeof(prog) - 1);
	sorted(&t);
	assert_int_equal(ft_cfi_find(&t, 0x1000)->ra_off, -8);
	assert_int_equal(ft_cfi_find(&t, 0x1001)->cfa_kind, FT_CFA_BAD);
	assert_int_equal(t.damaged, 1);		/* a program not run to its end: named */
	ft_cfi_free(&t);
	table(&t, cie3, sizeof(cie3) - 1, "", 0);
	sorted(&t);
	assert_int_equal(ft_cfi_find(&t, 0x1000)->cfa_off, 8);
	assert_int_equal(ft_cfi_find(&t, 0x1000)->ra_kind, FT_RULE_SAME);
	ft_cfi_free(&t);
}

/*
 * test_aug_len - a CIE whose augmentation data is 2^64 - 1 bytes long: damaged, its FDE
 * counted, no row. Before: a pointer 2^64 - 1 bytes on (UBSan: pointer overflow)
 */
static void test_aug_len(void **state)
{
	static const char cie[] = "\x01zR\0\x01\x78\x10"
				  "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x1b";
	struct ft_cfi t;

	table(&t, cie, sizeof(cie) - 1, "", 0);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.fdes, 0);
	assert_int_equal(t.damaged, 1);
	ft_cfi_free(&t);
}

/*
 * test_set_loc - DW_CFA_set_loc in the FDE's pointer encoding (pcrel sdata4) to 0x1080:
 * the next rule holds from there. Before: read as an absolute number, the rest of the FDE
 * lost (0x1080 kept rsp+8)
 */
static void test_set_loc(void **state)
{
	struct ft_cfi t;
	struct blob eh;
	struct ft_cfi_sec s;
	size_t c, at, op;

	memset(&eh, 0, sizeof(eh));
	eh.vaddr = 0x2000;
	c = cie_raw(&eh, CIE_ZR, sizeof(CIE_ZR) - 1);
	at = eh_fde(&eh, c, 0x1000, 0x1100, "\x01....\x0e\x10", 7);
	op = at + 4 + 4 + 4 + 4 + 1 + 1;	/* the set_loc operand, after its opcode */
	eh.n = op;
	put(&eh, 0x1080 - (eh.vaddr + op), 4);
	eh.n = at + 4 + 4 + 4 + 4 + 1 + 7;
	s = (struct ft_cfi_sec){ eh.b, eh.n, eh.vaddr };
	memset(&t, 0, sizeof(t));
	assert_int_equal(ft_cfi_build(&t, &s, NULL, NULL), 0);
	sorted(&t);
	assert_int_equal(ft_cfi_find(&t, 0x107f)->cfa_off, 8);
	assert_int_equal(ft_cfi_find(&t, 0x1080)->cfa_off, 16);
	ft_cfi_free(&t);
}

#define NCIE	16
#define CIE_PROG	(64 << 10)
#define NFDE	8000

/*
 * test_work - 16 CIEs with 64 KB programs (nops) and 8000 FDEs naming them in turn: the
 * build stops re-reading them once its work is spent (FDEs counted damaged) and ends
 * soon. Before: every FDE ran its CIE's program again (0.5 G steps; measured below)
 */
static void test_work(void **state)
{
	size_t len = NCIE * (CIE_PROG + 64) + NFDE * 24, n = 0, cie[NCIE], at;
	unsigned char *p = calloc(1, len);
	struct timespec t0, t1;
	struct ft_cfi_sec s;
	struct ft_cfi t;
	uint32_t v;
	int32_t rel;
	double ms;
	int i;

	assert_non_null(p);
	for (i = 0; i < NCIE; i++) {
		cie[i] = n;
		v = (uint32_t)(4 + sizeof(CIE_ZR) - 1 + CIE_PROG);
		memcpy(p + n, &v, 4);
		memcpy(p + n + 8, CIE_ZR, sizeof(CIE_ZR) - 1);
		n += 4 + v;			/* id 0, the CIE, nops */
	}
	for (i = 0; i < NFDE; i++) {
		at = n;
		v = 4 + 4 + 4 + 1;
		memcpy(p + n, &v, 4);
		v = (uint32_t)(at + 4 - cie[i % NCIE]);
		memcpy(p + n + 4, &v, 4);
		rel = (int32_t)(0x100000 + 16 * i - (0x2000 + at + 8));
		memcpy(p + n + 8, &rel, 4);
		v = 16;
		memcpy(p + n + 12, &v, 4);
		n += 4 + 13;
	}
	s = (struct ft_cfi_sec){ p, n, 0x2000 };
	memset(&t, 0, sizeof(t));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(ft_cfi_build(&t, &s, NULL, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	print_message("%zu bytes, %d FDEs of %d CIEs: %u taken, %u damaged in %.1f ms\n", n, NFDE,
		      NCIE, t.fdes, t.damaged, ms);
	assert_true(t.damaged > 0);
	assert_int_equal(t.fdes + t.damaged, NFDE);
	assert_int_equal(ft_cfi_find(&t, 0x100000)->cfa_off, 8);
	ft_cfi_free(&t);
	free(p);
}

/*
 * test_len64 - a CIE and an FDE with 64-bit lengths (0xffffffff, then 8 bytes; the CIE
 * pointer 8 bytes, as binutils reads them) give the same row as 32-bit ones; the same FDE
 * with its CIE pointer past the section's start is damaged
 */
static void test_len64(void **state)
{
	struct ft_cfi t;
	struct blob eh;
	struct ft_cfi_sec s;
	size_t at, k;

	for (k = 0; k < 2; k++) {
		memset(&eh, 0, sizeof(eh));
		eh.vaddr = 0x2000;
		put(&eh, 0xffffffff, 4);
		put(&eh, 8 + sizeof(CIE_ZR) - 1, 8);
		put(&eh, 0, 8);
		put_bytes(&eh, CIE_ZR, sizeof(CIE_ZR) - 1);
		at = eh.n;
		put(&eh, 0xffffffff, 4);
		put(&eh, 8 + 4 + 4 + 1 + 3, 8);
		/* back to the CIE (k: one byte further, before the section) */
		put(&eh, at + 12 + (k ? 1 : 0), 8);
		put(&eh, 0x1000 - (eh.vaddr + eh.n), 4);
		put(&eh, 0x100, 4);
		put_bytes(&eh, "\0\x41\x0e", 3);
		put(&eh, 0x10, 1);
		s = (struct ft_cfi_sec){ eh.b, eh.n, eh.vaddr };
		memset(&t, 0, sizeof(t));
		assert_int_equal(ft_cfi_build(&t, &s, NULL, NULL), 0);
		sorted(&t);
		if (k) {
			assert_int_equal(t.damaged, 1);
			assert_int_equal(t.n, 0);
		} else {
			assert_int_equal(t.fdes, 1);
			assert_int_equal(ft_cfi_find(&t, 0x1000)->cfa_off, 8);
			assert_int_equal(ft_cfi_find(&t, 0x1001)->cfa_off, 16);
		}
		ft_cfi_free(&t);
	}
}

/* A LEB128 and what it reads as (bad: refused). */
struct leb {
	const char	*b;
	size_t		n;
	bool		sign, bad;
	uint64_t	v;
};

#define LEB(s, sg, bd, val)	{ s, sizeof(s) - 1, sg, bd, val }

/*
 * test_leb_values - LEB128s at 64 bits' edges read exactly (padding allowed), one bit past
 * them refused, a cut one refused
 */
static void test_leb_values(void **state)
{
	static const struct leb l[] = {
		LEB("\x7f", true, false, ~0ULL),
		LEB("\x7f", false, false, 0x7f),
		LEB("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", false, false, ~0ULL),
		LEB("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x03", false, true, 0), /* 2^65 - 1 */
		LEB("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x02", false, true, 0),	/* 2^64 */
		/* padded */
		LEB("\x81\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00", false, false, 1),
		LEB("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x7f", true, false, 1ULL << 63),
		LEB("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00", true, false, ~0ULL >> 1),
		LEB("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", true, true, 0),	/* +2^63 */
		LEB("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", true, false, ~0ULL),	/* -1 */
		LEB("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7e", true, true, 0),
		LEB("\x80\x80", false, true, 0),					/* cut */
	};
	struct ft_cfi_sec s = { 0 };
	struct cfi_rd r;
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		unsigned char *p = malloc(l[i].n);	/* exactly its bytes */

		assert_non_null(p);
		memcpy(p, l[i].b, l[i].n);
		r = (struct cfi_rd){ p, p + l[i].n, &s, false };
		v = cfi_rd_leb(&r, l[i].sign);
		assert_int_equal(r.bad, l[i].bad);
		if (!l[i].bad) {
			assert_int_equal(v, l[i].v);
			assert_ptr_equal(r.p, p + l[i].n);
		}
		free(p);
	}
}

/* main - run the damaged-table tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_factored_overflow),
		cmocka_unit_test(test_advance_overflow),
		cmocka_unit_test(test_leb_overflow),
		cmocka_unit_test(test_aug_len),
		cmocka_unit_test(test_set_loc),
		cmocka_unit_test(test_work),
		cmocka_unit_test(test_len64),
		cmocka_unit_test(test_leb_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
