// SPDX-License-Identifier: GPL-2.0
/*
 * The losses a trace.dat's CPUSTAT texts hold: ftscope's (the kernel's stats text,
 * one per CPU in order) and trace-cmd's ("CPU: N" first, the instances' after a
 * "Buffer: NAME" text, read when the file is read from that instance), summed as a
 * live run sums them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "events/tdat.h"

/* blob - a text as a CPUSTAT option keeps it (no terminating NUL) */
static struct ft_blob blob(const char *s)
{
	struct ft_blob b = { s, strlen(s) };

	return b;
}

/* test_ftscope_stats - no "CPU:" line: the N-th text is CPU N; read events are no loss */
static void test_ftscope_stats(void **state)
{
	struct ft_blob st[2] = {
		blob("entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
		     "dropped events: 3032\nread events: 7705\n"),
		blob("entries: 0\noverrun: 7\ncommit overrun: 2\nbytes: 0\n"
		     "dropped events: 2801\nread events: 1"),
	};
	struct ft_tdat t = { .cpustat = st, .ncpustat = 2 };
	unsigned long long n = 0;

	assert_true(ft_tdat_lost(&t, 0, &n));
	assert_int_equal(n, 3032);
	assert_true(ft_tdat_lost(&t, 1, &n));
	assert_int_equal(n, 7 + 2 + 2801);
	assert_false(ft_tdat_lost(&t, 2, &n));
}

/* test_trace_cmd_stats - "CPU: N" names the CPU; an instance's stats are not the top's */
static void test_trace_cmd_stats(void **state)
{
	struct ft_blob st[5] = {
		blob("CPU: 1\nentries: 0\noverrun: 4419\ncommit overrun: 0\ndropped events: 0\n"),
		blob("CPU: 0\nentries: 0\noverrun: 12043\ncommit overrun: 0\ndropped events: 0\n"),
		blob("\nBuffer: tdatx\n\n"),
		blob("CPU: 2\nentries: 0\noverrun: 99\ncommit overrun: 0\ndropped events: 0\n"),
		blob("CPU: 0\nentries: 0\noverrun: 55\ncommit overrun: 0\ndropped events: 0\n"),
	};
	struct ft_tdat t = { .cpustat = st, .ncpustat = 5 };
	unsigned long long n = 0;

	assert_true(ft_tdat_lost(&t, 0, &n));
	assert_int_equal(n, 12043);
	assert_true(ft_tdat_lost(&t, 1, &n));
	assert_int_equal(n, 4419);
	assert_false(ft_tdat_lost(&t, 2, &n));
}

/* test_instance_stats - a file read from instance tdatx: its stats, not the top's */
static void test_instance_stats(void **state)
{
	struct ft_blob st[6] = {
		blob("CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\ndropped events: 0\n"),
		blob("\nBuffer: other\n\n"),
		blob("CPU: 0\nentries: 0\noverrun: 77\ncommit overrun: 0\ndropped events: 0\n"),
		blob("\nBuffer: tdatx\n\n"),
		blob("CPU: 0\nentries: 0\noverrun: 12299\ncommit overrun: 0\ndropped events: 0\n"),
		blob("CPU: 1\nentries: 0\noverrun: 17122\ncommit overrun: 1\ndropped events: 0\n"),
	};
	struct ft_tdat t = { .cpustat = st, .ncpustat = 6, .buffer = "tdatx" };
	unsigned long long n = 0;

	assert_true(ft_tdat_lost(&t, 0, &n));
	assert_int_equal(n, 12299);
	assert_true(ft_tdat_lost(&t, 1, &n));
	assert_int_equal(n, 17123);
	t.buffer = "";
	assert_true(ft_tdat_lost(&t, 0, &n));
	assert_int_equal(n, 0);
	assert_false(ft_tdat_lost(&t, 1, &n));
}

/* test_no_stats - a file without CPUSTAT says nothing about losses */
static void test_no_stats(void **state)
{
	struct ft_tdat t = { 0 };
	unsigned long long n = 42;

	assert_false(ft_tdat_lost(&t, 0, &n));
	assert_int_equal(n, 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ftscope_stats),
		cmocka_unit_test(test_trace_cmd_stats),
		cmocka_unit_test(test_instance_stats),
		cmocka_unit_test(test_no_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
