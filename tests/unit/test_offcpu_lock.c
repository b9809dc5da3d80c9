// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu --locks, from hand-built sched_switch and lock:contention_begin/end records
 * with times known to the nanosecond: a thread that switches out inside an open
 * mutex contention is marked mutex; one whose contention ended before it switched
 * out is not; nested contentions mark the innermost open one (a mutex's repeated
 * begin and its wait_lock spinlock given back; an rwsem wait with a mutex inside);
 * contentions open at lost events are forgotten; without --locks nothing is marked.
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
#include "tests/unit/lock_events.h"
#include "tests/unit/sched_events.h"

extern const struct ft_analyzer ft_offcpu;

enum { OUT = -3, IN = -4 };	/* a switch-out (flags: its state), a switch-in */

/* opt_id - the id of offcpu's long option @name */
static int opt_id(const char *name)
{
	const struct option *o;

	for (o = ft_offcpu.cli.longopts; o->name; o++)
		if (!strcmp(o->name, name))
			return o->val;
	fail_msg("no option --%s", name);
	return 0;
}

/* start - offcpu (with --locks when @locks), its tracepoints resolved */
static void start(struct ut_run *r, bool locks)
{
	ut_start(r, &ft_offcpu);
	if (locks)
		ut_opt(r, opt_id("locks"), NULL);
	ut_formats(r, "lock", lock_formats, 2);
	ut_init(r);
}

/* feed - the records, as the pipeline delivers them */
static void feed(struct ut_run *r, const struct rec *recs, int n)
{
	unsigned char b[24];
	struct ft_event ev;
	int i;

	for (i = 0; i < n; i++) {
		const struct rec *p = &recs[i];

		if (p->id == OUT)
			ev = ev_switch(p->ts, p->cpu, p->tid, 0, (char)p->flags);
		else if (p->id == IN)
			ev = ev_switch(p->ts, p->cpu, 0, p->tid, 'R');
		else
			ev = lock_event(p, b);
		ut_event(r, &ev);
	}
}

/* has - the report holds @s */
static void has(struct ut_run *r, const char *s)
{
	if (!strstr(r->text, s))
		fail_msg("no '%s' in: %s", s, r->text);
}

/* hasnt - the report does not hold @s */
static void hasnt(struct ut_run *r, const char *s)
{
	if (strstr(r->text, s))
		fail_msg("'%s' in: %s", s, r->text);
}

/*
 * The records of the tests. Thread 10 sleeps (S) 10 us inside a mutex's contention;
 * 11 switches out 5 us after its rwsem contention ended; 12's mutex spins (33), then
 * sleeps (32: the same wait), its wait_lock spinlock waited for and given back inside,
 * then D for 20 us; 13 waits for a mutex inside an rwsem's read wait: 30 us, then,
 * both given back, 40 us unmarked; 14's mutex contention is open at lost events:
 * its 50 us sleep unmarked.
 */
static const struct rec recs[] = {
	{ BEGIN, 0, 1000, 10, 0xa000, 32 },
	{ OUT, 0, 2000, 10, 0, 'S' },
	{ IN, 1, 12000, 10, 0, 0 },
	{ END, 1, 12100, 10, 0xa000, 0 },

	{ BEGIN, 0, 13000, 11, 0xb000, 4 },
	{ END, 0, 13500, 11, 0xb000, 0 },
	{ OUT, 0, 14000, 11, 0, 'S' },
	{ IN, 0, 19000, 11, 0, 0 },

	{ BEGIN, 1, 20000, 12, 0xc000, 33 },
	{ BEGIN, 1, 20500, 12, 0xc000, 32 },
	{ BEGIN, 1, 20600, 12, 0xc100, 1 },
	{ END, 1, 20700, 12, 0xc100, 0 },
	{ OUT, 1, 21000, 12, 0, 'D' },
	{ IN, 0, 41000, 12, 0, 0 },
	{ END, 0, 41100, 12, 0xc000, 0 },

	{ BEGIN, 0, 50000, 13, 0xd000, 2 },
	{ BEGIN, 0, 50100, 13, 0xd100, 32 },
	{ OUT, 0, 51000, 13, 0, 'S' },
	{ IN, 0, 81000, 13, 0, 0 },
	{ END, 0, 81100, 13, 0xd100, 0 },
	{ END, 0, 81200, 13, 0xd000, 0 },
	{ OUT, 0, 82000, 13, 0, 'S' },
	{ IN, 0, 122000, 13, 0, 0 },

	{ BEGIN, 1, 130000, 14, 0xe000, 32 },
	{ LOST, 0, 130500, 0, 0, 0 },
	{ OUT, 1, 131000, 14, 0, 'S' },
	{ IN, 1, 181000, 14, 0, 0 },
};

