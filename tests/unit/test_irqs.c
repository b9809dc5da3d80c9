// SPDX-License-Identifier: GPL-2.0
/*
 * hardirqs and softirqs (analyzers/hardirqs.c, softirqs.c) on records built by hand
 * with the irq events' formats of this VM's 6.18 kernel: the handler times, counts,
 * raise -> entry latencies and unpaired records of two interleaved CPUs are known to
 * the nanosecond, and the reports must give exactly them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzers/analyzer.h"
#include "events/decode.h"
#include "tests/unit/harness.h"

extern const struct ft_analyzer ft_hardirqs, ft_softirqs;

enum { ENTRY = UT_IRQ_ENTRY, EXIT = UT_IRQ_EXIT, RAISE = UT_SI_RAISE, SI_ENTRY = UT_SI_ENTRY,
       SI_EXIT = UT_SI_EXIT, LOST = -1 };

/* One record of the scenario: event id, CPU, time, irq or vector, handler name. */
struct rec {
	int		id, cpu;
	uint64_t	ts;
	int		num;
	const char	*name;
};

/* start - @a with options @opts (short letters or long ids), its tracepoints resolved */
static void start(struct ut_run *r, const struct ft_analyzer *a, const int *opts, int nopts)
{
	int i;

	ut_start(r, a);
	for (i = 0; i < nopts; i++)
		ut_opt(r, opts[i], NULL);
	ut_irq_formats(r);
	ut_init(r);
}

/* feed - the records, as the pipeline delivers them */
static void feed(struct ut_run *r, const struct rec *recs, int n)
{
	unsigned char b[64];
	int i;

	for (i = 0; i < n; i++) {
		struct ft_event ev = { .ts = recs[i].ts, .cpu = recs[i].cpu, .type = FT_EV_TP,
				       .id = recs[i].id, .data = b };
		uint16_t type = recs[i].id;
		int32_t num = recs[i].num, zero = 0;
		uint32_t loc;

		if (recs[i].id == LOST) {
			ev = (struct ft_event){ .ts = recs[i].ts, .cpu = recs[i].cpu,
						.type = FT_EV_LOST, .id = -1, .lost = 1 };
			ut_event(r, &ev);
			continue;
		}
		memset(b, 0, sizeof(b));
		memcpy(b, &type, 2);
		memcpy(b + 8, &num, 4);
		ev.size = 12;
		if (recs[i].id == ENTRY) {
			loc = (uint32_t)(strlen(recs[i].name) + 1) << 16 | 16;
			memcpy(b + 12, &loc, 4);
			memcpy(b + 16, recs[i].name, strlen(recs[i].name) + 1);
			ev.size = 16 + strlen(recs[i].name) + 1;
		} else if (recs[i].id == EXIT) {
			memcpy(b + 12, &zero, 4);
			ev.size = 16;
		}
		ut_event(r, &ev);
	}
}

/* has - does the output hold @s? (print it when not) */
static void has(const struct ut_run *r, const char *s)
{
	if (!strstr(r->text, s))
		fprintf(stderr, "# missing '%s' in:\n%s\n", s, r->text);
	assert_non_null(strstr(r->text, s));
}

/*
 * Two CPUs: virtio0 (irq 11) 3000 ns on CPU 0 while eth0 (irq 12) runs 1000 ns on
 * CPU 1; virtio0 again 700 ns; an exit on CPU 1 with no entry; eth0 entered on CPU 0,
 * whose events are then lost, and its exit; eth0 entered on CPU 1 and an exit of
 * another line (irq 13) there.
 */
static const struct rec hard[] = {
	{ ENTRY, 0, 1000, 11, "virtio0" },
	{ ENTRY, 1, 1500, 12, "eth0" },
	{ EXIT, 0, 4000, 11, NULL },
	{ EXIT, 1, 2500, 12, NULL },
	{ ENTRY, 0, 10000, 11, "virtio0" },
	{ EXIT, 0, 10700, 11, NULL },
	{ EXIT, 1, 20000, 11, NULL },
	{ ENTRY, 0, 30000, 12, "eth0" },
	{ LOST, 0, 30500, 0, NULL },
	{ EXIT, 0, 31000, 12, NULL },
	{ ENTRY, 1, 40000, 12, "eth0" },
	{ EXIT, 1, 41000, 13, NULL },
};

