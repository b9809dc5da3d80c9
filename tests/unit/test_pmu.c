// SPDX-License-Identifier: GPL-2.0
/*
 * The counter stage without counters: event lists parse to the perf_event_attr
 * types and configs perf uses; fabricated readings scale, derive their metrics and
 * print in perf stat's layouts, byte for byte.
 */
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/json.h"
#include "output/pmu_print.h"
#include "tracer/pmu.h"

#define SW(n, c, v, ena, run) { n, PERF_TYPE_SOFTWARE, c, FT_PMU_COUNTED, v, ena, run }
#define HW(n, c, v, ena, run) { n, PERF_TYPE_HARDWARE, c, FT_PMU_COUNTED, v, ena, run }
#define L1D(res) (PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) | \
		  ((uint64_t)(res) << 16))

/* test_parse - names, modifiers, groups and raw codes become perf's attr values */
static void test_parse(void **state)
{
	struct ft_pmu p = { 0 };

	assert_int_equal(ft_pmu_parse(&p, "cycles:u,{instructions,branches},"
				      "L1-dcache-load-misses,r1a2,cs,dTLB-stores"), 0);
	assert_int_equal(p.nev, 7);
	assert_int_equal(p.ev[0].type, PERF_TYPE_HARDWARE);
	assert_int_equal(p.ev[0].config, PERF_COUNT_HW_CPU_CYCLES);
	assert_true(p.ev[0].exclude_kernel);
	assert_false(p.ev[0].exclude_user);
	assert_int_equal(p.ev[0].leader, -1);
	assert_int_equal(p.ev[1].leader, 1);
	assert_int_equal(p.ev[2].leader, 1);
	assert_int_equal(p.ev[2].config, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	assert_int_equal(p.ev[3].type, PERF_TYPE_HW_CACHE);
	assert_int_equal(p.ev[3].config, 0x10000);
	assert_int_equal(p.ev[4].type, PERF_TYPE_RAW);
	assert_int_equal(p.ev[4].config, 0x1a2);
	assert_int_equal(p.ev[5].type, PERF_TYPE_SOFTWARE);
	assert_int_equal(p.ev[5].config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_int_equal(p.ev[6].config, PERF_COUNT_HW_CACHE_DTLB |
			 (PERF_COUNT_HW_CACHE_OP_WRITE << 8));
	ft_pmu_close(&p);

	assert_int_equal(ft_pmu_parse(&p, "cyclez"), -1);
	ft_pmu_close(&p);
	assert_int_equal(ft_pmu_parse(&p, "{cycles,instructions"), -1);
	ft_pmu_close(&p);
	assert_int_equal(ft_pmu_parse(&p, "cycles}"), -1);
	ft_pmu_close(&p);
	assert_int_equal(ft_pmu_parse(&p, "cycles,,cs"), -1);
	ft_pmu_close(&p);
	assert_int_equal(ft_pmu_parse(&p, "cycles:x"), -1);
	ft_pmu_close(&p);
	assert_int_equal(ft_pmu_parse(&p, "{{cycles}}"), -1);
	ft_pmu_close(&p);
}

/* test_scaling - a counter that ran half its window counts double, at 50% */
static void test_scaling(void **state)
{
	struct ft_pmu_count c = HW("cycles", PERF_COUNT_HW_CPU_CYCLES, 1000, 200, 100);

	assert_float_equal(ft_pmu_scaled(&c), 2000, 1e-9);
	assert_float_equal(ft_pmu_pct_running(&c), 50, 1e-9);
	c.running_ns = 200;
	assert_float_equal(ft_pmu_scaled(&c), 1000, 1e-9);
	assert_float_equal(ft_pmu_pct_running(&c), 100, 1e-9);
	c.running_ns = 0;
	assert_float_equal(ft_pmu_scaled(&c), 0, 1e-9);
	c.state = FT_PMU_NOT_SUPPORTED;
	assert_float_equal(ft_pmu_pct_running(&c), 100, 1e-9);
}

/* test_metrics - every derived metric from known readings */
static void test_metrics(void **state)
{
	const struct ft_pmu_count c[] = {
		SW("task-clock", PERF_COUNT_SW_TASK_CLOCK, 500000000, 500000000, 500000000),
		HW("cycles", PERF_COUNT_HW_CPU_CYCLES, 1000000000, 2, 1),	/* x2: 2e9 */
		HW("instructions", PERF_COUNT_HW_INSTRUCTIONS, 3000000000ULL, 1, 1),
		HW("branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1000, 1, 1),
		HW("branch-misses", PERF_COUNT_HW_BRANCH_MISSES, 50, 1, 1),
		{ "L1-dcache-loads", PERF_TYPE_HW_CACHE, L1D(0), FT_PMU_COUNTED, 400, 1, 1 },
		{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, L1D(1), FT_PMU_COUNTED, 40, 1, 1 },
		SW("page-faults", PERF_COUNT_SW_PAGE_FAULTS, 5000, 1, 1),
		HW("cache-misses", PERF_COUNT_HW_CACHE_MISSES, 7, 1, 1),
		SW("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES, 3, 1, 1),
	};
	int n = sizeof(c) / sizeof(c[0]);
	struct ft_pmu_metric m;

	assert_true(ft_pmu_metric(c, 0, n, 1000000000, &m));	/* 0.5 s of 1 s */
	assert_float_equal(m.value, 0.5, 1e-9);
	assert_string_equal(m.unit, "CPUs utilized");
	assert_true(ft_pmu_metric(c, 1, n, 1000000000, &m));	/* 2e9 cycles in 0.5 s */
	assert_float_equal(m.value, 4.0, 1e-9);
	assert_string_equal(m.unit, "GHz");
	assert_true(ft_pmu_metric(c, 2, n, 1000000000, &m));
	assert_float_equal(m.value, 1.5, 1e-9);
	assert_string_equal(m.unit, "insn per cycle");
	assert_true(ft_pmu_metric(c, 3, n, 1000000000, &m));	/* 1000 in 0.5 s */
	assert_float_equal(m.value, 2.0, 1e-9);
	assert_string_equal(m.unit, "K/sec");
	assert_true(ft_pmu_metric(c, 4, n, 1000000000, &m));
	assert_true(m.percent);
	assert_float_equal(m.value, 5.0, 1e-9);
	assert_string_equal(m.unit, "of all branches");
	assert_true(ft_pmu_metric(c, 6, n, 1000000000, &m));
	assert_float_equal(m.value, 10.0, 1e-9);
	assert_string_equal(m.unit, "of all L1-dcache accesses");
	assert_true(ft_pmu_metric(c, 7, n, 1000000000, &m));
	assert_float_equal(m.value, 10.0, 1e-9);
	assert_string_equal(m.unit, "K/sec");
	/* cache-misses without cache-references: no ratio to give */
	assert_false(ft_pmu_metric(c, 8, n, 1000000000, &m));
	assert_true(ft_pmu_metric(c, 9, n, 1000000000, &m));
	assert_float_equal(m.value, 6.0, 1e-9);
	assert_string_equal(m.unit, "/sec");
	/* no clock in the window: no rate */
	assert_false(ft_pmu_metric(c + 7, 0, 1, 1000000000, &m));
}

/* printed - what ft_pmu_print writes for @c */
static char *printed(const struct ft_pmu_count *c, int n, uint64_t elapsed,
		     const struct ft_pmu_fmt *fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ft_pmu_print(f, c, n, elapsed, fmt);
	fclose(f);
	return buf;
}

/* test_layouts - perf stat's text and CSV lines, byte for byte */
static void test_layouts(void **state)
{
	const struct ft_pmu_count c[] = {
		SW("task-clock", PERF_COUNT_SW_TASK_CLOCK, 304900000, 304900000, 304900000),
		SW("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES, 79, 304900000, 304900000),
		{ "cycles", PERF_TYPE_HARDWARE, 0, FT_PMU_NOT_SUPPORTED, 0, 0, 0 },
		HW("instructions", PERF_COUNT_HW_INSTRUCTIONS, 1000, 300, 150),
		{ "page-faults", PERF_TYPE_SOFTWARE, 2, FT_PMU_NOT_COUNTED, 0, 5, 0 },
	};
	struct ft_pmu_fmt text = { 0 }, csv = { .csv_sep = "," };
	struct ft_pmu_fmt ival = { .interval = true, .time_s = 1.5 };
	char *s;

	s = printed(c, 5, 305500000, &text);
	assert_string_equal(s,
		"            304.90 msec task-clock                       #    0.998 CPUs utilized\n"
		"                79      context-switches                 #  259.101 /sec\n"
		"   <not supported>      cycles\n"
		"              2000      instructions  (50.00%)\n"
		"     <not counted>      page-faults\n");
	free(s);
	s = printed(c, 5, 305500000, &csv);
	assert_string_equal(s,
		"304.90,msec,task-clock,304900000,100.00,0.998,CPUs utilized\n"
		"79,,context-switches,304900000,100.00,259.101,/sec\n"
		"<not supported>,,cycles,0,100.00,,\n"
		"2000,,instructions,150,50.00,,\n"
		"<not counted>,,page-faults,0,100.00,,\n");
	free(s);
	s = printed(c, 1, 305500000, &ival);
	assert_string_equal(s,
		"     1.500000000             304.90 msec task-clock                       "
		"#    0.998 CPUs utilized\n");
	free(s);
}

/* test_json - the "pmu" array carries state, scaled value and metric */
static void test_json(void **state)
{
	const struct ft_pmu_count c[] = {
		SW("task-clock", PERF_COUNT_SW_TASK_CLOCK, 2000000, 2000000, 2000000),
		{ "cycles", PERF_TYPE_HARDWARE, 0, FT_PMU_NOT_SUPPORTED, 0, 0, 0 },
	};
	struct ft_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ft_json_init(&j, f);
	ft_json_obj_begin(&j, NULL);
	ft_pmu_json(&j, c, 2, 4000000);
	ft_json_obj_end(&j);
	fclose(f);
	assert_non_null(strstr(buf, "\"event\":\"task-clock\",\"state\":\"counted\","
			       "\"unit\":\"msec\",\"value\":2.000"));
	assert_non_null(strstr(buf, "\"metric_value\":0.500,\"metric_unit\":\"CPUs utilized\""));
	assert_non_null(strstr(buf, "\"event\":\"cycles\",\"state\":\"not supported\""));
	assert_null(strstr(strstr(buf, "cycles"), "\"value\""));
	free(buf);
}

/* main - run the counter tests */
#ifdef FT_TEST_INJECT_OOB
/*
 * test_inject_oob - `make check FT_TEST_INJECT=oob`: a write one byte past a heap block,
 * which only ASan sees. Its suite then dies (exit 99) before the tests after this one,
 * and tests/run-all.sh must fail; the normal build passes it. Never built otherwise.
 */
static void test_inject_oob(void **state)
{
	char *volatile p = malloc(8);

	assert_non_null(p);
	p[8] = 1;
	free(p);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
#ifdef FT_TEST_INJECT_OOB
		cmocka_unit_test(test_inject_oob),
#endif
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
