// SPDX-License-Identifier: GPL-2.0
/*
 * timehist on hand-made records with known answers: migrations counted in a pid-filtered
 * stream, where the kernel records a move only when the task that makes it is traced.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyzers/analyzer.h"
#include "lib/pidset.h"
#include "harness.h"
#include "sched_events.h"

extern const struct ft_analyzer ft_timehist;

/* ev_migrate - a sched_migrate_task event of @pid from @from to @to, recorded on @cpu */
static struct ft_event ev_migrate(uint64_t ts, int cpu, int pid, int from, int to)
{
	struct ft_event e = { .ts = ts, .cpu = cpu, .type = FT_EV_MIGRATE, .common_pid = 0 };

	e.mig.pid = pid;
	e.mig.orig_cpu = from;
	e.mig.dest_cpu = to;
	return e;
}

/* migrations - the migrations column of task 7's row in the Runtime summary @out */
static long migrations(const char *out)
{
	const char *row = strstr(out, "t[7]");
	long n = -1;

	assert_non_null(row);
	/* t[7]  ppid  sched-in  run-time  min-run  avg-run  max-run  stddev  migrations */
	assert_int_equal(sscanf(row, "%*s %*s %*s %*s %*s %*s %*s %*s %ld", &n), 1);
	return n;
}

/* run_summary - feed @evs to `timehist -s`, the stream filtered (@filtered) to task 7 */
static void run_summary(const struct ft_event *evs, int n, bool filtered, char *out, size_t len)
{
	struct ft_imap traced = { 0 };
	struct ut_run r;

	ut_start(&r, &ft_timehist);
	assert_int_equal(ft_imap_init(&traced, 16), 0);
	if (filtered) {
		assert_non_null(ft_imap_put_any(&traced, 7, 1));
		r.env.traced = &traced;
		r.env.filtered_stream = true;
	}
	ut_opts(&r, "s");
	ut_init(&r);
	ut_feed(&r, evs, n);
	snprintf(out, len, "%s", ut_report(&r, false));
	ut_finish(&r);
	ft_imap_fini(&traced);
}

/*
 * Task 7's moves: (a) recorded (its waker was traced), then switched in on the new CPU:
 * one; (b) woken for the other CPU by an untraced waker, no record of the move: one; (c)
 * switched in on the other CPU after a preemption, moved by the migration thread: one;
 * (d) moved out and back between two records: none to see. Three in all, filtered; the
 * whole-system stream counts only the recorded one (perf's rule: it has every move).
 */
static void test_timehist_filtered_migrations(void **state)
{
	struct ft_event evs[] = {
		ev_switch(1000, 0, 0, 7, 'R'),
		ev_switch(2000, 0, 7, 0, 'S'),
		ev_migrate(3000, 0, 7, 0, 1),			/* (a) */
		ev_wake_as(FT_EV_WAKEUP, 3000, 1, 5, 7),
		ev_switch(4000, 1, 0, 7, 'R'),
		ev_switch(5000, 1, 7, 0, 'S'),
		ev_wake_as(FT_EV_WAKEUP, 6000, 0, 0, 7),	/* (b): target CPU 0 */
		ev_switch(7000, 0, 0, 7, 'R'),
		ev_switch(8000, 0, 7, 5, 'R'),			/* preempted */
		ev_switch(9000, 1, 0, 7, 'R'),			/* (c) */
		ev_switch(10000, 1, 7, 0, 'S'),
		ev_wake_as(FT_EV_WAKEUP, 12000, 1, 0, 7),	/* (d): 1 -> 0 -> 1 unseen */
		ev_switch(13000, 1, 0, 7, 'R'),
		ev_switch(14000, 1, 7, 0, 'S'),
	};
	char out[8192] = { 0 };
	int n = sizeof(evs) / sizeof(evs[0]);

	run_summary(evs, n, true, out, sizeof(out));
	assert_int_equal(migrations(out), 3);
	memset(out, 0, sizeof(out));
	run_summary(evs, n, false, out, sizeof(out));
	assert_int_equal(migrations(out), 1);
}

/* a tid seen again on another CPU after its task died is a new task: no migration */
static void test_timehist_reused_tid(void **state)
{
	struct ft_event evs[] = {
		ev_switch(1000, 0, 0, 7, 'R'),
		ev_switch(2000, 0, 7, 0, 'X'),			/* 7 exits */
		ev_switch(5000, 1, 0, 7, 'R'),			/* a new 7 on CPU 1 */
		ev_switch(6000, 1, 7, 0, 'S'),
	};
	char out[8192] = { 0 };

	run_summary(evs, sizeof(evs) / sizeof(evs[0]), true, out, sizeof(out));
	assert_int_equal(migrations(out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timehist_filtered_migrations),
		cmocka_unit_test(test_timehist_reused_tid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
