// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup --why (analyzers/why.c) on records built by hand: four waits whose parts are
 * known to the microsecond. CPU 0: a task running at the wakeup, interrupted by a
 * handler and by a softirq with a handler inside it, then preempted by a real-time
 * task. CPU 1: a wait before its first switch, one after lost events, one ending at a
 * rebuilt switch. Each part, its share and its reason must be exactly these, and the
 * parts add up to each wait. And a task woken for a busy CPU that ran on an idle one:
 * the idle CPU's parts, then the busy one's under "meanwhile on CPU N".
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
#include "analyzers/why.h"
#include "events/decode.h"
#include "tests/unit/harness.h"
#include "tests/unit/sched_events.h"

extern const struct ft_analyzer ft_wakeup;

enum { ENTRY = UT_IRQ_ENTRY, EXIT = UT_IRQ_EXIT, SI_ENTRY = UT_SI_ENTRY, SI_EXIT = UT_SI_EXIT };

#define US	1000ULL

/* irq - an interrupt record of @id on @cpu at @ts us: irq or vector @num, handler @name */
static void irq(struct ut_run *r, int id, int cpu, uint64_t ts, int num, const char *name)
{
	unsigned char b[64] = { 0 };
	struct ft_event ev = { .ts = ts * US, .cpu = cpu, .type = FT_EV_TP, .id = id, .data = b,
			       .size = 16 };
	uint16_t type = id;
	int32_t n = num;
	uint32_t loc;

	memcpy(b, &type, 2);
	memcpy(b + 8, &n, 4);
	if (name) {
		loc = (uint32_t)(strlen(name) + 1) << 16 | 16;
		memcpy(b + 12, &loc, 4);
		memcpy(b + 16, name, strlen(name) + 1);
		ev.size = 16 + strlen(name) + 1;
	}
	ut_event(r, &ev);
}

/* sw - a recorded switch at @ts us, the tasks with their prios */
static void sw(struct ut_run *r, uint64_t ts, int cpu, int prev, int pprio, int next, int nprio,
	       char state)
{
	struct ft_event ev = ev_switch(ts * US, cpu, prev, next, state);

	ev.sw.prev_prio = pprio;
	ev.sw.next_prio = nprio;
	ut_event(r, &ev);
}

/* wake - @pid woken at @ts us on @cpu by @by */
static void wake(struct ut_run *r, uint64_t ts, int cpu, int by, int pid)
{
	struct ft_event ev = ev_wake_as(FT_EV_WAKING, ts * US, cpu, by, pid);

	ev.wk.prio = 120;
	ut_event(r, &ev);
}

/* has - does the report hold @s? (print it when not) */
static void has(const struct ut_run *r, const char *s)
{
	if (!strstr(r->text, s))
		fprintf(stderr, "# missing '%s' in:\n%s\n", s, r->text);
	assert_non_null(strstr(r->text, s));
}

/* the four waits, and the parts of each */
static void test_why_parts(void **state)
{
	struct ft_event ev, lost = { .ts = 12000 * US, .cpu = 1, .type = FT_EV_LOST, .lost = 1 };
	struct ut_run r;

	(void)state;
	ut_start(&r, &ft_wakeup);
	ut_opt(&r, 0x100, "4");		/* --top 4 */
	ut_opt(&r, 0x104, NULL);	/* --why */
	ut_irq_formats(&r);
	ut_check(&r);
	ut_init(&r);
	/* CPU 0: 10 runs; 20 woken at 1000 and in at 7000 (6000 us) */
	sw(&r, 0, 0, 0, 120, 10, 120, 'R');
	wake(&r, 1000, 0, 10, 20);
	irq(&r, ENTRY, 0, 2000, 11, "eth0");		/* 500 */
	irq(&r, EXIT, 0, 2500, 11, NULL);
	irq(&r, SI_ENTRY, 0, 3000, 3, NULL);		/* net_rx 600 - 100 */
	irq(&r, ENTRY, 0, 3200, 11, "eth0");		/* 100 */
	irq(&r, EXIT, 0, 3300, 11, NULL);
	irq(&r, SI_EXIT, 0, 3600, 3, NULL);
	sw(&r, 5000, 0, 10, 120, 30, 49, 'R');		/* rt 50 preempts 10 */
	sw(&r, 7000, 0, 30, 49, 20, 120, 'S');
	/* CPU 1: 41 woken before its first switch (1000 us); 42 after lost events
	   (1000 us); 43 at a switch rebuilt in [16500, 18000], estimated 17000 */
	wake(&r, 10000, 1, 0, 41);
	sw(&r, 11000, 1, 50, 120, 41, 120, 'S');
	ut_event(&r, &lost);
	wake(&r, 13000, 1, 0, 42);
	sw(&r, 14000, 1, 41, 120, 42, 120, 'S');
	wake(&r, 15000, 1, 0, 43);
	ev = ev_switch(18000 * US, 1, 42, 43, 'S');
	ev.sw.synth = true;
	ev.sw.prev_state = -1;
	ev.sw.ts_min = 16500 * US;
	ev.sw.ts_est = 17000 * US;
	ut_event(&r, &ev);
	ut_report(&r, false);
	has(&r, "2900 us  48.3%  t[10] nice 0, running at the wakeup\n");
	has(&r, "2000 us  33.3%  t[30] rt 50, came in during it\n");
	has(&r, " 600 us  10.0%  hardirq eth0\n");
	has(&r, " 500 us   8.3%  softirq net_rx\n");
	has(&r, "1500 us  75.0%  t[42] nice 0, running at the wakeup\n");
	has(&r, " 500 us  25.0%  unknown: switch not recorded (rebuilt)\n");
	has(&r, "1000 us 100.0%  unknown: before the kept history\n");
	has(&r, "1000 us 100.0%  unknown: events lost\n");
	ut_report(&r, true);
	has(&r, "\"why\":[{\"kind\":\"task\",\"ns\":2900000,\"comm\":\"t\",\"pid\":10,\"prio\":120,"
		"\"at_wakeup\":true,\"rebuilt_switch\":false}");
	ut_finish(&r);
}