#define NRECS	(int)(sizeof(recs) / sizeof(recs[0]))

/* test_offcpu_lock_json - each period's mark in JSON, one row per (thread, mark) */
static void test_offcpu_lock_json(void **state)
{
	struct ut_run r;

	start(&r, true);
	feed(&r, recs, NRECS);
	ut_report(&r, true);
	has(&r, "{\"tid\":10,\"pid\":10,\"comm\":\"t\",\"kernel\":[],\"user\":[],"
		"\"lock\":\"mutex\",\"us\":10,\"count\":1}");
	has(&r, "{\"tid\":11,\"pid\":11,\"comm\":\"t\",\"kernel\":[],\"user\":[],"
		"\"lock\":\"\",\"us\":5,\"count\":1}");
	has(&r, "{\"tid\":12,\"pid\":12,\"comm\":\"t\",\"kernel\":[],\"user\":[],"
		"\"lock\":\"mutex\",\"us\":20,\"count\":1}");
	has(&r, "{\"tid\":13,\"pid\":13,\"comm\":\"t\",\"kernel\":[],\"user\":[],"
		"\"lock\":\"mutex\",\"us\":30,\"count\":1}");
	has(&r, "{\"tid\":13,\"pid\":13,\"comm\":\"t\",\"kernel\":[],\"user\":[],"
		"\"lock\":\"\",\"us\":40,\"count\":1}");
	has(&r, "{\"tid\":14,\"pid\":14,\"comm\":\"t\",\"kernel\":[],\"user\":[],"
		"\"lock\":\"\",\"us\":50,\"count\":1}");
	has(&r, "\"periods\":6,");
	has(&r, "\"lock_events\":true,\"lock_marked_periods\":3,\"lock_lost_contentions\":1,");
	ut_finish(&r);
}

/*
 * test_offcpu_lock_folded - the mark as a frame after the comm: the marked threads'
 * lines merge (10 + 20 + 30 us), the others' (5 + 40 + 50 us); the text layout's line
 */
static void test_offcpu_lock_folded(void **state)
{
	struct ut_run r;

	start(&r, true);
	ut_opts(&r, "f");
	feed(&r, recs, NRECS);
	ut_report(&r, false);
	has(&r, "t;[lock mutex] 60\n");
	has(&r, "t 95\n");
	ut_finish(&r);

	start(&r, true);
	feed(&r, recs, NRECS);
	ut_report(&r, false);
	has(&r, "    -                t (10)\n    -                [lock mutex]\n        10\n");
	has(&r, "    -                t (11)\n        5\n");
	has(&r, "offcpu: --locks: 3 periods blocked in a lock's contention; 1 contentions "
		"open at lost events forgotten\n");
	ut_finish(&r);
}

/* test_offcpu_lock_off - without --locks the same records mark nothing, and say nothing */
static void test_offcpu_lock_off(void **state)
{
	struct ut_run r;

	start(&r, false);
	ut_opts(&r, "f");
	feed(&r, recs, NRECS);
	ut_report(&r, false);
	has(&r, "t 155\n");
	hasnt(&r, "lock");
	ut_report(&r, true);
	hasnt(&r, "lock");
	ut_finish(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offcpu_lock_json),
		cmocka_unit_test(test_offcpu_lock_folded),
		cmocka_unit_test(test_offcpu_lock_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