/* test_hardirqs_times - per-handler counts and times in ns, and what went unpaired */
static void test_hardirqs_times(void **state)
{
	const int opts[] = { 'N' };
	struct ut_run r;

	start(&r, &ft_hardirqs, opts, 1);
	feed(&r, hard, sizeof(hard) / sizeof(hard[0]));
	ut_report(&r, true);
	has(&r, "{\"name\":\"eth0\",\"irq\":12,\"count\":3,\"total_ns\":1000,");
	has(&r, "{\"name\":\"virtio0\",\"irq\":11,\"count\":2,\"total_ns\":3700,");
	has(&r, "\"unpaired_exits\":3,\"unpaired_entries\":0,\"dropped_after_loss\":1}");
	ut_finish(&r);
}

/* test_hardirqs_layout - BCC's table in usecs, ascending; --count; --dist sections */
static void test_hardirqs_layout(void **state)
{
	const int count = 0x100, dist = 0x101;
	struct ut_run r;

	start(&r, &ft_hardirqs, NULL, 0);
	feed(&r, hard, sizeof(hard) / sizeof(hard[0]));
	ut_report(&r, false);
	has(&r, "HARDIRQ                    TOTAL_usecs\n"
		"eth0                                 1\n"
		"virtio0                              3\n");
	ut_finish(&r);
	start(&r, &ft_hardirqs, &count, 1);
	feed(&r, hard, sizeof(hard) / sizeof(hard[0]));
	ut_report(&r, false);
	has(&r, "HARDIRQ                    TOTAL_count\n"
		"virtio0                              2\n"
		"eth0                                 3\n");
	ut_finish(&r);
	start(&r, &ft_hardirqs, &dist, 1);
	feed(&r, hard, sizeof(hard) / sizeof(hard[0]));
	ut_report(&r, false);
	/* eth0: 1000 ns = 1 us (slot 1); virtio0: 3 us (slot 2) and 0 us (slot 1) */
	has(&r, "hardirq = eth0\n     usecs               : count     distribution\n"
		"         0 -> 1          : 1        |****************************************|\n");
	has(&r, "\nhardirq = virtio0\n     usecs               : count     distribution\n"
		"         0 -> 1          : 1        |****************************************|\n"
		"         2 -> 3          : 1        |****************************************|\n");
	ut_finish(&r);
}

/*
 * CPU 0 raises TIMER twice (the first starts the wait, the second is kept) and SCHED,
 * then runs TIMER (raised 1000 ns before, runs 2000) and SCHED (waited 2900, runs 500).
 * CPU 1 runs NET_RX (no raise seen, 4000 ns) and raises TIMER, which CPU 0 then runs
 * (100 ns): CPU 1's raise is not CPU 0's, and with nothing pending that entry takes
 * CPU 0's second raise (waited 9600: the kernel needs a raise after its clear).
 */
static const struct rec soft[] = {
	{ RAISE, 0, 100, 1, NULL },
	{ RAISE, 0, 200, 1, NULL },
	{ RAISE, 0, 300, 7, NULL },
	{ SI_ENTRY, 0, 1100, 1, NULL },
	{ SI_EXIT, 0, 3100, 1, NULL },
	{ SI_ENTRY, 0, 3200, 7, NULL },
	{ SI_EXIT, 0, 3700, 7, NULL },
	{ SI_ENTRY, 1, 5000, 3, NULL },
	{ SI_EXIT, 1, 9000, 3, NULL },
	{ RAISE, 1, 9500, 1, NULL },
	{ SI_ENTRY, 0, 9800, 1, NULL },
	{ SI_EXIT, 0, 9900, 1, NULL },
};

/* test_softirqs - per-vector counts, times and raise latencies, in ns and BCC's table */
static void test_softirqs(void **state)
{
	const int opts[] = { 'N' };
	struct ut_run r;

	start(&r, &ft_softirqs, opts, 1);
	feed(&r, soft, sizeof(soft) / sizeof(soft[0]));
	ut_report(&r, true);
	has(&r, "{\"name\":\"timer\",\"vec\":1,\"count\":2,\"total_ns\":2100,");
	has(&r, "{\"name\":\"sched\",\"vec\":7,\"count\":1,\"total_ns\":500,");
	has(&r, "{\"name\":\"net_rx\",\"vec\":3,\"count\":1,\"total_ns\":4000,");
	has(&r, "\"raise_to_entry\":[{\"name\":\"timer\",\"vec\":1,\"hist\":{\"unit\":\"ns\","
		"\"count\":2,\"sum_ns\":10600,");
	has(&r, "{\"name\":\"sched\",\"vec\":7,\"hist\":{\"unit\":\"ns\",\"count\":1,"
		"\"sum_ns\":2900,");
	has(&r, "\"unraised_entries\":1,\"unpaired_exits\":0,");
	ut_finish(&r);
	start(&r, &ft_softirqs, NULL, 0);
	feed(&r, soft, sizeof(soft) / sizeof(soft[0]));
	ut_report(&r, false);
	has(&r, "SOFTIRQ          TOTAL_usecs\n"
		"sched                      0\n"
		"timer                      2\n"
		"net_rx                     4\n");
	has(&r, "RAISE->ENTRY           COUNT   AVG_usecs   P99_usecs   MAX_usecs\n"
		"timer                      2         5.3         9.6         9.6\n"
		"sched                      1         2.9         2.9         2.9\n");
	ut_finish(&r);
}