/* woken for CPU 0 (busy), run on CPU 1 (idle): both CPUs' parts */
static void test_why_woken(void **state)
{
	struct ut_run r;

	(void)state;
	ut_start(&r, &ft_wakeup);
	ut_opt(&r, 0x104, NULL);	/* --why */
	ut_irq_formats(&r);
	ut_check(&r);
	ut_init(&r);
	sw(&r, 0, 0, 0, 120, 10, 120, 'R');		/* CPU 0: 10 runs */
	sw(&r, 0, 1, 60, 120, 0, 120, 'S');		/* CPU 1: idle */
	wake(&r, 1000, 0, 10, 20);			/* 20 woken for CPU 0 */
	sw(&r, 4000, 1, 0, 120, 20, 120, 'R');		/* in on CPU 1: 3000 us */
	ut_report(&r, false);
	has(&r, "3000 us 100.0%  idle\n"
		"    meanwhile on CPU 0, the one the wakeup chose:\n"
		"              3000 us 100.0%  t[10] nice 0, running at the wakeup\n");
	ut_report(&r, true);
	has(&r, "\"why_woken_cpu\":0,\"why_woken\":[{\"kind\":\"task\",\"ns\":3000000,"
		"\"comm\":\"t\",\"pid\":10");
	ut_finish(&r);
}

/*
 * test_why_many_parts - a wait through 70 tasks of 10 us each, then one of 5000 us: the
 * long one is named with its own time, the rest gathered as more parts (a fixed table
 * of 64 once gave a 10 us task the time of all beyond it)
 */
static void test_why_many_parts(void **state)
{
	struct ut_run r;
	int i;

	(void)state;
	ut_start(&r, &ft_wakeup);
	ut_opt(&r, 0x100, "1");		/* --top 1 */
	ut_opt(&r, 0x104, NULL);	/* --why */
	ut_irq_formats(&r);
	ut_check(&r);
	ut_init(&r);
	sw(&r, 0, 0, 0, 120, 100, 120, 'R');
	wake(&r, 1000, 0, 100, 20);
	for (i = 0; i < 70; i++)
		sw(&r, 1010 + 10 * i, 0, 100 + i, 120, 101 + i, 120, 'R');
	sw(&r, 1700 + 5000, 0, 170, 120, 20, 120, 'S');
	ut_report(&r, false);
	if (!strstr(r.text, "5000 us") || !strstr(r.text, "t[170]") ||
	    strstr(r.text, "5000 us") > strstr(r.text, "t[170]") ||
	    !strstr(r.text, "more parts"))
		fail_msg("want t[170] with its 5000 us, the rest as more parts: %s", r.text);
	ut_finish(&r);
}

/*
 * the prio table keeps the tasks that live: 5000 short-lived tasks each woken, run and
 * switched out dead beside one that lives; the table holds at most DEAD_MIN (1024)
 * exited tasks beside it, and the living task's prio survives the rebuilds
 */
static void test_why_prios_dead(void **state)
{
	const struct ft_env env = { .ncpus = 1 };
	struct ft_event ev;
	struct ft_why y = { 0 };
	const int *p;
	int i;

	assert_int_equal(ft_why_init(&y, &env), 0);
	ev = ev_switch(1000, 0, 0, 7, 'R');
	ev.sw.next_prio = 100;
	ft_why_event(&y, &ev);
	for (i = 0; i < 5000; i++) {
		ev = ev_switch(2000 + 10 * i, 0, 7, 1000 + i, 'R');
		ev.sw.prev_prio = 100;
		ev.sw.next_prio = 120;
		ft_why_event(&y, &ev);
		ev = ev_switch(2005 + 10 * i, 0, 1000 + i, 7, i & 1 ? 'X' : 'Z');
		ev.sw.prev_prio = 120;
		ev.sw.next_prio = 100;
		ft_why_event(&y, &ev);
	}
	assert_in_range(y.prios.n, 1, 1025);	/* main: 5001 */
	p = ft_tab_find(&y.prios, 7);
	assert_non_null(p);
	assert_int_equal(p[1], 100 + 1000);	/* struct prio: pid, prio + 1000 */
	ft_why_fini(&y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_why_prios_dead),
		cmocka_unit_test(test_why_parts),
		cmocka_unit_test(test_why_many_parts),
		cmocka_unit_test(test_why_woken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
