// SPDX-License-Identifier: GPL-2.0
/*
 * lock's pairing, from hand-built lock:contention_begin/end records with times known to
 * the nanosecond: waits per task (a waiter that migrates), a mutex's repeated begin,
 * nested waits, ends without their begin, waits open at the end or under way at a
 * loss, a wait's kernel stack after an interrupt's record and stack, and the types of
 * the begin's flags.
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

#include "analyzers/analyzer.h"
#include "events/decode.h"
#include "analyzers/lock_int.h"
#include "tests/unit/harness.h"
#include "tests/unit/lock_events.h"

extern const struct ft_analyzer ft_lock;

/* start - lock with option @opt (0: none), its tracepoints resolved */
static void start(struct ut_run *r, int opt)
{
	ut_start(r, &ft_lock);
	if (opt)
		ut_opt(r, opt, NULL);
	ut_check(r);
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
		ev = lock_event(&recs[i], b);
		ut_event(r, &ev);
	}
}

/* has - the report holds @s */
static void has(struct ut_run *r, const char *s)
{
	if (!strstr(r->text, s))
		fail_msg("no '%s' in: %s", s, r->text);
}

enum { OPT_THREADS = 0x100 };

/*
 * test_lock_per_task - two tasks wait for one rwsem and wake on each other's CPU: each
 * wait is its task's (keyed by CPU they would be 1500 and 2500 ns, or unpaired)
 */
static void test_lock_per_task(void **state)
{
	static const struct rec recs[] = {
		{ BEGIN, 0, 1000, 10, 0xa000, 4 },
		{ BEGIN, 1, 1500, 11, 0xa000, 4 },
		{ END, 1, 3000, 10, 0xa000, 0 },
		{ END, 0, 4500, 11, 0xa000, 0 },
	};
	struct ut_run r;

	start(&r, 'l');
	feed(&r, recs, 4);
	ut_report(&r, true);
	has(&r, "\"rows\":[{\"type\":\"rwsem:W\",\"address\":\"0xa000\",\"symbol\":\"\","
		"\"contended\":2,\"total_ns\":5000,\"max_ns\":3000,\"min_ns\":2000,"
		"\"avg_ns\":2500,");
	has(&r, "\"unpaired_ends\":0,\"open_at_end\":0,");
	ut_finish(&r);
}

/*
 * test_lock_mutex_nested - a mutex spins (flags 33), then sleeps (32): one wait from the
 * first begin; a spinlock waited for inside it (its wait_lock) is a wait of its own
 */
static void test_lock_mutex_nested(void **state)
{
	static const struct rec recs[] = {
		{ BEGIN, 0, 1000, 10, 0xb000, 33 },
		{ BEGIN, 0, 2000, 10, 0xb000, 32 },
		{ BEGIN, 0, 2100, 10, 0xb100, 1 },
		{ END, 0, 2200, 10, 0xb100, 0 },
		{ END, 1, 6000, 10, 0xb000, 0 },
	};
	struct ut_run r;

	start(&r, 'l');
	feed(&r, recs, 5);
	ut_report(&r, true);
	has(&r, "{\"type\":\"mutex\",\"address\":\"0xb000\",\"symbol\":\"\",\"contended\":1,"
		"\"total_ns\":5000,");
	has(&r, "{\"type\":\"spinlock\",\"address\":\"0xb100\",\"symbol\":\"\",\"contended\":1,"
		"\"total_ns\":100,");
	has(&r, "\"repeated_begins\":1,");
	ut_finish(&r);
}

/*
 * test_lock_not_timed - an end without its begin, a wait open at the end, a wait under
 * way when events were lost (its end comes later): counted, none timed
 */
static void test_lock_not_timed(void **state)
{
	static const struct rec recs[] = {
		{ END, 0, 500, 12, 0xc000, 0 },
		{ BEGIN, 0, 1000, 10, 0xc100, 2 },
		{ LOST, 1, 1500, 0, 0, 0 },
		{ END, 0, 2000, 10, 0xc100, 0 },
		{ BEGIN, 1, 3000, 11, 0xc200, 2 },
	};
	struct ut_run r;

	start(&r, OPT_THREADS);
	feed(&r, recs, 5);
	ut_report(&r, true);
	has(&r, "\"unpaired_ends\":1,\"open_at_end\":1,\"dropped_after_loss\":1,");
	has(&r, "\"rows\":[]");
	ut_report(&r, false);
	has(&r, "lock: 1 ends without their begin");
	has(&r, "lock: 1 waits still under way at the end: not timed");
	has(&r, "lock: 1 waits under way when events were lost: not timed");
	ut_finish(&r);
}

/*
 * test_lock_stack_after_irq - an interrupt's begin and stack come between a begin and
 * its stack: each wait gets its own stack, told apart by the callers a small kallsyms
 * names (the one without a stack would be "Unknown")
 */
