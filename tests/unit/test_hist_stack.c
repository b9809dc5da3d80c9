// SPDX-License-Identifier: GPL-2.0
/*
 * hist --key kstack (analyzers/hist_stack.c) on records built by hand: which record a
 * stack goes to. ftrace writes a record's stacks right after it on its CPU, but an
 * interrupt's record made in between has its stacks written first; another event's
 * record has stacks of its own; an NMI's record gets a kernel stack and no user stack;
 * some records get none (the kernel writes none where RCU is not watching). Each
 * case's folded rows are known.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyzers/hist_int.h"
#include "tests/unit/harness.h"

extern const struct ft_analyzer ft_hist;

static const char *const formats[] = {
	"name: hit\nID: 301\nformat:\n" UT_COMMON
	"\tfield:int key;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"key=%d\", REC->key\n",
	"name: other\nID: 302\nformat:\n" UT_COMMON
	"\tfield:int key;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"key=%d\", REC->key\n",
};

/* kallsyms of the cases: function fN at 0xffffffff81000N00 */
static const char kallsyms[] =
	"ffffffff81000100 T f1\nffffffff81000200 T f2\nffffffff81000300 T f3\n"
	"ffffffff81000400 T f4\nffffffff81000500 T fx\nffffffff81000600 T f6\n"
	"ffffffff81000700 T f7\nffffffff81000800 T f8\nffffffff81000900 T f9\n"
	"ffffffff81000a00 T f10\n";

/* A record: hist's event (H) with its key, another event (X), one no analyzer reads
   (O: the pipeline hands on its place), a kernel stack in function fN (K), an empty
   user stack (U), lost events (L). */
enum { H, X, O, K, U, L };
struct rec {
	int	kind, n;
};

/* The analyzer under test, and the kallsyms file of its kernel stacks. */
struct run {
	struct ut_run	ut;
	char		syms[64];
};

/* start - hist -e t:hit --key key,kstack -f over a trace with @have's stacks */
static void start(struct run *r, unsigned int have)
{
	int fd;

	strcpy(r->syms, "/tmp/ftscope-test-kallsyms-XXXXXX");
	fd = mkstemp(r->syms);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, kallsyms, strlen(kallsyms)), (int)strlen(kallsyms));
	close(fd);
	ut_start(&r->ut, &ft_hist);
	ut_opt(&r->ut, 'e', "t:hit");
	ut_opt(&r->ut, 0x100, "key,kstack");	/* --key */
	ut_opt(&r->ut, 'f', NULL);
	ut_check(&r->ut);
	ut_formats(&r->ut, "t", formats, sizeof(formats) / sizeof(formats[0]));
	r->ut.env.have = have;
	r->ut.env.kallsyms = r->syms;
	ut_init(&r->ut);
}

/* feed - the records on CPU 0, by pid 7, as the pipeline delivers them */
static void feed(struct run *r, const struct rec *recs, int n)
{
	unsigned char b[12];
	uint64_t ip;
	int i;

	for (i = 0; i < n; i++) {
		struct ft_event ev = { .ts = 1000 * (i + 1), .common_pid = 7, .data = b,
				       .size = sizeof(b) };
		uint16_t type = recs[i].kind == H ? 301 : 302;
		int32_t pid = 7, key = recs[i].n;

		memset(b, 0, sizeof(b));
		memcpy(b, &type, 2);
		memcpy(b + 4, &pid, 4);
		memcpy(b + 8, &key, 4);
		ev.type = recs[i].kind == K ? FT_EV_KSTACK : recs[i].kind == U ? FT_EV_USTACK :
			  recs[i].kind == L ? FT_EV_LOST : recs[i].kind == O ? FT_EV_UNKNOWN :
			  FT_EV_TP;
		ev.id = recs[i].kind == L ? -1 : type;
		ip = 0xffffffff81000010ULL + 0x100ULL * recs[i].n;
		if (recs[i].kind == K)
			ev.stack = (struct ft_stack){ .n = 1, .word = 8,
						      .ip = (const unsigned char *)&ip };
		if (recs[i].kind == U)
			ev.stack = (struct ft_stack){ .n = 0, .word = 8, .tgid = 7 };
		ut_feed(&r->ut, &ev, 1);
	}
}

/* play - the records, then the folded rows must be @want */
static void play(unsigned int have, const struct rec *recs, int n, const char *want)
{
	struct run r;

	start(&r, have);
	feed(&r, recs, n);
	assert_string_equal(ut_report(&r.ut, false), want);
	ut_finish(&r.ut);
	unlink(r.syms);
}

#define N(a)	((int)(sizeof(a) / sizeof((a)[0])))
#define KERNEL	FT_NEED(FT_EV_KSTACK)
#define BOTH	(FT_NEED(FT_EV_KSTACK) | FT_NEED(FT_EV_USTACK))

