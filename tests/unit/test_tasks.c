// SPDX-License-Identifier: GPL-2.0
/*
 * The task table (events/tasks.c): a process's name is its main thread's (tid ==
 * tgid) when any source names it, else that of its lowest thread looked up, whatever
 * the order of the lookups. runqlat -P's count of tasks of no known process (the
 * table guessed their process) is each interval's own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "events/tasks.h"
#include "tests/unit/harness.h"
#include "tests/unit/sched_events.h"

static const char tgids[] = "10 10\n11 10\n12 10\n";

/* table - an offline table: threads 11 and 12 of process 10, named; 10 not named */
static void table(struct ft_tasks *t, const char *saved)
{
	assert_int_equal(ft_tasks_init(t, false), 0);
	assert_int_equal(ft_tasks_tgids(t, tgids, sizeof(tgids) - 1), 0);
	if (saved)
		assert_int_equal(ft_tasks_saved(t, saved, strlen(saved)), 0);
	assert_non_null(ft_tasks_note(t, 11, "worker-a"));
	assert_non_null(ft_tasks_note(t, 12, "worker-b"));
}

/* process 10's name after looking up @first then @second */
static void lookups(int first, int second, const char *saved, const char *want)
{
	struct ft_tasks t;

	table(&t, saved);
	assert_int_equal(ft_tasks_tgid(&t, first), 10);
	assert_int_equal(ft_tasks_tgid(&t, second), 10);
	assert_string_equal(ft_tasks_comm(&t, 10), want);
	ft_tasks_fini(&t);
}

/* no source names the main thread: its lowest thread's name, in either order */
static void test_process_name_order(void **state)
{
	lookups(11, 12, NULL, "worker-a");
	lookups(12, 11, NULL, "worker-a");
}

/* a file's saved_cmdlines names the main thread: that, whichever thread came first */
static void test_process_name_saved(void **state)
{
	lookups(12, 11, "10 server\n12 worker-b\n", "server");
	lookups(11, 12, "10 server\n", "server");
}

/* the main thread's own name (a switch's comm) replaces a borrowed one, and stays */
static void test_process_name_own(void **state)
{
	char field[FT_TASK_COMM_LEN] = "worker-a";
	struct ft_tasks t;

	table(&t, NULL);
	assert_int_equal(ft_tasks_tgid(&t, 12), 10);
	assert_string_equal(ft_tasks_comm(&t, 10), "worker-b");
	/* the same bytes as the borrowed name, now the main thread's own */
	assert_non_null(ft_tasks_note_field(&t, 10, "worker-b\0\0\0\0\0\0\0"));
	assert_int_equal(ft_tasks_tgid(&t, 11), 10);
	assert_string_equal(ft_tasks_comm(&t, 10), "worker-b");
	assert_non_null(ft_tasks_note_field(&t, 10, field));
	assert_int_equal(ft_tasks_tgid(&t, 12), 10);
	assert_string_equal(ft_tasks_comm(&t, 10), "worker-a");
	ft_tasks_fini(&t);
}

/* runqlat -P, two intervals: each counts the tasks of no known process it measured */
static void test_runqlat_unknown_interval(void **state)
{
	extern const struct ft_analyzer ft_runqlat;
	const struct ft_event one[] = {
		/* no task table: 7 and 8 of no known process */
		ev_wake_as(FT_EV_WAKEUP, 1000, 0, 3, 7),
		ev_switch(4000, 0, 3, 7, 'S'),
		ev_wake_as(FT_EV_WAKEUP, 5000, 0, 7, 8),
		ev_switch(6000, 0, 7, 8, 'S'),
	}, two[] = {
		ev_wake_as(FT_EV_WAKEUP, 11000, 0, 8, 7),	/* 7 alone in the second interval */
		ev_switch(12000, 0, 8, 7, 'S'),
	};
	struct ut_run r;

	ut_start(&r, &ft_runqlat);
	ut_opts(&r, "P");
	ut_init(&r);
	ut_feed(&r, one, sizeof(one) / sizeof(one[0]));
	assert_non_null(strstr(ut_report_as(&r, (struct ft_report){ .interval = true }, false),
			       "runqlat: 2 tasks of no known process"));
	ut_feed(&r, two, sizeof(two) / sizeof(two[0]));
	assert_non_null(strstr(ut_report_as(&r, (struct ft_report){ .interval = true }, true),
			       "\"tasks_of_unknown_process\":1"));
	ut_finish(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_process_name_order),
		cmocka_unit_test(test_process_name_saved),
		cmocka_unit_test(test_process_name_own),
		cmocka_unit_test(test_runqlat_unknown_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