static void test_lock_stack_after_irq(void **state)
{
	static const struct rec recs[] = {
		{ BEGIN, 0, 1000, 10, 0xd000, 4 },
		{ BEGIN, 0, 1100, 10, 0xd100, 1 },
		{ KSTACK, 0, 1100, 10, 0xffffffff81000110ULL, 0 },
		{ KSTACK, 0, 1000, 10, 0xffffffff81000210ULL, 0 },
		{ END, 0, 1200, 10, 0xd100, 0 },
		{ KSTACK, 0, 1200, 10, 0xffffffff81000310ULL, 0 },
		{ END, 0, 5000, 10, 0xd000, 0 },
	};
	char ksyms[] = "/tmp/test_lock_ksyms.XXXXXX";
	int fd = mkstemp(ksyms);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct ut_run r;

	/* the three stacks' frames named apart (return addresses: 0x10 into each), so each
	   row tells which stack it got */
	assert_non_null(f);
	fprintf(f, "ffffffff81000100 T in_irq_path\nffffffff81000200 T in_rwsem_path\n"
		   "ffffffff81000300 T after_the_end\nffffffff81000400 T _etext\n");
	fclose(f);
	ut_start(&r, &ft_lock);
	r.env.kallsyms = ksyms;
	ut_check(&r);
	ut_formats(&r, "lock", lock_formats, 2);
	ut_init(&r);
	feed(&r, recs, 7);
	ut_report(&r, true);
	unlink(ksyms);
	has(&r, "\"without_stack\":0");
	has(&r, "{\"type\":\"rwsem:W\",\"caller\":\"in_rwsem_path");
	has(&r, "{\"type\":\"spinlock\",\"caller\":\"in_irq_path");
	ut_finish(&r);
}

/* test_lock_types - the begin's flags named as perf names them */
static void test_lock_types(void **state)
{
	static const unsigned int flags[] = { 0, 1, 2, 3, 4, 5, 8, 18, 32, 33, 7 };
	static const char *const names[] = { "semaphore", "spinlock", "rwsem:R", "rwlock:R",
					     "rwsem:W", "rwlock:W", "rt-mutex", "pcpu-sem:R",
					     "mutex", "mutex", "unknown" };
	struct rec recs[22];
	char want[64];
	struct ut_run r;
	int i;

	for (i = 0; i < 11; i++) {
		recs[2 * i] = (struct rec){ BEGIN, 0, 1000 + 10 * i, 10, 0xe000 + 16 * i, flags[i] };
		recs[2 * i + 1] = (struct rec){ END, 0, 1005 + 10 * i, 10, 0xe000 + 16 * i, 0 };
	}
	start(&r, 'l');
	feed(&r, recs, 22);
	ut_report(&r, true);
	for (i = 0; i < 11; i++) {
		snprintf(want, sizeof(want), "{\"type\":\"%s\",\"address\":\"0x%x\",", names[i],
			 0xe000 + 16 * i);
		has(&r, want);
	}
	ut_finish(&r);
}

/*
 * test_lock_interval_keys - 1000 lock addresses in a first interval, one in the second:
 * the second's report has its one row, and the keys and rows of the first are gone
 * (kept, they grow with every address a long run ever saw)
 */
static void test_lock_interval_keys(void **state)
{
	static struct rec recs[2000];
	const struct lock *x;
	struct ut_run r;
	int i;

	for (i = 0; i < 1000; i++) {
		recs[2 * i] = (struct rec){ BEGIN, 0, 1000 + 10 * i, 10, 0x10000 + 64 * i, 32 };
		recs[2 * i + 1] = (struct rec){ END, 0, 1005 + 10 * i, 10, 0x10000 + 64 * i, 0 };
	}
	start(&r, 'l');
	x = r.priv;
	feed(&r, recs, 2000);
	assert_int_equal(x->keys.n, 1000);
	ut_report_as(&r, (struct ft_report){ .interval = true }, true);
	feed(&r, (struct rec[]){ { BEGIN, 1, 20000, 11, 0xa000, 32 },
				 { END, 1, 20007, 11, 0xa000, 0 } }, 2);
	ut_report(&r, true);	/* the last interval's: no reset after it */
	has(&r, "\"rows\":[{\"type\":\"mutex\",\"address\":\"0xa000\",");
	has(&r, "\"contended\":1,\"total_ns\":7,");
	assert_int_equal(x->keys.n, 1);
	assert_int_equal(x->rows.n, 1);
	ut_finish(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_per_task),
		cmocka_unit_test(test_lock_mutex_nested),
		cmocka_unit_test(test_lock_not_timed),
		cmocka_unit_test(test_lock_stack_after_irq),
		cmocka_unit_test(test_lock_types),
		cmocka_unit_test(test_lock_interval_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