/*
 * test_stack_nesting - kernel stacks only: 1 plain; 3 made by an interrupt between 2
 * and 2's stack; another event's record (and its stack) between 4 and 4's stack; 5
 * whose stack never came, under 6 whose did; lost events end the waits of 8 and 5; 9
 * after them; a record no analyzer reads (and its stack) between 10 and 10's stack.
 * Rows of one count print in the order their records were counted.
 */
static void test_stack_nesting(void **state)
{
	static const struct rec recs[] = {
		{ H, 1 }, { K, 1 },
		{ H, 2 }, { H, 3 }, { K, 3 }, { K, 2 },
		{ H, 4 }, { X, 0 }, { K, 5 }, { K, 4 },
		{ H, 5 }, { H, 6 }, { K, 6 },
		{ H, 8 }, { L, 0 }, { H, 9 }, { K, 9 },
		{ H, 10 }, { O, 0 }, { K, 7 }, { K, 10 },
	};

	(void)state;
	play(KERNEL, recs, N(recs),
	     "1;f1 1\n3;f3 1\n2;f2 1\n4;f4 1\n6;f6 1\n8;[no kernel stack] 1\n"
	     "5;[no kernel stack] 1\n9;f9 1\n10;f10 1\n");
}

/*
 * test_stack_nmi - kernel and user stacks: 7 gets both; 8 is an NMI's (a kernel stack,
 * no user stack) made between 9 and 9's stacks; 2 is made between 1's kernel stack
 * and its user stack (1 keeps its own kernel stack)
 */
static void test_stack_nmi(void **state)
{
	static const struct rec recs[] = {
		{ H, 7 }, { K, 7 }, { U, 0 },
		{ H, 9 }, { H, 8 }, { K, 8 }, { K, 9 }, { U, 0 },
		{ H, 1 }, { K, 1 }, { H, 2 }, { K, 2 }, { U, 0 }, { U, 0 },
	};

	(void)state;
	play(BOTH, recs, N(recs), "7;f7 1\n8;f8 1\n9;f9 1\n2;f2 1\n1;f1 1\n");
}

/*
 * test_stack_file_no_user - a file holds the user_stack format but no user stacks:
 * each record is counted when the next comes, not kept waiting for a user stack
 * (the rows in the order of their records)
 */
static void test_stack_file_no_user(void **state)
{
	static const struct rec recs[] = {
		{ H, 1 }, { K, 1 }, { H, 2 }, { K, 2 }, { H, 3 }, { K, 3 },
	};

	(void)state;
	play(BOTH, recs, N(recs), "1;f1 1\n2;f2 1\n3;f3 1\n");
}

/*
 * test_stack_too_deep - seven records nested on one CPU, one more than are kept
 * waiting: the outermost is counted at once (no stack), the others get their own
 */
static void test_stack_too_deep(void **state)
{
	static const struct rec recs[] = {
		{ H, 1 }, { H, 2 }, { H, 3 }, { H, 4 }, { H, 5 }, { H, 6 }, { H, 7 },
		{ K, 7 }, { K, 6 }, { K, 5 }, { K, 4 }, { K, 3 }, { K, 2 },
	};

	(void)state;
	play(KERNEL, recs, N(recs), "1;[no kernel stack] 1\n7;f7 1\n6;f6 1\n5;fx 1\n"
	     "4;f4 1\n3;f3 1\n2;f2 1\n");
}

/*
 * test_stack_interval - an interval's reset empties the stack tables with the keys
 * that named their stacks; 2, still waiting for its user stack at the reset, takes
 * its kernel stack along (re-interned, with 3's and 4's after it in the new table)
 */
static void test_stack_interval(void **state)
{
	static const struct rec before[] = { { H, 1 }, { K, 1 }, { U, 0 }, { H, 2 }, { K, 2 } };
	static const struct rec after[] = {
		{ U, 0 }, { H, 3 }, { K, 3 }, { U, 0 }, { H, 4 }, { K, 4 }, { U, 0 },
	};
	struct run r;
	struct hist *h;

	(void)state;
	start(&r, BOTH);
	h = r.ut.priv;
	feed(&r, before, N(before));
	assert_int_equal(h->st.kst.n, 2);
	assert_string_equal(ut_report_as(&r.ut, (struct ft_report){ .interval = true }, false),
			    "1;f1 1\n");
	assert_int_equal(h->st.kst.n, 1);	/* 2's, carried */
	feed(&r, after, N(after));
	assert_string_equal(ut_report(&r.ut, false), "2;f2 1\n3;f3 1\n4;f4 1\n");
	ut_finish(&r.ut);
	unlink(r.syms);
}

/* main - the cases */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stack_nesting),
		cmocka_unit_test(test_stack_nmi),
		cmocka_unit_test(test_stack_file_no_user),
		cmocka_unit_test(test_stack_too_deep),
		cmocka_unit_test(test_stack_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