/*
 * The kernel clears the pending mask, then runs what it read. CPU 0: SCHED raised at
 * 1000, BLOCK and SCHED again at 1500 and 1800 after the clear; SCHED runs (waited
 * 2000), then the restart runs BLOCK (2000) and SCHED (from 1800: 2200). CPU 1: TIMER
 * raised at 1000 and 1100 before the clear, runs (2000), is raised at 5000 (the
 * repeat dropped) and runs (100). CPU 0 raises RCU twice, runs it (500), loses
 * events: RCU entered again has no raise seen (its repeat forgotten).
 */
static const struct rec repeat[] = {
	{ RAISE, 0, 1000, 7, NULL },
	{ RAISE, 1, 1000, 1, NULL },
	{ RAISE, 1, 1100, 1, NULL },
	{ RAISE, 0, 1500, 4, NULL },
	{ RAISE, 0, 1800, 7, NULL },
	{ SI_ENTRY, 0, 3000, 7, NULL },
	{ SI_ENTRY, 1, 3000, 1, NULL },
	{ SI_EXIT, 0, 3400, 7, NULL },
	{ SI_EXIT, 1, 3400, 1, NULL },
	{ SI_ENTRY, 0, 3500, 4, NULL },
	{ SI_EXIT, 0, 3800, 4, NULL },
	{ SI_ENTRY, 0, 4000, 7, NULL },
	{ SI_EXIT, 0, 4300, 7, NULL },
	{ RAISE, 1, 5000, 1, NULL },
	{ SI_ENTRY, 1, 5100, 1, NULL },
	{ SI_EXIT, 1, 5200, 1, NULL },
	{ RAISE, 0, 6000, 9, NULL },
	{ RAISE, 0, 6200, 9, NULL },
	{ SI_ENTRY, 0, 6500, 9, NULL },
	{ SI_EXIT, 0, 6600, 9, NULL },
	{ LOST, 0, 7000, 0, NULL },
	{ SI_ENTRY, 0, 8000, 9, NULL },
	{ SI_EXIT, 0, 8100, 9, NULL },
};

/* test_softirqs_repeat - a raise while pending starts the wait of the run after */
static void test_softirqs_repeat(void **state)
{
	const int opts[] = { 'N' };
	struct ut_run r;

	start(&r, &ft_softirqs, opts, 1);
	feed(&r, repeat, sizeof(repeat) / sizeof(repeat[0]));
	ut_report(&r, true);
	has(&r, "\"raise_to_entry\":[{\"name\":\"timer\",\"vec\":1,\"hist\":{\"unit\":\"ns\","
		"\"count\":2,\"sum_ns\":2100,");
	has(&r, "{\"name\":\"block\",\"vec\":4,\"hist\":{\"unit\":\"ns\",\"count\":1,"
		"\"sum_ns\":2000,");
	has(&r, "{\"name\":\"sched\",\"vec\":7,\"hist\":{\"unit\":\"ns\",\"count\":2,"
		"\"sum_ns\":4200,\"avg_ns\":2100,\"min_ns\":2000,");
	has(&r, "{\"name\":\"rcu\",\"vec\":9,\"hist\":{\"unit\":\"ns\",\"count\":1,"
		"\"sum_ns\":500,");
	has(&r, "\"unraised_entries\":1,\"unpaired_exits\":0,\"unpaired_entries\":0,"
		"\"dropped_after_loss\":0,");
	ut_finish(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hardirqs_times),
		cmocka_unit_test(test_hardirqs_layout),
		cmocka_unit_test(test_softirqs),
		cmocka_unit_test(test_softirqs_repeat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
